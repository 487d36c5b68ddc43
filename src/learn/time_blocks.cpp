#include "learn/time_blocks.hpp"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::learn {
namespace {

// A collective over the whole world, as a rank called it.
struct WorldCall {
  std::string name;
  std::int32_t root = -1;
  double bytes = 0, begin = 0, end = 0;
};

// Communicators every rank calls collectives on: the world and its duplicates. (A trace names its
// communicators by number; their members are the ranks with collective records on them.)
std::set<std::int32_t> world_comms(const trace::Trace& t) {
  std::map<std::int32_t, std::set<int>> members;
  for (int r = 0; r < t.nranks(); ++r)
    for (const auto& c : t.ranks[r].collectives) members[c.comm].insert(r);
  std::set<std::int32_t> out;
  for (const auto& [comm, ranks] : members)
    if (int(ranks.size()) == t.nranks()) out.insert(comm);
  return out;
}

// One rank's calls walked in order: its world collectives, and the other calls counted as folded.
struct RankWalk {
  std::vector<WorldCall> calls;
  double end = 0;
};

RankWalk walk(const trace::Trace& t, const trace::RankTrace& rank, const std::set<std::int32_t>& worlds,
              bool keep_rooted, TimeBlocks& out) {
  RankWalk w;
  std::size_t next = 0;  // the rank's next collective record
  for (const auto& s : rank.states) {
    w.end = std::max(w.end, s.end);
    if (s.kind != trace::StateKind::mpi) continue;
    const auto& name = t.names[s.op];
    if (next < rank.collectives.size() && rank.collectives[next].begin == s.begin && t.names[rank.collectives[next].op] == name) {
      const auto& c = rank.collectives[next++];
      if (worlds.contains(c.comm) && (keep_rooted || c.root < 0)) {
        w.calls.push_back({name, c.root, double(c.bytes), s.begin, s.end});
        continue;
      }
    }
    ++out.folded_calls;
    ++out.folded[name];
  }
  return w;
}

// The first rank whose world collectives are not rank 0's, and where: MPI has every member of a
// communicator call its collectives in one order, so this is a trace of ranks of other runs.
void check_one_order(const std::vector<RankWalk>& walks, const std::string& label) {
  const auto& first = walks.front().calls;
  for (std::size_t r = 1; r < walks.size(); ++r) {
    const auto& calls = walks[r].calls;
    for (std::size_t k = 0; k < std::max(first.size(), calls.size()); ++k) {
      const auto text = [&](const std::vector<WorldCall>& c) {
        return k < c.size() ? model::mpi_name(c[k].name) + (c[k].root >= 0 ? fmt::format(" rooted at {}", c[k].root) : "")
                            : std::string("nothing");
      };
      if (k < first.size() && k < calls.size() && first[k].name == calls[k].name && first[k].root == calls[k].root) continue;
      throw LearnError(fmt::format("{}: ranks 0 and {} call the world's collectives in different orders: their "
                                   "collective {} over the world is {} on rank 0 and {} on rank {}",
                                   label, r, k + 1, text(first), text(calls), r));
    }
  }
}

std::uint16_t name_index(std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::uint16_t>(it - names.begin());
  names.push_back(name);
  return static_cast<std::uint16_t>(names.size() - 1);
}

}  // namespace

TimeBlocks time_blocks(const trace::Trace& t, const std::string& label, bool keep_rooted) {
  TimeBlocks out;
  const int p = t.nranks();
  const auto worlds = world_comms(t);
  std::vector<RankWalk> walks;
  for (const auto& rank : t.ranks) walks.push_back(walk(t, rank, worlds, keep_rooted, out));
  check_one_order(walks, label);
  if (walks.front().calls.empty())
    throw LearnError(fmt::format("{}: the ranks call no collective over the whole world, which a partial model keeps as "
                                 "calls: it would keep none",
                                 label));
  const double start = t.start_time();
  const auto& calls = walks.front().calls;
  // Block k ends where world collective k begins (the last, where the rank ends); each is given
  // its slowest rank's time, the time the collective after it waited for.
  std::vector<double> blocks(calls.size() + 1, 0.0);
  for (const auto& w : walks)
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const double from = k == 0 ? start : w.calls[k - 1].end, to = k < w.calls.size() ? w.calls[k].begin : w.end;
      blocks[k] = std::max(blocks[k], to - from);
    }
  auto& seq = out.sequences;
  seq.ranks = p;
  seq.comm_sizes = {p};
  seq.comm_members.emplace_back();
  for (int r = 0; r < p; ++r) seq.comm_members.back().push_back(r);
  seq.wait_sets = std::make_shared<WaitPlaceSets>();
  for (int r = 0; r < p; ++r) {
    auto& ops = seq.ops.emplace_back();
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      ops.push_back(sim::compute_op(blocks[k]));
      if (k < calls.size()) {
        const auto& c = walks[std::size_t(r)].calls[k];
        ops.push_back(sim::collective_op(name_index(seq.names, c.name), c.bytes, c.root));
      }
    }
    seq.received_from.emplace_back(ops.size(), sim::kAny);
    seq.received_tag.emplace_back(ops.size(), sim::kAny);
  }
  for (const double b : blocks) out.blocks += b;
  for (const auto& w : walks) out.run = std::max(out.run, w.end - start);
  return out;
}

namespace {

Learned learn_blocks(const std::vector<trace::Trace>& traces, const std::vector<LearnRun>& runs,
                     const std::string& parameter, bool keep_rooted, std::vector<FoldedAt>& folded) {
  std::vector<LearnRun> blocks;
  folded.clear();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    auto tb = time_blocks(traces[k], runs[k].label, keep_rooted);
    folded.push_back({runs[k].label, runs[k].p, tb.folded_calls, tb.folded, tb.share()});
    blocks.push_back({runs[k].label, runs[k].p, runs[k].n, std::move(tb.sequences)});
  }
  return learn_program(blocks, parameter);
}

}  // namespace

// A root that moves with the data (the owner of a pivot broadcasting it) follows no rule; the
// collectives without a root are then kept alone, and the first reason is the one given.
Learned learn_time_blocks(const std::vector<trace::Trace>& traces, const std::vector<LearnRun>& runs,
                          const std::string& parameter, std::vector<FoldedAt>& folded) {
  try {
    return learn_blocks(traces, runs, parameter, true, folded);
  } catch (const LearnError& with_roots) {
    try {
      auto out = learn_blocks(traces, runs, parameter, false, folded);
      out.notes.push_back(fmt::format("the world's collectives with a root are folded into the blocks too: kept as calls, "
                                      "{}",
                                      with_roots.what()));
      return out;
    } catch (const LearnError&) {
      throw with_roots;
    }
  }
}

}  // namespace augur::learn
