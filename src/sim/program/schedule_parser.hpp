#pragma once
// The schedule language's parser (sim/program/schedule.cpp), shared by the files that implement
// it: schedule.cpp (declarations, statements, instantiation) and schedule_parse_expr.cpp
// (expressions). Not for use outside them.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/message_ops.hpp"
#include "sim/program/program.hpp"
#include "sim/program/schedule_expr.hpp"
#include "sim/program/schedule_lexer.hpp"

namespace augur::sim::schedule_parsing {

constexpr std::int64_t kMaxRanks = 1 << 24;
constexpr std::int64_t kMaxTag = 0x7FFFFFFF;

struct Stmt {
  OpKind kind = OpKind::compute;
  bool repeat = false;
  std::vector<Stmt> body;            // repeat
  Expr count;                        // repeat's count; wait's (0: all)
  std::vector<std::uint32_t> wait_set;  // `wait {0, 2}`: positions among the outstanding requests
  Expr peer, peer2, bytes, tag, root;
  bool any_peer = false, any_tag = false, has_root = false;
  bool null_peer = false, null_peer2 = false;  // `null`: MPI_PROC_NULL
  double seconds = 0;
  timing::SendMode mode = timing::SendMode::standard;
  std::uint16_t name = 0, comm = 0;
  int line = 0, column = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& file, std::size_t max_operations)
      : file_(file), tokens_(tokenize(text, file)), budget_(max_operations) {}
  std::unique_ptr<FlatProgram> parse();

 private:
  // Tokens.
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& next() { return tokens_[std::min(pos_++, tokens_.size() - 1)]; }
  bool at(std::string_view text) const { return peek().kind != TokenKind::end && peek().text == text; }
  bool accept(std::string_view text);
  void expect(std::string_view text, std::string_view what);
  [[noreturn]] void fail(const Token& t, const std::string& reason) const;
  [[noreturn]] void fail_at(int line, int column, const std::string& reason) const;
  std::string_view identifier(std::string_view what);
  void descend(const Token& t);

  // Expressions.
  Expr expression();
  void binary(Expr& e, int level);
  void unary(Expr& e);
  bool at_table_entry() const;
  void table_entry(Expr& e);
  void combine(Expr& a, const Expr& b, char op);
  std::int64_t constant(std::string_view what);
  bool starts_expression() const;

  // Declarations and statements.
  void declaration();
  void communicator();
  void grain();
  void table();
  void body_for(std::int64_t first, std::int64_t last);
  std::vector<Stmt> block();
  Stmt statement();
  void message(Stmt& s, const Token& keyword, const MessageOp& op);
  void options(Stmt& s);
  void wait_set(Stmt& s);
  Expr size();
  double duration();

  // Instantiation.
  bool shareable(const std::vector<Stmt>& body) const;
  void instantiate(const std::vector<Stmt>& body, std::optional<std::int64_t> rank, std::vector<Op>& out);
  std::int32_t peer_of(const Expr& e, std::optional<std::int64_t> rank, bool shared, std::uint8_t& flags,
                       std::uint8_t relative_flag) const;
  std::int64_t value_of(const Expr& e, std::optional<std::int64_t> rank) const;

  const std::string& file_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::int64_t n_ = 0;
  std::unique_ptr<FlatProgram> program_;
  std::map<std::string, std::uint16_t, std::less<>> comms_;
  std::map<std::string, double, std::less<>> grains_;
  std::vector<Table> tables_;
  std::map<std::string, std::size_t, std::less<>> table_ids_;
  std::size_t budget_, used_ = 0;  // operations (and per-rank bodies) stored so far
  int depth_ = 0;                  // open parentheses, unary minuses and repeat bodies

  // The parser recurses on nesting; a hostile file must get an error, not a stack overflow.
  static constexpr int kMaxDepth = 256;
  struct Nesting {
    Parser& p;
    Nesting(Parser& parser, const Token& t) : p(parser) { p.descend(t); }
    ~Nesting() { --p.depth_; }
  };
};

}  // namespace augur::sim::schedule_parsing
