// The strips' part of the page: their data, a canvas under the timeline and the script drawing
// them. The timeline is shrunk to its rows so the strips show without scrolling. Plain canvas
// drawing, offline.
#include "report/utilisation_strips.hpp"

namespace augur::report {

const char* const kUtilisationStrips = R"PAGE(
<style>
  #util-title { margin: 8px 8px 2px; font-weight: bold; }
  #util { display: block; }
</style>
<script type="application/json" id="utilisation-data">/*AUGUR_UTILISATION_DATA*/</script>
<script>
"use strict";
{
  const U = JSON.parse(document.getElementById("utilisation-data").textContent);
  // The timeline fills the window below what is above it; leave room for the strips.
  const layoutTimeline = layout;
  layout = () => {
    layoutTimeline();
    const h = Math.max(120, Math.min(window.innerHeight - canvas.offsetTop - 4, rows.length * 24 + RULER + 8));
    canvas.height = h;
    rowHeight = Math.max(2, Math.min(24, Math.floor((h - RULER - 4) / Math.max(1, rows.length))));
  };
  const strips = U.ranks.map((v, r) => ({name: `p${r}`, values: v}))
    .concat(U.links.map(l => ({name: l.name, values: l.values})));
  const title = document.createElement("div");
  title.id = "util-title";
  title.textContent = `Utilisation over time (${U.bins} intervals of ${seconds(U.binSeconds)}): compute per rank` +
    (U.links.length ? `, busy share of the busiest ${U.links.length} links` : "");
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
    const w = (util.width - GUTTER) / U.bins;
    u.font = `${Math.min(11, rowH)}px sans-serif`;
    strips.forEach((s, i) => {
      s.values.forEach((f, b) => {
        const shade = Math.round(255 * (1 - f));
        u.fillStyle = `rgb(${shade},${shade},255)`;
        u.fillRect(GUTTER + b * w, i * rowH, Math.ceil(w), rowH - 1);
      });
      if (rowH >= 8) { u.fillStyle = "#222"; u.fillText(s.name, 4, i * rowH + rowH - 2); }
    });
    document.body.dataset.strips = strips.length;
  };
  window.addEventListener("resize", drawUtil);
  layout();
  draw();
  drawUtil();
}
</script>
)PAGE";

}  // namespace augur::report
