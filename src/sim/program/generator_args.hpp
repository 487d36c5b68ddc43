#pragma once
// The key=value parameters of `augur sim --generate NAME …`, shared by the collective and the
// program generators: each generator takes the keys it knows and any left over are an error.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace augur::sim {

class GeneratorArgs {
 public:
  explicit GeneratorArgs(const std::vector<std::string>& args);  // throws on text that is not key=value

  // Takes `key` out, or gives the default.
  std::string text(std::string_view key, std::string fallback);
  // An integer in [low, high]; throws std::invalid_argument naming the key.
  long integer(std::string_view key, long fallback, long low, long high);
  double bytes(std::string_view key, std::string_view fallback);    // "8KiB" → 8192
  double seconds(std::string_view key, std::string_view fallback);  // "10us" → 1e-5
  // Throws naming the first key no generator took.
  void expect_empty(std::string_view generator) const;

 private:
  std::map<std::string, std::string, std::less<>> args_;
};

}  // namespace augur::sim
