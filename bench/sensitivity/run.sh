#!/bin/sh
# How long `augur sensitivity` takes on a learned 1,024-rank stencil: 5 parameters (L, o, g, G and
# compute on LogGOPS) x 16 factors, with the slopes and the 1%, 2%, 5% tolerances, on 2 threads.
# The stencil is learned by `augur learn` from simulated traces of examples/models/stencil-program.json
# at 4, 16, 64 and 256 ranks (t3d, n = 1024), so no MPI is needed; the median of REPEATS runs is printed.
#   bench/sensitivity/run.sh build/bin/augur [REPEATS]
set -e
augur=${1:-build/bin/augur}
repeats=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in 4 16 64 256; do
  "$augur" sim --app "$root/examples/models/stencil-program.json" --ranks $p --machine t3d --set n=1024 \
    --no-bounds --no-progress --trace "$tmp/st$p" > /dev/null
done
"$augur" learn "$tmp/st4" "$tmp/st16" "$tmp/st64" "$tmp/st256" -o "$tmp/stencil.json" > /dev/null
command="sensitivity --app $tmp/stencil.json --ranks 1024 --machine t3d --network loggops \
--loggops L=3us,o=1.5us,g=1us,G=6ns -p L,o,g,G,compute"
echo "augur $command"
for i in $(seq "$repeats"); do
  start=$(date +%s.%N)
  "$augur" $command --json > "$tmp/out.json"
  end=$(date +%s.%N)
  echo "$end - $start" | bc
done | sort -n | tee "$tmp/times" | awk '{ t[NR] = $1 } END { printf "median of %d: %.2f s\n", NR, t[int((NR + 1) / 2)] }'
python3 -c "import json; j = json.load(open('$tmp/out.json')); print('simulations:', j['simulations'], 'baseline:', j['baseline_seconds'])"
