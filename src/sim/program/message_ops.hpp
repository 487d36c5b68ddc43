#pragma once
// The point-to-point operations of a program, one row each: the word schedules, application
// models and learned models write ("isend"), what the simulator runs (its kind and send mode),
// and the model's operation that prices it and names it in reports and traces ("isend1"). Every
// place that turns one of these into another reads this table.
#include <array>
#include <string_view>

#include "sim/program/program.hpp"

namespace augur::sim {

struct MessageOp {
  std::string_view word;
  OpKind kind;
  timing::SendMode mode;
  std::string_view model_name;
};

// In the order of the kernel's fixed names (sim/kernel/engine.hpp, `Name`).
inline constexpr std::array<MessageOp, 9> kMessageOps{{
    {"send", OpKind::send, timing::SendMode::standard, "send"},
    {"ssend", OpKind::send, timing::SendMode::synchronous, "ssend"},
    {"rsend", OpKind::send, timing::SendMode::ready, "rsend"},
    {"bsend", OpKind::send, timing::SendMode::buffered, "bsend"},
    {"recv", OpKind::recv, timing::SendMode::standard, "recv"},
    {"isend", OpKind::isend, timing::SendMode::standard, "isend1"},
    {"irecv", OpKind::irecv, timing::SendMode::standard, "irecv1"},
    {"wait", OpKind::wait, timing::SendMode::standard, "wait"},
    {"sendrecv", OpKind::sendrecv, timing::SendMode::standard, "sendrecv"},
}};

// The row of a word ("ssend"), of a model's name ("isend1"), or of an operation (its mode
// counts for a blocking send only); nullptr for none (a collective, compute).
const MessageOp* find_message_word(std::string_view word);
const MessageOp* find_message_model_name(std::string_view model_name);
const MessageOp* message_op_of(OpKind kind, timing::SendMode mode);

}  // namespace augur::sim
