#!/usr/bin/python3
"""Checks the JSON written by bench/check/gbench_check.c: every gbench.h call had its effect;
and, given its console output, the progress lines ([k/N] name ... time [wall, elapsed, ETA]).
Usage: scripts/check/check-gbench.py RESULTS.json [CONSOLE.log]  (exit 1 and a list of failures otherwise)."""
import json
import re
import sys

data = json.load(open(sys.argv[1]))
runs = {b["name"]: b for b in data["benchmarks"]}
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


expect(data["context"].get("check_context") == "present", "gb_add_context")
expect(data["context"].get("check_registered") ==
       "check/linear,check/dense,check/paused,check/product,check/min_time,check/skipped",
       "gb_registered_name lists the registrations in order")
for n in (64, 256, 1024):
    b = runs.get(f"check/linear/{n}")
    expect(b is not None, f"gb_range with multiplier 4 gives check/linear/{n}")
    if b:
        expect(b.get("time_unit") == "us", "gb_unit(GB_US)")
        expect(b.get("items_per_second", 0) > 0, "gb_set_items")
        expect(abs(b.get("bytes_per_second", 0) - 8 * b.get("items_per_second", 1)) < 1e-6 * b["bytes_per_second"], "gb_set_bytes")
        expect(b.get("plain") == 42.0, "plain counter")
        expect(abs(b.get("per_iteration", 0) - 3.0) < 1e-9, "GB_AVG_ITERATIONS | GB_ITERATION_INVARIANT counter")
        expect(b.get("rate", 0) > 0, "GB_RATE counter")
        expect(abs(b.get("inverted", 0) - 0.25) < 1e-12, "GB_INVERT counter")
expect("check/linear_BigO" in runs and "check/linear_RMS" in runs, "gb_complexity adds BigO and RMS")
expect(runs.get("check/linear_BigO", {}).get("big_o") == "N", "gb_complexity(GB_O_N) reports N")
for n in (10, 20, 30, 99):
    expect(f"check/dense/{n}" in runs, f"gb_dense_range/gb_arg give check/dense/{n}")
paused = runs.get("check/paused/iterations:5", {})
expect(paused.get("iterations") == 5, "gb_iterations(5)")
expect(paused.get("label") == "paused-label", "gb_label")
expect(paused.get("real_time", 1e9) < 1e6, "gb_pause/gb_resume leave little timed")
for x in (1, 2):
    for y in (5, 6, 7):
        b = runs.get(f"check/product/{x}/{y}")
        expect(b is not None and not b.get("error_occurred"), f"gb_args_product and user pointer: {x}/{y}")
expect("check/min_time/8/min_time:0.010" in runs, "gb_min_time")
expect(runs.get("check/skipped", {}).get("error_message") == "skipped on purpose", "gb_skip")
# Every run's wall time (skipped ones carry no counters): at least its timed loop, and the
# dropped calls are a part of it.
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
for b in data["benchmarks"]:
    if b.get("run_type") == "aggregate" or b.get("error_occurred"):
        continue
    wall, search = b.get("wall_seconds"), b.get("search_seconds")
    expect(wall is not None and search is not None, f"{b['name']}: wall_seconds and search_seconds")
    if wall is not None and search is not None:
        timed = b["iterations"] * b["real_time"] * unit[b["time_unit"]]
        expect(0 <= search < wall and timed <= wall * 1.001, f"{b['name']}: wall {wall} s holds "
               f"the search's {search} s and the timed loop's {timed} s")
expect(runs.get("check/min_time/8/min_time:0.010", {}).get("search_seconds", 0) > 0,
       "search_seconds counts the calls Google Benchmark dropped")
expect(paused.get("search_seconds") == 0, "no search with a fixed iteration count")

if len(sys.argv) > 2:
    log = open(sys.argv[2]).read()
    lines = re.findall(r"^\[ *(\d+)/(\d+)\] (\S+) \.\.\. (.*)$", log, re.M)
    ran = [b for b in data["benchmarks"] if b.get("run_type") != "aggregate"]
    expect(len(lines) == len(ran), f"one progress line per benchmark ({len(lines)} lines, {len(ran)} runs)")
    expect([int(k) for k, _, _, _ in lines] == list(range(1, len(lines) + 1)), "progress counts 1..N in order")
    expect(all(int(n) == len(lines) for _, n, _, _ in lines), "progress shows N = COLLIDE_BENCH_TOTAL")
    names = [name for _, _, name, _ in lines]
    expect("check/linear/256" in names and "check/product/2/7" in names, "progress names carry the arguments")
    done = [rest for _, _, _, rest in lines if "skipped" not in rest]
    expect(all(re.search(r"\d (ns|us|ms|s)\b.*\[wall [\d.]+ s; elapsed \d+:\d\d", r) for r in done),
           "progress lines give the time, the wall time and the elapsed time")
    expect(any("skipped: skipped on purpose" in rest for _, _, _, rest in lines), "progress shows skips")
    expect(re.search(r"^\d+ benchmarks in \d+:\d\d", log, re.M) is not None, "the run's total time is printed")

if failures:
    print("check-gbench: FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"check-gbench: every gbench.h call had its effect ({len(runs)} runs checked)")
