// The schedule language: what it accepts, how bodies are shared, and the file:line:column of
// its errors.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "model/machines.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/topologies.hpp"
#include "sim/network/topology_network.hpp"
#include "sim/program/schedule.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_schedule {
namespace {

using namespace augur;
using namespace augur::sim;

namespace {

std::vector<Op> ops_of(const Program& p, int rank) {
  std::vector<Op> ops;
  Op op;
  for (std::uint32_t pc = 0; p.fetch(rank, pc, op); ++pc) ops.push_back(op);
  return ops;
}

// The message of the ScheduleError `text` raises.
std::string error_of(const std::string& text) {
  try {
    parse_schedule(text, "s.sched");
  } catch (const ScheduleError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(SimSchedule, RangeBodiesWithRelativePeersAreStoredOnce) {
  auto p = parse_schedule("ranks 1000\nranks 0..N-1 { sendrecv rank+1 rank-1 8KiB tag=3 }\n", "ring");
  EXPECT_EQ(&p->body_of(0), &p->body_of(999));
  auto ops = ops_of(*p, 999);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].kind, OpKind::sendrecv);
  EXPECT_EQ(ops[0].peer, 0);     // wraps around the world
  EXPECT_EQ(ops[0].peer2, 998);
  EXPECT_EQ(ops[0].value, 8192);
  EXPECT_EQ(ops[0].tag, 3);
}

TEST(SimSchedule, OtherExpressionsOfRankAreEvaluatedPerRank) {
  auto p = parse_schedule("ranks 4\nranks 0..3 { send rank^1 (rank+1)*8 }", "x");
  EXPECT_NE(&p->body_of(0), &p->body_of(1));
  EXPECT_EQ(ops_of(*p, 2)[0].peer, 3);
  EXPECT_EQ(ops_of(*p, 2)[0].value, 24);
}

TEST(SimSchedule, LoopsGrainsCommunicatorsAndCollectives) {
  auto p = parse_schedule(R"(# a farm
ranks 6
grain work = 25us
comm odd = 1..5 step 2
rank 0 { repeat 2 { recv any tag=any } waitall }
ranks 1..5 {
  compute work
  isend 0 1KiB
  irecv any
  wait 2
  allreduce 8 comm=odd
  bcast 16 root=3 comm=odd
  barrier
}
)",
                          "farm");
  const auto r0 = ops_of(*p, 0);
  ASSERT_EQ(r0.size(), 3u);
  EXPECT_EQ(r0[0].peer, kAny);
  EXPECT_EQ(r0[0].tag, kAny);
  EXPECT_EQ(r0[2].tag2, 0);  // waitall
  const auto r3 = ops_of(*p, 3);
  ASSERT_EQ(r3.size(), 7u);
  EXPECT_DOUBLE_EQ(r3[0].value, 25e-6);
  EXPECT_EQ(r3[3].tag2, 2);
  EXPECT_EQ(p->comms()[r3[4].comm].size, 3);
  EXPECT_EQ(r3[5].peer, 1);  // world rank 3 is rank 1 of {1, 3, 5}
  EXPECT_EQ(p->names()[r3[6].name], "barrier");
}

TEST(SimSchedule, ScheduleRunsOnAModel) {
  auto p = parse_schedule("ranks 12\nranks 0..N-1 { bcast 16 root=0 }", "b");
  const auto m = model::load_machine("sp2-mpl");
  ModelNetwork net(m, model::Bound::avg);
  auto r = simulate(*p, net);
  // The root leaves after the model's bcast: 9.6 + 14·3 + (0.0083 + 0.015·3)·16 µs.
  EXPECT_NEAR(r.ranks[0].finish, (9.6 + 42 + 0.0533 * 16) * 1e-6, 1e-12);
}

// Only rank 1 has a body: ranks 0 and 2 run nothing (not the file's first body).
TEST(SimSchedule, RanksWithoutABodyDoNothing) {
  auto p = parse_schedule("ranks 3\nrank 1 { compute 1ms }\n", "s");
  EXPECT_TRUE(ops_of(*p, 0).empty());
  EXPECT_EQ(ops_of(*p, 1).size(), 1u);
  EXPECT_TRUE(ops_of(*p, 2).empty());
  const auto m = model::load_machine("sp2-mpl");
  ModelNetwork net(m, model::Bound::avg);
  const auto r = simulate(*p, net);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 0);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1e-3);
  EXPECT_DOUBLE_EQ(r.ranks[2].compute, 0);
}

// On nodes 4 times the model's speed, `compute 1` takes 0.25 s but `sleep 1` a whole second;
// `at 3` then waits to 3 s, and `at 2` after it is already past.
TEST(SimSchedule, SleepIsNotScaledAndAtWaitsForASimulatedTime) {
  auto p = parse_schedule("ranks 2\nrank 0 { compute 1 sleep 1 }\nrank 1 { sleep 500ms at 3 at 2 compute 1 }\n", "s");
  const auto ops = ops_of(*p, 1);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].kind, OpKind::sleep);
  EXPECT_EQ(ops[1].kind, OpKind::until);
  EXPECT_DOUBLE_EQ(ops[1].value, 3);
  TopologyNetwork net(generate_topology("ring:2,speed=4"));
  const auto r = simulate(*p, net);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 1.25);
  EXPECT_DOUBLE_EQ(r.ranks[0].compute, 0.25);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 3.25);
}

// A table is declared once and read by index; an index that depends on rank is read per rank.
TEST(SimSchedule, TablesGivePeersAndSizes) {
  auto p = parse_schedule(R"(ranks 4
table perm = {3, 0, 1, 2}
table sizes = {8, 16, N*4, perm[0]+1}
ranks 0..N-1 { send perm[rank] sizes[rank] tag=perm[(rank+1)%N] recv any })",
                          "t");
  const std::int32_t peers[] = {3, 0, 1, 2};
  const double bytes[] = {8, 16, 16, 4};
  for (int r = 0; r < 4; ++r) {
    const auto ops = ops_of(*p, r);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].peer, peers[r]);
    EXPECT_EQ(ops[0].value, bytes[r]);
    EXPECT_EQ(ops[0].tag, peers[(r + 1) % 4]);
  }
  // A constant index is read at once: the body is shared.
  auto shared = parse_schedule("ranks 3\ntable t = {2, 1}\nranks 0..2 { send t[0] t[1]*8 }", "t");
  EXPECT_EQ(&shared->body_of(0), &shared->body_of(2));
  EXPECT_EQ(ops_of(*shared, 1)[0].peer, 2);
  EXPECT_EQ(ops_of(*shared, 1)[0].value, 8);
  // Written out and read back, the table's values stay.
  auto again = parse_schedule(write_schedule(*p), "again");
  for (int r = 0; r < 4; ++r) EXPECT_EQ(ops_of(*again, r)[0].peer, peers[r]);
}

TEST(SimSchedule, TableAndTimeErrorsNameTheirPlace) {
  EXPECT_EQ(error_of("ranks 4\ntable p = {1, 2}\nranks 0..3 { send p[rank] 8 }"),
            "s.sched:3:19: index 2 is outside table 'p' (0..1) for rank 2");
  EXPECT_EQ(error_of("ranks 4\nrank 0 { send p[1] 8 }"), "s.sched:2:15: unknown table 'p'");
  EXPECT_EQ(error_of("ranks 4\ntable p = {1, 2}\nrank 0 { send p[-1] 8 }"),
            "s.sched:3:17: index -1 is outside table 'p' (0..1)");
  EXPECT_EQ(error_of("ranks 4\ntable p = {1}\ntable p = {2}"), "s.sched:3:7: table 'p' is already defined");
  EXPECT_EQ(error_of("ranks 4\ntable p = {rank}"), "s.sched:2:12: a table entry must not depend on rank");
  EXPECT_EQ(error_of("ranks 4\ntable p = {1, 2\nrank 0 { }"),
            "s.sched:3:1: expected '}' to close the table's entries, found 'rank'");
  EXPECT_EQ(error_of("ranks 4\ntable p = {1}\nrank 0 { send p[0 8 }"),
            "s.sched:3:19: expected ']' to close the table's index, found '8'");
  EXPECT_EQ(error_of("ranks 4\nrank 0 { sleep }"), "s.sched:2:16: expected a time such as 10us, 1.5ms or 2 (seconds)");
  EXPECT_EQ(error_of("ranks 4\nrank 0 { at soon }"), "s.sched:2:13: expected a time such as 10us, 1.5ms or 2 (seconds)");
  EXPECT_EQ(error_of("ranks 4\nrank 0 { at 3 parsecs }"), "s.sched:2:15: unknown operation 'parsecs'");
}

TEST(SimSchedule, ErrorsNameFileLineColumnAndReason) {
  EXPECT_EQ(error_of("ranks 2\nrank 0 {\n  sned 1 8\n}"), "s.sched:3:3: unknown operation 'sned'");
  EXPECT_EQ(error_of("ranks 2\nrank 0 { send any 8 }"), "s.sched:2:15: expected a number, N, rank or a table entry, found 'any'");
  EXPECT_EQ(error_of("ranks 2\nrank 0 { send 2 8 }"), "s.sched:2:15: rank 2 is outside 0..1");
  EXPECT_EQ(error_of("ranks 2\nrank 0 { bcast 8 comm=evens }"), "s.sched:2:23: unknown communicator 'evens'");
  EXPECT_EQ(error_of("ranks 2\nrank 0 { recv 1"), "s.sched:2:16: expected '}' to close the body, found the end");
  EXPECT_EQ(error_of("rank 0 { }"), "s.sched:1:1: a schedule starts with 'ranks N', the number of ranks");
  EXPECT_EQ(error_of("ranks 4\nranks 2..9 { }"), "s.sched:2:7: rank range 2..9 is not inside 0..3");
  EXPECT_EQ(error_of("ranks 4\ncomm c = {1, 2}\nrank 1 { bcast 8 root=0 comm=c }"),
            "s.sched:3:23: root 0 is not a rank of the communicator");
  EXPECT_EQ(error_of("ranks 4\nrank 1 { send 0 1/0 }"), "s.sched:2:19: division by zero");
  EXPECT_EQ(error_of("ranks 4\nrank 1 { compute 3 parsecs }"), "s.sched:2:20: unknown operation 'parsecs'");
  EXPECT_EQ(error_of("ranks 2\nrank 0 { send 1 8 $ }"), "s.sched:2:19: unexpected character '$'");
}

// Nesting is bounded: deep input is an error naming where it went too deep, not a stack overflow.
TEST(SimSchedule, DeepNestingIsAnErrorNotACrash) {
  const std::string minuses(100000, '-');
  EXPECT_EQ(error_of("ranks 2\nrank 0 { send 1 " + minuses + "8 }"), "s.sched:2:274: nested more than 256 deep");
  const std::string opens(100000, '(');
  EXPECT_EQ(error_of("ranks 2\nrank 0 { send 1 " + opens + "8 }"), "s.sched:2:273: nested more than 256 deep");
  std::string repeats = "ranks 2\nrank 0 {";
  for (int i = 0; i < 300; ++i) repeats += " repeat 1 {";
  EXPECT_EQ(error_of(repeats), "s.sched:2:2833: nested more than 256 deep");
  // Nesting just inside the limit still parses, and its value is right.
  const std::string fine =
      fmt::format("ranks 2\nrank 0 {{ send 1 {}8{} }}\nrank 1 {{ recv 0 8 }}", std::string(200, '('), std::string(200, ')'));
  EXPECT_EQ(error_of(fine), "no error");
}

TEST(SimSchedule, WrittenScheduleReadsBackTheSame) {
  auto p = parse_schedule(R"(ranks 5
comm low = {0, 1, 2}
ranks 0..4 { compute 1.5us sendrecv rank+1 rank-1 64 tag=2 }
ranks 0..2 { reduce 100 root=1 comm=low ssend 3 8 irecv any 4 irecv any 4 wait {1} waitall sleep 2ms at 0.25 })",
                          "w");
  auto again = parse_schedule(write_schedule(*p), "written");
  for (int r = 0; r < 5; ++r) {
    const auto a = ops_of(*p, r), b = ops_of(*again, r);
    ASSERT_EQ(a.size(), b.size()) << "rank " << r;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].kind, b[i].kind);
      EXPECT_EQ(a[i].peer, b[i].peer);
      EXPECT_EQ(a[i].value, b[i].value);
      EXPECT_EQ(a[i].comm, b[i].comm);
      if (a[i].kind == OpKind::wait && a[i].peer >= 0) {
        EXPECT_EQ(p->wait_set(a[i].peer), again->wait_set(b[i].peer));
      }
    }
  }
  // `wait {1}` names the second outstanding request.
  const auto ops = ops_of(*p, 0);
  const auto& wait = ops[ops.size() - 4];  // before waitall, sleep and at
  ASSERT_EQ(wait.kind, OpKind::wait);
  ASSERT_GE(wait.peer, 0);
  EXPECT_EQ(p->wait_set(wait.peer), std::vector<std::uint32_t>{1});
  EXPECT_EQ(error_of("ranks 1\nrank 0 { wait {-1} }"), "s.sched:2:16: a request's position must be 0 or more");
}

// MPI_PROC_NULL peers (the ends of a non-periodic array) are written as `null` and read back so.
TEST(SimSchedule, NullPeersAreWrittenAndReadBack) {
  auto p = parse_schedule(R"(ranks 3
rank 0 { sendrecv 1 null 64 send null 8 }
rank 1 { sendrecv 2 0 64 isend null 8 wait }
rank 2 { sendrecv null 1 64 recv null irecv null 4 wait })",
                          "n");
  const auto written = write_schedule(*p);
  EXPECT_NE(written.find("sendrecv 1 null 64"), std::string::npos) << written;
  auto again = parse_schedule(written, "written");
  for (int r = 0; r < 3; ++r) {
    const auto a = ops_of(*p, r), b = ops_of(*again, r);
    ASSERT_EQ(a.size(), b.size()) << "rank " << r;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].peer, b[i].peer) << "rank " << r << " op " << i;
      EXPECT_EQ(a[i].peer2, b[i].peer2) << "rank " << r << " op " << i;
    }
  }
  EXPECT_EQ(ops_of(*p, 0)[0].peer2, kNoPeer);
  EXPECT_EQ(ops_of(*p, 2)[1].peer, kNoPeer);
  EXPECT_EQ(error_of("ranks 2\nrank 0 { recv any tag=any send any 8 }").find("s.sched:2:"), 0u);
}

// A later body replaces an earlier one only for the ranks it names, also when the earlier one
// named every rank.
TEST(SimSchedule, ALaterBodyReplacesTheWholeRangesOnlyForItsRanks) {
  auto p = parse_schedule("ranks 4\nranks 0..N-1 { compute 2ms }\nrank 0 { compute 3ms }", "r");
  ASSERT_EQ(ops_of(*p, 0).size(), 1u);
  EXPECT_DOUBLE_EQ(ops_of(*p, 0)[0].value, 3e-3);
  for (int r = 1; r < 4; ++r) {
    ASSERT_EQ(ops_of(*p, r).size(), 1u) << "rank " << r;
    EXPECT_DOUBLE_EQ(ops_of(*p, r)[0].value, 2e-3) << "rank " << r;
  }
  auto partial = parse_schedule("ranks 4\nrank 1 { compute 1ms }", "q");
  EXPECT_TRUE(ops_of(*partial, 0).empty());
  EXPECT_EQ(ops_of(*partial, 1).size(), 1u);
}

}  // namespace
}  // namespace test_sim_schedule
