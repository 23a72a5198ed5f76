"""Two collide-digest outputs side by side, for scripts/bench/compare.py: kernel by kernel, the
first differing input with both answers, and a side's own backends against its scalar."""
import subprocess
import sys

from compare_data import die

def load_digest(path):
    """(kernels {(kernel, backend): (inputs, hash)} in file order, inputs {(kernel, backend, i): hash},
    header lines) of a collide-digest output; a clear error on anything else."""
    kernels, inputs, header = {}, {}, []
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if line.startswith("#"):
                    header.append(line.strip())
                elif len(w) == 5 and w[0] == "input":
                    inputs[(w[1], w[2], int(w[3]))] = w[4]
                elif len(w) == 4 and w[2].isdigit():
                    kernels[(w[0], w[1])] = (int(w[2]), w[3])
                elif w:
                    die(f"{path}: not a collide-digest output (line: {line.strip()[:60]})")
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if not kernels:
        die(f"{path}: no digest lines (collide-digest writes them; see make digest)")
    return kernels, inputs, header


def compare_digests(a, b, name_a, name_b):
    """Per kernel: same, or differs (on which backends; with per-input lines, on k of N inputs
    and the first); then each side's backends that differ from its own scalar. Returns
    ([(kernel, backend, first index or None)] of the differences, [lines of the latter])."""
    (ka, ia, ha), (kb, ib, hb) = a, b
    set_a = [x for x in ha if x.startswith("# collide digest:")]
    set_b = [x for x in hb if x.startswith("# collide digest:")]
    if set_a != set_b:
        print(f"compare: warning: {name_a} is {set_a[0][2:] if set_a else 'of no input set'}, "
              f"{name_b} {set_b[0][2:] if set_b else 'of no input set'}: their answers cannot agree",
              file=sys.stderr)
    order = list(dict.fromkeys(k for k, _ in ka))
    found, width, compared = [], max(len(k) for k in list(order) + [k for k, _ in kb]), 0
    print("answers (collide-digest: every kernel on the same inputs"
          + ("" if (name_a, name_b) == ("first", "second") else f"; first: {name_a}, second: {name_b}") + "):")
    for kernel in order:
        rows_a = {bk: v for (k, bk), v in ka.items() if k == kernel}
        rows_b = {bk: v for (k, bk), v in kb.items() if k == kernel}
        if not rows_b:
            print(f"  {kernel:<{width}}  only in the first")
            continue
        compared += 1
        diffs, n = [], None
        for bk, (na, ha_) in rows_a.items():
            other = rows_b.get(bk) or rows_b.get("*") or (next(iter(rows_b.values())) if bk == "*" else None)
            if other is None:
                continue
            n = na
            if other != (na, ha_):
                diffs.append(bk)
        if not diffs:
            print(f"  {kernel:<{width}}  same answers on all {n} inputs" if n is not None
                  else f"  {kernel:<{width}}  no backend in common")
            continue
        bk = "scalar" if "scalar" in diffs else diffs[0]
        idx = [i for i in range(rows_a[bk][0]) if (kernel, bk, i) in ia and (kernel, bk, i) in ib
               and ia[(kernel, bk, i)] != ib[(kernel, bk, i)]]
        common = [x for x in rows_a if x in rows_b]
        where = ("" if diffs == ["-"] else " on every backend" if len(diffs) == len(common) > 1
                 else f" on {', '.join(diffs)}")
        if idx:
            print(f"  {kernel:<{width}}  differs on {len(idx)} of {rows_a[bk][0]} inputs{where}"
                  + (f" ({bk}'s count)" if len(diffs) > 1 else "") + f"; the first is input {idx[0]}")
        else:
            print(f"  {kernel:<{width}}  differs{where}")
        found.append((kernel, bk, idx[0] if idx else None))
    only_b = [k for k in dict.fromkeys(k for k, _ in kb) if k not in order]
    for kernel in only_b:
        print(f"  {kernel:<{width}}  only in the second")
    print(f"{compared - len(found)} of {compared} kernels in both give the same answers" +
          ("" if not found else f"; {len(found)} differ"))
    backends_a, backends_b = {bk for _, bk in ka}, {bk for _, bk in kb}
    for name, only in ((name_a, backends_a - backends_b), (name_b, backends_b - backends_a)):
        if only and "*" not in backends_a | backends_b:  # '*': one line for every backend (golden)
            print(f"backends only {name} has (not compared): {', '.join(sorted(only))}")
    own = [f"{name}: {line}" for name, digest in ((name_a, a), (name_b, b)) for line in own_disagreements(digest)]
    for line in own:
        print(line)
    return found, own


def show_difference(bins, labels, kernel, backend, index):
    """The first differing input: its values once, then the answer lines that differ."""
    texts = []
    for binary in bins:
        cmd = [binary, "--show", f"{kernel}:{index}"] + ([] if backend in ("-", "*") else ["--backend", backend])
        texts.append(subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines())
    where = ("no backend to name (the kernel has one implementation, whatever the backend)" if backend == "-" else
             "every backend (one line for all)" if backend == "*" else f"backend {backend}")
    print(f"\nfirst difference: {kernel}, input {index}, {where}:")
    shown, answer, head, printed = 0, False, "", ""
    for la, lb in zip(*texts):
        if la.startswith("  input "):
            answer = False
        if la.startswith("  answer "):
            answer, head = True, la.strip()
        if not answer:
            if shown < 24:
                print(f"  {la}")
            shown += 1
        elif la != lb:
            if la.startswith("    ") and head != printed:
                print(f"  {head}")
            printed = head
            print(f"  first   {la.strip()}\n  second  {lb.strip()}")
    if shown > 24:
        print(f"  ({shown - 24} more lines of input: {bins[0]} --show {kernel}:{index})")


def own_disagreements(digest):
    """Lines naming the backends of a digest whose answers differ from the same digest's scalar
    (k of N inputs and the first, when it has per-input lines), one line per kernel and count;
    the contract says there is none."""
    kernels, inputs, _ = digest
    groups = {}
    for (kernel, bk), (n, h) in kernels.items():
        ref = kernels.get((kernel, "scalar"))
        if bk in ("scalar", "-") or ref is None or ref == (n, h):
            continue
        idx = [i for i in range(n) if (kernel, bk, i) in inputs and (kernel, "scalar", i) in inputs
               and inputs[(kernel, bk, i)] != inputs[(kernel, "scalar", i)]]
        key = (kernel, f"on {len(idx)} of {n} inputs of {kernel} (the first is input {idx[0]})" if idx
               else f"on {kernel}")
        groups.setdefault(key, []).append(bk)
    return [f"{', '.join(bks)} {'differs' if len(bks) == 1 else 'differ'} from its own scalar {what}"
            for (_, what), bks in groups.items()]
