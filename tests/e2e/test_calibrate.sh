#!/bin/bash
# `fathom calibrate` end to end: it builds and runs the ML-KEM calibration suite on sim-m4 and
# prints one row per published measurement (6), an error column, and the median absolute
# error. It checks the table's structure, not the error values (the timing model moves them),
# and that a broken reference file is a usage error.
. "$(dirname "$0")/lib.sh"
need_toolchain
"$FATHOM" sources | grep -qE '^pqclean +0\.8\.1 +ok' || command -v npm >/dev/null 2>&1 ||
  skip "pqclean sources are not cached and npm is not installed (fathom sources --fetch)"

expect_exit 0 "$FATHOM" calibrate --runs 1
out="$WORK/out"
grep -q '^timing model: ' "$out" || fail "no timing model line"
grep -qE '^operation +model median \[cycles\] +published \[cycles\] +error \[%\] +n +SHA-3/Keccak share \[%\] +outside SHA-3/Keccak \[cycles\]$' "$out" ||
  fail "table header lacks the model / published / error columns"
for op in mlkem512_keygen mlkem512_encaps mlkem512_decaps \
          mlkem768_keygen mlkem768_encaps mlkem768_decaps; do
  # The Keccak share is a real fraction (PQClean's KeccakF1600_StatePermute runs in every op).
  grep -qE "^$op +[0-9][0-9,]* +[0-9][0-9,]* +[-+][0-9]+\.[0-9]{2} +1 +[1-9][0-9]\.[0-9]{2} +[0-9][0-9,]*$" "$out" ||
    fail "no complete row for $op"
done
rows=$(grep -cE '^mlkem(512|768)_(keygen|encaps|decaps) ' "$out")
[ "$rows" = 6 ] || fail "expected 6 rows, got $rows"
grep -qE '^median absolute error: [0-9]+\.[0-9]{2} % over 6 operations$' "$out" ||
  fail "no median absolute error line over 6 operations"
grep -q 'hardware RNG' "$out" || fail "the randombytes caveat is missing"
# The published figures come from the data file, not from the code.
grep -qE '^mlkem512_keygen +[0-9,]+ +595,793 ' "$out" || fail "published figure not shown"

# A reference file with an unknown key is rejected before anything runs.
cp "$SRC/firmware/calibration/pqm4_stm32l4r5.toml" "$WORK/bad.toml"
echo 'typo_key = 1' >>"$WORK/bad.toml"
expect_exit 2 "$FATHOM" calibrate --reference "$WORK/bad.toml"
expect_err "typo_key"
echo PASS
