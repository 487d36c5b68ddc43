// Never a wrong program: a learned program simulated at every count it was learned from, against
// the runs replayed; a deadlock or a miss beyond the laws' errors refused, naming the calls.
#include <gtest/gtest.h>

#include "app/app_model.hpp"
#include "learn/learned_check.hpp"
#include "learn/learned_model_json.hpp"
#include "learn_synthetic.hpp"
#include "model/machines.hpp"
#include "sim/network/network.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_learn_learned_check {
namespace {

using namespace augur;
using namespace augur::learn;
using namespace augur::learn::testing;

namespace {

// A ring: 10 steps of work, a shift to the right and a sum.
std::vector<sim::Op> ring(int r, int p) {
  std::vector<sim::Op> ops{sim::collective_op(bcast, 64, 0)};
  for (int i = 0; i < 10; ++i) {
    ops.push_back(sim::compute_op(4e-3 / p));
    ops.push_back(sim::sendrecv_op((r + 1) % p, (r + p - 1) % p, 65536.0 / p));
    ops.push_back(sim::collective_op(allreduce, 8));
  }
  return ops;
}

struct Checked {
  std::vector<LearnRun> runs;
  std::vector<std::unique_ptr<sim::FlatProgram>> replays;
  app::AppModel model;

  Checked() : runs(runs_of(ring)) {
    for (const auto& r : runs) replays.push_back(replay_of(r.sequences));
    const auto doc = learned_model_json(learn_program(runs, ""), "ring", "ring", "", std::vector<double>(runs.size()));
    model = app::parse_app_model(doc.dump(2), "ring.json");
  }

  std::vector<CountCheck> check() const {
    static const auto machine = model::load_machine("t3d");
    std::vector<const sim::Program*> pointers;
    for (const auto& r : replays) pointers.push_back(r.get());
    return check_learned(model, runs, pointers, "",
                         [](int) { return std::make_unique<sim::ModelNetwork>(machine, model::Bound::avg); });
  }

  app::ProgramNode& node(const std::string& op) {
    for (auto& n : model.program->groups.front().body)
      if (n.kind == app::ProgramNode::Kind::repeat)
        for (auto& inner : n.body)
          if (inner.op == op || (op == "compute" && inner.kind == app::ProgramNode::Kind::compute)) return inner;
    throw std::logic_error("no " + op);
  }
};

std::string refusal(const Checked& c) {
  try {
    c.check();
  } catch (const LearnError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(LearnLearnedCheck, ARightProgramMatchesEveryRunItWasLearnedFrom) {
  const Checked c;
  const auto checks = c.check();
  ASSERT_EQ(checks.size(), 4u);
  for (const auto& k : checks) {
    EXPECT_GT(k.traced, 4e-3 / k.p * 10) << k.p;  // the run's work at least
    // Exact laws of the same calls and computes: the learned run is the replayed one.
    EXPECT_NEAR(k.learned, k.traced, 1e-9 * k.traced) << k.p;
  }
  EXPECT_EQ(checks[2].label, "tr-8");
}

TEST(LearnLearnedCheck, APeerThatDeadlocksIsRefusedWithTheCount) {
  Checked c;
  // From the right instead of the left: at p = 2 the same rank, from p = 4 on nobody sends it.
  auto& from = c.node("sendrecv").peer2;
  from.kind = app::PeerRule::Kind::offset, from.wrap = true;
  from.by = app::Law{"1", "1", "1", "", {}, {}, 0};
  const auto why = refusal(c);
  EXPECT_NE(why.find("the learned program deadlocks at p = 4, a count it was learned from (tr-4)"), std::string::npos)
      << why;
}

TEST(LearnLearnedCheck, AMissBeyondTheLawsErrorsNamesTheCallsThatPart) {
  Checked c;
  // Work twice as long with laws that say they are exact: every count's run missed, and the calls
  // all alike, the computes are what part.
  auto& compute = c.node("compute");
  compute.seconds.expr = compute.seconds.low = compute.seconds.high = "2 * (" + compute.seconds.expr + ")";
  const auto why = refusal(c);
  EXPECT_NE(why.find("misses the run it was learned from at p = 2 (tr-2)"), std::string::npos) << why;
  EXPECT_NE(why.find(" replayed (+"), std::string::npos) << why;  // the learned program the longer
  EXPECT_NE(why.find("\n  (every call's count and bytes alike: the computes' laws part)"), std::string::npos) << why;
  // A miss within the laws' stated errors passes: the compute's law said ±30%.
  Checked within;
  auto& loose = within.node("compute");
  loose.seconds.expr = "1.2 * (" + loose.seconds.expr + ")";
  loose.seconds.cv_error = 0.3;
  EXPECT_EQ(refusal(within), "");
}

TEST(LearnLearnedCheck, SizesOtherThanTheRunsAreRefusedHoweverLooseTheComputesLawsAre) {
  Checked c;
  // Messages twice the size, hidden in time by a compute law that claims ±300%: the sizes are no
  // host's noise, so the sendrecvs are named (2 ranks × 10 × 2 × 32 KiB in the run at p = 2).
  auto& sendrecv = c.node("sendrecv");
  sendrecv.bytes.expr = sendrecv.bytes.low = sendrecv.bytes.high = "2 * (" + sendrecv.bytes.expr + ")";
  c.node("compute").seconds.cv_error = 3;
  const auto why = refusal(c);
  EXPECT_NE(why.find("calls otherwise than the run it was learned from at p = 2 (tr-2)"), std::string::npos) << why;
  EXPECT_NE(why.find("±0.1% in bytes"), std::string::npos) << why;
  EXPECT_NE(why.find("\n  MPI_Sendrecv: 20 calls, 1.25 MiB in the run; 20 calls, 2.5 MiB learned"), std::string::npos)
      << why;
  EXPECT_EQ(why.find("MPI_Allreduce"), std::string::npos) << why;  // the calls that agree are not named
  // Sizes 5% off whose law says it may be 10% off pass.
  Checked within;
  auto& stated = within.node("sendrecv");
  stated.bytes.expr = "1.05 * (" + stated.bytes.expr + ")";
  stated.bytes.cv_error = 0.1;
  EXPECT_EQ(refusal(within), "");
}

TEST(LearnLearnedCheck, ALoopCountOtherThanTheRunsIsRefusedWithTheCallsItRepeats) {
  Checked c;
  for (auto& n : c.model.program->groups.front().body)
    if (n.kind == app::ProgramNode::Kind::repeat) n.times.expr = n.times.low = n.times.high = "11";
  const auto why = refusal(c);
  EXPECT_NE(why.find("calls otherwise than the run it was learned from at p = 2 (tr-2)"), std::string::npos) << why;
  EXPECT_NE(why.find("\n  MPI_Allreduce: 20 calls, 160 B in the run; 22 calls, 176 B learned"), std::string::npos)
      << why;
  EXPECT_EQ(why.find("MPI_Bcast"), std::string::npos) << why;
}

}  // namespace
}  // namespace test_learn_learned_check
