#!/usr/bin/env python3
"""Writes the seed files of the fuzz corpora (tests/fuzz/corpus/<target>/seed-*) from the
repository's own data: hand-written protocol streams (docs/PROTOCOL.md), suites/*.toml,
firmware/boards/*/board.toml, a tiny -nostdlib ELF built from tests/fuzz/seeds/tiny_image.c, and
a results file if one is given (the output of `fathom run --format json`).

    tests/fuzz/make_corpus.py [--result-json FILE]

Other files in the corpus directories (crash reproducers, named crash-*) are left alone.
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import tempfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "corpus"


def record(seq, rtype, *fields):
    covered = f"@F {seq} {rtype} " + "".join(f"{f} " for f in fields)
    return covered + f"#{zlib.crc32(covered.encode()):08x}"


class Stream:
    def __init__(self):
        self.lines = []
        self.seq = 0

    def add(self, rtype, *fields):
        self.lines.append(record(self.seq, rtype, *fields))
        self.seq += 1
        return self

    def text(self, line):
        self.lines.append(line)
        return self

    def end(self, failures=0):
        return self.add("END", str(failures), str(self.seq))

    def bytes(self, newline="\n"):
        return "".join(line + newline for line in self.lines).encode("latin-1")


def complete_stream(runs=3, isolation="snapshot"):
    s = Stream().text("fathom harness starting")
    s.add("HELLO", "3", "sim-m33", "mbedtls", "mbedtls", "3.6.2", str(runs), "1")
    s.add("CAL", "1000", "1012").add("ISOLATION", isolation)
    s.add("BYTES", "sha256_1k", "digest", "32")
    s.add("KAT", "sha256_1k", "nist_1", "PASS").add("KAT", "sha256_1k", "nist_2", "PASS")
    s.add("KATSUM", "sha256_1k", "2", "2")
    t = 5000
    for run in range(runs):
        s.add("SAMPLE", "sha256_1k", str(run), str(t), str(t + 41012))
        t += 50000
    s.add("MEM", "sha256_1k", "412", "0", "0", "128")
    s.add("KAT", "sha256_64", "nist_1", "PASS").add("KATSUM", "sha256_64", "1", "1")
    s.add("RUNS", "sha256_64", "2")
    for run in range(2):
        s.add("SAMPLE", "sha256_64", str(run), str(t), str(t + 3012))
        t += 5000
    s.add("MEM", "sha256_64", "300", "0", "0", "128")
    s.add("KAT", "mldsa_sign", "kat_0", "PASS").add("KATSUM", "mldsa_sign", "1", "1")
    s.add("INPUTS", "mldsa_sign", str(runs + 2))
    for run in range(runs + 2):
        s.add("SAMPLE", "mldsa_sign", str(run), str(t), str(t + 900000 + 17 * run))
        t += 1000000
    s.add("MEM", "mldsa_sign", "9000", "2048", "4", "0")
    s.add("KAT", "aes_gcm", "v0", "FAIL").add("KATSUM", "aes_gcm", "0", "1")
    s.add("SKIP", "aes_gcm", "kat-failed")
    s.add("KAT", "x25519", "v0", "PASS").add("KATSUM", "x25519", "1", "1")
    s.add("SKIP", "x25519", "run-failed")
    return s.end(2)


def stream_seeds():
    seeds = {}
    seeds["complete"] = complete_stream().bytes()
    seeds["complete_crlf"] = complete_stream(2, "none").bytes("\r\n")
    full = complete_stream().lines
    # Truncated in the middle of a record, and with no END.
    data = complete_stream().bytes()
    seeds["truncated_mid_record"] = data[: len(data) - 17]
    seeds["no_end"] = "".join(l + "\n" for l in full[:-1]).encode()
    # A flipped byte (CRC mismatch), a lost record (gap), a duplicated one.
    flipped = list(full)
    flipped[5] = flipped[5].replace("PASS", "PASZ")
    seeds["crc_mismatch"] = "".join(l + "\n" for l in flipped).encode()
    seeds["gap"] = "".join(l + "\n" for i, l in enumerate(full) if i != 7).encode()
    seeds["duplicate"] = "".join(l + "\n" + (l + "\n" if i == 8 else "") for i, l in enumerate(full)).encode()
    # Two streams interleaved line by line.
    other = complete_stream(2).lines
    mixed = [x for pair in zip(full, other) for x in pair]
    seeds["interleaved"] = "".join(l + "\n" for l in mixed).encode()
    # Log lines with control and high bytes, an over-long record, an unknown type, bad fields.
    s = Stream().text("boot \x01\x7f\xff\\ text")
    s.add("HELLO", "3", "b", "c", "l", "v", "2", "0")
    s.add("CAL", "4294967290", "5")          # CYCCNT wraps
    s.add("KAT", "op", "v", "PASS").add("KATSUM", "op", "1", "1")
    s.add("SAMPLE", "op", "0", "4294967295", "100")
    s.add("SAMPLE", "op", "1", "7", "8")     # shorter than the CAL overhead
    s.add("SAMPLE", "op", "1", "0", "100")
    s.add("SAMPLE", "op", "5", "0", "100")   # run beyond HELLO's runs
    s.add("WHAT", "x").add("MEM", "op", "1").add("SAMPLE", "Op!", "0", "1", "2")
    s.add("KAT", "op2", "v", "MAYBE").add("KATSUM", "op2", "3", "2").add("INPUTS", "op", "1")
    s.add("BYTES", "op", "Bad-Name", "4").add("BYTES", "op", "key", "01")
    s.add("HELLO", "3", "b", "c", "l", "v", "2", "0").add("ISOLATION", "sometimes")
    s.text("@F 99 " + "X" * 600 + " #00000000")
    s.text("@F 1 HELLO #zzzzzzzz").text("@F").text("@F x HELLO #00000000")
    s.end(0).add("SAMPLE", "op", "0", "1", "2")
    seeds["protocol_errors"] = s.bytes()
    seeds["old_protocol"] = Stream().add("HELLO", "1", "b", "c", "l", "v", "1", "0").end().bytes()
    seeds["sample_before_cal"] = (Stream().add("HELLO", "3", "b", "c", "l", "v", "1", "0")
                                  .add("KAT", "op", "v", "PASS").add("KATSUM", "op", "1", "1")
                                  .add("SAMPLE", "op", "0", "1", "200").add("CAL", "0", "10")
                                  .end().bytes())
    huge = Stream()
    huge.lines.append(record(18446744073709551615, "HELLO", "3", "b", "c", "l", "v", "1", "0"))
    huge.lines.append(record(0, "END", "0", "18446744073709551615"))
    seeds["huge_numbers"] = huge.bytes()
    seeds["empty"] = b""
    return seeds


def build_elf_seeds(out_dir):
    seeds = ROOT / "tests" / "fuzz" / "seeds"
    gcc = shutil.which("arm-none-eabi-gcc")
    if not gcc:
        print("make_corpus: arm-none-eabi-gcc not found; ELF seeds not rebuilt")
        return
    with tempfile.TemporaryDirectory() as tmp:
        elf = pathlib.Path(tmp) / "tiny.elf"
        subprocess.run([gcc, "-mcpu=cortex-m33", "-mthumb", "-Os", "-g", "-nostdlib",
                        "-ffreestanding", "-Wl,-n", "-Wl,--build-id=none", f"-fdebug-prefix-map={ROOT}=.",
                        f"-T{seeds / 'tiny_image.ld'}", str(seeds / "tiny_image.c"), "-o",
                        str(elf)], check=True)
        subprocess.run(["arm-none-eabi-objcopy", "--remove-section=.comment",
                        "--remove-section=.ARM.attributes", str(elf)], check=True)
        shutil.copy(elf, out_dir / "seed-tiny_image")
        subprocess.run(["arm-none-eabi-strip", "--strip-debug", "-o",
                        str(out_dir / "seed-tiny_image_no_dwarf"), str(elf)], check=True)
        subprocess.run(["arm-none-eabi-strip", "-o", str(out_dir / "seed-tiny_image_stripped"),
                        str(elf)], check=True)


def write(directory, name, data):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"seed-{name}").write_bytes(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--result-json", type=pathlib.Path,
                        help="output of `fathom run --format json` to use as a seed")
    args = parser.parse_args()

    for name, data in stream_seeds().items():
        write(CORPUS / "stream_decoder", name, data)
    for suite in sorted((ROOT / "suites").glob("*.toml")):
        write(CORPUS / "suite_loader", suite.stem, suite.read_bytes())
    for board in sorted((ROOT / "firmware" / "boards").glob("*/board.toml")):
        write(CORPUS / "board_loader", board.parent.name, board.read_bytes())
    (CORPUS / "elf_image").mkdir(parents=True, exist_ok=True)
    build_elf_seeds(CORPUS / "elf_image")
    if args.result_json:
        text = args.result_json.read_bytes()
        write(CORPUS / "result_file", args.result_json.stem, text)
        # The same document on one line: fewer bytes for the fuzzer to mutate.
        compact = json.dumps(json.loads(text), separators=(",", ":")).encode()
        write(CORPUS / "result_file", args.result_json.stem + "_compact", compact)


if __name__ == "__main__":
    main()
