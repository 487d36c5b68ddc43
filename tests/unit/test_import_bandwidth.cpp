// Bandwidth tables (OMB's osu_bw, osu_bibw, osu_mbw_mr; IMB's Uniband, Biband) as times per
// message, and the ranks a node `--ranks-per-node` keeps in the provenance. Expected times are
// worked out here from the numbers the stored files print (tests/data/import), read by the test
// itself, not by the reader under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"
#include "import/raw_records.hpp"

namespace fs = std::filesystem;
using augur::import::Document;
using augur::import::ImportError;
using augur::import::to_raw;

namespace {

const fs::path kData = fs::path(AUGUR_TEST_DATA) / "import";

Document read(const fs::path& file) {
  std::ifstream in(file);
  return file.filename().string().starts_with("imb-") ? augur::import::read_imb(in, file.string())
                                                       : augur::import::read_omb(in, file.string());
}

// Each line of the file that is two or more numbers: its first (the size) and its second (OMB's
// MB/s) or, for IMB's two-column tables of #bytes #repetitions Mbytes/sec, its third.
std::map<int, std::pair<double, double>> size_and_rate(const fs::path& file, int rate_column) {
  std::map<int, std::pair<double, double>> out;
  std::ifstream in(file);
  std::string line;
  static const std::regex numbers("^\\s*[0-9]+(\\s+[0-9.]+)+\\s*$");
  for (int n = 1; std::getline(in, line); ++n)
    if (std::regex_match(line, numbers)) {
      std::istringstream words(line);
      std::vector<double> v;
      for (double x; words >> x;) v.push_back(x);
      out[n] = {v.at(0), v.at(rate_column)};
    }
  return out;
}

// OMB's bandwidth tables: each row a time per message of ways × size / bandwidth, at p = 2.
void expect_times_per_message(const char* file, const char* op, double ways) {
  SCOPED_TRACE(file);
  const auto printed = size_and_rate(kData / file, 1);
  const auto imported = to_raw({read(kData / file)}, {});
  ASSERT_FALSE(imported.raw.points.empty());
  std::size_t rows = 0;
  for (const auto& table : read(kData / file).tables) rows += table.rows.size();
  ASSERT_EQ(imported.raw.points.size(), rows);
  std::size_t i = 0;
  for (const auto& [line, values] : printed) {
    const auto& m = imported.raw.points.at(i++);
    EXPECT_EQ(m.op, op);
    EXPECT_EQ(m.p, 2);
    EXPECT_EQ(m.bytes, values.first);
    EXPECT_DOUBLE_EQ(m.median, ways * values.first / (values.second * 1e6)) << "line " << line;
    EXPECT_EQ(m.min, m.median);
    EXPECT_EQ(m.max, m.median);
  }
}

TEST(ImportBandwidth, OmbBwIsTheTimePerMessageOfTheStream) {
  expect_times_per_message("omb-7.4-bw-np2.txt", "stream", 1);
  expect_times_per_message("omb-5.3-bw-np2.txt", "stream", 1);
  expect_times_per_message("omb-7.4-mbw_mr-np2.txt", "stream", 1);  // one pair
}

TEST(ImportBandwidth, OmbBibwCountsBothDirections) {
  expect_times_per_message("omb-7.4-bibw-np2.txt", "bistream", 2);
  expect_times_per_message("omb-5.3-bibw-np2.txt", "bistream", 2);
}

TEST(ImportBandwidth, TheProvenanceKeepsTheWindowAndTheConversion) {
  const auto bw = to_raw({read(kData / "omb-7.4-bw-np2.txt")}, {});
  const auto& table = bw.raw.header.at("provenance").at("settings").at("import").at(0).at("tables").at(0);
  EXPECT_EQ(table.at("operation"), "stream");
  EXPECT_EQ(table.at("window"), 64);  // OMB's default: osu_bw does not print its window
  EXPECT_EQ(table.at("time_per_message"), "1 x 1 pair x size / bandwidth");
}

TEST(ImportBandwidth, MbwMrPairsSetTheProcessCountAndTheWindowIsTheFiles) {
  std::istringstream in(
      "# OSU MPI Multiple Bandwidth / Message Rate Test v7.4\n# [ pairs: 3 ] [ window size: 32 ]\n"
      "# Size                  MB/s        Messages/s\n1024                 300.00         292968.75\n2048                 600.00         292968.75\n");
  const auto doc = augur::import::read_omb(in, "mbw.txt");
  ASSERT_EQ(doc.tables.size(), 1u);
  EXPECT_EQ(doc.tables[0].processes, 6);
  EXPECT_EQ(doc.tables[0].window, 32);
  const auto imported = to_raw({doc}, {});
  ASSERT_EQ(imported.raw.points.size(), 2u);
  // Three pairs share the 300 MB/s: each moves one 1 KiB message in 3 × 1024 B / 300 MB/s.
  EXPECT_DOUBLE_EQ(imported.raw.points[0].median, 3 * 1024 / 300e6);
  EXPECT_EQ(imported.raw.points[0].p, 6);
  EXPECT_EQ(imported.raw.header.at("provenance").at("settings").at("import").at(0).at("tables").at(0).at("window"), 32);
}

TEST(ImportBandwidth, AMalformedPairsLineNamesItsLine) {
  std::istringstream in("# OSU MPI Multiple Bandwidth / Message Rate Test v7.4\n# [ pairs: x ] [ window size: 64 ]\n");
  try {
    augur::import::read_omb(in, "mbw.txt");
    FAIL() << "read a bad pairs line";
  } catch (const ImportError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("mbw.txt:2: ", 0), 0u) << e.what();
  }
}

TEST(ImportBandwidth, ImbUnibandAndBibandSkipTheEmptyMessage) {
  const auto file = kData / "imb-2021.7-formats-np2.txt";
  const auto doc = read(file);
  const auto imported = to_raw({doc}, {});
  const auto printed = size_and_rate(file, 2);  // #bytes #repetitions Mbytes/sec Msg/sec
  for (const auto& [benchmark, op, ways] : {std::tuple{"Uniband", "stream", 1.0}, std::tuple{"Biband", "bistream", 2.0}}) {
    SCOPED_TRACE(benchmark);
    std::size_t seen = 0;
    for (const auto& table : doc.tables) {
      if (table.benchmark != benchmark) continue;
      for (const auto& row : table.rows) {
        const auto [bytes, rate] = printed.at(row.line);
        // Copies: clang 14 does not let a lambda capture structured bindings.
        const std::string wanted_op = op;
        const double wanted_bytes = bytes;
        const auto found = std::find_if(imported.raw.points.begin(), imported.raw.points.end(), [&](const auto& m) {
          return m.op == wanted_op && m.bytes == wanted_bytes;
        });
        if (bytes == 0) {
          EXPECT_EQ(found, imported.raw.points.end());
          const auto note = fmt::format("{}:{}: {} at 0 bytes: no time per message", file.string(), row.line, benchmark);
          EXPECT_NE(std::find_if(imported.left_out.begin(), imported.left_out.end(),
                                 [&](const std::string& s) { return s.starts_with(note); }),
                    imported.left_out.end());
          continue;
        }
        ASSERT_NE(found, imported.raw.points.end()) << bytes;
        EXPECT_DOUBLE_EQ(found->median, ways * bytes / (rate * 1e6));
        ++seen;
      }
    }
    EXPECT_GT(seen, 5u);
  }
}

// IMB -multi's bandwidth tables: G groups of N streaming at once are stream and bistream at
// p = G × N, each group's row the time per message of its N/2 pairs, one pass a group. The
// other -multi tables (a Multi-PingPong is a ping-pong beside other pairs) are left out.
TEST(ImportBandwidth, ImbMultiGroupsStreamingAtOnceAreOnePointAtAllTheirProcesses) {
  const auto file = kData / "imb-2021.7-multi-np4.txt";
  std::ifstream in(file);
  std::string line;
  std::map<int, std::vector<double>> numbers;  // each line of numbers, by line
  int groups = 0, group_size = 0;
  static const std::regex groups_line(".*\\( ([0-9]+) groups of ([0-9]+) processes.*");
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch match;
    if (std::regex_match(line, match, groups_line)) groups = std::stoi(match[1]), group_size = std::stoi(match[2]);
    std::istringstream words(line);
    std::vector<double> v;
    for (double x; words >> x;) v.push_back(x);
    if (words.eof() && v.size() == 5) numbers[n] = v;  // Group #bytes #repetitions Mbytes/sec Msg/sec
  }
  ASSERT_GT(groups, 1);
  const auto doc = read(file);
  const auto imported = to_raw({doc}, {});
  std::size_t seen = 0;
  for (const auto& [benchmark, op, ways] : {std::tuple{"Multi-Uniband", "stream", 1.0}, std::tuple{"Multi-Biband", "bistream", 2.0}})
    for (const auto& table : doc.tables) {
      if (table.benchmark != benchmark) continue;
      for (const auto& row : table.rows) {
        const auto& v = numbers.at(row.line);
        if (v[1] == 0) continue;
        const std::string wanted_op = op;  // clang 14 does not let a lambda capture structured bindings
        const auto found = std::find_if(imported.raw.points.begin(), imported.raw.points.end(), [&](const auto& m) {
          return m.op == wanted_op && m.p == groups * group_size && m.bytes == v[1] && m.pass == static_cast<int>(v[0]) + 1;
        });
        ASSERT_NE(found, imported.raw.points.end()) << benchmark << " line " << row.line;
        EXPECT_DOUBLE_EQ(found->median, ways * (group_size / 2) * v[1] / (v[3] * 1e6)) << benchmark << " line " << row.line;
        ++seen;
      }
    }
  EXPECT_GE(seen, 2u * groups * 5);
  const auto pingpong = fmt::format("Multi-PingPong (group 0): groups running at the same time");
  EXPECT_NE(std::find_if(imported.left_out.begin(), imported.left_out.end(),
                         [&](const std::string& s) { return s.find(pingpong) != std::string::npos; }),
            imported.left_out.end());
}

// Bad bandwidth tables: the error names the file, the line and the reason.
std::string omb_error(const std::string& text) {
  std::istringstream in(text);
  try {
    augur::import::read_omb(in, "bw.txt");
  } catch (const ImportError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ImportBandwidth, BadTablesNameTheLineAndTheReason) {
  const std::string head = "# OSU MPI Bandwidth Test v7.4\n# Datatype: MPI_CHAR.\n# Size      Bandwidth (MB/s)\n";
  EXPECT_EQ(omb_error(head + "1    7.80\n2"), "bw.txt:5: the row ends after 1 of its 2 columns: the file is cut off");
  EXPECT_EQ(omb_error(head + "1    7.80\n2   -15.60\n"), "bw.txt:5: bandwidth: negative bandwidth -15.60");
  EXPECT_EQ(omb_error("# OSU MPI Bandwidth Test v7.4\n# Size      Bandwidth (GB/s)\n1  0.0078\n"),
            "bw.txt:2: column 'Bandwidth (GB/s)' is not one OMB prints (another tool's output, or other units?)");
  EXPECT_EQ(omb_error(head), "bw.txt:1: OSU MPI Bandwidth Test: a table header without rows (truncated?)");
  EXPECT_EQ(omb_error(head + "4    7.80\n2    3.90\n"), "bw.txt:5: size 2 after size 4: sizes must grow down a table");
}

TEST(ImportRanksPerNode, EachTableKeepsItsBlockPlacement) {
  const auto latency = read(kData / "omb-7.4-latency-np2.txt");
  const auto allreduce = read(kData / "omb-7.4-allreduce-np4.txt");
  const auto imported = to_raw({latency, allreduce}, {.processes = 6, .machine_name = {}, .ranks_per_node = 4});
  const auto& settings = imported.raw.header.at("provenance").at("settings");
  EXPECT_EQ(settings.at("ranks_per_node"), 4);
  // The ping-pong's two ranks share the first node; six ranks fill one node and half another.
  const auto& pingpong = settings.at("import").at(0).at("tables").at(0).at("placement");
  EXPECT_EQ(pingpong, (nlohmann::json{{"nodes", 1}, {"ranks_per_node", 2}}));
  const auto& collective = settings.at("import").at(1).at("tables").at(0).at("placement");
  EXPECT_EQ(collective, (nlohmann::json{{"nodes", 2}, {"ranks_per_node", 4}}));
  // Six ranks at 4 a node fill their nodes unevenly, which no record can say: one level.
  EXPECT_EQ(imported.levels, "one level: the only tables across nodes fill them unevenly; each table's placement is kept in the provenance");
  for (const auto& m : imported.raw.points) EXPECT_FALSE(m.placed()) << m.op;
  const auto without = to_raw({latency}, {});
  EXPECT_FALSE(without.raw.header.at("provenance").at("settings").contains("ranks_per_node"));
  EXPECT_FALSE(without.raw.header.at("provenance").at("settings").at("import").at(0).at("tables").at(0).contains("placement"));
}

}  // namespace
