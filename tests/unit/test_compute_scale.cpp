// The default compute scale of `augur run`: the target's compute step over the host's when both
// models know theirs, and 1 with the reason otherwise.
#include <gtest/gtest.h>

#include <string>

#include "model/machines.hpp"
#include "revprof/compute_scale.hpp"

namespace augur::revprof {
namespace {

model::Model machine(const std::string& name, double seconds_per_step) {
  model::Model m;
  m.machine.name = name;
  m.compute.seconds_per_step = seconds_per_step;
  return m;
}

TEST(ComputeScale, TargetStepOverHostStep) {
  const auto host = machine("here", 2e-9), target = machine("there", 1e-7);
  const auto scale = default_compute_scale(&host, target);
  EXPECT_DOUBLE_EQ(scale.factor, 50);
  EXPECT_NE(scale.reason.find("50 = compute step of 'there' (100 ns) / compute step of 'here' (2 ns)"), std::string::npos)
      << scale.reason;
}

TEST(ComputeScale, AFasterTargetGivesLessThanOne) {
  const auto host = machine("old", 4e-9), target = machine("new", 1e-9);
  EXPECT_DOUBLE_EQ(default_compute_scale(&host, target).factor, 0.25);
}

TEST(ComputeScale, OneWithoutAHostModel) {
  const auto scale = default_compute_scale(nullptr, machine("there", 1e-7));
  EXPECT_EQ(scale.factor, 1);
  EXPECT_NE(scale.reason.find("no host model"), std::string::npos) << scale.reason;
}

TEST(ComputeScale, OneWhenEitherModelLacksTheStep) {
  const auto known = machine("known", 1e-9), unknown = machine("unknown", 0);
  auto scale = default_compute_scale(&unknown, known);
  EXPECT_EQ(scale.factor, 1);
  EXPECT_NE(scale.reason.find("host model 'unknown'"), std::string::npos) << scale.reason;
  scale = default_compute_scale(&known, unknown);
  EXPECT_EQ(scale.factor, 1);
  EXPECT_NE(scale.reason.find("target model 'unknown'"), std::string::npos) << scale.reason;
}

TEST(ComputeScale, PublishedMachinesGiveTheirStepsRatio) {
  // t3d.json states a step of 0.1 µs, generic.json the seed's placeholder of 1 µs.
  const auto t3d = model::load_machine("t3d"), generic = model::load_machine("generic");
  EXPECT_NEAR(default_compute_scale(&generic, t3d).factor, 0.1, 1e-12);
}

}  // namespace
}  // namespace augur::revprof
