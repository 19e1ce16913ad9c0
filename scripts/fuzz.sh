#!/bin/sh
# Fuzzes the parsers of untrusted input (tests/fuzz) with libFuzzer, ASan and UBSan.
#
#   scripts/fuzz.sh [TARGET|all] [RUNS]
#
# TARGET is one of stream_decoder, elf_image, suite_loader, board_loader, result_file (default:
# all, one after the other); RUNS is the number of executions per target (default 1000000).
# Installs clang and its runtimes if missing (scripts/setup.sh --fuzz), configures the clang
# build FATHOM_FUZZ=ON in $FATHOM_FUZZ_BUILD_DIR (default build-fuzz), builds the targets and
# runs each over a working corpus $FATHOM_FUZZ_BUILD_DIR/corpus/TARGET seeded from
# tests/fuzz/corpus/TARGET (the committed corpus is only read). Crashes are written to
# $FATHOM_FUZZ_BUILD_DIR/artifacts/TARGET/; the log of each run is
# $FATHOM_FUZZ_BUILD_DIR/fuzz-TARGET.log. Extra libFuzzer flags: FATHOM_FUZZ_FLAGS.
# Exits 1 if a target found a crash, a leak, UB or a timeout.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${FATHOM_FUZZ_BUILD_DIR:-$root/build-fuzz}
target=${1:-all}
runs=${2:-1000000}
all_targets="stream_decoder elf_image suite_loader board_loader result_file"

case "$target" in
  all) targets=$all_targets ;;
  stream_decoder|elf_image|suite_loader|board_loader|result_file) targets=$target ;;
  *) echo "fuzz: unknown target '$target'; use one of: all $all_targets" >&2; exit 2 ;;
esac
case "$runs" in
  ''|*[!0-9]*) echo "fuzz: RUNS must be a positive integer, not '$runs'" >&2; exit 2 ;;
esac

"$root/scripts/setup.sh" --fuzz

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFATHOM_FUZZ=ON
fi
binaries=""
for t in $targets; do binaries="$binaries fuzz_$t"; done
# shellcheck disable=SC2086  # one word per target
ninja -C "$build" $binaries

dictionary() {
  case "$1" in
    suite_loader|board_loader) echo "$root/tests/fuzz/dict/toml.dict" ;;
    *) echo "$root/tests/fuzz/dict/$1.dict" ;;
  esac
}

failed=""
for t in $targets; do
  work="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  log="$build/fuzz-$t.log"
  mkdir -p "$work" "$artifacts"
  echo "fuzz: $t, $runs runs (log: $log)"
  start=$(date +%s)
  status=0
  # shellcheck disable=SC2086  # FATHOM_FUZZ_FLAGS is a list of flags
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$build/fuzz_$t" -runs="$runs" -timeout=25 -print_final_stats=1 \
      -dict="$(dictionary "$t")" -artifact_prefix="$artifacts/" ${FATHOM_FUZZ_FLAGS:-} \
      "$work" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  # The last status line: "#N DONE cov: C ft: F corp: U/SIZE ..." (or the last pulse).
  coverage=$(grep -E '^#[0-9]+' "$log" | tail -n 1 |
             sed -n 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\) \(corp: [^ ]*\).*/\1 \2 \3/p')
  echo "fuzz: $t: exit $status, ${executed:-?} executions in ${seconds} s" \
       "(${rate:-?} exec/s), ${coverage:-no coverage line}," \
       "working corpus $(find "$work" -type f | wc -l) files"
  if [ "$status" -ne 0 ]; then
    failed="$failed $t"
    grep -E 'ERROR|runtime error|==[0-9]+==|Test unit written|SUMMARY' "$log" | head -n 20 >&2 || true
  fi
done

if [ -n "$failed" ]; then
  echo "fuzz: FAILED:$failed (reproducers in $build/artifacts/)" >&2
  exit 1
fi
echo "fuzz: no crash in: $targets"
