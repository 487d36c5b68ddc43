// The native trace: what the writer appends is what the reader returns, a crash loses at most
// the last buffer, and damage is reported with the rank file and offset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "trace/messages.hpp"
#include "trace/native_reader.hpp"
#include "trace/writer.hpp"

namespace {

using namespace augur::trace;
namespace fs = std::filesystem;

// An empty directory for one test, removed when the test ends.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("augur-trace-test-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const TraceHeader kHeader{TraceMode::predicted, "sp2-mpl", "seconds, virtual", "./life 32"};

// Two ranks: rank 0 computes, sends to 1 and joins a barrier; rank 1 receives, then the barrier.
void write_two_ranks(const fs::path& dir) {
  RankWriter r0(dir, 0, 2, kHeader);
  RankWriter r1(dir, 1, 2, kHeader);
  auto send = r0.name_id("MPI_Send");
  auto barrier0 = r0.name_id("MPI_Barrier");
  auto recv = r1.name_id("MPI_Recv");
  auto barrier1 = r1.name_id("MPI_Barrier");
  r0.phase_begin(0.0, "solve");
  r0.state(0.0, 1.0, StateKind::compute);
  r0.send(1.0, 1, 7, 4096, 0);
  r0.state(1.0, 1.5, StateKind::mpi, send);
  r0.state(1.5, 2.0, StateKind::mpi, barrier0);
  r0.collective(1.5, 2.0, barrier0, 0, -1, 0);
  r0.phase_end(2.0, "solve");
  r1.recv(0.0, 1.25, 0, 7, 4096, 0);
  r1.state(0.0, 1.25, StateKind::mpi, recv);
  r1.state(1.25, 1.5, StateKind::wait);
  r1.state(1.5, 2.0, StateKind::mpi, barrier1);
  r1.collective(1.5, 2.0, barrier1, 0, -1, 0);
}

TEST(NativeTrace, ReadsBackWhatWasWritten) {
  const ScratchDir scratch("roundtrip");
  const auto& dir = scratch.path();
  write_two_ranks(dir);
  auto t = read_native_trace(dir);
  EXPECT_TRUE(t.problems.empty()) << t.problems[0].message();
  EXPECT_EQ(t.header.mode, TraceMode::predicted);
  EXPECT_EQ(t.header.machine, "sp2-mpl");
  EXPECT_EQ(t.header.clock, "seconds, virtual");
  ASSERT_EQ(t.nranks(), 2);
  ASSERT_EQ(t.ranks[0].states.size(), 3u);
  EXPECT_EQ(t.label(t.ranks[0].states[1]), "MPI_Send");
  EXPECT_EQ(t.label(t.ranks[1].states[1]), "WAIT");
  // Both ranks registered MPI_Barrier under their own ids; the reader unifies them.
  EXPECT_EQ(t.ranks[0].states[2].op, t.ranks[1].states[2].op);
  EXPECT_EQ(t.ranks[0].sends[0].bytes, 4096u);
  EXPECT_EQ(t.ranks[1].recvs[0].end, 1.25);
  EXPECT_EQ(t.ranks[0].collectives[0].root, -1);
  ASSERT_EQ(t.ranks[0].phases.size(), 2u);
  EXPECT_EQ(t.names[t.ranks[0].phases[0].name], "solve");
  EXPECT_EQ(t.event_count(), 3u + 1 + 1 + 2 + 3 + 1 + 1);
  EXPECT_DOUBLE_EQ(t.end_time() - t.start_time(), 2.0);
}

// Version 2's records: a receive's wildcards, the requests non-blocking calls made and the ones
// each Wait completed.
TEST(NativeTrace, WildcardsAndRequestsReadBack) {
  const ScratchDir scratch("v2");
  {
    RankWriter w(scratch.path(), 0, 2, kHeader);
    w.request(0.5, 0, -1);
    w.request(0.75, 1, kNullPeer);
    w.recv(0.5, 2.0, 1, 3, 64, 0, kAnySource | kAnyTag);
    w.recv(0.75, 2.5, 1, 4, 64, 0);
    w.complete(3.0, 1);
    w.complete(3.0, 0);
  }
  const auto t = read_native_trace(scratch.path());
  ASSERT_TRUE(t.problems.empty() || t.problems[0].reason == "rank file is missing");
  const auto& r = t.ranks[0];
  ASSERT_EQ(r.recvs.size(), 2u);
  EXPECT_EQ(r.recvs[0].wildcard, kAnySource | kAnyTag);
  EXPECT_EQ(r.recvs[0].src, 1);
  EXPECT_EQ(r.recvs[1].wildcard, 0);
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.requests[1].time, 0.75);
  EXPECT_EQ(r.requests[1].id, 1u);
  EXPECT_EQ(r.requests[0].peer, -1);
  EXPECT_EQ(r.requests[1].peer, kNullPeer);
  ASSERT_EQ(r.completions.size(), 2u);
  EXPECT_EQ(r.completions[0].id, 1u);
  EXPECT_EQ(r.completions[1].time, 3.0);
}

// A version 1 file (written before version 2's records existed) still reads.
TEST(NativeTrace, VersionOneFilesStillRead) {
  const ScratchDir scratch("v1");
  write_two_ranks(scratch.path());
  for (int rank = 0; rank < 2; ++rank) {
    std::fstream f(scratch.path() / rank_file_name(rank), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(sizeof kMagic);
    const std::uint16_t one = 1;
    f.write(reinterpret_cast<const char*>(&one), sizeof one);
  }
  const auto t = read_native_trace(scratch.path());
  EXPECT_TRUE(t.problems.empty()) << t.problems[0].message();
  EXPECT_EQ(t.ranks[1].recvs.size(), 1u);
  EXPECT_TRUE(t.ranks[1].requests.empty());
}

TEST(NativeTrace, PairsSendsWithReceivesInSendOrder) {
  const ScratchDir scratch("pairs");
  const auto& dir = scratch.path();
  {
    RankWriter r0(dir, 0, 2, kHeader), r1(dir, 1, 2, kHeader);
    r0.send(1.0, 1, 5, 10, 0);
    r0.send(2.0, 1, 6, 20, 0);
    r0.send(3.0, 1, 5, 30, 0);
    r1.recv(0.0, 2.5, 0, 6, 20, 0);  // the tag-6 message is received first
    r1.recv(2.5, 2.6, 0, 5, 10, 0);
    r1.recv(2.6, 3.5, 0, 5, 30, 0);
    r1.recv(3.5, 4.0, 0, 9, 1, 0);   // nothing was sent with tag 9
  }
  auto p = pair_messages(read_native_trace(dir));
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_EQ(p.message_of_recv[1][0], p.message_of_send[0][1]);
  EXPECT_EQ(p.message_of_recv[1][1], p.message_of_send[0][0]);
  EXPECT_EQ(p.message_of_recv[1][2], p.message_of_send[0][2]);
  EXPECT_EQ(p.unmatched_recvs, 1u);
  EXPECT_EQ(p.unmatched_sends, 0u);
}

TEST(NativeTrace, FlushedBuffersSurviveACrash) {
  const ScratchDir scratch("crash");
  const auto& dir = scratch.path();
  auto* w = new RankWriter(dir, 0, 1, kHeader, 4096);
  for (int i = 0; i < 1000; ++i) w->state(i, i + 1, StateKind::compute);
  // Simulate a crash: the writer is never destroyed, so its last buffer never reaches the file.
  auto t = read_native_trace(dir / rank_file_name(0));
  auto kept = t.ranks[0].states.size();
  EXPECT_GT(kept, 1000u - 4096 / kStateRecordSize - 1);
  EXPECT_LT(kept, 1000u);
  w->flush();
  EXPECT_EQ(read_native_trace(dir).ranks[0].states.size(), 1000u);
  delete w;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(NativeTrace, TruncatedFileKeepsTheRecordsBeforeTheCut) {
  const ScratchDir scratch("truncated");
  const auto& dir = scratch.path();
  write_two_ranks(dir);
  auto file = dir / rank_file_name(1);
  auto bytes = file_bytes(file);
  fs::resize_file(file, bytes.size() - 7);
  auto t = read_native_trace(dir);
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_EQ(t.problems[0].file, file.string());
  EXPECT_EQ(t.problems[0].offset, bytes.size() - kCollectiveRecordSize);
  EXPECT_NE(t.problems[0].message().find("truncated collective record"), std::string::npos);
  EXPECT_EQ(t.ranks[1].states.size(), 3u);
  EXPECT_TRUE(t.ranks[1].collectives.empty());
  EXPECT_EQ(t.ranks[0].collectives.size(), 1u);
}

TEST(NativeTrace, CorruptRecordTypeIsReportedAtItsOffset) {
  const ScratchDir scratch("corrupt");
  const auto& dir = scratch.path();
  {
    RankWriter w(dir, 0, 1, kHeader);
    w.state(0, 1, StateKind::compute);
    w.send(1, 0, 0, 8, 0);
    w.state(1, 2, StateKind::compute);
  }
  auto bytes = file_bytes(dir / rank_file_name(0));
  std::size_t send_at = bytes.size() - kStateRecordSize - kSendRecordSize;
  bytes[send_at] = char(99);
  Trace t;
  read_rank_bytes(bytes, "rank-00000.augt", t);
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_EQ(t.problems[0].message(),
            "rank-00000.augt: offset " + std::to_string(send_at) + ": unknown record type 99");
  EXPECT_EQ(t.ranks[0].states.size(), 1u);
}

TEST(NativeTrace, RejectsWhatIsNotATrace) {
  Trace t;
  EXPECT_FALSE(read_rank_bytes("hello, world", "x.augt", t));
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_NE(t.problems[0].reason.find("file too short"), std::string::npos);
  Trace u;
  EXPECT_FALSE(read_rank_bytes(std::string(64, 'x'), "y.augt", u));
  EXPECT_NE(u.problems[0].reason.find("bad magic"), std::string::npos);
}

TEST(NativeTrace, MissingRankFileIsReported) {
  const ScratchDir scratch("missing");
  const auto& dir = scratch.path();
  write_two_ranks(dir);
  fs::remove(dir / rank_file_name(0));
  auto t = read_native_trace(dir);
  ASSERT_EQ(t.problems.size(), 1u);
  EXPECT_NE(t.problems[0].message().find("rank-00000.augt: offset 0: rank file is missing"), std::string::npos);
  EXPECT_EQ(t.ranks[1].states.size(), 3u);
}

}  // namespace
