#include "app/app_program_json.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "app/app_model.hpp"
#include "app/law_scope.hpp"
#include "model/catalog.hpp"
#include "model/error.hpp"

namespace augur::app {
namespace {

using Node = model::JsonNode<ProgramJson>;
using Kind = PeerRule::Kind;

constexpr int kMaxNesting = 16;  // loops within loops
constexpr int kMaxTag = std::numeric_limits<std::int32_t>::max();

const std::set<std::string, std::less<>> kSends{"send", "ssend", "bsend", "rsend", "isend"};
const std::set<std::string, std::less<>> kReceives{"recv", "irecv"};

bool exact(const Law& law) {
  return (law.low.empty() || law.low == law.expr) && (law.high.empty() || law.high == law.expr) && law.form.empty() &&
         law.coefficients.empty() && law.errors.empty() && law.cv_error == 0;
}

// --- writing -------------------------------------------------------------------------------

ProgramJson peer_to_json(const PeerRule& rule) {
  switch (rule.kind) {
    case Kind::fixed: return {{"fixed", law_to_json(rule.rank)}};
    case Kind::offset: return {{"offset", law_to_json(rule.by)}, {"edge", rule.wrap ? "wrap" : "none"}};
    case Kind::grid: {
      ProgramJson grid{{"dims", rule.dims}, {"dim", rule.dim}, {"shift", rule.shift}, {"periodic", rule.periodic}};
      if (rule.first_fastest) grid["first_fastest"] = true;  // written only when set: older models read the same
      return {{"grid", grid}};
    }
    case Kind::exclusive_or: return {{"xor", law_to_json(rule.by)}};
    case Kind::any: return "any";
    case Kind::none: return "none";
    case Kind::reply: return "reply";
  }
  return "none";
}

ProgramJson body_to_json(const std::vector<ProgramNode>& body);

ProgramJson node_to_json(const ProgramNode& node) {
  if (node.kind == ProgramNode::Kind::compute) return {{"compute", law_to_json(node.seconds)}};
  if (node.kind == ProgramNode::Kind::repeat) {
    ProgramJson j = {{"repeat", law_to_json(node.times)}};
    if (!node.index.empty()) j["index"] = node.index;
    j["body"] = body_to_json(node.body);
    return j;
  }
  if (node.kind == ProgramNode::Kind::until) {
    ProgramJson j = {{"until_tag", node.tag}};
    if (!node.times.expr.empty()) j["mean_times"] = law_to_json(node.times);
    j["body"] = body_to_json(node.body);
    return j;
  }
  ProgramJson j = {{"op", node.op}};
  const bool message = kSends.contains(node.op) || kReceives.contains(node.op) || node.op == "sendrecv";
  if (message) j["peer"] = peer_to_json(node.peer);
  if (node.op == "sendrecv") j["peer2"] = peer_to_json(node.peer2);
  if (!node.bytes.expr.empty() && node.op != "wait" && node.op != "waitall") j["bytes"] = law_to_json(node.bytes);
  if (message) j["tag"] = node.tag;
  if (node.op == "sendrecv") j["tag2"] = node.tag2;
  if (node.op == "wait" && node.positions.empty()) j["count"] = node.count;
  if (node.op == "wait" && !node.positions.empty()) j["positions"] = node.positions;
  if (is_collective_operation(node.op) && node.peer.kind == Kind::fixed && !node.peer.rank.expr.empty())
    j["root"] = peer_to_json(node.peer);
  if (node.comm.kind != CommRule::Kind::world)
    j["comm"] = {{node.comm.kind == CommRule::Kind::block ? "block" : "stride", law_to_json(node.comm.size)}};
  return j;
}

ProgramJson body_to_json(const std::vector<ProgramNode>& body) {
  ProgramJson j = ProgramJson::array();
  for (const auto& node : body) j.push_back(node_to_json(node));
  return j;
}

// --- reading -------------------------------------------------------------------------------

Law read_law(const Node& n) {
  Law law;
  if (n.value.is_number()) {
    (void)n.number();
    law.expr = n.value.dump();
  } else if (n.value.is_string()) {
    law.expr = n.string();
  } else {
    n.object({"expr", "low", "high", "form", "coefficients", "errors", "cv_error"});
    law.expr = read_law(n.required("expr")).expr;
    law.low = n.has("low") ? read_law(n.child("low")).expr : law.expr;
    law.high = n.has("high") ? read_law(n.child("high")).expr : law.expr;
    law.form = n.optional_string("form");
    for (const char* key : {"coefficients", "errors"}) {
      if (!n.has(key)) continue;
      const auto list = n.child(key);
      if (!list.value.is_array()) list.fail("expected an array of numbers");
      auto& out = std::string(key) == "errors" ? law.errors : law.coefficients;
      for (std::size_t i = 0; i < list.value.size(); ++i) out.push_back(list.element(i).number());
    }
    if (!law.errors.empty() && law.errors.size() != law.coefficients.size())
      n.child("errors").fail("expected one error per coefficient");
    law.cv_error = n.has("cv_error") ? n.child("cv_error").non_negative() : 0;
    return law;
  }
  if (law.expr.empty()) n.fail("expected an expression in p and the parameters, found an empty string");
  law.low = law.high = law.expr;
  return law;
}

bool boolean(const Node& n) {
  if (!n.value.is_boolean()) n.fail("expected true or false, found " + std::string(n.value.type_name()));
  return n.value.get<bool>();
}

PeerRule read_grid(const Node& g) {
  g.object({"dims", "dim", "shift", "periodic", "first_fastest"});
  PeerRule rule;
  rule.kind = Kind::grid;
  rule.dims = g.required("dims").integer(1, 8);
  rule.dim = g.required("dim").integer(0, rule.dims - 1);
  rule.shift = g.required("shift").integer(-(1 << 30), 1 << 30);
  rule.periodic = g.has("periodic") && boolean(g.child("periodic"));
  rule.first_fastest = g.has("first_fastest") && boolean(g.child("first_fastest"));
  return rule;
}

PeerRule read_peer(const Node& n) {
  PeerRule rule;
  if (n.value.is_string()) {
    const auto word = n.string();
    if (word != "any" && word != "none" && word != "reply")
      n.fail(fmt::format("expected \"any\", \"none\", \"reply\" or a rule object (found '{}')", word));
    rule.kind = word == "any" ? Kind::any : word == "none" ? Kind::none : Kind::reply;
    return rule;
  }
  if (!n.value.is_object() || n.value.size() == 0)
    n.fail("expected \"any\", \"none\", \"reply\" or one of {\"fixed\": …}, {\"offset\": …}, {\"grid\": {…}}, {\"xor\": …}");
  const auto key = n.value.begin().key();
  if (key == "fixed") {
    n.object({"fixed"});
    rule.rank = read_law(n.child("fixed"));
  } else if (key == "offset") {
    n.object({"offset", "edge"});
    rule.kind = Kind::offset;
    rule.by = read_law(n.child("offset"));
    const auto edge = n.has("edge") ? n.child("edge").string() : "wrap";
    if (edge != "wrap" && edge != "none") n.child("edge").fail(fmt::format("must be wrap or none (found '{}')", edge));
    rule.wrap = edge == "wrap";
  } else if (key == "grid") {
    n.object({"grid"});
    rule = read_grid(n.child("grid"));
  } else if (key == "xor") {
    n.object({"xor"});
    rule.kind = Kind::exclusive_or;
    rule.by = read_law(n.child("xor"));
  } else {
    n.fail(fmt::format("unknown peer rule '{}' (fixed, offset, grid, xor, or the strings any, none and reply)", key));
  }
  return rule;
}

std::int32_t read_tag(const Node& n, const std::string& key, bool receive) {
  if (!n.has(key)) return 0;
  const auto t = n.child(key);
  const double v = t.number();
  if (v < (receive ? -1 : 0) || v > kMaxTag || v != std::floor(v))
    t.fail(receive ? "a tag must be an integer of 0 or more, or -1 (MPI_ANY_TAG)"
                   : "a send's tag must be an integer of 0 or more (-1, MPI_ANY_TAG, is for receives)");
  return static_cast<std::int32_t>(v);
}

PeerRule destination(const Node& n) {
  auto rule = read_peer(n);
  if (rule.kind == Kind::any) n.fail("a destination cannot be any (only a receive's source can)");
  return rule;
}

PeerRule source(const Node& n) {
  auto rule = read_peer(n);
  if (rule.kind == Kind::reply) n.fail("reply is a destination: the source of the latest receive, answered");
  return rule;
}

CommRule read_comm(const Node& n) {
  CommRule rule;
  if (n.value.is_string() && n.string() == "world") return rule;
  if (!n.value.is_object() || n.value.size() != 1 || !(n.has("block") || n.has("stride")))
    n.fail("expected \"world\", {\"block\": LAW} (blocks of consecutive ranks) or {\"stride\": LAW} (ranks LAW apart)");
  rule.kind = n.has("block") ? CommRule::Kind::block : CommRule::Kind::stride;
  rule.size = read_law(n.child(n.has("block") ? "block" : "stride"));
  return rule;
}

// A wait's places among the outstanding requests: ascending, each once, with no count beside them.
void read_wait_positions(const Node& n, ProgramNode& node) {
  const auto list = n.child("positions");
  if (n.has("count")) list.fail("give either count (the oldest requests) or positions, not both");
  if (!list.value.is_array() || list.value.empty())
    list.fail("expected a non-empty array of places among the outstanding requests, 0 the oldest");
  for (std::size_t i = 0; i < list.value.size(); ++i) {
    const auto at = list.element(i);
    const auto place = static_cast<std::uint32_t>(at.integer(0, kMaxTag));
    if (!node.positions.empty() && place <= node.positions.back())
      at.fail("places must be in ascending order, each once");
    node.positions.push_back(place);
  }
  node.count = static_cast<std::int32_t>(node.positions.size());
}

void read_operation(const Node& n, ProgramNode& node) {
  node.kind = ProgramNode::Kind::operation;
  node.op = n.child("op").string();
  const auto& op = node.op;
  if (!is_program_operation(op))
    n.child("op").fail(fmt::format("unknown operation '{}' (send, ssend, bsend, rsend, isend, recv, irecv, sendrecv, "
                                   "wait, waitall or a collective of the catalog)", op));
  if (kSends.contains(op) || kReceives.contains(op)) {
    const bool receive = kReceives.contains(op);
    n.object({"op", "peer", "bytes", "tag"});
    node.peer = receive ? source(n.required("peer")) : destination(n.required("peer"));
    if (!receive || n.has("bytes")) node.bytes = read_law(n.required("bytes"));
    node.tag = node.tag2 = read_tag(n, "tag", receive);
  } else if (op == "sendrecv") {
    n.object({"op", "peer", "peer2", "bytes", "tag", "tag2"});
    node.peer = destination(n.required("peer"));
    node.peer2 = source(n.required("peer2"));
    node.bytes = read_law(n.required("bytes"));
    node.tag = read_tag(n, "tag", false);
    node.tag2 = read_tag(n, "tag2", true);
  } else if (op == "wait" || op == "waitall") {
    n.object(op == "wait" ? std::initializer_list<const char*>{"op", "count", "positions"}
                          : std::initializer_list<const char*>{"op"});
    node.count = op == "waitall" ? 0 : n.has("count") ? n.child("count").integer(0, kMaxTag) : 1;
    if (n.has("positions")) read_wait_positions(n, node);
  } else {
    n.object({"op", "bytes", "root", "comm"});
    if (n.has("bytes")) node.bytes = read_law(n.child("bytes"));
    if (n.has("comm")) node.comm = read_comm(n.child("comm"));
    if (n.has("root")) {
      node.peer = source(n.child("root"));
      if (node.peer.kind != Kind::fixed) n.child("root").fail("a root is one rank: {\"fixed\": EXPR}");
    }
  }
}

std::vector<ProgramNode> read_body(const Node& n, int depth, bool may_be_empty);

bool is_index_name(const std::string& name) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (name.empty() || !letter(name.front())) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '_'; });
}

// A loop the run ends: its first operation is the blocking receive whose tag ends it.
void read_until(const Node& n, int depth, ProgramNode& node) {
  n.object({"until_tag", "mean_times", "body"});
  if (depth >= kMaxNesting) n.fail(fmt::format("loops nested more than {} deep", kMaxNesting));
  node.kind = ProgramNode::Kind::until;
  node.tag = n.child("until_tag").integer(0, kMaxTag);
  if (n.has("mean_times")) node.times = read_law(n.child("mean_times"));
  node.body = read_body(n.required("body"), depth + 1, false);
  const auto& first = node.body.front();
  if (first.kind != ProgramNode::Kind::operation || first.op != "recv")
    n.required("body").element(0).fail("the first operation of an until_tag loop must be a blocking recv: the receive "
                                       "whose tag ends the loop");
}

ProgramNode read_node(const Node& n, int depth) {
  if (!n.value.is_object())
    n.fail("expected an object: {\"compute\": …}, {\"op\": …}, {\"repeat\": …, \"body\": […]} or {\"until_tag\": …, "
           "\"body\": […]}");
  ProgramNode node;
  if (n.has("compute")) {
    n.object({"compute"});
    node.seconds = read_law(n.child("compute"));
  } else if (n.has("repeat")) {
    n.object({"repeat", "index", "body"});
    if (depth >= kMaxNesting) n.fail(fmt::format("loops nested more than {} deep", kMaxNesting));
    node.kind = ProgramNode::Kind::repeat;
    node.times = read_law(n.child("repeat"));
    node.index = n.optional_string("index");
    if (n.has("index") && !is_index_name(node.index))
      n.child("index").fail("expected a name: a letter, then letters, digits or _");
    node.body = read_body(n.required("body"), depth + 1, false);
  } else if (n.has("until_tag")) {
    read_until(n, depth, node);
  } else if (n.has("op")) {
    read_operation(n, node);
  } else {
    n.fail("expected one of the fields compute, op, repeat or until_tag");
  }
  return node;
}

std::vector<ProgramNode> read_body(const Node& n, int depth, bool may_be_empty) {
  if (!n.value.is_array() || (!may_be_empty && n.value.empty())) n.fail("expected a non-empty array of operations");
  std::vector<ProgramNode> body;
  for (std::size_t i = 0; i < n.value.size(); ++i) body.push_back(read_node(n.element(i), depth));
  return body;
}

RankGroup read_group(const Node& n) {
  n.object({"ranks", "body"});
  const auto ranks = n.required("ranks");
  ranks.object({"first", "last"});
  return {read_law(ranks.required("first")), read_law(ranks.required("last")), read_body(n.required("body"), 0, true)};
}

// --- the laws ------------------------------------------------------------------------------

using Visit = std::function<void(const Law&, const std::string&)>;

void peer_laws(const PeerRule& rule, const std::string& field, const Visit& visit) {
  if (rule.kind == Kind::fixed) visit(rule.rank, field + ".fixed");
  if (rule.kind == Kind::offset) visit(rule.by, field + ".offset");
  if (rule.kind == Kind::exclusive_or) visit(rule.by, field + ".xor");
}

void body_laws(const std::vector<ProgramNode>& body, const std::string& field, const Visit& visit) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    const auto& node = body[i];
    const auto at = fmt::format("{}[{}]", field, i);
    if (node.kind == ProgramNode::Kind::compute) {
      visit(node.seconds, at + ".compute");
    } else if (node.kind == ProgramNode::Kind::repeat) {
      visit(node.times, at + ".repeat");
      body_laws(node.body, at + ".body", visit);
    } else if (node.kind == ProgramNode::Kind::until) {
      if (!node.times.expr.empty()) visit(node.times, at + ".mean_times");
      body_laws(node.body, at + ".body", visit);
    } else {
      const bool collective = is_collective_operation(node.op);
      if (!node.peer.rank.expr.empty() || node.peer.kind != Kind::fixed)
        peer_laws(node.peer, at + (collective ? ".root" : ".peer"), visit);
      if (node.op == "sendrecv") peer_laws(node.peer2, at + ".peer2", visit);
      if (!node.bytes.expr.empty()) visit(node.bytes, at + ".bytes");
      if (node.comm.kind != CommRule::Kind::world)
        visit(node.comm.size, at + (node.comm.kind == CommRule::Kind::block ? ".comm.block" : ".comm.stride"));
    }
  }
}

}  // namespace

bool is_collective_operation(const std::string& op) {
  const auto* info = model::find_operation_info(op);
  return info && (info->cls == model::OperationClass::collective || info->cls == model::OperationClass::barrier) &&
         !(op.size() > 1 && op.front() == 'i');
}

bool is_program_operation(const std::string& op) {
  return kSends.contains(op) || kReceives.contains(op) || op == "sendrecv" || op == "wait" || op == "waitall" ||
         is_collective_operation(op);
}

ProgramJson law_to_json(const Law& law) {
  if (exact(law)) return law.expr;
  return {{"expr", law.expr},
          {"low", law.low.empty() ? law.expr : law.low},
          {"high", law.high.empty() ? law.expr : law.high},
          {"form", law.form},
          {"coefficients", law.coefficients},
          {"errors", law.errors},
          {"cv_error", law.cv_error}};
}

ProgramJson program_to_json(const AppProgram& program) {
  ProgramJson groups = ProgramJson::array();
  for (const auto& g : program.groups)
    groups.push_back({{"ranks", {{"first", law_to_json(g.first)}, {"last", law_to_json(g.last)}}},
                      {"body", body_to_json(g.body)}});
  ProgramJson j = {{"groups", groups}};
  if (!program.measured_ranks.empty()) j["measured_ranks"] = program.measured_ranks;
  if (!program.machine.empty()) j["machine"] = program.machine;
  for (const auto& b : program.blocks_of_time) j["blocks_of_time"].push_back({{"p", b.p}, {"calls", b.calls}, {"share", b.share}});
  return j;
}

namespace {

std::vector<BlocksOfTime> read_blocks_of_time(const Node& n) {
  if (!n.value.is_array()) n.fail("expected an array of {p, calls, share}");
  std::vector<BlocksOfTime> out;
  for (std::size_t i = 0; i < n.value.size(); ++i) {
    const auto e = n.element(i);
    e.object({"p", "calls", "share"});
    BlocksOfTime b;
    b.p = e.required("p").integer(1, kMaxTag);
    b.calls = e.required("calls").non_negative();
    const auto share = e.required("share");
    b.share = share.non_negative();
    if (b.share > 1) share.fail("a share of the run must be at most 1");
    out.push_back(b);
  }
  return out;
}

}  // namespace

AppProgram read_program(const Node& n) {
  n.object({"groups", "measured_ranks", "machine", "blocks_of_time"});
  AppProgram program;
  const auto groups = n.required("groups");
  if (!groups.value.is_array() || groups.value.empty()) groups.fail("expected a non-empty array of {ranks, body}");
  for (std::size_t i = 0; i < groups.value.size(); ++i) program.groups.push_back(read_group(groups.element(i)));
  if (n.has("measured_ranks")) {
    const auto counts = n.child("measured_ranks");
    if (!counts.value.is_array()) counts.fail("expected an array of process counts");
    for (std::size_t i = 0; i < counts.value.size(); ++i)
      program.measured_ranks.push_back(counts.element(i).integer(1, kMaxTag));
  }
  program.machine = n.optional_string("machine");
  if (n.has("blocks_of_time")) program.blocks_of_time = read_blocks_of_time(n.child("blocks_of_time"));
  return program;
}

void for_each_law(const AppProgram& program, const Visit& visit) {
  for (std::size_t i = 0; i < program.groups.size(); ++i) {
    const auto& g = program.groups[i];
    const auto at = fmt::format("program.groups[{}]", i);
    visit(g.first, at + ".ranks.first");
    visit(g.last, at + ".ranks.last");
    body_laws(g.body, at + ".body", visit);
  }
}

std::string law_field(const Law& law, const std::string& field, const char* which) {
  return exact(law) ? field : field + "." + which;
}

namespace {

// The loops with an index, as the prefix of their body's fields ("program.groups[0].body[2].body[")
// and the index's name, each checked to be no other name of the model.
std::vector<std::pair<std::string, std::string>> index_loops(const AppModel& app, LawScope& scope) {
  std::vector<std::pair<std::string, std::string>> loops;
  std::function<void(const std::vector<ProgramNode>&, const std::string&)> walk =
      [&](const std::vector<ProgramNode>& body, const std::string& field) {
        for (std::size_t i = 0; i < body.size(); ++i) {
          const auto at = fmt::format("{}[{}]", field, i);
          if (body[i].kind == ProgramNode::Kind::until) walk(body[i].body, at + ".body");
          if (body[i].kind != ProgramNode::Kind::repeat) continue;
          if (!body[i].index.empty()) {
            try {
              scope.bind_index(body[i].index, 0);
              scope.release_index(body[i].index);
            } catch (const std::invalid_argument& e) {
              throw model::ModelError(app.where(at + ".index"), at + ".index", e.what());
            }
            loops.emplace_back(at + ".body[", body[i].index);
          }
          walk(body[i].body, at + ".body");
        }
      };
  const auto& groups = app.program->groups;
  for (std::size_t g = 0; g < groups.size(); ++g) walk(groups[g].body, fmt::format("program.groups[{}].body", g));
  return loops;
}

}  // namespace

void check_program_laws(const AppModel& app) {
  if (!app.program) return;
  std::map<std::string, double> first;
  for (const auto& param : app.parameters) first[param.name] = param.values.front();
  LawScope scope(app, app.processes.values.front(), first);
  const auto loops = index_loops(app, scope);
  for_each_law(*app.program, [&](const Law& law, const std::string& field) {
    // A law reads the indexes of the loops around it and no others (sibling loops may share a name).
    for (const auto& [body, name] : loops) {
      if (field.starts_with(body)) scope.bind_index(name, 0);
      else scope.release_index(name);
    }
    for (const auto& [body, name] : loops)
      if (field.starts_with(body)) scope.bind_index(name, 0);
    for (const auto& [text, which] : {std::pair{&law.expr, "expr"}, {&law.low, "low"}, {&law.high, "high"}}) {
      if (text->empty() || (which != std::string("expr") && *text == law.expr)) continue;
      try {
        scope.check(*text);
      } catch (const std::invalid_argument& e) {
        const auto path = law_field(law, field, which);
        throw model::ModelError(app.where(path), path, fmt::format("expression '{}': {}", *text, e.what()));
      }
    }
  });
}

}  // namespace augur::app
