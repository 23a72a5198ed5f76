#!/usr/bin/python3
"""A misspelled make variable stops make (mk/vars.mk): make ignores variables it does not use,
so `make bench SCENES=level.scene` (for SCENE) silently ran the whole default suite.

  make-vars.py NAME...     exit 1 naming, for each NAME that is not one of collide's variables
                           but looks like one, the variable it resembles; else exit 0

collide's variables are read from the tree, never listed here: the names the Makefile and mk/*.mk
assign or expand, the ones make help lists (mk/help.mk), and those the scripts make runs read
from the environment (scripts/**/*.sh and *.py: ${NAME}, $NAME, os.environ). A name resembles
another when one is the other with a letter added, dropped, changed or two swapped, or (names of
six letters or more) two such edits; names of one or two letters, and names that resemble
nothing (V=1, say), pass: make's own and the user's variables stay free.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = r"[A-Z][A-Z0-9_]*"


def known():
    names = set()
    make_files = [os.path.join(ROOT, "Makefile")] + glob.glob(os.path.join(ROOT, "mk", "*.mk"))
    for path in make_files:
        text = open(path, encoding="utf-8").read()
        names.update(re.findall(rf"^(?:override\s+|export\s+)?({NAME})\s*(?:\?|:|::|\+)?=", text, re.M))
        names.update(re.findall(rf"\$[({{]({NAME})[)}}:]", text))
        names.update(re.findall(rf"\$\((?:origin|filter-out|strip|value) ({NAME})\)", text))
        if path.endswith("help.mk"):
            names.update(re.findall(rf"^  ({NAME})\s", text, re.M))
    scripts = glob.glob(os.path.join(ROOT, "scripts", "**", "*.sh"), recursive=True) + \
        glob.glob(os.path.join(ROOT, "scripts", "**", "*.py"), recursive=True)
    for path in scripts:
        text = open(path, encoding="utf-8", errors="replace").read()
        names.update(re.findall(rf"\$\{{({NAME})[:}}#%/-]", text))
        names.update(re.findall(rf"environ(?:\.get\(|\[)\s*[\"']({NAME})[\"']", text))
    return names


def distance(a, b, limit):
    """Damerau-Levenshtein distance (adjacent swaps count one), or limit + 1 when larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def resembles(name, names):
    if len(name) < 3:
        return None
    limit = 2 if len(name) >= 6 else 1
    best = None
    for k in sorted(names):
        if len(k) < 3:
            continue
        d = distance(name, k, limit)
        if d <= limit and (best is None or d < best[0]):
            best = (d, k)
    return best[1] if best else None


def main(argv):
    names = known()
    bad = []
    for name in argv[1:]:
        if name in names:
            continue
        like = resembles(name, names)
        if like:
            bad.append(f"{name} is not a variable of collide's make; did you mean {like}? "
                       f"(make help lists them; make ignores a variable nothing reads)")
    for line in bad:
        print(line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
