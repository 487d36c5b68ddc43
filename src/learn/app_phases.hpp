#pragma once
// A learned program's phases as a design-time application model writes them (equations of p,
// the problem size and the machine's t<op>(p, d), in µs), so `augur plot` draws its time and
// speedup beside hand-written models. Each rank group's compute, and for each operation it calls
// the machine's time of that operation at the sizes it sends; a phase is its slowest group's
// (a farm's compute is its workers', its hand-out its server's). A receive or a wait adds nothing: the time a rank waits for a message is the
// sender's, which a design-time model does not see; `augur sim --app` does.
#include <vector>

#include "app/app_model.hpp"
#include "app/app_program.hpp"

namespace augur::learn {

std::vector<app::Definition> phases_of(const app::AppProgram& program);

}  // namespace augur::learn
