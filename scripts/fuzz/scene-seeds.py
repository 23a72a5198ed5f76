#!/usr/bin/env python3
"""Seed inputs for the broadphase, parallel and cache fuzz targets from scene files (make fuzz
SCENE=..., docs/scenes.md): a game's own boxes, sub-sampled to what each target takes, in each
target's input encoding (docs/fuzzing-targets.md).

  scripts/fuzz/scene-seeds.py --out DIR [--tool COLLIDE_SCENE] FILE...

writes DIR/broadphase/, DIR/parallel/ and DIR/cache/ (emptied first), one file per seed, and
prints how many. A text scene file is converted to the binary form with the collide-scene
command (--tool) first, so that its floats are the reader's, bit for bit.

- broadphase and parallel (one box set: a flags byte, two count bytes, then each box's floats
  min x, min y, max x, max y[, min z, max z], each as the tag 0xff and its 4 bytes): on the
  first, middle and last frame, windows of 127 and 1,023 boxes (the targets' limits): boxes
  nearest to a seed box (touching neighbours stay together), runs of consecutive indices, and
  every k-th box across the whole frame.
- cache (2 to 12 boxes over 8 to 64 frames): the 12 boxes nearest to a box that moves, their
  first-frame boxes, then the file's frames in turn (0, 1, ..., last, ..., 1, 0, ...) as actions
  "move box i to these coordinates" (operation 5), at most 4 a frame (a frame with more moves
  is spread over several), alternately with the moved boxes found by comparison or listed, on
  the kept tree or the kept sweep and prune."""
import argparse
import array
import heapq
import os
import shutil
import struct
import subprocess
import sys
import tempfile

MAGIC = b"COLSCENE"
SET_LIMITS = (127, 1023)  # boxes of a small and of a large set (fz_box_set_decode)
CACHE_BOXES, CACHE_FRAMES, CACHE_ACTIONS = 12, 64, 4
SEEDS_PER_KIND = 4  # seed boxes per window size and frame


class Scene:
    """A binary scene's bytes, read where needed: a frame's axis arrays as floats, a box's
    coordinates as their raw bits (min x, min y, [min z,] max x, max y, [max z])."""

    def __init__(self, path, data):
        if len(data) < 24 or data[:8] != MAGIC:
            sys.exit(f"scene-seeds: {path}: not a binary scene file")
        version, self.dims, self.count, self.frames = struct.unpack_from("<4I", data, 8)
        if version not in (1, 2) or self.dims not in (2, 3):
            sys.exit(f"scene-seeds: {path}: version {version}, dims {self.dims}: not a version 1 or 2 scene")
        # Version 2: a flags word, and with its bit 0 one bit a box of static marks padded to a
        # multiple of 4 bytes (collide/scene.h); the seeds take the boxes only.
        self.head = 24
        if version == 2:
            if len(data) < 28:
                sys.exit(f"scene-seeds: {path}: truncated")
            (flags,) = struct.unpack_from("<I", data, 24)
            self.head = 28 + ((self.count + 7) // 8 + 3) // 4 * 4 if flags & 1 else 28
        want = self.head + self.frames * 2 * self.dims * self.count * 4
        if len(data) != want:
            sys.exit(f"scene-seeds: {path}: {len(data)} bytes, want {want}")
        self.data = data

    def _at(self, f, a, i):
        return self.head + ((f * 2 * self.dims + a) * self.count + i) * 4

    def axis(self, f, a):
        """Frame f's a-th array (0: min x ... 2 dims - 1: max of the last axis) as floats."""
        values = array.array("f")
        values.frombytes(self.data[self._at(f, a, 0): self._at(f, a, self.count)])
        if sys.byteorder == "big":
            values.byteswap()  # the file is little-endian
        return values

    def box(self, f, i):
        return [self.data[self._at(f, a, i): self._at(f, a, i) + 4] for a in range(2 * self.dims)]


def load(path, tool):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        if not tool:
            sys.exit(f"scene-seeds: {path}: a text scene needs --tool (the collide-scene command)")
        with tempfile.TemporaryDirectory() as tmp:
            binary = os.path.join(tmp, "scene.bin")
            r = subprocess.run([tool, "convert", "--to", "binary", path, binary],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(r.stderr.strip() or f"scene-seeds: {path}: collide-scene failed")
            with open(binary, "rb") as f:
                data = f.read()
    return Scene(path, data)


def centres(scene, f):
    """Each box's centre on frame f, one list per axis."""
    d = scene.dims
    return [[0.5 * (lo + hi) for lo, hi in zip(scene.axis(f, k), scene.axis(f, d + k))]
            for k in range(d)]


def nearest(c, seed, k):
    """The k boxes whose centres lie nearest the seed box's (centres c), in index order."""
    at = [axis[seed] for axis in c]

    def dist(i):
        s = sum((axis[i] - at[a]) ** 2 for a, axis in enumerate(c))
        return s if s == s else float("inf")  # an infinite box's centre can be NaN

    return sorted(heapq.nsmallest(k, range(len(c[0])), key=lambda i: (dist(i), i)))


def spread(n, k):
    """k indices spread evenly over range(n) (all of them when n <= k)."""
    if n <= k:
        return list(range(n))
    return sorted({i * n // k for i in range(k)})


def box_set(scene, f, picked, flags):
    """A broadphase/parallel input: the picked boxes of frame f."""
    n, d = len(picked), scene.dims
    high = 0 if n <= 127 else 0xF0 | n >> 8
    out = bytearray([flags | (d == 3), n & 0xFF, high])
    order = [0, 1, d, d + 1] + ([2, 5] if d == 3 else [])
    for i in picked:
        box = scene.box(f, i)
        for a in order:
            out += b"\xff" + box[a]
    return bytes(out)


def walk(frames):
    """The frame order of the benchmarks (bench_scene_files.h): 0, 1, ..., last, ..., 1, 0."""
    if frames < 2:
        return [0]
    return list(range(frames)) + list(range(frames - 2, -1, -1))


def cache_input(scene, picked, variant):
    """A cache input: the picked boxes of frame 0, then the file's frames as moves."""
    n = len(picked)
    boxes = b"".join(b"\xff" + bits for i in picked for bits in scene.box(0, i))
    frames_actions = []
    steps = walk(scene.frames)
    for prev, cur in zip(steps, steps[1:]):
        moves = [j for j, i in enumerate(picked) if scene.box(prev, i) != scene.box(cur, i)]
        chunks = [moves[c: c + CACHE_ACTIONS] for c in range(0, len(moves), CACHE_ACTIONS)] or [[]]
        for chunk in chunks:
            frame = bytearray([len(chunk)])
            for j in chunk:
                frame += bytes([j, 5]) + b"".join(b"\xff" + bits for bits in scene.box(cur, picked[j]))
            frames_actions.append(bytes(frame))
        if len(frames_actions) >= CACHE_FRAMES - 1:
            break
    frames_actions = frames_actions[:CACHE_FRAMES - 1]
    while len(frames_actions) < 7:  # at least 8 frames: unmoved ones after the walk
        frames_actions.append(b"\x00")
    mode = (scene.dims == 3) | (4 if variant & 1 else 0) | (8 if variant & 2 else 0)
    head = bytes([mode, n - 2, len(frames_actions) + 1 - 8, 0, 0])
    return head + boxes + b"".join(frames_actions)


def seeds_of(path, tool):
    scene = load(path, tool)
    count, sets, caches = scene.count, [], []
    if count == 0:
        return sets, caches
    for f in sorted({0, scene.frames // 2, scene.frames - 1}):
        c = centres(scene, f)
        for limit in SET_LIMITS:
            k = min(limit, count)
            for seed in spread(count, SEEDS_PER_KIND):
                flags = (len(sets) % 64) << 2  # the backend pick varies
                sets.append(box_set(scene, f, nearest(c, seed, k), flags))
                start = min(seed, count - k)
                sets.append(box_set(scene, f, list(range(start, start + k)), flags))
                if k == count:
                    break  # every window is the whole frame
            if count > k:
                sets.append(box_set(scene, f, list(range(0, count, -(-count // k)))[:k], 0))
    if count >= 2:
        # Cache windows around boxes that move between the first frame and the next (or the
        # last); around spread boxes when none does.
        other = min(1, scene.frames - 1)
        a0 = [scene.axis(0, a) for a in range(2 * scene.dims)]
        a1 = [scene.axis(other, a) for a in range(2 * scene.dims)] if other else a0
        movers = [i for i in range(count) if any(x[i] != y[i] for x, y in zip(a0, a1))]
        seeds = [movers[j] for j in spread(len(movers), 2 * SEEDS_PER_KIND)] or spread(count, 2)
        c = centres(scene, 0)
        for v, seed in enumerate(seeds):
            caches.append(cache_input(scene, nearest(c, seed, min(CACHE_BOXES, count)), v))
    return sets, caches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--tool", default="")
    ap.add_argument("--yours", nargs="*", default=[], help="the user's files (make fuzz SCENE=), named as such")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    sets, caches = [], []
    for path in args.files + args.yours:
        if not os.path.isfile(path):
            sys.exit(f"scene-seeds: {path}: no such file")
        s, c = seeds_of(path, args.tool)
        sets += s
        caches += c
        if path in args.yours:
            print(f"scene-seeds: {path} (your file): {len(s)} box sets (broadphase, parallel) and "
                  f"{len(c)} cache inputs")
    for target, inputs in (("broadphase", sets), ("parallel", sets), ("cache", caches)):
        folder = os.path.join(args.out, target)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for k, data in enumerate(inputs):
            with open(os.path.join(folder, f"scene-{k:04d}"), "wb") as f:
                f.write(data)
    print(f"scene-seeds: {len(sets)} box sets (broadphase, parallel) and {len(caches)} cache "
          f"inputs from {len(args.files) + len(args.yours)} file(s) in {args.out}/")


if __name__ == "__main__":
    main()
