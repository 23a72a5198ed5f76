"""The two checks of make fuzz-coverage (imported by scripts/fuzz/fuzz-coverage.py):

- every public call fuzzed: each function the public headers (core/include/collide.h,
  core/include/collide/*.h) declare, as they are now, was run by at least one fuzz target;
- the floor: core/'s line and branch coverage from the committed corpora is at most the
  floor file's margin below what it records, and a drop names the files that lost coverage.

Both return a list of problems, each a line naming what is wrong; empty when all is well.
"""
import re

from coverage_data import percent

# Declared in a public header but defined by the user, not by collide: reaching them is not the
# library's to prove.
USER_DEFINED = {
    "col_user_register": "backends.h: the function a USER_KERNELS file defines (the harness calls "
                         "each file's own, renamed per file)",
}


def _blank(text):
    """The text with comments, string literals and preprocessor lines turned into spaces (the
    newlines kept, so that offsets still give line numbers), and the C++ guard's `extern "C" {`
    and its `}` removed."""
    out = list(text)

    def wipe(a, b):
        for i in range(a, b):
            if out[i] != "\n":
                out[i] = " "

    for m in re.finditer(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', text, re.S):
        wipe(m.start(), m.end())
    text = "".join(out)
    for m in re.finditer(r"#\s*ifdef\s+__cplusplus.*?#\s*endif", text, re.S):
        wipe(m.start(), m.end())
    text = "".join(out)
    for m in re.finditer(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", text, re.M):
        wipe(m.start(), m.end())
    return "".join(out)


def declared_functions(path, text=None):
    """[(name, line)] of the functions a header declares at file scope (prototypes and inline
    definitions; not typedefs, struct members or function pointers), named col_ but not col__
    (the library's own helpers, never exported)."""
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    code = _blank(text)
    found = []
    depth, start = 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                _statement(code, start, i, found)
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            _statement(code, start, i, found)
            start = i + 1
    return found


def _statement(code, start, end, found):
    """Adds the function a file-scope statement (up to its ';' or its body's '{') declares, if it
    declares one: the first col_ name followed by '(' and not inside parentheses."""
    stmt = code[start:end]
    if re.match(r"\s*typedef\b", stmt):
        return
    m = re.search(r"\b(col_\w*)\s*\(", stmt)
    if not m or m.group(1).startswith("col__") or stmt.count("(", 0, m.start()) > 0:
        return
    found.append((m.group(1), code.count("\n", 0, start + m.start(1)) + 1))


SINGULAR = {"lines": "line", "branches": "branch"}


def check_public(cov, headers):
    """Problems: public functions no fuzz target ran (each with its header and line)."""
    problems = []
    for header in headers:
        for name, line in declared_functions(header):
            if name in USER_DEFINED:
                continue
            count = cov.functions.get(name)
            if count is None:
                problems.append(f"{name} ({header}:{line}) is reached by no fuzz target: no target "
                                "links it (no call to it in fuzz/)")
            elif count == 0:
                problems.append(f"{name} ({header}:{line}) is reached by no fuzz target: linked, "
                                "never run by the committed corpora")
    return problems


def check_floor(cov, core, floor_meta, floor_rows, margins):
    """Problems: core/'s line or branch coverage more than its margin below the floor's, with
    the files that lost coverage (more missed lines or branch sides than the floor records, or
    new files with missed ones); files gone from the build or new ones not in any target."""
    problems, lost = [], []
    for kind in ("lines", "branches"):
        now = percent(*cov.total(core, kind))
        was = percent(*floor_rows["total"][kind])
        if now is None or was is None or now >= was - margins[kind]:
            continue
        problems.append(f"core/'s {SINGULAR[kind]} coverage fell from {was:.2f}% to {now:.2f}% (the floor, measured "
                        f"{floor_meta.get('measured', '?')}, allows {margins[kind]} points less)")
        lost.append(kind)
    if not lost:
        return problems
    for path in core:
        old = floor_rows.get(path)
        for kind in lost:
            covered, count = cov.files[path][kind]
            missed = count - covered
            if old is None:
                if missed:
                    problems.append(f"  {path}: new, {missed} of {count} {kind} not reached")
                continue
            was_missed = old[kind][1] - old[kind][0]
            if missed > was_missed:
                problems.append(f"  {path}: {missed} {kind} not reached, the floor records {was_missed} "
                                f"({old[kind][0]}/{old[kind][1]} -> {covered}/{count})")
    return problems
