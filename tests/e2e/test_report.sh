#!/bin/bash
# `fathom report` (docs/REPORT.md) read the way its reader reads it: the page opened in headless
# Chromium, its rendered DOM checked against the results JSON (tests/e2e/tools/report_dom.py:
# no console error, every row and number, bars, heat map, comparison, flame graphs whose root
# spans the graph, workflows' stacked steps and the fairness verdicts), a screenshot kept in the
# build directory (test-artifacts/); stored runs as input, the trend of a metric over them, the
# diagnosis tables and the differential graphs of a comparison. Then the errors a user can make.
. "$(dirname "$0")/lib.sh"
need_toolchain
CHROMIUM=""
for c in chromium-headless-shell chromium; do
  command -v "$c" >/dev/null 2>&1 && { CHROMIUM=$(command -v "$c"); break; }
done
[ -n "$CHROMIUM" ] || skip "no headless Chromium (chromium-headless-shell; run make setup)"
ARTIFACTS="$(cd "$(dirname "$FATHOM")" && pwd)/test-artifacts"
mkdir -p "$ARTIFACTS"

# Two stored runs (the history the trend reads): A, one configuration; B, the default suite's
# two configurations, three operations, one timed run each.
DB="$WORK/history.sqlite"
expect_exit 0 "$FATHOM" run --config mbedtls --op sha256_1k --op ecdh_p256_keygen --runs 1 \
  --warmup 0 --db "$DB" --name a --out "$WORK/a"
expect_exit 0 "$FATHOM" run --op sha256_1k --op hmac_sha256 --op ecdh_p256_keygen --runs 1 \
  --warmup 0 --db "$DB" --name b --out "$WORK/b"

# The stored run B against the stored run A, with profiles of two operations in both images
# (4 flame graphs), the differential ones against the baseline configuration (2) and against A
# (2: A's mbedtls image is B's), their diagnosis tables (2) and the cycles trend over A and B.
expect_exit 0 "$FATHOM" report b --compare a --db "$DB" --trend cycles \
  --profiles --op sha256_1k --op ecdh_p256_keygen --out "$WORK/page"
[ "$(cat "$WORK/out")" = "$WORK/page/report.html" ] || fail "stdout is not the page's path: $(cat "$WORK/out")"
grep -qF "(2 images, 8 flame graphs, 2 diagnosis tables)" "$WORK/err" || fail "stderr: $(cat "$WORK/err")"
python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/page/report.html" \
  "$WORK/b/results.json" "$ARTIFACTS" --compare "$WORK/a/results.json" --flames 8 \
  --differential 2 --comparison 2 --diagnoses 2 --changed ecdh_p256_keygen \
  --trend-runs "$WORK/a/results.json" "$WORK/b/results.json" \
  --screenshot report-default.png || fail "the default report's page (above)"

# A comparison of two results files that differ: B holds only mbedtls-no-nist-optim, A only
# mbedtls, so the two pair (one image each) and A's image, rebuilt from this tree, is the one
# A measured: a differential graph and a diagnosis in which the key generation changed.
python3 - "$WORK/b/results.json" "$WORK/b1.json" "$WORK/a/results.json" "$WORK/a-other.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
b["images"] = [im for im in b["images"] if im["configuration"] == "mbedtls-no-nist-optim"]
for im in b["images"]:  # one image: nothing to be fastest against, as a run of it writes
    for o in im["operations"]:
        o.pop("fastest", None)
json.dump(b, open(sys.argv[2], "w"))
a = json.load(open(sys.argv[3]))
a["images"][0]["provenance"]["elf_sha256"] = "0" * 64  # an image this tree does not build
json.dump(a, open(sys.argv[4], "w"))
PY
expect_exit 0 "$FATHOM" report "$WORK/b1.json" --compare "$WORK/a/results.json" --profiles \
  --op ecdh_p256_keygen --out "$WORK/page1"
python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/page1/report.html" \
  "$WORK/b1.json" "$ARTIFACTS" --compare "$WORK/a/results.json" --flames 2 --comparison 1 \
  --diagnoses 1 --changed ecdh_p256_keygen --screenshot report-comparison.png ||
  fail "the comparison's page (above)"
# A's image is not what this tree builds: no graph or diagnosis claims to be A's, and the page
# and stderr say why.
expect_exit 0 "$FATHOM" report "$WORK/b/results.json" --compare "$WORK/a-other.json" --profiles \
  --op sha256_1k --out "$WORK/page2"
expect_err "A's mbedtls @ sim-m33: not profiled: the measured image (ELF 000000000000) is not what this tree builds now"
python3 "$SRC/tests/e2e/tools/report_dom.py" "$CHROMIUM" "$WORK/page2/report.html" \
  "$WORK/b/results.json" "$ARTIFACTS" --compare "$WORK/a-other.json" --flames 3 \
  --differential 1 --diagnoses 1 --notes 1 --screenshot report-not-profiled.png ||
  fail "the page with an image this tree does not build (above)"

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
expect_exit 2 "$FATHOM" report nosuch --db "$DB" --out "$WORK/x"
expect_err "nosuch"
expect_exit 2 "$FATHOM" report b --db "$DB" --trend bogus --out "$WORK/x"
expect_err "bogus"
expect_exit 2 "$FATHOM" report "$WORK/b/results.json" --trend cycles --db "$WORK/none.sqlite" --out "$WORK/x"
expect_err "does not exist"
[ ! -e "$WORK/none.sqlite" ] || fail "a report created a history database"
echo "not json" >"$WORK/bad.json"
expect_exit 2 "$FATHOM" report "$WORK/bad.json" --out "$WORK/x"
expect_err "bad.json"
exit 0
