"""One run's full section (write.py): its machine and run, the targets, the speedup plot, a
throughput plot and two tables per kernel and scene, then the sections of their own (pixels,
dynamics, sweep, broadphase, parallel, peers, kernel peers, scene files). Benchmark names are
family/variant/backend/scene/N (DESIGN.md 5). Every ratio comes from this one run: backends are
compared only with the scalar backend measured in the same process, minutes apart at most."""
import os

from .broadphase import broadphase_section
from .parallel import parallel_section
from .peers import peers_section
from .kernel_peers import kernel_peers_section
from .scenefiles import file_scene_names, scene_files_section
from .dynamics import dynamics_section
from .pixels import pixels_section
from .sweep import sweep_section
from . import util as report_util
from .data import (ABSOLUTE_TARGETS, TARGETS, backend_kinds, backend_order, cycles, family_kinds,
                   own_section, pixels, run_time, speedup, table_of)
from .choices import build_choices_section, comparisons, user_section
from .machines import cpu_identity, load_text, load_warning, revision_text
from .util import (fmt, human_items, place_legend, plt, readable_log_axes, save_figure, series_style,
                   times, verdict)


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


def run_time_lines(data):
    """The run's wall time and where it went (nothing for runs recorded before the benchmarks
    kept their wall time)."""
    spent = run_time(data)
    if spent is None:
        return []
    count, wall, timed, search, by_group = spent
    untimed = wall - timed - search
    worst = sorted(by_group.items(), key=lambda g: -g[1])[:3]
    return [
        f"- Run time: {clock(wall)} for {count} benchmarks: {100 * timed / wall:.0f}% in the timed "
        f"loops, {100 * search / wall:.0f}% in Google Benchmark's search for an iteration count, "
        f"{100 * untimed / wall:.0f}% untimed (scenes, warm-up calls, checks); most outside the "
        "timed loops: " + ", ".join(f"`{g}` {clock(s)}" for g, s in worst)
    ]


def clock(seconds):
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def plot_family(table, key, order, kinds, families, out_dir, machine):
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
    items = "pixels" if pixels(families, family) else "objects"
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("side of the sprites (items = overlap pixels)" if pixels(families, family) else "N (objects)")
    ax.set_ylabel(f"{items} per second")
    ax.set_title(f"{family}/{variant} — scene {scene} — {machine}")
    readable_log_axes(ax)
    ax.grid(True, which="both", alpha=0.3)
    place_legend(ax)
    return save_figure(fig, os.path.join(out_dir, f"{family}-{variant}-{scene}-throughput"))


def plot_speedups(table, order, kinds, families, out_dir, machine):
    """Horizontal bars, one group per kernel (labels on the y axis never overlap), native
    backends only (the emulated ones are compared in a table)."""
    picks = []
    for key in sorted(table, reverse=True):
        rows = table[key]
        if "scalar" not in rows or own_section(families, key[0]):
            continue
        sizes = sorted(rows["scalar"])
        n = 256 if pixels(families, key[0]) and 256 in sizes else (4096 if 4096 in sizes else sizes[-1])
        picks.append((key, n))
    backends = [b for b in order if kinds.get(b) not in ("reference", "emulated")]
    if not picks or not backends:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 1.0 + 0.32 * len(picks) * max(1, len(backends)) / 2))
    height = 0.8 / len(backends)
    measured = []
    for i, backend in enumerate(backends):
        # Bars start at 1.0x: a speedup goes right, a slowdown goes left of the line.
        bars = [(j + (len(backends) - 1 - i) * height, speedup(table, key, backend, n))
                for j, (key, n) in enumerate(picks)]
        bars = [(y, v) for y, v in bars if v is not None and v > 0]
        measured += [v for _, v in bars]
        ax.barh([y for y, _ in bars], [v - 1.0 for _, v in bars], height, left=1.0, label=backend,
                color=series_style(i)["color"])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(picks))])
    ax.set_yticklabels([f"{k[0]}/{k[1]}/{k[2]}, {'side' if pixels(families, k[0]) else 'N'} {n}"
                        for k, n in picks], fontsize=8)
    ax.set_xscale("log", base=2)
    low, high = min(measured + [1.0]), max(measured + [1.0])
    ax.set_xlim(min(low / 1.3, 0.8), high * 1.3)
    ax.xaxis.set_major_formatter(report_util.FuncFormatter(lambda x, _pos: f"{x:g}x"))
    ax.set_xlabel("speedup over the scalar backend (same run; log scale; left of 1x: slower)")
    ax.set_title(f"What each backend buys — {machine}")
    ax.grid(True, axis="x", which="major", alpha=0.3)
    place_legend(ax)
    return save_figure(fig, os.path.join(out_dir, "speedup"))


def report_run(path, data, out_dir, rel, machine):
    ctx = data.get("context", {})
    table = table_of(data)
    present = {b for rows in table.values() for b in rows}
    order = backend_order(ctx, present - {""})  # "": the peer engines' rows
    kinds = backend_kinds(ctx)
    families = family_kinds(ctx)
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
    ] + ([f"- **{ctx['collide_fixture']}**"] if "collide_fixture" in ctx else []) + [
        f"- Date: {ctx.get('date', '?')}; git revision {revision_text(ctx)}",
        f"- CPU: {ctx.get('collide_cpu_model', 'model not recorded')}, {ctx.get('num_cpus', '?')} logical "
        f"CPUs at {ctx.get('mhz_per_cpu', '?')} MHz" + (f"; {caches}" if caches else ""),
        f"- CPU identity: {cpu_identity(ctx) or 'not recorded (a run made before collide recorded family, model and stepping)'}",
        f"- TSC: {ctx.get('collide_tsc_ghz', '?')} GHz (cycles below are TSC cycles, not core cycles)",
        f"- Compiler: {ctx.get('collide_compiler', '?')}; CFLAGS `{ctx.get('collide_cflags', '?')}` "
        "plus `-std=c11 -ffp-contract=off -fPIC -fno-semantic-interposition` (scalar: `-fno-tree-vectorize`; autovec: "
        "`-O3 -march=x86-64-v3`)",
        f"- Backends: {', '.join(order)} (default here: `{ctx.get('collide_default_backend', '?')}`)",
        f"- Google Benchmark library build: {ctx.get('library_build_type', '?')} (Debian's "
        "package; it only affects the harness, not the kernels)",
    ] + run_time_lines(data) + [f"- Load: {load_text(data)}"] + (
        [f"- **Noisy run: {load_warning(data)}.**"] if load_warning(data) else []) + [
        "",
    ]

    lines += ["### Targets", "", "| kernel | N | backend | target | measured | |", "|---|---|---|---|---|---|"]
    notes = {}  # one explanation per kernel, naming every backend that missed
    for family, variant, scene, n, backend, need in TARGETS:
        got = speedup(table, (family, variant, scene), backend, n)
        lines.append(
            f"| {family}/{variant}/{scene} | {n} | {backend} | ≥ {need:g}x scalar | "
            f"{times(got)} | {verdict(got, got is not None and got >= need, ctx, backend)} |"
        )
        if got is not None and got < need:
            note = shortfall_note(table, family, variant, scene, backend)
            if note:
                notes.setdefault(f"{family}/{variant}/{scene}", (note, []))[1].append(backend)
    for family, variant, scene, n, backend, limit in ABSOLUTE_TARGETS:
        got = cycles(table, (family, variant, scene), backend, n)
        lines.append(
            f"| {family}/{variant}/{scene} | {n} | {backend} | ≤ {limit:g} TSC cycles/item | "
            f"{fmt(got, 3)} | {verdict(got, got is not None and got <= limit, ctx, backend)} |"
        )
    lines.append("")
    for kernel, (text, backends) in notes.items():
        lines += [f"- **{kernel} shortfall ({', '.join(backends)})**: {text}", ""]

    speedup_plot = plot_speedups(table, order, kinds, families, out_dir, machine)
    if speedup_plot:
        lines += [f"![speedup over scalar]({os.path.relpath(speedup_plot, rel)}.svg)", ""]

    for key in sorted(table):
        family, variant, scene = key
        if own_section(families, family):
            continue
        rows = table[key]
        sizes = sorted({n for b in rows.values() for n in b})
        cols = [b for b in order if b in rows]
        unit = "side (items = overlap pixels)" if pixels(families, family) else "N"
        plot = plot_family(table, key, order, kinds, families, out_dir, machine)
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
    lines += comparisons(table, order, kinds, families)
    lines += build_choices_section(path)
    lines += pixels_section(table, order, kinds, out_dir, rel, machine)
    lines += dynamics_section(table, out_dir, rel, machine)
    lines += sweep_section(table, order)
    # The scene files' rows have a section of their own (scenefiles.py), not the study's plots.
    files = file_scene_names(ctx)
    lines += broadphase_section({k: v for k, v in table.items() if k[2] not in files}, out_dir, rel,
                                machine)
    lines += parallel_section(data, path)
    lines += peers_section(table, ctx)
    lines += kernel_peers_section(table, ctx)
    lines += scene_files_section(data)
    return lines
