#pragma once
// Why an MPI launcher did not start a job's ranks, read from what it wrote to standard error:
// the causes typical of asking one host for many ranks (no free slots, too few file descriptors
// or processes, a full /dev/shm, ranks killed for memory), said in augur's words with what to do.
#include <optional>
#include <string>

namespace augur::cli {

struct LaunchContext {
  int processes = 0;            // the -np augur was given; 0 when the command started its own launcher
  bool oversubscribed = false;  // --oversubscribe was given
  int cores = 0;                // this host's hardware threads
  bool reported = false;        // the report was written: the program reached MPI_Finalize
};

// The cause, as a sentence naming what ran out and what to do instead; nothing when the text
// shows none of the causes augur recognises.
std::optional<std::string> launch_failure(const std::string& launcher_errors, const LaunchContext& context);

}  // namespace augur::cli
