#!/usr/bin/python3
"""make bench-choices: build choices priced in time and in answers, in one table.

Each choice of CHOICES below (or of BENCH_CHOICES: choices separated by ';', each make
variables as scripts/bench/choice.py reads them) is built in build/choices/<n>/ (the benchmark binary
and collide-digest); then, in ROUNDS rounds that alternate the choices, each binary times every
family's headline rows (HEADLINE: the scalar backend and this CPU's newest native one); and each
choice's digest is compared input by input with the reference's (the first choice). Writes
results/<machine>/choices/<time>-<revision>.md and .json.xz (the figures, xz-compressed); the
report (scripts/bench/report) puts the newest table of a machine into its full report. Speed is
the reference's median time over the choice's, per row, and per family the geometric mean of its
rows; answers are "same" or the kernels and inputs that differ.
"""
import datetime
import json
import lzma
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = "/usr/bin/python3"
# The default list: the reference first (gcc -O2, the project's flags).
CHOICES = [
    ("gcc -O2 (reference)", ""),
    ("gcc -O3", "CFLAGS+=-O3"),
    ("gcc -O3 -march=native", "CFLAGS+=-O3 -march=native"),
    ("clang -O2", "CC=clang"),
    ("clang -O3 -march=native", "CC=clang CFLAGS+=-O3 -march=native"),
    ("gcc -O2 -ffp-contract=fast -march=native", "CFLAGS+=-ffp-contract=fast -march=native"),
    ("gcc -O2 -ffast-math", "CFLAGS+=-ffast-math"),
]
# Each family's headline rows: {B} is this CPU's newest native backend.
HEADLINE = [
    ("aabb2", "aabb2/soa/{b}/uniform/4096"),
    ("aabb3", "aabb3/soa/{b}/uniform/4096"),
    ("mtd", "mtd/batch/{b}/uniform/4096"),
    ("sprite", "sprite/count/{b}/noise50/256"),
    ("mask", "mask/count/{b}/noise50/256"),
    ("move", "move/fast/scalar/slopes/64"),
    ("circle", "circle/seed/{b}/uniform/4096"),
    ("elastic", "elastic/normal/{b}/uniform/4096"),
    ("sweep", "sweep/spheres/{b}/uniform/4096"),
    ("broadphase", "broadphase/sap/{b}/boxprune3d/10000"),
    ("sim", "sim/balls-sap/{b}/uniform/4096"),
]
ROUNDS = int(os.environ.get("BENCH_CHOICES_ROUNDS", "3"))


def die(msg, code=1):
    print(f"bench-choices: {msg}", file=sys.stderr)
    sys.exit(code)


def run(cmd, log):
    """cmd in the tree, its output into log (a path under the tree)."""
    os.makedirs(os.path.dirname(os.path.join(ROOT, log)), exist_ok=True)
    with open(os.path.join(ROOT, log), "w") as f:
        return subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, text=True)


def make_args(choice):
    p = subprocess.run([PYTHON, "scripts/bench/choice.py", "make-args", choice], cwd=ROOT,
                       capture_output=True, text=True)
    if p.returncode != 0:
        die(p.stderr.strip(), 2)
    return [a for a in p.stdout.split("\0") if a]


def load_digest(path):
    kernels, inputs = {}, {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            w = line.split()
            if w[0] == "input":
                inputs[(w[1], w[2], int(w[3]))] = w[4]
            elif len(w) == 4:
                kernels[(w[0], w[1])] = (int(w[2]), w[3])
    return kernels, inputs


def answers(ref, other):
    """(kernels that differ on the scalar backend or '-': [(kernel, k, n)], SIMD rows that differ
    from the choice's own scalar)."""
    rk, ri = ref
    ok, oi = other
    differ = []
    for (kernel, backend), (n, h) in ok.items():
        if backend not in ("scalar", "-") or (kernel, backend) not in rk:
            continue
        if rk[(kernel, backend)][1] != h:
            k = sum(1 for i in range(n) if ri.get((kernel, backend, i)) != oi.get((kernel, backend, i)))
            differ.append((kernel, k, n))
    own = sorted({kernel for (kernel, backend), (n, h) in ok.items()
                  if backend != "scalar" and (kernel, "scalar") in ok and ok[(kernel, "scalar")][1] != h})
    return differ, own


def main():
    spec = os.environ.get("BENCH_CHOICES", "")
    choices = CHOICES if not spec.strip() else [(c.strip() or "reference", c.strip()) for c in spec.split(";")]
    if choices[0][1]:
        choices.insert(0, ("gcc -O2 (reference)", ""))
    for _, c in choices:
        make_args(c)  # refuses a bad choice before anything is built
    jobs = str(os.cpu_count() or 2)
    start = datetime.datetime.now()
    dirs = []
    for i, (name, c) in enumerate(choices):
        d = f"build/choices/{i}"
        dirs.append(d)
        t0 = datetime.datetime.now()
        print(f"bench-choices: [{i + 1}/{len(choices)}] building {name} ({c or 'the defaults'}) into {d} ...",
              flush=True)
        p = run(["make", f"-j{jobs}", "--no-print-directory", f"O={d}", *make_args(c),
                 f"{d}/collide-bench", f"{d}/collide-digest"], log=f"{d}.build.log")
        if p.returncode != 0:
            subprocess.run(["tail", "-n", "20", f"{ROOT}/{d}.build.log"])
            die(f"the build of {name} failed (log: {d}.build.log)")
        print(f"bench-choices: built in {(datetime.datetime.now() - t0).seconds} s", flush=True)
    ref_bin = f"{ROOT}/{dirs[0]}/collide-bench"
    natives = [l.split()[0] for l in subprocess.run([ref_bin, "--collide_list=backends"], capture_output=True,
                                                    text=True).stdout.splitlines() if l.endswith(" native")]
    best = natives[0] if natives else "scalar"
    rows = sorted({r.format(b=b) for _, r in HEADLINE for b in ("scalar", best)})
    family_of = {r.format(b=b): f for f, r in HEADLINE for b in ("scalar", best)}
    pattern = "^(" + "|".join(rows) + ")$"  # names are [a-z0-9/_-]: nothing to escape
    times = [{r: [] for r in rows} for _ in choices]
    for rnd in range(ROUNDS):
        for i, (name, _) in enumerate(choices):
            print(f"bench-choices: round {rnd + 1}/{ROUNDS}, {name} ...", flush=True)
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                env = dict(os.environ, COLLIDE_BENCH_SUITE="default")
                p = subprocess.run([f"{ROOT}/{dirs[i]}/collide-bench", f"--benchmark_filter={pattern}",
                                    "--benchmark_min_time=0.1", f"--benchmark_out={out.name}",
                                    "--benchmark_out_format=json"], cwd=ROOT, env=env,
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    print(p.stderr[-2000:], file=sys.stderr)
                    die(f"the benchmarks of {name} failed")
                for b in json.load(open(out.name))["benchmarks"]:
                    name_ = b.get("run_name", b["name"])
                    if name_ in times[i] and not b.get("error_occurred"):
                        times[i][name_].append(b["real_time"])
    digests = []
    for i, (name, _) in enumerate(choices):
        path = f"{ROOT}/{dirs[i]}/digest-inputs.txt"
        with open(path, "w") as f:
            subprocess.run([f"{ROOT}/{dirs[i]}/collide-digest", "--inputs"], cwd=ROOT, stdout=f,
                           stderr=subprocess.DEVNULL)
        digests.append(load_digest(path))
    ident = subprocess.run([ref_bin, "--collide_machine_name"], capture_output=True, text=True).stdout.strip()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    families = [f for f, _ in HEADLINE]
    result = {"machine": ident, "revision": rev + ("-dirty" if dirty else ""), "best_backend": best,
              "rounds": ROUNDS, "date": start.isoformat(timespec="seconds"), "choices": []}
    for i, (name, c) in enumerate(choices):
        speed = {}
        for f in families:
            ratios = [statistics.median(times[0][r]) / statistics.median(times[i][r]) for r in rows
                      if family_of[r] == f and times[0][r] and times[i][r]]
            speed[f] = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
        differ, own = answers(digests[0], digests[i]) if i else ([], [])
        result["choices"].append({"name": name, "choice": c, "speed": speed,
                                  "kernels": len({k for k, b in digests[i][0] if b in ("scalar", "-")}),
                                  "differ": differ, "own_backends_disagree": own})
    lines = [f"Build choices on {ident} (revision {result['revision']}, {start:%Y-%m-%d %H:%M}): speed over "
             f"the reference per family (geometric mean of its rows on scalar and {best}, median of "
             f"{ROUNDS} alternating rounds) and the digest's answers (scalar backend and the single-pair "
             "calls, every input of input set 1) against the reference's.", "",
             "| family | " + " | ".join(ch["name"] for ch in result["choices"]) + " |",
             "|---|" + "---|" * len(choices)]
    for f in families:
        cells = [("–" if ch["speed"][f] is None else f"{ch['speed'][f]:.2f}x") for ch in result["choices"]]
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    cells = []
    for ch in result["choices"]:
        if not ch["differ"]:
            cells.append(f"same ({ch['kernels']} kernels)")
        else:
            cells.append(f"differ: {len(ch['differ'])} of {ch['kernels']} kernels")
    lines.append("| **answers** | " + " | ".join(cells) + " |")
    lines.append("")
    for ch in result["choices"]:
        if ch["differ"]:
            detail = ", ".join(f"{k} {d}/{n}" for k, d, n in ch["differ"])
            lines.append(f"- {ch['name']}: inputs that differ: {detail}." +
                         (f" Its own SIMD backends also disagree with its own scalar on: "
                          f"{', '.join(ch['own_backends_disagree'])}." if ch["own_backends_disagree"] else ""))
    lines.append("")
    folder = os.path.join(ROOT, "results", ident, "choices")
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, f"{start:%Y%m%d-%H%M%S}-{result['revision']}")
    with lzma.open(base + ".json.xz", "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME) as f:
        json.dump(result, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"bench-choices: wrote {os.path.relpath(base, ROOT)}.md and .json.xz in "
          f"{(datetime.datetime.now() - start).seconds} s")


if __name__ == "__main__":
    main()
