#!/usr/bin/env python3
"""Renders a `fathom report` page in headless Chromium and checks its DOM against the JSON.

usage: report_dom.py CHROMIUM REPORT.html RESULTS.json OUT_DIR [--compare A.json]
       [--flames N] [--differential N] [--comparison N] [--diagnoses N] [--changed OP]
       [--notes N] [--trend-runs RUN.json...] [--workflows] [--fairness N]

Loads the page (file://, no network: the page must be self-contained), dumps the rendered DOM
and a screenshot (OUT_DIR/report.png) and asserts, reading the DOM as a person reads the page:
no console message at error level and no entry in the page's own error list; the page says it
rendered completely; every image and every operation of the JSON has its row with the JSON's
figures as printed numbers; each operation with cycles has a bar chart whose bars carry the
JSON's medians; the heat map's cells are the ratios of the medians to the baseline image's; the
comparison rows are B's and A's medians; N flame graphs (of which N differential) whose root
frame spans the full width and whose frames' cycles add up (a child never exceeds its parent);
the workflows' stacked bars are their steps' cycles; the fairness rows and verdicts; N
diagnosis tables, each operation's change its cycles' change, and for a changed operation (OP)
function rows whose self-cycle change is B's minus A's and whose shares add up to what the
heading says is explained; N notes on what was not profiled; and, with --trend-runs (the stored
runs' results in the order they were stored), one trend chart per operation whose points per
image are the medians of those runs.
"""
import argparse
import html.parser
import json
import os
import re
import subprocess
import sys


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], ""

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)

    def find_all(self, pred):
        out = []
        for c in self.children:
            if pred(c):
                out.append(c)
            out.extend(c.find_all(pred))
        return out

    def has_class(self, name):
        return name in (self.attrs.get("class") or "").split()


VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "wbr", "source"}


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text += data


def fail(message):
    print("report_dom: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def median(op, what):
    s = op.get("statistics") or {}
    return s[what]["median"] if s.get(what) else None


def grouped(n):
    """A number as d3.format(",") prints it: thousands separators, no ".0" on a whole number."""
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    return f"{n:,}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("chromium")
    p.add_argument("report")
    p.add_argument("results")
    p.add_argument("out_dir")
    p.add_argument("--compare")
    p.add_argument("--flames", type=int, default=0)
    p.add_argument("--differential", type=int, default=0)
    p.add_argument("--comparison", type=int, default=0)
    p.add_argument("--diagnoses", type=int, default=0)
    p.add_argument("--changed")
    p.add_argument("--notes", type=int, default=0)
    p.add_argument("--trend-runs", nargs="*")
    p.add_argument("--workflows", action="store_true")
    p.add_argument("--fairness", type=int, default=0)
    p.add_argument("--ct", help="the `fathom ct --format json` file the page's Constant time section shows")
    p.add_argument("--screenshot", default="report.png")
    a = p.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    url = "file://" + os.path.abspath(a.report)
    common = [a.chromium, "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--virtual-time-budget=10000", "--enable-logging=stderr", "--v=0"]
    dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=300)
    check(dom.returncode == 0, f"chromium exited {dom.returncode}: {dom.stderr[-2000:]}")
    console = [l for l in dom.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    check(not console, "console messages: " + "\n".join(console))
    shot = os.path.join(a.out_dir, a.screenshot)
    subprocess.run(common + ["--window-size=1280,3000", "--screenshot=" + shot, url],
                   capture_output=True, text=True, timeout=300)
    check(os.path.getsize(shot) > 10000, f"no screenshot at {shot}")
    # The page itself must load nothing: no URL to fetch in it.
    page = open(a.report, encoding="utf-8").read()
    for m in re.finditer(r'<(?:script|link|img)[^>]*(?:src|href)=', page):
        fail(f"the page loads an external file: {page[m.start():m.start() + 120]}")

    tree = Tree()
    tree.feed(dom.stdout)
    root = tree.root
    body = root.find_all(lambda n: n.tag == "body")
    check(body and body[0].attrs.get("data-rendered") == "complete",
          f"the page did not render completely: {body[0].attrs if body else 'no body'}")
    errors = root.find_all(lambda n: n.attrs.get("id") == "fathom-errors")
    check(errors and not errors[0].find_all(lambda n: n.tag == "li"),
          "the page lists errors: " + (errors[0].all_text() if errors else ""))

    d = json.load(open(a.results))
    image_name = lambda im: f'{im["configuration"]} @ {im["board"]}'

    def rows(table_class):
        tables = root.find_all(lambda n: n.tag == "table" and n.has_class(table_class))
        check(len(tables) == 1, f"{len(tables)} tables of class {table_class}")
        return [[td.all_text() for td in tr.find_all(lambda n: n.tag == "td")]
                for tr in tables[0].find_all(lambda n: n.tag == "tr")
                if tr.find_all(lambda n: n.tag == "td")]

    images = rows("images")
    check(len(images) == len(d["images"]), f"{len(images)} image rows for {len(d['images'])} images")
    for r, im in zip(images, d["images"]):
        check(r[0] == im["configuration"] and r[1] == im["board"], f"image row {r[:2]}")
        passed = sum(o["kat"]["status"] == "passed" for o in im["operations"])
        check(r[5] == f'{passed}/{len(im["operations"])} passed', f"KAT cell {r[5]} of {r[0]}")
        check(r[7] == grouped(im["size"]["flash_bytes"]), f"flash {r[7]} of {r[0]}")

    ops = rows("operations")
    want = [(o["operation"], image_name(im), o) for im in d["images"] for o in im["operations"]]
    check(len(ops) == len(want), f"{len(ops)} operation rows for {len(want)} operations")
    for r, (name, image, o) in zip(ops, want):
        check((r[0], r[1]) == (name, image), f"row {r[:2]} for {(name, image)}")
        c = median(o, "cycles")
        check(r[3] == (grouped(c) if c is not None else "—"), f"{name} on {image}: cycles {r[3]}, JSON {c}")
        i = median(o, "instructions")
        check(r[5] == (grouped(i) if i is not None else "—"), f"{name} on {image}: instructions {r[5]}, JSON {i}")
        check(r[8] == (o.get("fastest") or ""), f"{name} on {image}: fastest {r[8]!r}, JSON {o.get('fastest')}")

    charts = root.find_all(lambda n: n.tag == "div" and n.has_class("bar-chart"))
    names = []
    for im in d["images"]:
        for o in im["operations"]:
            if median(o, "cycles") is not None and o["operation"] not in names:
                names.append(o["operation"])
    check([c.attrs["data-operation"] for c in charts] == names, f"bar charts {[c.attrs.get('data-operation') for c in charts]}")
    for c in charts:
        bars = [float(r.attrs["data-cycles"]) for r in c.find_all(lambda n: n.tag == "rect" and "data-cycles" in n.attrs)]
        expect = [median(o, "cycles") for im in d["images"] for o in im["operations"]
                  if o["operation"] == c.attrs["data-operation"] and median(o, "cycles") is not None]
        check(bars == expect, f'{c.attrs["data-operation"]}: bars {bars}, JSON {expect}')

    heat = root.find_all(lambda n: n.tag == "table" and n.has_class("heatmap"))
    check(len(heat) == 1, "no heat map")
    base = next(im for im in d["images"] if image_name(im) == heat[0].attrs["data-baseline"])
    cells = [td for td in heat[0].find_all(lambda n: n.tag == "td")]
    order = []
    for im in d["images"]:
        for name in [o["operation"] for x in d["images"] for o in x["operations"]]:
            if name not in order:
                order.append(name)
    check(len(cells) == len(d["images"]) * len(order), f"{len(cells)} heat-map cells")
    k = 0
    for im in d["images"]:
        for name in order:
            o = next((x for x in im["operations"] if x["operation"] == name), None)
            b = next((x for x in base["operations"] if x["operation"] == name), None)
            want_ratio = median(o, "cycles") / median(b, "cycles") if o and b and median(b, "cycles") and median(o, "cycles") is not None else None
            got = cells[k].attrs.get("data-ratio")
            if want_ratio is None:
                check(got is None, f"heat map {image_name(im)} {name}: {got}, expected none")
            else:
                check(got is not None and abs(float(got) - want_ratio) < 1e-9 * want_ratio,
                      f"heat map {image_name(im)} {name}: {got}, expected {want_ratio}")
            k += 1

    if a.compare:
        other = json.load(open(a.compare))
        comp = rows("comparison")
        expect = []
        for im in d["images"]:
            # fathom compare's pairing: same configuration and board, else one image each
            oim = next((x for x in other["images"] if x["configuration"] == im["configuration"] and x["board"] == im["board"]), None)
            if not oim and len(other["images"]) == 1 == len(d["images"]):
                oim = other["images"][0]
            if not oim:
                continue
            label = image_name(im) if oim is not None and image_name(oim) == image_name(im) else f"{image_name(im)} (A: {image_name(oim)})"
            for o in im["operations"]:
                ao = next((x for x in oim["operations"] if x["operation"] == o["operation"]), None)
                if ao:
                    expect.append((o["operation"], label, median(ao, "cycles"), median(o, "cycles")))
        check(len(comp) == len(expect) and expect, f"{len(comp)} comparison rows for {len(expect)}")
        for r, (name, image, av, bv) in zip(comp, expect):
            check(r[:4] == [name, image, grouped(av), grouped(bv)], f"comparison row {r} for {(name, image, av, bv)}")

    flames = root.find_all(lambda n: n.tag == "div" and n.has_class("flame"))
    check(len(flames) == a.flames, f"{len(flames)} flame graphs, expected {a.flames}")
    diffs = [f for f in flames if f.attrs.get("data-kind") == "differential"]
    check(len(diffs) == a.differential, f"{len(diffs)} differential flame graphs, expected {a.differential}")
    for f in flames:
        svg = f.find_all(lambda n: n.tag == "svg")
        check(svg, f"flame graph {f.attrs} has no svg")
        frames = svg[0].find_all(lambda n: n.tag == "g" and n.has_class("frame"))
        check(len(frames) >= 3, f"flame graph {f.attrs}: {len(frames)} frames")
        width = float(svg[0].attrs["width"])
        root_rect = frames[0].find_all(lambda n: n.tag == "rect")[0]
        check(abs(float(root_rect.attrs["width"]) - width) < 0.01,
              f"flame graph {f.attrs}: root frame {root_rect.attrs.get('width')} wide of {width}")
        title = frames[0].find_all(lambda n: n.tag == "title")[0].all_text()
        m = re.search(r": ([\d,]+) cycles", title)
        check(m, f"root title {title!r}")
        total = int(m.group(1).replace(",", ""))
        heading = f.find_all(lambda n: n.tag == "h3")[0].all_text()
        check(f"({grouped(total)} cycles)" in heading, f"heading {heading!r} vs root {total}")
        for g in frames:
            w = float(g.find_all(lambda n: n.tag == "rect")[0].attrs["width"])
            check(w <= width + 0.01, f"a frame wider than the graph in {f.attrs}")

    comps = [f for f in flames if f.attrs.get("data-kind") == "comparison"]
    check(len(comps) == a.comparison, f"{len(comps)} comparison flame graphs, expected {a.comparison}")
    notes = root.find_all(lambda n: n.tag == "p" and n.has_class("profile-note"))
    check(len(notes) == a.notes, f"{len(notes)} notes on what was not profiled, expected {a.notes}: "
          + "; ".join(n.all_text() for n in notes))

    number = lambda t: int(t.replace(",", "").replace("+", "").replace("−", "-"))
    diags = root.find_all(lambda n: n.tag == "div" and n.has_class("diagnosis"))
    check(len(diags) == a.diagnoses, f"{len(diags)} diagnosis tables, expected {a.diagnoses}")
    changed_seen = False
    for dg in diags:
        summary = dg.find_all(lambda n: n.tag == "table" and n.has_class("diagnosis-summary"))
        check(len(summary) == 1, f"diagnosis {dg.attrs}: {len(summary)} summary tables")
        for tr in summary[0].find_all(lambda n: n.tag == "tr"):
            r = [td.all_text() for td in tr.find_all(lambda n: n.tag == "td")]
            if not r:
                continue
            ca, cb = number(r[1]), number(r[2])
            if r[5] == "unchanged":
                check(r[3] == "+0.00 %" or abs(cb - ca) * 200 <= ca, f"diagnosis {dg.attrs}: row {r} is unchanged")
                continue
            pct = (cb - ca) * 100 / ca
            check(r[3] == f"{'+' if pct >= 0 else ''}{pct:.2f} %", f"diagnosis row {r}: change for {ca} → {cb}")
            op_divs = [o for o in dg.find_all(lambda n: n.tag == "div" and n.has_class("diagnosis-operation"))
                   if o.attrs.get("data-operation") == r[0]]
            check(len(op_divs) == 1, f"diagnosis {dg.attrs}: changed {r[0]} has {len(op_divs)} function tables")
            fn_rows = [[td.all_text() for td in tr2.find_all(lambda n: n.tag == "td")]
                       for tr2 in op_divs[0].find_all(lambda n: n.tag == "tr")]
            fn_rows = [x for x in fn_rows if x]
            check(fn_rows, f"changed {r[0]}: no function rows")
            share = 0.0
            for f in fn_rows:
                check(number(f[3]) == number(f[2]) - number(f[1]), f"{r[0]}: function row {f}: Δ self")
                share += float(f[4])
            explained = float(r[4])
            check(abs(share - explained) <= 0.1 * len(fn_rows) + 0.05,
                  f"{r[0]}: function shares add up to {share:.1f} %, heading says {explained} %")
            if r[0] == a.changed:
                changed_seen = True
    if a.changed:
        check(changed_seen, f"no diagnosis shows {a.changed} changed")

    if a.trend_runs is not None:
        stored = [json.load(open(f)) for f in a.trend_runs]
        charts_t = root.find_all(lambda n: n.tag == "div" and n.has_class("trend-chart"))
        want_ops = []
        for run in stored:
            for im in run["images"]:
                for o in im["operations"]:
                    if o["operation"] not in want_ops and any(o["operation"] == x["operation"] for x in d["images"][0]["operations"]):
                        want_ops.append(o["operation"])
        got_ops = [c.attrs["data-operation"] for c in charts_t]
        check(sorted(got_ops) == sorted(want_ops), f"trend charts {got_ops}, expected {want_ops}")
        for c in charts_t:
            for series in c.find_all(lambda n: n.tag == "g" and n.has_class("series")):
                key = series.attrs["data-image"]
                values = [float(x.attrs["data-value"]) for x in series.find_all(lambda n: n.tag == "circle")]
                expect = []
                for run in stored:
                    for im in run["images"]:
                        if image_name(im) != key:
                            continue
                        for o in im["operations"]:
                            if o["operation"] == c.attrs["data-operation"] and median(o, "cycles") is not None:
                                expect.append(float(median(o, "cycles")))
                check(values == expect, f'trend {c.attrs["data-operation"]} {key}: points {values}, stored {expect}')
        current = root.find_all(lambda n: n.tag == "circle" and n.has_class("current"))
        check(current, "no point of this report's run is marked")

    if a.workflows:
        flows = [w for w in d["workflows"] if not w.get("error")]
        groups = root.find_all(lambda n: n.tag == "g" and n.has_class("workflow"))
        check(len(groups) == len(flows), f"{len(groups)} workflow bars for {len(flows)} workflows")
        for g, w in zip(groups, flows):
            steps = [int(float(r.attrs["data-cycles"])) for r in g.find_all(lambda n: n.tag == "rect")]
            check(steps == [s["cycles"] for s in w["steps"]], f'{w["variant"]}: steps {steps}')
            check(int(g.attrs["data-total"]) == w["total_cycles"] == sum(steps), f'{w["variant"]}: total')
            check(f'{grouped(w["wire_bytes"])} B on the wire' in g.all_text(), f'{w["variant"]}: wire bytes')
    if a.fairness:
        fair = rows("fairness")
        check(len(fair) == a.fairness == len(d["fairness"]), f"{len(fair)} fairness rows")
        for r, c in zip(fair, d["fairness"]):
            check(r[5] == ("passed" if c["passed"] else "FAILED"), f"fairness verdict {r}")
    ct_sections = root.find_all(lambda n: n.tag == "section" and n.attrs.get("id") == "ct")
    if not a.ct:
        check(not ct_sections, "a Constant time section without --ct")
    else:
        c = json.load(open(a.ct))
        check(len(ct_sections) == 1, "no Constant time section")
        ct_rows = rows("ct")
        check(len(ct_rows) == len(c["operations"]), f"{len(ct_rows)} ct rows for {len(c['operations'])}")
        for r, o in zip(ct_rows, c["operations"]):
            t = o["taint"]
            check(r[:4] == [o["operation"] or "(image)", o["configuration"], o["board"], o["verdict"]],
                  f"ct row {r[:4]} for {o['operation']}")
            if o["min_cycles"] is not None:
                want = grouped(o["min_cycles"]) if o["min_cycles"] == o["max_cycles"] else \
                    f'{grouped(o["min_cycles"])}–{grouped(o["max_cycles"])}'
                check(r[4] == want, f"ct cycles {r[4]}, JSON {want}")
            check(r[6] == (t["verdict"] if t else "—"), f"ct taint {r[6]} of {o['operation']}")
            check(r[7] == (grouped(len(t["findings"])) if t else "—"), f"ct sites {r[7]} of {o['operation']}")
        details = ct_sections[0].find_all(lambda n: n.tag == "details")
        with_findings = [o for o in c["operations"] if o["taint"] and o["taint"]["findings"]]
        check(len(details) == len(with_findings), f"{len(details)} finding lists for {len(with_findings)}")
        for det, o in zip(details, with_findings):
            check((det.attrs.get("data-operation"), det.attrs.get("data-board")) == (o["operation"], o["board"]),
                  f"finding list {det.attrs}")
            trs = [[td.all_text() for td in tr.find_all(lambda n: n.tag == "td")]
                   for tr in det.find_all(lambda n: n.tag == "tr") if tr.find_all(lambda n: n.tag == "td")]
            fs = o["taint"]["findings"]
            check(len(trs) == len(fs), f'{o["operation"]}: {len(trs)} finding rows for {len(fs)}')
            for tr, f in zip(trs, fs):
                check(tr[0] == f["class"] and tr[1] == grouped(f["count"]) and tr[2] == f["instruction"]
                      and tr[3].startswith(f["function"]) and tr[4] == f["operand"]
                      and tr[5] == (f["allowed"] or ""), f'{o["operation"]}: finding row {tr} for {f}')
    print(f"report_dom: {a.report}: {len(ops)} operation rows, {len(charts)} bar charts, "
          f"{len(cells)} heat-map cells, {len(flames)} flame graphs ({len(diffs)} differential, "
          f"{len(comps)} comparison), {len(diags)} diagnosis tables; screenshot {shot}")


if __name__ == "__main__":
    main()
