#include "trace/utilisation.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace augur::trace {

void spread(std::vector<double>& bins, double width, double begin, double end, double seconds) {
  if (!(end > begin) || width <= 0 || bins.empty()) return;
  const double rate = seconds / (end - begin);
  const auto last = static_cast<std::ptrdiff_t>(bins.size()) - 1;
  auto first = std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(begin / width), 0, last);
  for (auto b = first; b <= last && b * width < end; ++b) {
    const double lo = std::max(begin, b * width), hi = std::min(end, (b + 1) * width);
    if (hi > lo) bins[b] += rate * (hi - lo);
  }
}

std::vector<double> fractions(std::vector<double> bins, double width) {
  for (auto& b : bins) b = std::min(1.0, b / width);
  return bins;
}

Utilisation utilisation(const Trace& trace, int bins) {
  Utilisation u;
  u.start = trace.start_time();
  u.bin_seconds = std::max(trace.end_time() - u.start, 1e-300) / bins;
  for (const auto& rank : trace.ranks) {
    std::vector<double> compute(bins, 0), mpi(bins, 0);
    for (const auto& s : rank.states) {
      if (s.kind == StateKind::idle) continue;
      auto& to = s.kind == StateKind::compute ? compute : mpi;
      spread(to, u.bin_seconds, s.begin - u.start, s.end - u.start, s.end - s.begin);
    }
    u.compute.push_back(fractions(std::move(compute), u.bin_seconds));
    u.mpi.push_back(fractions(std::move(mpi), u.bin_seconds));
  }
  return u;
}

double busy_share(const LinkUtilisation& link, double run_seconds) {
  return run_seconds > 0 ? link.busy_seconds / run_seconds : 0;
}

double bandwidth_share(const LinkUtilisation& link, double run_seconds) {
  return run_seconds > 0 && link.bandwidth > 0 ? link.bytes / (link.bandwidth * run_seconds) : 0;
}

std::vector<std::size_t> busiest_links(const std::vector<LinkUtilisation>& links, std::size_t n) {
  std::vector<std::size_t> order(links.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (links[a].busy_seconds != links[b].busy_seconds) return links[a].busy_seconds > links[b].busy_seconds;
    return links[a].bytes > links[b].bytes;
  });
  order.resize(std::min(n, order.size()));
  return order;
}

nlohmann::json utilisation_json(const Utilisation& u) {
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t r = 0; r < u.compute.size(); ++r)
    ranks.push_back({{"rank", r}, {"compute", u.compute[r]}, {"mpi", u.mpi[r]}});
  nlohmann::json out = {{"bins", u.bins()}, {"bin_seconds", u.bin_seconds}, {"start", u.start}, {"ranks", std::move(ranks)}};
  if (u.links.empty()) return out;
  const double run = u.run_seconds();
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : u.links)
    links.push_back({{"name", l.name},
                     {"bandwidth", l.bandwidth},
                     {"bytes", l.bytes},
                     {"busy_seconds", l.busy_seconds},
                     {"busy_share", busy_share(l, run)},
                     {"bandwidth_share", bandwidth_share(l, run)},
                     {"busy", l.busy}});
  out["run_seconds"] = run;
  const auto& busiest = u.links[busiest_links(u.links, 1).front()];
  out["busiest_link"] = busiest.busy_seconds > 0 ? nlohmann::json(busiest.name) : nlohmann::json();
  out["links"] = std::move(links);
  return out;
}

std::string utilisation_csv(const Utilisation& u) {
  const bool links = !u.links.empty();
  std::string out = links ? "rank,bin,begin,end,compute,mpi,link,busy\n" : "rank,bin,begin,end,compute,mpi\n";
  auto interval = [&](std::size_t b) {
    return fmt::format("{},{:.9g},{:.9g}", b, u.start + double(b) * u.bin_seconds, u.start + double(b + 1) * u.bin_seconds);
  };
  for (std::size_t r = 0; r < u.compute.size(); ++r)
    for (std::size_t b = 0; b < u.compute[r].size(); ++b)
      out += fmt::format("{},{},{:.6g},{:.6g}{}\n", r, interval(b), u.compute[r][b], u.mpi[r][b], links ? ",," : "");
  for (const auto& l : u.links)
    for (std::size_t b = 0; b < l.busy.size(); ++b) out += fmt::format(",{},,,{},{:.6g}\n", interval(b), l.name, l.busy[b]);
  return out;
}

namespace {

char bin_char(double compute, double mpi) {
  if (compute + mpi < 0.05) return '.';
  const bool mostly_compute = compute >= mpi;
  if (compute + mpi < 0.5) return mostly_compute ? 'c' : 'm';
  return mostly_compute ? 'C' : 'M';
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / double(v.size());
}

}  // namespace

std::string utilisation_text(const Utilisation& u, int max_ranks) {
  std::string out;
  const auto shown = std::min<std::size_t>(u.compute.size(), static_cast<std::size_t>(std::max(0, max_ranks)));
  for (std::size_t r = 0; r < shown; ++r) {
    std::string strip;
    for (std::size_t b = 0; b < u.compute[r].size(); ++b) strip += bin_char(u.compute[r][b], u.mpi[r][b]);
    out += fmt::format("  rank {:>4}  compute {:5.1f}%  MPI {:5.1f}%  |{}|\n", r, 100 * mean(u.compute[r]),
                       100 * mean(u.mpi[r]), strip);
  }
  if (shown < u.compute.size()) out += fmt::format("  ({} more ranks in --utilisation's file)\n", u.compute.size() - shown);
  return out;
}

}  // namespace augur::trace
