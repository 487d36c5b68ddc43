#pragma once
// The candidate laws the fitter tries for one regime. Every hypothesis is linear in its
// coefficients: a constant plus at most one "startup" term in p and one "data" term (a function
// of p times d), so each is fitted by linear least squares and all of them share one table of
// basis columns (docs/fitting.md, "Hypotheses").
#include <array>
#include <vector>

#include "fit/fitter.hpp"
#include "fit/samples.hpp"
#include "model/basis.hpp"

namespace augur::fit {

// What varies in a set of samples decides which laws can be told apart: a curve in d for one
// group size (point-to-point), a curve in p for one message size (barriers), a surface otherwise.
struct DataShape {
  bool p_varies = false;
  bool d_varies = false;
  int group_sizes = 1;  // distinct p
};

// Fewer distinct group sizes than this cannot tell p^1.25 from p·log2(p) (Extra-P asks for five
// points per parameter), so the wide family then offers only the seed's p-terms.
inline constexpr int kGroupSizesForWideTerms = 5;

DataShape shape_of(const std::vector<Sample>& samples);

inline constexpr int kMaxTerms = 3;

// Indices into CandidateSet::bases; the first is always the constant.
struct Hypothesis {
  std::array<int, kMaxTerms> columns{};
  int size = 0;  // number of coefficients, 1…3
};

struct CandidateSet {
  std::vector<model::Basis> bases;     // bases[0] is the constant 1
  std::vector<Hypothesis> hypotheses;  // ordered by size, simplest first
};

// seed12: the seed's c + s·startup(p) + k·data(p,d) with startup ∈ {p, log p, p²} and
// data ∈ {d, p·d, log p·d, p²·d}; c + k·d for one group size; c + s·startup(p) for one size.
// wide: startup terms p^i·log2^j(p) (Extra-P's exponents, i up to 3, j up to 2) and ⌊log2 p⌋;
// data terms d times 1 or any startup term; with the two-coefficient forms c + s·startup and
// c + k·data; below kGroupSizesForWideTerms group sizes its p-terms are p, log2 p and p².
// Both families also hold the constant alone, the law every term has to beat.
CandidateSet make_candidates(Family family, DataShape shape);

}  // namespace augur::fit
