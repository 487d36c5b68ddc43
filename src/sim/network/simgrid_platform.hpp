#pragma once
// A machine (machine.hpp) as a SimGrid platform file (version 4.1), so the same hardware runs in
// SimGrid and SMPI (docs/machine-format.md, "SimGrid platforms"). Every compute node is a host,
// every link a SimGrid link, and every ordered pair of hosts gets an explicit route listing the
// links augur's own router picks, so both simulators send each message over the same links.
#include <string>
#include <vector>

#include "sim/network/machine.hpp"

namespace augur::sim {

struct PlatformOptions {
  // Flop/s of a node of speed 1; a node of speed s gets s times as much. SMPI users pass the
  // same value as --cfg=smpi/host-speed so that measured compute keeps its length.
  double reference_speed = 1e9;
};

// The platform as XML: a zone with Full routing, hosts n0 … n(N−1) (the machine's compute
// nodes), a link l<i> for each of the machine's links (SPLITDUPLEX when full duplex: its UP
// half carries traffic from its first end, DOWN the other way; SHARED when half duplex or a
// shared medium), latency = the link's latency plus the machine's hop latency, and a route for
// every ordered pair of distinct hosts. Switches route but do not appear: SimGrid's Full routing
// needs only the hosts' routes. Its size grows with the square of the nodes.
std::string simgrid_platform(const Machine& machine, const PlatformOptions& options = {});

// The host of each of `ranks` ranks under the machine's mapping, one per line: SMPI's hostfile.
std::string simgrid_hostfile(const Machine& machine, int ranks);

// The number of ranks the machine holds with one per core.
int core_count(const Machine& machine);

}  // namespace augur::sim
