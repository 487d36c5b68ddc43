// A refusal names the first difference between two counts: the calls side by side, with the
// trace, the rank, the call's place among the rank's calls, the MPI call, its peer and size.
#include <gtest/gtest.h>

#include "learn_synthetic.hpp"

using namespace augur;
using namespace augur::learn::testing;

namespace {

// A ring: a broadcast, then 10 steps of a shift to the right and a sum; from p = 8 on, each step
// also gathers before the sum (a phase that appears only at larger counts).
std::vector<sim::Op> ring(int r, int p) {
  std::vector<sim::Op> ops{sim::collective_op(bcast, 64, 0)};
  for (int i = 0; i < 10; ++i) {
    ops.push_back(sim::compute_op(1e-3 / p));
    ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 800.0 / p));
    if (p >= 8) ops.push_back(sim::collective_op(allgather, 16));
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

}  // namespace

TEST(LearnFirstDifference, ARefusalShowsTheFirstCallsThatDifferSideBySide) {
  const auto why = refusal(runs_of(ring));
  // The loops are alike at p = 2 and 4; the first count compared with p = 8 is p = 2: its rank 0's
  // third call (the broadcast, the shift, then) is the sum where p = 8's is the gather.
  EXPECT_NE(why.find("group 1 (ranks 0..15): the first difference between p = 2 and p = 8:"), std::string::npos) << why;
  EXPECT_NE(why.find("  p = 2: tr-2, rank 0, call 3: MPI_Allreduce, 8 B"), std::string::npos) << why;
  EXPECT_NE(why.find("  p = 8: tr-8, rank 0, call 3: MPI_Allgather, 16 B"), std::string::npos) << why;
  EXPECT_EQ(why.find("steps at p"), std::string::npos) << why;
}

TEST(LearnFirstDifference, ABodyThatEndsEarlierSaysAfterWhichCall) {
  // From p = 4 on, a final barrier: p = 2's rank 0 has nothing after its last call.
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i < 6; ++i) ops.push_back(sim::sendrecv_op(r ^ 1, r ^ 1, 512));
    ops.push_back(sim::collective_op(allreduce, 8));
    if (p >= 4) ops.push_back(sim::collective_op(barrier, 0));
    return ops;
  };
  const auto why = refusal(runs_of(program, {2, 4}));
  EXPECT_NE(why.find("  p = 2: tr-2, rank 0: nothing more after call 7"), std::string::npos) << why;
  EXPECT_NE(why.find("  p = 4: tr-4, rank 0, call 8: MPI_Barrier, 0 B"), std::string::npos) << why;
}

TEST(LearnFirstDifference, ALoopAgainstASingleCallNamesTheLoopAndItsFirstCall) {
  // Swaps per step: one at p = 2, p / 2 from p = 4 on (a loop), each to the next rank.
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i < 4; ++i) {
      ops.push_back(sim::collective_op(allreduce, 8));
      for (int s = 0; s < std::max(1, p / 2); ++s) ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 4096));
    }
    return ops;
  };
  const auto why = refusal(runs_of(program, {2, 8}));
  EXPECT_NE(why.find("  p = 2: tr-2, rank 0, call 2: MPI_Sendrecv to 1, from 1, 4 KiB"), std::string::npos) << why;
  EXPECT_NE(why.find("  p = 8: tr-8, rank 0, call 2: a loop of 4 iterations, from MPI_Sendrecv to 1, from 7, 4 KiB"),
            std::string::npos)
      << why;
}

TEST(LearnFirstDifference, RunsThatAgreeAreLearned) {
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops{sim::collective_op(bcast, 64, 0)};
    for (int i = 0; i < 10; ++i) {
      ops.push_back(sim::compute_op(1e-3 / p));
      ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 800.0 / p));
      ops.push_back(sim::collective_op(allreduce, 8));
    }
    return ops;
  };
  EXPECT_EQ(refusal(runs_of(program)), "");
}
