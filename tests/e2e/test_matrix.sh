#!/bin/bash
# A [matrix] suite end to end (tests/e2e/suites/matrix_small.toml): the configurations are
# expanded over the C library axis minus the exclusion; the table marks the fastest
# configuration per operation; the fairness control passes for images that share the SHA-256
# code and fails (exit 1, flagged) when MBEDTLS_SHA256_SMALLER changes it; the workflow's
# variants are composed from one image holding Mbed TLS and PQClean, with the bytes the
# operations reported.
. "$(dirname "$0")/lib.sh"
need_toolchain
[ -d /usr/lib/picolibc/arm-none-eabi ] ||
  skip "picolibc-arm-none-eabi is not installed (run make setup)"
SUITE="$SRC/tests/e2e/suites/matrix_small.toml"

# The smaller SHA-256 differs from the default: the fairness control fails and says so.
expect_exit 1 "$FATHOM" run "$SUITE" --no-history --format json
check_json "$WORK/out" '
names = [i["configuration"] for i in d["images"]]
assert names == ["mbedtls.newlib-nano", "mbedtls.picolibc",
                 "mbedtls-no-nist-optim.newlib-nano", "mbedtls-no-nist-optim.picolibc",
                 "mbedtls-sha256-smaller.newlib-nano", "mbedtls-sha256-smaller.picolibc",
                 "device.newlib-nano"], names
for im in d["images"]:
    assert im["completed"] and not im["error"], (im["configuration"], im["error"])
    for op in im["operations"]:
        assert op["kat"]["status"] == "passed", (im["configuration"], op["operation"])
checks = d["fairness"]
assert len(checks) == 2, checks  # one group per libc; device is its own group
for c in checks:
    assert c["operation"] == "hkdf_sha256"
    assert len(c["configurations"]) == 3, c
    assert not c["passed"] and c["spread_percent"] > 0.5, c
    lo, hi = min(c["median_cycles"]), max(c["median_cycles"])
    assert abs((hi - lo) / lo * 100 - c["spread_percent"]) < 1e-9, c
flows = {w["variant"]: w for w in d["workflows"]}
assert set(flows) == {"classical", "ml-kem-512"}, flows
for name, w in flows.items():
    assert w["error"] is None and w["configuration"] == "device.newlib-nano", w
    ops = {o["operation"]: o for o in d["images"][-1]["operations"]}
    total = 0
    for s in w["steps"]:
        step = sum(ops[o]["statistics"]["cycles"]["median"] for o in s["operations"])
        assert s["cycles"] == step, (s, step)
        total += step
    assert w["total_cycles"] == total, w
    assert w["stored_bytes"] == 32, w
assert flows["classical"]["wire_bytes"] == 65 + 65, flows["classical"]
assert flows["ml-kem-512"]["wire_bytes"] == 800 + 768, flows["ml-kem-512"]
'

# Without the smaller SHA-256 the control agrees, and the table shows the marks and checks.
expect_exit 0 "$FATHOM" run "$SUITE" --no-history --config mbedtls.newlib-nano \
  --config mbedtls-no-nist-optim.newlib-nano --config device.newlib-nano
grep -q "fastest" "$WORK/out" || fail "the table has no fastest column"
grep -q "hkdf_sha256 in mbedtls, newlib-nano, .*: pass" "$WORK/out" ||
  { cat "$WORK/out"; fail "the fairness control did not pass"; }
grep -q "ml-kem-512 (device.newlib-nano on sim-m33): .* wire 1,568 bytes, stored 32 bytes" \
  "$WORK/out" || { cat "$WORK/out"; fail "the workflow line is missing"; }
exit 0
