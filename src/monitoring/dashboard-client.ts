/**
 * The dashboard's browser script, served as /static/app.js (a string: the package ships it, no
 * build step, no CDN). It renders the queries list or one query from /api/* JSON and keeps them
 * live from /api/events (Server-Sent Events). Every string from the server enters the page as
 * a text node (textContent), never as HTML, so a query named `<img src=x onerror=...>` is shown,
 * not run. Charts are uPlot. (No template literals in here: the text is a JS string.)
 */
export const CLIENT_JS = String.raw`(function () {
  "use strict";
  var MAX_POINTS = 500;
  var root = document.getElementById("app");
  var state = { runId: null, detail: null, history: [], charts: [], pending: null, summaries: [] };

  function el(tag, attrs) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === "class") e.className = attrs[k];
      else if (k === "text") e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function num(v) { return v === null || v === undefined ? "" : String(v); }
  function fmtMs(ms) {
    if (ms === null || ms === undefined) return "";
    if (ms < 1000) return ms + " ms";
    var s = Math.floor(ms / 1000);
    if (s < 60) return s + " s";
    var m = Math.floor(s / 60);
    if (m < 60) return m + " min " + (s % 60) + " s";
    return Math.floor(m / 60) + " h " + (m % 60) + " min";
  }
  function getJSON(url) {
    return fetch(url, { headers: { accept: "application/json" } }).then(function (r) {
      if (!r.ok) throw new Error(url + ": HTTP " + r.status);
      return r.json();
    });
  }
  function badge(n) {
    return el("span", { class: n > 0 ? "badge firing" : "badge ok", "data-testid": "alert-badge", text: n > 0 ? n + " alert" + (n === 1 ? "" : "s") : "healthy" });
  }
  function queryLabel(s) { return s.name === null ? "(unnamed)" : s.name; }

  // ------------------------------------------------------------------ queries list
  function renderList() {
    clear(root);
    var firing = state.summaries.reduce(function (a, s) { return a + s.alertsFiring; }, 0);
    root.appendChild(el("h1", null, "Structured Streaming ", badge(firing)));
    var groups = [["Active Streaming Queries", "active"], ["Completed Streaming Queries", null]];
    groups.forEach(function (g) {
      var rows = state.summaries.filter(function (s) { return g[1] ? s.state === g[1] : s.state !== "active"; });
      root.appendChild(el("h2", { text: g[0] + " (" + rows.length + ")" }));
      var t = el("table", { class: "queries", "data-testid": g[1] ? "active-queries" : "completed-queries" });
      t.appendChild(el("tr", null, el("th", { text: "Name" }), el("th", { text: "Status" }), el("th", { text: "Id" }), el("th", { text: "Run ID" }),
        el("th", { text: "Start Time" }), el("th", { text: "Duration" }), el("th", { text: "Avg Input /sec" }), el("th", { text: "Avg Process /sec" }),
        el("th", { text: "Latest Batch" }), el("th", { text: "Alerts" }), el("th", { text: "Error" })));
      rows.forEach(function (s) {
        var link = el("a", { href: "/query/" + encodeURIComponent(s.runId), class: "qname", text: queryLabel(s) });
        t.appendChild(el("tr", null, el("td", null, link), el("td", { class: "status-" + s.state, text: s.state, title: s.status.message }), el("td", { text: s.id }),
          el("td", { text: s.runId }), el("td", { text: s.startedAt }), el("td", { text: fmtMs(s.durationMs) }), el("td", { text: num(s.avgInputRate) }),
          el("td", { text: num(s.avgProcessRate) }), el("td", { text: num(s.latestBatch) }), el("td", null, badge(s.alertsFiring)), el("td", { class: "error", text: s.lastError || "" })));
      });
      root.appendChild(t);
    });
    root.appendChild(el("p", { class: "links" }, el("a", { href: "/metrics", text: "Prometheus metrics" }), " · ", el("a", { href: "/api/environment", text: "Environment (redacted)" })));
  }
  function loadList() {
    return getJSON("/api/queries").then(function (s) { state.summaries = s; renderList(); });
  }

  // ------------------------------------------------------------------ one query
  var CHARTS = [
    { id: "rates", title: "Input rate and process rate (rows/s)", series: function (h) {
      return [["input rate", h.map(function (p) { return p.inputRowsPerSecond === undefined ? null : p.inputRowsPerSecond; })],
              ["process rate", h.map(function (p) { return p.processedRowsPerSecond === undefined ? null : p.processedRowsPerSecond; })]]; } },
    { id: "input", title: "Input rows", series: function (h) { return [["input rows", h.map(function (p) { return p.numInputRows; })]]; } },
    { id: "duration", title: "Batch duration by part (ms, stacked)", stacked: true, series: function (h) {
      var keys = {};
      h.forEach(function (p) { for (var k in (p.durationMs || {})) if (k !== "triggerExecution") keys[k] = true; });
      return Object.keys(keys).sort().map(function (k) { return [k, h.map(function (p) { return (p.durationMs || {})[k] || 0; })]; }); } },
    { id: "eventtime", title: "Watermark and max event time", time: true, series: function (h) {
      // a watermark still at the epoch (no event yet) is left out, or it would flatten the chart
      function t(p, k) { var v = p.eventTime && p.eventTime[k]; var ms = v ? Date.parse(v) : 0; return ms > 0 ? ms / 1000 : null; }
      return [["max event time", h.map(function (p) { return t(p, "max"); })], ["watermark", h.map(function (p) { return t(p, "watermark"); })]]; } },
    { id: "state", title: "State rows per operator", series: function (h) { return perOperator(h, "numRowsTotal"); } },
    { id: "stateChanges", title: "State rows updated and removed (all operators)", series: function (h) {
      function sum(p, k) { return p.stateOperators.reduce(function (a, o) { return a + o[k]; }, 0); }
      return [["updated", h.map(function (p) { return sum(p, "numRowsUpdated"); })], ["removed", h.map(function (p) { return sum(p, "numRowsRemoved"); })]]; } },
    { id: "memory", title: "State memory per operator (bytes)", series: function (h) { return perOperator(h, "memoryUsedBytes"); } },
    { id: "late", title: "Rows dropped by watermark and late input rows", series: function (h) {
      return [["dropped by watermark", h.map(function (p) { return p.stateOperators.reduce(function (a, o) { return a + o.numRowsDroppedByWatermark; }, 0); })],
              ["late input rows", h.map(function (p) { return p.arus ? p.arus.numLateInputRows : 0; })]]; } },
    { id: "lateness", title: "Lateness behind the newest event (ms, arus)", series: function (h) {
      var col = null;
      h.forEach(function (p) { if (!col && p.arus && p.arus.lateness) col = Object.keys(p.arus.lateness)[0] || null; });
      function q(p, k) { var l = p.arus && p.arus.lateness && col ? p.arus.lateness[col] : null; return l ? l[k] : null; }
      return ["p50", "p90", "p99", "max"].map(function (k) { return [(col ? col + " " : "") + k, h.map(function (p) { return q(p, k); })]; }); } },
    { id: "lag", title: "Source lag (offsets or files behind latest; a Kafka source's partitions too)", series: function (h) {
      var n = h.reduce(function (a, p) { return Math.max(a, p.sources.length); }, 0), out = [];
      for (var i = 0; i < n; i++) out.push(["source " + i, h.map(function (p) { return lagOf(p, i); })]);
      return out.concat(partitionLags(h, n)); } },
    // df.observe's numeric metrics, one line per name.metric; drawn only for a query that observes.
    { id: "observed", title: "Observed metrics (df.observe)", optional: true, series: function (h) {
      var keys = {};
      h.forEach(function (p) { var o = p.observedMetrics || {}; for (var n in o) for (var m in o[n]) if (typeof o[n][m] === "number") keys[n + "." + m] = [n, m]; });
      return Object.keys(keys).sort().map(function (k) {
        return [k, h.map(function (p) { var o = p.observedMetrics && p.observedMetrics[keys[k][0]]; var v = o ? o[keys[k][1]] : null; return typeof v === "number" ? v : null; })];
      }); } }
  ];
  function perOperator(h, field) {
    var n = h.reduce(function (a, p) { return Math.max(a, p.stateOperators.length); }, 0), out = [];
    for (var i = 0; i < n; i++) {
      var name = "operator " + i;
      for (var j = h.length - 1; j >= 0; j--) if (h[j].stateOperators[i]) { name = i + ": " + h[j].stateOperators[i].operatorName; break; }
      out.push([name, h.map(function (p) { var o = p.stateOperators[i]; return o ? o[field] : null; })]);
    }
    return out;
  }
  function lagOf(p, i) {
    var s = p.sources[i];
    if (!s) return null;
    var m = s.metrics || {};
    if (m.maxOffsetsBehindLatest !== undefined) return Number(m.maxOffsetsBehindLatest);
    var b = p.arus && p.arus.sourceBacklog && p.arus.sourceBacklog[i];
    if (b) return b.files;
    if (typeof s.endOffset === "number" && typeof s.latestOffset === "number") return Math.max(0, s.latestOffset - s.endOffset);
    return null;
  }
  // A Kafka source's lag per partition (latestOffset - endOffset; arus_kafka_partition_lag), up to
  // MAX_PARTITION_SERIES lines; a partition an entry does not list (a group-mode worker's revoked one) is a gap.
  var MAX_PARTITION_SERIES = 16;
  function kafkaOffsets(o) {
    if (typeof o === "string") { try { o = JSON.parse(o); } catch (e) { return null; } }
    return o && typeof o === "object" && !Array.isArray(o) ? o : null;
  }
  function partitionLags(h, nSources) {
    var keys = [], seen = {};
    h.forEach(function (p) {
      p.sources.forEach(function (s, i) {
        var latest = String(s.description).indexOf("KafkaV2[") === 0 ? kafkaOffsets(s.latestOffset) : null;
        for (var t in latest || {}) for (var part in latest[t]) {
          var k = i + "\u0000" + t + "\u0000" + part;
          if (!seen[k]) { seen[k] = true; keys.push({ i: i, topic: t, part: part }); }
        }
      });
    });
    if (keys.length > MAX_PARTITION_SERIES) return [];
    return keys.map(function (k) {
      return [(nSources > 1 ? "source " + k.i + " " : "") + k.topic + "[" + k.part + "]", h.map(function (p) {
        var s = p.sources[k.i], latest = s && kafkaOffsets(s.latestOffset), end = s && kafkaOffsets(s.endOffset);
        var l = latest && latest[k.topic] ? latest[k.topic][k.part] : undefined;
        if (typeof l !== "number") return null;
        var e = end && end[k.topic] ? end[k.topic][k.part] : undefined;
        return Math.max(0, l - (typeof e === "number" ? e : 0));
      })];
    });
  }
  var COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

  function chartData(def, h) {
    var xs = h.map(function (p) { return Date.parse(p.timestamp) / 1000; });
    var series = def.series(h);
    if (def.stacked) {
      var acc = xs.map(function () { return 0; });
      series = series.map(function (s) { acc = acc.map(function (a, i) { return a + (s[1][i] || 0); }); return [s[0], acc.slice()]; });
    }
    return { xs: xs, series: series };
  }

  function drawCharts(container) {
    state.charts.forEach(function (c) { c.plot.destroy(); });
    state.charts = [];
    clear(container);
    CHARTS.forEach(function (def) {
      var d = chartData(def, state.history);
      if (def.optional && d.series.length === 0) return;
      var box = el("div", { class: "chart", "data-chart": def.id }, el("h3", { text: def.title }));
      container.appendChild(box);
      var opts = {
        width: 560, height: 200,
        tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
        series: [{}].concat(d.series.map(function (s, i) {
          return { label: s[0], stroke: COLORS[i % COLORS.length], fill: def.stacked ? COLORS[i % COLORS.length] + "55" : undefined, spanGaps: true };
        })),
        axes: [{}, def.time ? { size: 90, values: function (u, vals) { return vals.map(function (v) { return new Date(v * 1000).toISOString().slice(11, 19); }); } } : { size: 70 }]
      };
      if (def.stacked) opts.bands = d.series.slice(1).map(function (_, i) { return { series: [i + 2, i + 1] }; });
      var plot = new uPlot(opts, [d.xs].concat(d.series.map(function (s) { return s[1]; })), box);
      state.charts.push({ def: def, plot: plot, box: box, n: d.series.length });
    });
  }
  function updateCharts() {
    var container = document.getElementById("charts");
    if (!container) return;
    var redraw = false;
    state.charts.forEach(function (c) { if (chartData(c.def, state.history).series.length !== c.n) redraw = true; });
    CHARTS.forEach(function (def) {
      if (def.optional && !state.charts.some(function (c) { return c.def === def; }) && chartData(def, state.history).series.length > 0) redraw = true;
    });
    if (redraw || state.charts.length === 0) return drawCharts(container);
    state.charts.forEach(function (c) {
      var d = chartData(c.def, state.history);
      c.plot.setData([d.xs].concat(d.series.map(function (s) { return s[1]; })));
      c.box.setAttribute("data-points", String(d.xs.length));
    });
  }

  function batchesTable() {
    var t = el("table", { class: "batches", "data-testid": "batches" });
    t.appendChild(el("tr", null, el("th", { text: "Batch" }), el("th", { text: "Timestamp" }), el("th", { text: "Input rows" }),
      el("th", { text: "Input rows/s" }), el("th", { text: "Processed rows/s" }), el("th", { text: "Duration (ms)" }), el("th", { text: "Progress" })));
    state.history.slice().reverse().slice(0, 50).forEach(function (p) {
      var pre = el("pre", { class: "json", hidden: "" });
      var btn = el("button", { type: "button", class: "show-json", text: "JSON" });
      btn.addEventListener("click", function () {
        if (pre.hasAttribute("hidden")) { pre.textContent = JSON.stringify(p, null, 2); pre.removeAttribute("hidden"); }
        else pre.setAttribute("hidden", "");
      });
      var tr = el("tr", { "data-batch": String(p.batchId) }, el("td", { class: "batchId", text: p.batchId }), el("td", { text: p.timestamp }),
        el("td", { class: "numInputRows", text: p.numInputRows }), el("td", { class: "inputRowsPerSecond", text: num(p.inputRowsPerSecond) }),
        el("td", { class: "processedRowsPerSecond", text: num(p.processedRowsPerSecond) }), el("td", { class: "batchDuration", text: p.batchDuration }),
        el("td", null, btn, el("a", { href: "/api/queries/" + encodeURIComponent(state.runId) + "/progress/" + p.batchId, class: "raw", text: "raw" }), pre));
      t.appendChild(tr);
    });
    return t;
  }

  function alertsPanel(d) {
    var box = el("div", { class: "alerts", "data-testid": "alerts" });
    box.appendChild(el("h2", null, "Alerts ", badge(d.alerts.length)));
    if (d.alerts.length === 0) box.appendChild(el("p", { class: "quiet", text: "No alert firing." }));
    d.alerts.forEach(function (a) {
      box.appendChild(el("div", { class: "alert firing", "data-alert": a.alert }, el("strong", { text: a.alert }), " on " + a.subject + " since " + a.since + ": ", el("span", { text: a.message })));
    });
    if (d.alertLog.length) {
      var log = el("table", { class: "alert-log" });
      log.appendChild(el("tr", null, el("th", { text: "Time" }), el("th", { text: "Alert" }), el("th", { text: "State" }), el("th", { text: "Batch" }), el("th", { text: "Message" })));
      d.alertLog.slice().reverse().slice(0, 30).forEach(function (a) {
        log.appendChild(el("tr", { "data-alert-event": a.alert + ":" + a.state }, el("td", { text: a.timestamp }), el("td", { text: a.alert + " (" + a.subject + ")" }),
          el("td", { class: "state-" + a.state, text: a.state }), el("td", { text: a.batchId }), el("td", { text: a.message })));
      });
      box.appendChild(log);
    }
    return box;
  }

  function factsTable(s) {
    var facts = el("table", { class: "facts", "data-testid": "facts" });
    [["Status", s.state + " (" + s.status.message + ")"], ["Id", s.id], ["Run ID", s.runId], ["Started", s.startedAt], ["Duration", fmtMs(s.durationMs)], ["Latest batch", num(s.latestBatch)],
     ["Avg input rows/s", num(s.avgInputRate)], ["Avg processed rows/s", num(s.avgProcessRate)], ["Last error", s.lastError || "none"]].forEach(function (r) {
      facts.appendChild(el("tr", null, el("th", { text: r[0] }), el("td", { text: r[1] })));
    });
    return facts;
  }

  function renderQuery() {
    var d = state.detail, s = d.summary;
    clear(root);
    root.appendChild(el("p", null, el("a", { href: "/", text: "← all queries" })));
    root.appendChild(el("h1", null, el("span", { class: "qname", "data-testid": "query-name", text: queryLabel(s) }), " ", badge(s.alertsFiring)));
    root.appendChild(factsTable(s));
    root.appendChild(alertsPanel(d));
    root.appendChild(el("h2", { text: "Charts" }));
    var charts = el("div", { id: "charts", class: "charts" });
    root.appendChild(charts);
    root.appendChild(el("h2", { text: "Watermark (explainWatermark)" }));
    root.appendChild(el("pre", { class: "watermark", "data-testid": "watermark", text: d.watermark ? d.watermark.text : "The query has ended: no live watermark." }));
    root.appendChild(el("h2", { text: "Recent batches" }));
    root.appendChild(el("div", { id: "batches" }, batchesTable()));
    drawCharts(charts);
    updateCharts();
  }
  function refreshDetail() {
    return getJSON("/api/queries/" + encodeURIComponent(state.runId)).then(function (d) {
      var first = state.detail === null;
      state.detail = d;
      if (first) { state.history = d.progress.slice(); renderQuery(); return; }
      var old = document.querySelector("[data-testid=alerts]");
      if (old) old.replaceWith(alertsPanel(d));
      var wm = document.querySelector("[data-testid=watermark]");
      if (wm) wm.textContent = d.watermark ? d.watermark.text : "The query has ended: no live watermark.";
      var facts = document.querySelector("[data-testid=facts]");
      if (facts) facts.replaceWith(factsTable(d.summary));
      var h1 = document.querySelector("h1 [data-testid=alert-badge]");
      if (h1) h1.replaceWith(badge(d.summary.alertsFiring));
    });
  }
  function scheduleRefresh() {
    if (state.pending) return;
    state.pending = setTimeout(function () { state.pending = null; refreshDetail().catch(report); }, 200);
  }
  var frame = null;
  function scheduleRender() {
    if (frame) return;
    frame = requestAnimationFrame(function () {
      frame = null;
      updateCharts();
      var b = document.getElementById("batches");
      if (b) { clear(b); b.appendChild(batchesTable()); }
    });
  }
  function report(e) {
    var bar = document.getElementById("status");
    if (bar) bar.textContent = String(e && e.message ? e.message : e);
  }

  var listTimer = null;
  function scheduleListReload() {
    if (listTimer) return;
    listTimer = setTimeout(function () { listTimer = null; loadList().catch(report); }, 300);
  }
  function connect() {
    var es = new EventSource("/api/events");
    es.addEventListener("progress", function (m) {
      var d = JSON.parse(m.data);
      if (state.runId === null) return scheduleListReload();
      if (d.runId !== state.runId || state.detail === null) return;
      state.history.push(d.progress);
      if (state.history.length > MAX_POINTS) state.history.splice(0, state.history.length - MAX_POINTS);
      scheduleRender();
      scheduleRefresh();
    });
    es.addEventListener("alert", function (m) {
      var d = JSON.parse(m.data);
      if (state.runId === null) loadList().catch(report);
      else if (d.runId === state.runId) scheduleRefresh();
    });
    es.addEventListener("query", function (m) {
      var s = JSON.parse(m.data);
      if (state.runId === null) {
        var i = state.summaries.findIndex(function (x) { return x.runId === s.runId; });
        if (i >= 0) state.summaries[i] = s; else state.summaries.unshift(s);
        if (!frame) frame = requestAnimationFrame(function () { frame = null; renderList(); });
      } else if (s.runId === state.runId) scheduleRefresh();
    });
    es.onopen = function () { document.body.setAttribute("data-live", "true"); };
  }

  var match = /^\/query\/([^/]+)$/.exec(location.pathname);
  state.runId = match ? decodeURIComponent(match[1]) : null;
  (state.runId === null ? loadList() : refreshDetail()).then(connect).catch(report);
})();
`;
