#pragma once
// The timing rules price one clock (a double) or the reverse profiler's three side by side, one
// per bound of the model (Times): written once over either, they apply the same decisions and
// arithmetic to each clock, and a clock's answer does not depend on the others.
#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

#include "model/regime.hpp"

namespace augur::timing {

// One time on each of the three clocks, indexed by bound.
struct Times {
  std::array<double, 3> at{};

  static constexpr Times same(double t) { return {{t, t, t}}; }
  double& operator[](model::Bound b) { return at[static_cast<std::size_t>(b)]; }
  double operator[](model::Bound b) const { return at[static_cast<std::size_t>(b)]; }

  friend Times operator+(Times a, const Times& b) {
    for (std::size_t i = 0; i < a.at.size(); ++i) a.at[i] += b.at[i];
    return a;
  }
  friend Times operator+(Times a, double d) {
    for (auto& t : a.at) t += d;
    return a;
  }
  friend Times operator-(Times a, const Times& b) {
    for (std::size_t i = 0; i < a.at.size(); ++i) a.at[i] -= b.at[i];
    return a;
  }
  friend Times operator*(double k, Times a) {
    for (auto& t : a.at) t = k * t;
    return a;
  }
  friend bool operator==(const Times&, const Times&) = default;
};

// A yes or no on each clock, for decisions each clock takes on its own times.
using Decisions = std::array<bool, 3>;

// Lane i of a value: the value itself on one clock, clock i of three.
inline double& lane(double& v, std::size_t) { return v; }
inline double lane(const double& v, std::size_t) { return v; }
inline bool& lane(bool& v, std::size_t) { return v; }
inline bool lane(const bool& v, std::size_t) { return v; }
inline double& lane(Times& v, std::size_t i) { return v.at[i]; }
inline double lane(const Times& v, std::size_t i) { return v.at[i]; }
inline bool& lane(Decisions& v, std::size_t i) { return v[i]; }
inline bool lane(const Decisions& v, std::size_t i) { return v[i]; }

template <class V>
inline constexpr std::size_t kLanes = std::is_same_v<V, Times> || std::is_same_v<V, Decisions> ? 3 : 1;

// `f(i)` on each lane, as one V.
template <class V, class F>
V by_lane(F&& f) {
  V out{};
  for (std::size_t i = 0; i < kLanes<V>; ++i) lane(out, i) = f(i);
  return out;
}

// The decision type of a time type: bool for one clock, Decisions for three.
template <class V>
using DecisionsOf = std::conditional_t<std::is_same_v<V, Times>, Decisions, bool>;

template <class V>
V uniform(double t) {
  return by_lane<V>([&](std::size_t) { return t; });
}

template <class M>
bool any(const M& m) {
  for (std::size_t i = 0; i < kLanes<M>; ++i)
    if (lane(m, i)) return true;
  return false;
}

template <class V>
V later(const V& a, const V& b) {
  return by_lane<V>([&](std::size_t i) { return std::max(lane(a, i), lane(b, i)); });
}

template <class V>
V earlier(const V& a, const V& b) {
  return by_lane<V>([&](std::size_t i) { return std::min(lane(a, i), lane(b, i)); });
}

// Per lane: `a` where `take_a` says so, else `b`.
template <class V>
V choose(const DecisionsOf<V>& take_a, const V& a, const V& b) {
  return by_lane<V>([&](std::size_t i) { return lane(take_a, i) ? lane(a, i) : lane(b, i); });
}

}  // namespace augur::timing
