#pragma once
// Message sizes as people write them: "217", "8KiB", "8kB", "1.5MiB", "1000ints", "64doubles".
// KiB/MiB/GiB are powers of 1024 and kB/KB/MB/GB powers of 1000 (IEC and SI), so "8KiB" and
// "8KB" are never confused. "ints" count in the model's int size (8 bytes on the T3D).
#include <string_view>

namespace augur::util {

// Returns bytes. Throws std::invalid_argument with a message that shows the accepted forms.
double parse_size(std::string_view text, int int_bytes);

}  // namespace augur::util
