#pragma once
// Text as the readers of files and options take it apart.
#include <string_view>

namespace augur::util {

// `text` without the characters of `blanks` at either end.
std::string_view trim(std::string_view text, std::string_view blanks = " \t\r\n\f\v");

}  // namespace augur::util
