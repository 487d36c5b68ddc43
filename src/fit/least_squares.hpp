#pragma once
// Weighted linear least squares for many small hypotheses over one set of samples.
//
// Every hypothesis has at most three coefficients and draws its columns from one shared table,
// so the fitter forms the weighted Gram matrix XᵀWX of the whole table once and takes each
// hypothesis's normal equations from it: a fit then costs a 3×3 solve instead of a pass over the
// data. Columns are scaled to a unit diagonal before the LDLT factorisation, which removes the
// scale differences between, say, 1 and p³·d that make raw normal equations ill-conditioned;
// hypotheses whose scaled system is still near-singular are rejected (docs/fitting.md).
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "fit/hypotheses.hpp"
#include "fit/samples.hpp"
#include "model/basis.hpp"

namespace augur::fit {

// Each row of the table scaled by √wᵢ = 1/σᵢ, so ordinary products give weighted sums.
class WeightedDesign {
 public:
  WeightedDesign(const std::vector<Sample>& samples, const std::vector<model::Basis>& bases);
  // A table the caller computed, for terms a model::Basis cannot express (a law in p and a
  // problem size n, such as n²/p): columns(i, j) is term j at point i, unweighted; sigma > 0.
  WeightedDesign(const Eigen::MatrixXd& columns, const Eigen::VectorXd& y, const Eigen::VectorXd& sigma);

  int points() const { return static_cast<int>(weighted_y_.size()); }
  const Eigen::MatrixXd& weighted_columns() const { return weighted_columns_; }  // N × K
  const Eigen::VectorXd& weighted_y() const { return weighted_y_; }              // yᵢ/σᵢ
  const Eigen::MatrixXd& gram() const { return gram_; }                          // XᵀWX
  const Eigen::VectorXd& gram_rhs() const { return gram_rhs_; }                  // XᵀWy
  double weighted_yy() const { return weighted_yy_; }                            // yᵀWy

 private:
  void form_products();

  Eigen::MatrixXd weighted_columns_;
  Eigen::VectorXd weighted_y_;
  Eigen::MatrixXd gram_;
  Eigen::VectorXd gram_rhs_;
  double weighted_yy_ = 0;
};

struct LinearFit {
  Hypothesis hypothesis;
  Eigen::Vector3d coef = Eigen::Vector3d::Zero();            // first hypothesis.size entries used
  Eigen::Matrix3d inverse_normal = Eigen::Matrix3d::Zero();  // (XᵀWX)⁻¹: the covariance if σᵢ are right
  double chi2 = 0;
};

// Solves the hypothesis's normal equations; nullopt when its columns are (nearly) dependent on
// these samples, e.g. a p-term when every sample has the same p.
std::optional<LinearFit> solve(const WeightedDesign& design, const Hypothesis& hypothesis);

struct Validation {
  // Leave-one-out SMAPE: mean of 2|yᵢ − ŷ₋ᵢ|/(|yᵢ| + |ŷ₋ᵢ|) where ŷ₋ᵢ is predicted without
  // point i; +∞ when not computable (too few points, or a point that alone fixes a coefficient).
  double cv_error = 0;
  double chi2 = 0;               // Σ weighted residual², computed point by point
  double lowest_prediction = 0;  // smallest fitted value over the samples
};

// Leave-one-out cross-validation in closed form: the residual of point i when the fit is made
// without it is rᵢ/(1 − hᵢᵢ), hᵢᵢ the leverage, so one pass gives all N refits exactly. Keeps
// its work arrays between calls, for the thousands of hypotheses of one design; the design
// must outlive it.
class LeaveOneOut {
 public:
  explicit LeaveOneOut(const WeightedDesign& design);
  Validation operator()(const LinearFit& fit);

 private:
  const WeightedDesign& design_;
  Eigen::ArrayXd prediction_, leverage_;
};

// One validation without keeping work arrays.
Validation leave_one_out(const WeightedDesign& design, const LinearFit& fit);

// Q = Γ_upper((N − M)/2, χ²/2): the probability of a χ² this large if the law and the error
// estimates were right. 1 when there are no degrees of freedom.
double goodness_of_fit(double chi2, int points, int coefficients);

// Standard errors of the coefficients. When χ²/(N − M) > 1 the error estimates were too small
// for the scatter actually seen (systematic effects, not only timer noise), so the covariance is
// scaled by that ratio; smaller ratios leave it alone rather than shrink the errors on luck.
Eigen::Vector3d standard_errors(const LinearFit& fit, int points);

}  // namespace augur::fit
