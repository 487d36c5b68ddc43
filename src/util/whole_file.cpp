#include "util/whole_file.hpp"

#include <fstream>
#include <stdexcept>

namespace augur::util {

void write_whole_file(const std::filesystem::path& path, std::string_view text) {
  auto temp = path;
  temp += ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
    out << text;
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(temp);
      throw std::runtime_error(path.string() + ": write failed");
    }
  }
  std::filesystem::rename(temp, path);
}

}  // namespace augur::util
