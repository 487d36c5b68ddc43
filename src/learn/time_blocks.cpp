#include "learn/time_blocks.hpp"

#include <algorithm>
#include <memory>
#include <set>

#include <dtl/dtl.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "model/units.hpp"
#include "trace/call_records.hpp"

namespace augur::learn {
namespace {

// A collective over the whole world, as a rank called it.
struct WorldCall {
  std::string name;
  std::int32_t root = -1;
  double bytes = 0, begin = 0, end = 0;
};

// Communicators every rank calls collectives on: the world and its duplicates.
std::set<std::int32_t> world_comms(const trace::Trace& t) {
  std::set<std::int32_t> out;
  for (const auto& [comm, ranks] : t.communicator_members())
    if (int(ranks.size()) == t.nranks()) out.insert(comm);
  return out;
}

std::string describe(const WorldCall& c) {
  return model::mpi_name(c.name) + (c.root >= 0 ? fmt::format(" rooted at {}", c.root) : "");
}

std::string describe_first(const std::vector<WorldCall>& calls) {
  return calls.empty() ? std::string("nothing") : "first " + describe(calls.front());
}

// One rank's calls walked in order: its world collectives, and the other calls counted as folded.
struct RankWalk {
  std::vector<WorldCall> calls;
  double end = 0;
};

RankWalk walk(const trace::Trace& t, const trace::RankTrace& rank, const std::set<std::int32_t>& worlds,
              bool keep_rooted, TimeBlocks& out) {
  RankWalk w;
  const auto records = trace::attach_records(t, rank);
  for (std::size_t i = 0; i < rank.states.size(); ++i) {
    const auto& s = rank.states[i];
    w.end = std::max(w.end, s.end);
    if (s.kind != trace::StateKind::mpi) continue;
    const auto& name = t.names[s.op];
    if (const auto k = records.of_state[i].collective) {
      const auto& c = rank.collectives[*k];
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
      const auto text = [&](const std::vector<WorldCall>& c) { return k < c.size() ? describe(c[k]) : std::string("nothing"); };
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

// One trace's ranks walked, their world collectives checked to be in one order.
struct Walked {
  std::vector<RankWalk> ranks;
  TimeBlocks counts;  // the calls folded so far
};

Walked walk_trace(const trace::Trace& t, const std::string& label, bool keep_rooted) {
  Walked w;
  const auto worlds = world_comms(t);
  for (const auto& rank : t.ranks) w.ranks.push_back(walk(t, rank, worlds, keep_rooted, w.counts));
  check_one_order(w.ranks, label);
  if (w.ranks.front().calls.empty())
    throw LearnError(fmt::format("{}: the ranks call no collective over the whole world, which a partial model keeps as "
                                 "calls: it would keep none",
                                 label));
  return w;
}

// What two world collectives of different counts must share to be one call of the program: the
// operation and whether it has a root (sizes and roots may follow laws in p).
std::string call_key(const WorldCall& c) { return c.root >= 0 ? c.name + " rooted" : c.name; }

// The world collectives every trace calls, as each trace's indices into its rank 0's calls: the
// longest common subsequence of the first two, then of that and the third, and so on. The diff
// template library finds each in O((N + M)·D), D the calls that differ, where a table of every
// pair of calls would not fit: CP2K calls thousands of world collectives.
std::vector<std::vector<std::size_t>> common_calls(const std::vector<const std::vector<WorldCall>*>& calls) {
  std::vector<std::vector<std::size_t>> kept(calls.size());
  for (std::size_t k = 0; k < calls.front()->size(); ++k) kept.front().push_back(k);
  for (std::size_t t = 1; t < calls.size(); ++t) {
    std::vector<std::string> common, theirs;
    for (const auto k : kept.front()) common.push_back(call_key((*calls.front())[k]));
    for (const auto& c : *calls[t]) theirs.push_back(call_key(c));
    dtl::Diff<std::string> diff(common, theirs);
    diff.compose();
    std::vector<std::size_t> matched;  // positions in `common`
    for (const auto& [key, info] : diff.getSes().getSequence())
      if (info.type == dtl::SES_COMMON) {
        matched.push_back(std::size_t(info.beforeIdx - 1));
        kept[t].push_back(std::size_t(info.afterIdx - 1));
      }
    for (std::size_t u = 0; u < t; ++u) {
      std::vector<std::size_t> still;
      for (const auto m : matched) still.push_back(kept[u][m]);
      kept[u] = std::move(still);
    }
  }
  return kept;
}

// The trace's program: blocks between the world collectives `kept` (indices into each rank's
// calls, the same on every rank); the world collectives not kept are folded with the rest.
TimeBlocks blocks_of(const trace::Trace& t, Walked walked, const std::vector<std::size_t>& kept) {
  auto out = std::move(walked.counts);
  const auto& walks = walked.ranks;
  const int p = t.nranks();
  for (const auto& w : walks)
    for (std::size_t k = 0, next = 0; k < w.calls.size(); ++k) {
      if (next < kept.size() && kept[next] == k) {
        ++next;
        continue;
      }
      ++out.folded_calls;
      ++out.folded[w.calls[k].name];
    }
  out.unshared_world_calls = walks.front().calls.size() - kept.size();
  const double start = t.start_time();
  // Block j ends where kept collective j begins (the last, where the rank ends); each is given
  // its slowest rank's time, the time the collective after it waited for.
  std::vector<double> blocks(kept.size() + 1, 0.0);
  for (const auto& w : walks)
    for (std::size_t j = 0; j < blocks.size(); ++j) {
      const double from = j == 0 ? start : w.calls[kept[j - 1]].end, to = j < kept.size() ? w.calls[kept[j]].begin : w.end;
      blocks[j] = std::max(blocks[j], to - from);
    }
  auto& seq = out.sequences;
  seq.ranks = p;
  seq.comm_sizes = {p};
  seq.comm_members.emplace_back();
  for (int r = 0; r < p; ++r) seq.comm_members.back().push_back(r);
  seq.wait_sets = std::make_shared<WaitPlaceSets>();
  for (int r = 0; r < p; ++r) {
    auto& ops = seq.ops.emplace_back();
    for (std::size_t j = 0; j < blocks.size(); ++j) {
      ops.push_back(sim::compute_op(blocks[j]));
      if (j < kept.size()) {
        const auto& c = walks[std::size_t(r)].calls[kept[j]];
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

}  // namespace

TimeBlocks time_blocks(const trace::Trace& t, const std::string& label, bool keep_rooted) {
  auto walked = walk_trace(t, label, keep_rooted);
  std::vector<std::size_t> all(walked.ranks.front().calls.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  return blocks_of(t, std::move(walked), all);
}

std::vector<TimeBlocks> time_blocks(const std::vector<trace::Trace>& traces, const std::vector<std::string>& labels,
                                    bool keep_rooted) {
  std::vector<Walked> walked;
  std::vector<const std::vector<WorldCall>*> calls;
  for (std::size_t k = 0; k < traces.size(); ++k) walked.push_back(walk_trace(traces[k], labels[k], keep_rooted));
  for (const auto& w : walked) calls.push_back(&w.ranks.front().calls);
  const auto kept = common_calls(calls);
  if (kept.front().empty())
    throw LearnError(fmt::format("no collective over the whole world is called at every count ({} at {}, {} at {}), "
                                 "so a partial model would keep none",
                                 describe_first(*calls.front()), labels.front(), describe_first(*calls.back()),
                                 labels.back()));
  std::vector<TimeBlocks> out;
  for (std::size_t k = 0; k < traces.size(); ++k) out.push_back(blocks_of(traces[k], std::move(walked[k]), kept[k]));
  return out;
}

namespace {

Learned learn_blocks(const std::vector<trace::Trace>& traces, const std::vector<LearnRun>& runs,
                     const std::string& parameter, bool keep_rooted, std::vector<FoldedAt>& folded) {
  std::vector<std::string> labels;
  for (const auto& run : runs) labels.push_back(run.label);
  auto per_trace = time_blocks(traces, labels, keep_rooted);
  std::vector<LearnRun> blocks;
  std::vector<std::string> unshared;
  folded.clear();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    auto& tb = per_trace[k];
    folded.push_back({runs[k].label, runs[k].p, tb.folded_calls, tb.folded, tb.share()});
    blocks.push_back({runs[k].label, runs[k].p, runs[k].n, std::move(tb.sequences)});
    if (tb.unshared_world_calls > 0) unshared.push_back(fmt::format("{} at p = {}", tb.unshared_world_calls, runs[k].p));
  }
  auto out = learn_program(blocks, parameter);
  if (!unshared.empty())
    out.notes.push_back(fmt::format("collectives over the world that not every count calls are folded into the blocks "
                                    "too: {}",
                                    fmt::join(unshared, ", ")));
  return out;
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
