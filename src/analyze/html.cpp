#include "analyze/html.hpp"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analyze/critical_load.hpp"
#include "analyze/report.hpp"
#include "report/timeline.hpp"
#include "trace/utilisation.hpp"

namespace augur::analyze {
namespace {

using trace::fractions;
using trace::spread;

// Compute time per interval of each rank, as a fraction of the interval.
nlohmann::json rank_utilisation(const trace::Trace& t, int nbins) { return trace::utilisation(t, nbins).compute; }

// Each link direction's busy time per interval: a message's bytes over the link's bandwidth,
// spread over the message's flight. The busiest `limit` links.
nlohmann::json link_utilisation(const trace::Trace& t, const MessageCosts& costs, int nbins, double width,
                                std::size_t limit) {
  nlohmann::json out = nlohmann::json::array();
  if (!costs.router()) return out;
  const auto deps = find_dependencies(t);
  const auto* router = costs.router();
  std::vector<std::vector<double>> bins(router->channels(), std::vector<double>(nbins, 0));
  const double origin = t.start_time();
  for (const auto& m : deps.messages) {
    const int from = costs.machine()->node_of(m.src), to = costs.machine()->node_of(m.dst);
    if (from == to) continue;
    for (auto c : router->route(from, to).channels)
      spread(bins[c], width, m.send_time - origin, m.recv_end - origin, m.bytes / router->capacity(c));
  }
  std::vector<std::pair<double, std::uint32_t>> order;
  for (std::uint32_t c = 0; c < bins.size(); ++c) {
    double total = 0;
    for (double b : bins[c]) total += b;
    if (total > 0) order.push_back({total, c});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (std::size_t k = 0; k < order.size() && k < limit; ++k) {
    out.push_back({{"name", channel_name(*costs.machine(), order[k].second)},
                   {"values", fractions(bins[order[k].second], width)}});
  }
  return out;
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
  const double span = std::max(trace.end_time() - trace.start_time(), 1e-300);
  const double width = span / options.bins;
  nlohmann::json data = {{"summary", format_analysis(analysis, trace, 5)},
                         {"path", path_data(trace, analysis.path)},
                         {"bins", options.bins},
                         {"binSeconds", width},
                         {"ranks", rank_utilisation(trace, options.bins)},
                         {"links", link_utilisation(trace, costs, options.bins, width, options.links)}};
  std::string text = data.dump();
  for (std::size_t p = 0; (p = text.find("</", p)) != std::string::npos; p += 3) text.replace(p, 2, "<\\/");
  std::string overlay = kAnalysisOverlay;
  overlay.replace(overlay.find(kAnalysisDataPlaceholder), std::string_view(kAnalysisDataPlaceholder).size(), text);
  std::string html = page.str();
  html.insert(html.rfind("</body>"), overlay);
  out << html;
}

}  // namespace augur::analyze
