#include <gtest/gtest.h>

#include "util/median.hpp"

using augur::util::median;
using augur::util::median_of_sorted;

TEST(Median, OddCountIsTheMiddleValueWhateverTheOrder) {
  EXPECT_DOUBLE_EQ(median({9, 1, 5}), 5);
  EXPECT_DOUBLE_EQ(median({1, 5, 9}), 5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
}

TEST(Median, EvenCountIsTheMeanOfTheTwoMiddleValues) {
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({10, 2, 8, 2, 100, 6}), 7);
  EXPECT_DOUBLE_EQ(median({3, 3}), 3);
}

TEST(Median, OneFarOutlierDoesNotMoveIt) {
  EXPECT_DOUBLE_EQ(median({1.0, 1.1, 1e9, 0.9, 1.05}), 1.05);
}

TEST(Median, NoValuesGiveZero) { EXPECT_DOUBLE_EQ(median({}), 0); }

TEST(Median, SortedInputGivesTheSameAnswerWithoutACopy) {
  EXPECT_DOUBLE_EQ(median_of_sorted({1, 2, 3, 10}), 2.5);
  EXPECT_DOUBLE_EQ(median_of_sorted({1, 5, 9}), 5);
  EXPECT_DOUBLE_EQ(median_of_sorted({}), 0);
}
