#include "util/write_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace augur::util {

std::optional<std::string> write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return std::strerror(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_error = errno;
  if (std::fclose(f) != 0) return std::strerror(errno);
  if (!written) return std::strerror(write_error);
  return std::nullopt;
}

}  // namespace augur::util
