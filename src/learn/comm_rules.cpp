#include "learn/comm_rules.hpp"

#include <algorithm>

#include "app/comm_split.hpp"

namespace augur::learn {
namespace {

using Kind = app::CommRule::Kind;

std::vector<int> expected(Kind kind, int rank, int size, int p) {
  return app::split_members(kind, size, p, app::split_index(kind, size, rank));
}

// The run's size under `kind`, read off its largest communicator, if it gives every member's.
bool fits(Kind kind, const CommSamples& run, double& size) {
  const auto* largest = *std::max_element(run.members.begin(), run.members.end(),
                                          [](const auto* a, const auto* b) { return a->size() < b->size(); });
  const int n = kind == Kind::block ? int(largest->size())
                : largest->size() >= 2 ? (*largest)[1] - (*largest)[0]
                                       : run.p;
  if (n < 1) return false;
  for (std::size_t m = 0; m < run.ranks.size(); ++m)
    if (*run.members[m] != expected(kind, run.ranks[m], n, run.p)) return false;
  size = n;
  return true;
}

}  // namespace

std::vector<Split> comm_splits(const std::vector<CommSamples>& runs) {
  const bool world = std::all_of(runs.begin(), runs.end(), [](const CommSamples& run) {
    return std::all_of(run.members.begin(), run.members.end(), [&](const auto* m) { return int(m->size()) == run.p; });
  });
  if (world) return {Split{}};
  std::vector<Split> out;
  for (const auto kind : {Kind::block, Kind::stride}) {
    Split split{kind, {}};
    for (const auto& run : runs)
      if (double size = 0; !run.members.empty() && fits(kind, run, size)) split.sizes.push_back(size);
    if (split.sizes.size() == runs.size()) out.push_back(std::move(split));
  }
  return out;
}

}  // namespace augur::learn
