#pragma once
// Laws through a table's own points: the published output of a benchmark suite (one time a size,
// no repetitions to weigh) is the machine's truth at the sizes it printed, and a fitted law with
// a few regimes misses some of them by 10-50% (IMB's PingPong at 32 B, its Allreduce at 4 KiB).
// An operation printed at one process count gets one regime between each two printed sizes, the
// line through both, so `augur calc` at a printed size gives the printed time and between two
// sizes their linear interpolation; below the smallest its time, and the last line carries on
// past the largest (docs/import.md). Printed at two counts over the same sizes (IMB's -npmin), each
// regime is also linear in p between the two counts, so both counts' times come back.
#include <vector>

#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

// Replaces, in `model`, the regimes of every operation whose `points` lie at one process count, or
// two over the same sizes, with the lines through them (one size: its time, or the line in p). Times at a size
// printed twice (two files) are averaged. Operations at more process counts or at counts of
// different sizes keep their fitted laws. A model of nodes gets each level's lines through that
// level's points (the on-node level, one rank a node, each placement).
void lay_laws_through_points(model::Model& model, const std::vector<Measurement>& points);

}  // namespace augur::fit
