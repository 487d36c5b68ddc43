#!/usr/bin/env python3
"""One-sided communication: augur run's predictions of a ring halo exchange by MPI_Put, against
the same program run plainly.

bench/rma/halo_put.c (built here with mpicc into BUILD/rma/) puts BYTES into each neighbour's
window every iteration, between two fences (fence), each in a lock epoch of its target (lock) or
in a post/start/complete/wait epoch with both (pscw), after WORK multiply-adds. Each input runs --runs times plainly (`mpirun -np 2`) and as often
under `augur run --machine MODEL`, alternately, so a slow spell of the machine falls on both.
The measured time is the loop's MPI_Wtime span that rank 0 prints, the predicted one the same
span under augur run (its MPI_Wtime is the virtual clock). The table gives medians and the error
(predicted / measured - 1).

  bench/rma/run.py --model host.json          # a model of this machine made by `augur bench`
  bench/rma/run.py --model host.json --runs 7
"""
import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INPUTS = [
    ("fence", 8, 100000, 0),
    ("fence", 65536, 20000, 0),
    ("fence", 8, 20000, 2000),
    ("lock", 8, 100000, 0),
    ("lock", 65536, 20000, 0),
    ("pscw", 8, 100000, 0),
    ("pscw", 65536, 20000, 0),
]
LOOP = re.compile(r"loop_seconds=([0-9.eE+-]+)")


def loop_seconds(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    found = LOOP.search(done.stdout)
    if done.returncode != 0 or not found:
        sys.exit(f"rma: {' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return float(found.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--model", required=True, help="model file of this machine (augur bench)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mpirun", default="mpirun")
    a = ap.parse_args()
    build = Path(a.build)
    program = build / "rma" / "halo_put"
    program.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mpicc", "-O2", "-o", str(program), str(ROOT / "bench" / "rma" / "halo_put.c")], check=True)
    mpirun = [a.mpirun, "-np", "2", "--allow-run-as-root"]
    augur = [str(build / "bin" / "augur"), "run", "--mpirun", a.mpirun, "--machine", a.model, "-np", "2", "--"]
    rows = []
    for mode, size, iterations, work in INPUTS:
        args = [str(program), mode, str(size), str(iterations), str(work)]
        measured, predicted = [], []
        for _ in range(a.runs):
            measured.append(loop_seconds(mpirun + args))
            predicted.append(loop_seconds(augur + args))
        m, p = statistics.median(measured), statistics.median(predicted)
        rows.append((mode, size, iterations, work, m, p))
        print(f"{mode} {size} B x {iterations} (work {work}): measured {m:.4g} s, predicted {p:.4g} s, "
              f"{p / m - 1:+.1%}", file=sys.stderr)
    print("| epoch | bytes | iterations | work | measured s | predicted s | error |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode, size, iterations, work, m, p in rows:
        print(f"| {mode} | {size} | {iterations} | {work} | {m:.4g} | {p:.4g} | {p / m - 1:+.1%} |")


if __name__ == "__main__":
    main()
