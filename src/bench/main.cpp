// augur-bench-mpi: the MPI program behind `augur bench`. Measures MPI operations on groups of
// 2…P processes and writes one raw record per point (docs/bench.md, docs/raw-format.md).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include "bench/calibrate.hpp"
#include "bench/group.hpp"
#include "bench/node_section.hpp"
#include "bench/nodes.hpp"
#include "bench/options.hpp"
#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "bench/provenance.hpp"
#include "bench/resume.hpp"
#include "bench/sweep.hpp"
#include "fit/raw.hpp"

namespace {

constexpr int kUsageError = 2;
// The calibration's large messages: the ladder's largest up to this, beyond which a slow link
// would spend seconds on calibrating alone.
constexpr std::uint64_t kLargestCalibration = 1 << 20;

using namespace augur;

// A resumed run and a later pass continue the raw file that pass 1 began.
bool continues_raw_file(const bench::Options& options) { return options.resume || options.settings.pass > 1; }

// On several nodes the header says what the run found (docs/raw-format.md, "Placement"), and the
// person watching learns which levels are measured.
void note_nodes(nlohmann::json& header, const bench::NodeMap& nodes, bool first_launch) {
  if (nodes.machine.several()) {
    header["settings"]["nodes"] = nodes.machine.nodes;
    header["settings"]["ranks_per_node"] = nodes.most_ranks_per_node;
  }
  if (!first_launch) return;
  const std::string levels = nodes.machine.several()
                                 ? "pairs on one node and between nodes, groups at placements over them"
                                 : "one level, records without placement as before";
  std::fprintf(stderr, "augur-bench-mpi: %s: %s%s\n", bench::describe(nodes).c_str(), levels.c_str(),
               nodes.block || !nodes.machine.several() ? "" : " (ranks not in block placement)");
}

// `started`: MPI_Wtime just after MPI_Init, from which --stop-after counts.
void run(bench::Options options, int rank, int world, double started) {
  if (bench::ranks_outnumber_processors()) options.settings.discard_preempted = false;
  const auto& s = options.settings;
  const auto operations = bench::selected_operations(s);
  const auto groups = s.groups.empty() ? bench::group_sizes(world) : s.groups;
  const auto nodes = bench::find_nodes();
  // A resumed run and a later pass keep the header, and with it the compute section, that the
  // file already has.
  const bool append = continues_raw_file(options);
  auto header = bench::run_header(s, options.machine);
  if (rank == 0) note_nodes(header, nodes, !append);
  if (options.node_kernels && !append) bench::add_node_section(header, s.preset == "quick", options.progress);
  // The sweep's limit counts from the launch, the node kernels and the set-up included.
  if (s.stop_after_seconds > 0)
    options.settings.stop_after_seconds = std::max(1e-3, s.stop_after_seconds - (MPI_Wtime() - started));
  bench::Sweep sweep(s, groups, nodes);
  if (rank != 0) {
    sweep.follow();
    return;
  }
  fit::RawSet earlier;
  if (append) earlier = bench::reopen_raw_file(options.raw);
  fit::RawWriter out(options.raw, header, append);
  const auto plan = s.pass == 1 ? bench::base_plan(operations, groups, s.max_bytes, nodes.machine)
                                : bench::repeat_plan(earlier.points, operations);
  bench::Progress progress(options.progress, static_cast<int>(plan.size()), s.pass_budget_seconds(), options.run);
  sweep.conduct(plan, earlier, out, progress);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double started = MPI_Wtime();
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  bench::Options options;
  try {
    if (!bench::parse_options(argc, argv, world, rank == 0, options)) {
      MPI_Finalize();
      return 0;
    }
    if (world < 2) throw std::invalid_argument("needs at least 2 MPI processes (mpirun -np 2 or more)");
    // Every rank learns from rank 0 whether the file to continue is there, so that all stop
    // cleanly here: after MPI_Abort, MPICH's launcher could drop rank 0's message.
    int missing = rank == 0 && continues_raw_file(options) && !std::filesystem::exists(options.raw);
    MPI_Bcast(&missing, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (missing)
      throw std::invalid_argument(options.raw.string() + " does not exist: --resume and --pass " +
                                  std::to_string(options.settings.pass) + " continue a raw file that pass 1 began");
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "augur-bench-mpi: error: %s\n", e.what());
    MPI_Finalize();
    return kUsageError;
  }
  try {
    if (!options.calibrate.empty())
      bench::calibrate_network(std::min<std::uint64_t>(options.settings.max_bytes, kLargestCalibration), started,
                               options.calibrate);
    else
      run(options, rank, world, started);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "augur-bench-mpi: error on rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
