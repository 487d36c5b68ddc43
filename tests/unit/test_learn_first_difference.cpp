// A refusal names the first difference between two counts: the calls side by side, with the
// trace, the rank, the call's place among the rank's calls, the MPI call, its peer and size.
#include <algorithm>
#include <bit>

#include <gtest/gtest.h>

#include "learn/first_difference.hpp"
#include "learn_synthetic.hpp"

using namespace augur;
using namespace augur::learn::testing;

namespace {

// A ring: a broadcast, then 10 steps of a shift to the right and a sum; from p = 8 on, each step
// gathers instead of summing (a phase that changes at larger counts).
std::vector<sim::Op> ring(int r, int p) {
  std::vector<sim::Op> ops{sim::collective_op(bcast, 64, 0)};
  for (int i = 0; i < 10; ++i) {
    ops.push_back(sim::compute_op(1e-3 / p));
    ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 800.0 / p));
    if (p >= 8) ops.push_back(sim::collective_op(allgather, 16));
    else ops.push_back(sim::collective_op(allreduce, 8));
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
  // At p = 4 only, a final barrier: p = 2's rank 0 has nothing after its last call. (A barrier
  // from p = 4 on would be a block absent at p = 2, test_learn_absent_blocks.cpp; one at p = 4
  // alone follows no law in p.)
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i < 6; ++i) ops.push_back(sim::sendrecv_op(r ^ 1, r ^ 1, 512));
    ops.push_back(sim::collective_op(allreduce, 8));
    if (p == 4) ops.push_back(sim::collective_op(barrier, 0));
    return ops;
  };
  const auto why = refusal(runs_of(program, {2, 4, 8}));
  EXPECT_NE(why.find("  p = 2: tr-2, rank 0: nothing more after call 7"), std::string::npos) << why;
  EXPECT_NE(why.find("  p = 4: tr-4, rank 0, call 8: MPI_Barrier, 0 B"), std::string::npos) << why;
}

TEST(LearnFirstDifference, ALoopAgainstASingleCallNamesTheLoopAndItsFirstCall) {
  // A send at p = 2, p / 2 swaps from p = 4 on (a loop), each to the next rank: the loop is not
  // the call repeated, so no loop of one stands for it (test_learn_single_iterations.cpp).
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i < 4; ++i) {
      ops.push_back(sim::collective_op(allreduce, 8));
      if (p == 2) ops.push_back(sim::send_op((r + 1) % p, 4096));
      for (int s = 0; p > 2 && s < p / 2; ++s) ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 4096));
    }
    return ops;
  };
  const auto why = refusal(runs_of(program, {2, 8}));
  EXPECT_NE(why.find("  p = 2: tr-2, rank 0, call 2: MPI_Send to 1, 4 KiB"), std::string::npos) << why;
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

TEST(LearnFirstDifference, GroupsThatChangeWithTheCountAreListedWithTheCallsWhereTheyPart) {
  // A rank's first call depends on its depth in a binary tree, floor(log2(r + 1)): the ranks fall
  // into 2 groups at p = 2, 3 at p = 4 and 4 at p = 16, so no two counts align.
  const auto program = [](int r, int) {
    const int depth = std::bit_width(static_cast<unsigned>(r + 1)) - 1;
    const Collective first[] = {bcast, allgather, alltoall, barrier};
    return std::vector<sim::Op>{sim::collective_op(first[std::min(depth, 3)], 64), sim::collective_op(allreduce, 8)};
  };
  const auto why = refusal(runs_of(program, {2, 4, 16}));
  EXPECT_NE(why.find("different number of groups at each process count"), std::string::npos) << why;
  EXPECT_NE(why.find("\n  p = 2 (tr-2): 2 groups: 0 | 1\n"), std::string::npos) << why;
  EXPECT_NE(why.find("\n  p = 4 (tr-4): 3 groups: 0 | 1..2 | 3\n"), std::string::npos) << why;
  EXPECT_NE(why.find("\n  p = 16 (tr-16): 4 groups: 0 | 1..2 | 3..6 | 7..15\n"), std::string::npos) << why;
  EXPECT_NE(why.find("where rank 0 and rank 1 part at p = 2:\n  tr-2, rank 0, call 1: MPI_Bcast, 64 B\n"
                     "  tr-2, rank 1, call 1: MPI_Allgather, 64 B\n"),
            std::string::npos)
      << why;
}

TEST(LearnFirstDifference, ManyGroupsAreListedUpToEight) {
  // Rank r sends r + 1 messages: a group a rank.
  const auto program = [](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i <= r; ++i) ops.push_back(sim::collective_op(i % 2 ? bcast : allreduce, 8));
    ops.push_back(sim::collective_op(barrier, p));
    return ops;
  };
  const auto why = refusal(runs_of(program, {2, 16}));
  EXPECT_NE(why.find("\n  p = 16 (tr-16): 16 groups: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | …\n"), std::string::npos) << why;
}

TEST(LearnFirstDifference, RanksThatPartOnlyInPeersAndSizesShowNoCalls) {
  // A shift along a line that is not periodic: the last rank sends to no one, so it is a group
  // of its own, but it makes the same calls as the others.
  const auto program = [](int r, int p) {
    const auto right = r + 1 < p ? r + 1 : sim::kNoPeer;
    return std::vector<sim::Op>{sim::send_op(right, 64.0 * (r + 1)), sim::collective_op(allreduce, 8)};
  };
  learn::LearnRun run{"tr-4", 4, 0, sequences_of(program, 4)};
  EXPECT_EQ(learn::where_ranks_part(run, 0, 3), std::nullopt);
  EXPECT_EQ(learn::where_ranks_part(run, 0, 1), std::nullopt);
}
