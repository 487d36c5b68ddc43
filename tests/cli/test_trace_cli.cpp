// The trace commands as a user runs them: synth, convert (checked with otf2-print, a JSON
// parser and Paraver record counts), compare, summary, view (checked in headless Chromium),
// and what happens with a damaged trace.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"
#include "readable_text.hpp"

namespace {

namespace fs = std::filesystem;
using augur_test::augur;
using augur_test::read_text;
using augur_test::run;
using readable_text::first_exponent;
using readable_text::first_zero_with_decimals;

std::size_t count_lines(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (text.compare(pos, prefix.size(), prefix) == 0) ++n;
    pos = end + 1;
  }
  return n;
}

class TraceCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("augur-trace-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto r = augur("trace synth -o " + (dir_ / "run").string() + " --ranks 4 --events 3000");
    ASSERT_EQ(r.status, 0) << r.out;
    auto s = augur("summary --json " + (dir_ / "run").string());
    ASSERT_EQ(s.status, 0) << s.out;
    summary_ = nlohmann::json::parse(s.out);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static std::uint64_t total(const std::string& field) {
    std::uint64_t n = 0;
    for (const auto& r : summary_["per_rank"]) n += r[field].get<std::uint64_t>();
    return n;
  }
  static inline fs::path dir_;
  static inline nlohmann::json summary_;
};

TEST_F(TraceCli, SummaryTotalsMatchTheEventCount) {
  EXPECT_EQ(summary_["ranks"], 4);
  EXPECT_EQ(summary_["mode"], "measured");
  std::uint64_t calls = 0;
  for (const auto& op : summary_["per_operation"]) calls += op["calls"].get<std::uint64_t>();
  EXPECT_GT(calls, 0u);
  EXPECT_LT(calls, total("states"));  // the rest are compute states
  // The example trace has no gaps, so each rank's categories add up to its span.
  for (const auto& r : summary_["per_rank"])
    EXPECT_NEAR(r["compute"].get<double>() + r["mpi"].get<double>() + r["wait"].get<double>() +
                    r["idle"].get<double>(), r["span"].get<double>(), 1e-9) << r;
  EXPECT_GT(total("messages_sent"), 0u);
  auto text = augur("summary " + path("run"));
  EXPECT_NE(text.out.find("MPI_Allreduce"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("4 ranks"), std::string::npos) << text.out;
}

TEST_F(TraceCli, Otf2ExportOpensInOtf2PrintWithEveryMessage) {
  auto r = augur("trace convert " + path("run") + " -o " + path("otf2") + " --to otf2");
  ASSERT_EQ(r.status, 0) << r.out;
  auto printed = run("otf2-print " + path("otf2/traces.otf2"));
  ASSERT_EQ(printed.status, 0) << printed.out.substr(0, 2000);
  EXPECT_EQ(count_lines(printed.out, "MPI_SEND "), total("messages_sent"));
  EXPECT_EQ(count_lines(printed.out, "MPI_RECV "), total("messages_sent"));
  EXPECT_EQ(count_lines(printed.out, "ENTER "), total("states") + 4);  // + the "solve" phase per rank
  EXPECT_EQ(count_lines(printed.out, "MPI_COLLECTIVE_BEGIN "), count_lines(printed.out, "MPI_COLLECTIVE_END "));
  EXPECT_GT(count_lines(printed.out, "MPI_COLLECTIVE_END "), 0u);
}

TEST_F(TraceCli, PerfettoJsonParsesWithAnArrowPerMessage) {
  auto r = augur("trace convert " + path("run") + " -o " + path("run.json") + " --to perfetto");
  ASSERT_EQ(r.status, 0) << r.out;
  auto doc = nlohmann::json::parse(read_text(path("run.json")));
  std::map<std::string, std::uint64_t> phases;
  for (const auto& e : doc["traceEvents"]) ++phases[e["ph"].get<std::string>()];
  EXPECT_EQ(phases["X"], total("states"));
  EXPECT_EQ(phases["s"], total("messages_sent"));
  EXPECT_EQ(phases["f"], total("messages_sent"));
}

TEST_F(TraceCli, ParaverRecordCountsMatch) {
  auto r = augur("trace convert " + path("run") + " -o " + path("run.prv") + " --to paraver");
  ASSERT_EQ(r.status, 0) << r.out;
  auto prv = read_text(path("run.prv"));
  EXPECT_EQ(count_lines(prv, "1:"), total("states"));
  EXPECT_EQ(count_lines(prv, "3:"), total("messages_sent"));
  EXPECT_NE(read_text(path("run.pcf")).find("MPI_Allreduce"), std::string::npos);
  EXPECT_NE(read_text(path("run.row")).find("LEVEL THREAD SIZE 4"), std::string::npos);
}

// One CSV row per message, each receive after its send, the receivers' rows in rank order, and
// the bytes adding up to what the summary counts as sent.
TEST_F(TraceCli, MessagesCsvHasARowPerMessageInReceiverOrder) {
  ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("messages.csv") + " --to messages").status, 0);
  std::istringstream csv(read_text(path("messages.csv")));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "sender,receiver,tag,communicator,bytes,send_time,receive_posted,receive_end");
  std::uint64_t rows = 0, bytes = 0;
  int last_receiver = 0;
  while (std::getline(csv, line)) {
    int sender = -1, receiver = -1, tag = 0, comm = 0;
    unsigned long long size = 0;
    double sent = 0, posted = 0, ended = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%d,%d,%d,%d,%llu,%lf,%lf,%lf", &sender, &receiver, &tag, &comm, &size, &sent,
                          &posted, &ended), 8) << line;
    EXPECT_NE(sender, receiver) << line;
    EXPECT_GE(receiver, last_receiver) << line;
    EXPECT_GE(ended, sent) << line;
    EXPECT_GE(ended, posted) << line;
    last_receiver = receiver;
    ++rows;
    bytes += size;
  }
  EXPECT_EQ(rows, total("messages_sent"));
  EXPECT_EQ(bytes, total("bytes_sent"));
  EXPECT_FALSE(fs::exists(path("messages.csv.partial")));
}

TEST_F(TraceCli, TextExportComparesEqualToItsSource) {
  ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("run.txt") + " --to text").status, 0);
  auto r = augur("compare " + path("run") + " " + path("run.txt") + " --levels C --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["mismatches"].empty());
  for (const auto& s : j["per_state"]) EXPECT_DOUBLE_EQ(s["ratio"].get<double>(), 1.0) << s;
}

TEST(CompareCli, ReproducesTheThesisWorkedExample) {
  auto data = std::string(AUGUR_TEST_DATA) + "/trace/";
  auto r = augur("compare " + data + "cmptrace_measured.txt " + data + "cmptrace_predicted.txt");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* line : {"p[0] COMPUTE 1.23 0.78 0.63", "p[0] BARRIER 0.11 0.24 2.18",
                           "p[0] COMPUTE 2.46 1.28 0.52", "p[0] WAIT 0.20 0.70 3.50",
                           "\np[0] COMPUTE 3.69 2.06 0.56\n", "\nCOMPUTE 3.69 2.06 0.56\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

TEST_F(TraceCli, SummaryGivesEachTimeItsUnitAndBytesInKiB) {
  auto r = augur("summary " + path("run"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(, elapsed [0-9.]+ ms\n)"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n    0 +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms +0 s +0 s +[0-9.]+ +[0-9]+ +[0-9.]+ MiB\n)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nMPI_Send +600 +[0-9.]+ ms +20 µs +20 µs +0 B\n)"))) << r.out;
  EXPECT_EQ(first_exponent(r.out), "") << r.out;
}

// Two runs of a halo exchange: 30 ms of compute beside Isends of a few microseconds, as the
// reverse profiler names them (isend1, wait).
TEST(CompareCli, ShortTimesCarryTheirUnitRatherThanZeros) {
  const auto dir = fs::temp_directory_path() / ("augur-compare-units-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const char* name, double compute, double isend, double wait) {
    std::ofstream(dir / name) << "$events\n"
                              << fmt::format("u:p[0] at 0: P COMPUTE\nu:p[0] at {}: P isend1\n", compute)
                              << fmt::format("u:p[0] at {}: P wait\n", compute + isend)
                              << fmt::format("u:p[0] at {}: P COMPUTE\n", compute + isend + wait)
                              << fmt::format("u:p[0] at {}: P DONE\n", 2 * compute);
    return (dir / name).string();
  };
  const auto measured = write("measured.txt", 0.030, 2.1e-6, 97.9e-6);
  const auto predicted = write("predicted.txt", 0.025, 10e-6, 190e-6);
  auto r = augur("compare " + measured + " " + predicted);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("# times in ms;", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\np[0] COMPUTE 30.0 25.0 0.83 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\np[0] MPI_Isend 2.1 µs 10 µs 4.76 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\np[0] MPI_Wait 97.9 µs 190 µs 1.94 "), std::string::npos) << r.out;
  EXPECT_EQ(first_zero_with_decimals(r.out), "") << r.out;
  EXPECT_EQ(first_exponent(r.out), "") << r.out;
  // The JSON keeps the trace's names and the exact seconds.
  auto j = nlohmann::json::parse(augur("compare " + measured + " " + predicted + " --json").out);
  EXPECT_EQ(j["per_state_event"][1]["state"], "isend1");
  EXPECT_NEAR(j["per_state_event"][1]["a"].get<double>(), 2.1e-6, 1e-12);
  fs::remove_all(dir);
}

TEST_F(TraceCli, DamagedTraceNamesFileAndOffsetAndStillSummarises) {
  fs::copy(dir_ / "run", dir_ / "damaged");
  auto file = dir_ / "damaged" / "rank-00002.augt";
  fs::resize_file(file, fs::file_size(file) - 5);
  auto r = augur("summary " + path("damaged"));
  EXPECT_EQ(r.status, 1);
  std::regex error("augur: error: .*rank-00002\\.augt: offset [0-9]+: truncated \\w+ record");
  EXPECT_TRUE(std::regex_search(r.out, error)) << r.out;
  EXPECT_NE(r.out.find("MPI_Allreduce"), std::string::npos) << "the readable part is still summarised";
}

TEST(TraceCliErrors, NotATraceIsAUsageError) {
  auto r = augur("summary " + std::string(AUGUR_TEST_DATA) + "/timecalc.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("not a trace"), std::string::npos) << r.out;
}

TEST_F(TraceCli, TimelineLoadsOfflineInChromiumWithARowPerRank) {
  ASSERT_EQ(run("command -v chromium").status, 0) << "Debian's chromium is needed (scripts/test installs it)";
  ASSERT_EQ(augur("trace synth -o " + path("pred") + " --ranks 4 --events 3000 --mode predicted --compute-scale 2").status, 0);
  auto r = augur("view " + path("run") + " " + path("pred") + " -o " + path("both.html"));
  ASSERT_EQ(r.status, 0) << r.out;
  auto html = read_text(path("both.html"));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  auto check = run(std::string(AUGUR_TEST_DATA) + "/../browser/timeline_check.sh " + path("both.html") +
                   " " + path("both.png"));
  ASSERT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("data-rows=\"8\""), std::string::npos) << check.out;  // 4 ranks x 2 runs
  std::smatch m;
  ASSERT_TRUE(std::regex_search(check.out, m, std::regex("data-painted=\"([0-9.]+)\""))) << check.out;
  EXPECT_GT(std::stod(m[1]), 0.3) << "most of the plot should be covered by states";
  ASSERT_TRUE(std::regex_search(check.out, m, std::regex("screenshot-bytes=([0-9]+)")));
  EXPECT_GT(std::stoul(m[1]), 20000u) << "a blank page compresses to a few kilobytes";
}

}  // namespace

// OTF2 as input: augur's own export is read wherever a trace is, and gives the same summary and
// the same simulated run as the trace it was made from.
TEST_F(TraceCli, AnOtf2ExportIsReadBackByEveryTraceCommand) {
  ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("back-otf2") + " --to otf2").status, 0);
  auto s = augur("summary --json " + path("back-otf2"), {.separate_stderr = true});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(s.err.empty()) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["per_rank"], summary_["per_rank"]);
  auto sim = [&](const std::string& trace) {
    auto r = augur("sim --machine t3d --json " + trace);
    EXPECT_EQ(r.status, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    return nlohmann::json{j["predicted_seconds"], j["ranks"], j["operations"], j["simulation"]["messages"]};
  };
  EXPECT_EQ(sim(path("back-otf2/traces.otf2")), sim(path("run")));
  auto c = augur("compare " + path("run") + " " + path("back-otf2"));
  EXPECT_EQ(c.status, 0) << c.out;
  ASSERT_EQ(augur("trace convert " + path("back-otf2") + " -o " + path("back.txt") + " --to text").status, 0);
  ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("run.txt") + " --to text").status, 0);
  EXPECT_EQ(read_text(path("back.txt")), read_text(path("run.txt")));
}

TEST_F(TraceCli, ATruncatedOtf2ArchiveIsRefusedAndNothingIsWritten) {
  ASSERT_EQ(augur("trace convert " + path("run") + " -o " + path("cut-otf2") + " --to otf2").status, 0);
  const auto evt = dir_ / "cut-otf2" / "traces" / "2.evt";
  fs::resize_file(evt, fs::file_size(evt) / 3);
  auto r = augur("trace convert " + path("cut-otf2") + " -o " + path("cut.txt") + " --to text", {.separate_stderr = true});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(evt.string() + ": event "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(rank 2, location 2)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("cut.txt")));
}
