#include "cli/named_numbers.hpp"

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "util/numbers.hpp"

namespace augur::cli {

NamedNumber parse_named_number(const std::string& item, const NamedNumberOption& option) {
  const auto eq = item.find('=');
  const auto unread = [&] { return UsageError(fmt::format("{} {}: expected {}", option.flag, item, option.form)); };
  if (eq == std::string::npos || eq == 0) throw unread();
  const auto text = std::string_view(item).substr(eq + 1);
  const auto value = util::parse_number(text);
  if (!value && option.names_bad_number)
    throw UsageError(fmt::format("{} {}: '{}' is not a number", option.flag, item, text));
  if (!value) throw unread();
  return {item.substr(0, eq), *value};
}

}  // namespace augur::cli
