#include "analyze/tolerance_search.hpp"

#include <iterator>
#include <set>
#include <utility>

namespace augur::analyze {
namespace {

// Where the line through (a, T(a)) and (b, T(b)) reaches `target`; 0 when it rises not at all.
double line_at(const std::pair<const double, double>& a, const std::pair<const double, double>& b, double target) {
  if (!(b.second > a.second) || !(b.first > a.first)) return 0;
  return a.first + (target - a.second) * (b.first - a.first) / (b.second - a.second);
}

// Lines a search tries before it only bisects: each costs at most two runs.
constexpr int kGuesses = 4;

}  // namespace

Crossing first_crossing(const std::function<double(double)>& time, std::map<double, double>& known, double target,
                        const ToleranceSearch& o) {
  Crossing c;
  const auto at = [&](double f) {
    if (const auto it = known.find(f); it != known.end()) return it->second;
    ++c.runs;
    return known[f] = time(f);
  };
  // The bracket the known runs give: the first at or above the target, and the one before it.
  double lo = 1, hi = 0, thi = 0;
  for (auto it = known.upper_bound(1.0); it != known.end(); ++it) {
    if (it->second >= target) {
      hi = it->first, thi = it->second;
      break;
    }
    lo = it->first;
  }
  for (double f = 2 * lo; hi == 0 && f <= o.max_factor && c.runs < o.max_runs; f *= 2) {
    const double t = at(f);
    if (t >= target) hi = f, thi = t;
    else lo = f;
  }
  c.below = lo;
  if (hi == 0) return c;
  // Lines through two known runs, in turn: across the bracket (exact with no break inside it),
  // through the bracket's top and the run above it (exact where the run bends up inside the
  // bracket and then rises straight on, as a hidden latency does; that run is made when missing),
  // through the bracket's foot and the run below it (where it bends down). A guess is placed a
  // quarter of the precision above the line's crossing, so that rounding of the run cannot put it
  // below, and confirmed by a run half the precision below it; the bracket is then narrow enough.
  // After kGuesses guesses, or when none lands inside the bracket, it is halved.
  using It = std::map<double, double>::iterator;
  std::set<std::pair<double, double>> tried;
  int guesses = 0, kind = 0;
  const double width = o.precision / 2;
  while (hi - lo > width * hi && c.runs < o.max_runs) {
    double x = 0;
    for (int turn = 0; turn < 3 && x == 0 && guesses < kGuesses; ++turn, kind = (kind + 1) % 3) {
      const It l = known.find(lo), h = known.find(hi);
      It a = l, b = h;
      if (kind == 1) {
        if (std::next(h) == known.end()) {
          if (c.runs + 2 >= o.max_runs) continue;
          at(hi + (hi - lo));
        }
        a = h, b = std::next(h);
      } else if (kind == 2) {
        if (l == known.begin()) continue;
        a = std::prev(l), b = l;
      }
      if (!tried.insert({a->first, b->first}).second) continue;
      const double guess = line_at(*a, *b, target) * (1 + o.precision / 4);
      if (guess > lo && guess < hi) {
        x = guess;
        ++guesses;
      }
    }
    const bool guessed = x > 0;
    if (!guessed) x = lo + (hi - lo) / 2;
    const double tx = at(x);
    if (tx < target) {
      lo = x;
      continue;
    }
    hi = x, thi = tx;
    const double below = x * (1 - width);
    if (guessed && below > lo && c.runs < o.max_runs) {
      const double tb = at(below);
      if (tb >= target) hi = below, thi = tb;
      else lo = below;
    }
  }
  c.factor = hi;
  c.time = thi;
  c.below = lo;
  return c;
}

}  // namespace augur::analyze
