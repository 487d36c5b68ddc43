#!/usr/bin/env python3
"""How far `augur run -np P --oversubscribe` goes on this host: wall time, memory and the prediction.

For each program and process count, runs
  augur run --json -np P --oversubscribe --machine M -- PROGRAM ARGS
and, while it runs, samples its whole process tree (augur, mpirun and every rank) every half
second: the sum of the processes' proportional set sizes (PSS, from /proc/PID/smaps_rollup, so
libraries and shared-memory segments mapped by many ranks count once), the sum of their resident
sizes (RSS, which counts a shared page once per process), the space used in /dev/shm (where
Open MPI's shared-memory transport keeps one segment per rank) and the file descriptors mpirun
holds. It prints one Markdown row per run with the predicted time and the ranks' compute summed,
which stays near the program's total work however many ranks share a core, since each rank's
compute is its own CPU time.

  bench/scale/run_at_count.py                            # stencil2d 256 20 5 and ring 100 65536
  bench/scale/run_at_count.py --counts 16,32,64 --timeout 600
  bench/scale/run_at_count.py --program "sor 500 10"
"""
import argparse
import json
import os
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def children_of():
    """Every process's parent, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            pass
    return parents


def tree(root):
    parents = children_of()
    found, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                frontier.append(pid)
    return found


def memory_kib(pid):
    """(PSS, RSS) of one process in KiB; zeros when it has gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def comm(pid):
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def shm_used_kib():
    s = os.statvfs("/dev/shm")
    return (s.f_blocks - s.f_bfree) * s.f_frsize // 1024


class Sampler(threading.Thread):
    def __init__(self, root):
        super().__init__(daemon=True)
        self.root, self.stop = root, threading.Event()
        self.pss = self.rss = self.shm = self.fds = self.processes = 0
        self.shm_base = shm_used_kib()

    def run(self):
        while not self.stop.wait(0.5):
            pids = tree(self.root)
            sizes = [memory_kib(p) for p in pids]
            self.pss = max(self.pss, sum(s[0] for s in sizes))
            self.rss = max(self.rss, sum(s[1] for s in sizes))
            self.shm = max(self.shm, shm_used_kib() - self.shm_base)
            self.processes = max(self.processes, len(pids))
            for p in pids:
                if comm(p) in ("mpirun", "orterun", "mpiexec"):
                    try:
                        self.fds = max(self.fds, len(os.listdir(f"/proc/{p}/fd")))
                    except OSError:
                        pass


def load():
    return os.getloadavg()[0]


def measure(augur, machine, program, args, p, timeout):
    cmd = [str(augur), "run", "--json", "-np", str(p), "--oversubscribe", "--machine", machine, "--",
           str(program)] + args
    load_before = load()
    started = time.monotonic()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = Sampler(child.pid)
    sampler.start()
    try:
        out, err = child.communicate(timeout=timeout)
        status = child.returncode
    except subprocess.TimeoutExpired:
        for pid in tree(child.pid) - {child.pid}:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        child.kill()
        out, err = child.communicate()
        status = "timeout"
    wall = time.monotonic() - started
    sampler.stop.set()
    sampler.join()
    predicted = compute = None
    if status == 0 and "{" in out:
        report = json.loads(out[out.index("{"):])
        predicted = report["predicted_seconds"]
        compute = sum(rank["compute"] for rank in report["ranks"])
    why = "" if status == 0 else (err.strip().splitlines() or ["?"])[-1][:120]
    return dict(p=p, status=status, wall=wall, pss=sampler.pss / 1024, rss=sampler.rss / 1024,
                shm=sampler.shm / 1024, fds=sampler.fds, processes=sampler.processes, predicted=predicted,
                compute=compute, load=(load_before, load()), why=why)


def ms(seconds):
    return "—" if seconds is None else f"{seconds * 1e3:.4g} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="build directory with bin/augur and examples/")
    ap.add_argument("--machine", default="t3d")
    ap.add_argument("--counts", default="16,32,64,128,256,512")
    ap.add_argument("--program", action="append", help='an example and its arguments, e.g. "ring 100 65536"')
    ap.add_argument("--timeout", type=float, default=1200, help="seconds before a run is stopped")
    a = ap.parse_args()
    build = Path(a.build)
    programs = a.program or ["stencil2d 256 20 5", "ring 100 65536"]
    print("| program | P | completes | wall | memory (PSS) | RSS summed | /dev/shm | mpirun fds | predicted "
          "| compute summed | load (1 min) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for entry in programs:
        name, *args = entry.split()
        for p in [int(c) for c in a.counts.split(",")]:
            r = measure(build / "bin" / "augur", a.machine, build / "examples" / name, args, p, a.timeout)
            done = "yes" if r["status"] == 0 else f"no ({r['status']}: {r['why']})"
            print(f"| {entry} | {p} | {done} | {r['wall']:.1f} s | {r['pss']:.0f} MiB | {r['rss']:.0f} MiB "
                  f"| {r['shm']:.0f} MiB | {r['fds']} | {ms(r['predicted'])} | {ms(r['compute'])} "
                  f"| {r['load'][0]:.1f} → {r['load'][1]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
