#include "sim/program/app_program.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "app/app_program_json.hpp"
#include "app/comm_split.hpp"
#include "app/law_scope.hpp"
#include "app/peer_resolution.hpp"
#include "model/error.hpp"
#include "sim/program/message_ops.hpp"

namespace augur::sim {
namespace {

using app::Law;
using app::PeerRule;
using app::ProgramNode;
using Rule = PeerRule::Kind;

// A node of a group's body at one p. Leaves are numbered in the order they are written, so a
// rank's operations are its leaves resolved, and its body those leaves unrolled.
struct Step {
  Op op;                  // peers left to resolve
  app::PeerAt peer, peer2;
  std::size_t leaf = 0;   // this leaf's number
  std::int64_t times = -1;  // a loop's iterations; -1 for a leaf
  std::vector<Step> body;
  std::optional<std::int32_t> until_tag;  // a loop the run ends (times 1: its body is laid out once)
  // A collective on a split communicator: rank r's is comm_base + app::split_index(r).
  app::CommRule::Kind split = app::CommRule::Kind::world;
  std::int64_t split_size = 0;
  std::uint16_t comm_base = 0;
};

struct Group {
  std::int64_t first = 0, last = -1;
  std::vector<Step> body;
  std::size_t leaves = 0;
  double length = 0;  // operations once unrolled
};

std::int64_t wrapped(std::int64_t v, std::int64_t n) { return ((v % n) + n) % n; }

// The rank `rank` sends to (or receives from), relative to it when the rule is not one rank.
std::int32_t resolve(const app::PeerAt& peer, std::int64_t rank, std::int64_t p, std::uint8_t& flags,
                     std::uint8_t relative) {
  switch (peer.kind) {
    case Rule::none: return kNoPeer;
    case Rule::any: return kAny;
    case Rule::reply: return kLastSource;
    case Rule::fixed: return static_cast<std::int32_t>(peer.value);
    default: break;
  }
  const auto target = app::peer_rank(peer, rank, p);
  if (!target) return kNoPeer;
  flags |= relative;
  return static_cast<std::int32_t>(wrapped(*target - rank, p));
}

void resolve_leaves(const std::vector<Step>& steps, std::int64_t rank, std::int64_t p, std::vector<Op>& out) {
  for (const auto& s : steps) {
    if (s.times >= 0) {
      resolve_leaves(s.body, rank, p, out);
      continue;
    }
    Op op = s.op;
    if (s.split != app::CommRule::Kind::world)
      op.comm = static_cast<std::uint16_t>(s.comm_base + app::split_index(s.split, s.split_size, rank));
    if (op.kind != OpKind::compute && op.kind != OpKind::wait && op.kind != OpKind::collective) {
      op.peer = resolve(s.peer, rank, p, op.flags, kPeerRelative);
      if (op.kind == OpKind::sendrecv) op.peer2 = resolve(s.peer2, rank, p, op.flags, kPeer2Relative);
    }
    out.push_back(op);
  }
}

void unroll(const std::vector<Step>& steps, const std::vector<Op>& leaves, std::vector<Op>& out);

// The body once and a jump back to it; its first operation, the receive, jumps past the loop when
// the message it takes has the loop's tag.
void unroll_until(const Step& loop, const std::vector<Op>& leaves, std::vector<Op>& out) {
  const auto start = out.size();
  unroll(loop.body, leaves, out);
  out.push_back(jump_op(static_cast<std::uint32_t>(start)));
  auto& exit = out[start];
  if (exit.peer == kNoPeer)
    throw std::invalid_argument("the receive that ends an until_tag loop is from no one (MPI_PROC_NULL): the loop would "
                                "never end");
  exit.flags |= kExitOnTag;
  exit.tag2 = *loop.until_tag;
  exit.value = double(out.size());
}

void unroll(const std::vector<Step>& steps, const std::vector<Op>& leaves, std::vector<Op>& out) {
  for (const auto& s : steps) {
    if (s.times < 0) out.push_back(leaves[s.leaf]);
    else if (s.until_tag) unroll_until(s, leaves, out);
    else
      for (std::int64_t i = 0; i < s.times; ++i) unroll(s.body, leaves, out);
  }
}

// The bytes of a rank's leaves, field by field (Op has a byte of padding), after its group.
void append_key(std::string& key, const Op& op) {
  auto put = [&](const auto& v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(op.value), put(op.peer), put(op.peer2), put(op.tag), put(op.tag2), put(op.comm), put(op.name);
  put(op.kind), put(op.mode), put(op.flags);
}

class Instantiator {
 public:
  Instantiator(const app::AppModel& app, int p, const AppSettings& settings, FlatProgram& program)
      : app_(app), p_(p), settings_(settings), laws_(app, p, settings.parameters), program_(program) {}

  void run();

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    throw model::ModelError(app_.where(field), field, fmt::format("{} at p = {}", reason, p_));
  }
  double value(const Law& law, const std::string& field, bool bounded);
  std::int64_t integer(const Law& law, const std::string& field, bool bounded);
  app::PeerAt peer(const PeerRule& rule, const std::string& field);
  void split(const app::CommRule& rule, const std::string& field, Step& s);
  Step leaf(const ProgramNode& node, const std::string& field);
  std::vector<Step> steps(const std::vector<ProgramNode>& body, const std::string& field, Group& group);
  void indexed(const ProgramNode& node, std::int64_t times, const std::string& at, Group& group, std::vector<Step>& out);
  double length(const std::vector<Step>& steps) const;
  std::uint32_t add_body(const Group& group, const std::vector<Op>& leaves, double& stored, std::size_t g);

  const app::AppModel& app_;
  std::int64_t p_;
  const AppSettings& settings_;
  app::LawScope laws_;
  FlatProgram& program_;
  std::map<std::pair<app::CommRule::Kind, std::int64_t>, std::uint16_t> splits_;  // → its first communicator
};

// The communicators of a split, made once per instantiation and numbered in a row.
void Instantiator::split(const app::CommRule& rule, const std::string& field, Step& s) {
  const auto at = field + (rule.kind == app::CommRule::Kind::block ? ".comm.block" : ".comm.stride");
  const auto size = integer(rule.size, at, false);
  if (size < 1 || size > p_) fail(at, fmt::format("{} is outside 1..{}", size, p_));
  s.split = rule.kind;
  s.split_size = size;
  auto [it, added] = splits_.try_emplace({rule.kind, size}, 0);
  if (added) {
    const auto comms = app::split_count(rule.kind, size, p_);
    if (double(program_.comms().size()) + double(comms) > 65535)
      fail(at, fmt::format("{} communicators are more than the simulator's 65,535", comms));
    for (std::int64_t c = 0; c < comms; ++c) {
      Communicator comm;
      comm.name = fmt::format("{}{}.{}", rule.kind == app::CommRule::Kind::block ? "block" : "stride", size, c);
      comm.members = app::split_members(rule.kind, size, p_, c);
      comm.size = static_cast<int>(comm.members.size());
      comm.trace_id = static_cast<int>(program_.comms().size());  // its index: the id traces give it
      const auto index = program_.add_comm(std::move(comm));
      if (c == 0) it->second = index;
    }
  }
  s.comm_base = it->second;
}

double Instantiator::value(const Law& law, const std::string& field, bool bounded) {
  const char* which = "expr";
  const std::string* text = &law.expr;
  if (bounded && settings_.bound == model::Bound::min && !law.low.empty()) text = &law.low, which = "low";
  if (bounded && settings_.bound == model::Bound::max && !law.high.empty()) text = &law.high, which = "high";
  try {
    return laws_(*text);
  } catch (const std::invalid_argument& e) {
    fail(app::law_field(law, field, which), fmt::format("expression '{}': {}", *text, e.what()));
  }
}

// Counts, sizes and ranks are whole: a law's value rounded, and a count or size below 0 is 0.
std::int64_t Instantiator::integer(const Law& law, const std::string& field, bool bounded) {
  const double v = std::round(value(law, field, bounded));
  if (std::abs(v) > 9e15) fail(field, fmt::format("{:.4g} is out of range", v));
  return static_cast<std::int64_t>(v);
}

app::PeerAt Instantiator::peer(const PeerRule& rule, const std::string& field) {
  const bool fixed = rule.kind == Rule::fixed;
  const auto* name = fixed ? ".fixed" : rule.kind == Rule::offset ? ".offset" : ".xor";
  std::int64_t value = 0;
  if (fixed) value = integer(rule.rank, field + name, false);
  else if (rule.kind == Rule::offset || rule.kind == Rule::exclusive_or) value = integer(rule.by, field + name, false);
  try {
    return app::peer_at(rule, p_, value);
  } catch (const std::invalid_argument& e) {
    fail(field + name, e.what());
  }
}

Step Instantiator::leaf(const ProgramNode& node, const std::string& field) {
  Step s;
  if (node.kind == ProgramNode::Kind::compute) {
    s.op = compute_op(std::max(0.0, value(node.seconds, field + ".compute", true)) * settings_.compute_scale);
    return s;
  }
  const auto& name = node.op;
  const double bytes = node.bytes.expr.empty() ? 0 : double(std::max<std::int64_t>(0, integer(node.bytes, field + ".bytes", true)));
  if (name == "wait" || name == "waitall") {
    s.op = node.positions.empty() ? wait_op(node.count) : wait_set_op(program_.add_wait_set(node.positions));
  } else if (app::is_collective_operation(name)) {
    const bool rooted = !node.peer.rank.expr.empty();
    s.op = collective_op(program_.intern(name), bytes, rooted ? static_cast<std::int32_t>(peer(node.peer, field + ".root").value) : -1);
    std::int64_t smallest = p_;
    if (node.comm.kind != app::CommRule::Kind::world) {
      split(node.comm, field, s);
      const auto last = app::split_count(s.split, s.split_size, p_) - 1;
      smallest = static_cast<std::int64_t>(app::split_members(s.split, s.split_size, p_, last).size());
    }
    if (s.op.peer >= smallest)
      fail(field + ".root.fixed", fmt::format("rank {} is outside a communicator of {} ranks", s.op.peer, smallest));
  } else {
    // The model's reader admits the table's words and nothing else here (app_program_json.cpp).
    const MessageOp* m = find_message_word(name);
    const auto kind = m ? m->kind : OpKind::send;
    s.op = make_op(kind, kAny, bytes, node.tag);
    s.op.tag2 = kind == OpKind::sendrecv ? node.tag2 : node.tag;
    s.op.mode = m ? m->mode : timing::SendMode::standard;
    s.peer = peer(node.peer, field + ".peer");
    if (kind == OpKind::sendrecv) s.peer2 = peer(node.peer2, field + ".peer2");
  }
  return s;
}

std::vector<Step> Instantiator::steps(const std::vector<ProgramNode>& body, const std::string& field, Group& group) {
  std::vector<Step> out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const auto at = fmt::format("{}[{}]", field, i);
    if (body[i].kind == ProgramNode::Kind::until) {
      Step loop;
      loop.times = 1;
      loop.until_tag = body[i].tag;
      loop.body = steps(body[i].body, at + ".body", group);
      out.push_back(std::move(loop));
      continue;
    }
    if (body[i].kind != ProgramNode::Kind::repeat) {
      out.push_back(leaf(body[i], at));
      out.back().leaf = group.leaves++;
      continue;
    }
    Step loop;
    loop.times = std::max<std::int64_t>(0, integer(body[i].times, at + ".repeat", true));
    // A loop that runs no time at this count is left out whole: its body's peers and sizes need
    // not name ranks of this count (a block made only from p = 4 on talks to rank 2).
    if (loop.times == 0) continue;
    if (!body[i].index.empty()) {
      indexed(body[i], loop.times, at, group, out);
      continue;
    }
    loop.body = steps(body[i].body, at + ".body", group);
    out.push_back(std::move(loop));
  }
  return out;
}

// A loop with an index is laid out iteration by iteration, each with its laws at that index.
void Instantiator::indexed(const ProgramNode& node, std::int64_t times, const std::string& at, Group& group,
                           std::vector<Step>& out) {
  if (double(times) * double(node.body.size()) > double(settings_.max_operations))
    fail(at + ".repeat", fmt::format("{} iterations of a loop with an index unroll to more than {} operations", times,
                                     settings_.max_operations));
  for (std::int64_t i = 0; i < times; ++i) {
    try {
      laws_.bind_index(node.index, double(i));
    } catch (const std::invalid_argument& e) {
      fail(at + ".index", e.what());
    }
    auto iteration = steps(node.body, at + ".body", group);
    std::move(iteration.begin(), iteration.end(), std::back_inserter(out));
  }
  laws_.release_index(node.index);
}

double Instantiator::length(const std::vector<Step>& steps) const {
  double n = 0;
  for (const auto& s : steps) n += s.times < 0 ? 1 : double(s.times) * length(s.body) + (s.until_tag ? 1 : 0);
  return n;
}

void Instantiator::run() {
  const auto& groups_in = app_.program->groups;
  std::vector<Group> groups(groups_in.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto at = fmt::format("program.groups[{}]", g);
    groups[g].first = std::max<std::int64_t>(0, integer(groups_in[g].first, at + ".ranks.first", false));
    groups[g].last = std::min<std::int64_t>(p_ - 1, integer(groups_in[g].last, at + ".ranks.last", false));
    groups[g].body = steps(groups_in[g].body, at + ".body", groups[g]);
    groups[g].length = length(groups[g].body);
  }
  std::unordered_map<std::string, std::uint32_t> bodies;
  std::vector<Op> leaves;
  std::string key;
  double stored = 0;
  std::int64_t first = 0;  // of the ranks before `rank` that run the same body
  std::optional<std::uint32_t> running;
  for (std::int64_t rank = 0; rank <= p_; ++rank) {
    std::size_t g = groups.size();
    while (rank < p_ && g > 0 && !(groups[g - 1].first <= rank && rank <= groups[g - 1].last)) --g;
    std::optional<std::uint32_t> body;
    if (rank < p_ && g > 0) {
      leaves.clear();
      resolve_leaves(groups[g - 1].body, rank, p_, leaves);
      key.assign(reinterpret_cast<const char*>(&g), sizeof g);
      for (const auto& op : leaves) append_key(key, op);
      auto [it, added] = bodies.try_emplace(key, 0);
      if (added) it->second = add_body(groups[g - 1], leaves, stored, g - 1);
      body = it->second;
    }
    if (body == running) continue;
    if (running) program_.assign(static_cast<int>(first), static_cast<int>(rank - 1), *running);
    first = rank;
    running = body;
  }
}

std::uint32_t Instantiator::add_body(const Group& group, const std::vector<Op>& leaves, double& stored, std::size_t g) {
  stored += group.length;
  if (stored > double(settings_.max_operations))
    fail(fmt::format("program.groups[{}]", g),
         fmt::format("the program unrolls to more than {} operations (its ranks' bodies together)", settings_.max_operations));
  std::vector<Op> ops;
  ops.reserve(static_cast<std::size_t>(group.length));
  unroll(group.body, leaves, ops);
  return program_.add_body(std::move(ops));
}

}  // namespace

std::unique_ptr<FlatProgram> instantiate(const app::AppModel& app, int ranks, const AppSettings& settings) {
  if (!app.program)
    throw std::invalid_argument(fmt::format("{}: {} has no program section, only phases for `augur plot` "
                                            "(docs/app-model-format.md, \"The program section\")", app.file, app.name));
  if (ranks < 1) throw std::invalid_argument(fmt::format("{} ranks: a program needs at least one", ranks));
  auto program = std::make_unique<FlatProgram>(ranks);
  Instantiator(app, ranks, settings, *program).run();
  return program;
}

}  // namespace augur::sim
