#!/bin/sh
# The latest end (ms) of schedules on 1,024 ranks in LogGOPSim, in augur as GOAL and in augur as
# the schedule itself (and in a second augur, e.g. an older build, as the schedule), as the table
# in docs/sim-loggops.md gives them: L = 3 µs, o = 1.5 µs, g = 1 µs, G = 6 ns/B, O = 0.
#   bench/loggopsim_schedules.sh build/bin/augur LOGGOPSIM/src/LogGOPSim [OTHER_AUGUR]
# LOGGOPSIM/src/LogGOPSim holds LogGOPSim and txt2bin built from github.com/spcl/LogGOPSim.
set -e
augur=$1
lgs=$2
other=${3:-}
data=$(dirname "$0")/../tests/data/loggopsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
params=L=3us,o=1.5us,g=1us,G=6ns,O=0

latest() {  # AUGUR FILE S: the latest end in ms
  "$1" sim "$2" --network loggops --loggops "$params,S=$3" --no-progress --json |
    python3 -c "import json, sys; print('%.4f' % (max(r['finish'] for r in json.load(sys.stdin)['ranks']) * 1e3))"
}

row() {  # NAME SCHEDULE S
  "$augur" sim "$2" --network loggops --loggops "$params" --no-progress --write-schedule "$tmp/x.goal" > /dev/null
  "$lgs/txt2bin" -i "$tmp/x.goal" -o "$tmp/x.bin" > /dev/null
  theirs=$("$lgs/LogGOPSim" -f "$tmp/x.bin" -L 3000 -o 1500 -g 1000 -G 6 -O 0 -S "$3" |
    sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' | awk '{printf "%.4f", $1 / 1e6}')
  before=""
  [ -n "$other" ] && before=" $(latest "$other" "$2" "$3") |"
  echo "| $1 | $theirs | $(latest "$augur" "$tmp/x.goal" "$3") |$before $(latest "$augur" "$2" "$3") |"
}

sed -e 's/repeat 10 /repeat 100 /' -e '/compute/d' "$data/halo_1024.sched" > "$tmp/halo100.sched"
row "pipeline, 100 items of 8 KiB, eager" "$data/pipeline_1024.sched" 65536
row "the same, rendezvous (S = 4 KiB)" "$data/pipeline_1024.sched" 4096
row "1-D periodic halo, 100 steps" "$tmp/halo100.sched" 65536
row "ring, one token of 8 KiB" "$data/ring_1024.sched" 65536
generated() {  # NAME GENERATOR...: a collective from --generate, written as a schedule
  name=$1
  shift
  "$augur" sim --generate "$@" p=1024 bytes=8KiB --network loggops --loggops "$params" --no-progress \
    --write-schedule "$tmp/g.sched" > /dev/null
  row "$name" "$tmp/g.sched" 65536
}
generated "binomial broadcast, 8 KiB" bcast algorithm=binomial
generated "recursive-doubling allreduce, 8 KiB" allreduce algorithm=rd
generated "dissemination barrier (empty messages)" barrier algorithm=dissemination
