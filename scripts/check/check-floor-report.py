#!/usr/bin/python3
"""The report's memory-floor figures and verdicts on a fixture (part of make bench-check, through
scripts/check/check-bench-errors.sh): scripts/check/fixtures/floor.json holds made-up round
figures of the box-pruning scenes (sweep and prune on several backends, a grid faster than
every sweep, the floor's non-temporal and plain rows, one peer engine); the report built from it
must show the ratios and verdicts worked out by hand below, keep the floor rows out of "ours"
and out of the algorithms' tables, and flag a pair count that differs from the published one.

Usage: scripts/check/check-floor-report.py WORK_FOLDER"""
import os
import subprocess
import sys

FIXTURE = "scripts/check/fixtures/floor.json"

# Worked out by hand from the fixture's kcycles_per_run (K) and items_per_second:
EXPECTED = [
    # 2D 100,000: the fastest sweep is avx512's 24,000 K (avx2: 30,000); the non-temporal floor
    # 16,000 K: 24,000 / 16,000 = 1.50 <= 1.6, met; plain 20,000 K: 1.20.
    "| boxprune2d, 100,000 boxes: ours ≤ 1.6x the floor (non-temporal stores) | ours = 1.50x the "
    "floor: sap/avx512 24,000 K vs 16,000 K | met |",
    "| boxprune2d | 100,000 | 18,683,598 | 24,000 K (sap/avx512) | 16,000 K | 20,000 K | 1.50x | "
    "1.20x | 20,000 K (sap-stream/avx2), 1.25x | – |",
    # 3D 100,000: 3,000 / 1,000 = 3.00 > 2, missed; plain 3,000 / 800 = 3.75. Its 1,144,000
    # pairs are not the published 1,144,045: the published cell says so instead of a ratio.
    "| boxprune3d, 100,000 boxes: ours ≤ 2x the floor (non-temporal stores) | ours = 3.00x the "
    "floor: sap/avx512 3,000 K vs 1,000 K | missed |",
    "| boxprune3d | 100,000 | 1,144,000 | 3,000 K (sap/avx512) | 1,000 K | 800 K | 3.00x | 3.75x | – | "
    "182,715 K (its 1,144,045 pairs, 1,144,000 here: not the same scene) |",
    # 3D 10,000: the grid's 400 K is faster, but ours here is the fastest sweep, avx2's 500 K
    # (avx512: 600); 500 / 20 = 25.00, 500 / 10 = 50.00; published 2,413 / 500 = 4.826.
    "| boxprune3d | 10,000 | 11,811 | 500 K (sap/avx2) | 20 K | 10 K | 25.00x | 50.00x | – | "
    "2,413 K (ours 4.83x faster) |",
    # 2D 10,000: 700 / 140 = 5.00, 700 / 70 = 10.00; no published figure in 2D.
    "| boxprune2d | 10,000 | 190,499 | 700 K (sap/avx512) | 140 K | 70 K | 5.00x | 10.00x | – | – |",
    # AVX2 over scalar at 3D 10,000: 4,500 / 500 = 9.00 >= 9, met.
    "| broadphase/sap/boxprune3d | 10000 | avx2 | ≥ 9x scalar | 9.00x | met |",
    # The engine goal at 2D 100,000 is reported, not judged; ours is the sweep's 24,000 K, not
    # the floor's 16,000: 1,200,000 / 24,000 = 50.0.
    "| boxprune2d, 100,000: ours over the fastest peer (as users run it), reported | 50.0x: "
    "sap/avx512 24,000 K vs peer-fcl-dynamictree 1,200,000 K | reported |",
    # The absolute goal reads ours, never the floor: 24,000 K.
    "| boxprune2d, 100,000: ours ≤ 35,000 K per run | 24,000 K (sap/avx512; 10.0 candidate tests "
    "per box) | met |",
]
# Never in the report: a floor row taken for one of our algorithms,
UNEXPECTED = ["floor-nt/", "floor-plain/", "(floor-",
              # nor the streamed sweep (its pairs never written as a list) taken for ours
              "sap-stream/avx2 20,000 K vs", "(sap-stream/avx2;", "ours: sap-stream"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    work = os.path.abspath(sys.argv[1])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, "floor.md")
    done = subprocess.run([sys.executable, "scripts/bench/report", "--input", FIXTURE, "--output", page,
                           "--plots", os.path.join(work, "plots")], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check-floor-report: the report failed on {FIXTURE}:\n{done.stdout}{done.stderr}")
    lines = set(open(page, encoding="utf-8").read().splitlines())
    text = "\n".join(sorted(lines))
    missing = [e for e in EXPECTED if e not in lines]
    wrong = [u for u in UNEXPECTED if u in text]
    for e in missing:
        print(f"check-floor-report: FAILED: {page} lacks the line\n  {e}", file=sys.stderr)
    for u in wrong:
        print(f"check-floor-report: FAILED: {page} shows a floor row as ours ({u!r})", file=sys.stderr)
    if missing or wrong:
        return 1
    print(f"check-floor-report: the memory floor's {len(EXPECTED)} hand-computed lines (ratios, "
          "verdicts, the published figures' pair check) are in the report: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
