#pragma once
// The "program" section of an application model file (docs/app-model-format.md), read with every
// check and written back: groups of ranks, their loops and operations, peers as rules, and every
// quantity a law, written as a bare expression when it is exact and as an object with its bounds
// and fit otherwise.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app_program.hpp"
#include "model/json_node.hpp"

namespace augur::app {

struct AppModel;

// Ordered, as the rest of the file: an operation reads {"op", "peer", "bytes", "tag"}.
using ProgramJson = nlohmann::ordered_json;

ProgramJson program_to_json(const AppProgram& program);
ProgramJson law_to_json(const Law& law);

// Throws model::ModelError naming the field and the reason; parse_app_model adds the line.
AppProgram read_program(const model::JsonNode<ProgramJson>& node);

// Every law of the program with its field's path ("program.groups[0].body[2].bytes").
void for_each_law(const AppProgram& program, const std::function<void(const Law&, const std::string&)>& visit);
// The path of a law's expression, or of its bound `which` ("low", "high"), inside the law's field.
std::string law_field(const Law& law, const std::string& field, const char* which = "expr");

// Compiles every law against p, the parameters and the constants at their first values; throws
// model::ModelError with the file, the line, the field and the reason.
void check_program_laws(const AppModel& app);

// Whether `op` is an operation a program may run: a message, a wait or a collective by its
// catalog name.
bool is_program_operation(const std::string& op);
bool is_collective_operation(const std::string& op);

}  // namespace augur::app
