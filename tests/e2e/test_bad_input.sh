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
expect_err "unknown configuration 'no-such-config'; available configurations in suite 'default': mbedtls, mbedtls-no-nist-optim"
expect_exit 2 "$FATHOM" run --config mbedtsl
expect_err "unknown configuration 'mbedtsl'; did you mean 'mbedtls'? available configurations in suite 'default': mbedtls, "

expect_exit 2 "$FATHOM" run --format yaml
expect_exit 2 "$FATHOM" run --runs 0
# An unknown subcommand says so, suggests the nearest one when there is an obvious one, and
# lists the commands; so does a missing one, and the same for baseline's subcommands.
expect_exit 2 "$FATHOM" frobnicate
expect_err "fathom: unknown command 'frobnicate'; available commands: run, merge, list, "
expect_exit 2 "$FATHOM" rnu --op sha256_64
expect_err "fathom: unknown command 'rnu'; did you mean 'run'? available commands: run, merge, "
expect_exit 2 "$FATHOM" comapre a.json b.json
expect_err "unknown command 'comapre'; did you mean 'compare'? available commands: compare, run, "
expect_exit 2 "$FATHOM"
expect_err "fathom: a command is required; available commands: run, "
expect_exit 2 "$FATHOM" baseline sett main 1
expect_err "fathom: unknown baseline command 'sett'; did you mean 'set'? available baseline commands: set, list"
expect_exit 2 "$FATHOM" run --bogus
expect_err "fathom: The following argument was not expected: --bogus"

# Unknown boards and libraries are usage errors caught when the suite or the flags are read: at
# the name's FILE:LINE:COL, with the valid names (the nearest first), and no results table.
printf '[suite]\nname = "x"\nboards = ["no-such-board"]\n[[configuration]]\nname = "a"\nlibrary = "mbedtls"\n' > "$WORK/board.toml"
expect_exit 2 "$FATHOM" run "$WORK/board.toml"
expect_err "board.toml:3:11: unknown board 'no-such-board'; available boards: "
expect_err "sim-m33"
[ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "a results table for an unknown board"; }
expect_exit 2 "$FATHOM" list "$WORK/board.toml"
expect_err "board.toml:3:11: unknown board 'no-such-board'"
printf '[suite]\nname = "x"\nboards = ["sim-m33"]\n[[configuration]]\nname = "a"\nlibrary = "mbedtsl"\n' > "$WORK/library.toml"
expect_exit 2 "$FATHOM" run "$WORK/library.toml"
expect_err "library.toml:6:11: unknown library 'mbedtsl'; did you mean 'mbedtls'? available libraries: mbedtls, "
[ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "a results table for an unknown library"; }
printf '[suite]\nname = "x"\nboards = ["sim-m33"]\n[[configuration]]\nname = "a"\nlibrary = "mbedtls"\nwith_libraries = ["nosuch"]\n' > "$WORK/with.toml"
expect_exit 2 "$FATHOM" run "$WORK/with.toml"
expect_err "with.toml:7:19: unknown library 'nosuch'; available libraries: "
for cmd in run size "profile --op sha256_64" "diagnose --config mbedtls --config mbedtls-no-nist-optim"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$FATHOM" $cmd --board sim-m34
  expect_err "unknown board 'sim-m34'; did you mean 'sim-m3', 'sim-m33' or 'sim-m4'? available boards: sim-m3, sim-m33, sim-m4, "
  [ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "$cmd: output for an unknown --board"; }
done
expect_exit 2 "$FATHOM" run --board nosuch
expect_err "unknown board 'nosuch'; available boards: "

# fathom profile FILE: an ELF by its magic bytes, whatever the name; anything else that is not a
# .toml suite is "not an ELF file" with its first bytes, a missing file "no such file". Suite
# names and .toml paths still reach the suite path (which then asks for --op).
printf 'hello\n' > "$WORK/notes.txt"
expect_exit 2 "$FATHOM" profile "$WORK/notes.txt"
expect_err "fathom: $WORK/notes.txt is not an ELF file (first bytes 68 65 6c 6c 6f 0a \"hello.\"; an ELF starts with 7f 45 4c 46)"
cp "$WORK/board.toml" "$WORK/suite.elf"
expect_exit 2 "$FATHOM" profile "$WORK/suite.elf" --op sha256_64
expect_err "suite.elf is not an ELF file (first bytes 5b 73 75 69 74 65 5d 0a \"[suite].\""
expect_exit 2 "$FATHOM" profile "$WORK/missing.elf"
expect_err "fathom: $WORK/missing.elf: no such file"
expect_exit 2 "$FATHOM" profile firmware.bin
expect_err "fathom: firmware.bin: no such file"
for suite in default "$SRC/suites/default.toml"; do
  expect_exit 2 "$FATHOM" profile "$suite"
  expect_err "fathom profile on a suite needs --op OPERATION"
done
expect_exit 2 "$FATHOM" profile no-such-suite --op sha256_64
expect_err "unknown suite 'no-such-suite'"

# --out names a directory for every command (run, merge, profile: test_profile): an existing
# file, or a missing name with a file's extension, is a usage error before anything runs, and
# the file is left as it was.
printf 'keep' > "$WORK/results.txt"
for cmd in "run --op sha256_64 --runs 1 --no-history" "merge $WORK/no-such-shard.json"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$FATHOM" $cmd --out "$WORK/results.txt"
  expect_err "fathom: --out '$WORK/results.txt' is a file, not a directory; --out names a directory, and fathom writes its files into it (run and merge: results.json and results.<format>; profile: one file per --format). Give a directory, e.g. --out $WORK/results"
  [ "$(cat "$WORK/results.txt")" = keep ] || fail "$cmd: the --out file was changed"
  # shellcheck disable=SC2086
  expect_exit 2 "$FATHOM" $cmd --out "$WORK/new/results.json"
  expect_err "fathom: --out '$WORK/new/results.json' looks like a file name; --out names a directory"
  [ ! -e "$WORK/new" ] || fail "$cmd: --out results.json became a directory"
done

FATHOM_ARM_GCC=/nonexistent/arm-none-eabi-gcc expect_exit 1 "$FATHOM" run --runs 1
expect_err "cross compiler"

need_toolchain
expect_exit 2 "$FATHOM" run --op no_such_op --runs 1
expect_err "unknown operation 'no_such_op'"
echo PASS
