#!/bin/bash
# Output that fits the user's terminal: `fathom run` on a pseudo-terminal 80 columns wide (the
# width from the terminal itself, no $COLUMNS) prints the compact table within 80 columns,
# configuration names shortened in the middle and every number whole; a 200-column terminal,
# a pipe and --wide get whole names, --wide every column; $COLUMNS sets the width for a pipe;
# `fathom compare` fits the same way. Progress shows on stderr whenever stderr is a terminal,
# also with stdout in a file, and a line per image being measured with its operation and an
# ETA; --quiet shows none, --verbose one line per step on a pipe. Two
# images of the matrix suite (test_matrix builds them too), measured once: the other runs are
# result-cache hits.
. "$(dirname "$0")/lib.sh"
need_toolchain
[ -d /usr/lib/picolibc/arm-none-eabi ] ||
  skip "picolibc-arm-none-eabi is not installed (run make setup)"
PTY="$SRC/tests/e2e/tools/pty_run.py"
RUN=(run "$SRC/tests/e2e/suites/matrix_small.toml" --config mbedtls-no-nist-optim.newlib-nano
     --config mbedtls.picolibc --op sha256_64 --no-history)
LONG="mbedtls-no-nist-optim.newlib-nano"

"$FATHOM" "${RUN[@]}" --format json >"$WORK/a.json" 2>"$WORK/err" ||
  [ $? = 1 ] || { cat "$WORK/err"; fail "the measured run failed"; }

# check_fit FILE COLS: every line within COLS columns (code points), but a table row whose
# last column (notes) runs on; the table is the compact one.
check_fit() {
  python3 - "$1" "$2" "$LONG" <<'PY' || { cat "$1"; fail "$1 does not fit $2 columns"; }
import sys
text, cols, long = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2]), sys.argv[3]
lines = text.splitlines()
header = next(l for l in lines if l.startswith("operation "))
assert "p99" not in header and "cycles" in header and "KAT" in header, header
note = header.find("note")
for line in lines:
    width = len(line) if note < 0 or len(line) <= note else note
    assert width <= cols, (width, line)
rows = [l for l in lines if l.startswith("sha256_64 ")]
assert len(rows) == 2, rows
assert any("…" in r for r in rows) and not any(long in r for r in rows), rows
print(f"{len(lines)} lines within {cols} columns, e.g. {rows[0]!r}")
PY
}

# An 80-column terminal.
python3 "$PTY" 80 "$WORK/tty80" "$WORK/err" "$FATHOM" "${RUN[@]}" || [ $? = 1 ] ||
  { cat "$WORK/err"; fail "fathom run on a terminal failed"; }
check_fit "$WORK/tty80" 80
# The numbers are those of the JSON, with thousands separators.
python3 - "$WORK/a.json" "$WORK/tty80" <<'PY' || fail "the terminal's numbers differ from the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2], encoding="utf-8").read()
for image in d["images"]:
    op = next(o for o in image["operations"] if o["operation"] == "sha256_64")
    median = f'{round(op["statistics"]["cycles"]["median"]):,}'
    stack = f'{op["memory"]["peak_stack_bytes"]:,}'
    row = next(l for l in text.splitlines()
               if l.startswith("sha256_64 ") and image["configuration"][-4:] in l)
    assert f" {median} " in row and f" {stack} " in row, (median, stack, row)
PY

# A wide terminal, a pipe: whole names; --wide: every column.
python3 "$PTY" 200 "$WORK/tty200" "$WORK/err" "$FATHOM" "${RUN[@]}" || [ $? = 1 ] ||
  fail "fathom run on a 200-column terminal failed"
grep -q "^sha256_64 *$LONG " "$WORK/tty200" || { cat "$WORK/tty200"; fail "200 columns: name shortened"; }
env -u COLUMNS "$FATHOM" "${RUN[@]}" >"$WORK/pipe" 2>"$WORK/err" || [ $? = 1 ] || fail "piped run failed"
grep -q "^sha256_64 *$LONG " "$WORK/pipe" || { cat "$WORK/pipe"; fail "a pipe got shortened names"; }
python3 "$PTY" 80 "$WORK/wide" "$WORK/err" "$FATHOM" "${RUN[@]}" --wide || [ $? = 1 ] ||
  fail "fathom run --wide failed"
grep -q "^$LONG *sha256_64 .*" "$WORK/wide" && grep -q "p99 \[cycles\]" "$WORK/wide" ||
  { cat "$WORK/wide"; fail "--wide lacks whole names or the p99 column"; }

# $COLUMNS for a pipe.
COLUMNS=80 "$FATHOM" "${RUN[@]}" >"$WORK/columns80" 2>"$WORK/err" || [ $? = 1 ] ||
  fail "COLUMNS=80 run failed"
check_fit "$WORK/columns80" 80

# fathom compare of the run with itself, on the 80-column terminal.
python3 "$PTY" 80 "$WORK/compare" "$WORK/err" "$FATHOM" compare "$WORK/a.json" "$WORK/a.json" ||
  { cat "$WORK/err"; fail "fathom compare failed"; }
python3 - "$WORK/compare" <<'PY' || { cat "$WORK/compare"; fail "compare does not fit 80 columns"; }
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
rows = [l for l in lines if l.startswith("sha256_64 ")]
assert len(rows) == 2 and all(r.rstrip().endswith("unchanged") for r in rows), rows
for l in lines:
    # The sides' descriptions (file paths) and an image's title (its names) are not table rows.
    if not l.startswith(("A: ", "B: ")) and "(flash bytes: " not in l:
        assert len(l) <= 80, (len(l), l)
PY
# Progress: stderr on the terminal, the results in a file.
python3 "$PTY" --stderr 80 "$WORK/progress" "$WORK/json" "$FATHOM" "${RUN[@]}" --format json ||
  [ $? = 1 ] || fail "fathom run with stderr on a terminal failed"
grep -q $'\r\033\[J\[[0-9]/2\] mbedtls' "$WORK/progress" ||
  { cat -v "$WORK/progress"; fail "no progress line on the terminal's stderr"; }
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/json" ||
  fail "the progress reached stdout: its JSON does not parse"
python3 "$PTY" --stderr 80 "$WORK/quiet" "$WORK/json" "$FATHOM" "${RUN[@]}" --format json --quiet ||
  [ $? = 1 ] || fail "fathom run --quiet failed"
[ ! -s "$WORK/quiet" ] || { cat -v "$WORK/quiet"; fail "--quiet printed on stderr"; }
"$FATHOM" "${RUN[@]}" --format json --verbose >"$WORK/json" 2>"$WORK/verbose" || [ $? = 1 ] ||
  fail "fathom run --verbose failed"
grep -q "^fathom: \[[0-9]/2\] mbedtls.picolibc on sim-m33: " "$WORK/verbose" &&
  ! grep -q $'\r' "$WORK/verbose" || { cat -v "$WORK/verbose"; fail "--verbose: no step lines"; }
# The live view: one line per image being measured, redrawn in place, with what its machines
# run, the instructions so far and, from the instruction count the previous run of the same
# image left, the share done and an ETA; with -j 2 both images' lines at once.
LIVE=(run --op ecdh_p256_keygen --runs 10 --warmup 0 --no-history -j 2)
"$FATHOM" "${LIVE[@]}" >/dev/null 2>"$WORK/err" || { cat "$WORK/err"; fail "the first live run failed"; }
python3 "$PTY" --stderr 120 "$WORK/live" "$WORK/live.out" "$FATHOM" "${LIVE[@]}" --fresh ||
  fail "fathom run --fresh on a terminal failed"
python3 - "$WORK/live" <<'PY' || { cat -v "$WORK/live"; fail "no live view of both images with their share done and an ETA"; }
import re, sys
text = open(sys.argv[1], encoding="utf-8", newline="").read()
# A line with the share done; the ETA once the image has run a while (not when it starts).
line = re.compile(r"^\[(1|2)/2\] (mbedtls|mbedtls-no-nist-optim) on sim-m33: "
                  r"(starting|known-answer tests|ecdh_p256_keygen|booting)(, [a-z_ -]+)*, "
                  r"[\d.]+ M of [\d.]+ M instructions \((\d+)%\)(, ETA \d+:\d\d)?$")
frames = [re.sub(r"\x1b\[\d+A$", "", f.replace("\n", "\x00")).split("\x00")
          for f in text.split("\r\x1b[J")]
# Both images' lines at once: the view redraws as each image starts, so the second one's
# start shows the first one still running (with -j 2 they start together).
both = [f for f in frames if len(f) == 2 and all(line.match(l) for l in f)]
assert both, "no redraw shows both images' lines with their share done"
names = {line.match(l).group(2) for f in both for l in f}
assert names == {"mbedtls", "mbedtls-no-nist-optim"}, names
lines = [m for f in frames for l in f if (m := line.match(l))]
assert any(m.group(6) for m in lines), "no line with an ETA"
assert "ecdh_p256_keygen" in {m.group(3) for m in lines}, lines
print(f"{len(both)} redraws with both images, e.g. {both[-1]}; ETAs: {sum(1 for m in lines if m.group(6))}")
PY
exit 0
