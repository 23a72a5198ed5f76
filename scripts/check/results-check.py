#!/usr/bin/python3
"""make results-check: the committed results stay small enough to clone.

Usage: scripts/check/results-check.py [--self-test] [ROOT]

Fails (exit 1, naming each file and its size) when a file git tracks under ROOT/results/ is
larger than 512 KB, when the summary ROOT/results/REPORT.md is larger than 60 KB, or when the
newest commit that added a run (a results/<machine>/*.json.xz) adds more than 400 KB to a clone:
the size of the thin pack git sends for that commit over its parent (what a fetch of it costs).
Without the parent (a shallow clone) that last check says so and passes. Each run
is kept xz-compressed (results/<machine>/*.json.xz, about 200 KB for a default run), every
table and plot of a machine goes to its own report (results/<machine>/REPORT.md) and plots
(results/plots/<machine>/), and the summary holds the machines side by side; a file over its
limit means something was committed uncompressed or a page grew past what a reader loads.
Files not yet added to git are checked too when they are under results/ and not ignored (a
run about to be committed), so the check can be run before `git commit`.

--self-test: builds a throwaway git repository in a temporary folder with an oversized run, an
oversized summary and a file just under the limit, and checks that the check fails on the first
two, names them with their sizes, and passes once they are gone. Fast (no benchmark runs).
"""
import os
import subprocess
import sys
import tempfile

FILE_LIMIT = 512 * 1024  # bytes: any file under results/
REPORT_LIMIT = 60 * 1024  # bytes: results/REPORT.md, the summary
REPORT = "results/REPORT.md"
GROWTH_LIMIT = 400 * 1024  # bytes: what the newest committed run adds to a clone


def kb(n):
    return f"{n / 1024:.1f} KB" if n % 1024 == 0 or n < 1024 else f"{n / 1024:.1f} KB ({n} bytes)"


def results_files(root):
    """The files under root/results/ that git tracks, or would track once added (not ignored)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
                          "results"], cwd=root, capture_output=True, check=False)
    if out.returncode != 0:
        sys.exit(f"results-check: git ls-files failed in {root}: {out.stderr.decode(errors='replace').strip()}")
    return sorted({p for p in out.stdout.decode().split("\0") if p})


def check(root):
    """The files over their limit, as messages (empty: all within)."""
    problems = []
    largest = (0, None)
    for path in results_files(root):
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue  # deleted in the working tree, not yet committed
        size = os.path.getsize(full)
        largest = max(largest, (size, path))
        if path == REPORT and size > REPORT_LIMIT:
            problems.append(f"{path}: {kb(size)}, over the summary's limit of {kb(REPORT_LIMIT)} "
                            "(each machine's tables and plots belong in results/<machine>/REPORT.md)")
        elif size > FILE_LIMIT:
            problems.append(f"{path}: {kb(size)}, over the limit of {kb(FILE_LIMIT)} for a file under "
                            "results/ (runs are kept as .json.xz; make bench writes them so)")
    return problems, largest


def git_out(root, *args, data=None):
    out = subprocess.run(["git", *args], cwd=root, input=data, capture_output=True, check=False)
    return out.stdout if out.returncode == 0 else None


def growth(root):
    """(commit, bytes) for the newest commit that added a run, bytes None without its parent;
    (None, None) when no commit added one."""
    found = git_out(root, "log", "-1", "--format=%H", "--diff-filter=A", "--", "results/*/*.json.xz")
    commit = found.decode().strip() if found else ""
    if not commit:
        return None, None
    if git_out(root, "rev-parse", "--verify", "-q", commit + "^") is None:
        return commit, None
    pack = git_out(root, "pack-objects", "--revs", "--thin", "--stdout", "-q",
                   data=f"{commit}\n^{commit}^\n".encode())
    if pack is None:
        sys.exit(f"results-check: git pack-objects failed for {commit} in {root}")
    return commit, len(pack)


def check_growth(root):
    """A message when the newest run's commit grows a clone by more than the limit, else None."""
    commit, size = growth(root)
    if commit is None:
        print("results-check: no commit adds a run yet: clone growth not measured")
    elif size is None:
        print(f"results-check: {commit[:10]}'s parent is not in this clone (shallow): clone growth "
              "not measured")
    elif size > GROWTH_LIMIT:
        return (f"commit {commit[:10]} (the newest run) adds {kb(size)} to a clone, over the limit "
                f"of {kb(GROWTH_LIMIT)} (plots or reports grew, or the run was stored uncompressed)")
    else:
        print(f"results-check: the newest run's commit {commit[:10]} adds {kb(size)} to a clone "
              f"(limit {kb(GROWTH_LIMIT)}): ok")
    return None


def run(root):
    problems, (size, path) = check(root)
    grown = check_growth(root)
    if grown:
        problems.append(grown)
    if problems:
        for p in problems:
            print(f"results-check: FAILED: {p}", file=sys.stderr)
        return 1
    report = os.path.join(root, REPORT)
    summary = f"{REPORT} {kb(os.path.getsize(report))}; " if os.path.isfile(report) else ""
    print(f"results-check: every file under results/ within {kb(FILE_LIMIT)} ({summary}largest "
          f"{path or 'none'}{' ' + kb(size) if path else ''}): ok")
    return 0


def self_test():
    """The check must fail on an oversized run and summary, naming both, and pass without them."""
    with tempfile.TemporaryDirectory(prefix="results-check.") as root:
        def git(*args):
            subprocess.run(["git", "-c", "user.name=check", "-c", "user.email=check@localhost", *args],
                           cwd=root, check=True, capture_output=True)

        def write(path, size):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "wb") as f:
                f.write(b"x" * size)

        git("init", "-q")
        write("results/m/20990101-000000-abc1234.json", FILE_LIMIT + 1)  # a run left uncompressed
        write(REPORT, REPORT_LIMIT + 1)  # a summary holding every table
        write("results/m/REPORT.md", FILE_LIMIT)  # at the limit: allowed
        write("results/m/partial/ignored.json", 2 * FILE_LIMIT)  # ignored: not checked
        with open(os.path.join(root, ".gitignore"), "w") as f:
            f.write("results/*/partial/\n")
        git("add", "-A")
        git("commit", "-q", "-m", "oversized results")
        problems, _ = check(root)
        named = sorted(p.split(":")[0] for p in problems)
        expected = sorted(["results/m/20990101-000000-abc1234.json", REPORT])
        if named != expected or not all(kb(FILE_LIMIT + 1) in p or kb(REPORT_LIMIT + 1) in p
                                        for p in problems):
            print(f"results-check: self-test FAILED: expected {expected} named with their sizes, got "
                  f"{problems}", file=sys.stderr)
            return 1
        for p in problems:
            print(f"results-check: self-test: found as it should: {p}")
        write("results/m/new-run.json", FILE_LIMIT + 1)  # not yet added: checked all the same
        problems, _ = check(root)
        if not any(p.startswith("results/m/new-run.json:") for p in problems):
            print("results-check: self-test FAILED: a file not yet added was not checked", file=sys.stderr)
            return 1
        for path in ("results/m/20990101-000000-abc1234.json", "results/m/new-run.json", REPORT):
            os.remove(os.path.join(root, path))
        git("add", "-A")
        git("commit", "-q", "-m", "within limits")
        problems, _ = check(root)
        if problems:
            print(f"results-check: self-test FAILED: still failing once within limits: {problems}",
                  file=sys.stderr)
            return 1
        # Clone growth: a run commit of incompressible bytes over the limit, then a small one.
        write("results/m/20990102-000000-def5678.json.xz", 0)
        with open(os.path.join(root, "results/m/20990102-000000-def5678.json.xz"), "wb") as f:
            f.write(os.urandom(GROWTH_LIMIT + 4096))
        git("add", "-A")
        git("commit", "-q", "-m", "a run too large")
        grown = check_growth(root)
        if not grown or "the newest run" not in grown:
            print(f"results-check: self-test FAILED: a run commit of {kb(GROWTH_LIMIT + 4096)} of "
                  f"random bytes passed the growth check: {grown}", file=sys.stderr)
            return 1
        print(f"results-check: self-test: found as it should: {grown}")
        with open(os.path.join(root, "results/m/20990103-000000-0123abc.json.xz"), "wb") as f:
            f.write(os.urandom(GROWTH_LIMIT // 2))
        git("add", "-A")
        git("commit", "-q", "-m", "a run within the limit")
        grown = check_growth(root)
        if grown:
            print(f"results-check: self-test FAILED: a run commit half the limit failed: {grown}",
                  file=sys.stderr)
            return 1
    print("results-check: self-test: an oversized run and summary are found and named with their "
          "sizes, a file at the limit passes, a run commit over the growth limit fails and one "
          "under it passes: ok")
    return 0


def main(argv):
    args = [a for a in argv if a != "--self-test"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.exit(__doc__.split("\n\n")[1])
    root = args[0] if args else os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if "--self-test" in argv:
        return self_test()
    return run(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
