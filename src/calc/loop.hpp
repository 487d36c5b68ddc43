#pragma once
// `augur calc --machine M loop fa=1 fma=2 l=2 s=1`: one loop's machine–application bound on the
// machine's node (node/ma_bound.hpp), with every term, so the answer can be checked by hand.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "node/ma_bound.hpp"

namespace augur::calc {

// The keys a loop question takes, in the order they are printed.
inline constexpr const char* kLoopKeys = "fa, fm, fma, fdiv, fsqrt, l, s, td, ml, ms";

// Parses KEY=VALUE words. Throws std::invalid_argument naming the word and the reason: an
// unknown key, a value that is not a number, a negative count, a miss rate outside 0..1, a key
// given twice. A loop without flops (a copy) is allowed: it has a time but no CPF.
node::LoopCounts parse_loop(const std::vector<std::string>& words);

struct LoopAnswer {
  node::LoopCounts loop;
  node::NodeParams node;
  node::Bound bound;
};

LoopAnswer ask_loop(const model::Model& machine, const node::LoopCounts& loop);  // throws model::QueryError

std::string format_loop(const model::Model& machine, const LoopAnswer& a);
nlohmann::json loop_to_json(const model::Model& machine, const LoopAnswer& a);

}  // namespace augur::calc
