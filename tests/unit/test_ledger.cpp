// The reverse profiler's per-rank account: totals per operation, waiting clamped to the call.
#include <gtest/gtest.h>

#include <string>

#include "revprof/ledger.hpp"

namespace {

using augur::revprof::Ledger;

TEST(Ledger, TotalsPerOperationAddUp) {
  Ledger ledger;
  ledger.call("send", 0, 2e-6, 0, 8);
  ledger.call("recv", 2e-6, 5e-6, 1e-6, 8);
  ledger.call("send", 5e-6, 6e-6, 0, 16);
  ledger.compute(1e-3);
  const auto& ops = ledger.operations();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops.at("send").count, 2);
  EXPECT_DOUBLE_EQ(ops.at("send").bytes, 24);
  EXPECT_NEAR(ops.at("send").seconds, 3e-6, 1e-15);
  EXPECT_NEAR(ledger.mpi_seconds(), 6e-6, 1e-15);
  EXPECT_NEAR(ledger.waiting_seconds(), 1e-6, 1e-15);
  EXPECT_DOUBLE_EQ(ledger.compute_seconds(), 1e-3);
}

TEST(Ledger, WaitingNeverExceedsTheCallAndBackwardsCallsCountZero) {
  Ledger ledger;
  ledger.call("barrier", 1e-6, 2e-6, 5e-6, 0);
  ledger.call("barrier", 3e-6, 2e-6, 1e-6, 0);
  EXPECT_NEAR(ledger.waiting_seconds(), 1e-6, 1e-15);
  EXPECT_NEAR(ledger.operations().at("barrier").seconds, 1e-6, 1e-15);
}

// Names normally come as string literals; one buffer reused for another name must not be
// counted under the first.
TEST(Ledger, AReusedNameBufferIsCountedUnderItsNewName) {
  Ledger ledger;
  std::string name = "bcast";
  ledger.call(name, 0, 1e-6, 0, 1);
  name.replace(0, 5, "gathr");
  ledger.call(name, 0, 1e-6, 0, 1);
  ASSERT_EQ(ledger.operations().size(), 2u);
  EXPECT_EQ(ledger.operations().at("bcast").count, 1);
  EXPECT_EQ(ledger.operations().at("gathr").count, 1);
}

}  // namespace
