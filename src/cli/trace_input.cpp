#include "cli/trace_input.hpp"

#include <stdexcept>

#include "cli/commands.hpp"
#include "trace/read_any.hpp"

namespace augur::cli {

trace::Trace open_trace(const std::filesystem::path& path) {
  try {
    return trace::read_trace(path);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void fail_if_damaged(const std::vector<const trace::Trace*>& traces) {
  std::string message;
  for (const auto* t : traces)
    for (const auto& p : t->problems) message += (message.empty() ? "" : "\naugur: error: ") + p.message();
  if (!message.empty())
    throw std::runtime_error(message + "\n(the output above was made from what could be read before the damage)");
}

}  // namespace augur::cli
