#!/bin/bash
# `fathom calibrate` end to end: it builds and runs the ML-KEM calibration suite on sim-m4 and
# prints the like-for-like view (cycles outside FIPS 202, model against published total x (1 -
# pqm4's hashing share)) and the total view, one row per published measurement (6) each, with
# the errors. It checks the tables' structure and recomputes one like-for-like row from its
# printed components, not the error values (the timing model moves them), and that a broken
# reference file is a usage error.
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
rows=$(grep -cE '^mlkem(512|768)_(keygen|encaps|decaps) +[0-9,]+ +[0-9,]+ +[-+]' "$out")
[ "$rows" = 6 ] || fail "expected 6 rows, got $rows"
grep -qE '^median absolute error: [0-9]+\.[0-9]{2} % over 6 operations$' "$out" ||
  fail "no median absolute error line over 6 operations"
grep -q 'hardware RNG' "$out" || fail "the randombytes caveat is missing"
# The published figures come from the data file, not from the code.
grep -qE '^mlkem512_keygen +[0-9,]+ +595,793 ' "$out" || fail "published figure not shown"

# The like-for-like view (the headline): cycles outside FIPS 202, model against published.
grep -qE '^like for like: cycles outside FIPS 202 ' "$out" || fail "no like-for-like view"
grep -qE '^operation +model \[cycles\] +model FIPS 202 share \[%\] +model outside \[cycles\] +published \[cycles\] +published hashing \[%\] +published outside \[cycles\] +error \[%\]$' "$out" ||
  fail "like-for-like header lacks its columns"
# The published share and outside figure come from the data file: 595,793 x (1 - 0.498).
row=$(grep -E '^mlkem512_keygen +[0-9,]+ +[0-9]+\.[0-9]{2} +[0-9,]+ +595,793 +49\.8 +299,088 +[-+][0-9]+\.[0-9]{2}$' "$out") ||
  fail "no complete like-for-like row for mlkem512_keygen"
# Recompute that row from its printed components: outside = model x (1 - share), error =
# outside / published outside - 1 (the share is printed to 0.01 %, the figures rounded: the
# slack is what that rounding allows).
echo "$row" | tr -d , | awk '{
  outside = $2 * (1 - $3 / 100); err = ($4 / $7 - 1) * 100; slack = $2 * 0.00005 + 1
  if (outside - $4 > slack || $4 - outside > slack) { print "outside " $4 " != " outside; exit 1 }
  if (err - $8 > 0.01 || $8 - err > 0.01) { print "error " $8 " != " err; exit 1 }
}' || fail "the like-for-like row is not the computed one: $row"
lrows=$(grep -cE '^mlkem(512|768)_(keygen|encaps|decaps) +[0-9,]+ +[0-9]+\.[0-9]{2} ' "$out")
[ "$lrows" = 6 ] || fail "expected 6 like-for-like rows, got $lrows"
grep -qE '^like-for-like median absolute error: [0-9]+\.[0-9]{2} %, max absolute error: [0-9]+\.[0-9]{2} % over 6 operations$' "$out" ||
  fail "no like-for-like median/max error line"
grep -q '^total cycles (compares different code' "$out" || fail "the total view is not labelled"

# A reference file with an unknown key is rejected before anything runs.
cp "$SRC/firmware/calibration/pqm4_stm32l4r5.toml" "$WORK/bad.toml"
echo 'typo_key = 1' >>"$WORK/bad.toml"
expect_exit 2 "$FATHOM" calibrate --reference "$WORK/bad.toml"
expect_err "typo_key"
echo PASS
