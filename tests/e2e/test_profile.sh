#!/bin/bash
# fathom profile on the default suite: without MBEDTLS_ECP_NIST_OPTIM the ECDH shared secret's
# cycles sit under the scalar multiplication and the generic modular reduction; with it, under
# the P-256 fast reduction. Every export format is written and checked against its rules.
. "$(dirname "$0")/lib.sh"
need_toolchain
export FATHOM_HISTORY_DB="$WORK/history.sqlite"

# The reference case of the issue: ECDH without MBEDTLS_ECP_NIST_OPTIM, far more calls than a
# viewer can take as a call trace. Every export must cover the whole operation: for every
# function, the self and total cycles that each file implies, read the way its viewer reads
# it, equal the profile's exclusive and inclusive cycles (fathom's own table, --format json).
# --fresh: profiled in this run whatever the result cache holds.
expect_exit 0 "$FATHOM" profile --config mbedtls-no-nist-optim --op ecdh_p256_shared --top 0 \
  --format json --format speedscope --format perfetto --format folded --out "$WORK/slow" --fresh
if grep -qF "read back from the result cache" "$WORK/err"; then
  cat "$WORK/err" >&2; fail "--fresh read a profile back from the result cache"
fi
# --out is a directory: one file per --format, named after the configuration and operation.
for f in profile.json speedscope.json perfetto.json folded; do
  [ -s "$WORK/slow/mbedtls-no-nist-optim.ecdh_p256_shared.$f" ] || fail "--out did not get slow/mbedtls-no-nist-optim.ecdh_p256_shared.$f"
  expect_err "profile to $WORK/slow/mbedtls-no-nist-optim.ecdh_p256_shared.$f ("
done
cp "$WORK/out" "$WORK/ecdh.txt"
# The same profile again is read back from the result cache (same image, parameters and
# tracker, same fathom), and says so: the same summary and files, byte for byte.
expect_exit 0 "$FATHOM" profile --config mbedtls-no-nist-optim --op ecdh_p256_shared --top 0 \
  --format json --format speedscope --format perfetto --format folded --out "$WORK/again"
expect_err "read back from the result cache (--fresh profiles again)"
diff -r "$WORK/slow" "$WORK/again" >&2 || fail "the profile read back differs from the one made"
cmp -s "$WORK/out" "$WORK/ecdh.txt" || fail "the summary of the profile read back differs"
grep -q "mbedtls_mpi_mod_mpi" "$WORK/ecdh.txt" || fail "summary lacks mbedtls_mpi_mod_mpi"
python3 - "$WORK" <<'PY' || fail "exports of the ECDH profile"
import collections, json, os, re, sys
work = sys.argv[1]
MB = 1024 * 1024
summary = json.load(open(f"{work}/slow/mbedtls-no-nist-optim.ecdh_p256_shared.profile.json"))
[profile] = summary["profiles"]
assert profile["name"] == "ecdh_p256_shared", profile["name"]
total = profile["total_cycles"]
assert profile["executions"] == 1, profile["executions"]
# Truth: fathom's own per-function table, by function name.
want_self, want_total = collections.Counter(), collections.Counter()
for f in profile["functions"]:
    want_self[f["name"]] += f["exclusive_cycles"]
    want_total[f["name"]] += f["inclusive_cycles"]
names = [f["name"] for f in profile["functions"]]
assert len(names) == len(set(names)), "two frames share a name: compare them by frame"
assert sum(want_self.values()) == total, (sum(want_self.values()), total)
# The printed table is the same table.
text = open(f"{work}/ecdh.txt").read()
assert f"ecdh_p256_shared: {total:,} cycles" in text, text[:400]
def function(name):  # by name, with or without GCC's clone suffix (".isra.0")
    [f] = [f for f in profile["functions"] if f["name"] == name or f["name"].startswith(name + ".")]
    return f
for name in ("ecp_mul_restartable_internal", "mbedtls_mpi_mod_mpi"):
    function(name)

def same(got_self, got_total, what):
    bad = [(n, got_self.get(n, 0), want_self[n], got_total.get(n, 0), want_total[n])
           for n in set(want_self) | set(got_self)
           if got_self.get(n, 0) != want_self.get(n, 0) or got_total.get(n, 0) != want_total.get(n, 0)]
    assert not bad, f"{what}: (name, self, want self, total, want total): {sorted(bad)[:10]}"

# speedscope, as speedscope computes a frame's self and total weight.
path = f"{work}/slow/mbedtls-no-nist-optim.ecdh_p256_shared.speedscope.json"
assert os.path.getsize(path) < 50 * MB, os.path.getsize(path)
d = json.load(open(path))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
assert len(d["profiles"]) == 1, [p["name"] for p in d["profiles"]]
p = d["profiles"][0]
frames = [f["name"] for f in d["shared"]["frames"]]
got_self, got_total = collections.Counter(), collections.Counter()
if p["type"] == "evented":
    stack, last = [], p["startValue"]
    for e in p["events"]:
        if stack:
            got_self[frames[stack[-1]]] += e["at"] - last
            for n in {frames[f] for f in stack}: got_total[n] += e["at"] - last
        last = e["at"]
        if e["type"] == "O": stack.append(e["frame"])
        else: assert stack.pop() == e["frame"]
    assert not stack
else:
    assert p["type"] == "sampled", p["type"]
    assert len(p["samples"]) == len(p["weights"])
    for stack, w in zip(p["samples"], p["weights"]):
        got_self[frames[stack[-1]]] += w
        for n in {frames[f] for f in stack}: got_total[n] += w
    # Aggregated: the name says so and why.
    assert "aggregated per call path" in p["name"] and "exceed" in p["name"], p["name"]
assert p["unit"] == "none" and p["endValue"] - p["startValue"] == total, (p["startValue"], p["endValue"], total)
same(got_self, got_total, "speedscope")
print(f"speedscope: {p['type']}, {len(p.get('samples', p.get('events', [])))} entries, "
      f"{os.path.getsize(path)} bytes, name: {p['name']}")

# Perfetto (Chrome JSON), as the UI nests slices: by ts and dur on each thread; self = dur minus
# the children's. Times are converted back to cycles at the board clock (ns, rounded down).
path = f"{work}/slow/mbedtls-no-nist-optim.ecdh_p256_shared.perfetto.json"
assert os.path.getsize(path) < 50 * MB, os.path.getsize(path)
d = json.load(open(path))
clock = d["otherData"]["clock_hz"]
assert clock > 0
cycles = lambda us: round(us * 1000 * clock / 1e9)
threads = {e["tid"]: e["args"]["name"] for e in d["traceEvents"]
           if e["ph"] == "M" and e["name"] == "thread_name"}
assert len(threads) == 1, threads
[tid] = threads
# Sorted as the UI nests them: by start, longer first, then file order (parents come first).
xs = sorted(((cycles(e["ts"]), cycles(e["ts"] + e["dur"]), i, e["name"])
             for i, e in enumerate(d["traceEvents"]) if e["ph"] == "X" and e["tid"] == tid),
            key=lambda x: (x[0], -x[1], x[2]))
assert xs
got_self, got_total = collections.Counter(), collections.Counter()
stack = []  # [start, end, name, time of its children]
def close():
    start, end, name, children = stack.pop()
    got_self[name] += end - start - children
    if stack: stack[-1][3] += end - start
    if all(s[2] != name for s in stack): got_total[name] += end - start
for start, end, _, name in xs:
    while stack and stack[-1][1] <= start and stack[-1][1] > stack[-1][0]: close()
    while stack and stack[-1][1] < start: close()
    assert not stack or end <= stack[-1][1], "slices overlap"
    stack.append([start, end, name, 0])
while stack: close()
assert xs[0][1] - xs[0][0] == total, (xs[0], total)
if p["type"] == "sampled":
    assert "aggregated per call path" in threads[tid], threads[tid]
same(got_self, got_total, "perfetto")
print(f"perfetto: {len(xs)} slices, {os.path.getsize(path)} bytes, thread: {threads[tid]}")

# Folded stacks, as flamegraph.pl sums them: the operation only, no repeated root frame.
got_self, got_total = collections.Counter(), collections.Counter()
roots = set()
for line in open(f"{work}/slow/mbedtls-no-nist-optim.ecdh_p256_shared.folded"):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    assert re.fullmatch(r"[^;]+(;[^;]+)*", stack), line
    fs = stack.split(";")
    roots.add(fs[0])
    assert len(fs) < 2 or fs[0] != fs[1], line
    got_self[fs[-1]] += int(count)
    for n in set(fs): got_total[n] += int(count)
assert len(roots) == 1, roots
same(got_self, got_total, "folded")
top = sorted(profile["functions"], key=lambda f: -f["exclusive_cycles"])[:5]
print("top exclusive:", ", ".join(f"{f['name']} {100 * f['exclusive_cycles'] / total:.2f}%" for f in top))
ecp = function("ecp_mul_restartable_internal")
print(f"ecp_mul_restartable_internal: exclusive {100 * ecp['exclusive_cycles'] / total:.3f}%")
assert ecp["exclusive_cycles"] < 0.01 * total, ecp
PY
python3 - "$WORK/slow/mbedtls-no-nist-optim.ecdh_p256_shared.folded" <<'PY' || fail "folded stacks of the slow configuration"
import re, sys
total = under_mul = under_mod = 0
for line in open(sys.argv[1]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
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

# The profile sums the timed executions only (on the simulator the stack is measured in the first
# of them), so with --runs 1 the total is the harness's one timed run (plus the probe's own few
# cycles at most).
python3 - "$WORK/ecdh.txt" <<'PY' || fail "profile total vs the harness's cycles"
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r": (\d{1,3}(?:,\d{3})*) profiled = the 1 timed execution of ecdh_p256_shared; "
              r"the harness measured (\d{1,3}(?:,\d{3})*) cycles over them", text)
assert m, text[:600]
profiled, harness = (int(g.replace(",", "")) for g in m.groups())
assert abs(profiled - harness) < 0.001 * harness, (profiled, harness)
PY

# callgrind, as callgrind_annotate reads it (the tool itself) and as speedscope's importer reads
# it (one position column, then the events): both equal the profile without inline expansion
# (callgrind's functions are the image's; inlined code stays in the function it is in).
expect_exit 0 "$FATHOM" profile --config mbedtls-no-nist-optim --op ecdh_p256_shared --no-inline \
  --format json --format callgrind --out "$WORK/noinline"
if command -v callgrind_annotate >/dev/null; then
  # From $WORK: callgrind_annotate strips the current directory from fl= names but not from cfl=
  # names, which would split a function in two when run from the source tree.
  cd "$WORK" || fail "cd"
  callgrind_annotate --inclusive=no --threshold=100 --auto=no --show=Cycles "$WORK/noinline/callgrind.out.mbedtls-no-nist-optim.ecdh_p256_shared" >"$WORK/ca-self.txt" ||
    fail "callgrind_annotate could not read the file"
  callgrind_annotate --inclusive=yes --threshold=100 --auto=no --show=Cycles "$WORK/noinline/callgrind.out.mbedtls-no-nist-optim.ecdh_p256_shared" >"$WORK/ca-incl.txt" ||
    fail "callgrind_annotate --inclusive=yes could not read the file"
  cd - >/dev/null || fail "cd -"
  python3 - "$WORK" <<'PY' || fail "callgrind costs"
import collections, json, re, sys
work = sys.argv[1]
[profile] = json.load(open(f"{work}/noinline/mbedtls-no-nist-optim.ecdh_p256_shared.profile.json"))["profiles"]
want_self = {f["name"]: f["exclusive_cycles"] for f in profile["functions"]}
want_total = {f["name"]: f["inclusive_cycles"] for f in profile["functions"]}
lines = open(f"{work}/noinline/callgrind.out.mbedtls-no-nist-optim.ecdh_p256_shared").read().splitlines()
assert "positions: instr" in lines and "events: Cycles Instructions" in lines
assert any(l.startswith("ob=/") and l.endswith(".elf") for l in lines), "no ob= naming the image"

def annotate(path):  # callgrind_annotate's function table: "cycles (pct) file:function [obj]"
    out = collections.Counter()
    for l in open(path):
        m = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(?:\S*?):(\S+)(?:\s+\[.*\])?\s*$", l)
        if m: out[m.group(2)] += int(m.group(1).replace(",", ""))
    return out
ca_self, ca_total = annotate(f"{work}/ca-self.txt"), annotate(f"{work}/ca-incl.txt")
# speedscope's importer: a cost line is one position then Cycles, Instructions; a frame's total
# weight is its self cost plus the inclusive cost of its calls.
names = {"fn": {}, "fl": {}}
ss_self, ss_calls = collections.Counter(), collections.Counter()
fn, after_calls = None, False
for l in lines:
    m = re.match(r"^(c?fn|c?fl|fi|fe)=\((\d+)\)(?: (.*))?$", l)
    if m:
        table = names["fn" if m.group(1).endswith("fn") else "fl"]
        if m.group(3) is not None: table[m.group(2)] = m.group(3)
        if m.group(1) == "fn": fn = table[m.group(2)]
        continue
    if l.startswith("calls="): after_calls = True; continue
    if re.match(r"^0x[0-9a-f]+( \d+)+$", l):
        cols = [int(c, 0) for c in l.split()]
        (ss_calls if after_calls else ss_self)[fn] += cols[1]
        after_calls = False
recursive = set()
bad = []
for name in set(want_self) | set(ca_self):
    if ca_self.get(name, 0) != want_self.get(name, 0) or ss_self.get(name, 0) != want_self.get(name, 0):
        bad.append(("self", name, ca_self.get(name, 0), ss_self.get(name, 0), want_self.get(name, 0)))
    if ss_self.get(name, 0) + ss_calls.get(name, 0) != want_total.get(name, 0):
        bad.append(("speedscope total", name, ss_self.get(name, 0) + ss_calls.get(name, 0), want_total.get(name, 0)))
    if ca_total.get(name, 0) != want_total.get(name, 0):
        bad.append(("callgrind_annotate inclusive", name, ca_total.get(name, 0), want_total.get(name, 0)))
assert not bad, sorted(bad)[:10]
print(f"callgrind: {len(want_self)} functions agree (callgrind_annotate, speedscope's reading)")
PY
fi

expect_exit 0 "$FATHOM" profile --config mbedtls --op ecdh_p256_shared --format callgrind \
  --out "$WORK/fast"
grep -q "ecp_mod_p256" "$WORK/fast/callgrind.out.mbedtls.ecdh_p256_shared" || fail "NIST_OPTIM profile lacks ecp_mod_p256"
python3 - "$WORK/fast/callgrind.out.mbedtls.ecdh_p256_shared" <<'PY' || fail "callgrind file"
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "# callgrind format", lines[0]
assert "positions: instr" in lines and "events: Cycles Instructions" in lines
totals = [l for l in lines if l.startswith("totals:")]
assert len(totals) == 1
for i, l in enumerate(lines):
    if l.startswith("calls="):
        assert len(lines[i + 1].split()) == 3, lines[i + 1]  # address, cycles, instructions
PY

# A short operation without inline expansion: its whole call trace fits, so speedscope gets the
# exact evented trace (and Perfetto the calls with a stack counter), with the same costs.
expect_exit 0 "$FATHOM" profile --config mbedtls --op sha256_1k --no-inline --top 0 \
  --format speedscope --format perfetto --format json --out "$WORK/sha"
python3 - "$WORK" <<'PY' || fail "sha256_1k call trace"
import collections, json, sys
work = sys.argv[1]
[profile] = json.load(open(f"{work}/sha/mbedtls.sha256_1k.profile.json"))["profiles"]
d = json.load(open(f"{work}/sha/mbedtls.sha256_1k.speedscope.json"))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
p = d["profiles"][0]
assert p["type"] == "evented" and p["name"] == "sha256_1k (cycles, call trace)", p["name"]
frames = [f["name"] for f in d["shared"]["frames"]]
got_self, got_total = collections.Counter(), collections.Counter()
stack, last = [], 0
for e in p["events"]:
    assert e["at"] >= last and 0 <= e["frame"] < len(frames)
    if stack:
        got_self[frames[stack[-1]]] += e["at"] - last
        for n in {frames[f] for f in stack}: got_total[n] += e["at"] - last
    last = e["at"]
    if e["type"] == "O": stack.append(e["frame"])
    else: assert stack.pop() == e["frame"]
assert not stack and last == profile["total_cycles"]
for f in profile["functions"]:
    assert got_self[f["name"]] == f["exclusive_cycles"], (f, got_self[f["name"]])
    assert got_total[f["name"]] == f["inclusive_cycles"], (f, got_total[f["name"]])
assert any("sha256" in n for n in frames), frames
t = json.load(open(f"{work}/sha/mbedtls.sha256_1k.perfetto.json"))["traceEvents"]
xs = [e for e in t if e["ph"] == "X"]
assert xs and all(e["cat"] == "call" and "cycles" in e["args"] and e["dur"] >= 0 for e in xs)
assert any(e["ph"] == "M" for e in t) and any(e["ph"] == "C" for e in t)
assert max(e["args"]["cycles"] for e in xs) == profile["total_cycles"]
PY

# Correctness gates profiles too: no profile of an operation whose KAT failed.
expect_exit 1 "$FATHOM" profile "$SRC/tests/e2e/suites/broken_kat.toml" --op sha256_64 \
  --format folded --out "$WORK/broken"
expect_err "no profile for sha256_64"
[ ! -e "$WORK/broken" ] || fail "a profile was written for a failed KAT"
expect_exit 2 "$FATHOM" profile --config mbedtls --format folded
expect_err "--op"
# Several --format need --out DIR, and --out is a directory: a file, or a missing name with a
# file's extension, is a usage error before anything runs.
expect_exit 2 "$FATHOM" profile --config mbedtls --op sha256_64 --format folded --format json
expect_err "2 --format but no --out: give --out DIR, the directory to write one file per --format into"
expect_exit 2 "$FATHOM" profile --config mbedtls --op sha256_64 --format folded \
  --out "$WORK/one.folded"
expect_err "--out '$WORK/one.folded' looks like a file name; --out names a directory"
[ ! -e "$WORK/one.folded" ] || fail "a profile was written despite the usage error"
printf 'x' >"$WORK/a-file"
expect_exit 2 "$FATHOM" profile --config mbedtls --op sha256_64 --format folded --out "$WORK/a-file"
expect_err "--out '$WORK/a-file' is a file, not a directory; --out names a directory"
[ "$(cat "$WORK/a-file")" = x ] || fail "--out file was changed"
# A plain newlib rdimon ELF not built by fathom (tests/fixtures/firmware/rdimon_fixture.c):
# semihosting console, each call of benchmark(), its call graph.
RDIMON="$(dirname "$FATHOM")/tests/fixtures/firmware/rdimon_fixture.elf"
if [ -f "$RDIMON" ]; then
  expect_exit 0 "$FATHOM" profile "$RDIMON" --function benchmark --format folded \
    --out "$WORK/rdimon"
  grep -q "rdimon fixture: total=" "$WORK/out" || fail "semihosting console output missing"
  grep -q "benchmark: 3 calls" "$WORK/out" || fail "per-call cycles of benchmark missing"
  # Only benchmark's profile is written (the whole run only with --whole-run), and its root
  # frame is not repeated as a prefix.
  grep -q "^benchmark;fib " "$WORK/rdimon/rdimon_fixture.benchmark.folded" || fail "fib not under benchmark"
  ! grep -v "^benchmark[; ]" "$WORK/rdimon/rdimon_fixture.benchmark.folded" | grep -q . || fail "more than benchmark's profile"
  ! grep -q "^benchmark;benchmark" "$WORK/rdimon/rdimon_fixture.benchmark.folded" || fail "benchmark's root frame repeated"
  # benchmark ends in a chain of tail calls (mix, then scale): each call still ends at its return.
  grep -q "^benchmark;scale " "$WORK/rdimon/rdimon_fixture.benchmark.folded" || fail "tail-called scale not under benchmark"
  expect_exit 0 "$FATHOM" profile "$RDIMON" --function benchmark --whole-run --format folded \
    --out "$WORK/rdimon-whole"
  grep -q "^benchmark;fib " "$WORK/rdimon-whole/rdimon_fixture.benchmark.folded" || fail "--whole-run: benchmark's stacks"
  grep -q "^whole run;" "$WORK/rdimon-whole/rdimon_fixture.benchmark.folded" || fail "--whole-run: no whole-run stacks"
  # rotate_mix is always_inline: DWARF's inlined frame shows under benchmark (not with --no-inline).
  grep -q "benchmark;rotate_mix (inlined) " "$WORK/rdimon/rdimon_fixture.benchmark.folded" || fail "inlined frame missing"
  expect_exit 0 "$FATHOM" profile "$RDIMON" --function benchmark --format folded --no-inline \
    --out "$WORK/rdimon-noinline"
  ! grep -q "(inlined)" "$WORK/rdimon-noinline/rdimon_fixture.benchmark.folded" || fail "--no-inline kept inlined frames"
  expect_exit 2 "$FATHOM" profile "$RDIMON" --function no_such_function
  expect_err "no_such_function"
  # A name close to a function's gets the names it may have meant.
  expect_exit 2 "$FATHOM" profile "$RDIMON" --function benchmar
  expect_err "has no function named 'benchmar'; did you mean benchmark"
  # --board FILE: the user's own part, described outside fathom's tree (here sim-m4 renamed,
  # at a 10 MHz clock: the same cycles, twice the time).
  sed -e '0,/^name = .*/s//name = "my-part"/' -e 's/^clock_hz = .*/clock_hz = 10000000/' \
    "$SRC/firmware/boards/sim-m4/board.toml" >"$WORK/my-part.toml"
  expect_exit 0 "$FATHOM" profile "$RDIMON" --board "$WORK/my-part.toml" --function benchmark
  grep -q "rdimon_fixture.elf on my-part " "$WORK/out" || fail "--board FILE not used: $(head -3 "$WORK/out")"
  expect_exit 2 "$FATHOM" profile "$RDIMON" --board "$WORK/no-part.toml"
  expect_err "no such board file"
fi

# A plain newlib program linked with the toolchain's default script (no vector table, code at
# 0x8000): fathom takes the memory map from its program headers, the core from its build
# attributes, boots at its entry point, and reports each call of two functions with statistics.
cat >"$WORK/plain.c" <<'C'
#include <stdio.h>
static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) unsigned benchmark(unsigned n) { return fib(n); }
__attribute__((noinline)) unsigned twice(unsigned n) { return 2 * n + (n >> 3); }
int main(void) {
  unsigned t = 0;
  for (unsigned i = 0; i < 3; ++i) t += twice(benchmark(10 + i));
  printf("plain: total=%u\n", t);
  return 0;
}
C
for CPU in cortex-m4 cortex-m33 cortex-m0plus; do
  "${FATHOM_ARM_GCC:-arm-none-eabi-gcc}" -mcpu=$CPU -mthumb -O2 -g --specs=rdimon.specs \
    "$WORK/plain.c" -o "$WORK/plain-$CPU.elf" || fail "cannot build the plain rdimon program for $CPU"
  expect_exit 0 "$FATHOM" profile "$WORK/plain-$CPU.elf" --function benchmark --function twice
  SIM=sim-${CPU#cortex-}
  grep -q "plain: total=" "$WORK/out" || fail "$CPU: no console output: $(cat "$WORK/out" "$WORK/err")"
  grep -q "on $SIM (memory map from the ELF)" "$WORK/out" || fail "$CPU: not timed as $SIM: $(head -3 "$WORK/out")"
  expect_err "$CPU (Tag_CPU_arch of the ELF) timed as $SIM"
  expect_err "boot from the entry point"
  grep -qE "^benchmark: 3 calls; cycles min [0-9,]+, median [0-9,]+, mean [0-9,]+, max [0-9,]+; instructions min [0-9,]+, median" "$WORK/out" ||
    fail "$CPU: no call statistics for benchmark: $(cat "$WORK/out")"
  grep -qE "^twice: 3 calls; cycles min" "$WORK/out" || fail "$CPU: no call statistics for twice"
  ! grep -q "fault" "$WORK/out" || fail "$CPU: the plain program faulted: $(cat "$WORK/out")"
done
echo PASS
