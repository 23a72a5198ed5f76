"""The self-test of make fuzz-coverage's checks (`scripts/fuzz/fuzz-coverage.py --self-test`, in
make test): made-up headers, exports and floors, each with a fault the checks must name, and
clean ones they must pass. The expected names and numbers are written here by hand, from the
inputs below, never taken from what the checks print.
"""
import json
import os
import tempfile

from coverage_checks import check_floor, check_public, declared_functions
from coverage_data import Coverage, line_counts, ranges, read_floor, write_floor

HEADER = """/* a public header */
#ifndef H
#define H
#include <stddef.h>
#define COL_MACRO(x) col_not_a_function(x)
#ifdef __cplusplus
extern "C" {
#endif
typedef void col_callback(void *context);   /* a type, not a function */
typedef struct col_table {
  int (*col_member)(int);                    /* a member */
} col_table;
/* col_in_a_comment(int) is no declaration */
int col_reached(int a,
                int b);
void col_never_run(col_table *t, void (*fn)(void));
const char *col_never_linked(void);
void col__internal(void);
int col_user_register(void);
#ifdef __cplusplus
}
#endif
#endif
"""

# file segments: line, column, count, has a count, starts a region, is a gap
SEGMENTS = [[1, 1, 5, True, True, False], [2, 3, 0, True, True, False], [3, 1, 0, True, True, False], [4, 1, 0, False, False, False],
            [6, 1, 0, False, True, False], [6, 9, 2, True, True, False], [7, 1, 0, False, False, False]]


def _export(folder, root, files, functions):
    """An llvm-cov export with these files ({path: (lines, branches) as (covered, count)})."""
    entries = []
    for path, (lines, branches) in files.items():
        summary = {"lines": {"covered": lines[0], "count": lines[1]},
                   "branches": {"covered": branches[0], "count": branches[1]},
                   "regions": {"covered": lines[0], "count": lines[1]},
                   "functions": {"covered": 1, "count": 1}}
        entries.append({"filename": os.path.join(root, path), "summary": summary, "segments": SEGMENTS,
                        "branches": [[2, 7, 2, 12, 4, 0, 0, 0, 4], [3, 5, 3, 9, 0, 0, 0, 0, 4]]})
    data = {"data": [{"files": entries, "functions": [{"name": n, "count": c, "filenames": []}
                                                      for n, c in functions], "totals": {}}]}
    path = os.path.join(folder, f"export{len(os.listdir(folder))}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return Coverage(path, root)


def run_self_test():
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(folder, "tree")
        header = os.path.join(folder, "h.h")
        with open(header, "w", encoding="utf-8") as f:
            f.write(HEADER)
        names = [n for n, _ in declared_functions(header)]
        expect(f"the declarations read are col_reached, col_never_run, col_never_linked, "
               f"col_user_register (got {names})",
               names == ["col_reached", "col_never_run", "col_never_linked", "col_user_register"])
        cov = _export(folder, root, {"core/src/a.c": ((9, 10), (3, 4))},
                      [("col_reached", 7), ("col_never_run", 0), ("static.c:col_helper", 3)])
        problems = check_public(cov, [header])
        expect(f"two public functions not reached, named (got {problems})", len(problems) == 2)
        expect("col_never_run named with its header and line 16",
               any("col_never_run" in p and "h.h:16" in p and "never run" in p for p in problems))
        expect("col_never_linked named with its header and line 17, as not linked",
               any("col_never_linked" in p and "h.h:17" in p and "no target links it" in p for p in problems))
        expect("col_reached not named", not any("col_reached" in p for p in problems))
        expect("a static function is not a public one", "col_helper" not in cov.functions)

        counts = line_counts(SEGMENTS)
        expect(f"line counts by llvm-cov's rule (got {counts})", counts == {1: 5, 2: 5, 3: 0, 4: 0, 7: 2})
        expect(f"missed lines 3 and 4 (got {cov.files['core/src/a.c']['missed_lines']})",
               cov.files["core/src/a.c"]["missed_lines"] == [3, 4])
        expect(f"missed branch sides (got {cov.files['core/src/a.c']['missed_branches']})",
               cov.files["core/src/a.c"]["missed_branches"] == [(2, 7, "false"), (3, 5, "both")])
        expect("ranges", ranges([9, 3, 4, 5, 12, 11]) == "3-5, 9, 11-12")

        floor_path = os.path.join(folder, "floor.txt")
        meta = {"measured": "2000-01-01 commit abc", "cpu": "a CPU", "tools": "llvm-cov 0",
                "margin": "lines 0.1 branches 0.2"}
        write_floor(floor_path, cov, ["core/src/a.c"], meta)
        fmeta, rows = read_floor(floor_path)
        expect(f"the floor file reads back (got {rows})",
               rows["core/src/a.c"]["lines"] == (9, 10) and rows["total"]["branches"] == (3, 4)
               and fmeta["measured"] == "2000-01-01 commit abc")
        margin = {"lines": 0.1, "branches": 0.2}
        same = check_floor(cov, ["core/src/a.c"], fmeta, rows, margin)
        expect(f"no problem at the floor (got {same})", same == [])
        worse = _export(folder, root, {"core/src/a.c": ((8, 10), (3, 4)), "core/src/b.c": ((1, 2), (0, 0))}, [])
        problems = check_floor(worse, ["core/src/a.c", "core/src/b.c"], fmeta, rows, margin)
        expect(f"a line drop from 90% to 75% named, branches not (got {problems})",
               any("line coverage fell from 90.00% to 75.00%" in p for p in problems)
               and not any("branches" in p for p in problems))
        expect("a.c named as losing a line", any("core/src/a.c: 2 lines not reached, the floor records 1" in p
                                                 for p in problems))
        expect("b.c named as new with a missed line", any("core/src/b.c: new, 1 of 2 lines" in p for p in problems))
        within = _export(folder, root, {"core/src/a.c": ((8999, 10000), (3, 4))}, [])
        rows_big = {"total": {"lines": (9000, 10000), "branches": (3, 4)}}
        ok = check_floor(within, ["core/src/a.c"], fmeta, rows_big, margin)
        expect(f"a drop of 0.01 points is within a 0.1 margin (got {ok})", ok == [])
    for f in failures:
        print(f"fuzz-coverage --self-test: FAILED: {f}")
    if not failures:
        print("fuzz-coverage --self-test: the checks name a public function not run and one not linked, "
              "a file that lost lines and a new one; clean inputs pass")
    return 1 if failures else 0
