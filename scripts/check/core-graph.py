#!/usr/bin/python3
"""The arrows between the library's source files (core/src): which file includes which, and
which file calls an internal col__ function defined in which file (code in a header counts
as the header's own: a static inline function belongs to the header that defines it). Prints
the arrows, the circles (files that reach each other through includes and calls) and the
upward arrows (a header's code calling a function defined in a front end, a .c file that
defines public col_ functions: the shared lower layer, which the front ends include, would
then depend on one of them). Exits 1 when there is a circle or an upward arrow. Calls through
a function table (the backend and algorithm registries) are not arrows: only a name followed
by its argument list is a call.

  scripts/check/core-graph.py [-q]    -q: the counts and the problems only
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SRC = "core/src"
NAME = re.compile(r"\bcol__\w+(?=\s*\()")
PUBLIC = re.compile(r"\bcol_(?!_)\w+(?=\s*\()")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip(text):
    """Comments, strings and character constants blanked (newlines kept)."""
    out = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                 lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return out


def closing(code, at):
    """The index just past the parenthesis that closes the one at code[at]."""
    depth = 0
    for k in range(at, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


def scan(code, name=NAME):
    """(definitions, calls) of the functions `name` matches in one file's code."""
    defined, called = set(), set()
    depth = 0
    depth_at = []
    for k, ch in enumerate(code):  # brace depth before each character
        depth_at.append(depth)
        depth += ch == "{"
        depth -= ch == "}"
    for m in name.finditer(code):
        line_start = code.rfind("\n", 0, m.start()) + 1
        if code[line_start:m.start()].lstrip().startswith("#define"):
            called.add(m.group(0))  # a macro's body runs where it is used
            continue
        if depth_at[m.start()] > 0:
            called.add(m.group(0))
            continue
        end = closing(code, code.index("(", m.end()))
        if code[end:].lstrip().startswith("{"):
            defined.add(m.group(0))
    return defined, called


def main():
    quiet = "-q" in sys.argv[1:]
    os.chdir(ROOT)
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(SRC) for f in fs if f.endswith((".c", ".h")))
    code = {f: strip(open(f, encoding="utf-8").read()) for f in files}
    where = {}
    calls = {}
    for f in files:
        defined, called = scan(code[f])
        for name in defined:
            where.setdefault(name, set()).add(f)
        calls[f] = called
    includes = {f: set() for f in files}
    for f in files:
        for name in INCLUDE.findall(open(f, encoding="utf-8").read()):
            for base in (os.path.dirname(f), SRC):
                path = os.path.normpath(os.path.join(base, name))
                if path in code:
                    includes[f].add(path)
                    break
    call_arrows = {}  # (from, to) -> names
    for f in files:
        for name in calls[f]:
            homes = where.get(name, set())
            if f in homes:
                continue
            for home in homes:
                call_arrows.setdefault((f, home), set()).add(name)
    graph = {f: set(includes[f]) for f in files}
    for a, b in call_arrows:
        graph[a].add(b)
    circles = components(graph)
    front = {f for f in files if f.endswith(".c") and scan(code[f], PUBLIC)[0]}
    upward = sorted((a, b) for a, b in call_arrows if a.endswith(".h") and b in front)
    if not quiet:
        print("include arrows:")
        for f in files:
            for g in sorted(includes[f]):
                print(f"  {f} -> {g}")
        print("call arrows (caller -> the file defining the col__ function):")
        for (a, b), names in sorted(call_arrows.items()):
            print(f"  {a} -> {b}: {', '.join(sorted(names))}")
    print(f"files {len(files)}, include arrows {sum(len(s) for s in includes.values())}, "
          f"call arrows {len(call_arrows)}, circles {len(circles)}, upward arrows {len(upward)}")
    for c in circles:
        print("circle: " + " <-> ".join(c))
        for a in c:
            for b in c:
                if (a, b) in call_arrows:
                    print(f"  {a} calls {b}: {', '.join(sorted(call_arrows[(a, b)]))}")
                if b in includes[a]:
                    print(f"  {a} includes {b}")
    for a, b in upward:
        print(f"upward: {a} calls {b}: {', '.join(sorted(call_arrows[(a, b)]))}")
    return 1 if circles or upward else 0


def components(graph):
    """The strongly connected components of more than one file (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


if __name__ == "__main__":
    sys.exit(main())
