// The per-rank table of `augur sim` and `augur summary` past a few dozen ranks: ranks alike share
// a row, slowest first, only the slowest and fastest rows are printed, and --ranks-table gives a
// row per rank. Which rank is slowest or fastest is read from the same run's --json.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

namespace {

constexpr int kRanks = 300;

// Rank 0 slowest, rank 299 fastest, the ranks between alike.
std::string three_kinds() {
  return temp_file("three-kinds.sched", "ranks 300\nrank 0 { compute 3ms }\nranks 1..298 { compute 2ms }\n"
                                        "rank 299 { compute 1ms }\n");
}

// Every rank its own finish: rank r computes r microseconds.
std::string all_different() {
  return temp_file("all-different.sched", "ranks 300\nranks 0..N-1 { repeat rank { compute 1us } }\n");
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  return word;
}

// The first words of the rows of the table whose title row's first word is `title`, up to the
// blank line that ends it.
std::vector<std::string> row_labels(const std::string& text, const std::string& title) {
  const auto all = lines(text);
  auto row = std::find_if(all.begin(), all.end(), [&](const auto& l) { return first_word(l) == title; });
  std::vector<std::string> labels;
  if (row == all.end()) return labels;
  for (++row; row != all.end() && !row->empty(); ++row) labels.push_back(first_word(*row));
  return labels;
}

// The ranks of the largest and smallest `field` in `ranks`, the lowest rank on a tie.
std::pair<int, int> slowest_and_fastest(const nlohmann::json& ranks, const std::string& field,
                                        const std::string& rank_field) {
  auto by = [&](const auto& a, const auto& b) { return a.at(field).template get<double>() < b.at(field).template get<double>(); };
  const auto slowest = std::max_element(ranks.begin(), ranks.end(), by);
  const auto fastest = std::min_element(ranks.begin(), ranks.end(), by);
  return {slowest->at(rank_field).get<int>(), fastest->at(rank_field).get<int>()};
}

std::string sim(const std::string& args) {
  const auto r = augur("sim --machine t3d --no-progress " + args);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.out;
}

}  // namespace

TEST(RankTableCli, RanksAlikeShareARowSlowestFirst) {
  const auto text = sim(three_kinds());
  const auto [slowest, fastest] = slowest_and_fastest(nlohmann::json::parse(sim("--json " + three_kinds())).at("ranks"),
                                                      "finish", "rank");
  EXPECT_EQ(slowest, 0);
  EXPECT_EQ(fastest, kRanks - 1);
  EXPECT_EQ(row_labels(text, "ranks"), (std::vector<std::string>{"0", "1..298", "299"})) << text;
  EXPECT_NE(text.find("--ranks-table"), std::string::npos) << text;
  EXPECT_LT(lines(text).size(), 30u) << text;
}

TEST(RankTableCli, ManyDifferentRanksShowTheSlowestAndFastestOnly) {
  const auto text = sim(all_different());
  const auto [slowest, fastest] = slowest_and_fastest(nlohmann::json::parse(sim("--json " + all_different())).at("ranks"),
                                                      "finish", "rank");
  const auto labels = row_labels(text, "ranks");
  ASSERT_FALSE(labels.empty()) << text;
  EXPECT_EQ(labels.front(), std::to_string(slowest));
  EXPECT_EQ(labels.back(), std::to_string(fastest));
  EXPECT_LT(labels.size(), 20u) << text;
  EXPECT_NE(text.find("more rows ("), std::string::npos) << text;
  EXPECT_LT(lines(text).size(), 40u) << text;
}

TEST(RankTableCli, RanksTableGivesARowPerRank) {
  const auto labels = row_labels(sim("--ranks-table " + all_different()), "rank");
  ASSERT_EQ(labels.size(), static_cast<std::size_t>(kRanks));
  for (int r = 0; r < kRanks; ++r) EXPECT_EQ(labels[r], std::to_string(r));
}

TEST(RankTableCli, SummaryOfALargeTraceFitsAScreenToo) {
  const auto dir = testing::TempDir() + "rank-table-trace";
  sim("--trace " + dir + " " + all_different());
  const auto summary = augur("summary " + dir);
  ASSERT_EQ(summary.status, 0) << summary.out;
  const auto json = augur("summary --json " + dir);
  ASSERT_EQ(json.status, 0) << json.out;
  const auto [slowest, fastest] = slowest_and_fastest(nlohmann::json::parse(json.out).at("per_rank"), "span", "rank");
  const auto labels = row_labels(summary.out, "ranks");
  ASSERT_FALSE(labels.empty()) << summary.out;
  EXPECT_EQ(labels.front(), std::to_string(slowest));
  EXPECT_EQ(labels.back(), std::to_string(fastest));
  EXPECT_LT(lines(summary.out).size(), 60u) << summary.out;
  const auto every = augur("summary --ranks-table " + dir);
  EXPECT_EQ(row_labels(every.out, "rank").size(), static_cast<std::size_t>(kRanks));
}
