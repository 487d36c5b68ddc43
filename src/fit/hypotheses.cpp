#include "fit/hypotheses.hpp"

#include <algorithm>

namespace augur::fit {
namespace {

using model::Basis;
using model::LogKind;

Basis p_term(double p_power, double log_power = 0, LogKind kind = LogKind::natural) {
  Basis b;
  b.p_power = p_power;
  b.log_power = log_power;
  b.log_kind = log_power == 0 ? LogKind::natural : kind;
  return b;
}

Basis times_d(Basis b) {
  b.d_power = 1;
  return b;
}

// The seed's: p, log p, p² (natural log, as gnuplot and C wrote it).
std::vector<Basis> seed_startup_terms() { return {p_term(1), p_term(0, 1, LogKind::natural), p_term(2)}; }

// Extra-P's performance model normal form p^i·log2^j(p); √p is i = 1/2, so it is not listed
// twice. ⌊log2 p⌋ models tree algorithms whose depth steps at powers of two. Laws that fit
// equally well (any p-term does when only two group sizes were measured) go to the earlier
// term, so the seed's p, log p and p² come first.
std::vector<Basis> wide_startup_terms() {
  static constexpr double kExponents[] = {0,       0.25,    1.0 / 3, 0.5,    2.0 / 3, 0.75, 1,
                                          1.25,    4.0 / 3, 1.5,     5.0 / 3, 1.75,   2,    2.25,
                                          7.0 / 3, 2.5,     8.0 / 3, 2.75,    3};
  std::vector<Basis> terms{p_term(1), p_term(0, 1, LogKind::base2), p_term(2)};
  for (double i : kExponents)
    for (int j = 0; j <= 2; ++j) {
      const auto term = p_term(i, j, LogKind::base2);
      if ((i != 0 || j != 0) && std::find(terms.begin(), terms.end(), term) == terms.end()) terms.push_back(term);
    }
  terms.push_back(p_term(0, 1, LogKind::floor_base2));
  return terms;
}

std::vector<Basis> startup_terms(Family family, const DataShape& shape) {
  if (!shape.p_varies) return {};
  if (family == Family::seed12) return seed_startup_terms();
  auto terms = wide_startup_terms();
  if (shape.group_sizes < kGroupSizesForWideTerms) terms.resize(3);  // p, log2 p, p²
  return terms;
}

// d alone, and d times each startup term: the seed's {d, p·d, log p·d, p²·d} for its startups.
std::vector<Basis> data_terms(const DataShape& shape, const std::vector<Basis>& startup) {
  if (!shape.d_varies) return {};
  std::vector<Basis> terms{times_d(Basis{})};
  for (const auto& t : startup) terms.push_back(times_d(t));
  return terms;
}

int add_basis(CandidateSet& set, const Basis& b) {
  auto it = std::find(set.bases.begin(), set.bases.end(), b);
  if (it != set.bases.end()) return static_cast<int>(it - set.bases.begin());
  set.bases.push_back(b);
  return static_cast<int>(set.bases.size() - 1);
}

void add_hypothesis(CandidateSet& set, std::initializer_list<int> columns) {
  Hypothesis h;
  for (int c : columns) h.columns[h.size++] = c;
  set.hypotheses.push_back(h);
}

}  // namespace

DataShape shape_of(const std::vector<Sample>& samples) {
  DataShape shape;
  for (const auto& s : samples) shape.d_varies = shape.d_varies || s.d != samples.front().d;
  shape.group_sizes = static_cast<int>(distinct_group_sizes(samples).size());
  shape.p_varies = shape.group_sizes > 1;
  return shape;
}

CandidateSet make_candidates(Family family, DataShape shape) {
  CandidateSet set;
  const int constant = add_basis(set, Basis{});
  add_hypothesis(set, {constant});

  const auto startup_bases = startup_terms(family, shape);
  std::vector<int> startup, data;
  for (const auto& b : startup_bases) startup.push_back(add_basis(set, b));
  for (const auto& b : data_terms(shape, startup_bases)) data.push_back(add_basis(set, b));

  // The seed fitted only three-term surfaces; the wide family lets one term stand alone so a
  // second term has to earn its place by lowering the cross-validated error.
  const bool two_term_forms = family == Family::wide || startup.empty() || data.empty();
  if (two_term_forms) {
    for (int s : startup) add_hypothesis(set, {constant, s});
    for (int k : data) add_hypothesis(set, {constant, k});
  }
  for (int s : startup)
    for (int k : data) add_hypothesis(set, {constant, s, k});
  return set;
}

}  // namespace augur::fit
