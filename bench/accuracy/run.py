#!/usr/bin/env python3
"""The accuracy suite: how far off are augur's predictions?

For each example program and input it measures the real run time on the target (the program's
own barrier-to-barrier MPI_Wtime, median of several runs), predicts it with `augur run` on this
machine from a model of the target, and with SimGrid SMPI on a platform derived from the same
model file, and prints a table of measured, predicted, errors and the cost of each prediction;
with --write it also writes the table to docs/accuracy.md (docs/accuracy-tcp.md for the TCP targets) under a heading for the target.

  bench/accuracy/run.py --model host.json               # a model made by `augur bench`
  bench/accuracy/run.py --bench quick                   # make the model first
  bench/accuracy/run.py --model a.json --versus b.json  # two models, the same measured runs
  bench/accuracy/run.py --target-machine tcp --bench quick --write
  bench/accuracy/run.py --smoke --max-error 1.0         # CI: small inputs, loose bound

Targets (--target-machine):
  host  this machine as it is (mpirun over shared memory).
  tcp   a different machine built here: Open MPI over TCP (btl tcp,self) on the loopback of a
        network namespace of its own, rate-limited with `tc qdisc add dev lo root tbf rate 1gbit
        burst 256kb latency 50ms` (--tcp-rate changes the rate). The measured runs and
        `augur bench` (with --bench) run inside the namespace; the predictions run on this
        machine over shared memory with the model made there. Needs root and `ip netns`; the
        namespace (augur-tcp-PID) is deleted at exit, Ctrl-C and SIGTERM included.
  nodes 2 emulated nodes of 2 ranks joined by a 1 Gbit/s link (scripts/emulate-nodes,
        docs/emulated-nodes.md): shared memory within a node, TCP between them. The measured
        runs and `augur bench -np 4 --sync barrier` (with --bench) run across the nodes; the
        predictions run on this machine with `--ranks-per-node 2`, pricing each message by
        whether its two ranks share a node. -np defaults to 4.

SMPI (--smpi auto|on|off; auto runs it when smpicc and smpirun are installed): the examples are
built with smpicc (examples/build-smpi.sh) and run under smpirun on a platform written from the
model file: one host per process, links with the model's network.latency and
network.bandwidth, its eager limit and send/receive overheads as SMPI options, and a host speed
equal to smpi/host-speed, so measured computation carries over unchanged
(bench/accuracy/smpi_platform.py). The time is the program's own, which under SMPI is simulated.
An input SMPI cannot run shows "—" with the reason under the table; the rest goes on.

The machine's state (bench/accuracy/machine_state.py): an 8-byte ping-pong just before and just
after each measured run tells whether the run was in the state the model describes (a virtual
machine's host may move its processors farther apart for a while); the table then also gives each
input's error against those runs only, and a note when the model's own reference probe (recorded by
augur fit) is more than 1.75 times the runs' or less than its inverse: a model made while the machine
spent the whole bench in another state. --no-state-probe skips it.

--max-error checks augur's errors only.
"""
import argparse
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bounds_band
import machine_state
import smpi_platform
import steal
import nodes_target
import tcp_target

ROOT = Path(__file__).resolve().parents[2]

# (program, kind, arguments): the compute-bound and communication-bound inputs of examples/README.md,
# and the ring's two block sizes (all communication).
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
    ("reqreply", "compute", ["300", "500000", "4096"]),
    ("reqreply", "comm", ["30000", "1", "4096"]),
    ("ring", "64KiB", ["7000", "65536"]),
    ("ring", "1MiB", ["600", "1048576"]),
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


class Failed(RuntimeError):
    pass


def run(cmd, timeout=600, env=None, cwd=None):
    """Runs cmd (in directory cwd) in a session of its own and returns its output; on a timeout, an
    error or a signal to this script the whole session is stopped, so no MPI process outlives the
    suite."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        raise Failed(f"{' '.join(cmd)} did not finish in {timeout} s")
    except BaseException:
        stop(proc)
        raise
    if proc.returncode != 0:
        raise Failed(f"{' '.join(cmd)} failed ({proc.returncode}):\n{out}\n{err}")
    return out + err


def stop(proc):
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=grace)
            return


class HostTarget:
    """This machine as it is."""

    def wrap(self, cmd):
        return list(cmd)

    def env(self):
        return None

    def describe(self):
        return "this machine"


class Rounds:
    """What `interleave` gathered, per item in the order given: the measured values, the machine's
    state probes (None without a prober), the predictions, the wall seconds the predictions took,
    and the items given up on (index: the exception)."""

    def __init__(self, count):
        self.measured = [[] for _ in range(count)]
        self.probes = [[] for _ in range(count)]
        self.predicted = [[] for _ in range(count)]
        self.costs = [0.0] * count
        self.failed = {}


def interleave(items, runs, measure, predict, meter, prober, give_up=(), show=None):
    """`runs` rounds over `items`, each item measured (`measure(item, round_)`, again while the
    hypervisor steals too much of the processors, `meter`; the machine's state probed around it
    when there is a `prober`) and predicted at once after (`predict(item, round_)`).
    A slow or fast spell of the machine (runs of one input here vary up to 1.6x between minutes,
    compute-bound ones included) then falls on a run and its predictions alike, instead of on the
    measured runs of a few items or on the predictions alone. An item whose measure or predict
    raises one of `give_up` takes no part in later rounds. `show(item, round_, measured,
    predicted)` follows each pair; without it a line ends each round."""
    done = Rounds(len(items))
    for round_ in range(runs):
        for i, item in enumerate(items):
            if i in done.failed:
                continue
            try:
                def measure_once():
                    return meter.calmest(lambda: measure(item, round_))
                value, probe = prober.around(measure_once) if prober else (measure_once(), None)
                done.measured[i].append(value)
                done.probes[i].append(probe)
                started = time.monotonic()
                done.predicted[i].append(predict(item, round_))
                done.costs[i] += time.monotonic() - started
            except give_up as e:
                done.failed[i] = e
                continue
            if show:
                show(item, round_, done.measured[i][-1], done.predicted[i][-1])
        if not show:
            print(f"round {round_ + 1}/{runs}: measured and predicted every input", flush=True)
    return done


def measure_and_predict(target, build, inputs, np_, runs, augur, models, extra, meter, prober):
    """Every measured time of every input with the machine's state probe around it (None without
    a `prober`), median predicted time of every input by each of `models`, every prediction's
    band (bounds_band.relative_band) of each input by the first model, and the wall seconds of
    one prediction (with the other models' replays); measured and predicted in turn (`interleave`)."""
    def binary(item):
        return build / "examples" / item[0]

    def measure(item, _round):
        cmd = target.wrap(mpirun_prefix(np_) + [str(binary(item))] + item[2])
        return example_time(run(cmd, env=target.env()))

    def predict_item(item, _round):
        return predict(augur, models, binary(item), item[2], np_, extra)

    done = interleave(inputs, runs, measure, predict_item, meter, prober)
    medians = [[statistics.median(times[m] for times, _band in each) for each in done.predicted]
               for m in range(len(models))]
    bands = [[band for _times, band in each] for each in done.predicted]
    return done.measured, done.probes, medians, bands, [c / runs for c in done.costs]


def augur_of(build, model, bench, suite):
    """The build directory and the augur built there; exits, saying so, when augur is not built
    or neither a model nor a bench to make one is given."""
    build = Path(build).resolve()
    augur = build / "bin" / "augur"
    if not augur.exists():
        sys.exit(f"{suite}: {augur} not found; build augur first")
    if model is None and bench is None:
        sys.exit(f"{suite}: give --model FILE or --bench quick|standard|full")
    return build, augur


def predict(augur, models, binary, args, np_, extra):
    """The program's own predicted time by each of `models` and the band of the first model's
    three clocks, from the JSON report that `--report` keeps.
    Only the first model runs the program: the others replay its trace (`augur sim --match
    recorded`), so every model prices the same measured compute. Two runs of a compute-bound
    input here differ by up to 9% in their compute, which would otherwise show as a difference
    between the models. The replay gives the run's whole time, not the program's barrier to
    barrier, so another model's program time is the first's plus the difference of the two
    replays: MPI_Init, the first barrier and MPI_Finalize are priced by the other model too, a
    few microseconds against the inputs' tenths of a second."""
    with tempfile.TemporaryDirectory(prefix="augur-accuracy-") as tmp:
        report, trace = Path(tmp) / "report.json", Path(tmp) / "trace"
        cmd = [str(augur), "run", "--mpirun", MPIRUN, "--machine", str(models[0]), "-np", str(np_), "--oversubscribe",
               "--report", str(report)] + (["--trace", str(trace)] if len(models) > 1 else []) + extra
        cmd += ["--", str(binary)] + args
        predicted = example_time(run(cmd))
        try:
            summary = json.loads(report.read_text())
        except (OSError, ValueError) as e:
            raise Failed(f"{' '.join(cmd)}: {report}: {e}")
        whole = summary["predicted_seconds"]
        replays = [replay(augur, trace, model, Path(tmp) / f"replay-{m}.json", placement_options(extra))
                   for m, model in enumerate(models)] if len(models) > 1 else []
        if replays and abs(replays[0] - whole) > 1e-9 * whole:
            raise Failed(f"{trace}: replayed on {models[0]}, {replays[0]!r} s, not the run's {whole!r} s")
        return [predicted] + [predicted + r - whole for r in replays[1:]], bounds_band.relative_band(summary)


def placement_options(extra):
    """The options of `augur run` among `extra` that say where ranks are, which the replay needs too
    (a model of one level ignores them)."""
    kept, words = [], list(extra)
    for i, word in enumerate(words):
        if word.split("=")[0] in ("--ranks-per-node", "--placement"):
            kept += words[i:i + 1 + ("=" not in word)]
    return kept


def replay(augur, trace, model, report, placement=()):
    """The whole predicted time of a trace replayed on `model`, wildcards matched as in the run."""
    run([str(augur), "sim", str(trace), "--machine", str(model), "--match", "recorded", "--report", str(report),
         "--no-progress", *placement])
    try:
        return json.loads(report.read_text())["predicted_seconds"]
    except (OSError, ValueError, KeyError) as e:
        raise Failed(f"augur sim {trace} --machine {model}: {report}: {e}")


def simulate(smpi, program, args, np_, runs):
    """SMPI's prediction and cost, or (None, reason)."""
    cmd = smpi_platform.command(smpi["binaries"] / program, args, np_, smpi["platform"], smpi["hostfile"], smpi["cfg"])
    started = time.monotonic()
    try:
        times = [example_time(run(cmd, timeout=1800)) for _ in range(runs)]
    except RuntimeError as e:
        lines = [l for l in str(e).splitlines() if l.strip()]
        interesting = [l for l in lines if re.search(r"error|critical|abort|fail|signal|not finish", l, re.I)]
        return None, (interesting or lines or ["no output"])[-1].strip()[:200]
    return statistics.median(times), (time.monotonic() - started) / runs


def make_model(augur, preset, state, path, target, passes=None, budget=None, np_=2, extra=()):
    cmd = [str(augur), "bench", "--mpirun", MPIRUN, "-np", str(np_), *extra, f"--{preset}", "--oversubscribe", "--overwrite",
           "--quiet", "-o", str(path)] + (["--state", state] if state else []) + (["--passes", str(passes)] if passes else [])
    cmd += ["--budget", budget] if budget else []
    run(target.wrap(cmd), timeout=3600, env=target.env())
    return path


def cell(value, fmt):
    return "—" if value is None else format(value, fmt)


def table(rows, target, command, notes, timings):
    with_smpi = any("smpi" in r for r in rows)
    with_versus = any("versus" in r for r in rows)
    with_states = any("runs" in r for r in rows)
    with_band = any("inside" in r for r in rows)
    head = "| program | input | args | p | measured s | augur s | augur error |"
    rule = "| --- | --- | --- | --- | --- | --- | --- |"
    if with_band:
        head += " runs inside [min, max] | band ± |"
        rule += " --- | --- |"
    if with_states:
        head += " runs in reference state | augur error vs those |"
        rule += " --- | --- |"
    if with_versus:
        head += " versus s | versus error |"
        rule += " --- | --- |"
    if with_smpi:
        head += " SMPI s | SMPI error |"
        rule += " --- | --- |"
    head += " augur cost s |" + (" SMPI cost s |" if with_smpi else "")
    rule += " --- |" + (" --- |" if with_smpi else "")
    # The date belongs beside the command, on the one line of a table that may carry a date
    # (scripts/check-docs): the table is the current answer until the next --write.
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [f"### {target}", "", f"Made on {made} by `{command}`.", ""]
    for note in notes:
        lines += [note, ""]
    lines += [head, rule]
    failures = {}  # reason: (number, inputs)
    for r in rows:
        line = (f"| {r['program']} | {r['kind']} | {' '.join(r['args'])} | {r['np']} | {r['measured']:.4g} | "
                f"{r['predicted']:.4g} | {100 * r['error']:+.1f}% |")
        if with_band:
            line += f" {r['inside']} of {r['of']} | {r['half_width_pct']:.1f}% |"
        if with_states:
            reference_error = r.get("reference_error")
            line += (f" {r.get('reference_runs', 0)} of {r.get('runs', 0)} |"
                     f" {'—' if reference_error is None else format(100 * reference_error, '+.1f') + '%'} |")
        if with_versus:
            line += f" {r['versus']:.4g} | {100 * r['versus_error']:+.1f}% |"
        if with_smpi:
            if r.get("smpi") is None:
                number, where = failures.setdefault(r.get("smpi_failure", "not run"), (len(failures) + 1, []))
                where.append(f"{r['program']} {' '.join(r['args'])}")
                line += f" — ({number}) | — |"
            else:
                line += f" {r['smpi']:.4g} | {100 * r['smpi_error']:+.1f}% |"
        line += f" {r['cost']:.3g} |"
        if with_smpi:
            line += f" {cell(r.get('smpi_cost'), '.3g')} |"
        lines.append(line)
    if failures:
        lines += [""] + [f"- ({number}) SMPI failed for {', '.join(where)}: {reason}"
                         for reason, (number, where) in failures.items()]
    errors = [abs(r["error"]) for r in rows]
    summary = (f"Median absolute error: augur {100 * statistics.median(errors):.1f}% "
               f"(worst {100 * max(errors):.1f}%)")
    if with_versus:
        versus_errors = [abs(r["versus_error"]) for r in rows]
        summary += f", versus {100 * statistics.median(versus_errors):.1f}% (worst {100 * max(versus_errors):.1f}%)"
    smpi_errors = [abs(r["smpi_error"]) for r in rows if r.get("smpi") is not None]
    if smpi_errors:
        summary += f", SMPI {100 * statistics.median(smpi_errors):.1f}% (worst {100 * max(smpi_errors):.1f}%)"
        if len(smpi_errors) < len(rows):
            summary += f" over the {len(smpi_errors)} it ran"
    elif with_smpi:
        summary += ", SMPI ran none"
    summary += f"; {len(rows)} inputs."
    lines += ["", summary]
    state_summary = machine_state.summary(rows)
    if state_summary:
        lines += ["", state_summary]
    lines += ["", "Time taken: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()) + ".", ""]
    return "\n".join(lines)


def write_section(doc, target, text):
    """Replaces the section of `target` in `doc`, keeping the others."""
    content = doc.read_text() if doc.exists() else "# Accuracy\n\n"
    pattern = re.compile(rf"### {re.escape(target)}\n.*?(?=\n### |\Z)", re.S)
    content = pattern.sub(lambda _: text.rstrip() + "\n", content) if pattern.search(content) else content.rstrip() + "\n\n" + text
    tmp = doc.with_suffix(".md.partial")
    tmp.write_text(content)
    tmp.replace(doc)


HOST_HEADING = "this machine (Open MPI, shared memory)"


NODES, RANKS_PER_NODE = 2, 2


def nodes_heading(rate):
    return f"{NODES} emulated nodes of {RANKS_PER_NODE} ranks, {rate.replace('gbit', ' Gbit/s').replace('mbit', ' Mbit/s')} link"


def tcp_heading(rate, target="tcp"):
    link = "" if tcp_target.TARGETS[target]["mtu"] is None else \
        f", MTU {tcp_target.TARGETS[target]['mtu']}, burst {tcp_target.TARGETS[target]['burst']}"
    return f"Open MPI over TCP, loopback limited to {rate}{link} (predicted from shared memory)"


def model_note(model):
    try:
        net = json.loads(Path(model).read_text()).get("network") or {}
    except (OSError, ValueError):
        return None
    eager = f"eager limit {net['eager_limit']:.0f} B" if net.get("eager_limit") else "no eager limit"
    return (f"Model `{Path(model).name}`: network.latency {1e6 * net.get('latency', 0):.3g} µs, "
            f"network.bandwidth {net.get('bandwidth', 0) / 1e6:.4g} MB/s, {eager}.")


def prepare_smpi(mode, root, build, model, np_):
    """(setup, None) with the SMPI binaries, platform, hostfile and options; (None, reason) when
    SMPI is off or not installed (no SMPI columns); ("failed", reason) when it is installed but
    cannot run for this model (SMPI columns of dashes with the reason)."""
    if mode == "off":
        return None, "--smpi off"
    missing = smpi_platform.available()
    if missing:
        if mode == "on":
            sys.exit(f"accuracy: --smpi on, but {missing}")
        return None, missing
    try:
        platform, hostfile, cfg = smpi_platform.write_platform(model, np_, build / "accuracy-smpi" / Path(model).stem)
        binaries = smpi_platform.build_examples(root, build / "accuracy-smpi" / "bin", smpi_platform.build_flags(build))
    except smpi_platform.SmpiUnavailable as e:
        if mode == "on":
            sys.exit(f"accuracy: {e}")
        return "failed", str(e)
    return dict(platform=platform, hostfile=hostfile, cfg=cfg, binaries=binaries), None


def leave_on_signal(signum, _frame):
    sys.exit(128 + signum)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur and examples/")
    ap.add_argument("--model", help="model file of the target (made by augur bench)")
    ap.add_argument("--versus", help="a second model file of the target, predicting every input from the same measured runs "
                                     "and the same predicted compute (the first model's trace replayed on it): two "
                                     "models compared without the machine's drift between two suites (not with --write)")
    ap.add_argument("--bench", choices=["quick", "standard", "full"], help="make the model with augur bench first (on the target)")
    ap.add_argument("--bench-passes", type=int, help="passes of that bench (default: the preset's)")
    ap.add_argument("--bench-budget", help="time budget of that bench, as augur bench --budget takes it (default: the preset's)")
    ap.add_argument("--state", choices=["reference", "typical"],
                    help="with --bench: which passes of a point the model pools (augur bench --state): the faster "
                         "half of its passes (reference, augur bench's default), or every pass (docs/fitting.md, \"Machine states\")")
    ap.add_argument("--target-machine", choices=["host", *tcp_target.TARGETS, "nodes"], default="host",
                    help="host: this machine; tcp: Open MPI over TCP on a rate-limited loopback in a network namespace "
                         "(root); tcp-mtu1500: the same with an MTU of 1500 and a 16 KB burst; nodes: 2 emulated nodes of 2 ranks (root)")
    ap.add_argument("--tcp-rate", default="1gbit", help="tbf rate of the tcp target's loopback or of the nodes' link (tc syntax)")
    ap.add_argument("--target", help=f"heading in docs/accuracy.md (default: '{HOST_HEADING}' or '{tcp_heading('RATE')}')")
    ap.add_argument("--smpi", choices=["auto", "on", "off"], default="auto",
                    help="predict with SimGrid SMPI too (auto: when smpicc and smpirun are installed)")
    ap.add_argument("-np", "--np", type=int, dest="np_", help="ranks (default 2; 4 on the nodes target)")
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement and per augur prediction (median); SMPI runs half as often")
    ap.add_argument("--max-steal", type=float, default=0.05,
                    help="measure a run again (up to 3 tries, the calmest kept) when the hypervisor took more than "
                         "this share of the processors during it (0: never); a prediction counts the program's "
                         "CPU time, which excludes that share, so a measured run's steal is a bias of its own size")
    ap.add_argument("--no-state-probe", dest="state_probe", action="store_false",
                    help="do not probe the machine's state (an 8-byte ping-pong, about half a second) before and "
                         "after each measured run; "
                         "with the probe the table also gives each input's error against its runs in the reference "
                         "state, the one its model describes (bench/accuracy/machine_state.py)")
    ap.add_argument("--smoke", action="store_true", help="small inputs for CI")
    ap.add_argument("--only", help="comma-separated programs")
    ap.add_argument("--max-error", type=float, help="fail if any |error| of augur exceeds this fraction")
    ap.add_argument("--write", action="store_true", help="write the table into docs/accuracy.md")
    ap.add_argument("--augur-option", action="append", default=[], help="extra option for augur run")
    ap.add_argument("--mpirun", default="mpirun", help="the launcher of the MPI the build uses")
    a = ap.parse_args()
    global MPIRUN
    MPIRUN = a.mpirun

    build, augur = augur_of(a.build, a.model, a.bench, "accuracy")
    if a.versus and a.write:
        sys.exit("accuracy: --versus compares two models; the table written to docs/accuracy.md is of one")
    if a.versus and not Path(a.versus).is_file():
        sys.exit(f"accuracy: --versus {a.versus}: no such file")
    if a.state and a.bench is None:
        sys.exit("accuracy: --state chooses how --bench fits its model; a model given with --model was fitted already")
    if a.target_machine in tcp_target.TARGETS:
        try:
            tcp_target.check_available()
        except tcp_target.TargetUnavailable as e:
            sys.exit(f"accuracy: cannot build the tcp target: {e}")
    nodes = a.target_machine == "nodes"
    if a.np_ is None:
        a.np_ = NODES * RANKS_PER_NODE if nodes else 2
    if nodes and not any(o.startswith("--ranks-per-node") for o in a.augur_option):
        a.augur_option += ["--ranks-per-node", str(RANKS_PER_NODE)]
    heading = a.target or (HOST_HEADING if a.target_machine == "host" else
                           nodes_heading(a.tcp_rate) if nodes else tcp_heading(a.tcp_rate, a.target_machine))
    inputs = SMOKE_INPUTS if a.smoke else INPUTS
    if a.only:
        inputs = [i for i in inputs if i[0] in a.only.split(",")]
        if not inputs:
            sys.exit(f"accuracy: no inputs for --only {a.only}")
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, leave_on_signal)

    timings = {}
    with contextlib.ExitStack() as stack:
        if a.target_machine in tcp_target.TARGETS:
            try:
                target = stack.enter_context(tcp_target.RateLimitedLoopback.named(a.target_machine, a.tcp_rate))
            except tcp_target.TargetUnavailable as e:
                sys.exit(f"accuracy: cannot build the tcp target: {e}")
            print(f"target: {target.describe()}", flush=True)
        elif nodes:
            try:
                target = stack.enter_context(nodes_target.EmulatedNodes(NODES, RANKS_PER_NODE, a.tcp_rate, MPIRUN))
            except nodes_target.TargetUnavailable as e:
                sys.exit(f"accuracy: cannot make the emulated nodes: {e}")
            print(f"target: {target.describe()}", flush=True)
        else:
            target = HostTarget()
        model = Path(a.model).resolve() if a.model else None
        if a.bench:
            started = time.monotonic()
            # The smoke test's quick model keeps its own name, so it never replaces the table's.
            name = f"accuracy-{'smoke-' if a.smoke else ''}{a.target_machine}.json"
            model = make_model(augur, a.bench, a.state, build / name, target, a.bench_passes, a.bench_budget,
                               a.np_ if nodes else 2, ["--sync", "barrier"] if nodes else [])
            timings["augur bench"] = time.monotonic() - started
            print(f"model: {model} ({timings['augur bench']:.0f} s)", flush=True)

        started = time.monotonic()
        smpi, smpi_off = prepare_smpi(a.smpi, ROOT, build, model, a.np_)
        smpi_failed = smpi == "failed"
        if smpi_failed:
            smpi = None
        if smpi:
            timings["SMPI build"] = time.monotonic() - started
        else:
            print(f"SMPI: not run, {smpi_off}", flush=True)

        rows = []
        for key in ("measured runs", "augur runs", "SMPI runs"):
            timings[key] = 0.0
        started = time.monotonic()
        meter = steal.Meter(most=a.max_steal if a.max_steal > 0 else None)
        models = [model] + ([Path(a.versus).resolve()] if a.versus else [])
        prober = None
        if a.state_probe:
            prober = machine_state.Prober(build / "bin" / "augur-bench-mpi", mpirun_prefix(2),
                                          lambda cmd: run(target.wrap(cmd), env=target.env()))
        all_measured, probes, predictions, bands, costs = measure_and_predict(target, build, inputs, a.np_, a.runs, augur,
                                                                       models, a.augur_option, meter, prober)
        limit = prober.limit() if prober else None
        predicted_times = predictions[0]
        versus_times = predictions[1] if a.versus else [None] * len(inputs)
        timings["augur runs"] = sum(costs) * a.runs
        timings["measured runs"] = time.monotonic() - started - timings["augur runs"]
        for (program, kind, args), times, probed, predicted, versus, band, cost in zip(
                inputs, all_measured, probes, predicted_times, versus_times, bands, costs):
            measured = statistics.median(times)
            row = dict(program=program, kind=kind, args=args, np=a.np_, measured=measured, predicted=predicted,
                       error=(predicted - measured) / measured, cost=cost)
            row.update(bounds_band.summary(times, predicted, band))
            if limit is not None:
                in_reference = machine_state.reference_runs(times, probed, limit)
                row.update(reference_runs=len(in_reference), runs=len(times))
                if in_reference:
                    row["reference_error"] = (predicted - statistics.median(in_reference)) / statistics.median(in_reference)
            line = (f"{program:10} {kind:8} {' '.join(args):18} measured {measured:9.4g} s  augur {predicted:9.4g} s  "
                    f"error {100 * row['error']:+6.1f}%")
            if versus is not None:
                row.update(versus=versus, versus_error=(versus - measured) / measured)
                line += f"  versus {versus:9.4g} s  error {100 * row['versus_error']:+6.1f}%"
            if smpi:
                started = time.monotonic()
                simulated, how = simulate(smpi, program, args, a.np_, max(1, a.runs // 2))
                timings["SMPI runs"] += time.monotonic() - started
                if simulated is None:
                    row.update(smpi=None, smpi_failure=how)
                    line += f"  SMPI failed: {how}"
                else:
                    row.update(smpi=simulated, smpi_error=(simulated - measured) / measured, smpi_cost=how)
                    line += f"  SMPI {simulated:9.4g} s  error {100 * row['smpi_error']:+6.1f}%"
            elif smpi_failed:
                row.update(smpi=None, smpi_failure=smpi_off)
            rows.append(row)
            print(line, flush=True)
        if not smpi:
            del timings["SMPI runs"]

    notes = []
    if a.target_machine in tcp_target.TARGETS:
        shape = tcp_target.TARGETS[a.target_machine]
        mtu = f"`ip link set dev lo mtu {shape['mtu']}`, " if shape["mtu"] else ""
        notes.append(f"Target: Open MPI over TCP (`--mca btl tcp,self`) on the loopback of a network namespace, "
                     f"{mtu}`tc qdisc add dev lo root tbf rate {a.tcp_rate} burst {shape['burst']} latency 50ms`; the measured runs"
                     f"{' and augur bench' if a.bench else ''} ran there; the predictions ran on this machine "
                     f"over shared memory.")
    if nodes:
        notes.append(f"Target: {NODES} emulated nodes of {RANKS_PER_NODE} ranks joined at {a.tcp_rate} "
                     f"(scripts/emulate-nodes: shared memory within a node, TCP over the link); the measured runs"
                     f"{' and augur bench (`--sync barrier`)' if a.bench else ''} ran there; the predictions ran on "
                     f"this machine over shared memory with `{' '.join(a.augur_option)}`.")
    note = model_note(model)
    if a.versus:
        notes.append(f"The `versus` columns: `{a.versus}`, predicting each input from the same measured runs "
                     f"and the first model's compute: its trace replayed with `augur sim --match recorded`.")
    if note:
        notes.append(note + (" The SMPI platform is derived from it (bench/accuracy/smpi_platform.py)." if smpi else ""))
    if not smpi and not smpi_failed:
        notes.append(f"SMPI not run: {smpi_off}.")
    if limit is not None:
        notes.append(f"The machine's state around each measured run: an 8-byte ping-pong just before and just after "
                     f"it, the slower kept; a run is in the reference state when that took at most "
                     f"{1e6 * limit:.3g} µs, 1.75 times the 10th percentile of the suite's probes "
                     f"(bench/accuracy/machine_state.py). The main columns use every run.")
    elif prober:
        notes.append("The machine's state was probed around each measured run, too few times to tell its states apart.")
    mismatch = machine_state.state_mismatch(machine_state.model_reference_probe(model), prober.values) if prober else None
    if mismatch:
        print(f"accuracy: {mismatch}", flush=True)
        notes.append(mismatch)
    steal_note = meter.note()
    if steal_note:
        notes.append(steal_note)
    command = "bench/accuracy/run.py " + " ".join(sys.argv[1:])
    text = table(rows, heading, command, notes, timings)
    print("\n" + text)
    if a.write:
        doc = "accuracy-tcp.md" if a.target_machine in tcp_target.TARGETS else "accuracy.md"
        write_section(ROOT / "docs" / doc, heading, text)
    worst = max(abs(r["error"]) for r in rows)
    if a.max_error is not None and worst > a.max_error:
        sys.exit(f"accuracy: worst error {100 * worst:.1f}% exceeds {100 * a.max_error:.0f}%")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("accuracy: interrupted", file=sys.stderr)
        sys.exit(130)
