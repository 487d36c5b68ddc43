#pragma once
// Reading a benchmark's text output line by line: the words of a line and its numbers, each
// number checked, and every error naming the file and the line.
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace augur::import {

class Lines {
 public:
  Lines(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}
  // The next line without its end (and without a carriage return); false at the end.
  bool next(std::string& line);
  int number() const { return number_; }
  // Whether the line last read ended without a newline: the file was cut off there.
  bool cut_off() const { return cut_off_; }
  const std::string& source() const { return source_; }
  [[noreturn]] void fail(const std::string& reason) const;
  [[noreturn]] void fail_at(int line, const std::string& reason) const;

 private:
  std::istream& in_;
  std::string source_;
  int number_ = 0;
  bool cut_off_ = false;
};

std::string_view trim(std::string_view text);
std::vector<std::string> words(std::string_view text);
// Columns of a fixed-width header, separated by two or more spaces.
std::vector<std::string> header_columns(std::string_view text);
// The whole word as a finite number, or an error naming the line and the column.
double number_in(const Lines& lines, const std::string& word, const std::string& column);
// A whole number in [low, high] (a size, a count), or an error naming the line and the column.
long long whole_number_in(const Lines& lines, const std::string& word, const std::string& column, long long low, long long high);
// A time in µs as printed, in seconds; a negative time is an error.
double microseconds_in(const Lines& lines, const std::string& word, const std::string& column);

// A bandwidth in MB/s as printed (10^6 bytes a second, as both suites count them), in bytes a
// second; a negative one is an error.
double megabytes_per_second_in(const Lines& lines, const std::string& word, const std::string& column);
// Fails unless a row has one value for each of the table's columns; a short last line without
// its newline is a file cut off.
void check_row_width(const Lines& lines, std::size_t values, std::size_t columns);

}  // namespace augur::import
