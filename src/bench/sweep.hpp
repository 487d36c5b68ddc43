#pragma once
// Running the sweep. World rank 0 conducts: it decides the next point (skipping points an
// interrupted run already finished, keeping to the time budget, adding sizes where curves bend),
// tells every rank, and writes each result as soon as it is known. The other ranks follow.
#include <map>
#include <optional>
#include <vector>

#include "bench/buffers.hpp"
#include "bench/group.hpp"
#include "bench/measure.hpp"
#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "bench/settings.hpp"
#include "fit/raw.hpp"

namespace augur::bench {

class Sweep {
 public:
  // `here`: the nodes the run found; each group size is measured at its placements on them.
  Sweep(const SweepSettings& settings, const std::vector<int>& group_sizes, const NodeMap& here);
  ~Sweep();
  Sweep(const Sweep&) = delete;
  Sweep& operator=(const Sweep&) = delete;

  // Rank 0: measures every point of `plan` that `earlier` holds no record of from this pass,
  // writing each to `out`; in the refinement pass (plan.hpp) it then adds sizes where curves bend.
  void conduct(const std::vector<Point>& plan, const fit::RawSet& earlier, fit::RawWriter& out, Progress& progress);
  // Every other rank: takes part until rank 0 says the sweep is over.
  void follow();

 private:
  struct Command {
    int operation = -1;  // -1: the sweep is over
    int p = 0;
    std::uint64_t bytes = 0;
    Placement placement{};
    double seconds = 0;  // the point's time limit
    bool trial = false;  // only try whether the library runs the operation (try_point)
  };

  // Collective over MPI_COMM_WORLD; the result is set on rank 0 when a point was measured.
  std::optional<PointResult> execute(Command command);
  // A trial's part of execute: on rank 0 a result that holds only `not_measurable`.
  std::optional<PointResult> attempt(const Command& command);

  SweepSettings settings_;
  std::map<GroupKey, Group> groups_;
  Buffers buffers_;
  bool over_ = false;
};

}  // namespace augur::bench
