#!/bin/sh
# The acceptance measurements of `augur bench` recorded in docs/benchmarks.md ("augur bench").
# Usage: tests/mpi/bench_acceptance.sh BUILD_DIR OUT_DIR [MPICH_BUILD_DIR]
# BUILD_DIR holds bin/augur, bin/augur-bench-mpi and bin/model_agreement; hpcc (Debian package
# hpcc) must be in PATH; MPICH_BUILD_DIR, if given, is a build configured with
# -DMPI_C_COMPILER=/usr/bin/mpicc.mpich.
set -eu
bin=$(cd "$1" && pwd)/bin
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$2"
cd "$2"
mpich_build=${3:-}

timed() {
  start=$(date +%s)
  "$@"
  echo "elapsed $(($(date +%s) - start)) s: $*"
}

echo "== two back-to-back quick runs: time, reproducibility, fit quality"
timed "$bin/augur" bench -np 2 --quick -o quick1.json --overwrite --quiet
timed "$bin/augur" bench -np 2 --quick -o quick2.json --overwrite --quiet
"$bin/model_agreement" compare quick2.json quick1.json quick2.raw.jsonl
"$bin/model_agreement" residuals quick1.json quick1.raw.jsonl --limit 0.05 || true

echo "== four processes on two cores"
timed "$bin/augur" bench -np 4 --oversubscribe --quick -o np4.json --overwrite --quiet

echo "== full"
timed "$bin/augur" bench -np 2 --full -o full.json --overwrite --quiet
"$bin/model_agreement" residuals full.json full.raw.jsonl --limit 0.05 || true

echo "== ping-pong against hpcc's b_eff"
"$here/pingpong_vs_hpcc.sh" "$bin/.." hpcc 15

if [ -n "$mpich_build" ]; then
  echo "== MPICH"
  mpich_bin=$(cd "$mpich_build" && pwd)/bin
  export AUGUR_BENCH_MPI="$mpich_bin/augur-bench-mpi"
  timed "$bin/augur" bench -np 2 --quick --mpirun mpiexec.mpich \
    -o mpich.json --overwrite --quiet
  "$bin/model_agreement" residuals mpich.json mpich.raw.jsonl --limit 0.05 || true
fi
