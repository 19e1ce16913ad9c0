#!/bin/bash
# fathom diagnose on the default suite's reference case: without MBEDTLS_ECP_NIST_OPTIM the ECDH
# shared secret is several times slower, the change sits under the scalar multiplication in the
# generic modular reduction that replaces the P-256 fast reduction, and SHA-256, HMAC, HKDF and
# AES-GCM — which share functions with it — did not move.
. "$(dirname "$0")/lib.sh"
need_toolchain
export FATHOM_HISTORY_DB="$WORK/history.sqlite"
expect_exit 0 "$FATHOM" diagnose --config mbedtls --config mbedtls-no-nist-optim \
  --op ecdh_p256_shared --op sha256_1k --op hmac_sha256 --op hkdf_sha256 --op aes128_gcm_encrypt_1k
cp "$WORK/out" "$WORK/diagnosis.txt"
python3 - "$WORK/out" <<'PY' || { cat "$WORK/out" >&2; fail "diagnosis"; }
import re, sys
text = open(sys.argv[1]).read()
# Counts are printed with thousands separators (1,234,567).
rows = {m.group(1): (int(m.group(2).replace(",", "")), int(m.group(3).replace(",", "")), m.group(4))
        for m in re.finditer(r"^(\w+)\s+(\d{1,3}(?:,\d{3})*)\s+(\d{1,3}(?:,\d{3})*)\s+[\d.]+x\s+(\w+)$",
                             text, re.M)}
assert rows["ecdh_p256_shared"][2] == "SLOWER", rows
assert rows["ecdh_p256_shared"][1] > 4 * rows["ecdh_p256_shared"][0], rows
for op in ("sha256_1k", "hmac_sha256", "hkdf_sha256", "aes128_gcm_encrypt_1k"):
    assert rows[op][2] == "unchanged", (op, rows[op])
    assert f"control: {op} did not move" in text, op
section = text.split("where the change sits")[1]
m = re.search(r"mbedtls_mpi_mod_mpi\s+[\d,]+ ->\s+[\d,]+\s+\(([\d.]+)% of the change", section)
assert m and float(m.group(1)) > 50, section
assert "ecp_mul_restartable_internal" in section
assert re.search(r"gone in B: ecp_mod_p256", section), section
PY
# The label tells the truth: A's and B's cycles are one timed execution each, as `fathom run`
# measures it (nothing untimed is summed in).
grep -q "profiled cycles of the timed executions, one per operation unless its row says otherwise, nothing untimed included" "$WORK/diagnosis.txt" ||
  fail "diagnose does not say what its cycles are"
# The same operations as above: the harness's random generator runs on across them, and ECDH's
# blinding draws from it.
expect_exit 0 "$FATHOM" run --config mbedtls --config mbedtls-no-nist-optim --runs 1 --warmup 0 \
  --op ecdh_p256_shared --op sha256_1k --op hmac_sha256 --op hkdf_sha256 \
  --op aes128_gcm_encrypt_1k --no-history --format json
python3 - "$WORK/diagnosis.txt" "$WORK/out" <<'PY' || fail "diagnose cycles vs fathom run"
import json, re, sys
text = open(sys.argv[1]).read()
# Counts are printed with thousands separators (1,234,567).
rows = {m.group(1): (int(m.group(2).replace(",", "")), int(m.group(3).replace(",", "")), m.group(4))
        for m in re.finditer(r"^(\w+)\s+(\d{1,3}(?:,\d{3})*)\s+(\d{1,3}(?:,\d{3})*)\s+[\d.]+x\s+(\w+)$",
                             text, re.M)}
run = {}
for image in json.load(open(sys.argv[2]))["images"]:
    for op in image["operations"]:
        run[(image["configuration"], op["operation"])] = op["samples"]["cycles"]
for op in ("ecdh_p256_shared", "sha256_1k", "hmac_sha256", "hkdf_sha256", "aes128_gcm_encrypt_1k"):
    for side, config in ((0, "mbedtls"), (1, "mbedtls-no-nist-optim")):
        [harness] = run[(config, op)]
        profiled = rows[op][side]
        # The profile counts from the run function's entry to its return; the harness's probe
        # adds its own few cycles around the call.
        assert abs(profiled - harness) <= 0.001 * harness + 50, (op, config, profiled, harness)
PY
# The same diagnosis from fathom compare on two configurations run on the spot.
expect_exit 0 "$FATHOM" compare --config mbedtls --config mbedtls-no-nist-optim \
  --op ecdh_p256_keygen --op sha256_64
grep -Eq "^ecdh_p256_keygen .* SLOWER$" "$WORK/out" || fail "compare --config: keygen not slower"
grep -Eq "^sha256_64 .* unchanged$" "$WORK/out" || fail "compare --config: sha256_64 moved"
grep -q "mbedtls_mpi_mod_mpi" "$WORK/out" || fail "compare --config: no diagnosis"
expect_exit 2 "$FATHOM" compare 1 2 --config mbedtls --config mbedtls-no-nist-optim
echo PASS
