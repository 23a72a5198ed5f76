#!/usr/bin/python3
"""Mutation testing of the fuzzers (`make fuzz-mutants`): single-token mutants of the kernel,
broadphase, movement and simulation sources, each built and fuzzed with the committed corpus
for a bounded time; reports the kill rate, the time to kill and the survivors as diffs.

Every site of these operators in the sources (comments, strings, preprocessor lines and the
code compiled only in the checking builds, #ifdef COL_VALIDATE, left out) is a candidate: relational operators (< <= > >= == !=, each to its neighbour), && and ||
(swapped), the SIMD compare predicates (vf_lt vf_le vf_gt vf_ge, to their neighbour), and
"+ 1" / "- 1" (swapped). MUTANTS of them are drawn with a fixed seed (MUTANTS_SEED): the sites
are ordered by a hash of the seed and each site's text (its file, its line's text, which match
of the operator on that line it is, the mutation) and the first MUTANTS taken, so a run is
reproducible, and an edit elsewhere in the sources (lines moved, sites added or removed) leaves
the rest of the sample as it was.

A mutant is built as the fuzz self-test builds its bugs (a copy of the tree under
build/mutants/<id>/, the fuzz build's objects reused) and fuzzed on the targets that reach its
file (fuzz_mutants_plan.py), MUTANT_SECONDS in all (default 60), starting from the committed corpus.
It is killed when a target reports (a disagreement, a sanitizer report, a crash); it is
stillborn when it does not compile (not counted). Survivors listed with a reason in
fuzz/mutants-equivalent.txt (the mutant's id, the text of its line in backquotes, then the
reason) are equivalent: they cannot change any result, and are not counted either. An entry
whose line no longer reads as recorded (the code changed, or other lines moved it) does not
count: the review was of other code; the script says so and where that text now is.

Which sources are mutated, and which targets fuzz each: scripts/fuzz/fuzz_mutants_plan.py (a source
or fuzz target it does not account for stops the script). --list prints them and the sample.

Environment: MUTANTS (default 100), MUTANTS_SEED (default 1), MUTANT_SECONDS (default 60),
MUTANT_JOBS (parallel mutants, default: the cores), MUTANTS_ONLY (ids, comma-separated).
Writes build/mutants/report.md with two scores: the non-equivalent one (killed of the mutants
not listed as equivalent) and the raw one (killed of every mutant that compiles); exits non-zero
when the first is below 95%, the second below 80%, or a kill took over 60 s.
"""
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

from fuzz_mutants_plan import fuzz_targets, plan

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "build", "mutants")
# The fuzz build's flags without -Werror: a mutant that only draws a warning (|| among && wants
# parentheses) must still be built and fuzzed. Built once into BASE, copied for each mutant.
BASE_TREE = os.path.join(OUT, "base")
BASE = os.path.join(BASE_TREE, "build", "fuzz")  # O=build/fuzz everywhere: the .d files match
MAKE_VARS = ["CC=clang", "SANITIZE=fuzz",
             "CFLAGS=-O2 -g -Wall -Wextra -Wno-error -Wshadow -Wstrict-prototypes"]

# (pattern, replacement): each match of the pattern is one site.
OPERATORS = [
    (r"(?<![<>=!&|+\-*/%^])<(?![<=])", "<="),
    (r"<=", "<"),
    (r"(?<![<>=\-])>(?![>=])", ">="),
    (r">=", ">"),
    (r"==", "!="),
    (r"!=", "=="),
    (r"&&", "||"),
    (r"\|\|", "&&"),
    (r"\bvf_lt\(", "vf_le("),
    (r"\bvf_le\(", "vf_lt("),
    (r"\bvf_gt\(", "vf_ge("),
    (r"\bvf_ge\(", "vf_gt("),
    (r"\+ 1\b", "- 1"),
    (r"- 1\b", "+ 1"),
]


def code_spans(line, in_comment):
    """The parts of a line outside comments and strings: [(start, end)], and whether a block
    comment is still open at its end."""
    spans, i, start = [], 0, 0 if not in_comment else None
    while i < len(line):
        if in_comment:
            j = line.find("*/", i)
            if j < 0:
                return spans, True
            in_comment, i, start = False, j + 2, j + 2
            continue
        if line.startswith("/*", i):
            spans.append((start, i))
            in_comment = True
            i += 2
            continue
        if line.startswith("//", i):
            spans.append((start, i))
            return spans, False
        if line[i] in "\"'":
            spans.append((start, i))
            q, i = line[i], i + 1
            while i < len(line) and line[i] != q:
                i += 2 if line[i] == "\\" else 1
            i += 1
            start = i
            continue
        i += 1
    spans.append((start, len(line)))
    return spans, False


def checking_only(line, stack):
    """Tracks the preprocessor's conditionals around a line: True when the line is compiled only
    in the checking builds (inside #ifdef COL_VALIDATE, or a COL_VALIDATE_CALL), which check the
    library and are not it (as validate.h, left out in fuzz_mutants_plan.py)."""
    word = line.lstrip()
    if word.startswith("#if"):
        stack.append("COL_VALIDATE" in word and not word.startswith("#ifndef"))
    elif word.startswith("#el") and stack:
        stack[-1] = False if stack[-1] else ("COL_VALIDATE" in word)
    elif word.startswith("#endif") and stack:
        stack.pop()
    return any(stack) or "COL_VALIDATE_CALL" in line


def sites(sources):
    found, texts = [], {}
    for path in sources:
        with open(os.path.join(ROOT, path)) as f:
            lines = f.read().split("\n")
        in_comment, conditionals = False, []
        for no, line in enumerate(lines, 1):
            texts[(path, no)] = line
            spans, in_comment_next = code_spans(line, in_comment)
            in_comment = in_comment_next
            if checking_only(line, conditionals) or line.lstrip().startswith("#"):
                continue
            for a, b in spans:
                for pattern, repl in OPERATORS:
                    for m in re.finditer(pattern, line[a:b]):
                        col = a + m.start()
                        if "->" in line[max(0, col - 1):col + 2] and m.group(0) in (">", ">="):
                            continue
                        found.append((path, no, col, m.group(0), repl))
    return found, texts


def draw(everything, texts, count, seed):
    """The first `count` sites in the order of a hash of the seed and each site's text: the
    same site keeps its place when lines move or other sites come and go."""
    keyed, seen = [], {}
    for site in everything:
        path, no, col, old, new = site
        text = texts[(path, no)].strip()
        nth = seen[(path, text, old, new)] = seen.get((path, text, old, new), -1) + 1
        key = f"{seed}\0{path}\0{text}\0{nth}\0{old}\0{new}".encode()
        keyed.append((hashlib.sha256(key).hexdigest(), site))
    return [site for _, site in sorted(keyed)[:count]]


# A line of fuzz/mutants-equivalent.txt: the id (path:line:column:old->new, where old and new
# may be "+ 1" / "- 1"), the reviewed line's text (stripped) in backquotes, then the reason.
EQUIVALENT_LINE = re.compile(r"^(\S+:\d+:\d+:(?:[+-] 1|\S+?)->(?:[+-] 1|\S+))\s+`([^`]*)`\s+(.*)$")


def read_equivalents(path, everything, texts):
    """The listed equivalents whose line still reads as reviewed: {id: reason}. The others are
    reported, with the ids of the same mutation on lines that now read that way."""
    by_id = {mutant_id(s): s for s in everything}
    equivalent = {}
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        found = EQUIVALENT_LINE.match(line.strip())
        if found is None:
            sys.exit(f"fuzz-mutants: {path}: cannot read the id, `line text` and reason of: "
                     f"{line.strip()}")
        ident, text, reason = found.groups()
        site = by_id.get(ident)
        if site is not None and texts[(site[0], site[1])].strip() == text:
            equivalent[ident] = reason
            continue
        source, mutation = ident.split(":")[0], ident.split(":", 3)[3]
        now = [i for i, s in by_id.items()
               if i.split(":")[0] == source and i.split(":", 3)[3] == mutation
               and texts[(s[0], s[1])].strip() == text]
        hint = f"; that text and mutation are now at {', '.join(now)}" if now else ""
        print(f"fuzz-mutants: warning: {path} lists {ident}, whose line no longer reads "
              f"`{text}` (not counted as equivalent: review it again{hint})", flush=True)
    return equivalent


def mutant_id(site):
    path, no, col, old, new = site
    return f"{path.replace('core/src/', '').replace('/', '-')}:{no}:{col}:{old}->{new}"


def copy_tree(work, root=ROOT):
    """The sources a build needs, from `root` to work/ (scripts/build/copy-sources.sh: the one
    list of them; a build/ folder already in work/ is left as it is)."""
    subprocess.run([os.path.join(ROOT, "scripts", "build", "copy-sources.sh"), root, work], check=True)


def run_mutant(site, seconds, targets):
    path, no, col, old, new = site
    ident = mutant_id(site)
    work = os.path.join(OUT, re.sub(r"[^A-Za-z0-9_.-]", "_", ident))
    shutil.rmtree(work, ignore_errors=True)
    # From the snapshot taken when the run started: edits to the tree during a run (an hour
    # long) must not leak into later mutants.
    copy_tree(work, BASE_TREE)
    for folder in ("obj", "gen"):  # the objects and the ISA lists they were built with
        shutil.copytree(os.path.join(BASE, folder), os.path.join(work, "build", "fuzz", folder))
    for keep in (".flags", "libcollide.a"):
        shutil.copy2(os.path.join(BASE, keep), os.path.join(work, "build", "fuzz", keep))
    for root, _, files in os.walk(os.path.join(work, "build", "fuzz")):
        for name in files:  # keep make's view of what is up to date
            os.utime(os.path.join(root, name))
    target_file = os.path.join(work, path)
    with open(target_file) as f:
        lines = f.read().split("\n")
    line = lines[no - 1]
    assert line[col:col + len(old)] == old, ident
    before = line
    lines[no - 1] = line[:col] + new + line[col + len(old):]
    with open(target_file, "w") as f:
        f.write("\n".join(lines))
    build = subprocess.run(
        ["make", "-C", work, "--no-print-directory", "O=build/fuzz", *MAKE_VARS,
         *[f"build/fuzz/fuzz_{t}" for t in targets]],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    diff = f"--- {path}:{no}\n-{before.strip()}\n+{lines[no - 1].strip()}"
    if build.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        return ident, "stillborn", None, diff, targets
    start = time.time()
    share = max(1, seconds // len(targets))
    verdict, killed_at = "survived", None
    for t in targets:
        corpus = os.path.join(work, "corpus-" + t)
        shutil.copytree(os.path.join(BASE_TREE, "fuzz", "corpus", t), corpus)
        run = subprocess.run(
            [os.path.join(work, "build", "fuzz", f"fuzz_{t}"), f"-max_total_time={share}",
             "-max_len=8192", "-timeout=10", "-rss_limit_mb=4096", f"-dict={ROOT}/fuzz/collide.dict",
             f"-artifact_prefix={work}/", corpus],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        if run.returncode != 0:
            verdict, killed_at = f"killed by {t}", time.time() - start
            why = [l for l in run.stdout.split("\n")
                   if re.search(r"DISAGREEMENT|differs|ERROR: |runtime error|fuzz [a-z]+: ", l)]
            diff += "\n# " + (why[0][:200] if why else run.stdout.strip().split("\n")[-1][:200])
            break
    shutil.rmtree(work, ignore_errors=True)
    return ident, verdict, killed_at, diff, targets


USAGE = """usage: scripts/fuzz/fuzz-mutants.py [--list]   (make fuzz-mutants runs it)
  --list   print the mutated sources with the fuzz targets that reach each, the sources left
           out and why, and the sample MUTANTS / MUTANTS_SEED / MUTANTS_ONLY picks; no build,
           no fuzzing"""


def list_plan(mutated, left_out, everything, chosen):
    per_file = {}
    for site in everything:
        per_file[site[0]] = per_file.get(site[0], 0) + 1
    print("mutated sources (sites: fuzz targets):")
    for path, targets in mutated.items():
        print(f"  {path} ({per_file.get(path, 0)}): {' '.join(targets)}")
    print("not mutated:")
    for path, reason in left_out.items():
        print(f"  {path}: {reason}")
    print(f"the sample: {len(chosen)} of {len(everything)} sites")
    for site in chosen:
        print(f"  {mutant_id(site)}: {' '.join(mutated[site[0]])}")


def main():
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\n" + USAGE)
        return 0
    if args not in ([], ["--list"]):
        print(USAGE, file=sys.stderr)
        return 2
    mutated, left_out = plan()
    count = int(os.environ.get("MUTANTS", "100"))
    seed = int(os.environ.get("MUTANTS_SEED", "1"))
    seconds = int(os.environ.get("MUTANT_SECONDS", "60"))
    jobs = int(os.environ.get("MUTANT_JOBS", str(os.cpu_count() or 2)))
    only = [s for s in os.environ.get("MUTANTS_ONLY", "").split(",") if s]
    everything, texts = sites(mutated)
    if only:
        chosen = [s for s in everything if mutant_id(s) in only]
        unknown = sorted(set(only) - {mutant_id(s) for s in chosen})
        if unknown:
            print(f"fuzz-mutants: MUTANTS_ONLY names no site: {', '.join(unknown)} (ids as "
                  f"--list prints them, e.g. {mutant_id(everything[0])})", file=sys.stderr)
            return 2
    else:
        chosen = draw(everything, texts, count, seed)
    if args == ["--list"]:
        list_plan(mutated, left_out, everything, chosen)
        return 0
    copy_tree(BASE_TREE)
    base = subprocess.run(["make", "-C", BASE_TREE, "--no-print-directory", "O=build/fuzz",
                           *MAKE_VARS, *[f"build/fuzz/fuzz_{t}" for t in fuzz_targets()]],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if base.returncode != 0:
        print(base.stdout[-3000:], file=sys.stderr)
        print("fuzz-mutants: the unmutated fuzz build failed", file=sys.stderr)
        return 2
    eq_path = os.path.join(ROOT, "fuzz", "mutants-equivalent.txt")
    equivalent = read_equivalents(eq_path, everything, texts) if os.path.exists(eq_path) else {}
    print(f"fuzz-mutants: {len(chosen)} of {len(everything)} sites (seed {seed}), "
          f"{seconds}s each, {jobs} at a time", flush=True)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_mutant, s, seconds, mutated[s[0]]): s for s in chosen}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            try:
                ident, verdict, at, diff, targets = fut.result()
            except Exception as e:  # e.g. a source edited during the run: the site moved
                site = futures[fut]
                ident, verdict, at, diff, targets = mutant_id(site), "stillborn", None, f"# {e!r}", []
            results.append((ident, verdict, at, diff, targets))
            when = f" in {at:.1f}s" if at is not None else ""
            reason = diff.split("\n# ")[1] if "\n# " in diff else ""
            print(f"[{i}/{len(chosen)}] {ident}: {verdict}{when}" + (f" ({reason})" if reason else ""),
                  flush=True)
    built = [r for r in results if r[1] != "stillborn"]
    counted = [r for r in built if not (r[1] == "survived" and r[0] in equivalent)]
    killed = [r for r in counted if r[1].startswith("killed")]
    slow = [r for r in killed if r[2] > 60]
    survivors = [r for r in counted if r[1] == "survived"]
    rate = 100.0 * len(killed) / len(counted) if counted else 100.0
    # The raw score counts the reviewed equivalents as survivors: a mutant that changes only the
    # work done is a blind spot too when a user's benchmark would time the wrong path.
    raw = 100.0 * len(killed) / len(built) if built else 100.0
    times = sorted(r[2] for r in killed)
    median = times[len(times) // 2] if times else 0
    lines = [
        "# Mutation testing of the fuzzers", "",
        f"{len(chosen)} single-token mutants of {len(everything)} sites (seed {seed}, "
        f"{seconds} s each, committed corpus as the start). Stillborn (do not compile): "
        f"{sum(r[1] == 'stillborn' for r in results)}; equivalent (fuzz/mutants-equivalent.txt): "
        f"{sum(r[1] == 'survived' and r[0] in equivalent for r in results)}.", "",
        f"Killed {len(killed)} of {len(counted)} non-equivalent mutants: **{rate:.1f}%** "
        f"(target 95%); raw, the equivalents counted as survivors: {len(killed)} of "
        f"{len(built)}, **{raw:.1f}%** (target 80%); median time to kill {median:.1f} s, "
        f"slowest {times[-1] if times else 0:.1f} s.", "",
    ]
    if survivors:
        lines += ["## Survivors", ""]
        for ident, _, _, diff, targets in sorted(survivors):
            lines += [f"- `{ident}` (fuzzed by {', '.join(targets)})", "", "```diff", diff, "```", ""]
    with open(os.path.join(OUT, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[2:6]))
    for ident, _, _, diff, _ in sorted(survivors):
        print(f"survivor: {ident}\n{diff}")
    print(f"fuzz-mutants: report in {os.path.relpath(os.path.join(OUT, 'report.md'), ROOT)}")
    return 0 if rate >= 95.0 and raw >= 80.0 and not slow else 1


if __name__ == "__main__":
    sys.exit(main())
