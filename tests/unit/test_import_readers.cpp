// The OMB and IMB readers on the outputs stored in tests/data/import (made on this host by
// bench/import/make_outputs.sh): every file parses, every number is the one printed, and the
// process counts are the file's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <utility>
#include <string>
#include <vector>

#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"
#include "import/raw_records.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_import_readers {
namespace {

namespace fs = std::filesystem;
using augur::import::Document;

namespace {

const fs::path kData = fs::path(AUGUR_TEST_DATA) / "import";

bool is_imb(const fs::path& file) { return file.filename().string().starts_with("imb-"); }

Document read(const fs::path& file) {
  std::ifstream in(file);
  return is_imb(file) ? augur::import::read_imb(in, file.string()) : augur::import::read_omb(in, file.string());
}

std::vector<fs::path> stored_outputs() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kData))
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The file as the test reads it itself: each data line's values under its table's column names
// (the nearest header above it: IMB's words, OMB's fields two or more spaces apart).
std::map<int, std::map<std::string, std::string>> printed_values(const fs::path& file) {
  const std::set<std::string> first_columns = {"#bytes", "#repetitions", "Group", "Size", "Avg Latency(us)", "Overall(us)"};
  std::map<int, std::map<std::string, std::string>> out;
  std::vector<std::string> header;
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const bool comment = line.find_first_not_of(' ') != std::string::npos && line[line.find_first_not_of(' ')] == '#';
    std::vector<std::string> fields;
    if (comment && !is_imb(file)) {
      const auto text = std::regex_replace(line, std::regex("^\\s*#\\s*|\\s+$"), "");
      static const std::regex gap("\\s{2,}");
      fields.assign(std::sregex_token_iterator(text.begin(), text.end(), gap, -1), std::sregex_token_iterator());
    } else {
      std::istringstream words(line);
      for (std::string word; words >> word;) fields.push_back(word);
    }
    if (fields.empty()) continue;
    if (first_columns.count(fields.front())) {
      header = fields;
    } else if (!comment && fields.size() == header.size()) {
      for (std::size_t i = 0; i < fields.size(); ++i) out[n][header[i]] = fields[i];
    }
  }
  return out;
}

// The printed value of the first of `names` the row has, if any.
std::optional<double> printed(const std::map<std::string, std::string>& row, std::initializer_list<const char*> names) {
  for (const auto* name : names)
    if (row.count(name)) return std::stod(row.at(name));
  return std::nullopt;
}

TEST(ImportReaders, EveryStoredOutputParsesIntoTablesWithRows) {
  const auto files = stored_outputs();
  ASSERT_GE(files.size(), 10u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const auto doc = read(file);
    EXPECT_FALSE(doc.version.empty());
    ASSERT_FALSE(doc.tables.empty());
    for (const auto& t : doc.tables) EXPECT_FALSE(t.rows.empty()) << t.benchmark;
  }
}

// Every row holds the printed numbers: times in µs as seconds, MB/s as 10^6 bytes a second.
TEST(ImportReaders, RowsHoldExactlyThePrintedNumbers) {
  for (const auto& file : stored_outputs()) {
    SCOPED_TRACE(file.string());
    const auto values = printed_values(file);
    std::size_t rows = 0;
    for (const auto& table : read(file).tables)
      for (const auto& row : table.rows) {
        ++rows;
        ASSERT_TRUE(values.count(row.line)) << row.line;
        const auto& v = values.at(row.line);
        const auto us = [](std::optional<double> x) { return x ? std::optional<double>(*x * 1e-6) : std::nullopt; };
        EXPECT_EQ(row.seconds, us(printed(v, {"Avg Latency(us)", "Latency (us)", "Pure Comm.(us)", "t[usec]", "t_avg[usec]", "t_pure[usec]"})));
        EXPECT_EQ(row.min_seconds, us(printed(v, {"Min Latency(us)", "Min Comm.(us)", "t_min[usec]"})));
        EXPECT_EQ(row.max_seconds, us(printed(v, {"Max Latency(us)", "Max Comm.(us)", "t_max[usec]"})));
        EXPECT_EQ(row.bytes, printed(v, {"Size", "#bytes"}).value_or(0));
        const auto iterations = printed(v, {"Iterations", "#repetitions"});
        EXPECT_EQ(row.iterations, iterations ? std::optional<long>(static_cast<long>(*iterations)) : std::nullopt);
        const auto megabytes = printed(v, {"Bandwidth (MB/s)", "MB/s", "Mbytes/sec"});
        EXPECT_EQ(row.bandwidth, megabytes ? std::optional<double>(*megabytes * 1e6) : std::nullopt);
      }
    EXPECT_EQ(rows, values.size()) << "every data line is a row";
  }
}

TEST(ImportReaders, OmbBandwidthIsMegabytesOfTenToTheSix) {
  const auto doc = read(kData / "omb-7.4-bw-np2.txt");
  const auto values = printed_values(kData / "omb-7.4-bw-np2.txt");
  ASSERT_EQ(doc.tables.size(), 1u);
  for (const auto& row : doc.tables[0].rows) {
    ASSERT_TRUE(row.bandwidth);
    EXPECT_FALSE(row.seconds);
    EXPECT_EQ(*row.bandwidth, std::stod(values.at(row.line).at("Bandwidth (MB/s)")) * 1e6);
  }
}

TEST(ImportReaders, OmbSaysTwoProcessesForPointToPointAndNothingForCollectives) {
  const auto latency = read(kData / "omb-7.4-latency-np2.txt");
  EXPECT_EQ(latency.tables.at(0).processes, 2);
  EXPECT_EQ(latency.tables.at(0).datatype, "MPI_CHAR");
  EXPECT_EQ(latency.version, "7.4");
  EXPECT_EQ(read(kData / "omb-7.4-allreduce-np4.txt").tables.at(0).processes, 0);
}

// IMB -npmin 2 at 4 processes: each table at the count its "# #processes = N" line gives (the
// test reads them itself), the pair benchmarks at 2 only, the collectives at 4 too; the banner's
// lines kept.
TEST(ImportReaders, ImbTablesCarryTheProcessCountsOfNpmin) {
  for (const auto& file : stored_outputs()) {
    if (!std::regex_match(file.filename().string(), std::regex(R"(imb-[0-9.]+-np4\.txt)"))) continue;
    SCOPED_TRACE(file.string());
    std::map<int, int> processes_of_line;
    std::ifstream in(file);
    std::string line;
    int benchmark_line = 0;
    std::smatch m;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.starts_with("# Benchmarking ")) benchmark_line = n;
      if (std::regex_search(line, m, std::regex(R"(^# #processes = (\d+))"))) processes_of_line[benchmark_line] = std::stoi(m[1]);
    }
    const auto doc = read(file);
    std::map<std::string, std::set<int>> counts;
    for (const auto& t : doc.tables) {
      EXPECT_EQ(t.processes, processes_of_line.at(t.line)) << t.benchmark << " at line " << t.line;
      counts[t.benchmark].insert(t.processes);
    }
    EXPECT_EQ(counts["PingPong"], (std::set<int>{2}));
    EXPECT_EQ(counts["Barrier"], (std::set<int>{2, 4}));
    EXPECT_EQ(counts["Bcast"], (std::set<int>{2, 4}));
    std::map<std::string, std::string> lines(doc.lines.begin(), doc.lines.end());
    EXPECT_FALSE(lines["Date"].empty());
    EXPECT_FALSE(lines["Machine"].empty());
    EXPECT_NE(lines["Calling sequence"].find("-npmin 2"), std::string::npos);
  }
}

TEST(ImportReaders, RawRecordsAreTheRowsUnderTheModelsNames) {
  const auto doc = read(kData / "omb-7.4-allreduce-full-np2.txt");
  const auto imported = augur::import::to_raw({doc}, {.processes = 2, .machine_name = "here"});
  ASSERT_EQ(imported.raw.points.size(), doc.tables.at(0).rows.size());
  for (std::size_t i = 0; i < imported.raw.points.size(); ++i) {
    const auto& m = imported.raw.points[i];
    const auto& row = doc.tables[0].rows[i];
    EXPECT_EQ(m.op, "allreduce");
    EXPECT_EQ(m.p, 2);
    EXPECT_EQ(m.bytes, row.bytes);
    EXPECT_EQ(m.median, *row.seconds);
    EXPECT_EQ(m.min, *row.min_seconds);
    EXPECT_EQ(m.max, *row.max_seconds);
    EXPECT_EQ(m.reps, *row.iterations);
  }
  const auto& provenance = imported.raw.header.at("provenance");
  EXPECT_EQ(imported.raw.header.at("machine").at("name"), "here");
  EXPECT_NE(provenance.at("source").get<std::string>().find("OSU Micro-Benchmarks 7.4"), std::string::npos);
  EXPECT_EQ(provenance.at("settings").at("import").at(0).at("tables").at(0).at("benchmark"), "OSU MPI Allreduce Latency Test");
}

// IMB's Exchange (each rank sends to and receives from both neighbours of a ring) is the model's
// ringexchange at the file's process count, timed by t_avg as printed.
TEST(ImportReaders, ImbExchangeIsTheRingExchangeAtTheFilesProcessCount) {
  const auto file = kData / "imb-2021.7-formats-np2.txt";
  const auto imported = augur::import::to_raw({read(file)}, {});
  const auto rows = printed_values(file);
  std::ifstream in(file);
  std::string line;
  int first = 0, last = 0;  // the lines of Exchange's table
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find("# Benchmarking ") == std::string::npos) continue;
    if (first > 0 && last == 0) last = n;
    if (line.find("Benchmarking Exchange") != std::string::npos) first = n;
  }
  std::vector<std::pair<double, double>> expected;
  for (const auto& [n, row] : rows)
    if (n > first && n < last) expected.emplace_back(std::stod(row.at("#bytes")), 1e-6 * std::stod(row.at("t_avg[usec]")));
  std::vector<std::pair<double, double>> got;
  for (const auto& m : imported.raw.points)
    if (m.op == "ringexchange") {
      EXPECT_EQ(m.p, 2);
      got.emplace_back(m.bytes, m.median);
    }
  ASSERT_EQ(got.size(), 14u);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, expected[i].first);
    EXPECT_DOUBLE_EQ(got[i].second, expected[i].second);
  }
  for (const auto& why : imported.left_out) EXPECT_EQ(why.find("Exchange:"), std::string::npos) << why;
}

}  // namespace

}  // namespace
}  // namespace test_import_readers
