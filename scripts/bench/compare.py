#!/usr/bin/python3
"""Compares two optimization choices and prints one short table of speedups with p-values.

  scripts/bench/compare.py OLD.json.xz NEW.json.xz                two result files (from make bench; or plain .json)
  scripts/bench/compare.py --backends scalar avx2                 two backends, one binary, interleaved
  scripts/bench/compare.py --patterns aabb2/soa aabb2/aos         two benchmark name patterns, one binary
  scripts/bench/compare.py --patterns broadphase/sap/avx2/uniform broadphase/grid/scalar/uniform
  scripts/bench/compare.py --build 'CC=gcc' 'CC=clang'            two builds (any make variables)
  scripts/bench/compare.py --build 'CFLAGS=-O2' 'CFLAGS=-O2 -ffp-contract=fast -march=native' --filter circle
  scripts/bench/compare.py --digest A.txt B.txt                   two digests (collide-digest output)

Options: --filter PREFIX, the start of the benchmark names: for --backends and --build (default
'aabb2/soa': family/variant, or a family such as 'mtd'), and on two result files (default: every
benchmark both hold). For runs only: --reps N repetitions
(default 10); --suite NAME, a suite the benchmark binary lists (collide-bench
--collide_list=suites: smoke, quick, default, full; default quick: its sizes).

--build A B: each side is make variables as scripts/bench/choice.py reads them, quoted as one
argument ('CFLAGS=-O3 -march=native' works). 'CFLAGS+=-O3 -march=native' keeps the Makefile's
flags and adds these after the required ones (CHOICE_CFLAGS); 'CFLAGS=-O2 -march=native'
replaces the Makefile's flags (a CFLAGS= without -O builds unoptimized: a warning says so).
Flags that change results (-ffp-contract=fast, -ffast-math, -Ofast, ...) always go after the
required -ffp-contract=off -fno-fast-math, so that they take effect. A side with any flags
after the required ones is "not the reference"; the heading says so, names the effective flags
of both sides in order, and the CPU once. The sides are built in build/compare-0 and
build/compare-1 (logs beside them, kept: a later compare with the same first or second side
reuses that folder, rebuilding only what changed), with a progress line at least every 15 s; a failed build
shows make's own error. Beside the speed table both builds are digested (collide-digest
--inputs): each kernel reads "same answers on all N inputs" or "differs on k of N inputs", a
side whose own SIMD backends disagree with its own scalar is named, and the first differing
input is shown with both answers.

--digest A B compares two outputs of collide-digest (two machines, two builds; backends only
one file has are listed, not compared; `--inputs` in both also gives how many inputs differ
and the first); exit 1 when an answer differs.

--patterns A B pairs every benchmark named A<rest> with the one named B<rest> (the rest is
usually the scene and N): layouts (aabb2/soa vs aabb2/aos), algorithms (broadphase/sap/... vs
broadphase/grid/...), backends of different families.

Reading the table: each row is one benchmark, the median time per iteration of both sides, and
how much faster the second is than the first ("29.1x faster", "1.3x slower", or "same" when the
medians agree to the digits shown). The p-value is a two-sided Mann-Whitney U test over the
repetitions (Debian's python3-scipy): below 0.05 the difference is unlikely to be noise (marked
*). With few repetitions the test cannot go below a floor (n and m repetitions: 2 / C(n+m, n),
0.1 for 3 against 3, 0.0079 for 5 against 5): the footer says so when it applies. Repetitions
of both sides are interleaved in one process (--build: alternate processes), so a clock that
drifts affects both alike. Two result files from different CPUs, suites, compilers or
revisions are compared all the same, with a warning naming what differs.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import choice as choices  # noqa: E402  scripts/bench/choice.py: the one parser of a build choice
from compare_data import CONTEXT, CPU, context_warnings, die, load, natural, samples_of, table  # noqa: E402
from compare_digest import compare_digests, load_digest, show_difference  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = "build/release/collide-bench"
PYTHON = "/usr/bin/python3"


def parse(argv):
    opts = {"mode": "files", "filter": "aabb2/soa", "reps": 10, "suite": "quick", "pos": [], "given": set()}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if a in ("--backends", "--build", "--patterns", "--digest"):
            opts["mode"] = a[2:]
        elif a in ("--filter", "--reps", "--suite"):
            if i + 1 >= len(argv):
                die(f"{a} needs a value (see --help)")
            opts[a[2:]] = argv[i + 1]
            opts["given"].add(a[2:])
            i += 1
        elif a.startswith("--"):
            die(f"unknown option {a} (see --help)")
        else:
            opts["pos"].append(a)
        i += 1
    if len(opts["pos"]) != 2:
        die("need exactly two things to compare (see --help)")
    try:
        opts["reps"] = int(opts["reps"])
    except ValueError:
        die(f"--reps {opts['reps']}: not a number")
    if opts["reps"] < 1:
        die("--reps must be at least 1")
    if opts["mode"] in ("backends", "patterns") and opts["pos"][0] == opts["pos"][1]:
        die(f"--{opts['mode']} {opts['pos'][0]} {opts['pos'][1]}: both sides are the same (one set of "
            "runs would be compared with itself); name two different ones")
    if opts["mode"] == "digest" and opts["given"] & {"reps", "suite", "filter"}:
        die(f"--{sorted(opts['given'] & {'reps', 'suite', 'filter'})[0]} applies to runs (--backends, "
            "--patterns, --build, or --filter on two result files), not to two digests")
    if opts["mode"] == "files" and opts["given"] & {"reps", "suite"}:
        die(f"--{sorted(opts['given'] & {'reps', 'suite'})[0]} applies to runs (--backends, "
            "--patterns, --build), not to two files that already hold their results")
    return opts


def choice_args(text):
    """(make arguments, CHOICE_CFLAGS, label) of a side: scripts/bench/choice.py, the one parser of a
    choice (its warnings, such as a CFLAGS= without -O, go to stderr once)."""
    try:
        args, choice, _, label = choices.choose(text)
    except choices.ChoiceError as e:
        die(f"--build side {e}")
    return args, choice, label


def effective_flags(out_dir):
    """The compiler and flags a build folder's objects were compiled with, in order (its .flags,
    the Makefile's BUILD_ID), without include paths, defines and warnings; scalar.c's
    -fno-tree-vectorize left out."""
    try:
        words = open(os.path.join(ROOT, out_dir, ".flags")).read().split()
    except OSError:
        return "not recorded"
    if "-fno-tree-vectorize" in words:
        del words[len(words) - 1 - words[::-1].index("-fno-tree-vectorize")]
    return " ".join(w for w in words if not re.match(r"^-[IDW]", w))


def build(make_vars, out_dir, what, targets=("collide-bench",)):
    """make of targets into out_dir, with a line of progress at least every 15 s; on failure the
    end of make's own output (the compiler's or the Makefile's message) and the log."""
    cmd = ["make", f"-j{os.cpu_count() or 2}", "--no-print-directory", f"O={out_dir}", *make_vars,
           *[f"{out_dir}/{t}" for t in targets]]
    log = os.path.join(ROOT, out_dir + ".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    start = time.time()
    print(f"compare: building {what} into {out_dir} (make -j{os.cpu_count() or 2}; log {log}) ...",
          file=sys.stderr, flush=True)
    step = re.compile(r"^\S*(gcc|clang|g\+\+|clang\+\+|c\+\+|cc|ar|ld)(-[\d.]+)? ")
    source = re.compile(r"\s(\S+\.(?:c|cc|cpp))\s")
    with open(log, "w") as f:
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
        while True:
            try:
                rc = p.wait(timeout=15)
                break
            except subprocess.TimeoutExpired:
                with open(log, errors="replace") as g:
                    lines = [line for line in g if step.match(line)]
                last = source.search(lines[-1]) if lines else None
                print(f"compare:   {what}: {len(lines)} compile and link steps so far"
                      + (f" (last: {last.group(1)})" if last else "")
                      + f", {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    if rc != 0:
        with open(log) as g:
            lines = g.read().splitlines()
        errors = [line for line in lines if re.search(r"\berror\b|\*\*\*", line)]
        print("\n".join("  " + line for line in (errors or lines)[-12:]), file=sys.stderr)
        die(f"the build of {what} failed (make exit {rc}; whole log: {log})", 1)
    with open(log, errors="replace") as g:
        steps = sum(1 for line in g if step.match(line))
    print(f"compare: built {what} in {time.time() - start:.0f} s" + (
        f" (reused {out_dir}: nothing to rebuild)" if steps == 0 else
        f" ({steps} compile and link steps; {out_dir} is kept: a later compare with the same side "
        "in this place rebuilds only the sources that changed, other flags there rebuild it whole)"),
        file=sys.stderr, flush=True)
    return [os.path.join(ROOT, out_dir, t) for t in targets]


def check_suite(binary, suite):
    """The suite must be one the binary lists (its list is the one place suites are named)."""
    out = subprocess.run([binary, "--collide_list=suites"], capture_output=True, text=True)
    suites = [line.split()[0] for line in out.stdout.split("\n") if line.strip()]
    if out.returncode != 0 or not suites:
        die(f"{binary} --collide_list=suites failed (exit {out.returncode}): {out.stderr.strip()}", 1)
    if suite not in suites:
        die(f"--suite {suite}: not a suite of this build; the suites are: {', '.join(suites)}")


def names_of(binary, suite, regex="."):
    env = dict(os.environ, COLLIDE_BENCH_SUITE=suite)
    out = subprocess.run([binary, "--benchmark_list_tests=true", f"--benchmark_filter={regex}"],
                         env=env, capture_output=True, text=True).stdout
    return [n for n in out.split("\n") if n]


def run(binary, suite, regex, reps, interleave=True):
    env = dict(os.environ, COLLIDE_BENCH_SUITE=suite)
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        path = tmp.name
    args = [binary, f"--benchmark_filter={regex}", f"--benchmark_repetitions={reps}",
            f"--benchmark_out={path}", "--benchmark_out_format=json"]
    if interleave:
        args.append("--benchmark_enable_random_interleaving=true")
    log = os.path.join(ROOT, "build", "compare.log")
    with open(log, "w") as f:
        rc = subprocess.call(args, env=env, stdout=f, stderr=subprocess.STDOUT)
    if rc != 0:
        die(f"the benchmark run failed (exit {rc}), see {log}", 1)
    samples = samples_of(path)
    ctx = load(path).get("context", {})
    CONTEXT[binary] = ctx
    model = ctx.get("collide_cpu_model", "")
    ident = ctx.get("collide_cpu_identity", "not recorded")
    CPU.setdefault("identity", f"{model} ({ident})" if model else ident)
    os.unlink(path)
    return samples


def escape(text):
    """Escapes what std::regex (ECMAScript) treats as special; '-' and '/' stay as they are."""
    return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", text)


def family_regex(prefix):
    """A name prefix as a regex of the family/variant part: 'mtd' -> '^mtd/[^/]+'."""
    prefix = prefix.strip("/")
    return "^" + escape(prefix) + ("/[^/]+" if prefix.count("/") == 0 else "")


def main():
    opts = parse(sys.argv[1:])
    a, b = opts["pos"]
    if opts["mode"] == "files":
        for p in (a, b):
            if not os.path.isfile(p):
                die(f"{p}: no such result file")
        da, db = load(a), load(b)
        for warning in context_warnings(da, db, os.path.basename(a), os.path.basename(b)):
            print(warning, file=sys.stderr)
        ca, cb = da.get("context", {}), db.get("context", {})
        if ca.get("collide_cpu_identity") and ca.get("collide_cpu_identity") == cb.get("collide_cpu_identity"):
            model = ca.get("collide_cpu_model", "")
            CPU["identity"] = f"{model} ({ca['collide_cpu_identity']})" if model else ca["collide_cpu_identity"]
        sa, sb = samples_of(da), samples_of(db)
        keep = (lambda n: n.startswith(opts["filter"])) if "filter" in opts["given"] else (lambda n: True)
        rows = [(n, sa[n], sb[n]) for n in sorted(sa, key=natural) if n in sb and keep(n)]
        if not rows and "filter" in opts["given"]:
            die(f"no benchmark of both files starts with '{opts['filter']}'")
        table(rows, os.path.basename(a), os.path.basename(b))
        return
    if opts["mode"] == "digest":
        found, own = compare_digests(load_digest(a), load_digest(b), a, b)
        sys.exit(1 if found or own else 0)
    os.chdir(ROOT)
    if opts["mode"] == "build":
        sides = [choice_args(v) for v in (a, b)]
        names, built, regex = ("first", "second"), [], family_regex(opts["filter"])
        for i, ((args, _, _), text) in enumerate(zip(sides, (a, b))):
            built.append(build(args, f"build/compare-{i}", f"{names[i]} ({text or 'the defaults'})",
                               ("collide-bench", "collide-digest")))
            if i == 0:  # the suite and filter checked before the second build, not after
                check_suite(built[0][0], opts["suite"])
                if not names_of(built[0][0], opts["suite"], regex):
                    die(f"no benchmark starts with '{opts['filter']}'")
        bins = [x[0] for x in built]
        print(f"compare: timing first and second: '{opts['filter']}', {opts['reps']} alternating runs, "
              f"suite {opts['suite']}", file=sys.stderr)
        sa, sb = {}, {}
        for r in range(opts["reps"]):
            for binary, acc in zip(bins, (sa, sb)):
                for n, xs in run(binary, opts["suite"], regex, 1, interleave=False).items():
                    acc.setdefault(n, []).extend(xs)
            print(f"\r  run {r + 1}/{opts['reps']}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        heads = []
        for i, (text, (_, choice, _), binary) in enumerate(zip((a, b), sides, bins)):
            compiler = CONTEXT.get(binary, {}).get("collide_compiler", "")
            heads.append(f"{text or 'the defaults'}  [{choices.status(choice)}]\n"
                         f"        built with {effective_flags(f'build/compare-{i}')}"
                         + (f"  ({compiler})" if compiler else ""))
        table([(n, sa[n], sb[n]) for n in sorted(sa, key=natural) if n in sb], *heads)
        print()
        digests = []
        print("compare: digesting both builds (collide-digest --inputs, some seconds each) ...", file=sys.stderr,
              flush=True)
        for i, (_, side) in enumerate(built):
            path = os.path.join(ROOT, f"build/compare-{i}", "digest.txt")
            with open(path, "w") as f:
                p = subprocess.run([side, "--inputs"], stdout=f, stderr=subprocess.PIPE, text=True)
            if p.returncode not in (0, 1):
                die(f"{side} failed (exit {p.returncode}): {p.stderr.strip()[-500:]}", 1)
            digests.append(load_digest(path))
        found, _ = compare_digests(digests[0], digests[1], "first", "second")
        if found and found[0][2] is not None:
            show_difference([x[1] for x in built], names, *found[0])
        return
    binary = build([], "build/release", "the release build")[0]
    check_suite(binary, opts["suite"])
    names = names_of(binary, opts["suite"])
    if opts["mode"] == "backends":
        backends_of = lambda ns: sorted({n.split("/")[2] for n in ns  # noqa: E731
                                         if n.count("/") >= 4 and not n.split("/")[1].startswith("peer-")})
        valid = backends_of(names)
        if not {a, b} <= set(valid) and opts["suite"] == "quick":
            # The quick suite leaves the emulated backends out: take the default suite's sizes.
            wider = names_of(binary, "default")
            if {a, b} <= set(backends_of(wider)):
                opts["suite"], names, valid = "default", wider, backends_of(wider)
        for x in (a, b):
            if x not in valid:
                die(f"'{x}' is not a backend of this build; the backends are: {', '.join(valid)}")
        regex = f"{family_regex(opts['filter'])}/({escape(a)}|{escape(b)})/"
        pair = lambda n: n.split("/")[:2] + n.split("/")[3:]  # noqa: E731  name without the backend
        chosen = [n for n in names if re.search(regex, n)]
        if not chosen:
            die(f"no benchmark starts with '{opts['filter']}' on {a} and {b}")
        label_of = lambda n: "/".join(pair(n))  # noqa: E731
        side = lambda n: n.split("/")[2]  # noqa: E731
    else:
        for x in (a, b):
            if not any(n.startswith(x) for n in names):
                fams = sorted({"/".join(n.split("/")[:2]) for n in names})
                die(f"no benchmark starts with '{x}'; the families are: {', '.join(fams)}")
        regex = f"^({escape(a)}|{escape(b)})"
        chosen = [n for n in names if n.startswith(a) or n.startswith(b)]
        label_of = lambda n: n[len(a):] if n.startswith(a) else n[len(b):]  # noqa: E731
        side = lambda n: a if n.startswith(a) else b  # noqa: E731
    print(f"compare: {a} vs {b}: {len(chosen)} benchmarks x {opts['reps']} repetitions, "
          f"interleaved, suite {opts['suite']} ...", file=sys.stderr)
    samples = run(binary, opts["suite"], regex, opts["reps"])
    by = {}
    for n, xs in samples.items():
        by.setdefault(label_of(n), {})[side(n)] = xs
    prefix = "…" if opts["mode"] == "patterns" else ""
    pairs = [(prefix + lab, s[a], s[b]) for lab, s in sorted(by.items(), key=lambda kv: natural(kv[0])) if a in s and b in s]
    table(pairs, a, b)


if __name__ == "__main__":
    main()
