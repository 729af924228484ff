// simtsync's timeline viewer: draws the page's embedded trace model (tools/cmd_view.cc) with d3
// (3.5, inlined): a canvas of tracks (kernels, warps by SM and slot, barrier phases per CTA
// slot, contended lock words) on a zoomable cycle axis, counters under it, and the watchdog's
// report as a wait-for graph. What it drew is published in window.simtsyncView and in
// <pre id="view-state"> so that a headless browser test can check it without pixels.
(function () {
  "use strict";
  var model = JSON.parse(document.getElementById("trace-data").textContent);
  // Warp states (src/trace/tracer.cc, docs/timeline.md): issuing (greens), spinning (reds),
  // held by the policy (oranges and yellow), waiting on something of its own (blues, purples,
  // browns), nothing known (greys).
  var COLORS = {issue: "#43a047", spin: "#e53935", "spin (DDOS)": "#880e4f",
                backoff: "#fb8c00", held: "#ffb300", "not picked": "#fff176",
                barrier: "#1e88e5", memory: "#8e24aa", data: "#ba68c8",
                structural: "#6d4c41", control: "#26a69a", fetch: "#80cbc4",
                stalled: "#bdbdbd", done: "#e0e0e0"};
  var LABEL_W = 190, ROW_GAP = 1;
  var state = {tracks: {kernel: 0, warp: 0, barrier: 0, lock: 0, lockq: 0}, spans: 0, drawn: 0,
               states: {}, handovers: 0, queued_max: 0, counters: [], highlighted: 0,
               graph: null, ready: false};
  var app = d3.select("#app");

  // Warps the watchdog names: "warps [CTA.warp] 0.1 1.1: spinning" (one or more per line).
  var WARPS = /warps \[CTA\.warp\] ((?:\d+\.\d+ ?)+):? ?(.*)$/;
  var stuck = {};
  var report = model.watchdog ? model.watchdog.report : "";
  report.split("\n").forEach(function (line) {
    var m = WARPS.exec(line);
    if (m) m[1].trim().split(/ +/).forEach(function (w) { stuck[w] = true; });
  });

  var header = app.append("header");
  header.append("h1").text(model.title || "simtsync timeline");
  var legend = header.append("div").attr("class", "legend");
  Object.keys(COLORS).forEach(function (k) {
    var s = legend.append("span");
    s.append("i").style("background", COLORS[k]);
    s.append("b").text(k);
  });
  header.append("div").attr("class", "hint").text(
      "Scroll to zoom, drag to pan, hover for warp, PC, source line and lock address. " +
      "One unit of the axis is one core cycle." + (Object.keys(stuck).length ?
      " Warps the watchdog names are outlined in black." : ""));

  if (model.watchdog) drawWatchdog();

  var tracks = model.tracks;
  tracks.forEach(function (t) {
    t.spans.sort(function (a, b) { return a[0] - b[0]; });
    state.tracks[t.kind] = (state.tracks[t.kind] || 0) + 1;
    state.spans += t.spans.length;
    t.stuck = t.kind === "warp" && t.spans.some(function (s) { return stuck[s[3] + "." + s[4]]; });
    if (t.stuck) state.highlighted++;  // warp tracks holding a warp the watchdog names
    if (t.kind === "lockq") {
      t.marks.sort(function (a, b) { return a[0] - b[0]; });
      state.handovers += t.marks.length;
      t.spans.forEach(function (s) { state.queued_max = Math.max(state.queued_max, s[3]); });
    }
  });
  var nWarps = state.tracks.warp || 0;
  var rowH = Math.max(3, Math.min(12, Math.floor(4000 / Math.max(1, nWarps))));
  var y = 0;
  tracks.forEach(function (t) {
    t.h = t.kind === "warp" ? rowH : (t.kind === "barrier" ? Math.max(4, rowH) : 12);
    t.y = y;
    y += t.h + ROW_GAP;
  });
  var height = Math.max(20, y);
  var width = Math.max(400, (window.innerWidth || 1200) - 44);  // room for the scroll bar
  var plotW = width - LABEL_W;
  var x = d3.scale.linear().domain([model.window && model.window[0] ? model.window[0] : 0,
                                    Math.max(1, model.axis_end || model.end)]).range([0, plotW]);

  var timeline = app.append("div").attr("id", "timeline");
  var axisSvg = timeline.append("svg").attr("id", "axis").attr("width", width).attr("height", 22);
  var axisG = axisSvg.append("g").attr("class", "axis")
      .attr("transform", "translate(" + LABEL_W + ",20)");
  var axis = d3.svg.axis().scale(x).orient("top").ticks(8).tickFormat(d3.format("s"));
  var rowsDiv = timeline.append("div").attr("id", "rows");
  var canvas = rowsDiv.append("canvas").attr("width", width).attr("height", height);
  var ctx = canvas.node().getContext("2d");
  var counterDiv = timeline.append("div").attr("id", "counters");
  var panels = counterPanels();
  var tip = d3.select("body").append("div").attr("id", "tip");

  var zoom = d3.behavior.zoom().x(x).scaleExtent([1, 1e6]).on("zoom", draw);
  canvas.call(zoom);
  canvas.on("mousemove", hover).on("mouseout", function () { tip.style("display", "none"); });

  function colorOf(t, s) {
    if (t.kind === "warp") return COLORS[s[2]] || "#999";
    if (t.kind === "barrier") return "#64b5f6";
    if (t.kind === "kernel") return s[3] === false ? "#c62828" : "#455a64";
    if (t.kind === "lockq")  // darker as the queue grows
      return d3.hsl(200, 0.6, Math.max(0.25, 0.8 - 0.05 * s[3])).toString();
    var h = ((s[3] * 31 + s[4] * 7) % 12 + 12) % 12;  // lock: one hue per owner warp
    return d3.hsl(h * 30, 0.55, 0.55).toString();
  }

  function draw() {
    var d = x.domain();
    axisG.call(axis);
    ctx.clearRect(0, 0, width, height);
    ctx.font = "10px sans-serif";
    var drawn = 0, states = {};
    var lastSm = -1;
    tracks.forEach(function (t) {
      ctx.fillStyle = t.stuck ? "#000" : "#333";
      if (t.h >= 8) {
        ctx.fillText(t.label, 2, t.y + t.h - 2);
      } else if (t.kind === "warp" && t.sm !== lastSm) {  // thin rows: one label per SM
        ctx.fillText("SM " + t.sm, 2, t.y + 9);
        ctx.fillRect(0, t.y, LABEL_W - 4, 1);
      }
      if (t.kind === "warp") lastSm = t.sm;
      var sp = t.spans, lo = 0, hi = sp.length;
      while (lo < hi) {  // first span ending after the left edge
        var mid = (lo + hi) >> 1;
        if (sp[mid][0] + sp[mid][1] < d[0]) lo = mid + 1; else hi = mid;
      }
      var lastPx = -1, lastColor = "";
      for (var i = lo; i < sp.length && sp[i][0] <= d[1]; i++) {
        var s = sp[i], x0 = Math.max(0, x(s[0])), x1 = Math.min(plotW, x(s[0] + s[1]));
        var c = colorOf(t, s);
        if (t.kind === "warp") states[s[2]] = (states[s[2]] || 0) + 1;
        if (Math.floor(x1) <= lastPx && c === lastColor) continue;  // same pixel, same colour
        ctx.fillStyle = c;
        ctx.fillRect(LABEL_W + x0, t.y, Math.max(1, x1 - x0), t.h);
        if (t.kind === "warp" && stuck[s[3] + "." + s[4]] && x1 - x0 > 2) {
          ctx.strokeStyle = "#000";
          ctx.strokeRect(LABEL_W + x0 + 0.5, t.y + 0.5, Math.max(1, x1 - x0) - 1, t.h - 1);
        }
        lastPx = Math.floor(x1);
        lastColor = c;
        drawn++;
      }
      if (t.kind === "lockq") {  // hand-overs: a black tick each
        ctx.fillStyle = "#000";
        t.marks.forEach(function (m) {
          if (m[0] < d[0] || m[0] > d[1]) return;
          ctx.fillRect(LABEL_W + x(m[0]), t.y, 1, t.h);
        });
      }
    });
    state.drawn = drawn;
    state.states = states;
    panels.forEach(drawPanel);
    publish();
  }

  function hover() {
    var m = d3.mouse(canvas.node()), px = m[0] - LABEL_W, py = m[1];
    var t = null;
    tracks.forEach(function (u) { if (py >= u.y && py < u.y + u.h) t = u; });
    if (!t || px < 0) { tip.style("display", "none"); return; }
    var c = x.invert(px), slack = x.invert(px + 2) - c, s = null;
    t.spans.forEach(function (u) { if (u[0] - slack <= c && c < u[0] + u[1] + slack) s = u; });
    if (!s) { tip.style("display", "none"); return; }
    var lines = [t.label, s[2] + "  cycles " + s[0] + " - " + (s[0] + s[1]) + " (" + s[1] + ")"];
    if (t.kind === "warp")
      lines.push("CTA " + s[3] + " warp " + s[4] + "  PC " + s[5] + (s[6] ? "  " + s[6] : ""),
                 s[7] ? s[7] + " instructions" : "");
    if (t.kind === "barrier")
      lines.push("CTA " + s[3] + ", " + s[5] + " arrivals, critical (last) warp " + s[4] +
                 " (slot " + s[6] + ")");
    if (t.kind === "lock")
      lines.push("address " + s[5] + "  owner CTA " + s[3] + " warp " + s[4] + " (SM " + s[7] +
                 " slot " + s[8] + ")", s[6] + " failed attempts while held",
                 s[10] ? s[10] + " requests queued while held" : "",
                 s[9] >= 0 ? "taken " + s[9] + " cycles after the previous release" : "");
    if (t.kind === "lockq") {
      lines.push("address " + s[4] + ", waiting behind the holder:", s[5]);
      t.marks.forEach(function (m) {
        if (m[0] >= s[0] && m[0] <= s[0] + s[1])
          lines.push("hand-over at " + m[0] + " to " + m[1] + " (waited " + m[2] + ", " + m[3] +
                     " left)");
      });
    }
    var e = d3.event;
    tip.style("display", "block").style("left", (e.clientX + 14) + "px")
        .style("top", (e.clientY + 10) + "px").text(lines.filter(Boolean).join("\n"));
  }

  // Counters grouped by name without the SM ("issue rate", "BOWS delay limit"), one line each.
  function counterPanels() {
    var groups = {};
    (model.counters || []).forEach(function (c) {
      var key = c.name.replace(/^SM \d+ /, "").replace(/ (SM|slice) \d+$/, "");
      (groups[key] = groups[key] || []).push(c);
    });
    state.counters = Object.keys(groups).sort();
    return Object.keys(groups).sort().map(function (k) {
      var cv = counterDiv.append("canvas").attr("width", width).attr("height", 46);
      var max = 0;
      groups[k].forEach(function (c) { c.points.forEach(function (p) { max = Math.max(max, p[1]); }); });
      return {name: k, series: groups[k], max: max || 1, ctx: cv.node().getContext("2d")};
    });
  }
  function drawPanel(p) {
    var g = p.ctx, h = 46;
    g.clearRect(0, 0, width, h);
    g.fillStyle = "#333";
    g.font = "10px sans-serif";
    g.fillText(p.name + " (max " + d3.format(".3s")(p.max) + ")", 2, 12);
    g.strokeStyle = "#ddd";
    g.strokeRect(LABEL_W, 0.5, plotW, h - 1);
    p.series.forEach(function (c, i) {
      g.strokeStyle = d3.hsl((i * 47) % 360, 0.6, 0.45).toString();
      g.beginPath();
      c.points.forEach(function (pt, j) {
        var px = LABEL_W + x(pt[0]), py = h - 2 - (h - 6) * pt[1] / p.max;
        if (j === 0) g.moveTo(px, py); else g.lineTo(px, py);
      });
      g.stroke();
    });
  }

  // The watchdog's report and a wait-for graph: warps (outlined on the timeline) pointing at
  // what they wait for (the loops, locks and barriers the report names).
  function drawWatchdog() {
    var w = app.append("div").attr("id", "watchdog");
    w.append("h2").text("The watchdog stopped the kernel: " + model.watchdog.reason);
    var nodes = [], links = [], byName = {}, current = null;
    function node(name, kind) {
      if (!(name in byName)) { byName[name] = nodes.length; nodes.push({name: name, kind: kind}); }
      return byName[name];
    }
    report.split("\n").forEach(function (line) {
      var t = line.trim();
      var res = /^(spin loop at \S+|lock\b[^:]*|barrier\b[^:]*|.*lock bit[^:]*)/.exec(t);
      var wm = WARPS.exec(t);
      if (wm) {
        var b = current !== null ? current : node(wm[2] || "waiting", "resource");
        wm[1].trim().split(/ +/).forEach(function (w) {
          links.push({source: node("warp " + w, "warp"), target: b});
        });
      } else if (res && !/^\s/.test(line.slice(2))) {
        current = node(res[1].slice(0, 60), "resource");
      }
    });
    state.graph = {nodes: nodes.length, edges: links.length,
                   warps: nodes.filter(function (n) { return n.kind === "warp"; }).length};
    var gw = 520, gh = Math.min(320, 80 + nodes.length * 18);
    var svg = w.append("svg").attr("id", "waitfor").attr("width", gw).attr("height", gh);
    svg.append("defs").append("marker").attr("id", "arrow").attr("viewBox", "0 -4 8 8")
        .attr("refX", 14).attr("markerWidth", 6).attr("markerHeight", 6).attr("orient", "auto")
        .append("path").attr("d", "M0,-4L8,0L0,4");
    var force = d3.layout.force().nodes(nodes).links(links).size([gw, gh])
        .charge(-260).linkDistance(90);
    var link = svg.selectAll("line").data(links).enter().append("line")
        .attr("stroke", "#777").attr("marker-end", "url(#arrow)");
    var g = svg.selectAll("g.node").data(nodes).enter().append("g").attr("class", "node");
    g.append("circle").attr("r", function (n) { return n.kind === "warp" ? 6 : 9; })
        .attr("fill", function (n) { return n.kind === "warp" ? "#e53935" : "#1e88e5"; });
    g.append("text").attr("dx", 10).attr("dy", 3).text(function (n) { return n.name; });
    force.on("tick", function () {
      link.attr("x1", function (l) { return l.source.x; }).attr("y1", function (l) { return l.source.y; })
          .attr("x2", function (l) { return l.target.x; }).attr("y2", function (l) { return l.target.y; });
      g.attr("transform", function (n) { return "translate(" + n.x + "," + n.y + ")"; });
    });
    force.start();
    for (var i = 0; i < 200; i++) force.tick();  // settle now: the page opens laid out
    force.stop();
    w.append("pre").text(report);
  }

  function publish() {
    var el = document.getElementById("view-state");
    if (!el) {
      el = document.createElement("pre");
      el.id = "view-state";
      el.style.display = "none";
      document.body.appendChild(el);
    }
    el.textContent = JSON.stringify(state);
    window.simtsyncView = state;
  }

  draw();
  state.ready = true;
  publish();
})();
