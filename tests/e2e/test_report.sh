#!/bin/bash
# `fathom report` (docs/REPORT.md) read the way its reader reads it: the page opened in headless
# Chromium, its rendered DOM checked against the results JSON (tests/e2e/tools/report_dom.py:
# no console error, every row and number, bars, heat map, comparison, flame graphs whose root
# spans the graph, workflows' stacked steps and the fairness verdicts), a screenshot kept in the
# build directory (test-artifacts/). Then the errors a user can make.
. "$(dirname "$0")/lib.sh"
need_toolchain
CHROMIUM=""
for c in chromium-headless-shell chromium; do
  command -v "$c" >/dev/null 2>&1 && { CHROMIUM=$(command -v "$c"); break; }
done
[ -n "$CHROMIUM" ] || skip "no headless Chromium (chromium-headless-shell; run make setup)"
ARTIFACTS="$(cd "$(dirname "$FATHOM")" && pwd)/test-artifacts"
mkdir -p "$ARTIFACTS"

# The default suite's two configurations, three operations, one timed run each.
expect_exit 0 "$FATHOM" run --op sha256_1k --op hmac_sha256 --op ecdh_p256_keygen --runs 1 \
  --warmup 0 --no-history --out "$WORK/b"
# A smaller run of one configuration, the A of a comparison.
expect_exit 0 "$FATHOM" run --config mbedtls --op sha256_1k --op ecdh_p256_keygen --runs 1 \
  --warmup 0 --no-history --out "$WORK/a"

# Profiles of two operations in both images: 4 flame graphs and 2 differential ones.
expect_exit 0 "$FATHOM" report "$WORK/b/results.json" --compare "$WORK/a/results.json" \
  --profiles --op sha256_1k --op ecdh_p256_keygen --out "$WORK/page"
[ "$(cat "$WORK/out")" = "$WORK/page/report.html" ] || fail "stdout is not the page's path: $(cat "$WORK/out")"
grep -qF "(2 images, 6 flame graphs)" "$WORK/err" || fail "stderr: $(cat "$WORK/err")"
python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/page/report.html" \
  "$WORK/b/results.json" "$ARTIFACTS" --compare "$WORK/a/results.json" --flames 6 \
  --differential 2 --screenshot report-default.png || fail "the default report's page (above)"

# The matrix suite: fairness checks (failing: the smaller SHA-256 changes the control) and the
# device workflows, as test_matrix runs it (a result-cache hit when that ran first).
"$FATHOM" run "$SRC/tests/e2e/suites/matrix_small.toml" --no-history --format json \
  >"$WORK/matrix.json" 2>"$WORK/err"
[ $? = 1 ] || { cat "$WORK/err"; fail "the matrix run should exit 1 (its failing fairness check)"; }
expect_exit 0 "$FATHOM" report "$WORK/matrix.json" --baseline mbedtls.newlib-nano --out "$WORK/matrix"
python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/matrix/report.html" \
  "$WORK/matrix.json" "$ARTIFACTS" --workflows --fairness 2 --screenshot report-matrix.png ||
  fail "the matrix report's page (above)"

# Errors: what is wrong, exit 2, nothing written.
expect_exit 2 "$FATHOM" report "$WORK/nosuch.json" --out "$WORK/x"
expect_err "nosuch.json"
expect_exit 2 "$FATHOM" report "$WORK/b/results.json" --baseline nosuch --out "$WORK/x"
expect_err "unknown baseline configuration 'nosuch'"
expect_exit 2 "$FATHOM" report "$WORK/b/results.json" --profiles --op nosuch --out "$WORK/x"
expect_err "--op nosuch: no image in"
expect_exit 2 "$FATHOM" report "$WORK/b/results.json" --out "$WORK/report.html"
[ ! -e "$WORK/x" ] && [ ! -e "$WORK/report.html" ] || fail "a failed report wrote something"
echo "not json" >"$WORK/bad.json"
expect_exit 2 "$FATHOM" report "$WORK/bad.json" --out "$WORK/x"
expect_err "bad.json"
exit 0
