#!/bin/bash
# Bad input gets a one-line error and a non-zero exit (2 for usage errors), never a crash.
. "$(dirname "$0")/lib.sh"

expect_exit 2 "$FATHOM" run no-such-suite
expect_err "unknown suite 'no-such-suite'"

printf '[suite]\nname = "x"\nboards = ["sim-m33"]\nrunz = 3\n' > "$WORK/typo.toml"
expect_exit 2 "$FATHOM" run "$WORK/typo.toml"
expect_err "typo.toml:4:"

printf '[suite\nname = "x"\n' > "$WORK/broken.toml"
expect_exit 2 "$FATHOM" run "$WORK/broken.toml"
expect_err "broken.toml:1:"

expect_exit 2 "$FATHOM" run --config no-such-config
expect_err "unknown configuration 'no-such-config'"

expect_exit 2 "$FATHOM" run --format yaml
expect_exit 2 "$FATHOM" run --runs 0
expect_exit 2 "$FATHOM" frobnicate

printf '[suite]\nname = "x"\nboards = ["no-such-board"]\n[[configuration]]\nname = "a"\nlibrary = "mbedtls"\n' > "$WORK/board.toml"
expect_exit 1 "$FATHOM" run "$WORK/board.toml"
grep -q "unknown board 'no-such-board'" "$WORK/out" "$WORK/err" || fail "no unknown-board message"

FATHOM_ARM_GCC=/nonexistent/arm-none-eabi-gcc expect_exit 1 "$FATHOM" run --runs 1
expect_err "cross compiler"

need_toolchain
expect_exit 2 "$FATHOM" run --op no_such_op --runs 1
expect_err "unknown operation 'no_such_op'"
echo PASS
