#!/usr/bin/python3
"""The report's warning on a run that shared its machine, on made-up runs worked out by hand
(part of make bench-check): two logical CPUs with load averages 0.5 and 1.9 (quiet, no
warning), 0.5 at the start and 3.1 at the end (warned, naming 3.1), a quiet load but scene rows
whose repeated walks differ by 4%, 12% and 30% (median 12%: warned, naming 12%), and a run made
before the end's load was recorded (not recorded, no warning from the start's 0.2).

Usage: scripts/check/check-load-warning.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from report.machines import load_text, load_warning  # noqa: E402


def run(start, end, spreads=()):
    ctx = {"num_cpus": 2, "load_avg": [start, 0.1, 0.1]}
    if end is not None:
        ctx["collide_load_avg_end"] = [end, 0.1, 0.1]
    rows = [{"name": f"scene/{i}", "kcycles_spread": s} for i, s in enumerate(spreads)]
    rows.append({"name": "aabb2d/query/scalar/1024"})
    return {"context": ctx, "benchmarks": rows}


def check(what, got, wanted):
    if got != wanted:
        sys.exit(f"check-load-warning: FAILED: {what}: {got!r}, not {wanted!r}")


check("a quiet run's warning", load_warning(run(0.5, 1.9, [0.01, 0.02, 0.03])), None)
check("a quiet run's load", load_text(run(0.5, 1.9, [0.01, 0.02, 0.03])),
      "load average 0.50 at the start, 1.90 at the end on 2 logical CPUs; scene rows' median spread 2.0%")
check("a run loaded at its end", load_warning(run(0.5, 3.1)),
      "other work shared the machine: the load average reached 3.1 on 2 logical CPUs; its ratios are noisy, "
      "so run again on a quiet machine before trusting a margin")
check("a run whose walks differ", load_warning(run(0.5, 0.6, [0.30, 0.04, 0.12])),
      "other work shared the machine: the scene rows' repeated walks differ by 12% in the median (more than "
      "10%); its ratios are noisy, so run again on a quiet machine before trusting a margin")
check("an older run's load", load_text(run(0.2, None)),
      "load average 0.20 at the start, not recorded at the end on 2 logical CPUs")
check("an older quiet run's warning", load_warning(run(0.2, None)), None)
print("check-load-warning: the report's warning on a shared machine (load and spread) worked out by hand: ok")
