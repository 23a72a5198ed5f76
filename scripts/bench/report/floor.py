"""The memory floor of the box-pruning scenes in a machine's report (called by broadphase.py):
our fastest sweep and prune over the floor rows of the same run (bench/bench_floor.c: the
boxes read once and the scene's pairs written once, with non-temporal or plain stores), the
floor targets, and the published box-pruning series beside ours (data.PUBLISHED_BOXPRUNE)."""
from .data import FLOOR_TARGETS, PUBLISHED_BOXPRUNE, PUBLISHED_BOXPRUNE_SOURCE

SCENES = ("boxprune2d", "boxprune3d")


def fastest(table, variant, scene, n):
    """(K-cycles, "<variant>/<backend>", bench) of the fastest backend of a broadphase variant
    on the scene at N, or (None, None, None)."""
    rows = [(b["kcycles_per_run"], f"{variant}/{backend}", b)
            for backend, by_n in table.get(("broadphase", variant, scene), {}).items()
            for m, b in by_n.items() if m == n and b.get("kcycles_per_run")]
    return min(rows, key=lambda r: r[0], default=(None, None, None))


def ours_sap(table, scene, n):
    """Our fastest sweep and prune from scratch on the scene at N (fastest's triple)."""
    return fastest(table, "sap", scene, n)


def floor_row(table, scene, n, stores):
    """The floor row of the scene at N with these stores ("nt" or "plain"), or None."""
    return table.get(("broadphase", f"floor-{stores}", scene), {}).get("", {}).get(n)


def times_floor(table, scene, n, stores="nt"):
    """Ours over the floor (our fastest sweep and prune's K-cycles ÷ the floor row's), or None."""
    ours = ours_sap(table, scene, n)[0]
    floor = floor_row(table, scene, n, stores)
    if ours is None or floor is None or not floor.get("kcycles_per_run"):
        return None
    return ours / floor["kcycles_per_run"]


def floor_targets(table):
    """The floor targets' rows for the broadphase study's table of targets."""
    lines = []
    for scene, n, most in FLOOR_TARGETS:
        goal = f"{scene}, {n:,} boxes: ours ≤ {most:g}x the floor (non-temporal stores)"
        k = times_floor(table, scene, n)
        if k is None:
            lines.append(f"| {goal} | – | not measured |")
            continue
        ours, label, _ = ours_sap(table, scene, n)
        floor = floor_row(table, scene, n, "nt")["kcycles_per_run"]
        lines.append(f"| {goal} | ours = {k:.2f}x the floor: {label} {ours:,.0f} K vs "
                     f"{floor:,.0f} K | {'met' if k <= most else 'missed'} |")
    return lines


def _published_cell(ours, pairs, n):
    published = PUBLISHED_BOXPRUNE.get(n)
    if published is None:
        return "–"
    kcycles, published_pairs = published
    cell = f"{kcycles:,} K"
    if pairs is not None and int(pairs) != published_pairs:
        return cell + f" (its {published_pairs:,} pairs, {int(pairs):,} here: not the same scene)"
    if ours:
        cell += f" (ours {kcycles / ours:.2f}x faster)" if kcycles >= ours else f" ({ours / kcycles:.2f}x ours)"
    return cell


def _streamed_cell(table, scene, n, nt):
    """Our fastest streamed sweep and prune (col_broadphase_pairs_stream: the pairs handed over
    in cached batches, never written as a list) and its ratio to the non-temporal floor."""
    kcycles, label, _ = fastest(table, "sap-stream", scene, n)
    if kcycles is None:
        return "–"
    cell = f"{kcycles:,.0f} K ({label})"
    if nt and nt.get("kcycles_per_run"):
        cell += f", {kcycles / nt['kcycles_per_run']:.2f}x"
    return cell


def floor_section(table):
    """For each box-pruning scene and size: ours, the two floors, ours = k x the floor, and
    (3D) the published figure on another CPU."""
    sizes = {scene: sorted({n for key, rows in table.items()
                            if key[0] == "broadphase" and key[2] == scene
                            and key[1] in ("sap", "sap-stream", "floor-nt", "floor-plain")
                            for by_n in rows.values() for n in by_n}) for scene in SCENES}
    if not any(sizes.values()):
        return []
    lines = ["#### The memory floor of the box-pruning scenes", "",
             "The floor: the boxes read once and the scene's exact pairs written once as 8-byte "
             "records, nothing tested (`broadphase/floor-nt` with non-temporal stores, "
             "`broadphase/floor-plain` with plain ones), in this run. Ours = our fastest sweep "
             "and prune; \"ours = k x the floor\" is its K-cycles over the floor's, so 1x would "
             "be a broadphase that costs no more than its output. Where the pairs fit in the "
             "caches (10,000 boxes; 100,000 in 3D, 9 MB of pairs, where the last-level cache "
             "holds them) plain stores can beat non-temporal ones, which go to memory. "
             "Streamed: the same sweep with its pairs handed to a sink in batches of 4,096 that "
             "stay in the cache (`col_broadphase_pairs_stream`), never written as a list: for "
             "outputs larger than the caches; the goals read the list. Published: on another "
             "CPU, never a target.",
             "",
             "| scene | boxes | pairs | ours | floor, non-temporal | floor, plain | "
             "ours = k x the floor (non-temporal) | k x plain | ours streamed (k x the floor, non-temporal) | "
             "published, on another CPU (i7-6850K) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    labels = set()
    for scene in SCENES:
        for n in sizes[scene]:
            ours, label, b = ours_sap(table, scene, n)
            nt, plain = floor_row(table, scene, n, "nt"), floor_row(table, scene, n, "plain")
            pairs = b["pairs"] if b and "pairs" in b else (nt or plain or {}).get("pairs")
            k_nt, k_plain = times_floor(table, scene, n, "nt"), times_floor(table, scene, n, "plain")
            if nt is not None and nt.get("label"):
                labels.add(nt["label"])
            cells = [scene, f"{n:,}", f"{int(pairs):,}" if pairs is not None else "–",
                     f"{ours:,.0f} K ({label})" if ours else "–",
                     f"{nt['kcycles_per_run']:,.0f} K" if nt else "–",
                     f"{plain['kcycles_per_run']:,.0f} K" if plain else "–",
                     f"{k_nt:.2f}x" if k_nt is not None else "–",
                     f"{k_plain:.2f}x" if k_plain is not None else "–",
                     _streamed_cell(table, scene, n, nt),
                     _published_cell(ours, pairs, n) if scene == "boxprune3d" else "–"]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"Published: {PUBLISHED_BOXPRUNE_SOURCE}; the same scene (its generator, "
              "`bench/bench_scenes.h`) with the same pair counts (a row whose pairs differ says "
              "so), its K-cycles against our TSC K-cycles: a ratio across two CPUs is a rough "
              "guide only.", ""]
    if labels:
        lines += ["The non-temporal row's stores on this machine: " + "; ".join(sorted(labels)) + ".", ""]
    return lines
