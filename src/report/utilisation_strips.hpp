#pragma once
// Utilisation strips under a timeline page (timeline.hpp): one per rank (its compute share of
// each interval) and one per busiest link direction (its busy share), darker when busier. Drawn
// by `augur analyze --html` under the critical path and by `augur sim --html`.
#include <cstddef>
#include <ostream>
#include <string>

#include "trace/trace.hpp"
#include "trace/utilisation.hpp"

namespace augur::report {

// Inserts the strips of `u`'s ranks and of its `links` busiest links before the page's </body>.
void add_utilisation_strips(std::string& page, const trace::Utilisation& u, std::size_t links);

// The timeline of `trace` with the strips of `u` below it.
void write_utilisation_html(const trace::Trace& trace, const trace::Utilisation& u, const std::string& title,
                            std::size_t links, std::ostream& out);

// Text placed in a page's script: "</" cannot end the script early.
std::string script_safe(std::string json);

extern const char* const kUtilisationStrips;
inline constexpr const char* kUtilisationDataPlaceholder = "/*AUGUR_UTILISATION_DATA*/";

}  // namespace augur::report
