// How far a target count lies beyond the counts a program was learned at.
#include <gtest/gtest.h>

#include <stdexcept>

#include "app/extrapolation.hpp"

namespace augur::app {
namespace {

TEST(AppExtrapolation, IsTheTargetOverTheLargestCount) {
  EXPECT_EQ(extrapolation_factor(4096, {2, 16, 8, 4}), 256);
  EXPECT_EQ(extrapolation_factor(3, {4}), 0.75);
  EXPECT_THROW(extrapolation_factor(64, {}), std::invalid_argument);
  EXPECT_THROW(extrapolation_factor(64, {0}), std::invalid_argument);
}

}  // namespace
}  // namespace augur::app
