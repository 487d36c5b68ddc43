#include "import/omb_reader.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "import/text.hpp"

namespace augur::import {
namespace {

constexpr long long kMostBytes = 1LL << 50;
constexpr long long kMostRepetitions = 1LL << 40;
constexpr long long kMostPairs = 1LL << 23;

enum class Role { size, time, min, max, iterations, bandwidth, ignored };

struct Column {
  std::string_view name;
  Role role;
};

// Every column OMB 5.x to 7.x prints; a header with any other is not OMB's (or in other units).
constexpr auto kColumns = std::to_array<Column>({
    {"Size", Role::size},
    {"Latency (us)", Role::time},
    {"Latency(us)", Role::time},
    {"Avg Latency(us)", Role::time},
    {"Pure Comm.(us)", Role::time},
    {"Min Latency(us)", Role::min},
    {"Min Comm.(us)", Role::min},
    {"Max Latency(us)", Role::max},
    {"Max Comm.(us)", Role::max},
    {"Iterations", Role::iterations},
    {"Bandwidth (MB/s)", Role::bandwidth},
    {"MB/s", Role::bandwidth},
    {"Messages/s", Role::ignored},
    {"Overall(us)", Role::ignored},
    {"Compute(us)", Role::ignored},
    {"Coll. Init(us)", Role::ignored},
    {"MPI_Test(us)", Role::ignored},
    {"MPI_Wait(us)", Role::ignored},
    {"Overlap(%)", Role::ignored},
    {"Validation", Role::ignored},
    {"Transmit Size", Role::ignored},
});

std::optional<Role> role_of(std::string_view name) {
  for (const auto& c : kColumns)
    if (c.name == name) return c.role;
  // -ta's tail columns: "P99 Tail Lat(us)", "P50 Tail BW(MB/s)".
  if (name.starts_with("P") && (name.ends_with(" Tail Lat(us)") || name.ends_with(" Tail BW(MB/s)"))) return Role::ignored;
  return std::nullopt;
}

// The accelerator suffixes of the name line ("OSU MPI-CUDA Latency Test").
constexpr auto kDeviceMarks = std::to_array<std::string_view>({"MPI-CUDA", "MPI-ROCM", "MPI-OPENACC", "MPI-MANAGED"});

bool names_a_device_buffer(std::string_view line) {
  return line.find("DEVICE (D)") != std::string_view::npos || line.find("MANAGED (M)") != std::string_view::npos;
}

// The benchmarks between two ranks: their output does not say so, since it cannot be otherwise.
bool is_pair_benchmark(std::string_view name) {
  return name == "OSU MPI Latency Test" || name == "OSU MPI Bandwidth Test" || name == "OSU MPI Bi-Directional Bandwidth Test";
}

class OmbReader {
 public:
  OmbReader(std::istream& in, const std::string& source) : lines_(in, source) { doc_.source = source; doc_.suite = "OSU Micro-Benchmarks"; }

  Document read() {
    std::string line;
    while (lines_.next(line)) {
      const auto text = trim(line);
      if (text.empty()) {
        columns_.clear();
      } else if (text.front() == '#') {
        comment(trim(text.substr(1)));
      } else {
        row(text);
      }
    }
    if (benchmark_.empty())
      lines_.fail_at(std::max(lines_.number(), 1), "no '# OSU MPI … Test' line: not OSU Micro-Benchmarks output");
    for (const auto& t : doc_.tables)
      if (t.rows.empty()) lines_.fail_at(t.line, fmt::format("{}: a table header without rows (truncated?)", t.benchmark));
    return std::move(doc_);
  }

 private:
  void comment(std::string_view text) {
    if (text.starts_with("OSU ") && text.find(" Test") != std::string_view::npos) return name_line(text);
    if (text.starts_with("[ pairs:")) return pairs_line(text);
    if (text.starts_with("Datatype:")) {
      datatype_ = std::string(trim(text.substr(9)));
      if (datatype_.ends_with('.')) datatype_.pop_back();
      return;
    }
    if (names_a_device_buffer(text))
      lines_.fail(fmt::format("{}: a run on GPU buffers ('{}'); augur's model has no devices yet, so import a run on host buffers",
                              benchmark_, text));
    const auto columns = header_columns(text);
    if (!columns.empty() && role_of(columns.front())) header(columns);
  }

  void name_line(std::string_view text) {
    std::string name(text);
    if (const auto v = name.rfind(" v"); v != std::string::npos && v + 2 < name.size() && std::isdigit(static_cast<unsigned char>(name[v + 2]))) {
      const auto version = name.substr(v + 2);
      if (!doc_.version.empty() && doc_.version != version)
        lines_.fail(fmt::format("version {} after version {}: the file mixes two OMB versions", version, doc_.version));
      doc_.version = version;
      name.resize(v);
    }
    for (auto mark : kDeviceMarks)
      if (name.find(mark) != std::string::npos)
        lines_.fail(fmt::format("{}: a run on GPU buffers; augur's model has no devices yet, so import a run on host buffers", name));
    benchmark_ = name;
    benchmark_line_ = lines_.number();
    pairs_ = 0;
    window_.reset();
    datatype_.clear();
    columns_.clear();
  }

  // osu_mbw_mr's "[ pairs: N ] [ window size: W ]": its process count and window.
  void pairs_line(std::string_view text) {
    const auto w = words(text);  // [ pairs: N ] [ window size: W ]
    if (w.size() < 9 || w[1] != "pairs:" || w[5] != "window" || w[6] != "size:")
      lines_.fail(fmt::format("'{}' is not OMB's '[ pairs: N ] [ window size: W ]'", text));
    pairs_ = static_cast<int>(whole_number_in(lines_, w[2], "pairs", 1, kMostPairs));
    window_ = static_cast<int>(whole_number_in(lines_, w[7], "window size", 1, kMostPairs));
  }

  void header(const std::vector<std::string>& columns) {
    if (benchmark_.empty()) lines_.fail("a table header before any '# OSU MPI … Test' line: not OSU Micro-Benchmarks output");
    columns_.clear();
    for (const auto& c : columns) {
      const auto role = role_of(c);
      if (!role) lines_.fail(fmt::format("column '{}' is not one OMB prints (another tool's output, or other units?)", c));
      columns_.push_back(*role);
    }
    const auto has = [&](Role r) { return std::count(columns_.begin(), columns_.end(), r) == 1; };
    if (!has(Role::time) && !has(Role::bandwidth))
      lines_.fail("a table without a latency or bandwidth column");
    Table table;
    table.line = benchmark_line_;
    table.benchmark = benchmark_;
    table.datatype = datatype_;
    table.processes = is_pair_benchmark(benchmark_) ? 2 : 2 * pairs_;
    table.window = window_;
    doc_.tables.push_back(std::move(table));
  }

  void row(std::string_view text) {
    if (benchmark_.empty()) lines_.fail("a line of data before any '# OSU MPI … Test' line: not OSU Micro-Benchmarks output");
    if (columns_.empty()) lines_.fail(fmt::format("'{}' is outside any table", text));
    const auto values = words(text);
    check_row_width(lines_, values.size(), columns_.size());
    Row r;
    r.line = lines_.number();
    for (std::size_t i = 0; i < values.size(); ++i) value(r, columns_[i], values[i]);
    if ((r.min_seconds && r.seconds && *r.min_seconds > *r.seconds) || (r.max_seconds && r.seconds && *r.max_seconds < *r.seconds))
      lines_.fail("the average latency lies outside the row's min and max");
    auto& rows = doc_.tables.back().rows;
    if (!rows.empty() && r.bytes <= rows.back().bytes && columns_.front() == Role::size)
      lines_.fail(fmt::format("size {} after size {}: sizes must grow down a table", values.front(), rows.back().bytes));
    rows.push_back(r);
  }

  void value(Row& r, Role role, const std::string& word) {
    switch (role) {
      case Role::size: r.bytes = static_cast<double>(whole_number_in(lines_, word, "Size", 0, kMostBytes)); break;
      case Role::time: r.seconds = microseconds_in(lines_, word, "latency"); break;
      case Role::min: r.min_seconds = microseconds_in(lines_, word, "min latency"); break;
      case Role::max: r.max_seconds = microseconds_in(lines_, word, "max latency"); break;
      case Role::iterations: r.iterations = static_cast<long>(whole_number_in(lines_, word, "Iterations", 1, kMostRepetitions)); break;
      case Role::bandwidth: r.bandwidth = megabytes_per_second_in(lines_, word, "bandwidth"); break;
      case Role::ignored: break;
    }
  }

  Lines lines_;
  Document doc_;
  std::string benchmark_, datatype_;
  int benchmark_line_ = 0, pairs_ = 0;
  std::optional<int> window_;
  std::vector<Role> columns_;
};

}  // namespace

Document read_omb(std::istream& in, const std::string& source) { return OmbReader(in, source).read(); }

}  // namespace augur::import
