#!/bin/bash
# The default suite end to end: both configurations build, every KAT passes, ECDH/ECDSA cost
# several times more without MBEDTLS_ECP_NIST_OPTIM, and the symmetric operations do not move.
. "$(dirname "$0")/lib.sh"
need_toolchain
expect_exit 0 "$FATHOM" run --runs 2 --warmup 0 --format json --out "$WORK/out-dir"
cp "$WORK/out" "$WORK/results.json"
[ -f "$WORK/out-dir/results.json" ] || fail "--out did not write results.json"
check_json "$WORK/results.json" '
assert d["schema_version"] == 1
images = {i["configuration"]: i for i in d["images"]}
assert set(images) == {"mbedtls", "mbedtls-no-nist-optim"}, images.keys()
for im in images.values():
    assert im["completed"] and not im["error"] and not im["fault"], im["error"]
    p = im["provenance"]
    assert p["board"] == "sim-m33" and p["clock_hz"] == 128000000
    assert len(p["source_sha256"]["mbedtls"]) == 64 and p["compiler"] and p["tool_version"]
    assert len(im["operations"]) == 10, [o["operation"] for o in im["operations"]]
    for op in im["operations"]:
        assert op["kat"]["status"] == "passed", op
        assert len(op["samples"]["cycles"]) == 2, op
        assert op["runs"] == 2 and op["runs_reason"] == "command-line", op  # --runs applies to all
        assert op["statistics"]["cycles"]["median"] > 0
        assert op["memory"]["peak_stack_bytes"] > 0
def median(cfg, name):
    return next(o for o in images[cfg]["operations"] if o["operation"] == name)["statistics"]["cycles"]["median"]
for name in ["ecdh_p256_keygen", "ecdh_p256_shared", "ecdsa_p256_sign", "ecdsa_p256_verify"]:
    r = median("mbedtls-no-nist-optim", name) / median("mbedtls", name)
    assert r > 3, (name, r)
for name in ["sha256_64", "sha256_1k", "hmac_sha256", "hkdf_sha256", "aes128_gcm_encrypt_1k", "aes128_gcm_decrypt_1k"]:
    r = median("mbedtls-no-nist-optim", name) / median("mbedtls", name)
    assert abs(r - 1) < 0.005, (name, r)
'
# The table for people: both configurations and the ratio column.
expect_exit 0 "$FATHOM" run --runs 1 --warmup 0 --op sha256_64 --op ecdh_p256_shared
grep -q "mbedtls-no-nist-optim" "$WORK/out" || fail "table lacks the second configuration"
grep -q "ratio" "$WORK/out" || fail "table lacks the ratio column"
grep -q "ecdh_p256_shared" "$WORK/out" || fail "table lacks a selected operation"
! grep -q "hkdf_sha256" "$WORK/out" || fail "--op did not restrict the operations"
echo PASS
