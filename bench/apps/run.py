#!/usr/bin/env python3
"""The applications suite: augur's predictions of real MPI applications, run unmodified.

Each application (CP2K, Quantum ESPRESSO's pw.x, GROMACS, HPCC and two LAMMPS examples, as Debian
packages them) runs an input kept in bench/apps/inputs/ at p = 2, plainly (`mpirun -np 2`) and
under `augur run --machine MODEL`, alternately: plain, augur, plain, augur, ... --runs times each,
the applications taken in turn within each round, so a slow spell of the machine falls on both
kinds of run alike. Each run's wall time is that of the whole command as a user times it (mpirun,
or augur run with its mpirun), from a fresh copy of the application's prepared directory. The
prediction is the report's `predicted_run_seconds` (start-up included; `predicted_seconds`, from
MPI_Init to MPI_Finalize, when the model has no launch time).

Every run's physical results must be those of the first plain run to the printed digit: CP2K's
total energy, pw.x's total energy, GROMACS's last energies in md.log, HPCC's PASSED/FAILED lines
(and none FAILED), LAMMPS's last thermo output of every run. A mismatch, a failed run or a run
without a prediction fails the suite (exit status 1) after the table is printed.

  bench/apps/run.py --model host.json           # a model of this machine made by `augur bench`
  bench/apps/run.py --bench quick --write       # make it first; write docs/applications.md
  bench/apps/run.py --smoke --only hpcc --model machines/t3d.json   # CI: tiny inputs, one run

The table gives per application the median measured wall time, the median prediction, the error
(predicted / measured - 1), augur's median wall time and its overhead (augur wall / plain wall),
whether the results were identical, and what the machine was doing: the plain runs' CPU share
(their ranks' CPU seconds over p times their wall: below 1 they waited for a processor, which a
prediction from CPU time does not see), the load average, and the machine's state around each
plain run (bench/accuracy/machine_state.py, --no-state-probe skips it). A second table says what
each prediction is made of: the slowest rank's compute, its MPI time, the launch, and the calls
the model priced at 0.

Each run's directory and each augur report stay in BUILD/apps/APP/ (BUILD/apps-smoke/ with
--smoke) until the next suite. An application whose program is not installed is skipped; when every selected one is, the exit
status is 77 (ctest's SKIP_RETURN_CODE of the smoke tests).
"""
import argparse
import json
import os
import re
import resource
import shutil
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INPUTS = Path(__file__).resolve().parent / "inputs"
sys.path.insert(0, str(ROOT / "bench" / "accuracy"))

import machine_state  # noqa: E402  (bench/accuracy)
import steal  # noqa: E402


sys.path.insert(0, str(ROOT / "bench"))
import script_module  # noqa: E402  (bench/script_module.py)

accuracy = script_module.load("accuracy/run.py", "accuracy_run")  # its runner, launcher, model making and doc writing
Failed = accuracy.Failed
SKIPPED = 77

HEADING = "this machine (Open MPI, shared memory)"


# ---------------------------------------------------------------------------------------------
# The applications


def copy_inputs(names, into, source=INPUTS):
    for name in names:
        shutil.copy(source / name, into / Path(name).name)


def lines_with(text, pattern):
    return [line.rstrip() for line in text.splitlines() if re.search(pattern, line)]


def cpu_flags():
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    flags = re.search(r"^flags\s*:(.*)$", text, re.M)
    return set(flags.group(1).split()) if flags else set()


def need(found, what):
    if not found:
        raise Failed(f"no {what} in the output")
    return found


class Cp2k:
    name, program, package = "cp2k", "cp2k.psmp", "cp2k"

    def describe(self, smoke):
        return ("Quickstep energy, 2 waters, 200 Ry" if smoke else
                "Quickstep energy, 27 waters, DZVP-GTH-PADE, 300 Ry")

    def prepare(self, work, smoke, run):
        copy_inputs(["cp2k/water2.inp" if smoke else "cp2k/water27.inp"], work)
        (work / ("water2.inp" if smoke else "water27.inp")).rename(work / "water.inp")

    def command(self, smoke):
        return ["cp2k.psmp", "-i", "water.inp", "-o", "water.out"]

    def results(self, rundir, output):
        text = (rundir / "water.out").read_text(errors="replace")
        need(lines_with(text, r"SCF run converged"), "'SCF run converged'")
        return need(lines_with(text, r"ENERGY\| Total FORCE_EVAL"), "CP2K total energy")[-1:]


class QuantumEspresso:
    name, program, package = "qe", "pw.x", "quantum-espresso"

    def describe(self, smoke):
        return ("pw.x SCF, Si-2, 16 Ry, 2x2x2 k" if smoke else
                "pw.x SCF, Si-8 cubic cell, 40 Ry, 8x8x8 k, TM Si pseudopotential by ld1.x")

    def prepare(self, work, smoke, run):
        # Debian ships no pseudopotentials: ld1.x makes a norm-conserving Troullier-Martins one.
        copy_inputs(["qe/si.ld1.in", "qe/si2.scf.in" if smoke else "qe/si8.scf.in"], work)
        (work / ("si2.scf.in" if smoke else "si8.scf.in")).rename(work / "scf.in")
        run(["ld1.x", "-in", "si.ld1.in"], cwd=work)
        if not (work / "Si.pz-tm.UPF").is_file():
            raise Failed("ld1.x wrote no Si.pz-tm.UPF")

    def command(self, smoke):
        return ["pw.x", "-in", "scf.in"]

    def results(self, rundir, output):
        need(lines_with(output, r"convergence has been achieved"), "'convergence has been achieved'")
        return need(lines_with(output, r"^!\s+total energy"), "pw.x total energy")[-1:]


class Gromacs:
    name, program, package = "gromacs", "gmx_mpi", "gromacs"
    BOX = {False: "3.2", True: "2.0"}

    def cannot_run_here(self):
        # Debian builds gmx_mpi with GMX_USE_RDTSCP, and mdrun stops at start on a processor
        # without the instruction (some virtual machines hide it).
        if "rdtscp" not in cpu_flags():
            return "Debian's gmx_mpi needs the rdtscp instruction, which this processor does not offer"
        return None

    def describe(self, smoke):
        return ("mdrun, SPC water 2.0 nm box, PME, 200 steps" if smoke else
                "mdrun, SPC water 3.2 nm box (about 1000 waters), PME, 12000 steps")

    def prepare(self, work, smoke, run):
        copy_inputs(["gromacs/md.mdp", "gromacs/topol.top"], work)
        box = self.BOX[smoke]
        run(["gmx_mpi", "-quiet", "solvate", "-cs", "spc216.gro", "-box", box, box, box, "-o", "conf.gro",
             "-p", "topol.top"], cwd=work)
        run(["gmx_mpi", "-quiet", "grompp", "-f", "md.mdp", "-c", "conf.gro", "-p", "topol.top", "-o", "topol.tpr"],
            cwd=work)

    def command(self, smoke):
        # -reprod, -dlb no and -notunepme: no decision taken from measured time, so the run under
        # augur, whose MPI_Wtime is virtual, does the same work as the plain run.
        return (["gmx_mpi", "-quiet", "mdrun", "-s", "topol.tpr", "-ntomp", "1", "-npme", "0", "-reprod",
                 "-dlb", "no", "-notunepme", "-pin", "off", "-g", "md.log"]
                + (["-nsteps", "200"] if smoke else []))

    def results(self, rundir, output):
        log = (rundir / "md.log").read_text(errors="replace")
        last = log.split("<====  A V E R A G E S  ====>")[0]
        blocks = last.split("   Energies (kJ/mol)\n")
        if len(blocks) < 2:
            raise Failed("no energies in md.log")
        block = blocks[-1].split("\n\n")[0]
        step = need(re.findall(r"^\s+Step\s+Time\n\s+(\S+)\s+(\S+)", last, re.M), "GROMACS step")[-1]
        return [f"step {step[0]}"] + [line.rstrip() for line in block.splitlines() if line.strip()]


class Hpcc:
    name, program, package = "hpcc", "hpcc", "hpcc"

    def describe(self, smoke):
        return "HPC Challenge, N = 500" if smoke else "HPC Challenge, N = 4000, P x Q = 1 x 2"

    def prepare(self, work, smoke, run):
        shutil.copy(INPUTS / "hpcc" / ("hpccinf-smoke.txt" if smoke else "hpccinf.txt"), work / "hpccinf.txt")

    def command(self, smoke):
        return ["hpcc"]

    def results(self, rundir, output):
        text = (rundir / "hpccoutf.txt").read_text(errors="replace")
        checks = need(lines_with(text, r"PASSED|FAILED"), "PASSED/FAILED lines")
        failed = [line for line in checks if "FAILED" in line]
        if failed:
            raise Failed("HPCC check failed: " + "; ".join(failed))
        # PTRANS's lines (WALL/CPU M N MB NB P Q time check GB/s residual) carry measured times,
        # and HPCC itself, run plainly, has been seen to leave one CPU line out: they are compared
        # as the set of what they say with their timer and times set aside.
        ptrans = sorted({" ".join(f[1:7] + [f[8], f[10]]) for line in checks
                         if len(f := line.split()) == 11 and f[0] in ("WALL", "CPU")})
        others = [line for line in checks if not (len(f := line.split()) == 11 and f[0] in ("WALL", "CPU"))]
        return ptrans + others + lines_with(text, r"^Found \d+ errors|Solution Validates|Node\(s\) with error|_Errors=")


class Lammps:
    program, package = "lmp", "lammps"

    def __init__(self, example, steps, smoke_steps, what):
        self.name = f"lammps-{example}"
        self.example, self.steps, self.smoke_steps, self.what = example, steps, smoke_steps, what

    def describe(self, smoke):
        return f"{self.what}, {self.smoke_steps if smoke else self.steps} steps"

    def prepare(self, work, smoke, run):
        example = Path("/usr/share/lammps/examples") / self.example
        if not example.is_dir():
            raise Failed(f"{example} not found (Debian package lammps-examples)")
        for f in example.iterdir():
            if f.is_file() and not f.name.startswith("in."):
                shutil.copy(f, work / f.name)
        copy_inputs([f"lammps/in.{self.example}"], work)

    def command(self, smoke):
        return ["lmp", "-in", f"in.{self.example}", "-log", "none", "-var", "steps",
                str(self.smoke_steps if smoke else self.steps)]

    def results(self, rundir, output):
        return need(final_thermo(output), "LAMMPS thermo output before 'Loop time'")


def final_thermo(output):
    """The last thermo output of every run: the line before each 'Loop time', or with thermo_style
    multi the block from its '---- Step' header, without the CPU time the header carries."""
    lines = output.splitlines()
    found = []
    for i, line in enumerate(lines):
        if not line.startswith("Loop time of"):
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j < 0:
            continue
        if "=" in lines[j]:
            k = j
            while k >= 0 and not lines[k].startswith("---------------- Step"):
                k -= 1
            block = lines[max(k, 0):j + 1]
            found += [re.sub(r"CPU =\s*\S+ \(sec\)", "", b).rstrip() for b in block]
        else:
            found.append(lines[j].rstrip())
    return found


APPS = [
    Cp2k(),
    QuantumEspresso(),
    Gromacs(),
    Hpcc(),
    Lammps("peptide", 1800, 20, "peptide in water, CHARMM, PPPM"),
    Lammps("shear", 20000, 200, "Ni shear, EAM"),
]


# ---------------------------------------------------------------------------------------------
# Running


def app_env():
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS="1", GMX_MAXBACKUP="-1")
    return env


def run_in(cmd, cwd, timeout=3600):
    """accuracy's runner (its own session, stopped on a timeout or a signal) in a directory, with
    one OpenMP thread; its output."""
    return accuracy.run(cmd, timeout=timeout, env=app_env(), cwd=cwd)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Measured:
    """One run: wall seconds, its processes' CPU seconds, its output and its results."""

    def __init__(self, wall, cpu, output, results, load):
        self.wall, self.cpu, self.output, self.results, self.load = wall, cpu, output, results, load


def one_run(app, prepared, scratch, tag, cmd, timeout):
    rundir = scratch / tag
    if rundir.exists():
        shutil.rmtree(rundir)
    shutil.copytree(prepared, rundir)
    load = os.getloadavg()[0]
    cpu = children_cpu()
    started = time.monotonic()
    output = run_in(cmd, rundir, timeout)
    wall = time.monotonic() - started
    cpu = children_cpu() - cpu
    return Measured(wall, cpu, output, app.results(rundir, output), load)


def predicted_seconds(report_path):
    try:
        report = json.loads(Path(report_path).read_text())
    except (OSError, ValueError) as e:
        raise Failed(f"{report_path}: {e}")
    reason = (report.get("run") or {}).get("not_predicted")
    value = report.get("predicted_run_seconds") or report.get("predicted_seconds")
    if value is None:
        raise Failed(f"no prediction: {reason or 'predicted_seconds is null'}")
    return value, report


def made_of(report):
    """What a prediction is made of: the slowest rank's compute and MPI time, the launch, and the
    calls priced at 0 (operation: calls, all ranks)."""
    ranks = report.get("ranks") or []
    last = max(ranks, key=lambda r: r.get("finish", 0)) if ranks else {}
    run_seconds, seconds = report.get("predicted_run_seconds"), report.get("predicted_seconds") or 0
    zero = []
    operations = report.get("operations") or {}
    for s in report.get("substitutions") or []:
        if s.get("stand_in") is None:
            op = s.get("operation")
            zero.append(f"{op} {operations.get(op, {}).get('count', 0):.0f}")
    return dict(compute=last.get("compute", 0.0), mpi=last.get("mpi", 0.0), waiting=last.get("waiting", 0.0),
                launch=(run_seconds - seconds) if run_seconds else None, zero=zero,
                busiest=sorted(((v.get("seconds", 0) / max(len(ranks), 1), k) for k, v in operations.items()),
                               reverse=True)[:3])


def augur_command(augur, model, np_, report, program_cmd):
    return [str(augur), "run", "--mpirun", accuracy.MPIRUN, "--machine", str(model), "-np", str(np_),
            "--oversubscribe", "--report", str(report), "--"] + program_cmd


# ---------------------------------------------------------------------------------------------
# The table


def fmt_pct(x):
    return "—" if x is None else f"{100 * x:+.1f}%"


def table(rows, command, notes, smoke):
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [f"### {HEADING}", "", f"Made on {made} by `{command}`.", ""]
    for note in notes:
        lines += [note, ""]
    lines += ["| application | input | p | measured s | augur s | error | augur wall s | overhead | identical results "
              "| plain CPU share | load | plain runs in reference state |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if r.get("skipped"):
            lines.append(f"| {r['name']} | {r['input']} | {r['np']} | — | — | — | — | — | skipped: {r['skipped']} | — | — | — |")
            continue
        state = f"{r['reference_runs']} of {r['runs']}" if r.get("reference_runs") is not None else "—"
        lines.append(
            f"| {r['name']} | {r['input']} | {r['np']} | {cell(r.get('measured'), '.4g')} | {cell(r.get('predicted'), '.4g')} | "
            f"{fmt_pct(r.get('error'))} | {cell(r.get('augur_wall'), '.4g')} | {cell(r.get('overhead'), '.3g', 'x')} | "
            f"{r['identical']} | {cell(r.get('cpu_share'), '.2f')} | {cell(r.get('load'), '.1f')} | {state} |")
    lines += ["", "What each prediction is made of (the last augur run; the rank that finishes last):", "",
              "| application | compute s | MPI s | of which waiting s | launch s | busiest operations, s a rank | calls priced 0 |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        m = r.get("made_of")
        if not m:
            continue
        busiest = ", ".join(f"{op} {s:.3g}" for s, op in m["busiest"]) or "—"
        lines.append(f"| {r['name']} | {m['compute']:.4g} | {m['mpi']:.4g} | {m['waiting']:.4g} | "
                     f"{cell(m['launch'], '.3g')} | {busiest} | {', '.join(m['zero']) or 'none'} |")
    measured = [r for r in rows if r.get("error") is not None]
    if measured and not smoke:
        errors = [abs(r["error"]) for r in measured]
        overheads = [r["overhead"] for r in measured if r.get("overhead")]
        lines += ["", f"Median absolute error {100 * statistics.median(errors):.1f}% (worst {100 * max(errors):.1f}%), "
                      f"{sum(e <= 0.15 for e in errors)} of {len(errors)} applications within 15%; overhead "
                      f"{statistics.median(overheads):.2f}x median, {max(overheads):.2f}x worst."]
    lines.append("")
    return "\n".join(lines)


def cell(value, fmt, suffix=""):
    return "—" if value is None else format(value, fmt) + suffix


def load_note(before, after):
    return ("Load average (1, 5, 15 minutes) at the start " + ", ".join(f"{x:.1f}" for x in before)
            + ", at the end " + ", ".join(f"{x:.1f}" for x in after) + f", on {os.cpu_count()} processors.")


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur and bin/augur-bench-mpi")
    ap.add_argument("--model", help="model file (made by augur bench) or built-in machine name")
    ap.add_argument("--bench", choices=["quick", "standard", "full"], help="make a model of this machine with augur bench first")
    ap.add_argument("--bench-passes", type=int, help="passes of that bench (default: the preset's)")
    ap.add_argument("-np", "--np", type=int, default=2, dest="np_")
    ap.add_argument("--runs", type=int, default=3, help="plain runs and augur runs of each application (median)")
    ap.add_argument("--smoke", action="store_true", help="tiny inputs, one run each, for CI")
    ap.add_argument("--only", help="comma-separated applications: " + ",".join(a.name for a in APPS))
    ap.add_argument("--no-state-probe", dest="state_probe", action="store_false",
                    help="do not probe the machine's state around each plain run (bench/accuracy/machine_state.py)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds one run may take")
    ap.add_argument("--write", action="store_true", help="write the table into docs/applications.md")
    ap.add_argument("--mpirun", default="mpirun", help="the launcher of the MPI the build and the applications use")
    a = ap.parse_args()
    accuracy.MPIRUN = a.mpirun
    runs = 1 if a.smoke else a.runs

    build, augur = accuracy.augur_of(a.build, a.model, a.bench, "apps")
    if a.write and a.smoke:
        sys.exit("apps: --write keeps the full suite's table, not the smoke test's")
    apps = APPS
    if a.only:
        wanted = a.only.split(",")
        unknown = [w for w in wanted if w not in [x.name for x in APPS]]
        if unknown:
            sys.exit(f"apps: no application {', '.join(unknown)}; there are {', '.join(x.name for x in APPS)}")
        apps = [x for x in APPS if x.name in wanted]
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, accuracy.leave_on_signal)

    rows = {app.name: dict(name=app.name, input=app.describe(a.smoke), np=a.np_) for app in apps}
    if not accuracy.is_open_mpi(a.mpirun):
        # The shim must be built against the program's MPI, and Debian builds these with Open MPI.
        print(f"apps: skipped, {a.mpirun} is not Open MPI's launcher and Debian's applications use Open MPI", flush=True)
        return SKIPPED
    present = []
    for app in apps:
        if shutil.which(app.program) is None:
            rows[app.name]["skipped"] = f"{app.program} not installed (Debian package {app.package})"
            print(f"{app.name}: skipped, {rows[app.name]['skipped']}", flush=True)
        elif getattr(app, "cannot_run_here", lambda: None)():
            rows[app.name]["skipped"] = app.cannot_run_here()
            print(f"{app.name}: skipped, {rows[app.name]['skipped']}", flush=True)
        else:
            present.append(app)
    if not present:
        print("apps: no selected application is installed", flush=True)
        return SKIPPED

    load_before = os.getloadavg()
    timings = {}
    if a.bench:
        started = time.monotonic()
        model = accuracy.make_model(augur, a.bench, None, build / ("apps-smoke-host.json" if a.smoke else "apps-host.json"),
                                    accuracy.HostTarget(), a.bench_passes)
        timings["augur bench"] = time.monotonic() - started
        print(f"model: {model} ({timings['augur bench']:.0f} s)", flush=True)
    else:
        model = Path(a.model).resolve() if Path(a.model).exists() else a.model

    # Each run's directory and report stay there until the next suite: BUILD/apps[-smoke]/APP/.
    scratch = build / ("apps-smoke" if a.smoke else "apps")
    scratch.mkdir(parents=True, exist_ok=True)

    failures = []
    prepared = {}
    started = time.monotonic()
    for app in list(present):
        if (scratch / app.name).exists():
            shutil.rmtree(scratch / app.name)
        work = scratch / app.name / "prepared"
        work.mkdir(parents=True)
        try:
            app.prepare(work, a.smoke, lambda cmd, cwd: run_in(cmd, cwd, a.timeout))
            prepared[app.name] = work
        except (Failed, OSError) as e:
            failures.append(f"{app.name}: preparing the input failed: {e}")
            rows[app.name]["identical"] = "no (not prepared)"
            present.remove(app)
    timings["preparing inputs"] = time.monotonic() - started

    prober = None
    if a.state_probe:
        prober = machine_state.Prober(build / "bin" / "augur-bench-mpi", accuracy.mpirun_prefix(2),
                                      lambda cmd: accuracy.run(cmd))
    meter = steal.Meter()

    def measure(app, round_):
        return one_run(app, prepared[app.name], scratch / app.name, f"plain-{round_ + 1}",
                       accuracy.mpirun_prefix(a.np_) + app.command(a.smoke), a.timeout)

    def predict(app, round_):
        report = scratch / app.name / f"report-{round_ + 1}.json"
        result = one_run(app, prepared[app.name], scratch / app.name, f"augur-{round_ + 1}",
                         augur_command(augur, model, a.np_, report, app.command(a.smoke)), a.timeout)
        return (result, *predicted_seconds(report))

    def show(app, round_, result, prediction):
        print(f"round {round_ + 1}/{runs} {app.name:16} plain {result.wall:8.3f} s  "
              f"augur {prediction[0].wall:8.3f} s  predicted {prediction[1]:8.3f} s", flush=True)

    started = time.monotonic()
    done = accuracy.interleave(present, runs, measure, predict, meter, prober, (Failed, OSError), show)
    timings["plain runs"] = time.monotonic() - started - sum(done.costs)
    timings["augur runs"] = sum(done.costs)
    failures += [f"{present[i].name}: {e}" for i, e in done.failed.items()]
    broken = {present[i].name for i in done.failed}
    plain = {app.name: done.measured[i] for i, app in enumerate(present)}
    probes = {app.name: done.probes[i] for i, app in enumerate(present)}
    augured = {app.name: [p[0] for p in done.predicted[i]] for i, app in enumerate(present)}
    predictions = {app.name: [p[1] for p in done.predicted[i]] for i, app in enumerate(present)}
    reports = {app.name: done.predicted[i][-1][2] for i, app in enumerate(present) if done.predicted[i]}

    limit = prober.limit() if prober else None
    for app in present:
        row = rows[app.name]
        runs_plain, runs_augur = plain[app.name], augured[app.name]
        every = runs_plain + runs_augur
        if not every:
            row["identical"] = "no (did not run)"
            continue
        reference = every[0].results
        same = all(r.results == reference for r in every)
        row["identical"] = "yes" if same and app.name not in broken else "no"
        if not same:
            for r in every:
                if r.results != reference:
                    failures.append(f"{app.name}: results differ:\n  " + "\n  ".join(reference) + "\nagainst\n  "
                                    + "\n  ".join(r.results))
                    break
        if runs_plain:
            row["measured"] = statistics.median(r.wall for r in runs_plain)
            row["cpu_share"] = statistics.median(r.cpu / (a.np_ * r.wall) for r in runs_plain)
            row["load"] = statistics.median(r.load for r in runs_plain + runs_augur)
        if runs_augur and predictions[app.name]:
            row["augur_wall"] = statistics.median(r.wall for r in runs_augur)
            row["predicted"] = statistics.median(predictions[app.name])
            row["error"] = row["predicted"] / row["measured"] - 1
            row["overhead"] = row["augur_wall"] / row["measured"]
            row["made_of"] = made_of(reports[app.name])
        if limit is not None:
            row["reference_runs"] = len(machine_state.reference_runs([r.wall for r in runs_plain], probes[app.name], limit))
            row["runs"] = len(runs_plain)
        print(f"{app.name:16} measured {cell(row.get('measured'), '9.4g')} s  predicted {cell(row.get('predicted'), '9.4g')} s  "
              f"error {fmt_pct(row.get('error'))}  overhead {cell(row.get('overhead'), '.3g', 'x')}  "
              f"identical {row['identical']}", flush=True)

    notes = [f"Each application ran {runs} times plainly (`{' '.join(accuracy.mpirun_prefix(a.np_))}`) and {runs} times "
             f"under `augur run --machine MODEL`, alternately, with OMP_NUM_THREADS=1; wall time is the whole command's, "
             f"the prediction the report's `predicted_run_seconds` (start-up included). Inputs: bench/apps/inputs/."]
    note = accuracy.model_note(model) if isinstance(model, Path) else None
    if note:
        notes.append(note)
    notes.append(load_note(load_before, os.getloadavg()))
    if limit is not None:
        notes.append(f"The machine's state around each plain run: an 8-byte ping-pong just before and just after it, the "
                     f"slower kept; a run is in the reference state when that took at most {1e6 * limit:.3g} µs "
                     f"(bench/accuracy/machine_state.py).")
        mismatch = machine_state.state_mismatch(machine_state.model_reference_probe(model), prober.values) \
            if isinstance(model, Path) else None
        if mismatch:
            notes.append(mismatch)
    steal_note = meter.note()
    if steal_note:
        notes.append(steal_note)
    command = "bench/apps/run.py " + " ".join(sys.argv[1:])
    text = table([rows[app.name] for app in apps], command, notes, a.smoke)
    text += "\nTime taken: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()) + ".\n"
    print("\n" + text)
    if a.write:
        doc = ROOT / "docs" / "applications.md"
        accuracy.write_section(doc, HEADING, text)
    if failures:
        print("apps: FAILED\n" + "\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("apps: interrupted", file=sys.stderr)
        sys.exit(130)
