# Shared helpers for the end-to-end tests. Each test is called as: test_x.sh FATHOM SOURCE_DIR
set -u
FATHOM="$1"
SRC="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

need_toolchain() {
  command -v "${FATHOM_ARM_GCC:-arm-none-eabi-gcc}" >/dev/null 2>&1 ||
    skip "arm-none-eabi-gcc is not installed (run make setup)"
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
