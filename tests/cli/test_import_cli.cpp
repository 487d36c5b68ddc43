// `augur import` as a user runs it: the benchmarks' stored output in, raw measurements and a
// model out, and the model's answers beside the numbers the benchmarks printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"
#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"

namespace fs = std::filesystem;
using augur_test::augur;
using augur_test::data;

namespace {

class ImportCli : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("augur-import-cli-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // The model's time of `op` at p and `bytes`, seconds.
  double calc(const fs::path& model, const std::string& op, int p, double bytes) {
    const auto r = augur(fmt::format("calc --machine {} {} {} {} --json", model.string(), op, p, bytes));
    EXPECT_EQ(r.status, 0) << r.out;
    return nlohmann::json::parse(r.out)["seconds"]["avg"].get<double>();
  }

  // |model / printed - 1| at every row of the file's tables named `benchmark` at p processes.
  std::vector<double> errors(const fs::path& model, const augur::import::Document& doc, const std::string& benchmark,
                             const std::string& op, int p) {
    std::vector<double> out;
    for (const auto& t : doc.tables)
      if (t.benchmark == benchmark && (t.processes == p || t.processes == 0))
        for (const auto& row : t.rows) out.push_back(std::abs(calc(model, op, p, row.bytes) / *row.seconds - 1));
    return out;
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.at(v.size() / 2);
}

augur::import::Document read_imb(const std::string& path) {
  std::ifstream in(path);
  return augur::import::read_imb(in, path);
}

TEST_F(ImportCli, ImbOutputBecomesAModelThatAnswersNearThePrintedTimes) {
  const auto file = data("import/imb-2021.7-np4.txt");
  const auto raw = dir / "imb.jsonl", model = dir / "imb.json";
  const auto r = augur(fmt::format("import imb {} -o {} --fit {} --machine-name here", file, raw.string(), model.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("pingpong (MPI_Send/MPI_Recv ping-pong) at p = 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Sendrecv: 4 processes in a ring"), std::string::npos) << r.out;
  const auto doc = read_imb(file);
  for (const auto& [benchmark, op, p] : {std::tuple{"PingPong", "pingpong", 2}, std::tuple{"Allreduce", "allreduce", 4},
                                          std::tuple{"Bcast", "bcast", 4}, std::tuple{"Barrier", "barrier", 2}}) {
    const auto e = errors(model, doc, benchmark, op, p);
    ASSERT_FALSE(e.empty()) << benchmark;
    EXPECT_LT(median(e), 0.05) << benchmark << " at p = " << p;
  }
  const auto provenance = nlohmann::json::parse(std::ifstream(model)).at("provenance");
  EXPECT_NE(provenance.at("source").get<std::string>().find("Intel MPI Benchmarks 2021.7"), std::string::npos);
  EXPECT_FALSE(provenance.at("settings").at("import").at(0).at("lines").at("Date").get<std::string>().empty());
}

TEST_F(ImportCli, OmbLatencyAndCollectiveNeedTheProcessCountOnlyWhereTheFileLacksIt) {
  const auto latency = data("import/omb-7.4-latency-np2.txt"), allreduce = data("import/omb-7.4-allreduce-full-np4.txt");
  const auto raw = dir / "omb.jsonl", model = dir / "omb.json";
  const auto refused = augur(fmt::format("import omb {} {} -o {}", latency, allreduce, raw.string()));
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.out.find(allreduce + ":2: OSU MPI Allreduce Latency Test: the file does not say how many processes ran it; give --processes N"),
            std::string::npos)
      << refused.out;
  EXPECT_FALSE(fs::exists(raw));
  const auto r = augur(fmt::format("import omb {} {} --processes 4 -o {} --fit {}", latency, allreduce, raw.string(), model.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream lat_in(latency), ar_in(allreduce);
  const auto lat_doc = augur::import::read_omb(lat_in, latency), ar_doc = augur::import::read_omb(ar_in, allreduce);
  EXPECT_LT(median(errors(model, lat_doc, "OSU MPI Latency Test", "pingpong", 2)), 0.05);
  EXPECT_LT(median(errors(model, ar_doc, "OSU MPI Allreduce Latency Test", "allreduce", 4)), 0.05);
}

TEST_F(ImportCli, BadInputNamesFileAndLineAndWritesNothing) {
  const auto cut = augur_test::temp_file("cut.txt", "# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n1   1.5\n2");
  const auto raw = dir / "raw.jsonl";
  const auto r = augur(fmt::format("import omb {} -o {}", cut, raw.string()));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(cut + ":4: the row ends after 1 of its 2 columns: the file is cut off"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(raw));
  EXPECT_FALSE(fs::exists(raw.string() + ".partial"));
  const auto wrong = augur(fmt::format("import imb {} -o {}", data("import/omb-7.4-latency-np2.txt"), raw.string()));
  EXPECT_NE(wrong.status, 0);
  EXPECT_NE(wrong.out.find("not IMB output"), std::string::npos) << wrong.out;
}

}  // namespace
