"""A machine of nodes built on this one: emulated nodes joined by a rate-limited link.

`scripts/emulate-nodes start --nodes N --ranks-per-node K --rate RATE` makes a network namespace
per node (docs/emulated-nodes.md); the measured runs start `mpirun` on node 1 with the launch
arguments the script wrote (hostfile, rankfile, launcher agent, shared memory within a node and
TCP over the link between nodes), and `augur bench` passes the same arguments to every `mpirun`
it starts. The nodes are stopped when the `with` block ends, on an exception, Ctrl-C or SIGTERM;
`scripts/emulate-nodes stop --all` removes what a run killed outright left behind.
"""
import os
import subprocess
import tempfile
from pathlib import Path

import signal_trap

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "emulate-nodes"


class TargetUnavailable(RuntimeError):
    """The machine cannot make the nodes (not root, no namespaces; the script's reason)."""


def _np_of(cmd):
    for flag in ("-np", "-n"):
        if flag in cmd:
            return int(cmd[cmd.index(flag) + 1])
    return None


class EmulatedNodes:
    """`with EmulatedNodes(2, 2, "1gbit") as nodes:` runs commands on node 1 via nodes.wrap(cmd)."""

    def __init__(self, nodes=2, ranks_per_node=2, rate="1gbit", mpirun="mpirun"):
        self.nodes, self.ranks_per_node, self.rate, self.mpirun = nodes, ranks_per_node, rate, mpirun
        self.dir = None
        self._signals = signal_trap.SignalTrap()
        self._started = False

    def describe(self):
        return (f"{self.nodes} emulated nodes of {self.ranks_per_node} ranks joined at {self.rate} "
                f"(scripts/emulate-nodes; Open MPI: {' '.join(self.launch_args(self.nodes * self.ranks_per_node))})")

    def launch_args(self, np_):
        """The launch arguments for a job of np_ ranks: the rankfile pins exactly nodes x ranks a
        node, so a smaller job (the state probe's 2 ranks) goes without it."""
        words = (Path(self.dir) / "mpirun-args").read_text().split()
        if np_ is not None and np_ != self.nodes * self.ranks_per_node and "--rankfile" in words:
            at = words.index("--rankfile")
            del words[at:at + 2]
        return words

    def wrap(self, cmd):
        """The command as run on node 1: an `mpirun` gets the launch arguments after its own,
        `augur bench` passes them on to the `mpirun` it starts."""
        cmd = [str(c) for c in cmd]
        if Path(cmd[0]).name == Path(self.mpirun).name:
            at = cmd.index(str(_np_of(cmd))) + 1
            cmd = cmd[:at] + self.launch_args(_np_of(cmd)) + cmd[at:]
        elif len(cmd) > 1 and cmd[1] == "bench":
            cmd = cmd + ["--"] + self.launch_args(_np_of(cmd))
        return [str(SCRIPT), "exec", "--dir", self.dir, "--"] + cmd

    def env(self):
        return None

    def __enter__(self):
        self._signals.install()
        self.dir = tempfile.mkdtemp(prefix="augur-accuracy-nodes-")
        os.rmdir(self.dir)  # the script makes it and refuses one already started
        done = subprocess.run([str(SCRIPT), "start", "--nodes", str(self.nodes), "--ranks-per-node",
                               str(self.ranks_per_node), "--rate", self.rate, "--dir", self.dir],
                              capture_output=True, text=True)
        if done.returncode != 0:
            self._signals.restore()
            raise TargetUnavailable((done.stderr or done.stdout).strip() or f"status {done.returncode}")
        self._started = True
        return self

    def __exit__(self, *exc):
        try:
            if self._started:
                subprocess.run([str(SCRIPT), "stop", "--dir", self.dir], capture_output=True, text=True)
                self._started = False
        finally:
            self._signals.restore()
        return False
