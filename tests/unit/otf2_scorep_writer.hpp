#pragma once
// Writes small OTF2 archives the way Score-P does, through the OTF2 writer API: a system tree,
// a location group per MPI process, a location per thread (id thread << 32 | rank), regions
// named as Score-P names them ("MPI_Send", paradigm MPI), MPI_COMM_WORLD as a group of locations
// and communicators as groups of its ranks, a 2.5 GHz timer with a global offset, and per-call
// byte counts over the whole communicator for collectives.
#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace augur_test {

inline constexpr std::uint64_t kScorepTicksPerSecond = 2'500'000'000;
inline constexpr std::uint64_t kScorepOffset = 123'456'789'000;

// Region ids of the archive.
enum ScorepRegion : OTF2_RegionRef { kMain, kMpiSend, kMpiRecv, kMpiIsend, kMpiIrecv, kMpiWaitall, kMpiBcast, kMpiAllreduce, kMpiTest, kRegionCount };

class ScorepLikeArchive {
 public:
  using Events = std::function<void(OTF2_EvtWriter*)>;

  // `ranks` processes; `comms` beyond MPI_COMM_WORLD (comm 0) are lists of world ranks.
  ScorepLikeArchive(std::filesystem::path dir, int ranks, std::vector<std::vector<std::uint64_t>> comms = {})
      : dir_(std::move(dir)), ranks_(ranks), comms_(std::move(comms)) {}

  // The events of rank `rank`'s thread `thread` (0: the one calling MPI).
  void location(int rank, int thread, Events events) { events_[(std::uint64_t(thread) << 32) | std::uint64_t(rank)] = std::move(events); }

  // A time in seconds after the trace's start as Score-P's ticks.
  static OTF2_TimeStamp ticks(double seconds) { return kScorepOffset + OTF2_TimeStamp(seconds * kScorepTicksPerSecond + 0.5); }

  std::filesystem::path write() {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    OTF2_Archive* a = OTF2_Archive_Open(dir_.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a) throw std::runtime_error("cannot open archive");
    static OTF2_FlushCallbacks flush = {[](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; },
                                        [](void*, OTF2_FileType, OTF2_LocationRef) -> OTF2_TimeStamp { return 0; }};
    OTF2_Archive_SetFlushCallbacks(a, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_SetCreator(a, "Score-P 8.4");
    OTF2_Archive_OpenEvtFiles(a);
    std::map<std::uint64_t, std::uint64_t> counts;
    for (auto& [loc, events] : events_) {
      OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, loc);
      events(w);
      OTF2_EvtWriter_GetNumberOfEvents(w, &counts[loc]);
      OTF2_Archive_CloseEvtWriter(a, w);
    }
    OTF2_Archive_CloseEvtFiles(a);
    OTF2_Archive_OpenDefFiles(a);
    for (auto& [loc, events] : events_) OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, loc));
    OTF2_Archive_CloseDefFiles(a);
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(a);
    write_definitions(defs, counts);
    OTF2_Archive_CloseGlobalDefWriter(a, defs);
    OTF2_Archive_Close(a);
    return dir_ / "traces.otf2";
  }

 private:
  void write_definitions(OTF2_GlobalDefWriter* d, const std::map<std::uint64_t, std::uint64_t>& counts) {
    OTF2_StringRef next = 0;
    auto str = [&](const std::string& s) {
      OTF2_GlobalDefWriter_WriteString(d, next, s.c_str());
      return next++;
    };
    OTF2_GlobalDefWriter_WriteClockProperties(d, kScorepTicksPerSecond, kScorepOffset, ticks(1.0) - kScorepOffset,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteParadigm(d, OTF2_PARADIGM_MPI, str("MPI"), OTF2_PARADIGM_CLASS_PROCESS);
    const auto empty = str("");
    const std::pair<const char*, OTF2_RegionRole> regions[] = {
        {"main", OTF2_REGION_ROLE_FUNCTION}, {"MPI_Send", OTF2_REGION_ROLE_POINT2POINT},
        {"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT}, {"MPI_Isend", OTF2_REGION_ROLE_POINT2POINT},
        {"MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT}, {"MPI_Waitall", OTF2_REGION_ROLE_POINT2POINT},
        {"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL}, {"MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL},
        {"MPI_Test", OTF2_REGION_ROLE_POINT2POINT}};
    for (OTF2_RegionRef r = 0; r < kRegionCount; ++r) {
      auto name = str(regions[r].first);
      OTF2_GlobalDefWriter_WriteRegion(d, r, name, name, empty, regions[r].second,
                                       r == kMain ? OTF2_PARADIGM_COMPILER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
                                       empty, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, str("cluster"), str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, str("node0"), str("node"), 0);
    std::vector<std::uint64_t> world;
    for (int r = 0; r < ranks_; ++r) {
      OTF2_GlobalDefWriter_WriteLocationGroup(d, r, str("MPI Rank " + std::to_string(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                              1, OTF2_UNDEFINED_LOCATION_GROUP);
      world.push_back(std::uint64_t(r));
    }
    for (const auto& [loc, n] : counts)
      OTF2_GlobalDefWriter_WriteLocation(d, loc, str(loc >> 32 ? "OpenMP thread" : "Master thread"),
                                         OTF2_LOCATION_TYPE_CPU_THREAD, n, loc & 0xffffffff);
    OTF2_GlobalDefWriter_WriteGroup(d, 0, str("MPI_COMM_WORLD"), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, world.size(), world.data());
    OTF2_GlobalDefWriter_WriteGroup(d, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    world.size(), world.data());
    OTF2_GlobalDefWriter_WriteComm(d, 0, str("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    for (std::size_t c = 0; c < comms_.size(); ++c) {
      OTF2_GlobalDefWriter_WriteGroup(d, 2 + c, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, comms_[c].size(), comms_[c].data());
      OTF2_GlobalDefWriter_WriteComm(d, 1 + c, str("sub " + std::to_string(c)), 2 + c, 0, OTF2_COMM_FLAG_NONE);
    }
  }

  std::filesystem::path dir_;
  int ranks_;
  std::vector<std::vector<std::uint64_t>> comms_;
  std::map<std::uint64_t, Events> events_;
};

}  // namespace augur_test
