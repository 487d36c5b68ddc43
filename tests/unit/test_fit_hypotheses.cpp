// The candidate laws are the ones the seed and Extra-P define, for each shape of data.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "fit/hypotheses.hpp"

namespace augur::fit {
namespace {

using model::Basis;

std::set<std::vector<std::string>> laws(const CandidateSet& set) {
  std::set<std::vector<std::string>> names;
  for (const auto& h : set.hypotheses) {
    std::vector<std::string> terms;
    for (int k = 0; k < h.size; ++k) terms.push_back(set.bases[h.columns[k]].name());
    names.insert(terms);
  }
  return names;
}

TEST(FitHypotheses, SeedSurfaceHasTheTwelveFormsAndTheConstant) {
  const auto set = make_candidates(Family::seed12, {true, true, 7});
  std::set<std::vector<std::string>> expected{{"1"}};
  for (const char* s : {"p", "log(p)", "p^2"})
    for (const char* k : {"d", "p*d", "log(p)*d", "p^2*d"}) expected.insert({"1", s, k});
  EXPECT_EQ(laws(set), expected);
  EXPECT_EQ(set.hypotheses.size(), 13u);
}

TEST(FitHypotheses, PointToPointIsALineAndBarrierACurveInP) {
  EXPECT_EQ(laws(make_candidates(Family::seed12, {false, true})),
            (std::set<std::vector<std::string>>{{"1"}, {"1", "d"}}));
  EXPECT_EQ(laws(make_candidates(Family::wide, {false, true})),
            (std::set<std::vector<std::string>>{{"1"}, {"1", "d"}}));
  EXPECT_EQ(laws(make_candidates(Family::seed12, {true, false, 7})),
            (std::set<std::vector<std::string>>{{"1"}, {"1", "p"}, {"1", "log(p)"}, {"1", "p^2"}}));
  EXPECT_EQ(laws(make_candidates(Family::seed12, {false, false})), (std::set<std::vector<std::string>>{{"1"}}));
}

TEST(FitHypotheses, WideSurfaceHoldsExtraPTermsAsStartupAndDataTerms) {
  const auto set = make_candidates(Family::wide, {true, true, kGroupSizesForWideTerms});
  const auto all = laws(set);
  const double exponents[] = {0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1, 1.25, 4.0 / 3, 1.5,
                              5.0 / 3, 1.75, 2, 2.25, 7.0 / 3, 2.5, 8.0 / 3, 2.75, 3};
  std::vector<Basis> startup{Basis::parse("floor(log2(p))")};
  for (double i : exponents)
    for (int j = 0; j <= 2; ++j) {
      if (i == 0 && j == 0) continue;
      Basis b;
      b.p_power = i;
      b.log_power = j;
      b.log_kind = j ? model::LogKind::base2 : model::LogKind::natural;
      startup.push_back(b);
    }
  std::vector<Basis> data{Basis::parse("d")};
  for (auto b : startup) {
    b.d_power = 1;
    data.push_back(b);
  }
  for (const auto& s : startup) {
    EXPECT_TRUE(all.count({"1", s.name()})) << s.name();
    for (const auto& k : data) EXPECT_TRUE(all.count({"1", s.name(), k.name()})) << s.name() << " + " << k.name();
  }
  for (const auto& k : data) EXPECT_TRUE(all.count({"1", k.name()})) << k.name();
  EXPECT_TRUE(all.count({"1", "sqrt(p)"}));
  EXPECT_TRUE(all.count({"1"}));
  // Nothing else, and no law twice.
  EXPECT_EQ(set.hypotheses.size(), 1 + startup.size() + data.size() + startup.size() * data.size());
  EXPECT_EQ(all.size(), set.hypotheses.size());
}

TEST(FitHypotheses, WideFamilyKeepsToSimpleTermsForFewGroupSizes) {
  const auto set = make_candidates(Family::wide, {true, true, kGroupSizesForWideTerms - 1});
  std::set<std::string> startup;
  for (const auto& law : laws(set))
    if (law.size() == 3) startup.insert(law[1]);
  EXPECT_EQ(startup, (std::set<std::string>{"p", "log2(p)", "p^2"}));
  EXPECT_EQ(set.hypotheses.size(), 1u + 3 + 4 + 3 * 4);
}

TEST(FitHypotheses, SimplestLawsComeFirst) {
  for (auto family : {Family::seed12, Family::wide}) {
    const auto set = make_candidates(family, {true, true, 7});
    EXPECT_TRUE(std::is_sorted(set.hypotheses.begin(), set.hypotheses.end(),
                               [](const Hypothesis& a, const Hypothesis& b) { return a.size < b.size; }));
    EXPECT_EQ(set.bases[0], Basis{});
  }
}

}  // namespace
}  // namespace augur::fit
