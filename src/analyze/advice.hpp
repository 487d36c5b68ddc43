#pragma once
// The optimistic limit and what the gap to it points to, by the seed's decision table:
//   little contention (the run is close to its critical path)  → shorten the critical path:
//       grain tuning, or parallelism when one grain dominates it;
//   contention, and the busiest resource is busy most of the run → the critical load:
//       hardware for a link or when the work is already spread evenly, else parallelism
//       (spread the busiest rank's work);
//   contention with low utilisation → event tuning (mapping, priorities, order of messages,
//       buffering): high potential, high risk.
// The limit is optimistic: it can prove a target out of reach, never that it will be met.
#include <string>

#include "analyze/critical_load.hpp"
#include "analyze/critical_path.hpp"
#include "analyze/shares.hpp"

namespace augur::analyze {

// Where the decision table draws its lines, as fractions of the run time.
struct Thresholds {
  double low_contention = 0.10;    // run − critical path below this: little contention
  double high_utilisation = 0.70;  // critical load above this: the resource is saturated
  double dominant_grain = 0.50;    // one grain above this share of the path: split it
  double even_spread = 0.80;       // even spread above this share of the busiest load: spread already
};

enum class TuningKind { event, grain, parallelism, hardware, none };
std::string_view to_string(TuningKind kind);

struct Advice {
  double limit = 0;         // max(critical path, critical load)
  double gap = 0;           // run time − limit: what no tuning of this kind can take away
  double contention = 0;    // (run − critical path) / run
  double utilisation = 0;   // critical load / run
  std::string regime;       // "critical path", "critical load", "either"
  TuningKind kind = TuningKind::none;
  std::string reason;       // one sentence for the report
};

Advice advise(const CriticalPath& path, const CriticalLoad& load, const Shares& shares, const Thresholds& th = {});

}  // namespace augur::analyze
