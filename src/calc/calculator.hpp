#pragma once
// The calculator behind `augur calc` (the seed's timecalc): one question, one answer with the
// equation that produced it, so every number can be checked by hand against the data sheet.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "timing/placement.hpp"

namespace augur::calc {

struct Question {
  std::string op;
  double p = 2;
  double bytes = 0;
};

struct Answer {
  Question question;
  double d = 0;                 // the size in the model's size unit, as the equation sees it
  const model::Regime* regime = nullptr;
  std::string equation;         // in the model's units
  model::Estimate seconds;
  std::optional<model::MeasuredRange> measured;  // what the law was fitted to, when the model says
  // A machine of nodes: the ranks' nodes × ranks a node, and which of its laws answered
  // ("on one node", "between nodes", "measured at 2 ranks a node", "composed …"); empty for a
  // model of one level. A composed answer has no regime, and its equation names its phases.
  std::optional<timing::NodesAndRanks> shape;
  std::string level;
  bool extrapolated() const { return measured && !measured->covers(question.p, question.bytes); }
};

// `placement`: where ranks 0…p−1 run; a model of one level answers alike for every placement.
Answer ask(const model::Model& model, const Question& q, const timing::Placement& placement = {});  // throws model::QueryError

std::string format_answer(const model::Model& model, const Answer& a);
nlohmann::json answer_to_json(const model::Model& model, const Answer& a);

}  // namespace augur::calc
