#!/usr/bin/python3
"""What the fuzzers reach (`make fuzz-coverage`): the fuzz targets built with clang's
source-based coverage (build/coverage, by make), each run over its committed corpus, then, with
FUZZ_SECONDS, fuzzed that long more; the profiles merged; an HTML report and a per-file table.

  fuzz-coverage.py check       only check the variables below (make runs it before building)
  fuzz-coverage.py run         the above (make fuzz-coverage); the environment says what:
                               FUZZ_TARGETS (default every target), FUZZ_SECONDS (default 0: the
                               corpora only), FUZZ_LANES (targets at once, default the cores),
                               USER_KERNELS (those files first in the table, with the lines and
                               branches of theirs no input reached)
  fuzz-coverage.py floor       record the last run's corpus coverage as the floor
                               (fuzz/coverage-floor.txt) and rewrite docs/fuzzing.md's table
                               (make fuzz-coverage-floor)
  fuzz-coverage.py doc-check   docs/fuzzing.md's table is the floor file's (make test)
  fuzz-coverage.py --self-test feed the checks made-up headers, profiles and floors and require
                               each fault named (make test)

Writes build/coverage/: html/index.html, table.txt and table.md (every file: lines, branches,
regions, functions), corpus.json (the corpora's export) and, with FUZZ_SECONDS, fuzzed.json and
found/<target>/ (the inputs the fuzzing kept). After a run over every target, two checks on what
the corpora reach (coverage_checks.py): every public function run by a target, and core/'s line
and branch coverage not below the floor by more than its margin. Exits 1 when a target fails or
a check does, naming what and where.
"""
import concurrent.futures
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coverage_doc import DOC, rewrite_doc  # noqa: E402
from coverage_checks import SINGULAR, check_floor, check_public, declared_functions  # noqa: E402
from coverage_data import (KINDS, Coverage, margins, percent, ranges, read_floor, show,  # noqa: E402
                           write_floor)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The build folder, and a command the targets run under (qemu for ARCH=arm64: mk/fuzz-coverage.mk).
BUILD = os.environ.get("FUZZ_COVERAGE_O") or "build/coverage"
RUNNER = os.environ.get("FUZZ_COVERAGE_RUNNER", "").split()
FLOOR = "fuzz/coverage-floor.txt"
DEFAULT_MARGIN = "lines 0.1 branches 0.2"
FLAGS = ["-max_len=8192", "-timeout=20", "-rss_limit_mb=4096", "-dict=fuzz/collide.dict"]
print_lock = threading.Lock()


def say(*parts):
    with print_lock:
        print(*parts, flush=True)


def tool(name):
    """llvm-cov / llvm-profdata: Debian's versioned name, else the plain one."""
    for candidate in (name + "-14", name):
        if shutil.which(candidate):
            return candidate
    raise SystemExit(f"fuzz-coverage: {name}-14 is not installed (Debian's llvm-14; "
                     "scripts/build/install-deps.sh installs it)")


def tools_version():
    """'clang 14.0.6, llvm-cov 14.0.6': what measured (another version may count regions apart)."""
    found = []
    for name in ("clang", "llvm-cov"):
        exe = tool(name)
        out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"version ([0-9][0-9.]*)", out)
        found.append(f"{name} {m.group(1) if m else '?'}")
    return ", ".join(found)


def whole(name, value, least):
    if not re.fullmatch(r"[0-9]+", value) or int(value) < least:
        raise SystemExit(f"fuzz-coverage: {name}={value}: must be a whole number of at least {least}")
    return int(value)


def clock(s):
    return f"{int(s) // 60}:{int(s) % 60:02d}"


def machine():
    """The CPU as the benchmarks record it: vendor, family, model, stepping, model name, and the
    TSC rate from collide-bench's machine name when build/release/collide-bench is built."""
    info = {}
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    cpu = (f"{info.get('vendor_id', '?')} family {info.get('cpu family', '?')} model "
           f"{info.get('model', '?')} stepping {info.get('stepping', '?')} "
           f"({info.get('model name', '?')})")
    tsc = "TSC rate not measured (build/release/collide-bench is not built)"
    bench = os.path.join("build", "release", "collide-bench")
    if os.access(bench, os.X_OK):
        name = subprocess.run([bench, "--collide_machine_name"], capture_output=True, text=True,
                              timeout=120).stdout.strip().splitlines()
        m = re.search(r"-tsc([0-9]+)-", name[-1]) if name else None
        if m:
            tsc = f"TSC {int(m.group(1)) / 1000:.3f} GHz ({name[-1]})"
    return f"{cpu}, {tsc}, {os.cpu_count()} CPUs"


def revision():
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True).stdout.strip()
    return (head or "unknown") + (" (with uncommitted changes)" if dirty else "")


def status_line(log):
    """'execs N  exec/s R  cov C  ft F  corpus K' from a libFuzzer log's last status line."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = re.findall(r"^#([0-9]+)\s.*?cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*?exec/s: ([0-9]+)",
                               f.read(), re.M)
    except OSError:
        return None
    if not lines:
        return None
    execs, cov, ft, corp, eps = lines[-1]
    return f"execs {execs}  exec/s {eps}  cov {cov}  ft {ft}  corpus {corp}"


def run_target(target, k, n, phase, seconds, started, total_seconds):
    """One target's corpus replay (phase 'corpus') or its fuzzing (phase 'fuzzed'), its profile
    written to build/coverage/profiles/<phase>/. Returns (target, ok, what it printed)."""
    binary = f"{BUILD}/fuzz_{target}"
    log = f"{BUILD}/logs/{target}.{phase}.log"
    env = dict(os.environ, LLVM_PROFILE_FILE=f"{ROOT}/{BUILD}/profiles/{phase}/{target}-%p.profraw")
    if phase == "corpus":
        cmd = RUNNER + [binary, "-runs=0"] + FLAGS + [f"fuzz/corpus/{target}"]
    else:
        found = f"{BUILD}/found/{target}"
        os.makedirs(found, exist_ok=True)
        os.makedirs(f"{BUILD}/artifacts/{target}", exist_ok=True)
        cmd = RUNNER + [binary, f"-max_total_time={seconds}", "-print_final_stats=1",
               f"-artifact_prefix={BUILD}/artifacts/{target}/"] + FLAGS + [found, f"fuzz/corpus/{target}"]
    start = time.time()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        last = start
        while proc.poll() is None:
            time.sleep(0.25)
            now = time.time()
            if phase == "fuzzed" and now - last >= 5:
                last = now
                left = max(0, total_seconds - (now - started))
                say(f"  [{k}/{n} {target}] {int(now - start):3d}s  {status_line(log) or 'loading the corpus'}"
                    f"  [elapsed {clock(now - started)}, ETA {clock(left)}]")
            if now - start > (seconds or 0) + 600:
                proc.kill()
    took = time.time() - start
    if proc.returncode != 0:
        with open(log, encoding="utf-8", errors="replace") as f:
            tail = "".join(f.readlines()[-15:])
        return target, False, (f"fuzz-coverage: {target} stopped with exit status {proc.returncode} "
                               f"({phase}; its profile is lost); the end of {log}:\n{tail}"
                               "  (the coverage build has no sanitizers: make fuzz FUZZ_TARGETS="
                               f"{target} reports a finding in full)")
    inputs = len(os.listdir(f"fuzz/corpus/{target}"))
    what = f"{inputs} corpus inputs in {took:.1f}s" if phase == "corpus" else \
        f"{int(took)}s: {status_line(log) or 'no status line'}"
    return target, True, f"fuzz-coverage [{k}/{n}] {target} ({phase}): {what}"


def run_phase(targets, phase, seconds, lanes):
    """Every target of a phase, `lanes` at once; False when one failed."""
    folder = f"{BUILD}/profiles/{phase}"
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    started = time.time()
    rounds = (len(targets) + lanes - 1) // lanes
    ok = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=lanes) as pool:
        jobs = [pool.submit(run_target, t, k + 1, len(targets), phase, seconds, started, rounds * seconds)
                for k, t in enumerate(targets)]
        for job in jobs:
            _target, good, text = job.result()
            say(text)
            ok = ok and good
    return ok


def export(profdata, targets, sources, out_json, html=None):
    """Merges nothing; exports the profile over the targets' binaries for the sources (JSON),
    and writes the HTML report when asked."""
    objects = [f"{BUILD}/fuzz_{targets[0]}"] + [a for t in targets[1:] for a in ("-object", f"{BUILD}/fuzz_{t}")]
    cov = tool("llvm-cov")
    with open(out_json, "w", encoding="utf-8") as f:
        subprocess.run([cov, "export", "-format=text", "-skip-expansions", f"-instr-profile={profdata}"]
                       + objects + sources, stdout=f, stderr=subprocess.DEVNULL, check=True)
    if html:
        shutil.rmtree(html, ignore_errors=True)
        subprocess.run([cov, "show", "-format=html", "-show-branches=count", "-show-line-counts-or-regions",
                        f"-output-dir={html}", f"-instr-profile={profdata}", "-project-title=collide: what the "
                        "fuzzers reach"] + objects + sources, stderr=subprocess.DEVNULL, check=True)


def merge(raws, out):
    if not raws:
        raise SystemExit("fuzz-coverage: no profile was written (did the targets run?)")
    subprocess.run([tool("llvm-profdata"), "merge", "-o", out] + raws, check=True)


def core_files(cov):
    """core/'s files with anything mapped (a header of declarations only has nothing)."""
    return sorted(p for p in cov.files if p.startswith("core/") and any(cov.files[p][k][1] for k in KINDS))


def table(cov, user, core, title):
    """The per-file table as text and as Markdown (the user's files first, then core/'s)."""
    text = [title, "", f"{'file':<44} " + " ".join(f"{k:>24}" for k in KINDS)]
    md = [title, "", "| file | " + " | ".join(KINDS) + " |", "|---|" + "---|" * len(KINDS)]
    groups = [("your files (USER_KERNELS)", user), ("core/", core)] if user else [("core/", core)]
    for name, paths in groups:
        for p in paths:
            cells = [show(*cov.files[p][k]) for k in KINDS]
            text.append(f"{p:<44} " + " ".join(f"{c:>24}" for c in cells))
            md.append(f"| `{p}` | " + " | ".join(cells) + " |")
        cells = [show(*cov.total(paths, k)) for k in KINDS]
        text.append(f"{'total of ' + name:<44} " + " ".join(f"{c:>24}" for c in cells))
        md.append(f"| **total of {name}** | " + " | ".join(cells) + " |")
        text.append("")
    return text, md


def user_gaps(cov, user):
    """Each user file's lines and branch sides no input reached."""
    out = []
    for p in user:
        info = cov.files[p]
        lines = ranges(info["missed_lines"]) or "none"
        sides = ", ".join(f"{ln}:{col} {side}" for ln, col, side in info["missed_branches"]) or "none"
        out += [f"{p}: lines never run: {lines}", f"{p}: branch sides never taken (line:column): {sides}"]
    return out


def all_targets():
    return subprocess.run(["bash", "scripts/fuzz/fuzz-targets.sh"], capture_output=True, text=True,
                          check=True).stdout.split()


def settings():
    """(every target, the targets, FUZZ_SECONDS, lanes, USER_KERNELS) from the environment, each
    checked (make runs `check` before it builds anything)."""
    os.chdir(ROOT)
    everything = all_targets()
    targets = os.environ.get("FUZZ_TARGETS", "").split() or everything
    for t in targets:
        if t not in everything:
            raise SystemExit(f"fuzz-coverage: '{t}' is not a fuzz target; the targets are: {' '.join(everything)}")
        if targets.count(t) > 1:
            raise SystemExit(f"fuzz-coverage: '{t}' is named twice in FUZZ_TARGETS")
    seconds = whole("FUZZ_SECONDS", os.environ.get("FUZZ_SECONDS", "0") or "0", 0)
    lanes = min(whole("FUZZ_LANES", os.environ.get("FUZZ_LANES", "") or str(os.cpu_count()), 1), len(targets))
    user = [os.path.normpath(u) for u in os.environ.get("USER_KERNELS", "").split()]
    for u in user:
        if not u.endswith(".c") or not os.path.isfile(u):
            raise SystemExit(f"fuzz-coverage: USER_KERNELS: {u} is not a C file")
    return everything, targets, seconds, lanes, user


def run():
    everything, targets, seconds, lanes, user = settings()
    for t in targets:
        if not os.access(f"{BUILD}/fuzz_{t}", os.X_OK):
            raise SystemExit(f"fuzz-coverage: {BUILD}/fuzz_{t} is not built (make fuzz-coverage builds it)")
    os.makedirs(f"{BUILD}/logs", exist_ok=True)
    start = time.time()
    say(f"fuzz-coverage: {len(targets)} target(s) over their corpora, {lanes} at once"
        + (f", then {seconds}s of fuzzing each (at most {clock((len(targets) + lanes - 1) // lanes * seconds)})"
           if seconds else ""))
    ok = run_phase(targets, "corpus", 0, lanes)
    if seconds:
        ok = run_phase(targets, "fuzzed", seconds, lanes) and ok
    sources = user + ["core/"]
    phases = ["corpus"] + (["fuzzed"] if seconds else [])
    for phase in phases:
        raws = glob.glob(f"{BUILD}/profiles/corpus/*.profraw")
        if phase == "fuzzed":
            raws += glob.glob(f"{BUILD}/profiles/fuzzed/*.profraw")
        merge(raws, f"{BUILD}/{phase}.profdata")
        export(f"{BUILD}/{phase}.profdata", targets, sources, f"{BUILD}/{phase}.json",
               html=f"{BUILD}/html" if phase == phases[-1] else None)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    meta = {"measured": f"{when} commit {revision()}", "cpu": machine(), "targets": targets,
            "user": user, "seconds": seconds, "tools": tools_version()}
    with open(f"{BUILD}/run.json", "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
    final = Coverage(f"{BUILD}/{phases[-1]}.json", ROOT)
    corpus = Coverage(f"{BUILD}/corpus.json", ROOT)
    core = core_files(final)
    user = [u for u in user if u in final.files]
    what = "the committed corpora" + (f" and {seconds}s of fuzzing per target" if seconds else "")
    where = f"under {' '.join(RUNNER)} on " if RUNNER else ""
    title = f"What the fuzzers reach: {len(targets)} target(s) over {what}; {meta['measured']}; {where}{meta['cpu']}"
    text, md = table(final, user, core, title)
    for name, lines in (("table.txt", text), ("table.md", md)):
        with open(f"{BUILD}/{name}", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    say("\n".join(text + user_gaps(final, user)))
    if seconds:
        lc, bc = (percent(*corpus.total(core, k)) for k in ("lines", "branches"))
        say(f"fuzz-coverage: the corpora alone reach {lc:.2f}% of core/'s lines, {bc:.2f}% of its branches")
    say(f"fuzz-coverage: {BUILD}/html/index.html (every line), {BUILD}/table.txt and table.md; "
        f"{clock(time.time() - start)} for the runs and the report")
    problems = checks(corpus, core, targets, everything)
    for p in problems:
        say(("fuzz-coverage: " if not p.startswith("  ") else "") + p)
    if not ok:
        say("fuzz-coverage: a target failed (above)")
    return 0 if ok and not problems else 1


def checks(corpus, core, targets, everything):
    """The public-call and floor checks on the corpora's profile, after a run of every target."""
    if sorted(targets) != sorted(everything):
        say(f"fuzz-coverage: checks left out (FUZZ_TARGETS runs {len(targets)} of the {len(everything)} targets)")
        return []
    if RUNNER:
        say(f"fuzz-coverage: checks left out under {RUNNER[0]} (they read the native run)")
        return []
    headers = ["core/include/collide.h"] + sorted(glob.glob("core/include/collide/*.h"))
    problems = check_public(corpus, headers)
    meta, rows = read_floor(FLOOR)
    problems += check_floor(corpus, core, meta, rows, margins(meta))
    if not problems:
        public = sum(len(declared_functions(h)) for h in headers)
        say(f"fuzz-coverage: every public function ({public} in {len(headers)} headers) is run by the corpora; "
            f"core/ is at or above the floor ({FLOOR}, measured {meta.get('measured', '?')})")
        for kind in ("lines", "branches"):
            now, was = percent(*corpus.total(core, kind)), percent(*rows["total"][kind])
            if now > was + margins(meta)[kind]:
                say(f"fuzz-coverage: core/'s {SINGULAR[kind]} coverage rose from {was:.2f}% to {now:.2f}%: "
                    "make fuzz-coverage-floor records it")
    return problems


def floor():
    os.chdir(ROOT)
    if BUILD != "build/coverage":
        raise SystemExit("fuzz-coverage floor: the floor is the native run's (build/coverage)")
    try:
        with open(f"{BUILD}/run.json", encoding="utf-8") as f:
            meta = json.load(f)
    except OSError:
        raise SystemExit("fuzz-coverage floor: no run to record: make fuzz-coverage first")
    everything = all_targets()
    if sorted(meta["targets"]) != sorted(everything) or meta["user"]:
        raise SystemExit("fuzz-coverage floor: the last run was not of every target without USER_KERNELS")
    cov = Coverage(f"{BUILD}/corpus.json", ROOT)
    old = read_floor(FLOOR)[0] if os.path.exists(FLOOR) else {}
    meta["margin"] = old.get("margin", DEFAULT_MARGIN)
    write_floor(FLOOR, cov, core_files(cov), meta)
    fmeta, rows = read_floor(FLOOR)
    rewrite_doc(fmeta, rows, False)
    print(f"fuzz-coverage floor: wrote {FLOOR} and {DOC}'s table: core/ "
          f"{show(*rows['total']['lines'])} of lines, {show(*rows['total']['branches'])} of branches")
    return 0


def self_test():
    """Made-up inputs, each fault named; the expected words are written here, not taken from the
    checks' output."""
    from coverage_selftest import run_self_test
    return run_self_test()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "check":
        settings()
        return 0
    if mode == "run":
        return run()
    if mode == "floor":
        return floor()
    if mode == "doc-check":
        os.chdir(ROOT)
        rewrite_doc(*read_floor(FLOOR), True)
        print(f"fuzz-coverage doc-check: {DOC}'s coverage table is {FLOOR}'s")
        return 0
    if mode == "--self-test":
        return self_test()
    print(__doc__, file=sys.stderr if mode not in ("-h", "--help") else sys.stdout)
    return 0 if mode in ("-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main())
