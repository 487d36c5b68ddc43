#include "bench/resume.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace augur::bench {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

fit::RawSet reopen_raw_file(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  // Every record ends with a newline, so anything after the last one is an unfinished write.
  const auto complete = text.rfind('\n');
  const std::size_t keep = complete == std::string::npos ? 0 : complete + 1;
  if (keep < text.size()) std::filesystem::resize_file(path, keep);
  return fit::read_raw_file(path, /*tolerate_truncated_tail=*/false);
}

}  // namespace augur::bench
