// `augur run` at more ranks than the host holds: a count the open-file limit cannot start is
// refused before anything runs, the limit the launcher inherits is raised to what the ranks
// need, and a launcher that did not start the ranks is named with its cause (no slots, no file
// descriptors) instead of a program that never called MPI_Init. The launchers here are scripts
// that answer `--version` as Open MPI's mpirun and print what it prints, so no MPI is needed.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::run;

namespace {

// A launcher that says it is Open MPI's and, asked to start ranks, runs `body` (sh).
std::string fake_launcher(const std::string& name, const std::string& body) {
  const auto path = augur_test::temp_file(name, "#!/bin/sh\n"
                                                "if [ \"$1\" = --version ]; then echo 'mpirun (Open MPI) 4.1.4'; exit 0; fi\n" +
                                                    body);
  ::chmod(path.c_str(), 0755);
  return path;
}

// augur run under a shell whose limits `limits` sets (ulimit commands), with the launcher given;
// no shim is preloaded, since no rank starts.
augur_test::Result run_with(const std::string& limits, const std::string& launcher, int processes,
                            const std::string& flags = "--oversubscribe") {
  return run(limits + "AUGUR_REVPROF= " AUGUR_BINARY " run --machine t3d --mpirun " + launcher + " -np " +
                 std::to_string(processes) + " " + flags + " -- /bin/true",
             {.separate_stderr = true});
}

const char* kNoSlots = R"(cat >&2 <<'EOF'
--------------------------------------------------------------------------
There are not enough slots available in the system to satisfy the 4
slots that were requested by the application:

  /bin/true

Either request fewer slots for your application, or make more slots
available for use.
--------------------------------------------------------------------------
EOF
exit 1
)";

const char* kNoPipes = R"(cat >&2 <<'EOF'
--------------------------------------------------------------------------
mpirun was unable to launch the specified application as it encountered an error:

Error: system limit exceeded on number of pipes that can be open
Node: host

when attempting to start process rank 250.
--------------------------------------------------------------------------
EOF
exit 1
)";

const char* kLostRank = R"(cat >&2 <<'EOF'
--------------------------------------------------------------------------
mpirun has exited due to process rank 155 with PID 0 on
node host exiting improperly. There are three reasons this could occur:
--------------------------------------------------------------------------
EOF
exit 1
)";

}  // namespace

TEST(RunLaunchCli, ACountBeyondTheOpenFileLimitIsRefusedBeforeAnythingRuns) {
  const auto marker = augur_test::temp_file("started", "");
  std::remove(marker.c_str());
  const auto launcher = fake_launcher("launcher-touch", "touch " + marker + "\n");
  const auto r = run_with("ulimit -n 200; ", launcher, 64);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("augur: error: -np 64 needs about 320 open files in mpirun (4 for each rank it starts), "
                       "and this shell allows 200 (ulimit -Hn)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("augur learn"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("augur sim --generate"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(marker)) << "the launcher ran";
}

TEST(RunLaunchCli, TheLauncherInheritsAnOpenFileLimitRaisedToWhatTheRanksNeed) {
  const auto launcher = fake_launcher("launcher-limit", "ulimit -n >&2\nexit 0\n");
  const auto r = run_with("ulimit -S -n 50; ulimit -H -n 400; ", launcher, 8);
  // 64 for mpirun itself and 4 for each of the 8 ranks.
  EXPECT_EQ(r.err.rfind("96\n", 0), 0u) << r.err;
  // Enough already: left as it is.
  const auto enough = run_with("ulimit -S -n 300; ulimit -H -n 400; ", launcher, 8);
  EXPECT_EQ(enough.err.rfind("300\n", 0), 0u) << enough.err;
}

TEST(RunLaunchCli, NotEnoughSlotsIsNamedWithTheFlagThatRunsThemAnyway) {
  const auto r = run_with("", fake_launcher("launcher-slots", kNoSlots), 4, "");
  EXPECT_EQ(r.status, 1) << r.err;
  // The launcher's own words still reach the user, then augur's.
  const auto theirs = r.err.find("There are not enough slots available");
  const auto ours = r.err.find("augur: mpirun refused to start the 4 ranks: not enough slots");
  ASSERT_NE(ours, std::string::npos) << r.err;
  EXPECT_LT(theirs, ours) << r.err;
  EXPECT_NE(r.err.find("add --oversubscribe to augur run"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("never called MPI_Init"), std::string::npos) << r.err;
}

TEST(RunLaunchCli, RunningOutOfFileDescriptorsIsNamed) {
  const auto r = run_with("ulimit -n 1100; ", fake_launcher("launcher-pipes", kNoPipes), 256);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("augur: the launcher ran out of file descriptors starting the 256 ranks (augur gave it 1100, "
                       "ulimit -n)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("never called MPI_Init"), std::string::npos) << r.err;
}

TEST(RunLaunchCli, AFailureOfAnotherKindStillSaysTheProgramNeverCalledMPIInit) {
  const auto r = run_with("", fake_launcher("launcher-other", "echo 'something else went wrong' >&2\nexit 3\n"), 2);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("augur: note: the program never called MPI_Init, so nothing was predicted (it ended with "
                       "status 3)"),
            std::string::npos)
      << r.err;
}

// Open MPI's "PID 0 ... exiting improperly" is what it says of a rank that skipped MPI_Finalize;
// with many ranks per core it is as likely its own shutdown race, and augur says both.
TEST(RunLaunchCli, ARankLostAtShutdownAmongManyRanksPerCoreIsNamedAsBothCauses) {
  const int crowded = 17 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (crowded > 512) GTEST_SKIP() << "this host has too many hardware threads to crowd cheaply";
  const auto launcher = fake_launcher("launcher-lost", kLostRank);
  const auto r = run_with("", launcher, crowded);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("augur: mpirun stopped the job, saying a rank of the " + std::to_string(crowded) +
                       " ranks ended without MPI_Finalize"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("with 17 ranks per hardware thread that is as likely a race in Open MPI 4's shutdown"),
            std::string::npos)
      << r.err;
  // With few ranks per core it is the program's doing, as before.
  const auto few = run_with("", launcher, 2);
  EXPECT_NE(few.err.find("augur: note: the program never called MPI_Init"), std::string::npos) << few.err;
}
