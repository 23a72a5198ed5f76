"""The parallel sweep and prune's section of a machine's report (called by run.py): speedup
over one thread and efficiency per scene, size and thread count, the targets, the cost of the
parallel entry on one thread, and what Amdahl's law predicts for more cores.

The rows are broadphase/sap-par/<backend>/<scene>/<N>/threads:<T> (collide's own pool of T
threads), .../any-order:<T> (the any-order call on the same pool) and broadphase/sap-par/<backend>/<scene>/<N>/sequential (col_broadphase_pairs on the
same boxes, run just before threads:1); bench/bench_parallel.c."""

import lzma
import os

from .data import complete_run, read_json, run_files, run_name
from .util import fmt, times, verdict

# (scene, N, threads, least speedup over one thread)
PARALLEL_TARGETS = [
    ("uniform", 1048576, 2, 1.8),
    ("boxprune3d", 100000, 2, 1.7),
    ("boxprune2d", 100000, 2, 1.7),
    ("boxprune3d", 10000, 2, 1.3),
]
# The any-order call's rows (any-order:T) are kept under the backend's name with this suffix.
ANY = " (any order)"
# One thread through the parallel entry: at most this much slower than the sequential call.
ENTRY_LIMIT = 0.03
PREDICT_CORES = (8, 32)
# Complete runs of the same machine shown in the goals' history, newest first.
HISTORY_RUNS = 12


def parallel_rows(data):
    """{(backend, scene, N): {T: seconds per run, 0: the sequential call}} from one run; the
    interleaved ratios (bench_parallel.c) under key ("ratio", T) where the row has them."""
    rows = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) != 6 or parts[:2] != ["broadphase", "sap-par"]:
            continue
        _, _, backend, scene, n, last = parts
        if last == "sequential":
            threads = 0
        elif last.startswith("threads:"):
            threads = int(last[len("threads:"):])
        elif last.startswith("any-order:"):
            threads, backend = int(last[len("any-order:"):]), backend + ANY
        else:
            continue
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}.get(b.get("time_unit"), 1e-9)
        row = rows.setdefault((backend, scene, int(n)), {})
        row[threads] = b["real_time"] * unit
        if threads > 0 and b.get("interleaved_ratio", 0) > 0:
            row[("ratio", threads)] = b["interleaved_ratio"]
            # The fastest one-thread call of this row's interleaving (the sequential call in
            # threads:1, the one-thread pool in the others) and of the row's own calls.
            row[("ref", threads)] = b.get("interleaved_ref_kcycles", 0)
            row[("own", threads)] = b.get("interleaved_kcycles", 0)
        # The one-thread pool alone on each of the first T CPUs, pinned (threads:T rows).
        cpus = [b[f"cpu{k}_kcycles"] for k in range(threads) if b.get(f"cpu{k}_kcycles", 0) > 0]
        if threads > 1 and cpus:
            row[("cpus", threads)] = cpus
    # The any-order rows have no threads:1 row of their own: their one-thread reference is checked
    # against the ordered call's (clock_moved).
    for (backend, scene, n), row in rows.items():
        ordered = rows.get((backend[:-len(ANY)], scene, n), {}) if backend.endswith(ANY) else {}
        if ("own", 1) in ordered:
            row.setdefault(("own", 1), ordered[("own", 1)])
    return rows


def balanced_ceiling(by_t, threads):
    """The speedup a T-thread call whose work was shared perfectly between the CPUs would
    reach over the row's one-thread reference: each CPU does work at its own one-thread speed,
    so the T of them finish it in 1 / sum(1 / t_k) of the time, and the reference (whichever
    CPU it ran on) took `ref`. None without the row's per-CPU times."""
    cpus, ref = by_t.get(("cpus", threads)), by_t.get(("ref", threads), 0)
    if not cpus or ref <= 0:
        return None
    return ref * sum(1.0 / t for t in cpus)


# How far the one-thread minimum interleaved in a row may sit from the threads:1 row's own
# minimum (the same call, minutes apart) before the row's speedup is flagged: beyond it the
# machine's speed moved between the rows, and the interleaved ratio mixes two speeds.
CLOCK_DRIFT = 0.10


def clock_moved(by_t, threads):
    """The note for a row whose one-thread reference disagrees with the threads:1 row's own
    calls by more than CLOCK_DRIFT, else ""."""
    ref, one = by_t.get(("ref", threads), 0), by_t.get(("own", 1), 0)
    if threads < 2 or ref <= 0 or one <= 0 or abs(ref / one - 1.0) <= CLOCK_DRIFT:
        return ""
    return (f"; one thread took {ref:,.0f} K cycles beside it, {one:,.0f} K in the "
            f"threads:1 row: the machine's speed moved, read this ratio with care")


def speedup_of(by_t, threads):
    """T threads over one: the row's interleaved ratio (the fastest of calls taken in turn
    with a one-thread pool's), else the ratio of the two rows' times."""
    if ("ratio", threads) in by_t and threads > 1:
        return by_t[("ratio", threads)]
    one, t = by_t.get(1), by_t.get(threads)
    return None if one is None or t is None or t <= 0 else one / t


def entry_cost(by_t):
    """How much slower one thread through the parallel entry is than the sequential call
    (interleaved where measured so), or None."""
    if ("ratio", 1) in by_t:
        return 1.0 / by_t[("ratio", 1)] - 1.0
    seq, one = by_t.get(0), by_t.get(1)
    return None if seq is None or one is None or seq <= 0 else one / seq - 1.0


def serial_fraction(speedup, threads):
    """The serial fraction that explains a measured speedup on `threads` under Amdahl's law
    (the Karp-Flatt metric): e = (1/S - 1/T) / (1 - 1/T)."""
    if speedup is None or threads < 2 or speedup <= 0:
        return None
    return (1.0 / speedup - 1.0 / threads) / (1.0 - 1.0 / threads)


def amdahl(fraction, cores):
    return None if fraction is None else 1.0 / (fraction + (1.0 - fraction) / cores)


def best_row(rows, scene, n, threads, any_order):
    """(backend, row) of the backend row with the highest T-thread speedup at one scene and
    size, the ordered call's or the any-order call's (a default run has one backend), or
    (None, {})."""
    found = [(b, by_t) for (b, s, m), by_t in rows.items()
             if s == scene and m == n and b.endswith(ANY) == any_order]
    return max(found, key=lambda r: speedup_of(r[1], threads) or 0.0) if found else (None, {})


def goal_speedups(rows, scene, n, threads):
    """[(speedup, flagged)] at one goal, the ordered call's then the any-order call's (None where
    not measured); flagged: clock_moved says the machine's speed moved during the row."""
    calls = []
    for any_order in (False, True):
        backend, by_t = best_row(rows, scene, n, threads, any_order)
        calls.append((speedup_of(by_t, threads) if backend else None,
                      clock_moved(by_t, threads) != ""))
    return calls


def history_lines(path, machine):
    """The goals in the complete runs of the same machine (collide_machine) beside `path`
    (results/<machine>/*.json.xz or *.json), newest first from `path` itself (file names start with the UTC
    date): on a shared or virtual machine one run says little about the next."""
    folder, name = os.path.dirname(path) or ".", run_name(path)
    candidates = {os.path.abspath(p) for p in run_files(folder)}
    candidates.add(os.path.abspath(path))
    runs = []
    for other in sorted(candidates, key=lambda p: (run_name(p), p), reverse=True):
        if run_name(other) > name:
            continue  # newer than the run reported
        try:  # a folder given with --input may hold other JSON files: those are skipped
            data = read_json(other)
        except (OSError, ValueError, EOFError, lzma.LZMAError):
            continue
        ctx = data.get("context") if isinstance(data, dict) else None
        ok = (isinstance(ctx, dict) and isinstance(data.get("benchmarks"), list)
              and ctx.get("collide_machine") == machine)
        rows = parallel_rows(data) if ok and complete_run(data) else {}
        if rows:
            runs.append((os.path.basename(other), rows))
        if len(runs) == HISTORY_RUNS:
            break
    if len(runs) < 2:
        return []
    lines = [
        f"The goals in the last {len(runs)} complete runs of this machine in the run's folder, "
        "newest first, up to this one (the ordered call / the any-order call; a goal is held when "
        "either call reaches it; † marks a ratio measured while the machine's speed moved, as "
        "above, which does not count; each run's own section, with the CPUs' speeds, is in the "
        "report written with it):",
        "",
        "| run | " + " | ".join(f"{scene} {n} (≥ {need:g}x)" for scene, n, _, need in PARALLEL_TARGETS)
        + " | goals held |",
        "|---" * (len(PARALLEL_TARGETS) + 2) + "|",
    ]
    held_by_goal = [0] * len(PARALLEL_TARGETS)
    for run, rows in runs:
        cells, held = [], 0
        for g, (scene, n, threads, need) in enumerate(PARALLEL_TARGETS):
            calls = goal_speedups(rows, scene, n, threads)
            ok = any(v is not None and not flagged and v >= need for v, flagged in calls)
            held += ok
            held_by_goal[g] += ok
            cells.append(" / ".join(times(v) + ("†" if flagged else "") for v, flagged in calls)
                         + (" ✓" if ok else ""))
        lines.append(f"| {run} | " + " | ".join(cells) + f" | {held} of {len(PARALLEL_TARGETS)} |")
    lines.append("| runs that held it | " + " | ".join(f"{h} of {len(runs)}" for h in held_by_goal)
                 + " | |")
    lines.append("")
    return lines


def parallel_section(data, path=None):
    rows = parallel_rows(data)
    if not rows:
        return []
    lines = [
        "### Parallel sweep and prune",
        "",
        "`col_broadphase_pairs_parallel` on collide's own thread pool of T threads (the calling "
        "thread is one of them), against the same call on one thread; `sequential` is "
        "`col_broadphase_pairs(COL_BROADPHASE_SAP, ...)` on the same boxes, timed just before. "
        "Speedup = time on one thread ÷ time on T; efficiency = speedup ÷ T. Each row of T threads "
        "also times its call in turn with the same call on a pool of one thread (threads:1: with "
        "the sequential call), the order alternating, and keeps the fastest of each side: the "
        "speedups and the targets below are those interleaved minima (the table's times are the "
        "rows' own means).",
        "",
        "| scene | N | backend | sequential ms | " + " | ".join(
            f"{t} thread{'s' if t > 1 else ''}" for t in sorted({t for r in rows.values() for t in r if isinstance(t, int) and t > 0}))
        + " |",
    ]
    counts = sorted({t for r in rows.values() for t in r if isinstance(t, int) and t > 0})
    lines.append("|---" * (4 + len(counts)) + "|")
    for (backend, scene, n), by_t in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        cells = []
        for t in counts:
            if t not in by_t:
                cells.append("–")
            elif t == 1:
                cells.append(f"{fmt(by_t[1] * 1e3, 3)} ms")
            else:
                s = speedup_of(by_t, t)
                cells.append(f"{times(s)} ({fmt(s / t if s else None, 2)} eff.)")
        seq = by_t.get(0)
        lines.append(f"| {scene} | {n} | {backend} | {fmt(seq * 1e3 if seq else None, 3)} | "
                     + " | ".join(cells) + " |")
    lines += ["", "(The one-thread column is its time per run; the others, the speedup over it "
              "and the efficiency.)", ""]

    lines += ["Targets (the ordered call, then the any-order call, "
              "`col_broadphase_pairs_parallel_any_order`: the same pairs without the sequential "
              "call's order, so without the copy of every pair into place):", "",
              "| scene | N | target | measured | |", "|---|---|---|---|---|"]
    for scene, n, threads, need in PARALLEL_TARGETS:
        for any_order in (False, True):
            backend, by_t = best_row(rows, scene, n, threads, any_order)
            if any_order and backend is None:
                continue
            got = speedup_of(by_t, threads)
            moved = clock_moved(by_t, threads) if backend else ""
            mark = verdict(got, got is not None and got >= need)
            if mark == "met" and moved:  # as in the history below: a ratio of two speeds
                mark = "not counted (the machine's speed moved)"
            lines.append(f"| {scene} | {n} | ≥ {need:g}x with {threads} threads over 1 | "
                         f"{times(got)}{f' ({backend}{moved})' if backend else ''} | {mark} |")
    for (backend, scene, n), by_t in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2])):
        if backend.endswith(ANY):
            continue
        over = entry_cost(by_t)
        text = "–" if over is None else f"{100 * over:+.1f}%"
        lines.append(f"| {scene} | {n} | 1 thread through the parallel entry ≤ {100 * ENTRY_LIMIT:g}% "
                     f"slower than the sequential call ({backend}) | {text} | "
                     f"{verdict(over, over is not None and over <= ENTRY_LIMIT)} |")
    lines.append("")
    if path is not None:
        ctx = data.get("context")
        lines += history_lines(path, ctx.get("collide_machine") if isinstance(ctx, dict) else None)

    cpu_rows = [(k, by_t) for k, by_t in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0]))
                if any(isinstance(t, tuple) and t[0] == "cpus" for t in by_t)]
    if cpu_rows:
        lines += [
            "The CPUs of one machine need not be equally fast (a hybrid CPU's small cores; on a "
            "virtual machine, a vCPU whose sibling hardware thread or memory another guest is "
            "using). Each threads:T row also times the one-thread call alone on each of the first "
            "T CPUs, pinned there (the fastest of a few calls). With work shared perfectly, T "
            "threads finish in 1 / Σ(1 / t_k) of the time, so the speedup over the row's "
            "one-thread reference (which ran wherever the system put it) can reach at most "
            "reference × Σ(1 / t_k): the ceiling below. A target above the ceiling cannot be met "
            "in that run by any split of the work. The CPUs are timed right after the row's "
            "interleaved calls, not with them: a measured speedup above its ceiling says the "
            "machine's speed moved in between.",
            "",
            "| scene | N | backend | threads | one thread on each CPU (M TSC cycles) | slowest ÷ fastest | "
            "ceiling | measured |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for (backend, scene, n), by_t in cpu_rows:
            for t in sorted(k[1] for k in by_t if isinstance(k, tuple) and k[0] == "cpus"):
                cpus = by_t[("cpus", t)]
                each = " / ".join(fmt(c / 1e3, 3) for c in cpus)
                lines.append(f"| {scene} | {n} | {backend} | {t} | {each} | "
                             f"{max(cpus) / min(cpus):.2f} | {times(balanced_ceiling(by_t, t))} | "
                             f"{times(speedup_of(by_t, t))} |")
        lines.append("")

    lines += [
        "Amdahl's law: the serial fraction e that explains each measured speedup on the most "
        "threads measured (e = (1/S - 1/T) / (1 - 1/T)), and the speedup it predicts on more "
        "cores, 1 / (e + (1 - e) / P). It assumes the parallel part keeps scaling and memory "
        "bandwidth does not run out, so it is an upper bound on what more cores give.",
        "",
        "| scene | N | backend | threads | speedup | serial fraction | "
        + " | ".join(f"predicted on {p} cores" for p in PREDICT_CORES) + " |",
        "|---" * (6 + len(PREDICT_CORES)) + "|",
    ]
    for (backend, scene, n), by_t in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        most = max((t for t in by_t if isinstance(t, int) and t > 1), default=None)
        if most is None:
            continue
        s = speedup_of(by_t, most)
        e = serial_fraction(s, most)
        if e is not None and e >= 1.0:  # no speedup: nothing to extrapolate
            e_text, predicted = "– (no speedup)", ["–"] * len(PREDICT_CORES)
        else:
            e_text = "–" if e is None else f"{100 * max(e, 0.0):.1f}%"
            predicted = [times(amdahl(max(e, 0.0), p) if e is not None else None) for p in PREDICT_CORES]
        lines.append(f"| {scene} | {n} | {backend} | {most} | {times(s)} | {e_text} | "
                     + " | ".join(predicted) + " |")
    lines.append("")
    return lines
