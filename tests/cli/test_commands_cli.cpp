// Command words as a user mistypes them: an unknown command is named, with the commands there
// are and the one probably meant, and augur fails.
#include <gtest/gtest.h>

#include <string>

#include "augur_runner.hpp"

using augur_test::augur;

TEST(CommandsCli, AnUnknownCommandIsNamedAndListsTheCommands) {
  for (const char* line : {"nosuchcmd", "forecast --help", "forecast"}) {
    const auto r = augur(line, {.separate_stderr = true});
    EXPECT_EQ(r.status, 2) << line;
    EXPECT_TRUE(r.out.empty()) << line << ": " << r.out;
    const std::string word = std::string(line).substr(0, std::string(line).find(' '));
    EXPECT_EQ(r.err.rfind("augur: unknown command '" + word + "'\n", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\nCommands:\n"), std::string::npos) << r.err;
    for (const char* command : {"bench", "calc", "sim", "trace", "analyze", "plot"})
      EXPECT_NE(r.err.find("\n  " + std::string(command) + " "), std::string::npos) << command << "\n" << r.err;
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  }
}

TEST(CommandsCli, ACloseMisspellingGetsADidYouMean) {
  const auto sim = augur("simm --machine t3d x.sched");
  EXPECT_EQ(sim.status, 2);
  EXPECT_EQ(sim.out.rfind("augur: unknown command 'simm'; did you mean 'sim'?\n", 0), 0u) << sim.out;
  EXPECT_EQ(augur("analyse").out.rfind("augur: unknown command 'analyse'; did you mean 'analyze'?", 0), 0u);
  EXPECT_EQ(augur("sumary").out.rfind("augur: unknown command 'sumary'; did you mean 'summary'?", 0), 0u);
  // The start of a command's name.
  EXPECT_EQ(augur("mach").out.rfind("augur: unknown command 'mach'; did you mean 'machines'?", 0), 0u);
}

TEST(CommandsCli, AnUnknownSubcommandOfTraceIsNamedToo) {
  const auto r = augur("trace convrt run -o x --to text");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out.rfind("augur trace: unknown command 'convrt'; did you mean 'convert'?\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n  convert "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  synth "), std::string::npos) << r.out;
}

TEST(CommandsCli, KnownCommandsAndTheirArgumentsAreLeftToTheParser) {
  EXPECT_EQ(augur("--help").status, 0);
  EXPECT_EQ(augur("sim --help").status, 0);
  EXPECT_EQ(augur("trace convert --help").status, 0);
  // machines takes a machine's name where another command would stand.
  const auto r = augur("machines t3d");
  EXPECT_EQ(r.status, 0) << r.out;
}

// The usage line names the command as it is typed, not the path it was started by.
TEST(CommandsCli, HelpNamesTheCommandAugur) {
  const auto r = augur("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Usage: augur [OPTIONS]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(AUGUR_BINARY), std::string::npos) << r.out;
}
