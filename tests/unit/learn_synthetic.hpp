#pragma once
// Synthetic runs for `augur learn`: a program written as a function of (rank, p) giving its
// calls and computes, made into the rank sequences a trace at p would give
// (learn/rank_sequences.hpp: a compute between every two calls).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "learn/learner.hpp"
#include "sim/program/program.hpp"

namespace augur::learn::testing {

// The collectives' names, as Op::name indexes them.
inline const std::vector<std::string> kCollectives{"barrier", "bcast", "allreduce", "allgather", "alltoall"};
enum Collective : std::uint16_t { barrier, bcast, allreduce, allgather, alltoall };

using RankProgram = std::function<std::vector<sim::Op>(int rank, int p)>;

inline RankSequences sequences_of(const RankProgram& program, int p) {
  RankSequences s;
  s.ranks = p;
  s.names = kCollectives;
  s.comm_sizes = {p};
  s.comm_members.emplace_back();
  for (int r = 0; r < p; ++r) s.comm_members.back().push_back(r);
  for (int r = 0; r < p; ++r) {
    auto& ops = s.ops.emplace_back(1, sim::compute_op(0));
    for (const auto& op : program(r, p)) {
      if (op.kind == sim::OpKind::compute) {
        ops.back().value += op.value;
        continue;
      }
      ops.push_back(op);
      ops.push_back(sim::compute_op(0));
    }
  }
  return s;
}

// Runs at each count, labelled "tr-P" as a user's trace directories would be.
inline std::vector<LearnRun> runs_of(const RankProgram& program, std::vector<int> counts = {2, 4, 8, 16}) {
  std::vector<LearnRun> runs;
  for (const int p : counts) runs.push_back({"tr-" + std::to_string(p), p, 0, sequences_of(program, p)});
  return runs;
}

// The message of the LearnError `learn_program` throws, or "" when it learns the program.
inline std::string refusal(const std::vector<LearnRun>& runs) {
  try {
    learn_program(runs, "");
  } catch (const LearnError& e) {
    return e.what();
  }
  return "";
}

}  // namespace augur::learn::testing

namespace augur::learn::testing {

// The program written out at p, each rank its own body: what a learned model of it should run as.
inline std::unique_ptr<sim::FlatProgram> written_at(const RankProgram& program, int p) {
  auto written = std::make_unique<sim::FlatProgram>(p);
  for (const auto& name : kCollectives) written->intern(name);
  for (int r = 0; r < p; ++r) written->assign(r, r, written->add_body(program(r, p)));
  return written;
}

// The run the sequences came from, as the simulator replays a trace: each rank its own body.
inline std::unique_ptr<sim::FlatProgram> replay_of(const RankSequences& s) {
  auto program = std::make_unique<sim::FlatProgram>(s.ranks);
  for (const auto& name : s.names) program->intern(name);
  for (int r = 0; r < s.ranks; ++r) program->assign(r, r, program->add_body(s.ops[r]));
  return program;
}

}  // namespace augur::learn::testing

#include <initializer_list>

#include <gtest/gtest.h>

#include "app_program_text.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/app_program.hpp"

namespace augur::learn::testing {

// The learned program (its JSON text) at each of `counts`, simulated on LogGOPS, against `program`
// written out there: equal to the bit.
inline void expect_runs_as_written(const std::string& text, const RankProgram& program, std::initializer_list<int> counts) {
  const auto model = augur::test::parsed(text);
  const sim::LogGOPSNetwork net(sim::parse_loggops("L=3us,o=1.5us,g=1us,G=6ns"));
  for (const int p : counts)
    EXPECT_DOUBLE_EQ(sim::simulate(*sim::instantiate(model, p), net).predicted,
                     sim::simulate(*written_at(program, p), net).predicted)
        << p;
}

}  // namespace augur::learn::testing
