#!/usr/bin/env python3
"""Writes a fitted model with N operations (default 60), the size of a full `augur bench` run,
for timing `augur sheet` (docs/benchmarks.md): two fitted regimes per operation with
coefficient errors, fit statistics and four alternatives each, a measured range, and a node section with a cache sweep.

Usage: make_model.py [N] > model.json
"""
import json
import re
import sys
from pathlib import Path

CATALOG = Path(__file__).resolve().parents[2] / "src" / "model" / "catalog.cpp"


def operations():
    names = re.findall(r'^\s+\{"(\w+)", C::(\w+),', CATALOG.read_text(), re.M)
    return [(name, cls) for name, cls in names]


def form(scale, p_basis, d_basis):
    terms = [{"basis": "1", "coef": 2.0 * scale, "stderr": 0.1 * scale},
             {"basis": p_basis, "coef": 0.5 * scale, "stderr": 0.02 * scale},
             {"basis": d_basis, "coef": 0.001 * scale, "stderr": 0.00005 * scale}]
    alternatives = [{"bases": ["1", p_basis, "p^2*d"], "cv_error": 0.034, "chi2": 11.9, "q": 0.64},
                    {"bases": ["1", d_basis], "cv_error": 0.041, "chi2": 20.1, "q": 0.2},
                    {"bases": ["1", "sqrt(p)", d_basis], "cv_error": 0.052, "chi2": 25.3, "q": 0.05},
                    {"bases": ["1", "p"], "cv_error": 0.098, "chi2": 90.2, "q": 0.0}]
    return {"terms": terms, "chi2": 12.5, "q": 0.61, "points": 48, "statistic": "median", "cv_error": 0.031,
            "alternatives": alternatives}


def operation(cls, i):
    p2p = cls == "point_to_point"
    p_basis = "p" if p2p else "log2(p)"
    small = form(1 + i / 10, p_basis, "d" if p2p else "log2(p)*d")
    large = form(2 + i / 10, p_basis, "d" if p2p else "p*d")
    return {"regimes": [{"from": 0, "to": 4096, "form": small, "spread": {"below": 0.05, "above": 0.12}},
                        {"from": 4096, "to": None, "form": large, "spread": {"below": 0.04, "above": 0.2}}],
            "measured": {"max_bytes": 1048576, "max_processes": 16}}


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    ops = operations()[:count]
    sweep = [{"bytes": 4096 * 2 ** k, "seconds_per_access": 1e-9 * (1 if k < 3 else 4 if k < 7 else 20)}
             for k in range(14)]
    model = {
        "augur_model": 1,
        "machine": {"name": f"synthetic-{len(ops)}", "description": "a fitted model for timing augur sheet"},
        "provenance": {"source": "bench/sheet/make_model.py", "mpi_library": "Open MPI", "mpi_version": "4.1.4",
                       "date": "2024-11-25", "measured_by": "augur bench", "settings": {"repetitions": 30}},
        "units": {"time": "us", "size": "bytes"},
        "compute": {"seconds_per_step": 1.6e-9, "relative_speed": 1.0, "memory_bandwidth": 1.2e10,
                    "flops": 8.1e9, "cache_sweep": sweep},
        "network": {"latency": 4.7e-6, "bandwidth": 3.6e9, "eager_limit": 4096},
        "operations": {name: operation(cls, i) for i, (name, cls) in enumerate(ops)},
    }
    json.dump(model, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
