#!/usr/bin/python3
"""pygame's 1-bit mask overlap beside collide's (docs/coming-from.md, "pygame's masks").

Usage: /usr/bin/python3 scripts/bench/pygame-masks.py [--lib build/release/libcollide.so.0.1.0]
       [--rounds 7] [--sides 1024,2048,4096] [--inputs 4096] [--answers-only]

pygame's masks are only callable from Python, so both sides run in this one Python process:
collide through ctypes on the shared library (make builds it), pygame's Mask.overlap_area and
Mask.overlap as a game calls them. Timing: collide's col_mask_overlap (counting) against
pygame's overlap_area on the same two masks, in interleaved rounds (each side's fastest kept),
on masks large enough that a call's own cost (measured on 1 x 1 masks, printed) is under 1% of
it; the ratio is per overlap pixel. Answers, on three shared sets of smaller masks (random masks
and positions; positions where the masks touch; widths about the 64-bit words, empty and full
masks, negative offsets): the count must equal overlap_area, the hit overlap's, and pygame's
first point must be a pixel solid in both (its scan order is not collide's row-major order: the
rule `first=scan`). Any other difference is unexplained: printed with the masks' sizes, offset,
seed and both answers; the exit status is then 1.
"""
import argparse
import ctypes
import os
import random
import subprocess
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402  (python3-pygame, a Debian package)

COUNT, FIRST = 1, 0


class ColMask(ctypes.Structure):
    _fields_ = [("words", ctypes.POINTER(ctypes.c_uint64)), ("stride", ctypes.c_size_t),
                ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("x", ctypes.c_int32), ("y", ctypes.c_int32)]


class ColHit(ctypes.Structure):
    _fields_ = [("hit", ctypes.c_bool), ("x", ctypes.c_int64), ("y", ctypes.c_int64),
                ("count", ctypes.c_uint64)]


def load(path):
    lib = ctypes.CDLL(path)
    lib.col_mask_from_words.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t,
                                        ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                                        ctypes.c_int32, ctypes.POINTER(ColMask)]
    lib.col_mask_overlap.argtypes = [ctypes.POINTER(ColMask), ctypes.POINTER(ColMask),
                                     ctypes.c_int, ctypes.POINTER(ColHit)]
    lib.col_mask_free.argtypes = [ctypes.POINTER(ColMask)]
    lib.col_backend_name.restype = ctypes.c_char_p
    return lib


class Pair:
    """One mask's pixels (rows of 0/1 bytes) as a collide mask and a pygame mask."""

    def __init__(self, lib, w, h, density, rng, full=False):
        self.lib, self.w, self.h = lib, w, h
        cut = 256 if full else int(256 * density)
        noise = rng.randbytes(w * h) if w * h else b""
        self.alpha = noise.translate(bytes(255 if b < cut else 0 for b in range(256)))
        words = (w + 63) // 64
        self.words = (ctypes.c_uint64 * max(1, words * h))()
        for y in range(h):
            row = self.alpha[y * w:(y + 1) * w]
            bits = int("".join("1" if a else "0" for a in reversed(row)) or "0", 2)
            for k in range(words):
                self.words[y * words + k] = (bits >> (64 * k)) & 0xFFFFFFFFFFFFFFFF
        self.col = ColMask()
        self.words_per_row = words
        self.pg = pygame.mask.Mask((w, h))
        if w and h:
            rgba = bytearray(4 * w * h)
            rgba[3::4] = self.alpha
            surface = pygame.image.frombuffer(bytes(rgba), (w, h), "RGBA")
            self.pg = pygame.mask.from_surface(surface, 127)

    def place(self, x, y):
        self.lib.col_mask_free(ctypes.byref(self.col))
        if self.lib.col_mask_from_words(self.words, self.words_per_row, self.w, self.h, x, y,
                                        ctypes.byref(self.col)) != 0:
            sys.exit("pygame-masks: col_mask_from_words failed")
        self.x, self.y = x, y

    def solid(self, px, py):
        return 0 <= px < self.w and 0 <= py < self.h and self.alpha[py * self.w + px] != 0


def ours(lib, a, b, mode):
    hit = ColHit()
    if lib.col_mask_overlap(ctypes.byref(a.col), ctypes.byref(b.col), mode, ctypes.byref(hit)) != 0:
        sys.exit("pygame-masks: col_mask_overlap failed")
    return hit


def compare(lib, a, b):
    """None when the answers agree (or differ by the first point's scan order), else the text."""
    off = (b.x - a.x, b.y - a.y)
    count, first = ours(lib, a, b, COUNT), ours(lib, a, b, FIRST)
    area, point = a.pg.overlap_area(b.pg, off), a.pg.overlap(b.pg, off)
    if area != count.count:
        return f"count: collide {count.count}, pygame overlap_area {area}"
    if (point is not None) != first.hit:
        return f"hit: collide {first.hit}, pygame overlap {point}"
    if point is not None and not (a.solid(*point) and b.solid(point[0] - off[0], point[1] - off[1])):
        return f"pygame's point {point} is not solid in both masks"
    return "scan" if point is not None and (point[0] + a.x, point[1] + a.y) != (first.x, first.y) else None


def answers(lib, n):
    rng = random.Random(61)
    results = {}
    for name in ("random", "grid", "edge"):
        same = scan = 0
        bad = []
        for i in range(n):
            if name == "random":
                w, h = rng.randrange(0, 150), rng.randrange(0, 40)
                w2, h2 = rng.randrange(0, 150), rng.randrange(0, 40)
                dens, full = rng.random(), False
                off = (rng.randrange(-160, 160), rng.randrange(-50, 50))
            elif name == "grid":  # tiles of 16 or 32 placed on their grid: touching or not
                w, h, w2, h2 = (rng.choice((16, 32)) for _ in range(4))
                dens, full = 1.0, rng.random() < 0.5
                off = (rng.randrange(-2, 3) * 16, rng.randrange(-2, 3) * 16)
            else:
                w, w2 = rng.choice((0, 1, 63, 64, 65, 127, 128, 129)), rng.choice((0, 1, 63, 64, 65, 128))
                h, h2 = rng.choice((0, 1, 3)), rng.choice((1, 2, 5))
                dens, full = rng.choice((0.01, 0.5, 1.0)), rng.random() < 0.3
                off = (rng.choice((-w2, -w2 + 1, -1, 0, 1, 63, 64, w - 1, w)), rng.randrange(-h2, h + 1))
            a, b = Pair(lib, w, h, dens, rng, full), Pair(lib, w2, h2, dens, rng, full)
            a.place(0, 0)
            b.place(*off)
            why = compare(lib, a, b)
            if why is None:
                same += 1
            elif why == "scan":
                scan += 1
            else:
                bad.append(f"  set {name} input {i}: masks {w}x{h} and {w2}x{h2} (density {dens:.2f}, "
                           f"full {full}), offset {off}: {why}")
            lib.col_mask_free(ctypes.byref(a.col)), lib.col_mask_free(ctypes.byref(b.col))
        results[name] = (n, same, scan, bad)
    return results


def best_time(fn, reps):
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def timing(lib, sides, rounds):
    rng = random.Random(7)
    tiny_a, tiny_b = Pair(lib, 1, 1, 1, rng, True), Pair(lib, 1, 1, 1, rng, True)
    tiny_a.place(0, 0), tiny_b.place(0, 0)
    hit = ColHit()
    pa, pb, ph = ctypes.byref(tiny_a.col), ctypes.byref(tiny_b.col), ctypes.byref(hit)
    call = lib.col_mask_overlap
    over_c = min(best_time(lambda: call(pa, pb, COUNT, ph), 20000) for _ in range(5))
    over_p = min(best_time(lambda: tiny_a.pg.overlap_area(tiny_b.pg, (0, 0)), 20000) for _ in range(5))
    rows = []
    for side in sides:
        a, b = Pair(lib, side, side, 0.5, rng), Pair(lib, side, side, 0.5, rng)
        shift = side // 8
        a.place(0, 0), b.place(shift, shift + 3)
        pixels = (side - shift) * (side - shift - 3)
        ca, cb = ctypes.byref(a.col), ctypes.byref(b.col)
        off = (b.x, b.y)
        fc = lambda: call(ca, cb, COUNT, ph)  # noqa: E731
        fp = lambda: a.pg.overlap_area(b.pg, off)  # noqa: E731
        reps = max(1, int(0.02 / max(best_time(fp, 1), 1e-7)))
        tc = tp = float("inf")
        for r in range(rounds):
            for side_fn in ((fc, fp) if r % 2 == 0 else (fp, fc)):
                t = best_time(side_fn, max(1, reps * (8 if side_fn is fc else 1)))
                if side_fn is fc:
                    tc = min(tc, t)
                else:
                    tp = min(tp, t)
        rows.append((side, pixels, tc, tp, over_c / tc, over_p / tp))
    return rows, over_c, over_p


def cpu_identity():
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                info.setdefault(k.strip(), v.strip())
    except OSError:
        pass
    return (f"{info.get('vendor_id', '?')} family {info.get('cpu family', '?')} model "
            f"{info.get('model', '?')} ({info.get('model name', '?')})")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", default="build/release/libcollide.so.0.1.0")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--sides", default="1024,2048,4096")
    p.add_argument("--inputs", type=int, default=4096)
    p.add_argument("--answers-only", action="store_true", help="no timing (make test's check)")
    args = p.parse_args()
    if not os.path.exists(args.lib):
        subprocess.run(["make", "-s", "lib"], check=True)
    lib = load(args.lib)
    print(f"pygame-masks: pygame {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), "
          f"collide on {lib.col_backend_name().decode()}; {cpu_identity()}")
    res = answers(lib, args.inputs)
    unexplained = 0
    print("| set | inputs | same | differ by rule first=scan (pygame's first point, solid in both) | unexplained |")
    print("|---|---|---|---|---|")
    for name, (n, same, scan, bad) in res.items():
        unexplained += len(bad)
        print(f"| {name} | {n:,} | {same:,} | {scan:,} | {len(bad)} |")
    for name, (_n, _s, _c, bad) in res.items():
        for line in bad[:5]:
            print(line)
    if args.answers_only:
        print(f"pygame-masks: {unexplained} unexplained differences")
        return 1 if unexplained else 0
    rows, over_c, over_p = timing(lib, [int(s) for s in args.sides.split(",")], args.rounds)
    print(f"\ncall cost alone (1 x 1 masks): collide through ctypes {over_c * 1e9:.0f} ns, pygame {over_p * 1e9:.0f} ns")
    print("| side | overlap pixels | collide ns/pixel | pygame ns/pixel | pygame / collide per pixel | call cost share: collide, pygame |")
    print("|---|---|---|---|---|---|")
    for side, pixels, tc, tp, sc, sp in rows:
        print(f"| {side} | {pixels:,} | {tc / pixels * 1e9:.4f} | {tp / pixels * 1e9:.4f} | {tp / tc:.1f}x | "
              f"{100 * sc:.2f}%, {100 * sp:.2f}% |")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
