#include "revprof/shim/comms.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "revprof/shim/runtime.hpp"

namespace augur::revprof {
namespace {

// Owned through pointers: pending operations keep a Shadow's address across its retirement.
std::map<MPI_Comm, std::unique_ptr<Shadow>>& registry() {
  static auto* shadows = new std::map<MPI_Comm, std::unique_ptr<Shadow>>();
  return *shadows;
}

std::vector<std::unique_ptr<Shadow>>& retired() {
  static auto* shadows = new std::vector<std::unique_ptr<Shadow>>();
  return *shadows;
}

void free_duplicates(Shadow& s) {
  PMPI_Comm_free(&s.stamps);
  PMPI_Comm_free(&s.acks);
}

int next_id = 0;

}  // namespace

const Shadow* shadow_of(MPI_Comm comm) {
  auto& r = registry();
  auto it = r.find(comm);
  return it == r.end() ? nullptr : it->second.get();
}

// The communicator's number in the trace. The number its members agree on is shared by every
// communicator one split makes (each row of a grid agrees on the same one), so the trace's also
// holds the members' lowest world rank: two communicators with the same lowest rank were made
// one after the other on that rank, which numbered them apart. Past 32,767 ranks the agreed
// number alone is kept, to stay within the trace's 32 bits.
static int trace_id(int agreed, int lowest_world_rank) {
  if (lowest_world_rank > 32767 || agreed > 65535) return agreed;
  return agreed + lowest_world_rank * 65536;
}

void track(MPI_Comm created) {
  if (created == MPI_COMM_NULL || registry().contains(created)) return;
  int inter = 0;
  PMPI_Comm_test_inter(created, &inter);
  if (inter) return;  // intercommunicators are not modelled
  Shadow s;
  PMPI_Comm_rank(created, &s.rank);
  PMPI_Comm_size(created, &s.size);
  // Ranks outside this communicator may have created others meanwhile; taking the maximum keeps
  // every member's numbering the same.
  const int mine = next_id;
  {
    ShimUnlocked collective;
    PMPI_Comm_dup(created, &s.stamps);
    PMPI_Comm_dup(created, &s.acks);
    PMPI_Allreduce(&mine, &s.id, 1, MPI_INT, MPI_MAX, s.stamps);
  }
  next_id = std::max(next_id, s.id + 1);
  MPI_Group group, world;
  PMPI_Comm_group(created, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> local(s.size);
  for (int i = 0; i < s.size; ++i) local[i] = i;
  s.world_rank.resize(s.size);
  s.last_send.assign(s.size, SentFlight{});
  PMPI_Group_translate_ranks(group, s.size, local.data(), world, s.world_rank.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  s.id = trace_id(s.id, *std::min_element(s.world_rank.begin(), s.world_rank.end()));
  registry().emplace(created, std::make_unique<Shadow>(std::move(s)));
}

void retire(MPI_Comm comm) {
  auto& r = registry();
  auto it = r.find(comm);
  if (it == r.end()) return;
  retired().push_back(std::move(it->second));
  r.erase(it);
}

void release_retired(const std::function<bool(const Shadow&)>& in_use) {
  std::erase_if(retired(), [&](std::unique_ptr<Shadow>& s) {
    if (in_use(*s)) return false;
    free_duplicates(*s);
    return true;
  });
}

void forget_all() {
  for (auto& [comm, s] : registry()) free_duplicates(*s);
  registry().clear();
  for (auto& s : retired()) free_duplicates(*s);
  retired().clear();
}

int world_rank_of(const Shadow& s, int rank) {
  return rank >= 0 && rank < static_cast<int>(s.world_rank.size()) ? s.world_rank[rank] : rank;
}

}  // namespace augur::revprof
