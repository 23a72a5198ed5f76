#!/usr/bin/python3
"""The one parser of a build "choice": make variables as a user writes them.

  scripts/bench/choice.py make-args 'CC=clang CFLAGS=-O3 -march=native -ffp-contract=fast'
      the make arguments, NUL-separated (bash: mapfile -d '' args < <(scripts/bench/choice.py ...))
  scripts/bench/choice.py label 'CHOICE'      a one-line label: the make arguments, then "(reference: ...)"
                                        or "(not the reference: ...)"
  scripts/bench/choice.py reference 'CHOICE'  exit 0 when the choice is the reference (no CHOICE_CFLAGS),
                                        1 when it is not
  scripts/bench/choice.py breaks 'CHOICE'     the flags that break the bit-exact contract, one line
                                        (empty when none)

Syntax: whitespace-separated tokens (shell quoting works); NAME=value or NAME+=value (NAME:
[A-Z_][A-Z0-9_]*) starts an assignment and the tokens after it that are not assignments join
its value. CFLAGS+=x keeps the Makefile's flags and adds x after them (CHOICE_CFLAGS);
CFLAGS=x replaces them: the flags of x that would break the bit-exact contract (contraction,
fast math) go to CHOICE_CFLAGS, after the flags the build requires, so that they take effect
(the Makefile refuses them in CFLAGS, where they would be undone). A choice with any
CHOICE_CFLAGS, or SIMDE_NATIVE=1 (the emulated twins on SIMDe's native mappings), is "not the reference" (the Makefile's CHOICE_LABEL says the same); its label also
says whether those flags break the bit-exact contract. CFLAGS=x without an -O level is built
unoptimized: a warning on stderr says so. O is refused (the caller picks the build folder).
Used by scripts/bench/compare.py --build, make fuzz-choice and make bench-choices. Errors: exit 2 and
one line on stderr.
"""
import re
import shlex
import sys

ASSIGN = re.compile(r"^([A-Z_][A-Z0-9_]*)(\+?=)(.*)$", re.S)
# Flags that change floating-point results: the Makefile refuses them in CFLAGS.
BREAKERS = re.compile(r"^(-ffp-contract=(?!off$).*|-ffast-math|-Ofast|-funsafe-math-optimizations|"
                      r"-fassociative-math|-freciprocal-math|-ffinite-math-only|-fno-signed-zeros|"
                      r"-fapprox-func|-fcx-limited-range)$")


class ChoiceError(Exception):
    pass


def parse(text):
    """[(name, op, value)] from a choice string."""
    try:
        tokens = shlex.split(text)
    except ValueError as e:
        raise ChoiceError(f"{text!r}: {e}")
    out = []
    for t in tokens:
        m = ASSIGN.match(t)
        if m:
            out.append([m.group(1), m.group(2), m.group(3)])
        elif re.match(r"^\+?=", t):
            raise ChoiceError(f"{text!r}: '{t}' has no variable name before the '='")
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*\+?=", t):
            raise ChoiceError(f"{text!r}: '{t}': the make variables of a choice are upper case "
                              "(CC, CFLAGS, ...)")
        elif out:
            out[-1][2] = (out[-1][2] + " " + t).strip()
        else:
            raise ChoiceError(f"{text!r}: '{t}' is not NAME=value (a choice is make variables, "
                              "e.g. 'CC=clang CFLAGS+=-O3 -march=native')")
    return [tuple(a) for a in out]


def make_args(text):
    """The make arguments, and the flags moved to CHOICE_CFLAGS."""
    args, choice, native = [], [], False
    for name, op, value in parse(text):
        if name == "SIMDE_NATIVE" and op == "=":
            native = value not in ("", "0")
            if value not in ("", "0", "1"):
                raise ChoiceError(f"{text!r}: SIMDE_NATIVE={value}: 1 (or 0, the reference)")
        elif name == "CHOICE_CFLAGS":
            choice += value.split()
        elif name == "CFLAGS" and op == "+=":
            choice += value.split()
        elif name == "CFLAGS":
            flags = value.split()
            choice += [f for f in flags if BREAKERS.match(f)]
            kept = [f for f in flags if not BREAKERS.match(f)]
            if not any(re.match(r"^-O", f) for f in flags):
                print(f"choice: CFLAGS={value} has no -O level: that build is unoptimized "
                      "(CFLAGS+= keeps the defaults)", file=sys.stderr)
            args.append("CFLAGS=" + " ".join(kept))
        elif name == "O":
            raise ChoiceError(f"{text!r}: O={value}: a choice names how to build, not where "
                              "(the caller gives each choice its own folder)")
        elif op == "+=":
            raise ChoiceError(f"{text!r}: {name}+=: only CFLAGS can be added to (write {name}=...)")
        else:
            args.append(f"{name}={value}")
    if choice:
        args.append("CHOICE_CFLAGS=" + " ".join(choice))
    if native:
        args.append("SIMDE_NATIVE=1")
    return args, choice + (["SIMDE_NATIVE=1"] if native else [])


def breaks(text, choice=None):
    """The flags of the choice that break the bit-exact contract."""
    return [f for f in (make_args(text)[1] if choice is None else choice) if BREAKERS.match(f)]


def choose(text):
    """(make arguments, CHOICE_CFLAGS as a list, whether it is the reference, label)."""
    args, choice = make_args(text)
    return args, choice, not choice, f"{' '.join(args) or 'the defaults'} ({status(choice)})"


def status(choice):
    """What a build with these CHOICE_CFLAGS is: "reference" or "not the reference: ..."."""
    if not choice:
        return "reference: the bit-exact flags"
    bad = breaks(None, choice)
    flags = [f for f in choice if f != "SIMDE_NATIVE=1"]
    native = ("SIMDE_NATIVE=1: the emulated twins on SIMDe's native mappings, exact on some "
              "targets only (docs/determinism.md)" if len(flags) < len(choice) else "")
    if not flags:
        return f"not the reference: {native}"
    return (f"not the reference: {' '.join(flags)} after the required flags; "
            + (f"{' '.join(bad)} breaks the bit-exact contract" if bad
               else "within the bit-exact contract") + (f"; {native}" if native else ""))


def label(text):
    return choose(text)[3]


def main(argv):
    if len(argv) != 3 or argv[1] not in ("make-args", "label", "reference", "breaks"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        if argv[1] == "make-args":
            args, _ = make_args(argv[2])
            sys.stdout.write("".join(a + "\0" for a in args))
        elif argv[1] == "label":
            print(label(argv[2]))
        elif argv[1] == "breaks":
            print(" ".join(breaks(argv[2])))
        else:
            return 0 if not make_args(argv[2])[1] else 1
    except ChoiceError as e:
        print(f"choice: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
