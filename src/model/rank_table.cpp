#include "model/rank_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace augur::model {
namespace {

// Rows of the compact table at each end: the slowest groups, then the fastest.
constexpr std::size_t kGroupsAtEachEnd = 8;
constexpr std::size_t kRangesInLabel = 3;

struct Group {
  std::vector<int> ranks;  // ascending
  double finish = 0;
  std::string cells;
};

std::string every_row(const std::string& columns, const std::vector<RankRow>& rows) {
  std::string out = fmt::format("{:>5} {}\n", "rank", columns);
  for (const auto& r : rows) out += fmt::format("{:>5} {}\n", r.rank, r.cells);
  return out;
}

// Rows that print alike, slowest first; equal finishes by their lowest rank.
std::vector<Group> alike(const std::vector<RankRow>& rows) {
  std::map<std::string, Group> by_cells;
  for (const auto& r : rows) {
    auto& g = by_cells[r.cells];
    g.ranks.push_back(r.rank);
    g.finish = std::max(g.finish, r.finish);
  }
  std::vector<Group> groups;
  for (auto& [cells, g] : by_cells) {
    std::sort(g.ranks.begin(), g.ranks.end());
    g.cells = cells;
    groups.push_back(std::move(g));
  }
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return a.finish != b.finish ? a.finish > b.finish : a.ranks.front() < b.ranks.front();
  });
  return groups;
}

std::string group_rows(const std::vector<Group>& groups, const std::string& columns) {
  std::vector<std::string> labels;
  std::size_t width = 5;
  for (const auto& g : groups) {
    labels.push_back(rank_ranges(g.ranks));
    width = std::max(width, labels.back().size());
  }
  std::string out = fmt::format("{:>{}} {}\n", "ranks", width, columns);
  const bool elided = groups.size() > 2 * kGroupsAtEachEnd;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (elided && i == kGroupsAtEachEnd) {
      std::size_t ranks = 0;
      for (std::size_t j = i; j < groups.size() - kGroupsAtEachEnd; ++j) ranks += groups[j].ranks.size();
      out += fmt::format("{:>{}} {} more rows ({} ranks)\n", "…", width,
                         groups.size() - 2 * kGroupsAtEachEnd, ranks);
      i = groups.size() - kGroupsAtEachEnd;
    }
    out += fmt::format("{:>{}} {}\n", labels[i], width, groups[i].cells);
  }
  return out;
}

}  // namespace

std::string rank_ranges(const std::vector<int>& sorted_ranks) {
  std::vector<std::string> ranges;
  for (std::size_t i = 0; i < sorted_ranks.size();) {
    std::size_t j = i;
    while (j + 1 < sorted_ranks.size() && sorted_ranks[j + 1] == sorted_ranks[j] + 1) ++j;
    ranges.push_back(j == i ? fmt::format("{}", sorted_ranks[i])
                            : fmt::format("{}..{}", sorted_ranks[i], sorted_ranks[j]));
    i = j + 1;
  }
  if (ranges.size() <= kRangesInLabel) return fmt::format("{}", fmt::join(ranges, ","));
  ranges.resize(kRangesInLabel);
  return fmt::format("{},… ({} ranks)", fmt::join(ranges, ","), sorted_ranks.size());
}

std::string rank_table(const std::string& columns, const std::vector<RankRow>& rows, std::size_t rank_count,
                       RankRows shown) {
  if (shown == RankRows::every_rank || rank_count <= kEveryRankUpTo) return every_row(columns, rows);
  const auto groups = alike(rows);
  const auto listed = rows.size() < rank_count ? fmt::format(" (the slowest {} listed)", rows.size()) : "";
  return fmt::format("{} ranks{}, slowest first; ranks whose rows read alike share one row.\n"
                     "A row for every rank: --ranks-table; every rank's numbers: --json.\n{}",
                     rank_count, listed, group_rows(groups, columns));
}

}  // namespace augur::model
