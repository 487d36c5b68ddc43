#include "node/cache_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace augur::node {
namespace {

const std::filesystem::path kCacheDir = "/sys/devices/system/cpu/cpu0/cache";

std::string first_word(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

// sysfs writes sizes as "32K", "1024K" or "32M".
std::size_t parse_size(const std::string& text) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    return 0;
  }
  const char unit = used < text.size() ? text[used] : ' ';
  const std::size_t scale = unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024ull << 20 : 1;
  return std::size_t(value) * scale;
}

std::size_t largest_listed_cache() {
  std::size_t largest = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(kCacheDir, error)) {
    if (!entry.path().filename().string().starts_with("index")) continue;
    if (first_word(entry.path() / "type") == "Instruction") continue;
    largest = std::max(largest, parse_size(first_word(entry.path() / "size")));
  }
  return largest;
}

[[maybe_unused]] std::size_t from_sysconf(int name) {
  const long value = sysconf(name);
  return value > 0 ? std::size_t(value) : 0;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  if (const auto listed = largest_listed_cache()) return listed;
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  return std::max(from_sysconf(_SC_LEVEL3_CACHE_SIZE), from_sysconf(_SC_LEVEL2_CACHE_SIZE));
#else
  return 0;
#endif
}

std::size_t cache_line_bytes() {
  if (const auto line = parse_size(first_word(kCacheDir / "index0" / "coherency_line_size"))) return line;
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
  if (const auto line = from_sysconf(_SC_LEVEL1_DCACHE_LINESIZE)) return line;
#endif
  return 64;
}

}  // namespace augur::node
