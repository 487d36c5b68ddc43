// The rules over three clocks (the reverse profiler's min, avg and max, priced together from one
// memo) against three one-clock rules, one per bound (the simulator's): the same times, bit for
// bit, on every clock, through memo hits, evictions and clocks that take different decisions.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "model/model_json.hpp"
#include "timing/rules.hpp"

using namespace augur;
using timing::SendMode;
using timing::Times;

namespace {

// Every kind of bound the model format has: a spread, states, a fitted form's error (wide
// enough that min goes below 0 and is clamped), explicit min and max expressions, several
// regimes, a measured range, per-role times and collectives the model lacks.
model::Model bounded() {
  const std::string fitted_with_states =
      R"json({"terms": [{"basis": "1", "coef": 30, "stderr": 2}, {"basis": "d", "coef": 0.004, "stderr": 0.0003}],
          "chi2": 1, "q": 0.5, "points": 10, "statistic": "median", "cv_error": 0.01})json";
  const std::string fitted_noisy =
      R"json({"terms": [{"basis": "1", "coef": 3, "stderr": 4}, {"basis": "d", "coef": 0.001, "stderr": 0.0001}],
          "chi2": 1, "q": 0.5, "points": 10, "statistic": "median", "cv_error": 0.01})json";
  const std::string collective =
      R"json({"terms": [{"basis": "log2(p)", "coef": 6, "stderr": 0.5}, {"basis": "p*d", "coef": 0.002, "stderr": 0.0002}],
          "chi2": 1, "q": 0.5, "points": 10, "statistic": "median", "cv_error": 0.01})json";
  const std::string operations = R"json({
      "pingpong": {"regimes": [
          {"from": 0, "to": 1024, "expr": "5 + d/900", "spread": {"below": 0.08, "above": 0.12}},
          {"from": 1024, "to": 65536, "form": )json" + fitted_with_states + R"json(, "states": {"fast": 0.93, "slow": 1.41}},
          {"from": 65536, "expr": "40 + d/800", "min": "35 + d/1000", "max": "60 + d/700"}],
        "measured": {"max_bytes": 100000, "max_processes": 2}},
      "send":     {"regimes": [{"from": 0, "form": )json" + fitted_noisy + R"json(, "spread": {"below": 0.2, "above": 0.3}}]},
      "ssend":    {"regimes": [{"from": 0, "expr": "9 + d/950", "spread": {"below": 0.05, "above": 0.1}}]},
      "recvmin":  {"regimes": [{"from": 0, "expr": "1 + d/3000", "states": {"fast": 0.9, "slow": 1.3}}]},
      "isend1":   {"regimes": [{"from": 0, "expr": "0.7 + d/20000", "min": "0.5", "max": "2 + d/10000"}]},
      "exchange": {"regimes": [{"from": 0, "expr": "8 + d/500", "spread": {"below": 0.1, "above": 0.25}}]},
      "sendrecv": {"regimes": [{"from": 0, "expr": "7 + d/600", "states": {"fast": 0.95, "slow": 1.2}}]},
      "allreduce": {"regimes": [{"from": 0, "form": )json" + collective + R"json(, "states": {"fast": 0.97, "slow": 1.3}}],
        "measured": {"max_bytes": 4096, "max_processes": 8}},
      "bcast":      {"regimes": [{"from": 0, "expr": "4*log2(p) + d/700", "spread": {"below": 0.1, "above": 0.1}}]},
      "bcast_root": {"regimes": [{"from": 0, "expr": "2*log2(p) + d/900", "min": "log2(p)", "max": "3*log2(p) + d/600"}]},
      "gather":     {"regimes": [{"from": 0, "expr": "3*p + p*d/1000", "spread": {"below": 0.15, "above": 0.2}}]}
    })json";
  return model::parse_model(R"json({"augur_model": 1, "machine": {"name": "bounded"}, "provenance": {"source": "test"},
                                "units": {"time": "us", "size": "bytes"}, "network": {"eager_limit": 4096},
                                "operations": )json" +
                                operations + "}",
                            "bounded");
}

constexpr std::array<model::Bound, 3> kBounds{model::Bound::min, model::Bound::avg, model::Bound::max};

// The three clocks' rules and the one-clock rules of each bound, driven by the same calls.
struct Pair {
  explicit Pair(const model::Model& m)
      : three(m), one{timing::Rules(m, model::Bound::min), timing::Rules(m, model::Bound::avg),
                      timing::Rules(m, model::Bound::max)} {}
  timing::BoundsRules three;
  std::array<timing::Rules, 3> one;
};

// Bit for bit: the same double, not a near one.
void expect_same(const Times& three, const std::array<double, 3>& one, const std::string& what) {
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(three.at[i]), std::bit_cast<std::uint64_t>(one[i]))
        << what << " on the " << model::to_string(kBounds[i]) << " clock: " << three.at[i] << " against " << one[i];
}

template <class Three, class One>
void check(Pair& rules, const std::string& what, Three&& on_three, One&& on_one) {
  const Times three = on_three(rules.three);
  std::array<double, 3> one{};
  for (std::size_t i = 0; i < 3; ++i) one[i] = on_one(rules.one[i], i);
  expect_same(three, one, what);
}

}  // namespace

TEST(TimingThreeClocks, EveryRuleGivesEachClockWhatItsOwnBoundsRulesGive) {
  const auto m = bounded();
  ASSERT_NE(m.seconds("send", 2, 0, model::Bound::min), m.seconds("send", 2, 0, model::Bound::avg));
  Pair rules(m);
  std::mt19937_64 random(20261126);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random); };
  auto pick = [&](auto count) { return static_cast<std::size_t>(random() % count); };
  // A few sizes recur (memo hits); the rest are drawn from a range far larger than the memo's
  // 64 entries (misses and evictions), across every regime and beyond the measured range.
  const std::vector<double> common{0, 8, 1000, 4096, 4097, 70000};
  auto size = [&] { return pick(3u) ? common[pick(common.size())] : std::floor(uniform(0, 200000)); };
  // Each clock's own time near a shared one, so that clocks cross or do not on their own.
  auto times = [&](double around) {
    Times t;
    for (auto& x : t.at) x = around + uniform(-30, 30) * 1e-6;
    return t;
  };
  const std::array<SendMode, 4> modes{SendMode::standard, SendMode::synchronous, SendMode::ready, SendMode::buffered};
  const std::vector<std::string> collectives{"allreduce", "bcast", "gather", "scatter", "alltoall", "barrier", "scan"};
  std::size_t crossed_on_some = 0, crossed_on_all = 0;

  for (int call = 0; call < 4000; ++call) {
    const double bytes = size(), other = size();
    const std::string what = "call " + std::to_string(call);
    switch (pick(8u)) {
      case 0: {
        const auto mode = modes[pick(modes.size())];
        check(rules, what + " send_busy", [&](auto& r) { return r.send_busy(mode, bytes); },
              [&](auto& r, std::size_t) { return r.send_busy(mode, bytes); });
        EXPECT_EQ(rules.three.waits_for_receiver(mode, bytes), rules.one[1].waits_for_receiver(mode, bytes));
        break;
      }
      case 1:
        check(rules, what + " posts", [&](auto& r) { return r.isend_post(bytes) + r.irecv_post(other); },
              [&](auto& r, std::size_t) { return r.isend_post(bytes) + r.irecv_post(other); });
        check(rules, what + " transit", [&](auto& r) { return r.transit(bytes); },
              [&](auto& r, std::size_t) { return r.transit(bytes); });
        check(rules, what + " recvmin", [&](auto& r) { return r.recvmin(bytes); },
              [&](auto& r, std::size_t) { return r.recvmin(bytes); });
        break;
      case 2: {
        const Times post = times(1e-3), start = times(1e-3);
        const bool rendezvous = pick(2u);
        check(rules, what + " receive_end", [&](auto& r) { return r.receive_end(post, start, rendezvous, bytes); },
              [&](auto& r, std::size_t i) { return r.receive_end(post.at[i], start.at[i], rendezvous, bytes); });
        break;
      }
      case 3: {
        // Never sent to the source now and then; otherwise starts within a transit or two.
        const bool never = pick(10u) == 0;
        const timing::BasicFlight<Times> own{never ? Times::same(-std::numeric_limits<double>::infinity()) : times(2e-3), other};
        const timing::BasicFlight<Times> incoming{times(2e-3), bytes};
        const Times post = times(2e-3), halves = times(2.05e-3);
        const auto decided = rules.three.crossed(own, incoming);
        for (std::size_t i = 0; i < 3; ++i)
          EXPECT_EQ(decided[i], rules.one[i].crossed({own.start.at[i], other}, {incoming.start.at[i], bytes})) << what;
        crossed_on_some += decided[0] || decided[1] || decided[2];
        crossed_on_all += decided[0] && decided[1] && decided[2];
        check(rules, what + " crossed_receive_end", [&](auto& r) { return r.crossed_receive_end(post, own, incoming, halves); },
              [&](auto& r, std::size_t i) {
                return r.crossed_receive_end(post.at[i], {own.start.at[i], other}, {incoming.start.at[i], bytes}, halves.at[i]);
              });
        break;
      }
      case 4: {
        const Times begin = times(3e-3), halves = times(3.02e-3);
        check(rules, what + " sendrecv_end", [&](auto& r) { return r.sendrecv_end(begin, halves, bytes); },
              [&](auto& r, std::size_t i) { return r.sendrecv_end(begin.at[i], halves.at[i], bytes); });
        check(rules, what + " waiting_send_end", [&](auto& r) { return r.waiting_send_end(begin, halves, bytes); },
              [&](auto& r, std::size_t i) { return r.waiting_send_end(begin.at[i], halves.at[i], bytes); });
        break;
      }
      default: {
        const auto& op = collectives[pick(collectives.size())];
        const int p = 2 + static_cast<int>(pick(15u));
        const bool root = pick(2u);
        check(rules, what + " " + op, [&](auto& r) { return r.collective_duration(op, p, bytes, root); },
              [&](auto& r, std::size_t) { return r.collective_duration(op, p, bytes, root); });
        const Times own = times(4e-3), latest = later(own, times(4e-3)), root_start = times(4e-3);
        const auto shape = timing::shape_of(op);
        check(rules, what + " " + op + " end",
              [&](auto& r) {
                return timing::collective_end(shape, root, own, timing::BasicCollectiveStarts<Times>{latest, root_start},
                                              r.collective_duration(op, p, bytes));
              },
              [&](auto& r, std::size_t i) {
                return timing::collective_end(shape, root, own.at[i], timing::CollectiveStarts{latest.at[i], root_start.at[i]},
                                              r.collective_duration(op, p, bytes));
              });
      }
    }
  }
  // The sequence did exercise clocks that decide differently.
  EXPECT_GT(crossed_on_some, crossed_on_all);
  EXPECT_GT(crossed_on_all, 0u);
  // What the report lists, asked on any clock, is what the three one-clock rules asked together.
  for (const auto& one : rules.one) {
    EXPECT_EQ(rules.three.stand_ins_used().size(), one.stand_ins_used().size());
    for (const auto& [name, asked] : one.extrapolations()) {
      ASSERT_TRUE(rules.three.extrapolations().contains(name)) << name;
      EXPECT_GE(rules.three.extrapolations().at(name).bytes, asked.bytes) << name;
    }
  }
}
