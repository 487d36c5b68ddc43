#include <gtest/gtest.h>

#include <cmath>

#include "model/basis.hpp"

using augur::model::Basis;

TEST(Basis, ParsesAndEvaluatesSeedForms) {
  EXPECT_DOUBLE_EQ(Basis::parse("1")(16, 100), 1);
  EXPECT_DOUBLE_EQ(Basis::parse("p")(16, 100), 16);
  EXPECT_DOUBLE_EQ(Basis::parse("log(p)")(16, 100), std::log(16.0));
  EXPECT_DOUBLE_EQ(Basis::parse("p^2*d")(16, 100), 25600);
  EXPECT_DOUBLE_EQ(Basis::parse("log(p)*d")(16, 100), std::log(16.0) * 100);
  EXPECT_DOUBLE_EQ(Basis::parse("floor(log2(p))")(12, 0), 3);
  EXPECT_DOUBLE_EQ(Basis::parse("sqrt(p)")(16, 0), 4);
  EXPECT_DOUBLE_EQ(Basis::parse("p^1.5*log2(p)^2")(4, 0), 8 * 4);
}

TEST(Basis, NameRoundTrips) {
  for (const char* text : {"1", "p", "d", "p*d", "p^2*d", "log(p)", "log(p)*d", "sqrt(p)", "log2(p)^2",
                           "p^0.25*log2(p)", "floor(log2(p))*d", "p^3"}) {
    auto b = Basis::parse(text);
    EXPECT_EQ(b.name(), text);
    EXPECT_EQ(Basis::parse(b.name()), b);
  }
}

TEST(Basis, FactorOrderDoesNotMatter) { EXPECT_EQ(Basis::parse("d*p^2"), Basis::parse("p^2*d")); }

TEST(Basis, RejectsMalformedText) {
  EXPECT_THROW(Basis::parse("p*p"), std::invalid_argument);
  EXPECT_THROW(Basis::parse("log(p)*log2(p)"), std::invalid_argument);
  EXPECT_THROW(Basis::parse("d^2"), std::invalid_argument);
  EXPECT_THROW(Basis::parse("x"), std::invalid_argument);
  EXPECT_THROW(Basis::parse("p^"), std::invalid_argument);
  EXPECT_THROW(Basis::parse("p^-1"), std::invalid_argument);
  EXPECT_THROW(Basis::parse(""), std::invalid_argument);
}
