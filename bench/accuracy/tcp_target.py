"""A second target machine built on this one: Open MPI over TCP on a rate-limited loopback.

A network namespace of its own (augur-tcp-PID) has only a loopback interface; it is brought up
and given a token-bucket qdisc, so every byte between the processes goes through the kernel's
TCP stack and a 1 Gbit/s limit:

    ip netns add augur-tcp-PID
    ip netns exec augur-tcp-PID ip link set lo up
    ip netns exec augur-tcp-PID tc qdisc add dev lo root tbf rate 1gbit burst 256kb latency 50ms

The burst must exceed the loopback's 64 KiB MTU, or no full-size packet ever passes. The second
target, `tcp-mtu1500`, is an Ethernet-like link instead: the loopback's MTU set to 1500 bytes
(`ip link set dev lo mtu 1500`) and a 16 KB burst, so that TCP sends ordinary segments through a
small bucket, as a 1 Gbit/s switch port would take them (TARGETS below). Commands
run inside with `ip netns exec`, and Open MPI is told to use TCP on lo only (its TCP transport
leaves loopback addresses out by default). The namespace is deleted when the `with` block ends,
on an exception, Ctrl-C or SIGTERM; namespaces left behind by a run that was killed outright
(their PID no longer running) are deleted when the next one starts.
"""
import os
import re
import shutil
import subprocess

import signal_trap

# Open MPI over TCP on the namespace's loopback: no shared memory, and lo allowed for both the
# MPI traffic (btl) and the runtime's own (oob).
OPEN_MPI_TCP = {
    "OMPI_MCA_btl": "tcp,self",
    "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_oob_tcp_if_include": "lo",
}
PREFIX = "augur-tcp-"

# The targets by name: the tbf settings of the loopback and its MTU (None: the loopback's own).
TARGETS = {
    "tcp": {"burst": "256kb", "mtu": None},
    "tcp-mtu1500": {"burst": "16kb", "mtu": 1500},
}


class TargetUnavailable(RuntimeError):
    """The machine cannot build the target (not root, no `ip netns`, no `tc`)."""


def _ip(*args, check=True):
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def check_available():
    """Raises TargetUnavailable with the reason when namespaces cannot be made here."""
    if os.geteuid() != 0:
        raise TargetUnavailable("the TCP target needs root (ip netns add, tc qdisc add)")
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            raise TargetUnavailable(f"the TCP target needs '{tool}' (Debian: apt-get install iproute2)")
    done = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if done.returncode != 0:
        raise TargetUnavailable("'ip netns list' failed: " + (done.stderr.strip() or f"status {done.returncode}"))


def remove_stale():
    """Deletes augur-tcp-PID namespaces whose process is gone (a run killed with SIGKILL)."""
    listing = _ip("netns", "list", check=False).stdout
    for name in re.findall(rf"^({PREFIX}(\d+))\b", listing, re.M):
        if not _alive(int(name[1])):
            _ip("netns", "del", name[0], check=False)


class RateLimitedLoopback:
    """`with RateLimitedLoopback("1gbit") as ns:` runs commands in the target via ns.wrap(cmd);
    `RateLimitedLoopback.named("tcp-mtu1500")` builds one of TARGETS."""

    @classmethod
    def named(cls, target, rate="1gbit"):
        return cls(rate=rate, **TARGETS[target])

    def __init__(self, rate="1gbit", burst="256kb", latency="50ms", mtu=None):
        self.rate, self.burst, self.latency, self.mtu = rate, burst, latency, mtu
        self.name = f"{PREFIX}{os.getpid()}"
        self._signals = signal_trap.SignalTrap()
        self._created = False

    def describe(self):
        mtu = f"`ip link set dev lo mtu {self.mtu}` and " if self.mtu else ""
        return (f"network namespace {self.name}: lo with {mtu}`tc qdisc add dev lo root tbf rate {self.rate} "
                f"burst {self.burst} latency {self.latency}`; Open MPI with "
                + " ".join(f"{k}={v}" for k, v in OPEN_MPI_TCP.items()))

    def wrap(self, cmd):
        """The command as run inside the namespace."""
        return ["ip", "netns", "exec", self.name] + list(cmd)

    def env(self, base=None):
        """The environment for Open MPI inside the namespace: TCP on lo only."""
        env = dict(os.environ if base is None else base)
        env.update(OPEN_MPI_TCP)
        return env

    def __enter__(self):
        check_available()
        remove_stale()
        self._signals.install()
        steps = [["ip", "netns", "add", self.name],
                 self.wrap(["ip", "link", "set", "lo", "up"])]
        if self.mtu:
            steps.append(self.wrap(["ip", "link", "set", "dev", "lo", "mtu", str(self.mtu)]))
        steps.append(self.wrap(["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", self.rate,
                                "burst", self.burst, "latency", self.latency]))
        try:
            for step in steps:
                done = subprocess.run(step, capture_output=True, text=True)
                if done.returncode != 0:
                    raise TargetUnavailable(f"{' '.join(step)} failed ({done.returncode}): {done.stderr.strip()}")
                self._created = True
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        try:
            if self._created:
                _ip("netns", "del", self.name, check=False)
                self._created = False
        finally:
            self._signals.restore()
        return False
