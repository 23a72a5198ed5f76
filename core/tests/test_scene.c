/* Scene files (collide/scene.h, docs/scenes.md): every float through both forms bit for bit
 * (-0.0, subnormals, FLT_MAX, infinities, random bit patterns), 2D and 3D, several frames;
 * malformed files, each refused with its status, reason, line and byte offset, the scene left
 * untouched; the writers refusing what the readers would refuse. */
#define _GNU_SOURCE
#include "helpers.h"

#include <float.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A float that is not NaN: the specials first, then random bit patterns. */
static float scene_float(uint64_t *state, size_t k) {
  static const float specials[] = {0.0f,      -0.0f,    0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f,
                                   FLT_MIN,   -FLT_MIN, FLT_MAX,   -FLT_MAX,   INFINITY,
                                   -INFINITY, 1.0f,     0.1f,      -3.5f,      16777217.0f};
  const size_t ns = sizeof specials / sizeof specials[0];
  if (k < ns) return specials[k];
  for (;;) {
    const float f = from_bits((uint32_t)splitmix64(state));
    if (!isnan(f)) return f;
  }
}

/* frames x count boxes of `dims`, min <= max on every axis (the larger of two draws is max). */
typedef struct scene_set {
  float v[4][6][64];
  col_boxes frames[4];
} scene_set;

static void fill_set(scene_set *s, unsigned dims, size_t count, size_t nframes, uint64_t seed) {
  uint64_t state = seed;
  size_t k = 0;
  for (size_t f = 0; f < nframes; f++) {
    for (size_t i = 0; i < count; i++)
      for (unsigned a = 0; a < dims; a++) {
        float lo = scene_float(&state, k++), hi = scene_float(&state, k++);
        if (lo > hi) {
          const float t = lo;
          lo = hi, hi = t;
        }
        s->v[f][a][i] = lo, s->v[f][dims + a][i] = hi;
      }
    s->frames[f] = (col_boxes){.dims = dims, .count = count};
    for (unsigned a = 0; a < dims; a++)
      s->frames[f].min[a] = s->v[f][a], s->frames[f].max[a] = s->v[f][dims + a];
  }
}

/* The scene must hold exactly these frames, bit for bit. */
static void assert_same(const col_scene *sc, const scene_set *s, unsigned dims, size_t count,
                        size_t nframes) {
  cr_assert_eq(sc->dims, dims);
  cr_assert_eq(sc->count, count);
  cr_assert_eq(sc->frames, nframes);
  for (size_t f = 0; f < nframes; f++) {
    col_boxes b;
    cr_assert_eq(col_scene_frame(sc, f, &b), COL_OK);
    for (unsigned a = 0; a < dims; a++)
      for (size_t i = 0; i < count; i++) {
        assert_float_bits(b.min[a][i], s->v[f][a][i]);
        assert_float_bits(b.max[a][i], s->v[f][dims + a][i]);
      }
  }
}

/* Writes the frames in `form` into memory. */
static char *write_mem(col_scene_form form, const col_boxes *frames, size_t n, size_t *size) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, size);
  cr_assert_not_null(f);
  col_scene_error e;
  const col_status st = col_scene_write_file(f, form, frames, n, &e);
  cr_assert_eq(st, COL_OK, "write: %s", e.message);
  cr_assert_eq(fclose(f), 0);
  return buf;
}

Test(scene, every_float_round_trips_through_both_forms) {
  const size_t counts[] = {0, 1, 7, 64};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
      for (size_t nframes = 1; nframes <= 4; nframes += 3) {
        static scene_set s;
        fill_set(&s, dims, counts[c], nframes, 1000 * dims + 10 * c + nframes);
        for (int form = COL_SCENE_TEXT; form <= COL_SCENE_BINARY; form++) {
          size_t size = 0;
          char *buf = write_mem((col_scene_form)form, s.frames, nframes, &size);
          col_scene sc;
          col_scene_error e;
          const col_status st = col_scene_read_memory(buf, size, &sc, &e);
          cr_assert_eq(st, COL_OK, "dims %u count %zu frames %zu form %d: %s", dims, counts[c],
                       nframes, form, e.message);
          cr_assert_eq(sc.form, (col_scene_form)form);
          cr_assert_eq(col_scene_validate(&sc, &e), COL_OK, "%s", e.message);
          assert_same(&sc, &s, dims, counts[c], nframes);
          col_scene_destroy(&sc);
          free(buf);
        }
      }
}

Test(scene, the_binary_size_and_bytes_are_the_stated_ones) {
  static scene_set s;
  fill_set(&s, 3, 2, 1, 7);
  s.v[0][0][0] = 1.0f, s.v[0][3][0] = 2.0f; /* box 0's x: min 0x3f800000 at byte 24 */
  size_t size = 0;
  char *buf = write_mem(COL_SCENE_BINARY, s.frames, 1, &size);
  cr_assert_eq(size, 24u + 2 * 6 * 4);
  const unsigned char want[28] = {'C', 'O', 'L', 'S', 'C', 'E', 'N', 'E', 1, 0, 0, 0, 3,    0,
                                  0,   0,   2,   0,   0,   0,   1,   0,   0, 0, 0, 0, 0x80, 0x3f};
  cr_assert_eq(memcmp(buf, want, sizeof want), 0);
  free(buf);
}

Test(scene, paths_round_trip_and_convert) {
  static scene_set s;
  fill_set(&s, 2, 33, 3, 99);
  char text[] = "/tmp/collide-scene-test-XXXXXX";
  const int fd = mkstemp(text);
  cr_assert(fd >= 0);
  close(fd);
  col_scene_error e;
  cr_assert_eq(col_scene_write_path(text, COL_SCENE_TEXT, s.frames, 3, &e), COL_OK, "%s",
               e.message);
  col_scene sc;
  cr_assert_eq(col_scene_read_path(text, &sc, &e), COL_OK, "%s", e.message);
  assert_same(&sc, &s, 2, 33, 3);
  /* text -> binary -> scene: the same bits. */
  col_boxes frames[3];
  for (size_t f = 0; f < 3; f++) cr_assert_eq(col_scene_frame(&sc, f, &frames[f]), COL_OK);
  size_t size = 0;
  char *buf = write_mem(COL_SCENE_BINARY, frames, 3, &size);
  col_scene back;
  cr_assert_eq(col_scene_read_memory(buf, size, &back, &e), COL_OK, "%s", e.message);
  assert_same(&back, &s, 2, 33, 3);
  col_scene_destroy(&back);
  col_scene_destroy(&sc);
  col_scene_destroy(&sc); /* twice: nothing */
  cr_assert_null(sc.data);
  free(buf);
  remove(text);
  cr_assert_eq(col_scene_read_path(text, &sc, &e), COL_ERR_IO);
  cr_assert_str_eq(e.reason, "cannot open");
}

Test(scene, hand_written_text_reads) {
  const char *text = "collide-scene 1 2d\r\n"
                     "# a comment\n"
                     "\n"
                     "  0 0.5  10\t1e1\r\n"
                     "-inf -0 INF 0x1p-149\n"
                     "   ---  \n"
                     "1 2 3 4\n"
                     "# the last line lacks its end\n"
                     "5 6 7 8";
  col_scene sc;
  col_scene_error e;
  cr_assert_eq(col_scene_read_memory(text, strlen(text), &sc, &e), COL_OK, "%s", e.message);
  cr_assert_eq(sc.dims, 2);
  cr_assert_eq(sc.count, 2);
  cr_assert_eq(sc.frames, 2);
  col_boxes b;
  cr_assert_eq(col_scene_frame(&sc, 0, &b), COL_OK);
  assert_float_bits(b.min[1][0], 0.5f);
  assert_float_bits(b.max[1][0], 10.0f);
  assert_float_bits(b.min[0][1], -INFINITY);
  assert_float_bits(b.min[1][1], -0.0f);
  assert_float_bits(b.max[1][1], 0x1p-149f);
  cr_assert_eq(col_scene_frame(&sc, 1, &b), COL_OK);
  assert_float_bits(b.max[1][1], 8.0f);
  cr_assert_eq(col_scene_frame(&sc, 2, &b), COL_ERR_SIZE);
  col_scene_destroy(&sc);
}

Test(scene, a_comma_locale_reads_and_writes_the_same_files) {
  if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale(LC_NUMERIC, "fr_FR.UTF-8") == NULL)
    cr_skip_test("no comma locale installed");
  static scene_set s;
  fill_set(&s, 3, 20, 2, 5);
  size_t size = 0;
  char *buf = write_mem(COL_SCENE_TEXT, s.frames, 2, &size);
  cr_assert_null(memchr(buf, ',', size), "the writer wrote a comma");
  col_scene sc;
  col_scene_error e;
  cr_assert_eq(col_scene_read_memory(buf, size, &sc, &e), COL_OK, "%s", e.message);
  assert_same(&sc, &s, 3, 20, 2);
  col_scene_destroy(&sc);
  free(buf);
  setlocale(LC_NUMERIC, "C");
}

/* A binary header (and its boxes, when given). */
static size_t binary(unsigned char *out, uint32_t version, uint32_t dims, uint32_t count,
                     uint32_t frames, const float *v, size_t nv) {
  memcpy(out, "COLSCENE", 8);
  const uint32_t w[4] = {version, dims, count, frames};
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 4; b++) out[8 + 4 * k + b] = (unsigned char)(w[k] >> (8 * b));
  for (size_t i = 0; i < nv; i++) {
    const uint32_t u = fbits(v[i]);
    for (int b = 0; b < 4; b++) out[24 + 4 * i + b] = (unsigned char)(u >> (8 * b));
  }
  return 24 + 4 * nv;
}

typedef struct bad_case {
  const char *name, *text; /* text == NULL: the binary bytes built by the test */
  col_status status;
  const char *reason;
  uint64_t line, offset;
} bad_case;

#define H2 "collide-scene 1 2d\n" /* 19 bytes */
static const bad_case bad[] = {
    {"empty", "", COL_ERR_FORMAT,
     "not a collide scene (no \"collide-scene\" line, no \"COLSCENE\" "
     "magic)",
     0, 0},
    {"other file", "hello\n", COL_ERR_FORMAT,
     "not a collide scene (no \"collide-scene\" line, no \"COLSCENE\" magic)", 0, 0},
    {"text version 3", "collide-scene 3 2d\n", COL_ERR_VERSION,
     "unsupported version (this reader reads versions 1 and 2)", 1, 14},
    {"4d", "collide-scene 1 4d\n", COL_ERR_FORMAT,
     "bad header (want \"collide-scene 1 2d\" or \"collide-scene 1 3d\")", 1, 16},
    {"no dims", "collide-scene 1\n", COL_ERR_FORMAT,
     "bad header (want \"collide-scene 1 2d\" or \"collide-scene 1 3d\")", 1, 0},
    {"short box", H2 "0 0 1\n", COL_ERR_FORMAT, "wrong number of numbers on a box line", 2, 19},
    {"3D box in 2D", H2 "0 0 1 1\n0 0 0 1 1 1\n", COL_ERR_FORMAT,
     "wrong number of numbers on a box line", 3, 27},
    {"2D box in 3D", "collide-scene 1 3d\n0 0 1 1\n", COL_ERR_FORMAT,
     "wrong number of numbers on a box line", 2, 19},
    {"word", H2 "0 0 1 x\n", COL_ERR_FORMAT, "not a number", 2, 25},
    {"trailing junk", H2 "0 0 1 1junk\n", COL_ERR_FORMAT, "not a number", 2, 25},
    {"comma", H2 "0 0 1,5 1\n", COL_ERR_FORMAT, "not a number", 2, 23},
    {"NaN", H2 "0 0 1 nan\n", COL_ERR_FORMAT, "NaN coordinate", 2, 25},
    {"NaN payload", H2 "0 0 1 -nan(123)\n", COL_ERR_FORMAT, "NaN coordinate", 2, 25},
    {"inverted x", H2 "2 0 1 1\n", COL_ERR_FORMAT, "inverted box (min > max)", 2, 19},
    {"inverted inf", H2 "0 inf 1 -inf\n", COL_ERR_FORMAT, "inverted box (min > max)", 2, 19},
    {"overflow", H2 "0 0 1e39 1\n", COL_ERR_FORMAT, "number out of float range", 2, 23},
    {"long number", H2 "0 0 1 1.000000000000000000000000000000000000000000000000000000000000000\n",
     COL_ERR_FORMAT, "number too long (over 63 characters)", 2, 25},
    {"frame counts", H2 "0 0 1 1\n---\n0 0 1 1\n0 0 1 1\n", COL_ERR_FORMAT,
     "frames of different box counts", 5, 47},
    {"separator junk", H2 "0 0 1 1\n--- 1\n", COL_ERR_FORMAT, "not a number", 3, 27},
    {"NUL byte", H2 "0 0 1 1\0\n", COL_ERR_FORMAT, "not a number", 2, 25},
    {"binary short header", "COLSCENE\1\0\0\0", COL_ERR_FORMAT, "truncated", 0, 12},
    /* The binary ones below: built by binary() from the case's index. */
    {"binary version 3", NULL, COL_ERR_VERSION,
     "unsupported version (this reader reads versions 1 and 2)", 0, 8},
    {"binary dims 4", NULL, COL_ERR_FORMAT, "dims not 2 or 3", 0, 12},
    {"binary no frame", NULL, COL_ERR_FORMAT, "no frame", 0, 20},
    {"binary huge counts", NULL, COL_ERR_FORMAT,
     "scene larger than the limits (2^20 frames, 2^28 floats)", 0, 16},
    {"binary over the limit", NULL, COL_ERR_FORMAT,
     "scene larger than the limits (2^20 frames, 2^28 floats)", 0, 16},
    {"binary too many frames", NULL, COL_ERR_FORMAT,
     "scene larger than the limits (2^20 frames, 2^28 floats)", 0, 16},
    {"binary truncated", NULL, COL_ERR_FORMAT, "truncated", 0, 24 + 8 * 4 - 1},
    {"binary trailing byte", NULL, COL_ERR_FORMAT, "bytes after the last frame", 0, 24 + 8 * 4},
    {"binary NaN", NULL, COL_ERR_FORMAT, "NaN coordinate", 0, 24 + 4 * 4 + 4},
    {"binary inverted y", NULL, COL_ERR_FORMAT, "inverted box (min > max)", 0, 24 + 2 * 4 + 4},
};

/* The bytes of case i (texts: their characters up to the terminating NUL but NUL byte's). */
static size_t case_bytes(size_t i, unsigned char *out) {
  const bad_case *c = &bad[i];
  if (c->text != NULL) {
    size_t n = strlen(c->text);
    if (strcmp(c->name, "NUL byte") == 0) n = strlen(H2) + 10;
    if (strcmp(c->name, "binary short header") == 0) n = 12;
    memcpy(out, c->text, n);
    return n;
  }
  /* Two 2D boxes: (0,0)-(1,1) and (2,2)-(3,3), arrays min x, min y, max x, max y. */
  float v[8] = {0, 2, 0, 2, 1, 3, 1, 3};
  const char *name = c->name;
  if (strcmp(name, "binary version 3") == 0) return binary(out, 3, 2, 2, 1, v, 8);
  if (strcmp(name, "binary dims 4") == 0) return binary(out, 1, 4, 2, 1, v, 8);
  if (strcmp(name, "binary no frame") == 0) return binary(out, 1, 2, 2, 0, NULL, 0);
  if (strcmp(name, "binary huge counts") == 0)
    return binary(out, 1, 3, UINT32_MAX, UINT32_MAX, NULL, 0);
  if (strcmp(name, "binary over the limit") == 0) /* 2^24 boxes x 8 frames x 4 floats = 2^29 */
    return binary(out, 1, 2, 1u << 24, 8, NULL, 0);
  if (strcmp(name, "binary too many frames") == 0) /* empty frames, one too many */
    return binary(out, 1, 2, 0, (1u << 20) + 1, NULL, 0);
  if (strcmp(name, "binary truncated") == 0) return binary(out, 1, 2, 2, 1, v, 8) - 1;
  if (strcmp(name, "binary trailing byte") == 0) return binary(out, 1, 2, 2, 1, v, 8) + 1;
  if (strcmp(name, "binary NaN") == 0) v[5] = NAN;      /* max x of box 1 */
  if (strcmp(name, "binary inverted y") == 0) v[3] = 4; /* min y of box 1 */
  return binary(out, 1, 2, 2, 1, v, 8);
}

Test(scene, malformed_files_are_refused_with_where_and_why) {
  const size_t n = sizeof bad / sizeof bad[0];
  cr_assert_geq(n, 20);
  for (size_t i = 0; i < n; i++) {
    unsigned char bytes[256] = {0};
    const size_t size = case_bytes(i, bytes);
    col_scene sc = {.dims = 77, .count = 5, .frames = 6, .data = (float *)bytes};
    const col_scene before = sc;
    col_scene_error e;
    const col_status st = col_scene_read_memory(bytes, size, &sc, &e);
    cr_assert_eq(st, bad[i].status, "%s: status %d (%s)", bad[i].name, st, e.message);
    cr_assert(memcmp(&sc, &before, sizeof sc) == 0, "%s: the scene was written", bad[i].name);
    cr_assert_str_eq(e.reason, bad[i].reason, "%s", bad[i].name);
    cr_assert_eq(e.line, bad[i].line, "%s: line %llu, want %llu", bad[i].name,
                 (unsigned long long)e.line, (unsigned long long)bad[i].line);
    cr_assert_eq(e.offset, bad[i].offset, "%s: byte %llu, want %llu (%s)", bad[i].name,
                 (unsigned long long)e.offset, (unsigned long long)bad[i].offset, e.message);
    cr_assert_not_null(strstr(e.message, e.reason), "%s: %s", bad[i].name, e.message);
    char where[48];
    if (e.line > 0)
      snprintf(where, sizeof where, "line %llu (byte %llu): ", (unsigned long long)e.line,
               (unsigned long long)e.offset);
    else
      snprintf(where, sizeof where, "byte %llu: ", (unsigned long long)e.offset);
    cr_assert_eq(strncmp(e.message, where, strlen(where)), 0, "%s: %s", bad[i].name, e.message);
  }
}

Test(scene, messages_name_the_axis_box_and_frame) {
  unsigned char bytes[256];
  size_t size = 0;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (strcmp(bad[i].name, "binary inverted y") == 0) size = case_bytes(i, bytes);
  col_scene sc;
  col_scene_error e;
  cr_assert_eq(col_scene_read_memory(bytes, size, &sc, &e), COL_ERR_FORMAT);
  cr_assert_str_eq(e.message, "byte 36: inverted box (min > max), on y, box 1 of frame 0");
  const char *text = H2 "0 0 1 1\n0 0 1 1 1\n";
  cr_assert_eq(col_scene_read_memory(text, strlen(text), &sc, &e), COL_ERR_FORMAT);
  cr_assert_str_eq(e.message, "line 3 (byte 27): wrong number of numbers on a box line, 5, want 4");
}

Test(scene, writers_refuse_what_readers_refuse_and_write_nothing) {
  static scene_set s;
  fill_set(&s, 2, 4, 2, 3);
  col_scene_error e;
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  s.v[1][3][2] = NAN; /* frame 1, max y of box 2 */
  cr_assert_eq(col_scene_write_file(f, COL_SCENE_BINARY, s.frames, 2, &e), COL_ERR_FORMAT);
  cr_assert_str_eq(e.message, "NaN coordinate, on y, box 2 of frame 1");
  s.v[1][3][2] = s.v[1][1][2];
  s.v[0][0][1] = INFINITY, s.v[0][2][1] = 0; /* frame 0, box 1 inverted on x */
  cr_assert_eq(col_scene_write_file(f, COL_SCENE_TEXT, s.frames, 2, &e), COL_ERR_FORMAT);
  cr_assert_str_eq(e.reason, "inverted box (min > max)");
  s.v[0][0][1] = -INFINITY;
  s.frames[1].count = 3;
  cr_assert_eq(col_scene_write_file(f, COL_SCENE_TEXT, s.frames, 2, &e), COL_ERR_SIZE);
  /* nframes 0: frames[0] is not read (one col_boxes of guarded memory would fault). */
  col_boxes *none = guard_alloc(0);
  cr_assert_eq(col_scene_write_file(f, COL_SCENE_TEXT, none, 0, &e), COL_ERR_SIZE);
  cr_assert_str_eq(e.reason, "no frame");
  guard_free(none, 0);
  cr_assert_eq(col_scene_write_file(f, (col_scene_form)2, s.frames, 1, &e), COL_ERR_ARGUMENT);
  cr_assert_eq(col_scene_write_file(NULL, COL_SCENE_TEXT, s.frames, 1, &e), COL_ERR_NULL);
  cr_assert_eq(col_scene_write_file(f, COL_SCENE_TEXT, NULL, 1, &e), COL_ERR_NULL);
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(size, 0, "a refused scene wrote %zu bytes", size);
  free(buf);
  /* The path form creates no file. */
  char path[] = "/tmp/collide-scene-test-XXXXXX";
  const int fd = mkstemp(path);
  cr_assert(fd >= 0);
  close(fd);
  remove(path);
  s.v[0][1][0] = NAN;
  cr_assert_eq(col_scene_write_path(path, COL_SCENE_TEXT, s.frames, 1, &e), COL_ERR_FORMAT);
  cr_assert_neq(access(path, F_OK), 0, "a refused scene left %s", path);
}

Test(scene, validate_and_null_arguments) {
  float v[4] = {0, 0, 1, 1};
  col_scene sc = {.dims = 2, .count = 1, .frames = 1, .data = v};
  col_scene_error e;
  cr_assert_eq(col_scene_validate(&sc, &e), COL_OK);
  cr_assert_null(e.reason);
  v[1] = 2; /* min y > max y */
  cr_assert_eq(col_scene_validate(&sc, &e), COL_ERR_FORMAT);
  cr_assert_str_eq(e.message, "inverted box (min > max), on y, box 0 of frame 0");
  sc.dims = 4;
  cr_assert_eq(col_scene_validate(&sc, &e), COL_ERR_FORMAT);
  sc.data = NULL, sc.dims = 2;
  cr_assert_eq(col_scene_validate(&sc, &e), COL_ERR_NULL);
  cr_assert_eq(col_scene_validate(NULL, NULL), COL_ERR_NULL);
  cr_assert_eq(col_scene_read_memory(NULL, 1, &sc, &e), COL_ERR_NULL);
  cr_assert_eq(col_scene_read_memory("x", 1, NULL, &e), COL_ERR_NULL);
  cr_assert_eq(col_scene_read_file(NULL, &sc, &e), COL_ERR_NULL);
  cr_assert_eq(col_scene_read_path(NULL, &sc, NULL), COL_ERR_NULL);
  cr_assert_eq(col_scene_frame(NULL, 0, NULL), COL_ERR_NULL);
  col_scene_destroy(NULL);
}
