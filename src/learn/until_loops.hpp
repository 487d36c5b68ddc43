#pragma once
// Loops whose count the run decided: a worker of a task farm asks a server for work and takes
// tasks until the server answers with another tag. Its receives (of any tag, from one rank) took
// tag a K times, each followed by the same calls, and then tag b once; K follows the run's
// timing, not the rank or p, so ranks that did the same work differ by it alone. Such a stretch
// is folded into one token before the rank's loops are found, and unfolded afterwards into a
// loop that ends on tag b (LoopNode::until_tag), so those ranks form one group.
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "learn/loops.hpp"
#include "sim/program/program.hpp"

namespace augur::learn {

struct UntilRegion {
  std::uint32_t first = 0, exit = 0;  // positions of the first receive and of the one that ends it
  std::uint32_t period = 0;           // positions per iteration
  std::int32_t tag = 0;               // the tag that ended it
  std::uint32_t times() const { return (exit - first) / period; }
};

// The stretches of one rank's sequence (`ops`, the tags its receives took, its token ids) that
// are such loops, in order and not overlapping.
std::vector<UntilRegion> until_regions(std::span<const sim::Op> ops, std::span<const std::int32_t> received_tags,
                                       std::span<const std::uint32_t> ids);

// The token ids with each region one token, `token_of(region)`, and where each came from.
struct Folded {
  std::vector<std::uint32_t> ids, origin;           // origin: the position in the rank's sequence
  std::map<std::uint32_t, std::size_t> region_at;  // a folded position → its region
};
Folded fold_regions(std::span<const std::uint32_t> ids, const std::vector<UntilRegion>& regions,
                    const std::function<std::uint32_t(const UntilRegion&)>& token_of);

// `tree`, compressed from the folded ids, with positions in the rank's sequence again and each
// region's token a loop ending on the region's tag: its body's leaves hold every iteration's
// positions, its first receive the ending one's too, and `times` is the mean count.
void unfold_regions(std::vector<LoopNode>& tree, const Folded& folded, const std::vector<UntilRegion>& regions,
                    std::span<const std::uint32_t> ids);

}  // namespace augur::learn
