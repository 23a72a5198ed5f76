#!/usr/bin/python3
"""Turns Google Benchmark JSON from `make bench` into results/REPORT.md and results/plots/.

Usage: scripts/report.py [--results DIR] [--input FILE ...]

Without --input, takes the newest results/<machine>/*.json of every machine (newest first by
file name, which starts with the UTC date). Benchmark names are family/variant/backend/scene/N
(DESIGN.md 5). Every ratio in the report comes from one run (one JSON file): backends are
compared only with the scalar backend measured in the same process, minutes apart at most.
Runs with Debian's /usr/bin/python3 and python3-matplotlib.
"""
import argparse
import glob
import json
import os
import sys

from report_broadphase import broadphase_section
from report_peers import peers_section
from report_dynamics import dynamics_section
from report_pixels import pixels_section
from report_sweep import sweep_section
from report_util import fmt, human_items, plt, save_figure, series_style, times, verdict

# The targets of the benchmark issue: (family, variant, scene, N, backend, minimum speedup).
TARGETS = [
    ("aabb2", "soa", "uniform", 4096, "avx2", 6.0),
    ("aabb2", "soa", "uniform", 4096, "avx512", 10.0),
    ("aabb2", "soa", "fixed", 4096, "avx2", 6.0),
    ("aabb2", "soa", "fixed", 4096, "avx512", 10.0),
    ("mtd", "batch", "uniform", 4096, "avx2", 4.0),
    ("sprite", "count", "noise50", 256, "avx2", 6.0),
    ("sprite", "count", "noise50", 256, "avx512", 10.0),
    ("sweep", "spheres", "uniform", 4096, "avx2", 5.0),
    ("sweep", "spheres", "uniform", 4096, "avx512", 8.0),
]
ABSOLUTE_TARGETS = [  # max TSC cycles per box
    ("aabb2", "soa", "uniform", 4096, "avx512", 0.3),
    ("aabb2", "soa", "fixed", 4096, "avx512", 0.3),
]

# Families with pixels as items (side = argument), and families reported in their own section
# only (report_broadphase.py, report_pixels.py, report_dynamics.py) rather than per backend.
PIXEL_FAMILIES = ("sprite", "mask")
SEPARATE_SECTIONS = ("broadphase", "move", "sim", "circlestat", "sweepstat")



def cycles(table, key, backend, n):
    try:
        return table[key][backend][n]["tsc_cycles_per_item"]
    except KeyError:
        return None


def shortfall_note(table, family, variant, scene, backend):
    """Why a target was missed, from this run's own numbers (None when they do not tell)."""
    if (family, scene) == ("aabb2", "fixed"):
        fixed = cycles(table, ("aabb2", "soa", "fixed"), "scalar", 4096)
        uniform = cycles(table, ("aabb2", "soa", "uniform"), "scalar", 4096)
        if fixed is None or uniform is None or fixed >= uniform:
            return None
        text = (f"the `fixed` scene repeats one query, and the scalar baseline runs at {fmt(fixed, 3)} "
                f"TSC cycles per box there against {fmt(uniform, 3)} in the `uniform` scene, where the "
                "query moves: the branch predictor learns the scalar loop's outcomes by heart, which "
                "inflates the baseline, not the SIMD kernel's cost.")
        small = {b: cycles(table, ("aabb2", "soa", "fixed"), b, 1024) for b in ("avx2", "avx512")}
        if None not in small.values() and small["avx512"] >= 0.9 * small["avx2"]:
            text += (f" At 1024 boxes (in L1) avx512 takes {fmt(small['avx512'], 3)} cycles per box and "
                     f"avx2 {fmt(small['avx2'], 3)}: the kernel is bound by loads (16 bytes per box), "
                     "not by vector width, on this machine.")
        return text
    if family == "mtd":
        return ("the batch takes boxes as arrays of structures and writes 12-byte `col_mtd` records, "
                "so most of its vector work is transposes and interleaves rather than arithmetic.")
    return None


def load_runs(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        runs.append((path, data))
    return runs


def complete_run(data):
    """A default or full run with no filter: the only kind that may replace REPORT.md."""
    ctx = data.get("context", {})
    return ctx.get("collide_suite") in ("default", "full") and ctx.get("collide_filter", "") in ("", ".", ".*")


def newest_per_machine(results_dir):
    """The newest complete run of every machine (results/<machine>/*.json; file names start with
    the UTC date). Runs under results/<machine>/partial/ are never taken."""
    paths = []
    for machine_dir in sorted(glob.glob(os.path.join(results_dir, "*"))):
        if not os.path.isdir(machine_dir) or os.path.basename(machine_dir) == "plots":
            continue
        for path in sorted(glob.glob(os.path.join(machine_dir, "*.json")), reverse=True):
            with open(path) as f:
                if complete_run(json.load(f)):
                    paths.append(path)
                    break
    return paths


def table_of(data):
    """{(family, variant, scene): {backend: {N: benchmark}}} from one run."""
    table = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "mean":
            continue
        name = b.get("run_name", b["name"])
        parts = name.split("/")
        if len(parts) == 6 and parts[5].startswith("iterations:"):
            parts = parts[:5]  # benchmarks with a fixed iteration count
        if len(parts) == 4 and parts[1].startswith("peer-"):
            parts.insert(2, "")  # peer engines: broadphase/peer-<engine>-<structure>/<scene>/N
        if len(parts) != 5:
            continue
        family, variant, backend, scene, n = parts
        table.setdefault((family, variant, scene), {}).setdefault(backend, {})[int(n)] = b
    return table


def backend_kinds(context):
    """{backend: kind} ("native", "reference", "compiler", "emulated", "user") as the run
    recorded it (collide_backend_kinds, parallel to collide_backends). Runs recorded before
    the kinds were: the built-in naming (scalar, autovec, "<native>-emu") gives them."""
    names = [b for b in context.get("collide_backends", "").split(",") if b]
    kinds = [k for k in context.get("collide_backend_kinds", "").split(",") if k]
    if len(kinds) == len(names):
        return dict(zip(names, kinds))
    legacy = {"scalar": "reference", "autovec": "compiler"}
    return {b: legacy.get(b, "emulated" if b.endswith("-emu") else "native") for b in names}


def backend_order(context, present):
    listed = context.get("collide_backends", "").split(",")
    order = [b for b in listed if b in present]
    return order + sorted(b for b in present if b not in order)


def speedup(table, key, backend, n):
    rows = table.get(key, {})
    try:
        return rows[backend][n]["items_per_second"] / rows["scalar"][n]["items_per_second"]
    except (KeyError, ZeroDivisionError):
        return None


def plot_family(table, key, order, kinds, out_dir, machine):
    rows = table[key]
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for i, backend in enumerate(b for b in order if b in rows):
        ns = sorted(rows[backend])
        ys = [rows[backend][n]["items_per_second"] for n in ns]
        style = series_style(i)
        if kinds.get(backend) == "emulated":
            style["linestyle"] = "--"
        elif kinds.get(backend) == "user":
            style["linestyle"] = ":"
        width = 2.4 if backend == "scalar" else 1.4
        ax.plot(ns, ys, markersize=4, linewidth=width, label=backend, **style)
    family, variant, scene = key
    items = "pixels" if family in PIXEL_FAMILIES else "objects"
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("side of the sprites (items = overlap pixels)" if family in PIXEL_FAMILIES else "N (objects)")
    ax.set_ylabel(f"{items} per second")
    ax.set_title(f"{family}/{variant} — scene {scene} — {machine}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return save_figure(fig, os.path.join(out_dir, f"{family}-{variant}-{scene}-throughput"))


def plot_speedups(table, order, kinds, out_dir, machine):
    """Horizontal bars, one group per kernel (labels on the y axis never overlap), native
    backends only (the emulated ones are compared in a table)."""
    picks = []
    for key in sorted(table, reverse=True):
        rows = table[key]
        if "scalar" not in rows or key[0] in SEPARATE_SECTIONS:
            continue
        sizes = sorted(rows["scalar"])
        n = 256 if key[0] in PIXEL_FAMILIES and 256 in sizes else (4096 if 4096 in sizes else sizes[-1])
        picks.append((key, n))
    backends = [b for b in order if kinds.get(b) not in ("reference", "emulated")]
    if not picks or not backends:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 1.0 + 0.32 * len(picks) * max(1, len(backends)) / 2))
    height = 0.8 / len(backends)
    for i, backend in enumerate(backends):
        values = [speedup(table, key, backend, n) or 0 for key, n in picks]
        ys = [j + (len(backends) - 1 - i) * height for j in range(len(picks))]
        ax.barh(ys, values, height, label=backend, color=series_style(i)["color"])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(picks))])
    ax.set_yticklabels([f"{k[0]}/{k[1]}/{k[2]}, {'side' if k[0] in PIXEL_FAMILIES else 'N'} {n}"
                        for k, n in picks], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("speedup over the scalar backend (same run; log scale)")
    ax.set_title(f"What each backend buys — {machine}")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, labels, fontsize=8, loc="lower right")
    return save_figure(fig, os.path.join(out_dir, "speedup"))


def report_run(path, data, out_dir, rel):
    ctx = data.get("context", {})
    machine = ctx.get("collide_machine", os.path.basename(os.path.dirname(path)))
    table = table_of(data)
    present = {b for rows in table.values() for b in rows}
    order = backend_order(ctx, present - {""})  # "": the peer engines' rows
    kinds = backend_kinds(ctx)
    lines = []
    caches = ", ".join(
        f"L{c['level']} {c['type'].lower()} {c['size'] // 1024} KiB"
        for c in ctx.get("caches", [])
        if c.get("type") in ("Data", "Unified")
    )
    lines += [
        f"## Machine `{machine}`",
        "",
        f"- Results file: `{os.path.relpath(path, rel)}` (suite `{ctx.get('collide_suite', '?')}`)",
        f"- Date: {ctx.get('date', '?')}; git revision `{ctx.get('collide_git_revision', '?')}`",
        f"- CPU: {ctx.get('collide_cpu_model', 'model not recorded')}, {ctx.get('num_cpus', '?')} logical "
        f"CPUs at {ctx.get('mhz_per_cpu', '?')} MHz" + (f"; {caches}" if caches else ""),
        f"- TSC: {ctx.get('collide_tsc_ghz', '?')} GHz (cycles below are TSC cycles, not core cycles)",
        f"- Compiler: {ctx.get('collide_compiler', '?')}; CFLAGS `{ctx.get('collide_cflags', '?')}` "
        "plus `-std=c11 -ffp-contract=off -fPIC -fno-semantic-interposition` (scalar: `-fno-tree-vectorize`; autovec: "
        "`-O3 -march=x86-64-v3`)",
        f"- Backends: {', '.join(order)} (default here: `{ctx.get('collide_default_backend', '?')}`)",
        f"- Google Benchmark library build: {ctx.get('library_build_type', '?')} (Debian's "
        "package; it only affects the harness, not the kernels)",
        "",
    ]

    lines += ["### Targets", "", "| kernel | N | backend | target | measured | |", "|---|---|---|---|---|---|"]
    notes = []
    for family, variant, scene, n, backend, need in TARGETS:
        got = speedup(table, (family, variant, scene), backend, n)
        lines.append(
            f"| {family}/{variant}/{scene} | {n} | {backend} | ≥ {need:g}x scalar | "
            f"{times(got)} | {verdict(got, got is not None and got >= need)} |"
        )
        if got is not None and got < need:
            note = shortfall_note(table, family, variant, scene, backend)
            if note:
                notes.append((f"{family}/{variant}/{scene} {backend}", note))
    for family, variant, scene, n, backend, limit in ABSOLUTE_TARGETS:
        got = cycles(table, (family, variant, scene), backend, n)
        lines.append(
            f"| {family}/{variant}/{scene} | {n} | {backend} | ≤ {limit:g} TSC cycles/item | "
            f"{fmt(got, 3)} | {verdict(got, got is not None and got <= limit)} |"
        )
    lines.append("")
    for title, text in notes:
        lines += [f"- **{title} shortfall**: {text}", ""]

    speedup_plot = plot_speedups(table, order, kinds, out_dir, machine)
    if speedup_plot:
        lines += [f"![speedup over scalar]({os.path.relpath(speedup_plot, rel)}.svg)", ""]

    for key in sorted(table):
        family, variant, scene = key
        if family in SEPARATE_SECTIONS:
            continue
        rows = table[key]
        sizes = sorted({n for b in rows.values() for n in b})
        cols = [b for b in order if b in rows]
        unit = "side (items = overlap pixels)" if family in PIXEL_FAMILIES else "N"
        plot = plot_family(table, key, order, kinds, out_dir, machine)
        lines += [
            f"### {family}/{variant} — scene `{scene}`",
            "",
            f"![throughput]({os.path.relpath(plot, rel)}.svg)",
            "",
            "Speedup over scalar (items per second ÷ scalar's, same run):",
            "",
            f"| {unit} | " + " | ".join(cols) + " |",
            "|---" * (len(cols) + 1) + "|",
        ]
        for n in sizes:
            lines.append(f"| {n} | " + " | ".join(times(speedup(table, key, b, n)) for b in cols) + " |")
        lines += [
            "",
            "TSC cycles per item (lower is better); the scalar column's items per second in brackets:",
            "",
            f"| {unit} | " + " | ".join(cols) + " |",
            "|---" * (len(cols) + 1) + "|",
        ]
        for n in sizes:
            cells = []
            for b in cols:
                bench = rows.get(b, {}).get(n)
                if bench is None:
                    cells.append("–")
                    continue
                cell = fmt(bench.get("tsc_cycles_per_item"), 3)
                if b == "scalar":
                    cell += f" ({human_items(bench['items_per_second'])}/s)"
                cells.append(cell)
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines.append("")

    lines += user_section(table, kinds)
    lines += comparisons(table, order, kinds)
    lines += pixels_section(table, out_dir, rel, machine)
    lines += dynamics_section(table, out_dir, rel, machine)
    lines += sweep_section(table, order)
    lines += broadphase_section(table, out_dir, rel, machine)
    lines += peers_section(table, ctx)
    return lines


def ratio_line(table, key_a, key_b, backend, n):
    try:
        a = table[key_a][backend][n]["items_per_second"]
        b = table[key_b][backend][n]["items_per_second"]
        return a / b
    except (KeyError, ZeroDivisionError):
        return None


def ratio_table(table, order, key_a, key_b, caption, unit):
    """Throughput of key_a ÷ key_b per backend and size, as Markdown lines (none if absent)."""
    if key_a not in table or key_b not in table:
        return []
    sizes = sorted({n for b in table[key_a].values() for n in b})
    cols = [b for b in order if b in table[key_a] and b in table[key_b]]
    lines = [caption, "", f"| {unit} | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for n in sizes:
        lines.append(f"| {n} | " + " | ".join(fmt(ratio_line(table, key_a, key_b, b, n)) for b in cols) + " |")
    return lines + [""]


def user_section(table, kinds):
    """Your own kernels (USER_KERNELS): each user backend's speedup over scalar and over our
    fastest built-in backend, and each user broadphase against our fastest algorithm, at the
    largest size both ran (same run)."""
    users = sorted(b for b, k in kinds.items() if k == "user")
    algorithms = sorted({key[1] for key in table if key[0] == "broadphase" and key[1].startswith("user:")})
    if not users and not algorithms:
        return []
    lines = ["### Your kernels", "",
             "Rows of user kernels brought in with `USER_KERNELS` (README, \"Fuzz and time your own "
             "kernel\"), against ours in the same run, at the largest size both ran:", "",
             "| kernel | yours | size | your items/s | ÷ scalar | ÷ our fastest |", "|---|---|---|---|---|---|"]
    for key in sorted(table):
        rows = table[key]
        for user in users:
            if user not in rows or "scalar" not in rows:
                continue
            ours = [b for b in rows if kinds.get(b) in ("native", "reference", "compiler")]
            common = sorted(set(rows[user]) & set(rows["scalar"]))
            if not common:
                continue
            n = common[-1]
            mine = rows[user][n]["items_per_second"]
            best = max((rows[b][n]["items_per_second"] for b in ours if n in rows[b]), default=None)
            lines.append(f"| {key[0]}/{key[1]}/{key[2]} | `{user}` | {n} | {human_items(mine)}/s | "
                         f"{times(mine / rows['scalar'][n]['items_per_second'])} | "
                         f"{times(mine / best) if best else '–'} |")
    for algorithm in algorithms:
        for key in sorted(k for k in table if k[0] == "broadphase" and k[1] == algorithm):
            scene = key[2]
            mine_rows = table[key].get("scalar", {})
            ours = {k: v for k, v in table.items()
                    if k[0] == "broadphase" and k[2] == scene and not k[1].startswith(("user:", "peer-", "paired-"))}
            sizes = sorted(n for n in mine_rows if any(n in r for v in ours.values() for r in v.values()))
            if not sizes:
                continue
            n = sizes[-1]
            mine = mine_rows[n]["items_per_second"]
            best = max(r[n]["items_per_second"] for v in ours.values() for r in v.values() if n in r)
            lines.append(f"| broadphase/{scene} | `{algorithm}` | {n} | {human_items(mine)}/s | – | "
                         f"{times(mine / best)} |")
    return lines + ["", "(÷ our fastest below 1: ours is faster by its inverse.)", ""]


def comparisons(table, order, kinds):
    lines = ["### Choices side by side", ""]
    lines += ratio_table(
        table, order, ("aabb2", "soa", "uniform"), ("aabb2", "aos", "uniform"),
        "Structure of arrays vs array of structures (2D query): SoA throughput ÷ AoS "
        "throughput, per backend (> 1: SoA is faster).", "N")
    # Native vs emulated (each native backend whose "-emu" twin ran), and the compiler's
    # auto-vectorization vs the reference and the hand-written SIMD, at one size per family.
    twins = [b for b in order if kinds.get(b) == "native" and kinds.get(b + "-emu") == "emulated"]
    compiler = next((b for b in order if kinds.get(b) == "compiler"), None)
    reference = next((b for b in order if kinds.get(b) == "reference"), "scalar")
    lines += [
        "Native vs SIMDe-emulated (native throughput ÷ emulated), hand-written SIMD vs the "
        f"compiler's auto-vectorization of the scalar source (`{compiler}` ÷ `{reference}`, and best "
        f"native ÷ `{compiler}`), at N = 4096 (sprites: side 256):",
        "",
        "| kernel | " + " | ".join(f"{b} ÷ emu" for b in twins)
        + f" | {compiler} ÷ {reference} | best SIMD ÷ {compiler} |",
        "|---" * (len(twins) + 3) + "|",
    ]
    for key in sorted(table):
        if key[0] in SEPARATE_SECTIONS:
            continue
        rows = table[key]
        n = 256 if key[0] in PIXEL_FAMILIES else 4096

        def ips(b):
            try:
                return rows[b][n]["items_per_second"]
            except KeyError:
                return None

        def div(a, b):
            return None if a is None or b is None or b == 0 else a / b

        natives = [ips(b) for b in order if kinds.get(b) == "native" and ips(b) is not None]
        best = max(natives) if natives else None
        lines.append(
            f"| {key[0]}/{key[1]}/{key[2]} | "
            + " | ".join(fmt(div(ips(b), ips(b + "-emu"))) for b in twins)
            + f" | {fmt(div(ips(compiler), ips(reference)))} | {fmt(div(best, ips(compiler)))} |"
        )
    lines.append("")
    lines += ratio_table(
        table, order, ("sprite", "first", "nohit"), ("sprite", "count", "nohit"),
        "Sprites, first-hit ÷ counting throughput when nothing collides (both must scan the "
        "whole overlap; first-hit skips the popcount):", "side")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default="results", help="folder of results/<machine>/*.json")
    parser.add_argument("--input", nargs="*", help="these JSON files instead of the newest complete runs")
    parser.add_argument("--output", help="the report to write (default: RESULTS/REPORT.md)")
    parser.add_argument("--plots", help="folder for its plots (default: RESULTS/plots)")
    args = parser.parse_args()
    paths = args.input or newest_per_machine(args.results)
    if not paths:
        print(f"report: no complete default or full run under {args.results}/<machine>/ yet: "
              "run `make bench`", file=sys.stderr)
        return 1
    report = args.output or os.path.join(args.results, "REPORT.md")
    out_dir = args.plots or os.path.join(args.results, "plots")
    rel = os.path.dirname(report) or "."
    os.makedirs(out_dir, exist_ok=True)
    runs = load_runs(paths)
    partial = [p for p, d in runs if not complete_run(d)]
    lines = [
        "# collide benchmark report",
        "",
        "Generated by `make bench` / `make report` (scripts/report.py) from Google Benchmark JSON. "
        "Do not edit by hand.",
        "",
    ]
    if partial:
        lines += [
            "This report comes from a quick or filtered run: only what ran is shown, and targets "
            "whose benchmarks did not run read \"not measured\". The full picture is in "
            "results/REPORT.md (a complete default or full run).",
            "",
        ]
    lines += [
        "How to read it: *items* are boxes (AABB query), box pairs (MTD), spheres (sweep), "
        "pixels (sprites and masks: the overlap's pixels per call), moves (movement), circle "
        "pairs (circle, elastic) or objects per frame (simulations). A speedup is a backend's items per second divided by "
        "the `scalar` backend's, both from the same run. `-emu` backends are the same SIMD "
        "source built with SIMDe's portable C (`SIMDE_NO_NATIVE`); `autovec` is the scalar "
        "source left to the compiler's auto-vectorizer. TSC cycles per item come from `rdtsc` "
        "around the timed loop. Sizes run from L1-resident to main memory (16 bytes per 2D box: "
        "4096 boxes = 64 KiB, 1M boxes = 16 MiB). collide's kernels come from five "
        "game-programming articles (XNA, GameMaker and Flash tutorials); \"the article's loop\" "
        "or \"test\" below is that source's own code, reproduced bit for bit.",
        "",
    ]
    for path, data in runs:
        lines += report_run(path, data, out_dir, rel)
    os.makedirs(rel, exist_ok=True)
    tmp = report + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, report)
    print(f"report: wrote {report} and {out_dir}/ from {len(paths)} run(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
