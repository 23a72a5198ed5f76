"""Which machine each run was made on, and the runs side by side (write.py): one column per
machine with its CPU's identity, every target and the headline speedups."""
import os
import re
import subprocess

from .data import (ABSOLUTE_TARGETS, HEADLINES, TARGETS, backend_kinds, cycles, family_kinds, pixels,
                   run_name, speedup, table_of)
from .util import fmt, times, verdict

def machine_labels(runs):
    """One label per run: its machine's name (collide_machine, else its folder), with the file
    name added where two runs share a machine."""
    names = [d.get("context", {}).get("collide_machine") or os.path.basename(os.path.dirname(os.path.abspath(p)))
             for p, d in runs]
    return [n if names.count(n) == 1 else f"{n} ({run_name(p)})"
            for n, (p, _) in zip(names, runs)]


def cpu_identity(ctx):
    """Vendor, family, model, stepping and microcode as the run recorded them, or None for runs
    made before the identity was recorded."""
    if "collide_cpu_family" not in ctx:
        return None
    return (f"{ctx.get('collide_cpu_vendor') or '?'} family {ctx.get('collide_cpu_family') or '?'} model "
            f"{ctx.get('collide_cpu_model_number') or '?'} stepping {ctx.get('collide_cpu_stepping') or '?'}, "
            f"microcode {ctx.get('collide_cpu_microcode') or '?'}")


LOAD_SPREAD = 0.10  # the scene rows' median spread past which a run is called noisy


def load_figures(data):
    """The load averages (1, 5, 15 minutes) at the run's start (Google Benchmark's load_avg) and
    end (collide_load_avg_end, added by bench.sh), the logical CPUs, and the median spread of
    the scene-file rows (their slowest walk over their fastest, less 1); None where not recorded."""
    ctx = data.get("context", {})
    start, end = ctx.get("load_avg"), ctx.get("collide_load_avg_end")
    spreads = sorted(b["kcycles_spread"] for b in data.get("benchmarks", []) if "kcycles_spread" in b)
    median = spreads[len(spreads) // 2] if spreads else None
    return (start[0] if start else None, end[0] if end else None, ctx.get("num_cpus"), median)


def load_warning(data):
    """Why this run's timings are not to be trusted, or None: a load average above the logical
    CPUs at its start or end (other work shared the machine), or scene rows whose repeated walks
    differ by more than LOAD_SPREAD in the median."""
    start, end, cpus, median = load_figures(data)
    why = []
    busiest = max((x for x in (start, end) if x is not None), default=None)
    if busiest is not None and cpus and busiest > cpus:
        why.append(f"the load average reached {busiest:.1f} on {cpus} logical CPUs")
    if median is not None and median > LOAD_SPREAD:
        why.append(f"the scene rows' repeated walks differ by {100 * median:.0f}% in the median "
                   f"(more than {100 * LOAD_SPREAD:.0f}%)")
    if not why:
        return None
    return ("other work shared the machine: " + " and ".join(why) + "; its ratios are noisy, so "
            "run again on a quiet machine before trusting a margin")


def load_text(data):
    """One line: the load at the start and end and the scene rows' median spread."""
    start, end, cpus, median = load_figures(data)
    parts = [f"{start:.2f} at the start" if start is not None else "not recorded at the start",
             f"{end:.2f} at the end" if end is not None else "not recorded at the end"]
    text = ("load average not recorded" if start is None and end is None else
            "load average " + ", ".join(parts) + f" on {cpus or '?'} logical CPUs")
    if median is not None:
        text += f"; scene rows' median spread {100 * median:.1f}%"
    return text


def revision_text(ctx):
    rev = ctx.get("collide_git_revision", "?")
    return f"`{rev}`" + (" (built from uncommitted changes)" if rev.endswith("-dirty") else "")


def uncommitted_changes():
    """None when the tree the report is written from has no uncommitted changes to tracked files
    outside results/, else what git says (or why git could not tell)."""
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                              ":(exclude)results"], cwd=root, capture_output=True, text=True)
    except OSError as e:
        return f"git could not be run: {e}"
    if out.returncode != 0:
        return f"git could not tell: {out.stderr.strip()}"
    changed = [line[3:] for line in out.stdout.splitlines() if line.strip()]
    return ", ".join(changed) if changed else None


def best_native(table, kinds, key, n):
    """The fastest native backend's speedup over scalar at N, and its name (None, None if none ran)."""
    best = (None, None)
    for backend in table.get(key, {}):
        got = speedup(table, key, backend, n) if kinds.get(backend) == "native" else None
        if got is not None and (best[0] is None or got > best[0]):
            best = (got, backend)
    return best


def machines_section(runs, labels, reports=None):
    """The runs side by side: one column per machine, its CPU, then every target and the headline
    speedups (each from that machine's own run). reports: each run's full report (links, one
    per run), when the runs' sections are not on the same page."""
    tables = [table_of(d) for _, d in runs]
    ctxs = [d.get("context", {}) for _, d in runs]
    kinds = [backend_kinds(c) for c in ctxs]
    families = [family_kinds(c) for c in ctxs]

    def row(title, cells):
        return f"| {title} | " + " | ".join(cells) + " |"

    where = "its full report linked in the table" if reports else "its own section below"
    lines = ["## Machines side by side", "",
             f"Each column is one machine's run ({where}); every ratio is within that run.", "",
             "| | " + " | ".join(f"`{label}`" for label in labels) + " |", "|---" * (len(labels) + 1) + "|"]
    if reports:
        lines.append(row("full report", [f"[{link}]({link})" for link in reports]))
        lines.append(row("results file", [f"`{os.path.basename(p)}`" for p, _ in runs]))
    lines.append(row("CPU", [c.get("collide_cpu_model", "not recorded") for c in ctxs]))
    lines.append(row("CPU identity", [cpu_identity(c) or "not recorded" for c in ctxs]))
    lines.append(row("TSC, logical CPUs", [f"{c.get('collide_tsc_ghz', '?')} GHz, {c.get('num_cpus', '?')}" for c in ctxs]))
    lines.append(row("run", [f"{c.get('date', '?')[:10]}, {revision_text(c)}, suite `{c.get('collide_suite', '?')}`"
                             for c in ctxs]))
    lines.append(row("load", [load_text(d) + (" **(noisy)**" if load_warning(d) else "") for _, d in runs]))
    for family, variant, scene, n, backend, need in TARGETS:
        cells = []
        for table, ctx in zip(tables, ctxs):
            got = speedup(table, (family, variant, scene), backend, n)
            cells.append(f"{times(got)} {verdict(got, got is not None and got >= need)}" if got is not None
                         else verdict(None, False, ctx, backend))
        lines.append(row(f"target: {family}/{variant}/{scene} {n}, {backend} ≥ {need:g}x scalar", cells))
    for family, variant, scene, n, backend, limit in ABSOLUTE_TARGETS:
        cells = []
        for table, ctx in zip(tables, ctxs):
            got = cycles(table, (family, variant, scene), backend, n)
            cells.append(f"{fmt(got, 3)} {verdict(got, got is not None and got <= limit)}" if got is not None
                         else verdict(None, False, ctx, backend))
        lines.append(row(f"target: {family}/{variant}/{scene} {n}, {backend} ≤ {limit:g} TSC cycles/item", cells))
    for family, variant, scene, n in HEADLINES:
        cells = []
        for table, k in zip(tables, kinds):
            got, backend = best_native(table, k, (family, variant, scene), n)
            cells.append("–" if got is None else f"{times(got)} ({backend})")
        unit = "side" if any(pixels(f, family) for f in families) else "N"
        lines.append(row(f"fastest native ÷ scalar: {family}/{variant}/{scene}, {unit} {n}", cells))
    return lines + [""]


def proven_lines():
    """Where the backends were proven to give the scalar reference's results bit for bit, with
    the command that proves each: every row of scripts/check/cross-targets.list (the one list,
    read by its one parser); the timings are native only (collide-bench refuses to run under
    emulation)."""
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "check", "cross_targets.py")
    spec = importlib.util.spec_from_file_location("cross_targets", path)
    targets = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(targets)
    return targets.proven_lines() + [
        "Timings come from native runs only (the machines below): the benchmark binary refuses to "
        "run under emulation.",
        "",
    ]


def plot_folder(label):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-") or "machine"
