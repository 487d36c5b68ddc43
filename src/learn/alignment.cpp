#include "learn/alignment.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "learn/comm_rules.hpp"
#include "learn/exact_law.hpp"
#include "learn/first_difference.hpp"
#include "learn/peer_choice.hpp"
#include "model/units.hpp"

namespace augur::learn {
namespace {

using app::ProgramNode;
using sim::OpKind;

// The mean over every occurrence of every member.
double mean_occurrence(const SampleNode& n) {
  double sum = 0, count = 0;
  for (const auto& member : n.values)
    for (const auto v : member) sum += v, count += 1;
  return count > 0 ? sum / count : 0;
}

// The tag every member that sends to (or receives from) someone used; calls towards no one
// have none of their own.
std::int32_t tag(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, bool second) {
  std::optional<std::int32_t> common;
  for (std::size_t k = 0; k < at.size(); ++k) {
    const auto& tags = second ? node[k]->tag2 : node[k]->tag;
    for (std::size_t m = 0; m < tags.size(); ++m) {
      if (tags[m] <= kNoOneTag) continue;
      if (common && *common != tags[m])
        throw LearnError(fmt::format("{}: rank {} uses tag {} where others use {} (p = {}): augur learn learns one tag "
                                     "for all the ranks of a group",
                                     here, (*at[k].ranks)[m], tags[m], *common, at[k].run->p));
      common = tags[m];
    }
  }
  return common.value_or(0);
}

// A wait on the oldest requests: as many as every count awaited, or all those outstanding where
// the counts differ (a halo's MPI_Waitall over the requests of the dimensions it splits). The
// learned program's check against the runs finds a wait that did not take them all.
std::int32_t wait_count(const AlignedNode& node) {
  const auto count = node.front()->op.tag2;
  const bool same = std::all_of(node.begin(), node.end(), [&](const SampleNode* n) { return n->op.tag2 == count; });
  return same ? count : 0;
}

void check_communicator(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here) {
  for (std::size_t k = 0; k < at.size(); ++k) {
    const int size = at[k].run->sequences.comm_sizes.at(node[k]->op.comm);
    if (size != at[k].run->p)
      throw LearnError(fmt::format("{}: a communicator of {} of the {} ranks at p = {}: augur learn learns calls on "
                                   "communicators of all ranks only",
                                   here, size, at[k].run->p, at[k].run->p));
  }
}

}  // namespace

std::vector<ProgramNode> Aligner::body(const std::vector<GroupRun>& at, const std::string& where) {
  if (depth_ == 0 && until_depth_ == 0) check_same_steps(at, where);  // the walk checks the loops inside too
  std::vector<ProgramNode> nodes;
  const auto& first = *at.front().body;
  for (std::size_t i = 0; i < first.size(); ++i) {
    AlignedNode node;
    for (const auto& g : at) node.push_back(&(*g.body)[i]);
    if (first[i].is_loop()) nodes.push_back(loop(at, node, where, i));
    else if (first[i].op.kind == OpKind::compute) add_compute(at, node, where, nodes);
    else nodes.push_back(call(at, node, where, i));
  }
  return nodes;
}

// The runs' bodies must be the same steps, loop counts aside; the first that is not is refused
// with the calls where it parts from the first run's, side by side.
void Aligner::check_same_steps(const std::vector<GroupRun>& at, const std::string& where) const {
  for (std::size_t k = 1; k < at.size(); ++k)
    if (const auto difference = first_difference(at.front(), at[k]))
      throw LearnError(fmt::format("{}: {}\nthe program's phases differ between process counts ({})", where,
                                   *difference, runs_text(at)));
}

ProgramNode Aligner::loop(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                          std::size_t i) {
  if (node.front()->until_tag >= 0) return until(at, node, where, i);
  const auto here = fmt::format("{} › loop at step {}", where, i + 1);
  std::vector<double> times;
  std::vector<GroupRun> inner;  // the body is learned from the counts that run it (absent_blocks.hpp)
  AlignedNode ran;
  for (std::size_t k = 0; k < at.size(); ++k) {
    times.push_back(node[k]->times);
    if (node[k]->times == 0) continue;
    inner.push_back({at[k].run, &node[k]->body, at[k].ranks});
    ran.push_back(node[k]);
  }
  ProgramNode n;
  n.kind = ProgramNode::Kind::repeat;
  n.times = laws_.law(at, times, Quantity::integer, here, "iterations");
  auto outer = std::move(index_);
  if (indexed_) index_ = IndexContext{kIndexNames[std::min(depth_, kIndexNames.size() - 1)], n.times.expr, {}, false};
  if (index_)
    for (const auto* s : ran) index_->times.push_back(s->times);
  ++depth_;
  n.body = body(inner, here);
  --depth_;
  if (index_ && index_->used) n.index = index_->name;
  index_ = std::move(outer);
  return n;
}

// A loop the run ends on a tag: its count is the run's, kept as the mean over the members (for
// the model's phases), and its computes are the mean task's, since whichever rank is free
// takes the next one.
ProgramNode Aligner::until(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                           std::size_t i) {
  const auto here = fmt::format("{} › loop until tag {} at step {}", where, node.front()->until_tag, i + 1);
  std::vector<double> counts;
  std::vector<GroupRun> inner;
  for (std::size_t k = 0; k < at.size(); ++k) {
    if (node[k]->until_tag != node.front()->until_tag)
      throw LearnError(fmt::format("{}: the loop ends on tag {} at p = {} but on tag {} at p = {}", here,
                                   node.front()->until_tag, at.front().run->p, node[k]->until_tag, at[k].run->p));
    counts.push_back(mean(node[k]->counts));
    inner.push_back({at[k].run, &node[k]->body, at[k].ranks});
  }
  ProgramNode n;
  n.kind = ProgramNode::Kind::until;
  n.tag = node.front()->until_tag;
  n.times = laws_.law(at, counts, Quantity::seconds, here, "iterations, the mean (the run decides)");
  auto outer = std::move(index_);
  index_.reset();
  ++until_depth_;
  n.body = body(inner, here);
  --until_depth_;
  index_ = std::move(outer);
  return n;
}

// A compute that took no time in every run is the rhythm's filler between two calls, not work.
// A group's compute is its slowest member's: the others wait for it at the next call that joins
// them, so the slowest sets the program's pace (a mean loses the load imbalance).
void Aligner::add_compute(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                          std::vector<ProgramNode>& nodes) {
  std::vector<double> seconds;
  for (const auto* n : node)
    seconds.push_back(until_depth_ > 0 ? mean_occurrence(*n) : *std::max_element(n->value.begin(), n->value.end()));
  if (std::all_of(seconds.begin(), seconds.end(), [](double s) { return s == 0; })) return;
  ProgramNode c;
  c.kind = ProgramNode::Kind::compute;
  auto* index = index_ ? &*index_ : nullptr;
  if (auto indexed = indexed_seconds(at, node, where, index, laws_)) c.seconds = *indexed;
  else c.seconds = laws_.law(at, seconds, Quantity::seconds, where, "compute seconds");
  nodes.push_back(std::move(c));
}

ProgramNode Aligner::call(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                          std::size_t i) {
  const auto& first = *node.front();
  const auto& seq = at.front().run->sequences;
  auto* index = index_ ? &*index_ : nullptr;
  ProgramNode n;
  n.kind = ProgramNode::Kind::operation;
  n.op = op_name(first.op, seq);
  const auto here = fmt::format("{} › {} at step {}", where, model::mpi_name(n.op), i + 1);
  if (first.op.kind == OpKind::collective) n.comm = communicator(at, node, here);
  else check_communicator(at, node, here);
  n.tag = tag(at, node, here, false);
  n.tag2 = first.op.kind == OpKind::sendrecv ? tag(at, node, here, true) : 0;
  if (first.op.kind == OpKind::wait) n.count = wait_count(node), n.positions = wait_places(first.op, seq);
  else if (auto indexed = indexed_bytes(at, node, here, index, laws_)) n.bytes = *indexed;
  else n.bytes = bytes(at, node, here, is_message(first.op) ? grid_of_peers(at, node, laws_.parameter()) : PeerGrid{});
  if (auto answer = reply_peer(node)) n.peer = *answer;
  else if (auto indexed = first.op.kind == OpKind::wait ? std::nullopt : indexed_peer(at, node, here, index, laws_))
    n.peer = *indexed;
  else if (first.op.kind == OpKind::collective) n.peer = root_peer(at, node, here, laws_);
  else if (first.op.kind != OpKind::wait) n.peer = rank_peer(at, node, here, false, laws_);
  if (first.op.kind == OpKind::sendrecv) n.peer2 = rank_peer(at, node, here, true, laws_);
  return n;
}

// A message towards MPI_PROC_NULL records no size, so only the members that have a peer say
// how large the message is (a stencil's edge ranks would otherwise pull the mean towards 0),
// and a run where none has one says nothing.
app::Law Aligner::bytes(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, PeerGrid grid) {
  const bool message = is_message(node.front()->op);
  std::vector<GroupRun> told;
  std::vector<double> values;
  for (std::size_t k = 0; k < at.size(); ++k) {
    std::vector<double> sizes;
    for (std::size_t m = 0; m < node[k]->value.size(); ++m)
      if (!message || node[k]->peer[m] != sim::kNoPeer) sizes.push_back(node[k]->value[m]);
    if (sizes.empty()) continue;
    told.push_back(at[k]);
    values.push_back(mean(sizes));
  }
  if (told.empty()) return bare(constant_law(0));
  return laws_.law(told, values, Quantity::integer, here, "bytes", grid);
}

// A collective's communicator: the world, or a split whose size is an exact law in p. The sizes
// of the splits tried and not kept stay out of the report.
app::CommRule Aligner::communicator(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here) {
  std::vector<CommSamples> runs;
  for (std::size_t k = 0; k < at.size(); ++k) {
    CommSamples run{at[k].run->p, *at[k].ranks, {}};
    for (const auto c : node[k]->comm) run.members.push_back(&at[k].run->sequences.comm_members.at(c));
    runs.push_back(std::move(run));
  }
  for (const auto& split : comm_splits(runs)) {
    if (split.kind == app::CommRule::Kind::world) return {};
    const bool block = split.kind == app::CommRule::Kind::block;
    const auto size = laws_.fit(at, split.sizes, Quantity::integer);
    if (!exact(size)) continue;
    laws_.record(here, block ? "communicator: blocks of" : "communicator: ranks apart", size);
    return {split.kind, bare(size)};
  }
  const auto& first = runs.back();
  throw LearnError(fmt::format("{}: rank {}'s communicator at p = {} is ranks {}: augur learn learns communicators of "
                               "all ranks, of blocks of consecutive ranks or of ranks a fixed stride apart, each "
                               "of a size that is an exact law in p",
                               here, first.ranks.front(), first.p, fmt::join(*first.members.front(), ", ")));
}

}  // namespace augur::learn
