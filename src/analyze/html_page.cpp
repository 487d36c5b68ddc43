// The part of the analysis page added to augur view's timeline: the headline above the canvas,
// the critical path drawn over the run (a bar on top of each state on it, thick lines for its
// messages and collectives), and utilisation strips below. Plain canvas drawing, offline.
#include "analyze/html.hpp"

namespace augur::analyze {

const char* const kAnalysisOverlay = R"PAGE(
<style>
  #analysis-summary { margin: 4px 8px; font: 12px monospace; white-space: pre-wrap; }
  #util-title { margin: 8px 8px 2px; font-weight: bold; }
  #util { display: block; }
  .path-key { display: inline-block; width: 10px; height: 10px; background: #ff00b4; vertical-align: middle; }
</style>
<script type="application/json" id="analysis-data">/*AUGUR_ANALYSIS_DATA*/</script>
<script>
"use strict";
{
  const A = JSON.parse(document.getElementById("analysis-data").textContent);
  const PATH = "rgba(255,0,180,0.95)";
  const summary = document.createElement("pre");
  summary.id = "analysis-summary";
  summary.textContent = A.summary;
  document.body.insertBefore(summary, canvas);
  document.getElementById("legend").insertAdjacentHTML("beforeend", '<span><i class="path-key"></i>critical path</span>');

  // The path over the states: a bar on top of each piece, lines for what crossed ranks.
  const drawPath = () => {
    ctx.save();
    ctx.fillStyle = PATH;
    const h = Math.max(2, Math.floor(rowHeight / 4));
    for (const [row, t0, t1] of A.path.states) {
      if (t1 < view.t0 || t0 > view.t1) continue;
      const x0 = Math.max(GUTTER, xOf(t0)), x1 = Math.min(canvas.width, xOf(t1));
      ctx.fillRect(x0, yOf(row), Math.max(1, x1 - x0), h);
    }
    ctx.strokeStyle = PATH;
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (const [src, t0, dst, t1] of A.path.messages) {
      if (t1 < view.t0 || t0 > view.t1) continue;
      ctx.moveTo(Math.max(GUTTER, xOf(t0)), yOf(src) + rowHeight / 2);
      ctx.lineTo(Math.max(GUTTER, xOf(t1)), yOf(dst) + rowHeight / 2);
    }
    ctx.stroke();
    ctx.restore();
    document.body.dataset.pathPieces = A.path.states.length + A.path.messages.length;
  };
  // The timeline fills the window; leave room for the headline and the strips below it.
  const layoutTimeline = layout;
  layout = () => {
    layoutTimeline();
    const h = Math.max(120, Math.min(canvas.height - summary.offsetHeight, rows.length * 24 + RULER + 8));
    canvas.height = h;
    rowHeight = Math.max(2, Math.min(24, Math.floor((h - RULER - 4) / Math.max(1, rows.length))));
  };
  const drawTimeline = draw;
  draw = () => { drawTimeline(); drawPath(); };

  // Utilisation: a strip per rank (compute) and per busiest link, one cell per interval,
  // darker when busier.
  const strips = A.ranks.map((v, r) => ({name: `p${r}`, values: v}))
    .concat(A.links.map(l => ({name: l.name, values: l.values})));
  const title = document.createElement("div");
  title.id = "util-title";
  title.textContent = `Utilisation over time (${A.bins} intervals of ${seconds(A.binSeconds)}): compute per rank` +
    (A.links.length ? `, busiest ${A.links.length} links` : "");
  const util = document.createElement("canvas");
  util.id = "util";
  document.body.append(title, util);
  const drawUtil = () => {
    const rowH = Math.max(2, Math.min(14, Math.floor(600 / Math.max(1, strips.length))));
    util.width = document.body.clientWidth;
    util.height = strips.length * rowH + 4;
    const u = util.getContext("2d");
    u.fillStyle = "#fff";
    u.fillRect(0, 0, util.width, util.height);
    const w = (util.width - GUTTER) / A.bins;
    u.font = `${Math.min(11, rowH)}px sans-serif`;
    strips.forEach((s, i) => {
      s.values.forEach((f, b) => {
        const shade = Math.round(255 * (1 - f));
        u.fillStyle = `rgb(${shade},${shade},255)`;
        u.fillRect(GUTTER + b * w, i * rowH, Math.ceil(w), rowH - 1);
      });
      if (rowH >= 8) { u.fillStyle = "#222"; u.fillText(s.name, 4, i * rowH + rowH - 2); }
    });
  };
  window.addEventListener("resize", drawUtil);
  layout();
  draw();
  drawUtil();
}
</script>
)PAGE";

}  // namespace augur::analyze
