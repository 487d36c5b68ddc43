// The event queue gives events in (time, rank, sequence) order whichever of its two structures
// holds them: checked against a sorted reference over interleaved pushes and pops.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include "sim/kernel/event_queue.hpp"

namespace augur::sim {
namespace {

using Key = std::tuple<double, std::uint32_t, std::uint64_t>;  // time, rank, sequence

struct Reference {
  std::set<Key> keys;
  std::uint64_t sequence = 0;
  void push(double t, std::uint32_t rank) { keys.insert({t, rank, sequence++}); }
  Key pop() {
    const Key k = *keys.begin();
    keys.erase(keys.begin());
    return k;
  }
};

// Pops one event from both and checks they agree; the payload carries the sequence number.
void expect_same_pop(EventQueue& q, Reference& ref) {
  ASSERT_FALSE(q.empty());
  const Key want = ref.pop();
  const Event got = q.pop();
  EXPECT_EQ(got.time, std::get<0>(want));
  EXPECT_EQ(got.rank(), std::get<1>(want));
  EXPECT_EQ(got.payload, std::get<2>(want));
}

TEST(SimEventQueue, OrdersLikeASortedSetOverMixedPushesAndPops) {
  std::mt19937 rng(7);
  EventQueue q;
  Reference ref;
  double now = 0;
  for (int round = 0; round < 20000; ++round) {
    const int pushes = std::uniform_int_distribution<int>(0, 3)(rng);
    for (int i = 0; i < pushes; ++i) {
      // Few distinct times and ranks, so ties in time and in rank are frequent; in-order runs
      // (the FIFO) and out-of-order ones (the heap) both occur.
      const double t = now + std::uniform_int_distribution<int>(0, 3)(rng) * 0.5;
      const auto rank = std::uniform_int_distribution<std::uint32_t>(0, 5)(rng);
      q.push(t, rank, EventType::resume, static_cast<std::uint32_t>(ref.sequence));
      ref.push(t, rank);
    }
    if (!ref.keys.empty() && std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
      EXPECT_EQ(q.top().time, std::get<0>(*ref.keys.begin()));
      const double popped_time = std::get<0>(*ref.keys.begin());
      expect_same_pop(q, ref);
      now = popped_time;  // the future never goes before the present
    }
    ASSERT_EQ(q.size(), ref.keys.size());
  }
  while (!ref.keys.empty()) expect_same_pop(q, ref);
  EXPECT_TRUE(q.empty());
}

// A large group of equal times is sorted by rank with a radix sort: ranks over all 24 bits,
// repeated, so both passes and the sequence order within a rank count.
TEST(SimEventQueue, ALargeGroupOfEqualTimesComesOutByRankThenSequence) {
  std::mt19937 rng(11);
  EventQueue q;
  Reference ref;
  q.push(0.0, 0, EventType::resume, 0);
  ref.push(0.0, 0);
  for (int i = 0; i < 50000; ++i) {
    const auto rank = std::uniform_int_distribution<std::uint32_t>(0, (1u << 24) - 1)(rng) % (i % 7 == 0 ? 64 : 1u << 24);
    q.push(1.0, rank, EventType::deliver, static_cast<std::uint32_t>(ref.sequence));
    ref.push(1.0, rank);
  }
  while (!ref.keys.empty()) expect_same_pop(q, ref);
}

// A group of equal times made of a few in-order runs (arrivals of several batches, each in rank
// order) is merged run by run: from one run (in order) to many (sorted), odd and even counts,
// runs of unequal lengths, and a rank in several runs, whose events keep their push order.
TEST(SimEventQueue, AGroupOfFewInOrderRunsComesOutByRankThenSequence) {
  std::mt19937 rng(13);
  for (int runs = 1; runs <= 40; ++runs) {
    EventQueue q;
    Reference ref;
    for (int r = 0; r < runs; ++r) {
      const int length = std::uniform_int_distribution<int>(1, 300)(rng);
      std::uint32_t rank = std::uniform_int_distribution<std::uint32_t>(0, 50)(rng);
      for (int i = 0; i < length; ++i, rank += std::uniform_int_distribution<std::uint32_t>(1, 3)(rng)) {
        q.push(1.0, rank, EventType::deliver, static_cast<std::uint32_t>(ref.sequence));
        ref.push(1.0, rank);
      }
    }
    while (!ref.keys.empty()) expect_same_pop(q, ref);
    EXPECT_TRUE(q.empty()) << runs << " runs";
  }
}

TEST(SimEventQueue, WouldRunFirstSeesTheEarlierOfBothStructures) {
  EventQueue q;
  q.push(1.0, 3, EventType::resume);  // a run
  q.push(2.0, 0, EventType::resume);  // the same run: after the first
  q.push(0.5, 9, EventType::resume);  // earlier than that run's last: another run
  EXPECT_FALSE(q.would_run_first(0.5, 9));
  EXPECT_TRUE(q.would_run_first(0.5, 8));
  EXPECT_EQ(q.pop().time, 0.5);
  EXPECT_TRUE(q.would_run_first(1.0, 2));
  EXPECT_FALSE(q.would_run_first(1.0, 3));
}

// Streams in time order, interleaved, as messages of one step arriving after one of a few
// route latencies: more streams than runs, so the heap takes some of them.
TEST(SimEventQueue, InterleavedInOrderStreamsComeOutInOrder) {
  EventQueue q;
  Reference ref;
  const double latencies[] = {3.0, 1.0, 2.5, 1.0, 7.0, 0.5};
  for (int step = 0; step < 2000; ++step) {
    for (std::uint32_t rank = 0; rank < 6; ++rank) {
      const double t = step + latencies[rank];
      q.push(t, rank, EventType::deliver, static_cast<std::uint32_t>(ref.sequence));
      ref.push(t, rank);
    }
    while (!ref.keys.empty() && std::get<0>(*ref.keys.begin()) <= step) expect_same_pop(q, ref);
  }
  while (!ref.keys.empty()) expect_same_pop(q, ref);
  EXPECT_TRUE(q.empty());
}

TEST(SimEventQueue, ALongInOrderStreamStaysInOrderAcrossCompaction) {
  EventQueue q;
  std::uint32_t popped = 0;
  for (std::uint32_t i = 0; i < 100000; ++i) {
    q.push(double(i), 0, EventType::resume, i);
    if (i % 3 != 0) {
      EXPECT_EQ(q.pop().payload, popped++);
    }
  }
  while (!q.empty()) EXPECT_EQ(q.pop().payload, popped++);
  EXPECT_EQ(popped, 100000u);
}

}  // namespace
}  // namespace augur::sim
