#!/bin/bash
# The silicon board ports (nrf54l15dk, nucleo-l4r5zi) cannot run here, so this checks what can
# be checked without the boards: every default-suite image builds for both; the image's own
# code (harness, board layer, workloads, library glue) compiles without one warning (each of
# its compile commands is run again with -Werror), the library archives too (their compile
# commands again with -Werror -fsyntax-only); and each ELF is laid out for its part: the vector
# table at the flash origin (initial SP at the top of the stack in RAM, reset vector a Thumb
# address in flash), fathom_params in flash (the serial target patches it there), the stack,
# .data and .bss inside RAM. `fathom list` marks both as not verified on silicon.
. "$(dirname "$0")/lib.sh"
need_toolchain
GCC="${FATHOM_ARM_GCC:-arm-none-eabi-gcc}"
NM="$(dirname "$(command -v "$GCC")")/arm-none-eabi-nm"
[ -x "$NM" ] || NM=arm-none-eabi-nm

# board flash_origin flash_length ram_origin ram_length stack_bytes (the board.toml values)
check_board() {
  local board="$1"
  expect_exit 0 "$FATHOM" size --board "$board" --format json
  cp "$WORK/out" "$WORK/$board.json"
  check_json "$WORK/$board.json" '
assert [i["configuration"] for i in d["images"]] == ["mbedtls", "mbedtls-no-nist-optim"], d
for i in d["images"]:
    assert i["board"] == "'"$board"'", i["board"]
    assert i["error"] is None, i["error"]
    assert i["elf"], i
'
  python3 -c 'import json,sys; [print(i["elf"]) for i in json.load(open(sys.argv[1]))["images"]]' \
    "$WORK/$board.json" >"$WORK/$board.elfs"
  local elf
  while read -r elf; do
    check_warnings "$(dirname "$elf")"
    check_layout "$elf" "$2" "$3" "$4" "$5" "$6"
  done <"$WORK/$board.elfs"
}

# rewrite.py COMMANDS EXTRA...: each compile command of COMMANDS (as `ninja -t commands` prints
# them) without its dependency file and output, plus -Werror and EXTRA (e.g. -o scratch.o),
# through ccache when scripts/setup.sh installed it: ccache hashes each compile's sources,
# headers, options and compiler, replays the stored diagnostics on a hit and never stores a
# failed compile, so a hit is the same warning-free -Werror compile and a warning still fails.
# The commands run from the repository's root with it as ccache's base directory, so that a
# clone at another path compiles (and hashes) the same: its paths become relative
# ("firmware/harness/..."), which is what the build's -ffile-prefix-map=$SRC/= makes of them
# in the objects; that option, which names the clone, is left out (the same effect).
export CCACHE="$(command -v ccache || true)" CCACHE_BASEDIR="$SRC" CCACHE_NOHASHDIR=1
cat >"$WORK/rewrite.py" <<'PY'
import os, shlex, sys
PREFIX = [os.environ["CCACHE"]] if os.environ.get("CCACHE") else []
CLONE_MAP = "-ffile-prefix-map=" + os.environ["CCACHE_BASEDIR"].rstrip("/") + "/="
for line in open(sys.argv[1]):
    args, out, skip = shlex.split(line), [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-MF", "-o"):
            skip = True
        elif a != "-MMD" and a != CLONE_MAP:
            out.append(a)
    print(shlex.join(PREFIX + out + ["-Werror"] + sys.argv[2:]))
PY

# Runs the compile commands of an image directory again with -Werror, into a scratch object,
# and those of the library archives it links with -Werror -fsyntax-only: any warning fails.
check_warnings() {
  local dir="$1" lib libdirs
  ninja -C "$dir" -t commands | grep -- ' -c ' >"$WORK/cmds" ||
    fail "no compile commands in $dir"
  python3 "$WORK/rewrite.py" "$WORK/cmds" -o "$WORK/scratch.o" >"$WORK/cmds.sh" ||
    fail "cannot rewrite the commands of $dir"
  (cd "$SRC" && bash -e "$WORK/cmds.sh") >"$WORK/warn.log" 2>&1 ||
    { head -40 "$WORK/warn.log" >&2; fail "the image in $dir has compiler warnings"; }
  libdirs="$(sed -n 's/^ *archives = //p' "$dir/build.ninja" | tr ' ' '\n' | xargs -r -n1 dirname |
    sort -u)"
  [ -n "$libdirs" ] || fail "$dir/build.ninja names no library archive"
  for lib in $libdirs; do
    ninja -C "$lib" -t commands | grep -- ' -c ' >"$WORK/libcmds" ||
      fail "no compile commands in $lib"
    python3 "$WORK/rewrite.py" "$WORK/libcmds" -fsyntax-only >"$WORK/libcmds.sh" ||
      fail "cannot rewrite the commands of $lib"
    (cd "$SRC" && bash -e "$WORK/libcmds.sh") >"$WORK/warn.log" 2>&1 ||
      { head -40 "$WORK/warn.log" >&2; fail "the library archive in $lib has compiler warnings"; }
  done
}

check_layout() {
  local elf="$1"
  "$NM" "$elf" >"$WORK/syms" || fail "cannot read the symbols of $elf"
  python3 - "$elf" "$WORK/syms" "$2" "$3" "$4" "$5" "$6" <<'PY' || fail "layout of $elf"
import struct, sys
elf, syms = sys.argv[1], sys.argv[2]
flash_o, flash_l, ram_o, ram_l, stack = (int(v, 0) for v in sys.argv[3:8])
sym = {}
for line in open(syms):
    parts = line.split()
    if len(parts) == 3: sym[parts[2]] = int(parts[0], 16)
data = open(elf, "rb").read()
assert data[:4] == b"\x7fELF" and data[4] == 1 and data[5] == 1, "not a 32-bit little-endian ELF"
phoff, = struct.unpack_from("<I", data, 0x1C)
phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
def read_word(address):
    for k in range(phnum):
        p_type, p_offset, p_vaddr, p_paddr, p_filesz = struct.unpack_from("<5I", data, phoff + k * phentsize)
        if p_type == 1 and p_paddr <= address and address + 4 <= p_paddr + p_filesz:
            return struct.unpack_from("<I", data, p_offset + address - p_paddr)[0]
    raise AssertionError(f"no loaded bytes at {address:#x}")
in_flash = lambda a: flash_o <= a < flash_o + flash_l
in_ram = lambda a: ram_o <= a <= ram_o + ram_l
assert sym["fathom_vectors"] == flash_o, f"vector table at {sym['fathom_vectors']:#x}, flash at {flash_o:#x}"
sp, reset = read_word(flash_o), read_word(flash_o + 4)
assert sp == sym["__stack_top"] and in_ram(sp) and sp % 8 == 0, f"initial SP {sp:#x}"
assert reset & 1 and reset & ~1 == sym["Reset_Handler"] and in_flash(reset), f"reset vector {reset:#x}"
assert in_flash(sym["fathom_params"]), f"fathom_params at {sym['fathom_params']:#x}"
assert sym["__stack_top"] - sym["__stack_bottom"] == stack, "stack size"
assert ram_o <= sym["__stack_bottom"] and sym["__bss_end"] <= ram_o + ram_l, "stack, .data, .bss outside RAM"
assert sym["__data_start"] >= sym["__stack_top"], ".data overlaps the stack"
assert sym["__heap_end"] == ram_o + ram_l and sym["__heap_start"] < sym["__heap_end"], "no heap"
for board_symbol in ["silicon_board_init", "silicon_clock_init", "silicon_console_init"]:
    assert board_symbol in sym, f"{board_symbol} is not linked"
print(f"{elf}: RAM used {sym['__heap_start'] - ram_o} of {ram_l} bytes (stack {stack})")
PY
}

check_board nrf54l15dk 0x00000000 0x0017D000 0x20000000 0x00040000 147456
check_board nucleo-l4r5zi 0x08000000 0x00200000 0x20000000 0x000A0000 147456

# fathom list: the target, and the mark of a port nobody has run here.
expect_exit 0 "$FATHOM" list
for board in nrf54l15dk nucleo-l4r5zi; do
  grep -E "^  $board +cortex-m[0-9]+ +[0-9]+ MHz +serial .*\[not verified on silicon in this repository\]" \
    "$WORK/out" >/dev/null || { cat "$WORK/out" >&2; fail "fathom list does not mark $board"; }
done
grep -E "^  sim-m33 +cortex-m33 +128 MHz +sim " "$WORK/out" >/dev/null ||
  fail "fathom list lacks sim-m33's target"
if grep -E "^  sim-m33 .*not verified" "$WORK/out" >/dev/null; then
  fail "fathom list marks a simulated board as not verified"
fi
echo PASS
