#include "cli/command_names.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace augur::cli {
namespace {

// Optimal string alignment distance: Levenshtein's, with a swap of neighbours as one edit.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty(); });
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i)
    text += fmt::format("{}'{}'", i == 0 ? "" : i + 1 == words.size() ? " or " : ", ", words[i]);
  return text;
}

std::string message(const CLI::App& at, const std::string& path, const std::string& word) {
  const auto commands = commands_of(at);
  std::vector<std::string> names;
  std::size_t width = 0;
  for (const auto* c : commands) {
    names.push_back(c->get_name());
    width = std::max(width, c->get_name().size());
  }
  auto text = fmt::format("{}: unknown command '{}'", path, word);
  if (const auto close = closest_words(word, names); !close.empty()) text += "; did you mean " + quoted_list(close) + "?";
  text += "\nCommands:\n";
  for (const auto* c : commands) text += fmt::format("  {:<{}}  {}\n", c->get_name(), width, c->get_description());
  return text + fmt::format("'{} COMMAND --help' explains each.\n", path);
}

}  // namespace

std::vector<std::string> closest_words(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> begun;
  for (const auto& c : candidates)
    if (word.size() >= 2 && c.starts_with(word)) begun.push_back(c);
  if (!begun.empty()) return begun;
  std::size_t best = 2;  // more edits than two make another word, not a slip of the fingers
  std::vector<std::string> closest;
  for (const auto& c : candidates) {
    const auto d = edit_distance(word, c);
    if (d > best) continue;
    if (d < best) closest.clear();
    best = d;
    closest.push_back(c);
  }
  return closest;
}

std::optional<std::string> unknown_command(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* at = &app;
  std::string path = "augur";
  for (const auto& word : args) {
    // Options are CLI11's to judge, and what follows one may be its value.
    if (word.empty() || word.front() == '-') return std::nullopt;
    const auto commands = commands_of(*at);
    const auto named = std::find_if(commands.begin(), commands.end(), [&](const CLI::App* c) { return c->check_name(word); });
    if (named != commands.end()) {
      at = *named;
      path += " " + (*named)->get_name();
      continue;
    }
    // Where a command is optional the word may be a positional argument.
    if (commands.empty() || at->get_require_subcommand_min() == 0) return std::nullopt;
    return message(*at, path, word);
  }
  return std::nullopt;
}

}  // namespace augur::cli
