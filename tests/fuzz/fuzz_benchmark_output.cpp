// libFuzzer target for both benchmark-output readers (the first byte picks OMB or IMB): each
// must parse or raise an ImportError naming the line, never crash, and what it parses must
// become raw records that keep the format's rules.
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <sstream>
#include <string>

#include "fit/raw.hpp"
#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"
#include "import/raw_records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  try {
    const auto doc = data[0] % 2 == 0 ? augur::import::read_omb(in, "fuzz.txt") : augur::import::read_imb(in, "fuzz.txt");
    // Bandwidth tables become times per message; every table gets a block placement of 3 a node.
    const auto imported = augur::import::to_raw({doc}, {.processes = 4, .machine_name = {}, .ranks_per_node = 3});
    // IMB -multi's bandwidth groups become passes of one point at all the groups' processes.
    for (const auto& m : imported.raw.points) augur::fit::check_measurement(m);
    for (const auto& t : doc.tables)
      if (t.groups && (*t.groups < 1 || t.processes < 1 || static_cast<long long>(*t.groups) * t.processes > (1LL << 24)))
        std::abort();
  } catch (const augur::import::ImportError&) {
  }
  return 0;
}
