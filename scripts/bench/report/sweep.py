"""The segment-against-sphere section of a machine's report (called by run.py): the seed's
recipe against the robust variant, judged by the exact answer (the sweepstat rows: counters,
not timings), and what robustness costs per sphere on every backend (sweep/spheres vs
sweep/spheres-robust in the same run)."""
import re

from .util import fmt, times

SIZE = 4096  # spheres per segment for the cost table


def _pct(x):
    if x is None:
        return "–"
    return "0" if x == 0 else f"{100 * x:.3f}"


def _metres(x):
    if x is None:
        return "–"
    if x == 0:
        return "0"
    if x >= 1:
        return f"{x:.2f} m"
    if x >= 1e-3:
        return f"{1e3 * x:.2f} mm"
    return f"{1e6 * x:.1f} µm"


def _study_rows(table, scene, label, first_column):
    rows = table.get(("sweepstat", scene, label), {}).get("scalar", {})
    out = []
    for d in sorted(rows):
        b = rows[d]
        out.append(
            f"| {first_column(d)} | {_pct(b['recipe_wrong_fraction'])} "
            f"({_pct(b['recipe_false_hit_fraction'])} / {_pct(b['recipe_miss_fraction'])}) | "
            f"{_pct(b['robust_wrong_fraction'])} ({_pct(b['robust_false_hit_fraction'])} / "
            f"{_pct(b['robust_miss_fraction'])}) | {_metres(b['recipe_t_error_max'])} | "
            f"{_metres(b['robust_t_error_max'])} | {fmt(b['robust_band_max'])} | "
            f"{int(b['bound_violations'])} |")
    return out


UNITS = {"mm": 1e-3, "cm": 1e-2, "m": 1.0}


def _labels(table, kind):
    """The scenes the run has for one kind (bench_sweep_study.c's table names them r<radius> or
    m<mover radius>, e.g. r10cm, m2m), smallest first, with the radius as the table shows it."""
    found = []
    for (family, k, label) in table:
        m = re.fullmatch(r"[rm](\d+)(mm|cm|m)", label) if (family, k) == ("sweepstat", kind) else None
        if m:
            found.append((int(m.group(1)) * UNITS[m.group(2)], label, f"{m.group(1)} {m.group(2)}" if int(m.group(1)) else "0 (a point)"))
    return [(label, name) for _, label, name in sorted(found)]


HEADER = ("| {} | recipe wrong % (false hits / misses) | robust wrong % (false hits / misses) | "
          "recipe max t error | robust max t error | robust's worst wrong case, in u (D + r) | "
          "outside the bound |")


def _cost(table, order):
    recipe = table.get(("sweep", "spheres", "uniform"), {})
    robust = table.get(("sweep", "spheres-robust", "uniform"), {})
    lines = []
    for b in order:
        try:
            a = recipe[b][SIZE]["tsc_cycles_per_item"]
            c = robust[b][SIZE]["tsc_cycles_per_item"]
        except KeyError:
            continue
        lines.append(f"| {b} | {fmt(a, 3)} | {fmt(c, 3)} | {times(c / a)} |")
    if not lines:
        return []
    return ["What robustness costs: TSC cycles per sphere, one segment against "
            f"{SIZE:,} spheres (scene uniform), same run:", "",
            "| backend | recipe | robust | robust ÷ recipe |", "|---|---|---|---|"] + lines + [""]


def sweep_section(table, order):
    if not any(k[0] == "sweepstat" for k in table):
        return []
    lines = [
        "### Segment against sphere: the recipe far away, and the robust variant", "",
        "100,000 segments per row, each passing within twice the radius of the sphere's centre "
        "(offsets uniform over that disc), judged by the exact answer for the same float inputs "
        "(GMP rational arithmetic). Percent of segments decided wrongly; the t error is the "
        "largest |t - exact t| among segments both call a hit. The last two columns check the "
        "robust variant's documented bound: where it decides wrongly, how far the line passes "
        "from tangency in units of u (D + r) (the bound allows 32), and how many results fall "
        "outside the bound (must be 0).", "",
        "The seed's scene, per update: a bullet at 5000 km/h and 60 updates per second (23.15 m "
        "per update) fired from the origin at a bottle of radius 7.5 cm D metres away; the "
        "segment is the update that passes the bottle, so its start is never more than 23 m "
        "from it:", "",
        HEADER.format("bottle at"), "|---|---|---|---|---|---|---|",
    ]
    lines += _study_rows(table, "seed", "bottle", lambda d: f"{d:,} m")
    lines += ["", "One long segment from near the origin (a hit-scan, or a mover tested over "
              "many updates at once) at a sphere D metres away:", "",
              HEADER.format("radius, distance"), "|---|---|---|---|---|---|---|"]
    for label, name in _labels(table, "random"):
        lines += _study_rows(table, "random", label, lambda d, n=name: f"{n}, {d:,} m")
    lines += ["", "Large movers: a mover of radius m against the 7.5 cm bottle, swept as its "
              "centre against the bottle inflated by m (`col_sphere_inflate`), D metres away:",
              "", HEADER.format("mover, distance"), "|---|---|---|---|---|---|---|"]
    for label, name in _labels(table, "inflate"):
        lines += _study_rows(table, "inflate", label, lambda d, n=name: f"{n}, {d:,} m")
    lines.append("")
    return lines + _cost(table, order)
