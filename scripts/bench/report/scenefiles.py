"""The scene files' section of a machine's report (called by run.py): one part per scene file
the run loaded (collide-bench --collide_scene=FILE: make bench SCENE=..., and the built-in real
scenes mk/bench.mk passes), whatever their names. Per file: TSC K-cycles per frame of every
algorithm of ours on every backend, the kept forms, the parallel call and every peer structure;
which of ours and which peer is fastest and by how much; and a check that every exact structure
found the same number of pairs on the first and the last frame (a mismatch is printed loudly,
in the report and on stderr). The rows are those of bench/bench_scene_files.h."""
import sys

from .peers import INEXACT

TINY = 1e-9  # K-cycles: keeps a ratio finite for an empty frame's row


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
    peer-...-incremental, are the same structure)."""
    base = structure[:-len("-incremental")] if structure.endswith("-incremental") else structure
    return not base.startswith("peer-") or base not in INEXACT


def _label(structure, backend):
    return f"{structure}/{backend}" if backend else structure


def _count(b, key):
    return int(b[key]) if key in b else None


def scene_files_section(data):
    files = scene_files(data.get("context", {}))
    if not files:
        return []
    lines = ["### Scene files", "",
             "Each scene file the run loaded (`make bench SCENE=...`, docs/scenes.md). A row walks "
             "the file's frames in turn (0, 1, ..., last, ..., 1, 0, 1, ...), one frame per "
             "iteration: K-cycles are TSC cycles per frame (from scratch: the whole run on that "
             "frame, peers building a fresh structure and finding its pairs; kept forms: the cache "
             "updated to it, and `peer-...-incremental`: the engine's structure updated with the boxes "
             "that changed; `sap-par`: the parallel call, T threads). Pairs are counted by untimed "
             "calls after timing, on the first and the last frame, and every structure that finds "
             "the exact pairs must give the same two counts.", ""]
    for name, boxes, dims, frames, path in files:
        rows, skipped = _rows(data, name)
        plural = "s" if frames != 1 else ""
        lines += [f"#### Scene file `{name}`: {boxes:,} boxes, {dims}D, {frames:,} frame{plural}", "",
                  f"From `{path}`.", ""]
        if not rows:
            lines += ["No row of this file ran in this run.", ""]
            continue
        rows.sort(key=lambda r: r[2]["kcycles_per_run"])
        ours = [r for r in rows if not r[0].startswith("peer-")]
        peers = [r for r in rows if r[0].startswith("peer-") and _exact(r[0]) and
                 r[2].get("missed_pairs", 0) == 0]
        if ours:
            o = ours[0]
            text = f"- Fastest of ours: `{_label(o[0], o[1])}`, {o[2]['kcycles_per_run']:,.1f} K per frame"
            if peers:
                p = peers[0]
                ratio = p[2]["kcycles_per_run"] / max(o[2]["kcycles_per_run"], TINY)
                text += (f"; fastest exact peer: `{p[0]}`, {p[2]['kcycles_per_run']:,.1f} K: " +
                         (f"ours {ratio:.1f}x faster" if ratio >= 1 else
                          f"**the peer {1 / max(ratio, TINY):.1f}x faster than ours**"))
            lines.append(text + ".")
        # Every exact structure's two counts, which must agree.
        counted = [(r, (_count(r[2], "pairs"), _count(r[2], "pairs_last"))) for r in rows
                   if _exact(r[0]) and "pairs" in r[2]]
        sets = {}
        for r, counts in counted:
            sets.setdefault(counts, []).append(_label(r[0], r[1]))
        if len(sets) == 1:
            (first, last), = sets.keys()
            lines.append(f"- Pair counts identical across all {len(counted)} exact structures: "
                         f"{first:,} pairs on frame 0, {last:,} on frame {frames - 1}.")
        elif sets:
            majority = max(sets, key=lambda k: len(sets[k]))
            lines.append(f"- **PAIR COUNT MISMATCH across the exact structures** "
                         f"(frame 0, frame {frames - 1}): " + "; ".join(
                             f"{a:,}, {b:,} from " + ", ".join(f"`{s}`" for s in who)
                             for (a, b), who in sorted(sets.items(), key=lambda kv: -len(kv[1]))) + ".")
            for counts, who in sets.items():
                if counts != majority:
                    print(f"report: scene file {name}: PAIR COUNT MISMATCH: {', '.join(who)} found "
                          f"{counts[0]} and {counts[1]} pairs (frame 0, last frame), the others "
                          f"{majority[0]} and {majority[1]}", file=sys.stderr)
        inexact = sorted({r[0] for r in rows if not _exact(r[0])})
        if inexact:
            lines.append("- Inexact by the peer list (left out of the check): " +
                         ", ".join(f"`{s}`" for s in inexact) + ".")
        for structure, why in skipped:
            lines.append(f"- Not run: `{structure}`: {why}.")
        best = max(rows[0][2]["kcycles_per_run"], TINY)
        lines += ["", "| structure | K-cycles per frame | vs fastest | pairs, frame 0 | "
                  f"pairs, frame {frames - 1} | |", "|---|---|---|---|---|---|"]
        for structure, backend, b in rows:
            note = ""
            if not _exact(structure):
                note = "inexact (peer list)"
            elif b.get("missed_pairs", 0) > 0:
                note = f"missed {int(b['missed_pairs']):,} of ours"
            pairs, last = _count(b, "pairs"), _count(b, "pairs_last")
            lines.append(f"| {_label(structure, backend)} | {b['kcycles_per_run']:,.1f} | "
                         f"{b['kcycles_per_run'] / best:.1f}x | "
                         f"{'–' if pairs is None else f'{pairs:,}'} | "
                         f"{'–' if last is None else f'{last:,}'} | {note} |")
        lines.append("")
    return lines
