// Summary totals and the seed-text reader's handling of bad lines.
#include <gtest/gtest.h>

#include "trace/summary.hpp"
#include "trace/text_reader.hpp"

namespace {

using namespace augur::trace;

TEST(TraceSummary, TotalsPerRankAndOperationAndSlowestPhase) {
  Trace t;
  t.ranks.resize(2);
  auto bcast = t.intern("MPI_Bcast");
  auto phase = t.intern("input");
  t.ranks[0].states = {{0, 1, 0, StateKind::compute}, {1, 3, bcast, StateKind::mpi}};
  t.ranks[1].states = {{0, 2.5, bcast, StateKind::mpi}, {2.5, 3, 0, StateKind::wait}};
  t.ranks[0].phases = {{0, phase, true}, {1, phase, false}, {2, phase, true}, {2.5, phase, false}};
  t.ranks[1].phases = {{0, phase, true}, {1.2, phase, false}};
  t.ranks[1].collectives = {{0, 2.5, bcast, 0, 0, 800}};
  auto s = summarize(t);
  EXPECT_DOUBLE_EQ(s.ranks[0].compute, 1);
  EXPECT_DOUBLE_EQ(s.ranks[0].mpi, 2);
  EXPECT_DOUBLE_EQ(s.ranks[1].wait, 0.5);
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].calls, 2u);
  EXPECT_DOUBLE_EQ(s.operations[0].total, 4.5);
  EXPECT_DOUBLE_EQ(s.operations[0].max, 2.5);
  EXPECT_EQ(s.operations[0].bytes, 800u);
  ASSERT_EQ(s.phases.size(), 1u);
  EXPECT_DOUBLE_EQ(s.phases[0].time, 1.5);  // rank 0: 1 + 0.5, more than rank 1's 1.2
  EXPECT_EQ(summary_json(s)["per_operation"][0]["name"], "MPI_Bcast");
}

TEST(TextTrace, BadLinesAreSkippedAndReportedWithTheirLine) {
  auto t = read_text_trace("$bars\np[0] State\n$events\nu:p[0] at 0: P COMPUTE\n"
                           "u:p[0] at banana: P BCAST\nu:p[0] at 2: P DONE\nu:p[0] at 1: P COMPUTE\n", "t.txt");
  ASSERT_EQ(t.problems.size(), 2u);
  EXPECT_EQ(t.problems[0].message(), "t.txt: offset 48: line 5: bad event time");
  EXPECT_NE(t.problems[1].reason.find("line 7: time 1 goes backwards on p[0]"), std::string::npos);
  ASSERT_EQ(t.ranks[0].states.size(), 1u);
  EXPECT_EQ(t.label(t.ranks[0].states[0]), "COMPUTE");
  EXPECT_DOUBLE_EQ(t.ranks[0].states[0].end, 2);
}

}  // namespace
