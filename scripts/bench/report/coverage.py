"""The report's coverage section (called by write.py): what the committed fuzz corpora reach of
core/, read from fuzz/coverage-floor.txt (make fuzz-coverage measures it, make
fuzz-coverage-floor records it; scripts/fuzz/coverage_data.py reads it): core/'s totals, then
every file that misses a line or a branch side, the most missed first, with the date, commit and
CPU of the measurement. Nothing when the floor file is absent (a report made outside a checkout).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FLOOR = os.path.join(ROOT, "fuzz", "coverage-floor.txt")

sys.path.insert(0, os.path.join(ROOT, "scripts", "fuzz"))
from coverage_data import read_floor  # noqa: E402
from coverage_doc import table_rows, weakest  # noqa: E402

sys.path.pop(0)


def coverage_section(floor=FLOOR):
    """The section's lines ([] without a floor file)."""
    if not os.path.exists(floor):
        return []
    meta, rows = read_floor(floor)
    files = weakest(rows)
    out = ["## What the fuzzers reach", "",
           f"Every fuzz target run once over its committed corpus (`make fuzz-coverage`, clang's "
           f"source-based coverage), measured {meta.get('measured', '?')} on {meta.get('cpu', '?')}; "
           f"{meta.get('tools', '')}. Branches count each side of a condition. "
           f"{len(rows) - 1 - len(files)} of {len(rows) - 1} files of core/ are reached in every "
           f"line and branch side; the {len(files)} others, the most missed first (what no input "
           "can reach, and why: docs/fuzzing.md):", ""] + table_rows(rows, files)
    return out + [""]
