#pragma once
// Numbers as a reader of a data sheet wants them: times in µs (ms or s once they grow), sizes in
// B, KiB and MiB (powers of 1024, as message sizes are chosen), rates with SI prefixes.
#include <string>

namespace augur::report {

std::string readable_bytes(double bytes);              // "8 B", "64 KiB", "1.5 MiB"
std::string readable_seconds(double seconds);          // "1.6 ns", "0.5 µs", "312 µs", "12.5 ms", "2.1 s"
std::string readable_rate(double per_second, const std::string& unit);  // "88.9 MB/s", "8.1 Gflop/s"

}  // namespace augur::report
