// One answer per program on `--network loggops`: a schedule (each rank's MPI calls, blocking or
// not, and waits) gives, rank by rank, what its GOAL translation (goal_writer.cpp) gives, and
// both give LogGOPSim's own end times. The schedules and LogGOPSim's times are in
// tests/data/loggopsim/ (make_ends.sh there made them: augur wrote each schedule as GOAL,
// LogGOPSim ran it); L = 3 µs, o = 1.5 µs, g = 1 µs, G = 6 ns/B, O = 0, and S = 64 KiB (every
// message eager) or 4 KiB (the 8 KiB and 16 KiB ones rendezvous).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/schedule.hpp"

using namespace augur::sim;

namespace {

const std::string kData = AUGUR_TEST_DATA "/loggopsim/";

std::string parameters(const std::string& mode) {
  return std::string("L=3us,o=1.5us,g=1us,G=6ns,O=0,S=") + (mode == "eager" ? "64KiB" : "4KiB");
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

// LogGOPSim's end times (integer ns, in seconds): every rank's, or only the latest's.
std::vector<double> loggopsim_ends(const std::string& file) {
  std::ifstream in(kData + file);
  EXPECT_TRUE(in) << file;
  std::vector<double> ends;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') ends.push_back(std::stod(line) * 1e-9);
  return ends;
}

void expect_ends(const Result& result, const std::vector<double>& ends, const std::string& what) {
  if (ends.size() == 1) {
    EXPECT_TRUE(close(result.predicted, ends[0])) << what << ": augur " << result.predicted << " s, LogGOPSim " << ends[0];
    return;
  }
  ASSERT_EQ(ends.size(), result.ranks.size()) << what;
  for (std::size_t r = 0; r < ends.size(); ++r)
    EXPECT_TRUE(close(result.ranks[r].finish, ends[r]))
        << what << " rank " << r << ": augur " << result.ranks[r].finish << " s, LogGOPSim " << ends[r];
}

// The schedule NAME.sched and its GOAL translation end every rank at the same time, LogGOPSim's,
// with messages eager and (above 4 KiB) rendezvous.
void expect_one_answer(const std::string& name) {
  const auto program = read_schedule_file(kData + name + ".sched");
  std::ostringstream goal_text;
  write_goal(*program, {}, goal_text);
  const auto goal = parse_goal(goal_text.str(), name + ".goal");
  for (const std::string mode : {"eager", "rendezvous"}) {
    const LogGOPSNetwork net(parse_loggops(parameters(mode)));
    const Result sequence = simulate(*program, net), graph = simulate(*goal, net);
    ASSERT_EQ(sequence.ranks.size(), graph.ranks.size());
    for (std::size_t r = 0; r < sequence.ranks.size(); ++r)
      EXPECT_TRUE(close(sequence.ranks[r].finish, graph.ranks[r].finish))
          << name << " " << mode << " rank " << r << ": schedule " << sequence.ranks[r].finish << " s, GOAL "
          << graph.ranks[r].finish << " s";
    const auto ends = loggopsim_ends(name + "." + mode + ".ends");
    expect_ends(sequence, ends, name + " " + mode + " (schedule)");
    expect_ends(graph, ends, name + " " + mode + " (GOAL)");
  }
}

}  // namespace

// Rank 0 sends 100 items of 8 KiB down the chain; each stage forwards each item as it comes, so
// the stages overlap: the latest end is one stream plus one hop per stage, not a stream per stage.
TEST(SimLogGOPSEquivalence, Pipeline) {
  expect_one_answer("pipeline_16");
  expect_one_answer("pipeline_1024");
}

// irecv, irecv, isend, isend, compute, waitall with both neighbours of a periodic line.
TEST(SimLogGOPSEquivalence, PeriodicHalo) {
  expect_one_answer("halo_16");
  expect_one_answer("halo_1024");
}

TEST(SimLogGOPSEquivalence, Ring) {
  expect_one_answer("ring_16");
  expect_one_answer("ring_1024");
}

// Waits for the older of two windows of non-blocking calls while the newer one runs.
TEST(SimLogGOPSEquivalence, OverlappingWindows) {
  expect_one_answer("windows_16");
  expect_one_answer("windows_1024");
}

// Blocking and non-blocking sends and receives of 1 KiB and 16 KiB, below and above S = 4 KiB.
TEST(SimLogGOPSEquivalence, MessagesBothSidesOfS) {
  expect_one_answer("both_sides_16");
  expect_one_answer("both_sides_1024");
}

// A sendrecv's send half waits for the gap after an isend while a message from the partner
// takes the processor: it starts once that message has been handled.
TEST(SimLogGOPSEquivalence, SendrecvWaitingForItsGap) { expect_one_answer("sendrecv_2"); }

// Sendrecv's send half above S is a rendezvous, as its GOAL send is: the seed's array program
// (exchanges with both neighbours, the ends with MPI_PROC_NULL) and a recursive-doubling
// allreduce of 64 KiB. LogGOPSim is left out: it decides a late receive's rendezvous by the
// receive's own size, which GOAL writes as 0 for a sendrecv's receive half (docs/sim-loggops.md).
TEST(SimLogGOPSEquivalence, SendrecvAboveS) {
  const LogGOPSNetwork net(parse_loggops(parameters("rendezvous")));
  for (const auto& args : std::vector<std::vector<std::string>>{{"p=8"}, {"algorithm=rd", "p=16", "bytes=64KiB"}}) {
    const auto gen = generate(args.size() == 1 ? "array" : "allreduce", args);
    std::ostringstream goal_text;
    write_goal(*gen.program, gen.algorithms, goal_text);
    Options options;
    options.algorithms = gen.algorithms;
    const Result sequence = simulate(*gen.program, net, options);
    const Result graph = simulate(*parse_goal(goal_text.str(), "gen.goal"), net);
    ASSERT_EQ(sequence.ranks.size(), graph.ranks.size());
    for (std::size_t r = 0; r < sequence.ranks.size(); ++r)
      EXPECT_TRUE(close(sequence.ranks[r].finish, graph.ranks[r].finish))
          << args[0] << " rank " << r << ": schedule " << sequence.ranks[r].finish << " s, GOAL " << graph.ranks[r].finish;
  }
}

// On a machine of nodes (4 ranks a node, each level its own LogGOPS terms) a pipeline, a halo,
// overlapping windows and messages both sides of S still give one answer as a schedule and as
// its GOAL translation, and not the answer of one level: each pair is priced by its level in both.
TEST(SimLogGOPSEquivalence, ScheduleAndGoalAgreeOnAMachineOfNodes) {
  const auto on_node = parse_loggops("L=0.3us,o=0.2us,g=0.1us,G=0.5ns,O=0,S=4KiB");
  for (const std::string name : {"pipeline_16", "halo_16", "windows_16", "both_sides_16"}) {
    const auto program = read_schedule_file(kData + name + ".sched");
    std::ostringstream goal_text;
    write_goal(*program, {}, goal_text);
    const auto goal = parse_goal(goal_text.str(), name + ".goal");
    const auto between = parse_loggops(parameters("rendezvous"));
    const LogGOPSNetwork placed(between, on_node, augur::timing::Placement::block(4)), flat(between);
    const Result sequence = simulate(*program, placed), graph = simulate(*goal, placed);
    ASSERT_EQ(sequence.ranks.size(), graph.ranks.size());
    for (std::size_t r = 0; r < sequence.ranks.size(); ++r)
      EXPECT_TRUE(close(sequence.ranks[r].finish, graph.ranks[r].finish))
          << name << " rank " << r << ": schedule " << sequence.ranks[r].finish << " s, GOAL " << graph.ranks[r].finish;
    EXPECT_LT(sequence.predicted, simulate(*program, flat).predicted) << name;
  }
}
