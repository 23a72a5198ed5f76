"""The scene files' section of a machine's report (called by run.py): one part per scene file
the run loaded (collide-bench --collide_scene=FILE: make bench SCENE=..., and the built-in real
scenes mk/bench.mk passes), whatever their names. Per file: TSC K-cycles per frame of every
algorithm of ours on every backend, the kept forms, the parallel call and every peer structure;
which of ours and which peer is fastest and by how much; and a check that every exact structure
found the same number of pairs on the first and the last frame (a mismatch is printed loudly,
in the report and on stderr). The rows are those of bench/bench_scene_files.h."""
import os
import sys

from .peers import INEXACT
from .verdict import cost, is_static, level_goals, spread, verdict

TINY = 1e-9  # K-cycles: keeps a ratio finite for an empty frame's row
REAL_LIST = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench", "scenes",
                                         "real.list"))
# The real scenes' goals: ours (one thread) at least this many times the fastest exact peer on a
# scene of at least PEER_GOAL_BOXES boxes (the largest mesh of the data package, 88,928
# triangles, stands for "100,000 triangles"); the quadtree within QUADTREE_GOAL x sweep and
# prune on the meshes (3D); no algorithm of ours slower than brute force on any real scene.
PEER_GOAL, PEER_GOAL_BOXES, QUADTREE_GOAL = 20.0, 80000, 10.0


def real_scene_names(path=REAL_LIST):
    """The names of bench/scenes/real.list (first column), the built-in real scenes."""
    try:
        with open(path) as f:
            return {line.split("|", 1)[0].strip() for line in f if line[:1].isalpha() and line[:1].islower()}
    except OSError:
        return set()


def scene_files(ctx):
    """[(name, boxes, dims, frames, path)] of the run's scene files, in command-line order (the
    context's collide_scene_files, one line "name boxes dims frames path" each)."""
    files = []
    for line in ctx.get("collide_scene_files", "").splitlines():
        parts = line.split(" ", 4)
        if len(parts) == 5:
            name, boxes, dims, frames, path = parts
            files.append((name, int(boxes), int(dims), int(frames), path))
    return files


def file_scene_names(ctx):
    """The scene names that are files in this run (the other sections leave them out)."""
    return {f[0] for f in scene_files(ctx)}


def _rows(data, scene):
    """[(structure, backend, bench)] of the scene's rows: ours from scratch and kept
    (broadphase/<algorithm>/<backend>/<scene>/N), the parallel call
    (broadphase/sap-par/<backend>/<scene>/N/<threads>), the peers
    (broadphase/peer-<engine>-<structure>/<scene>/N, backend "")."""
    rows, skipped = [], []
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if parts[0] != "broadphase" or len(parts) < 4:
            continue
        if parts[1].startswith("peer-") and len(parts) == 4 and parts[2] == scene:
            structure, backend = parts[1], ""
        elif parts[1] == "sap-par" and len(parts) == 6 and parts[3] == scene:
            structure, backend = "sap-par", f"{parts[2]} {parts[5]}"
        elif len(parts) == 5 and parts[3] == scene and not parts[1].startswith("paired-"):
            structure, backend = parts[1], parts[2]
        else:
            continue
        if b.get("error_occurred"):
            skipped.append((structure, b.get("error_message", "skipped")))
        elif "kcycles_per_run" in b:
            rows.append((structure, backend, b))
    return rows, skipped


def _exact(structure):
    """Ours, or a peer structure the peer list does not mark inexact (its per-frame rows,
    peer-...-incremental, and those with the engine's static rule, ...-static, are the same
    structure)."""
    base = structure[:-len("-static")] if structure.endswith("-static") else structure
    base = base[:-len("-incremental")] if base.endswith("-incremental") else base
    return not base.startswith("peer-") or base not in INEXACT


def _label(structure, backend):
    return f"{structure}/{backend}" if backend else structure


def _count(b, key):
    return int(b[key]) if key in b else None


def _one_thread(structure, backend):
    """Ours on one thread: the parallel call's T >= 2 and any-order rows are left out of the
    comparison with the engines, which run on one."""
    return structure != "sap-par" or backend.split(" ")[-1] in ("threads:1", "sequential")


def _goals(name, dims, boxes, rows):
    """The real scenes' goals as table lines (verdicts), from the rows of one scene file."""
    def best(pred):
        found = [r for r in rows if pred(r)]
        return min(found, key=lambda r: cost(r[2])) if found else None

    def k(r):
        return cost(r[2])

    out = []
    scratch = [r for r in rows if not r[0].startswith("peer-") and r[0] != "sap-par" and
               "incremental" not in r[0]]
    brute = best(lambda r: r[0] == "brute")
    if brute:
        algorithms = sorted({r[0] for r in scratch if r[0] != "brute"})
        slower = [a for a in algorithms if k(best(lambda r, a=a: r[0] == a)) > k(brute)]
        worst = max(algorithms, key=lambda a: k(best(lambda r, a=a: r[0] == a)), default=None)
        got = (f"slowest: `{worst}` {k(best(lambda r: r[0] == worst)) / k(brute):.2f}x brute force"
               if worst else "–")
        out.append(f"| no algorithm of ours slower than brute force (each on its fastest backend) | "
                   f"{got} | {'missed: ' + ', '.join(slower) if slower else 'met'} |")
    else:
        out.append("| no algorithm of ours slower than brute force | brute force not run | not measured |")
    if dims == 3:
        quad, sap = best(lambda r: r[0] == "quadtree"), best(lambda r: r[0] == "sap")
        if quad and sap:
            ratio = k(quad) / k(sap)
            out.append(f"| quadtree within {QUADTREE_GOAL:g}x sweep and prune | {ratio:.2f}x "
                       f"(`{_label(*quad[:2])}` {k(quad):,.0f} K vs `{_label(*sap[:2])}` {k(sap):,.0f} K) | "
                       f"{'met' if ratio <= QUADTREE_GOAL else 'missed'} |")
    if boxes >= PEER_GOAL_BOXES:
        ours = best(lambda r: not r[0].startswith("peer-") and _one_thread(r[0], r[1]))
        peer = best(lambda r: r[0].startswith("peer-") and _exact(r[0]) and r[2].get("missed_pairs", 0) == 0)
        if ours and peer:
            ratio = k(peer) / k(ours)
            out.append(f"| ours (one thread) at least {PEER_GOAL:g}x the fastest exact peer | {ratio:.1f}x "
                       f"(`{_label(*ours[:2])}` {k(ours):,.0f} K vs `{peer[0]}` {k(peer):,.0f} K) | "
                       f"{'met' if ratio >= PEER_GOAL else 'missed'} |")
        else:
            out.append(f"| ours at least {PEER_GOAL:g}x the fastest exact peer | – | not measured |")
    return ["| goal on this real scene | measured | |", "|---|---|---|"] + out + [""]


def scene_files_section(data):
    files = scene_files(data.get("context", {}))
    try:
        ghz = float(data.get("context", {}).get("collide_tsc_ghz", "0"))
    except ValueError:
        ghz = 0.0
    if not files:
        return []
    lines = ["### Scene files", "",
             "Each scene file the run loaded (`make bench SCENE=...`, docs/scenes.md). A row walks "
             "the file's frames in turn (0, 1, ..., last, ..., 1, 0, 1, ...), one frame per "
             "iteration: K-cycles are TSC cycles per frame, the fastest of the row's walks over "
             "the frames, and the spread how much slower its slowest walk was (from scratch: the whole run on that "
             "frame, peers building a fresh structure and finding its pairs; kept forms: the cache "
             "updated to it, and `peer-...-incremental`: the engine's structure updated with the boxes "
             "that changed; `sap-par`: the parallel call, T threads). Pairs are counted by untimed "
             "calls after timing, on the first and the last frame, and every structure that finds "
             "the exact pairs must give the same two counts.", ""]
    real = real_scene_names()
    for name, boxes, dims, frames, path in files:
        rows, skipped = _rows(data, name)
        plural = "s" if frames != 1 else ""
        lines += [f"#### Scene file `{name}`: {boxes:,} boxes, {dims}D, {frames:,} frame{plural}", "",
                  f"From `{path}`.", ""]
        if not rows:
            lines += ["No row of this file ran in this run.", ""]
            continue
        rows.sort(key=lambda r: cost(r[2]))
        if name in real:
            lines += ["A real scene (`bench/scenes/real.list`, `docs/real-scenes.md`).", ""]
            lines += _goals(name, dims, boxes, rows)
        lines += level_goals(name, rows, _exact)
        lines += verdict(name, rows, _exact, ghz)
        # Every exact structure's two counts, which must agree; a peer whose pairs the bench
        # found short of ours (missed_pairs) is named apart, with how many it missed.
        # The rows with the static rule (-static) find fewer pairs: checked among themselves.
        for static in (False, True):
            counted = [(r, (_count(r[2], "pairs"), _count(r[2], "pairs_last"))) for r in rows
                       if _exact(r[0]) and "pairs" in r[2] and r[2].get("missed_pairs", 0) == 0
                       and is_static(r[0]) == static]
            sets = {}
            for r, counts in counted:
                sets.setdefault(counts, []).append(_label(r[0], r[1]))
            kind = "with the static rule" if static else "of every pair"
            if len(sets) == 1:
                (first, last), = sets.keys()
                lines.append(f"- Pair counts identical across all {len(counted)} exact structures "
                             f"{kind}: {first:,} pairs on frame 0" +
                             (f", {last:,} on frame {frames - 1}." if frames > 1 else "."))
            elif sets:
                majority = max(sets, key=lambda k: len(sets[k]))
                lines.append(f"- **PAIR COUNT MISMATCH across the exact structures {kind}** "
                             f"(frame 0, frame {frames - 1}): " + "; ".join(
                                 f"{a:,}, {b:,} from " + ", ".join(f"`{s}`" for s in who)
                                 for (a, b), who in sorted(sets.items(), key=lambda kv: -len(kv[1]))) + ".")
                for counts, who in sets.items():
                    if counts != majority:
                        print(f"report: scene file {name}: PAIR COUNT MISMATCH: {', '.join(who)} "
                              f"found {counts[0]} and {counts[1]} pairs (frame 0, last frame), the "
                              f"others {majority[0]} and {majority[1]}", file=sys.stderr)
        short = [r for r in rows if _exact(r[0]) and r[2].get("missed_pairs", 0) > 0]
        if short:
            lines.append("- Missed pairs ours has (found by re-testing, left out of the check): " +
                         ", ".join(f"`{r[0]}` {int(r[2]['missed_pairs']):,}" for r in short) + ".")
        inexact = sorted({r[0] for r in rows if not _exact(r[0])})
        if inexact:
            lines.append("- Inexact by the peer list (left out of the check): " +
                         ", ".join(f"`{s}`" for s in inexact) + ".")
        for structure, why in skipped:
            lines.append(f"- Not run: `{structure}`: {why}.")
        best = cost(rows[0][2])
        last_head = f" pairs, frame {frames - 1} |" if frames > 1 else ""
        lines += ["", f"| structure | K-cycles per frame | spread | vs fastest | pairs, frame 0 |{last_head} |",
                  "|---" * (6 if frames > 1 else 5) + "|---|"]
        for structure, backend, b in rows:
            note = ""
            if not _exact(structure):
                note = "inexact (peer list)"
            elif b.get("missed_pairs", 0) > 0:
                note = f"missed {int(b['missed_pairs']):,} of ours"
            pairs, last = _count(b, "pairs"), _count(b, "pairs_last")
            last_cell = f" {'–' if last is None else f'{last:,}'} |" if frames > 1 else ""
            lines.append(f"| {_label(structure, backend)} | {cost(b):,.1f} | {spread(b):.0%} | "
                         f"{cost(b) / best:.1f}x | "
                         f"{'–' if pairs is None else f'{pairs:,}'} |{last_cell} {note} |")
        lines.append("")
    return lines
