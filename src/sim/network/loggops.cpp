#include "sim/network/loggops.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "util/duration.hpp"
#include "util/size.hpp"

namespace augur::sim {
namespace {

// One "name=value" of the list into `p`.
void set_parameter(LogGOPSParams& p, std::string_view name, std::string_view value) {
  if (name == "S") {
    p.S = util::parse_size(value, 4);
    return;
  }
  auto seconds = util::parse_seconds(value);
  if (!seconds) throw std::invalid_argument(fmt::format("loggops {}: '{}' is not a time such as 1.5us", name, value));
  double* slot = name == "L" ? &p.L : name == "o" ? &p.o : name == "g" ? &p.g : name == "G" ? &p.G : name == "O" ? &p.O : nullptr;
  if (!slot) throw std::invalid_argument(fmt::format("loggops: unknown parameter '{}' (L, o, g, G, O, S)", name));
  *slot = *seconds;
}

// LogGOPSim's byte terms count the bytes after the first.
double after_first(double bytes) { return std::max(0.0, bytes - 1); }

}  // namespace

LogGOPSParams parse_loggops(std::string_view text) {
  LogGOPSParams p;
  while (!text.empty()) {
    auto comma = text.find(',');
    auto item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    auto eq = item.find('=');
    if (eq == std::string_view::npos) throw std::invalid_argument(fmt::format("loggops: '{}' is not name=value", item));
    set_parameter(p, item.substr(0, eq), item.substr(eq + 1));
  }
  return p;
}

LogGOPSNetwork::LogGOPSNetwork(LogGOPSParams params) : params_(params) {}

LogGOPSNetwork::LogGOPSNetwork(const model::Model& model, model::Bound bound) : model_(&model), bound_(bound) {
  pingpong_ = model.find("pingpong");
  if (!pingpong_) pingpong_ = model.find("recv");
  if (!pingpong_) throw std::invalid_argument("loggops: the model has neither pingpong nor recv to take T(n) from");
  onetomany_ = model.find("onetomany");
  send_ = model.find("send");
  recvmin_ = model.find("recvmin");
  if (model.network.eager_limit > 0) params_.S = model.network.eager_limit;
}

LogGOPSNetwork::LogGOPSNetwork(const model::Model& model, model::Bound bound, timing::Placement placement)
    : LogGOPSNetwork(model, bound) {
  if (!model.nodes) return;
  placement_ = std::move(placement);
  on_node_model_ = std::make_unique<model::Model>(model.on_node_level());
  on_node_ = std::make_unique<LogGOPSNetwork>(*on_node_model_, bound);
}

LogGOPSNetwork::LogGOPSNetwork(LogGOPSParams params, LogGOPSParams on_node, timing::Placement placement)
    : params_(params), placement_(std::move(placement)), on_node_(std::make_unique<LogGOPSNetwork>(on_node)) {}

const Network& LogGOPSNetwork::between(int src, int dst) const {
  return on_node_ && src >= 0 && dst >= 0 && placement_->same_node(src, dst) ? *on_node_ : *this;
}

// As timing::Rules does: a law is carried on past the largest message its last regime names.
double LogGOPSNetwork::eval(const model::Operation* op, double p, double bytes) const {
  if (!op) return 0;
  return std::max(0.0, model_->seconds(*op, p, op->size_priced_as(bytes), bound_));
}

double LogGOPSNetwork::overhead(double n) const {
  if (!model_) return params_.o + after_first(n) * params_.O;
  return onetomany_ ? eval(onetomany_, 1, n) : eval(send_, 2, n);
}

double LogGOPSNetwork::gap(double n) const {
  if (!model_) return params_.g + after_first(n) * params_.G;
  return onetomany_ ? std::max(0.0, eval(onetomany_, 2, n) - eval(onetomany_, 1, n)) : overhead(n);
}

double LogGOPSNetwork::receiver(double n) const {
  if (!model_) return params_.o + after_first(n) * std::max(params_.O, params_.G);
  return eval(recvmin_, 2, n);
}

double LogGOPSNetwork::one_way(double n) const {
  if (!model_) return params_.o + params_.L + receiver(n);
  return eval(pingpong_, 2, n);
}

double LogGOPSNetwork::arrival_overhead(double n) const { return model_ ? 0 : receiver(n); }

// A late receive: LogGOPS handled its message on arrival; the seed's model charges recvmin.
double LogGOPSNetwork::recvmin(double n) const { return model_ ? receiver(n) : 0; }

double LogGOPSNetwork::send_end(double& nic_free, timing::SendMode, double start, double bytes) const {
  if (model_) {
    const double handed = std::max(start + overhead(bytes), nic_free);
    nic_free = handed + gap(bytes);
    return handed;
  }
  const double begins = std::max(start, nic_free);
  nic_free = whole_picoseconds(begins + gap(bytes));
  return whole_picoseconds(begins + overhead(bytes));
}

Network::Isend LogGOPSNetwork::isend(double& nic_free, timing::SendMode mode, double start, double bytes) const {
  const double handed = send_end(nic_free, mode, start, bytes);
  return {handed, handed};
}

bool LogGOPSNetwork::waits_for_receiver(timing::SendMode mode, double bytes) const {
  if (mode == timing::SendMode::synchronous) return true;
  return mode == timing::SendMode::standard && bytes > params_.S;
}

// The send starts once the gap since the previous one has passed, as send_end computes it on its
// own copy of the state; the seed's model times its message from the call.
double LogGOPSNetwork::departure(double& link_free, double start, double bytes) const {
  if (model_) return start;
  const double begins = std::max(start, link_free);
  link_free = whole_picoseconds(begins + gap(bytes));
  return begins;
}

double LogGOPSNetwork::arrival(double departure, bool rendezvous, double bytes) const {
  if (!model_) return whole_picoseconds(departure + params_.o + params_.L);
  return rendezvous ? departure : departure + one_way(bytes);
}

// Without the receiver's state (the kernels keep it): as if its processor were free.
double LogGOPSNetwork::receive_end(double post, double departure, bool rendezvous, double bytes) const {
  if (!model_) return std::max(post, departure + one_way(bytes));
  const double transfer = rendezvous ? std::max(departure, post) : departure;
  return std::max(post + receiver(bytes), transfer + one_way(bytes));
}

// LogGOPS frees the sender when its receive takes the message; the seed's model when its data
// has been delivered.
double LogGOPSNetwork::waiting_send_end(double departure, double receiver_post, double bytes) const {
  if (!model_) return std::max(receiver_post, arrival(departure, true, bytes));
  return std::max(departure, receiver_post) + one_way(bytes);
}

double LogGOPSNetwork::collective_duration(std::string_view op, int, double, bool) const {
  throw std::logic_error("loggops prices messages only; collective " + std::string(op) + " must be expanded");
}

std::string LogGOPSNetwork::describe() const {
  const auto rendezvous = std::isfinite(params_.S) ? fmt::format("S={:.0f}B", params_.S) : std::string("eager");
  auto text = model_ ? fmt::format("loggops from {} (at 16 B: T={:.4g}us o={:.4g}us g={:.4g}us r={:.4g}us; {})",
                                   model_->machine.name, one_way(16) * 1e6, overhead(16) * 1e6, gap(16) * 1e6,
                                   receiver(16) * 1e6, rendezvous)
                     : fmt::format("loggops L={:.4g}us o={:.4g}us g={:.4g}us G={:.4g}ns O={:.4g}ns {}", params_.L * 1e6,
                                   params_.o * 1e6, params_.g * 1e6, params_.G * 1e9, params_.O * 1e9, rendezvous);
  if (on_node_) text += fmt::format(", on one node {}, {}", on_node_->describe(), placement_->describe());
  return text;
}

}  // namespace augur::sim
