#!/bin/bash
# fathom profile on the default suite: without MBEDTLS_ECP_NIST_OPTIM the ECDH shared secret's
# cycles sit under the scalar multiplication and the generic modular reduction; with it, under
# the P-256 fast reduction. Every export format is written and checked against its rules.
. "$(dirname "$0")/lib.sh"
need_toolchain
export FATHOM_HISTORY_DB="$WORK/history.sqlite"

expect_exit 0 "$FATHOM" profile --config mbedtls-no-nist-optim --op ecdh_p256_shared \
  --format folded --out "$WORK/slow.folded"
grep -q "mbedtls_mpi_mod_mpi" "$WORK/out" || fail "summary lacks mbedtls_mpi_mod_mpi"
python3 - "$WORK/slow.folded" <<'PY' || fail "folded stacks of the slow configuration"
import re, sys
total = under_mul = under_mod = 0
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    assert re.fullmatch(r"[^;]+(;[^;]+)*", stack), line
    n = int(count)
    total += n
    frames = stack.split(";")
    if any(f.startswith("ecp_mul") for f in frames):
        under_mul += n
        if "mbedtls_mpi_mod_mpi" in frames:
            under_mod += n
assert total > 10_000_000, total
assert under_mul > 0.95 * total, (under_mul, total)
assert under_mod > 0.5 * total, (under_mod, total)
PY

expect_exit 0 "$FATHOM" profile --config mbedtls --op ecdh_p256_shared --format callgrind \
  --out "$WORK/fast.callgrind"
grep -q "ecp_mod_p256" "$WORK/fast.callgrind" || fail "NIST_OPTIM profile lacks ecp_mod_p256"
python3 - "$WORK/fast.callgrind" <<'PY' || fail "callgrind file"
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "# callgrind format", lines[0]
assert "positions: instr line" in lines and "events: Cycles Instructions" in lines
totals = [l for l in lines if l.startswith("totals:")]
assert len(totals) == 1
for i, l in enumerate(lines):
    if l.startswith("calls="):
        assert len(lines[i + 1].split()) == 4, lines[i + 1]
PY

expect_exit 0 "$FATHOM" profile --config mbedtls --op sha256_1k --format speedscope \
  --out "$WORK/sha.speedscope.json"
check_json "$WORK/sha.speedscope.json" '
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
p = d["profiles"][0]
assert p["type"] == "evented" and p["name"].startswith("sha256_1k")
stack, last = [], 0
for e in p["events"]:
    assert e["at"] >= last and 0 <= e["frame"] < len(d["shared"]["frames"])
    last = e["at"]
    if e["type"] == "O": stack.append(e["frame"])
    else: assert stack.pop() == e["frame"]
assert not stack
names = [f["name"] for f in d["shared"]["frames"]]
assert any("sha256" in n for n in names), names'

expect_exit 0 "$FATHOM" profile --config mbedtls --op sha256_1k --format perfetto \
  --out "$WORK/sha.trace.json"
check_json "$WORK/sha.trace.json" '
ev = d["traceEvents"]
xs = [e for e in ev if e["ph"] == "X"]
assert xs and all("cycles" in e["args"] and e["dur"] >= 0 for e in xs)
assert any(e["ph"] == "M" for e in ev) and any(e["ph"] == "C" for e in ev)'

# Correctness gates profiles too: no profile of an operation whose KAT failed.
expect_exit 1 "$FATHOM" profile "$SRC/tests/e2e/suites/broken_kat.toml" --op sha256_64 \
  --format folded --out "$WORK/broken.folded"
expect_err "no profile for sha256_64"
[ ! -e "$WORK/broken.folded" ] || fail "a profile was written for a failed KAT"
expect_exit 2 "$FATHOM" profile --config mbedtls --format folded
expect_err "--op"
# A plain newlib rdimon ELF not built by fathom (tests/fixtures/firmware/rdimon_fixture.c):
# semihosting console, each call of benchmark(), its call graph.
RDIMON="$(dirname "$FATHOM")/tests/fixtures/firmware/rdimon_fixture.elf"
if [ -f "$RDIMON" ]; then
  expect_exit 0 "$FATHOM" profile "$RDIMON" --function benchmark --format folded \
    --out "$WORK/rdimon.folded"
  grep -q "rdimon fixture: total=" "$WORK/out" || fail "semihosting console output missing"
  grep -q "benchmark: 3 calls" "$WORK/out" || fail "per-call cycles of benchmark missing"
  grep -q "benchmark;fib " "$WORK/rdimon.folded" || fail "fib not under benchmark"
  # benchmark ends in a chain of tail calls (mix, then scale): each call still ends at its return.
  ! grep -q "benchmark;benchmark;benchmark" "$WORK/rdimon.folded" || fail "benchmark nested in itself"
  grep -q "benchmark;benchmark;scale " "$WORK/rdimon.folded" || fail "tail-called scale not under benchmark"
  # rotate_mix is always_inline: DWARF's inlined frame shows under benchmark (not with --no-inline).
  grep -q "benchmark;rotate_mix (inlined) " "$WORK/rdimon.folded" || fail "inlined frame missing"
  expect_exit 0 "$FATHOM" profile "$RDIMON" --function benchmark --format folded --no-inline \
    --out "$WORK/rdimon-noinline.folded"
  ! grep -q "(inlined)" "$WORK/rdimon-noinline.folded" || fail "--no-inline kept inlined frames"
  expect_exit 2 "$FATHOM" profile "$RDIMON" --function no_such_function
  expect_err "no_such_function"
fi
echo PASS
