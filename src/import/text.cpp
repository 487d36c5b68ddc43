#include "import/text.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "import/tables.hpp"
#include "util/text.hpp"

namespace augur::import {

bool Lines::next(std::string& line) {
  if (!std::getline(in_, line)) return false;
  ++number_;
  cut_off_ = in_.eof();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void Lines::fail(const std::string& reason) const { throw ImportError(source_, number_, reason); }

void Lines::fail_at(int line, const std::string& reason) const { throw ImportError(source_, line, reason); }

std::string_view trim(std::string_view text) { return util::trim(text, " \t"); }

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = text.find_first_not_of(" \t", at)) != std::string_view::npos) {
    const auto end = std::min(text.find_first_of(" \t", at), text.size());
    out.emplace_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

std::vector<std::string> header_columns(std::string_view text) {
  std::vector<std::string> out;
  text = trim(text);
  while (!text.empty()) {
    const auto gap = text.find("  ");
    out.emplace_back(trim(text.substr(0, gap)));
    if (gap == std::string_view::npos) break;
    text = trim(text.substr(gap));
  }
  return out;
}

double number_in(const Lines& lines, const std::string& word, const std::string& column) {
  double value = 0;
  const auto* end = word.data() + word.size();
  const auto [ptr, ec] = std::from_chars(word.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value))
    lines.fail(fmt::format("{}: '{}' is not a number", column, word));
  return value;
}

long long whole_number_in(const Lines& lines, const std::string& word, const std::string& column, long long low, long long high) {
  const double value = number_in(lines, word, column);
  // Compared as doubles before the cast: converting one beyond long long's range is undefined.
  if (value != std::floor(value) || value < static_cast<double>(low) || value > static_cast<double>(high))
    lines.fail(fmt::format("{}: '{}' is not a whole number from {} to {}", column, word, low, high));
  return static_cast<long long>(value);
}

double microseconds_in(const Lines& lines, const std::string& word, const std::string& column) {
  const double us = number_in(lines, word, column);
  if (us < 0) lines.fail(fmt::format("{}: negative time {} µs", column, word));
  return us * 1e-6;
}

double megabytes_per_second_in(const Lines& lines, const std::string& word, const std::string& column) {
  const double mb = number_in(lines, word, column);
  if (mb < 0) lines.fail(fmt::format("{}: negative bandwidth {}", column, word));
  return mb * 1e6;
}

void check_row_width(const Lines& lines, std::size_t values, std::size_t columns) {
  if (values == columns) return;
  lines.fail(lines.cut_off() && values < columns
                 ? fmt::format("the row ends after {} of its {} columns: the file is cut off", values, columns)
                 : fmt::format("a row of {} values in a table of {} columns", values, columns));
}

}  // namespace augur::import
