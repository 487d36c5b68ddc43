#!/usr/bin/env python3
"""Wall time of `augur bench` against its budget, on this machine and on the TCP targets.

  bench/budget/run.py --target host --budget quick          # augur bench -np 2 --quick
  bench/budget/run.py --target tcp --budget 10m             # augur bench -np 2 --budget 10m there (standard)
  bench/budget/run.py --target tcp-mtu1500 --budget quick   # MTU 1500, 16 KB burst
  bench/budget/run.py --target tcp --preset full --budget 3h   # the full sweep, nothing left out
  bench/budget/run.py --target tcp --preset quick --budget 30m  # the quick sweep, nothing left out

The TCP targets are those of the accuracy suite (bench/accuracy/tcp_target.py): a network namespace
whose loopback is limited to 1 Gbit/s, Open MPI over TCP inside it. Prints one row of the table in
docs/benchmarks.md ("augur bench within its budget"): the command, the budget, the wall time and
its ratio, and the plan `augur bench` printed. Needs root for the TCP targets.
"""
import argparse
import contextlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "accuracy"))
import tcp_target  # noqa: E402
from run import HostTarget  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

def budget_seconds(text):
    if text == "quick":
        return 180
    total = 0.0
    for value, unit in re.findall(r"([\d.]+)([hms]?)", text):
        total += float(value) * {"h": 3600, "m": 60, "s": 1, "": 1}[unit]
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=["host", *tcp_target.TARGETS], default="host")
    ap.add_argument("--budget", default="quick", help="quick, or a duration for --budget (10m)")
    ap.add_argument("--preset", choices=["standard", "quick", "full"], default="standard",
                    help="the sweep a duration budget applies to (with --budget DURATION)")
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur")
    ap.add_argument("--out", default="/tmp/augur-budget", help="directory for the model and raw files")
    a = ap.parse_args()

    augur = Path(a.build) / "bin" / "augur"
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    preset = ["--quick"] if a.budget == "quick" else ["--budget", a.budget]
    if a.budget != "quick" and a.preset != "standard":
        preset.insert(0, "--" + a.preset)
    model = out / f"{a.target}-{'-'.join(p.lstrip('-') for p in preset)}.json"
    cmd = [str(augur), "bench", "-np", "2", *preset, "--oversubscribe", "--overwrite", "-o", str(model)]
    with contextlib.ExitStack() as stack:
        target = HostTarget() if a.target == "host" else stack.enter_context(tcp_target.RateLimitedLoopback.named(a.target))
        started = time.monotonic()
        done = subprocess.run(target.wrap(cmd), env=target.env(), capture_output=True, text=True)
        wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"augur bench failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    plan = [line.removeprefix("augur bench: ") for line in done.stdout.splitlines()
            if re.match(r"augur bench: (plan|left out|estimate|budget)", line)]
    record = json.loads(model.read_text())["provenance"]["settings"]["budget"]
    budget = budget_seconds(a.budget)
    shown = " ".join(["augur bench -np 2", *preset])
    print(f"| {a.target} | `{shown}` | {budget:.0f} s | {wall:.0f} s | {wall / budget:.2f} | "
          f"{record['passes_made']} of {record['preset']['passes']} | "
          f"{record['planned']['max_bytes'] // 1024} KiB | {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} |")
    print("\n".join(plan))


if __name__ == "__main__":
    main()
