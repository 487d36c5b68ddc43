// model_agreement: how well models match measurements, for the acceptance figures of
// `augur bench` (docs/benchmarks.md).
//   model_agreement residuals MODEL RAW        per operation, median and max |fit − measured| / measured
//   model_agreement compare MODEL_A MODEL_B RAW  |A − B| / B at every measured point of RAW
// A point measured in several passes counts once, pooled as the fit pools it.
// Prints a table; exits 1 when a limit given with --limit is exceeded.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "fit/pooling.hpp"
#include "fit/raw.hpp"
#include "util/median.hpp"
#include "model/model.hpp"
#include "model/model_json.hpp"
#include "model/state_choice.hpp"

namespace {

using namespace augur;

double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

// The point where an operation is furthest off, with the two times compared there (seconds).
struct WorstPoint {
  double value = -1;
  int p = 0;
  double bytes = 0, a = 0, b = 0;

  void offer(double v, const fit::Measurement& point, double ta, double tb) {
    if (v > value) *this = {v, point.p, point.bytes, ta, tb};
  }
};

// The raw points pooled as the model's fit pooled them (its provenance names the state choice).
std::vector<fit::Measurement> pooled_as_fitted(const model::Model& m, const fit::RawSet& raw) {
  const auto settings = m.provenance.settings.value("fit", nlohmann::json::object());
  const auto choice = model::state_choice_from_string(settings.value("state", "typical"));
  return fit::pool_repeated_points(raw.points, choice.value_or(model::StateChoice::typical));
}

struct Residuals {
  std::vector<double> relative;
  WorstPoint worst;
};

int residuals(const model::Model& m, const fit::RawSet& raw, double limit) {
  std::map<std::string, Residuals> by_op;
  for (const auto& point : pooled_as_fitted(m, raw)) {
    if (!m.find(point.op) || point.median <= 0) continue;
    const double fitted = m.seconds(point.op, point.p, point.bytes);
    const double r = std::abs(fitted - point.median) / point.median;
    auto& op = by_op[point.op];
    op.relative.push_back(r);
    op.worst.offer(r, point, fitted, point.median);
  }
  int over = 0;
  std::vector<double> medians;
  std::printf("%-24s %6s %12s %12s  %s\n", "operation", "points", "median |res|", "max |res|", "at");
  for (const auto& [op, r] : by_op) {
    const double med = util::median(r.relative);
    medians.push_back(med);
    if (limit > 0 && med > limit) ++over;
    std::printf("%-24s %6zu %11.2f%% %11.1f%%  p=%d d=%.0f B%s\n", op.c_str(), r.relative.size(), 100 * med,
                100 * r.worst.value, r.worst.p, r.worst.bytes, limit > 0 && med > limit ? "  over" : "");
  }
  std::printf("operations: %zu, over the limit: %d, median over operations %.2f%%, worst %.2f%%\n", by_op.size(),
              over, 100 * util::median(medians), 100 * max_of(medians));
  return over > 0 ? 1 : 0;
}

// How far two models are apart on one operation's points.
struct OperationDifferences {
  WorstPoint worst;
  int over_tenth = 0;  // points that differ by more than 10%
};

int compare(const model::Model& a, const model::Model& b, const fit::RawSet& raw, double limit) {
  std::vector<double> differences;
  std::map<std::string, OperationDifferences> by_op;
  for (const auto& point : pooled_as_fitted(a, raw)) {
    if (!a.find(point.op) || !b.find(point.op)) continue;
    const double ta = a.seconds(point.op, point.p, point.bytes);
    const double tb = b.seconds(point.op, point.p, point.bytes);
    if (!(tb > 0)) continue;
    const double d = std::abs(ta - tb) / tb;
    differences.push_back(d);
    auto& op = by_op[point.op];
    op.worst.offer(d, point, ta, tb);
    if (d > 0.10) ++op.over_tenth;
  }
  std::vector<std::pair<OperationDifferences, std::string>> worst;
  for (const auto& [op, o] : by_op) worst.push_back({o, op});
  std::sort(worst.begin(), worst.end(),
            [](const auto& x, const auto& y) { return x.first.worst.value > y.first.worst.value; });
  const auto over_tenth = std::count_if(differences.begin(), differences.end(), [](double d) { return d > 0.10; });
  std::printf("points: %zu, median difference %.2f%%, max %.1f%%, over 10%%: %td\n", differences.size(),
              100 * util::median(differences), 100 * max_of(differences), over_tenth);
  std::printf("largest differences (operation, point, first model, second model, points over 10%%):\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(12, worst.size()); ++i) {
    const auto& [o, op] = worst[i];
    const auto& w = o.worst;
    std::printf("  %-22s %6.1f%%  p=%d d=%.0f B  %.4g us  %.4g us  %d\n", op.c_str(), 100 * w.value, w.p,
                w.bytes, 1e6 * w.a, 1e6 * w.b, o.over_tenth);
  }
  return limit > 0 && util::median(differences) > limit ? 1 : 0;
}

double limit_from(int& argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--limit") {
      const double limit = std::atof(argv[i + 1]);
      for (int j = i; j + 2 < argc + 0; ++j) argv[j] = argv[j + 2];
      argc -= 2;
      return limit;
    }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const double limit = limit_from(argc, argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "residuals" && argc == 4)
      return residuals(model::load_model_file(argv[2]), fit::read_raw_file(argv[3]), limit);
    if (mode == "compare" && argc == 5)
      return compare(model::load_model_file(argv[2]), model::load_model_file(argv[3]), fit::read_raw_file(argv[4]),
                     limit);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "model_agreement: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr,
               "usage: model_agreement residuals MODEL RAW [--limit FRACTION]\n"
               "       model_agreement compare MODEL_A MODEL_B RAW [--limit FRACTION]\n");
  return 2;
}
