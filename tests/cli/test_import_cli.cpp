// `augur import` as a user runs it: the benchmarks' stored output in, raw measurements and a
// model out, and the model's answers beside the numbers the benchmarks printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"
#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"

namespace fs = std::filesystem;
using augur_test::data;

namespace {

class ImportCli : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("augur-import-cli-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // The model's time of `op` at p and `bytes`, seconds.
  double calc(const fs::path& model, const std::string& op, int p, double bytes) {
    const auto r = augur_test::augur(fmt::format("calc --machine {} {} {} {} --json", model.string(), op, p, bytes));
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

// Files in the suites' own layout whose times follow known laws, printed to 2 decimals as the
// suites print them: the model made of them answers within 5% of the printed time at every
// measured size and process count.
TEST_F(ImportCli, ModelAnswersWithinFivePercentOfEveryPrintedTime) {
  const auto latency = [](double bytes) { return 1.2 + 0.00035 * bytes; };
  const auto allreduce = [](int p, double bytes) { return (2.0 + 0.0008 * bytes) * std::log2(p); };
  std::string omb = "\n# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n";
  for (int b = 1; b <= 65536; b *= 2) omb += fmt::format("{:<10}{:>20.2f}\n", b, latency(b));
  std::string imb =
      "#----------------------------------------------------------------\n"
      "#    Intel(R) MPI Benchmarks 2021.7, MPI-1 part\n"
      "#----------------------------------------------------------------\n"
      "# Date                  : Sun Dec  6 04:00:00 2026\n"
      "# Machine               : x86_64\n\n"
      "# Minimum message length in bytes:   0\n"
      "# Maximum message length in bytes:   65536\n";
  for (int p : {2, 4, 8}) {
    imb += fmt::format("#---\n# Benchmarking Allreduce \n# #processes = {} \n#---\n", p);
    imb += "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n";
    for (int b = 0; b <= 65536; b = b == 0 ? 4 : b * 2) {
      const double t = allreduce(p, b);
      imb += fmt::format("{:>13}{:>13}{:>13.2f}{:>13.2f}{:>13.2f}\n", b, 1000, 0.98 * t, 1.02 * t, t);
    }
  }
  imb += "\n# All processes entering MPI_Finalize\n";
  const auto omb_file = augur_test::temp_file("osu_latency.txt", omb), imb_file = augur_test::temp_file("imb.txt", imb);
  for (const auto& [suite, file, op] : {std::tuple{"omb", omb_file, "pingpong"}, std::tuple{"imb", imb_file, "allreduce"}}) {
    const auto raw = dir / (std::string(suite) + ".jsonl"), model = dir / (std::string(suite) + ".json");
    const auto r = augur_test::augur(fmt::format("import {} {} -o {} --fit {}", suite, file, raw.string(), model.string()));
    ASSERT_EQ(r.status, 0) << r.out;
    std::ifstream in(file);
    const auto doc = std::string(suite) == "omb" ? augur::import::read_omb(in, file) : augur::import::read_imb(in, file);
    for (const auto& t : doc.tables) {
      const int p = t.processes;
      const auto e = errors(model, doc, t.benchmark, op, p);
      EXPECT_LT(*std::max_element(e.begin(), e.end()), 0.05) << t.benchmark << " at p = " << p;
    }
  }
}

// The outputs made on this host (tests/data/import): they import and fit, what the model has
// no operation for is named, and the file's banner reaches the model's provenance.
TEST_F(ImportCli, StoredImbOutputsBecomeAModelWithProvenance) {
  const auto raw = dir / "imb.jsonl", model = dir / "imb.json";
  const auto r = augur_test::augur(fmt::format("import imb {} {} -o {} --fit {} --machine-name here", data("import/imb-2021.7-np4.txt"),
                                   data("import/imb-2021.7-formats-np2.txt"), raw.string(), model.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("pingpong (MPI_Send/MPI_Recv ping-pong) at p = 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ringexchange (MPI_Isend/MPI_Irecv ring exchange) at p = 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stream (MPI_Isend stream) at p = 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Uniband at 0 bytes: no time per message"), std::string::npos) << r.out;
  const auto m = nlohmann::json::parse(std::ifstream(model));
  for (const auto* op : {"pingpong", "exchange", "sendrecv", "allreduce", "bcast", "barrier", "alltoall", "gather", "stream", "bistream", "ringexchange"})
    EXPECT_TRUE(m.at("operations").contains(op)) << op;
  EXPECT_EQ(m.at("machine").at("name"), "here");
  const auto& provenance = m.at("provenance");
  EXPECT_NE(provenance.at("source").get<std::string>().find("Intel MPI Benchmarks 2021.7"), std::string::npos);
  EXPECT_FALSE(provenance.at("settings").at("import").at(0).at("lines").at("Date").get<std::string>().empty());
}

TEST_F(ImportCli, OmbCollectivesNeedTheProcessCountTheFileLacks) {
  const auto latency = data("import/omb-7.4-latency-np2.txt"), allreduce = data("import/omb-7.4-allreduce-full-np4.txt");
  const auto raw = dir / "omb.jsonl";
  const auto refused = augur_test::augur(fmt::format("import omb {} {} -o {}", latency, allreduce, raw.string()));
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.out.find(allreduce + ":2: OSU MPI Allreduce Latency Test: the file does not say how many processes ran it; give --processes N"),
            std::string::npos)
      << refused.out;
  EXPECT_FALSE(fs::exists(raw));
  const auto r = augur_test::augur(fmt::format("import omb {} {} --processes 4 -o {}", latency, allreduce, raw.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("allreduce (MPI_Allreduce) at p = 4: 13 sizes from 4 B to 16 KiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pingpong (MPI_Send/MPI_Recv ping-pong) at p = 2: 17 sizes from 1 B to 64 KiB"), std::string::npos) << r.out;
}

// OMB output of 2 emulated nodes (tests/data/import/nodes): a ping-pong on one node, another
// between the nodes, collectives on 2 nodes of 2. Each file's ranks a node make a machine of two
// levels whose calc gives every printed time back at its own placement.
TEST_F(ImportCli, FilesOnOneNodeAndBetweenNodesMakeAMachineOfTwoLevels) {
  const auto on_node = data("import/nodes/omb-7.4-latency-1node-2ranks.txt"), across = data("import/nodes/omb-7.4-latency-2nodes-1rank.txt");
  const auto allreduce = data("import/nodes/omb-7.4-allreduce-2nodes-2ranks.txt");
  const auto raw = dir / "nodes.jsonl", model = dir / "nodes.json";
  const auto files = fmt::format("{} {} {} --processes 4 -o {} --fit {}", on_node, across, allreduce, raw.string(), model.string());
  const auto r = augur_test::augur(fmt::format("import omb {} --ranks-per-node 2 --ranks-per-node {}=1", files, across));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("pingpong (MPI_Send/MPI_Recv ping-pong) at p = 2, 1 node x 2 ranks a node: 17 sizes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pingpong (MPI_Send/MPI_Recv ping-pong) at p = 2, 2 nodes x 1 rank a node: 17 sizes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("machine of two levels"), std::string::npos) << r.out;
  const auto m = nlohmann::json::parse(std::ifstream(model));
  EXPECT_TRUE(m.at("nodes").at("on_node").contains("pingpong"));
  EXPECT_TRUE(m.at("operations").contains("pingpong"));
  EXPECT_EQ(m.at("nodes").at("placements").at(0).at("ranks_per_node"), 2);
  EXPECT_TRUE(m.at("nodes").at("placements").at(0).at("operations").contains("allreduce"));
  const auto at = [&](const std::string& op, int p, double bytes, int k) {
    const auto a = augur_test::augur(fmt::format("calc --machine {} {} {} {} --ranks-per-node {} --json", model.string(), op, p, bytes, k));
    EXPECT_EQ(a.status, 0) << a.out;
    return nlohmann::json::parse(a.out)["seconds"]["avg"].get<double>();
  };
  for (const auto& [file, op, p, k] : {std::tuple{on_node, "pingpong", 2, 2}, {across, "pingpong", 2, 1}, {allreduce, "allreduce", 4, 2}}) {
    std::ifstream in(file);
    const auto doc = augur::import::read_omb(in, file);
    for (const auto& row : doc.tables.at(0).rows) EXPECT_NEAR(at(op, p, row.bytes, k) / (*row.seconds) - 1, 0, 1e-9) << file << " " << row.bytes;
  }
  // Measured at 2 ranks a node only: one rank a node is not guessed.
  const auto one = augur_test::augur(fmt::format("calc --machine {} allreduce 4 8 --ranks-per-node 1", model.string()));
  EXPECT_EQ(one.status, 1);
  EXPECT_NE(one.out.find("allreduce: machine 'imported' measured it only at 2 ranks a node, not at 4 nodes of 1 rank"), std::string::npos) << one.out;
  // Without the link's file one rank a node, the ping-pongs are both on one node: one level, said.
  const auto same = augur_test::augur(fmt::format("import omb {} --ranks-per-node 2", files));
  ASSERT_EQ(same.status, 0) << same.out;
  EXPECT_NE(same.out.find("machine of one level: no table ran one rank a node"), std::string::npos) << same.out;
  EXPECT_FALSE(nlohmann::json::parse(std::ifstream(model)).contains("nodes"));
  for (const auto& bad : {fmt::format("{}=1", allreduce + "x"), std::string("two"), fmt::format("{}=0", across)}) {
    const auto refused = augur_test::augur(fmt::format("import omb {} --ranks-per-node {}", files, bad));
    EXPECT_EQ(refused.status, 2) << bad << ": " << refused.out;
    EXPECT_NE(refused.out.find("--ranks-per-node " + bad + ": "), std::string::npos) << refused.out;
  }
}

TEST_F(ImportCli, BadInputNamesFileAndLineAndWritesNothing) {
  const auto cut = augur_test::temp_file("cut.txt", "# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n1   1.5\n2");
  const auto raw = dir / "raw.jsonl";
  const auto r = augur_test::augur(fmt::format("import omb {} -o {}", cut, raw.string()));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(cut + ":4: the row ends after 1 of its 2 columns: the file is cut off"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(raw));
  EXPECT_FALSE(fs::exists(raw.string() + ".partial"));
  // A bandwidth table cut off after a good latency file: nothing of either is written.
  const auto cut_bw = augur_test::temp_file("cut-bw.txt", "# OSU MPI Bi-Directional Bandwidth Test v7.4\n# Size      Bandwidth (MB/s)\n1   11.67\n2");
  const auto bw = augur_test::augur(fmt::format("import omb {} {} -o {} --fit {}", data("import/omb-7.4-latency-np2.txt"), cut_bw,
                                                raw.string(), (dir / "m.json").string()));
  EXPECT_EQ(bw.status, 1);
  EXPECT_NE(bw.out.find(cut_bw + ":4: the row ends after 1 of its 2 columns: the file is cut off"), std::string::npos) << bw.out;
  EXPECT_FALSE(fs::exists(raw));
  EXPECT_FALSE(fs::exists(dir / "m.json"));
  const auto wrong = augur_test::augur(fmt::format("import imb {} -o {}", data("import/omb-7.4-latency-np2.txt"), raw.string()));
  EXPECT_NE(wrong.status, 0);
  EXPECT_NE(wrong.out.find("not IMB output"), std::string::npos) << wrong.out;
}

}  // namespace
