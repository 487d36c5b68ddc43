#include "fit/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/special_functions/gamma.hpp>

namespace augur::fit {
namespace {

// Below this ratio of smallest to largest LDLT pivot (after scaling) a hypothesis's terms are
// treated as dependent: its coefficients would be noise amplified by some 10¹⁰.
constexpr double kMinReciprocalCondition = 1e-10;
// A leverage this close to 1 means the point alone determines a coefficient; leaving it out
// leaves the fit undetermined, so the hypothesis cannot be cross-validated.
constexpr double kMaxLeverage = 1 - 1e-9;

template <int M>
std::optional<LinearFit> solve_fixed(const WeightedDesign& design, const Hypothesis& hypothesis) {
  using Matrix = Eigen::Matrix<double, M, M>;
  using Vector = Eigen::Matrix<double, M, 1>;
  Matrix a;
  Vector rhs, scale;
  for (int r = 0; r < M; ++r) {
    const int row = hypothesis.columns[r];
    const double diagonal = design.gram()(row, row);
    if (!(diagonal > 0)) return std::nullopt;  // a column that is zero on every sample
    scale[r] = 1 / std::sqrt(diagonal);
    rhs[r] = design.gram_rhs()[row];
    for (int c = 0; c < M; ++c) a(r, c) = design.gram()(row, hypothesis.columns[c]);
  }
  const Matrix scaled = scale.asDiagonal() * a * scale.asDiagonal();
  Eigen::LDLT<Matrix> ldlt(scaled);
  // The pivots, not rcond(): Eigen's estimate treats a zero pivot as a pseudo-inverse would and
  // reports a singular system as well conditioned.
  if (ldlt.info() != Eigen::Success) return std::nullopt;
  const auto pivots = ldlt.vectorD();
  if (!(pivots.minCoeff() > kMinReciprocalCondition * pivots.maxCoeff())) return std::nullopt;

  LinearFit fit;
  fit.hypothesis = hypothesis;
  const Matrix inverse = scale.asDiagonal() * ldlt.solve(Matrix::Identity()) * scale.asDiagonal();
  const Vector coef = inverse * rhs;
  fit.coef.head<M>() = coef;
  fit.inverse_normal.topLeftCorner<M, M>() = inverse;
  fit.chi2 = std::max(0.0, design.weighted_yy() - coef.dot(rhs));
  return fit;
}

}  // namespace

WeightedDesign::WeightedDesign(const std::vector<Sample>& samples, const std::vector<model::Basis>& bases) {
  const auto group_sizes = distinct_group_sizes(samples);
  const int n = static_cast<int>(samples.size());
  const int k = static_cast<int>(bases.size());

  // Basis functions are p-part × (1 or d); the p-part is computed once per distinct p because
  // fractional powers and logarithms dominate the cost otherwise.
  Eigen::MatrixXd p_part(group_sizes.size(), k);
  for (std::size_t g = 0; g < group_sizes.size(); ++g)
    for (int j = 0; j < k; ++j) p_part(g, j) = bases[j](group_sizes[g], 1.0);

  weighted_columns_.resize(n, k);
  weighted_y_.resize(n);
  for (int i = 0; i < n; ++i) {
    const auto& s = samples[i];
    const auto g = std::lower_bound(group_sizes.begin(), group_sizes.end(), s.p) - group_sizes.begin();
    const double root_weight = 1 / s.sigma;
    weighted_y_[i] = s.y * root_weight;
    for (int j = 0; j < k; ++j)
      weighted_columns_(i, j) = p_part(g, j) * (bases[j].d_power != 0 ? s.d : 1.0) * root_weight;
  }
  form_products();
}

WeightedDesign::WeightedDesign(const Eigen::MatrixXd& columns, const Eigen::VectorXd& y, const Eigen::VectorXd& sigma) {
  const Eigen::VectorXd root_weight = sigma.cwiseInverse();
  weighted_columns_ = root_weight.asDiagonal() * columns;
  weighted_y_ = y.cwiseProduct(root_weight);
  form_products();
}

void WeightedDesign::form_products() {
  gram_.noalias() = weighted_columns_.transpose() * weighted_columns_;
  gram_rhs_.noalias() = weighted_columns_.transpose() * weighted_y_;
  weighted_yy_ = weighted_y_.squaredNorm();
}

std::optional<LinearFit> solve(const WeightedDesign& design, const Hypothesis& hypothesis) {
  switch (hypothesis.size) {
    case 1: return solve_fixed<1>(design, hypothesis);
    case 2: return solve_fixed<2>(design, hypothesis);
    default: return solve_fixed<3>(design, hypothesis);
  }
}

LeaveOneOut::LeaveOneOut(const WeightedDesign& design)
    : design_(design), prediction_(design.points()), leverage_(design.points()) {}

// Whole-column array expressions rather than a loop over points: Eigen vectorises the sums and
// minima, which a compiler may not reorder on its own.
Validation LeaveOneOut::operator()(const LinearFit& fit) {
  const auto& x = design_.weighted_columns();
  const auto column = [&](int k) { return x.col(fit.hypothesis.columns[k]).array(); };
  const auto& b = fit.coef;
  const auto& c = fit.inverse_normal;
  const int m = fit.hypothesis.size;
  prediction_ = b[0] * column(0);
  leverage_ = c(0, 0) * column(0).square();
  if (m >= 2) {
    prediction_ += b[1] * column(1);
    leverage_ += c(1, 1) * column(1).square() + 2 * c(0, 1) * column(0) * column(1);
  }
  if (m >= 3) {
    prediction_ += b[2] * column(2);
    leverage_ += c(2, 2) * column(2).square() + 2 * (c(0, 2) * column(0) + c(1, 2) * column(1)) * column(2);
  }

  const auto y = design_.weighted_y().array();
  const int n = design_.points();
  Validation v;
  v.chi2 = (y - prediction_).square().sum();
  v.lowest_prediction = prediction_.minCoeff();
  if (n <= m || leverage_.maxCoeff() >= kMaxLeverage) {
    v.cv_error = std::numeric_limits<double>::infinity();
    return v;
  }
  // Symmetric relative error of the left-out prediction, 2|y − ŷ|/(|y| + |ŷ|): about |y − ŷ|/y
  // for good fits, but at most 2, so a near-zero time cannot swamp the average. Weighted
  // values are yᵢ/σᵢ; σᵢ cancels in the ratio.
  const auto left_out_residual = (y - prediction_) / (1 - leverage_);
  const auto scale = (y.abs() + (y - left_out_residual).abs()).max(std::numeric_limits<double>::min());
  v.cv_error = (2 * left_out_residual.abs() / scale).sum() / n;
  return v;
}

Validation leave_one_out(const WeightedDesign& design, const LinearFit& fit) { return LeaveOneOut(design)(fit); }

double goodness_of_fit(double chi2, int points, int coefficients) {
  const int freedom = points - coefficients;
  if (freedom <= 0) return 1;
  return boost::math::gamma_q(freedom / 2.0, std::max(chi2, 0.0) / 2);
}

Eigen::Vector3d standard_errors(const LinearFit& fit, int points) {
  const int m = fit.hypothesis.size;
  const int freedom = points - m;
  const double inflation = freedom > 0 ? std::max(1.0, fit.chi2 / freedom) : 1.0;
  Eigen::Vector3d errors = Eigen::Vector3d::Zero();
  for (int k = 0; k < m; ++k) errors[k] = std::sqrt(std::max(0.0, fit.inverse_normal(k, k)) * inflation);
  return errors;
}

}  // namespace augur::fit
