#!/usr/bin/python3
"""Checks that README.md and docs/*.md stay usable (make docs-check, part of make test).

  check-docs.py              check the checkout this script lives in
  check-docs.py --self-test  feed the checks a broken README and require every fault reported
  check-docs.py --root DIR   check another checkout

The checks:
  - README.md is at most 15,000 bytes; every docs/*.md at most 25,000;
  - every command in README.md's sh code blocks exists and takes the arguments shown:
    `make` targets and VARIABLE=value names (also VARIABLE=value in front of a command) must be
    known to make (`make -pq`'s database, or the targets and variables `make help` lists); a
    script path must exist, and the options shown must appear in its own --help text (a script
    shown with options must take --help and exit 0);
  - the commands in docs/*.md's sh code blocks: make targets and variables, script paths;
  - every relative link in README.md and docs/*.md resolves to a file or folder of the
    checkout, and an anchor, when a link to a Markdown page has one, to a heading there.

Nothing is hard-coded about which scripts or targets exist: everything is read from the
documents, the Makefile and the scripts themselves. Exit 1 naming each problem.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

README_LIMIT = 15000
DOC_LIMIT = 25000
SEPARATORS = {";", "&&", "||", "|", "(", ")", "&", ";;", "|&"}
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=")
SKIP_COMMANDS = {"export", "cd", "echo", "sudo", "env", "time", "nice"}


def make_names(root):
    """The targets and variables make knows in root: its database, plus make help's lists."""
    env = dict(os.environ, LC_ALL="C")
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    env.pop("MAKELEVEL", None)
    out = subprocess.run(["make", "-pq", "-C", root], capture_output=True, text=True,
                         env=env).stdout
    if not out.strip():
        raise SystemExit("check-docs: `make -pq` printed nothing in " + root)
    targets, variables = set(), set()
    prev = ""
    for line in out.splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*) (?::=|::=|=|\?=|\+=) ?", line)
        if m:
            variables.add(m.group(1))
        elif not line.startswith(("#", "\t", " ")) and prev != "# Not a target:":
            m = re.match(r"^([^:=#\s][^:=#]*?)::?(?!=)", line)
            if m:
                targets.update(m.group(1).split())
        prev = line
    helptext = subprocess.run(["make", "--no-print-directory", "-C", root, "help"],
                              capture_output=True, text=True, env=env).stdout
    section = None
    for line in helptext.splitlines():
        if line.startswith("Targets"):
            section = targets
        elif line.startswith("Variables"):
            section = variables
        elif section is not None:
            m = re.match(r"^  ([A-Za-z_][A-Za-z0-9_-]*)(?:\s|$)", line)
            if m:
                section.add(m.group(1))
        # A variable the help text names in a target's line, e.g. "cross-test  ARCH=arm64 or
        # s390x", "fuzz-speed ... FUZZ_SPEED_SECONDS (10) each" (read by the script it runs).
        variables.update(re.findall(r"(?<![\w$(])([A-Z][A-Z0-9_]{2,})(?![\w(])", line))
    return targets, variables


def pattern_target(name, targets):
    """Whether a file target such as build/test/replay_aabb matches one of make's pattern rules
    (build/release/replay_%), whichever build folder it names."""
    for t in targets:
        if "%" not in t:
            continue
        rx = re.escape(t).replace(re.escape("%"), ".+")
        rx = re.sub(r"^build/[^/]+/", r"build/[^/]+/", rx.replace("\\/", "/"))
        if re.fullmatch(rx, name):
            return True
    return False


def sh_blocks(text):
    """(line number, line) of every line inside a ```sh (or bash, shell) code block."""
    inside, fence = False, ""
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(```+|~~~+)\s*(\S*)", line)
        if m and not inside:
            inside, fence = True, m.group(1)
            sh = m.group(2).lower() in ("sh", "bash", "shell", "console")
            continue
        if m and inside and m.group(1).startswith(fence) and not m.group(2):
            inside = False
            continue
        if inside and sh:
            yield n, line


def commands(lines):
    """The simple commands of shell lines: (line number, [words]); continuations joined."""
    pending, start = "", 0
    for n, line in lines:
        if not pending:
            start = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        text, pending = pending + line, ""
        text = re.sub(r"\$\([^()]*\)|`[^`]*`", "SUBST", text)  # command substitutions
        try:
            lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()")
            lexer.whitespace_split = True
            lexer.commenters = "#"
            words = list(lexer)
        except ValueError as e:
            yield start, None, "cannot be read as a shell command (%s): %s" % (e, text.strip())
            continue
        cmd = []
        for w in words + [";"]:
            if w in SEPARATORS:
                if cmd:
                    yield start, cmd, None
                cmd = []
            else:
                cmd.append(w)


def script_help(root, path, cache):
    """(exit status, text) of `path --help`, run in root; None when the script has no --help."""
    if path in cache:
        return cache[path]
    full = os.path.join(root, path)
    with open(full, errors="replace") as f:
        source = f.read()
    if "--help" not in source:
        cache[path] = None
        return None
    if os.access(full, os.X_OK):
        argv = [full]
    elif path.endswith(".py"):
        argv = [sys.executable, full]
    else:
        argv = ["bash", full]
    try:
        p = subprocess.run(argv + ["--help"], cwd=root, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        cache[path] = (p.returncode, p.stdout + p.stderr)
    except subprocess.TimeoutExpired:
        cache[path] = (124, "")
    return cache[path]


def check_commands(root, name, text, names, check_options, help_cache):
    targets, variables = names
    problems = []
    for n, cmd, error in commands(sh_blocks(text)):
        where = "%s:%d" % (name, n)
        if error:
            problems.append("%s: %s" % (where, error))
            continue
        env = []
        while cmd and ASSIGN.match(cmd[0]):
            env.append(ASSIGN.match(cmd.pop(0)).group(1))
        if not cmd or cmd[0] in SKIP_COMMANDS:
            continue
        prog, args = cmd[0], cmd[1:]
        if prog == "make":
            for v in env:
                if v not in variables:
                    problems.append("%s: make variable %s is not one make knows" % (where, v))
            skip = False
            for a in args:
                if skip:
                    skip = False
                elif a in ("-C", "-f", "-j", "-l", "-o", "-W"):
                    skip = True
                elif a.startswith("-"):
                    continue
                elif ASSIGN.match(a):
                    v = ASSIGN.match(a).group(1)
                    if v not in variables:
                        problems.append("%s: make variable %s is not one make knows" % (where, v))
                elif a not in targets and not ("/" in a and pattern_target(a, targets)):
                    problems.append("%s: make target %s does not exist" % (where, a))
            continue
        if "/" not in prog or prog.startswith(("/", "$", "~", "build/")):
            continue  # a system program, a shell expansion, or a program make builds
        full = os.path.join(root, prog)
        if not os.path.isfile(full):
            problems.append("%s: script %s does not exist" % (where, prog))
            continue
        for v in env:
            if v not in variables:
                problems.append("%s: variable %s (in front of %s) is not one make knows"
                                % (where, v, prog))
        options = [a.split("=", 1)[0] for a in args if a.startswith("-") and a != "-"]
        if not options or not check_options:
            continue
        helped = script_help(root, prog, help_cache)
        if helped is None:
            problems.append("%s: %s is shown with options (%s) but has no --help to check them"
                            % (where, prog, " ".join(options)))
            continue
        status, helptext = helped
        if status != 0:
            problems.append("%s: %s --help exits %d" % (where, prog, status))
            continue
        for o in options:
            if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", helptext):
                problems.append("%s: %s does not take %s (not in its --help)" % (where, prog, o))
    return problems


def slug(heading):
    """GitHub's anchor for a heading."""
    h = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip())
    h = re.sub(r"[^\w\- ]", "", h.lower())
    return h.replace(" ", "-")


def anchors(path):
    with open(path, errors="replace") as f:
        text = f.read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*?)\s*#*\s*$", text, re.M)}


def check_links(root, path, text):
    problems = []
    body = re.sub(r"^\s*(```+|~~~+).*?^\s*\1\s*$", "", text, flags=re.S | re.M)
    body = re.sub(r"`[^`\n]*`", "", body)
    name = os.path.relpath(path, root)
    for m in re.finditer(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", body):
        url = m.group(1)
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url):
            continue
        target, _, anchor = url.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
        if not os.path.exists(full):
            problems.append("%s: link %s: no such file" % (name, url))
        elif anchor and full.endswith(".md") and os.path.isfile(full) \
                and anchor not in anchors(full):
            problems.append("%s: link %s: no heading with that anchor" % (name, url))
    return problems


def check(root, readme, docs, names=None, help_cache=None, base=None):
    """Every problem of readme and the pages docs, as messages naming what is wrong. Commands
    are checked against the checkout root; links from each file's own folder; names are shown
    relative to base (root)."""
    base = base or root
    names = names or make_names(root)
    help_cache = {} if help_cache is None else help_cache
    problems = []
    for path, limit in [(readme, README_LIMIT)] + [(d, DOC_LIMIT) for d in docs]:
        size = os.path.getsize(path)
        if size > limit:
            problems.append("%s: %d bytes, over the limit of %d" % (os.path.relpath(path, base),
                                                                    size, limit))
        with open(path, errors="replace") as f:
            text = f.read()
        problems += check_commands(root, os.path.relpath(path, base), text, names,
                                   path == readme, help_cache)
        problems += check_links(base, path, text)
    return problems


def self_test(root):
    """A broken README: each planted fault must be reported, and the sound lines must not be."""
    names = make_names(root)
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    # A real script with an option, as the real README shows it (no list of scripts here).
    script = None
    for _, cmd, _ in commands(sh_blocks(readme)):
        while cmd and ASSIGN.match(cmd[0]):
            cmd = cmd[1:]
        if cmd and "/" in cmd[0] and not cmd[0].startswith(("build/", "/", "$")) \
                and any(a.startswith("--") for a in cmd[1:]):
            script = (cmd[0], next(a for a in cmd[1:] if a.startswith("--")).split("=")[0])
            break
    if script is None:
        raise SystemExit("check-docs --self-test: README.md shows no script with an option")
    target = sorted(t for t in names[0] if re.match(r"^[a-z][a-z-]*$", t))[0]
    variable = sorted(v for v in names[1] if re.match(r"^[A-Z][A-Z_]*$", v))[0]
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        with open(os.path.join(tmp, "docs", "ok.md"), "w") as f:
            f.write("# A page\n\n## Some heading\n")
        with open(os.path.join(tmp, "docs", "big.md"), "w") as f:
            f.write("# Big\n\n" + "x" * DOC_LIMIT + "\n")
        lines = [
            "# broken", "",
            "[a page](docs/ok.md), [its heading](docs/ok.md#some-heading),",
            "[a missing page](docs/no-such-page.md), [a missing heading](docs/ok.md#no-such-heading)",
            "", "```sh",
            "make no-such-target-zz",
            "make %s NO_SUCH_VARIABLE_ZZ=1 %s=1" % (target, variable),
            "NO_SUCH_ENV_ZZ=1 make %s" % target,
            "%s --no-such-option-zz" % script[0],
            "%s %s x y" % script,
            "scripts/no-such-script-zz.sh",
            "```", "", "x" * README_LIMIT, ""]
        path = os.path.join(tmp, "README.md")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        found = check(root, path, [os.path.join(tmp, "docs", "big.md"),
                                   os.path.join(tmp, "docs", "ok.md")], names, base=tmp)
    expect = ["no-such-target-zz", "NO_SUCH_VARIABLE_ZZ", "NO_SUCH_ENV_ZZ",
              "--no-such-option-zz", "no-such-script-zz.sh", "docs/no-such-page.md",
              "#no-such-heading", "README.md: ", "docs/big.md: "]
    missed = [e for e in expect if not any(e in p for p in found)]
    sound = ["make target %s " % target, "variable %s " % variable, " %s " % script[1],
             "script %s does not exist" % script[0], "--help exits",
             "docs/ok.md#some-heading", "docs/ok.md:", "docs/ok.md: no"]
    false = [p for p in found for s in sound if s in p]
    if missed or false:
        for p in found:
            print("  reported: " + p)
        for e in missed:
            print("check-docs --self-test: FAILED: %s was not reported" % e)
        for p in false:
            print("check-docs --self-test: FAILED: reported a sound line: %s" % p)
        return 1
    print("check-docs --self-test: all %d planted faults reported (a made-up target, variable,"
          " script option, script and link among them), no sound line reported" % len(expect))
    return 0


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    selftest = False
    while argv:
        a = argv.pop(0)
        if a == "--root" and argv:
            root = os.path.abspath(argv.pop(0))
        elif a == "--self-test":
            selftest = True
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            print("check-docs: unknown argument %s (--help)" % a, file=sys.stderr)
            return 2
    if selftest:
        return self_test(root)
    docs_dir = os.path.join(root, "docs")
    docs = sorted(os.path.join(docs_dir, f) for f in os.listdir(docs_dir)
                  if f.endswith(".md")) if os.path.isdir(docs_dir) else []
    problems = check(root, os.path.join(root, "README.md"), docs)
    for p in problems:
        print("check-docs: " + p)
    if problems:
        print("check-docs: FAILED: %d problem(s) in README.md and docs/" % len(problems))
        return 1
    print("check-docs: README.md (%d bytes) and %d pages in docs/: sizes, commands and links ok"
          % (os.path.getsize(os.path.join(root, "README.md")), len(docs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
