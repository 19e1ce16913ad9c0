#!/bin/bash
# Fewer timed runs on a deterministic target (pipeline/run_selection.h, docs/CLI.md "Timed
# runs"): on sim-m33 an operation the suite does not declare in `fresh_inputs` makes 2 timed
# runs, and they are equal; a declared one makes the suite's runs; `--runs 5` gives 5 to all;
# and a suite that leaves out an operation that does draw fresh inputs gets a warning naming it.
. "$(dirname "$0")/lib.sh"
need_toolchain
OPS=(--config mbedtls --op sha256_64 --op hmac_sha256 --op ecdh_p256_keygen)

expect_exit 0 "$FATHOM" run "${OPS[@]}" --no-history --format json
cp "$WORK/out" "$WORK/default.json"
check_json "$WORK/default.json" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
assert set(ops) == {"sha256_64", "hmac_sha256", "ecdh_p256_keygen"}, ops.keys()
assert d["images"][0]["provenance"]["runs"] == 10
for name in ["sha256_64", "hmac_sha256"]:
    o = ops[name]
    assert len(o["samples"]["cycles"]) == 2, (name, o["samples"])
    assert len(set(o["samples"]["cycles"])) == 1 and len(set(o["samples"]["instructions"])) == 1, o["samples"]
    assert o["runs"] == 2 and o["runs_reason"] == "fixed-inputs" and o["samples_identical"] is True, o
k = ops["ecdh_p256_keygen"]
assert len(k["samples"]["cycles"]) == 10, k["samples"]
assert k["runs"] == 10 and k["runs_reason"] == "fresh-inputs", k
assert k["samples_identical"] is False, k["samples"]  # why it is declared
assert d["warnings"] == [], d["warnings"]
'
# The table says so compactly (the same results, from the result cache).
expect_exit 0 "$FATHOM" run "${OPS[@]}" --no-history --wide
grep -q " 2 (det.) " "$WORK/out" || { cat "$WORK/out"; fail "table lacks '2 (det.)'"; }
grep -q "^(det.): a deterministic target repeats" "$WORK/out" || fail "table lacks the (det.) note"
! grep -q "WARNING" "$WORK/out" || fail "unexpected warning: $(grep WARNING "$WORK/out")"

# --runs N applies to every operation as given.
expect_exit 0 "$FATHOM" run "${OPS[@]}" --runs 5 --no-history --format json
check_json "$WORK/out" '
for o in d["images"][0]["operations"]:
    assert len(o["samples"]["cycles"]) == 5, (o["operation"], o["samples"])
    assert o["runs"] == 5 and o["runs_reason"] == "command-line", o
'

# A suite that omits ecdh_p256_keygen from fresh_inputs: it gets 2 runs, they differ, and the
# result carries a warning (not an error: exit 0).
python3 - "$SRC/suites/default.toml" "$WORK/undeclared.toml" <<'PY' || fail "cannot write the suite"
import re, sys
text = open(sys.argv[1]).read()
text, n = re.subn(r'^fresh_inputs = \[[^\]]*\]', 'fresh_inputs = ["ecdsa_p256_sign"]', text, flags=re.M)
assert n == 1, "default.toml has no fresh_inputs line"
text = re.sub(r'^name = "default"', 'name = "undeclared"', text, count=1, flags=re.M)
open(sys.argv[2], "w").write(text)
PY
expect_exit 0 "$FATHOM" run "$WORK/undeclared.toml" "${OPS[@]}" --no-history --format json
check_json "$WORK/out" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
k = ops["ecdh_p256_keygen"]
assert len(k["samples"]["cycles"]) == 2 and k["runs_reason"] == "fixed-inputs", k
assert k["samples_identical"] is False, k["samples"]
w = [x for x in d["warnings"] if x["kind"] == "samples-differ"]
assert len(w) == 1, d["warnings"]
assert w[0]["operation"] == "ecdh_p256_keygen" and w[0]["configuration"] == "mbedtls", w
assert "declare it in the suite" in w[0]["message"] and "fresh_inputs" in w[0]["message"], w
'
expect_exit 0 "$FATHOM" run "$WORK/undeclared.toml" "${OPS[@]}" --no-history
grep -q "^WARNING: ecdh_p256_keygen (mbedtls on sim-m33): its 2 timed runs differ on a deterministic target" "$WORK/out" ||
  { cat "$WORK/out"; fail "table lacks the warning"; }

# A bad fresh_inputs value is an error at its position.
printf '[suite]\nname = "bad"\nboards = ["sim-m33"]\nfresh_inputs = ["Keygen"]\n[[configuration]]\nname = "a"\nlibrary = "mbedtls"\n' >"$WORK/bad.toml"
expect_exit 2 "$FATHOM" run "$WORK/bad.toml" --no-history
expect_err "bad.toml:4:17: 'fresh_inputs' in [suite]: 'Keygen' is not an operation name pattern"
echo PASS
