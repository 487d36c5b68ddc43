#!/bin/sh
# Makes the .ends files here: each schedule written as GOAL by augur, then run by LogGOPSim
# (github.com/spcl/LogGOPSim at 76451de, src/LogGOPSim built with txt2bin) on S = 64 KiB (eager: every
# message here) and S = 4 KiB (rendezvous above it), L = 3 µs, o = 1.5 µs, g = 1 µs, G = 6 ns/B,
# O = 0.
#   tests/data/loggopsim/make_ends.sh build/bin/augur LOGGOPSIM/src/LogGOPSim
set -e
augur=$1
lgs=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for sched in "$here"/*.sched; do
  name=$(basename "$sched" .sched)
  "$augur" sim "$sched" --network loggops --loggops L=3us,o=1.5us,g=1us,G=6ns,O=0 --no-progress \
    --write-schedule "$tmp/$name.goal" > /dev/null
  "$lgs/txt2bin" -i "$tmp/$name.goal" -o "$tmp/$name.bin" > /dev/null
  for mode in eager:65536 rendezvous:4096; do
    flags="-L 3000 -o 1500 -g 1000 -G 6 -O 0 -S ${mode#*:}"
    "$lgs/LogGOPSim" -f "$tmp/$name.bin" $flags > "$tmp/out.txt"
    {
      echo "# LogGOPSim's end times (ns) of $name.sched: every rank's up to 16 ranks, else the latest."
      echo "# augur sim $name.sched --network loggops --write-schedule $name.goal; txt2bin -i $name.goal -o $name.bin"
      echo "# LogGOPSim -f $name.bin $flags"
      sed -n -e 's/^Host [0-9]*: \([0-9]*\)$/\1/p' -e 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/out.txt"
    } > "$here/$name.${mode%%:*}.ends"
  done
done
