#!/bin/bash
# The serial target with a real image on a "board" whose flash command starts QEMU: the
# qemu-mps2-an386 image (same board layer: CMSDK UART console, semihosting exit) behind the
# serial target. QEMU's UART goes to the pty relay (tests/e2e/tools/pty_relay.py, over its Unix
# socket), which writes it to a pseudo-terminal; fathom opens the pty slave as the board's port
# (the real termios path), flashes (starts QEMU), and reads the records to END.
#  - clean: KATs pass; QEMU's DWT reads 0, so the cycles are reported unavailable (never 0);
#    the harness's stack and heap figures equal the QEMU target's for the same image.
#  - a byte flipped in transit: the image fails with a CRC error, never a wrong number.
. "$(dirname "$0")/lib.sh"
need_toolchain
need_qemu_target

HOME_DIR="$WORK/home"
make_repository_view "$HOME_DIR" qemu-serial-an386
# qemu-mps2-an386's description, renamed, behind the serial target (its [qemu] table dropped).
python3 - "$SRC/firmware/boards/qemu-mps2-an386/board.toml" \
  "$HOME_DIR/firmware/boards/qemu-serial-an386/board.toml" "$WORK" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'^name = .*$', 'name = "qemu-serial-an386"', text, count=1, flags=re.M)
text = re.sub(r'^target = .*$', 'target = "serial"', text, count=1, flags=re.M)
text = re.sub(r'^sources = \["', 'sources = ["../qemu-mps2-an386/', text, count=1, flags=re.M)
text = re.sub(r'^linker_script = "', 'linker_script = "../qemu-mps2-an386/', text, count=1,
              flags=re.M)
text = re.sub(r'\[qemu\]\nmachine = .*\n', '', text)
work = sys.argv[3]
qemu = ("qemu-system-arm -M mps2-an386 -nographic -monitor none "
        "-semihosting-config enable=on,target=native "
        f"-chardev socket,id=uart,path={work}/relay.sock -serial chardev:uart "
        "-kernel {elf} >" + work + "/qemu.log 2>&1 &")
text += f'''
[serial]
port = "{work}/tty"
baud = 115200
flash = ["sh", "-c", "{qemu}"]
probe = "QEMU mps2-an386 behind a pty"
timeout_seconds = 600
idle_timeout_seconds = 120
'''
open(sys.argv[2], "w").write(text)
PY
grep -q '^target = "serial"' "$HOME_DIR/firmware/boards/qemu-serial-an386/board.toml" ||
  fail "could not derive the serial board from qemu-mps2-an386"

trap 'stop_relay; rm -rf "$WORK"' EXIT
OPS=(--config mbedtls --op sha256_1k --op aes128_gcm_encrypt_1k --runs 3)

# The reference: the same configuration on the QEMU target.
FATHOM_HOME="$HOME_DIR" "$FATHOM" run --board qemu-mps2-an386 "${OPS[@]}" --no-history \
  --out "$WORK/qemu" >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; fail "QEMU target run"; }

start_relay clean
FATHOM_HOME="$HOME_DIR" "$FATHOM" run --board qemu-serial-an386 "${OPS[@]}" --no-history \
  --out "$WORK/serial" >"$WORK/out" 2>"$WORK/err"
RC=$?
stop_relay
[ "$RC" = 0 ] || { cat "$WORK/err" "$WORK/qemu.log" >&2; fail "serial run over QEMU exited $RC"; }
python3 - "$WORK/serial/results.json" "$WORK/qemu/results.json" <<'PY' || fail "serial run over QEMU"
import json, sys
(im,) = json.load(open(sys.argv[1]))["images"]
(ref,) = json.load(open(sys.argv[2]))["images"]
assert im["completed"] and not im["error"], im["error"]
assert im["provenance"]["target"] == "serial", im["provenance"]["target"]
assert im["provenance"]["target_details"]["probe"] == "QEMU mps2-an386 behind a pty"
refs = {o["operation"]: o for o in ref["operations"]}
for o in im["operations"]:
    assert o["kat"]["status"] == "passed", (o["operation"], o["kat"])
    # DWT reads 0 on QEMU: no cycles, and never a 0-cycle figure.
    assert o["statistics"]["cycles"] is None, (o["operation"], o["statistics"]["cycles"])
    assert o["samples"]["cycles"] == [], o["samples"]
    r = refs[o["operation"]]
    for key in ("peak_stack_bytes", "heap_peak_bytes", "allocations"):
        assert o["memory"][key] == r["memory"][key] and o["memory"][key] is not None, \
            (o["operation"], key, o["memory"][key], r["memory"][key])
print("serial over QEMU:", {o["operation"]: o["memory"]["peak_stack_bytes"] for o in im["operations"]})
PY

start_relay flip
FATHOM_HOME="$HOME_DIR" "$FATHOM" run --board qemu-serial-an386 "${OPS[@]}" --no-history \
  --out "$WORK/flip" >"$WORK/out" 2>"$WORK/err"
RC=$?
stop_relay
[ "$RC" = 1 ] || { cat "$WORK/err" >&2; fail "flipped bytes: fathom exited $RC, expected 1"; }
check_json "$WORK/flip/results.json" '
(im,) = d["images"]
assert not im["completed"], "a damaged stream was reported complete"
assert "CRC" in im["error"], im["error"]
'
echo "PASS: the serial target over QEMU behind a pty"
