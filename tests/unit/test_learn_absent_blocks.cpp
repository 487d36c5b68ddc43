// A block of calls present only where the process grid splits a dimension: a periodic 3-D halo
// whose swaps along a dimension of one rank are the rank's own copies, with no MPI call (as
// LAMMPS's ghost exchange). Learned as a loop whose count is 1 where the dimension is split and 0
// elsewhere, and simulated at counts it was not learned from equal to the program written out.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/app_program_json.hpp"
#include "app/process_grid.hpp"
#include "app_program_text.hpp"
#include "learn_synthetic.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/app_program.hpp"

namespace test_learn_absent_blocks {
namespace {

using namespace augur;
using namespace augur::learn::testing;

// The neighbour `shift` steps along dimension d of the periodic grid of MPI_Dims_create, ranks
// in MPI_Cart_create's order (the last dimension fastest).
int neighbour(int r, int p, int d, int shift) {
  const auto dims = app::balanced_dims(p, 3);
  std::array<int, 3> at{};
  for (int k = 2, rest = r; k >= 0; --k) at[k] = rest % dims[k], rest /= dims[k];
  at[d] = (at[d] + shift + dims[d]) % dims[d];
  return (at[0] * dims[1] + at[1]) * dims[2] + at[2];
}

std::vector<sim::Op> halo(int r, int p) {
  const auto dims = app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 5; ++step) {
    ops.push_back(sim::compute_op(1e-3 / p));
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 1) continue;  // the rank's own ghosts: copied, no call
      const double face = 98304.0 / (dims[(d + 1) % 3] * dims[(d + 2) % 3]);
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, 1), neighbour(r, p, d, -1), face, 2 * d));
      ops.push_back(sim::compute_op(2e-6));
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, -1), neighbour(r, p, d, 1), face, 2 * d + 1));
      ops.push_back(sim::compute_op(2e-6));
    }
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

TEST(LearnAbsentBlocks, ABlockMadeOnlyWhereTheGridSplitsADimensionIsALoopOfZeroElsewhere) {
  const auto learned = learn::learn_program(runs_of(halo), "");
  const auto text = app::program_to_json(learned.program).dump();
  ASSERT_EQ(learned.notes.size(), 2u) << text;
  EXPECT_EQ(learned.notes[0], "group 1: the block from MPI_Sendrecv is absent at p = 2, a loop of zero there (its count "
                              "a law with the counts that make it)");
  EXPECT_EQ(learned.notes[1], "group 1: the block from MPI_Sendrecv is absent at p = 2, 4, a loop of zero there (its "
                              "count a law with the counts that make it)");
  EXPECT_NE(text.find(R"x("repeat":"(dims(p, 3, 1)>1)")x"), std::string::npos) << text;
  EXPECT_NE(text.find(R"x("repeat":"(dims(p, 3, 2)>1)")x"), std::string::npos) << text;
  expect_runs_as_written(text, halo, {3, 6, 32, 64});
}

// The halo above with one tag a dimension, as LAMMPS's swaps have: where a dimension has two
// ranks the two swaps go to one neighbour, the same call twice (a loop of two), and where it has
// more they are two calls.
std::vector<sim::Op> one_tag_halo(int r, int p) {
  const auto dims = app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 5; ++step) {
    ops.push_back(sim::compute_op(1e-3 / p));
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 1) continue;
      const double face = 98304.0 / (dims[(d + 1) % 3] * dims[(d + 2) % 3]);
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, 1), neighbour(r, p, d, -1), face, d));
      ops.push_back(sim::compute_op(2e-6));
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, -1), neighbour(r, p, d, 1), face, d));
      ops.push_back(sim::compute_op(2e-6));
    }
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

TEST(LearnAbsentBlocks, SwapsToOneNeighbourTwiceAreLaidOutAsTheSwapsToTwo) {
  // x has 2 ranks at p = 2 … 8 (a loop of two there) and 4 at 16; y and z are absent before 4, 8.
  const auto learned = learn::learn_program(runs_of(one_tag_halo, {2, 4, 8, 16, 32}), "");
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_EQ(text.find(R"x("repeat":"2")x"), std::string::npos) << text;
  expect_runs_as_written(text, one_tag_halo, {6, 64, 128});
}

// LAMMPS's ghost swaps along x where the cutoff spans blocks: a swap up and a swap down (one tag),
// as many pairs as the cutoff spans blocks, here half the dimension's side. Where x has two ranks
// the pair's swaps go to one neighbour: one call twice, a loop of two; where it has four, a loop of
// two pairs of different calls.
std::vector<sim::Op> deep_halo(int r, int p) {
  const auto dims = app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 4; ++step) {
    ops.push_back(sim::compute_op(1e-3 / p));
    for (int pair = 0; pair < dims[0] / 2; ++pair) {
      ops.push_back(sim::sendrecv_op(neighbour(r, p, 0, 1), neighbour(r, p, 0, -1), 4096, 0));
      ops.push_back(sim::compute_op(1e-6));
      ops.push_back(sim::sendrecv_op(neighbour(r, p, 0, -1), neighbour(r, p, 0, 1), 4096, 0));
      ops.push_back(sim::compute_op(1e-6));
    }
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

TEST(LearnAbsentBlocks, ALoopOfSwapsToOneNeighbourIsRolledAgainAsTheLoopOfPairsAtOtherCounts) {
  const auto learned = learn::learn_program(runs_of(deep_halo, {2, 4, 8, 16, 32}), "");
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_NE(text.find(R"x("repeat":"0.5*dims(p, 3, 0)")x"), std::string::npos) << text;
  expect_runs_as_written(text, deep_halo, {64, 128, 512});
}

// A server that asks each client in turn: rank 0 sends to 1, 2, …, p − 1 and takes each answer.
// At larger counts it makes more calls, but to more ranks: a loop over the clients, not blocks
// present from a count on.
std::vector<sim::Op> round_robin(int r, int p) {
  std::vector<sim::Op> ops;
  for (int round = 0; round < 3; ++round) {
    if (r == 0) {
      for (int client = 1; client < p; ++client) {
        ops.push_back(sim::send_op(client, 4, 1));
        ops.push_back(sim::recv_op(client, 2));
      }
    } else {
      ops.push_back(sim::recv_op(0, 1));
      ops.push_back(sim::compute_op(1e-4));
      ops.push_back(sim::send_op(0, 4096, 2));
    }
  }
  return ops;
}

TEST(LearnAbsentBlocks, AServerTalkingToMoreRanksIsALoopOverThemNotBlocksOfZero) {
  const auto learned = learn::learn_program(runs_of(round_robin), "");
  EXPECT_EQ(learned.absent_blocks, 0u);
  expect_runs_as_written(app::program_to_json(learned.program).dump(), round_robin, {32, 64});
}

// LAMMPS's exchange of atoms that left the block: along each dimension the grid splits, a count
// then the atoms with the next neighbour, and where the dimension has more than two ranks (the
// previous neighbour is another rank) the same again with the previous one.
std::vector<sim::Op> exchange(int r, int p) {
  const auto dims = app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 3; ++step) {
    ops.push_back(sim::compute_op(5e-4 / p));
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 1) continue;
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, 1), neighbour(r, p, d, -1), 4, 3 * d));
      ops.push_back(sim::sendrecv_op(neighbour(r, p, d, 1), neighbour(r, p, d, -1), 1024, 3 * d + 1));
      if (dims[d] > 2) ops.push_back(sim::sendrecv_op(neighbour(r, p, d, -1), neighbour(r, p, d, 1), 1024, 3 * d + 2));
    }
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

TEST(LearnAbsentBlocks, ASecondExchangeWhereADimensionHasMoreThanTwoRanksIsALawOfItsSide) {
  const auto learned = learn::learn_program(runs_of(exchange, {2, 4, 8, 16, 32}), "");
  const auto text = app::program_to_json(learned.program).dump();
  // x has more than two ranks from p = 16 on, y at 32; z never does at 2 … 32, so the counts
  // checked keep it at one or two (6 is 3 × 2 × 1, 40 is 5 × 4 × 2).
  EXPECT_NE(text.find(R"x("repeat":"(dims(p, 3, 0)>2)")x"), std::string::npos) << text;
  EXPECT_NE(text.find(R"x("repeat":"(dims(p, 3, 1)>2)")x"), std::string::npos) << text;
  expect_runs_as_written(text, exchange, {6, 12, 24, 40});
}

// The same halo as examples/jacobi3d.c with periodic=1 posts it: the receives of the dimensions
// it splits, then the sends, then one MPI_Waitall over as many requests as it posted.
std::vector<sim::Op> posted_halo(int r, int p) {
  const auto dims = app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 4; ++step) {
    ops.push_back(sim::compute_op(2e-3 / p));
    int posted = 0;
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 1) continue;
      ops.push_back(sim::irecv_op(neighbour(r, p, d, -1), 2 * d));
      ops.push_back(sim::irecv_op(neighbour(r, p, d, 1), 2 * d + 1));
      posted += 2;
    }
    for (int d = 0; d < 3; ++d) {
      if (dims[d] == 1) continue;
      const double face = 98304.0 / (dims[(d + 1) % 3] * dims[(d + 2) % 3]);
      ops.push_back(sim::isend_op(neighbour(r, p, d, 1), face, 2 * d));
      ops.push_back(sim::isend_op(neighbour(r, p, d, -1), face, 2 * d + 1));
      posted += 2;
    }
    ops.push_back(sim::wait_op(posted));
  }
  return ops;
}

TEST(LearnAbsentBlocks, AWaitOverTheRequestsOfTheSplitDimensionsWaitsForAllOutstanding) {
  const auto learned = learn::learn_program(runs_of(posted_halo), "");
  const auto text = app::program_to_json(learned.program).dump();
  // Four blocks absent somewhere: the receives and the sends of dimensions 1 and 2.
  EXPECT_EQ(learned.notes.size(), 4u) << text;
  // 4, 8, 12 and 12 requests at p = 2, 4, 8, 16: the wait takes all those outstanding.
  EXPECT_NE(text.find(R"x({"op":"wait","count":0})x"), std::string::npos) << text;
  expect_runs_as_written(text, posted_halo, {6, 32, 64});
}

}  // namespace
}  // namespace test_learn_absent_blocks

namespace test_learn_absent_blocks {
namespace {

// A step whose exchange and broadcast along the third dimension are made only where it is split.
std::vector<sim::Op> broadcast_where_split(int r, int p) {
  const auto dims = augur::app::balanced_dims(p, 3);
  std::vector<sim::Op> ops;
  for (int step = 0; step < 4; ++step) {
    ops.push_back(sim::compute_op(1e-3 / p));
    ops.push_back(sim::collective_op(allreduce, 8));
    if (dims[2] == 1) continue;
    ops.push_back(sim::sendrecv_op(neighbour(r, p, 2, 1), neighbour(r, p, 2, -1), 4096, 0));
    ops.push_back(sim::collective_op(bcast, 16, 0));
  }
  return ops;
}

}  // namespace

// Each trace numbers collectives as it meets them, so the runs that lack the block number theirs
// otherwise than those that make it; the block copied to them keeps its broadcast a broadcast.
TEST(LearnAbsentBlocks, ABlockCopiedToTheCountsThatLackItKeepsItsCollectivesNames) {
  auto runs = runs_of(broadcast_where_split);
  for (auto& run : runs) {
    if (run.p > 4) continue;
    run.sequences.names = {"allreduce", "alltoall", "allgather", "barrier", "bcast"};
    for (auto& ops : run.sequences.ops)
      for (auto& op : ops)
        if (op.kind == sim::OpKind::collective) op.name = op.name == allreduce ? 0 : 4;
  }
  const auto learned = learn::learn_program(runs, "");
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_NE(text.find(R"x("repeat":"(dims(p, 3, 2)>1)")x"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("op":"bcast")"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"("op":"alltoall")"), std::string::npos) << text;
  expect_runs_as_written(text, broadcast_where_split, {6, 32, 64});
}

}  // namespace test_learn_absent_blocks
