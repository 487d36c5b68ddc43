#!/bin/sh
# `augur sim --network topology` on a set of machines and traffics, each run's --json written
# to OUT/NAME.json, so two builds can be compared byte for byte (diff -r OUT1 OUT2) before and
# after a change that must not change any result. Covers flows that never share a channel (a
# ring on a torus), flows that share (all-to-all on a fat tree, a mesh, a dragonfly), a shared
# medium (a bus), several ranks a node, and farm and pipeline programs. The lines that measure
# the run itself (wall_seconds, events_per_second) are left out, and the count of events, which
# moves with how often the flows are re-shared.
# usage: bench/sim_topology_outputs.sh AUGUR OUT
set -eu
augur=${1:?usage: sim_topology_outputs.sh AUGUR OUT}
out=${2:?usage: sim_topology_outputs.sh AUGUR OUT}
mkdir -p "$out"

run() {
  name=$1
  shift
  "$augur" sim --network topology "$@" --no-progress --json |
    grep -v -e '"wall_seconds":' -e '"events_per_second":' -e '"events":' >"$out/$name.json"
}

run torus-ring-512 --topology torus:8x8x8 --generate allreduce algorithm=ring p=512 bytes=8KiB
run torus-rd-512 --topology torus:8x8x8 --generate allreduce algorithm=rd p=512 bytes=64KiB
run fattree-alltoall-64 --topology fattree:4,3,bandwidth=10GB/s,latency=1us --generate alltoall p=64 bytes=1MiB
run fattree-alltoall-256 --topology fattree:4,4,bandwidth=10GB/s,latency=1us --generate alltoall p=256 bytes=1MiB
run dragonfly-alltoall-72 --topology dragonfly:4,2,2 --generate alltoall p=72 bytes=64KiB
run bus-half-allreduce-8 --topology bus:8,duplex=half --generate allreduce algorithm=ring p=8 bytes=1MiB
run bus-alltoall-8 --topology bus:8 --generate alltoall p=8 bytes=256KiB
run mesh-alltoall-64 --topology mesh:8x8 --generate alltoall p=64 bytes=64KiB
run mesh-bcast-64 --topology mesh:8x8 --generate bcast p=64 bytes=1MiB iterations=3 compute=10us
run hypercube-allgather-64 --topology hypercube:6 --generate allgather p=64 bytes=16KiB
run star-cores-alltoall-64 --topology star:16,cores=4 --generate alltoall p=64 bytes=32KiB
run torus-farm-64 --topology torus:4x4x4 --generate farm p=64 items=1000 bytes=4KiB
run ring-pipeline-16 --topology ring:16 --generate pipeline p=16
