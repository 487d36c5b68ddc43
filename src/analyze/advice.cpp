#include "analyze/advice.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::analyze {

std::string_view to_string(TuningKind kind) {
  switch (kind) {
    case TuningKind::event: return "event";
    case TuningKind::grain: return "grain";
    case TuningKind::parallelism: return "parallelism";
    case TuningKind::hardware: return "hardware";
    case TuningKind::none: break;
  }
  return "none";
}

namespace {

using model::format_seconds;

void path_bound(Advice& a, const CriticalPath& path, const Shares& shares, const Thresholds& th) {
  a.regime = "critical path";
  if (path.length > 0 && shares.longest_grain > th.dominant_grain * path.length) {
    a.kind = TuningKind::parallelism;
    a.reason = fmt::format("one compute grain (rank {}, {}) is {:.0f}% of the critical path: split it across ranks",
                           shares.longest_grain_rank, format_seconds(shares.longest_grain),
                           100 * shares.longest_grain / path.length);
    return;
  }
  a.kind = TuningKind::grain;
  a.reason = "the run follows its critical path: shorten the grains and messages on it";
}

void load_bound(Advice& a, const CriticalLoad& load, const Thresholds& th) {
  a.regime = "critical load";
  if (load.on_link) {
    a.kind = TuningKind::hardware;
    a.reason = fmt::format("{} carries {}: a faster link, or a mapping that spreads its messages", load.resource,
                           format_seconds(load.load));
  } else if (load.even_spread < th.even_spread * load.load) {
    a.kind = TuningKind::parallelism;
    a.reason = fmt::format("{} is busy {} against {} if the work were spread evenly: spread its work",
                           load.resource, format_seconds(load.load), format_seconds(load.even_spread));
  } else {
    a.kind = TuningKind::hardware;
    a.reason = "every rank is about as busy as the busiest: only more or faster processors help";
  }
}

}  // namespace

Advice advise(const CriticalPath& path, const CriticalLoad& load, const Shares& shares, const Thresholds& th) {
  Advice a;
  const double run = path.run_time;
  a.limit = std::max(path.length, load.load);
  a.gap = run - a.limit;
  a.contention = run > 0 ? (run - path.length) / run : 0;
  a.utilisation = run > 0 ? load.load / run : 0;
  if (a.contention < th.low_contention) path_bound(a, path, shares, th);
  else if (a.utilisation >= th.high_utilisation) load_bound(a, load, th);
  else {
    a.regime = "either";
    a.kind = TuningKind::event;
    a.reason = fmt::format("the run is {} above its critical path while the busiest resource is busy {:.0f}% of it: "
                           "reorder, reprioritise or remap (high potential, high risk)",
                           format_seconds(run - path.length), 100 * a.utilisation);
  }
  return a;
}

}  // namespace augur::analyze
