#!/bin/bash
# The serial target (src/target/serial_target.h) end to end, through the real termios path: a
# board whose UART is a pseudo-terminal (tests/e2e/tools/pty_relay.py) and whose flash and
# reset commands are a fake board (tests/e2e/tools/fake_board.py) that reads the run parameters
# fathom patched into the ELF and answers with the harness's record stream. fathom opens the pty
# slave as the board's port, flashes, resets, reads records until END.
#  - clean: every cycle sample, KAT and stack figure fathom reports equals what the board sent;
#    the provenance names the port, baud rate, probe and flash command.
#  - faults injected by the relay (dropped, flipped and duplicated bytes, a stall longer than
#    idle_timeout_seconds, a reset mid-run, the port hanging up): every case fails the image
#    with a clear error, and every number that does come out equals the clean run's (the
#    samples are an in-order subsequence of the clean ones; stack figures equal), never a
#    wrong one.
#  - bad input: a non-standard --baud, a missing port, a failing flash command.
. "$(dirname "$0")/lib.sh"
need_toolchain
"$FATHOM" sources | grep -qE '^mbedtls +3\.6\.6 +ok' ||
  skip "mbedtls sources are not cached (fathom sources --fetch)"

TOOLS="$SRC/tests/e2e/tools"
HOME_DIR="$WORK/home"
# A repository view with one more board: fake-serial-m4, the sim-m4 board layer (its images
# are ordinary Cortex-M4 images) behind the serial target.
make_repository_view "$HOME_DIR" fake-serial-m4

write_board() {  # write_board FLASH_ARGV_TOML
  # sim-m4's description, renamed, with target = "serial" among the top-level keys.
  python3 - "$SRC/firmware/boards/sim-m4/board.toml" \
    "$HOME_DIR/firmware/boards/fake-serial-m4/board.toml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'^name = .*$', 'name = "fake-serial-m4"', text, count=1, flags=re.M)
text = re.sub(r'^description = .*$',
              'description = "sim-m4 firmware on a fake board behind a pty"', text, count=1,
              flags=re.M)
at = text.index("[[memory]]")
open(sys.argv[2], "w").write(text[:at] + 'target = "serial"\n\n' + text[at:])
PY
  cat >>"$HOME_DIR/firmware/boards/fake-serial-m4/board.toml" <<TOML

[serial]
port = "$WORK/tty"
baud = 115200
flash = $1
reset = ["python3", "$TOOLS/fake_board.py", "reset", "$WORK/state.json", "$WORK/relay.sock"]
probe = "fake board (pty relay)"
timeout_seconds = 600
idle_timeout_seconds = 1
TOML
}
GOOD_FLASH='["python3", "'"$TOOLS"'/fake_board.py", "flash", "{elf}", "'"$WORK"'/state.json"]'
write_board "$GOOD_FLASH"

trap 'stop_relay; rm -rf "$WORK"' EXIT

run_serial() {  # run_serial OUT_DIR ARGS...: fathom run on the fake board; exit code in $RC
  local out="$1"; shift
  FATHOM_HOME="$HOME_DIR" "$FATHOM" run "$SRC/tests/e2e/suites/serial.toml" --no-history \
    --out "$out" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
}

# --- clean ---
start_relay clean
run_serial "$WORK/clean"
stop_relay
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "clean run exited $RC"; }
cp "$WORK/state.json.expected.json" "$WORK/expected.json"
python3 - "$WORK/clean/results.json" "$WORK/expected.json" "$WORK/tty" <<'PY' || fail "clean run"
import json, sys
d = json.load(open(sys.argv[1]))
expected = json.load(open(sys.argv[2]))
(im,) = d["images"]
assert im["completed"] and not im["error"], im["error"]
prov = im["provenance"]
assert prov["target"] == "serial", prov["target"]
det = prov["target_details"]
assert det["port"] == sys.argv[3] and det["baud"] == "115200", det
assert det["probe"] == "fake board (pty relay)" and det["board"] == "fake-serial-m4", det
assert "fake_board.py flash" in det["flash"] and det["flash"].endswith("state.json"), det
assert prov["timing_model"] == "", prov["timing_model"]
assert prov["isolation"] == "none" and prov["run_order"] == ["sha256_64", "hmac_sha256"], prov
ops = {op["operation"]: op for op in im["operations"]}
assert sorted(ops) == sorted(expected), (sorted(ops), sorted(expected))
for name, samples in expected.items():
    op = ops[name]
    assert op["kat"]["status"] == "passed", op["kat"]
    assert len(samples) == 5
    assert op["samples"]["cycles"] == samples, (name, op["samples"]["cycles"], samples)
    assert op["samples"]["instructions"] == [], "a board counts no instructions"
    assert op["statistics"]["cycles"]["median"] == sorted(samples)[2]
    assert op["memory"]["peak_stack_bytes"] == 512 + 8 * len(name)
print("clean: samples", {k: v for k, v in expected.items()})
PY
# The fake board read the run parameters from the patched ELF: 5 runs, 1 warm-up, the ops.
python3 -c "
import json,sys; p=json.load(open('$WORK/state.json'))
assert p == {'runs': 5, 'warmup': 1, 'operations': ['sha256_64', 'hmac_sha256']}, p" ||
  fail "the patched ELF did not carry the run parameters"
# A board result is never reused from the result cache: the same run measures again.
start_relay clean
run_serial "$WORK/clean2"
stop_relay
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "second clean run exited $RC"; }
grep -qF "0 results reused from the result cache" "$WORK/err" || { cat "$WORK/err" >&2; fail "a board result came from the result cache"; }

# --- faults: a clear error, and only the clean run's numbers ---
check_fault() {  # check_fault FAULT ERROR_TEXT (alternatives separated by |)
  start_relay "$1"
  run_serial "$WORK/$1"
  stop_relay
  [ "$RC" = 1 ] || { cat "$WORK/err" >&2; fail "fault $1: fathom exited $RC, expected 1"; }
  python3 - "$WORK/$1/results.json" "$WORK/clean/results.json" "$1" "$2" <<'PY' || fail "fault $1"
import json, sys
d = json.load(open(sys.argv[1]))
clean = json.load(open(sys.argv[2]))
fault, text = sys.argv[3], sys.argv[4]
(im,) = d["images"]
assert not im["completed"], f"{fault}: a damaged stream was reported complete"
assert any(t in im["error"] for t in text.split("|")), f"{fault}: error lacks {text!r}: {im['error']}"
reference = {op["operation"]: op for op in clean["images"][0]["operations"]}
numbers = 0
for op in im["operations"]:
    ref = reference[op["operation"]]
    got, want = op["samples"]["cycles"], ref["samples"]["cycles"]
    it = iter(want)
    assert all(s in it for s in got), f"{fault}: {op['operation']} samples {got} not a subsequence of {want}"
    if len(got) == len(want):
        assert op["statistics"]["cycles"] == ref["statistics"]["cycles"], fault
    stack = op["memory"]["peak_stack_bytes"]
    assert stack is None or stack == ref["memory"]["peak_stack_bytes"], (fault, stack)
    numbers += len(got)
print(f"{fault}: {numbers} of 10 samples kept; error: {im['error'][:160]}")
PY
}
check_fault drop "CRC mismatch"
check_fault flip "CRC mismatch"
check_fault duplicate "CRC mismatch|repeated or interleaved"
check_fault stall "silent for idle_timeout_seconds = 1"
check_fault reset "the board reset mid-run: a second HELLO"
check_fault hangup "closed"

# --- bad input ---
expect_exit 2 env FATHOM_HOME="$HOME_DIR" "$FATHOM" run "$SRC/tests/e2e/suites/serial.toml" \
  --no-history --baud 250000
expect_err "baud rate 250000 is not a standard serial rate"
run_serial "$WORK/noport" --port "$WORK/no-such-tty"
[ "$RC" = 1 ] || fail "a missing port exited $RC, expected 1"
check_json "$WORK/noport/results.json" \
  "assert 'cannot open serial port $WORK/no-such-tty' in d['images'][0]['error'], d['images'][0]['error']"
write_board '["python3", "-c", "import sys; sys.exit(\"probe not found\")"]'
start_relay clean
run_serial "$WORK/badflash"
stop_relay
[ "$RC" = 1 ] || fail "a failing flash command exited $RC, expected 1"
check_json "$WORK/badflash/results.json" \
  "e = d['images'][0]['error']; assert 'the flash command failed with exit code 1' in e and 'probe not found' in e, e"
echo "PASS"
