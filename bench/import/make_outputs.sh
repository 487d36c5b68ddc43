#!/bin/sh
# Builds the OSU Micro-Benchmarks and the Intel MPI Benchmarks from their public sources against
# the MPI on PATH (mpicc, mpicxx) and reruns the outputs stored in tests/data/import/
# (tests/data/import/README.md lists them).
# Usage: bench/import/make_outputs.sh [WORKDIR] [imb]  (default /work: sources and builds go there;
# `imb`: only the IMB outputs)
# Needs git, make, autotools and network access to github.com, unless OMB53_GIT, OMB74_GIT and IMB_GIT
# name local clones of the same repositories.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/work}
out=$here/tests/data/import
mpirun="mpirun --oversubscribe --allow-run-as-root"
mkdir -p "$out"

build_omb() { # NAME URL COMMIT
  dir=$work/omb/$1
  [ -d "$dir/src" ] || git clone -q "$2" "$dir/src"
  (cd "$dir/src" && git checkout -q "$3")
  if [ ! -f "$dir/install/done" ]; then
    # A git checkout's file times make make rerun automake; regenerate with the tools at hand.
    (cd "$dir/src" && autoreconf -fi && ./configure -q CC=mpicc CXX=mpicxx --prefix="$dir/install" \
      && make -s -j2 && make -s install) >"$dir/build.log" 2>&1
    touch "$dir/install/done"
  fi
}

omb() { # NAME BENCHMARK: the installed program's path
  find "$work/omb/$1/install" -name "$2" -type f | head -1
}

omb_runs() { # NAME VERSION [PT2PT_OPTIONS] (5.x's point-to-point programs take no -m)
  o=omb-$2
  $mpirun -np 2 "$(omb "$1" osu_latency)" ${3:-} >"$out/$o-latency-np2.txt"
  $mpirun -np 2 "$(omb "$1" osu_bw)" ${3:-} >"$out/$o-bw-np2.txt"
  $mpirun -np 2 "$(omb "$1" osu_bibw)" ${3:-} >"$out/$o-bibw-np2.txt"
  $mpirun -np 2 "$(omb "$1" osu_mbw_mr)" ${3:-} >"$out/$o-mbw_mr-np2.txt"
  for np in 2 4; do
    for b in allreduce bcast; do
      $mpirun -np $np "$(omb "$1" osu_$b)" -m 4:16384 >"$out/$o-$b-np$np.txt"
      $mpirun -np $np "$(omb "$1" osu_$b)" -f -m 4:16384 >"$out/$o-$b-full-np$np.txt"
    done
    $mpirun -np $np "$(omb "$1" osu_barrier)" >"$out/$o-barrier-np$np.txt"
    $mpirun -np $np "$(omb "$1" osu_barrier)" -f >"$out/$o-barrier-full-np$np.txt"
  done
  $mpirun -np 2 "$(omb "$1" osu_alltoall)" -m 4:16384 >"$out/$o-alltoall-np2.txt"
  $mpirun -np 2 "$(omb "$1" osu_ialltoall)" -f -m 4:16384 >"$out/$o-ialltoall-full-np2.txt"
}

build_imb() { # NAME TAG
  dir=$work/imb/$1
  [ -d "$dir/src" ] || git clone -q "${IMB_GIT:-https://github.com/intel/mpi-benchmarks}" "$dir/src"
  (cd "$dir/src" && git checkout -q "$2")
  [ -x "$dir/src/IMB-MPI1" ] || (cd "$dir/src" && make -j2 CC=mpicc CXX=mpicxx IMB-MPI1) >"$dir/build.log" 2>&1
  [ -x "$dir/src/IMB-NBC" ] || (cd "$dir/src" && make -j2 CC=mpicc CXX=mpicxx IMB-NBC) >>"$dir/build.log" 2>&1
}

imb_runs() { # NAME VERSION
  imb=$work/imb/$1/src/IMB-MPI1
  $mpirun -np 4 "$imb" -npmin 2 -msglog 0:16 -time 2 PingPong Sendrecv Exchange Allreduce Bcast Barrier >"$out/imb-$2-np4.txt"
  $mpirun -np 2 "$imb" -msglog 0:12 PingPing Exchange Uniband Biband Alltoall Gather >"$out/imb-$2-formats-np2.txt"
  # p = 2 alone: under -npmin the ranks left out spin in MPI_Barrier on the same 2 cores.
  $mpirun -np 2 "$imb" -msglog 0:16 -time 2 PingPong Sendrecv Exchange Allreduce Bcast Barrier Alltoall Gather >"$out/imb-$2-np2.txt"
  $mpirun -np 4 "$imb" -multi 1 -msglog 0:10 PingPong Uniband Biband Exchange Barrier >"$out/imb-$2-multi-np4.txt"
  $mpirun -np 2 "$work/imb/$1/src/IMB-NBC" -msglog 0:10 Iallreduce Ibcast Ibarrier >"$out/imb-$2-nbc-np2.txt"
}

if [ "${2:-}" = imb ]; then build_imb imb-2021 IMB-v2021.7; imb_runs imb-2021 2021.7; exit; fi
build_omb omb-7.4 "${OMB74_GIT:-https://github.com/sherrywong1220/osu-micro-benchmarks-7.4}" 6a58a2a
omb_runs omb-7.4 7.4 "-m 1:65536"
# Several datatypes in one file (-T came with 7.x).
$mpirun -np 2 "$(omb omb-7.4 osu_allreduce)" -T all -m 4:1024 >"$out/omb-7.4-allreduce-types-np2.txt"
build_omb omb-5.3 "${OMB53_GIT:-https://github.com/forresti/osu-micro-benchmarks}" 993f966
omb_runs omb-5.3 5.3
build_imb imb-2021 IMB-v2021.7
imb_runs imb-2021 2021.7
# Other versions build the same way, e.g. `build_imb imb-2018 v2018.1; imb_runs imb-2018 2018.1`.
