#!/usr/bin/env python3
"""What running under the reverse profiler costs: wall time of `augur run` over the plain run.

For a compute-bound program (the mandel example), a latency-bound ping-pong (8-byte messages
back and forth) and a bandwidth-bound one (1 MiB messages, which travel with the shim's header as
a derived datatype rather than a copy), each command is run alternately plain (`mpirun -np 2 ...`) and under
`augur run --machine M -np 2 -- ...`, and the medians of the whole commands' wall times are
compared. Alternating keeps slow drifts of a shared machine out of the ratio.

  bench/overhead/run.py                   # build/ of the repository, 5 rounds
  bench/overhead/run.py --rounds 9 --build build-rel
  bench/overhead/run.py --baseline ../base/build  # also another build's augur run, in the same rounds

With --baseline, each round runs the plain command, the baseline build's `augur run` and this
build's, and the table adds the baseline's median and the median over the rounds of this
build's time over the baseline's.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (name, program relative to the build directory, arguments, required ratio)
WORKLOADS = [
    ("compute-bound (mandel 2048 x 2000 iterations)", "examples/mandel", ["2048", "2000"], 1.10),
    ("latency-bound ping-pong (8 B, 2,000,000 round trips)", "tests/revprof/revprof_pingpong_any",
     ["2000000", "8"], 2.0),
    ("bandwidth-bound ping-pong (1 MiB, 4,000 round trips)", "tests/revprof/revprof_pingpong_any",
     ["4000", "1048576"], None),
]


def launcher():
    cmd = ["mpirun", "-np", "2", "--oversubscribe"]
    return cmd + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def wall(cmd):
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"overhead: {' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur")
    ap.add_argument("--machine", default="t3d", help="machine model for augur run")
    ap.add_argument("--rounds", type=int, default=5, help="alternating plain/augur pairs (median)")
    ap.add_argument("--baseline", help="another build directory whose augur run is timed in the same rounds")
    a = ap.parse_args()
    build = Path(a.build)
    baseline = Path(a.baseline) if a.baseline else None

    def augur_cmd(at, binary, args):
        return [str(at / "bin" / "augur"), "run", "--machine", a.machine, "-np", "2", "--oversubscribe", "--",
                binary] + args

    extra = " baseline s (median) | over baseline |" if baseline else ""
    print(f"| workload | plain s (median) | augur run s (median) | ratio | required |{extra}")
    print("| --- | --- | --- | --- | --- |" + (" --- | --- |" if baseline else ""))
    for name, program, args, required in WORKLOADS:
        binary = str(build / program)
        plain_cmd = launcher() + [binary] + args
        plain, under, base = [], [], []
        for _ in range(a.rounds):
            plain.append(wall(plain_cmd))
            if baseline:
                base.append(wall(augur_cmd(baseline, str(baseline / program), args)))
            under.append(wall(augur_cmd(build, binary, args)))
        p, u = statistics.median(plain), statistics.median(under)
        bound = f"≤ {required}" if required else "—"
        row = f"| {name} | {p:.3f} | {u:.3f} | {u / p:.3f} | {bound} |"
        if baseline:
            # Each round's pair ran back to back, so the median of their ratios leaves drifts out.
            ratio = statistics.median(x / y for x, y in zip(under, base))
            row += f" {statistics.median(base):.3f} | {ratio:.3f} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
