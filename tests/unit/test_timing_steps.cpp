// The steps around the point-to-point rules (timing/steps.hpp) that the reverse profiler and the
// simulator both take, on a toy model whose costs are round numbers of microseconds, on one
// clock and on three; and the last regime carried past the model's sizes, by the rules and by a
// LogGOPS network derived from the model alike.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/model_json.hpp"
#include "sim/network/loggops.hpp"
#include "timing/rules.hpp"
#include "timing/steps.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_timing_steps {
namespace {

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

// A law measured up to 1 KiB prices larger messages as just under 1 KiB, wherever it is asked.
TEST(TimingSteps, TheLastRegimeIsCarriedPastItsEndByTheRulesAndByLogGOPSFromTheModel) {
  const auto m = model::parse_model(R"({"augur_model": 1, "machine": {"name": "ends"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "operations": {
        "pingpong": {"regimes": [{"from": 0, "to": 1024, "expr": "4 + d/100"}]}}})",
                                    "ends");
  const auto& pingpong = *m.find("pingpong");
  EXPECT_EQ(pingpong.size_priced_as(100), 100);
  EXPECT_EQ(pingpong.size_priced_as(1 << 20), std::nextafter(1024.0, 0.0));
  timing::Rules rules(m, model::Bound::avg);
  const sim::LogGOPSNetwork loggops(m, model::Bound::avg);
  const double carried = m.seconds(pingpong, 2, std::nextafter(1024.0, 0.0));
  EXPECT_EQ(rules.transit(1 << 20), carried);
  EXPECT_EQ(loggops.one_way(1 << 20), carried);
  EXPECT_EQ(loggops.one_way(1024), carried);
}

}  // namespace
}  // namespace test_timing_steps
