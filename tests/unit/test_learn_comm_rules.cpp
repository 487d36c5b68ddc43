// A collective's communicator as a rule (learn/comm_rules.hpp): a grid's rows are blocks of
// consecutive ranks, its columns ranks a stride apart, the world is the world, and ranks
// grouped by no such rule give no rule.
#include <gtest/gtest.h>

#include <vector>

#include "learn/comm_rules.hpp"

using namespace augur::learn;
using Kind = augur::app::CommRule::Kind;

namespace {

// Every rank of p with the communicator `of(rank)` lists; `keep` holds the lists.
CommSamples samples(int p, const std::function<std::vector<int>(int)>& of, std::vector<std::vector<int>>& keep) {
  CommSamples run{p, {}, {}};
  keep.reserve(keep.size() + p);
  for (int r = 0; r < p; ++r) {
    keep.push_back(of(r));
    run.ranks.push_back(r);
  }
  for (int r = 0; r < p; ++r) run.members.push_back(&keep[keep.size() - p + r]);
  return run;
}

std::vector<int> range(int first, int last, int step = 1) {
  std::vector<int> out;
  for (int r = first; r <= last; r += step) out.push_back(r);
  return out;
}

}  // namespace

TEST(LearnCommRules, RowsAreBlocksColumnsAreStridesAndTheWorldIsTheWorld) {
  std::vector<std::vector<int>> keep;
  keep.reserve(1000);
  // 4 × 2 at p = 8 and 4 × 4 at p = 16: rows of 2 and of 4 ranks.
  const std::vector<CommSamples> rows{samples(8, [](int r) { return range(r / 2 * 2, r / 2 * 2 + 1); }, keep),
                                      samples(16, [](int r) { return range(r / 4 * 4, r / 4 * 4 + 3); }, keep)};
  auto split = comm_splits(rows);
  ASSERT_FALSE(split.empty());
  EXPECT_EQ(split.front().kind, Kind::block);
  EXPECT_EQ(split.front().sizes, (std::vector<double>{2, 4}));
  const std::vector<CommSamples> columns{samples(8, [](int r) { return range(r % 2, 7, 2); }, keep),
                                         samples(16, [](int r) { return range(r % 4, 15, 4); }, keep)};
  split = comm_splits(columns);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split.front().kind, Kind::stride);
  EXPECT_EQ(split.front().sizes, (std::vector<double>{2, 4}));
  const std::vector<CommSamples> world{samples(8, [](int) { return range(0, 7); }, keep)};
  split = comm_splits(world);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split.front().kind, Kind::world);
}

TEST(LearnCommRules, RanksGroupedByNoRuleGiveNone) {
  std::vector<std::vector<int>> keep;
  keep.reserve(100);
  // {0, 1, 5}, {2, 3, 4}, {6, 7}: neither blocks nor strides.
  const auto odd = [](int r) {
    if (r == 0 || r == 1 || r == 5) return std::vector<int>{0, 1, 5};
    if (r >= 2 && r <= 4) return std::vector<int>{2, 3, 4};
    return std::vector<int>{6, 7};
  };
  EXPECT_TRUE(comm_splits({samples(8, odd, keep)}).empty());
}
