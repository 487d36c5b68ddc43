#!/usr/bin/env python3
"""How far real applications go under `augur run --trace` on this machine, and what `augur learn`
makes of their traces.

Each application of the applications suite (bench/apps/run.py: CP2K, Quantum ESPRESSO's pw.x,
GROMACS, HPCC, LAMMPS's peptide and shear) and LAMMPS's Lennard-Jones melt is traced with its small
input at p = 2, 4, 8 and 16 (--counts) under `augur run --machine MODEL --oversubscribe --trace`.
For each run the table gives its wall time, the resident memory of its largest process (the
application's rank, the launcher or augur) and the trace's size on disk; a run that fails or
outlasts --timeout ends that application's counts. The traces that were made are then given to
`augur learn`, whose model, or the first difference it refuses, is the last column.

  bench/learn/apps.py                         # every application at 2, 4, 8, 16
  bench/learn/apps.py --only lammps-melt --counts 2,4,8

HPCC's process grid is set to P x Q = p (the most square) at each count; the other inputs are as the
suite keeps them. Traces and models stay in BUILD/learn-apps/APP/.
Exit status: 0 when every run was traced, 1 otherwise.
"""
import argparse
import importlib.util
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_apps_suite():
    """bench/apps/run.py as a module: its applications, their inputs and environment."""
    spec = importlib.util.spec_from_file_location("apps_run", ROOT / "bench" / "apps" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suite = load_apps_suite()


class LammpsMelt(suite.Lammps):
    """LAMMPS's melt example on a box of SIDE^3 lattice cells, reneighbouring every 20 steps."""

    SIDE, STEPS = 6, 100

    def __init__(self):
        super().__init__("melt", self.STEPS, self.STEPS, f"Lennard-Jones melt, {self.SIDE}^3 fcc cells")

    def prepare(self, work, smoke, run):
        text = (Path("/usr/share/lammps/examples/melt/in.melt")).read_text()
        text = text.replace("0 10 0 10 0 10", " ".join(["0", str(self.SIDE)] * 3)).replace("run\t\t250", "run ${steps}")
        (work / "in.melt").write_text(text)


def hpcc_grid(work, p):
    """Sets hpccinf.txt's one process grid to P x Q = p, P <= Q and as close as p allows."""
    rows = max(d for d in range(1, int(math.isqrt(p)) + 1) if p % d == 0)
    path = work / "hpccinf.txt"
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.rstrip().endswith("Ps"):
            lines[i] = f"{rows}            Ps"
        elif line.rstrip().endswith("Qs"):
            lines[i] = f"{p // rows}            Qs"
    path.write_text("\n".join(lines) + "\n")


# Runs a command and writes the largest resident set of it and its descendants (kB) to a file:
# the kernel keeps the largest of every waited-for descendant in the children's usage.
PEAK_RSS = ("import resource, subprocess, sys\n"
            "status = subprocess.call(sys.argv[2:])\n"
            "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
            "sys.exit(status)\n")


class Traced:
    def __init__(self, p, wall, rss_kb, trace_bytes, failure=None):
        self.p, self.wall, self.rss_kb, self.trace_bytes, self.failure = p, wall, rss_kb, trace_bytes, failure


def size_on_disk(path):
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def trace_one(a, app, prepared, work, p):
    rundir, trace, rss = work / f"run-p{p}", work / f"trace-p{p}", work / f"rss-p{p}"
    for old in (rundir, trace):
        shutil.rmtree(old, ignore_errors=True)
    shutil.copytree(prepared, rundir)
    if app.name == "hpcc":
        hpcc_grid(rundir, p)
    cmd = [str(Path(a.build) / "bin" / "augur"), "run", "--mpirun", a.mpirun, "--machine", a.machine, "-np", str(p),
           "--oversubscribe", "--trace", str(trace), "--report", str(work / f"report-p{p}.json"), "--",
           *app.command(True)]
    started = time.monotonic()
    try:
        suite.run_in([sys.executable, "-c", PEAK_RSS, str(rss), *cmd], rundir, a.timeout)
        failure = None
    except suite.Failed as e:
        failure = " ".join(str(e).split())[-160:]
    wall = time.monotonic() - started
    peak = int(rss.read_text()) if rss.exists() else 0
    return Traced(p, wall, peak, size_on_disk(trace) if trace.exists() else 0, failure)


def learn(a, app, work, traced):
    """'learned (N phases)' or augur learn's reason for refusing, and its wall time."""
    model = work / f"{app.name}.json"
    cmd = [str(Path(a.build) / "bin" / "augur"), "learn", *[str(work / f"trace-p{t.p}") for t in traced],
           "-o", str(model), "--name", app.name]
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    wall = time.monotonic() - started
    if done.returncode == 0:
        return "learned", wall
    text = done.stderr.strip().replace(f"{work}/", "")
    why = text.split("cannot learn the program: ", 1)[-1]
    return "refused: " + " ".join(why.split())[:300], wall


def one_app(a, app):
    work = Path(a.build) / "learn-apps" / app.name
    shutil.rmtree(work, ignore_errors=True)
    prepared = work / "prepared"
    prepared.mkdir(parents=True)
    app.prepare(prepared, True, lambda cmd, cwd: suite.run_in(cmd, cwd, a.timeout))
    traced = []
    for p in a.counts:
        t = trace_one(a, app, prepared, work, p)
        print(f"{app.name:<15} p = {p:<3} {t.wall:7.1f} s  {t.rss_kb / 1024:7.1f} MiB  trace {t.trace_bytes / 2**20:8.2f} MiB"
              + (f"  failed: {t.failure}" if t.failure else ""), flush=True)
        traced.append(t)
        if t.failure:
            break
    good = [t for t in traced if not t.failure]
    verdict, learn_wall = learn(a, app, work, good) if len(good) >= 2 else ("not tried: fewer than two traces", 0)
    print(f"{app.name:<15} augur learn ({learn_wall:.1f} s): {verdict}", flush=True)
    return traced, verdict, learn_wall


def table(results, a):
    lines = ["| application | input | p | wall s | largest process | trace | augur learn |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for app, (traced, verdict, learn_wall) in results:
        for i, t in enumerate(traced):
            last = i == len(traced) - 1
            status = f"failed: {t.failure}" if t.failure else f"{t.wall:.1f}"
            lines.append(f"| {app.name if i == 0 else ''} | {app.describe(True) if i == 0 else ''} | {t.p} | {status} "
                         f"| {t.rss_kb / 1024:.0f} MiB | {t.trace_bytes / 2**20:.2f} MiB "
                         f"| {f'{verdict} ({learn_wall:.1f} s)' if last else ''} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--machine", default="t3d", help="machine model augur run prices with (default t3d)")
    ap.add_argument("--only", action="append", help="application (repeatable): " + ", ".join(a.name for a in APPS))
    ap.add_argument("--counts", default="2,4,8,16", help="process counts to trace, comma-separated (default 2,4,8,16)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds a traced run may take (default 900)")
    ap.add_argument("--mpirun", default="mpirun", help="the MPI launcher augur run uses")
    a = ap.parse_args()
    try:
        a.counts = [int(c) for c in a.counts.split(",")]
    except ValueError:
        ap.error(f"--counts '{a.counts}': give whole numbers separated by commas, e.g. 2,4,8")
    unknown = set(a.only or []) - {app.name for app in APPS}
    if unknown:
        ap.error(f"--only: no application {', '.join(sorted(unknown))} (there are {', '.join(app.name for app in APPS)})")
    os.environ.update(suite.app_env())
    results = []
    for app in APPS:
        if a.only and app.name not in a.only:
            continue
        if shutil.which(app.program) is None:
            print(f"{app.name:<15} skipped: {app.program} is not installed (Debian package {app.package})")
            continue
        why = getattr(app, "cannot_run_here", lambda: None)()
        if why:
            print(f"{app.name:<15} skipped: {why}")
            continue
        results.append((app, one_app(a, app)))
    print()
    print(f"Made on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `bench/learn/apps.py "
          f"--counts {','.join(map(str, a.counts))}` (machine `{a.machine}`, load average "
          f"{os.getloadavg()[0]:.1f} at the end):\n")
    print(table(results, a))
    return 1 if any(t.failure for _, (traced, _, _) in results for t in traced) else 0


APPS = [LammpsMelt(), *suite.APPS]

if __name__ == "__main__":
    sys.exit(main())
