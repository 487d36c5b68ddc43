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
PY
