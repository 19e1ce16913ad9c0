#!/bin/bash
# Primitive share end to end (docs/PROFILER.md): `fathom run` fills each timed operation's share
# of cycles under the library's [primitive_groups] (library.toml), in JSON, CSV and the table.
# The bounds are what the groups mean, with margin: ECDH's shared secret is almost all bignum
# arithmetic, hashing 1 KiB is almost all SHA-2, and ML-KEM-512 key generation spends most of
# its time in Keccak. Observed on sim-m33 / sim-m4: ecdh_p256_shared bignum 99.0%, sha256_1k
# SHA-2 94.5%, aes128_gcm_encrypt_1k AES 40% + GHASH 43%, mlkem512_keygen SHA-3/Keccak 67%
# (KeccakF1600_StatePermute alone 64.3%, exclusive).
. "$(dirname "$0")/lib.sh"
need_toolchain

expect_exit 0 "$FATHOM" run --config mbedtls --op ecdh_p256_shared --op sha256_1k \
  --op aes128_gcm_encrypt_1k --runs 1 --warmup 0 --format json --no-history
cp "$WORK/out" "$WORK/mbedtls.json"
check_json "$WORK/mbedtls.json" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
groups = {"SHA-2", "SHA-3/Keccak", "AES", "GHASH", "bignum", "RNG"}
for name, op in ops.items():
    share = op["primitive_share"]
    assert set(share) == groups, (name, share)
    assert all(0.0 <= v <= 1.0 for v in share.values()), (name, share)
ecdh = ops["ecdh_p256_shared"]["primitive_share"]
assert ecdh["bignum"] > 0.80, ecdh
assert ecdh["SHA-2"] < 0.05 and ecdh["AES"] < 0.05, ecdh
sha = ops["sha256_1k"]["primitive_share"]
assert sha["SHA-2"] > 0.90, sha
assert sha["bignum"] == 0 and sha["AES"] == 0, sha
gcm = ops["aes128_gcm_encrypt_1k"]["primitive_share"]
assert gcm["AES"] > 0.2 and gcm["GHASH"] > 0.2 and gcm["AES"] + gcm["GHASH"] <= 1.0, gcm
'

# The table for people: one compact column with the largest groups (a --wide column).
expect_exit 0 "$FATHOM" run --config mbedtls --op ecdh_p256_shared --op sha256_1k --runs 1 \
  --warmup 0 --no-history --wide
grep -q "primitive share" "$WORK/out" || fail "table lacks the primitive share column"
grep -qE "^mbedtls +ecdh_p256_shared .* bignum [89][0-9]%" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "ecdh_p256_shared row lacks 'bignum 8x-9x%'"; }
grep -qE "^mbedtls +sha256_1k .* SHA-2 (9[0-9]|100)%" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "sha256_1k row lacks 'SHA-2 9x%'"; }

# CSV: one fraction column per group.
expect_exit 0 "$FATHOM" run --config mbedtls --op sha256_1k --runs 1 --warmup 0 --format csv \
  --no-history
python3 - "$WORK/out" <<'PY' || fail "CSV lacks the primitive share columns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 1, rows
assert float(rows[0]["primitive_share_SHA-2"]) > 0.9, rows[0]
assert float(rows[0]["primitive_share_bignum"]) == 0, rows[0]
PY

# ML-KEM (PQClean, sim-m4): the hashing share of pqm4's tables. It can be no less than the
# permutation's own cycles, which `fathom profile` reports (exclusive %).
if "$FATHOM" sources | grep -qE '^pqclean +0\.8\.1 +ok' || command -v npm >/dev/null 2>&1; then
  expect_exit 0 "$FATHOM" run calibrate-mlkem --op mlkem512_keygen --runs 1 --warmup 0 \
    --format json --no-history
  cp "$WORK/out" "$WORK/mlkem.json"
  expect_exit 0 "$FATHOM" profile calibrate-mlkem --op mlkem512_keygen --top 40
  permute=$(awk '$6 == "KeccakF1600_StatePermute" { print $4 }' "$WORK/out")
  [ -n "$permute" ] || { cat "$WORK/out" >&2; fail "profile lacks KeccakF1600_StatePermute"; }
  check_json "$WORK/mlkem.json" "
share = d['images'][0]['operations'][0]['primitive_share']
keccak = share['SHA-3/Keccak']
assert 0.5 < keccak < 0.9, share
assert keccak * 100 >= $permute - 0.01, (keccak, $permute)
assert share['NTT'] > 0.0 and share['AES'] == 0, share
"
else
  echo "ML-KEM part skipped: pqclean sources are not cached and npm is not installed" >&2
fi
echo PASS
