"""The kernel-peer section of a machine's report (called by run.py): other libraries' kernels
(bench/kernel-peers/kernel-peers.list: SDL2, Box2D, Chipmunk, Bullet, cglm, glm, FCL) timed
beside collide's batch and single-pair calls in the same benchmark (bench/bench_kernel_peers.c),
and their answers over the shared input sets classified by their declared rules and judged
against exact arithmetic (docs/coming-from.md)."""

# (family, what it is, ours (fastest backend) over the fastest peer at 4,096 items must reach)
FAMILIES = [("box2", "2D box overlap", 15), ("box3", "3D box overlap", 15),
            ("mtd", "push-out (MTD) of two boxes", 10), ("segbox2", "segment against a 2D box", 10),
            ("segbox3", "segment against a 3D box", 10), ("segsphere", "segment against a sphere", 5),
            ("segcircle", "segment against a circle", 5), ("circle", "two circles", 5)]
TARGET_N = 4096
SETS = ("random", "grid", "edge")
RULE_PREFIX = "rule_"


def _context(ctx):
    """{kernel: (version, function, rules)} from the run's collide_kernel_peers."""
    out = {}
    for item in ctx.get("collide_kernel_peers", "").split(";"):
        if "=" not in item:
            continue
        name, rest = item.split("=", 1)
        head, _, rules = rest.partition("|")
        version, _, function = head.partition(" ")
        out[name] = (version, function, rules)
    return out


def _timing(table, family):
    """{kernel: (backend, {N: bench})} of the family's timing rows."""
    rows = {}
    for (fam, variant, kernel), by_backend in table.items():
        if fam == "kpeer" and variant == family:
            for backend, by_n in by_backend.items():
                rows[kernel] = (backend, by_n)
    return rows


def _answers(table, family):
    """{kernel: {set: bench}} of the family's answer rows (their one size)."""
    rows = {}
    for (fam, variant, kernel), by_set in table.items():
        if fam == "kpeer-answers" and variant == family:
            for s, by_n in by_set.items():
                if by_n:
                    rows.setdefault(kernel, {})[s] = by_n[max(by_n)]
    return rows


def _x(v):
    return "–" if v is None else (f"{v:.1f}x" if v < 100 else f"{v:.0f}x")


def _pct(k, n):
    return "–" if not n else f"{k:,} ({100 * k / n:.1f}%)"


def _reasons(b):
    parts = [f"{k[len(RULE_PREFIX):]} {int(v):,}" for k, v in sorted(b.items())
             if k.startswith(RULE_PREFIX) and v]
    if b.get("ours_wrong_diff"):
        parts.append(f"collide wrong {int(b['ours_wrong_diff']):,}")
    if b.get("accuracy"):
        parts.append(f"accuracy band {int(b['accuracy']):,}")
    return ", ".join(parts) or "–"


def _wrong(b, who):
    wrong, hits, misses = (int(b.get(f"{who}_{k}", 0)) for k in ("wrong", "false_hits", "misses"))
    judged = int(b.get("judged", 0))
    if not judged:
        return "–"
    return f"{100 * wrong / judged:.2f}% ({hits:,} false hits, {misses:,} misses)"


def _targets(table):
    lines = ["| family | target at 4,096 | measured (ours on its fastest backend over the fastest peer) | |",
             "|---|---|---|---|"]
    for family, what, factor in FAMILIES:
        rows = _timing(table, family)
        best = None
        for kernel, (backend, by_n) in rows.items():
            b = by_n.get(TARGET_N)
            if b is None:
                continue
            if best is None or b["peer_cycles_per_item"] < best[2]["peer_cycles_per_item"]:
                best = (kernel, backend, b)
        if best is None:
            lines.append(f"| {what} | ours ≥ {factor}x the fastest peer | – | not measured |")
            continue
        kernel, backend, b = best
        ratio = b["ratio_batch"]
        lines.append(f"| {what} | ours ≥ {factor}x the fastest peer | {ratio:.1f}x: {backend} "
                     f"{b['ours_cycles_per_item']:.2f} vs {kernel} {b['peer_cycles_per_item']:.2f} "
                     f"TSC cycles per item | {'met' if ratio >= factor else 'missed'} |")
    return lines + [""]


def kernel_peers_section(table, ctx):
    if not any(k[0] == "kpeer" for k in table):
        return []
    info = _context(ctx)
    lines = ["### Kernel peers: the library you use today, beside ours", "",
             "Each peer's call in a plain loop over the same items as collide's batch call (on its "
             "fastest native backend) and collide's single-pair call in a loop, timed in one "
             "benchmark in interleaved rounds (each side's fastest round); ratios are the peer's "
             "cycles over ours. Answers: the first inputs of each shared set (random values, a tile "
             "grid, the edge cases), each difference from collide's default answer (closed rule) "
             "classified by the peer's declared rules (bench/kernel-peers/kernel-peers.list), "
             "collide's error against exact arithmetic, or rounding within the accuracy band; "
             "wrong: against the exact answer under the peer's own conventions "
             "(docs/coming-from.md).", ""]
    lines += _targets(table)
    absent = [k for k, v in info.items() if v[0] == "absent"]
    if absent:
        lines += [f"Not installed when this binary was built: {', '.join(absent)}.", ""]
    for family, what, _factor in FAMILIES:
        timing, answers = _timing(table, family), _answers(table, family)
        if not timing and not answers:
            continue
        sizes = sorted({n for _b, by_n in timing.values() for n in by_n})
        shown = [n for n in (sizes[0] if sizes else None, TARGET_N, sizes[-1] if sizes else None)
                 if n in sizes]
        shown = sorted(set(shown))
        lines += [f"#### {what} (`{family}`)", ""]
        head = " | ".join(f"ours/peer batch, {n:,}" for n in shown)
        lines += [f"| peer kernel | call | version | {head} | ours/peer single-pair, {TARGET_N:,} | rules |",
                  "|---|---|---|" + "---|" * len(shown) + "---|---|"]
        for kernel in sorted(timing, key=lambda k: timing[k][1].get(TARGET_N, {}).get("peer_cycles_per_item", 1e9)):
            backend, by_n = timing[kernel]
            version, function, rules = info.get(kernel, ("?", "?", "?"))
            cells = [_x(by_n[n]["ratio_batch"]) if n in by_n else "–" for n in shown]
            single = by_n.get(TARGET_N, {}).get("ratio_single")
            lines.append(f"| {kernel} | `{function}` | {version} | " + " | ".join(cells) +
                         f" | {_x(single)} | `{rules}` |")
        lines += ["", f"Answers ({what}):", "",
                  "| peer kernel | set | inputs | differ from collide | by reason | unexplained | "
                  "peer wrong vs exact | collide wrong vs exact |", "|---|---|---|---|---|---|---|---|"]
        for kernel in sorted(answers):
            for s in SETS:
                b = answers[kernel].get(s)
                if b is None:
                    continue
                n = int(b.get("inputs", 0))
                lines.append(f"| {kernel} | {s} | {n:,} | {_pct(int(b.get('differ', 0)), n)} | {_reasons(b)} | "
                             f"{int(b.get('unexplained', 0)):,} | {_wrong(b, 'peer')} | {_wrong(b, 'ours')} |")
        lines.append("")
    return lines
