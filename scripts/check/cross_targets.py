#!/usr/bin/python3
"""The one parser of scripts/check/cross-targets.list, the targets the golden digest is proven on.

  cross_targets.py names [--ci]        the cross targets (every row but this machine's), one a line
  cross_targets.py shell ARCH          the row as shell assignments (triple, deb, runner, flags,
                                       link, stages, ci, backends, note, cpu); exit 2 naming the
                                       targets when ARCH is not one
  cross_targets.py stages ARCH LIST    LIST (words, or "ci", or "all") checked against the row's
                                       stages, printed in the row's order; exit 2 on a stage the
                                       row does not have
  cross_targets.py doc [--check] FILE...  rewrite (or check) the generated blocks of FILEs
  cross_targets.py proven              the report's "Proven bit for bit on" lines

A generated block sits between a line "<!-- cross-targets: KIND -->" (KIND: table or proven)
and "<!-- cross-targets: end -->"; make cross-doc rewrites them, docs-check (make test) checks
them. scripts/bench/report imports proven_lines(). Errors: exit 2 and one line on stderr.
"""
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "cross-targets.list")
COLUMNS = ("arch", "cpu", "triple", "deb", "runner", "flags", "link", "stages", "ci", "backends",
           "note")
STAGES = ("unit", "replay", "digest", "clang", "sanitize", "fuzz", "emulation")
STAGE_WORDS = {
    "unit": "the unit suite on every backend",
    "replay": "every corpus replayed",
    "digest": "the golden digest",
    "clang": "clang's build too",
    "sanitize": "sanitized replays",
    "fuzz": "brief fuzzing",
    "emulation": "benchmarks refused under emulation",
}
BEGIN = re.compile(r"^<!-- cross-targets: (table|proven) -->$")
END = "<!-- cross-targets: end -->"


class ListError(Exception):
    pass


def targets(path=LIST):
    """The rows, in the list's order, as dicts of the columns (- read as empty)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = [c.strip() for c in line.rstrip("\n").split("|")]
            if len(cells) != len(COLUMNS):
                raise ListError(f"{path}:{n}: {len(cells)} columns, not {len(COLUMNS)}")
            row = {k: ("" if v == "-" else v) for k, v in zip(COLUMNS, cells)}
            if row["runner"] != "native":
                bad = [s for s in (row["stages"] + " " + row["ci"]).split()
                       if s not in STAGES and s != "unit:native"]
                if bad or not row["stages"]:
                    raise ListError(f"{path}:{n}: {row['arch']}: unknown stages {bad or '(none)'}")
                extra = set(words(row["ci"])) - set(row["stages"].split())
                if extra:
                    raise ListError(f"{path}:{n}: {row['arch']}: ci stages not in stages: {sorted(extra)}")
            if row["link"] not in ("dynamic", "static"):
                raise ListError(f"{path}:{n}: link is dynamic or static, not {row['link']!r}")
            rows.append(row)
    return rows


def words(text):
    """Stage words, unit:native (the unit suite on the natively built ISAs only) read as unit."""
    return ["unit" if w == "unit:native" else w for w in text.replace(",", " ").split()]


def cross(rows, arch):
    for r in rows:
        if r["arch"] == arch and r["runner"] != "native":
            return r
    names = "|".join(r["arch"] for r in rows if r["runner"] != "native")
    raise ListError(f"ARCH={arch or '(empty)'} is not a cross target; ARCH={names} "
                    f"(the list: {os.path.relpath(LIST)})")


def command(r):
    return "make test" if r["runner"] == "native" else f"make cross-test ARCH={r['arch']}"


def where(r):
    if r["runner"] == "native":
        return "natively"
    if r["runner"] == "node":
        return "under Node (WASI)"
    return f"under {r['runner']}"


def what_runs(r, key="stages"):
    if r["runner"] == "native":
        return "every suite (unit, corpora, golden digest, plain and ASan+UBSan, fuzzing)"
    text = ", ".join(STAGE_WORDS[s] for s in STAGES if s in words(r[key]))
    return text.replace("every backend", "the native ISAs") if "unit:native" in r[key].split() else text


def proven_lines(path=LIST):
    """The report's and docs/backends.md's list of where the bits are proven."""
    rows = targets(path)
    lines = [f"**Proven bit for bit on** {len(rows)} targets (every backend each target runs gives "
             "the scalar reference's results exactly; CI checks the golden digest on every one):", ""]
    for r in rows:
        maths = " ".join(f for f in r["flags"].split() if not f.startswith("-D"))  # not -D_FILE_OFFSET_BITS
        flags = f", `{maths}`" if maths else ""
        lines.append(f"- {r['cpu']}{flags} {where(r)} ({r['backends']}): `{command(r)}`")
    return lines + [""]


def table_lines(path=LIST):
    rows = targets(path)
    out = ["| target | runs | flags | backends | what runs (CI) | left out |", "|---|---|---|---|---|---|"]
    for r in rows:
        ci = "" if r["runner"] == "native" or r["ci"] == r["stages"] else f" (CI: {what_runs(r, 'ci')})"
        out.append(f"| `{command(r)}`: {r['cpu']} | {where(r)} | {'`' + r['flags'] + '`' if r['flags'] else '-'} "
                   f"| {r['backends']} | {what_runs(r)}{ci} | {r['note'] or '-'} |")
    return out


def rewrite(text, path=LIST):
    out, kind = [], None
    for line in text.split("\n"):
        m = BEGIN.match(line)
        if kind is None:
            out.append(line)
            if m:
                kind = m.group(1)
                out += table_lines(path) if kind == "table" else proven_lines(path)[:-1]
        elif line == END:
            out.append(line)
            kind = None
    if kind is not None:
        raise ListError(f"a '<!-- cross-targets: {kind} -->' block has no '{END}'")
    return "\n".join(out)


def main(argv):
    try:
        if len(argv) >= 2 and argv[1] == "names":
            key = "ci" if argv[2:] == ["--ci"] else "stages"
            for r in targets():
                if r["runner"] != "native" and r[key]:
                    print(r["arch"])
        elif len(argv) == 3 and argv[1] == "shell":
            r = cross(targets(), argv[2])
            for k in COLUMNS[1:]:
                print(f"{k}={shlex.quote(r[k])}")
        elif len(argv) == 4 and argv[1] == "stages":
            r = cross(targets(), argv[2])
            want = words({"ci": r["ci"], "all": r["stages"]}.get(argv[3], argv[3]))
            bad = [s for s in want if s not in r["stages"].split()]
            if bad:
                raise ListError(f"CROSS_STAGES={argv[3]}: {' '.join(bad)} not a stage of {r['arch']} "
                                f"(its stages: {r['stages']}; or ci, all)")
            print(" ".join(s for s in STAGES if s in want))
        elif len(argv) >= 3 and argv[1] == "doc":
            check = argv[2] == "--check"
            stale = []
            for path in argv[3 if check else 2:]:
                with open(path, encoding="utf-8") as f:
                    old = f.read()
                if BEGIN.pattern and not any(BEGIN.match(x) for x in old.split("\n")):
                    raise ListError(f"{path}: no '<!-- cross-targets: table|proven -->' block")
                new = rewrite(old)
                if new != old:
                    if check:
                        stale.append(path)
                    else:
                        with open(path, "w", encoding="utf-8") as f:
                            f.write(new)
                        print(f"cross-doc: rewrote {path}'s cross-target block")
            if stale:
                print(f"cross-doc: {', '.join(stale)}: the cross-target block differs from "
                      f"{os.path.relpath(LIST)} (make cross-doc rewrites it)", file=sys.stderr)
                return 1
        elif argv[1:] == ["proven"]:
            print("\n".join(proven_lines()))
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
    except (ListError, OSError) as e:
        print(f"cross_targets: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
