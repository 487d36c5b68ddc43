#include "analyze/html.hpp"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyze/critical_load.hpp"
#include "analyze/report.hpp"
#include "report/timeline.hpp"
#include "report/utilisation_strips.hpp"
#include "trace/utilisation.hpp"

namespace augur::analyze {
namespace {

// Each link direction's load per interval: a message's bytes over the link's bandwidth, spread
// over the message's flight (the trace does not say when its flow ran).
std::vector<trace::LinkUtilisation> link_loads(const trace::Trace& t, const MessageCosts& costs, int nbins,
                                                double width) {
  std::vector<trace::LinkUtilisation> links;
  if (!costs.router()) return links;
  const auto deps = find_dependencies(t);
  const auto* router = costs.router();
  const auto& machine = *costs.machine();
  for (std::uint32_t c = 0; c < router->channels(); ++c)
    links.push_back({sim::channel_name(machine, c), router->capacity(c), 0, 0, std::vector<double>(nbins, 0)});
  const double origin = t.start_time();
  for (const auto& m : deps.messages) {
    const int from = machine.node_of(m.src), to = machine.node_of(m.dst);
    for (auto c : router->route(from, to).channels) {
      auto& l = links[c];
      l.bytes += m.bytes;
      l.busy_seconds += m.bytes / l.bandwidth;
      trace::spread(l.busy, width, m.send_time - origin, m.recv_end - origin, m.bytes / l.bandwidth);
    }
  }
  for (auto& l : links) l.busy = trace::fractions(std::move(l.busy), width);
  return links;
}

nlohmann::json path_data(const trace::Trace& t, const CriticalPath& p) {
  nlohmann::json on_ranks = nlohmann::json::array(), messages = nlohmann::json::array();
  const double origin = t.start_time();
  for (const auto& s : p.segments) {
    if (s.kind == SegmentKind::message || s.kind == SegmentKind::collective)
      messages.push_back({s.peer, s.begin - origin, s.rank, s.end - origin});
    else if (s.length > 0) on_ranks.push_back({s.rank, s.begin - origin, s.end - origin});
  }
  return {{"states", on_ranks}, {"messages", messages}};
}

}  // namespace

void write_analysis_html(const trace::Trace& trace, const Analysis& analysis, const MessageCosts& costs,
                         const HtmlOptions& options, std::ostream& out) {
  std::ostringstream page;
  report::write_timeline_html({&trace}, {options.title, {}}, page);
  auto used = trace::utilisation(trace, options.bins);
  used.links = link_loads(trace, costs, options.bins, used.bin_seconds);
  const nlohmann::json data = {{"summary", format_analysis(analysis, trace, 5)}, {"path", path_data(trace, analysis.path)}};
  std::string overlay = kAnalysisOverlay;
  overlay.replace(overlay.find(kAnalysisDataPlaceholder), std::string_view(kAnalysisDataPlaceholder).size(),
                  report::script_safe(data.dump()));
  std::string html = page.str();
  html.insert(html.rfind("</body>"), overlay);
  report::add_utilisation_strips(html, used, options.links);
  out << html;
}

}  // namespace augur::analyze
