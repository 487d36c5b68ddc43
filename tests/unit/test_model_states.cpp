// The `states` of a regime in the model file: what min and max answer with them, what the loader
// refuses, and a model file written before them, which answers as it did.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "model/model_json.hpp"

namespace augur::model {
namespace {

std::string with_states(const std::string& states) {
  return R"({"augur_model": 1, "machine": {"name": "m"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"},
      "operations": {"send": {"regimes": [{"from": 0, "expr": "10 + d", "spread": {"below": 0.5, "above": 0.5},
                                           "states": )" +
         states + "}]}}}";
}

TEST(ModelStates, StatesReplaceTheSpreadInAFreeExpression) {
  const auto model = parse_model(with_states(R"({"fast": 0.9, "slow": 1.5})"), "m.json");
  const auto e = model.estimate("send", 2, 10);
  EXPECT_NEAR(e.min, 18e-6, 1e-15);
  EXPECT_NEAR(e.avg, 20e-6, 1e-15);
  EXPECT_NEAR(e.max, 30e-6, 1e-15);
}

TEST(ModelStates, TheLoaderNamesABadStatesField) {
  for (const auto& [states, field] : {std::pair{R"({"fast": 1.1, "slow": 1.5})", "states.fast"},
                                      std::pair{R"({"fast": 0.9, "slow": 0.8})", "states.slow"},
                                      std::pair{R"({"fast": -0.1, "slow": 1})", "states.fast"},
                                      std::pair{R"({"slow": 1})", "'fast'"},
                                      std::pair{R"({"fast": 1, "slow": 1, "typical": 1})", "'typical'"}}) {
    try {
      (void)parse_model(with_states(states), "m.json");
      ADD_FAILURE() << states << " was accepted";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

// Written by augur fit before the states were (tests/data/fitted-before-states.json); the
// times are what `augur calc --json` answered with that build.
TEST(ModelStates, AModelFileWithoutStatesAnswersAsBefore) {
  struct Query {
    std::string op;
    double p, bytes;
    Estimate before;
  };
  const std::vector<Query> queries{
      {"pingpong", 2, 8, {1.5769371729466107e-07, 1.7074578330500412e-07, 5.5991206738378001e-07}},
      {"pingpong", 2, 1000, {2.4252078583039952e-07, 3.2912584294677879e-07, 4.1667731494175457e-07}},
      {"pingpong", 2, 1048576, {-0.00066623088375822141, 0.00026328831315093019, 0.0028320256996719534}},
      {"allreduce", 2, 0, {9.5853446632766882e-09, 1.0804687512744325e-08, 2.1086530334890458e-08}},
      {"allreduce", 2, 65536, {1.2840317362116588e-05, 2.4379354751485293e-05, 4.5234209473405379e-05}},
      {"bcast", 2, 2048, {3.3334469937395683e-07, 3.8253322057085315e-07, 6.5273342566863185e-07}},
      {"bcast_root", 2, 100, {1.0846024364854765e-07, 1.1545948237600567e-07, 1.2334176838187895e-07}},
      {"sendrecv", 2, 65536, {6.9175326458249457e-06, 8.9786881370863785e-06, 1.6309457361249617e-05}},
  };
  const auto model = load_model_file(AUGUR_TEST_DATA "/fitted-before-states.json");
  for (const auto& q : queries) {
    ASSERT_FALSE(model.at(q.op).regime_for(q.bytes).states.has_value()) << q.op;
    EXPECT_TRUE(std::get<FittedForm>(model.at(q.op).regime_for(q.bytes).law).stats.alternatives.empty()) << q.op;
    const auto now = model.estimate(q.op, q.p, q.bytes);
    for (auto bound : {Bound::min, Bound::avg, Bound::max})
      EXPECT_NEAR(now.at(bound), q.before.at(bound), 1e-12 * std::abs(q.before.at(bound)))
          << q.op << " " << q.bytes << " B, " << to_string(bound);
  }
  // Written again, it stays a file without states.
  EXPECT_EQ(to_json(model).dump().find("\"states\""), std::string::npos);
}

}  // namespace
}  // namespace augur::model
