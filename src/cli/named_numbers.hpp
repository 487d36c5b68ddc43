#pragma once
// The NAME=NUMBER items of an option given once per item (`augur sim --set n=1024`,
// `augur plot --set`, `augur learn --param`): a name, and a number as util/numbers.hpp reads it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace augur::cli {

struct NamedNumber {
  std::string name;
  double value = 0;
};

// What an option says of an item it cannot read: "FLAG ITEM: expected FORM", such as
// "--set n: expected NAME=NUMBER, e.g. --set n=1024". An item whose number alone is wrong gets
// the same sentence, or, when `names_bad_number`, "FLAG ITEM: 'x' is not a number".
struct NamedNumberOption {
  std::string_view flag;
  std::string_view form;
  bool names_bad_number = false;
};

// Throws UsageError.
NamedNumber parse_named_number(const std::string& item, const NamedNumberOption& option);

// Every item into a map of name to number; a name given again takes its later number.
template <class Map>
Map parse_named_numbers(const std::vector<std::string>& items, const NamedNumberOption& option) {
  Map numbers;
  for (const auto& item : items) {
    auto [name, value] = parse_named_number(item, option);
    numbers[std::move(name)] = value;
  }
  return numbers;
}

}  // namespace augur::cli
