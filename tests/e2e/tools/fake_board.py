#!/usr/bin/env python3
"""A fake serial board for tests/e2e/test_serial.sh: a board.toml [serial] flash and reset
command that needs no hardware.

  fake_board.py flash ELF STATE   reads the run parameters fathom patched into ELF's
                                  `fathom_params` (runs, warm-up, operations) and keeps them
                                  in STATE, as flashing keeps an image in the board
  fake_board.py reset STATE SOCK  "boots" the flashed image: sends the record stream
                                  (docs/PROTOCOL.md) it would print to the pty relay's socket
                                  SOCK, which writes it to the pty fathom reads

The stream is what the fathom harness prints (HELLO, CAL, ISOLATION, KAT, KATSUM, MEM, SAMPLE,
END, some free text), with cycle figures that depend only on the operation and the run index,
so every run of one image sends the same bytes. STATE.expected.json gets the cycle samples it
sent, for the test to compare with what fathom reports.
"""
import json
import random
import socket
import struct
import sys
import zlib

PARAMS_MAGIC = 0x34485446  # "FTH4" (firmware/harness/fathom_params.h)
ONLY_OPS_BYTES = 512


def read_params(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit(f"fake_board: {path} is not a 32-bit little-endian ELF")
    e_phoff, e_shoff = struct.unpack_from("<II", data, 28)
    e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", data, 42)
    sections = [struct.unpack_from("<IIIIIIIIII", data, e_shoff + i * e_shentsize)
                for i in range(e_shnum)]
    symbol = None
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            st_name, st_value, st_size = struct.unpack_from("<III", data, off)
            end = data.index(b"\0", strtab[4] + st_name)
            if data[strtab[4] + st_name:end] == b"fathom_params":
                symbol = (st_value, st_size)
    if symbol is None:
        sys.exit(f"fake_board: {path} has no fathom_params symbol")
    for i in range(e_phnum):
        p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIIII", data, e_phoff + i * e_phentsize)
        if p_type == 1 and p_vaddr <= symbol[0] and symbol[0] + symbol[1] <= p_vaddr + p_filesz:
            at = p_offset + symbol[0] - p_vaddr
            magic, runs, warmup = struct.unpack_from("<III", data, at)
            if magic != PARAMS_MAGIC:
                sys.exit(f"fake_board: fathom_params has magic {magic:#x}")
            only = data[at + 12:at + 12 + ONLY_OPS_BYTES].split(b"\0")[0].decode()
            # flags follow only_ops and op_runs[64]: a board keeps its untimed memory run
            (flags,) = struct.unpack_from("<I", data, at + 12 + ONLY_OPS_BYTES + 4 * 64)
            if flags != 0:
                sys.exit(f"fake_board: fathom_params flags {flags:#x} on a board (want 0)")
            return {"runs": runs, "warmup": warmup,
                    "operations": [op for op in only.split(",") if op]}
    sys.exit("fake_board: no loadable segment holds fathom_params")


def record(seq, rtype, *fields):
    covered = f"@F {seq} {rtype} " + "".join(f"{f} " for f in fields)
    return covered + f"#{zlib.crc32(covered.encode()):08x}\n"


def stream(params):
    """The console bytes of one boot, and {op: cycle samples} they carry."""
    if not params["operations"]:
        sys.exit("fake_board: the image has no operation list (run fathom with --op)")
    lines, expected = [], {}
    seq = 0

    def add(rtype, *fields):
        nonlocal seq
        lines.append(record(seq, rtype, *fields))
        seq += 1

    lines.append("fake board: boot\r\n")
    add("HELLO", 3, "fake-board", "fake-config", "fake-lib", "1.0", params["runs"],
        params["warmup"])
    overhead = 7
    t = 0xFFFFF000  # the counter wraps during the run, as DWT_CYCCNT does
    add("CAL", t, (t + overhead) & 0xFFFFFFFF)
    add("ISOLATION", "none")
    for op in params["operations"]:
        rng = random.Random(op)  # figures depend on the operation only
        base = rng.randrange(2000, 90000)
        add("KAT", op, "v0", "PASS")
        add("KAT", op, "v1", "PASS")
        add("KATSUM", op, 2, 2)
        add("MEM", op, 512 + 8 * len(op), 0, 0, 0)
        expected[op] = []
        lines.append(f"fake board: timing {op}\n")
        for r in range(params["runs"]):
            cycles = base + rng.randrange(0, 50)
            t0 = (t + rng.randrange(100, 1000)) & 0xFFFFFFFF
            t1 = (t0 + cycles + overhead) & 0xFFFFFFFF
            t = t1
            add("SAMPLE", op, r, t0, t1)
            expected[op].append(cycles)
    add("END", 0, seq)
    return "".join(lines).encode(), expected


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "flash":
        params = read_params(sys.argv[2])
        json.dump(params, open(sys.argv[3], "w"))
        print(f"fake board: flashed {sys.argv[2]}: {params}")
    elif len(sys.argv) == 4 and sys.argv[1] == "reset":
        params = json.load(open(sys.argv[2]))
        data, expected = stream(params)
        json.dump(expected, open(sys.argv[2] + ".expected.json", "w"))
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(sys.argv[3])
            s.sendall(data)
    else:
        sys.exit("usage: fake_board.py flash ELF STATE | reset STATE SOCKET")


if __name__ == "__main__":
    main()
