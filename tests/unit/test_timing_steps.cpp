// The steps around the point-to-point rules (timing/steps.hpp) that the reverse profiler and the
// simulator both take, on a toy model whose costs are round numbers of microseconds, on one
// clock and on three.
#include <gtest/gtest.h>

#include <string>

#include "model/model_json.hpp"
#include "timing/rules.hpp"
#include "timing/steps.hpp"

using namespace augur;

namespace {

constexpr double us = 1e-6;

model::Model pairs() {
  return model::parse_model(R"({"augur_model": 1, "machine": {"name": "pairs"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "network": {"eager_limit": 4096}, "operations": {
        "pingpong": {"regimes": [{"from": 0, "expr": "4 + d/100"}]},
        "sendrecv": {"regimes": [{"from": 0, "expr": "7 + d/100"}]},
        "recvmin":  {"regimes": [{"from": 0, "expr": "1"}]}}})",
                            "pairs");
}

}  // namespace

TEST(TimingSteps, AWaitedSendEndsWhenReleasedAndWaitsForTheDifference) {
  const auto late = timing::waited_send(3 * us, 10 * us);
  EXPECT_DOUBLE_EQ(late.end, 10 * us);
  EXPECT_DOUBLE_EQ(late.waiting, 7 * us);
  const auto early = timing::waited_send(3 * us, 1 * us);  // released before its own end: no wait
  EXPECT_DOUBLE_EQ(early.end, 3 * us);
  EXPECT_DOUBLE_EQ(early.waiting, 0);
  // Each clock on its own.
  const auto three = timing::waited_send(timing::Times{{3 * us, 3 * us, 3 * us}}, timing::Times{{1 * us, 5 * us, 9 * us}});
  EXPECT_EQ(three.end, (timing::Times{{3 * us, 5 * us, 9 * us}}));
  EXPECT_EQ(three.waiting, (timing::Times{{0, 5 * us - 3 * us, 9 * us - 3 * us}}));
}

TEST(TimingSteps, AReceiveWaitsForWhatItsHalvesEndPassesItsPostAndItsOwnPart) {
  const auto m = pairs();
  timing::Rules r(m, model::Bound::avg);
  // Posted at 0, the message sent at 20 µs: its halves end at 20 + 5 µs; of them 1 µs is the
  // receive's own (recvmin).
  const double early = r.receive_end(0, 20 * us, false, 100);
  EXPECT_NEAR(timing::receive_waiting(r, 0.0, early, 100), 24 * us, 1e-12);
  // Posted at 50 µs, long after the message arrived: it waits for nothing.
  const double late = r.receive_end(50 * us, 20 * us, false, 100);
  EXPECT_NEAR(late, 51 * us, 1e-12);
  EXPECT_EQ(timing::receive_waiting(r, 50 * us, late, 100), 0);
}

TEST(TimingSteps, ASendrecvEndsWithItsLaterHalfAndNoEarlierThanTheModelsSendrecvWithTwoPartners) {
  const auto m = pairs();
  timing::Rules r(m, model::Bound::avg);
  // Halves at 2 and 5 µs; the model's sendrecv of 100 B takes 8 µs.
  EXPECT_NEAR(timing::sendrecv_call_end(r, 0.0, 2 * us, 5 * us, true, 100), 8 * us, 1e-12);
  EXPECT_NEAR(timing::sendrecv_call_end(r, 0.0, 2 * us, 5 * us, false, 100), 5 * us, 1e-12);
  EXPECT_NEAR(timing::sendrecv_call_end(r, 0.0, 30 * us, 5 * us, true, 100), 30 * us, 1e-12);
}
