// `augur bench`: option checks before any MPI work, and a small run through to the model file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "bench/plan.hpp"
#include "fit/raw.hpp"
#include "../cli/augur_runner.hpp"
#include "bench_support.hpp"
#include "model/model_json.hpp"

namespace fs = std::filesystem;
using namespace augur::test;

namespace {

augur_test::Result augur_bench(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  setenv("AUGUR_BENCH_MPI", AUGUR_BENCH_MPI, 1);
  return augur_test::augur(std::move(args));
}

}  // namespace

TEST(BenchCommand, UnknownOperationIsAUsageErrorAndNothingRuns) {
  const auto dir = scratch_dir("cmd_unknown");
  const auto r = augur_bench({"-np", "2", "--ops", "pingpong,bcastt", "--raw", (dir / "r.jsonl").string(),
                              "--mpirun", AUGUR_MPIEXEC});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("unknown operation 'bcastt'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "r.jsonl"));
  fs::remove_all(dir);
}

TEST(BenchCommand, MissingLauncherIsAUsageError) {
  const auto r = augur_bench({"-np", "2", "--mpirun", "/nonexistent/mpirun", "--dry-run"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no '/nonexistent/mpirun'"), std::string::npos) << r.out;
}

TEST(BenchCommand, SizesAndProcessCountsAreChecked) {
  auto r = augur_bench({"-np", "2", "--max-size", "2GiB", "--mpirun", AUGUR_MPIEXEC, "--dry-run"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--max-size"), std::string::npos) << r.out;
  r = augur_bench({"-np", "1", "--mpirun", AUGUR_MPIEXEC, "--dry-run"});
  EXPECT_EQ(r.status, 2);
  r = augur_bench({"-np", "100000", "--mpirun", AUGUR_MPIEXEC, "--dry-run"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--oversubscribe"), std::string::npos) << r.out;
}

TEST(BenchCommand, ExistingRawFileNeedsResumeOrOverwrite) {
  const auto dir = scratch_dir("cmd_exists");
  std::ofstream(dir / "r.jsonl") << "{\"augur_raw\":1}\n";
  const auto r = augur_bench({"-np", "2", "--raw", (dir / "r.jsonl").string(), "--mpirun", AUGUR_MPIEXEC});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--resume"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(BenchCommand, DryRunShowsTheMpirunCommand) {
  const auto r = augur_bench({"-np", "2", "--quick", "--ops", "pingpong,bcast", "--max-size", "4KiB", "--budget",
                              "1m30s", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* part : {"-np 2", "augur-bench-mpi", "--preset quick", "--ops pingpong,bcast",
                           "--max-size 4096", "--pass-budget", "--stop-after", "--raw /tmp/m.raw.jsonl",
                           "augur bench: budget 1m30s", "augur bench: plan: 25 passes", "left out: nothing"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << " missing from: " << r.out;
  // A dry run launches nothing, the calibration included.
  EXPECT_EQ(r.out.find("--calibrate"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--no-compute"), std::string::npos) << r.out;
  const auto skip = augur_bench({"-np", "2", "--quick", "--no-compute", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o",
                                 "/tmp/m.json"});
  ASSERT_EQ(skip.status, 0) << skip.out;
  EXPECT_NE(skip.out.find("--no-compute"), std::string::npos) << skip.out;
}

TEST(BenchCommand, ADryRunOverASlowNetworkPlansFewerPassesAndSmallerMessages) {
  const auto r = augur_bench({"-np", "2", "--quick", "--assume-latency", "50us", "--assume-bandwidth", "10MB/s",
                              "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("left out for the budget: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("messages above"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--pass 25 "), std::string::npos) << r.out;
  const auto bad = augur_bench({"-np", "2", "--assume-bandwidth", "fast", "--mpirun", AUGUR_MPIEXEC, "--dry-run"});
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("--assume-bandwidth 'fast'"), std::string::npos) << bad.out;
}

TEST(BenchCommand, EveryPassIsALaunchOfItsOwn) {
  const auto quick = augur_bench({"-np", "2", "--quick", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(quick.status, 0) << quick.out;
  for (const char* part : {"--pass 1 --passes 25", "--pass 2 --passes 25", "--pass 25 --passes 25"})
    EXPECT_NE(quick.out.find(part), std::string::npos) << part << " missing from: " << quick.out;
  EXPECT_EQ(quick.out.find("--pass 26 "), std::string::npos) << quick.out;
  const auto full = augur_bench({"-np", "2", "--full", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(full.status, 0) << full.out;
  EXPECT_NE(full.out.find("--pass 15 --passes 15"), std::string::npos) << full.out;
  const auto standard = augur_bench({"-np", "2", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(standard.status, 0) << standard.out;
  EXPECT_NE(standard.out.find("--pass 15 --passes 15"), std::string::npos) << standard.out;
  EXPECT_EQ(standard.out.find("--pass 16 "), std::string::npos) << standard.out;
  const auto one = augur_bench(
      {"-np", "2", "--quick", "--passes", "1", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json"});
  ASSERT_EQ(one.status, 0) << one.out;
  EXPECT_EQ(one.out.find("--pass "), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("--passes"), std::string::npos) << one.out;
  const auto none = augur_bench({"-np", "2", "--passes", "0", "--mpirun", AUGUR_MPIEXEC, "--dry-run"});
  EXPECT_EQ(none.status, 2) << none.out;
  EXPECT_NE(none.out.find("--passes"), std::string::npos) << none.out;
}

TEST(BenchCommand, SmallRunWritesAModelOfTheMeasuredOperations) {
  const auto dir = scratch_dir("cmd_run");
  const auto model_path = dir / "m.json";
  const auto r = augur_bench({"-np", "2", "--quick", "--ops", "pingpong,bcast,barrier", "--max-size", "16KiB",
                              "--budget", "30s", "--passes", "3", "--mpirun", AUGUR_MPIEXEC, "-o", model_path.string(),
                              "--quiet"});
  ASSERT_EQ(r.status, 0) << r.out;
  const auto model = augur::model::load_model_file(model_path);
  EXPECT_NE(model.find("pingpong"), nullptr);
  EXPECT_NE(model.find("bcast"), nullptr);
  EXPECT_NE(model.find("barrier"), nullptr);
  EXPECT_EQ(model.find("allreduce"), nullptr);
  EXPECT_EQ(model.provenance.source, "augur bench");
  // The budget's record: 30 s hold three passes of these few points, and leave nothing out.
  const auto& budget = model.provenance.settings.at("budget");
  EXPECT_EQ(budget.at("passes_made"), 3);
  EXPECT_EQ(budget.at("planned").at("max_bytes"), 16384);
  EXPECT_GT(budget.at("calibration").at("bandwidth").get<double>(), 0);
  EXPECT_LT(budget.at("measuring_seconds").get<double>(), 30);
  const double latency = model.seconds("pingpong", 2, 0);
  EXPECT_GT(latency, 0);
  EXPECT_LT(latency, 1e-3);
  EXPECT_TRUE(fs::exists(dir / "m.raw.jsonl"));
  EXPECT_TRUE(model.compute.knows_step());
  EXPECT_GT(model.compute.memory_bandwidth, 0);
  EXPECT_NE(r.out.find("augur bench: node: compute step"), std::string::npos) << r.out;

  // Every pass measures what the earlier ones did, once each; the middle one (2 of 3) may add
  // sizes between those of the ladder.
  std::map<int, std::multiset<std::tuple<std::string, int, double>>> by_pass;
  for (const auto& m : augur::fit::read_raw_file(dir / "m.raw.jsonl").points) by_pass[m.pass].insert({m.op, m.p, m.bytes});
  ASSERT_EQ(by_pass.size(), 3u);
  EXPECT_EQ(by_pass.begin()->first, 1);
  EXPECT_EQ(by_pass.rbegin()->first, 3);
  EXPECT_TRUE(std::includes(by_pass[2].begin(), by_pass[2].end(), by_pass[1].begin(), by_pass[1].end()));
  for (const auto& [op, p, bytes] : by_pass[2]) {
    if (by_pass[1].contains({op, p, bytes})) continue;
    const auto whole = static_cast<std::uint64_t>(bytes);
    EXPECT_TRUE(whole > 0 && (whole & (whole - 1)) != 0) << op << " added " << bytes << " B, a size of the ladder";
  }
  EXPECT_EQ(by_pass[3], by_pass[2]);
  for (const auto& [pass, points] : by_pass)
    EXPECT_EQ(std::set(points.begin(), points.end()).size(), points.size()) << "a point twice in pass " << pass;
  fs::remove_all(dir);
}

// The count of passes moves as the run goes (a first launch is slow, the rest quicker than the
// plan's estimate, and time the plan did not need buys passes beyond it), and with it the middle
// pass, the one that adds sizes where curves bend: still one pass adds them, and every later one
// measures just what it did.
TEST(BenchCommand, OnePassAddsSizesHoweverTheCountOfPassesMoves) {
  const auto dir = scratch_dir("cmd_passes");
  const auto r = augur_bench({"-np", "2", "--quick", "--ops", "pingpong", "--max-size", "4KiB", "--budget", "10s",
                              "--mpirun", AUGUR_MPIEXEC, "-o", (dir / "m.json").string()});
  ASSERT_EQ(r.status, 0) << r.out;
  std::map<int, std::set<std::tuple<std::string, int, double>>> by_pass;
  for (const auto& m : augur::fit::read_raw_file(dir / "m.raw.jsonl").points) by_pass[m.pass].insert({m.op, m.p, m.bytes});
  ASSERT_FALSE(by_pass.empty()) << r.out;  // one pass alone, on a machine too busy for more, refines nothing
  const auto& first = by_pass.begin()->second;
  const auto refined = std::find_if(by_pass.begin(), by_pass.end(), [&](const auto& pass) { return pass.second != first; });
  for (auto later = refined == by_pass.end() ? refined : std::next(refined); later != by_pass.end(); ++later)
    EXPECT_EQ(later->second, refined->second) << "pass " << later->first << " measured other sizes than pass "
                                              << refined->first << ", the one that added them:\n" << r.out;
  // Of the launches, at most one refines: the middle of the count it was launched with, not told
  // `--refine 0` (none when a slow first pass cut the count below its next pass). A second one
  // often finds no bend left to add sizes to, so the sizes alone would not show it.
  int refining = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    int pass = 0, passes = 0;
    const auto at = line.find(" --pass ");
    if (at == std::string::npos || std::sscanf(line.c_str() + at, " --pass %d --passes %d", &pass, &passes) != 2) continue;
    if (pass == augur::bench::refinement_pass(passes) && line.find("--refine 0") == std::string::npos) ++refining;
  }
  EXPECT_LE(refining, 1) << r.out;
  const auto model = augur::model::load_model_file(dir / "m.json");
  const auto& budget = model.provenance.settings.at("budget");
  EXPECT_EQ(budget.at("passes_made").get<int>(), static_cast<int>(by_pass.size()));
  EXPECT_LE(budget.at("passes_made").get<int>(), budget.at("preset").at("passes").get<int>());
  EXPECT_LT(budget.at("measuring_seconds").get<double>(), 10);
  fs::remove_all(dir);
}

namespace {

// The note the model's provenance keeps of the operations the MPI library could not run.
nlohmann::json not_measurable(const augur::model::Model& model) {
  return model.provenance.settings.value("not_measurable", nlohmann::json::object());
}

}  // namespace

// A kernel the library fails (here on purpose, through the tests' AUGUR_BENCH_FAIL) is recorded
// once with the library's error, in whatever passes the budget holds, the rest of the sweep goes
// on, and the model leaves that operation out and says so.
TEST(BenchCommand, AnOperationTheLibraryFailsIsRecordedAsNotMeasurableAndTheRunGoesOn) {
  const auto dir = scratch_dir("cmd_fails");
  setenv("AUGUR_BENCH_FAIL", "bcast", 1);
  const auto r = augur_bench({"-np", "2", "--quick", "--ops", "pingpong,bcast,barrier", "--max-size", "64",
                              "--budget", "20s", "--passes", "2", "--no-compute", "--mpirun", AUGUR_MPIEXEC, "-o",
                              (dir / "m.json").string()});
  unsetenv("AUGUR_BENCH_FAIL");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto raw = augur::fit::read_raw_file(dir / "m.raw.jsonl");
  ASSERT_EQ(raw.unmeasurable.size(), 1u) << "tried again after the first failure";
  EXPECT_EQ(raw.unmeasurable.front().op, "bcast");
  EXPECT_NE(raw.unmeasurable.front().error, "");
  for (const auto& m : raw.points) EXPECT_NE(m.op, "bcast");
  const auto model = augur::model::load_model_file(dir / "m.json");
  EXPECT_EQ(model.find("bcast"), nullptr);
  EXPECT_NE(model.find("pingpong"), nullptr);
  EXPECT_NE(model.find("barrier"), nullptr);
  EXPECT_EQ(not_measurable(model).at("bcast").at("error"), raw.unmeasurable.front().error);
  EXPECT_NE(r.out.find("augur bench: the MPI library could not run MPI_Bcast ("), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// The launcher's own arguments, without environment variables: over Open MPI's TCP transport,
// which has no one-sided component in Open MPI 4.1, a window cannot be made, and the model says
// so of put and win_fence; MPICH runs them.
TEST(BenchCommand, LauncherArgumentsReachMpirunAndTheModelNamesWhatTheTransportCannotRun) {
  const bool open_mpi = launcher_is_open_mpi();
  const std::vector<std::string> tcp = open_mpi ? std::vector<std::string>{"--mpirun-args", "--mca btl tcp,self"}
                                                : std::vector<std::string>{};
  const auto dry = augur_bench({"-np", "2", "--quick", "--mpirun", AUGUR_MPIEXEC, "--dry-run", "-o", "/tmp/m.json",
                                "--mpirun-args", "--mca btl tcp,self", "--", "--hostfile", "hosts"});
  ASSERT_EQ(dry.status, 0) << dry.out;
  EXPECT_NE(dry.out.find(" --mca btl tcp,self --hostfile hosts " AUGUR_BENCH_MPI), std::string::npos) << dry.out;

  const auto dir = scratch_dir("cmd_tcp");
  std::vector<std::string> args{"-np", "2", "--quick", "--ops", "pingpong,put,win_fence", "--max-size", "64",
                                "--budget", "10s", "--passes", "1", "--no-compute", "--mpirun", AUGUR_MPIEXEC, "-o",
                                (dir / "m.json").string(), "--quiet"};
  args.insert(args.end(), tcp.begin(), tcp.end());
  const auto r = augur_bench(args);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto model = augur::model::load_model_file(dir / "m.json");
  EXPECT_NE(model.find("pingpong"), nullptr);
  for (const char* op : {"put", "win_fence"}) {
    if (open_mpi) {
      EXPECT_EQ(model.find(op), nullptr) << op;
      EXPECT_NE(not_measurable(model).at(op).at("error").get<std::string>().find("MPI_ERR_WIN"), std::string::npos);
    } else {
      EXPECT_NE(model.find(op), nullptr) << op;
      EXPECT_FALSE(not_measurable(model).contains(op));
    }
  }
  if (open_mpi) {
    EXPECT_NE(r.out.find("could not run MPI_Put, MPI_Win_fence (MPI_ERR_WIN: invalid window)"), std::string::npos)
        << r.out;
  }
  fs::remove_all(dir);
}
