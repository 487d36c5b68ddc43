#pragma once
// Exact integer laws: a count, a size or an offset that some simple law in p and n reproduces at
// every measured point (10, p − 1, p/2, log₂p, ⌈n/p⌉, 8·n²/p), found before any fit is tried, so
// a loop that runs p − 1 times is not learned as 0.98·p − 0.9.
#include <optional>
#include <string>
#include <vector>

#include "app/app_program.hpp"
#include "learn/law_fit.hpp"

namespace augur::learn {

// The first of the forms a·T, then a·T + c (T from exact_terms, a and c multiples of 1/8) that
// reproduces every point to rounding error, with cv_error 0 and low = high = expr; coefficients
// in the order of the form (p − 1: 1, −1). A form with two coefficients needs three distinct
// points, so it is not fitted to just the two it needs.
// `grid`: as exact_terms takes it.
std::optional<app::Law> exact_integer_law(const std::vector<LawPoint>& points, const std::string& parameter,
                                          PeerGrid grid = {});

// The law that every point's value is `value`: exact, with its one coefficient.
app::Law constant_law(double value);

}  // namespace augur::learn
