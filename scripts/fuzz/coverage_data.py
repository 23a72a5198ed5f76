"""What a coverage run reached, read from `llvm-cov export -format=text` (imported by
scripts/fuzz/fuzz-coverage.py): per file its lines, branches, regions and functions (covered and
counted, as llvm-cov's own summary gives them), the lines it never ran and the branch sides it
never took; per function whether any target ran it. Also the floor file (fuzz/coverage-floor.txt),
the one record of what the committed corpora reach, which the check, docs/fuzzing.md's table and
the benchmark report read.
"""
import json
import os
import re

KINDS = ("lines", "branches", "regions", "functions")
FLOOR_HEADER = """\
# What the committed corpora reach of core/: make fuzz-coverage (corpora only, every target)
# measures it, make fuzz-coverage-floor records it here, and make fuzz-coverage fails when a
# change lowers core/'s line or branch coverage by more than the margin (percentage points),
# naming the files that lost coverage. docs/fuzzing.md's table and the benchmark report are
# made from this file. Columns: covered and counted lines, branches (each side of a condition),
# regions and functions.
"""


def line_counts(segments):
    """{line: count} for the lines a file maps, by llvm-cov's own rule (LineCoverageStats): a line
    is mapped when a region starts on it or one carries over from the lines above, unless it
    starts a skipped region; its count is the largest of the regions starting on it and the one
    carried over."""
    counts = {}
    if not segments:
        return counts
    wrapped = None
    at = 0
    for line in range(segments[0][0], segments[-1][0] + 1):
        here = []
        while at < len(segments) and segments[at][0] == line:
            here.append(segments[at])
            at += 1
        # A segment: line, column, count, has a count, starts a region, is a gap.
        starts = [s for s in here if s[3] and s[4] and not s[5]]
        skipped = bool(here) and not here[0][3] and here[0][4]
        if not skipped and ((wrapped is not None and wrapped[3]) or starts):
            count = wrapped[2] if wrapped is not None else 0
            for s in starts:
                count = max(count, s[2])
            counts[line] = count
        if here:
            wrapped = here[-1]
    return counts


def ranges(lines):
    """Line numbers as short ranges: [3, 4, 5, 9] -> '3-5, 9'."""
    out, start, prev = [], None, None
    for n in sorted(lines) + [None]:
        if start is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(out)


class Coverage:
    """One export: files[path] = {kind: (covered, count)} plus 'missed_lines' (line numbers)
    and 'missed_branches' ((line, column, 'true' | 'false' | 'both') never taken); paths are
    relative to root. functions[name] = the largest count any record of it has."""

    def __init__(self, export_path, root):
        with open(export_path, encoding="utf-8") as f:
            data = json.load(f)["data"][0]
        root = os.path.abspath(root) + os.sep
        self.files = {}
        for entry in data["files"]:
            path = entry["filename"]
            path = path[len(root):] if path.startswith(root) else path
            info = {k: (entry["summary"][k]["covered"], entry["summary"][k]["count"]) for k in KINDS}
            counts = line_counts(entry["segments"])
            info["missed_lines"] = sorted(n for n, c in counts.items() if c == 0)
            missed = []
            for b in entry.get("branches", []):
                side = "both" if b[4] == 0 and b[5] == 0 else "true" if b[4] == 0 else "false" if b[5] == 0 else None
                if side:
                    missed.append((b[0], b[1], side))
            info["missed_branches"] = sorted(set(missed))
            self.files[path] = info
        self.functions = {}
        for fn in data["functions"]:
            name = fn["name"].split(":")[-1] if ":" in fn["name"] else fn["name"]
            if ":" in fn["name"]:
                continue  # a file's own (static) function: never a public call
            self.functions[name] = max(self.functions.get(name, 0), fn["count"])

    def total(self, paths, kind):
        """(covered, count) of one kind over the given files."""
        covered = sum(self.files[p][kind][0] for p in paths)
        return covered, sum(self.files[p][kind][1] for p in paths)


def percent(covered, count):
    """Covered as a percentage with two decimals (a file with nothing of a kind: None)."""
    return None if count == 0 else 100.0 * covered / count


def show(covered, count):
    """'97.12% (1234/1270)', or '-' when there is nothing of that kind."""
    p = percent(covered, count)
    return "-" if p is None else f"{p:.2f}% ({covered}/{count})"


def read_floor(path):
    """The floor file: (meta, rows), meta the 'key value' lines (measured, cpu, margin), rows
    {path: {kind: (covered, count)}} with 'total' for core/ as a whole."""
    meta, rows = {}, {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, rest = line.partition(" ")
            if key in ("measured", "cpu", "margin", "tools"):
                meta[key] = rest.strip()
                continue
            numbers = [int(x) for x in rest.split()]
            if len(numbers) != 2 * len(KINDS):
                raise SystemExit(f"fuzz-coverage: {path}: a row needs {2 * len(KINDS)} numbers: {line}")
            rows[key] = {k: (numbers[2 * i], numbers[2 * i + 1]) for i, k in enumerate(KINDS)}
    if "total" not in rows:
        raise SystemExit(f"fuzz-coverage: {path} has no 'total' row")
    return meta, rows


def margins(meta):
    """The floor's margins in percentage points: {'lines': x, 'branches': y}."""
    found = dict(re.findall(r"(lines|branches) ([0-9.]+)", meta.get("margin", "")))
    if set(found) != {"lines", "branches"}:
        raise SystemExit("fuzz-coverage: the floor file's 'margin' line must give lines and branches")
    return {k: float(v) for k, v in found.items()}


def write_floor(path, cov, core, meta):
    """The floor file from one corpora-only run: meta lines, then a row per core/ file and the
    total."""
    lines = [FLOOR_HEADER.rstrip("\n")]
    lines += [f"{k} {meta[k]}" for k in ("measured", "cpu", "tools", "margin")]
    lines.append("")
    width = max(len(p) for p in core)
    for p in core:
        lines.append(f"{p:<{width}} " + " ".join(f"{c} {n}" for c, n in (cov.files[p][k] for k in KINDS)))
    lines.append(f"{'total':<{width}} " + " ".join(f"{c} {n}" for c, n in (cov.total(core, k) for k in KINDS)))
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
