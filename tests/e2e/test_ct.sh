#!/bin/bash
# fathom ct (docs/CT.md) on the constant-time fixtures, whose verdicts are known
# (tests/e2e/suites/ct.toml): the early-exit tag compare, the secret branch and the secret divide
# leak on both boards, the division by the constant q is a multiplication on the M33 (constant)
# and a call to __aeabi_uidiv on the M0+ (a leak), the XOR-accumulating compare is constant, ECDH's time varies with the
# scalar fixed too (Mbed TLS's random blinding), but each variant differs from the secret-fixed
# run at the same position (the same random draws): a leak found by pairing; and SHA-256
# declares no secret ("not checked"). A leak exits 4; the divergence names the function where
# the fastest and slowest variant part.
. "$(dirname "$0")/lib.sh"
need_toolchain
SUITE="$SRC/tests/e2e/suites/ct.toml"
expect_exit 4 "$FATHOM" ct "$SUITE" --format json -j 2 --no-taint
cp "$WORK/out" "$WORK/ct.json"
python3 - "$WORK/ct.json" <<'PY' || { cat "$WORK/ct.json" >&2; fail "ct verdicts"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["variants"] == 32, d["variants"]
ops = {(o["board"], o["operation"]): o for o in d["operations"]}
want = {"ct_tag_compare_early_exit": "leak", "ct_tag_compare_constant": "constant",
        "ct_secret_branch": "leak", "ct_secret_divide": "leak", "ct_mbedtls_memcmp": "constant",
        "ct_mbedtls_inv_mod": "constant", "ecdh_p256_shared": "leak",
        "aes128_gcm_encrypt_1k": "constant", "sha256_1k": "not checked"}
# AES-GCM: gcm_gen_table's `u8Dst[0] ^= (u8Src[15] & 0x01) ? 0xE1 : 0` on a bit of the hash key
# H = AES_K(0) is an IT on the M33 (constant) but a branch on the M0+ (a leak).
# The division by the constant q: a reciprocal multiplication on the M33, __aeabi_uidiv on the M0+.
board_want = {"sim-m33": dict(want, ct_secret_compress="constant"),
              "sim-m0plus": dict(want, aes128_gcm_encrypt_1k="leak", ct_secret_compress="leak")}
for board in ("sim-m33", "sim-m0plus"):
    assert {o for (b, o) in ops if b == board} == set(board_want[board]), ops.keys()
    for op, verdict in board_want[board].items():
        o = ops[(board, op)]
        assert o["verdict"] == verdict, (board, op, o)
        if verdict == "not checked":
            assert o["variants"] is None and "declares no secret" in o["reason"], o
            continue
        assert o["variants"] == 32 and o["taint"] is None, o
        assert o["spread_cycles"] == o["max_cycles"] - o["min_cycles"], o
        if verdict == "constant":
            assert o["spread_cycles"] == 0 and o["distinct_cycle_counts"] == 1, o
            assert o["divergence"] is None and o["paired_differing_variants"] is None, o
        else:
            assert o["spread_cycles"] > 0 and o["distinct_cycle_counts"] > 1, o
    # The early exit: variant v agrees in v mod 17 leading bytes, so 17 distinct times, the
    # fastest where no byte agrees and the slowest where all 16 do.
    e = ops[(board, "ct_tag_compare_early_exit")]
    assert e["distinct_cycle_counts"] == 17, e
    assert e["fastest_variant"] % 17 == 0 and e["slowest_variant"] % 17 == 16, e
    # The fixtures' control (the secret fixed) is constant, so they are not paired; ECDH's varies
    # (blinding), and variants differ from the control's run at their position.
    for op in ("ct_tag_compare_early_exit", "ct_secret_branch", "ct_secret_divide"):
        o = ops[(board, op)]
        assert o["control_spread_cycles"] == 0 and o["paired_differing_variants"] is None, o
    x = ops[(board, "ecdh_p256_shared")]
    assert x["control_spread_cycles"] > 0 and x["divergence"] is not None, x
    assert 0 < x["paired_differing_variants"] <= 32 and x["paired_max_cycles"] > 0, x

def divergence(board, op):
    o = ops[(board, op)]
    dv = o["divergence"]
    assert dv is not None and dv["error"] is None, o
    assert dv["fast_variant"] == o["fastest_variant"] and dv["slow_variant"] == o["slowest_variant"]
    assert dv["profile_cycles_slow"] > dv["profile_cycles_fast"], dv
    return {f["function"]: f for f in dv["functions"]}

for board in ("sim-m33", "sim-m0plus"):
    f = divergence(board, "ct_tag_compare_early_exit")["compare_early_exit"]
    assert f["self_cycles_slow"] > f["self_cycles_fast"], f
f = divergence("sim-m0plus", "aes128_gcm_encrypt_1k")["mbedtls_gcm_setkey"]
assert f["self_cycles_slow"] > f["self_cycles_fast"], f
# The secret divide: UDIV inside divide() on the M33; libgcc's __udivsi3 (what __aeabi_uidiv
# is) on the M0+, which has no divider.
f = divergence("sim-m33", "ct_secret_divide")["divide"]
assert f["self_cycles_slow"] > f["self_cycles_fast"], f
for op in ("ct_secret_divide", "ct_secret_compress"):
    f = divergence("sim-m0plus", op)
    assert "__udivsi3" in f and f["__udivsi3"]["self_cycles_slow"] > f["__udivsi3"]["self_cycles_fast"], f
# The secret branch: the multiplications the set bits add are calls to libgcc's 64-bit modulo.
f = divergence("sim-m33", "ct_secret_branch")
assert "__udivmoddi4" in f and f["__udivmoddi4"]["calls_slow"] > f["__udivmoddi4"]["calls_fast"], f
PY

# Mbed TLS 3.6's own constant-time code (firmware/workloads/mbedtls/ct_known.c): constant in
# time on both boards (above). By taint, mbedtls_ct_memcmp has no finding; mbedtls_mpi_inv_mod
# has: on the M0+ only the wrapper's early-exit comparisons and limb count of the secret
# (mbedtls_mpi_cmp_abs, _cmp_mpi, _copy), none in the inversion core; on the M33 also the ITE
# selects of the core's carries in mbedtls_mpi_core_gcd_modinv_odd. Each is reviewed in
# suites/allow/known-good.toml: with it the verdict is "allowed" and the exit 0.
ALLOW="$SRC/suites/allow/known-good.toml"
expect_exit 4 "$FATHOM" ct "$SUITE" --format json --no-explain --variants 2 -j 2 \
  --op ct_mbedtls_memcmp --op ct_mbedtls_inv_mod
cp "$WORK/out" "$WORK/known.json"
python3 - "$WORK/known.json" <<'PY' || { cat "$WORK/known.json" >&2; fail "Mbed TLS constant-time code"; }
import json, sys
d = json.load(open(sys.argv[1]))
ops = {(o["board"], o["operation"]): o for o in d["operations"]}
for board in ("sim-m33", "sim-m0plus"):
    m = ops[(board, "ct_mbedtls_memcmp")]
    assert m["verdict"] == "constant" and m["taint"]["verdict"] == "no finding", m
    # The 16-byte expected tag, marked by the setup and by each of the 2 variants.
    assert m["taint"]["marked_bytes"] == 16 * 3, m["taint"]
    inv = ops[(board, "ct_mbedtls_inv_mod")]
    assert inv["verdict"] == "constant" and inv["taint"]["verdict"] == "leak", inv
wrapper = {"mbedtls_mpi_cmp_abs", "mbedtls_mpi_cmp_mpi", "mbedtls_mpi_copy"}
m0 = ops[("sim-m0plus", "ct_mbedtls_inv_mod")]["taint"]["findings"]
assert m0 and all(f["class"] == "branch" and f["function"] in wrapper and
                  f["file"].endswith("bignum.c") for f in m0), m0
m33 = ops[("sim-m33", "ct_mbedtls_inv_mod")]["taint"]["findings"]
assert wrapper <= {f["function"] for f in m33}, m33
core = [f for f in m33 if f["function"] == "mbedtls_mpi_core_gcd_modinv_odd"]
assert any(f["class"] == "it" and f["file"].endswith("bignum_core.c") for f in core), m33
# Only the carry selects: a pointer spilled beside a secret (strd r9, sl) no longer comes back
# tainted (LDRD/STRD word by word), so memcpy and the loop branches have no finding.
assert all(f["class"] == "it" for f in m33 if f["function"] not in wrapper), m33
PY
expect_exit 0 "$FATHOM" ct "$SUITE" --format json --no-explain --variants 2 -j 2 \
  --op ct_mbedtls_memcmp --op ct_mbedtls_inv_mod --allow "$ALLOW"
# The same images and variants as the run above: their measurements are read back (the
# simulator is deterministic; `--fresh` measures again), with the same timing verdicts.
expect_err "fathom ct: 2 of 2 images: variants read back from the result cache (--fresh measures again)"
python3 - "$WORK/known.json" "$WORK/out" <<'PY' || fail "the read-back variants gave other timings"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
# Every timing field; the taint part differs by the allowances.
key = lambda d: sorted(json.dumps({k: v for k, v in o.items() if k != "taint"}, sort_keys=True)
                       for o in d["operations"])
assert key(a) == key(b), (key(a), key(b))
assert all(o["min_cycles"] for o in a["operations"]), a["operations"]
PY
check_json "$WORK/out" '
for o in d["operations"]:
    want = "no finding" if o["operation"] == "ct_mbedtls_memcmp" else "allowed"
    assert o["verdict"] == "constant" and o["taint"]["verdict"] == want, o
    assert all(f["allowed"] for f in o["taint"]["findings"]), o
'

# Mbed TLS 2.28 (tests/e2e/suites/ct-mbedtls-2.28.toml): the same known cases on the same
# inputs. mbedtls_ct_memcmp is constant with no taint finding, as in 3.6; mbedtls_mpi_inv_mod is
# 2.28's binary extended Euclid, a leak both ways: its runs also differ with the secret fixed
# (the allocator's first-run state, tens of cycles), but variants differ from the secret-fixed
# run at their position by thousands; taint names the parity loops in mbedtls_mpi_inv_mod
# (`while ((TU.p[0] & 1) == 0)`) and the GCD before it, and the divergence the subtractions.
expect_exit 4 "$FATHOM" ct "$SRC/tests/e2e/suites/ct-mbedtls-2.28.toml" --format json -j 2 \
  --allow "$ALLOW"
cp "$WORK/out" "$WORK/mbedtls-2.28.json"
python3 - "$WORK/mbedtls-2.28.json" <<'PY' || { cat "$WORK/mbedtls-2.28.json" >&2; fail "Mbed TLS 2.28"; }
import json, sys
d = json.load(open(sys.argv[1]))
ops = {(o["board"], o["operation"]): o for o in d["operations"]}
assert len(ops) == 4, ops.keys()
for board in ("sim-m33", "sim-m0plus"):
    m = ops[(board, "ct_mbedtls_memcmp")]
    assert m["verdict"] == "constant" and m["taint"]["verdict"] == "no finding", m
    inv = ops[(board, "ct_mbedtls_inv_mod")]
    assert inv["verdict"] == "leak" and inv["variants"] == 32, inv
    assert 0 < inv["control_spread_cycles"] < inv["paired_max_cycles"], inv
    assert inv["paired_differing_variants"] >= 16, inv
    fns = {f["function"]: f for f in inv["divergence"]["functions"]}
    assert fns["mbedtls_mpi_sub_abs"]["calls_slow"] > fns["mbedtls_mpi_sub_abs"]["calls_fast"], fns
    t = inv["taint"]
    # The reviewed allowances of 3.6 (its configuration only) accept none of 2.28's findings.
    assert t["verdict"] == "leak" and not any(f["allowed"] for f in t["findings"]), t
    core = [f for f in t["findings"] if f["function"] == "mbedtls_mpi_inv_mod"]
    assert core and all(f["class"] == "branch" and f["file"].endswith("bignum.c") for f in core), t
    # The parity test of TU that opens the loop, once per halving: hundreds of times.
    assert any(f["line"] == 2632 and f["count"] > 100 and f["operand"] == "flags" for f in core), core
    assert any(f["function"] == "mbedtls_mpi_gcd" for f in t["findings"]), t
PY

# The same C built for size on the M4 (tests/e2e/suites/ct-os.toml): GCC emits UDIV for the
# division by q, and the secret dividend sets its time: a leak by both checks.
expect_exit 4 "$FATHOM" ct "$SRC/tests/e2e/suites/ct-os.toml" --format json --variants 8
cp "$WORK/out" "$WORK/os.json"
python3 - "$WORK/os.json" <<'PY' || { cat "$WORK/os.json" >&2; fail "ct_secret_compress at -Os"; }
import json, sys
d = json.load(open(sys.argv[1]))
(o,) = d["operations"]
assert o["board"] == "sim-m4" and o["operation"] == "ct_secret_compress", o
assert o["verdict"] == "leak" and o["control_spread_cycles"] == 0, o
assert "compress4" in {f["function"] for f in o["divergence"]["functions"]}, o["divergence"]
(f,) = o["taint"]["findings"]
assert f["class"] == "variable-latency" and f["function"] == "compress4", f
assert f["instruction"].startswith("udiv") and f["file"].endswith("fathom_ct_fixtures.c"), f
PY

# No leak among the operations checked: exit 0, the table says constant and not checked.
expect_exit 0 "$FATHOM" ct "$SUITE" --board sim-m33 --op ct_tag_compare_constant --op sha256_1k \
  --variants 4
grep -qE '^ct_tag_compare_constant +mbedtls-ct +sim-m33 +constant +4 +[0-9,]+ +0 +1' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of the constant compare"; }
grep -qE '^sha256_1k +mbedtls-ct +sim-m33 +not checked' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of sha256_1k"; }
grep -qF "1 operation checked with 4 secret variants each: 0 leaks, 1 constant" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table summary"; }

# --no-explain: the leak and its exit code, no profiles.
expect_exit 4 "$FATHOM" ct "$SUITE" --board sim-m0plus --op ct_secret_divide --variants 8 \
  --no-explain
grep -qE '^ct_secret_divide +mbedtls-ct +sim-m0plus +leak +8 ' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of the divide leak"; }
grep -q "where they differ" "$WORK/out" && fail "--no-explain profiled the leak"

# Taint tracking: the same verdicts by another route, with the instruction and line of each
# finding; and AES with its T-tables, constant in time on these cache-less cores, but indexing
# its tables with the key. The reviewed allowances of the known-good cases hide none of it.
expect_exit 4 "$FATHOM" ct "$SUITE" --format json --no-explain --variants 2 -j 2 \
  --op ct_tag_compare_early_exit --op ct_tag_compare_constant --op ct_secret_branch \
  --op ct_secret_divide --op ct_secret_compress --op aes128_gcm_encrypt_1k --op sha256_1k \
  --allow "$ALLOW"
cp "$WORK/out" "$WORK/taint.json"
python3 - "$WORK/taint.json" "$WORK/allow.toml" <<'PY' || { cat "$WORK/taint.json" >&2; fail "taint verdicts"; }
import json, sys
d = json.load(open(sys.argv[1]))
ops = {(o["board"], o["operation"]): o for o in d["operations"]}
def sites(board, op, verdict):
    t = ops[(board, op)]["taint"]
    assert t is not None and t["verdict"] == verdict, (board, op, t)
    assert t["tainted_instructions"] > 0 and t["marked_bytes"] > 0, t
    return t["findings"]
def only(findings, cls, function, mnemonic, source="fathom_ct_fixtures.c"):
    assert len(findings) == 1, findings
    f = findings[0]
    assert f["class"] == cls and f["function"] == function, f
    assert f["instruction"].startswith(mnemonic) and f["file"].endswith(source) and f["line"] > 0, f
    assert f["count"] >= 1 and f["allowed"] is None, f
    return f
for board in ("sim-m33", "sim-m0plus"):
    f = only(sites(board, "ct_tag_compare_early_exit", "leak"), "branch", "compare_early_exit", "b")
    assert f["operand"] == "flags", f
    assert sites(board, "ct_tag_compare_constant", "no finding") == []
    # A branch per secret bit: the loop's 32 tests of the exponent.
    f = only(sites(board, "ct_secret_branch", "leak"), "branch", "power_mod", "b")
    assert f["count"] == 32, f
    aes = sites(board, "aes128_gcm_encrypt_1k", "leak")
    lookups = [f for f in aes if f["class"] == "secret-address" and
               f["function"] == "mbedtls_internal_aes_encrypt"]
    assert lookups and all(f["instruction"].startswith("ldr") and f["file"].endswith("aes.c")
                           for f in lookups), aes
    assert ops[(board, "sha256_1k")]["taint"] is None
# The hash key's bit in gcm_gen_table (inlined into mbedtls_gcm_setkey): an IT on the M33, the
# branch that leaks on the M0+.
for board, cls, mnemonic, timing in (("sim-m33", "it", "it", "constant"),
                                     ("sim-m0plus", "branch", "b", "leak")):
    assert ops[(board, "aes128_gcm_encrypt_1k")]["verdict"] == timing
    gen = [f for f in ops[(board, "aes128_gcm_encrypt_1k")]["taint"]["findings"]
           if f["function"] == "mbedtls_gcm_setkey"]
    assert len(gen) == 1 and gen[0]["class"] == cls and gen[0]["instruction"].startswith(mnemonic) \
        and gen[0]["file"].endswith("gcm.c"), gen
only(sites("sim-m33", "ct_secret_divide", "leak"), "variable-latency", "divide", "udiv")
only(sites("sim-m0plus", "ct_secret_divide", "leak"), "software-division", "divide", "bl")
# The constant divisor: UMULL on the M33 (no finding: single-cycle there), the call on the M0+.
assert sites("sim-m33", "ct_secret_compress", "no finding") == []
only(sites("sim-m0plus", "ct_secret_compress", "leak"), "software-division", "compress4", "bl")
# An allowance for each function AES's findings are in (the M33's), and one that matches nothing.
functions = sorted({f["function"] for f in ops[("sim-m33", "aes128_gcm_encrypt_1k")]["taint"]["findings"]})
with open(sys.argv[2], "w") as out:
    for fn in functions:
        out.write(f'[[allow]]\nfunction = "{fn}"\noperation = "aes128_gcm_encrypt_1k"\n'
                  f'reason = "T-table AES: this part has no data cache"\n\n')
    out.write('[[allow]]\nfunction = "no_such_function"\nreason = "stale"\n')
PY

# The report's Constant time section, read in headless Chromium the way a user sees it: every
# operation's verdicts and every finding of the file above (tests/e2e/tools/report_dom.py --ct).
CHROMIUM=""
for c in chromium-headless-shell chromium; do
  command -v "$c" >/dev/null 2>&1 && { CHROMIUM=$(command -v "$c"); break; }
done
if [ -n "$CHROMIUM" ]; then
  expect_exit 0 "$FATHOM" run "$SUITE" --board sim-m33 --op sha256_1k --runs 1 --warmup 0 \
    --out "$WORK/run"
  expect_exit 0 "$FATHOM" report "$WORK/run/results.json" --ct "$WORK/taint.json" --out "$WORK/page"
  ARTIFACTS="$(cd "$(dirname "$FATHOM")" && pwd)/test-artifacts"
  python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/page/report.html" \
    "$WORK/run/results.json" "$ARTIFACTS" --ct "$WORK/taint.json" --screenshot report-ct.png ||
    fail "the report's Constant time section (above)"
  echo '{"schema_version": 7, "operations": []}' > "$WORK/bad-ct.json"
  expect_exit 2 "$FATHOM" report "$WORK/run/results.json" --ct "$WORK/bad-ct.json" --out "$WORK/page2"
  expect_err "schema_version 7 (this fathom reads 1)"
else
  echo "no headless Chromium: the report's Constant time section is not checked" >&2
fi

# --allow: every AES finding accepted with its reason: exit 0, verdict "allowed", the stale
# entry named on stderr.
expect_exit 0 "$FATHOM" ct "$SUITE" --board sim-m33 --op aes128_gcm_encrypt_1k --variants 2 \
  --allow "$WORK/allow.toml"
grep -qE '^aes128_gcm_encrypt_1k +mbedtls-ct +sim-m33 +allowed ' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "taint row of the allowed AES findings"; }
grep -qF "allowed: T-table AES: this part has no data cache" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "allowed findings keep their reason"; }
grep -qE -- "allow.toml:[0-9]+:[0-9]+: this \[\[allow\]\] \(no_such_function\) matched no finding" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks /allow.toml:[0-9]+:[0-9]+: this \[\[allow\]\] \(no_such_function\) matched no finding/"; }
# A bad allow file: an allowance without a reason, an unknown class.
printf '[[allow]]\nfunction = "divide"\n' > "$WORK/bad.toml"
expect_exit 2 "$FATHOM" ct "$SUITE" --op ct_secret_divide --allow "$WORK/bad.toml"
grep -qE -- "bad.toml:1:1: .*reason" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks /bad.toml:1:1: .*reason/"; }
printf '[[allow]]\nfunction = "divide"\nreason = "x"\nclass = "slow"\n' > "$WORK/bad.toml"
expect_exit 2 "$FATHOM" ct "$SUITE" --op ct_secret_divide --allow "$WORK/bad.toml"
grep -qE -- "bad.toml:4:[0-9]+: unknown finding class 'slow'" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks /bad.toml:4:[0-9]+: unknown finding class 'slow'/"; }

# Known good: PQClean ML-KEM-512 decapsulation (the KyberSlash fixes in), its decapsulation key
# varied with the ciphertext fixed, so every variant but 0 takes the implicit-rejection path.
# Constant on both cores and no finding on the M33; on the M0+ one formal finding: the carry
# test of libgcc's 64-bit multiply (__aeabi_lmul; the M0+ has no UMULL), which
# polyvec_compress calls once per coefficient (2 x 256) on secret-derived values, and which for
# these operands (below 2^22 times 1290167) never carries: reviewed, and allowed with
# suites/allow/known-good.toml (exit 0).
expect_exit 0 "$FATHOM" ct pq --op mlkem512_decaps --board sim-m33 --board sim-m0plus \
  --variants 4 --format json -j 2 --allow "$ALLOW"
python3 - "$WORK/out" <<'PY' || { cat "$WORK/out" >&2; fail "ML-KEM decapsulation verdicts"; }
import json, sys
d = json.load(open(sys.argv[1]))
ops = {o["board"]: o for o in d["operations"]}
for board in ("sim-m33", "sim-m0plus"):
    o = ops[board]
    assert o["verdict"] == "constant" and o["variants"] == 4, o
    assert o["taint"]["marked_bytes"] == 768 + 32 and o["taint"]["tainted_instructions"] > 100000, o
assert ops["sim-m33"]["taint"]["verdict"] == "no finding", ops["sim-m33"]["taint"]
t = ops["sim-m0plus"]["taint"]
assert t["verdict"] == "allowed" and len(t["findings"]) == 1, t
f = t["findings"][0]
assert f["class"] == "branch" and f["function"] == "__aeabi_lmul" and f["count"] == 512, f
assert "never taken" in f["allowed"], f
PY

# Bad input: fewer than two variants, an operation the suite does not have.
expect_exit 2 "$FATHOM" ct "$SUITE" --variants 1
expect_exit 2 "$FATHOM" ct "$SUITE" --op no_such_op
expect_err "no_such_op"
exit 0
