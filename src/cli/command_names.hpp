#pragma once
// Checks the command words of a command line before CLI11 parses it. CLI11 takes an unknown word
// where a command belongs for a positional argument: `augur nosuch` says only that a subcommand is
// required, and `augur nosuch --help` prints the top-level help and succeeds.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace augur::cli {

// The words of `command` (e.g. the names of augur's commands) closest to `word`: those it begins,
// else those within two edits (insertions, deletions, substitutions, swaps of neighbours).
std::vector<std::string> closest_words(std::string_view word, const std::vector<std::string>& candidates);

// The message for the first word of args (argv without the program name) that stands where a
// command must be and names none: "augur: unknown command 'X'", what was meant if close, and the
// commands there are. Nothing when every command word is known.
std::optional<std::string> unknown_command(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace augur::cli
