// The timing rules shared by the reverse profiler and the simulator, checked by hand on a toy
// model whose every cost is a round number of microseconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/machines.hpp"
#include "model/model_json.hpp"
#include "timing/rules.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_timing_rules {
namespace {

using namespace augur;
using timing::CollectiveShape;
using timing::SendMode;

namespace {

// A model named `name` whose operations (and optionally network section) are given as JSON.
model::Model model_of(const std::string& name, const std::string& operations, const std::string& network = "{}") {
  return model::parse_model(R"({"augur_model": 1, "machine": {"name": ")" + name +
                                R"("}, "provenance": {"source": "test"}, "units": {"time": "us", "size": "bytes"},)" +
                                R"("network": )" + network + R"(, "operations": )" + operations + "}",
                            name);
}

model::Model toy() {
  return model_of("toy", R"json({
      "send":    {"regimes": [{"from": 0, "expr": "2 + d/1000"}]},
      "ssend":   {"regimes": [{"from": 0, "expr": "7 + d/1000"}]},
      "recv":    {"regimes": [{"from": 0, "expr": "10 + d/100"}]},
      "recvmin": {"regimes": [{"from": 0, "expr": "1 + d/1000"}]},
      "allreduce": {"regimes": [{"from": 0, "expr": "5*log2(p) + d/100"}]},
      "allgather": {"regimes": [{"from": 0, "expr": "3*p"}]},
      "bcast":   {"regimes": [{"from": 0, "expr": "20"}]}
    })json",
                  R"json({"eager_limit": 4096})json");
}

constexpr double us = 1e-6;

}  // namespace

TEST(TimingRules, EarlyReceiverWaitsForTheTransfer) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  // Posted at 0, send starts at 5 µs: done at 5 + 10 + 1000/100 = 25 µs.
  EXPECT_NEAR(r.receive_end(0, 5 * us, false, 1000), 25 * us, 1e-12);
}

TEST(TimingRules, LateReceiverPaysOnlyRecvmin) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  // Message sent at 0 arrived at 20 µs; posted at 100 µs: 100 + 1 + 1 = 102 µs.
  EXPECT_NEAR(r.receive_end(100 * us, 0, false, 1000), 102 * us, 1e-12);
}

TEST(TimingRules, RendezvousTransferStartsWhenBothAreThere) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  EXPECT_TRUE(r.waits_for_receiver(SendMode::standard, 8192));
  EXPECT_FALSE(r.waits_for_receiver(SendMode::standard, 4096));
  EXPECT_TRUE(r.waits_for_receiver(SendMode::synchronous, 1));
  // Send at 0, receive posted at 50 µs: transfer 10 + 81.92 µs from 50.
  EXPECT_NEAR(r.receive_end(50 * us, 0, true, 8192), (50 + 10 + 81.92) * us, 1e-12);
  // The waiting sender leaves ssend(d) after the later of the two.
  EXPECT_NEAR(r.waiting_send_end(0, 50 * us, 8192), (50 + 7 + 8.192) * us, 1e-12);
}

TEST(TimingRules, SendModesUseTheirOwnOperation) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  EXPECT_NEAR(r.send_busy(SendMode::standard, 1000), 3 * us, 1e-12);
  EXPECT_NEAR(r.send_busy(SendMode::synchronous, 1000), 8 * us, 1e-12);
  EXPECT_NEAR(r.send_busy(SendMode::ready, 1000), 3 * us, 1e-12);  // rsend falls back to send
}

TEST(TimingRules, MissingOperationsAreReportedAsSubstitutions) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  const auto& subs = r.substitutions();
  EXPECT_NE(std::find(subs.begin(), subs.end(), "rsend <- send"), subs.end());
  EXPECT_NE(std::find(subs.begin(), subs.end(), "isend1 <- 0 (not in the model)"), subs.end());
}

TEST(TimingRules, OnlyStandInsThatPricedACallAreReportedAsUsed) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  EXPECT_TRUE(r.stand_ins_used().empty()) << "resolving the model prices nothing";
  r.send_busy(SendMode::standard, 8);  // the model's own send: no stand-in
  r.collective_duration("allreduce", 4, 8);
  EXPECT_TRUE(r.stand_ins_used().empty());
  r.send_busy(SendMode::ready, 8);       // rsend <- send
  r.send_busy(SendMode::ready, 16);      // used twice, listed once
  r.isend_post(8);                       // isend1: nothing in the model, priced as 0
  r.collective_duration("scan", 4, 8);   // scan <- allreduce
  // No barrier nor relative: a tree of one-way messages, whose transit the toy's recv stands in for.
  r.collective_duration("barrier", 4, 0);
  const auto used = r.stand_ins_used();
  std::vector<std::string> text;  // in the order the model was resolved
  for (const auto& s : used) text.push_back(s.operation + " <- " + s.priced_as);
  EXPECT_EQ(text, (std::vector<std::string>{"pingpong <- recv", "rsend <- send", "isend1 <- ",
                                            "barrier <- a tree of messages", "scan <- allreduce"}));
}

TEST(TimingRules, CallsBeyondTheMeasuredRangeAreRecordedWithTheLargestAsked) {
  auto m = model_of("ranged", R"json({
      "pingpong":  {"regimes": [{"from": 0, "expr": "1 + d/1000"}], "measured": {"max_bytes": 4096, "max_processes": 2}},
      "allreduce": {"regimes": [{"from": 0, "expr": "5*log2(p)"}], "measured": {"max_bytes": 64, "max_processes": 4}},
      "bcast":     {"regimes": [{"from": 0, "expr": "20"}]}
    })json");
  timing::Rules r(m, model::Bound::avg);
  r.transit(4096);
  r.collective_duration("allreduce", 4, 64);
  r.collective_duration("bcast", 64, 1 << 20);  // no measured range: nothing to say
  EXPECT_TRUE(r.extrapolations().empty());
  EXPECT_NEAR(r.transit(16384), (1 + 16.384) * us, 1e-12);  // still priced, by the last regime
  r.transit(8192);
  r.collective_duration("allreduce", 16, 8);
  const auto& asked = r.extrapolations();
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_DOUBLE_EQ(asked.at("pingpong").bytes, 16384);
  EXPECT_DOUBLE_EQ(asked.at("pingpong").measured.max_bytes, 4096);
  EXPECT_DOUBLE_EQ(asked.at("allreduce").p, 16);
  EXPECT_DOUBLE_EQ(asked.at("allreduce").measured.max_processes, 4);
}

// The simulator wants a query the model cannot answer to fail; the reverse profiler, pricing
// inside a running program, has it priced as 0 and hears why, on each of the three clocks.
TEST(TimingRules, AQueryTheModelCannotAnswerThrowsOrIsPricedAsZeroWithTheReason) {
  auto m = toy();
  timing::Rules one(m, model::Bound::avg);
  EXPECT_THROW(one.send_busy(SendMode::standard, -8), model::QueryError);
  std::vector<std::string> told;
  one.price_unanswered_as_zero([&](std::string_view reason) { told.emplace_back(reason); });
  EXPECT_EQ(one.send_busy(SendMode::standard, -8), 0);
  EXPECT_EQ(one.collective_duration("allreduce", 4, -16), 0);
  EXPECT_EQ(one.send_busy(SendMode::standard, -8), 0);
  // Every call is told: a refused answer is not remembered.
  ASSERT_EQ(told.size(), 3u);
  EXPECT_EQ(told[0], "send: size must be >= 0 bytes, not -8");
  EXPECT_EQ(told[1], "allreduce: size must be >= 0 bytes, not -16");
  EXPECT_NEAR(one.send_busy(SendMode::standard, 1000), 3 * us, 1e-12);

  timing::BoundsRules three(m);
  EXPECT_THROW(three.recvmin(-1), model::QueryError);
  three.price_unanswered_as_zero([&](std::string_view reason) { told.emplace_back(reason); });
  EXPECT_EQ(three.recvmin(-1).at, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(told.back(), "recvmin: size must be >= 0 bytes, not -1");
}

TEST(TimingRules, CollectivesFallBackToTheirNearestRelative) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  EXPECT_NEAR(r.collective_duration("allreduce", 8, 100), 16 * us, 1e-12);
  EXPECT_NEAR(r.collective_duration("iallreduce", 8, 100), 16 * us, 1e-12);
  EXPECT_NEAR(r.collective_duration("allgatherv", 4, 0), 12 * us, 1e-12);
  EXPECT_NEAR(r.collective_duration("scan", 8, 100), 16 * us, 1e-12);
  // No gather at all: a binomial tree of transfers, ceil(log2 5) = 3 rounds of 10 µs.
  EXPECT_NEAR(r.collective_duration("gather", 5, 0), 30 * us, 1e-12);
}

TEST(TimingRules, CollectiveShapesFollowTheirRoles) {
  EXPECT_EQ(timing::shape_of("bcast"), CollectiveShape::one_to_all);
  EXPECT_EQ(timing::shape_of("iscatterv"), CollectiveShape::one_to_all);
  EXPECT_EQ(timing::shape_of("gather"), CollectiveShape::all_to_one);
  EXPECT_EQ(timing::shape_of("allreduce"), CollectiveShape::all_to_all);
  EXPECT_EQ(timing::shape_of("ibarrier"), CollectiveShape::all_to_all);
  timing::CollectiveStarts starts{.latest = 10, .root = 4};
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::all_to_all, false, 1, starts, 2), 12);
  // A bcast receiver that arrived early cannot finish before the root started plus the cost …
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::one_to_all, false, 1, starts, 2), 6);
  // … one that arrives later finds the data there; the root leaves after its own part.
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::one_to_all, false, 10, starts, 2), 10);
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::one_to_all, true, 4, starts, 2), 6);
  // The root of a reduce waits for the last contribution; the others leave after sending.
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::all_to_one, true, 4, starts, 2), 12);
  EXPECT_DOUBLE_EQ(timing::collective_end(CollectiveShape::all_to_one, false, 1, starts, 2), 3);
}

TEST(TimingRules, RolesOfARootedCollectiveUseTheirOwnTimesWhenTheModelHasThem) {
  auto m = model_of("roles", R"json({
      "bcast":        {"regimes": [{"from": 0, "expr": "20"}]},
      "bcast_root":   {"regimes": [{"from": 0, "expr": "4"}]},
      "bcast_others": {"regimes": [{"from": 0, "expr": "18"}]},
      "gather":       {"regimes": [{"from": 0, "expr": "30"}]},
      "gather_others": {"regimes": [{"from": 0, "expr": "6"}]}
    })json");
  timing::Rules r(m, model::Bound::avg);
  EXPECT_NEAR(r.collective_duration("bcast", 2, 8, true), 4 * us, 1e-12);
  EXPECT_NEAR(r.collective_duration("bcast", 2, 8, false), 18 * us, 1e-12);
  EXPECT_NEAR(r.collective_duration("gather", 2, 8, false), 6 * us, 1e-12);
  // No gather_root: the root takes the whole operation's time.
  EXPECT_NEAR(r.collective_duration("gather", 2, 8, true), 30 * us, 1e-12);
  // Operations without roles are unchanged.
  EXPECT_NEAR(r.collective_duration("allreduce", 2, 8, true), r.collective_duration("allreduce", 2, 8), 1e-15);
}

TEST(TimingRules, PublishedPingPongModelDrivesPointToPoint) {
  auto m = model::load_machine("sp2-mpl");
  timing::Rules r(m, model::Bound::avg);
  EXPECT_NEAR(r.transit(217), m.seconds("pingpong", 2, 217), 1e-15);
  EXPECT_NEAR(r.send_busy(SendMode::standard, 0), 47 * us, 1e-12);
}

TEST(TimingRules, TransitIsThePingPongWhenTheModelHasBoth) {
  // A message in a loop travels in half a round trip; `recv`, one message timed from a common
  // start, only stands in when the model has no ping-pong.
  auto m = model_of("both", R"json({
      "pingpong": {"regimes": [{"from": 0, "expr": "8 + d/100"}]},
      "recv":     {"regimes": [{"from": 0, "expr": "11 + d/100"}]},
      "recvmin":  {"regimes": [{"from": 0, "expr": "1"}]}
    })json");
  timing::Rules r(m, model::Bound::avg);
  EXPECT_NEAR(r.transit(100), 9 * us, 1e-12);
  // Posted at 0, sent at 0: the receive ends one ping-pong later.
  EXPECT_NEAR(r.receive_end(0, 0, false, 100), 9 * us, 1e-12);
  const auto& subs = r.substitutions();
  EXPECT_EQ(std::count_if(subs.begin(), subs.end(), [](const std::string& s) { return s.starts_with("pingpong"); }), 0);
  // The toy model has no ping-pong: its `recv` is the transit, and the report says so.
  auto t = toy();
  timing::Rules fallback(t, model::Bound::avg);
  EXPECT_NEAR(fallback.transit(100), 11 * us, 1e-12);
  const auto& stand_ins = fallback.substitutions();
  EXPECT_NE(std::find(stand_ins.begin(), stand_ins.end(), "pingpong <- recv"), stand_ins.end());
}

TEST(TimingRules, ASendrecvTakesAtLeastTheModelsExchangeTime) {
  auto m = model_of("pairs", R"json({
      "pingpong": {"regimes": [{"from": 0, "expr": "4 + d/100"}]},
      "sendrecv": {"regimes": [{"from": 0, "expr": "7 + d/100"}]},
      "recvmin":  {"regimes": [{"from": 0, "expr": "1"}]}
    })json");
  timing::Rules r(m, model::Bound::avg);
  // Partners starting together: the halves end one transit later (5 µs at 100 B), the pair's
  // exchange takes 8.
  const double halves = r.receive_end(0, 0, false, 100);
  EXPECT_NEAR(halves, 5 * us, 1e-12);
  EXPECT_NEAR(r.sendrecv_end(0, halves, 100), 8 * us, 1e-12);
  // A late partner: its message decides, 20 + 5 µs.
  EXPECT_NEAR(r.sendrecv_end(0, r.receive_end(0, 20 * us, false, 100), 100), 25 * us, 1e-12);
  // A model without `sendrecv` leaves the halves alone.
  auto t = toy();
  timing::Rules plain(t, model::Bound::avg);
  EXPECT_NEAR(plain.sendrecv_end(0, 5 * us, 100), 5 * us, 1e-12);
}

namespace {

// The crossing rule's model: a transit of 4 + d/100 µs (5 at 100 B, 4.04 at 4 B, 44.96 at
// 4096 B) and an exchange of 7 + d/50 (9 at 100 B, 88.92 at 4096 B: twice a transit, so a
// message wrongly taken for crossed ends late).
model::Model crossing_model() {
  return model_of("crossing", R"json({
      "pingpong": {"regimes": [{"from": 0, "expr": "4 + d/100"}]},
      "exchange": {"regimes": [{"from": 0, "expr": "7 + d/50"}]},
      "recvmin":  {"regimes": [{"from": 0, "expr": "1"}]}
    })json");
}

}  // namespace

TEST(TimingRules, AMessageThatCrossedOneOfOursTakesTheModelsExchangeTime) {
  auto m = crossing_model();
  timing::Rules r(m, model::Bound::avg);
  // Both ranks post at 0 and send 100 B at 0.5 µs: the halves end at 5.5 µs, the pair's exchange at 9.
  const timing::Flight mine{0.5 * us, 100}, theirs{0.5 * us, 100};
  const double halves = r.receive_end(0, theirs.start, false, theirs.bytes);
  EXPECT_NEAR(halves, 5.5 * us, 1e-12);
  EXPECT_TRUE(r.crossed(mine, theirs));
  EXPECT_NEAR(r.crossed_receive_end(0, mine, theirs, halves), 9 * us, 1e-12);
  // A ping-pong's reply starts when the request arrived, a transit (5 µs) after it: not crossed.
  const timing::Flight request{0, 100}, reply{r.receive_end(0, 0, false, 100), 100};
  const double reply_end = r.receive_end(0, reply.start, false, reply.bytes);
  EXPECT_FALSE(r.crossed(request, reply));
  EXPECT_NEAR(r.crossed_receive_end(0, request, reply, reply_end), reply_end, 1e-12);
  // Never sent to the source: not crossed either.
  EXPECT_FALSE(r.crossed(timing::Flight{}, theirs));
  EXPECT_NEAR(r.crossed_receive_end(0, timing::Flight{}, theirs, halves), halves, 1e-12);
  // A model without `exchange` leaves the halves alone.
  auto t = toy();
  timing::Rules plain(t, model::Bound::avg);
  EXPECT_NEAR(plain.crossed_receive_end(0, mine, theirs, 5.5 * us), 5.5 * us, 1e-12);
}

TEST(TimingRules, AReplyLargerThanItsRequestHasNotCrossedIt) {
  auto m = crossing_model();
  timing::Rules r(m, model::Bound::avg);
  // A 4-byte task sent at 0 arrives at 4.04 µs; the worker answers at once with 4 KiB. The reply
  // started 4.04 µs after the task, well within half its own transit (22.5 µs), but the task was
  // no longer in flight: the master's receive ends one transit after the reply started (49 µs),
  // not an exchange after the task (88.92 µs).
  const timing::Flight task{0, 4};
  const timing::Flight result{r.receive_end(0, task.start, false, task.bytes), 4096};
  EXPECT_NEAR(result.start, 4.04 * us, 1e-12);
  const double halves = r.receive_end(0, result.start, false, result.bytes);
  EXPECT_NEAR(halves, 49 * us, 1e-12);
  EXPECT_FALSE(r.crossed(task, result));
  EXPECT_NEAR(r.crossed_receive_end(0, task, result, halves), halves, 1e-12);
  // On the worker's side the next task, sent when the result arrived, has not crossed it either.
  const timing::Flight next{halves, 4};
  EXPECT_FALSE(r.crossed(result, next));
}

TEST(TimingRules, MessagesBothInFlightAtOnceHaveCrossedWhateverTheirSizes) {
  auto m = crossing_model();
  timing::Rules r(m, model::Bound::avg);
  // Our 4 bytes leave at 0 (in flight until 4.04 µs); their 4 KiB leave at 2 µs, before ours
  // arrived, and are in flight until 46.96 µs: each was under way when the other started.
  const timing::Flight mine{0, 4}, theirs{2 * us, 4096};
  EXPECT_TRUE(r.crossed(mine, theirs));
  EXPECT_TRUE(r.crossed(theirs, mine));  // both ends of the pair agree
  // Posted at 0: the floor is the post plus the exchange at the incoming size, 7 + 81.92 µs.
  const double halves = r.receive_end(0, theirs.start, false, theirs.bytes);
  EXPECT_NEAR(halves, 46.96 * us, 1e-12);
  EXPECT_NEAR(r.crossed_receive_end(0, mine, theirs, halves), 88.92 * us, 1e-12);
  // Posted after our send (MPI_Send, then MPI_Recv): the floor counts from our send's start.
  EXPECT_NEAR(r.crossed_receive_end(1 * us, mine, theirs, halves), 88.92 * us, 1e-12);
}

TEST(TimingRules, TheCrossingBoundsAreStrict) {
  auto m = crossing_model();
  timing::Rules r(m, model::Bound::avg);
  const double eps = 1e-3 * us;
  const timing::Flight mine{10 * us, 4};
  // Theirs started exactly when ours arrived (10 + 4.04 µs): ours was gone, not crossed; a
  // nanosecond earlier it was still in flight.
  const double ours_arrives = mine.start + r.transit(mine.bytes);
  EXPECT_FALSE(r.crossed(mine, {ours_arrives, 4096}));
  EXPECT_TRUE(r.crossed(mine, {ours_arrives - eps, 4096}));
  // Ours started exactly when theirs (4 KiB, 44.96 µs in flight) arrived: not crossed; a
  // nanosecond earlier it was.
  const timing::Flight theirs{0, 4096};
  const double theirs_arrive = theirs.start + r.transit(theirs.bytes);
  EXPECT_FALSE(r.crossed({theirs_arrive, 4}, theirs));
  EXPECT_TRUE(r.crossed({theirs_arrive - eps, 4}, theirs));
  // Far apart either way: not crossed.
  EXPECT_FALSE(r.crossed(mine, {mine.start + 100 * us, 4}));
  EXPECT_FALSE(r.crossed(mine, {mine.start - 100 * us, 4}));
  // Starting together always crosses, even at zero bytes (a transit of 4 µs).
  EXPECT_TRUE(r.crossed({0, 0}, {0, 0}));
}

TEST(TimingRules, ASendersMessagesLeaveNoCloserThanItsLinkCarriesThem) {
  const auto m = model_of("link", R"json({"pingpong": {"regimes": [{"from": 0, "expr": "10 + d/1000"}]}})json",
                          R"json({"bandwidth": 1e8})json");
  timing::Rules r(m, model::Bound::avg);
  double link_free = 0;
  // 4000 bytes hold a link of 100 MB/s for 40 µs: a second message sent at 5 µs leaves at 40.
  EXPECT_DOUBLE_EQ(r.departure(link_free, 0, 4000), 0);
  EXPECT_NEAR(link_free, 40 * us, 1e-15);
  EXPECT_NEAR(r.departure(link_free, 5 * us, 4000), 40 * us, 1e-15);
  EXPECT_NEAR(link_free, 80 * us, 1e-15);
  // One sent once the link is free leaves when sent.
  EXPECT_NEAR(r.departure(link_free, 100 * us, 8), 100 * us, 1e-15);
  EXPECT_NEAR(link_free, 100.08 * us, 1e-15);
}

TEST(TimingRules, WithoutABandwidthMessagesLeaveWhenSent) {
  timing::Rules r(toy(), model::Bound::avg);
  double link_free = 0;
  EXPECT_DOUBLE_EQ(r.departure(link_free, 0, 4000), 0);
  EXPECT_DOUBLE_EQ(r.departure(link_free, 1 * us, 4000), 1 * us);
  EXPECT_DOUBLE_EQ(link_free, 0);
}

TEST(TimingRules, APollCostsTheModelsTestAndIprobeFallsBackToIt) {
  auto polled = model_of("polled", R"json({
      "test":   {"regimes": [{"from": 0, "expr": "0.05"}]},
      "iprobe": {"regimes": [{"from": 0, "expr": "0.08"}]}
    })json");
  timing::Rules r(polled, model::Bound::avg);
  EXPECT_NEAR(r.test_poll(), 0.05 * us, 1e-15);
  EXPECT_NEAR(r.iprobe_poll(), 0.08 * us, 1e-15);

  auto tested = model_of("tested", R"json({"test": {"regimes": [{"from": 0, "expr": "0.05"}]}})json");
  timing::Rules t(tested, model::Bound::avg);
  EXPECT_NEAR(t.iprobe_poll(), 0.05 * us, 1e-15);
  const auto used = t.stand_ins_used();
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].operation, "iprobe");
  EXPECT_EQ(used[0].priced_as, "test");
}

TEST(TimingRules, AModelWithoutPollsPricesThemAtZeroAndSaysSo) {
  auto m = toy();
  timing::Rules r(m, model::Bound::avg);
  EXPECT_EQ(r.test_poll(), 0.0);
  const auto subs = r.substitutions();
  EXPECT_NE(std::find(subs.begin(), subs.end(), "test <- 0 (not in the model)"), subs.end());
}

}  // namespace
}  // namespace test_timing_rules
