#!/bin/sh
# How long `augur sensitivity` takes on a learned 1,024-rank stencil: 5 parameters (L, o, g, G and
# compute on LogGOPS) x 16 factors, with the slopes and the 1%, 2%, 5% tolerances, on --threads 1
# and 2, the two alternating. The stencil is the program section of
# examples/models/stencil-program.json (t3d, n = 1024), so no MPI is needed; `augur learn` does not
# yet learn it from its simulated traces (it refuses their tags). Prints the median wall time of
# REPEATS runs of each, their ratio, and the simulator runs per second.
#   bench/sensitivity/run.sh build/bin/augur [REPEATS]
set -e
augur=${1:-build/bin/augur}
repeats=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command="sensitivity --app $root/examples/models/stencil-program.json --set n=1024 --ranks 1024 --machine t3d --network loggops \
--loggops L=3us,o=1.5us,g=1us,G=6ns -p L,o,g,G,compute --json"
echo "augur $command --threads 1|2"
for i in $(seq "$repeats"); do
  for threads in 1 2; do
    start=$(date +%s.%N)
    "$augur" $command --threads $threads > "$tmp/out$threads.json"
    end=$(date +%s.%N)
    echo "$threads $(echo "$end - $start" | bc)" >> "$tmp/times"
  done
done
python3 - "$tmp" <<'PY'
import json, statistics, sys
tmp = sys.argv[1]
times = {1: [], 2: []}
for line in open(f"{tmp}/times"):
    threads, seconds = line.split()
    times[int(threads)].append(float(seconds))
runs = json.load(open(f"{tmp}/out2.json"))
median = {t: statistics.median(v) for t, v in times.items()}
print(f"simulations: {runs['simulations']} ({runs['tolerance_search']['runs']} in the tolerance searches), "
      f"baseline {runs['baseline_seconds']:.6g} s")
for t in (1, 2):
    print(f"--threads {t}: median of {len(times[t])}: {median[t]:.2f} s "
          f"({min(times[t]):.2f}-{max(times[t]):.2f}), {runs['simulations'] / median[t]:.1f} simulations/s")
print(f"threads 1 / threads 2: {median[1] / median[2]:.2f}")
PY
