// The part of the analysis page added to augur view's timeline: the headline above the canvas
// and the critical path drawn over the run (a bar on top of each state on it, thick lines for
// its messages and collectives); report/utilisation_strips.hpp adds the strips below. Plain
// canvas drawing, offline.
#include "analyze/html.hpp"

namespace augur::analyze {

const char* const kAnalysisOverlay = R"PAGE(
<style>
  #analysis-summary { margin: 4px 8px; font: 12px monospace; white-space: pre-wrap; }
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
  const drawTimeline = draw;
  draw = () => { drawTimeline(); drawPath(); };
  draw();
}
</script>
)PAGE";

}  // namespace augur::analyze
