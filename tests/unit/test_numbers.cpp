#include <gtest/gtest.h>

#include "util/numbers.hpp"

using augur::util::parse_integer;
using augur::util::parse_number;

TEST(Numbers, AWholeNumberIsRead) {
  EXPECT_EQ(parse_number("0.5"), 0.5);
  EXPECT_EQ(parse_number("-2e3"), -2000.0);
  EXPECT_EQ(parse_integer("42"), 42L);
  EXPECT_EQ(parse_integer("-7"), -7L);
}

TEST(Numbers, TextBesideTheNumberIsNotANumber) {
  for (const char* text : {"", " 1", "1 ", "1x", "x1", "1,5", "--1"}) {
    EXPECT_FALSE(parse_number(text)) << "'" << text << "'";
    EXPECT_FALSE(parse_integer(text)) << "'" << text << "'";
  }
  EXPECT_FALSE(parse_integer("1.5"));
  EXPECT_FALSE(parse_integer("1e3"));
}

TEST(Numbers, InfinitiesAndOverflowsAreErrors) {
  EXPECT_FALSE(parse_number("inf"));
  EXPECT_FALSE(parse_number("nan"));
  EXPECT_FALSE(parse_number("1e999"));
  EXPECT_FALSE(parse_integer("99999999999999999999999"));
}
