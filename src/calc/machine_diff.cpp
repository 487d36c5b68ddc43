#include "calc/machine_diff.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace augur::calc {
namespace {

constexpr int kGrid = 256;        // log-spaced sizes scanned for a change of the faster machine
constexpr int kBisections = 100;  // enough to pin a crossover to the last bit of a double

Faster which(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return Faster::unknown;
  if (std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b))) return Faster::same;
  return a < b ? Faster::a : Faster::b;
}

bool decisive(Faster f) { return f == Faster::a || f == Faster::b; }

struct Pair {
  const model::Model& a;
  const model::Model& b;
  const model::Operation& op_a;
  const model::Operation& op_b;

  DiffPoint at(double p, double bytes) const {
    DiffPoint d{p, bytes, seconds_or_nan(a, op_a, p, bytes), seconds_or_nan(b, op_b, p, bytes)};
    d.faster = which(d.a, d.b);
    return d;
  }
  Faster faster(double p, double bytes) const { return at(p, bytes).faster; }
};

model::OperationClass class_of(const std::string& op) {
  const auto* info = model::find_operation_info(op);
  return info ? info->cls : model::OperationClass::collective;
}

// Where the laws are cut: there the times may jump past each other rather than meet.
std::set<double> breaks(const Pair& pair) {
  std::set<double> at;
  for (const auto* op : {&pair.op_a, &pair.op_b})
    for (const auto& r : op->regimes)
      if (r.from > 0) at.insert(r.from);
  return at;
}

double largest_bytes(const Pair& pair, double wanted) {
  for (const auto* op : {&pair.op_a, &pair.op_b})
    if (std::isfinite(op->regimes.back().to)) wanted = std::min(wanted, op->regimes.back().to - 1);
  return wanted;
}

std::vector<double> size_grid(double lo, double hi, const std::set<double>& cuts) {
  std::set<double> xs;
  for (int i = 0; i <= kGrid; ++i) xs.insert(lo * std::pow(hi / lo, double(i) / kGrid));
  for (double c : cuts)
    if (c > lo && c <= hi) xs.insert({std::nextafter(c, 0.0), c});
  return {xs.begin(), xs.end()};
}

// The size in (lo, hi] where `pair` stops being `before`-faster, by bisection. The comparison
// is strict here, not within the rounding allowance of `which`, so a crossing is found to the
// last bits of a double rather than to the edge of that allowance.
double bisect(const Pair& pair, double p, double lo, double hi, Faster before) {
  auto still = [&](double bytes) {
    auto d = pair.at(p, bytes);
    return before == Faster::a ? d.a < d.b : d.b < d.a;
  };
  for (int i = 0; i < kBisections; ++i) {
    double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (still(mid) ? lo : hi) = mid;
  }
  return hi;
}

bool near_break(double bytes, const std::set<double>& cuts) {
  for (double c : cuts)
    if (std::abs(bytes - c) <= 1e-9 * c) return true;
  return false;
}

std::vector<Crossover> size_crossovers(const Pair& pair, double p, const DiffOptions& options) {
  const auto cuts = breaks(pair);
  const double hi = largest_bytes(pair, options.max_bytes);
  std::vector<Crossover> found;
  if (!(hi > options.min_bytes)) return found;
  double last_x = 0;
  Faster last = Faster::unknown;
  for (double x : size_grid(options.min_bytes, hi, cuts)) {
    const Faster now = pair.faster(p, x);
    if (!decisive(now)) continue;
    if (decisive(last) && now != last) {
      double at = bisect(pair, p, last_x, x, last);
      found.push_back({p, at, false, last, now, near_break(at, cuts)});
    }
    last = now;
    last_x = x;
  }
  return found;
}

// A barrier has no message: the faster machine can change only with the number of processes.
std::vector<Crossover> process_crossovers(const Pair& pair, double top) {
  std::vector<Crossover> found;
  Faster last = Faster::unknown;
  for (double p = 2; p <= top; ++p) {
    const Faster now = pair.faster(p, 0);
    if (!decisive(now)) continue;
    if (decisive(last) && now != last) found.push_back({p, 0, true, last, now, false});
    last = now;
  }
  return found;
}

OperationDiff diff_operation(const Pair& pair, const DiffOptions& options) {
  OperationDiff d{pair.op_a.name, class_of(pair.op_a.name), {}, {}};
  const bool barrier = d.cls == model::OperationClass::barrier;
  std::vector<double> ps = d.cls == model::OperationClass::point_to_point ? std::vector<double>{2} : options.processes;
  std::vector<double> sizes = barrier ? std::vector<double>{0} : options.sizes;
  for (double p : ps)
    for (double bytes : sizes) d.points.push_back(pair.at(p, bytes));
  if (barrier) {
    d.crossovers = process_crossovers(pair, *std::max_element(ps.begin(), ps.end()));
    return d;
  }
  for (double p : ps) {
    auto found = size_crossovers(pair, p, options);
    d.crossovers.insert(d.crossovers.end(), found.begin(), found.end());
  }
  return d;
}

}  // namespace

double seconds_or_nan(const model::Model& m, const model::Operation& op, double p, double bytes) {
  try {
    return m.seconds(op, p, bytes);
  } catch (const model::QueryError&) {
    return std::nan("");
  }
}

MachineDiff diff_machines(const model::Model& a, const model::Model& b, const DiffOptions& options) {
  MachineDiff diff{a.machine.name, b.machine.name, options, {}, {}, {}};
  if (diff.options.processes.empty()) diff.options.processes = {2};
  for (const auto& info : model::operation_catalog()) {
    const auto* op_a = a.find(info.name);
    const auto* op_b = b.find(info.name);
    if (op_a && op_b) diff.operations.push_back(diff_operation({a, b, *op_a, *op_b}, diff.options));
    else if (op_a) diff.only_a.emplace_back(info.name);
    else if (op_b) diff.only_b.emplace_back(info.name);
  }
  return diff;
}

}  // namespace augur::calc
