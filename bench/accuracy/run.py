#!/usr/bin/env python3
"""The accuracy suite: how far off are augur's predictions?

For each example program and input it measures the real run time (the program's own
barrier-to-barrier MPI_Wtime, median of several runs), predicts it with `augur run` from a model
of the target machine, and prints a table of measured, predicted and error; with --write it also
writes the table to docs/accuracy.md under a heading for the target.

  bench/accuracy/run.py --model host.json               # a model made by `augur bench`
  bench/accuracy/run.py --bench quick                   # make the model first
  bench/accuracy/run.py --smoke --max-error 1.0         # CI: small inputs, loose bound
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (program, kind, arguments): the compute-bound and communication-bound inputs of examples/README.md.
INPUTS = [
    ("mandel", "compute", ["1024", "1000"]),
    ("mandel", "comm", ["16", "1", "50000"]),
    ("life", "compute", ["2048", "20"]),
    ("life", "comm", ["16", "50000"]),
    ("outer", "compute", ["4000", "4"]),
    ("outer", "comm", ["16", "50000"]),
    ("sor", "compute", ["3000", "10"]),
    ("sor", "comm", ["32", "50000"]),
    ("gauss", "compute", ["1000", "1"]),
    ("gauss", "comm", ["32", "3000"]),
    ("winnow", "compute", ["2000", "2000", "1"]),
    ("winnow", "comm", ["8", "8", "30000"]),
    ("stencil2d", "compute", ["2000", "50", "10"]),
    ("stencil2d", "comm", ["16", "60000", "1"]),
    ("farm", "compute", ["200", "200000"]),
    ("farm", "comm", ["150000", "1"]),
]
SMOKE_INPUTS = [
    ("stencil2d", "compute", ["256", "40", "10"]),
    ("sor", "comm", ["32", "400"]),
    ("life", "comm", ["64", "300"]),
]

TIME = re.compile(r"augur-example .* time=([0-9.eE+-]+)")


MPIRUN = "mpirun"


def is_open_mpi(mpirun):
    done = subprocess.run([mpirun, "--version"], capture_output=True, text=True)
    text = done.stdout + done.stderr
    return "Open MPI" in text or "OpenRTE" in text


def mpirun_prefix(np_):
    # MPICH's Hydra allows oversubscription and root without being asked, and rejects the flags.
    cmd = [MPIRUN, "-np", str(np_)]
    if is_open_mpi(MPIRUN):
        cmd.append("--oversubscribe")
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
    return cmd


def example_time(output):
    m = TIME.search(output)
    if not m:
        raise RuntimeError("no 'augur-example ... time=' line in:\n" + output)
    return float(m.group(1))


def run(cmd, timeout=600):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout + done.stderr


def measure(binary, args, np_, runs):
    return statistics.median(example_time(run(mpirun_prefix(np_) + [str(binary)] + args)) for _ in range(runs))


def predict(augur, model, binary, args, np_, runs, extra):
    cmd = [str(augur), "run", "--mpirun", MPIRUN, "--machine", str(model), "-np", str(np_), "--oversubscribe"] + extra
    cmd += ["--", str(binary)] + args
    started = time.monotonic()
    times = [example_time(run(cmd)) for _ in range(runs)]
    return statistics.median(times), (time.monotonic() - started) / runs


def make_model(augur, preset, path):
    run([str(augur), "bench", "--mpirun", MPIRUN, "-np", "2", f"--{preset}", "--oversubscribe", "--overwrite", "--quiet",
         "-o", str(path)], timeout=3600)
    return path


def table(rows, target, command):
    lines = [f"### {target}", "", f"Command: `{command}`", "",
             "| program | input | args | p | measured s | augur s | error | prediction cost s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['program']} | {r['kind']} | {' '.join(r['args'])} | {r['np']} | {r['measured']:.4g} | "
                     f"{r['predicted']:.4g} | {100 * r['error']:+.1f}% | {r['cost']:.3g} |")
    errors = [abs(r["error"]) for r in rows]
    lines += ["", f"Median absolute error {100 * statistics.median(errors):.1f}%, "
                  f"worst {100 * max(errors):.1f}% over {len(rows)} runs.", ""]
    return "\n".join(lines)


def write_section(doc, target, text):
    """Replaces the section of `target` in docs/accuracy.md, keeping the others."""
    content = doc.read_text() if doc.exists() else "# Accuracy\n\n"
    pattern = re.compile(rf"### {re.escape(target)}\n.*?(?=\n### |\Z)", re.S)
    content = pattern.sub(lambda _: text.rstrip() + "\n", content) if pattern.search(content) else content.rstrip() + "\n\n" + text
    tmp = doc.with_suffix(".md.partial")
    tmp.write_text(content)
    tmp.replace(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur and examples/")
    ap.add_argument("--model", help="model file of the target (made by augur bench)")
    ap.add_argument("--bench", choices=["quick", "standard", "full"], help="make the model with augur bench first")
    ap.add_argument("--target", default="this machine (Open MPI, shared memory)", help="heading in docs/accuracy.md")
    ap.add_argument("-np", "--np", type=int, default=2, dest="np_")
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement (median)")
    ap.add_argument("--smoke", action="store_true", help="small inputs for CI")
    ap.add_argument("--only", help="comma-separated programs")
    ap.add_argument("--max-error", type=float, help="fail if any |error| exceeds this fraction")
    ap.add_argument("--write", action="store_true", help="write the table into docs/accuracy.md")
    ap.add_argument("--augur-option", action="append", default=[], help="extra option for augur run")
    ap.add_argument("--mpirun", default="mpirun", help="the launcher of the MPI the build uses")
    a = ap.parse_args()
    global MPIRUN
    MPIRUN = a.mpirun

    build = Path(a.build)
    augur = build / "bin" / "augur"
    if not augur.exists():
        sys.exit(f"accuracy: {augur} not found; build augur first")
    model = Path(a.model) if a.model else None
    if a.bench:
        model = make_model(augur, a.bench, build / "accuracy-host.json")
    if model is None:
        sys.exit("accuracy: give --model FILE or --bench quick|standard|full")
    inputs = SMOKE_INPUTS if a.smoke else INPUTS
    if a.only:
        inputs = [i for i in inputs if i[0] in a.only.split(",")]

    rows = []
    for program, kind, args in inputs:
        binary = build / "examples" / program
        measured = measure(binary, args, a.np_, a.runs)
        predicted, cost = predict(augur, model, binary, args, a.np_, max(1, a.runs // 2), a.augur_option)
        row = dict(program=program, kind=kind, args=args, np=a.np_, measured=measured, predicted=predicted,
                   error=(predicted - measured) / measured, cost=cost)
        rows.append(row)
        print(f"{program:10} {kind:8} {' '.join(args):18} measured {measured:9.4g} s  augur {predicted:9.4g} s  "
              f"error {100 * row['error']:+6.1f}%", flush=True)

    command = "bench/accuracy/run.py " + " ".join(sys.argv[1:])
    text = table(rows, a.target, command)
    print("\n" + text)
    if a.write:
        write_section(ROOT / "docs" / "accuracy.md", a.target, text)
    worst = max(abs(r["error"]) for r in rows)
    if a.max_error is not None and worst > a.max_error:
        sys.exit(f"accuracy: worst error {100 * worst:.1f}% exceeds {100 * a.max_error:.0f}%")


if __name__ == "__main__":
    main()
