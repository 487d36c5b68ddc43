// A tuned program is the replayed one with factors applied: everything else, its communicators,
// names and the wait sets its waits refer to, comes along unchanged.
#include <gtest/gtest.h>

#include "analyze/tuning.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim_program.hpp"

using namespace augur;
using namespace augur::sim;

TEST(AnalyzeTuning, ATunedProgramKeepsTheWaitSets) {
  FlatProgram p(2);
  const auto second = p.add_wait_set({1});
  p.assign(0, 0, p.add_body({irecv_op(1, 0), irecv_op(1, 1), wait_set_op(second), wait_op()}));
  p.assign(1, 1, p.add_body({send_op(0, 10, 1), compute_op(50e-6), send_op(0, 10, 0)}));
  const auto model = augur_test::toy();
  ModelNetwork net(model, model::Bound::avg);
  TraceRecorder recorder(2, {});
  const auto before = simulate(p, net, {}, &recorder);
  const analyze::GrainIndex grains(recorder.trace());
  analyze::Tuning halve;
  halve.ranks[1] = 0.5;
  const auto tuned = analyze::tuned_program(p, halve, grains);
  ASSERT_EQ(tuned->wait_set_count(), 1u);
  EXPECT_EQ(tuned->wait_set(0), std::vector<std::uint32_t>{1});
  const auto after = simulate(*tuned, net);
  // Rank 1's 50 µs of compute halved: rank 0's last message leaves 25 µs earlier.
  EXPECT_DOUBLE_EQ(before.ranks[0].finish - after.ranks[0].finish, 25e-6);
}
