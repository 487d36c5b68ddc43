// A block of calls repeated a number of times that is a law in p, once at the small counts: a
// halo's swaps along a dimension, one while the block is wider than the cutoff, two once it is
// narrower (LAMMPS's ghost exchange). Learned as a loop whose count is the law, and simulated at a
// count it was not learned from equal to the program written out at that count.
#include <gtest/gtest.h>

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

namespace test_learn_single_iterations {
namespace {

using namespace augur;
using namespace augur::learn::testing;

// Swaps along x: as many as the 3-D grid's x side over 2 (1 at p = 2 … 8, 2 at 16 … 64).
int swaps(int p) { return static_cast<int>(app::grid_side(p, 3, 0)) / 2; }

std::vector<sim::Op> halo(int r, int p) {
  std::vector<sim::Op> ops;
  for (int step = 0; step < 5; ++step) {
    ops.push_back(sim::compute_op(1e-3 / p));
    for (int s = 0; s < swaps(p); ++s) {
      ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 4096));
      ops.push_back(sim::compute_op(2e-6));
    }
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

TEST(LearnSingleIterations, ABlockRunOnceAtSmallCountsIsALoopWhoseCountIsALaw) {
  const auto learned = learn::learn_program(runs_of(halo), "");
  ASSERT_EQ(learned.notes.size(), 1u);
  EXPECT_EQ(learned.notes[0], "group 1: the block from MPI_Sendrecv ran once at p = 2, 4, 8, a loop of one there (its "
                              "count a law with the counts that repeat it)");
  const auto text = app::program_to_json(learned.program).dump();
  EXPECT_NE(text.find(R"x("repeat":"0.5*dims(p, 3, 0)")x"), std::string::npos) << text;
  // The step's main compute stays before the swaps, the small one between them inside.
  EXPECT_NE(text.find(R"x({"compute":"0.001/p"},{"repeat")x"), std::string::npos) << text;
  // At 32 and 64 ranks (x side 4: two swaps) the learned program runs as the program itself.
  expect_runs_as_written(text, halo, {32, 64});
}

}  // namespace
}  // namespace test_learn_single_iterations
