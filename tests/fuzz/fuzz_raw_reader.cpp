// libFuzzer target: the raw-measurement reader must parse or raise a runtime_error naming the
// line; it must never crash or accept a record that breaks the format's rules.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fit/raw.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    auto set = augur::fit::parse_raw(in, "fuzz.jsonl", size % 2 == 0);
    for (const auto& m : set.points) augur::fit::check_measurement(m);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
