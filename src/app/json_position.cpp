#include "app/json_position.hpp"

#include <cctype>
#include <regex>

namespace augur::app {
namespace {

constexpr auto npos = std::string_view::npos;

std::size_t skip_space(std::string_view t, std::size_t i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// The offset just after the string whose opening quote is at `i`.
std::size_t skip_string(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') ++i;
    else if (t[i] == '"') return i + 1;
  }
  return npos;
}

// The offset just after the value starting at `i`.
std::size_t skip_value(std::string_view t, std::size_t i) {
  if (i >= t.size()) return npos;
  if (t[i] == '"') return skip_string(t, i);
  if (t[i] != '{' && t[i] != '[') {
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
    return i;
  }
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == '"') {
      i = skip_string(t, i);
      if (i == npos) return npos;
      --i;
    } else if (t[i] == '{' || t[i] == '[') {
      ++depth;
    } else if ((t[i] == '}' || t[i] == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return npos;
}

// The value of member `key` of the object at `i`.
std::size_t member(std::string_view t, std::size_t i, std::string_view key) {
  if (i >= t.size() || t[i] != '{') return npos;
  i = skip_space(t, i + 1);
  while (i < t.size() && t[i] == '"') {
    const auto end = skip_string(t, i);
    if (end == npos) return npos;
    const bool found = t.substr(i + 1, end - i - 2) == key;
    i = skip_space(t, end);
    if (i >= t.size() || t[i] != ':') return npos;
    i = skip_space(t, i + 1);
    if (found) return i;
    i = skip_space(t, skip_value(t, i));
    if (i >= t.size() || t[i] != ',') return npos;
    i = skip_space(t, i + 1);
  }
  return npos;
}

// Element `index` of the array at `i`.
std::size_t element(std::string_view t, std::size_t i, std::size_t index) {
  if (i >= t.size() || t[i] != '[') return npos;
  i = skip_space(t, i + 1);
  for (std::size_t k = 0; k < index; ++k) {
    i = skip_space(t, skip_value(t, i));
    if (i >= t.size() || t[i] != ',') return npos;
    i = skip_space(t, i + 1);
  }
  return i < t.size() && t[i] != ']' ? i : npos;
}

}  // namespace

std::size_t offset_of_path(std::string_view text, const std::string& path) {
  static const std::regex part(R"(([^.\[\]]+)|\[(\d+)\])");
  std::size_t pos = skip_space(text, 0);
  for (auto it = std::sregex_iterator(path.begin(), path.end(), part); it != std::sregex_iterator(); ++it) {
    pos = (*it)[1].matched ? member(text, pos, (*it)[1].str()) : element(text, pos, std::stoul((*it)[2].str()));
    if (pos == npos) return npos;
  }
  return pos;
}

}  // namespace augur::app
