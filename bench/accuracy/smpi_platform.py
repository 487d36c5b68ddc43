"""SimGrid SMPI as a second predictor: a platform derived from an augur model file.

The platform has one host per process and one link per pair of hosts (full routing), and every
number comes from the model's `network` section, the same file `augur run --machine` reads:

  link latency    network.latency (the half round trip of an empty ping-pong) less
                  network.send_overhead and network.recv_overhead, which SMPI charges itself
                  through smpi/os, smpi/ois and smpi/or, so an empty ping-pong costs
                  network.latency in both predictors
  link bandwidth  network.bandwidth
  eager limit     network.eager_limit as smpi/async-small-thresh and
                  smpi/send-is-detached-thresh: smaller sends complete without the receiver
                  (a model without one, eager_limit 0, leaves SMPI's defaults)
  host speed      equal to smpi/host-speed, so the computation SMPI times on this machine is
                  carried over unchanged, as `augur run` does with its default --compute-scale 1
                  (SimGrid 3.32 has no automatic host-speed calibration; any value works as long
                  as both sides agree)

SMPI's own corrections for small messages (smpi/lat-factor, smpi/bw-factor, fitted on another
cluster) are set to 1: the model already holds the measured end-to-end latency and bandwidth.
Collectives use SMPI's copy of the target library's algorithm selection (smpi/coll-selector
ompi or mpich, from the model's provenance.mpi_library).
"""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from xml.sax.saxutils import quoteattr

HOST_SPEED = 1e9  # flop/s, for both the platform's hosts and smpi/host-speed


class SmpiUnavailable(RuntimeError):
    """SMPI cannot run here or the model lacks what the platform needs."""


def available():
    """None when smpicc and smpirun are in PATH, else the reason."""
    missing = [tool for tool in ("smpicc", "smpirun") if shutil.which(tool) is None]
    if missing:
        return " and ".join(missing) + " not found (Debian: apt-get install libsimgrid-dev)"
    return None


def parameters(model_path):
    """The SMPI parameters derived from the model file's network section."""
    model = json.loads(Path(model_path).read_text())
    net = model.get("network") or {}
    latency, bandwidth = float(net.get("latency", 0)), float(net.get("bandwidth", 0))
    missing = [name for name, value in (("network.latency", latency), ("network.bandwidth", bandwidth)) if value <= 0]
    if missing:
        raise SmpiUnavailable(f"{Path(model_path).name} has no {' or '.join(missing)} (0 or absent), "
                              "which the SMPI platform needs")
    send, recv = float(net.get("send_overhead", 0)), float(net.get("recv_overhead", 0))
    if send + recv > latency:  # the overheads cannot exceed the whole empty ping-pong
        send, recv = send * latency / (send + recv), recv * latency / (send + recv)
    library = ((model.get("provenance") or {}).get("mpi_library") or "").lower()
    selector = "ompi" if "open mpi" in library or "openmpi" in library else "mpich" if "mpich" in library else None
    return {
        "machine": (model.get("machine") or {}).get("name", ""),
        "latency": latency, "bandwidth": bandwidth,
        "link_latency": latency - send - recv,
        "send_overhead": send, "recv_overhead": recv,
        "eager_limit": int(net.get("eager_limit", 0)),
        "coll_selector": selector,
    }


def config(params):
    """--cfg options for smpirun."""
    cfg = [f"smpi/host-speed:{HOST_SPEED:g}f",
           "smpi/lat-factor:0:1", "smpi/bw-factor:0:1",
           f"smpi/os:0:{params['send_overhead']:.6g}:0", f"smpi/ois:0:{params['send_overhead']:.6g}:0",
           f"smpi/or:0:{params['recv_overhead']:.6g}:0"]
    if params["eager_limit"] > 0:
        cfg += [f"smpi/async-small-thresh:{params['eager_limit']}",
                f"smpi/send-is-detached-thresh:{params['eager_limit']}"]
    if params["coll_selector"]:
        cfg.append(f"smpi/coll-selector:{params['coll_selector']}")
    return ["--cfg=" + c for c in cfg]


def write_platform(model_path, hosts, directory):
    """Writes platform.xml and hostfile for `hosts` processes into directory; returns their paths
    and the smpirun --cfg options that go with them."""
    params = parameters(model_path)
    cfg = config(params)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names = [f"rank-{i}" for i in range(hosts)]
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             f"<!-- Derived by bench/accuracy/smpi_platform.py from {Path(model_path).name}"
             f" (machine {params['machine']}): network.latency {params['latency']:.6g} s,"
             f" network.bandwidth {params['bandwidth']:.6g} B/s. Run with",
             "     " + " ".join(cfg) + " -->",
             '<platform version="4.1">',
             '  <zone id="target" routing="Full">']
    lines += [f'    <host id="{n}" speed="{HOST_SPEED:g}f"/>' for n in names]
    for i in range(hosts):
        for j in range(i + 1, hosts):
            lines.append(f'    <link id="link-{i}-{j}" bandwidth="{params["bandwidth"]:.6g}Bps" '
                         f'latency="{params["link_latency"]:.6g}s"/>')
    for i in range(hosts):
        for j in range(i + 1, hosts):
            lines.append(f'    <route src={quoteattr(names[i])} dst={quoteattr(names[j])}>'
                         f'<link_ctn id="link-{i}-{j}"/></route>')
    lines += ["  </zone>", "</platform>", ""]
    platform, hostfile = directory / "platform.xml", directory / "hostfile"
    platform.write_text("\n".join(lines))
    hostfile.write_text("\n".join(names) + "\n")
    return platform, hostfile, cfg


def build_flags(build):
    """The C compiler flags of the build directory's configuration (CMakeCache.txt), so the SMPI
    binaries are optimised like the measured ones; None when they cannot be read."""
    try:
        cache = (Path(build) / "CMakeCache.txt").read_text()
    except OSError:
        return None

    def entry(name):
        m = re.search(rf"^{name}:\w+=(.*)$", cache, re.M)
        return m.group(1).strip() if m else ""

    kind = entry("CMAKE_BUILD_TYPE").upper()
    flags = " ".join(f for f in (entry("CMAKE_C_FLAGS"), entry(f"CMAKE_C_FLAGS_{kind}") if kind else "") if f)
    return flags or None


def build_examples(root, directory, cflags=None):
    """Builds every example with smpicc into directory (examples/build-smpi.sh), with cflags in
    place of the script's default -O2 when given."""
    env = dict(os.environ)
    if cflags:
        env["CFLAGS"] = cflags
    done = subprocess.run([str(Path(root) / "examples" / "build-smpi.sh"), str(directory)],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SmpiUnavailable("examples/build-smpi.sh failed:\n" + done.stdout + done.stderr)
    return Path(directory)


def command(binary, args, np_, platform, hostfile, cfg):
    # (smpirun 3.32 mistakes the argument of its own -tmpdir for the program: leave it out.)
    return (["smpirun", "-np", str(np_), "-platform", str(platform), "-hostfile", str(hostfile)]
            + cfg + ["--log=root.thres:warning", str(binary)] + list(args))
