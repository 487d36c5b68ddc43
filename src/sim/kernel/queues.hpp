#pragma once
// A rank's queues of the kernel's matching (posted receives, unexpected messages): lists of ids
// into a pool, threaded through a link of each element, kept in arrival order so that the first
// match is MPI's. `link(id)` is the id's link; both kernels (matching.cpp, goal_engine.cpp) use
// these with their own pools.
#include <cstdint>
#include <limits>

namespace augur::sim {

inline constexpr std::uint32_t kNil = std::numeric_limits<std::uint32_t>::max();

// Takes the first element that `match` accepts out of the queue; kNil when none does.
template <class Link, class Match>
std::uint32_t unlink_first(std::uint32_t& head, std::uint32_t& tail, Link link, Match match) {
  std::uint32_t previous = kNil;
  for (auto i = head; i != kNil; previous = i, i = link(i)) {
    if (!match(i)) continue;
    (previous == kNil ? head : link(previous)) = link(i);
    if (tail == i) tail = previous;
    return i;
  }
  return kNil;
}

template <class Link>
void append(std::uint32_t& head, std::uint32_t& tail, Link link, std::uint32_t id) {
  link(id) = kNil;
  (tail == kNil ? head : link(tail)) = id;
  tail = id;
}

}  // namespace augur::sim
