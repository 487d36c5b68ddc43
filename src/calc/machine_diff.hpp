#pragma once
// `augur diff`: two machines compared operation by operation over common process counts and
// message sizes: the ratio of their predicted times, which is faster where, and the sizes where
// the faster one changes (crossovers), found by bisection so they can be checked by hand.
#include <string>
#include <vector>

#include "model/catalog.hpp"
#include "model/model.hpp"

namespace augur::calc {

struct DiffOptions {
  std::vector<double> processes{2, 8, 32};     // group sizes compared (point-to-point: 2 only)
  std::vector<double> sizes{8, 1024, 65536};   // bytes shown in the table
  double min_bytes = 1, max_bytes = 1 << 20;   // range searched for crossovers
};

// `unknown` where a model has no answer at that point.
enum class Faster { a, b, same, unknown };

struct DiffPoint {
  double p = 0, bytes = 0;
  double a = 0, b = 0;  // seconds, NaN where a model has no answer
  Faster faster = Faster::same;
  double ratio() const { return b / a; }  // above 1 where A is faster
};

// Where the faster machine changes: below `at` one is faster, from `at` on the other. Over the
// message size for a given p; over p (`over_processes`) for a barrier.
struct Crossover {
  double p = 0, bytes = 0;
  bool over_processes = false;
  Faster below = Faster::same, above = Faster::same;
  bool at_break = false;  // at a regime break of either model: the times jump there, they do not meet
};

struct OperationDiff {
  std::string op;
  model::OperationClass cls = model::OperationClass::collective;
  std::vector<DiffPoint> points;
  std::vector<Crossover> crossovers;
};

struct MachineDiff {
  std::string a, b;  // machine names
  DiffOptions options;
  std::vector<OperationDiff> operations;       // common to both, in the catalog's order
  std::vector<std::string> only_a, only_b;     // operations one machine models and the other not
};

MachineDiff diff_machines(const model::Model& a, const model::Model& b, const DiffOptions& options);

// Time in seconds, NaN where the model has no answer (beyond its last regime).
double seconds_or_nan(const model::Model& m, const model::Operation& op, double p, double bytes);

}  // namespace augur::calc
