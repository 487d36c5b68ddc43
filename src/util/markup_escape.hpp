#pragma once
// Text made safe inside XML or HTML, in element content and in double-quoted attributes.
#include <string>
#include <string_view>

namespace augur::util {

std::string markup_escaped(std::string_view text);

}  // namespace augur::util
