// A loop's index in the program section of an application model: mod in laws, the index read
// and written, its errors with line, field and reason, and the loop laid out and simulated
// iteration by iteration.
#include <gtest/gtest.h>

#include <string>

#include "app/app_model.hpp"
#include "app_program_text.hpp"
#include "app/app_program_json.hpp"
#include "model/error.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/app_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_app_program_index {
namespace {

using namespace augur;
using namespace augur::test;
using augur::test::error_of;  // over another file's error_of in a unity build
using sim::Op;
using sim::OpKind;

namespace {

// A rotating root, a shrinking size and a compute in mod(−i, 3), as gauss's elimination reads.
const std::string kRotating = all_ranks(R"x([{"repeat": "4", "index": "i", "body": [
  {"compute": "mod(-i, 3) * 1e-3"},
  {"op": "bcast", "bytes": "8 * (4 - i)", "root": {"fixed": "mod(p - 1 - i, p)"}}]}])x");

}  // namespace

TEST(AppProgramIndex, ModWrapsNegativeValuesIntoZeroToTheModulus) {
  const auto p = sim::instantiate(parsed(kRotating), 3);
  const auto ops = ops_of(*p, 1);
  ASSERT_EQ(ops.size(), 8u);
  const double seconds[] = {0, 2e-3, 1e-3, 0};  // mod(0, 3), mod(−1, 3), mod(−2, 3), mod(−3, 3)
  const std::int32_t roots[] = {2, 1, 0, 2};     // mod(2 − i, 3)
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ops[2 * i].kind, OpKind::compute);
    EXPECT_DOUBLE_EQ(ops[2 * i].value, seconds[i]) << "iteration " << i;
    EXPECT_EQ(ops[2 * i + 1].peer, roots[i]) << "iteration " << i;
    EXPECT_EQ(ops[2 * i + 1].value, 8 * (4 - i)) << "iteration " << i;
  }
}

TEST(AppProgramIndex, ModByZeroIsNotANumberAndRefusedWithItsField) {
  const auto app = parsed(all_ranks(R"x([{"op": "allreduce", "bytes": "mod(8, p - 2)"}])x"));
  EXPECT_EQ(ops_of(*sim::instantiate(app, 5), 0)[0].value, 2);
  try {
    sim::instantiate(app, 2);
    FAIL() << "mod(8, 0) instantiated";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("program.groups[0].body[0].bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nan"), std::string::npos) << e.what();
  }
}

TEST(AppProgramIndex, TheIndexIsReadAndWrittenBack) {
  const auto app = parsed(kRotating);
  const auto& loop = app.program->groups.at(0).body.at(0);
  EXPECT_EQ(loop.index, "i");
  const auto text = app::program_to_json(*app.program).dump();
  EXPECT_NE(text.find("\"index\":\"i\""), std::string::npos) << text;
  const auto again = app::parse_app_model(app_text(text), "again.json");
  EXPECT_EQ(again.program->groups.at(0).body.at(0).index, "i");
  // A loop without an index writes none.
  const auto plain = parsed(all_ranks(R"([{"repeat": "2", "body": [{"compute": "1"}]}])"));
  EXPECT_EQ(app::program_to_json(*plain.program).dump().find("index"), std::string::npos);
}

TEST(AppProgramIndex, BadIndexesNameTheLineFieldAndReason) {
  const std::string head = "{\"groups\": [{\"ranks\": {\"first\": \"0\", \"last\": \"p-1\"}, \"body\": [\n";
  auto error = [&](const std::string& node) { return error_of(head + "{\"compute\": \"1\"},\n" + node + "]}]}"); };
  EXPECT_EQ(error(R"({"repeat": "2", "index": "2i", "body": [{"compute": "i"}]})"),
            "app.json:7: program.groups[0].body[1].index: expected a name: a letter, then letters, digits or _");
  EXPECT_EQ(error(R"({"repeat": "2", "index": 3, "body": [{"compute": "1"}]})").substr(0, 48),
            "app.json:7: program.groups[0].body[1].index: exp");
  EXPECT_EQ(error(R"({"repeat": "2", "index": "n", "body": [{"compute": "1"}]})"),
            "app.json:7: program.groups[0].body[1].index: the loop index 'n' is already p, a parameter or a constant");
  // Outside its loop an index is no name at all.
  EXPECT_EQ(error("{\"repeat\": \"2\", \"index\": \"i\", \"body\": [{\"compute\": \"i\"}]},\n{\"compute\": \"i\"}"),
            "app.json:8: program.groups[0].body[2].compute: expression 'i': 'i' is not p, a parameter, a constant or "
            "the index of an enclosing loop (a program's laws may use only these)");
}

// Two ranks on a LogGOPS network followed by hand (o = g = 1 µs, L = 10 µs, G = 0: a message
// is received 12 µs after its send starts). Rank 0 computes 5 µs, sends, computes 10 µs, sends:
// its sends start at 5 and 16 µs, so rank 1 receives at 17 and 28 µs. Without the index both
// computes would be 5 µs and rank 1 would finish at 23 µs.
TEST(AppProgramIndex, IterationsAreSimulatedEachWithItsOwnLaws) {
  const auto app = parsed(R"x({"groups": [
    {"ranks": {"first": "0", "last": "0"}, "body": [{"repeat": "2", "index": "k", "body": [
      {"compute": "(1 + k) * 5e-6"}, {"op": "send", "peer": {"fixed": "1"}, "bytes": "0"}]}]},
    {"ranks": {"first": "1", "last": "1"}, "body": [{"repeat": "2", "body": [
      {"op": "recv", "peer": {"fixed": "0"}, "bytes": "0"}]}]}]})x");
  const auto program = sim::instantiate(app, 2);
  sim::LogGOPSNetwork net(sim::parse_loggops("L=10us,o=1us,g=1us,G=0"));
  const auto r = sim::simulate(*program, net);
  EXPECT_NEAR(r.ranks[0].compute, 15e-6, 1e-12);
  EXPECT_NEAR(r.ranks[0].finish, 17e-6, 1e-12);
  EXPECT_NEAR(r.ranks[1].finish, 28e-6, 1e-12);
  EXPECT_NEAR(r.predicted, 28e-6, 1e-12);
  EXPECT_EQ(r.messages, 2u);
}

}  // namespace
}  // namespace test_app_program_index
