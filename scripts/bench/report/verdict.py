"""A scene file's verdict in a machine's report (called by scenefiles.py): which call of ours to
make (algorithm, backend, kept or from scratch, the static rule or not), what it costs per frame,
how it compares with each peer engine on the same pair set, and whether a ratio lies inside the
spread of the repeated measurements (then it is a tie); and the goals of the built-in levels
(bench/bench_levels.h). A row's cost is its fastest walk over the file's frames (kcycles_min,
TSC K-cycles per frame), its spread how much slower its slowest walk was (kcycles_spread)."""

TINY = 1e-9
# The levels' goals (bench/bench_levels.h): ours at least this many times the fastest
# incremental peer per frame on the level of 3,000 tiles and 300 walkers (tiles-dense-10) and
# on the tile levels with 1% walking; at least LEVEL_GOAL_10 on those with 10%; on every scene
# file with at most 10% of its boxes moving, our kept form at most KEPT_GOAL of its own
# from-scratch path (sweep and prune, on the same backend and pair set).
LEVEL_GOAL, LEVEL_GOAL_10, KEPT_GOAL = 5.0, 3.0, 0.4
LEVEL_GOALS = {"tiles-dense-10": LEVEL_GOAL, "tiles-dense-1": LEVEL_GOAL,
               "tiles-sparse-1": LEVEL_GOAL, "tiles-sparse-10": LEVEL_GOAL_10}
KEPT_SCENES = ("tiles-dense-1", "tiles-dense-10", "tiles-sparse-1", "tiles-sparse-10",
               "level-ctf2-movers")


def cost(b):
    """K-cycles per frame of a row: its fastest walk (the mean of its steps when it has none)."""
    return max(b.get("kcycles_min", b["kcycles_per_run"]), TINY)


def spread(b):
    return b.get("kcycles_spread", 0.0)


def is_static(structure):
    return structure.endswith("-static")


def is_kept(structure):
    return "incremental" in structure


def engine(structure):
    """peer-<engine>-...: the engine's name."""
    return structure.split("-")[1]


def describe(structure, backend):
    """A user's words for one of our rows."""
    static = is_static(structure)
    base = structure[:-len("-static")] if static else structure
    if is_kept(base):
        algorithm = base.split("-incremental")[0]
        what = (f"`col_broadphase_cache` keeping `{algorithm}`"
                + (", told which boxes moved (`col_broadphase_cache_update_moved`)"
                   if base.endswith("-listed") else ", finding what moved by comparison"))
    else:
        what = f"`col_broadphase_pairs` with `{base}` from scratch"
    return (f"{what}, backend `{backend}`" +
            (", the static rule (static marks: no pair of two static boxes)" if static else
             ", every pair (static ones included)"))


def _ratio_text(ours, peer):
    """'ours 7.3x faster' or a tie when the ratio lies inside either row's spread."""
    ratio = cost(peer[2]) / cost(ours[2])
    noise = max(spread(ours[2]), spread(peer[2]))
    tie = abs(ratio - 1.0) <= noise
    if tie:
        return ratio, f"{ratio:.2f}x: a tie (inside the {noise:.0%} spread of repeated walks)"
    if ratio >= 1:
        return ratio, f"ours {ratio:.1f}x faster"
    return ratio, f"**the peer {1 / ratio:.1f}x faster than ours**"


def ours_rows(rows):
    """Our rows a user would call on one thread: every algorithm and kept form, not the
    parallel call (its one-thread rows are sweep and prune itself)."""
    return [r for r in rows if not r[0].startswith("peer-") and r[0] != "sap-par"]


def peers_by_engine(rows, exact):
    """{(engine, static rule): its fastest exact row} of the peers' rows."""
    best = {}
    for r in rows:
        if not r[0].startswith("peer-") or not exact(r[0]) or r[2].get("missed_pairs", 0) != 0:
            continue
        key = (engine(r[0]), is_static(r[0]))
        if key not in best or cost(r[2]) < cost(best[key][2]):
            best[key] = r
    return best


def verdict(name, rows, exact, ghz):
    """The lines of a scene file's verdict."""
    ours = sorted(ours_rows(rows), key=lambda r: cost(r[2]))
    if not ours:
        return []
    best = ours[0]
    us = cost(best[2]) / max(ghz, TINY)
    out = ["", f"**Which call to make** on `{name}`: {describe(best[0], best[1])}: "
               f"{cost(best[2]):,.1f} K TSC cycles per frame ({us:,.1f} us), its walks within "
               f"{spread(best[2]):.0%} of each other.", ""]
    peers = peers_by_engine(rows, exact)
    if not peers:
        return out
    out += ["| peer engine (its fastest row) | pair set | its K-cycles per frame | ours on that set | ours vs the peer |",
            "|---|---|---|---|---|"]
    for (eng, static), p in sorted(peers.items(), key=lambda kv: cost(kv[1][2])):
        same = [r for r in ours if is_static(r[0]) == static]
        if not same:
            continue
        o = same[0]
        _, text = _ratio_text(o, p)
        out.append(f"| {eng} (`{p[0]}`) | {'static rule' if static else 'every pair'} | "
                   f"{cost(p[2]):,.1f} | `{o[0]}/{o[1]}` {cost(o[2]):,.1f} | {text} |")
    return out + [""]


def level_goals(name, rows, exact):
    """The goal lines of a built-in level (verdicts), or []."""
    out = []
    ours = sorted(ours_rows(rows), key=lambda r: cost(r[2]))
    peers = peers_by_engine(rows, exact)
    target = LEVEL_GOALS.get(name)
    if target is not None:
        for static in (False, True):
            o = [r for r in ours if is_static(r[0]) == static]
            p = [r for (e, s), r in peers.items() if s == static and is_kept(r[0])]
            if not o or not p:
                continue
            p = min(p, key=lambda r: cost(r[2]))
            ratio = cost(p[2]) / cost(o[0][2])
            out.append(f"| ours at least {target:g}x the fastest incremental peer "
                       f"({'the static rule on both sides' if static else 'every pair on both sides'}) | "
                       f"{ratio:.1f}x (`{o[0][0]}/{o[0][1]}` {cost(o[0][2]):,.1f} K vs `{p[0]}` "
                       f"{cost(p[2]):,.1f} K) | {'met' if ratio >= target else 'missed'} |")
    if name in KEPT_SCENES:
        for static in (False, True):
            kept = [r for r in ours if is_kept(r[0]) and is_static(r[0]) == static]
            if not kept:
                continue
            k = kept[0]
            scratch = [r for r in ours if r[0] == ("sap-static" if static else "sap") and r[1] == k[1]]
            if not scratch:
                continue
            s = scratch[0]
            ratio = cost(k[2]) / cost(s[2])
            out.append(f"| our kept form at most {KEPT_GOAL:g}x its from-scratch path "
                       f"({'static rule' if static else 'every pair'}) | {ratio:.2f}x "
                       f"(`{k[0]}/{k[1]}` {cost(k[2]):,.1f} K vs `{s[0]}/{s[1]}` {cost(s[2]):,.1f} K) | "
                       f"{'met' if ratio <= KEPT_GOAL else 'missed'} |")
    if not out:
        return []
    return ["", "| goal on this level | measured | |", "|---|---|---|"] + out + [""]
