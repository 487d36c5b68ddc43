#include "sim/program/schedule_lexer.hpp"

#include <cctype>

#include <fmt/format.h>

namespace augur::sim {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// A number with an optional exponent and unit: 16, 1.5us, 8KiB, 3e-6, 2.5e3ms, 10µs.
std::size_t number_length(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (digit(s[i]) || s[i] == '.')) {
    if (s[i] == '.' && i + 1 < s.size() && s[i + 1] == '.') break;  // a range: 1..N
    ++i;
  }
  if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E') && (digit(s[i + 1]) || s[i + 1] == '-' || s[i + 1] == '+')) {
    i += 2;
    while (i < s.size() && digit(s[i])) ++i;
  }
  while (i < s.size() && (ident_char(s[i]) || static_cast<unsigned char>(s[i]) >= 0x80)) ++i;  // the unit
  return i;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  std::vector<Token> tokens;
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const int column = static_cast<int>(i - line_start) + 1;
    if (c == '\n') {
      ++line;
      line_start = ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == ';') {
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (ident_start(c)) {
      std::size_t n = 1;
      while (i + n < text.size() && ident_char(text[i + n])) ++n;
      tokens.push_back({TokenKind::identifier, text.substr(i, n), line, column});
      i += n;
    } else if (digit(c)) {
      const std::size_t n = number_length(text.substr(i));
      tokens.push_back({TokenKind::number, text.substr(i, n), line, column});
      i += n;
    } else if (c == '.' && i + 1 < text.size() && text[i + 1] == '.') {
      tokens.push_back({TokenKind::symbol, text.substr(i, 2), line, column});
      i += 2;
    } else if (std::string_view("{}()[]=,+-*/%^").find(c) != std::string_view::npos) {
      tokens.push_back({TokenKind::symbol, text.substr(i, 1), line, column});
      ++i;
    } else {
      throw ScheduleError(fmt::format("{}:{}:{}: unexpected character '{}'", file, line, column,
                                      std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                                  : fmt::format("\\x{:02x}", c & 0xff)));
    }
  }
  tokens.push_back({TokenKind::end, {}, line, static_cast<int>(text.size() - line_start) + 1});
  return tokens;
}

}  // namespace augur::sim
