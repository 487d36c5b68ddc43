// Farm, pipeline and array as per-rank bodies. Ranks that do the same thing share one body
// (relative peers where they differ only in their neighbours), so p can be large; only the
// farm's master holds a body that grows with the number of tasks.
#include "sim/program/program_generators.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::sim {
namespace {

constexpr long kMaxItems = 1L << 22;

Op relative(Op op, std::uint8_t flags) {
  op.flags = flags;
  return op;
}

std::vector<Op> repeat(const std::vector<Op>& once, long times) {
  std::vector<Op> out;
  out.reserve(once.size() * static_cast<std::size_t>(times));
  for (long i = 0; i < times; ++i) out.insert(out.end(), once.begin(), once.end());
  return out;
}

void assign(FlatProgram& program, int first, int last, std::vector<Op> body) {
  if (first <= last) program.assign(first, last, program.add_body(std::move(body)));
}

// --- farm --------------------------------------------------------------------------------------

// The master sends task i to worker 1 + i mod W; each further task goes to a worker as soon as
// its previous result is back, so workers overlap; the last W results are collected at the end.
std::vector<Op> farm_master(int workers, long items, double bytes) {
  std::vector<Op> ops;
  for (long i = 0; i < std::min<long>(workers, items); ++i) ops.push_back(send_op(static_cast<int>(1 + i), bytes));
  for (long i = workers; i < items; ++i) {
    const int w = static_cast<int>(1 + i % workers);
    ops.push_back(recv_op(w));
    ops.push_back(send_op(w, bytes));
  }
  for (long i = std::max(0L, items - workers); i < items; ++i) ops.push_back(recv_op(static_cast<int>(1 + i % workers)));
  return ops;
}

Generated farm(int p, GeneratorArgs& args) {
  if (p < 2) throw std::invalid_argument("farm needs p >= 2 (a master and a worker)");
  const int workers = p - 1;
  const long items = args.integer("items", 4L * workers, 1, kMaxItems);
  const double bytes = args.bytes("bytes", "1KiB");
  const double result = args.bytes("result", fmt::format("{}", bytes));
  const double grain = args.seconds("compute", "1ms");
  Generated g;
  g.program = std::make_unique<FlatProgram>(p);
  assign(*g.program, 0, 0, farm_master(workers, items, bytes));
  const std::vector<Op> task{recv_op(0), compute_op(grain), send_op(0, result)};
  const int more = static_cast<int>(items % workers);  // workers 1..more get one task more
  assign(*g.program, 1, more, repeat(task, items / workers + 1));
  assign(*g.program, more + 1, p - 1, repeat(task, items / workers));
  g.description = fmt::format("farm, p = {}, {} tasks of {} B, {} s each", p, items, bytes, grain);
  return g;
}

// --- pipeline and array: ranks in a line ------------------------------------------------------

// A line of p ranks where rank 0, the inner ranks and rank p − 1 each do `step(rank)` `times`
// over; the inner ranks share one body (their steps use relative peers).
template <typename Step>
std::unique_ptr<FlatProgram> line(int p, long times, Step step) {
  auto program = std::make_unique<FlatProgram>(p);
  assign(*program, 0, 0, repeat(step(0), times));
  assign(*program, 1, p - 2, repeat(step(1), times));
  if (p > 1) assign(*program, p - 1, p - 1, repeat(step(p - 1), times));
  return program;
}

// Stage r receives each item from r − 1, computes, and passes it to r + 1.
std::vector<Op> pipeline_step(int rank, int p, double grain, double bytes) {
  const bool first = rank == 0, last = rank == p - 1;
  std::vector<Op> ops;
  if (!first) ops.push_back(last ? recv_op(rank - 1) : relative(recv_op(-1), kPeerRelative));
  ops.push_back(compute_op(grain));
  if (!last) ops.push_back(first ? send_op(1, bytes) : relative(send_op(1, bytes), kPeerRelative));
  return ops;
}

Generated pipeline(int p, GeneratorArgs& args) {
  const long items = args.integer("items", 10, 1, kMaxItems);
  const double bytes = args.bytes("bytes", "1KiB");
  const double grain = args.seconds("compute", "100us");
  Generated g;
  g.program = line(p, items, [&](int rank) { return pipeline_step(rank, p, grain, bytes); });
  g.description = fmt::format("pipeline, p = {}, {} items of {} B, {} s per stage", p, items, bytes, grain);
  return g;
}

// A 1-D array of columns, one block per rank: each iteration computes, then exchanges borders
// with the right and the left neighbour; the ends have no neighbour outside (MPI_PROC_NULL).
std::vector<Op> array_step(int rank, int p, double grain, double bytes) {
  constexpr auto both = std::uint8_t(kPeerRelative | kPeer2Relative);
  const bool first = rank == 0, last = rank == p - 1;
  if (first && last) return {compute_op(grain)};
  if (!first && !last)
    return {compute_op(grain), relative(sendrecv_op(1, -1, bytes), both), relative(sendrecv_op(-1, 1, bytes), both)};
  const int right = last ? kNoPeer : rank + 1, left = first ? kNoPeer : rank - 1;
  return {compute_op(grain), sendrecv_op(right, left, bytes), sendrecv_op(left, right, bytes)};
}

Generated array(int p, GeneratorArgs& args) {
  const long iterations = args.integer("iterations", 10, 1, kMaxItems);
  const double bytes = args.bytes("bytes", "8KiB");
  const double grain = args.seconds("compute", "1ms");
  Generated g;
  g.program = line(p, iterations, [&](int rank) { return array_step(rank, p, grain, bytes); });
  g.description = fmt::format("array, p = {}, {} iterations, {} B borders, {} s per iteration", p, iterations,
                              bytes, grain);
  return g;
}

}  // namespace

bool is_program_generator(std::string_view name) { return name == "farm" || name == "pipeline" || name == "array"; }

Generated generate_program(std::string_view name, int p, GeneratorArgs& args) {
  Generated g = name == "farm" ? farm(p, args) : name == "pipeline" ? pipeline(p, args) : array(p, args);
  args.expect_empty(name);
  return g;
}

std::string describe_program_generators() {
  return "Programs (the seed's structures; compute= is the grain):\n"
         "  farm       p=P [items=4(P-1)] [bytes=1KiB] [result=bytes] [compute=1ms]\n"
         "             rank 0 hands tasks round-robin to workers 1..P-1 and collects the results\n"
         "  pipeline   p=P [items=10] [bytes=1KiB] [compute=100us]\n"
         "             each item passes stage 0 → 1 → … → P-1, computed at each stage\n"
         "  array      p=P [iterations=10] [bytes=8KiB] [compute=1ms]\n"
         "             a 1-D array of blocks: compute, then exchange borders with both neighbours\n";
}

}  // namespace augur::sim
