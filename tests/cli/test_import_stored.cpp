// The outputs of OMB and IMB made on this host (tests/data/import), imported into one model per
// suite and process count as docs/import.md's table: the model's `augur calc` against every time
// the benchmark printed. By default an operation printed at one process count gets the lines
// through its printed times, so calc gives each back. With --fitted-laws every operation gets
// `augur fit`'s laws: where the printed times allow it the model meets each within 5%; where it
// does not, the test checks the reason docs/import.md gives: the printed times fall as the message
// grows by more than any law within 5% of both could (the host was loaded).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

namespace fs = std::filesystem;
using augur_test::data;

namespace {

constexpr double kTolerance = 0.05;

struct Group {
  std::string name, suite, files, options;
  std::set<std::pair<std::string, int>> within;  // the operations and p the model meets at every size
};

std::string stored(std::initializer_list<const char*> names) {
  std::string out;
  for (const auto* n : names) out += fmt::format(" {}", data(fmt::format("import/{}", n)));
  return out;
}

std::vector<Group> groups() {
  return {
      {"imb", "imb", stored({"imb-2021.7-np4.txt", "imb-2021.7-formats-np2.txt"}), "", {}},
      {"imb_np2", "imb", stored({"imb-2021.7-np2.txt"}), "", {{"barrier", 2}}},
      {"imb_multi", "imb", stored({"imb-2021.7-multi-np4.txt"}), "", {{"barrier", 4}}},
      {"omb74_p2", "omb",
       stored({"omb-7.4-latency-np2.txt", "omb-7.4-allreduce-full-np2.txt", "omb-7.4-bcast-full-np2.txt",
               "omb-7.4-barrier-full-np2.txt", "omb-7.4-alltoall-np2.txt", "omb-7.4-ialltoall-full-np2.txt"}),
       "--processes 2", {{"barrier", 2}}},
      {"omb74_p4", "omb", stored({"omb-7.4-allreduce-full-np4.txt", "omb-7.4-bcast-full-np4.txt", "omb-7.4-barrier-full-np4.txt"}),
       "--processes 4", {{"barrier", 4}}},
      {"omb74_bw", "omb", stored({"omb-7.4-bw-np2.txt", "omb-7.4-bibw-np2.txt", "omb-7.4-mbw_mr-np2.txt"}), "", {}},
      {"omb53_p2", "omb",
       stored({"omb-5.3-latency-np2.txt", "omb-5.3-allreduce-full-np2.txt", "omb-5.3-bcast-full-np2.txt",
               "omb-5.3-barrier-full-np2.txt"}),
       "--processes 2", {{"barrier", 2}}},
      {"omb53_p4", "omb", stored({"omb-5.3-allreduce-full-np4.txt", "omb-5.3-bcast-full-np4.txt", "omb-5.3-barrier-full-np4.txt"}),
       "--processes 4", {{"barrier", 4}}},
      {"omb53_bw", "omb", stored({"omb-5.3-bw-np2.txt", "omb-5.3-bibw-np2.txt", "omb-5.3-mbw_mr-np2.txt"}), "", {}},
  };
}

// A printed time that a later, larger message undercuts so far that no law which does not fall
// as the message grows lies within the tolerance of both: (1 - tol) t_small > (1 + tol) t_large.
bool falls_beyond_tolerance(std::vector<std::pair<double, double>> bytes_seconds) {
  std::sort(bytes_seconds.begin(), bytes_seconds.end());
  double highest = 0;
  for (const auto& [bytes, seconds] : bytes_seconds) {
    if ((1 - kTolerance) * highest > (1 + kTolerance) * seconds) return true;
    highest = std::max(highest, seconds);
  }
  return false;
}

class ImportStored : public ::testing::TestWithParam<Group> {
 protected:
  fs::path dir = fs::temp_directory_path() / ("augur-import-stored-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
};

using Key = std::pair<std::string, int>;

struct Compared {
  std::map<Key, std::vector<std::pair<double, double>>> printed;  // bytes, seconds as imported
  std::map<Key, double> worst;                                    // the model's largest |error|
};

// The printed times as imported, by operation and process count, and the model's at each.
Compared compare(const fs::path& raw, const fs::path& model) {
  Compared out;
  auto& [printed, worst] = out;
  std::ifstream in(raw);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    const auto rec = nlohmann::json::parse(line);
    const std::pair key{rec.at("op").get<std::string>(), rec.at("p").get<int>()};
    const double bytes = rec.at("bytes"), seconds = rec.at("median");
    printed[key].emplace_back(bytes, seconds);
    const auto c = augur_test::augur(fmt::format("calc --machine {} {} {} {} --json", model.string(), key.first, key.second, bytes));
    EXPECT_EQ(c.status, 0) << c.out;
    if (c.status != 0) continue;
    const double modelled = nlohmann::json::parse(c.out).at("seconds").at("avg");
    worst[key] = std::max(worst[key], std::abs(modelled / seconds - 1));
  }
  return out;
}

// Times printed at one size by two files are averaged in the lines; elsewhere calc gives the
// printed time back, to rounding.
double spread_at_one_size(const std::vector<std::pair<double, double>>& times) {
  std::map<double, std::pair<double, double>> range;
  for (const auto& [bytes, seconds] : times) {
    auto [it, added] = range.try_emplace(bytes, seconds, seconds);
    it->second = {std::min(it->second.first, seconds), std::max(it->second.second, seconds)};
  }
  double spread = 0;
  for (const auto& [bytes, r] : range) spread = std::max(spread, r.second / r.first - 1);
  return spread;
}

TEST_P(ImportStored, LinesThroughThePointsGiveEveryPrintedTimeBack) {
  const auto& g = GetParam();
  const auto raw = dir / "raw.jsonl", model = dir / "model.json";
  const auto r = augur_test::augur(fmt::format("import {}{} {} -o {} --fit {}", g.suite, g.files, g.options, raw.string(), model.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  const auto [printed, worst] = compare(raw, model);
  std::map<std::string, std::set<int>> counts;
  for (const auto& [key, times] : printed) counts[key.first].insert(key.second);
  int checked = 0;
  for (const auto& [key, times] : printed) {
    if (counts[key.first].size() > 2) continue;  // the fitter's laws in p
    ++checked;
    // Exact where each size was printed once; where two files print one size (osu_bw and
    // osu_mbw_mr, both `stream`) the mean lies within their spread.
    EXPECT_LE(worst.at(key), spread_at_one_size(times) + 1e-9) << g.name << ": " << key.first << " at p = " << key.second;
  }
  EXPECT_GT(checked, 0) << g.name << " has no operation printed at one process count";
}

TEST_P(ImportStored, FittedLawsMeetEveryPrintedTimeTheDataAllow) {
  const auto& g = GetParam();
  const auto raw = dir / "raw.jsonl", model = dir / "model.json";
  const auto r = augur_test::augur(
      fmt::format("import {}{} {} -o {} --fit {} --fitted-laws", g.suite, g.files, g.options, raw.string(), model.string()));
  ASSERT_EQ(r.status, 0) << r.out;
  const auto [printed, worst] = compare(raw, model);
  for (const auto& key : g.within) EXPECT_TRUE(printed.contains(key)) << key.first << " at p = " << key.second;
  for (const auto& [key, times] : printed) {
    const auto where = fmt::format("{}: {} at p = {}", g.name, key.first, key.second);
    if (g.within.contains(key)) {
      EXPECT_LT(worst.at(key), kTolerance) << where;
    } else if (times.size() > 1) {
      // Not met: the printed times themselves rule it out. Should remade outputs allow it,
      // this fails, and the operation belongs in `within`.
      EXPECT_TRUE(falls_beyond_tolerance(times)) << where << " no longer falls with size: the model should meet it";
    } else {
      // One size at two process counts in one law (IMB's Barrier at 2 and 4): the fitter keeps
      // a constant, as two points leave a law in p nothing to be checked on, and the printed
      // times are further apart than one constant within the tolerance of both.
      const auto other = std::find_if(printed.begin(), printed.end(), [&](const auto& o) {
        const double a = o.second.front().second, b = times.front().second;
        return o.first.first == key.first && o.first.second != key.second && (1 - kTolerance) * std::max(a, b) > (1 + kTolerance) * std::min(a, b);
      });
      EXPECT_NE(other, printed.end()) << where << " is met now: it belongs in `within`";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Outputs, ImportStored, ::testing::ValuesIn(groups()), [](const auto& info) { return info.param.name; });

}  // namespace
