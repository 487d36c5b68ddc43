// One answer per program on `--network loggops`: a schedule (each rank's MPI calls, blocking or
// not, and waits) gives, rank by rank, what its GOAL translation (goal_writer.cpp) gives, and
// both give LogGOPSim's own end times (tests/data/loggopsim/, made by LogGOPSim from the same
// GOAL; README.md there has the commands). Parameters as in docs/sim-loggops.md's comparison:
// L = 3 µs, o = 1.5 µs, g = 1 µs, G = 6 ns/B, O = 0, S = 64 KiB (4 KiB for rendezvous).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/schedule.hpp"

using namespace augur::sim;

namespace {

const std::string kEager = "L=3us,o=1.5us,g=1us,G=6ns,O=0,S=64KiB";
const std::string kRendezvous = "L=3us,o=1.5us,g=1us,G=6ns,O=0,S=4KiB";

// Rank 0 sends `items` messages down the chain; each inner rank receives one and forwards it.
std::string pipeline(int p, int items, const std::string& size) {
  return "ranks " + std::to_string(p) + "\nrank 0 {\n repeat " + std::to_string(items) + " {\n  send 1 " + size +
         "\n }\n}\nranks 1..N-2 {\n repeat " + std::to_string(items) + " {\n  recv rank-1 " + size + "\n  send rank+1 " +
         size + "\n }\n}\nrank N-1 {\n repeat " + std::to_string(items) + " {\n  recv rank-1 " + size + "\n }\n}\n";
}

// A 1-D periodic halo: post both receives, send both ways, compute, wait for all four.
std::string halo(int p, int steps, const std::string& size) {
  return "ranks " + std::to_string(p) + "\nranks 0..N-1 {\n repeat " + std::to_string(steps) +
         " {\n  irecv rank-1 " + size + "\n  irecv rank+1 " + size + "\n  isend rank-1 " + size + "\n  isend rank+1 " +
         size + "\n  compute 10us\n  waitall\n }\n}\n";
}

// A token once round the ring.
std::string ring(int p, const std::string& size) {
  return "ranks " + std::to_string(p) + "\nrank 0 {\n send 1 " + size + "\n recv N-1 " + size +
         "\n}\nranks 1..N-1 {\n recv rank-1 " + size + "\n send rank+1 " + size + "\n}\n";
}

// Windows of non-blocking calls that overlap: each rank keeps two exchanges in flight with its
// right and left neighbours, a small and a large message (both sides of S), waiting for the
// older window while the newer one runs.
std::string windows(int p) {
  return "ranks " + std::to_string(p) +
         "\nranks 0..N-1 {\n irecv rank-1 2KiB\n isend rank+1 2KiB\n repeat 4 {\n  irecv rank+1 8KiB\n"
         "  isend rank-1 8KiB\n  compute 3us\n  wait 2\n  irecv rank-1 2KiB\n  isend rank+1 2KiB\n  wait 2\n }\n"
         " wait 2\n}\n";
}

// Blocking and non-blocking calls on both sides of S: a message below S and one above it to the
// right, each received from the left; the blocking send above S waits for its receive's post.
std::string both_sides(int p) {
  return "ranks " + std::to_string(p) +
         "\nranks 0..N-1 {\n repeat 3 {\n  irecv rank-1 1KiB\n  send rank+1 1KiB\n  irecv rank-1 16KiB\n"
         "  send rank+1 16KiB\n  waitall\n  isend rank+1 16KiB\n  recv rank-1 16KiB\n  wait\n  compute 2us\n }\n}\n";
}

std::string goal_of(const Program& program) {
  std::ostringstream out;
  write_goal(program, {}, out);
  return out.str();
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

// The schedule and its GOAL translation end every rank at the same time.
Result expect_one_answer(const std::string& schedule, const std::string& loggops) {
  const LogGOPSNetwork net(parse_loggops(loggops));
  const auto program = parse_schedule(schedule, "case.sched");
  const auto goal = parse_goal(goal_of(*program), "case.goal");
  const Result sequence = simulate(*program, net), graph = simulate(*goal, net);
  EXPECT_EQ(sequence.ranks.size(), graph.ranks.size());
  for (std::size_t r = 0; r < sequence.ranks.size() && r < graph.ranks.size(); ++r)
    EXPECT_TRUE(close(sequence.ranks[r].finish, graph.ranks[r].finish))
        << "rank " << r << ": schedule " << sequence.ranks[r].finish << " s, GOAL " << graph.ranks[r].finish << " s";
  return sequence;
}

// LogGOPSim's end times (integer ns) for a case: every rank's, or only the latest's.
std::vector<double> loggopsim_ends(const std::string& name) {
  std::ifstream in(AUGUR_TEST_DATA "/loggopsim/" + name + ".ends");
  EXPECT_TRUE(in) << name;
  std::vector<double> ends;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') ends.push_back(std::stod(line) * 1e-9);
  return ends;
}

void expect_loggopsim(const Result& result, const std::string& name) {
  const auto ends = loggopsim_ends(name);
  if (ends.size() == 1) {
    EXPECT_TRUE(close(result.predicted, ends[0])) << name << ": augur " << result.predicted << " s, LogGOPSim " << ends[0];
    return;
  }
  ASSERT_EQ(ends.size(), result.ranks.size()) << name;
  for (std::size_t r = 0; r < ends.size(); ++r)
    EXPECT_TRUE(close(result.ranks[r].finish, ends[r]))
        << name << " rank " << r << ": augur " << result.ranks[r].finish << " s, LogGOPSim " << ends[r];
}

}  // namespace

TEST(SimLogGOPSEquivalence, EagerPipeline) {
  expect_loggopsim(expect_one_answer(pipeline(16, 100, "8KiB"), kEager), "pipeline_eager_16");
  expect_loggopsim(expect_one_answer(pipeline(1024, 100, "8KiB"), kEager), "pipeline_eager_1024");
}

TEST(SimLogGOPSEquivalence, RendezvousPipeline) {
  expect_loggopsim(expect_one_answer(pipeline(16, 100, "8KiB"), kRendezvous), "pipeline_rendezvous_16");
  expect_loggopsim(expect_one_answer(pipeline(1024, 100, "8KiB"), kRendezvous), "pipeline_rendezvous_1024");
}

TEST(SimLogGOPSEquivalence, PeriodicHalo) {
  expect_loggopsim(expect_one_answer(halo(16, 10, "8KiB"), kEager), "halo_16");
  expect_loggopsim(expect_one_answer(halo(1024, 10, "8KiB"), kEager), "halo_1024");
  expect_loggopsim(expect_one_answer(halo(16, 10, "8KiB"), kRendezvous), "halo_rendezvous_16");
}

TEST(SimLogGOPSEquivalence, Ring) {
  expect_loggopsim(expect_one_answer(ring(16, "8KiB"), kEager), "ring_16");
  expect_loggopsim(expect_one_answer(ring(1024, "8KiB"), kRendezvous), "ring_rendezvous_1024");
}

TEST(SimLogGOPSEquivalence, OverlappingWindows) {
  expect_loggopsim(expect_one_answer(windows(16), kRendezvous), "windows_16");
  expect_loggopsim(expect_one_answer(windows(1024), kRendezvous), "windows_1024");
}

TEST(SimLogGOPSEquivalence, MessagesBothSidesOfS) {
  expect_loggopsim(expect_one_answer(both_sides(16), kRendezvous), "both_sides_16");
  expect_loggopsim(expect_one_answer(both_sides(1024), kRendezvous), "both_sides_1024");
}
