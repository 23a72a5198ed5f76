"""Three sections of a machine's report (run.py): "Your kernels" (user backends and broadphases
against ours, same run), "Choices side by side" (layouts, native vs emulated, hand-written
SIMD vs the compiler's auto-vectorization, first-hit vs counting) and "Build choices" (the
newest table of make bench-choices in the run's machine folder: speed and answers)."""
import glob
import os

from .data import NOT_OURS, own_section, pixels
from .util import fmt, human_items, times

def ratio_line(table, key_a, key_b, backend, n):
    try:
        a = table[key_a][backend][n]["items_per_second"]
        b = table[key_b][backend][n]["items_per_second"]
        return a / b
    except (KeyError, ZeroDivisionError):
        return None


def ratio_table(table, order, key_a, key_b, caption, unit):
    """Throughput of key_a ÷ key_b per backend and size, as Markdown lines (none if absent)."""
    if key_a not in table or key_b not in table:
        return []
    sizes = sorted({n for b in table[key_a].values() for n in b})
    cols = [b for b in order if b in table[key_a] and b in table[key_b]]
    lines = [caption, "", f"| {unit} | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for n in sizes:
        lines.append(f"| {n} | " + " | ".join(fmt(ratio_line(table, key_a, key_b, b, n)) for b in cols) + " |")
    return lines + [""]


def user_section(table, kinds):
    """Your own kernels (USER_KERNELS): each user backend's speedup over scalar and over our
    fastest built-in backend, and each user broadphase against our fastest algorithm, at the
    largest size both ran (same run)."""
    users = sorted(b for b, k in kinds.items() if k == "user")
    algorithms = sorted({key[1] for key in table if key[0] == "broadphase" and key[1].startswith("user:")})
    if not users and not algorithms:
        return []
    lines = ["### Your kernels", "",
             "Rows of user kernels brought in with `USER_KERNELS` (docs/user-kernels.md), against ours in "
             "the same run, at the largest size both ran:", "",
             "| kernel | yours | size | your items/s | ÷ scalar | ÷ our fastest |", "|---|---|---|---|---|---|"]
    for key in sorted(table):
        rows = table[key]
        for user in users:
            if user not in rows or "scalar" not in rows:
                continue
            ours = [b for b in rows if kinds.get(b) in ("native", "reference", "compiler")]
            common = sorted(set(rows[user]) & set(rows["scalar"]))
            if not common:
                continue
            n = common[-1]
            mine = rows[user][n]["items_per_second"]
            best = max((rows[b][n]["items_per_second"] for b in ours if n in rows[b]), default=None)
            lines.append(f"| {key[0]}/{key[1]}/{key[2]} | `{user}` | {n} | {human_items(mine)}/s | "
                         f"{times(mine / rows['scalar'][n]['items_per_second'])} | "
                         f"{times(mine / best) if best else '–'} |")
    for algorithm in algorithms:
        for key in sorted(k for k in table if k[0] == "broadphase" and k[1] == algorithm):
            scene = key[2]
            mine_rows = table[key].get("scalar", {})
            ours = {k: v for k, v in table.items()
                    if k[0] == "broadphase" and k[2] == scene and not k[1].startswith(("user:",) + NOT_OURS)}
            sizes = sorted(n for n in mine_rows if any(n in r for v in ours.values() for r in v.values()))
            if not sizes:
                continue
            n = sizes[-1]
            mine = mine_rows[n]["items_per_second"]
            best = max(r[n]["items_per_second"] for v in ours.values() for r in v.values() if n in r)
            lines.append(f"| broadphase/{scene} | `{algorithm}` | {n} | {human_items(mine)}/s | – | "
                         f"{times(mine / best)} |")
    return lines + ["", "(÷ our fastest below 1: ours is faster by its inverse.)", ""]


def comparisons(table, order, kinds, families):
    lines = ["### Choices side by side", ""]
    lines += ratio_table(
        table, order, ("aabb2", "soa", "uniform"), ("aabb2", "aos", "uniform"),
        "Structure of arrays vs array of structures (2D query): SoA throughput ÷ AoS "
        "throughput, per backend (> 1: SoA is faster).", "N")
    # Native vs emulated (each native backend whose "-emu" twin ran), and the compiler's
    # auto-vectorization vs the reference and the hand-written SIMD, at one size per family.
    twins = [b for b in order if kinds.get(b) == "native" and kinds.get(b + "-emu") == "emulated"]
    compiler = next((b for b in order if kinds.get(b) == "compiler"), None)
    reference = next((b for b in order if kinds.get(b) == "reference"), "scalar")
    lines += [
        "Native vs SIMDe-emulated (native throughput ÷ emulated), hand-written SIMD vs the "
        f"compiler's auto-vectorization of the scalar source (`{compiler}` ÷ `{reference}`, and best "
        f"native ÷ `{compiler}`), at N = 4096 (sprites: side 256):",
        "",
        "| kernel | " + " | ".join(f"{b} ÷ emu" for b in twins)
        + f" | {compiler} ÷ {reference} | best SIMD ÷ {compiler} |",
        "|---" * (len(twins) + 3) + "|",
    ]
    header = len(lines)
    for key in sorted(table):
        if own_section(families, key[0]):
            continue
        rows = table[key]
        n = 256 if pixels(families, key[0]) else 4096

        def ips(b):
            try:
                return rows[b][n]["items_per_second"]
            except KeyError:
                return None

        def div(a, b):
            return None if a is None or b is None or b == 0 else a / b

        natives = [ips(b) for b in order if kinds.get(b) == "native" and ips(b) is not None]
        best = max(natives) if natives else None
        lines.append(
            f"| {key[0]}/{key[1]}/{key[2]} | "
            + " | ".join(fmt(div(ips(b), ips(b + "-emu"))) for b in twins)
            + f" | {fmt(div(ips(compiler), ips(reference)))} | {fmt(div(best, ips(compiler)))} |"
        )
    if len(lines) == header:  # no kernel ran at these sizes: no empty table
        del lines[header - 4:]
    lines.append("")
    lines += ratio_table(
        table, order, ("sprite", "first", "nohit"), ("sprite", "count", "nohit"),
        "Sprites, first-hit ÷ counting throughput when nothing collides (both must scan the "
        "whole overlap; first-hit skips the popcount):", "side")
    if all(not line for line in lines[2:]):  # a run of other rows alone (scene files): no section
        return []
    return lines


def build_choices_section(run_path):
    """The newest results/<machine>/choices/*.md (scripts/bench/bench-choices.py) beside the run, under
    its own heading; nothing when the machine has none."""
    tables = sorted(glob.glob(os.path.join(os.path.dirname(run_path), "choices", "*.md")))
    if not tables:
        return []
    with open(tables[-1]) as f:
        body = f.read().strip()
    return ["### Build choices: speed and answers", "",
            f"`make bench-choices` ({os.path.basename(tables[-1])}; docs/determinism.md says what "
            "the answers mean). Flags that break the bit-exact contract are labelled and never "
            "used for the other figures of this report.", "", body, ""]
