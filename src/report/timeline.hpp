#pragma once
// The timing diagram: one self-contained HTML file (no network, no external scripts) drawing a
// row per rank on a canvas, states colour-coded, message arrows, two measuring bars, zoom and
// pan. With two traces (measured, then predicted) each rank gets a pair of rows and every
// predicted state is shaded by how far its duration is off the measured one.
#include <ostream>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace augur::report {

struct TimelineOptions {
  std::string title = "augur timeline";
  std::vector<std::string> trace_names;  // shown on the rows, one per trace
};

// Writes the page; one or two traces.
void write_timeline_html(const std::vector<const trace::Trace*>& traces, const TimelineOptions& options,
                         std::ostream& out);

// The page around the data: HTML, CSS and the drawing script, with a placeholder for the data.
extern const char* const kTimelinePageTemplate;
inline constexpr const char* kTimelineDataPlaceholder = "/*AUGUR_TIMELINE_DATA*/";

}  // namespace augur::report
