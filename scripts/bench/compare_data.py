"""What scripts/bench/compare.py reads and prints: result files (.json.xz or plain), their
contexts, the repetitions' medians and p-values, and the speed table."""
import json
import lzma
import math
import re
import sys

CPU = {}  # the CPU a run's JSON names (collide_cpu_model, collide_cpu_identity), for the heading
CONTEXT = {}  # binary -> the context of its last run (collide_compiler, ...)


def die(message, code=2):
    print(f"compare: {message}", file=sys.stderr)
    sys.exit(code)



def seconds(b):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
    return b["real_time"] * scale


def load(path):
    """A Google Benchmark JSON file, xz-compressed (.json.xz, as make bench writes them) or plain,
    or a clear error (not a traceback)."""
    try:
        with (lzma.open(path, "rt", encoding="utf-8") if path.endswith(".xz") else open(path)) as f:
            data = json.load(f)
    except OSError as e:
        die(f"{path}: {e.strerror or e}")
    except (ValueError, UnicodeDecodeError, EOFError, lzma.LZMAError) as e:
        die(f"{path}: not a Google Benchmark JSON file ({e})")
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        die(f"{path}: not a Google Benchmark JSON file (no \"benchmarks\" list)")
    return data


# What makes two result files not comparable like for like: (context keys, what to call it).
CONTEXT_AXES = [
    (("collide_cpu_identity", "collide_cpu_model", "collide_tsc_ghz", "num_cpus"), "CPU"),
    (("collide_suite",), "suite"),
    (("collide_compiler", "collide_cflags"), "compiler"),
    (("collide_git_revision",), "revision"),
]


def context_warnings(a, b, name_a, name_b):
    """One line per axis on which the two files' contexts differ."""
    ca, cb = a.get("context", {}), b.get("context", {})
    out = []
    for keys, what in CONTEXT_AXES:
        differ = [(k, ca.get(k, "not recorded"), cb.get(k, "not recorded")) for k in keys
                  if ca.get(k, "not recorded") != cb.get(k, "not recorded")]
        if differ:
            detail = "; ".join(f"{k}: {x!r} in {name_a}, {y!r} in {name_b}" for k, x, y in differ)
            out.append(f"compare: warning: the two files differ in {what} ({detail})")
    return out


def p_floor(n, m):
    """The smallest two-sided p-value an exact Mann-Whitney test can give with n and m samples."""
    return min(1.0, 2.0 / math.comb(n + m, n))


def samples_of(path_or_data):
    """{name: [seconds per iteration, ...]} from Google Benchmark JSON (iterations, not aggregates)."""
    data = load(path_or_data) if isinstance(path_or_data, str) else path_or_data
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        out.setdefault(b.get("run_name", b["name"]), []).append(seconds(b))
    return out


def natural(name):
    """Sort key: numbers inside names compare as numbers (…/256 before …/4096)."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", name)]


def time_text(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            return f"{s / scale:.3g} {unit}"


def median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def p_value(a, b):
    if len(a) < 3 or len(b) < 3:
        return None
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        return None
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def summary(ratios):
    """One line: how many rows the second side wins, loses and ties (a row counts only when
    significant), and the geometric mean of the significant rows' speedups."""
    sig = [r for r, significant in ratios if significant]
    faster, slower = sum(r > 1 for r in sig), sum(r < 1 for r in sig)
    text = (f"summary: second vs first over {len(ratios)} rows: {faster} faster, {slower} slower, "
            f"{len(ratios) - len(sig)} tied (not significant or same)")
    if sig:
        mean = math.exp(sum(math.log(r) for r in sig) / len(sig))
        text += (f"; the {len(sig)} significant rows' geometric mean: "
                 + ("same" if round(mean, 2) == 1 else
                    f"{mean if mean >= 1 else 1 / mean:.2f}x {'faster' if mean >= 1 else 'slower'}"))
    return text


def table(pairs, left, right):
    """pairs: [(label, samples A, samples B)]; prints the speedup table."""
    if not pairs:
        die("no benchmark ran on both sides: check the names (see --help)", 1)
    rows, ratios = [], []
    for label, a, b in pairs:
        ma, mb = median(a), median(b)
        ratio = ma / mb if mb > 0 else float("inf")
        factor = ratio if ratio >= 1 else 1 / ratio
        digits = 2 if factor < 10 else 1
        shown = f"{factor:.{digits}f}"
        verdict = "same" if float(shown) == 1.0 else f"{shown}x " + ("faster" if ratio >= 1 else "slower")
        p = p_value(a, b)
        ptext = "–" if p is None else (f"{p:.4f}" + (" *" if p < 0.05 else ""))
        rows.append((label, time_text(ma), time_text(mb), verdict, ptext))
        ratios.append((ratio, p is not None and p < 0.05 and verdict != "same"))
    cpu = f"CPU: {CPU['identity']}\n" if CPU.get("identity") else ""
    print(f"{cpu}first:  {left}\nsecond: {right}\n")
    heads = ("benchmark", "first", "second", "second is", "p-value")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(heads, widths)))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    reps = min(min(len(a), len(b)) for _, a, b in pairs)
    print(f"\n{len(rows)} benchmarks; times are medians of {reps}+ repetitions"
          + ("; * = significant (p < 0.05)" if reps >= 3 else "; use --reps 3 or more for p-values"))
    floors = [p_floor(len(a), len(b)) for _, a, b in pairs if len(a) >= 3 and len(b) >= 3]
    if floors and max(floors) >= 0.001:
        worst = max(floors)
        n = min(min(len(a), len(b)) for _, a, b in pairs if len(a) >= 3 and len(b) >= 3)
        print(f"p-value floor: with {n} repetitions a side, Mann-Whitney cannot give p below {worst:.2g} "
              "(2 / C(2n, n) for n against n), however different the two sides are"
              + ("; that is above 0.05, so no row can be significant: use --reps 5 or more"
                 if worst >= 0.05 else "") + ".")
    print(summary(ratios))
