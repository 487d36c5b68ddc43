// Utilisation over time per rank, from a simulated run of a two-rank schedule timed by hand on a
// toy LogGOPS (o = 1 µs, L = 10 µs: a message is received 12 µs after its send starts).
#include <gtest/gtest.h>

#include "sim/kernel/kernel.hpp"
#include "sim/kernel/trace_sink.hpp"
#include "sim/network/loggops.hpp"
#include "sim_program.hpp"
#include "trace/utilisation.hpp"

using namespace augur;
using namespace augur::sim;

namespace {

// Rank 0 computes over 0–10 µs and sends over 10–11; rank 1 waits in its receive over 0–22
// and computes over 22–32.
trace::Utilisation two_ranks(int bins) {
  auto program = augur_test::program({{compute_op(10e-6), send_op(1, 0)}, {recv_op(0), compute_op(10e-6)}});
  LogGOPSNetwork net(parse_loggops("L=10us,o=1us,g=1us,G=0"));
  TraceRecorder recorder(2, trace::TraceHeader{trace::TraceMode::simulated, "toy", "seconds, simulated", "test"});
  simulate(program, net, {}, &recorder);
  return trace::utilisation(recorder.trace(), bins);
}

void expect_bins(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t b = 0; b < want.size(); ++b) EXPECT_NEAR(got[b], want[b], 1e-12) << "bin " << b;
}

}  // namespace

TEST(TraceUtilisation, FractionsOfEachIntervalComputingAndInMpi) {
  const auto u = two_ranks(4);  // 8 µs each
  EXPECT_NEAR(u.bin_seconds, 8e-6, 1e-18);
  expect_bins(u.compute[0], {1, 0.25, 0, 0});
  expect_bins(u.mpi[0], {0, 0.125, 0, 0});
  expect_bins(u.compute[1], {0, 0, 0.25, 1});
  expect_bins(u.mpi[1], {1, 1, 0.75, 0});
}

TEST(TraceUtilisation, TextStripAndCsv) {
  const auto u = two_ranks(4);
  const auto text = trace::utilisation_text(u, 16);
  EXPECT_NE(text.find("|Cc..|"), std::string::npos) << text;
  EXPECT_NE(text.find("|MMMC|"), std::string::npos) << text;
  EXPECT_EQ(trace::utilisation_text(u, 1).find("|MMMC|"), std::string::npos);
  const auto csv = trace::utilisation_csv(u);
  EXPECT_EQ(csv.rfind("rank,bin,begin,end,compute,mpi\n", 0), 0u);
  EXPECT_NE(csv.find("\n1,2,1.6e-05,2.4e-05,0.25,0.75\n"), std::string::npos) << csv;
  const auto j = trace::utilisation_json(u);
  EXPECT_EQ(j.at("bins").get<int>(), 4);
  EXPECT_EQ(j.at("ranks").at(1).at("mpi").size(), 4u);
}
