#pragma once
// Numbers and names as people read them. Inside the code times are seconds and sizes bytes
// (docs/architecture.md); every text report turns them into text here, so a time reads
// "12.35 ms" wherever it is printed, never 1.235e-02 or 0.000. Operation names of the model
// (isend1, bcast_root …) become MPI's own (MPI_Isend, MPI_Bcast (root)). JSON output keeps the
// exact values and the model's names.
#include <string>
#include <string_view>

namespace augur::model {

// A unit of time for reading: `seconds` of them make one second's worth, e.g. {"ms", 1e-3}.
struct TimeUnit {
  std::string_view name;
  double seconds;
};

// The unit in which `seconds` reads between 1 and 1000 (s from one second up, ns below 1 µs).
TimeUnit time_unit_for(double seconds);

// `value` with `figures` significant figures in plain decimal notation, trailing zeros dropped:
// 1234.5 → "1235", 0.012345 → "0.01235", 2.50 → "2.5". Never an exponent.
std::string significant(double value, int figures = 4);

// A time with its unit and four significant figures: "1.5 s", "12.35 ms", "250 µs", "0.3 ns".
// Below a picosecond, which no clock here resolves, it is the residue of subtracting nearly
// equal times and reads "0 s".
std::string format_seconds(double seconds);

// A duration for a person: "42s", "3m05s", "1h02m".
std::string format_duration(double seconds);

// A size in B, KiB, MiB or GiB (powers of 1024): "512 B", "1.5 KiB", "64 MiB"; a crossover
// between two laws need not fall on a whole byte: "156.2 B".
std::string format_bytes(double bytes);

// A rate of `unit` per second with an SI prefix: "88.9 MB/s", "8.1 Gflop/s", "512 B/s".
std::string format_rate(double per_second, std::string_view unit);

// MPI's name for a model or ledger operation: "isend1" → "MPI_Isend", "irecv2" →
// "MPI_Wait (Irecv)", "bcast_root" → "MPI_Bcast (root)", "pingpong" → "ping-pong
// (MPI_Send/MPI_Recv)". A name that is already MPI's (MPI_Put) is returned unchanged.
std::string mpi_name(std::string_view operation);

// Whether an operation is the making of a communicator (MPI_Comm_dup, _split, _create and the
// topology constructors the reverse profiler records under these names): collective over its
// parent, and priced as a reduction.
inline bool creates_communicator(std::string_view operation) {
  return operation == "comm_dup" || operation == "comm_split" || operation == "comm_create";
}

}  // namespace augur::model
