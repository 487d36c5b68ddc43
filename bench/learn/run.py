#!/usr/bin/env python3
"""Learned at scale: augur learn's predictions at process counts it never saw, against augur run there.

Each example program (examples/) is traced under `augur run --trace` at p = 2, 4, 8 and 16 on one
machine model, learned with `augur learn`, and simulated at larger counts with
`augur sim --app APP --ranks Q`; the reference is the median of three `augur run -np Q
--oversubscribe` of the same program, input and model (--repeat), taken between the traces so
that both see the same states of the host. The error is learned / run - 1 of the predicted time
(MPI_Init to MPI_Finalize). Compute in both is this host's CPU time between calls, so the two differ by the
host's noise as well as by what learning got wrong.

  bench/learn/run.py                          # every example at Q = 32 and 64, the table
  bench/learn/run.py --only stencil2d --ranks 32 --check 0.15   # one case; exit 1 beyond 15 %
  bench/learn/run.py --write                  # also put the table in docs/accuracy.md

Exit status: 0 when every case was learned (and, with --check, within the bound); 1 otherwise.
"""
import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEARN_FROM = [2, 4, 8, 16]
# Inputs that divide evenly at every count from 2 to 64 and run in seconds oversubscribed.
EXAMPLES = {
    "stencil2d": ["256", "20", "5"],
    "sor": ["512", "20"],
    "mandel": ["256", "200"],
    "life": ["1024", "20"],
    "outer": ["512", "4"],
    "gauss": ["256", "1"],
    "winnow": ["512", "512", "1"],
    "farm": ["100", "50000"],
    "reqreply": ["200", "20000", "4096"],
    "ring": ["100", "65536"],
}
# Programs shaped as real codes are (examples/CMakeLists.txt, AUGUR_SHAPED_PROGRAMS): learned the
# same way, in a table of their own.
SHAPED = {
    "jacobi3d": ["64", "20", "5"],
    "jacobi3d_periodic": ["64", "20", "5", "1"],
    "pencil": ["64", "4"],
}
PROGRAMS = {**EXAMPLES, **SHAPED}


def binary(name):
    """The example a program runs: a variant's name goes on after an underscore (jacobi3d_periodic)."""
    return name.split("_")[0]


def report_json(text):
    """The JSON report in a command's output, after whatever the program printed."""
    start = text.find("{\n")
    if start < 0:
        raise ValueError("no JSON report in the output")
    return json.loads(text[start:])


def augur(build, args, timeout):
    done = subprocess.run([str(build / "bin" / "augur"), *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"augur {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-600:]}")
    return done.stdout


MPIRUN = "mpirun"


def accuracy_suite():
    """bench/accuracy/run.py as a module, for its launcher check."""
    sys.path.insert(0, str(ROOT / "bench"))
    import script_module  # bench/script_module.py
    return script_module.load("accuracy/run.py", "accuracy_run")


def is_open_mpi(mpirun):
    return accuracy_suite().is_open_mpi(mpirun)


def run_predicted(build, model, example, p, trace=None, timeout=600):
    args = ["run", "-np", str(p), "--mpirun", MPIRUN, "--machine", model, "--json"]
    if is_open_mpi(MPIRUN):
        args.append("--oversubscribe")
    if trace:
        args += ["--trace", str(trace)]
    args += ["--", str(build / "examples" / binary(example)), *PROGRAMS[example]]
    return report_json(augur(build, args, timeout))["predicted_seconds"]


def traced_and_run(build, model, example, work, targets, repeat, timeout):
    """The traces to learn from and the reference runs at the targets, taken in turn (a trace, then
    a run at each target), so that both sample the same states of a host whose speed moves."""
    traces, runs = [], {q: [] for q in targets}
    for i in range(max(len(LEARN_FROM), repeat)):
        if i < len(LEARN_FROM):
            trace = work / f"{example}-p{LEARN_FROM[i]}"
            shutil.rmtree(trace, ignore_errors=True)
            run_predicted(build, model, example, LEARN_FROM[i], trace, timeout)
            traces.append(str(trace))
        if i < repeat:
            for q in targets:
                runs[q].append(run_predicted(build, model, example, q, None, timeout))
    return traces, {q: statistics.median(values) for q, values in runs.items()}


def learned(build, model, example, traces, work, targets, timeout):
    app = work / f"{example}.json"
    augur(build, ["learn", *traces, "-o", str(app), "--name", example], timeout)
    out = {}
    for q in targets:
        sim = report_json(augur(build, ["sim", "--app", str(app), "--ranks", str(q), "--machine", model, "--json",
                                        "--no-progress"], timeout))
        bounds = sim.get("predicted_law_bounds", {})
        out[q] = (sim["predicted_seconds"], bounds.get("low", sim["predicted_seconds"]),
                  bounds.get("high", sim["predicted_seconds"]))
    return out


def one_attempt(build, a, example, work, targets):
    """(rows, missed): one row per target, or one "not learned" row; missed when a case is beyond --check."""
    started = time.monotonic()
    try:
        traces, measured = traced_and_run(build, a.machine, example, work, targets, max(1, a.repeat), a.timeout)
        predicted = learned(build, a.machine, example, traces, work, targets, a.timeout)
    except (RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
        print(f"{example:<10} not learned: {e}", flush=True)
        text = str(e)
        why = text.split("cannot learn the program: ", 1)[-1] if "cannot learn the program: " in text else text
        why = why.replace(f"{work}/", "")  # the traces by name, not by this checkout's path
        return [(example, None, None, None, " ".join(why.split())[:200], None)], True
    rows, missed = [], False
    for q in targets:
        value, low, high = predicted[q]
        error = value / measured[q] - 1
        rows.append((example, q, measured[q], value, None, (low, high)))
        print(f"{example:<10} p = {q:<4} run {measured[q]:10.4g} s  learned {value:10.4g} s  error {error:+7.1%}"
              f"  bounds {low:.4g} … {high:.4g} s  ({time.monotonic() - started:.0f} s)", flush=True)
        missed |= a.check is not None and abs(error) > a.check
    return rows, missed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--machine", default="t3d", help="machine model both predictions use (default t3d)")
    ap.add_argument("--only", action="append", choices=sorted(PROGRAMS),
                    help="example or shaped program to run (repeatable; default every example)")
    ap.add_argument("--shaped", action="store_true",
                    help="the programs shaped as real codes (jacobi3d) instead of the examples; --write puts "
                         "their table apart")
    ap.add_argument("--ranks", type=int, action="append", help="target counts (default 32 and 64)")
    ap.add_argument("--check", type=float, help="fail (exit 1) when a case's |error| exceeds this fraction")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of augur run at each target count; the reference is their median (default 3)")
    ap.add_argument("--attempts", type=int, default=1,
                    help="with --check, learn and run a case beyond the bound again, up to this many times in all; "
                         "it fails when every attempt misses (default 1)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--mpirun", default="mpirun", help="the MPI launcher augur run uses")
    ap.add_argument("--write", action="store_true", help="put the table in docs/accuracy.md (\"Learned at scale\")")
    a = ap.parse_args()
    global MPIRUN
    MPIRUN = a.mpirun
    build = Path(a.build)
    work = build / "learn-at-scale"
    work.mkdir(parents=True, exist_ok=True)
    targets = a.ranks or [32, 64]
    rows, failed = [], False
    for example in a.only or (SHAPED if a.shaped else EXAMPLES):
        attempts = max(1, a.attempts)
        for attempt in range(1, attempts + 1):
            if attempt > 1:
                print(f"{example:<10} beyond the bound: learned and run again (attempt {attempt})", flush=True)
            attempt_rows, missed = one_attempt(build, a, example, work, targets)
            if not missed:
                break
        rows += attempt_rows
        failed |= missed
    errors = [abs(r[3] / r[2] - 1) for r in rows if r[2]]
    if errors:
        within = sum(e <= 0.15 for e in errors)
        print(f"median |error| {statistics.median(errors):.1%}, largest {max(errors):.1%}, {within} of "
              f"{len(errors)} cases within 15%, {sum(r[2] is None for r in rows)} examples not learned")
    if a.write:
        write_table(rows, a, targets)
    return 1 if failed else 0


def write_table(rows, a, targets):
    lines = ["| example | p | `augur run` | learned | laws' bounds | error |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for example, q, measured, predicted, why, bounds in rows:
        if measured is None:
            lines.append(f"| {example} | | | not learned: {why} | | |")
        else:
            lines.append(f"| {example} | {q} | {measured:.4g} s | {predicted:.4g} s | {bounds[0]:.4g} … {bounds[1]:.4g} s "
                         f"| {predicted / measured - 1:+.1%} |")
    stamp = time.strftime("%Y-%m-%d")
    command = ("bench/learn/run.py --write" + (" --shaped" if a.shaped else "")
               + "".join(f" --ranks {q}" for q in (a.ranks or [])))
    marker = "learned-shaped" if a.shaped else "learned-at-scale"
    block = (f"<!-- {marker} -->\nMade on {stamp} with `{command}` (machine `{a.machine}`; learned from "
             f"p = {', '.join(map(str, LEARN_FROM))}):\n\n" + "\n".join(lines) + f"\n<!-- /{marker} -->")
    doc = ROOT / "docs" / "accuracy.md"
    text = doc.read_text()
    if f"<!-- {marker} -->" in text:
        text = re.sub(rf"<!-- {marker} -->.*?<!-- /{marker} -->", lambda _: block, text, flags=re.S)
    else:
        heading = "Programs shaped as real codes, learned at scale" if a.shaped else "Learned at scale"
        text = text.rstrip() + f"\n\n### {heading}\n\n" + block + "\n"
    doc.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
