// Start and end of a run (model, clock, trace, report), the program's clock, and communicator
// management, which decides on which groups virtual times are exchanged.
#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "model/machine_states.hpp"
#include "model/machines.hpp"
#include "model/budget_record.hpp"
#include "revprof/cycle_clock.hpp"
#include "revprof/rank_cpu_clock.hpp"
#include "revprof/report.hpp"
#include "revprof/shim/comms.hpp"
#include "revprof/shim/datatypes.hpp"
#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"
#include "revprof/shim/stamps.hpp"
#include "util/write_file.hpp"

using namespace augur;
using namespace augur::revprof;

namespace {

void warn(const std::string& text) {
  if (runtime().rank == 0) std::fprintf(stderr, "augur-revprof: %s\n", text.c_str());
}

// Where rank 0 writes the report (AUGUR_REPORT), read directly so that it holds whether or not
// the rest of the configuration does; empty: the report goes to stderr as text.
std::string report_path() {
  const char* path = std::getenv("AUGUR_REPORT");
  return path ? path : "";
}

using util::write_file;

// Rank 0's report file. One that cannot be written leaves the reason in its place where that
// can be written, so augur names the cause rather than a missing MPI_Finalize.
void deliver_report(const std::string& path, const nlohmann::json& report) {
  const auto error = write_file(path, report.dump(2) + "\n");
  if (!error) return;
  warn("cannot write the report to " + path + ": " + *error);
  write_file(path, unwritten_report(*error).dump() + "\n");
}

// At MPI_Init: the report file says MPI was initialised until the report replaces it.
void mark_report_pending(int rank) {
  const std::string path = report_path();
  if (rank != 0 || path.empty()) return;
  if (auto error = write_file(path, pending_report().dump() + "\n"))
    warn("cannot write the report to " + path + ": " + *error + "; the program runs on without one");
}

std::string_view compute_name(ComputeMode m) {
  return m == ComputeMode::measured ? "measured" : m == ComputeMode::annotated ? "annotated" : "zero";
}

void open_trace(Runtime& rt) {
  if (rt.config.trace_dir.empty()) return;
  trace::TraceHeader header;
  header.mode = rt.config.measure ? trace::TraceMode::measured : trace::TraceMode::predicted;
  header.machine = rt.config.measure ? "this host" : rt.model.machine.name;
  header.clock = rt.config.measure ? "seconds, MPI_Wtime from the earliest rank's start"
                                   : "seconds, virtual time of the reverse profiler at bound " +
                                         std::string(model::to_string(rt.config.bound));
  try {
    rt.trace = std::make_unique<trace::RankWriter>(rt.config.trace_dir, rt.rank, rt.size, header);
  } catch (const std::exception& e) {
    warn(std::string("no trace: ") + e.what());
  }
}

// Where the ranks run, as `augur run` was told (a bad setting was refused there already).
timing::Placement placement_of(const Config& c, int ranks) {
  if (c.placement == "block") return timing::Placement::block(c.ranks_per_node);
  if (c.placement == "cyclic") return timing::Placement::cyclic(c.ranks_per_node, ranks);
  std::ifstream in(c.placement);
  if (!in) throw std::invalid_argument("AUGUR_PLACEMENT='" + c.placement + "': not block, cyclic or a readable file");
  std::stringstream text;
  text << in.rdbuf();
  return timing::parse_placement_table(text.str(), c.placement);
}

// After the real MPI_Init: load the model and start the clock. A bad setting disables prediction
// with a message but never stops the program.
void start(bool thread_multiple) {
  auto& rt = runtime();
  PMPI_Comm_rank(MPI_COMM_WORLD, &rt.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &rt.size);
  mark_report_pending(rt.rank);
  try {
    rt.config = config_from_environment();
    rt.model = model::load_machine(rt.config.model);
    rt.rules.emplace(rt.model);
    rt.rules->price_unanswered_as_zero(note_not_priced);
    if (rt.model.nodes) {
      rt.levels = std::make_unique<timing::BoundsLevelRules>(rt.model, placement_of(rt.config, rt.size));
      rt.levels->price_unanswered_as_zero(note_not_priced);
    }
    rt.compute_factors = compute_factors(rt.model.compute);
    rt.model_prices_test = rt.model.find("test") != nullptr;
    rt.model_prices_iprobe = rt.model_prices_test || rt.model.find("iprobe") != nullptr;
  } catch (const std::exception& e) {
    rt.not_predicted = e.what();
    warn("not predicting this run: " + rt.not_predicted + "; the program runs unchanged");
    return;
  }
  rt.threaded = thread_multiple;
  track(MPI_COMM_WORLD);
  track(MPI_COMM_SELF);
  double start_time = PMPI_Wtime();
  PMPI_Allreduce(&start_time, &rt.origin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  CycleClock::calibrate();
  const ComputeClock::Reader wall = CycleClock::usable() ? CycleClock::seconds : wall_seconds;
  ComputeClock::Costs costs{measure_clock_overhead(rank_cpu_seconds), measure_clock_overhead(wall)};
  rt.compute_clock = ComputeClock(wall, rank_cpu_seconds, costs, kShortInterval);
  rt.active = true;
  if (!rt.config.measure) {
    costs.call_boundary = measure_call_boundary();
    rt.compute_clock = ComputeClock(wall, rank_cpu_seconds, costs, kShortInterval);
  }
  open_trace(rt);
  rt.now = Times::same(rt.config.measure ? real_now() : 0);
  rt.compute_clock.start();
}

}  // namespace

void augur::revprof::refuse_prediction(const std::string& why) {
  auto& rt = runtime();
  if (!rt.active) return;
  rt.active = false;
  rt.trace.reset();
  rt.not_predicted = why;
  warn("not predicting this run: " + why + "; the program runs unchanged");
}

namespace {

nlohmann::json run_settings(const Runtime& rt) {
  nlohmann::json settings = {{"machine", rt.config.measure ? std::string("this host (measured)") : rt.model.machine.name},
          {"measured", rt.config.measure},
          {"bound", model::to_string(rt.config.bound)},
          {"compute", compute_name(rt.config.compute)},
          {"compute_scale", rt.config.compute_scale},
          {"wtime", rt.config.virtual_wtime ? "virtual" : "real"},
          {"call_boundary_seconds", rt.compute_clock.costs().call_boundary}};
  if (rt.config.measure) return settings;
  if (rt.levels) settings["placement"] = rt.levels->placement().describe();  // a machine of nodes (docs/nodes.md)
  if (const auto& launch = rt.model.launch)
    settings["launch"] = {{"seconds", launch->seconds}, {"processes", launch->processes}};
  if (const auto& states = rt.model.compute.states)
    settings["compute_states"] = {{"fast", states->fast}, {"slow", states->slow}};
  if (auto note = model::prediction_note(rt.model.provenance.settings)) settings["model_note"] = *note;
  if (auto budget = model::BudgetRecord::from_settings(rt.model.provenance.settings); budget && budget->left_out_anything())
    settings["budget_note"] = budget->note();
  return settings;
}

// The timeline follows one clock; the others go beside the rank files (docs/revprof.md).
void write_trace_bounds(const std::string& dir, const nlohmann::json& report) {
  if (!report.contains("predicted_bounds")) return;
  const std::string path = dir + "/bounds.json";
  std::ofstream out(path);
  out << trace_bounds(report).dump(2) << "\n";
  if (!out) warn("cannot write " + path);
}

// Gathers every rank's ledger to rank 0, which writes the report.
void write_report(Runtime& rt) {
  auto ledger = rt.ledger.to_json(rt.rank, shown(rt.now));
  auto [extrapolated, stand_ins] = priced_beyond_the_model(*rt.rules, rt.levels.get());
  if (!extrapolated.empty()) ledger["extrapolated"] = std::move(extrapolated);
  if (!rt.config.measure) {
    ledger["finish_bounds"] = bounds_to_json(rt.now.at);
    // The tables are at the run's bound: there a rank's finish is its compute and its MPI time.
    const Times compute = compute_on_each_clock(rt.compute_factors, rt.ledger.compute_seconds());
    ledger["compute_bounds"] = bounds_to_json(compute.at);
    ledger["compute"] = shown(compute);
  }
  // A measured run prices nothing, whatever the rules were asked on the way.
  if (!stand_ins.empty() && !rt.config.measure) ledger["substitutions"] = std::move(stand_ins);
  if (!rt.trace_error.empty()) ledger["trace_error"] = rt.trace_error;
  std::string mine = ledger.dump();
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rt.size), offsets(rt.size);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int i = 0; i < rt.size; ++i) offsets[i] = std::exchange(total, total + lengths[i]);
  std::string all(rt.rank == 0 ? total : 0, '\0');
  PMPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rt.rank != 0) return;
  std::vector<nlohmann::json> ranks;
  for (int i = 0; i < rt.size; ++i) ranks.push_back(nlohmann::json::parse(all.substr(offsets[i], lengths[i])));
  auto report = make_report(ranks, run_settings(rt));
  if (rt.trace) write_trace_bounds(rt.config.trace_dir, report);
  if (rt.config.report_path.empty()) {
    std::fputs(format_report(report).c_str(), stderr);
    return;
  }
  deliver_report(rt.config.report_path, report);
}

// Rank 0 says why the run was not predicted, where the full report would have gone.
void write_unpredicted_report(const Runtime& rt) {
  if (rt.rank != 0) return;
  const std::string path = report_path();
  const char* model = std::getenv("AUGUR_MODEL");
  const nlohmann::json run = {{"machine", model && *model ? model : "generic"}, {"measured", rt.config.measure}};
  const auto report = make_unpredicted_report(rt.not_predicted, run);
  if (path.empty()) {
    std::fputs(format_report(report).c_str(), stderr);
    return;
  }
  deliver_report(path, report);
}

// `over` is the communicator whose members all make the call, read once it returned: the parent
// for most, the new communicator itself for MPI_Comm_create_group (only the group calls) and
// MPI_Intercomm_merge (both groups of an intercommunicator, which the shim does not follow). The
// trace records it as a collective over `over`: a program that makes communicators out of a
// sub-communicator (CP2K's half of the ranks) is replayed with only their members taking part.
template <class Real>
int create_comm(std::string_view op, const MPI_Comm* over, MPI_Comm* created, Real real) {
  return intercept(op, real, [&](Call& call) {
    int rc = call.real(real);
    track(*created);
    if (const Shadow* s = shadow_of(*over)) finish_synchronising(call, op, *s, call.begin(), true);
    return rc;
  });
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  int rc = PMPI_Init(argc, argv);
  start(false);
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  start(*provided == MPI_THREAD_MULTIPLE);
  return rc;
}

int MPI_Finalize() {
  auto& rt = runtime();
  ShimLock lock;
  if (rt.active && call_depth() == 0) {
    account_compute();
    tend_adopted(true);
    settle_outgoing(true);
    try {
      write_report(rt);
    } catch (const std::exception& e) {
      warn(std::string("no report: ") + e.what());
    }
    rt.trace.reset();
    forget_all();
    rt.active = false;
  } else if (!rt.not_predicted.empty()) {
    write_unpredicted_report(rt);
  }
  return PMPI_Finalize();
}

double MPI_Wtime() {
  auto& rt = runtime();
  ShimLock lock;
  if (!rt.active || call_depth() != 0) return PMPI_Wtime();
  // Accounting here in every mode keeps measured and predicted traces of one program in step.
  account_clock_reading();
  return rt.config.virtual_wtime && !rt.config.measure ? shown(rt.now) : PMPI_Wtime();
}

int MPI_Pcontrol(const int level, ...) {
  auto& rt = runtime();
  ShimLock lock;
  if (rt.active && call_depth() == 0) {
    account_compute();
    rt.compute_paused = level == 0;
  }
  return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return create_comm("comm_dup", &comm, newcomm, [&] { return PMPI_Comm_dup(comm, newcomm); });
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return create_comm("comm_dup", &comm, newcomm, [&] { return PMPI_Comm_dup_with_info(comm, info, newcomm); });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return create_comm("comm_split", &comm, newcomm, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return create_comm("comm_split", &comm, newcomm, [&] { return PMPI_Comm_split_type(comm, type, key, info, newcomm); });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return create_comm("comm_create", &comm, newcomm, [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return create_comm("comm_create", newcomm, newcomm,
                     [&] { return PMPI_Comm_create_group(comm, group, tag, newcomm); });
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newcomm) {
  return create_comm("comm_create", newcomm, newcomm, [&] { return PMPI_Intercomm_merge(intercomm, high, newcomm); });
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* newcomm) {
  return create_comm("comm_create", &comm, newcomm,
                     [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return create_comm("comm_split", &comm, newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* newcomm) {
  return create_comm("comm_create", &comm, newcomm,
                     [&] { return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm); });
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* newcomm) {
  return create_comm("comm_create", &comm, newcomm, [&] {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, newcomm);
  });
}

int MPI_Type_free(MPI_Datatype* type) {
  ShimLock lock;
  forget_layout(*type);
  return PMPI_Type_free(type);
}

int MPI_Comm_free(MPI_Comm* comm) {
  {
    ShimLock lock;
    retire(*comm);
    release_retired(refers_to);
  }
  return PMPI_Comm_free(comm);
}

}  // extern "C"
