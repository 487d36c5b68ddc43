#!/bin/sh
# `augur sim --json` on the inputs it reads (schedules, GOAL files, traces, generated
# collectives, the examples' application models and models learned by `augur learn`) on the
# model, LogGOPS and topology networks, each run's output written to OUT/NAME.json, so that two
# builds can be compared byte for byte (diff -r OUT1 OUT2) before and after a change that must
# not change any result. The GOAL files, traces and learned models the runs read are made by
# the binary under test and kept in OUT too, so their writers are compared as well. The lines
# that measure the run itself (wall_seconds, events_per_second) are left out.
# usage: bench/sim_outputs.sh AUGUR OUT   (from the repository's root)
set -eu
augur=${1:?usage: sim_outputs.sh AUGUR OUT}
out=${2:?usage: sim_outputs.sh AUGUR OUT}
# The runs name their inputs in the reports: repository files by one absolute path, the files
# they make by a path relative to OUT, so that two OUTs differ in nothing but results.
root=$(pwd)
case $augur in /*) ;; *) augur=$root/$augur ;; esac
mkdir -p "$out/made"
cd "$out"
made=made

run() {
  name=$1
  shift
  "$augur" sim "$@" --no-progress --json | grep -v -e '"wall_seconds":' -e '"events_per_second":' >"$name.json"
}

# Schedules (docs/schedule-format.md), on the model's equations and on LogGOPS.
for sched in "$root"/tests/data/loggopsim/*.sched; do
  base=$(basename "$sched" .sched)
  run "schedule-$base-t3d" --machine t3d "$sched"
  run "schedule-$base-loggops" --network loggops --loggops L=2500ns,o=1500ns,g=1000ns,G=6ns "$sched"
done
run schedule-ring_16-torus --network topology --topology ring:16 "$root"/tests/data/loggopsim/ring_16.sched

# GOAL files, written from schedules and generated collectives, then run.
for base in ring_16 halo_16 pipeline_16 sendrecv_2 windows_16; do
  "$augur" sim --machine t3d "$root/tests/data/loggopsim/$base.sched" --write-schedule "$made/$base.goal" --no-progress >/dev/null
  run "goal-$base-t3d" --machine t3d "$made/$base.goal"
  run "goal-$base-loggops" --network loggops --loggops L=2500ns,o=1500ns,g=1000ns,G=6ns "$made/$base.goal"
done
"$augur" sim --generate bcast p=12 --write-schedule "$made/bcast.goal" --no-progress >/dev/null
run goal-bcast-loggops --network loggops --loggops L=2500ns,o=1500ns,g=1000ns "$made/bcast.goal"

# Generated collectives and programs.
run gen-bcast-1m --machine sp2-mpl --network loggops --generate bcast algorithm=1m p=12 bytes=16
run gen-allreduce-rabenseifner --network loggops --generate allreduce algorithm=rabenseifner p=64 bytes=1MiB
run gen-allreduce-rd-t3d --machine t3d --generate allreduce algorithm=rd p=24 bytes=4KiB
run gen-farm --machine sp2-mpl --generate farm p=8 items=100 compute=2ms
run gen-pipeline --machine t3d --generate pipeline p=4 items=20 bytes=4KiB compute=50us
run gen-alltoall-torus --network topology --topology torus:4x4 --generate alltoall p=16 bytes=64KiB

# Traces: the seed's text traces, and native traces the simulator writes, replayed.
for t in "$root"/tests/data/trace/*.txt; do
  run "trace-$(basename "$t" .txt)" --machine t3d "$t"
done
"$augur" sim --machine t3d "$root"/tests/data/loggopsim/halo_16.sched --trace "$made/halo-trace" --no-progress >/dev/null
run trace-halo-sp2 --machine sp2-mpl "$made/halo-trace"
run trace-halo-loggops --network loggops "$made/halo-trace"

# The examples' application models with a program section.
run app-stencil --app "$root"/examples/models/stencil-program.json --ranks 64 --machine t3d --set n=1024
run app-stencil-4096 --app "$root"/examples/models/stencil-program.json --ranks 4096 --machine t3d --set n=4096 --no-bounds
run app-farm --app "$root"/examples/models/farm-program.json --ranks 16 --machine sp2-mpl

# Learned models: traces of generated programs at a few counts, learned, then run larger.
for p in 4 8 16; do
  "$augur" sim --machine t3d --generate pipeline p=$p items=20 bytes=4KiB compute=50us \
    --trace "$made/pipeline-$p" --no-progress >/dev/null
  "$augur" sim --machine t3d --generate allreduce algorithm=rd p=$p bytes=4KiB iterations=3 compute=10us \
    --trace "$made/allreduce-$p" --no-progress >/dev/null
done
for prog in pipeline allreduce; do
  "$augur" learn "$made/$prog-4" "$made/$prog-8" "$made/$prog-16" -o "$made/$prog-learned.json" >"$made/$prog-learn.txt"
  run "learned-$prog-64" --app "$made/$prog-learned.json" --ranks 64 --machine t3d
done
