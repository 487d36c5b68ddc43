#include "sim/program/message_ops.hpp"

namespace augur::sim {

const MessageOp* find_message_word(std::string_view word) {
  for (const auto& row : kMessageOps)
    if (row.word == word) return &row;
  return nullptr;
}

const MessageOp* find_message_model_name(std::string_view model_name) {
  for (const auto& row : kMessageOps)
    if (row.model_name == model_name) return &row;
  return nullptr;
}

const MessageOp* message_op_of(OpKind kind, timing::SendMode mode) {
  if (kind != OpKind::send) mode = timing::SendMode::standard;
  for (const auto& row : kMessageOps)
    if (row.kind == kind && row.mode == mode) return &row;
  return nullptr;
}

}  // namespace augur::sim
