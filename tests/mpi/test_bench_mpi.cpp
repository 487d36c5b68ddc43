// augur-bench-mpi under mpirun: the points it writes, and an interrupted run resumed.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <set>
#include <thread>
#include <tuple>

#include "../cli/augur_runner.hpp"
#include "bench_support.hpp"
#include "fit/raw.hpp"

namespace fs = std::filesystem;
using augur::fit::RawSet;
using namespace augur::test;
using augur_test::run;

namespace {

using Key = std::tuple<std::string, int, double>;

std::set<Key> keys_of(const RawSet& raw, std::size_t& duplicates) {
  std::set<Key> keys;
  duplicates = 0;
  for (const auto& m : raw.points)
    if (!keys.insert({m.op, m.p, m.bytes}).second) ++duplicates;
  return keys;
}

void add_sizes(std::set<Key>& keys, const std::string& op, int p, const std::vector<double>& sizes) {
  for (double b : sizes) keys.insert({op, p, b});
}

// The arguments of augur-bench-mpi measuring `ops` up to `max_size` without refinement, budget or
// node kernels, at `fewest` to `most` repetitions a point.
std::vector<std::string> small_sweep(const fs::path& raw, const std::string& ops, const std::string& max_size,
                                     int fewest, int most) {
  return {AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", ops, "--max-size", max_size, "--refine", "0",
          "--min-reps", std::to_string(fewest), "--max-reps", std::to_string(most), "--budget", "0", "--no-compute"};
}

const std::vector<double> kBytesTo64{0, 1, 2, 4, 8, 16, 32, 64};
const std::vector<double> kIntsTo64{0, 4, 8, 16, 32, 64};

}  // namespace

TEST(BenchMpi, SweepOnThreeProcessesWritesEveryPlannedPoint) {
  const auto dir = scratch_dir("bench_sweep");
  const auto raw = dir / "raw.jsonl";
  const auto result = run(mpirun(3, {AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops",
                                     "pingpong,bcast,allreduce,barrier,isendoverlap,comm_split",
                                     "--max-size", "64", "--refine", "0", "--min-reps", "8",
                                     "--max-reps", "20", "--budget", "0"}));
  ASSERT_EQ(result.status, 0) << result.out;

  const RawSet set = augur::fit::read_raw_file(raw);
  std::set<Key> expected;
  add_sizes(expected, "pingpong", 2, kBytesTo64);
  add_sizes(expected, "isendoverlap", 2, kBytesTo64);
  for (int p : {2, 3}) {
    add_sizes(expected, "bcast", p, kBytesTo64);
    add_sizes(expected, "allreduce", p, kIntsTo64);
    add_sizes(expected, "barrier", p, {0});
    add_sizes(expected, "comm_split", p, {0});
  }
  std::size_t duplicates = 0;
  EXPECT_EQ(keys_of(set, duplicates), expected);
  EXPECT_EQ(duplicates, 0u);

  for (const auto& m : set.points) {
    SCOPED_TRACE(m.op + " p=" + std::to_string(m.p) + " bytes=" + std::to_string(m.bytes));
    EXPECT_LE(m.min, m.median);
    EXPECT_LE(m.median, m.max);
    EXPECT_GE(m.reps, 1);
    EXPECT_LE(m.reps, 20);
    // Microseconds on an idle machine; three ranks on two cores can lose a scheduler slice per
    // round trip, so only a second or more would mean a hang or a bug.
    EXPECT_LT(m.median, 1.0);
    ASSERT_TRUE(m.skew && m.clock_error) << "every point records how well the ranks started together";
    EXPECT_LT(*m.skew, 1.0);
    // bcast is rooted: its root and its receivers are timed apart, and the slowest bounds both.
    EXPECT_EQ(m.roles.has_value(), m.op == "bcast");
    if (m.roles) {
      EXPECT_LE(m.roles->root, m.max);
      EXPECT_LE(m.roles->others, m.max);
    }
    if (m.op == "pingpong" || m.op == "barrier") {
      EXPECT_GT(m.median, 0);
    }
    // A compute step takes nanoseconds; the probe after every point times 65536 of them.
    ASSERT_TRUE(m.compute_probe.has_value()) << "every point records the compute probe after it";
    EXPECT_GT(*m.compute_probe, 1e-11);
    EXPECT_LT(*m.compute_probe, 1e-6);
  }
  EXPECT_FALSE(set.header["machine"]["name"].get<std::string>().empty());
  EXPECT_FALSE(set.header["provenance"]["mpi_library"].get<std::string>().empty());
  EXPECT_EQ(set.header["provenance"]["settings"]["placement"].size(), 3u);

  // The node kernels ran on rank 0 and left the model's compute section in the header.
  const auto compute = augur::fit::header_compute(set.header, raw.string());
  EXPECT_TRUE(compute.knows_step());
  EXPECT_GT(compute.flops, 0);
  EXPECT_GT(compute.memory_bandwidth, 0);
  EXPECT_EQ(compute.cache_sweep.size(), 15u);  // 4 KiB … 64 MiB
  const auto& kernels = set.header["provenance"]["settings"]["node_kernels"];
  EXPECT_EQ(kernels["rank"], 0);
  EXPECT_LT(kernels["seconds"].get<double>(), 10) << "the quick node kernels should take about a second";
  fs::remove_all(dir);
}

TEST(BenchMpi, NoComputeLeavesTheComputeSectionOut) {
  const auto dir = scratch_dir("bench_no_compute");
  const auto raw = dir / "raw.jsonl";
  const auto result = run(mpirun(2, {AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", "barrier", "--refine",
                                     "0", "--min-reps", "4", "--max-reps", "4", "--no-compute"}));
  ASSERT_EQ(result.status, 0) << result.out;
  const RawSet set = augur::fit::read_raw_file(raw);
  EXPECT_FALSE(set.header.contains("compute"));
  EXPECT_FALSE(set.header["provenance"]["settings"].contains("node_kernels"));
  EXPECT_EQ(set.points.size(), 1u);
  fs::remove_all(dir);
}

// The progress line names a point as a person knows it: MPI's call and the size in KiB.
TEST(BenchMpi, ProgressNamesPointsByTheMPICallAndAReadableSize) {
  const auto dir = scratch_dir("bench_progress");
  const auto result = run(mpirun(2, {AUGUR_BENCH_MPI, "--raw", (dir / "raw.jsonl").string(), "--ops", "bcast",
                                     "--max-size", "2KiB", "--refine", "0", "--min-reps", "4", "--max-reps", "4",
                                     "--no-compute", "--progress"}));
  ASSERT_EQ(result.status, 0) << result.out;
  EXPECT_NE(result.out.find("] MPI_Bcast p=2 2 KiB  elapsed "), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("bcast p="), std::string::npos) << result.out;
  fs::remove_all(dir);
}

double median_skew(const RawSet& set) {
  std::vector<double> skews;
  for (const auto& m : set.points) skews.push_back(m.skew.value_or(1.0));
  std::sort(skews.begin(), skews.end());
  return skews.at(skews.size() / 2);
}

// The barrier releases ranks one after another; an agreed instant on synchronised clocks starts
// them closer together, and the achieved spread is what the raw file records.
TEST(BenchMpi, WindowSynchronisationStartsRanksCloserThanTheBarrier) {
  const auto dir = scratch_dir("bench_sync");
  std::map<std::string, double> skew;
  for (const std::string sync : {"barrier", "window"}) {
    const auto raw = dir / (sync + ".jsonl");
    const auto result = run(mpirun(2, {AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", "allreduce,bcast,alltoall",
                                       "--max-size", "4KiB", "--refine", "0", "--min-reps", "20",
                                       "--max-reps", "40", "--budget", "0", "--sync", sync}));
    ASSERT_EQ(result.status, 0) << result.out;
    const RawSet set = augur::fit::read_raw_file(raw);
    EXPECT_EQ(set.header["settings"]["sync"], sync);
    skew[sync] = median_skew(set);
  }
  EXPECT_LT(skew["window"], skew["barrier"]) << "window " << skew["window"] << " s, barrier " << skew["barrier"] << " s";
  fs::remove_all(dir);
}

// In a back-to-back sequence the broadcast's root takes turns, so every call waits for the last
// one to arrive: the mean per call is a receiver's latency, and the root's own calls, which end
// once the data is on its way, stay shorter.
TEST(BenchMpi, ChainedBroadcastKeepsTheRootsOwnTimeApartFromTheLatency) {
  const auto dir = scratch_dir("bench_chain");
  const auto raw = dir / "raw.jsonl";
  const auto result = run(mpirun(2, small_sweep(raw, "bcast,scatter", "1KiB", 20, 40)));
  ASSERT_EQ(result.status, 0) << result.out;
  const RawSet set = augur::fit::read_raw_file(raw);
  int points = 0, root_shorter = 0;
  for (const auto& m : set.points) {
    if (m.bytes == 0) continue;  // an empty broadcast sends nothing: both sides return at once
    ASSERT_TRUE(m.roles.has_value()) << m.op;
    ++points;
    if (m.roles->root < m.roles->others) ++root_shorter;
    EXPECT_NEAR(m.roles->others, m.median, 0.5 * m.median) << "the mean per call is the receiver's time";
  }
  ASSERT_GT(points, 10);
  EXPECT_GE(4 * root_shorter, 3 * points) << root_shorter << " of " << points << " points";
  fs::remove_all(dir);
}

// Short collectives and pair exchanges are timed as back-to-back sequences, as loops call them;
// the ping-pong is not, and --isolated times every call on its own.
TEST(BenchMpi, ShortCollectivesAndPairExchangesRunBackToBackUnlessIsolated) {
  const auto dir = scratch_dir("bench_sequences");
  auto calls_by_op = [&](const std::string& extra) {
    const auto raw = dir / (extra.empty() ? "raw.jsonl" : "isolated.jsonl");
    auto args = small_sweep(raw, "pingpong,sendrecv,exchange,allreduce", "64", 5, 10);
    if (!extra.empty()) args.push_back(extra);
    const auto result = run(mpirun(2, args));
    EXPECT_EQ(result.status, 0) << result.out;
    std::map<std::string, int> fewest;
    for (const auto& m : augur::fit::read_raw_file(raw).points)
      fewest[m.op] = fewest.contains(m.op) ? std::min(fewest[m.op], m.calls) : m.calls;
    return fewest;
  };
  const auto sequenced = calls_by_op("");
  EXPECT_EQ(sequenced.at("pingpong"), 1);
  for (const char* op : {"sendrecv", "exchange", "allreduce"}) EXPECT_GT(sequenced.at(op), 1) << op;
  for (const auto& [op, calls] : calls_by_op("--isolated")) EXPECT_EQ(calls, 1) << op;
  fs::remove_all(dir);
}

// A pair exchange runs as a loop runs it even where one call lasts long enough to be timed alone:
// at 64 KiB a repetition times the ping-pong's 16 rounds in a row, not the few calls that fill
// 100 µs, so that a link whose first burst goes faster (a token bucket) is timed at the loop's rate.
TEST(BenchMpi, PairExchangesTimeSixteenCallsInARowUpTo64KiB) {
  const auto dir = scratch_dir("bench_pair_loop");
  const auto raw = dir / "raw.jsonl";
  const auto result = run(mpirun(2, small_sweep(raw, "sendrecv,exchange", "65536", 3, 3)));
  EXPECT_EQ(result.status, 0) << result.out;
  int largest = 0;
  for (const auto& m : augur::fit::read_raw_file(raw).points) {
    EXPECT_GE(m.calls, 16) << m.op << " at " << m.bytes << " B";
    if (m.bytes == 65536) ++largest;
  }
  EXPECT_EQ(largest, 2);
  fs::remove_all(dir);
}

TEST(BenchMpi, BadOptionsFailBeforeMeasuring) {
  const auto dir = scratch_dir("bench_bad");
  const auto raw = dir / "raw.jsonl";
  auto result = run(mpirun(2, {AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", "pingpong,nosuch"}));
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.out.find("unknown operation 'nosuch'"), std::string::npos) << result.out;
  result = run(mpirun(2, {AUGUR_BENCH_MPI, "--raw", raw.string(), "--groups", "2,5"}));
  EXPECT_EQ(result.status, 2);
  EXPECT_NE(result.out.find("group size 5"), std::string::npos) << result.out;
  EXPECT_FALSE(fs::exists(raw));
  fs::remove_all(dir);
}

TEST(BenchMpi, KilledRunResumesToTheCompleteSetWithoutDuplicates) {
  const auto dir = scratch_dir("bench_resume");
  const auto raw = dir / "raw.jsonl";
  const std::vector<std::string> sweep{AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", "pingpong,bcast,allreduce",
                                       // Large enough that the sweep outlasts the kill on an idle machine.
                                       "--max-size", "8MiB", "--refine", "0", "--min-reps", "30",
                                       "--max-reps", "30", "--warmup", "10", "--budget", "0"};
  const pid_t first = augur_test::start(mpirun(2, sweep), dir / "first.log");
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines(raw) < 4 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(first, SIGTERM);
  augur_test::finish(first);
  // A rank that outlives mpirun for a moment could still append; wait until the file is quiet.
  for (auto size = fs::file_size(raw);; ) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (fs::file_size(raw) == size) break;
    size = fs::file_size(raw);
  }
  const int lines_when_killed = count_lines(raw);
  ASSERT_GE(lines_when_killed, 4) << "the first run wrote too little before the time limit";

  // A run killed while writing leaves half a record; resuming must cope with that too.
  std::ofstream(raw, std::ios::app) << R"({"op":"pingpong","p":2,"bytes":)";
  const auto resumed = run(mpirun(2, [&] {
    auto args = sweep;
    args.push_back("--resume");
    return args;
  }()));
  ASSERT_EQ(resumed.status, 0) << resumed.out;

  const RawSet set = augur::fit::read_raw_file(raw);  // strict: no damaged line remains
  std::set<Key> expected;
  std::vector<double> bytes{0}, ints{0};
  for (double b = 1; b <= 1 << 23; b *= 2) bytes.push_back(b);
  for (double b = 4; b <= 1 << 23; b *= 2) ints.push_back(b);
  add_sizes(expected, "pingpong", 2, bytes);
  add_sizes(expected, "bcast", 2, bytes);
  add_sizes(expected, "allreduce", 2, ints);
  std::size_t duplicates = 0;
  EXPECT_EQ(keys_of(set, duplicates), expected);
  EXPECT_EQ(duplicates, 0u);
  EXPECT_LT(lines_when_killed - 1, static_cast<int>(expected.size())) << "the first run was not interrupted";
  fs::remove_all(dir);
}

TEST(BenchMpi, ALaterPassMeasuresThePointsOfTheFirstOnceMore) {
  const auto dir = scratch_dir("bench_passes");
  const auto raw = dir / "raw.jsonl";
  const auto with_pass = [&](int pass) {
    return std::vector<std::string>{AUGUR_BENCH_MPI, "--raw", raw.string(), "--ops", "pingpong,barrier",
                                    "--max-size", "64", "--min-reps", "8", "--max-reps", "20", "--budget", "0",
                                    "--no-compute", "--pass", std::to_string(pass), "--passes", "2"};
  };
  const auto missing = run(mpirun(2, with_pass(2)));
  EXPECT_NE(missing.status, 0) << "a later pass without the first's file";
  EXPECT_NE(missing.out.find("does not exist"), std::string::npos) << missing.out;

  ASSERT_EQ(run(mpirun(2, with_pass(1))).status, 0);
  const auto second = run(mpirun(2, with_pass(2)));
  ASSERT_EQ(second.status, 0) << second.out;
  std::map<int, std::vector<Key>> by_pass;
  for (const auto& m : augur::fit::read_raw_file(raw).points) by_pass[m.pass].push_back({m.op, m.p, m.bytes});
  ASSERT_EQ(by_pass.size(), 2u);
  EXPECT_EQ(std::set<Key>(by_pass[2].begin(), by_pass[2].end()), std::set<Key>(by_pass[1].begin(), by_pass[1].end()))
      << "the same points";
  EXPECT_EQ(by_pass[2].size(), by_pass[1].size()) << "each once";
  for (std::size_t i = 1; i < by_pass[2].size(); ++i) {
    const auto& [op, p, bytes] = by_pass[2][i];
    const auto& [op_before, p_before, bytes_before] = by_pass[2][i - 1];
    if (op == op_before && p == p_before) {
      EXPECT_LT(bytes_before, bytes) << op << ": a curve's sizes upwards";
    }
  }
  // Pass 1 may add sizes where a curve bends (that depends on the machine); the base plan is always there.
  const std::set<Key> first(by_pass[1].begin(), by_pass[1].end());
  EXPECT_TRUE(first.contains({"barrier", 2, 0})) << "the barrier";
  for (const double bytes : kBytesTo64) EXPECT_TRUE(first.contains({"pingpong", 2, bytes})) << bytes << " bytes";

  // Resuming a finished pass measures nothing more.
  const auto lines = count_lines(raw);
  auto resume = with_pass(2);
  resume.push_back("--resume");
  ASSERT_EQ(run(mpirun(2, resume)).status, 0);
  EXPECT_EQ(count_lines(raw), lines);
  fs::remove_all(dir);
}

// A run killed after the library failed an operation: resumed (here where the library would not
// fail it), it goes on with the rest and does not try that operation again, nor does a later pass.
TEST(BenchMpi, AResumedRunKeepsWhatTheLibraryCouldNotRun) {
  const auto dir = scratch_dir("bench_resume_failed");
  const auto raw = dir / "raw.jsonl";
  auto sweep = small_sweep(raw, "pingpong,barrier,bcast", "64", 5, 10);
  sweep.insert(sweep.end(), {"--pass", "1", "--passes", "2"});
  setenv("AUGUR_BENCH_FAIL", "pingpong", 1);
  const auto first = run(mpirun(2, sweep));
  unsetenv("AUGUR_BENCH_FAIL");
  ASSERT_EQ(first.status, 0) << first.out;
  const auto complete = augur::fit::read_raw_file(raw);
  ASSERT_EQ(complete.unmeasurable.size(), 1u) << first.out;
  EXPECT_EQ(complete.unmeasurable.front().op, "pingpong");
  std::size_t duplicates = 0;
  const auto all = keys_of(complete, duplicates);

  // Killed just after the failure was written: the header and the lines up to it stay.
  std::vector<std::string> lines;
  {
    std::ifstream in(raw);
    for (std::string line; std::getline(in, line);) {
      lines.push_back(line);
      if (line.find("not_measurable") != std::string::npos) break;
    }
  }
  {
    std::ofstream out(raw, std::ios::trunc);
    for (const auto& line : lines) out << line << '\n';
  }
  auto resume = sweep;
  resume.push_back("--resume");
  const auto resumed = run(mpirun(2, resume));
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  const auto set = augur::fit::read_raw_file(raw);
  EXPECT_EQ(set.unmeasurable.size(), 1u) << "tried again";
  EXPECT_EQ(keys_of(set, duplicates), all);
  EXPECT_EQ(duplicates, 0u);
  for (const auto& m : set.points) EXPECT_NE(m.op, "pingpong");

  auto second = sweep;
  second[second.size() - 3] = "2";  // --pass 2
  setenv("AUGUR_BENCH_FAIL", "pingpong", 1);
  const auto later = run(mpirun(2, second));
  unsetenv("AUGUR_BENCH_FAIL");
  ASSERT_EQ(later.status, 0) << later.out;
  const auto both = augur::fit::read_raw_file(raw);
  EXPECT_EQ(both.unmeasurable.size(), 1u) << "tried again in pass 2";
  std::set<Key> of_pass_two;
  for (const auto& m : both.points)
    if (m.pass == 2) of_pass_two.insert({m.op, m.p, m.bytes});
  EXPECT_EQ(of_pass_two, all);
  fs::remove_all(dir);
}
