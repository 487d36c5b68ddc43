#pragma once
// Starting MPI jobs from the `augur` command: finding mpirun and the programs installed beside
// augur, building the launcher's command line for Open MPI or MPICH, and running it with
// termination signals passed on so an interrupted job still ends cleanly.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace augur::cli {

std::optional<std::filesystem::path> find_in_path(const std::string& program);

// `relative` resolved against the directory of the running augur executable.
std::filesystem::path beside_self(const std::filesystem::path& relative);

bool launcher_is_open_mpi(const std::string& mpirun);

// "mpirun -np N" with the flags this launcher needs (--oversubscribe, --allow-run-as-root as
// root under Open MPI) and the environment variables `exported` passed on to every rank.
std::vector<std::string> mpirun_command(const std::string& mpirun, int processes, bool oversubscribe,
                                        const std::vector<std::string>& exported = {});

std::string shell_words(const std::vector<std::string>& argv);

// Runs argv and returns its wait status. SIGTERM and SIGHUP go on to the child; Ctrl-C reaches
// it from the terminal directly, and augur waits for it to finish.
int run_and_wait(const std::vector<std::string>& argv);

struct Finished {
  int wait_status = 0;
  std::string error_tail;  // the end of what it wrote to standard error (the last 64 KiB)
};

// run_and_wait, with the child's standard error passed on to augur's as it comes and its end
// kept, so that augur can say why a launcher did not start the ranks.
Finished run_and_watch(const std::vector<std::string>& argv);

}  // namespace augur::cli
