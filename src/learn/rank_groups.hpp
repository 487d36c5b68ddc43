#pragma once
// One run's ranks grouped by what they do. Each rank's sequence is compressed into loops
// (learn/loops.hpp) with its peers as they were; ranks whose loops, counts and calls are the same
// once peers and the tags of messages are set aside form a group, and the group keeps, for every call of its body, each
// member's peers and the mean of its values (seconds of a compute, bytes of a message) over the
// call's occurrences. A collective's communicator is set aside too: the ranks of a grid's rows
// each call it on their own row's.
#include <cstdint>
#include <vector>

#include "learn/rank_sequences.hpp"
#include "sim/program/program.hpp"

namespace augur::learn {

struct SampleNode {
  std::uint32_t times = 1;       // a loop's iterations; 1 for a call or a compute
  std::vector<SampleNode> body;  // a loop's body
  std::int32_t until_tag = -1;   // a loop the run ends when its first receive takes this tag
  std::vector<double> counts;    // a loop: per member, its iterations
  sim::Op op;                    // a call or compute, peers and value cleared
  std::vector<std::int32_t> peer, peer2;  // per member of the group
  std::vector<std::int32_t> tag, tag2;    // per member: a call's tags (calls to no one have their own)
  std::vector<std::uint16_t> comm;        // per member: a call's communicator (rows differ by it)
  std::vector<double> value;              // per member: mean over the occurrences
  std::vector<std::uint32_t> at;          // per member: its first occurrence's place in the rank's ops
  std::vector<std::vector<double>> values;        // per member: at each occurrence, in order
  std::vector<std::vector<std::int32_t>> peers;   // per member: the peer at each occurrence
  // A send, per member: every occurrence went to the source of the member's latest receive.
  std::vector<char> replies;
  bool is_loop() const { return !body.empty(); }
};

struct GroupSamples {
  std::vector<int> ranks;  // ascending
  std::vector<SampleNode> body;
};

// Groups ordered by their first rank. Without `peers_in_tokens`, calls that differ only by their
// peer (a root that rotates, a client's server) are one token, so that a loop whose iterations
// talk to different ranks is found, its peers kept per occurrence; and a loop whose count the
// run decided is found as such: receives of any tag from one rank, each followed by the same
// calls, until one takes another tag (a worker of a task farm asking until told to stop), so
// that ranks that did different numbers of iterations still form one group.
std::vector<GroupSamples> group_ranks(const RankSequences& sequences, bool peers_in_tokens = true);

}  // namespace augur::learn
