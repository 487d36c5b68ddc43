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

// One pass over the samples with the hypothesis's columns and inverse normal matrix fixed at
// compile time, so the inner loop has no branches on the hypothesis size.
template <int M>
Validation validate(const WeightedDesign& design, const LinearFit& fit) {
  const auto& x = design.weighted_columns();
  const auto& y = design.weighted_y();
  const double* columns[M];
  for (int k = 0; k < M; ++k) columns[k] = x.col(fit.hypothesis.columns[k]).data();
  const Eigen::Matrix<double, M, M> c = fit.inverse_normal.topLeftCorner<M, M>();
  const Eigen::Matrix<double, M, 1> beta = fit.coef.head<M>();

  Validation v;
  v.lowest_prediction = std::numeric_limits<double>::infinity();
  double relative_error_sum = 0;
  double highest_leverage = 0;
  const int n = design.points();
  for (int i = 0; i < n; ++i) {
    Eigen::Matrix<double, M, 1> row;
    for (int k = 0; k < M; ++k) row[k] = columns[k][i];
    const double prediction = beta.dot(row);
    const double leverage = row.dot(c * row);
    const double residual = y[i] - prediction;
    v.chi2 += residual * residual;
    v.lowest_prediction = std::min(v.lowest_prediction, prediction);
    highest_leverage = std::max(highest_leverage, leverage);
    // Weighted values are yᵢ/σᵢ, so the ratio is the relative error; a zero time is measured
    // against its error estimate instead.
    relative_error_sum += std::abs(residual) / ((1 - leverage) * std::max(std::abs(y[i]), 1.0));
  }
  v.cv_error = highest_leverage < kMaxLeverage && n > M ? relative_error_sum / n
                                                         : std::numeric_limits<double>::infinity();
  return v;
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

Validation leave_one_out(const WeightedDesign& design, const LinearFit& fit) {
  switch (fit.hypothesis.size) {
    case 1: return validate<1>(design, fit);
    case 2: return validate<2>(design, fit);
    default: return validate<3>(design, fit);
  }
}

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
