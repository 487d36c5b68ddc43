// Exporters: each output is read back (or parsed) and its records counted against the trace.
#include <gtest/gtest.h>

#include <otf2/otf2.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "trace/exporters.hpp"
#include "trace/messages.hpp"
#include "trace/native_reader.hpp"
#include "trace/synthetic.hpp"
#include "trace/text_reader.hpp"

namespace {

using namespace augur::trace;
namespace fs = std::filesystem;

class Exporters : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("augur-export-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    write_synthetic_trace(dir_ / "trace", {.ranks = 4, .events = 2000});
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  Trace trace = read_native_trace(dir_ / "trace");
  static inline fs::path dir_;
  fs::path out(const std::string& name) { return dir_ / name; }
  std::size_t states() const {
    std::size_t n = 0;
    for (const auto& r : trace.ranks) n += r.states.size();
    return n;
  }
};

TEST_F(Exporters, TextRoundTripKeepsEveryStateAndTime) {
  export_text(trace, out("t.txt"));
  auto back = read_text_trace_file(out("t.txt"));
  EXPECT_TRUE(back.problems.empty());
  ASSERT_EQ(back.nranks(), trace.nranks());
  for (int r = 0; r < trace.nranks(); ++r) {
    ASSERT_EQ(back.ranks[r].states.size(), trace.ranks[r].states.size()) << "rank " << r;
    for (std::size_t i = 0; i < trace.ranks[r].states.size(); ++i) {
      EXPECT_EQ(back.label(back.ranks[r].states[i]), trace.label(trace.ranks[r].states[i]));
      EXPECT_EQ(back.ranks[r].states[i].begin, trace.ranks[r].states[i].begin);
      EXPECT_EQ(back.ranks[r].states[i].end, trace.ranks[r].states[i].end);
    }
  }
}

// The Trace Event Format's rules for the phases we write.
void check_event_schema(const nlohmann::json& e) {
  static const std::set<std::string> phases = {"M", "X", "s", "f", "i", "B", "E"};
  ASSERT_TRUE(e.is_object());
  ASSERT_TRUE(e.contains("ph") && e["ph"].is_string());
  auto ph = e["ph"].get<std::string>();
  ASSERT_TRUE(phases.count(ph)) << ph;
  ASSERT_TRUE(e["pid"].is_number_integer());
  ASSERT_TRUE(e["name"].is_string());
  if (ph == "M") return;
  ASSERT_TRUE(e["tid"].is_number_integer());
  ASSERT_TRUE(e["ts"].is_number());
  EXPECT_GE(e["ts"].get<double>(), 0);
  if (ph == "X") {
    EXPECT_GE(e["dur"].get<double>(), 0);
  }
  if (ph == "s" || ph == "f") {
    ASSERT_TRUE(e["id"].is_number_integer());
  }
  if (ph == "f") {
    EXPECT_EQ(e["bp"], "e");
  }
}

TEST_F(Exporters, ChromeJsonIsValidAndHasOneFlowPairPerMessage) {
  auto files = export_chrome_json(trace, out("t.json"));
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  auto doc = nlohmann::json::parse(in);
  ASSERT_TRUE(doc["traceEvents"].is_array());
  std::map<std::string, std::size_t> count;
  std::map<std::int64_t, int> flow_ends;
  for (const auto& e : doc["traceEvents"]) {
    check_event_schema(e);
    ++count[e["ph"].get<std::string>()];
    if (e["ph"] == "s") flow_ends[e["id"].get<std::int64_t>()] += 1;
    if (e["ph"] == "f") flow_ends[e["id"].get<std::int64_t>()] += 10;
  }
  EXPECT_EQ(count["X"], states());
  auto messages = pair_messages(trace).messages.size();
  EXPECT_GT(messages, 0u);
  EXPECT_EQ(count["s"], messages);
  EXPECT_EQ(count["f"], messages);
  for (auto [id, ends] : flow_ends) EXPECT_EQ(ends, 11) << "flow " << id;
}

TEST_F(Exporters, ChromeJsonSplitsIntoValidChunks) {
  auto files = export_chrome_json(trace, out("chunked.json"), 64 * 1024);
  ASSERT_GT(files.size(), 2u);
  EXPECT_EQ(files[1].filename(), "chunked.1.json");
  std::size_t slices = 0;
  for (const auto& f : files) {
    EXPECT_LE(fs::file_size(f), 64u * 1024 + 512);
    std::ifstream in(f);
    auto doc = nlohmann::json::parse(in);
    for (const auto& e : doc["traceEvents"]) slices += e["ph"] == "X";
  }
  EXPECT_EQ(slices, states());
}

TEST_F(Exporters, ParaverRecordCountsMatchTheTrace) {
  auto files = export_paraver(trace, out("t.prv"));
  ASSERT_EQ(files.size(), 3u);
  std::ifstream prv(out("t.prv"));
  std::string line;
  std::getline(prv, line);
  EXPECT_TRUE(line.starts_with("#Paraver (")) << line;
  EXPECT_NE(line.find(":1(4):1:4(1:1,1:1,1:1,1:1)"), std::string::npos) << line;
  std::map<char, std::size_t> records;
  long long last = -1;
  while (std::getline(prv, line)) {
    ++records[line[0]];
    // Every record's time (the sixth field) is non-decreasing: Paraver requires sorted input.
    std::size_t pos = 0;
    for (int field = 0; field < 5; ++field) pos = line.find(':', pos) + 1;
    long long t = std::stoll(line.substr(pos));
    EXPECT_GE(t, last);
    last = t;
  }
  std::size_t mpi_states = 0, phases = 0;
  for (const auto& r : trace.ranks) {
    for (const auto& s : r.states) mpi_states += s.kind == StateKind::mpi;
    phases += r.phases.size();
  }
  EXPECT_EQ(records['1'], states());
  EXPECT_EQ(records['2'], 2 * mpi_states + phases);
  EXPECT_EQ(records['3'], pair_messages(trace).messages.size());
  EXPECT_TRUE(fs::exists(out("t.pcf")));
  EXPECT_TRUE(fs::exists(out("t.row")));
}

// Counts OTF2 events by reading the archive back through the OTF2 library.
struct Otf2Counts {
  std::uint64_t enter = 0, leave = 0, send = 0, recv = 0, coll_begin = 0, coll_end = 0;
};

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*, OTF2_RegionRef) {
  ++static_cast<Otf2Counts*>(c)->enter;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*, OTF2_RegionRef) {
  ++static_cast<Otf2Counts*>(c)->leave;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*, uint32_t,
                          OTF2_CommRef, uint32_t, uint64_t) {
  ++static_cast<Otf2Counts*>(c)->send;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*, uint32_t,
                          OTF2_CommRef, uint32_t, uint64_t) {
  ++static_cast<Otf2Counts*>(c)->recv;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_coll_begin(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*) {
  ++static_cast<Otf2Counts*>(c)->coll_begin;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_coll_end(OTF2_LocationRef, OTF2_TimeStamp, void* c, OTF2_AttributeList*,
                              OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) {
  ++static_cast<Otf2Counts*>(c)->coll_end;
  return OTF2_CALLBACK_SUCCESS;
}

Otf2Counts count_otf2(const fs::path& anchor, int locations) {
  Otf2Counts counts;
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  EXPECT_NE(reader, nullptr);
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  for (int l = 0; l < locations; ++l) OTF2_Reader_SelectLocation(reader, l);
  OTF2_Reader_OpenEvtFiles(reader);
  for (int l = 0; l < locations; ++l) OTF2_Reader_GetEvtReader(reader, l);
  OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
  OTF2_GlobalEvtReaderCallbacks* cb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
  OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, cb, &counts);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  uint64_t read = 0;
  EXPECT_EQ(OTF2_Reader_ReadAllGlobalEvents(reader, events, &read), OTF2_SUCCESS);
  OTF2_Reader_CloseGlobalEvtReader(reader, events);
  OTF2_Reader_CloseEvtFiles(reader);
  OTF2_Reader_Close(reader);
  return counts;
}

TEST_F(Exporters, Otf2ArchiveCarriesEveryStateMessageAndCollective) {
  auto files = export_otf2(trace, out("otf2"));
  ASSERT_EQ(files.size(), 1u);
  auto counts = count_otf2(files[0], trace.nranks());
  std::size_t phases = 0, sends = 0, recvs = 0, collectives = 0;
  for (const auto& r : trace.ranks) {
    phases += r.phases.size();
    sends += r.sends.size();
    recvs += r.recvs.size();
    collectives += r.collectives.size();
  }
  EXPECT_EQ(counts.enter, states() + phases / 2);
  EXPECT_EQ(counts.leave, states() + phases / 2);
  EXPECT_EQ(counts.send, sends);
  EXPECT_EQ(counts.recv, recvs);
  EXPECT_EQ(counts.coll_begin, collectives);
  EXPECT_EQ(counts.coll_end, collectives);
}

}  // namespace
