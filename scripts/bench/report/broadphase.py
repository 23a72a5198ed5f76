"""The broadphase study section of a machine's report (called by run.py): targets, the memory
floor of the box-pruning scenes with the published series beside ours (floor.py), time vs N
per algorithm and scene, working memory, crossovers with brute force."""
import os

from .data import NOT_OURS
from .floor import floor_section, floor_targets
from .peers import INEXACT
from .util import fmt, place_legend, plt, readable_log_axes, save_figure, series_style, verdict

BROADPHASE_TARGETS = {10000: 1200, 100000: 90000}  # K-cycles


def _best_per_algorithm(rows):
    """{algorithm: {N: K-cycles of its fastest backend}} from {"algorithm/backend": {N: bench}}."""
    best = {}
    for label, by_n in rows.items():
        algorithm = label.split("/")[0]
        for n, b in by_n.items():
            k = b["kcycles_per_run"]
            if n not in best.setdefault(algorithm, {}) or k < best[algorithm][n]:
                best[algorithm][n] = k
    return best


def _plot_scene(rows, peer_rows, scene, out_dir, machine):
    """One panel of our algorithms (best backend each), one of the peers (if any) beside it."""
    panels = 2 if peer_rows else 1
    fig, axes = plt.subplots(1, panels, figsize=(6.2 * panels, 4.8), sharey=True, squeeze=False)
    best = _best_per_algorithm(rows)
    ax = axes[0][0]
    for i, algorithm in enumerate(sorted(best)):
        ns = sorted(best[algorithm])
        ax.plot(ns, [best[algorithm][n] * 1000 for n in ns], markersize=4, label=algorithm, **series_style(i))
    ax.set_title(f"collide — {scene}")
    overall = {}
    for by_n in best.values():
        for n, k in by_n.items():
            overall[n] = min(k, overall.get(n, k))
    if peer_rows:
        ax = axes[0][1]
        ns = sorted(overall)
        ax.plot(ns, [overall[n] * 1000 for n in ns], color="black", marker="o", linewidth=2.4, label="collide (fastest)")
        for i, label in enumerate(sorted(peer_rows)):
            by_n = peer_rows[label]
            ns = sorted(by_n)
            name = label.replace("peer-", "") + (" (inexact)" if label in INEXACT else "")
            ax.plot(ns, [by_n[n]["kcycles_per_run"] * 1000 for n in ns], markersize=4,
                    label=name, **series_style(i))
        ax.set_title(f"peer engines — {scene}")
    for ax in axes[0]:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N (boxes)")
        readable_log_axes(ax)
        ax.grid(True, which="both", alpha=0.3)
        place_legend(ax, fontsize=7)
    axes[0][0].set_ylabel("TSC cycles per run (all pairs)")
    fig.suptitle(f"broadphase — {machine}", fontsize=10)
    return save_figure(fig, os.path.join(out_dir, f"broadphase-{scene}"))


def broadphase_section(table, out_dir, rel, machine):
    """Time vs N per algorithm, crossovers, savings, and the box-pruning figures."""
    runs = {}  # scene -> {label: {N: bench}}, ours
    peers = {}  # scene -> {label: {N: bench}}, the peer engines with their own pair stores
    for (family, algorithm, scene), rows in table.items():
        if family != "broadphase":
            continue
        for backend, by_n in rows.items():
            if algorithm.startswith("paired-"):  # ours beside an engine: "Peer engines"
                continue
            if algorithm.startswith("peer-"):  # peers: own-store rows in the plots only
                if not algorithm.endswith("-count"):
                    peers.setdefault(scene, {})[algorithm] = by_n
                continue
            if algorithm.startswith(NOT_OURS):  # the memory floor: floor_section
                continue
            runs.setdefault(scene, {})[f"{algorithm}/{backend}"] = by_n
    if not runs:
        return []
    lines = ["### Broadphase study", ""]

    def kcycles(b):
        return b.get("kcycles_per_run")

    # Targets first.
    lines += ["| target | measured | |", "|---|---|---|"]
    for n, limit in BROADPHASE_TARGETS.items():
        best = min(((kcycles(b), label) for label, by_n in runs.get("boxprune3d", {}).items()
                    for m, b in by_n.items() if m == n and kcycles(b)), default=(None, None))
        got = best[0]  # already K-cycles
        measured = f"{got:,.0f} K ({best[1]})" if got else "–"
        lines.append(f"| boxprune3d, {n:,} boxes: best ≤ {limit:,} K-cycles | {measured} | "
                     f"{verdict(got, got is not None and got <= limit)} |")
    uni = runs.get("uniform", {})
    brute_scalar = uni.get("brute/scalar", {}).get(10000)
    best_bp = min(((b["real_time"], label) for label, by_n in uni.items()
                   if not label.startswith("brute") for m, b in by_n.items() if m == 10000),
                  default=(None, None))
    ratio = brute_scalar["real_time"] / best_bp[0] if brute_scalar and best_bp[0] else None
    measured = f"{fmt(ratio, 0)}x ({best_bp[1]})" if ratio else "–"
    lines.append(f"| uniform, 10,000 boxes: best broadphase ≥ 100x scalar brute force | {measured} | "
                 f"{verdict(ratio, ratio is not None and ratio >= 100)} |")
    moving = runs.get("moving", {})
    ratios = []  # (ratio, incremental label, its from-scratch label)
    for label, by_n in moving.items():
        if "-incremental/" not in label or 8192 not in by_n:
            continue
        scratch_label = label.replace("-incremental", "")
        if 8192 in moving.get(scratch_label, {}):
            ratios.append((moving[scratch_label][8192]["kcycles_per_run"] / by_n[8192]["kcycles_per_run"],
                           label, scratch_label))
    if ratios:
        ratio, label, scratch_label = max(ratios)
        best_scratch = min((b[8192]["kcycles_per_run"], lab) for lab, b in moving.items()
                           if 8192 in b and "-incremental" not in lab)
        others = ", ".join(f"{lab} {r:.1f}x" for r, lab, _ in sorted(ratios, reverse=True))
        lines.append(f"| moving scene, 8,192 boxes: best incremental update ≥ 2x its from-scratch run | "
                     f"{ratio:.1f}x ({label} {moving[label][8192]['kcycles_per_run']:,.0f} K vs "
                     f"{scratch_label} {moving[scratch_label][8192]['kcycles_per_run']:,.0f} K per frame; "
                     f"all: {others}; fastest from scratch: {best_scratch[1]} {best_scratch[0]:,.0f} K) | "
                     f"{'met' if ratio >= 2 else 'missed'} |")
    else:
        lines.append("| moving scene, 8,192 boxes: best incremental update ≥ 2x its from-scratch run | – | "
                     "not measured |")
    lines += floor_targets(table)
    lines.append("")
    lines += floor_section(table)

    for scene in sorted(runs):
        labels = sorted(runs[scene])
        base = _plot_scene(runs[scene], peers.get(scene, {}), scene, out_dir, machine)
        sizes = sorted({n for by_n in runs[scene].values() for n in by_n})
        lines += [f"#### Scene `{scene}`", "", f"![broadphase {scene}]({os.path.relpath(base, rel)}.svg)", ""]
        lines += ["Left: each of our algorithms on its fastest backend at each N (the table below "
                  "has every backend). " + ("Right: the peer engines with their own pair stores "
                  "(tables in \"Peer engines\" below) and our fastest run for reference." if scene in peers
                  else ""), ""]
        lines += ["TSC K-cycles per run (pairs found / savings = 1 − tests ÷ N(N−1)/2 in brackets for N ≥ 1000):", "",
                  "| N | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
        for n in sizes:
            cells = []
            for label in labels:
                b = runs[scene][label].get(n)
                if b is None:
                    cells.append("–")
                    continue
                cell = fmt(b["kcycles_per_run"], 1)
                if n >= 1000:
                    cell += f" ({int(b['pairs'])} / {b['savings'] * 100:.2f}%)"
                cells.append(cell)
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines.append("")
        # Working memory at the largest size each algorithm ran.
        mem = []
        for label in labels:
            by_n = runs[scene][label]
            if by_n:
                n_max = max(by_n)
                b = by_n[n_max]
                if "scratch_bytes" in b:
                    mem.append(f"`{label}` {b['scratch_bytes'] / 2**20:.2f} MiB at N = {n_max}"
                               f" (+ {b.get('pair_list_bytes', 0) / 2**20:.2f} MiB of pairs)")
        if mem:
            lines += ["Peak working memory per run (`scratch_bytes`): " + "; ".join(mem) + ".", ""]
        # Crossover: the smallest N from which a broadphase beats the best brute force.
        brutes = [label for label in labels if label.startswith("brute")]
        if brutes:
            lines.append("Crossover with the fastest brute force (smallest N from which it is faster, "
                         "among the sizes measured with brute force):")
            lines.append("")
            for label in labels:
                if label in brutes:
                    continue
                cross = None
                for n in sizes:
                    times = [runs[scene][b][n]["kcycles_per_run"] for b in brutes if n in runs[scene][b]]
                    mine = runs[scene][label].get(n)
                    if times and mine and mine["kcycles_per_run"] < min(times):
                        cross = n
                        break
                lines.append(f"- `{label}`: {('N = ' + str(cross)) if cross else 'not within the measured sizes'}")
            lines.append("")
        if scene == "boxprune3d":
            lines += [BOXPRUNE_NOTE, ""]
    return lines


# Where sweep and prune's time goes is a profile of one machine on one day, not of this run:
# docs/tuning.md and docs/tuning-avx2.md keep those, dated and with their CPU.
BOXPRUNE_NOTE = ("Where sweep and prune's time goes, as profiled on a named CPU and date: "
                 "`docs/tuning.md` and `docs/tuning-avx2.md`.")
