#!/bin/bash
# The QEMU 10 prototype plugin (src/target/qemu_plugin/fathom_engine_probe.c; docs/QEMU-ENGINE.md)
# counts exactly what fathom's QEMU target counts. The same `fathom run` on qemu-mps2-an505 runs
# twice: once as shipped (Debian's qemu-system-arm 7.2 with fathom_probe_plugin.c), once with a
# qemu-system-arm on PATH that runs QEMU 10.0.13 (scripts/build-qemu10.sh) with the prototype in
# place of fathom's plugin. fathom decodes both probe files; every operation's instruction
# samples and the image's total must be equal, and the prototype's own record must show it read
# PC, SP and r0 (PC equal to each block's start), saw loads and stores, and undid QEMU 10's MMIO
# block restarts. Skips (77) when QEMU 10 has not been built.
. "$(dirname "$0")/lib.sh"
need_toolchain
need_qemu_target
CACHE="${FATHOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fathom}"
QEMU10_ROOT="$CACHE/qemu10-10.0.13"
QEMU10="${FATHOM_QEMU10:-$QEMU10_ROOT/build/qemu-system-arm}"
HEADERS="${FATHOM_QEMU10_INCLUDE:-$QEMU10_ROOT/src/qemu-10.0.13/include/qemu}"
[ -x "$QEMU10" ] || skip "QEMU 10 is not built ($QEMU10; run scripts/build-qemu10.sh)"
[ -f "$HEADERS/qemu-plugin.h" ] || skip "no QEMU 10 plugin header in $HEADERS"
pkg-config --exists glib-2.0 2>/dev/null || skip "no glib-2.0 headers (libglib2.0-dev)"

# shellcheck disable=SC2046
cc -shared -fPIC -O2 -std=gnu11 -Wall -Wextra -Werror $(pkg-config --cflags glib-2.0) \
  -I"$HEADERS" "$SRC/src/target/qemu_plugin/fathom_engine_probe.c" -o "$WORK/probe.so" ||
  fail "the prototype plugin does not build against QEMU 10's header"

# The stand-in qemu-system-arm: QEMU 10, with fathom's -plugin library replaced by the prototype
# (same out= and console= arguments) plus a stats file per QEMU process.
mkdir -p "$WORK/bin"
cat > "$WORK/bin/qemu-system-arm" <<EOF
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
  if [ "\$1" = -plugin ]; then
    args+=(-plugin "$WORK/probe.so,\${2#*,},stats=$WORK/stats.\$\$.txt"); shift 2
  else
    args+=("\$1"); shift
  fi
done
exec "$QEMU10" "\${args[@]}"
EOF
chmod +x "$WORK/bin/qemu-system-arm"

run_args=(run --board qemu-mps2-an505 --config mbedtls --op sha256_1k --op ecdh_p256_keygen
  --runs 2 --no-history --fresh --format json)
expect_exit 0 "$FATHOM" "${run_args[@]}" --out "$WORK/ref"
PATH="$WORK/bin:$PATH" expect_exit 0 "$FATHOM" "${run_args[@]}" --out "$WORK/q10"
ls "$WORK"/stats.*.txt >/dev/null 2>&1 || fail "the prototype plugin wrote no stats file"
cat "$WORK"/stats.*.txt > "$WORK/stats"

python3 - "$WORK/ref/results.json" "$WORK/q10/results.json" "$WORK/stats" <<'PY' ||
import json, sys
ref, q10 = (json.load(open(p))["images"][0] for p in sys.argv[1:3])
assert "7.2" in ref["provenance"]["target_details"]["qemu"], ref["provenance"]
assert "10.0.13" in q10["provenance"]["target_details"]["qemu"], q10["provenance"]
for im in (ref, q10):
    assert im["completed"] and im["error"] in ("", None), im["error"]
assert ref["totals"]["instructions"] > 0
assert q10["totals"]["instructions"] == ref["totals"]["instructions"], (
    q10["totals"], ref["totals"])
ops = lambda im: {o["operation"]: o for o in im["operations"]}
r, q = ops(ref), ops(q10)
assert sorted(r) == sorted(q) == ["ecdh_p256_keygen", "sha256_1k"], (sorted(r), sorted(q))
for name in r:
    assert q[name]["kat"]["status"] == "passed", (name, q[name]["kat"])
    a, b = r[name]["samples"]["instructions"], q[name]["samples"]["instructions"]
    assert len(a) == 2 and all(x > 0 for x in a), (name, a)
    assert a == b, (name, a, b)
stats = {}
for line in open(sys.argv[3]):
    key, _, value = line.strip().partition(" ")
    stats.setdefault(key, []).append(value)
regs = stats["registers"][0].split()
assert {"r0", "sp", "pc", "xpsr", "msp", "psp"} <= set(regs), regs
assert all(v == "0" for v in stats["pc_mismatches"]), stats["pc_mismatches"]
assert all(v == "0" for v in stats["register_read_failures"]), stats
assert all(v == "full" for v in stats["mode"]), stats["mode"]
assert all(int(v) > 0 for v in stats["blocks"]), stats["blocks"]
assert all(int(v.split()[0]) > 0 for v in stats["loads"] + stats["stores"]), stats
restarts = [v.split() for v in stats["io_restarts"]]
assert all(int(n) > 0 and u == "0" for n, _, u in restarts), restarts
print(f"QEMU 10 prototype: {q10['totals']['instructions']} instructions, equal to QEMU 7.2's")
PY
  fail "the QEMU 10 prototype's counts differ from the QEMU target's"
