#pragma once
// What every text report is held to: no number written with an exponent (times carry a unit
// instead), and no time printed as a row of zeros.
#include <regex>
#include <sstream>
#include <string>

namespace readable_text {

// The first number in `text` written with an exponent (1.5e-05, 2E+06), or "" if there is none.
inline std::string first_exponent(const std::string& text) {
  static const std::regex exponent(R"(\b[0-9]+(\.[0-9]+)?[eE][-+]?[0-9]+\b)");
  std::smatch m;
  return std::regex_search(text, m, exponent) ? m.str() : "";
}

// The first line holding a time printed as zeros with decimals ("0.000"), or "" if there is
// none: a zero is printed "0", so such a figure hides a time too short for its decimals.
inline std::string first_zero_with_decimals(const std::string& text) {
  static const std::regex zeros(R"((^|[ +-])0\.0+( |$))");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, zeros)) return line;
  return "";
}

}  // namespace readable_text
