// SimGrid's answer for the traffic augur's flow model is checked against (bench/simgrid/compare.py,
// docs/simgrid-comparison.md): one actor per rank on host n<rank> of a platform written
// by `augur machines export`, exchanging messages in one of four patterns, on SimGrid's plain
// flow model. Prints the simulated makespan in seconds, then one line `message FROM TO SECONDS`
// per message, when its receive ended (its data there and the receive posted), each receiver's
// messages in the order it posted their receives.
//
//   simgrid_traffic PLATFORM ring BYTES STEPS     step s: send to rank+1, receive from rank−1
//   simgrid_traffic PLATFORM alltoall BYTES [STEPS]   step k = 1 … p−1 (or … STEPS): send to
//                                                 rank+k, receive from rank−k (augur's pairwise
//                                                 alltoall; fewer steps find where two runs part)
//   simgrid_traffic PLATFORM bcast BYTES          augur's binomial broadcast from rank 0: receive
//                                                 from rank − 2^j (2^j the lowest set bit), then
//                                                 send to rank + 2^i, i = j−1 … 0
//   simgrid_traffic PLATFORM burst BYTES          send to rank+1 … rank+p−1 at once, then
//                                                 receive from rank−1 … rank−(p−1)
//   simgrid_traffic PLATFORM tree BYTES           a binomial tree from rank 0: receive from the
//                                                 parent, then send to each child, nearest
//                                                 rank first
//   simgrid_traffic PLATFORM incast BYTES         every rank but 0 sends to rank 0 at once
//   simgrid_traffic PLATFORM permutation BYTES P0,P1,…   rank r sends to P_r, receives from
//                                                 the rank that sends to it
//   simgrid_traffic PLATFORM staggered BYTES STEPS DELAY   the ring, rank r starting at r × DELAY
//
// With --hostfile=FILE (`augur machines export --hostfile`), rank r runs on the host named on
// line r, several ranks to a host where the machine's nodes have several cores; without it,
// rank r runs on host n<r>, one rank a host.
//
// Each step of ring and alltoall is augur's `sendrecv TO FROM BYTES` with an eager send: the
// sender does not wait for its message, which starts flowing at once (the mailbox has a
// permanent receiver), and the step ends when the rank's own message from FROM has arrived.
// Every send of burst and bcast is eager in the same way.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>


namespace sg = simgrid::s4u;

namespace {

enum class Pattern { ring, alltoall, burst, bcast, tree, incast, permutation, staggered };

struct Traffic {
  Pattern pattern = Pattern::ring;
  double bytes = 0;
  int steps = 0;
  int ranks = 0;
  double delay = 0;         // staggered: between consecutive ranks' starts
  std::vector<int> perm;    // permutation: each rank's receiver
};

std::string mailbox_name(int from, int to) { return std::to_string(from) + ">" + std::to_string(to); }

int wrap(int rank, int ranks) { return ((rank % ranks) + ranks) % ranks; }

int payload = 0;  // the data is simulated: only its size matters

struct Arrival {
  int from, to;
  double time;
};
std::vector<std::vector<Arrival>> arrivals;  // per receiver, in the order it took its messages

int* landing = nullptr;  // where every received payload pointer goes

struct Posted {
  int from;
  double time;
  sg::CommPtr comm;
};

Posted post(int from, int me) {
  return {from, sg::Engine::get_clock(), sg::Mailbox::by_name(mailbox_name(from, me))->get_async<int>(&landing)};
}

// A receive ends when its message's transfer finished or, if that came first (a permanent
// receiver takes the data before the get is posted), when it was posted: augur's receive end.
void record(const Posted& p, int me) {
  arrivals[static_cast<std::size_t>(me)].push_back({p.from, me, std::max(p.time, p.comm->get_finish_time())});
}

void receive(int from, int me) {
  const Posted p = post(from, me);
  p.comm->wait();
  record(p, me);
}

void send(int from, int to, double bytes) {
  sg::Mailbox::by_name(mailbox_name(from, to))->put_init(&payload, static_cast<uint64_t>(bytes))->detach();
}

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// src/sim/program/algorithms.cpp's binomial_mask: the root's is twice its largest child distance.
int binomial_mask(int rank, int ranks) { return rank == 0 ? (1 << (ceil_log2(ranks) - 1)) * 2 : rank & -rank; }

void bcast_body(Traffic t, int me) {
  const int mask = binomial_mask(me, t.ranks);
  if (me != 0) receive(me - mask, me);
  for (int m = mask >> 1; m > 0; m >>= 1)
    if (me + m < t.ranks)
      sg::Mailbox::by_name(mailbox_name(me, me + m))->put_init(&payload, static_cast<uint64_t>(t.bytes))->detach();
}

// The binomial tree of augur's schedule (bench/simgrid/compare.py): rank r's parent is r less
// its highest bit, its children r + 2^k for 2^k above r, sent to the smallest k first.
void tree_body(Traffic t, int me) {
  int high = 1;
  while (high <= me) high <<= 1;
  if (me > 0) receive(me - high / 2, me);
  for (int mask = high; me + mask < t.ranks; mask <<= 1) send(me, me + mask, t.bytes);
}

// Waits for every receive posted, as augur's waitall, and records each.
void receive_all(const std::vector<int>& from, int me) {
  std::vector<Posted> posted;
  std::vector<sg::CommPtr> comms;
  for (const int f : from) {
    posted.push_back(post(f, me));
    comms.push_back(posted.back().comm);
  }
  sg::Comm::wait_all(comms);
  for (const auto& p : posted) record(p, me);
}

void incast_body(Traffic t, int me) {
  if (me != 0) return send(me, 0, t.bytes);
  std::vector<int> from;
  for (int k = 1; k < t.ranks; ++k) from.push_back(k);
  receive_all(from, me);
}

void permutation_body(Traffic t, int me) {
  send(me, t.perm[static_cast<std::size_t>(me)], t.bytes);
  const auto from = std::find(t.perm.begin(), t.perm.end(), me) - t.perm.begin();
  receive(static_cast<int>(from), me);
}

void rank_body(Traffic t, int me) {
  if (t.pattern == Pattern::bcast) return bcast_body(t, me);
  if (t.pattern == Pattern::tree) return tree_body(t, me);
  if (t.pattern == Pattern::incast) return incast_body(t, me);
  if (t.pattern == Pattern::permutation) return permutation_body(t, me);
  if (t.pattern == Pattern::staggered) sg::this_actor::sleep_until(me * t.delay);
  if (t.pattern == Pattern::burst) {
    for (int k = 1; k < t.ranks; ++k) send(me, wrap(me + k, t.ranks), t.bytes);
    std::vector<int> from;
    for (int k = 1; k < t.ranks; ++k) from.push_back(wrap(me - k, t.ranks));
    receive_all(from, me);
    return;
  }
  const bool ring = t.pattern == Pattern::ring || t.pattern == Pattern::staggered;
  const int steps = ring || t.steps > 0 ? t.steps : t.ranks - 1;
  for (int s = 0; s < steps; ++s) {
    const int k = ring ? 1 : s + 1;
    const int to = wrap(me + k, t.ranks), from = wrap(me - k, t.ranks);
    send(me, to, t.bytes);
    receive(from, me);
  }
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "simgrid_traffic: %s\n"
               "usage: simgrid_traffic PLATFORM ring BYTES STEPS | PLATFORM alltoall BYTES [STEPS]\n"
               "       | PLATFORM alltoall|burst|bcast|tree|incast BYTES\n"
               "       | PLATFORM permutation BYTES P0,P1,... | PLATFORM staggered BYTES STEPS DELAY\n"
               "       [--hostfile=FILE] [--cfg=...]\n",
               why);
  std::exit(2);
}

double positive_number(const char* text, const char* what) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0)) usage(what);
  return v;
}

// Max-min sharing of each link's bandwidth with nothing else: no TCP window bound (gamma), no
// reverse traffic, no correction factors. CM02 also leaves weight-S at 0. The shares are solved
// anew at every change ("Full"): the default lazy update re-solves only the links it marks as
// changed, and when several flows end their latency at one instant it marks only the first link
// of a flow whose first link another one already marked, so flows on its other links keep their
// old rates (SimGrid 3.32, lmm::System::update_modified_set); the lazy answer then depends on the
// order of simultaneous events, 8% apart from the full solution on a 64-rank torus alltoall.
void plain_flow_model() {
  sg::Engine::set_config("network/model:CM02");
  sg::Engine::set_config("network/optim:Full");
  sg::Engine::set_config("network/crosstraffic:0");
  sg::Engine::set_config("network/TCP-gamma:0");
  sg::Engine::set_config("network/latency-factor:1");
  sg::Engine::set_config("network/bandwidth-factor:1");
  sg::Engine::set_config("network/weight-S:0");
  // Times to the double, as augur keeps them: at its default 1e-9, SimGrid counts an action as
  // done with up to a billionth left and rounds event times; on traffic where tiny shifts
  // reorder events (an alltoall through a dragonfly's global links) that moved the end by 5%
  // (dragonfly:8,1,8,1), where 1e-15 agrees with augur to 2e-9.
  sg::Engine::set_config("surf/precision:1e-15");
}

// Takes --FLAG=VALUE out of the arguments; empty without it.
std::string take_option(int& argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0) {
      std::string value = argv[i] + std::strlen(flag);
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      return value;
    }
  return "";
}

// The host of each rank: the hostfile's lines, or n0, n1, … while the platform has them.
std::vector<sg::Host*> rank_hosts(const sg::Engine& engine, const std::string& hostfile) {
  std::vector<sg::Host*> hosts;
  if (hostfile.empty()) {
    for (;;) {
      // Appended, not "n" + std::to_string(…): GCC 12 at -O3 warns of that form's insert (a false -Wstringop-overflow).
      std::string name = "n";
      name += std::to_string(hosts.size());
      auto* host = engine.host_by_name_or_null(name);
      if (!host) break;
      hosts.push_back(host);
    }
    return hosts;
  }
  std::ifstream in(hostfile);
  if (!in) usage(("cannot read the hostfile " + hostfile).c_str());
  for (std::string name; in >> name;) {
    auto* h = engine.host_by_name_or_null(name);
    if (!h) usage(("the hostfile names " + name + ", which the platform does not have").c_str());
    hosts.push_back(h);
  }
  return hosts;
}

}  // namespace

int main(int argc, char** argv) {
  sg::Engine engine(&argc, argv);
  const auto hostfile = take_option(argc, argv, "--hostfile=");
  if (argc < 4) usage("too few arguments");
  Traffic t;
  const std::string pattern = argv[2];
  if (pattern == "ring" || pattern == "staggered") {
    if (pattern == "ring" ? argc != 5 : argc != 6) usage("ring needs BYTES and STEPS, staggered also DELAY");
    t.steps = static_cast<int>(positive_number(argv[4], "STEPS must be a whole number"));
    if (pattern == "staggered") {
      t.pattern = Pattern::staggered;
      t.delay = positive_number(argv[5], "DELAY must be a number of seconds");
    }
  } else if (pattern == "permutation") {
    if (argc != 5) usage("permutation needs BYTES and P0,P1,...");
    t.pattern = Pattern::permutation;
    for (const char* p = argv[4]; *p;) {
      char* end = nullptr;
      t.perm.push_back(static_cast<int>(std::strtol(p, &end, 10)));
      if (end == p) usage("the permutation must be comma-separated ranks");
      p = *end == ',' ? end + 1 : end;
    }
  } else if (pattern == "alltoall" && argc == 5) {
    t.pattern = Pattern::alltoall;
    t.steps = static_cast<int>(positive_number(argv[4], "STEPS must be a whole number"));
  } else if (pattern == "alltoall" || pattern == "burst" || pattern == "bcast" || pattern == "tree" ||
             pattern == "incast") {
    t.pattern = pattern == "alltoall" ? Pattern::alltoall
                : pattern == "burst"  ? Pattern::burst
                : pattern == "bcast"  ? Pattern::bcast
                : pattern == "tree"   ? Pattern::tree
                                      : Pattern::incast;
    if (argc != 4) usage((pattern + " takes BYTES only").c_str());
  } else {
    usage("the pattern must be ring, alltoall, burst, bcast, tree, incast, permutation or staggered");
  }
  t.bytes = positive_number(argv[3], "BYTES must be a number");
  plain_flow_model();
  engine.load_platform(argv[1]);

  const auto hosts = rank_hosts(engine, hostfile);
  if (hosts.size() < 2) usage("the platform needs hosts n0, n1, ... (as `augur machines export` writes) or a hostfile");
  t.ranks = static_cast<int>(hosts.size());
  if (t.pattern == Pattern::alltoall && t.steps >= t.ranks) usage("an alltoall has at most one step fewer than ranks");
  if (t.pattern == Pattern::permutation && t.perm.size() != hosts.size())
    usage("the permutation must name one receiver per host");
  arrivals.resize(hosts.size());

  std::vector<sg::ActorPtr> actors;
  for (int r = 0; r < t.ranks; ++r) actors.push_back(sg::Actor::create("rank" + std::to_string(r), hosts[r], rank_body, t, r));
  // Permanent receivers: a message flows as soon as it is sent, as augur's eager sends do.
  for (int to = 1; t.pattern == Pattern::bcast && to < t.ranks; ++to) {
    const int from = to - binomial_mask(to, t.ranks);
    sg::Mailbox::by_name(mailbox_name(from, to))->set_receiver(actors[to]);
  }
  for (int from = 0; from < t.ranks && t.pattern != Pattern::bcast; ++from)
    for (int k = 1; k < t.ranks; ++k) {
      if ((t.pattern == Pattern::ring || t.pattern == Pattern::staggered) && k > 1) break;
      const int to = wrap(from + k, t.ranks);
      if (t.pattern == Pattern::tree && !(to > from && ((to - from) & (to - from - 1)) == 0 && to - from > from)) continue;
      sg::Mailbox::by_name(mailbox_name(from, to))->set_receiver(actors[to]);
    }
  engine.run();
  std::printf("makespan %.17g\n", sg::Engine::get_clock());
  for (const auto& of_rank : arrivals)
    for (const auto& a : of_rank) std::printf("message %d %d %.17g\n", a.from, a.to, a.time);
  return 0;
}
