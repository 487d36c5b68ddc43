// The schedule language's parser: tokens → statements → one FlatProgram. Two passes so that a
// body is checked once and then either stored once for a range of ranks (its peers constants or
// rank ± constant) or instantiated for each rank.
#include "sim/program/schedule.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "model/catalog.hpp"
#include "util/duration.hpp"
#include "util/size.hpp"
#include "sim/program/schedule_parser.hpp"

namespace augur::sim::schedule_parsing {


void Parser::fail_at(int line, int column, const std::string& reason) const {
  throw ScheduleError(fmt::format("{}:{}:{}: {}", file_, line, column, reason));
}

void Parser::fail(const Token& t, const std::string& reason) const { fail_at(t.line, t.column, reason); }

bool Parser::accept(std::string_view text) {
  if (!at(text)) return false;
  ++pos_;
  return true;
}

void Parser::expect(std::string_view text, std::string_view what) {
  if (!accept(text))
    fail(peek(), fmt::format("expected '{}' {}, found {}", text, what,
                             peek().kind == TokenKind::end ? "the end" : fmt::format("'{}'", peek().text)));
}

void Parser::descend(const Token& t) {
  if (++depth_ > kMaxDepth) {
    --depth_;
    fail(t, fmt::format("nested more than {} deep", kMaxDepth));
  }
}

std::string_view Parser::identifier(std::string_view what) {
  if (peek().kind != TokenKind::identifier) fail(peek(), fmt::format("expected {}", what));
  return next().text;
}

// --- expressions ---------------------------------------------------------------------------

std::unique_ptr<FlatProgram> Parser::parse() {
  const Token& first = peek();
  if (!accept("ranks")) fail(first, "a schedule starts with 'ranks N', the number of ranks");
  const Token& count = peek();
  n_ = constant("the number of ranks");
  if (n_ < 1 || n_ > kMaxRanks) fail(count, fmt::format("the number of ranks must be 1 to {}", kMaxRanks));
  program_ = std::make_unique<FlatProgram>(static_cast<int>(n_));
  while (peek().kind != TokenKind::end) declaration();
  return std::move(program_);
}

void Parser::declaration() {
  const Token& t = peek();
  if (accept("comm")) return communicator();
  if (accept("grain")) return grain();
  if (accept("table")) return table();
  if (accept("rank")) {
    const Token& at_rank = peek();
    const auto r = constant("a rank number");
    if (r < 0 || r >= n_) fail(at_rank, fmt::format("rank {} is outside 0..{}", r, n_ - 1));
    return body_for(r, r);
  }
  if (accept("ranks")) {
    const Token& from = peek();
    const auto a = constant("a rank range");
    expect("..", "in a rank range A..B");
    const auto b = constant("a rank range");
    if (a < 0 || b >= n_ || a > b) fail(from, fmt::format("rank range {}..{} is not inside 0..{}", a, b, n_ - 1));
    return body_for(a, b);
  }
  fail(t, t.kind == TokenKind::end ? "unexpected end" :
                                     fmt::format("expected rank, ranks, comm, grain or table, found '{}'", t.text));
}

void Parser::communicator() {
  const Token& name_token = peek();
  const auto name = identifier("a communicator name");
  if (comms_.contains(name) || name == "world") fail(name_token, fmt::format("communicator '{}' is already defined", name));
  expect("=", "after the communicator's name");
  std::vector<int> members;
  auto member = [&](std::int64_t r, const Token& where) {
    if (r < 0 || r >= n_) fail(where, fmt::format("rank {} is outside 0..{}", r, n_ - 1));
    if (!members.empty() && r <= members.back()) fail(where, "a communicator's ranks must increase");
    members.push_back(static_cast<int>(r));
  };
  if (accept("{")) {
    do {
      const Token& where = peek();
      member(constant("a member rank"), where);
    } while (accept(","));
    expect("}", "to close the member list");
  } else {
    const Token& where = peek();
    const auto a = constant("a rank range");
    expect("..", "in a rank range A..B");
    const auto b = constant("a rank range");
    std::int64_t step = 1;
    if (accept("step")) step = constant("a step");
    if (step < 1) fail(where, "the step must be at least 1");
    if (b >= a && (b - a) / step >= n_) fail(where, "more members than ranks");
    for (auto r = a; r <= b; r += step) member(r, where);
  }
  if (members.empty()) fail(name_token, "a communicator needs at least one rank");
  const int size = static_cast<int>(members.size());
  const int id = static_cast<int>(program_->comms().size());
  comms_.emplace(std::string(name), program_->add_comm({std::string(name), size, std::move(members), id}));
}

void Parser::grain() {
  const Token& name_token = peek();
  const auto name = identifier("a grain name");
  if (grains_.contains(name)) fail(name_token, fmt::format("grain '{}' is already defined", name));
  expect("=", "after the grain's name");
  grains_.emplace(std::string(name), duration());
}

// `table NAME = {a, b, …}`: constant entries (they may use N and earlier tables).
void Parser::table() {
  const Token& name_token = peek();
  const auto name = identifier("a table name");
  if (table_ids_.contains(name)) fail(name_token, fmt::format("table '{}' is already defined", name));
  if (name == "N" || name == "rank") fail(name_token, fmt::format("'{}' cannot name a table", name));
  expect("=", "after the table's name");
  expect("{", "to open the table's entries");
  Table t{std::string(name), {}};
  do {
    if (++used_ > budget_) fail(peek(), fmt::format("the schedule needs more than {} operations", budget_));
    t.values.push_back(constant("a table entry"));
  } while (accept(","));
  expect("}", "to close the table's entries");
  table_ids_.emplace(t.name, tables_.size());
  tables_.push_back(std::move(t));
}

void Parser::body_for(std::int64_t first, std::int64_t last) {
  const auto body = block();
  if (shareable(body)) {
    std::vector<Op> ops;
    instantiate(body, std::nullopt, ops);
    program_->assign(static_cast<int>(first), static_cast<int>(last), program_->add_body(std::move(ops)));
    return;
  }
  for (auto r = first; r <= last; ++r) {
    if (++used_ > budget_) fail_at(peek().line, peek().column, fmt::format("the schedule needs more than {} operations", budget_));
    std::vector<Op> ops;
    instantiate(body, r, ops);
    program_->assign(static_cast<int>(r), static_cast<int>(r), program_->add_body(std::move(ops)));
  }
}

// --- statements ----------------------------------------------------------------------------

std::vector<Stmt> Parser::block() {
  expect("{", "to open a body");
  std::vector<Stmt> body;
  while (!accept("}")) {
    if (peek().kind == TokenKind::end) fail(peek(), "expected '}' to close the body, found the end");
    body.push_back(statement());
  }
  return body;
}

bool is_collective(std::string_view name) {
  const auto* info = model::find_operation_info(name);
  return info && (info->cls == model::OperationClass::collective || info->cls == model::OperationClass::barrier) &&
         !(name.size() > 1 && name.front() == 'i');
}

Stmt Parser::statement() {
  const Token& t = peek();
  Stmt s;
  s.line = t.line;
  s.column = t.column;
  const auto word = identifier("an operation");
  if (word == "compute" || word == "sleep") {
    s.kind = word == "compute" ? OpKind::compute : OpKind::sleep;
    if (peek().kind == TokenKind::identifier) {
      const Token& g = next();
      auto it = grains_.find(g.text);
      if (it == grains_.end()) fail(g, fmt::format("unknown grain '{}'", g.text));
      s.seconds = it->second;
    } else {
      s.seconds = duration();
    }
  } else if (word == "at") {
    s.kind = OpKind::until;
    s.seconds = duration();
  } else if (word == "repeat") {
    s.repeat = true;
    s.count = expression();
    Nesting nesting(*this, t);
    s.body = block();
  } else if (word == "wait" || word == "waitall") {
    s.kind = OpKind::wait;
    s.count.value = word == "wait" ? 1 : 0;
    if (word == "wait" && at("{")) wait_set(s);
    else if (word == "wait" && starts_expression()) s.count = expression();
  } else if (const MessageOp* m = find_message_word(word); m && m->kind != OpKind::wait) {
    message(s, t, *m);
  } else if (is_collective(word)) {
    s.kind = OpKind::collective;
    s.name = program_->intern(word);
    if (starts_expression()) s.bytes = size();
    options(s);
  } else {
    fail(t, fmt::format("unknown operation '{}'", word));
  }
  return s;
}

void Parser::message(Stmt& s, const Token& keyword, const MessageOp& op) {
  const bool receive = op.kind == OpKind::recv || op.kind == OpKind::irecv;
  s.kind = op.kind;
  s.mode = op.mode;
  if (receive && accept("any")) s.any_peer = true;
  else if (accept("null")) s.null_peer = true;
  else s.peer = expression();
  if (s.kind == OpKind::sendrecv) {
    if (accept("null")) s.null_peer2 = true;
    else s.peer2 = expression();
  }
  if (!receive || starts_expression()) s.bytes = size();
  options(s);
  if (!receive && s.any_tag) fail(keyword, "a send needs a tag, not any");
}

// `{0, 2}`: the outstanding requests a wait completes, by position (0 the oldest).
void Parser::wait_set(Stmt& s) {
  expect("{", "to open the positions");
  do {
    const Token& t = peek();
    const auto position = constant("a request's position");
    if (position < 0 || position > kMaxTag) fail(t, "a request's position must be 0 or more");
    s.wait_set.push_back(static_cast<std::uint32_t>(position));
  } while (accept(","));
  expect("}", "to close the positions");
}

void Parser::options(Stmt& s) {
  while (peek().kind == TokenKind::identifier && peek(1).kind == TokenKind::symbol && peek(1).text == "=") {
    const Token& key = next();
    next();
    if (key.text == "tag") {
      if (accept("any")) s.any_tag = true;
      else s.tag = expression();
    } else if (key.text == "root") {
      if (s.kind != OpKind::collective) fail(key, "only collectives have a root");
      s.has_root = true;
      s.root = expression();
    } else if (key.text == "comm") {
      const Token& name = peek();
      const auto comm = identifier("a communicator name");
      auto it = comms_.find(comm);
      if (comm != "world" && it == comms_.end()) fail(name, fmt::format("unknown communicator '{}'", comm));
      s.comm = comm == "world" ? 0 : it->second;
    } else {
      fail(key, fmt::format("unknown option '{}' (tag, root, comm)", key.text));
    }
  }
}

// A size with a unit ("8KiB") or an integer expression of bytes.
Expr Parser::size() {
  const Token& t = peek();
  if (t.kind == TokenKind::number && std::isalpha(static_cast<unsigned char>(t.text.back()))) {
    next();
    Expr e;
    e.line = t.line;
    e.column = t.column;
    try {
      const double bytes = util::parse_size(t.text, 4);
      if (!(bytes >= 0 && bytes < 9e15)) fail(t, fmt::format("size '{}' is out of range", t.text));
      e.value = static_cast<std::int64_t>(bytes);
    } catch (const std::invalid_argument&) {
      fail(t, fmt::format("'{}' is not a size such as 16, 8KiB or 1MiB", t.text));
    }
    e.rpn = {{'n', e.value}};
    return e;
  }
  return expression();
}

double Parser::duration() {
  const Token& t = peek();
  if (t.kind != TokenKind::number) fail(t, "expected a time such as 10us, 1.5ms or 2 (seconds)");
  next();
  auto seconds = util::parse_seconds(t.text);
  if (!seconds || *seconds > 1e12) fail(t, fmt::format("'{}' is not a time such as 10us, 1.5ms or 2", t.text));
  return *seconds;
}

// --- instantiation -------------------------------------------------------------------------

bool Parser::shareable(const std::vector<Stmt>& body) const {
  using C = Expr::Class;
  for (const auto& s : body) {
    if (s.peer.cls == C::general || s.peer2.cls == C::general) return false;
    for (const Expr* e : {&s.bytes, &s.tag, &s.root, &s.count})
      if (e->cls != C::constant) return false;
    if (s.repeat && !shareable(s.body)) return false;
  }
  return true;
}

std::int64_t Parser::value_of(const Expr& e, std::optional<std::int64_t> rank) const {
  std::int64_t v = 0;
  std::string why;
  if (!e.evaluate(rank.value_or(0), v, &why)) fail_at(e.line, e.column, fmt::format("{} for rank {}", why, rank.value_or(0)));
  return v;
}

std::int32_t Parser::peer_of(const Expr& e, std::optional<std::int64_t> rank, bool shared, std::uint8_t& flags,
                             std::uint8_t relative_flag) const {
  if (shared && e.cls == Expr::Class::offset) {  // stored as an offset, resolved when fetched
    flags |= relative_flag;
    return static_cast<std::int32_t>(((e.value % n_) + n_) % n_);
  }
  const auto v = value_of(e, rank);
  if (e.cls != Expr::Class::constant) return static_cast<std::int32_t>(((v % n_) + n_) % n_);
  if (v < 0 || v >= n_) fail_at(e.line, e.column, fmt::format("rank {} is outside 0..{}", v, n_ - 1));
  return static_cast<std::int32_t>(v);
}

void Parser::instantiate(const std::vector<Stmt>& body, std::optional<std::int64_t> rank, std::vector<Op>& out) {
  const bool shared = !rank;
  for (const auto& s : body) {
    if (s.repeat) {
      const auto count = value_of(s.count, rank);
      if (count < 0) fail_at(s.line, s.column, "a repeat count must not be negative");
      for (std::int64_t i = 0; i < count; ++i) instantiate(s.body, rank, out);
      continue;
    }
    Op op;
    op.kind = s.kind;
    op.mode = s.mode;
    op.comm = s.comm;
    op.name = s.name;
    if (s.kind == OpKind::compute || s.kind == OpKind::sleep || s.kind == OpKind::until) {
      op.value = s.seconds;
    } else if (s.kind == OpKind::wait && !s.wait_set.empty()) {
      op.peer = program_->add_wait_set(s.wait_set);
      op.tag2 = 1;
    } else if (s.kind == OpKind::wait) {
      const auto count = value_of(s.count, rank);
      if (count < 0 || count > kMaxTag) fail_at(s.line, s.column, "wait needs a count of 1 or more");
      op.tag2 = static_cast<std::int32_t>(count);
    } else {
      op.value = static_cast<double>(value_of(s.bytes, rank));
      if (op.value < 0) fail_at(s.bytes.line, s.bytes.column, "a size must not be negative");
      const auto tag = s.any_tag ? kAny : value_of(s.tag, rank);
      if (!s.any_tag && (tag < 0 || tag > kMaxTag)) fail_at(s.tag.line, s.tag.column, "a tag must be 0 or more");
      op.tag = op.tag2 = static_cast<std::int32_t>(tag);
      if (s.kind == OpKind::collective) {
        op.peer = -1;
        if (s.has_root) {
          const auto root = value_of(s.root, rank);
          const int index = root >= 0 && root < n_ ? program_->comms()[s.comm].index_of(static_cast<int>(root)) : -1;
          if (index < 0) fail_at(s.root.line, s.root.column, fmt::format("root {} is not a rank of the communicator", root));
          op.peer = index;
        }
      } else {
        op.peer = s.any_peer ? kAny : s.null_peer ? kNoPeer : peer_of(s.peer, rank, shared, op.flags, kPeerRelative);
        if (s.kind == OpKind::sendrecv)
          op.peer2 = s.null_peer2 ? kNoPeer : peer_of(s.peer2, rank, shared, op.flags, kPeer2Relative);
      }
    }
    if (++used_ > budget_)
      fail_at(s.line, s.column, fmt::format("the schedule unrolls to more than {} operations", budget_));
    out.push_back(op);
  }
}

}  // namespace augur::sim::schedule_parsing

namespace augur::sim {

using schedule_parsing::Parser;

std::unique_ptr<FlatProgram> parse_schedule(std::string_view text, const std::string& file,
                                            std::size_t max_operations) {
  return Parser(text, file, max_operations).parse();
}

std::unique_ptr<FlatProgram> read_schedule_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScheduleError(path + ": cannot open the schedule");
  std::stringstream text;
  text << in.rdbuf();
  return parse_schedule(text.str(), path);
}

}  // namespace augur::sim
