#pragma once
// Which events of two runs of one program happened in another order: the sign of an anomaly,
// where a shorter grain lets a message overtake another at a wildcard receive or take a shared
// link first. Events are the sends and the receives' completions, known by their rank and their
// position among that rank's sends or receives (the same in both runs: programs are deterministic).
#include <cstddef>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace augur::analyze {

// Up to `limit` sentences such as "rank 2's send #0 (to rank 0) now comes before rank 0's receive
// #0 (from rank 1) completes; it came after", then the receives that matched another source.
// Whether any rank's receives, in order, matched another source or tag, or were fewer or more.
bool matching_changed(const trace::Trace& before, const trace::Trace& after);

std::vector<std::string> order_changes(const trace::Trace& before, const trace::Trace& after, std::size_t limit = 8);

}  // namespace augur::analyze
