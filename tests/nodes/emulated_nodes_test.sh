#!/usr/bin/env bash
# The emulated nodes of scripts/emulate-nodes (tests/nodes/CMakeLists.txt):
#   emulated_nodes_test.sh lifecycle|bench|run SCRIPT NODE_PROBE AUGUR MPIRUN RING
# lifecycle: bad options are refused before anything is made; a start that fails half-way removes
#   what it made; on 2 nodes of 2 ranks each node's ranks see one hostname and share memory
#   (MPI_Comm_split_type SHARED), and the ranks of two nodes ping-pong across the 100 Mbit/s link
#   at its rate; stop removes the namespaces, their files and a process left running on a node.
# bench: `augur bench -np 4` across 2 nodes of 2 writes pingpong records on one node
#   (nodes 1 × 2 ranks) and between nodes (2 × 1), and barriers over 2 nodes of 1 and of 2.
# run: `augur run -np 4` of the ring example across 2 nodes of 2 reports a prediction for 4 ranks
#   (the shim's variables reach node 2's ranks through mpirun -x).
# Exit 77 (skipped, saying why) where the host cannot make namespaces or the MPI is not Open MPI.
set -uo pipefail
part=$1 script=$2 probe=$3 augur=$4 mpirun=$5 ring=${6:-}
work=$(mktemp -d)
dir=$work/nodes
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
skip() { echo "skipped: $*"; exit 77; }

# Whatever happens, nothing of the nodes stays behind.
finish() {
  [[ -f $dir/made ]] && "$script" stop --dir "$dir" > /dev/null 2>&1
  rm -rf "$work"
}
trap finish EXIT
trap 'exit 143' TERM INT

"$mpirun" --version 2>&1 | grep -Eq "Open MPI|OpenRTE" ||
  skip "the emulated nodes launch through Open MPI's rsh agent; $mpirun is another MPI"
[[ $(id -u) == 0 ]] || skip "emulating nodes needs root (ip netns add, tc qdisc add)"
ip netns list > /dev/null 2>&1 || skip "'ip netns list' failed: no network namespaces here"
command -v tc > /dev/null || skip "emulating nodes needs tc (iproute2)"

# The namespaces and /etc/netns entries a start whose process was PID made.
leftovers() {
  { ip netns list | awk '{print $1}'; ls /etc/netns 2> /dev/null; } | grep -E "^augur-node-$1-" || true
}

expect_refused() {  # EXPECTED-TEXT ARGS…: start refuses the options with status 2, naming them
  local want=$1 out status
  shift
  out=$("$script" start --dir "$dir" "$@" 2>&1)
  status=$?
  [[ $status == 2 ]] || fail "start $* exited $status, not 2"
  [[ $out == *"$want"* ]] || fail "start $* said '$out', not '$want'"
  [[ ! -e $dir ]] || fail "start $* left $dir behind"
}

lifecycle() {
  expect_refused "--nodes must be a whole number" --nodes 0 --ranks-per-node 2 --rate 1gbit
  expect_refused "--rate must be a rate" --nodes 2 --ranks-per-node 2 --rate fast
  expect_refused "start needs --ranks-per-node" --nodes 2 --rate 1gbit
  expect_refused "unknown option '--color'" --nodes 2 --ranks-per-node 2 --rate 1gbit --color red

  AUGUR_EMULATE_NODES_FAIL_AT=2 "$script" start --dir "$dir" --nodes 3 --ranks-per-node 1 --rate 1gbit \
    > "$work/failed.out" 2>&1 &
  local pid=$!
  wait $pid && fail "a start made to fail at node 2 succeeded"
  grep -q "removing what it made" "$work/failed.out" || fail "a failed start did not say it cleans up"
  [[ -z $(leftovers $pid) ]] || fail "a failed start left $(leftovers $pid | tr '\n' ' ')"
  [[ ! -e $dir ]] || fail "a failed start left $dir"

  "$script" start --dir "$dir" --nodes 2 --ranks-per-node 2 --rate 100mbit > "$work/start.out" || {
    fail "start failed: $(cat "$work/start.out")"
    return
  }
  local made
  made=$(awk '{print $2}' "$dir/made")
  # More ranks than cores: the ranks must yield when idle, or each waits out its core's time slices.
  if ((4 > $(nproc))); then
    grep -q -- "--mca mpi_yield_when_idle 1" "$dir/mpirun-args" ||
      fail "4 ranks on $(nproc) cores, and mpirun-args does not make them yield: $(cat "$dir/mpirun-args")"
  else
    grep -q -- "mpi_yield_when_idle" "$dir/mpirun-args" && fail "4 ranks on $(nproc) cores made to yield"
  fi
  # shellcheck disable=SC2046
  timeout 60 "$script" exec --dir "$dir" -- "$mpirun" --allow-run-as-root -np 4 $(cat "$dir/mpirun-args") \
    "$probe" 2 8 1048576 > "$work/probe.out" 2>&1 || fail "the probe failed: $(cat "$work/probe.out")"
  cat "$work/probe.out"
  local hosts
  hosts=$(awk '/^rank/ {print $4}' "$work/probe.out" | sort -u | wc -l)
  [[ $hosts == 2 ]] || fail "the ranks saw $hosts hostnames, not 2"
  [[ $(awk '/^rank/ && $6 == 2' "$work/probe.out" | wc -l) == 4 ]] ||
    fail "MPI_Comm_split_type(SHARED) did not group the ranks 2 and 2"
  [[ $(awk '/^rank [01] / {print $4}' "$work/probe.out" | sort -u | wc -l) == 1 ]] ||
    fail "ranks 0 and 1 are not on one node (block placement)"
  # 1 MiB at 100 Mbit/s is 84 ms one way; TCP's headers and a busy host make it slower, never faster.
  local one_way
  one_way=$(awk '/^pingpong 0-2 1048576 B/ {print $5}' "$work/probe.out")
  awk -v t="${one_way:-0}" 'BEGIN {exit !(t > 0.080 && t < 0.2)}' ||
    fail "1 MiB across the 100 Mbit/s link took '${one_way}' s one way, not 0.08-0.2 s"

  # A process left running on a node is stopped with it.
  "$script" exec --dir "$dir" --node 2 -- sleep 300 &
  local sleeper=$!
  sleep 0.5
  "$script" stop --dir "$dir" || fail "stop failed"
  wait $sleeper 2> /dev/null
  kill -0 $sleeper 2> /dev/null && fail "a process on node 2 survived stop"
  local name
  for name in $made; do
    [[ $name == /etc/* ]] && [[ -e $name ]] && fail "stop left $name"
    [[ $name != /etc/* ]] && ip netns list | grep -qw "$name" && fail "stop left namespace $name"
  done
  [[ ! -e $dir ]] || fail "stop left $dir"
  "$script" stop --dir "$dir" > /dev/null 2>&1
  [[ $? == 3 ]] || fail "a second stop did not say there is nothing to stop"
}

bench() {
  "$script" start --dir "$dir" --nodes 2 --ranks-per-node 2 --rate 1gbit > /dev/null || {
    fail "start failed"
    return
  }
  # shellcheck disable=SC2046
  timeout 90 "$script" exec --dir "$dir" -- "$augur" bench --mpirun "$mpirun" -np 4 --quick --ops pingpong,barrier --max-size 8 --sync barrier \
    --budget 20s --passes 1 --no-compute -o "$work/m.json" -q -- $(cat "$dir/mpirun-args") \
    > "$work/bench.out" 2>&1 || fail "augur bench failed"
  cat "$work/bench.out"
  local raw=$work/m.raw.jsonl
  grep -q '"ranks_per_node":2' <(head -1 "$raw") || fail "the header does not say 2 ranks a node"
  python3 - "$raw" << 'EOF' || fail "the raw file lacks a level"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])][1:]
have = {(r["op"], r.get("nodes"), r.get("ranks_per_node")) for r in lines if "median" in r}
want = {("pingpong", 1, 2), ("pingpong", 2, 1), ("barrier", 2, 1), ("barrier", 2, 2)}
print("placements measured:", sorted(have, key=str))
sys.exit(0 if want <= have else 1)
EOF
}

run_program() {
  "$script" start --dir "$dir" --nodes 2 --ranks-per-node 2 --rate 1gbit > /dev/null || {
    fail "start failed"
    return
  }
  # shellcheck disable=SC2046
  timeout 60 "$script" exec --dir "$dir" -- "$augur" run --mpirun "$mpirun" --machine t3d --report "$work/run.json" \
    -np 4 -- $(cat "$dir/mpirun-args") "$ring" 10 1024 > "$work/run.out" 2>&1 || fail "augur run failed: $(cat "$work/run.out")"
  python3 - "$work/run.json" << 'EOF' || fail "augur run's report lacks a rank"
import json, sys
report = json.load(open(sys.argv[1]))
ranks = report.get("ranks", [])
print("ranks in the report:", len(ranks), "predicted seconds:", report.get("predicted_seconds"))
sys.exit(0 if len(ranks) == 4 and report.get("predicted_seconds", 0) > 0 else 1)
EOF
}

case $part in
  lifecycle) lifecycle ;;
  bench) bench ;;
  run) run_program ;;
  *) echo "unknown part '$part'" >&2; exit 2 ;;
esac
((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "passed"
