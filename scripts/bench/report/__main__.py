#!/usr/bin/python3
"""Turns Google Benchmark JSON from `make bench` into results/REPORT.md, one full report per
machine (results/<machine>/REPORT.md) and their plots (results/plots/, SVG).

Usage: /usr/bin/python3 scripts/bench/report [--results DIR] [--input FILE ...] [--output FILE]
       [--plots DIR]
(also `python3 -m report` with scripts/bench on PYTHONPATH; make report runs the first form)

Without --input or --output, takes the newest complete run of every machine
(results/<machine>/*.json.xz, or plain *.json; newest by file name, which starts with the UTC
date) and writes the summary, RESULTS/REPORT.md (the machines side by side: their targets and
headline speedups, and each one's speedup plot), each machine's full report beside its runs,
and each machine's plots in a folder of its own under the plots folder. With --input (quick,
filtered or other runs) or --output, writes one page holding every run given: the runs side by
side when there are several, then each one's full section. Without --input or --output, the
page of each machine's newest run with scene files (make bench SCENE=..., kept under
results/<machine>/partial/) is written again too. Pages and plots whose content did not change
are left untouched. Two reports written at once into one folder take turns (a lock
file, .report.lock, beside the report). Runs with Debian's /usr/bin/python3 and
python3-matplotlib.
"""
import argparse
import fcntl
import os
import sys

if not __package__:  # run as a folder (python3 scripts/bench/report): import it as the package
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    __package__ = "report"  # noqa: A001  (PEP 366)

from .data import load_runs, newest_per_machine, run_files, run_name  # noqa: E402
from .write import write_report, write_results  # noqa: E402

# Partial runs looked at per machine for the newest one with scene files.
SCENE_RUNS_LOOKED_AT = 20


def rewrite_scene_runs(results):
    """The page of each machine's newest run with scene files (make bench SCENE=..., always
    partial: results/<machine>/partial/<run>.md beside its JSON, never committed), written
    again, so that make report shows a user's scenes too. Returns the pages written."""
    pages = []
    for machine in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        partial = os.path.join(results, machine, "partial")
        for path in run_files(partial)[:SCENE_RUNS_LOOKED_AT] if os.path.isdir(partial) else []:
            try:
                data = load_runs([path])[0][1]
            except SystemExit:
                continue  # a broken partial run is that run's problem, not the report's
            if data.get("context", {}).get("collide_scene_files"):
                base = os.path.join(partial, run_name(path))
                write_report([path], base + ".md", base + "-plots")
                pages.append(base + ".md")
                break
    return pages


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default="results",
                        help="folder of results/<machine>/*.json.xz (or *.json)")
    parser.add_argument("--input", nargs="*", help="these JSON files (.json.xz or .json) instead of "
                        "the newest complete runs; one page holds them all")
    parser.add_argument("--output", help="the page to write, holding every run (default: the summary "
                        "RESULTS/REPORT.md and a full report per machine)")
    parser.add_argument("--plots", help="folder for the plots (default: RESULTS/plots)")
    args = parser.parse_args()
    report = args.output or os.path.join(args.results, "REPORT.md")
    out_dir = args.plots or os.path.join(args.results, "plots")
    rel = os.path.dirname(report) or "."
    os.makedirs(rel, exist_ok=True)
    # One report at a time per folder: a second waits, then reads the results as they are then
    # (with the first's run), so neither run is lost.
    with open(os.path.join(rel, ".report.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"report: another report is being written in {rel}/; waiting for it", file=sys.stderr)
            fcntl.flock(lock, fcntl.LOCK_EX)
        paths = args.input or newest_per_machine(args.results)
        if not paths:
            print(f"report: no complete default or full run under {args.results}/<machine>/ yet: "
                  "run `make bench`", file=sys.stderr)
            return 1
        if args.input or args.output:
            write_report(paths, report, out_dir)
        else:
            write_results(paths, report, out_dir)
    if not (args.input or args.output):
        for page in rewrite_scene_runs(args.results):
            print(f"report: your scene files' newest run: {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
