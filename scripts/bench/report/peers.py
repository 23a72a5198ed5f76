"""The peer-engine section of a machine's report (called by run.py): Bullet, Box2D, Chipmunk,
FCL and ODE broadphases measured in the same run as ours (bench/bench_peers.c), the targets of
ours against theirs, build and find separately, the pairs each engine reports vs the exact ones, and the
touch rule each engine showed on the probe boxes."""
import re

from .data import NOT_OURS

# (scene, N, factor over the fastest peer with its own store, factor over the fastest count-only);
# None: reported without a target (at 100,000 boxes the goals are against the memory floor,
# data.FLOOR_TARGETS, not against an engine).
PEER_TARGETS = [("boxprune3d", 10000, 40, 3), ("boxprune3d", 100000, None, 3),
                ("boxprune2d", 10000, 50, 2), ("boxprune2d", 100000, None, 2)]
MOVING_TARGET = ("moving", 8192, 5)
# (scene, N, TSC K-cycles per run our fastest sweep must stay within); uniform at 1,048,576 is
# reported without a bound.
ABSOLUTE_TARGETS = [("boxprune3d", 10000, 400), ("boxprune3d", 100000, 15000),
                    ("boxprune2d", 10000, 600), ("boxprune2d", 100000, 35000),
                    ("uniform", 1048576, None)]

# Structures that report wrong or miss exact pairs on some scene (README "Peer engines", pinned
# by the peer tests): their rows are shown, marked, and kept out of every target, including
# scenes where a run happened to miss nothing.
INEXACT = {
    "peer-fcl-sap": "misses pairs that only touch on an axis (box-pruning: 45 of 11,811 at 3D "
                    "10,000)",
    "peer-fcl-intervaltree": "misses pairs on every scene (touching and overlapping ones) and "
                             "reports non-overlapping ones",
    "peer-chipmunk-sweep1d": "misses pairs whose x intervals only touch (its sweep is strict)",
}
# Engines that are 3D only: their 2D rows are flat 3D boxes (z = [0, 0]).
THREE_D_ONLY = ("peer-bullet-", "peer-fcl-", "peer-ode-")


def _base(label):
    return label[:-len("-count")] if label.endswith("-count") else label


def _kc(b):
    return b["kcycles_per_run"]


def _ours_row(table, scene, n):
    """(K-cycles, label, bench) of our fastest broadphase on the scene at N (brute force
    excluded), or (None, None, None)."""
    best = []
    for (family, algorithm, sc), rows in table.items():
        if family != "broadphase" or sc != scene or algorithm.startswith(NOT_OURS + ("brute",)):
            continue
        for backend, by_n in rows.items():
            if n in by_n:
                best.append((_kc(by_n[n]), f"{algorithm}/{backend}", by_n[n]))
    return min(best, key=lambda r: r[0], default=(None, None, None))


def _ours(table, scene, n):
    """(K-cycles, label) of our fastest broadphase on the scene at N."""
    return _ours_row(table, scene, n)[:2]


def _peers(table, scene, n, count_only):
    """[(K-cycles, label, bench)] of the peer rows on the scene at N, fastest first (the
    targets then drop the rows that miss exact pairs: see _complete)."""
    rows = []
    for (family, algorithm, sc), by_backend in table.items():
        if family != "broadphase" or sc != scene or not algorithm.startswith("peer-"):
            continue
        if algorithm.endswith("-count") != count_only:
            continue
        b = by_backend.get("", {}).get(n)
        if b is not None:
            rows.append((_kc(b), algorithm, b))
    return sorted(rows, key=lambda r: r[0])


def _paired(table, scene, n):
    """[(ratio, peer label, our backend, bench)] of the paired benchmarks (ours and one engine
    interleaved block by block, bench_peers.c) on the scene at N, smallest ratio first: the
    first is the engine closest to us, measured on the same clock."""
    rows = []
    for (family, algorithm, sc), by_backend in table.items():
        if family != "broadphase" or sc != scene or not algorithm.startswith("paired-"):
            continue
        for backend, by_n in by_backend.items():
            b = by_n.get(n)
            if b is not None and "ratio" in b:
                rows.append((b["ratio"], "peer-" + algorithm[len("paired-"):], backend, b))
    return sorted(rows, key=lambda r: r[0])


def _complete(table, scene, n, label):
    """Does the own-store row of this structure find every exact pair at this size?"""
    own = _base(label)
    if own in INEXACT:
        return False
    b = table.get(("broadphase", own, scene), {}).get("", {}).get(n)
    return b is None or b.get("missed_pairs", 0) == 0


def peers_section(table, ctx):
    if not any(k[0] == "broadphase" and k[1].startswith("peer-") for k in table):
        return []
    lines = ["### Peer engines in the same run", "",
             "Each engine's broadphase on our scenes (bench/peers/, README \"Peer engines\"). "
             "From scratch = a fresh structure, every box inserted, then the engine's pair "
             "update; `-count` rows hand pairs to a store that only counts them. Ratios are ours "
             "over theirs in this run; rows that miss exact pairs are left out of the targets, "
             "as are the structures marked inexact below.", ""]
    present = {_base(a) for (f, a, _sc) in table if f == "broadphase" and a.startswith("peer-")}
    for label, why in INEXACT.items():
        if label in present:
            lines.append(f"- {label[len('peer-'):]} (inexact): {why}.")
    if any(label.startswith(THREE_D_ONLY) for label in present):
        lines.append("- Bullet, FCL and ODE are 3D libraries: their rows on 2D scenes run flat 3D "
                     "boxes (z = [0, 0]).")
    lines += ["",
             "| target | measured | |", "|---|---|---|"]
    for scene, n, own_factor, count_factor in PEER_TARGETS:
        ours, label = _ours(table, scene, n)
        for count_only, factor in ((False, own_factor), (True, count_factor)):
            rows = [r for r in _peers(table, scene, n, count_only) if _complete(table, scene, n, r[1])]
            kind = "count-only" if count_only else "as users run it"
            goal = (f"ours ≥ {factor}x the fastest peer ({kind})" if factor is not None
                    else f"ours over the fastest peer ({kind}), reported")
            if not ours or not rows:
                lines.append(f"| {scene}, {n:,}: {goal} | – | not measured |")
                continue
            peer_k, peer_label, _ = rows[0]
            ratio = peer_k / ours
            mark = "reported" if factor is None else ("met" if ratio >= factor else "missed")
            lines.append(f"| {scene}, {n:,}: {goal} | "
                         f"{ratio:.1f}x: {label} {ours:,.0f} K vs {peer_label} {peer_k:,.0f} K | {mark} |")
    scene, n, factor = MOVING_TARGET
    ours, label = _ours(table, scene, n)
    rows = [r for r in _peers(table, scene, n, False) + _peers(table, scene, n, True)
            if _complete(table, scene, n, r[1])]
    rows.sort(key=lambda r: r[0])
    paired = [r for r in _paired(table, scene, n) if _complete(table, scene, n, r[1])]
    if paired:
        ratio, peer_label, backend, b = paired[0]
        lines.append(f"| moving, {n:,} (10% move per frame): ours ≥ {factor}x the fastest peer per "
                     f"frame, interleaved in one benchmark | {ratio:.2f}x (fastest blocks; all blocks "
                     f"{b['ratio_of_sums']:.2f}x): ours ({backend}) {_kc(b):,.0f} K vs {peer_label} "
                     f"{b['peer_kcycles']:,.0f} K per frame | "
                     f"{'met' if ratio >= factor else 'missed'} |")
    if ours and rows:
        ratio = rows[0][0] / ours
        how = " (separate benchmarks)" if paired else ""
        verdict = "reported" if paired else ("met" if ratio >= factor else "missed")
        lines.append(f"| moving, {n:,} (10% move per frame): ours ≥ {factor}x the fastest peer per "
                     f"frame{how} | {ratio:.1f}x: {label} {ours:,.0f} K vs {rows[0][1]} {rows[0][0]:,.0f} K | "
                     f"{verdict} |")
    elif not paired:
        lines.append(f"| moving, {n:,} (10% move per frame): ours ≥ {factor}x the fastest peer per frame | – | "
                     "not measured |")
    for scene, n, bound in ABSOLUTE_TARGETS:
        ours, label, b = _ours_row(table, scene, n)
        goal = f"ours ≤ {bound:,} K per run" if bound else "ours, reported"
        if ours is None:
            lines.append(f"| {scene}, {n:,}: {goal} | – | not measured |")
            continue
        per_box = f"; {b['tests'] / n:.1f} candidate tests per box" if "tests" in b else ""
        verdict = ("met" if ours <= bound else "missed") if bound else "reported"
        lines.append(f"| {scene}, {n:,}: {goal} | {ours:,.0f} K ({label}{per_box}) | {verdict} |")
    lines.append("")

    for scene in ("boxprune3d", "boxprune2d", "moving", "uniform", "clustered"):
        sizes = sorted({n for (f, a, sc), rows in table.items() if f == "broadphase" and sc == scene
                        and a.startswith("peer-") for n in rows.get("", {})})
        sizes = [n for n in sizes if n >= 1000]
        if scene in ("uniform", "clustered"):  # every size is in the scene's plot
            sizes = sizes[-1:]
        if not sizes:
            continue
        moving = scene == "moving"
        lines += [f"#### Peers on `{scene}`", "",
                  ("TSC K-cycles per frame (update of the moved tenth and of the pairs); "
                   if moving else "TSC K-cycles per run, build + find; ") +
                  "pairs as the engine reports them, then after our closed-rule re-test (\"exact\"), "
                  "and exact pairs the engine missed:", "",
                  "| structure | N | K-cycles | " + ("" if moving else "build | find | ") +
                  "vs our best | reported pairs | exact | missed |",
                  "|---|---|---|" + ("" if moving else "---|---|") + "---|---|---|---|"]
        for n in sizes:
            ours, label = _ours(table, scene, n)
            if ours:
                lines.append(f"| **ours: {label}** | {n:,} | {ours:,.0f} | " +
                             ("" if moving else "| | ") + "1.0x | | | |")
            for count_only in (False, True):
                for k, peer_label, b in _peers(table, scene, n, count_only):
                    pairs = b.get("pairs")
                    inexact = _base(peer_label) in INEXACT or not _complete(table, scene, n,
                                                                            peer_label)
                    name = peer_label + (" (inexact)" if inexact else "")
                    if scene == "boxprune2d" and peer_label.startswith(THREE_D_ONLY):
                        name += " (flat 3D)"
                    cells = [name, f"{n:,}", f"{k:,.0f}"]
                    if not moving:
                        cells += [f"{b.get('build_kcycles', 0):,.0f}", f"{b.get('find_kcycles', 0):,.0f}"]
                    cells += [f"{k / ours:.1f}x slower" if ours else "–",
                              f"{int(b['engine_pairs']):,}",
                              f"{int(pairs):,}" if pairs is not None else "(count only)",
                              f"{int(b['missed_pairs']):,}" if "missed_pairs" in b else ""]
                    lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        paired = [(n, r) for n in sizes for r in _paired(table, scene, n)]
        if paired:
            lines += ["Paired: ours and one engine on two copies of the scene taking the same "
                      "frames, interleaved in blocks of 40 frames in one benchmark (our kept sweep "
                      "and prune told which boxes moved, on the backend a program gets by "
                      "default); the ratio is the engine's fastest block over ours, then over all "
                      "blocks:", "",
                      "| engine | N | ours, K per frame | engine, K per frame | fastest blocks | all blocks |",
                      "|---|---|---|---|---|---|"]
            for n, (ratio, peer_label, backend, b) in paired:
                lines.append(f"| {peer_label} | {n:,} | "
                             f"{_kc(b):,.0f} ({backend}) | {b['peer_kcycles']:,.0f} | "
                             f"{ratio:.2f}x | {b['ratio_of_sums']:.2f}x |")
            lines.append("")

    rules = ctx.get("peer_touch_rules", "")
    if rules:
        probes = []
        rows = []
        for line in rules.split("\n"):
            name, _, rest = line.partition(":")
            cells = re.findall(r"\s*([^=]+?)=(-?\d+),?", rest)  # probe names may hold commas
            if not probes:
                probes = [c[0] for c in cells]
            rows.append((name, [c[1] for c in cells]))
        lines += ["#### Touch rules as observed", "",
                  "Two boxes, A = [0, 1]², and B placed as the column says; 1 = the engine reports "
                  "the pair (before any re-test of ours). Our closed rule: touch 1, the others 0.", "",
                  "| structure | " + " | ".join(probes) + " |", "|---" * (len(probes) + 1) + "|"]
        for name, values in rows:
            lines.append(f"| {name} | " + " | ".join(values) + " |")
        lines.append("")
    return lines
