"""The pixel section of a machine's report (called by run.py): per-pixel sprite overlap
against 1-bit masks (scalar and SIMD, same scenes and sides, same run) with the mask target,
and the pixel-stepping movement, the GameMaker article's loop against the word-level version."""
import os

from .util import finish_loglog, fmt, plt, times, verdict

MASK_TARGET = (("count", "nohit"), 256, 20.0)  # mask SIMD >= 20x the per-pixel scalar loop


def _ips(table, family, variant, scene, backend, n):
    try:
        return table[(family, variant, scene)][backend][n]["items_per_second"]
    except KeyError:
        return None


def _best_simd(table, simd, family, variant, scene, n):
    found = [(_ips(table, family, variant, scene, b, n), b) for b in simd]
    found = [f for f in found if f[0] is not None]
    return max(found) if found else (None, None)


def _series(table, simd, variant, scene, sides):
    """The four contenders per side: per-pixel scalar and best SIMD, mask scalar and best SIMD."""
    rows = []
    for n in sides:
        base = _ips(table, "sprite", variant, scene, "scalar", n)
        pix_simd = _best_simd(table, simd, "sprite", variant, scene, n)
        mask_scalar = _ips(table, "mask", variant, scene, "scalar", n)
        mask_simd = _best_simd(table, simd, "mask", variant, scene, n)
        rows.append((n, base, pix_simd, mask_scalar, mask_simd))
    return rows


def _ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def _plot_masks(table, simd, variant, scene, sides, out_dir, machine):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    rows = _series(table, simd, variant, scene, sides)
    curves = [
        ("per-pixel scalar (the article's loop)", [r[1] for r in rows], "-"),
        ("per-pixel best SIMD", [r[2][0] for r in rows], "-"),
        ("mask scalar", [r[3] for r in rows], "--"),
        ("mask best SIMD", [r[4][0] for r in rows], "--"),
    ]
    for label, ys, style in curves:
        pts = [(n, y) for n, y in zip(sides, ys) if y]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, label=label)
    return finish_loglog(fig, ax, os.path.join(out_dir, f"pixels-{variant}-{scene}"),
                         "side of the sprites (items = overlap pixels)", "pixels per second",
                         f"sprite vs mask, {variant}/{scene} — {machine}")


def _cycles(table, family, variant, scene, backend, n):
    try:
        return table[(family, variant, scene)][backend][n]["tsc_cycles_per_item"]
    except KeyError:
        return None


def _mask_reading(table, sides):
    """How to read the tables, from this run's numbers only."""
    notes = []
    small, big = sides[0], next((n for n in sides if n >= 64), None)
    a = _cycles(table, "sprite", "count", "noise50", "scalar", small)
    b = _cycles(table, "sprite", "count", "noise50", "scalar", big) if big else None
    if a is not None and b is not None and big != small and a < 0.5 * b:
        notes.append(f"the per-pixel scalar loop takes {fmt(a, 3)} TSC cycles per pixel at side {small} "
                     f"but {fmt(b, 3)} at side {big}: with few small windows the branch predictor learns "
                     "the pixel patterns by heart, so the small sizes flatter the per-pixel loop")
    for n in sides:
        w512 = _ips(table, "mask", "count", "noise50", "avx512", n)
        w256 = _ips(table, "mask", "count", "noise50", "avx2", n)
        if w512 and w256 and w512 < w256:
            notes.append(f"on masks of side {n} avx512 runs at {fmt(w512 / w256)}x avx2's speed: a row of "
                         f"{n} pixels is {(n + 63) // 64} words, less than a 512-bit vector's 8, so the wider "
                         "vector mostly carries masked-off lanes")
            break
    first = _ips(table, "mask", "first", "noise50", "scalar", sides[-1])
    count = _ips(table, "mask", "count", "noise50", "scalar", sides[-1])
    if first and count and first > 4 * count:
        notes.append("in first/noise50 the first hit comes a few pixels in, so those rows measure "
                     "only each form's per-call cost")
    if not notes:
        return []
    return ["Reading these tables (this run): " + "; ".join(notes) + ".", ""]


def _mask_part(table, simd, out_dir, rel, machine):
    sides = sorted({n for key, rows in table.items() if key[0] == "mask" for b in rows.values() for n in b})
    if not sides:
        return []
    lines = ["### Pixel overlap: per-pixel alpha test vs 1-bit masks", "",
             "The same images, windows and overlaps for both forms (bench_pixels.c); the masks "
             "are the sprites thresholded once, outside the timed loop. Items are the overlap's "
             "pixels. Speedups are over the sprite article's per-pixel loop on the `scalar` backend, same "
             "run; \"best SIMD\" is the fastest native SIMD backend at that size.", ""]
    (variant, scene), n, need = MASK_TARGET
    base = _ips(table, "sprite", variant, scene, "scalar", n)
    lines += ["| target | backend | measured | |", "|---|---|---|---|"]
    present = [b for b in simd if b in table.get(("mask", variant, scene), {})] or ["any SIMD"]
    for b in present:
        got = _ratio(_ips(table, "mask", variant, scene, b, n), base)
        lines.append(f"| mask/{variant}/{scene} at {n}² ≥ {need:g}x the per-pixel scalar loop | "
                     f"{b} | {times(got)} | {verdict(got, got is not None and got >= need)} |")
    lines.append("")
    # The scenes both families ran (bench_pixels.c defines them), in name order.
    scenes = sorted(key[1:] for key in table if key[0] == "sprite" and ("mask",) + key[1:] in table)
    for variant, scene in scenes:
        plot = _plot_masks(table, simd, variant, scene, sides, out_dir, machine)
        lines += [f"#### {variant}/{scene}", "", f"![pixels]({os.path.relpath(plot, rel)}.svg)", "",
                  "| side | per-pixel scalar (TSC cycles/pixel) | per-pixel best SIMD | mask scalar | "
                  "mask best SIMD |", "|---|---|---|---|---|"]
        for n, base_ips, (pix_ips, pix_b), mask_ips, (msimd_ips, msimd_b) in _series(table, simd, variant, scene,
                                                                                    sides):
            try:
                cyc = table[("sprite", variant, scene)]["scalar"][n]["tsc_cycles_per_item"]
            except KeyError:
                cyc = None
            lines.append(
                f"| {n} | {fmt(cyc, 3)} | {times(_ratio(pix_ips, base_ips))} ({pix_b or '–'}) | "
                f"{times(_ratio(mask_ips, base_ips))} | {times(_ratio(msimd_ips, base_ips))} ({msimd_b or '–'}) |")
        lines.append("")
    lines += _mask_reading(table, sides)
    return lines


def _move_part(table, out_dir, rel, machine):
    ref = table.get(("move", "reference", "slopes"), {}).get("scalar", {})
    fast = table.get(("move", "fast", "slopes"), {}).get("scalar", {})
    speeds = sorted(set(ref) | set(fast))
    if not speeds:
        return []
    lines = ["### Pixel-stepping movement with slopes", "",
             "The GameMaker article's loop (`col_pixel_move_reference`: one box scan per test) "
             "against `col_pixel_move` (word-level row scans, identical results), per move of a "
             "16 x 24 actor with slope_max 2 on a generated 4096 x 512 level with slopes, walls, "
             "pits and platforms (bench_move.c). Speed is |vx| in pixels per step; every start "
             "is checked to end identically before timing.", "",
             "| speed (px) | pixels moved (mean) | reference (K TSC cycles/move) | fast (K TSC cycles/move) | fast ÷ reference speedup |",
             "|---|---|---|---|---|"]
    for s in speeds:
        r, f = ref.get(s), fast.get(s)
        rc = r["tsc_cycles_per_item"] / 1024 if r else None
        fc = f["tsc_cycles_per_item"] / 1024 if f else None
        moved = (r or f or {}).get("pixels_per_move")
        lines.append(f"| {s} | {fmt(moved, 1)} | {fmt(rc, 2)} | {fmt(fc, 3)} | {times(_ratio(rc, fc))} |")
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, rows in (("reference (the article's loop)", ref), ("fast (word scans)", fast)):
        xs = sorted(rows)
        if xs:
            ax.plot(xs, [rows[x]["tsc_cycles_per_item"] for x in xs], marker="o", markersize=3, label=label)
    plot = finish_loglog(fig, ax, os.path.join(out_dir, "move-slopes"), "speed (pixels per step)",
                         "TSC cycles per move", f"pixel-stepping movement — {machine}")
    return lines + ["", f"![movement]({os.path.relpath(plot, rel)}.svg)", ""]


def pixels_section(table, order, kinds, out_dir, rel, machine):
    """The pixel section; "best SIMD" is the fastest of the run's native backends (in `order`)."""
    simd = [b for b in order if kinds.get(b) == "native"]
    return _mask_part(table, simd, out_dir, rel, machine) + _move_part(table, out_dir, rel, machine)
