// The program section of an application model: written and read back unchanged, its errors
// with line and field, and its instantiation at a process count (peers of a 2-D stencil at
// corners, edges and inside, bodies shared, quantities rounded, bounds and parameters).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "app/app_model.hpp"
#include "app_program_text.hpp"
#include "app/app_program_json.hpp"
#include "model/error.hpp"
#include "sim/program/app_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_app_program {
namespace {

using namespace augur;
using namespace augur::test;
using augur::test::error_of;  // over another file's error_of in a unity build
using sim::kAny;
using sim::kNoPeer;
using sim::Op;
using sim::OpKind;

namespace {

app::Law law(const std::string& expr) { return {expr, expr, expr, "", {}, {}, 0}; }

app::PeerRule rule(app::PeerRule::Kind kind, const std::string& value = "") {
  app::PeerRule r;
  r.kind = kind;
  (kind == app::PeerRule::Kind::fixed ? r.rank : r.by) = law(value);
  return r;
}

app::ProgramNode operation(const std::string& op, app::PeerRule peer, const std::string& bytes) {
  app::ProgramNode node;
  node.kind = app::ProgramNode::Kind::operation;
  node.op = op;
  node.peer = std::move(peer);
  if (!bytes.empty()) node.bytes = law(bytes);
  return node;
}

// A non-periodic 5-point stencil: receive from the four neighbours, send to them, wait, sum.
const std::string kStencil = all_ranks(R"([{"repeat": "100", "body": [
  {"compute": "n * n / p * 1e-8"},
  {"op": "irecv", "peer": {"grid": {"dims": 2, "dim": 0, "shift": -1}}, "bytes": "8 * n", "tag": 0},
  {"op": "irecv", "peer": {"grid": {"dims": 2, "dim": 0, "shift": 1}}, "bytes": "8 * n", "tag": 1},
  {"op": "irecv", "peer": {"grid": {"dims": 2, "dim": 1, "shift": -1}}, "bytes": "8 * n", "tag": 2},
  {"op": "irecv", "peer": {"grid": {"dims": 2, "dim": 1, "shift": 1}}, "bytes": "8 * n", "tag": 3},
  {"op": "isend", "peer": {"grid": {"dims": 2, "dim": 0, "shift": 1}}, "bytes": "8 * n", "tag": 0},
  {"op": "isend", "peer": {"grid": {"dims": 2, "dim": 0, "shift": -1}}, "bytes": "8 * n", "tag": 1},
  {"op": "isend", "peer": {"grid": {"dims": 2, "dim": 1, "shift": 1}}, "bytes": "8 * n", "tag": 2},
  {"op": "isend", "peer": {"grid": {"dims": 2, "dim": 1, "shift": -1}}, "bytes": "8 * n", "tag": 3},
  {"op": "waitall"},
  {"op": "allreduce", "bytes": "8"}]}])");

// The peers of the first iteration's four receives: up, down, left, right.
std::vector<std::int32_t> neighbours(const sim::Program& p, int rank) {
  const auto ops = ops_of(p, rank);
  return {ops[1].peer, ops[2].peer, ops[3].peer, ops[4].peer};
}

}  // namespace

TEST(AppProgram, EveryKindOfNodeRuleAndLawIsReadBackAsWritten) {
  using Kind = app::PeerRule::Kind;
  app::AppProgram program;
  program.measured_ranks = {2, 4, 8, 16};
  program.machine = "t3d";
  program.blocks_of_time = {{2, 24, 0.875}, {16, 432, 0.5}};
  app::RankGroup group{law("0"), law("p-1"), {}};
  app::ProgramNode compute;
  compute.seconds = {"0.5 / p", "0.4 / p", "0.6 / p", "a/p", {0.5}, {0.05}, 0.02};
  group.body.push_back(compute);
  auto offset = rule(Kind::offset, "-1");
  offset.wrap = false;
  auto grid = rule(Kind::grid);
  grid.dims = 3, grid.dim = 2, grid.shift = -1, grid.periodic = true, grid.first_fastest = true;
  app::ProgramNode loop;
  loop.kind = app::ProgramNode::Kind::repeat;
  loop.times = law("n / 2");
  loop.body = {operation("isend", offset, "8 * n"), operation("irecv", rule(Kind::any), ""),
               operation("ssend", rule(Kind::exclusive_or, "4"), "16"), operation("recv", grid, "16"),
               operation("sendrecv", rule(Kind::fixed, "p - 1"), "64"), operation("bcast", rule(Kind::fixed, "0"), "c"),
               operation("barrier", {}, ""), operation("send", rule(Kind::none), "1")};
  loop.body[1].tag = loop.body[1].tag2 = -1;
  loop.body[4].peer2 = rule(Kind::any);
  loop.body[4].tag = 7, loop.body[4].tag2 = -1;
  app::ProgramNode wait;
  wait.kind = app::ProgramNode::Kind::operation;
  wait.op = "wait";
  wait.count = 4;
  loop.body.push_back(wait);
  group.body.push_back(loop);
  program.groups = {group, {law("0"), law("0"), {}}};

  const auto written = app::program_to_json(program);
  const auto app = parsed(written.dump(2));
  ASSERT_TRUE(app.program);
  EXPECT_EQ(app::program_to_json(*app.program), written);
  EXPECT_EQ(app.program->measured_ranks, program.measured_ranks);
  ASSERT_EQ(app.program->blocks_of_time.size(), 2u);
  EXPECT_EQ(app.program->blocks_of_time[1].p, 16);
  EXPECT_EQ(app.program->blocks_of_time[1].calls, 432);
  EXPECT_EQ(app.program->blocks_of_time[0].share, 0.875);
  const auto& read = app.program->groups[0].body;
  EXPECT_EQ(read[0].seconds.coefficients, std::vector<double>{0.5});
  EXPECT_EQ(read[0].seconds.high, "0.6 / p");
  EXPECT_EQ(read[1].body[3].peer.dims, 3);
  EXPECT_TRUE(read[1].body[3].peer.periodic);
  EXPECT_TRUE(read[1].body[3].peer.first_fastest);
  EXPECT_FALSE(read[1].body[0].peer.wrap);
  EXPECT_EQ(read[1].body[4].tag2, -1);
  // An exact law is a bare string, a fitted one an object with its bounds and fit.
  EXPECT_TRUE(written["groups"][0]["body"][1]["repeat"].is_string());
  EXPECT_EQ(written["groups"][0]["body"][0]["compute"]["low"], "0.4 / p");
  EXPECT_EQ(written["groups"][0]["body"][1]["body"][0]["peer"].dump(), R"({"offset":"-1","edge":"none"})");
}

TEST(AppProgram, ErrorsNameTheLineAndTheField) {
  const std::string head = "{\"groups\": [{\"ranks\": {\"first\": \"0\", \"last\": \"p-1\"}, \"body\": [\n";
  auto error = [&](const std::string& node) { return error_of(head + "{\"compute\": \"1\"},\n" + node + "]}]}"); };
  // The program starts on line 5, its first node on 6 and the node tested on 7.
  EXPECT_EQ(error(R"({"op": "sned", "peer": "none", "bytes": "1"})"),
            "app.json:7: program.groups[0].body[1].op: unknown operation 'sned' (send, ssend, bsend, rsend, isend, recv, "
            "irecv, sendrecv, wait, waitall or a collective of the catalog)");
  EXPECT_EQ(error(R"({"op": "send", "peer": {"diagonal": "1"}, "bytes": "1"})"),
            "app.json:7: program.groups[0].body[1].peer: unknown peer rule 'diagonal' (fixed, offset, grid, xor, or the "
            "strings any, none and reply)");
  EXPECT_EQ(error(R"({"op": "send", "peer": {"offset": "1", "edge": "bounce"}, "bytes": "1"})"),
            "app.json:7: program.groups[0].body[1].peer.edge: must be wrap or none (found 'bounce')");
  EXPECT_EQ(error(R"({"op": "send", "peer": "any", "bytes": "1"})"),
            "app.json:7: program.groups[0].body[1].peer: a destination cannot be any (only a receive's source can)");
  EXPECT_EQ(error(R"({"op": "recv", "peer": "any", "tag": -2})"),
            "app.json:7: program.groups[0].body[1].tag: a tag must be an integer of 0 or more, or -1 (MPI_ANY_TAG)");
  EXPECT_EQ(error(R"({"op": "send", "peer": "none", "bytes": "1", "tag": -1})"),
            "app.json:7: program.groups[0].body[1].tag: a send's tag must be an integer of 0 or more (-1, MPI_ANY_TAG, "
            "is for receives)");
  EXPECT_EQ(error(R"({"op": "bcast", "bytes": "8", "root": {"offset": "1"}})"),
            "app.json:7: program.groups[0].body[1].root: a root is one rank: {\"fixed\": EXPR}");
  EXPECT_EQ(error(R"({"op": "send", "peer": {"grid": {"dims": 2, "dim": 2, "shift": 1}}, "bytes": "1"})"),
            "app.json:7: program.groups[0].body[1].peer.grid.dim: must be an integer in 0..1");
  EXPECT_EQ(error(R"({"repeat": "3", "body": []})"),
            "app.json:7: program.groups[0].body[1].body: expected a non-empty array of operations");
  // A law that reads a name the program does not have, or calls an operation's time.
  EXPECT_EQ(error("{\"repeat\": \"3\", \"body\": [\n  {\"op\": \"allreduce\", \"bytes\": \"8 * m\"}]}"),
            "app.json:8: program.groups[0].body[1].body[0].bytes: expression '8 * m': 'm' is not p, a parameter, a "
            "constant or the index of an enclosing loop (a program's laws may use only these)");
  EXPECT_EQ(error(R"x({"compute": {"expr": "1", "low": "tsend(2, 8)"}})x"),
            "app.json:7: program.groups[0].body[1].compute.low: expression 'tsend(2, 8)': a program's law gives "
            "seconds, bytes or a count; it cannot call t<op> or tloop");
  EXPECT_EQ(error(R"({"compute": "1 +"})").substr(0, 50), "app.json:7: program.groups[0].body[1].compute: exp");
  EXPECT_EQ(error_of("{\"machine\": \"t3d\"}"), "app.json:5: program: missing required field 'groups'");
  EXPECT_EQ(error_of("{\"groups\": []}"), "app.json:5: program.groups: expected a non-empty array of {ranks, body}");
  const std::string group = "\"groups\": [{\"ranks\": {\"first\": \"0\", \"last\": \"p-1\"}, \"body\": [{\"compute\": \"1\"}]}]";
  EXPECT_EQ(error_of("{" + group + ", \"blocks_of_time\": [{\"p\": 4, \"calls\": 8, \"share\": 1.5}]}"),
            "app.json:5: program.blocks_of_time[0].share: a share of the run must be at most 1");
  EXPECT_EQ(error_of("{" + group + ", \"blocks_of_time\": [{\"p\": 4, \"calls\": -1, \"share\": 0.5}]}"),
            "app.json:5: program.blocks_of_time[0].calls: must not be negative (found -1)");
  EXPECT_EQ(error_of("{" + group + ", \"blocks_of_time\": {\"p\": 4}}"),
            "app.json:5: program.blocks_of_time: expected an array of {p, calls, share}");
}

TEST(AppProgram, StencilPeersAtCornersEdgesAndInside) {
  const auto p = sim::instantiate(parsed(kStencil), 16);  // a 4 x 4 grid, rank = 4 row + column
  using V = std::vector<std::int32_t>;
  const std::int32_t none = kNoPeer;
  EXPECT_EQ(neighbours(*p, 0), (V{none, 4, none, 1}));
  EXPECT_EQ(neighbours(*p, 3), (V{none, 7, 2, none}));
  EXPECT_EQ(neighbours(*p, 12), (V{8, none, none, 13}));
  EXPECT_EQ(neighbours(*p, 15), (V{11, none, 14, none}));
  EXPECT_EQ(neighbours(*p, 1), (V{none, 5, 0, 2}));
  EXPECT_EQ(neighbours(*p, 4), (V{0, 8, none, 5}));
  EXPECT_EQ(neighbours(*p, 11), (V{7, 15, 10, none}));
  EXPECT_EQ(neighbours(*p, 5), (V{1, 9, 4, 6}));
  EXPECT_EQ(neighbours(*p, 10), (V{6, 14, 9, 11}));
  const auto ops = ops_of(*p, 5);
  ASSERT_EQ(ops.size(), 100u * 11);
  EXPECT_EQ(ops[0].kind, OpKind::compute);
  EXPECT_DOUBLE_EQ(ops[0].value, 64.0 * 64 / 16 * 1e-8);
  EXPECT_EQ(ops[5].kind, OpKind::isend);
  EXPECT_EQ(ops[5].peer, 9);
  EXPECT_EQ(ops[5].value, 512);
  EXPECT_EQ(ops[6].tag, 1);
  EXPECT_EQ(ops[9].kind, OpKind::wait);
  EXPECT_EQ(ops[9].tag2, 0);
  EXPECT_EQ(ops[10].kind, OpKind::collective);
  EXPECT_EQ(p->names()[ops[10].name], "allreduce");
  EXPECT_EQ(ops[10].peer, -1);
  EXPECT_EQ(ops_of(*p, 5)[11 * 99 + 3].peer, 4);  // the last iteration as the first
}

TEST(AppProgram, ManyRanksShareNineBodies) {
  const auto p = sim::instantiate(parsed(kStencil), 4096);  // 64 x 64
  std::set<const std::vector<Op>*> bodies;
  for (int r = 0; r < p->nranks(); ++r) bodies.insert(&p->body_of(r));
  EXPECT_EQ(bodies.size(), 9u);
  EXPECT_EQ(&p->body_of(65), &p->body_of(4030));
  EXPECT_EQ(neighbours(*p, 65), (std::vector<std::int32_t>{1, 129, 64, 66}));
  EXPECT_EQ(neighbours(*p, 4030), (std::vector<std::int32_t>{3966, 4094, 4029, 4031}));
}

TEST(AppProgram, QuantitiesAreRoundedAndNeverNegative) {
  const auto p = sim::instantiate(parsed(all_ranks(R"([
    {"repeat": "2.5", "body": [{"op": "send", "peer": {"offset": "1"}, "bytes": "10.6"}]},
    {"repeat": "1 - p", "body": [{"compute": "1"}]},
    {"op": "recv", "peer": {"offset": "-1"}, "bytes": "0.4"},
    {"op": "bcast", "bytes": "2 - p", "root": {"fixed": "p - 1.2"}},
    {"compute": "-1"}])")), 4);
  const auto ops = ops_of(*p, 0);
  ASSERT_EQ(ops.size(), 3u + 3);  // 2.5 rounds to 3 sends, 1 - p to no loop
  EXPECT_EQ(ops[0].value, 11);
  EXPECT_EQ(ops[0].peer, 1);
  EXPECT_EQ(ops[3].peer, 3);  // rank -1 wraps around
  EXPECT_EQ(ops[3].value, 0);
  EXPECT_EQ(ops[4].value, 0);
  EXPECT_EQ(ops[4].peer, 3);  // the root, p - 1.2 rounded
  EXPECT_EQ(ops[5].kind, OpKind::compute);
  EXPECT_EQ(ops[5].value, 0);
}

TEST(AppProgram, OffsetsXorAndGroups) {
  const auto p = sim::instantiate(parsed(R"({"groups": [
    {"ranks": {"first": "0", "last": "p-1"}, "body": [
      {"op": "send", "peer": {"offset": "1", "edge": "none"}, "bytes": "1"},
      {"op": "sendrecv", "peer": {"xor": "4"}, "peer2": "any", "bytes": "1", "tag2": -1}]},
    {"ranks": {"first": "p-1", "last": "p+5"}, "body": [{"op": "recv", "peer": {"fixed": "0"}}]},
    {"ranks": {"first": "2", "last": "1"}, "body": [{"compute": "1"}]}]})"), 6);
  EXPECT_EQ(ops_of(*p, 0)[0].peer, 1);
  EXPECT_EQ(ops_of(*p, 4)[0].peer, 5);
  EXPECT_EQ(ops_of(*p, 1)[1].peer, 5);
  EXPECT_EQ(ops_of(*p, 1)[1].peer2, kAny);
  EXPECT_EQ(ops_of(*p, 1)[1].tag2, -1);
  EXPECT_EQ(ops_of(*p, 3)[1].peer, kNoPeer);  // 3 xor 4 = 7 is past the last rank
  const auto last = ops_of(*p, 5);  // the later group replaces the first for rank 5
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].kind, OpKind::recv);
  EXPECT_EQ(last[0].peer, 0);
}

TEST(AppProgram, BoundsPickTheLawsLowOrHigh) {
  const auto app = parsed(all_ranks(R"([{"repeat": {"expr": "10", "low": "9", "high": "11"}, "body": [
    {"compute": {"expr": "0.064 / p", "low": "0.06 / p", "high": "0.07 / p", "form": "a/p", "coefficients": [0.064],
                 "errors": [0.003], "cv_error": 0.01}}]}])"));
  for (const auto& [bound, times, seconds] : {std::tuple{model::Bound::min, 9u, 0.06 / 4},
                                              std::tuple{model::Bound::avg, 10u, 0.064 / 4},
                                              std::tuple{model::Bound::max, 11u, 0.07 / 4}}) {
    sim::AppSettings settings;
    settings.bound = bound;
    settings.compute_scale = 2;
    const auto ops = ops_of(*sim::instantiate(app, 4, settings), 3);
    ASSERT_EQ(ops.size(), times);
    EXPECT_DOUBLE_EQ(ops[0].value, 2 * seconds);
  }
}

TEST(AppProgram, ParametersTakeTheirOneValueOrMustBeGiven) {
  const auto body = all_ranks(R"([{"op": "allreduce", "bytes": "n + c"}])");
  EXPECT_EQ(ops_of(*sim::instantiate(parsed(body), 2), 0)[0].value, 64 + 3);
  const auto several = parsed(body, "[64, 128]");
  EXPECT_THROW(sim::instantiate(several, 2), std::invalid_argument);
  sim::AppSettings settings;
  settings.parameters = {{"n", 1000}, {"c", 1}};
  EXPECT_EQ(ops_of(*sim::instantiate(several, 2, settings), 1)[0].value, 1001);
  settings.parameters = {{"m", 1}};
  EXPECT_THROW(sim::instantiate(several, 2, settings), std::invalid_argument);
}

TEST(AppProgram, FixedRankOutsideTheWorldNamesTheFieldAndCount) {
  const auto app = parsed(all_ranks(R"([{"op": "send", "peer": {"fixed": "p"}, "bytes": "1"}])"));
  try {
    sim::instantiate(app, 8);
    FAIL() << "a send to rank p instantiated";
  } catch (const model::ModelError& e) {
    EXPECT_EQ(std::string(e.what()), "app.json:5: program.groups[0].body[0].peer.fixed: rank 8 is outside 0..7 at p = 8");
  }
}

TEST(AppProgram, AModelWithoutAProgramIsNotRun) {
  const auto app = app::parse_app_model(R"({"augur_app": 1, "name": "phases_only", "parameters": {"p": {"values": [1]}},
                                            "phases": [{"name": "all", "expr": "1"}]})", "plain.json");
  EXPECT_FALSE(app.program);
  EXPECT_THROW(sim::instantiate(app, 2), std::invalid_argument);
}

TEST(AppProgram, UnrollingPastTheLimitIsRefused) {
  const auto app = parsed(all_ranks(R"([{"repeat": "1e6", "body": [{"op": "send", "peer": {"xor": "1"}, "bytes": "1"}]}])"));
  sim::AppSettings settings;
  settings.max_operations = 1u << 20;
  EXPECT_THROW(sim::instantiate(app, 4, settings), model::ModelError);
}

}  // namespace
}  // namespace test_app_program
