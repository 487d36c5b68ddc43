#include "learn/learner.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "learn/absent_blocks.hpp"
#include "learn/alignment.hpp"
#include "learn/first_difference.hpp"
#include "learn/index_laws.hpp"
#include "learn/law_book.hpp"
#include "learn/rank_groups.hpp"
#include "learn/single_iterations.hpp"
#include "learn/unrolled_loops.hpp"
#include "model/rank_table.hpp"

namespace augur::learn {
namespace {

std::string group_label(int index, const std::vector<int>& ranks) {
  return fmt::format("group {} (ranks {}..{})", index + 1, ranks.front(), ranks.back());
}

void check_ranges(const std::vector<std::vector<GroupSamples>>& grouped, const std::vector<LearnRun>& runs) {
  for (std::size_t k = 0; k < runs.size(); ++k)
    for (const auto& g : grouped[k])
      if (g.ranks.back() - g.ranks.front() + 1 != int(g.ranks.size()))
        throw LearnError(fmt::format("{}: at p = {}, ranks {} do the same and the ranks between them something else: augur "
                                     "learn describes groups of ranks as ranges",
                                     runs[k].label, runs[k].p, fmt::join(g.ranks, ", ")));
}

// "rank 3" or "ranks 0..2,5".
std::string ranks_text(const std::vector<int>& ranks) {
  return fmt::format("{} {}", ranks.size() == 1 ? "rank" : "ranks", model::rank_ranges(ranks));
}

// Why no two counts can be aligned: each count's groups (ranks that make the same calls), and
// at the smallest count with more than one, the first calls where its first two groups part.
std::string group_count_refusal(const std::vector<std::vector<GroupSamples>>& grouped, const std::vector<LearnRun>& runs) {
  constexpr std::size_t kGroupsListed = 8;
  std::string out = "the runs' ranks form a different number of groups at each process count (a group: ranks that "
                    "make the same calls):";
  std::optional<std::size_t> parting;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    std::vector<std::string> groups;
    for (const auto& g : grouped[k])
      if (groups.size() < kGroupsListed) groups.push_back(model::rank_ranges(g.ranks));
    if (grouped[k].size() > kGroupsListed) groups.push_back("…");
    out += fmt::format("\n  p = {} ({}): {} {}: {}", runs[k].p, runs[k].label, grouped[k].size(),
                       grouped[k].size() == 1 ? "group" : "groups", fmt::join(groups, " | "));
    if (grouped[k].size() > 1 && (!parting || runs[k].p < runs[*parting].p)) parting = k;
  }
  if (parting) {
    const auto& groups = grouped[*parting];
    if (const auto calls = where_ranks_part(runs[*parting], groups[0].ranks.front(), groups[1].ranks.front()))
      out += fmt::format("\nwhere {} and {} part at p = {}:\n{}", ranks_text(groups[0].ranks),
                         ranks_text(groups[1].ranks), runs[*parting].p, *calls);
  }
  return out + "\nthe program's phases differ between counts";
}

// The runs whose ranks fall into the most groups: a group can be empty at the smallest counts
// (ranks 1..p−2 at p = 2), and those runs are left out of the alignment, with a note.
std::vector<std::size_t> runs_to_align(const std::vector<std::vector<GroupSamples>>& grouped,
                                       const std::vector<LearnRun>& runs, Learned& out) {
  std::size_t most = 0;
  for (const auto& g : grouped) most = std::max(most, g.size());
  std::vector<std::size_t> keep;
  std::set<int> counts;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (grouped[k].size() == most) keep.push_back(k), counts.insert(runs[k].p);
    else out.notes.push_back(fmt::format("{} (p = {}) left out: its ranks form {} groups, the others' {}", runs[k].label,
                                         runs[k].p, grouped[k].size(), most));
  }
  if (counts.size() < 2) throw LearnError(group_count_refusal(grouped, runs));
  return keep;
}

}  // namespace

namespace {

// The first way's reason is the one thrown; the indexed way's is kept in `indexed_reason`. A loop
// of zero is a guess at what the counts that lack a block would do: where the first way needs one
// and the indexed way learns the program without, the indexed way's is kept (a server's sends to
// each client in turn are a loop over them, not blocks present from a count on).
Learned either_way(const std::vector<LearnRun>& runs, const std::string& parameter,
                   std::string* indexed_reason = nullptr) {
  try {
    auto out = learn_program(runs, parameter, false);
    if (out.absent_blocks > 0) {
      try {
        auto indexed = learn_program(runs, parameter, true);
        if (indexed.absent_blocks == 0) return indexed;
      } catch (const LearnError&) {
      }
    }
    return out;
  } catch (const LearnError& first) {
    try {
      return learn_program(runs, parameter, true);
    } catch (const LearnError& second) {
      if (indexed_reason) *indexed_reason = second.what();
      throw first;
    }
  }
}

// The runs with one table of collective names: each trace numbers the names as it meets them, and
// the passes that align counts copy and compare calls between runs (a block some counts lack
// brings its collectives to them), so an index must name the same collective in every run.
std::vector<LearnRun> with_one_name_table(const std::vector<LearnRun>& runs) {
  std::vector<std::string> names;
  auto out = runs;
  for (auto& run : out) {
    std::vector<std::uint16_t> index;
    for (const auto& name : run.sequences.names) {
      const auto it = std::find(names.begin(), names.end(), name);
      index.push_back(static_cast<std::uint16_t>(it - names.begin()));
      if (it == names.end()) names.push_back(name);
    }
    for (auto& ops : run.sequences.ops)
      for (auto& op : ops)
        if (op.kind == sim::OpKind::collective) op.name = index.at(op.name);
  }
  for (auto& run : out) run.sequences.names = names;
  return out;
}

}  // namespace

// The program's loops with their calls told apart by their peers; when those do not align
// between the counts, loops whose iterations talk to different ranks are looked for instead,
// with their roots, peers, sizes and computes laws in the loop's index, and the first reason
// the program could not be learned is the one reported. When neither way learns the program and
// three counts or more were traced, the smallest count is left out, with a note: there a loop of
// p − 1 iterations runs once and is no loop (a server's stop to its one worker).
Learned learn_program(const std::vector<LearnRun>& traced, const std::string& parameter) {
  const auto runs = with_one_name_table(traced);
  std::string indexed_reason;
  try {
    return either_way(runs, parameter, &indexed_reason);
  } catch (const LearnError& first) {
    std::set<int> counts;
    for (const auto& r : runs) counts.insert(r.p);
    if (counts.size() < 3) throw;
    std::vector<LearnRun> larger;
    std::vector<std::string> left;
    for (const auto& r : runs)
      if (r.p != *counts.begin()) larger.push_back(r);
      else left.push_back(r.label);
    try {
      auto out = either_way(larger, parameter);
      // The indexed way (loops the run ends, replies, index laws) says why every count could not be learned.
      out.notes.push_back(fmt::format("{} (p = {}) left out: the program is learned from the larger counts only; with "
                                      "it: {}",
                                      fmt::join(left, ", "), *counts.begin(), indexed_reason));
      return out;
    } catch (const LearnError&) {
      throw first;
    }
  }
}

Learned learn_program(const std::vector<LearnRun>& runs, const std::string& parameter, bool indexed) {
  std::set<int> counts;
  for (const auto& r : runs) counts.insert(r.p);
  if (counts.size() < 2) throw LearnError("learning a program's laws in p needs traces at two or more process counts");
  std::vector<std::vector<GroupSamples>> grouped;
  for (const auto& r : runs) {
    grouped.push_back(group_ranks(r.sequences, !indexed));
    if (indexed)
      for (auto& g : grouped.back()) split_at_index_turns(g.body, r.p);
  }
  check_ranges(grouped, runs);
  Learned out;
  const auto keep = runs_to_align(grouped, runs, out);
  for (std::size_t g = 0; g < grouped[keep.front()].size(); ++g) {
    std::vector<GroupBody> bodies;
    for (const auto k : keep)
      bodies.push_back({&grouped[k][g].body, &runs[k].sequences, grouped[k][g].ranks.size(), runs[k].p});
    unroll_written_out_loops(bodies);
    const auto absent = insert_absent_blocks(bodies);
    out.absent_blocks += absent.size();
    for (const auto& block : absent)
      out.notes.push_back(fmt::format("group {}: the block from {} is absent at p = {}, a loop of zero there (its count "
                                      "a law with the counts that make it)",
                                      g + 1, block.first_call, fmt::join(block.absent_at, ", ")));
    for (const auto& block : fold_single_iterations(bodies))
      out.notes.push_back(fmt::format("group {}: the block from {} ran once at p = {}, a loop of one there (its count "
                                      "a law with the counts that repeat it)",
                                      g + 1, block.first_call, fmt::join(block.once_at, ", ")));
  }
  LawBook laws(parameter, out.laws, indexed);
  Aligner aligner(laws, indexed);
  for (std::size_t g = 0; g < grouped[keep.front()].size(); ++g) {
    std::vector<GroupRun> at;
    std::vector<double> first, last;
    for (const auto k : keep) {
      const auto& group = grouped[k][g];
      at.push_back({&runs[k], &group.body, &group.ranks});
      first.push_back(group.ranks.front());
      last.push_back(group.ranks.back());
    }
    const auto where = group_label(int(g), grouped[keep.back()][g].ranks);
    app::RankGroup group;
    group.first = laws.law(at, first, Quantity::integer, where, "first rank");
    group.last = laws.law(at, last, Quantity::integer, where, "last rank");
    group.body = aligner.body(at, where);
    out.program.groups.push_back(std::move(group));
  }
  out.program.measured_ranks.assign(counts.begin(), counts.end());
  return out;
}

}  // namespace augur::learn
