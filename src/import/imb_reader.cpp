#include "import/imb_reader.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "import/text.hpp"

namespace augur::import {
namespace {

constexpr long long kMostBytes = 1LL << 50;
constexpr long long kMostRepetitions = 1LL << 40;
constexpr long long kMostProcesses = 1LL << 24;

enum class Role { group, size, repetitions, time, min, max, bandwidth, ignored };

struct Column {
  std::string_view name;
  Role role;
};

// Every column IMB 2018 to 2021 prints; Mbytes/sec is 10^6 bytes a second.
constexpr auto kColumns = std::to_array<Column>({
    {"Group", Role::group},
    {"#bytes", Role::size},
    {"#repetitions", Role::repetitions},
    {"t[usec]", Role::time},
    {"t_avg[usec]", Role::time},
    {"t_pure[usec]", Role::time},
    {"t_min[usec]", Role::min},
    {"t_max[usec]", Role::max},
    {"Mbytes/sec", Role::bandwidth},
    {"Msg/sec", Role::ignored},
    {"t_ovrl[usec]", Role::ignored},
    {"t_CPU[usec]", Role::ignored},
    {"overlap[%]", Role::ignored},
    {"defects", Role::ignored},
});

std::optional<Role> role_of(std::string_view name) {
  for (const auto& c : kColumns)
    if (c.name == name) return c.role;
  return std::nullopt;
}

// A line "# KEY : VALUE" of the banner; the key padded with spaces.
std::optional<std::pair<std::string, std::string>> banner_entry(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto key = trim(text.substr(0, colon));
  if (key.empty() || key.find("  ") != std::string_view::npos) return std::nullopt;
  return std::pair{std::string(key), std::string(trim(text.substr(colon + 1)))};
}

class ImbReader {
 public:
  ImbReader(std::istream& in, const std::string& source) : lines_(in, source) {
    doc_.source = source;
    doc_.suite = "Intel MPI Benchmarks";
  }

  Document read() {
    std::string line;
    while (lines_.next(line)) {
      const auto text = trim(line);
      if (text.empty()) continue;
      if (role_of(words(text).front())) {
        header(words(text));
      } else if (text.front() == '#') {
        comment(trim(text.substr(1)));
      } else {
        row(text);
      }
    }
    if (doc_.version.empty())
      lines_.fail_at(std::max(lines_.number(), 1), "no 'Intel(R) MPI Benchmarks' banner: not IMB output");
    for (const auto& t : doc_.tables) check_complete(t);
    return std::move(doc_);
  }

 private:
  void comment(std::string_view text) {
    if (const auto at = text.find("MPI Benchmarks "); at != std::string_view::npos && doc_.version.empty()) {
      auto version = text.substr(at + 15);
      doc_.version = std::string(trim(version.substr(0, version.find(','))));
      return;
    }
    if (text.starts_with("Benchmarking ")) return benchmark(std::string(trim(text.substr(13))));
    if (text.starts_with("#processes =")) {
      const auto w = words(text.substr(12));  // "N" or, with a rank order, "N; rank order (rowwise):"
      processes_ = static_cast<int>(whole_number_in(lines_, w.empty() ? "" : w[0].substr(0, w[0].find(';')), "#processes", 1, kMostProcesses));
      return;
    }
    if (text.starts_with("( ") && text.find(" groups of ") != std::string_view::npos) {
      const auto w = words(text);  // ( G groups of N processes each running simultaneous )
      if (w.size() > 4) {
        groups_ = static_cast<int>(whole_number_in(lines_, w[1], "groups", 1, kMostProcesses));
        group_size_ = static_cast<int>(whole_number_in(lines_, w[4], "group size", 1, kMostProcesses));
        if (static_cast<long long>(groups_) * group_size_ > kMostProcesses)
          lines_.fail(fmt::format("{} groups of {} processes: more than {} processes", groups_, group_size_, kMostProcesses));
      }
      return;
    }
    if (text.starts_with("Maximum message length in bytes:")) {
      max_bytes_ = static_cast<double>(whole_number_in(lines_, std::string(trim(text.substr(32))), "maximum message length", 0, kMostBytes));
      return;
    }
    if (text.starts_with("Calling sequence was:")) {
      calling_sequence_next_ = true;
      return;
    }
    if (calling_sequence_next_ && !text.empty()) {
      doc_.lines.emplace_back("Calling sequence", std::string(text));
      calling_sequence_next_ = false;
      return;
    }
    if (benchmark_.empty() && !doc_.version.empty())
      if (auto entry = banner_entry(text); entry && !entry->second.empty()) doc_.lines.push_back(std::move(*entry));
  }

  void benchmark(std::string name) {
    if (doc_.version.empty()) lines_.fail("'# Benchmarking' before the 'Intel(R) MPI Benchmarks' banner: not IMB output");
    if (name.empty()) lines_.fail("'# Benchmarking' without a benchmark's name");
    benchmark_ = std::move(name);
    benchmark_line_ = lines_.number();
    processes_ = 0;
    group_size_ = 0;
    groups_ = 0;
    columns_.clear();
  }

  void header(const std::vector<std::string>& names) {
    if (benchmark_.empty()) lines_.fail("a table header before any '# Benchmarking' line: not IMB output");
    columns_.clear();
    for (const auto& n : names) {
      const auto role = role_of(n);
      if (!role) lines_.fail(fmt::format("column '{}' is not one IMB prints (another tool's output, or other units?)", n));
      columns_.push_back(*role);
    }
    if (std::count(columns_.begin(), columns_.end(), Role::time) != 1 &&
        std::count(columns_.begin(), columns_.end(), Role::bandwidth) != 1)
      lines_.fail("a table without a time or bandwidth column");
    if (processes_ == 0 && group_size_ == 0)
      lines_.fail(fmt::format("{}: neither '# #processes = N' nor '# ( G groups of N processes … )' before its table", benchmark_));
  }

  Table& table_for(std::optional<int> group) {
    for (auto it = doc_.tables.rbegin(); it != doc_.tables.rend() && it->line == benchmark_line_; ++it)
      if (it->group == group) return *it;
    Table t;
    t.line = benchmark_line_;
    t.benchmark = benchmark_;
    t.processes = group_size_ > 0 ? group_size_ : processes_;
    t.group = group;
    if (groups_ > 0) t.groups = groups_;
    doc_.tables.push_back(std::move(t));
    return doc_.tables.back();
  }

  void row(std::string_view text) {
    if (doc_.version.empty()) lines_.fail("a line before the 'Intel(R) MPI Benchmarks' banner: not IMB output");
    if (columns_.empty()) lines_.fail(fmt::format("'{}' is outside any table", text));
    const auto values = words(text);
    // A size IMB could not measure: "[GROUP] 65536 time-out.; …", "… out-of-mem.; …".
    const auto failure = std::find_if(values.begin(), values.end(), [](const std::string& w) {
      return w.starts_with("time-out") || w.starts_with("out-of-mem") || w.starts_with("int-overflow");
    });
    if (failure != values.end() && failure != values.begin()) {
      doc_.notes.push_back(fmt::format("{}:{}: {} at {} bytes: {}", doc_.source, lines_.number(), benchmark_, *(failure - 1), *failure));
      failed_sample_ = true;
      return;
    }
    check_row_width(lines_, values.size(), columns_.size());
    Row r;
    r.line = lines_.number();
    std::optional<int> group;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (columns_[i] == Role::group)
        group = static_cast<int>(whole_number_in(lines_, values[i], "#group", 0, kMostProcesses));
      else
        value(r, columns_[i], values[i]);
    }
    if (r.min_seconds && r.max_seconds && r.seconds && !(*r.min_seconds <= *r.seconds && *r.seconds <= *r.max_seconds))
      lines_.fail("t_avg lies outside the row's t_min and t_max");
    auto& rows = table_for(group).rows;
    if (!rows.empty() && std::count(columns_.begin(), columns_.end(), Role::size) == 1 && r.bytes <= rows.back().bytes)
      lines_.fail(fmt::format("#bytes {} after {}: sizes must grow down a table", values[columns_[0] == Role::group], rows.back().bytes));
    rows.push_back(r);
  }

  void value(Row& r, Role role, const std::string& word) {
    switch (role) {
      case Role::size: r.bytes = static_cast<double>(whole_number_in(lines_, word, "#bytes", 0, kMostBytes)); break;
      case Role::repetitions:
        r.iterations = static_cast<long>(whole_number_in(lines_, word, "#repetitions", 1, kMostRepetitions));
        break;
      case Role::time: r.seconds = microseconds_in(lines_, word, "t[usec]"); break;
      case Role::min: r.min_seconds = microseconds_in(lines_, word, "t_min[usec]"); break;
      case Role::max: r.max_seconds = microseconds_in(lines_, word, "t_max[usec]"); break;
      case Role::bandwidth: r.bandwidth = megabytes_per_second_in(lines_, word, "Mbytes/sec"); break;
      case Role::group:
      case Role::ignored: break;
    }
  }

  // A table whose sizes stop short of the banner's maximum was cut off, unless IMB said why.
  void check_complete(const Table& t) const {
    if (t.rows.empty()) lines_.fail_at(t.line, fmt::format("{}: a table without rows (truncated?)", t.benchmark));
    if (max_bytes_ && !failed_sample_ && t.rows.back().bytes > 0 && t.rows.back().bytes < *max_bytes_)
      lines_.fail_at(t.rows.back().line, fmt::format("{}: the table stops at {} bytes, short of the maximum message length {} "
                                                     "the banner gives (the file is cut off)",
                                                     t.benchmark, t.rows.back().bytes, *max_bytes_));
  }

  Lines lines_;
  Document doc_;
  std::string benchmark_;
  int benchmark_line_ = 0, processes_ = 0, group_size_ = 0, groups_ = 0;
  std::vector<Role> columns_;
  std::optional<double> max_bytes_;
  bool calling_sequence_next_ = false, failed_sample_ = false;
};

}  // namespace

Document read_imb(std::istream& in, const std::string& source) { return ImbReader(in, source).read(); }

}  // namespace augur::import
