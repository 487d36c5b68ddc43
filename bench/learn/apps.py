#!/usr/bin/env python3
"""How far real applications go under `augur run --trace` on this machine, and what `augur learn`
makes of their traces.

Each application of the applications suite (bench/apps/run.py: CP2K, Quantum ESPRESSO's pw.x,
GROMACS, HPCC, LAMMPS's peptide and shear) and LAMMPS's Lennard-Jones melt is traced with its small
input at p = 2, 4, 8 and 16 (--counts) under `augur run --machine MODEL --oversubscribe --trace`.
For each run the table gives its wall time, the resident memory of its largest process (the
application's rank, the launcher or augur) and the trace's size on disk; a run that fails or
outlasts --timeout ends that application's counts. The traces that were made (those of
--learn-from) are then given to `augur learn`, whose model (whole, or partial with its share of
the run in blocks of time, docs/learn-partial.md), or the first difference it refuses, is the last
column; with --learn-from, the model is simulated at the other counts against their runs.

  bench/learn/apps.py                         # every application at 2, 4, 8, 16
  bench/learn/apps.py --only lammps-melt --counts 2,4,8
  bench/learn/apps.py --counts 2,4,8,16,32,64 --learn-from 2,4,8,16 --write
                                              # the tables of docs/learn.md and docs/learn-partial.md

HPCC's process grid is set to P x Q = p (the most square) at each count; the other inputs are as the
suite keeps them. Traces and models stay in BUILD/learn-apps/APP/.
Exit status: 0 when every run was traced, 1 otherwise, 77 when no application could run (none
installed, or a launcher other than Open MPI's, which Debian's applications are built against).
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


sys.path.insert(0, str(ROOT / "bench"))
import script_module  # noqa: E402  (bench/script_module.py)

suite = script_module.load("apps/run.py", "apps_run")  # its applications, their inputs and environment


class LammpsMelt(suite.Lammps):
    """LAMMPS's melt example on a box of SIDE^3 lattice cells, reneighbouring every 20 steps."""

    SIDE, STEPS = 6, 100

    def __init__(self):
        super().__init__("melt", self.STEPS, self.STEPS, f"Lennard-Jones melt, {self.SIDE}^3 fcc cells")

    def prepare(self, work, smoke, run):
        text = (Path("/usr/share/lammps/examples/melt/in.melt")).read_text()
        text = text.replace("0 10 0 10 0 10", " ".join(["0", str(self.SIDE)] * 3)).replace("run\t\t250", "run ${steps}")
        (work / "in.melt").write_text(text)


class PwSerialDiagonalisation(suite.QuantumEspresso):
    """pw.x with its subspace diagonalisation on one rank (-nd 1): by default it takes the largest
    square grid of ranks up to p, which from 25 ranks on asks more than Si-2's bands allow."""

    def describe(self, smoke):
        return super().describe(smoke) + ", -nd 1"

    def command(self, smoke):
        return ["pw.x", "-nd", "1", "-in", "scf.in"]


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
PEAK_RSS = ("import resource, subprocess, sys; status = subprocess.call(sys.argv[2:]); "
            "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
            "sys.exit(status)")


class Traced:
    def __init__(self, p, wall, rss_kb, trace_bytes, failure=None):
        self.p, self.wall, self.rss_kb, self.trace_bytes, self.failure = p, wall, rss_kb, trace_bytes, failure


def size_on_disk(path):
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def failure_reason(message):
    """The runner's message is the command, its status and its output: the status and the
    output's last line that names an error, with the line after it (the application's own words,
    not the launcher's or augur's), else the launcher's line naming the rank that failed, else the
    output's last lines. Open MPI's explanations (between lines of dashes) are not the reason."""
    head, _, output = message.partition("\n")
    status = re.search(r"failed \((-?\d+)\)", head)
    lines, launcher, inside = [], [], False
    for line in (line.strip() for line in output.splitlines()):
        if re.fullmatch(r"-{60,}", line):  # Open MPI's, not an application's underlining
            inside = not inside
        elif line:
            (launcher if inside else lines).append(line)
    errors = [i for i, line in enumerate(lines) if re.search(r"\berror\b", line, re.I)
              and not line.startswith(("augur:", "MPI_ABORT", "with errorcode", "["))]
    ranks = [i for i, line in enumerate(launcher) if re.search(r"(exited|noticed that) .*process rank \d+", line)]
    said = (lines[errors[-1]:errors[-1] + 2] if errors else launcher[ranks[-1]:ranks[-1] + 2] if ranks
            else (lines or launcher)[-2:])
    return (f"status {status.group(1)}: " if status else "") + " ".join(said)[-200:]


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
        failure = failure_reason(str(e))
    wall = time.monotonic() - started
    peak = int(rss.read_text()) if rss.exists() else 0
    return Traced(p, wall, peak, size_on_disk(trace) if trace.exists() else 0, failure)


def learn(a, app, work, traced):
    """'learned', 'partial: …' (the share of the largest count's run in blocks of time) or augur
    learn's reason for refusing, in one line, and its wall time."""
    model = work / f"{app.name}.json"
    cmd = [str(Path(a.build) / "bin" / "augur"), "learn", *[str(work / f"trace-p{t.p}") for t in traced],
           "-o", str(model), "--name", app.name.replace("-", "_")]
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    wall = time.monotonic() - started
    if done.returncode != 0:
        return "refused: " + one_line(done.stderr.strip().replace(f"{work}/", "")), wall
    blocks = json.loads(model.read_text())["program"].get("blocks_of_time")
    if not blocks:
        return "learned", wall
    last = max(blocks, key=lambda b: b["p"])
    return f"partial: {100 * last['share']:.0f}% of the run at p = {last['p']} in blocks of time", wall


def predictions(a, app, work, traced):
    """The learned model simulated at each traced count it was not learned from, against the run
    there (`augur run`'s prediction on the same machine): {p: (learned s, run s)}."""
    out = {}
    for t in traced:
        if t.failure or t.p in a.learn_from:
            continue
        cmd = [str(Path(a.build) / "bin" / "augur"), "sim", "--app", str(work / f"{app.name}.json"), "--ranks", str(t.p),
               "--machine", a.machine, "--no-bounds", "--json"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
        if done.returncode != 0:
            continue
        run = json.loads((work / f"report-p{t.p}.json").read_text())["predicted_seconds"]
        out[t.p] = (json.loads(done.stdout)["predicted_seconds"], run)
    return out


def one_line(refusal):
    """A refusal in a line: the whole program's reason, then the partial model's when one was tried."""
    whole, _, partial = refusal.partition("\nnor a partial model of it")
    out = whole_reason(whole)
    if partial:
        out += "; as a partial model: " + " ".join(partial.split(": ", 1)[-1].split())[:240]
    return out


def whole_reason(refusal):
    """The groups of each count and the calls where two ranks part, when the ranks' groups differ
    between counts; else the reason's first 300 characters."""
    why = refusal.split("cannot learn the program: ", 1)[-1]
    groups = re.findall(r"^  p = (\d+) \([^)]*\): (\d+) groups?", why, re.M)
    if not groups:
        return " ".join(why.split())[:300]
    out = "groups of ranks " + ", ".join(f"{n} at p = {p}" for p, n in groups)
    part = re.search(r"^where (.*) part at p = (\d+):\n  [^,]*, (rank \d+, call \d+: .*)\n  [^,]*, (rank \d+, call \d+: .*)$",
                     why, re.M)
    if part:
        out += f"; at p = {part.group(2)} first parting: {part.group(3)} / {part.group(4)}"
    return out


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
    good = [t for t in traced if not t.failure and (not a.learn_from or t.p in a.learn_from)]
    verdict, learn_wall = learn(a, app, work, good) if len(good) >= 2 else ("not tried: fewer than two traces", 0)
    predicted = {}
    if not verdict.startswith(("refused", "not tried")) and a.learn_from:
        predicted = predictions(a, app, work, traced)
        for p, (learned, run) in predicted.items():
            verdict += f"; p = {p}: {learned:.4g} s against {run:.4g} s ({100 * (learned / run - 1):+.1f}%)"
    print(f"{app.name:<15} augur learn ({learn_wall:.1f} s): {verdict}", flush=True)
    return traced, verdict, learn_wall, predicted


def table(results, a):
    """One row an application: each count's wall time and trace size, its largest process, and
    what augur learn said."""
    counts = " | ".join(f"p = {p}" for p in a.counts)
    lines = [f"| application | input | {counts} | largest process | augur learn |",
             "| --- | --- | " + "".join("---: | " for _ in a.counts) + "---: | --- |"]
    for app, (traced, verdict, learn_wall, _) in results:
        cells = {t.p: (f"failed: {t.failure}" if t.failure else f"{t.wall:.1f} s, {t.trace_bytes / 2**20:.3g} MiB")
                 for t in traced}
        row = " | ".join(cells.get(p, "–") for p in a.counts)
        largest = max(t.rss_kb for t in traced) / 1024
        lines.append(f"| {app.name} | {app.describe(True)} | {row} | {largest:.0f} MiB | {verdict} ({learn_wall:.1f} s) |")
    return "\n".join(lines)


def accuracy_table(results):
    """The learned models at the counts they were not learned from, against the runs there."""
    lines = ["| application | model | p | `augur run` | learned | error |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for app, (_, verdict, _, predicted) in results:
        kind = "partial" if verdict.startswith("partial") else "whole"
        for p, (learned, run) in sorted(predicted.items()):
            lines.append(f"| {app.name} | {kind} | {p} | {run:.4g} s | {learned:.4g} s | {100 * (learned / run - 1):+.1f}% |")
    return "\n".join(lines)


def write_block(doc, marker, text):
    """Puts `text` between doc's <!-- marker --> and <!-- /marker -->."""
    block = f"<!-- {marker} -->\n{text}\n<!-- /{marker} -->"
    doc.write_text(re.sub(rf"<!-- {marker} -->.*?<!-- /{marker} -->", lambda _: block, doc.read_text(), flags=re.S))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--machine", default="t3d", help="machine model augur run prices with (default t3d)")
    ap.add_argument("--only", action="append", help="application (repeatable): " + ", ".join(a.name for a in APPS))
    ap.add_argument("--counts", default="2,4,8,16", help="process counts to trace, comma-separated (default 2,4,8,16)")
    ap.add_argument("--learn-from", default="",
                    help="counts to learn from (default: every count traced); the model is then simulated at the "
                         "others and compared with their runs")
    ap.add_argument("--timeout", type=float, default=900, help="seconds a traced run may take (default 900)")
    ap.add_argument("--mpirun", default="mpirun", help="the MPI launcher augur run uses")
    ap.add_argument("--write", action="store_true", help="put the table in docs/learn.md (\"Real applications\")")
    a = ap.parse_args()
    try:
        a.counts = [int(c) for c in a.counts.split(",")]
        a.learn_from = [int(c) for c in a.learn_from.split(",")] if a.learn_from else []
    except ValueError:
        ap.error(f"--counts '{a.counts}': give whole numbers separated by commas, e.g. 2,4,8")
    unknown = set(a.only or []) - {app.name for app in APPS}
    if unknown:
        ap.error(f"--only: no application {', '.join(sorted(unknown))} (there are {', '.join(app.name for app in APPS)})")
    if not suite.accuracy.is_open_mpi(a.mpirun):
        print(f"{a.mpirun} is not Open MPI's, which Debian's applications are built against: nothing run")
        return suite.SKIPPED
    os.environ.update(suite.app_env())
    results, skipped = [], []
    for app in APPS:
        if a.only and app.name not in a.only:
            continue
        why = (f"{app.program} is not installed (Debian package {app.package})" if shutil.which(app.program) is None
               else getattr(app, "cannot_run_here", lambda: None)())
        if why:
            print(f"{app.name:<15} skipped: {why}")
            skipped.append(f"{app.name}: {why}")
            continue
        results.append((app, one_app(a, app)))
    made = (f"Made on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `bench/learn/apps.py "
            f"--counts {','.join(map(str, a.counts))}"
            + (f" --learn-from {','.join(map(str, a.learn_from))}" if a.learn_from else "")
            + f"` (machine `{a.machine}`, load average "
            f"{os.getloadavg()[0]:.1f} at the end):\n\n{table(results, a)}"
            + "".join(f"\n\nNot run: {line}." for line in skipped))
    print("\n" + made)
    if a.write:
        write_block(ROOT / "docs" / "learn.md", "apps-reach", made)
        if a.learn_from:
            write_block(ROOT / "docs" / "learn-partial.md", "partial-accuracy",
                        made.split(":\n\n", 1)[0] + ":\n\n" + accuracy_table(results))
    if not results:
        return suite.SKIPPED
    return 1 if any(t.failure for _, (traced, _, _, _) in results for t in traced) else 0


APPS = [LammpsMelt(), *(PwSerialDiagonalisation() if app.name == "qe" else app for app in suite.APPS)]

if __name__ == "__main__":
    sys.exit(main())
