// OTF2 import: an archive written as Score-P writes one, and augur's own export read back. The
// imported trace must hold the calls, peers, sizes and times of the trace it came from, and its
// replay must equal that trace's replay on the same model.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "otf2_scorep_writer.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/program/replay.hpp"
#include "sim_program.hpp"
#include "trace/exporters.hpp"
#include "trace/native_reader.hpp"
#include "trace/otf2_reader.hpp"
#include "trace/read_any.hpp"
#include "trace/synthetic.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_trace_otf2_import {
namespace {

namespace {

using namespace augur;
using namespace augur::trace;
using augur_test::ScorepLikeArchive;
namespace fs = std::filesystem;

// Microseconds as the import computes them from ticks: a correctly rounded quotient.
double us(double x) { return x / 1e6; }
OTF2_TimeStamp at(double micro) { return ScorepLikeArchive::ticks(us(micro)); }

fs::path temp_dir(const std::string& name) {
  return fs::temp_directory_path() / ("augur-otf2-import-" + std::to_string(::getpid()) + "-" + name);
}

sim::Result replay(const Trace& t) {
  const auto model = augur_test::toy();
  sim::ModelNetwork net(model, model::Bound::avg);
  auto program = sim::replay_program(t, 1.0);
  return sim::simulate(*program.program, net);
}

void expect_same_replay(const Trace& a, const Trace& b) {
  const auto ra = replay(a), rb = replay(b);
  EXPECT_NEAR(ra.predicted, rb.predicted, 1e-9 * ra.predicted);
  EXPECT_EQ(ra.predicted, rb.predicted);
  EXPECT_EQ(ra.messages, rb.messages);
  EXPECT_EQ(ra.operations_run, rb.operations_run);
}

// Three ranks. Rank 0 sends to 1, receives from 2 on a communicator of world ranks {2, 0} with
// Irecv and Waitall, and roots a broadcast; rank 2 Isends, Tests, Waits. Rank 0 has a second
// thread, and an event of a kind the import does not read (a buffer flush).
fs::path write_scorep_archive(const fs::path& dir) {
  ScorepLikeArchive archive(dir, 3, {{2, 0}});
  archive.location(0, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(0), augur_test::kMain);
    OTF2_EvtWriter_Enter(w, nullptr, at(10), augur_test::kMpiSend);
    OTF2_EvtWriter_MpiSend(w, nullptr, at(10.5), 1, 0, 7, 1000);
    OTF2_EvtWriter_Leave(w, nullptr, at(12), augur_test::kMpiSend);
    OTF2_EvtWriter_Enter(w, nullptr, at(20), augur_test::kMpiIrecv);
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, at(20.5), 5);
    OTF2_EvtWriter_Leave(w, nullptr, at(21), augur_test::kMpiIrecv);
    OTF2_EvtWriter_Enter(w, nullptr, at(30), augur_test::kMpiWaitall);
    OTF2_EvtWriter_MpiIrecv(w, nullptr, at(38), 0, 1, 3, 64, 5);
    OTF2_EvtWriter_Leave(w, nullptr, at(40), augur_test::kMpiWaitall);
    OTF2_EvtWriter_BufferFlush(w, nullptr, at(45), at(46));
    OTF2_EvtWriter_Enter(w, nullptr, at(50), augur_test::kMpiBcast);
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(50.1));
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, at(59), OTF2_COLLECTIVE_OP_BCAST, 0, 0, 3 * 256, 256);
    OTF2_EvtWriter_Leave(w, nullptr, at(60), augur_test::kMpiBcast);
    OTF2_EvtWriter_Leave(w, nullptr, at(70), augur_test::kMain);
  });
  archive.location(0, 1, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(15), augur_test::kMain);
    OTF2_EvtWriter_Leave(w, nullptr, at(16), augur_test::kMain);
  });
  archive.location(1, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(0), augur_test::kMain);
    OTF2_EvtWriter_Enter(w, nullptr, at(5), augur_test::kMpiRecv);
    OTF2_EvtWriter_MpiRecv(w, nullptr, at(14), 0, 0, 7, 1000);
    OTF2_EvtWriter_Leave(w, nullptr, at(15), augur_test::kMpiRecv);
    OTF2_EvtWriter_Enter(w, nullptr, at(50), augur_test::kMpiBcast);
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(50));
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, at(60), OTF2_COLLECTIVE_OP_BCAST, 0, 0, 0, 256);
    OTF2_EvtWriter_Leave(w, nullptr, at(61), augur_test::kMpiBcast);
    OTF2_EvtWriter_Leave(w, nullptr, at(70), augur_test::kMain);
  });
  archive.location(2, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(0), augur_test::kMain);
    OTF2_EvtWriter_Enter(w, nullptr, at(20), augur_test::kMpiIsend);
    OTF2_EvtWriter_MpiIsend(w, nullptr, at(20.2), 1, 1, 3, 64, 9);
    OTF2_EvtWriter_Leave(w, nullptr, at(22), augur_test::kMpiIsend);
    OTF2_EvtWriter_Enter(w, nullptr, at(23), augur_test::kMpiTest);
    OTF2_EvtWriter_MpiRequestTest(w, nullptr, at(23.5), 9);
    OTF2_EvtWriter_Leave(w, nullptr, at(24), augur_test::kMpiTest);
    OTF2_EvtWriter_Enter(w, nullptr, at(25), augur_test::kMpiWaitall);
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, at(25.5), 9);
    OTF2_EvtWriter_Leave(w, nullptr, at(26), augur_test::kMpiWaitall);
    OTF2_EvtWriter_Enter(w, nullptr, at(51), augur_test::kMpiBcast);
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, at(51));
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, at(61), OTF2_COLLECTIVE_OP_BCAST, 0, 0, 0, 256);
    OTF2_EvtWriter_Leave(w, nullptr, at(62), augur_test::kMpiBcast);
    OTF2_EvtWriter_Leave(w, nullptr, at(70), augur_test::kMain);
  });
  return archive.write();
}

// The native trace the reverse profiler would have written for the same run.
struct NativeBuilder {
  Trace t;
  NativeBuilder() { t.ranks.resize(3); }
  void state(int r, double b, double e, std::string_view op = {}) {
    t.ranks[r].states.push_back({us(b), us(e), op.empty() ? 0 : t.intern(op), op.empty() ? StateKind::compute : StateKind::mpi});
  }
};

Trace scorep_run_as_native() {
  NativeBuilder n;
  auto& t = n.t;
  for (auto [b, e, op] : std::initializer_list<std::tuple<double, double, const char*>>{
           {0, 10, ""}, {10, 12, "send"}, {12, 20, ""}, {20, 21, "irecv1"}, {21, 30, ""}, {30, 40, "wait"},
           {40, 50, ""}, {50, 60, "bcast"}, {60, 70, ""}})
    n.state(0, b, e, op);
  t.ranks[0].sends.push_back({us(10), 1, 7, 0, 1000});
  t.ranks[0].recvs.push_back({us(20), us(38), 2, 3, 1, 64});
  t.ranks[0].requests.push_back({us(20), 0, 2});
  t.ranks[0].completions.push_back({us(30), 0});
  t.ranks[0].collectives.push_back({us(50), us(59), t.intern("bcast"), 0, 0, 256});
  for (auto [b, e, op] : std::initializer_list<std::tuple<double, double, const char*>>{
           {0, 5, ""}, {5, 15, "recv"}, {15, 50, ""}, {50, 61, "bcast"}, {61, 70, ""}})
    n.state(1, b, e, op);
  t.ranks[1].recvs.push_back({us(5), us(14), 0, 7, 0, 1000});
  t.ranks[1].collectives.push_back({us(50), us(60), t.intern("bcast"), 0, 0, 256});
  for (auto [b, e, op] : std::initializer_list<std::tuple<double, double, const char*>>{
           {0, 20, ""}, {20, 22, "isend1"}, {22, 23, ""}, {23, 24, "test"}, {24, 25, ""}, {25, 26, "wait"},
           {26, 51, ""}, {51, 62, "bcast"}, {62, 70, ""}})
    n.state(2, b, e, op);
  t.ranks[2].sends.push_back({us(20), 0, 3, 1, 64});
  t.ranks[2].requests.push_back({us(20), 0, 0});
  t.ranks[2].completions.push_back({us(25), 0});
  t.ranks[2].collectives.push_back({us(51), us(61), t.intern("bcast"), 0, 0, 256});
  return t;
}

void expect_same_records(const Trace& got, const Trace& want) {
  ASSERT_EQ(got.nranks(), want.nranks());
  for (int r = 0; r < want.nranks(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const auto &g = got.ranks[r], &w = want.ranks[r];
    ASSERT_EQ(g.states.size(), w.states.size());
    for (std::size_t i = 0; i < w.states.size(); ++i) {
      EXPECT_EQ(got.label(g.states[i]), want.label(w.states[i])) << i;
      EXPECT_EQ(g.states[i].begin, w.states[i].begin) << i;
      EXPECT_EQ(g.states[i].end, w.states[i].end) << i;
    }
    ASSERT_EQ(g.sends.size(), w.sends.size());
    for (std::size_t i = 0; i < w.sends.size(); ++i) {
      EXPECT_EQ(g.sends[i].time, w.sends[i].time);
      EXPECT_EQ(g.sends[i].dst, w.sends[i].dst);
      EXPECT_EQ(g.sends[i].tag, w.sends[i].tag);
      EXPECT_EQ(g.sends[i].bytes, w.sends[i].bytes);
    }
    ASSERT_EQ(g.recvs.size(), w.recvs.size());
    for (std::size_t i = 0; i < w.recvs.size(); ++i) {
      EXPECT_EQ(g.recvs[i].post, w.recvs[i].post);
      EXPECT_EQ(g.recvs[i].end, w.recvs[i].end);
      EXPECT_EQ(g.recvs[i].src, w.recvs[i].src);
      EXPECT_EQ(g.recvs[i].tag, w.recvs[i].tag);
      EXPECT_EQ(g.recvs[i].bytes, w.recvs[i].bytes);
      EXPECT_EQ(g.recvs[i].wildcard, w.recvs[i].wildcard);
    }
    ASSERT_EQ(g.requests.size(), w.requests.size());
    for (std::size_t i = 0; i < w.requests.size(); ++i) {
      EXPECT_EQ(g.requests[i].time, w.requests[i].time);
      EXPECT_EQ(g.requests[i].peer, w.requests[i].peer);
    }
    ASSERT_EQ(g.completions.size(), w.completions.size());
    for (std::size_t i = 0; i < w.completions.size(); ++i) EXPECT_EQ(g.completions[i].time, w.completions[i].time);
    ASSERT_EQ(g.collectives.size(), w.collectives.size());
    for (std::size_t i = 0; i < w.collectives.size(); ++i) {
      EXPECT_EQ(got.names[g.collectives[i].op], want.names[w.collectives[i].op]);
      EXPECT_EQ(g.collectives[i].begin, w.collectives[i].begin);
      EXPECT_EQ(g.collectives[i].end, w.collectives[i].end);
      EXPECT_EQ(g.collectives[i].root, w.collectives[i].root);
      EXPECT_EQ(g.collectives[i].bytes, w.collectives[i].bytes);
    }
    ASSERT_EQ(g.phases.size(), w.phases.size());
    for (std::size_t i = 0; i < w.phases.size(); ++i) EXPECT_EQ(g.phases[i].time, w.phases[i].time);
  }
}

Trace two_rank_trace() {
  Trace t;
  t.ranks.resize(2);
  t.header.machine = "toy";
  return t;
}

void add_call(Trace& t, int rank, double begin, double end, std::string_view op) {
  t.ranks[rank].states.push_back({begin, end, t.intern(op), StateKind::mpi});
}

}  // namespace

TEST(Otf2Import, AScorepArchiveGivesTheNativeTraceOfTheSameRun) {
  const auto dir = temp_dir("scorep");
  const auto anchor = write_scorep_archive(dir);
  const Trace got = read_trace(dir);
  const Trace want = scorep_run_as_native();
  expect_same_records(got, want);
  EXPECT_EQ(got.ranks[0].recvs[0].comm, got.ranks[2].sends[0].comm);
  EXPECT_NE(got.ranks[0].recvs[0].comm, 0);
  EXPECT_TRUE(got.problems.empty());
  std::string notes;
  for (const auto& n : got.notes) notes += n + "\n";
  EXPECT_NE(notes.find("rank 0 (MPI Rank 0): 1 further location(s) (threads) with 2 events left out"), std::string::npos) << notes;
  EXPECT_NE(notes.find("rank 0: 1 events of kinds not read"), std::string::npos) << notes;
  expect_same_replay(got, want);
  // The anchor file names the archive as well as its directory.
  EXPECT_EQ(read_trace(anchor).event_count(), got.event_count());
  fs::remove_all(dir);
}

TEST(Otf2Import, AReceiveWithoutItsSendIsRefusedNamingRankAndEvent) {
  const auto dir = temp_dir("unmatched");
  ScorepLikeArchive archive(dir, 2);
  archive.location(0, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(0), augur_test::kMain);
    OTF2_EvtWriter_Leave(w, nullptr, at(9), augur_test::kMain);
  });
  archive.location(1, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_Enter(w, nullptr, at(5), augur_test::kMpiRecv);
    OTF2_EvtWriter_MpiRecv(w, nullptr, at(8), 0, 0, 4, 32);
    OTF2_EvtWriter_Leave(w, nullptr, at(9), augur_test::kMpiRecv);
  });
  archive.write();
  try {
    read_otf2_trace(dir);
    FAIL() << "an unmatched receive was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1 receive(s) without a matching send"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 1: receive from rank 0 (tag 4, communicator 0, 32 bytes)"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

TEST(Otf2Import, EventsThatCannotBePlacedAreCountedNotFatal) {
  const auto dir = temp_dir("stray");
  ScorepLikeArchive archive(dir, 1);
  archive.location(0, 0, [](OTF2_EvtWriter* w) {
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, at(1), 77);
    OTF2_EvtWriter_Enter(w, nullptr, at(2), augur_test::kMpiWaitall);
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, at(3), 77);
    OTF2_EvtWriter_Leave(w, nullptr, at(4), augur_test::kMpiWaitall);
    OTF2_EvtWriter_Leave(w, nullptr, at(5), augur_test::kMain);
  });
  archive.write();
  const Trace t = read_otf2_trace(dir);
  std::string notes;
  for (const auto& n : t.notes) notes += n + "\n";
  EXPECT_NE(notes.find("rank 0: 2 × MpiIsendComplete of a request no MpiIsend made"), std::string::npos) << notes;
  EXPECT_NE(notes.find("rank 0: 1 × Leave of a region that was not entered last"), std::string::npos) << notes;
  // Compute from the first event to the Waitall, the Waitall, compute to the last event.
  ASSERT_EQ(t.ranks[0].states.size(), 3u);
  EXPECT_EQ(t.label(t.ranks[0].states[1]), "wait");
  EXPECT_EQ(t.ranks[0].states[0].begin, us(1));
  EXPECT_EQ(t.ranks[0].states[2].end, us(5));
  fs::remove_all(dir);
}

TEST(Otf2Import, ATruncatedEventFileIsRefusedWithFileEventAndReason) {
  const auto dir = temp_dir("truncated");
  write_synthetic_trace(dir / "native", {.ranks = 2, .events = 400});
  export_otf2(read_native_trace(dir / "native"), dir / "otf2");
  const auto evt = dir / "otf2" / "traces" / "1.evt";
  fs::resize_file(evt, fs::file_size(evt) / 2);
  try {
    read_trace(dir / "otf2");
    FAIL() << "a truncated archive was read";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(evt.string() + ": event ", 0), 0u) << what;
    EXPECT_NE(what.find("(rank 1, location 1): "), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

TEST(Otf2Import, AugursExportReadBackIsTheSameTraceAndReplaysTheSame) {
  const auto dir = temp_dir("roundtrip");
  write_synthetic_trace(dir / "native", {.ranks = 4, .events = 4000});
  const Trace original = read_native_trace(dir / "native");
  export_otf2(original, dir / "otf2");
  const Trace back = read_trace(dir / "otf2");
  EXPECT_TRUE(back.notes.empty()) << back.notes.front();
  EXPECT_EQ(back.header.machine, original.header.machine);
  expect_same_records(back, original);
  expect_same_replay(back, original);
  fs::remove_all(dir);
}

TEST(Otf2Import, NonBlockingCallsAndWildcardsSurviveTheRoundTrip) {
  Trace t = two_rank_trace();
  auto call = [&](int r, double b, double e, std::string_view op) { add_call(t, r, b, e, op); };
  // Rank 0: two Isends to rank 1 (one with a tag rank 1 leaves open), then one Waitall.
  call(0, 1e-6, 1.3e-6, "isend1");
  t.ranks[0].requests.push_back({1e-6, 0, 1});
  t.ranks[0].sends.push_back({1e-6, 1, 5, 0, 100});
  call(0, 2e-6, 2.7e-6, "isend1");
  t.ranks[0].requests.push_back({2e-6, 1, 1});
  t.ranks[0].sends.push_back({2e-6, 1, 6, 0, 9000});
  t.ranks[0].states.push_back({2.7e-6, 3.1e-6, 0, StateKind::compute});
  call(0, 3.1e-6, 9.9e-6, "wait");
  t.ranks[0].completions.push_back({3.1e-6, 0});
  t.ranks[0].completions.push_back({3.1e-6, 1});
  // Rank 1: an Irecv from any source and a blocking receive of any tag.
  call(1, 0.5e-6, 0.6e-6, "irecv1");
  t.ranks[1].requests.push_back({0.5e-6, 0, -1});
  call(1, 0.7e-6, 12.25e-6, "recv");
  t.ranks[1].recvs.push_back({0.7e-6, 12.25e-6, 0, 6, 0, 9000, kAnyTag});
  call(1, 13e-6, 14e-6, "wait");
  t.ranks[1].recvs.push_back({0.5e-6, 13.5e-6, 0, 5, 0, 100, kAnySource});
  t.ranks[1].completions.push_back({13e-6, 0});
  const auto dir = temp_dir("nonblocking");
  export_otf2(t, dir);
  const Trace back = read_trace(dir);
  EXPECT_TRUE(back.notes.empty()) << back.notes.front();
  expect_same_records(back, t);
  expect_same_replay(back, t);
  fs::remove_all(dir);
}

// Ranks 0 and 1 duplicate their half (communicator 7) and then rank 0 sends to rank 2; ranks 2
// and 3 duplicate theirs (communicator 9) after the receive. The creations' records survive the
// round trip on their parents (OTF2's CREATE_HANDLE), so the replay waits for each half alone, and
// so does a window's fence (written as a barrier, read back as the fence it is).
TEST(Otf2Import, CommunicatorCreationAndFencesSurviveTheRoundTrip) {
  Trace t;
  t.ranks.resize(4);
  t.header.machine = "toy";
  const auto creation = [&](int r, double b, double e, std::int32_t comm) {
    add_call(t, r, b, e, "comm_dup");
    t.ranks[r].collectives.push_back({b, e, t.intern("comm_dup"), comm, -1, 0});
  };
  creation(0, 1e-6, 2e-6, 7), creation(1, 1e-6, 2e-6, 7);
  add_call(t, 0, 2e-6, 3e-6, "send");
  t.ranks[0].sends.push_back({2e-6, 2, 0, 0, 8});
  add_call(t, 2, 1e-6, 4e-6, "recv");
  t.ranks[2].recvs.push_back({1e-6, 4e-6, 0, 0, 0, 8});
  add_call(t, 3, 1e-6, 1.5e-6, "win_fence");
  t.ranks[3].collectives.push_back({1e-6, 1.5e-6, t.intern("win_fence"), 11, -1, 0});
  creation(2, 4e-6, 5e-6, 9), creation(3, 4e-6, 5e-6, 9);
  const auto dir = temp_dir("creation");
  export_otf2(t, dir);
  const Trace back = read_trace(dir);
  EXPECT_TRUE(back.notes.empty()) << back.notes.front();
  expect_same_records(back, t);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(back.ranks[r].collectives.front().comm == back.ranks[0].collectives.front().comm, r < 2) << r;
  expect_same_replay(back, t);
  fs::remove_all(dir);
}

// A grid's edge ranks post an Isend and an Irecv towards MPI_PROC_NULL: no message, but a request
// each that the Waitall counts. The export keeps them (attribute augur::null_request), so the
// Wait's requests and the replay are the same after the round trip.
TEST(Otf2Import, RequestsTowardsProcNullSurviveTheRoundTrip) {
  Trace t = two_rank_trace();
  auto call = [&](int r, double b, double e, std::string_view op) { add_call(t, r, b, e, op); };
  call(0, 1e-6, 1.2e-6, "irecv1");
  t.ranks[0].requests.push_back({1e-6, 0, kNullPeer});
  call(0, 2e-6, 2.4e-6, "isend1");
  t.ranks[0].requests.push_back({2e-6, 1, kNullPeer});
  call(0, 3e-6, 3.5e-6, "isend1");
  t.ranks[0].requests.push_back({3e-6, 2, 1});
  t.ranks[0].sends.push_back({3e-6, 1, 7, 0, 64});
  call(0, 4e-6, 6e-6, "wait");
  for (std::uint32_t id : {0u, 1u, 2u}) t.ranks[0].completions.push_back({4e-6, id});
  call(1, 0.5e-6, 9e-6, "recv");
  t.ranks[1].recvs.push_back({0.5e-6, 9e-6, 0, 7, 0, 64, 0});
  const auto dir = temp_dir("procnull");
  export_otf2(t, dir);
  const Trace back = read_trace(dir);
  EXPECT_TRUE(back.notes.empty()) << back.notes.front();
  expect_same_records(back, t);
  ASSERT_EQ(back.ranks[0].requests.size(), 3u);
  EXPECT_EQ(back.ranks[0].requests[0].peer, kNullPeer);
  EXPECT_EQ(back.ranks[0].requests[1].peer, kNullPeer);
  expect_same_replay(back, t);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace test_trace_otf2_import
