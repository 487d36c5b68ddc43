// One-sided transfers on the virtual clocks: when a put, a get and a fetching operation complete,
// and what each synchronisation of an epoch waits for.
#include <gtest/gtest.h>

#include "model/model_json.hpp"
#include "revprof/rma_epoch.hpp"

using namespace augur;
using revprof::RmaEpoch;
using timing::Times;

namespace {

// A message takes 10 µs + 10 ns a byte (the ping-pong's half round trip); the link carries
// 4 ns a byte, so back-to-back puts leave one after the other.
model::Model link_model() {
  return model::parse_model(R"json({"augur_model": 1, "machine": {"name": "link"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "network": {"latency": 1e-5, "bandwidth": 2.5e8},
      "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "10 + d/100"}]}}})json",
                            "link");
}

constexpr double us = 1e-6;

void expect_at(const Times& t, double seconds) {
  for (double each : t.at) EXPECT_NEAR(each, seconds, 1e-15);
}

}  // namespace

TEST(RmaEpoch, APutCompletesOneMessageAfterItLeavesAndTheNextLeavesBehindIt) {
  const auto model = link_model();  // the rules refer to it
  const timing::BoundsRules rules(model);
  Times link_free{};
  // 1,000 B: 20 µs in flight, 4 µs on the link.
  expect_at(revprof::put_done(rules, link_free, Times::same(100 * us), 1000), 120 * us);
  expect_at(link_free, 104 * us);
  // Issued 1 µs later, the second put waits 3 µs for the link.
  expect_at(revprof::put_done(rules, link_free, Times::same(101 * us), 1000), 124 * us);
  expect_at(link_free, 108 * us);
}

TEST(RmaEpoch, AGetIsOneTransferOfItsSize) {
  const auto model = link_model();
  const timing::BoundsRules rules(model);
  expect_at(revprof::get_done(rules, Times::same(100 * us), 1000), (100 + 20) * us);
}

// With the bench's put in the model it prices every transfer, and its win_fence holds a fence
// epoch's transfers; without them the ping-pong and a barrier that waits for the transfers.
TEST(RmaEpoch, TheModelsPutAndWinFenceTakeOverFromTheMessage) {
  const auto model = model::parse_model(R"json({"augur_model": 1, "machine": {"name": "link"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "network": {"latency": 1e-5, "bandwidth": 2.5e8},
      "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "10 + d/100"}]},
                     "put": {"regimes": [{"from": 0, "expr": "2 + d/1000"}]},
                     "win_fence": {"regimes": [{"from": 0, "expr": "1.5*log2(p) + d/500"}]}}})json",
                             "link");
  const timing::BoundsRules rules(model);
  expect_at(rules.one_sided_transfer(1000), 3 * us);
  EXPECT_TRUE(rules.fence_holds_transfers());
  expect_at(rules.collective_duration("win_fence", 4, 1000), 5 * us);
  expect_at(revprof::get_done(rules, Times::same(100 * us), 1000), 103 * us);
  const auto plain = link_model();
  const timing::BoundsRules without(plain);
  expect_at(without.one_sided_transfer(1000), 20 * us);
  EXPECT_FALSE(without.fence_holds_transfers());
}

TEST(RmaEpoch, AFetchingOperationSendsItsOperandAndWaitsForTheResult) {
  const auto model = link_model();  // the rules refer to it
  const timing::BoundsRules rules(model);
  Times link_free{};
  // 800 B out (18 µs), 400 B back (14 µs).
  expect_at(revprof::fetch_done(rules, link_free, Times::same(0), 800, 400), 32 * us);
}

TEST(RmaEpoch, EachSynchronisationWaitsForWhatItCloses) {
  RmaEpoch epoch;
  EXPECT_TRUE(epoch.empty());
  // Nothing issued: later(begin, done) is the begin.
  expect_at(later(Times::same(5 * us), epoch.done(1)), 5 * us);
  expect_at(later(Times::same(5 * us), epoch.done_all()), 5 * us);
  epoch.issue(1, Times::same(30 * us), 100);
  epoch.issue(1, Times::same(20 * us), 200);
  epoch.issue(2, Times::same(50 * us), 400);
  EXPECT_EQ(epoch.bytes(), 700);
  expect_at(epoch.done(1), 30 * us);
  expect_at(epoch.done_all(), 50 * us);
  epoch.settle(2);  // an unlock of rank 2
  expect_at(epoch.done_all(), 30 * us);
  epoch.settle_all();  // a fence
  EXPECT_TRUE(epoch.empty());
  EXPECT_EQ(epoch.bytes(), 0);
  expect_at(later(Times::same(5 * us), epoch.done(1)), 5 * us);
}
