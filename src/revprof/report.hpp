#pragma once
// The report of a reverse-profiled run, assembled from every rank's ledger: predicted run time
// (the latest finish over ranks), per-rank compute / MPI / waiting, per-operation totals
// (mpiP-like), the bound used, the calls that were not modelled, the calls the model could not
// price (per operation, with the reason), the operations priced
// beyond what the model measured and the stand-ins that priced the operations the model lacks.
#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/rank_table.hpp"
#include "timing/levels.hpp"
#include "timing/rules.hpp"

namespace augur::revprof {

// One rank's extrapolations, for its entry in `ranks` below ("extrapolated").
// `level` names the level of a machine of nodes whose rules asked (timing::BasicLevelRules::
// each_level), "" between nodes; an entry of another level is keyed "OP, LEVEL" and carries
// both ("operation", "level").
nlohmann::json extrapolations_to_json(const std::map<std::string, timing::Rules::Extrapolation, std::less<>>& asked,
                                      const std::string& level = "");
// Adds `more` (as extrapolations_to_json gives) to `total`: per key the largest message and group.
void add_extrapolations(nlohmann::json& total, const nlohmann::json& more);

// One rank's stand-ins that priced a call, for its entry in `ranks` below ("substitutions").
// What the rules extrapolated and stood in for, as a rank's "extrapolated" and "substitutions":
// the between-nodes rules of the messages, and on a machine of nodes (`levels`, else null) its
// on-node level and its placements' collectives, each entry named by its level.
std::pair<nlohmann::json, nlohmann::json> priced_beyond_the_model(const timing::BoundsRules& rules,
                                                                  const timing::BoundsLevelRules* levels);
// With a `level` other than "" (between nodes) each entry says it ("level").
nlohmann::json stand_ins_to_json(const std::vector<timing::Rules::StandIn>& used, const std::string& level = "");
// Adds the stand-ins of `more` that `total` lacks, in their order.
void add_stand_ins(nlohmann::json& total, const nlohmann::json& more);
// Those stand-ins as the text report lists them ("MPI_Send: priced as …"); empty when none.
std::string format_stand_ins(const nlohmann::json& used);

// One time per bound, as {"min", "avg", "max"}.
nlohmann::json bounds_to_json(const std::array<double, 3>& by_bound);

// `ranks` holds Ledger::to_json of every rank, each with its "extrapolated" and
// "substitutions" when it has any, and its finish on each clock ("finish_bounds",
// bounds_to_json) in a predicted run; `run` the settings (machine, bound, compute …).
// `predicted_seconds` and the tables are at the run's bound; `predicted_bounds` is the latest
// finish on each clock.
nlohmann::json make_report(const std::vector<nlohmann::json>& ranks, const nlohmann::json& run);
// What a predicted run's trace carries beside its timeline, which is at the run's bound: the
// bound of the timeline, the run's time on each clock and every rank's finish on each.
nlohmann::json trace_bounds(const nlohmann::json& report);
// The report of a run the shim could not predict (a program that asks for
// MPI_THREAD_MULTIPLE, a model that does not load): the program ran unchanged, and `reason`
// says why there is no prediction. `predicted_seconds` is null.
nlohmann::json make_unpredicted_report(const std::string& reason, const nlohmann::json& run);
bool is_predicted(const nlohmann::json& report);

// What the report file holds when it holds no report. Rank 0 writes `pending_report()` at
// MPI_Init and the report over it at MPI_Finalize, so `augur run` tells a program that never
// initialised MPI (no file) from one that ended before finalising it (pending); a report the
// shim could not write leaves, if it can, `unwritten_report(reason)` in its place.
enum class ReportState { report, pending, unwritten };
nlohmann::json pending_report();
nlohmann::json unwritten_report(const std::string& reason);
ReportState report_state(const nlohmann::json& file);

// The report as text; past model::kEveryRankUpTo ranks its per-rank table groups ranks alike
// unless `shown` asks for every rank (model/rank_table.hpp).
std::string format_report(const nlohmann::json& report, model::RankRows shown = model::RankRows::fit_screen);

}  // namespace augur::revprof
