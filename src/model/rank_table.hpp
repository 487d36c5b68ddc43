#pragma once
// The per-rank table of a text report (`augur sim`, `augur run`, `augur summary`). A few dozen
// ranks get a row each; more would not fit a screen (65,536 rows at 65,536 ranks), so past
// kEveryRankUpTo ranks whose rows read alike share one row, labelled with their ranges of
// ranks, slowest first, and only the slowest and fastest of those rows are printed.
#include <cstddef>
#include <string>
#include <vector>

namespace augur::model {

inline constexpr std::size_t kEveryRankUpTo = 32;

struct RankRow {
  int rank = 0;
  double finish = 0;  // orders the rows: the slowest rank has the largest
  std::string cells;  // the columns after the rank, as printed
};

enum class RankRows { fit_screen, every_rank };

// `columns` are the titles after "rank", aligned as `cells`; `rank_count` the number of ranks
// in the run, which can exceed rows.size() when a report lists only some of them.
std::string rank_table(const std::string& columns, const std::vector<RankRow>& rows, std::size_t rank_count,
                       RankRows shown);

// "0", "1..4094", "0..3,8..11", or the first ranges and the count: "0,2,4,… (2048 ranks)".
std::string rank_ranges(const std::vector<int>& sorted_ranks);

}  // namespace augur::model
