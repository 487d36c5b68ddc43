#pragma once
// The HTML report: augur view's timeline of the run (report/timeline.hpp) with the critical path
// drawn over it, the analysis' headline above, and utilisation over time below it, per rank and,
// with a topology, per link (report/utilisation_strips.hpp). One self-contained file, like the
// timeline.
#include <ostream>
#include <string>

#include "analyze/analysis.hpp"

namespace augur::analyze {

struct HtmlOptions {
  std::string title = "augur analyze";
  int bins = 200;        // time intervals of the utilisation strips
  std::size_t links = 16;  // the busiest links shown
};

void write_analysis_html(const trace::Trace& trace, const Analysis& analysis, const MessageCosts& costs,
                         const HtmlOptions& options, std::ostream& out);

// The script and styles added to the timeline page, with a placeholder for the analysis' data.
extern const char* const kAnalysisOverlay;
inline constexpr const char* kAnalysisDataPlaceholder = "/*AUGUR_ANALYSIS_DATA*/";

}  // namespace augur::analyze
