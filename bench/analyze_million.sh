#!/bin/sh
# `augur analyze` of a 1,024-rank, one-million-event trace (issue 26: under 10 s). Writes the
# synthetic trace once, then times RUNS analyses and prints each wall time and the median.
# usage: bench/analyze_million.sh AUGUR [RUNS] [EXTRA ANALYZE OPTIONS...]
set -eu
augur=${1:?usage: analyze_million.sh AUGUR [RUNS] [OPTIONS...]}
runs=${2:-5}
[ $# -ge 2 ] && shift 2 || shift 1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$augur" trace synth -o "$dir/t" --ranks 1024 --events 1000000 >/dev/null
times=""
i=0
while [ "$i" -lt "$runs" ]; do
  start=$(date +%s.%N)
  "$augur" analyze "$dir/t" "$@" >/dev/null
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l)
  echo "run $((i + 1)): $t s"
  times="$times $t"
  i=$((i + 1))
done
echo "$times" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "median of %d: %.3f s\n", NR, (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
