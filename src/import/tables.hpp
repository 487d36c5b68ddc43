#pragma once
// What a benchmark suite's output file printed, table by table, in seconds and bytes, before it
// means anything to a model: the readers (omb_reader.hpp, imb_reader.hpp) fill it and
// raw_records.hpp turns it into raw measurements.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace augur::import {

struct Row {
  int line = 0;      // line of the file
  double bytes = 0;  // the size column; 0 where the table has none (barrier)
  // The table's headline time (OMB's latency or average latency, the non-blocking collectives'
  // pure communication time; IMB's t[usec] or t_avg[usec]), seconds; none in a bandwidth table.
  std::optional<double> seconds;
  std::optional<double> min_seconds, max_seconds;  // over the ranks, where printed
  std::optional<double> bandwidth;                 // bytes per second, where printed
  std::optional<long> iterations;                  // repetitions, where printed
};

struct Table {
  int line = 0;           // the line that names the benchmark
  std::string benchmark;  // as the file names it: "OSU MPI Latency Test", "PingPong"
  std::string datatype;   // as the file names it, when it does ("MPI_CHAR")
  int processes = 0;      // as the file says; 0 when it does not
  std::optional<int> group;   // IMB -multi: the group the rows are of
  std::optional<int> groups;  // IMB -multi: how many groups ran at once (`processes` each)
  std::optional<int> window;  // messages in flight, where the file states it (OMB's osu_mbw_mr)
  std::vector<Row> rows;
};

// One file: which suite and version printed it, the lines that say where and when (IMB's
// Date, Machine, System …), and its tables in the order printed.
struct Document {
  std::string source;  // the file's name
  std::string suite;   // "OSU Micro-Benchmarks" or "Intel MPI Benchmarks"
  std::string version;
  std::vector<std::pair<std::string, std::string>> lines;
  std::vector<Table> tables;
  std::vector<std::string> notes;  // rows the file printed without a measurement (an IMB time-out)
};

// "FILE:LINE: REASON", for input that is not what its reader expects.
struct ImportError : std::runtime_error {
  ImportError(const std::string& source, int line, const std::string& reason)
      : std::runtime_error(source + ":" + std::to_string(line) + ": " + reason) {}
};

}  // namespace augur::import
