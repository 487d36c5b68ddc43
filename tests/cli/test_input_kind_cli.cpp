// Files of the wrong kind, given to each command that reads traces, schedules, models,
// application models or raw measurements: augur says what it took the file for and what the
// command reads, fails, and writes nothing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "augur_runner.hpp"

namespace {

namespace fs = std::filesystem;
using augur_test::augur;
using augur_test::data;
using augur_test::Result;

class InputKindCli : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("augur-input-kind-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ASSERT_EQ(augur("trace synth -o " + path("run") + " --ranks 2 --events 200").status, 0);
    ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("otf2") + " --to otf2").status, 0);
    ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("run.json") + " --to perfetto").status, 0);
    ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("pv") + " --to paraver").status, 0);
    fs::copy_file("/bin/sh", path("program"));
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }

  static inline fs::path dir_;
};

std::string model_file() { return data("../../machines/t3d.json"); }
std::string raw_file() {
  return augur_test::temp_file("raw.jsonl", "{\"augur_raw\": 1}\n{\"op\": \"bcast\", \"p\": 2, \"bytes\": 8, \"min\": 1e-6, "
                                            "\"median\": 1e-6, \"mean\": 1e-6, \"max\": 1e-6, \"std\": 0, \"reps\": 3}\n");
}
std::string empty_file() { return augur_test::temp_file("empty", ""); }
std::string schedule_file() { return augur_test::temp_file("ring.sched", "ranks 2\nranks 0..1 { sendrecv rank+1 rank-1 8 }\n"); }

// A usage error (status 2) on standard error alone that opens with the file and what augur took it
// for, then says what `command` reads.
void expect_named(const Result& r, const std::string& file, const std::string& taken_for, const std::string& command,
                  const std::string& reads) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.rfind("augur: error: " + file + ": not ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" but " + taken_for), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  " + command + " reads " + reads), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unexpected"), std::string::npos) << r.err;
}

Result run_apart(const std::string& args) { return augur(args, {.separate_stderr = true}); }

}  // namespace

TEST_F(InputKindCli, SimNamesEachKindOfFileThatIsNoTraceOrSchedule) {
  const std::string reads = "a trace (a directory of rank-NNNNN.augt files";
  const auto written = path("sim-out");
  const std::string outputs = " --trace " + written + " --report " + written + ".json --write-schedule " + written + ".sched";
  const std::pair<std::string, std::string> cases[] = {
      {path("otf2/traces"), "the event and definition files of the OTF2 archive " + path("otf2/traces.otf2")},
      {path("run.json"), "a Chrome Trace Event JSON file"},
      {path("pv.prv"), "a Paraver trace"},
      {model_file(), "an augur model file"},
      {raw_file(), "raw measurements"},
      {path("program"), "a program or shared library (ELF)"},
      {empty_file(), "an empty file"},
  };
  for (const auto& [file, taken_for] : cases) {
    expect_named(run_apart("sim --machine t3d " + file + outputs), file, taken_for, "augur sim", reads);
    for (const auto& out : {written, written + ".json", written + ".sched"}) EXPECT_FALSE(fs::exists(out)) << out;
  }
  const auto model = run_apart("sim " + model_file());
  EXPECT_NE(model.err.find("\n  A model file goes after --machine."), std::string::npos) << model.err;
  const auto otf2 = run_apart("sim " + path("otf2/traces"));
  EXPECT_NE(otf2.err.find("reads an OTF2 archive through its .otf2 anchor file or the directory holding it"),
            std::string::npos) << otf2.err;
}

TEST_F(InputKindCli, ATextThatIsNoScheduleKeepsTheParsersLineAndColumn) {
  const auto text = augur_test::temp_file("notes.sched", "ranks 2\nrank 0 { sned 1 8 }\n");
  const auto r = run_apart("sim --machine t3d " + text);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(text + ":2:"), std::string::npos) << r.err;
}

TEST_F(InputKindCli, TheTraceCommandsNameWhatTheyWereGiven) {
  const std::string reads = "a trace: a directory of rank-NNNNN.augt files";
  expect_named(run_apart("summary " + path("otf2/traces")), path("otf2/traces"),
               "the event and definition files of the OTF2 archive", "augur summary", reads);
  expect_named(run_apart("summary " + schedule_file()), schedule_file(), "a schedule", "augur summary", reads);
  expect_named(run_apart("compare " + path("run") + " " + path("run.json")), path("run.json"),
               "a Chrome Trace Event JSON file", "augur compare", reads);
  expect_named(run_apart("view " + path("run.json") + " -o " + path("view.html")), path("run.json"),
               "a Chrome Trace Event JSON file", "augur view", reads);
  EXPECT_FALSE(fs::exists(path("view.html")));
  expect_named(run_apart("trace convert " + empty_file() + " -o " + path("converted") + " --to text"), empty_file(),
               "an empty file", "augur trace convert", reads);
  EXPECT_FALSE(fs::exists(path("converted")));
  expect_named(run_apart("analyze " + model_file() + " --html " + path("analysis.html")), model_file(),
               "an augur model file", "augur analyze", "a trace (a directory of rank-NNNNN.augt files");
  EXPECT_FALSE(fs::exists(path("analysis.html")));
}

// A GOAL schedule stands for its run wherever a trace is read: the run augur sim writes with no
// options, said in a note. augur analyze reads it too, but refuses what-ifs, which would
// re-simulate the run off its graph.
TEST_F(InputKindCli, AGoalScheduleIsReadAsItsRunByTheTraceCommands) {
  const auto goal = augur_test::temp_file("pair.goal", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\n"
                                                       "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n");
  const auto trace = path("goal-run");
  ASSERT_EQ(augur("sim " + goal + " --no-progress --trace " + trace).status, 0);
  const auto of_trace = run_apart("summary --json " + trace);
  const auto of_goal = run_apart("summary --json " + goal);
  ASSERT_EQ(of_goal.status, 0) << of_goal.err;
  EXPECT_EQ(of_goal.out, of_trace.out);
  EXPECT_NE(of_goal.err.find(goal + ": a GOAL schedule, read as its run simulated on machine"), std::string::npos)
      << of_goal.err;
  EXPECT_EQ(run_apart("view " + goal + " -o " + path("goal.html")).status, 0);
  EXPECT_TRUE(fs::exists(path("goal.html")));
  const auto analyze = run_apart("analyze " + goal);
  EXPECT_EQ(analyze.status, 0) << analyze.err;
  EXPECT_NE(analyze.out.find("Critical path"), std::string::npos) << analyze.out;
  const auto what_if = run_apart("analyze " + goal + " --scale-bytes all=0.5 --html " + path("goal-analysis.html"));
  EXPECT_EQ(what_if.status, 2) << what_if.err;
  EXPECT_NE(what_if.err.find("whose what-ifs augur analyze does not re-simulate"), std::string::npos) << what_if.err;
  EXPECT_FALSE(fs::exists(path("goal-analysis.html")));
}

TEST_F(InputKindCli, MachineOptionsNameWhatIsNoModelFile) {
  const std::string reads = "a built-in machine (";
  expect_named(run_apart("calc --machine " + path("run.json") + " bcast 2 8"), path("run.json"),
               "a Chrome Trace Event JSON file", "augur calc --machine", reads);
  expect_named(run_apart("calc --machine " + path("run") + " bcast 2 8"), path("run"), "an augur trace",
               "augur calc --machine", reads);
  const auto raw = run_apart("calc --machine " + raw_file() + " bcast 2 8");
  expect_named(raw, raw_file(), "raw measurements", "augur calc --machine", reads);
  EXPECT_NE(raw.err.find("\n  augur fit makes a model file of raw measurements."), std::string::npos) << raw.err;
  expect_named(run_apart("sim --machine " + path("program") + " " + schedule_file()), path("program"),
               "a program or shared library", "augur sim --machine", reads);
  // A model file damaged in its JSON keeps the loader's error, which says where.
  const auto broken = augur_test::temp_file("broken.json", "{\"augur_model\": 1, \"machine\": ");
  const auto r = run_apart("calc --machine " + broken + " bcast 2 8");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
}

TEST_F(InputKindCli, PlotAndFitNameWhatIsNoApplicationModelOrRawMeasurements) {
  expect_named(run_apart("plot " + model_file() + " --machine t3d -o " + path("plots")), model_file(),
               "an augur model file", "augur plot", "an application model");
  EXPECT_FALSE(fs::exists(path("plots")));
  expect_named(run_apart("plot " + data("../../examples/models/mandel.json") + " --machine " + schedule_file() +
                         " -o " + path("plots")),
               schedule_file(), "a schedule", "augur plot --machine", "a built-in machine (");
  EXPECT_FALSE(fs::exists(path("plots")));
  expect_named(run_apart("fit " + path("run.json") + " -o " + path("fitted.json")), path("run.json"),
               "a Chrome Trace Event JSON file", "augur fit", "raw measurements");
  expect_named(run_apart("fit " + empty_file() + " -o " + path("fitted.json")), empty_file(), "an empty file",
               "augur fit", "raw measurements");
  EXPECT_FALSE(fs::exists(path("fitted.json")));
}
