"""The benchmark data the report reads: finding and loading runs
(<name>.json.xz, as make bench writes them, or plain <name>.json), the table of one run by
family/variant/scene, backend kinds and order, speedups, and the targets."""
import glob
import json
import lzma
import os
import sys

# A run's file: Google Benchmark JSON, xz-compressed as make bench writes it, or plain.
RUN_SUFFIXES = (".json.xz", ".json")

# The targets of the benchmark issue: (family, variant, scene, N, backend, minimum speedup).
TARGETS = [
    ("aabb2", "soa", "uniform", 4096, "avx2", 6.0),
    ("aabb2", "soa", "uniform", 4096, "avx512", 10.0),
    ("aabb2", "soa", "fixed", 4096, "avx2", 6.0),
    ("aabb2", "soa", "fixed", 4096, "avx512", 10.0),
    ("mtd", "batch", "uniform", 4096, "avx2", 4.0),
    ("sprite", "count", "noise50", 256, "avx2", 6.0),
    ("sprite", "count", "noise50", 256, "avx512", 10.0),
    ("sweep", "spheres", "uniform", 4096, "avx2", 5.0),
    ("sweep", "spheres", "uniform", 4096, "avx512", 8.0),
    ("slab", "segment3", "cloud", 4096, "avx2", 6.0),
    ("slab", "segment3", "cloud", 4096, "avx512", 10.0),
    ("slab", "sweep2", "tiles", 4096, "avx2", 4.0),
    ("broadphase", "sap", "boxprune3d", 10000, "avx2", 9.0),
]
# The headline rows of the machines-side-by-side table: what the fastest native backend buys
# over scalar, per kernel, at one size.
HEADLINES = [
    ("aabb2", "soa", "uniform", 4096),
    ("aabb3", "soa", "uniform", 4096),
    ("mtd", "batch", "uniform", 4096),
    ("sprite", "count", "noise50", 256),
    ("mask", "count", "noise50", 256),
    ("sweep", "spheres", "uniform", 4096),
    ("circle", "squared", "uniform", 4096),
    ("slab", "segment3", "cloud", 4096),
    ("slab", "sweep2", "tiles", 4096),
]
ABSOLUTE_TARGETS = [  # max TSC cycles per box
    ("aabb2", "soa", "uniform", 4096, "avx512", 0.3),
    ("aabb2", "soa", "fixed", 4096, "avx512", 0.3),
]

# Variants of the broadphase family that are not our algorithms writing a pair list: the peer
# engines, the paired engine-and-ours rows (peers.py), the memory floor and our streamed sweep
# (bench/bench_floor.c, floor.py: its pairs never written as a list, so not comparable with
# the rows that write one). Every reader of "our fastest broadphase" leaves them out.
NOT_OURS = ("peer-", "paired-", "floor-", "sap-stream")
# Our fastest sweep and prune over the floor's non-temporal row, at most (scene, N, ratio).
FLOOR_TARGETS = [("boxprune2d", 100000, 1.6), ("boxprune3d", 100000, 2.0)]
# The published box-pruning series, the scene boxprune3d reproduces (bench_scenes.h): its best
# figure at each size, in K-cycles (rdtsc), and the pairs it found there, which ours must equal
# for the scene to be the same. Measured on another CPU: shown beside ours, never a target.
PUBLISHED_BOXPRUNE = {10000: (2413, 11811), 100000: (182715, 1144045)}
PUBLISHED_BOXPRUNE_SOURCE = ("Pierre Terdiman's box-pruning series (\"Box pruning revisited\"), its "
                             "best figure at each size (at 10,000 boxes its AVX version), rdtsc "
                             "K-cycles on an Intel Core i7-6850K")

# The families of runs recorded before the run listed them (collide_families): as they were
# then. Newer runs record their own (collide-bench --collide_list=families).
_FAMILIES_BEFORE_LISTED = {"sprite": "pixels", "mask": "pixels", "broadphase": "own", "move": "own",
                           "sim": "own", "circlestat": "own", "sweepstat": "own"}
# The suites whose unfiltered runs were complete, for runs recorded before collide_suite_kind.
_COMPLETE_BEFORE_LISTED = ("default", "full")


def cycles(table, key, backend, n):
    try:
        return table[key][backend][n]["tsc_cycles_per_item"]
    except KeyError:
        return None


def read_json(path):
    """The JSON in `path`, decompressed first when its name ends in .xz."""
    if path.endswith(".xz"):
        with lzma.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def run_name(path):
    """A run's name: its file name without .json.xz or .json (it starts with the UTC date)."""
    base = os.path.basename(path)
    for suffix in RUN_SUFFIXES:
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return os.path.splitext(base)[0]


def run_files(folder):
    """The run files directly in `folder` (compressed or plain), newest first by name."""
    found = {p for suffix in RUN_SUFFIXES for p in glob.glob(os.path.join(folder, "*" + suffix))}
    return sorted(found, key=lambda p: (run_name(p), p), reverse=True)


def load_runs(paths):
    runs = []
    for path in paths:
        try:
            data = read_json(path)
        except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
            sys.exit(f"report: {path}: not a Google Benchmark JSON file: {e}")
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
            sys.exit(f"report: {path}: not a Google Benchmark JSON file (no \"benchmarks\" list)")
        runs.append((path, data))
    return runs


def complete_run(data):
    """An unfiltered run of a complete suite (default, full): the only kind that may replace
    REPORT.md."""
    ctx = data.get("context", {})
    if "collide_suite_kind" in ctx:
        complete = ctx["collide_suite_kind"] == "complete"
    else:
        complete = ctx.get("collide_suite") in _COMPLETE_BEFORE_LISTED
    return complete and ctx.get("collide_filter", "") in ("", ".", ".*")


def newest_per_machine(results_dir):
    """The newest complete run of every machine (results/<machine>/*.json.xz or *.json; file
    names start with the UTC date). Runs under results/<machine>/partial/ are never taken."""
    paths = []
    for machine_dir in sorted(glob.glob(os.path.join(results_dir, "*"))):
        if not os.path.isdir(machine_dir) or os.path.basename(machine_dir) == "plots":
            continue
        for path in run_files(machine_dir):
            if complete_run(load_runs([path])[0][1]):
                paths.append(path)
                break
    return paths


def table_of(data):
    """{(family, variant, scene): {backend: {N: benchmark}}} from one run."""
    table = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "mean":
            continue
        name = b.get("run_name", b["name"])
        parts = name.split("/")
        if len(parts) == 6 and parts[5].startswith("iterations:"):
            parts = parts[:5]  # benchmarks with a fixed iteration count
        if len(parts) == 4 and parts[1].startswith(("peer-", "floor-")):
            # peer engines (broadphase/peer-<engine>-<structure>/<scene>/N) and the memory floor
            # (broadphase/floor-<stores>/<scene>/N) run on no backend of ours
            parts.insert(2, "")
        if len(parts) != 5:
            continue
        family, variant, backend, scene, n = parts
        table.setdefault((family, variant, scene), {}).setdefault(backend, {})[int(n)] = b
    return table


_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def run_time(data):
    """Where the run's wall time went, from the wall_seconds and search_seconds each benchmark
    records (None for runs recorded before them): (benchmarks, wall, timed, search, by_group)
    in seconds. timed is iterations x real time; search, Google Benchmark's calls whose results
    it dropped while choosing the iteration count; the rest is untimed work of the reported
    calls (scenes, warm-up calls, checks after timing). by_group: {family/variant: untimed +
    search seconds}."""
    runs = [b for b in data.get("benchmarks", [])
            if b.get("run_type") != "aggregate" and "wall_seconds" in b]
    if not runs:
        return None
    wall = timed = search = 0.0
    by_group = {}
    for b in runs:
        spent = b.get("iterations", 0) * b.get("real_time", 0.0) * _UNIT_SECONDS.get(b.get("time_unit"), 1e-9)
        wall += b["wall_seconds"]
        timed += spent
        search += b.get("search_seconds", 0.0)
        group = "/".join(b["name"].split("/")[:2])
        by_group[group] = by_group.get(group, 0.0) + b["wall_seconds"] - spent
    return len(runs), wall, timed, search, by_group


def backend_kinds(context):
    """{backend: kind} ("native", "reference", "compiler", "emulated", "user") as the run
    recorded it (collide_backend_kinds, parallel to collide_backends). Runs recorded before
    the kinds were: the built-in naming (scalar, autovec, "<native>-emu") gives them."""
    names = [b for b in context.get("collide_backends", "").split(",") if b]
    kinds = [k for k in context.get("collide_backend_kinds", "").split(",") if k]
    if len(kinds) == len(names):
        return dict(zip(names, kinds))
    legacy = {"scalar": "reference", "autovec": "compiler"}
    return {b: legacy.get(b, "emulated" if b.endswith("-emu") else "native") for b in names}


def family_kinds(context):
    """{family: kind} as the run recorded it (collide_families, collide_family_kinds): "objects"
    and "pixels" families run on every backend over object counts or sprite sides (items: the
    overlap's pixels); "own" families have their own variants and sizes and sections of their own
    (broadphase.py, pixels.py, dynamics.py, sweep.py). A family the
    run did not list counts as "objects"."""
    names = [f for f in context.get("collide_families", "").split(",") if f]
    kinds = [k for k in context.get("collide_family_kinds", "").split(",") if k]
    if names and len(kinds) == len(names):
        return dict(zip(names, kinds))
    return dict(_FAMILIES_BEFORE_LISTED)


def pixels(families, family):
    """Whether the family's argument is the sprites' side (items: the overlap's pixels)."""
    return families.get(family) == "pixels"


def own_section(families, family):
    """Whether the family is reported in a section of its own rather than per backend."""
    return families.get(family) == "own"


def backend_order(context, present):
    listed = context.get("collide_backends", "").split(",")
    order = [b for b in listed if b in present]
    return order + sorted(b for b in present if b not in order)


def speedup(table, key, backend, n):
    rows = table.get(key, {})
    try:
        return rows[backend][n]["items_per_second"] / rows["scalar"][n]["items_per_second"]
    except (KeyError, ZeroDivisionError):
        return None
