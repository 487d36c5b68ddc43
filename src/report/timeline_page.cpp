// The timing diagram's page. Plain canvas drawing with no library: the page must work offline
// from a single file, and drawing rectangles needs nothing more than the canvas API.
#include "report/timeline.hpp"

namespace augur::report {

const char* const kTimelinePageTemplate = R"PAGE(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>augur timeline</title>
<style>
  html, body { margin: 0; height: 100%; font: 12px sans-serif; background: #fff; color: #222; }
  #bar { padding: 4px 8px; border-bottom: 1px solid #ccc; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  #bar b { font-size: 14px; }
  #legend span { display: inline-block; margin-right: 10px; }
  #legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; vertical-align: middle; }
  #view { display: block; width: 100%; cursor: crosshair; }
  #help { color: #666; }
</style>
</head>
<body>
<div id="bar"><b id="title"></b><span id="measure">bars: click = bar 1, shift-click = bar 2</span>
<span id="legend"></span><span id="help">wheel: zoom, drag: pan, 0: reset, a: arrows on/off</span></div>
<canvas id="view"></canvas>
<script type="application/json" id="trace-data">/*AUGUR_TIMELINE_DATA*/</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("trace-data").textContent);
const rows = data.rows.map(r => ({trace: r.trace, rank: r.rank, begin: Float64Array.from(r.begin),
  end: Float64Array.from(r.end), label: Uint16Array.from(r.label), error: Float32Array.from(r.error)}));
const arrows = Float64Array.from(data.arrows);
const labels = data.meta.labels;
const GUTTER = 110, RULER = 22, BACKGROUND = "#ffffff";
const fixed = {COMPUTE: "#4caf50", WAIT: "#e53935", IDLE: "#d9d9d9"};
const palette = ["#1e88e5", "#fb8c00", "#8e24aa", "#00acc1", "#fdd835", "#6d4c41", "#3949ab",
                 "#c0ca33", "#d81b60", "#00897b", "#5e35b1", "#f4511e"];
let next = 0;
const colours = labels.map(l => fixed[l] || palette[next++ % palette.length]);
const canvas = document.getElementById("view");
const ctx = canvas.getContext("2d");
let view = {t0: 0, t1: data.meta.span || 1};
let bars = [null, null];
let showArrows = true;
let rowHeight = 20;

document.getElementById("title").textContent = data.meta.title;
document.getElementById("legend").innerHTML = labels.map((l, i) =>
  `<span><i style="background:${colours[i]}"></i>${l.replace(/[<&]/g, "")}</span>`).join("");

function layout() {
  const h = Math.max(200, window.innerHeight - document.getElementById("bar").offsetHeight - 4);
  canvas.width = window.innerWidth;
  canvas.height = h;
  rowHeight = Math.max(2, Math.min(24, Math.floor((h - RULER - 4) / Math.max(1, rows.length))));
}
const plotWidth = () => canvas.width - GUTTER;
const xOf = t => GUTTER + (t - view.t0) / (view.t1 - view.t0) * plotWidth();
const tOf = x => view.t0 + (x - GUTTER) / plotWidth() * (view.t1 - view.t0);
const yOf = row => RULER + row * rowHeight;

// First state on a row ending at or after t (states are in time order on a rank).
function firstVisible(row, t) {
  let lo = 0, hi = row.end.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (row.end[mid] < t) lo = mid + 1; else hi = mid; }
  return lo;
}

// Shades the lower half of a predicted state by log2(predicted / measured): red when the
// prediction is too slow, blue when too fast, opaque at a factor of 16.
function veil(x, w, e, y, h) {
  if (e === 0) return;
  const alpha = Math.min(1, Math.abs(e) / 4);
  ctx.fillStyle = e > 0 ? `rgba(200,0,0,${alpha})` : `rgba(0,0,200,${alpha})`;
  ctx.fillRect(x, y + h / 2, w, h / 2);
}

// Draws a row; states narrower than a pixel are pooled per pixel column and the column takes
// the colour of the label holding most of its time, so a million states cost one pass.
function drawRow(row, index) {
  const y = yOf(index), h = Math.max(1, rowHeight - 2);
  const share = new Float64Array(labels.length);
  let column = -1, drawn = 0, errorSum = 0, errorTime = 0;
  const flush = () => {
    if (column < 0) return;
    let best = 0;
    for (let l = 1; l < share.length; l++) if (share[l] > share[best]) best = l;
    ctx.fillStyle = colours[best];
    ctx.fillRect(column, y, 1, h);
    veil(column, 1, errorTime > 0 ? errorSum / errorTime : 0, y, h);
    share.fill(0);
    errorSum = errorTime = 0;
    drawn++;
  };
  for (let i = firstVisible(row, view.t0); i < row.begin.length && row.begin[i] <= view.t1; i++) {
    const x0 = Math.max(GUTTER, xOf(row.begin[i])), x1 = Math.min(canvas.width, xOf(row.end[i]));
    if (x1 - x0 >= 1) {
      flush(); column = -1;
      ctx.fillStyle = colours[row.label[i]];
      ctx.fillRect(x0, y, x1 - x0, h);
      veil(x0, x1 - x0, row.error.length ? row.error[i] : 0, y, h);
      drawn++;
    } else {
      const c = Math.floor(x0);
      if (c !== column) { flush(); column = c; }
      const d = row.end[i] - row.begin[i] + 1e-300;
      share[row.label[i]] += d;
      if (row.error.length) { errorSum += row.error[i] * d; errorTime += d; }
    }
  }
  flush();
  return drawn;
}

function drawArrows() {
  const count = arrows.length / 4;
  const visible = [];
  for (let m = 0; m < count; m++)
    if (arrows[4 * m + 3] >= view.t0 && arrows[4 * m + 1] <= view.t1) visible.push(m);
  // More arrows than a few per pixel column hide the states: ask for a closer look instead.
  const hidden = visible.length > plotWidth() / 4;
  document.getElementById("help").textContent = hidden ?
    `${visible.length} message arrows hidden: zoom in to see them` : "wheel: zoom, drag: pan, 0: reset, a: arrows on/off";
  if (hidden) return;
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const m of visible) {
    const ts = arrows[4 * m + 1], tr = arrows[4 * m + 3];
    const x0 = xOf(ts), y0 = yOf(arrows[4 * m]) + rowHeight / 2;
    const x1 = xOf(tr), y1 = yOf(arrows[4 * m + 2]) + rowHeight / 2;
    ctx.moveTo(x0, y0); ctx.lineTo(x1, y1);
    const a = Math.atan2(y1 - y0, x1 - x0);
    ctx.moveTo(x1, y1); ctx.lineTo(x1 - 6 * Math.cos(a - 0.4), y1 - 6 * Math.sin(a - 0.4));
    ctx.moveTo(x1, y1); ctx.lineTo(x1 - 6 * Math.cos(a + 0.4), y1 - 6 * Math.sin(a + 0.4));
  }
  ctx.stroke();
}

function seconds(t) {
  const a = Math.abs(t);
  if (a >= 1 || a === 0) return t.toPrecision(4) + " s";
  if (a >= 1e-3) return (t * 1e3).toPrecision(4) + " ms";
  if (a >= 1e-6) return (t * 1e6).toPrecision(4) + " µs";
  return (t * 1e9).toPrecision(4) + " ns";
}

function drawRuler() {
  ctx.fillStyle = "#333";
  ctx.font = "11px sans-serif";
  const span = view.t1 - view.t0;
  const tick = Math.pow(10, Math.floor(Math.log10(span / 8)));
  const stepT = span / tick > 40 ? tick * 5 : span / tick > 16 ? tick * 2 : tick;
  for (let t = Math.ceil(view.t0 / stepT) * stepT; t <= view.t1; t += stepT) {
    const x = xOf(t);
    ctx.fillRect(x, RULER - 6, 1, 6);
    ctx.fillText(seconds(t), x + 2, RULER - 8);
  }
}

function drawBars() {
  const names = ["1", "2"];
  bars.forEach((t, i) => {
    if (t === null || t < view.t0 || t > view.t1) return;
    ctx.fillStyle = i === 0 ? "#000" : "#d500f9";
    ctx.fillRect(xOf(t), RULER, 2, canvas.height - RULER);
    ctx.fillText(names[i], xOf(t) + 4, RULER + 10);
  });
  const m = document.getElementById("measure");
  if (bars[0] !== null && bars[1] !== null)
    m.textContent = `bar 1 ${seconds(bars[0])}, bar 2 ${seconds(bars[1])}, difference ${seconds(Math.abs(bars[1] - bars[0]))}`;
  else if (bars[0] !== null) m.textContent = `bar 1 ${seconds(bars[0])} (shift-click for bar 2)`;
}

function draw() {
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  let drawn = 0;
  ctx.font = `${Math.min(12, rowHeight)}px sans-serif`;
  rows.forEach((row, i) => {
    drawn += drawRow(row, i);
    if (rowHeight >= 8) {
      ctx.fillStyle = "#222";
      const name = data.meta.traces > 1 ? `p${row.rank} ${data.meta.traceNames[row.trace]}` : `p${row.rank}`;
      ctx.fillText(name, 4, yOf(i) + rowHeight - 6);
    }
  });
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, GUTTER - 1, RULER);
  if (showArrows) drawArrows();
  drawRuler();
  drawBars();
  document.body.dataset.rows = rows.length;
  document.body.dataset.drawn = drawn;
}

// Fraction of the plot area that is not background: the browser test's check that something
// was actually painted.
function paintedFraction() {
  const w = plotWidth(), h = Math.min(canvas.height - RULER, rows.length * rowHeight);
  if (w <= 0 || h <= 0) return 0;
  const pixels = ctx.getImageData(GUTTER, RULER, w, h).data;
  let painted = 0;
  for (let p = 0; p < pixels.length; p += 4) if (pixels[p] !== 255 || pixels[p + 1] !== 255 || pixels[p + 2] !== 255) painted++;
  return painted / (pixels.length / 4);
}

function zoom(factor, x) {
  const t = tOf(x), span = (view.t1 - view.t0) * factor;
  const min = (data.meta.span || 1) * 1e-9;
  if (span < min) return;
  view = {t0: t - (t - view.t0) * factor, t1: t + (view.t1 - t) * factor};
  draw();
}

canvas.addEventListener("wheel", e => { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, e.offsetX); }, {passive: false});
let drag = null;
canvas.addEventListener("mousedown", e => { drag = {x: e.offsetX, t0: view.t0, t1: view.t1, moved: false}; });
canvas.addEventListener("mousemove", e => {
  if (!drag) return;
  const dt = (e.offsetX - drag.x) / plotWidth() * (drag.t1 - drag.t0);
  if (Math.abs(e.offsetX - drag.x) > 2) drag.moved = true;
  view = {t0: drag.t0 - dt, t1: drag.t1 - dt};
  draw();
});
canvas.addEventListener("mouseup", e => {
  if (drag && !drag.moved && e.offsetX > GUTTER) { bars[e.shiftKey ? 1 : 0] = tOf(e.offsetX); draw(); }
  drag = null;
});
window.addEventListener("keydown", e => {
  if (e.key === "0") { view = {t0: 0, t1: data.meta.span || 1}; draw(); }
  if (e.key === "+" || e.key === "=") zoom(0.5, GUTTER + plotWidth() / 2);
  if (e.key === "-") zoom(2, GUTTER + plotWidth() / 2);
  if (e.key === "a") { showArrows = !showArrows; draw(); }
  const pan = (view.t1 - view.t0) * 0.2;
  if (e.key === "ArrowLeft") { view = {t0: view.t0 - pan, t1: view.t1 - pan}; draw(); }
  if (e.key === "ArrowRight") { view = {t0: view.t0 + pan, t1: view.t1 + pan}; draw(); }
});
window.addEventListener("resize", () => { layout(); draw(); });

layout();
const started = performance.now();
draw();
document.body.dataset.drawMs = (performance.now() - started).toFixed(1);
document.body.dataset.painted = paintedFraction().toFixed(4);
</script>
</body>
</html>
)PAGE";

}  // namespace augur::report
