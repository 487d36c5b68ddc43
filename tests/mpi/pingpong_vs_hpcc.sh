#!/bin/sh
# Ping-pong latency (8 B) and bandwidth (2,000,000 B) of augur's benchmark against hpcc's b_eff,
# in alternating rounds so that both tools see the machine in the same states.
# Usage: tests/mpi/pingpong_vs_hpcc.sh BUILD_DIR OUT_DIR [ROUNDS]
# BUILD_DIR holds bin/augur-bench-mpi; hpcc (Debian package hpcc) must be in PATH.
#
# b_eff times a loop of round trips several times and reports the fastest loop (per pair of
# processes, then averaged over pairs; with 2 processes, the two directions). augur's ping-pong
# repetition is also a loop (16 round trips timed as one), so its fastest repetition is the
# like-for-like figure; its median repetition, what augur's model is fitted to, is shown beside.
#
# On a machine whose host moves its processors between a fast and a slow state (docs/bench.md,
# "Machine states"), the median over rounds compares the shares of each state the two tools
# happened to meet: hpcc runs for many seconds and keeps its fastest loop, so it nearly always
# meets a fast spell, while augur's 2-second point often falls in a slow one. The best round of
# each tool is its measurement of the fast state, the state augur's model is fitted to.
set -eu
bin=$(cd "$1" && pwd)/bin
mkdir -p "$2"
cd "$2"
rounds=${3:-15}

sed -e 's/^2            Ps/1            Ps/' /usr/share/doc/hpcc/examples/_hpccinf.txt > hpccinf.txt
rm -f hpccoutf.txt
round=1
while [ "$round" -le "$rounds" ]; do
  mpirun --allow-run-as-root -np 2 hpcc > /dev/null 2>&1
  rm -f pingpong$round.raw.jsonl
  mpirun --allow-run-as-root -np 2 "$bin/augur-bench-mpi" --raw pingpong$round.raw.jsonl --ops pingpong \
    --max-size 2000000 --refine 0 --min-reps 30 --max-reps 200 --point-time 2 --budget 0 > /dev/null
  round=$((round + 1))
done
python3 - "$rounds" <<'PY'
import json, re, statistics, sys
rounds = int(sys.argv[1])
text = open("hpccoutf.txt").read()
hpcc_lat = [float(x) for x in re.findall(r"^AvgPingPongLatency_usec=(\S+)", text, re.M)]
hpcc_bw = [float(x) for x in re.findall(r"^AvgPingPongBandwidth_GBytes=(\S+)", text, re.M)]
rows = []
for r in range(1, rounds + 1):
    pts = {int(p["bytes"]): p for p in map(json.loads, open(f"pingpong{r}.raw.jsonl").readlines()[1:])}
    rows.append((hpcc_lat[r - 1], pts[8]["min"] * 1e6, pts[8]["median"] * 1e6,
                 hpcc_bw[r - 1], 2e6 / pts[2000000]["min"] / 1e9, 2e6 / pts[2000000]["median"] / 1e9))
print("| round | hpcc latency | augur latency, fastest (median) | hpcc bandwidth | augur bandwidth, fastest (median) |")
print("| --- | --- | --- | --- | --- |")
for i, r in enumerate(rows, 1):
    print(f"| {i} | {r[0]:.3f} µs | {r[1]:.3f} µs ({r[2]:.3f}) | {r[3]:.2f} GB/s | {r[4]:.2f} GB/s ({r[5]:.2f}) |")
med = [statistics.median(c) for c in zip(*rows)]
dev = lambda a, b: f"{100 * (a - b) / b:+.1f}%"
print(f"| median | {med[0]:.3f} µs | {med[1]:.3f} µs ({med[2]:.3f}): {dev(med[1], med[0])} ({dev(med[2], med[0])}) "
      f"| {med[3]:.2f} GB/s | {med[4]:.2f} GB/s ({med[5]:.2f}): {dev(med[4], med[3])} ({dev(med[5], med[3])}) |")
columns = list(zip(*rows))
best = [min(c) for c in columns[:3]] + [max(c) for c in columns[3:]]
print(f"| best round | {best[0]:.3f} µs | {best[1]:.3f} µs ({best[2]:.3f}): {dev(best[1], best[0])} ({dev(best[2], best[0])}) "
      f"| {best[3]:.2f} GB/s | {best[4]:.2f} GB/s ({best[5]:.2f}): {dev(best[4], best[3])} ({dev(best[5], best[3])}) |")
PY
