// Collectives on split communicators in the program section: blocks of consecutive ranks (a
// grid's rows) and ranks a stride apart (its columns), read and written, their errors named,
// and laid out as one communicator per block or stride.
#include <gtest/gtest.h>

#include <string>

#include "app/app_model.hpp"
#include "app_program_text.hpp"
#include "app/app_program_json.hpp"
#include "sim/program/app_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_app_program_comm {
namespace {

using namespace augur;
using namespace augur::test;
using augur::test::error_of;  // over another file's error_of in a unity build

namespace {

const std::string kRowsAndColumns = all_ranks(R"x([
  {"op": "allreduce", "bytes": "64", "comm": {"block": "dims(p, 2, 1)"}},
  {"op": "bcast", "bytes": "8", "root": {"fixed": "0"}, "comm": {"stride": "dims(p, 2, 1)"}}])x");

}  // namespace

TEST(AppProgramComm, RowsAndColumnsAreOneCommunicatorEach) {
  const auto program = sim::instantiate(parsed(kRowsAndColumns), 8);  // 4 × 2
  const auto& comms = program->comms();
  ASSERT_EQ(comms.size(), 1u + 4 + 2);
  EXPECT_EQ(comms[1].members, (std::vector<int>{0, 1}));
  EXPECT_EQ(comms[4].members, (std::vector<int>{6, 7}));
  EXPECT_EQ(comms[5].members, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(comms[6].members, (std::vector<int>{1, 3, 5, 7}));
  const auto rank5 = ops_of(*program, 5);
  EXPECT_EQ(program->comms()[rank5[0].comm].members, (std::vector<int>{4, 5}));
  EXPECT_EQ(program->comms()[rank5[1].comm].members, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(rank5[1].peer, 0);  // the root: the communicator's first rank
}

TEST(AppProgramComm, IsWrittenAndReadBack) {
  const auto app = parsed(kRowsAndColumns);
  const auto json = app::program_to_json(*app.program);
  EXPECT_EQ(json["groups"][0]["body"][0]["comm"]["block"], "dims(p, 2, 1)");
  EXPECT_EQ(json["groups"][0]["body"][1]["comm"]["stride"], "dims(p, 2, 1)");
  const auto again = app::parse_app_model(app_text(json.dump()), "again.json");
  EXPECT_EQ(again.program->groups[0].body[1].comm.kind, app::CommRule::Kind::stride);
}

TEST(AppProgramComm, BadCommunicatorsNameTheFieldAndReason) {
  EXPECT_EQ(error_of(all_ranks(R"x([
    {"op": "allreduce", "bytes": "8", "comm": {"rows": "2"}}])x")),
            "app.json:6: program.groups[0].body[0].comm: expected \"world\", {\"block\": LAW} (blocks of consecutive "
            "ranks) or {\"stride\": LAW} (ranks LAW apart)");
  const auto zero = parsed(all_ranks(R"x([{"op": "allreduce", "bytes": "8", "comm": {"block": "p - p"}}])x"));
  try {
    sim::instantiate(zero, 4);
    FAIL() << "a block of 0 ranks instantiated";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("comm.block: 0 is outside 1..4 at p = 4"), std::string::npos) << e.what();
  }
  // A root beyond the smallest communicator.
  const auto root = parsed(all_ranks(R"x([{"op": "bcast", "bytes": "8", "root": {"fixed": "2"}, "comm": {"block": "2"}}])x"));
  EXPECT_THROW(sim::instantiate(root, 4), model::ModelError);
}

}  // namespace
}  // namespace test_app_program_comm
