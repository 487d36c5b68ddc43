#pragma once
// An application's design as equations (the seed's gnuplot models of mandel, life, outer …):
// parameters with ranges, constants, named terms and phases written over the machine's
// operation times t<op>(p, d) and the node's compute terms. The file format is
// docs/app-model-format.md; reading it checks every rule and every expression, and throws
// model::ModelError naming the file (with the line where it can be found), the field and the
// reason.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/app_program.hpp"

namespace augur::app {

inline constexpr int kAppFormatVersion = 1;
inline constexpr std::size_t kMaxValues = 4096;       // values one parameter may take
inline constexpr std::size_t kMaxCombinations = 64;   // lines a plot may get from the other parameters

struct Parameter {
  std::string name;
  std::vector<double> values;
  bool doubling = false;  // values double from one to the next (drawn on a logarithmic axis)
};

// A term or a phase: a name and an expression, with where it was written for error messages.
struct Definition {
  std::string name, expr;
  std::string field;  // JSON path, e.g. "phases[1].expr"
};

struct Constant {
  std::string name;
  double value = 0;
};

struct AppModel {
  std::string file;  // as given, for messages
  std::string text;  // the file's text, to find a field's line
  std::string name, description, source;
  std::string size_unit = "bytes";  // what d counts in t<op>(p, d): "bytes" or "ints" (the machine's)
  Parameter processes;              // the parameter named p
  std::vector<Parameter> parameters;  // the others, in the file's order
  std::vector<Constant> constants;
  std::vector<Definition> terms, phases;
  std::optional<AppProgram> program;  // what each rank does, for `augur sim --app` (app_program.hpp)

  // "FILE:LINE" when the field's value can be found in the text, else "FILE".
  std::string where(const std::string& field_value) const;
};

AppModel parse_app_model(std::string_view text, const std::string& file);
AppModel load_app_model(const std::filesystem::path& path);

}  // namespace augur::app
