#!/bin/bash
# The QEMU MPS2 boards (docs/BOARDS.md): the default suite's images build for qemu-mps2-an386
# and qemu-mps2-an505; one image per board, run by hand under qemu-system-arm, prints the
# harness's records (HELLO first, every KATSUM passing, ISOLATION none, END with no failures,
# every CRC and sequence number right), QEMU's DWT reads 0, and QEMU exits with the harness's
# code (0: all KATs passed, through semihosting). The same board's image runs on the simulator
# with its KATs passing and the CMSDK UART console.
. "$(dirname "$0")/lib.sh"
need_toolchain
QEMU="${FATHOM_QEMU:-qemu-system-arm}"
command -v "$QEMU" >/dev/null 2>&1 || skip "qemu-system-arm is not installed (run make setup)"
"$FATHOM" sources | grep -qE '^mbedtls +3\.6\.6 +ok' ||
  skip "mbedtls sources are not cached (fathom sources --fetch)"

# check_records BOARD FILE: the harness's records in FILE are a complete, passing run on BOARD.
check_records() {
  python3 - "$1" "$2" <<'PY' || fail "records of $2 are not a passing run on $1"
import sys, zlib
board, path = sys.argv[1], sys.argv[2]
records = []
for raw in open(path, "rb").read().split(b"\n"):
    line = raw.rstrip(b"\r").decode("ascii", "replace")
    if not line.startswith("@F "):
        continue
    body, _, crc = line.rpartition(" #")
    assert f"{zlib.crc32((body + ' ').encode()):08x}" == crc, ("bad CRC", line)
    fields = body.split(" ")[1:]
    assert int(fields[0]) == len(records), ("sequence", line)
    records.append(fields[1:])
assert records and records[0][0] == "HELLO", records[:1]
assert records[0][1] == "3" and records[0][2] == board, records[0]
assert records[-1][0] == "END" and records[-1][1:] == ["0", str(len(records) - 1)], records[-1]
types = [r[0] for r in records]
assert ["ISOLATION", "none"] in records, "the QEMU board layer does not snapshot"
katsums = [r for r in records if r[0] == "KATSUM"]
assert len(katsums) >= 5, katsums
for _, op, passed, total in katsums:
    assert passed == total and int(total) > 0, (op, passed, total)
assert "SKIP" not in types, [r for r in records if r[0] == "SKIP"]
samples = [r for r in records if r[0] == "SAMPLE"]
assert len(samples) >= 10 * len(katsums), len(samples)
print(f"{board}: {len(records)} records, {len(katsums)} operations with passing KATs")
PY
}

for board in qemu-mps2-an386 qemu-mps2-an505; do
  # The default suite's images for the board, built but not run.
  expect_exit 0 "$FATHOM" size --board "$board" --format json
  cp "$WORK/out" "$WORK/size-$board.json"
  check_json "$WORK/size-$board.json" "
assert [i['configuration'] for i in d['images']] == ['mbedtls', 'mbedtls-no-nist-optim'], d
for im in d['images']:
    assert im['board'] == '$board' and im['error'] is None, im
    assert im['total']['text_bytes'] > 0 and im['stack_reserve_bytes'] == 147456, im['total']
open('$WORK/elf-$board', 'w').write(d['images'][0]['elf'])
"
  elf="$(cat "$WORK/elf-$board")"
  [ -f "$elf" ] || fail "$board: size reports image $elf, which does not exist"

  # One image by hand under QEMU, as docs/BOARDS.md shows it.
  machine="${board#qemu-}"
  "$QEMU" -M "$machine" -nographic -monitor none -serial stdio \
    -semihosting-config enable=on,target=native -kernel "$elf" \
    >"$WORK/qemu-$board.txt" 2>"$WORK/qemu-$board.err" </dev/null
  rc=$?
  [ "$rc" = 0 ] || { cat "$WORK/qemu-$board.err" >&2; tail -5 "$WORK/qemu-$board.txt" >&2;
                     fail "$board: QEMU exited $rc, expected the harness's 0"; }
  check_records "$board" "$WORK/qemu-$board.txt"
  # QEMU models no DWT: every CYCCNT read is 0 (the QEMU target counts instructions instead).
  grep -E '^@F [0-9]+ (CAL|SAMPLE) ' "$WORK/qemu-$board.txt" |
    grep -vqE ' 0 0 #[0-9a-f]{8}$' && fail "$board: QEMU's DWT_CYCCNT read something but 0"
done

# The same board on the simulator (`--target sim`): the same image, so it is not built again.
expect_exit 0 "$FATHOM" run --board qemu-mps2-an386 --target sim --config mbedtls \
  --op sha256_1k --op ecdh_p256_keygen --runs 2 --warmup 1 --fresh --no-history --format json
cp "$WORK/out" "$WORK/sim.json"
check_json "$WORK/sim.json" '
(im,) = d["images"]
assert im["board"] == "qemu-mps2-an386" and im["completed"] and im["error"] is None, im
assert im["provenance"]["isolation"] == "none", im["provenance"]["isolation"]
ops = {o["operation"]: o for o in im["operations"]}
assert sorted(ops) == ["ecdh_p256_keygen", "sha256_1k"], sorted(ops)
for o in ops.values():
    assert o["kat"]["status"] == "passed", o
    assert len(o["samples"]["cycles"]) == 2 and min(o["samples"]["cycles"]) > 0, o["samples"]
    print("simulator, qemu-mps2-an386:", o["operation"], "instructions", o["samples"]["instructions"])
'
echo PASS
