#include <gtest/gtest.h>

#include "util/size.hpp"

using augur::util::parse_size;

TEST(ParseSize, PlainBytesAndUnits) {
  EXPECT_DOUBLE_EQ(parse_size("217", 4), 217);
  EXPECT_DOUBLE_EQ(parse_size("8KiB", 4), 8192);
  EXPECT_DOUBLE_EQ(parse_size("8kB", 4), 8000);
  EXPECT_DOUBLE_EQ(parse_size("2MiB", 4), 2 * 1048576.0);
  EXPECT_DOUBLE_EQ(parse_size("1.5 KiB", 4), 1536);
  EXPECT_DOUBLE_EQ(parse_size("64doubles", 4), 512);
}

TEST(ParseSize, IntsUseTheModelsIntSize) {
  EXPECT_DOUBLE_EQ(parse_size("1000ints", 4), 4000);
  EXPECT_DOUBLE_EQ(parse_size("1000ints", 8), 8000);
}

TEST(ParseSize, RejectsNonsense) {
  EXPECT_THROW(parse_size("", 4), std::invalid_argument);
  EXPECT_THROW(parse_size("KiB", 4), std::invalid_argument);
  EXPECT_THROW(parse_size("8 parsecs", 4), std::invalid_argument);
  EXPECT_THROW(parse_size("-5", 4), std::invalid_argument);
}
