// The per-rank table of the text reports: a row per rank up to model::kEveryRankUpTo ranks, ranks
// alike grouped under their ranges past that.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "model/rank_table.hpp"

using augur::model::rank_ranges;
using augur::model::rank_table;
using augur::model::RankRow;
using augur::model::RankRows;

namespace {

// Rank r finishes at finish_of(r) and prints "t" and that finish.
std::vector<RankRow> rows(int count, int (*finish_of)(int)) {
  std::vector<RankRow> out;
  for (int r = 0; r < count; ++r)
    out.push_back({r, static_cast<double>(finish_of(r)), fmt::format("t{}", finish_of(r))});
  return out;
}

}  // namespace

TEST(RankTable, RangesOfConsecutiveRanks) {
  EXPECT_EQ(rank_ranges({7}), "7");
  EXPECT_EQ(rank_ranges({1, 2, 3, 4094}), "1..3,4094");
  EXPECT_EQ(rank_ranges({0, 2, 4, 6, 8}), "0,2,4,… (5 ranks)");
}

TEST(RankTable, FewRanksGetARowEach) {
  const auto small = rows(static_cast<int>(augur::model::kEveryRankUpTo), [](int r) { return r % 2; });
  EXPECT_EQ(rank_table("cells", small, small.size(), RankRows::fit_screen),
            rank_table("cells", small, small.size(), RankRows::every_rank));
  EXPECT_EQ(rank_table("x", {{3, 1, "a"}}, 1, RankRows::fit_screen), " rank x\n    3 a\n");
}

TEST(RankTable, ManyRanksAlikeShareARowSlowestFirst) {
  const auto many = rows(100, [](int r) { return r % 2 ? 2 : 1; });
  const auto text = rank_table("cells", many, many.size(), RankRows::fit_screen);
  const auto odd = text.find("1,3,5,… (50 ranks) t2");
  const auto even = text.find("0,2,4,… (50 ranks) t1");
  ASSERT_NE(odd, std::string::npos) << text;
  ASSERT_NE(even, std::string::npos) << text;
  EXPECT_LT(odd, even);
  EXPECT_NE(text.find("--ranks-table"), std::string::npos);
}
