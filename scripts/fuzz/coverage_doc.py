"""docs/fuzzing.md's coverage table (imported by scripts/fuzz/fuzz-coverage.py) and the rows it
shares with the benchmark report's section (scripts/bench/report/coverage.py), both made from the
floor file (fuzz/coverage-floor.txt): core/'s totals, then the files that miss a line or a branch
side, the most missed first."""
from coverage_data import KINDS, show

FLOOR = "fuzz/coverage-floor.txt"
DOC = "docs/fuzzing.md"
DOC_BEGIN = "<!-- coverage table: make fuzz-coverage-floor writes it from fuzz/coverage-floor.txt -->"
DOC_END = "<!-- end of the coverage table -->"
DOC_WEAKEST = 6


def missed(row):
    """Lines and branch sides a file's corpora never ran."""
    return sum(row[k][1] - row[k][0] for k in ("lines", "branches"))


def weakest(rows):
    """The files that miss anything, the most missed first."""
    return sorted((p for p in rows if p != "total" and missed(rows[p])), key=lambda p: (-missed(rows[p]), p))


def table_rows(rows, files):
    """The markdown table: core/'s totals, then `files`."""
    out = ["| files | lines | branches | regions | functions |", "|---|---|---|---|---|",
           "| **core/, every file** | " + " | ".join(show(*rows["total"][k]) for k in KINDS) + " |"]
    return out + [f"| `{path}` | " + " | ".join(show(*rows[path][k]) for k in KINDS) + " |" for path in files]


def doc_table(meta, rows):
    """docs/fuzzing.md's table: the DOC_WEAKEST files with the most lines and branch sides not
    reached (the whole table: build/coverage/table.md, the report)."""
    files = weakest(rows)
    return ([DOC_BEGIN, "", f"Measured {meta['measured']} on {meta['cpu']}; {meta.get('tools', '')}. "
             f"{len(files)} of {len(rows) - 1} files miss a line or a branch side; the "
             f"{min(DOC_WEAKEST, len(files))} that miss the most:", ""]
            + table_rows(rows, files[:DOC_WEAKEST]) + ["", DOC_END])


def rewrite_doc(meta, rows, check_only):
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    if DOC_BEGIN not in text or DOC_END not in text:
        raise SystemExit(f"fuzz-coverage: {DOC} has no coverage table markers ({DOC_BEGIN} ... {DOC_END})")
    head, rest = text.split(DOC_BEGIN, 1)
    _old, tail = rest.split(DOC_END, 1)
    new = head + "\n".join(doc_table(meta, rows)) + tail
    if check_only:
        if new != text:
            raise SystemExit(f"fuzz-coverage: {DOC}'s coverage table is not {FLOOR}'s: make fuzz-coverage-floor "
                             "writes it (or the floor file was edited by hand)")
        return
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)


