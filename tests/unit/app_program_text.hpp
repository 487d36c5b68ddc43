#pragma once
// Application model files written around a program section, for the tests of the program
// section (test_app_program.cpp, test_app_program_index.cpp).
#include <string>
#include <vector>

#include "app/app_model.hpp"
#include "model/error.hpp"
#include "sim/program/app_program.hpp"

namespace augur::test {

// An app model file around `program` (its JSON text), with a parameter n of `n_values`.
inline std::string app_text(const std::string& program, const std::string& n_values = "[64]") {
  return "{\"augur_app\": 1, \"name\": \"prog\",\n"
         "\"parameters\": {\"p\": {\"values\": [1, 2]}, \"n\": {\"values\": " + n_values + "}},\n"
         "\"constants\": {\"c\": 3},\n"
         "\"phases\": [{\"name\": \"all\", \"expr\": \"1\"}],\n"
         "\"program\": " + program + "}\n";
}

inline app::AppModel parsed(const std::string& program, const std::string& n_values = "[64]") {
  return app::parse_app_model(app_text(program, n_values), "app.json");
}

// The message of the error reading `program` gives, or "(no error)".
inline std::string error_of(const std::string& program) {
  try {
    parsed(program);
  } catch (const model::ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

// One group of all ranks running `body` (a JSON array's text).
inline std::string all_ranks(const std::string& body) {
  return "{\"groups\": [{\"ranks\": {\"first\": \"0\", \"last\": \"p-1\"}, \"body\": " + body + "}]}";
}

inline std::vector<sim::Op> ops_of(const sim::Program& p, int rank) {
  std::vector<sim::Op> ops;
  sim::Op op;
  for (std::uint32_t pc = 0; p.fetch(rank, pc, op); ++pc) ops.push_back(op);
  return ops;
}

}  // namespace augur::test
