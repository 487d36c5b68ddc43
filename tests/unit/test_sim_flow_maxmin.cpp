// The flow solver re-shares only the flows connected to a start or a finish, and fills each
// bottleneck in turn. Here its rates, after every start and every finish of random flow sets on
// small networks, are checked against max-min rates found from scratch in another way: water
// filling, where every unfrozen flow's rate rises together (in proportion to its weight) until a
// channel is full, and that channel's flows are frozen. The changes of one instant shared out
// once give the same finishes, to the bit, as shared out one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "sim/network/flow.hpp"

using namespace augur::sim;

namespace {

struct ActiveFlow {
  std::vector<std::uint32_t> channels;
  double weight = 1;
};

// Max-min rates of `flows` over channels of `capacity`, by water filling.
std::map<std::uint32_t, double> water_filling(const std::vector<double>& capacity,
                                              const std::map<std::uint32_t, ActiveFlow>& flows) {
  std::map<std::uint32_t, double> rate;
  std::map<std::uint32_t, bool> frozen;
  for (const auto& [id, f] : flows) rate[id] = 0, frozen[id] = false;
  std::vector<double> used(capacity.size(), 0);
  for (;;) {
    std::vector<double> unfrozen_weight(capacity.size(), 0);
    for (const auto& [id, f] : flows)
      if (!frozen[id])
        for (auto c : f.channels) unfrozen_weight[c] += f.weight;
    double rise = std::numeric_limits<double>::infinity();  // per unit of weight
    for (std::size_t c = 0; c < capacity.size(); ++c)
      if (unfrozen_weight[c] > 0) rise = std::min(rise, (capacity[c] - used[c]) / unfrozen_weight[c]);
    if (rise == std::numeric_limits<double>::infinity()) return rate;
    for (const auto& [id, f] : flows) {
      if (frozen[id]) continue;
      rate[id] += rise * f.weight;
      for (auto c : f.channels) used[c] += rise * f.weight;
    }
    for (const auto& [id, f] : flows) {
      if (frozen[id]) continue;
      for (auto c : f.channels)
        if (capacity[c] - used[c] <= 1e-12 * capacity[c]) frozen[id] = true;
    }
  }
}

// A random network of 2 to 7 channels of capacities 1 to 4, and 2 to 24 flows over 1 to 4
// distinct channels each, starting at random times, of weight 1 or (`weighted`) 1/1 to 1/8 as
// the inverse of a route latency; every rate is compared after each change.
void check_random_case(std::mt19937& rng, bool weighted) {
  auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::vector<double> capacity(2 + below(6));
  for (auto& c : capacity) c = 1 + below(4);
  FlowSolver solver(capacity);
  std::map<std::uint32_t, ActiveFlow> active;
  auto compare = [&](const char* after) {
    const auto expected = water_filling(capacity, active);
    ASSERT_EQ(solver.active(), active.size()) << after;
    for (const auto& [id, r] : expected) EXPECT_NEAR(solver.rate(id), r, 1e-9 * r) << after << ", flow " << id;
  };
  auto finish_until = [&](double time) {
    while (solver.active() > 0 && solver.next_finish() <= time) {
      for (auto id : solver.finish_next()) active.erase(id);
      compare("a finish");
    }
  };
  const std::uint32_t flows = 2 + below(23);
  double now = 0;
  for (std::uint32_t i = 0; i < flows; ++i) {
    now += below(3) == 0 ? 0 : below(8) * 0.25;  // a third start together with the one before
    finish_until(now);
    ActiveFlow f;
    const std::uint32_t hops = 1 + below(std::min<std::uint32_t>(4, capacity.size()));
    while (f.channels.size() < hops) {
      const auto c = below(capacity.size());
      if (std::find(f.channels.begin(), f.channels.end(), c) == f.channels.end()) f.channels.push_back(c);
    }
    if (weighted) f.weight = 1.0 / (1 + below(8));
    const auto id = solver.start(now, f.channels, 1 + below(16), f.weight);
    active[id] = f;
    compare("a start");
  }
  finish_until(std::numeric_limits<double>::infinity());
  EXPECT_TRUE(active.empty());
}

void check_random_cases(std::uint32_t seed, bool weighted) {
  std::mt19937 rng(seed);
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE(i);
    check_random_case(rng, weighted);
    if (::testing::Test::HasFailure()) return;
  }
}

struct Start {
  double time;
  ActiveFlow flow;
  double bytes;
};

// Random flows as check_random_case draws them, many starting together; the same network.
std::vector<Start> random_starts(std::mt19937& rng, const std::vector<double>& capacity, bool weighted) {
  auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::vector<Start> starts(2 + below(40));
  double now = 0;
  for (auto& s : starts) {
    now += below(2) == 0 ? 0 : below(8) * 0.25;
    s.time = now;
    const std::uint32_t hops = 1 + below(std::min<std::uint32_t>(4, capacity.size()));
    while (s.flow.channels.size() < hops) {
      const auto c = below(capacity.size());
      if (std::find(s.flow.channels.begin(), s.flow.channels.end(), c) == s.flow.channels.end())
        s.flow.channels.push_back(c);
    }
    if (weighted) s.flow.weight = 1.0 / (1 + below(8));
    s.bytes = below(6) == 0 ? 0 : 1 + below(16);
  }
  return starts;
}

struct Finish {
  double time;
  std::uint32_t flow;
  bool operator==(const Finish&) const = default;
};

// Runs `starts` to the end, settling after every start and finish when `one_by_one`, else when the
// solver needs to; between instants the rates are checked against water filling.
std::vector<Finish> run_starts(const std::vector<double>& capacity, const std::vector<Start>& starts, bool one_by_one) {
  FlowSolver solver(capacity);
  std::map<std::uint32_t, ActiveFlow> active;
  std::vector<Finish> finishes;
  auto compare = [&] {
    for (const auto& [id, r] : water_filling(capacity, active)) EXPECT_NEAR(solver.rate(id), r, 1e-9 * r) << "flow " << id;
  };
  auto finish_until = [&](double time) {
    while (solver.active() > 0 && solver.next_finish() <= time)
      for (auto id : solver.finish_next()) {
        finishes.push_back({solver.now(), id});
        active.erase(id);
        if (one_by_one) solver.settle();
      }
  };
  for (std::size_t i = 0; i < starts.size(); ++i) {
    finish_until(starts[i].time);
    const auto id = solver.start(starts[i].time, starts[i].flow.channels, starts[i].bytes, starts[i].flow.weight);
    if (starts[i].bytes > 0) active[id] = starts[i].flow;
    if (one_by_one) solver.settle();
    if (i + 1 == starts.size() || starts[i + 1].time > starts[i].time) compare();
  }
  finish_until(std::numeric_limits<double>::infinity());
  return finishes;
}

void check_settling_once_an_instant(std::uint32_t seed, bool weighted) {
  std::mt19937 rng(seed);
  for (int i = 0; i < 1000; ++i) {
    SCOPED_TRACE(i);
    std::vector<double> capacity(2 + rng() % 6);
    for (auto& c : capacity) c = 1 + rng() % 4;
    const auto starts = random_starts(rng, capacity, weighted);
    const auto batched = run_starts(capacity, starts, false);
    EXPECT_EQ(batched, run_starts(capacity, starts, true));
    EXPECT_EQ(batched.size(), starts.size());
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace

TEST(SimFlowMaxMin, ChangesOfOneInstantSharedOutOnceFinishAsSharedOutOneByOne) {
  check_settling_once_an_instant(20261128, false);
  check_settling_once_an_instant(20261129, true);
}

TEST(SimFlowMaxMin, IncrementalRatesEqualWaterFillingFromScratchOnRandomFlowSets) { check_random_cases(20261125, false); }

TEST(SimFlowMaxMin, WeightedRatesEqualWeightedWaterFillingOnRandomFlowSets) { check_random_cases(20261126, true); }
