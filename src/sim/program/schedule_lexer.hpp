#pragma once
// Tokens of the schedule language (docs/schedule-format.md), each with its line and column so
// every error can point at the text that caused it.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace augur::sim {

struct ScheduleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class TokenKind { identifier, number, symbol, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;  // numbers keep their unit: "8KiB", "1.5us"
  int line = 1, column = 1;
};

// Splits `text` into tokens; '#' starts a comment to the end of the line. Throws ScheduleError
// ("file:line:column: reason") at a character that starts no token.
std::vector<Token> tokenize(std::string_view text, const std::string& file);

}  // namespace augur::sim
