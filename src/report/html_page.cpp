#include "report/html_page.h"

namespace fathom::report {

// The page reads the JSON in <script id="fathom-data"> (report/html_report.h) and renders every
// section into <main>. Anything that throws is shown in #fathom-errors (and the page then says
// it did not render completely), so a broken report is never silently empty.
std::string_view html_page_script() {
  return R"FATHOMJS(
"use strict";
(function () {
  const errors = document.getElementById("fathom-errors");
  function report_error(message) {
    const li = document.createElement("li");
    li.textContent = message;
    errors.appendChild(li);
    errors.hidden = false;
  }
  window.addEventListener("error", (e) => report_error(String(e.message)));

  const data = JSON.parse(document.getElementById("fathom-data").textContent);
  const result = data.result;
  const main = d3.select("main");
  const group = d3.format(",");
  const fixed = (digits) => d3.format(`,.${digits}f`);
  const image_name = (im) => `${im.configuration} @ ${im.board}`;
  const median = (op, what) => op.statistics && op.statistics[what] ? op.statistics[what].median : null;
  const micros = (cycles, im) => cycles == null || !im.provenance.clock_hz ? null : cycles * 1e6 / im.provenance.clock_hz;
  const text = (v, fmt) => (v == null ? "—" : (fmt || group)(v));

  function section(id, title, note) {
    const s = main.append("section").attr("id", id);
    s.append("h2").text(title);
    if (note) s.append("p").attr("class", "note").text(note);
    return s;
  }

  // A table whose header cells sort by their column (numbers as numbers, "—" last).
  function sortable_table(parent, columns, rows, cls) {
    const table = parent.append("table").attr("class", "sortable " + (cls || ""));
    const body = table.append("tbody");
    let sorted = { index: -1, ascending: true };
    table.insert("thead", "tbody").append("tr").selectAll("th").data(columns).join("th")
      .text((c) => c.title)
      .attr("class", (c) => (c.numeric ? "num" : null))
      .on("click", (event, c) => {
        const index = columns.indexOf(c);
        sorted = { index, ascending: sorted.index === index ? !sorted.ascending : true };
        rows.sort((a, b) => {
          const x = a[index].sort, y = b[index].sort;
          if (x == null) return 1;
          if (y == null) return -1;
          return (x < y ? -1 : x > y ? 1 : 0) * (sorted.ascending ? 1 : -1);
        });
        draw();
      });
    function draw() {
      body.selectAll("tr").data(rows).join("tr").selectAll("td").data((r) => r).join("td")
        .attr("class", (cell, i) => [columns[i].numeric ? "num" : "", cell.cls || ""].join(" ").trim() || null)
        .attr("data-value", (cell) => (cell.sort == null ? null : String(cell.sort)))
        .text((cell) => cell.text);
    }
    draw();
    return table;
  }
  const cell = (value, shown, cls) => ({ sort: value, text: shown === undefined ? String(value) : shown, cls });
  const num = (value, fmt) => cell(value, text(value, fmt));

  // ---- header ----
  d3.select("#title").text(`fathom report: suite ${result.suite}`);
  const subtitle = [`${data.result_label ? data.result_label + ": " : ""}${result.images.length} image${result.images.length === 1 ? "" : "s"}`];
  if (data.compare) subtitle.push(`compared with ${data.compare_label}`);
  d3.select("#subtitle").text(subtitle.join(", "));

  // ---- images: KAT status and provenance ----
  {
    const s = section("images", "Images", "Every image of the run, its known-answer tests and where its figures come from.");
    const rows = result.images.map((im) => {
      const p = im.provenance;
      const passed = im.operations.filter((o) => o.kat.status === "passed").length;
      const kat = im.operations.length === passed ? `${passed}/${passed} passed` : `${passed}/${im.operations.length} passed`;
      return [cell(im.configuration), cell(im.board), cell(p.core || ""),
              cell(`${p.library || ""} ${p.library_version || ""}`.trim()), cell(p.libc || ""),
              cell(passed, kat, im.operations.length === passed ? "ok" : "bad"),
              cell(im.completed && !im.error ? "yes" : "no", im.completed && !im.error ? "yes" : (im.error || "no"), im.completed && !im.error ? "ok" : "bad"),
              num(im.size ? im.size.flash_bytes : null), num(im.size ? im.size.ram_bytes : null),
              cell(p.compiler || ""), cell((p.cflags || []).join(" ")), cell(p.target || ""),
              cell(p.elf_sha256 ? p.elf_sha256.slice(0, 12) : ""), cell(p.reused_from || "this run")];
    });
    sortable_table(s, [{ title: "configuration" }, { title: "board" }, { title: "core" }, { title: "library" },
                       { title: "libc" }, { title: "KAT", numeric: true }, { title: "completed" },
                       { title: "flash B", numeric: true }, { title: "RAM B", numeric: true },
                       { title: "compiler" }, { title: "flags" }, { title: "target" }, { title: "ELF SHA-256" },
                       { title: "measured" }], rows, "images");
  }

  // ---- summary: every operation of every image ----
  const operations = [];  // in suite order of first appearance
  for (const im of result.images) for (const op of im.operations) if (!operations.includes(op.operation)) operations.push(op.operation);
  {
    const s = section("summary", "Operations", "Median cycles of the timed runs, their time at the board's clock, peak stack and heap. Only operations whose known-answer tests passed in the same image have figures. Click a column to sort.");
    const rows = [];
    for (const im of result.images)
      for (const op of im.operations) {
        const c = median(op, "cycles");
        const m = op.memory || {};
        rows.push([cell(op.operation), cell(image_name(im)), cell(op.kat.status, op.kat.status, op.kat.status === "passed" ? "ok" : "bad"),
                   num(c), num(micros(c, im), fixed(1)), num(median(op, "instructions")),
                   num(m.peak_stack_bytes), num(m.heap_peak_bytes),
                   cell(op.fastest || "", op.fastest || "", op.fastest ? "fastest" : "")]);
      }
    sortable_table(s, [{ title: "operation" }, { title: "image" }, { title: "KAT" }, { title: "cycles", numeric: true },
                       { title: "µs", numeric: true }, { title: "instructions", numeric: true },
                       { title: "stack B", numeric: true }, { title: "heap B", numeric: true }, { title: "fastest" }],
                   rows, "operations");
  }

  // ---- per operation: bars across images ----
  {
    const s = section("bars", "Per operation", "Median cycles per image. A bar marked ★ is the fastest beyond the noise threshold (ties are not marked); the scale is logarithmic where the figures span more than 20×.");
    for (const name of operations) {
      const bars = [];
      for (const im of result.images) {
        const op = im.operations.find((o) => o.operation === name);
        if (op && median(op, "cycles") != null) bars.push({ image: image_name(im), cycles: median(op, "cycles"), fastest: op.fastest });
      }
      if (bars.length === 0) continue;
      const div = s.append("div").attr("class", "chart bar-chart").attr("data-operation", name);
      div.append("h3").text(name);
      const bar = 22, right = 110;
      const left = Math.min(480, 12 + 7 * d3.max(bars, (b) => b.image.length));
      const width = left + 500 + right;
      const height = bars.length * (bar + 6) + 30;
      const lo = d3.min(bars, (b) => b.cycles), hi = d3.max(bars, (b) => b.cycles);
      const log = lo > 0 && hi / lo > 20;
      const x = (log ? d3.scaleLog().domain([lo / 2, hi]) : d3.scaleLinear().domain([0, hi])).range([0, width - left - right]).nice();
      const svg = div.append("svg").attr("width", width).attr("height", height).attr("data-scale", log ? "log" : "linear");
      const g = svg.append("g").attr("transform", `translate(${left},4)`);
      const row = g.selectAll("g.bar").data(bars).join("g").attr("class", "bar")
        .attr("transform", (d, i) => `translate(0,${i * (bar + 6)})`);
      row.append("rect").attr("width", (d) => Math.max(1, x(d.cycles))).attr("height", bar)
        .attr("class", (d) => (d.fastest === "fastest" ? "fastest" : null)).attr("data-cycles", (d) => d.cycles);
      row.append("text").attr("class", "label").attr("x", -6).attr("y", bar / 2).attr("dy", "0.35em")
        .attr("text-anchor", "end").text((d) => d.image);
      row.append("text").attr("class", "value").attr("x", (d) => Math.max(1, x(d.cycles)) + 6).attr("y", bar / 2).attr("dy", "0.35em")
        .text((d) => `${group(d.cycles)}${d.fastest === "fastest" ? " ★" : ""}`);
      g.append("g").attr("transform", `translate(0,${bars.length * (bar + 6)})`)
        .call(d3.axisBottom(x).ticks(5, log ? "~s" : "~s"));
    }
  }

  // ---- matrix: ratios to a baseline image ----
  {
    const baseline = result.images.find((im) => im.configuration === data.baseline) || result.images[0];
    const s = section("matrix", "Matrix", `Median cycles of each image over ${image_name(baseline)}'s for the same operation (below 1: faster). Log colour scale.`);
    const ratios = [];
    for (const im of result.images)
      for (const name of operations) {
        const op = im.operations.find((o) => o.operation === name);
        const base = baseline.operations.find((o) => o.operation === name);
        const a = base ? median(base, "cycles") : null, b = op ? median(op, "cycles") : null;
        ratios.push({ image: image_name(im), operation: name, ratio: a && b != null ? b / a : null });
      }
    const extent = d3.max(ratios, (r) => (r.ratio ? Math.abs(Math.log(r.ratio)) : 0)) || 1;
    const colour = d3.scaleDiverging(d3.interpolateRdYlGn).domain([extent, 0, -extent]);
    const table = s.append("table").attr("class", "heatmap").attr("data-baseline", image_name(baseline));
    table.append("thead").append("tr").selectAll("th").data(["image"].concat(operations)).join("th").text((d) => d);
    const body = table.append("tbody");
    for (const im of result.images) {
      const tr = body.append("tr");
      tr.append("th").text(image_name(im));
      tr.selectAll("td").data(ratios.filter((r) => r.image === image_name(im))).join("td")
        .attr("data-ratio", (r) => (r.ratio == null ? null : r.ratio))
        .style("background", (r) => (r.ratio == null ? null : colour(Math.log(r.ratio))))
        .style("color", (r) => (r.ratio != null && Math.abs(Math.log(r.ratio)) > 0.6 * extent ? "white" : null))
        .text((r) => (r.ratio == null ? "—" : `${r.ratio.toFixed(2)}×`));
    }
  }

  // ---- comparison with a second result ----
  if (data.compare) {
    const s = section("comparison", `Compared with ${data.compare_label}`, "Median cycles of each operation in both results, per image as fathom compare pairs them (same configuration and board, or one image each): B over A (above 1: slower).");
    const rows = [];
    for (const im of result.images) {
      const pair = data.compare_pairs.find((p) => p.b.configuration === im.configuration && p.b.board === im.board);
      const other = pair && data.compare.images.find((o) => o.configuration === pair.a.configuration && o.board === pair.a.board);
      if (!other) continue;
      const label = other.configuration === im.configuration && other.board === im.board ? image_name(im) : `${image_name(im)} (A: ${image_name(other)})`;
      for (const op of im.operations) {
        const a_op = other.operations.find((o) => o.operation === op.operation);
        if (!a_op) continue;
        const a = median(a_op, "cycles"), b = median(op, "cycles");
        const ratio = a && b != null ? b / a : null;
        rows.push([cell(op.operation), cell(label), num(a), num(b), num(ratio, fixed(3)),
                   cell(ratio, ratio == null ? "—" : ratio > 1.005 ? "slower" : ratio < 0.995 ? "faster" : "same",
                        ratio == null ? "" : ratio > 1.005 ? "bad" : ratio < 0.995 ? "ok" : "")]);
      }
    }
    sortable_table(s, [{ title: "operation" }, { title: "image" }, { title: "A cycles", numeric: true },
                       { title: "B cycles", numeric: true }, { title: "B / A", numeric: true }, { title: "change" }], rows, "comparison");
  }

  // d3-flame-graph animates its first drawing (rect widths and labels arrive by d3
  // transitions, which a browser without animation frames, or a printed page, never finishes):
  // the first drawing is put in its final state at once; zooming still animates.
  function settle(host) {
    host.selectAll("g.frame").each(function (d) {
      const g = d3.select(this);
      g.select("rect").interrupt().attr("width", g.attr("width"));
      const label = g.select("div.d3-flame-graph-label");
      label.interrupt().text(d.data.name);
    });
  }

  // ---- flame graphs ----
  if (data.flames.length || data.profile_notes.length) {
    const s = section("flames", "Where the cycles go", "Call trees of one execution of each operation on the simulator (fathom profile): width is inclusive cycles. Click a frame to zoom, click the root to zoom out. A differential graph has the change's shape, red where it spends more cycles than the baseline (or the comparison's A), blue where fewer.");
    for (const n of data.profile_notes) s.append("p").attr("class", "note profile-note").text(n);
    data.flames.forEach((f, i) => {
      const div = s.append("div").attr("class", "flame").attr("data-operation", f.operation)
        .attr("data-image", `${f.configuration} @ ${f.board}`).attr("data-kind", f.kind);
      div.append("h3").text(f.kind === "differential"
        ? `${f.operation}: ${f.configuration} against ${f.against} @ ${f.board} (${group(f.tree.value)} cycles)`
        : f.kind === "comparison"
        ? `${f.operation}: ${f.configuration} @ ${f.board} against ${f.against} (${group(f.tree.value)} cycles)`
        : `${f.operation}: ${f.configuration} @ ${f.board} (${group(f.tree.value)} cycles)`);
      const host = div.append("div").attr("id", `flame-${i}`).attr("class", "flame-host");
      const chart = flamegraph.default().width(1000).cellHeight(18).transitionDuration(300)
        .minFrameSize(1).selfValue(false).inverted(true)
        .label((d) => `${d.data.name}: ${group(d.value)} cycles${d.delta !== undefined ? `, ${d.delta >= 0 ? "+" : ""}${group(d.delta)}` : ""}`);
      if (f.kind !== "profile") chart.computeDelta(true).setColorMapper(flamegraph.colorMapper.differentialColorMapper);
      host.datum(f.tree).call(chart);
      settle(host);
      // Paths only the baseline has are in the tree with no width: listed here instead.
      const removed = [];
      (function walk(node, path) {
        const here = path.concat([node.name]);
        if (node.value === 0 && node.delta < 0) removed.push({ path: here.join(" › "), cycles: -node.delta });
        for (const c of node.children || []) walk(c, here);
      })(f.tree, []);
      if (removed.length)
        div.append("p").attr("class", "note removed").text("Call paths only in the baseline: " +
          removed.map((r) => `${r.path} (−${group(r.cycles)})`).join("; "));
    });
  }

  // ---- diagnosis: which functions explain each change ----
  if (data.diagnoses.length) {
    const s = section("diagnosis", "Diagnosis", "Per operation profiled in both images: the profiles' cycles and, where they changed beyond 0.5 %, the functions whose exclusive cycles explain the change (ranked by their share of it), the callers that hold it, the code that vanished, and the unchanged operations that run the same functions (the control), as fathom diagnose prints them.");
    const pct = (a, b) => (a ? (b - a) * 100 / a : null);
    const signed = (v) => (v == null ? "—" : `${v >= 0 ? "+" : ""}${v.toFixed(2)} %`);
    for (const d of data.diagnoses) {
      const div = s.append("div").attr("class", "diagnosis").attr("data-kind", d.kind)
        .attr("data-image-a", d.image_a).attr("data-image-b", d.image_b);
      div.append("h3").text(`${d.image_b} against ${d.image_a}`);
      sortable_table(div, [{ title: "operation" }, { title: "A cycles", numeric: true }, { title: "B cycles", numeric: true },
                           { title: "change", numeric: true }, { title: "explained", numeric: true }, { title: "verdict" }],
        d.operations.map((o) => [cell(o.operation), num(o.cycles_a), num(o.cycles_b),
                                 cell(pct(o.cycles_a, o.cycles_b), signed(pct(o.cycles_a, o.cycles_b))),
                                 o.changed ? num(o.covered * 100, fixed(1)) : cell(null, "—"),
                                 cell(o.changed ? 1 : 0, o.changed ? "changed" : "unchanged", o.changed ? "bad" : "ok")]),
        "diagnosis-summary");
      for (const o of d.operations.filter((x) => x.changed)) {
        const od = div.append("div").attr("class", "diagnosis-operation").attr("data-operation", o.operation);
        od.append("h4").text(`${o.operation}: ${group(o.cycles_a)} → ${group(o.cycles_b)} cycles (${signed(pct(o.cycles_a, o.cycles_b))}), ${(o.covered * 100).toFixed(1)} % explained by`);
        const fn_rows = (list) => list.map((f) => [cell(f.function), num(f.exclusive_a), num(f.exclusive_b),
          cell(f.exclusive_b - f.exclusive_a, `${f.exclusive_b >= f.exclusive_a ? "+" : ""}${group(f.exclusive_b - f.exclusive_a)}`),
          num(f.share * 100, fixed(1)), num(f.calls_a), num(f.calls_b)]);
        const fn_columns = [{ title: "function" }, { title: "self A", numeric: true }, { title: "self B", numeric: true },
                            { title: "Δ self", numeric: true }, { title: "share %", numeric: true },
                            { title: "calls A", numeric: true }, { title: "calls B", numeric: true }];
        sortable_table(od, fn_columns, fn_rows(o.functions), "diagnosis-functions");
        if (o.grew_inclusive.length)
          od.append("p").attr("class", "note grew").text("Callers holding the change (inclusive): " +
            o.grew_inclusive.map((f) => `${f.function} ${group(f.inclusive_a)} → ${group(f.inclusive_b)}`).join("; "));
        if (o.vanished.length)
          od.append("p").attr("class", "note vanished").text("Ran in A only: " +
            o.vanished.map((f) => `${f.function} (${group(f.exclusive_a)} self)`).join("; "));
        if (o.controls.length)
          od.append("p").attr("class", "note controls").text("Unchanged operations running the same functions: " +
            o.controls.map((c) => `${c.operation} (${c.shared_functions.join(", ")})`).join("; "));
      }
    }
  }

  // ---- history: a metric over the suite's stored runs ----
  if (data.trend) {
    const t = data.trend;
    const s = section("trend", `History: ${t.metric}`, `${t.metric === "stack" || t.metric === "heap" ? "Peak" : "Median"} ${t.metric} of each operation in the stored runs of suite ${t.suite}, oldest first, one line per configuration and board` + (t.current_run != null ? `; run ${t.current_run} (this report's) is ringed.` : "."));
    const order = new Map(t.runs.map((r, i) => [r.id, i]));
    const run_label = (r) => `run ${r.id}${r.name ? ` '${r.name}'` : ""} ${r.timestamp}${r.git_revision ? ` git ${r.git_revision.slice(0, 8)}${r.git_dirty ? "+" : ""}` : ""}`;
    const names = [];
    for (const se of t.series) if (!names.includes(se.operation)) names.push(se.operation);
    const keys = [...new Set(t.series.map((se) => `${se.configuration} @ ${se.board}`))];
    const colour = d3.scaleOrdinal(d3.schemeTableau10).domain(keys);
    if (!names.length) s.append("p").attr("class", "note").text("No stored run of this suite has these operations.");
    for (const name of names) {
      const series = t.series.filter((se) => se.operation === name);
      const div = s.append("div").attr("class", "chart trend-chart").attr("data-operation", name);
      div.append("h3").text(name);
      const left = 90, right = 260, width = 900, height = 220;
      const values = series.flatMap((se) => se.points.filter((p) => p.value != null).map((p) => p.value));
      const x = d3.scalePoint().domain(t.runs.map((r) => r.id)).range([0, width - left - right]).padding(0.5);
      const y = d3.scaleLinear().domain([0, d3.max(values) || 1]).nice().range([height - 30, 10]);
      const svg = div.append("svg").attr("width", width).attr("height", height);
      const g = svg.append("g").attr("transform", `translate(${left},0)`);
      g.append("g").attr("transform", `translate(0,${height - 30})`).call(d3.axisBottom(x).tickFormat((id) => `#${id}`));
      g.append("g").call(d3.axisLeft(y).ticks(5, "~s"));
      series.forEach((se, k) => {
        const key = `${se.configuration} @ ${se.board}`;
        const pts = se.points.filter((p) => p.value != null && order.has(p.run));
        const line = g.append("g").attr("class", "series").attr("data-image", key);
        line.append("path").attr("fill", "none").attr("stroke", colour(key)).attr("stroke-width", 2)
          .attr("d", d3.line().x((p) => x(p.run)).y((p) => y(p.value))(pts));
        line.selectAll("circle").data(pts).join("circle").attr("cx", (p) => x(p.run)).attr("cy", (p) => y(p.value))
          .attr("r", (p) => (p.run === t.current_run ? 6 : 3.5)).attr("fill", colour(key))
          .attr("class", (p) => (p.run === t.current_run ? "current" : null))
          .attr("data-run", (p) => p.run).attr("data-value", (p) => p.value)
          .append("title").text((p) => `${key}: ${group(p.value)} ${t.metric}, ${run_label(t.runs[order.get(p.run)])}`);
        g.append("text").attr("x", width - left - right + 10).attr("y", 16 + k * 16).attr("fill", colour(key)).text(key);
      });
    }
    sortable_table(s, [{ title: "run", numeric: true }, { title: "name" }, { title: "stored (UTC)" }, { title: "git" }],
      t.runs.map((r) => [num(r.id), cell(r.name || ""), cell(r.timestamp), cell(r.git_revision ? r.git_revision.slice(0, 12) + (r.git_dirty ? "+" : "") : "")]),
      "trend-runs");
  }

  // ---- constant time (fathom ct) ----
  if (data.constant_time) {
    const ct = data.constant_time;
    const s = section("ct", "Constant time", `fathom ct over ${ct.variants} secret variants per operation on the simulator: timing is the differential check (any cycle difference between variants is a leak; "varies" when the runs differ as much with the secret fixed, each variant taking what the secret-fixed run at its position took), taint the per-instruction tracking of the declared secret bytes (branches, IT, indirect branches, secret-indexed addresses, variable-latency operands, software division). "No finding" covers the path the secret took.`);
    const range = (o) => o.min_cycles == null ? "—" : o.min_cycles === o.max_cycles ? group(o.min_cycles) : `${group(o.min_cycles)}–${group(o.max_cycles)}`;
    const verdict_cls = (v) => v === "leak" ? "bad" : v === "constant" || v === "no finding" ? "ok" : null;
    const where = (f) => (f.function ? `${f.function}+0x${f.offset.toString(16)}` : f.pc) + (f.file ? ` (${f.file.split("/").pop()}:${f.line})` : "");
    const first = (t) => { const f = t.findings.find((x) => x.allowed == null); return f ? `${f.class} ${f.instruction} on ${f.operand}: ${where(f)}` : (t.reason || ""); };
    sortable_table(s, [{ title: "operation" }, { title: "configuration" }, { title: "board" }, { title: "timing" },
                       { title: "cycles", numeric: true }, { title: "spread", numeric: true }, { title: "taint" },
                       { title: "sites", numeric: true }, { title: "first finding" }],
      ct.operations.map((o) => {
        const t = o.taint;
        return [cell(o.operation || "(image)"), cell(o.configuration), cell(o.board),
                cell(o.verdict, o.verdict, verdict_cls(o.verdict)),
                cell(o.min_cycles, range(o)), num(o.spread_cycles),
                t ? cell(t.verdict, t.verdict, verdict_cls(t.verdict)) : cell(null, "—"),
                t ? num(t.findings.length) : cell(null, "—"),
                cell(t ? first(t) : (o.reason || ""))];
      }), "ct");
    for (const o of ct.operations) {
      if (!o.taint || !o.taint.findings.length) continue;
      const d = s.append("details").attr("class", "ct-findings").attr("data-operation", o.operation).attr("data-board", o.board);
      d.append("summary").text(`${o.operation} on ${o.board} (${o.configuration}): ${o.taint.findings.length} taint finding${o.taint.findings.length === 1 ? "" : "s"}`);
      sortable_table(d, [{ title: "class" }, { title: "count", numeric: true }, { title: "instruction" }, { title: "where" },
                         { title: "operand" }, { title: "allowed" }],
        o.taint.findings.map((f) => [cell(f.class), num(f.count), cell(f.instruction), cell(where(f)), cell(f.operand), cell(f.allowed || "")]),
        "ct-sites");
    }
  }

  // ---- fairness checks and workflows ----
  if (result.fairness && result.fairness.length) {
    const s = section("fairness", "Fairness checks", "An operation that must cost the same in configurations that differ elsewhere: a control for the comparison.");
    sortable_table(s, [{ title: "group" }, { title: "operation" }, { title: "configurations" },
                       { title: "spread %", numeric: true }, { title: "tolerance %", numeric: true }, { title: "verdict" }],
      result.fairness.map((c) => [cell(c.group), cell(c.operation), cell(c.configurations.join(", ")),
                                  num(c.spread_percent, fixed(2)), num(c.tolerance_percent, fixed(2)),
                                  cell(c.passed ? 1 : 0, c.passed ? "passed" : "FAILED", c.passed ? "ok" : "bad")]), "fairness");
  }
  if (result.workflows && result.workflows.length) {
    const s = section("workflows", "Workflows", "Per-step cycles of each workflow (stacked), with the bytes it puts on the wire.");
    const flows = result.workflows.filter((w) => !w.error && w.steps);
    const steps = [];
    for (const w of flows) for (const st of w.steps) if (!steps.includes(st.name)) steps.push(st.name);
    const colour = d3.scaleOrdinal(d3.schemeTableau10).domain(steps);
    const bar = 22;
    const left = Math.min(560, 12 + 7 * (d3.max(flows, (w) => `${w.workflow} ${w.variant} (${w.configuration} @ ${w.board})`.length) || 0));
    const width = left + 600 + 220;
    const x = d3.scaleLinear().domain([0, d3.max(flows, (w) => w.total_cycles) || 1]).range([0, 600]).nice();
    const svg = s.append("svg").attr("class", "chart workflow-chart").attr("width", width).attr("height", flows.length * (bar + 6) + 60);
    const g = svg.append("g").attr("transform", `translate(${left},4)`);
    flows.forEach((w, i) => {
      const row = g.append("g").attr("class", "workflow").attr("transform", `translate(0,${i * (bar + 6)})`).attr("data-total", w.total_cycles);
      let at = 0;
      for (const st of w.steps) {
        row.append("rect").attr("class", "step").attr("x", x(at)).attr("width", Math.max(0, x(at + (st.cycles || 0)) - x(at)))
          .attr("height", bar).attr("fill", colour(st.name)).attr("data-cycles", st.cycles)
          .append("title").text(`${st.name}: ${group(st.cycles || 0)} cycles`);
        at += st.cycles || 0;
      }
      row.append("text").attr("x", -6).attr("y", bar / 2).attr("dy", "0.35em").attr("text-anchor", "end")
        .text(`${w.workflow} ${w.variant} (${w.configuration} @ ${w.board})`);
      row.append("text").attr("x", x(at) + 6).attr("y", bar / 2).attr("dy", "0.35em")
        .text(`${group(w.total_cycles)} cycles, ${group(w.wire_bytes)} B on the wire`);
    });
    g.append("g").attr("transform", `translate(0,${flows.length * (bar + 6)})`).call(d3.axisBottom(x).ticks(6, "~s"));
    const legend = s.append("p").attr("class", "legend");
    for (const name of steps) {
      const item = legend.append("span").attr("class", "legend-item");
      item.append("span").attr("class", "swatch").style("background", colour(name));
      item.append("span").text(name);
    }
    const failed = result.workflows.filter((w) => w.error);
    for (const w of failed) s.append("p").attr("class", "bad").text(`${w.workflow} ${w.variant}: ${w.error}`);
  }

  document.body.dataset.rendered = errors.hidden ? "complete" : "with-errors";
})();
)FATHOMJS";
}

std::string_view html_page_style() {
  return R"FATHOMCSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em 2em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0; }
h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; }
p.note, #subtitle { color: #555; max-width: 60em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; background: #f4f4f4; }
td.ok { color: #176b2c; } td.bad, p.bad { color: #b00020; font-weight: bold; }
td.fastest { font-weight: bold; }
h4 { font-size: 0.95em; margin: 0.8em 0 0.2em; }
.trend-chart circle.current { stroke: #222; stroke-width: 2px; }
table.heatmap td { text-align: right; min-width: 4.5em; font-variant-numeric: tabular-nums; }
.bar-chart rect { fill: #6b8fb3; } .bar-chart rect.fastest { fill: #2f7d32; }
.chart text { font-size: 12px; }
.legend-item { margin-right: 1.2em; } .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }
#fathom-errors { color: #b00020; border: 1px solid #b00020; padding: 0.5em 2em; }
)FATHOMCSS";
}

}  // namespace fathom::report
