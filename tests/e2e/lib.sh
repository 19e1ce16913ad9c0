# Shared helpers for the end-to-end tests. Each test is called as: test_x.sh FATHOM SOURCE_DIR
set -u
FATHOM="$1"
SRC="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Tables fit $COLUMNS even on a pipe (docs/CLI.md "Output"): a CI that exports it must not
# shorten the names the tests look for. test_terminal sets widths itself.
unset COLUMNS

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

need_toolchain() {
  command -v "${FATHOM_ARM_GCC:-arm-none-eabi-gcc}" >/dev/null 2>&1 ||
    skip "arm-none-eabi-gcc is not installed (run make setup)"
}

# need_qemu_target: qemu-system-arm, a host C compiler for fathom's plugin, and the Mbed TLS and
# qemu (plugin header) sources in the cache; skips otherwise.
need_qemu_target() {
  command -v qemu-system-arm >/dev/null 2>&1 || skip "qemu-system-arm is not installed"
  command -v cc >/dev/null 2>&1 || skip "no host C compiler (cc) to build the QEMU plugin"
  "$FATHOM" sources | grep -qE '^mbedtls +3\.6\.6 +ok' ||
    skip "mbedtls sources are not cached (fathom sources --fetch)"
  "$FATHOM" sources | grep -qE '^qemu +7\.2 +ok' ||
    skip "qemu sources (the plugin header) are not cached (fathom sources --fetch)"
}

# make_repository_view DIR BOARD: DIR becomes a FATHOM_HOME that links everything of $SRC and
# has an empty firmware/boards/BOARD/ for the test to write a board.toml into.
make_repository_view() {
  mkdir -p "$1/firmware/boards/$2"
  ln -s "$SRC/sources.lock" "$1/sources.lock"
  ln -s "$SRC/suites" "$1/suites"
  for d in "$SRC"/firmware/*; do
    [ "$(basename "$d")" = boards ] || ln -s "$d" "$1/firmware/$(basename "$d")"
  done
  for d in "$SRC"/firmware/boards/*; do ln -s "$d" "$1/firmware/boards/$(basename "$d")"; done
}

# start_relay FAULT / stop_relay: the pty relay (tools/pty_relay.py) with its pty slave at
# $WORK/tty and its socket at $WORK/relay.sock, changing bytes as FAULT says.
RELAY_PID=""
start_relay() {
  rm -f "$WORK/relay.sock" "$WORK/tty"
  python3 "$SRC/tests/e2e/tools/pty_relay.py" "$WORK/tty" "$WORK/relay.sock" "$1" &
  RELAY_PID=$!
  for _ in $(seq 100); do [ -S "$WORK/relay.sock" ] && return; sleep 0.1; done
  fail "the pty relay did not start"
}
stop_relay() {
  [ -n "$RELAY_PID" ] && kill "$RELAY_PID" 2>/dev/null && wait "$RELAY_PID" 2>/dev/null
  RELAY_PID=""
}

# expect_exit CODE CMD...: runs CMD, stores stdout/stderr in $WORK/out and $WORK/err.
expect_exit() {
  local want="$1"; shift
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  [ "$got" = "$want" ] || { cat "$WORK/err" >&2; fail "'$*' exited $got, expected $want"; }
}

# expect_err TEXT: the last command's stderr contains TEXT.
expect_err() {
  grep -qF -- "$1" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks '$1'"; }
}

# check_json FILE PYTHON: runs PYTHON with `d` bound to the parsed JSON file.
check_json() {
  python3 - "$1" "$2" <<'PY' || fail "JSON check failed: $2"
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
PY
}
