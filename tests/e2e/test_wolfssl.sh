#!/bin/bash
# wolfSSL end to end (suites/wolfssl.toml, firmware/libs/wolfssl, firmware/workloads/wolfssl):
# the three configurations build and prove what they built (expect.symbols_* in the suite: an
# image that lacks them fails to build), a cheap subset of operations plus the gate passes every
# known-answer vector with --runs 1, wolfCrypt's self-test runs although --op does not name it,
# and a failing self-test takes every timing of its image away. The self-test itself is not
# timed (its timed run does nothing).
. "$(dirname "$0")/lib.sh"
need_toolchain
if ! "$FATHOM" sources | grep -qE '^wolfssl +5\.7\.2 +(ok|overridden)'; then
  "$FATHOM" sources --fetch >"$WORK/fetch" 2>&1 ||
    "$FATHOM" sources | grep -qE '^wolfssl +5\.7\.2 +ok' ||
    skip "wolfssl sources are not cached and cannot be fetched (fathom sources --fetch)"
fi

expect_exit 0 "$FATHOM" run wolfssl --op sha256_64 --op ecdsa_p256_verify --runs 1 --warmup 0 \
  --no-history --out "$WORK/res"
check_json "$WORK/res/results.json" '
images = {i["configuration"]: i for i in d["images"]}
assert set(images) == {"wolfssl-sp-c", "wolfssl-sp-asm", "wolfssl-sp-asm-armasm",
                       "wolfssl-fastmath", "wolfssl-fastmath-newlib"}, sorted(images)
for name, im in images.items():
    assert im["completed"] and not im["error"] and not im["fault"], (name, im["error"])
    assert im["provenance"]["library"] == "wolfssl"
    assert len(im["provenance"]["source_sha256"]["wolfssl"]) == 64
    ops = {o["operation"]: o for o in im["operations"]}
    assert set(ops) == {"sha256_64", "ecdsa_p256_verify", "wolfcrypt_selftest"}, sorted(ops)
    for op in ops.values():
        assert op["kat"]["status"] == "passed", (name, op["operation"], op["kat"])
        assert all(v["passed"] for v in op["kat"]["vectors"]), (name, op["operation"])
    selftest = {v["name"] for v in ops["wolfcrypt_selftest"]["kat"]["vectors"]}
    assert "wolfcrypt_test" in selftest, selftest
    assert {"sha-256", "ecc"} <= selftest, (name, sorted(selftest))
    # The gate is not timed: its timed run does nothing, so no figure of it is its cost.
    gate = ops["wolfcrypt_selftest"]
    assert gate["not_timed"] and gate["error"] is None, (name, gate["not_timed"], gate["error"])
    assert not gate["samples"]["cycles"] and gate["statistics"]["cycles"] is None, (name, gate)
    assert gate["memory"]["peak_stack_bytes"] is None and gate["fastest"] is None, (name, gate)
    assert ops["sha256_64"]["not_timed"] is None
    for op in ("sha256_64", "ecdsa_p256_verify"):
        assert len(ops[op]["samples"]["cycles"]) == 1, (name, op)
        assert ops[op]["statistics"]["cycles"]["median"] > 0, (name, op)
def median(cfg, op):
    return next(o for o in images[cfg]["operations"]
                if o["operation"] == op)["statistics"]["cycles"]["median"]
# What the configurations change shows in the figures: the Cortex-M assembly speeds ECDSA up,
# the Thumb-2 SHA-256 speeds the hash up, and the SP assembly leaves SHA-256 alone.
assert median("wolfssl-sp-asm", "ecdsa_p256_verify") < median("wolfssl-sp-c", "ecdsa_p256_verify")
assert median("wolfssl-sp-asm-armasm", "sha256_64") < median("wolfssl-sp-asm", "sha256_64")
assert median("wolfssl-sp-asm", "sha256_64") == median("wolfssl-sp-c", "sha256_64")
# Fast math (tfm.c, generic Comba code on 4096-bit integers) is the slowest P-256, and leaves
# SHA-256 alone; the two fast-math images differ only in the C library.
assert median("wolfssl-fastmath", "ecdsa_p256_verify") > median("wolfssl-sp-c", "ecdsa_p256_verify")
assert median("wolfssl-fastmath", "sha256_64") == median("wolfssl-sp-c", "sha256_64")
assert images["wolfssl-fastmath"]["provenance"]["libc"] == "newlib-nano"
# The bignum group covers both math back ends (SP code, and fast math: tfm.c), so ECDSA
# verification is almost all bignum in every configuration (91.6-96.8 % measured).
for name, im in images.items():
    share = next(o for o in im["operations"] if o["operation"] == "ecdsa_p256_verify")
    assert share["primitive_share"]["bignum"] > 0.80, (name, share["primitive_share"])
assert images["wolfssl-fastmath-newlib"]["provenance"]["libc"] == "newlib"
'

# fathom ct on wolfSSL's SP P-256 (its Cortex-M assembly, timing-resistant by design): the
# shared secret takes the same cycles for every private scalar. Taint tracking still reports
# sites, each named: the "Check double" branch of sp_256_proj_point_add_8 (an exceptional case
# on secret-derived points) and sp_ecc_secret_gen_256's copy of the scalar by its used words.
# Every site is reviewed in suites/allow/known-good.toml: with it, "allowed" and exit 0.
expect_exit 0 "$FATHOM" ct wolfssl --config wolfssl-sp-asm --op ecdh_p256_shared --variants 8 \
  --format json --no-explain -j 2 --allow "$SRC/suites/allow/known-good.toml"
check_json "$WORK/out" '
o = next(o for o in d["operations"] if o["operation"] == "ecdh_p256_shared")
assert o["verdict"] == "constant" and o["variants"] == 8, o
assert o["spread_cycles"] == 0 and o["distinct_cycle_counts"] == 1, o
t = o["taint"]
assert t["verdict"] == "allowed" and t["marked_bytes"] > 0, t
assert t["findings"] and all(f["allowed"] for f in t["findings"]), t
assert all(f["file"].endswith("sp_cortexm.c") and f["line"] > 0 for f in t["findings"]), t
sites = {(f["class"], f["function"]) for f in t["findings"]}
assert ("branch", "sp_256_proj_point_add_8") in sites, sites
assert ("secret-address", "sp_ecc_secret_gen_256") in sites, sites
'

# A failing self-test: no operation of the image keeps a timing, and the run says why.
expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/wolfssl_broken_gate.toml" --no-history \
  --format json
check_json "$WORK/out" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
assert set(ops) == {"sha256_64", "wolfcrypt_selftest"}, sorted(ops)
assert ops["wolfcrypt_selftest"]["kat"]["status"] == "failed"
sha = ops["sha256_64"]
assert sha["kat"]["status"] == "passed", sha["kat"]   # its own vectors still pass ...
assert not sha["samples"]["cycles"] and sha["statistics"]["cycles"] is None, sha
assert sha["memory"]["peak_stack_bytes"] is None
assert "wolfCrypt self-test failed" in sha["error"], sha["error"]   # ... the gate took it
'
echo PASS
