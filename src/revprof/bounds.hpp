#pragma once
// The reverse profiler keeps three virtual clocks side by side, one per bound of the model's
// equations (min, avg, max), so one run gives all three predictions from the same measured
// compute: three runs would each measure their own, and their noise could put max below min.
// Every rule that moves a clock is applied to each of the three with the model's time at that
// bound; what the program sees (MPI_Wtime) and the trace's timeline follow the one chosen with
// --bound. Pure arithmetic, so it is tested without MPI.
#include <algorithm>
#include <array>
#include <cstddef>

#include "model/model.hpp"
#include "timing/rules.hpp"

namespace augur::revprof {

inline constexpr std::array<model::Bound, 3> kBounds{model::Bound::min, model::Bound::avg, model::Bound::max};

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
  friend bool operator==(const Times&, const Times&) = default;
};

// `f(bound)` on each bound, as one Times.
template <class F>
Times each_bound(F&& f) {
  return {{f(model::Bound::min), f(model::Bound::avg), f(model::Bound::max)}};
}

inline Times later(const Times& a, const Times& b) {
  return each_bound([&](model::Bound x) { return std::max(a[x], b[x]); });
}

// The timing rules at each bound. Decisions that happen once in the real run (whether a send
// waits for its receiver) and what the report says the model lacked are the chosen bound's.
class BoundRules {
 public:
  BoundRules(const model::Model& model, model::Bound chosen)
      : rules_{timing::Rules(model, model::Bound::min), timing::Rules(model, model::Bound::avg),
               timing::Rules(model, model::Bound::max)},
        chosen_(chosen) {}

  const timing::Rules& at(model::Bound b) const { return rules_[static_cast<std::size_t>(b)]; }
  const timing::Rules& chosen() const { return at(chosen_); }

  // `f(rules, bound)` with each bound's rules, as one Times.
  template <class F>
  Times each(F&& f) const {
    return each_bound([&](model::Bound b) { return f(at(b), b); });
  }

 private:
  std::array<timing::Rules, 3> rules_;
  model::Bound chosen_;
};

}  // namespace augur::revprof
