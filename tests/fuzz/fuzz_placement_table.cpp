// libFuzzer target: any byte string handed to the rank-to-node file's parser must either give a
// placement or raise std::invalid_argument; a placement must place its own ranks and shape any
// group of them. Anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "timing/placement.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto placement = augur::timing::parse_placement_table(text, "fuzz.nodes");
    std::vector<int> ranks;
    for (int r = 0; r < 64; ++r) {
      try {
        (void)placement.node_of(r);
      } catch (const std::invalid_argument&) {
        break;
      }
      ranks.push_back(r);
    }
    (void)placement.shape(ranks);
    (void)placement.describe();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
