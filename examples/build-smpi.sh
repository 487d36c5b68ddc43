#!/usr/bin/env bash
# Builds every example with SimGrid's smpicc (Debian package libsimgrid-dev) into DIR.
#   examples/build-smpi.sh DIR
# CFLAGS replaces the optimisation flags (default -O2), e.g. CFLAGS="-O3 -DNDEBUG" to match a
# Release build of the examples.
# Run one under the simulator, e.g.:
#   smpirun -np 2 -platform examples/smpi/platform.xml -hostfile examples/smpi/hostfile \
#           --cfg=smpi/host-speed:1Gf DIR/mandel 256 100
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
out=$1
src=$(cd "$(dirname "$0")" && pwd)
command -v smpicc >/dev/null || { echo "smpicc not found: apt-get install libsimgrid-dev" >&2; exit 1; }
mkdir -p "$out"
for name in mandel life outer sor gauss winnow stencil2d farm reqreply ring jacobi3d; do
  # shellcheck disable=SC2086  # CFLAGS holds several words
  smpicc -std=c11 ${CFLAGS:--O2} -Wall -Wextra -o "$out/$name" "$src/$name.c" -lm
done
echo "built the examples with smpicc in $out"
