#!/bin/bash
# `fathom compare`: two identical runs compare as unchanged and pass any gate; a configuration
# known to be slower (mbedtls without the NIST-curve optimisation) trips --fail-above (exit 3).
. "$(dirname "$0")/lib.sh"
need_toolchain
DB="$WORK/h.sqlite"
export FATHOM_HISTORY_DB="$WORK/default-history.sqlite"

for name in a b; do
  expect_exit 0 "$FATHOM" run --config mbedtls --op sha256_64 --op hmac_sha256 --runs 2 \
    --db "$DB" --name "$name"
done

expect_exit 0 "$FATHOM" compare a b --db "$DB" --format json
check_json "$WORK/out" '
ops = [o for i in d["images"] for o in i["operations"]]
assert {o["operation"] for o in ops} == {"sha256_64", "hmac_sha256"}, ops
for o in ops:
    for m in ("cycles", "stack"):
        assert o[m]["verdict"] == "unchanged", (o["operation"], m, o[m])
    assert o["cycles"]["ratio"] == 1.0, o
assert d["regressions"] == [], d
'
expect_exit 0 "$FATHOM" compare a b --db "$DB"
grep -q "sha256_64.*unchanged" "$WORK/out" || { cat "$WORK/out"; fail "table lacks an unchanged row"; }
expect_exit 0 "$FATHOM" compare a b --db "$DB" --fail-above 0.0001
expect_exit 0 "$FATHOM" compare a b --db "$DB" --fail-above 0.0001:stack --fail-above 0.0001:flash

expect_exit 0 "$FATHOM" run --config mbedtls-no-nist-optim --op ecdh_p256_keygen --runs 1 \
  --db "$DB" --name slow
expect_exit 0 "$FATHOM" run --config mbedtls --op ecdh_p256_keygen --runs 1 --db "$DB" --name fast
expect_exit 3 "$FATHOM" compare fast slow --db "$DB" --fail-above 10 --format markdown \
  --markdown-out "$WORK/comment.md"
grep -q "ecdh_p256_keygen" "$WORK/out" || { cat "$WORK/out"; fail "markdown lacks the operation"; }
grep -q "1 regressions above 10% cycles" "$WORK/out" || { cat "$WORK/out"; fail "no summary line"; }
cmp -s "$WORK/out" "$WORK/comment.md" || fail "--markdown-out differs from --format markdown"
# Reversed, it is faster: no regression.
expect_exit 0 "$FATHOM" compare slow fast --db "$DB" --fail-above 10
grep -q "ecdh_p256_keygen.*faster" "$WORK/out" || { cat "$WORK/out"; fail "no faster row"; }

# Baselines as A.
expect_exit 0 "$FATHOM" baseline set main fast --db "$DB"
expect_exit 3 "$FATHOM" compare --baseline main slow --db "$DB" --fail-above 10
expect_exit 3 "$FATHOM" compare baseline:main slow --db "$DB" --fail-above 10

# Usage errors.
expect_exit 2 "$FATHOM" compare a b --db "$DB" --fail-above abc
expect_err "expected PCT[:metric]"
expect_exit 2 "$FATHOM" compare a b --db "$DB" --fail-above 5:bogus
expect_err "unknown metric 'bogus'"
expect_exit 2 "$FATHOM" compare a nosuchrun --db "$DB"
expect_exit 2 "$FATHOM" compare a --db "$DB"
[ ! -e "$FATHOM_HISTORY_DB" ] || fail "compare with --db touched the default history"
echo PASS
