#include "revprof/shim/windows.hpp"

#include <map>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"

namespace augur::revprof {

namespace {

std::map<MPI_Win, Window>& registry() {
  // Never destroyed, as runtime(): MPI may call into the shim after static destructors ran.
  static auto* windows = new std::map<MPI_Win, Window>();
  return *windows;
}

}  // namespace

void track_window(MPI_Win win, MPI_Comm comm) {
  if (win == MPI_WIN_NULL || !shadow_of(comm)) return;
  Window w;
  {
    ShimUnlocked collective;
    if (PMPI_Comm_dup(comm, &w.comm) != MPI_SUCCESS) return;
  }
  track(w.comm);
  registry().insert_or_assign(win, std::move(w));
}

Window* window_of(MPI_Win win) {
  const auto it = registry().find(win);
  return it == registry().end() ? nullptr : &it->second;
}

const Shadow* shadow_of(const Window& w) { return shadow_of(w.comm); }

std::vector<int> ranks_in(const Window& w, MPI_Group group) {
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> members(static_cast<std::size_t>(size)), ranks(members.size());
  for (int i = 0; i < size; ++i) members[static_cast<std::size_t>(i)] = i;
  MPI_Group own;
  PMPI_Comm_group(w.comm, &own);
  PMPI_Group_translate_ranks(group, size, members.data(), own, ranks.data());
  PMPI_Group_free(&own);
  std::erase(ranks, MPI_UNDEFINED);
  return ranks;
}

void forget_window(MPI_Win win) {
  const auto it = registry().find(win);
  if (it == registry().end()) return;
  MPI_Comm comm = it->second.comm;
  registry().erase(it);
  retire(comm);
  release_retired(refers_to);
  ShimUnlocked collective;
  PMPI_Comm_free(&comm);
}

}  // namespace augur::revprof
