// The simulator's speed (docs/benchmarks.md): events per second of the kernel, and collectives
// on a million ranks. Events are the kernel's queue events (a rank resuming, a message arriving).
#include <benchmark/benchmark.h>

#include <optional>

#include "model/machines.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/topologies.hpp"
#include "sim/network/topology_network.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/schedule.hpp"

using namespace augur;

namespace {

// `network()` gives each run its network: a topology's carries the state of its flows, so every
// run needs a fresh one.
template <class MakeNetwork>
void run_each(benchmark::State& state, const std::string& name, const std::vector<std::string>& args,
              MakeNetwork network) {
  auto g = sim::generate(name, args);
  sim::Options options;
  options.algorithms = g.algorithms;
  std::uint64_t events = 0, messages = 0;
  for (auto _ : state) {
    auto r = sim::simulate(*g.program, network(), options);
    events += r.events;
    messages += r.messages;
    benchmark::DoNotOptimize(r.predicted);
  }
  state.counters["events/s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
  state.counters["messages/s"] = benchmark::Counter(double(messages), benchmark::Counter::kIsRate);
  state.counters["events"] = double(events) / double(state.iterations());
}

void run_generated(benchmark::State& state, const std::string& name, const std::vector<std::string>& args,
                   const sim::Network& net) {
  run_each(state, name, args, [&]() -> const sim::Network& { return net; });
}

const sim::LogGOPSNetwork& loggops() {
  static const sim::LogGOPSNetwork net(sim::parse_loggops("L=2.5us,o=1.5us,g=1us,G=6ns"));
  return net;
}

// Recursive-doubling allreduce of 8 B on 2^k ranks.
void BM_AllreduceRd(benchmark::State& state) {
  run_generated(state, "allreduce", {"algorithm=rd", "p=" + std::to_string(state.range(0)), "bytes=8"}, loggops());
}
BENCHMARK(BM_AllreduceRd)->RangeMultiplier(4)->Range(1 << 14, 1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

// Dissemination barrier.
void BM_Barrier(benchmark::State& state) {
  run_generated(state, "barrier", {"p=" + std::to_string(state.range(0))}, loggops());
}
BENCHMARK(BM_Barrier)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

// The model network (timing::Rules, sp2-mpl) on a ring allreduce of 64 ranks repeated: many
// events per rank, the reverse profiler's pricing on every message.
void BM_ModelRing(benchmark::State& state) {
  static const auto m = model::load_machine("sp2-mpl");
  static const sim::ModelNetwork net(m, model::Bound::avg);
  run_generated(state, "allreduce", {"algorithm=ring", "p=64", "bytes=64KiB", "iterations=200"}, net);
}
BENCHMARK(BM_ModelRing)->Unit(benchmark::kMillisecond)->UseRealTime();

// Messages as flows (`--network topology`): a ring allreduce of 8 KiB on a torus of p nodes,
// 2p(p − 1) messages whose flows never share a link, so the time per message is the flow path's
// own cost (route, start, finish, arrival) on top of the kernel's, with the network built anew
// for each run (its routes found again). Compare BM_RingLogGOPS.
void BM_TorusRing(benchmark::State& state) {
  const auto side = std::to_string(state.range(0));
  const auto machine = sim::generate_topology("torus:" + side + "x" + side + "x" + side);
  const auto p = std::to_string(state.range(0) * state.range(0) * state.range(0));
  std::optional<sim::TopologyNetwork> net;
  run_each(state, "allreduce", {"algorithm=ring", "p=" + p, "bytes=8KiB"},
           [&]() -> const sim::Network& { return net.emplace(machine); });
}
BENCHMARK(BM_TorusRing)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same ring allreduce on LogGOPS: the kernel alone.
void BM_RingLogGOPS(benchmark::State& state) {
  run_generated(state, "allreduce", {"algorithm=ring", "p=" + std::to_string(state.range(0)), "bytes=8KiB"}, loggops());
}
BENCHMARK(BM_RingLogGOPS)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();

// Many flows meeting (`--network topology --sharing rtt`): on a torus of side × side nodes,
// every rank sends 1 KiB to every other at once, then receives; p(p − 1) flows, all connected,
// starting at one instant per route latency (4,032 on the 8 × 8 torus). SimGrid's side is
// `bench/simgrid/compare.py --patterns burst` (docs/simgrid-comparison.md).
void BM_TorusBurst(benchmark::State& state) {
  const auto side = std::to_string(state.range(0));
  const auto machine = sim::generate_topology("torus:" + side + "x" + side);
  const auto p = state.range(0) * state.range(0);
  std::string text = "ranks " + std::to_string(p) + "\nranks 0..N-1 {\n";
  for (int k = 1; k < p; ++k) text += "  isend rank+" + std::to_string(k) + " 1KiB\n";
  for (int k = 1; k < p; ++k) text += "  irecv rank-" + std::to_string(k) + " 1KiB\n";
  text += "  waitall\n}\n";
  const auto program = sim::parse_schedule(text, "burst");
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const sim::TopologyNetwork net(machine, sim::Sharing::rtt);
    auto r = sim::simulate(*program, net);
    messages += r.messages;
    benchmark::DoNotOptimize(r.predicted);
  }
  state.counters["messages/s"] = benchmark::Counter(double(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TorusBurst)->Arg(8)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
