#!/usr/bin/env bash
# The benchmark harness never swallows an error, and two runs at once lose nothing (part of
# make test, through make bench-check). With the benchmark binary of build folder O (build/test):
#   - a user kernel file that registers with a wrong COL_USER_VERSION (linked from O's objects
#     into build/bench-check/): scripts/bench/bench.sh fails and prints the registration error;
#   - an unknown flag, an unknown suite, a filter matching nothing: each fails with its reason;
#   - --benchmark_format=json and csv put that format alone on stdout;
#   - two scripts/bench/bench.sh runs at once, given the same time stamp: both results kept (as
#     .json.xz), both reports written; the one given a load average of 99.5 at its end is warned
#     of on the console, in its kept context and in its report;
#   - a report from two machines' JSON (scripts/check/fixtures/second-machine.json and a run of this
#     machine) shows both side by side;
#   - the report's memory-floor ratios and verdicts on scripts/check/fixtures/floor.json
#     (scripts/check/check-floor-report.py); the real scenes' goals
#     (scripts/check/check-scene-goals.py); the warning on a shared machine
#     (scripts/check/check-load-warning.py);
#   - scripts/bench/compare.py (scripts/check/check-compare.sh): a clear error on a file that is not JSON (or a cut .json.xz), warnings on
#     different CPUs, compressed and plain files alike;
#     digests compared per input, a backend differing from its own scalar named; options that
#     cannot apply refused;
#   - scripts/bench/choice.py: quoted flag sets, CFLAGS+= and result-changing flags moved to
#     CHOICE_CFLAGS; bad choices refused with exit 2 and the reason; the Makefile's refusals of
#     result-changing CFLAGS and of CHOICE_CFLAGS in the reference folders, and CHOICE_LABEL;
#   - a scene file (--collide_scene=FILE): its rows agree on the pair counts, the report says so
#     and says PAIR COUNT MISMATCH when one count is changed; a malformed file: exit 2, the
#     reader's line and byte, nothing run.
#   scripts/check/check-bench-errors.sh O
set -euo pipefail
cd "$(dirname "$0")/../.."
o=${1:?usage: scripts/check/check-bench-errors.sh BUILD_FOLDER}
bin=$o/collide-bench
python=${PYTHON:-/usr/bin/python3}
work=build/bench-check
rm -rf --one-file-system "$work"
mkdir -p "$work"
export COLLIDE_RESULTS=$work/results
tiny='--benchmark_filter=^mtd/batch/(scalar|sse2)/'

fail() {
  echo "bench-check: FAILED: $*" >&2
  exit 1
}

# expect_fail WHAT TEXT COMMAND...: the command fails, and its output says TEXT.
expect_fail() {
  local what=$1 text=$2 rc=0
  shift 2
  "$@" > "$work/out.log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    cat "$work/out.log" >&2
    fail "$what: exit 0 where a failure was expected"
  fi
  if ! grep -qF -- "$text" "$work/out.log"; then
    cat "$work/out.log" >&2
    fail "$what: exit $rc, but the output does not say \"$text\""
  fi
  echo "bench-check: $what: exit $rc, says \"$text\": ok"
}

# expect_text WHAT FILE TEXT: FILE contains TEXT.
expect_text() {
  grep -qF -- "$3" "$2" || { cat "$2" >&2; fail "$1: $2 does not say \"$3\""; }
}

# 1. A user kernel that fails to register: the binary built with it, from O's objects.
cat > "$work/wrong_version.c" << 'C'
/* Written by scripts/check/check-bench-errors.sh: a user backend that registers with a version of
 * collide.h that does not exist, so col_backend_register refuses it. */
#include "collide.h"

static size_t query2(col_aabb2 q, const col_aabb2_soa *set, col_touch touch, uint32_t *out) {
  (void)q, (void)set, (void)touch, (void)out;
  return 0;
}

col_status col_user_register(void) {
  const col_user_backend mine = {
      .version = COL_USER_VERSION + 1,
      .name = "wrong-version",
      .width = 1,
      .kernels = {.aabb2_query = query2},
  };
  return col_backend_register(&mine);
}
C
make --no-print-directory -s O="$o" USER_O="$work/user" BENCHBIN="$work/collide-bench" \
  USER_KERNELS="$work/wrong_version.c" "$work/collide-bench"
expect_fail "a user kernel registering with a wrong version" \
  "$work/wrong_version.c: col_user_register() failed: struct from another version of collide.h" \
  bash scripts/bench/bench.sh "$work/collide-bench" smoke "$tiny"

# 2. Bad flags, suites and filters.
expect_fail "an unknown flag" "unrecognized command-line flag: --bogus" \
  bash scripts/bench/bench.sh "$bin" smoke --bogus
expect_fail "an unknown suite" "BENCH=fast: not a suite" bash scripts/bench/bench.sh "$bin" fast
expect_fail "a filter matching nothing" \
  "no benchmark matches --benchmark_filter=no-such-benchmark in suite 'smoke'" \
  bash scripts/bench/bench.sh "$bin" smoke --benchmark_filter=no-such-benchmark
expect_fail "an unknown output format" "--benchmark_format=xml: use console, json or csv" \
  env COLLIDE_BENCH_SUITE=smoke "$bin" --benchmark_format=xml

# 3. Output formats: stdout carries the format alone, the progress goes to stderr.
for format in json csv; do
  COLLIDE_BENCH_SUITE=smoke "$bin" "$tiny" --benchmark_min_time=0.001 \
    --benchmark_format=$format > "$work/stdout.$format" 2> "$work/stderr.$format" ||
    { cat "$work/stderr.$format" >&2; fail "--benchmark_format=$format: the run failed"; }
  expect_text "--benchmark_format=$format: progress on stderr" "$work/stderr.$format" \
    "mtd/batch/scalar/uniform/16 ..."
done
"$python" - "$work/stdout.json" "$work/stdout.csv" << 'PY' || fail "--benchmark_format: stdout is not the format asked for"
import csv, json, sys
data = json.load(open(sys.argv[1]))
names = sorted(b["name"] for b in data["benchmarks"])
rows = list(csv.reader(open(sys.argv[2])))
assert names and "mtd/batch/scalar/uniform/16" in names, names
assert rows[0][:2] == ["name", "iterations"], rows[0]
assert sorted(r[0] for r in rows[1:]) == names, rows
print(f"bench-check: --benchmark_format=json and csv: stdout parses ({len(names)} benchmarks each): ok")
PY

# 4. Two runs at once, with one time stamp (a date(1) that always gives the same second).
mkdir -p "$work/fixed-date"
printf '#!/bin/sh\necho 20990101-000000\n' > "$work/fixed-date/date"
chmod +x "$work/fixed-date/date"
pids=()
for i in 1 2; do
  load=
  [ "$i" -eq 1 ] || load="99.5 50.25 20.75" # run 2's machine as if shared: warned
  PATH=$PWD/$work/fixed-date:$PATH COLLIDE_MACHINE=check-machine COLLIDE_BENCH_LOAD_END=$load \
    bash scripts/bench/bench.sh "$bin" smoke "$tiny" > "$work/run$i.log" 2>&1 &
  pids+=($!)
done
for i in 1 2; do
  wait "${pids[$((i - 1))]}" || { cat "$work/run$i.log" >&2; fail "concurrent run $i failed"; }
  expect_text "concurrent run $i: weighted ETA" "$work/run$i.log" ", ETA "
done
runs=("$COLLIDE_RESULTS"/check-machine/partial/*.json.xz)
reports=("$COLLIDE_RESULTS"/check-machine/partial/*.md)
[ "${#runs[@]}" -eq 2 ] && [ "${#reports[@]}" -eq 2 ] ||
  fail "two runs at once: ${#runs[@]} results and ${#reports[@]} reports (expected 2 and 2): ${runs[*]}"
echo "bench-check: two runs at once, same second: both kept (${runs[*]##*/}), both reported: ok"
expect_text "a run on a shared machine: the console" "$work/run2.log" \
  "99.50 at the end on $(nproc) logical CPUs"
expect_text "a run on a shared machine: the console" "$work/run2.log" "the load average reached 99.5"
grep -l "collide_load_avg_end.: \[99.5, 50.25, 20.75\]" <(xz -dc "${runs[@]}") > /dev/null ||
  fail "a run on a shared machine: its kept run does not hold the load at its end"
grep -l "Noisy run: other work shared the machine: the load average reached 99.5" "${reports[@]}" > /dev/null ||
  fail "a run on a shared machine: its report does not say Noisy run"
echo "bench-check: a run on a shared machine (load 99.5 at its end): warned on the console and in its report: ok"
if grep -q "Library was built as DEBUG" "$work/run1.log"; then
  expect_text "Google Benchmark's DEBUG warning explained" "$work/run1.log" \
    "(collide: that warning is about Debian's build of the Google Benchmark library"
  echo "bench-check: Google Benchmark's DEBUG warning is followed by what it concerns: ok"
fi

# 5. Two machines side by side.
"$python" scripts/bench/report --input scripts/check/fixtures/second-machine.json "${runs[0]}" \
  --output "$work/two.md" --plots "$work/two-plots" > "$work/report.log" 2>&1 ||
  { cat "$work/report.log" >&2; fail "the two-machine report failed"; }
"$python" - "$work/two.md" << 'PY' || fail "the two-machine report does not show both machines side by side"
import re, sys
text = open(sys.argv[1]).read()
assert "## Machines side by side" in text, "no side-by-side table"
header = re.search(r"^\| \| (.*) \|$", text.split("## Machines side by side", 1)[1], re.M).group(1)
columns = [c.strip(" `") for c in header.split("|")]
assert len(columns) == 2 and columns[0].startswith("fixture-") and columns[1] == "check-machine", columns
for m in columns:
    assert f"## Machine `{m}`" in text, f"no section of {m}"
row = re.search(r"^\| target: mtd/batch/uniform 4096, avx2 [^|]*\|([^|]*)\|([^|]*)\|$", text, re.M)
assert row and "met" in row.group(1) and "not measured" in row.group(2), row and row.groups()
# The fixture's machine has no AVX-512 (its context lists avx2, sse2, scalar, autovec): its AVX-512
# goals say so instead of "not measured".
row = re.search(r"^\| target: aabb2/soa/uniform 4096, avx512 [^|]*\|([^|]*)\|", text, re.M)
assert row and row.group(1).strip() == "not on this CPU", row and row.groups()
print(f"bench-check: a report of two machines shows both side by side ({', '.join(columns)}): ok")
PY
"$python" scripts/check/check-floor-report.py "$work/floor" || fail "the memory floor's report"
"$python" scripts/check/check-scene-goals.py || fail "the real scenes' goals in the report"
"$python" scripts/check/check-load-warning.py || fail "the report's warning on a shared machine"

# 5b. What bench.sh keeps of a run: measured values to 6 significant digits, counts written as
# floats (pairs) to the last digit. Its packing step, taken from bench.sh, on a made-up run.
sed -n '/^"$python" - "$json" "$tmp" "$load_end" << .PY./,/^PY$/p' scripts/bench/bench.sh | sed '1d;$d' > "$work/pack.py"
cat > "$work/counts.json" << 'JSON'
{
  "context": {"date": "2026-11-28T22:00:00+00:00"},
  "benchmarks": [
    {
      "name": "broadphase/sap/avx2/boxprune3d/100000",
      "iterations": 12,
      "real_time": 7.2412345678901234e+00,
      "pairs": 1.1440450000000000e+06,
      "tests": 5.6038470000000000e+06
    }
  ]
}
JSON
"$python" "$work/pack.py" "$work/counts.json" "$work/counts.json.xz" "3.25 2.5 1.75" || fail "bench.sh's packing step failed on a made-up run"
"$python" - "$work/counts.json.xz" << 'PY' || fail "bench.sh's packing step changed a count or kept noise digits"
import json, lzma, sys
run = json.loads(lzma.open(sys.argv[1]).read())
assert run["context"] == {"collide_load_avg_end": [3.25, 2.5, 1.75], "date": "2026-11-28T22:00:00+00:00"}, run
row = run["benchmarks"][0]
assert row["pairs"] == 1144045 and row["tests"] == 5603847 and row["iterations"] == 12, row
assert row["real_time"] == 7.24123, row
print("bench-check: a kept run: counts to the last digit, measured values to 6 significant digits, the load at the end in its context: ok")
PY

# 6. scripts/bench/compare.py (scripts/check/check-compare.sh).
. scripts/check/check-compare.sh
# 7. Scene files (--collide_scene=FILE): a 3-frame file written here gives scene rows whose
# exact structures (ours and the peers not marked inexact) agree on the pair counts of the
# first and the last frame, and a report section saying so; the same JSON with one row's count
# changed makes the report say PAIR COUNT MISMATCH (the check can fail); --collide_list=scenes
# names the file; a malformed file stops the run with the reader's line and byte, exit 2,
# nothing run or written.
"$python" - "$work/level.txt" << 'PY'
import sys
# 2D: a row of touching tiles, a wall, and movers that walk across them; box i is box i of
# every frame.
frames = []
for t in range(3):
    boxes = [(16.0 * c, 0.0, 16.0 * c + 16, 16.0) for c in range(24)]
    boxes.append((0.0, 0.0, 8.0, 200.0))
    boxes += [(20.0 * m + 3.5 * t, 16.0, 20.0 * m + 3.5 * t + 12, 40.0) for m in range(16)]
    frames.append(boxes)
with open(sys.argv[1], "w") as f:
    f.write("collide-scene 1 2d\n")
    f.write("\n---\n".join("\n".join(" ".join(f"{v:g}" for v in b) for b in fr) for fr in frames))
    f.write("\n")
PY
"$bin" --collide_scene="$work/level.txt" --collide_list=scenes > "$work/scenes.out" ||
  fail "--collide_list=scenes with a scene file failed"
expect_text "--collide_list=scenes: the built-in scenes" "$work/scenes.out" "uniform built-in"
expect_text "--collide_list=scenes: the file" "$work/scenes.out" "level file 41 2d 3 $work/level.txt"
COLLIDE_MACHINE=scene-machine bash scripts/bench/bench.sh "$bin" smoke \
  --collide_scene="$work/level.txt" --collide_scene_only --benchmark_min_time=0.001 \
  > "$work/scene-run.log" 2>&1 || { cat "$work/scene-run.log" >&2; fail "a run of a scene file failed"; }
scene_runs=("$COLLIDE_RESULTS"/scene-machine/partial/*.json.xz)
[ "${#scene_runs[@]}" -eq 1 ] || fail "a run of a scene file: ${#scene_runs[@]} results, not 1"
expect_text "a run of a scene file: partial" "$work/scene-run.log" "a run of the scene files' rows alone ($work/level.txt)"
"$python" - "${scene_runs[0]}" "$work/tampered.json" << 'PY' || fail "the scene file's rows"
import json, lzma, sys
sys.path.insert(0, "scripts/bench")
from report.peers import INEXACT
data = json.load(lzma.open(sys.argv[1], "rt"))
rows = [b for b in data["benchmarks"] if b["name"].split("/")[-2:-1] == ["level"] or
        "/level/" in b["name"]]
names = [b["name"] for b in rows]
assert any(n.startswith("broadphase/sap/") for n in names), names
assert any(n.startswith("broadphase/sap-incremental-listed/") for n in names), names
assert any(n.startswith("broadphase/sap-par/") for n in names), names
other = [b["name"] for b in data["benchmarks"] if b not in rows]
assert not other, f"--collide_scene_only ran other rows: {other[:5]}"
def structure(name):  # a peer's per-frame rows are the same structure
    s = name.split("/")[1]
    return s[:-len("-incremental")] if s.startswith("peer-") and s.endswith("-incremental") else s
exact = [b for b in rows if not b.get("error_occurred") and structure(b["name"]) not in INEXACT]
assert any(b["name"].startswith("broadphase/peer-") and "-incremental/" in b["name"] for b in exact) \
    or not any(b["name"].startswith("broadphase/peer-") for b in rows), names
counts = {(b["pairs"], b["pairs_last"]) for b in exact}
assert len(counts) == 1, {b["name"]: (b["pairs"], b["pairs_last"]) for b in exact}
(first, last), = counts
first, last = int(first), int(last)
assert first > 0 and last > 0, counts
peers = sum(b["name"].startswith("broadphase/peer-") for b in exact)
print(f"bench-check: a 3-frame scene file: {len(rows)} rows ({peers} exact peers), every exact "
      f"structure {first} pairs on frame 0 and {last} on frame 2: ok")
victim = next(b for b in data["benchmarks"] if b["name"].startswith("broadphase/sap/"))
victim["pairs"] += 1
json.dump(data, open(sys.argv[2], "w"))
PY
report=("$COLLIDE_RESULTS"/scene-machine/partial/*.md)
expect_text "the scene file's report section" "${report[0]}" "#### Scene file \`level\`: 41 boxes, 2D, 3 frames"
expect_text "the scene file's pair check" "${report[0]}" "Pair counts identical across all"
case ${report[0]} in *-scenes.md) ;; *) fail "a run of the scene files' rows alone is named ${report[0]##*/}, not ...-scenes.md" ;; esac
! grep -q "| not measured |" "${report[0]}" || fail "a run of a scene file: its report lists targets not measured"
! grep -q "### Choices side by side" "${report[0]}" || fail "a run of a scene file: its report has an empty choices section"
expect_text "a run of a scene file: the targets left out" "${report[0]}" "targets not measured in this run left out"
echo "bench-check: a run of the scene files' rows alone: named -scenes, no target it did not measure, no empty table: ok"
"$python" scripts/bench/report --input "$work/tampered.json" --output "$work/tampered.md" \
  --plots "$work/tampered-plots" > "$work/tampered.log" 2>&1 || { cat "$work/tampered.log" >&2; fail "report of a changed count"; }
expect_text "a changed pair count: the report" "$work/tampered.md" "PAIR COUNT MISMATCH"
expect_text "a changed pair count: stderr" "$work/tampered.log" "scene file level: PAIR COUNT MISMATCH: sap/"
echo "bench-check: a changed pair count is reported as a mismatch: ok"
sed '4s/.*/16 0 0 16/' "$work/level.txt" > "$work/broken.txt"
expect_fail "a malformed scene file" "$work/broken.txt: line 4 (byte 40): inverted box (min > max), on x" \
  env COLLIDE_MACHINE=broken-machine bash scripts/bench/bench.sh "$bin" smoke \
  --collide_scene="$work/broken.txt" --collide_scene_only
grep -q "exit 2" "$work/out.log" || { cat "$work/out.log" >&2; fail "a malformed scene file: not exit 2"; }
[ ! -e "$COLLIDE_RESULTS/broken-machine" ] || fail "a malformed scene file: a run was written"
! grep -q '^\[' "$work/out.log" || fail "a malformed scene file: benchmarks ran"
rc=0
"$bin" --collide_scene="$work/broken.txt" --collide_list=scenes > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "a malformed scene file: collide-bench exit $rc, not 2"
echo "bench-check: a malformed scene file: the reader's line and byte, exit 2, nothing run: ok"
echo "bench-check: every failure said why; concurrent runs and two machines kept apart: ok"
