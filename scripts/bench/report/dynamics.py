"""The dynamics section of a machine's report (called by run.py): the circle tests near
the boundary (the circle article's test vs the squared form vs the exact answer), and the two simulations per
frame, naive loop against broadphase-backed steps, with the object count where the broadphase
starts to pay."""
import os

from .util import finish_loglog, fmt, plt, series_style, times


def _algorithms(table, kind, scene):
    """The broadphase algorithms the run has simulation rows for (the benchmark walks the
    library's registry; nothing is listed here)."""
    found = {v[len(kind) + 1:] for (f, v, sc) in table if f == "sim" and sc == scene and v.startswith(kind + "-")}
    return sorted(found - {"naive"})

SIMS = (("balls", "uniform", "bouncing balls"), ("world", "platforms", "platformer world"))


def _boundary(table):
    rows = table.get(("circlestat", "boundary", "ulps16"), {}).get("scalar", {})
    if not rows:
        return []
    lines = ["### Circles: the article's test vs the squared form", "",
             "100,000 pairs per row with centre distance (r1 + r2)(1 + k 2^-24), |k| <= 16 (within "
             "16 float ulps of touching), radii 0.5-50, centres near 2^E; the exact answer is "
             "dx² + dy² < (r1 + r2)² in quad precision. Percent of pairs:", "",
             "| centres near | article ≠ squared | article wrong | squared wrong | article wrong by its box check |",
             "|---|---|---|---|---|"]
    for e in sorted(rows):
        b = rows[e]
        lines.append(f"| 2^{e} | {100 * b['disagree_fraction']:.2f} | {100 * b['seed_wrong_fraction']:.2f} | "
                     f"{100 * b['squared_wrong_fraction']:.2f} | {100 * b['box_decided_fraction']:.2f} |")
    return lines + [""]


def _sim(table, out_dir, rel, machine, kind, scene, title):
    naive = table.get(("sim", f"{kind}-naive", scene), {}).get("scalar", {})
    algorithms = _algorithms(table, kind, scene)
    series = {}  # label -> {N: kcycles}
    for alg in algorithms:
        for backend, by_n in table.get(("sim", f"{kind}-{alg}", scene), {}).items():
            series[f"{alg}/{backend}"] = {n: b["kcycles_per_frame"] for n, b in by_n.items()}
    if not naive and not series:
        return []
    sizes = sorted(set(naive) | {n for s in series.values() for n in s})
    lines = [f"### Simulation: {title}, per frame", "",
             "Native backends only (the naive loop uses none: it runs the single-pair reference)" +
             (f"; the quadratic naive loop and brute-force broadphase stop at {max(naive):,} objects "
              "in this run's suite." if naive else "."), "",
             "K TSC cycles per frame (lower is better); the naive loop is the article's double loop "
             "(scalar), each broadphase column its best native backend; speedup = naive ÷ best "
             "broadphase; wild = objects per frame that moved past their margin.", "",
             "| N | naive | " + " | ".join(algorithms) + " | speedup | tests/frame naive → best | wild/frame |",
             "|---" * (len(algorithms) + 5) + "|"]
    crossover, speedups = None, []
    for n in sizes:
        nv = naive.get(n)
        cells, best = [], None
        for alg in algorithms:
            options = [(s[n], label) for label, s in series.items() if label.startswith(alg + "/") and n in s]
            if options:
                value, label = min(options)
                cells.append(f"{fmt(value, 1)} ({label.split('/')[1]})")
                if best is None or value < best[0]:
                    best = (value, label)
            else:
                cells.append("–")
        nv_k = nv["kcycles_per_frame"] if nv else None
        speed = nv_k / best[0] if nv_k and best else None
        if speed is not None:
            speedups.append((n, speed))
        tests, falls = "–", "–"
        if best:
            alg, backend = best[1].split("/")
            bb = table[("sim", f"{kind}-{alg}", scene)][backend][n]
            tests = (f"{nv['tests_per_frame']:,.0f} → " if nv else "") + f"{bb['tests_per_frame']:,.0f}"
            falls = f"{bb['fallback_fraction']:.2f}"
        lines.append(f"| {n} | {fmt(nv_k, 1)} | " + " | ".join(cells) + f" | {times(speed)} | {tests} | {falls} |")
    # The smallest N from which the best broadphase wins at every larger N measured.
    for n, speed in reversed(speedups):
        if speed <= 1:
            break
        crossover = n
    lines += ["", f"The broadphase pays from N = {crossover} on (faster at every larger N measured)."
              if crossover else "The broadphase never paid in this run.", ""]
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    if naive:
        xs = sorted(naive)
        ax.plot(xs, [naive[x]["kcycles_per_frame"] for x in xs], "-", marker="o", markersize=3,
                linewidth=2.4, label="naive (scalar)")
    for alg in algorithms:
        best = {}
        for label, s in series.items():
            if label.startswith(alg + "/"):
                for n, v in s.items():
                    best[n] = min(best.get(n, v), v)
        if best:
            xs = sorted(best)
            ax.plot(xs, [best[x] for x in xs], markersize=4, label=f"{alg} (best backend)",
                    **series_style(algorithms.index(alg) + 1))
    plot = finish_loglog(fig, ax, os.path.join(out_dir, f"sim-{kind}"), "N (objects)",
                         "K TSC cycles per frame", f"{title}: per frame — {machine}")
    return lines + [f"![{kind}]({os.path.relpath(plot, rel)}.svg)", ""]


def dynamics_section(table, out_dir, rel, machine):
    lines = _boundary(table)
    for kind, scene, title in SIMS:
        lines += _sim(table, out_dir, rel, machine, kind, scene, title)
    return lines
