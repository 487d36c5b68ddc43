#pragma once
// A JSON value with the path that leads to it, so every complaint about a file can name its
// field: the checks the model loader and the application-model reader share. `Json` is
// nlohmann::json, or nlohmann::ordered_json where a file's order matters.
#include <cmath>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "model/error.hpp"

namespace augur::model {

template <class Json>
struct JsonNode {
  const Json& value;
  std::string path;
  const std::string& file;

  [[noreturn]] void fail(const std::string& reason) const { throw ModelError(file, path, reason); }

  JsonNode child(const std::string& key) const { return {value.at(key), path.empty() ? key : path + "." + key, file}; }
  JsonNode element(std::size_t i) const { return {value.at(i), fmt::format("{}[{}]", path, i), file}; }
  bool has(const std::string& key) const { return value.contains(key); }

  const Json& object(std::initializer_list<const char*> allowed) const {
    if (!value.is_object()) fail("expected an object, found " + std::string(value.type_name()));
    std::set<std::string_view> known(allowed.begin(), allowed.end());
    for (const auto& [key, _] : value.items())
      if (!known.contains(key)) fail(fmt::format("unknown field '{}'", key));
    return value;
  }
  JsonNode required(const std::string& key) const {
    if (!has(key)) fail(fmt::format("missing required field '{}'", key));
    return child(key);
  }
  std::string string() const {
    if (!value.is_string()) fail("expected a string, found " + std::string(value.type_name()));
    return value.template get<std::string>();
  }
  double number() const {
    if (!value.is_number()) fail("expected a number, found " + std::string(value.type_name()));
    double v = value.template get<double>();
    if (!std::isfinite(v)) fail("must be a finite number");
    return v;
  }
  double non_negative() const {
    double v = number();
    if (v < 0) fail(fmt::format("must not be negative (found {})", v));
    return v;
  }
  double positive() const {
    double v = number();
    if (v <= 0) fail(fmt::format("must be greater than 0 (found {})", v));
    return v;
  }
  int integer(int lo, int hi) const {
    double v = number();
    if (v != std::floor(v) || v < lo || v > hi) fail(fmt::format("must be an integer in {}..{}", lo, hi));
    return static_cast<int>(v);
  }
  std::string optional_string(const std::string& key) const { return has(key) ? child(key).string() : ""; }
};

}  // namespace augur::model
