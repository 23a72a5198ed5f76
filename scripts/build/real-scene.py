#!/usr/bin/python3
"""Real scenes: boxes from data that Debian packages ship, as collide scene files.

  real-scene.py convert NAME OUT      write scene NAME of the list to OUT (binary form, one frame)
  real-scene.py names                 the scenes of the list, one a line
  real-scene.py doc [--check] --pairs FILE DOC
                                      write (or check) DOC's table between its two marker
                                      lines from the list, the scene files' headers and FILE
                                      (what `collide-real-pairs --summary` wrote)
  --list FILE                         the list [bench/scenes/real.list]

The list (bench/scenes/real.list) says, for each scene, the Debian package, the file inside it,
the converter and the dims. The converters:

  off        Object File Format (the meshes of CGAL's data): each vertex coordinate rounded
             once to the nearest float32 (as strtof would, from the decimal), then each face's
             box is the min and max of its vertices' rounded coordinates on each axis. Faces
             that share a vertex share its floats bit for bit, so their boxes touch exactly.
  teeworlds  a Teeworlds map (the game's datafile, version 3 or 4, little-endian): the game
             layer's tiles (the one tile layer flagged as the game's), each solid tile (index
             1, solid, or 3, solid and unhookable) one box of 32 x 32 world units, the game's
             tile size, row by row: neighbours share an edge exactly.

The output is the binary form of docs/scenes.md, version 1: the same bytes every time.
Errors name the scene, the package and the file, and exit 1 (a missing package: exit 3).
"""
import os
import re
import struct
import subprocess
import sys
import tarfile
import zlib
from fractions import Fraction

LIST = "bench/scenes/real.list"
COLUMNS = ("name", "package", "source", "converter", "dims", "licence", "what")
MARK_BEGIN = "<!-- real-scenes table: written by make real-scenes-doc, do not edit -->"
MARK_END = "<!-- end of the real-scenes table -->"


class Refused(Exception):
    """The source breaks its format: the message says where."""


def read_list(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.rstrip("\n").split("|")]
            if len(cols) != len(COLUMNS) or not all(cols):
                raise SystemExit(f"real-scene: {path}:{number}: want {len(COLUMNS)} non-empty "
                                 f"columns separated by '|', got {len(cols)}")
            row = dict(zip(COLUMNS, cols))
            if not all(c.islower() or c.isdigit() or c == "-" for c in row["name"]):
                raise SystemExit(f"real-scene: {path}:{number}: name {row['name']!r}: [a-z0-9-] only")
            if row["dims"] not in ("2", "3") or row["converter"] not in CONVERTERS:
                raise SystemExit(f"real-scene: {path}:{number}: dims must be 2 or 3 and converter "
                                 f"one of {', '.join(sorted(CONVERTERS))}")
            row["dims"] = int(row["dims"])
            rows.append(row)
    names = [r["name"] for r in rows]
    if len(set(names)) != len(names):
        raise SystemExit(f"real-scene: {path}: a name appears twice")
    return rows


def installed(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                         text=True)
    return out.returncode == 0 and out.stdout.strip() == "install ok installed"


def read_source(row):
    """The source file's bytes (a member of an archive for FILE:MEMBER)."""
    path, _, member = row["source"].partition(":")
    if not os.path.exists(path):
        if not installed(row["package"]):
            print(f"real-scene: {row['name']}: needs the Debian package {row['package']}, which is "
                  f"not installed: run `make deps` as root (scripts/build/install-deps.sh installs "
                  f"the packages of {LIST}), or apt-get install {row['package']}", file=sys.stderr)
            sys.exit(3)
        raise SystemExit(f"real-scene: {row['name']}: {path} is not there, although "
                         f"{row['package']} is installed (another version of the package?)")
    if not member:
        with open(path, "rb") as f:
            return f.read()
    with tarfile.open(path, "r:*") as tar:
        try:
            f = tar.extractfile(member)
        except KeyError:
            f = None
        if f is None:
            raise SystemExit(f"real-scene: {row['name']}: {path} holds no file {member} "
                             f"(package {row['package']})")
        return f.read()


# --- float32 ----------------------------------------------------------------------------------

def f32(x):
    """x (a double) rounded to the nearest float32, ties to even (the C cast)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_step(x, up):
    """The float32 next to the float32 x, up or down (x finite)."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    if x == 0:
        bits = 1 if up else 0x80000001
    elif (x > 0) == up:
        bits += 1
    else:
        bits -= 1
    return struct.unpack("<f", struct.pack("<I", bits))[0]


DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
INTEGER = re.compile(r"[0-9]+")


def decimal_to_f32(text):
    """The float32 nearest the decimal `text`, rounded once, as strtof does. Python's float()
    rounds correctly to double; rounding that double again to float32 differs from rounding the
    decimal directly only when the double lands exactly halfway between two float32 (double
    rounding): then the exact decimal decides."""
    if not DECIMAL.fullmatch(text):  # (float() would take "1_0", "nan", "inf")
        raise Refused(f"{text!r} is not a decimal number")
    d = float(text)
    try:
        r = f32(d)
    except OverflowError:
        raise Refused(f"{text!r} is out of float32 range") from None
    if r != d and r not in (float("inf"), float("-inf")):
        other = f32_step(r, d > r)
        if (r + other) / 2 == d:  # exactly halfway in double: look at the decimal itself
            exact = Fraction(text)
            if exact != Fraction(d):
                r = max(r, other) if exact > Fraction(d) else min(r, other)
    if r in (float("inf"), float("-inf")):
        raise Refused(f"{text!r} is out of float32 range")
    return r


# --- converters: each returns (dims, [min arrays..., max arrays...], note) ---------------------

def convert_off(data):
    """Object File Format: 'OFF', then 'vertices faces edges' (on the same line or the next),
    one vertex a line (x y z), one face a line (k i1 .. ik). '#' starts a comment. Anything
    else on a line (per-vertex or per-face colours) is refused rather than guessed at."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as e:
        raise Refused(f"byte {e.start}: not ASCII") from None
    lines = []  # (line number, words) of the lines that hold something
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if words:
            lines.append((number, words))
    if not lines or lines[0][1][0] != "OFF":
        raise Refused("not an OFF file (first word not OFF)")
    counts = lines[0][1][1:] or (lines[1][1] if len(lines) > 1 else [])
    body = lines[1:] if lines[0][1][1:] else lines[2:]
    if len(counts) != 3 or not all(INTEGER.fullmatch(w) for w in counts):
        raise Refused("no 'vertices faces edges' line after OFF")
    nv, nf = int(counts[0]), int(counts[1])
    if nv < 1 or nf < 1 or len(body) != nv + nf:
        raise Refused(f"{nv} vertices and {nf} faces, but {len(body)} lines after the counts")
    verts = []
    for number, words in body[:nv]:
        if len(words) != 3:
            raise Refused(f"line {number}: a vertex of {len(words)} numbers, want 3")
        try:
            verts.append(tuple(decimal_to_f32(w) for w in words))
        except Refused as e:
            raise Refused(f"line {number}: {e}") from None
    lo = ([], [], [])
    hi = ([], [], [])
    triangles = 0
    for number, words in body[nv:]:
        if not all(INTEGER.fullmatch(w) for w in words):
            raise Refused(f"line {number}: a face holds something other than integers")
        k, idx = int(words[0]), [int(w) for w in words[1:]]
        if k < 3 or len(idx) != k:
            raise Refused(f"line {number}: a face of {k} vertices with {len(idx)} indices")
        if any(i >= nv for i in idx):
            raise Refused(f"line {number}: vertex index out of range (there are {nv})")
        triangles += k == 3
        for axis in range(3):
            coords = [verts[i][axis] for i in idx]
            lo[axis].append(min(coords))
            hi[axis].append(max(coords))
    note = f"{nv} vertices, {nf} faces ({triangles} triangles)"
    return 3, list(lo) + list(hi), note


TILE = 32  # world units per tile (the game's tile size)
SOLID_TILES = (1, 3)  # the game layer's solid and solid-unhookable tiles
LAYER_ITEM, TILEMAP_LAYER, GAME_LAYER_FLAG = 5, 2, 1


def convert_teeworlds(data):
    """A Teeworlds map: the datafile's header, its item types, the items and the zlib-
    compressed data blocks; the game layer is the tile-map layer item flagged as the game's."""
    def ints(offset, count):
        if offset < 0 or offset + 4 * count > len(data):
            raise Refused(f"truncated: {count} words at byte {offset}")
        return struct.unpack_from(f"<{count}i", data, offset)

    if data[:4] != b"DATA":
        raise Refused("not a little-endian Teeworlds datafile (magic not DATA)")
    version, _size, _swaplen, ntypes, nitems, ndata, item_bytes, data_bytes = ints(4, 8)
    if version not in (3, 4) or min(ntypes, nitems, ndata, item_bytes, data_bytes) < 0:
        raise Refused(f"datafile version {version} (3 or 4 are read), or a negative count")
    pos = 36
    types = [ints(pos + 12 * t, 3) for t in range(ntypes)]
    pos += 12 * ntypes
    item_offsets = ints(pos, nitems)
    pos += 4 * nitems
    data_offsets = ints(pos, ndata)
    pos += 4 * ndata
    data_sizes = ints(pos, ndata) if version == 4 else None
    pos += 4 * ndata if version == 4 else 0
    items_at, blocks_at = pos, pos + item_bytes
    if blocks_at + data_bytes != len(data):
        raise Refused(f"sizes: the file has {len(data)} bytes, the header {blocks_at + data_bytes}")

    def block(i):
        if not 0 <= i < ndata:
            raise Refused(f"data block {i} of {ndata}")
        end = data_offsets[i + 1] if i + 1 < ndata else data_bytes
        if not 0 <= data_offsets[i] <= end <= data_bytes:
            raise Refused(f"data block {i}: offsets")
        try:
            raw = zlib.decompress(data[blocks_at + data_offsets[i]:blocks_at + end])
        except zlib.error as e:
            raise Refused(f"data block {i}: {e}") from None
        if data_sizes is not None and len(raw) != data_sizes[i]:
            raise Refused(f"data block {i}: {len(raw)} bytes, the header says {data_sizes[i]}")
        return raw

    games = []
    for type_id, start, num in types:
        if type_id != LAYER_ITEM:
            continue
        if start < 0 or num < 0 or start + num > nitems:
            raise Refused(f"item type {type_id}: items {start}..{start + num} of {nitems}")
        for k in range(start, start + num):
            at = items_at + item_offsets[k]
            _type_and_id, size = ints(at, 2)
            if size < 0 or size % 4 or item_offsets[k] + 8 + size > item_bytes:
                raise Refused(f"item {k}: size {size}")
            fields = ints(at + 8, size // 4)
            # layer: version, type, flags; tile map: version, width, height, flags, colour (4),
            # colour envelope, its offset, image, data
            if len(fields) >= 3 and fields[1] == TILEMAP_LAYER:
                if len(fields) < 15:
                    raise Refused(f"item {k}: a tile-map layer of {len(fields)} words")
                if fields[6] & GAME_LAYER_FLAG:
                    games.append((k, fields[3], fields[4], fields[5], fields[14]))
    if len(games) != 1:
        raise Refused(f"{len(games)} game layers (want one)")
    k, layer_version, width, height, data_index = games[0]
    if not (0 < width <= 1 << 15 and 0 < height <= 1 << 15):
        raise Refused(f"game layer {width} x {height}")
    raw = block(data_index)
    if len(raw) % 4:
        raise Refused(f"game layer data of {len(raw)} bytes, not whole tiles")
    # A tile is 4 bytes: index, flags, skip, reserved. From the tile-map version 4 on, a tile
    # stands for itself and the `skip` tiles after it (a run of equal tiles stored once).
    tiles = bytearray()
    for i in range(0, len(raw), 4):
        tiles.extend(raw[i:i + 1] * (raw[i + 2] + 1 if layer_version >= 4 else 1))
    if len(tiles) != width * height:
        raise Refused(f"game layer: {len(tiles)} tiles, want {width} x {height}")
    lo = ([], [])
    hi = ([], [])
    for y in range(height):
        for x in range(width):
            if tiles[y * width + x] in SOLID_TILES:
                lo[0].append(float(x * TILE))
                lo[1].append(float(y * TILE))
                hi[0].append(float((x + 1) * TILE))
                hi[1].append(float((y + 1) * TILE))
    if not lo[0]:
        raise Refused("no solid tile")
    return 2, list(lo) + list(hi), f"game layer {width} x {height} tiles"


CONVERTERS = {"off": convert_off, "teeworlds": convert_teeworlds}


def scene_bytes(dims, arrays):
    """The binary form of docs/scenes.md, version 1, one frame."""
    count = len(arrays[0])
    out = [b"COLSCENE", struct.pack("<4I", 1, dims, count, 1)]
    out += [struct.pack(f"<{count}f", *a) for a in arrays]
    return b"".join(out)


def convert(rows, name, out_path):
    row = next((r for r in rows if r["name"] == name), None)
    if row is None:
        raise SystemExit(f"real-scene: no scene {name} in the list")
    data = read_source(row)
    try:
        dims, arrays, note = CONVERTERS[row["converter"]](data)
    except Refused as e:
        raise SystemExit(f"real-scene: {name}: {row['source']} (package {row['package']}): "
                         f"{e}") from None
    if dims != row["dims"]:
        raise SystemExit(f"real-scene: {name}: the converter made {dims}D boxes, the list says "
                         f"{row['dims']}D")
    for k in range(dims):
        if any(a > b for a, b in zip(arrays[k], arrays[dims + k])):
            raise SystemExit(f"real-scene: {name}: an inverted box on axis {k}")
    tmp = f"{out_path}.tmp.{os.getpid()}"
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    with open(tmp, "wb") as f:
        f.write(scene_bytes(dims, arrays))
    os.replace(tmp, out_path)
    print(f"real-scene: {out_path}: {len(arrays[0])} boxes, {dims}D ({note}; "
          f"{row['package']}: {row['source']})")


# --- the docs table ---------------------------------------------------------------------------

def scene_header(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) != 24 or head[:8] != b"COLSCENE":
        raise SystemExit(f"real-scene: {path}: not a binary scene file")
    _version, dims, count, _frames = struct.unpack("<4I", head[8:])
    return dims, count


def doc_table(rows, scene_dir, pairs_path):
    pairs = {}
    with open(pairs_path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] != "#":
                pairs[w[0]] = (int(w[1]), int(w[2]))
    lines = ["| scene | what | package | file | boxes | dims | pairs, closed | pairs, open | "
             "touching only | licence |", "|---|---|---|---|--:|--:|--:|--:|--:|---|"]
    for r in rows:
        dims, count = scene_header(os.path.join(scene_dir, r["name"] + ".scene"))
        if dims != r["dims"]:
            raise SystemExit(f"real-scene: {r['name']}.scene is {dims}D, the list says {r['dims']}D")
        if r["name"] not in pairs:
            raise SystemExit(f"real-scene: {pairs_path} has no pair counts of {r['name']}")
        closed, opened = pairs[r["name"]]
        only = f"{100 * (closed - opened) / closed:.1f}%" if closed else "-"
        path, _, member = r["source"].partition(":")
        where = f"`{member}` in `{path}`" if member else f"`{path}`"
        lines.append(f"| {r['name']} | {r['what']} | {r['package']} | {where} | {count:,} | {dims}D | "
                     f"{closed:,} | {opened:,} | {only} | {r['licence']} |")
    return "\n".join(lines) + "\n"


def doc(rows, argv):
    check = "--check" in argv
    argv = [a for a in argv if a != "--check"]
    if len(argv) != 3 or argv[0] != "--pairs":
        raise SystemExit("usage: real-scene.py doc [--check] --pairs FILE DOC")
    pairs_path, doc_path = argv[1], argv[2]
    table = doc_table(rows, os.path.dirname(pairs_path) or ".", pairs_path)
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    begin, end = text.find(MARK_BEGIN), text.find(MARK_END)
    if begin < 0 or end < begin:
        raise SystemExit(f"real-scene: {doc_path}: the table's marker lines are missing")
    new = text[:begin + len(MARK_BEGIN)] + "\n" + table + text[end:]
    if check:
        if new != text:
            print(f"real-scene: {doc_path}: the table differs from the list and the scenes' "
                  f"pair counts; run make real-scenes-doc", file=sys.stderr)
            sys.exit(1)
        print(f"real-scene: {doc_path}: the table matches the list and the pair counts")
        return
    if new != text:
        with open(doc_path, "w", encoding="utf-8") as f:
            f.write(new)
    print(f"real-scene: {doc_path}: table written")


def main(argv):
    list_path = LIST
    if len(argv) >= 2 and argv[0] == "--list":
        list_path, argv = argv[1], argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    rows = read_list(list_path)
    if argv[0] == "names" and len(argv) == 1:
        for r in rows:
            print(r["name"])
    elif argv[0] == "convert" and len(argv) == 3:
        convert(rows, argv[1], argv[2])
    elif argv[0] == "doc":
        doc(rows, argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        print(f"real-scene: cannot read the command {' '.join(argv)!r}: use names, "
              "convert NAME OUT or doc (see above)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
