/* The scene target's seeds: scene files in both forms, written by the library (2D and 3D,
 * several frames, -0.0, subnormals, FLT_MAX, infinities), hand-written text (comments, blank
 * lines, CRLF, hexadecimal numbers), and malformed files of each kind the reader refuses.
 * Each is mode 0 (the file as it is) but the last few (the text body and binary header modes).
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#define _GNU_SOURCE
#include "encode.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_bytes(enc *e, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) put8(e, ((const uint8_t *)p)[i]);
}

/* A file in mode 0: the mode byte, then the bytes. */
static void save_file(const char *name, const void *p, size_t n) {
  enc e = {.n = 0};
  put8(&e, 0);
  put_bytes(&e, p, n);
  save(&e, name);
}

static void save_text(const char *name, const char *text) { save_file(name, text, strlen(text)); }

/* frames x count boxes of dims from a fixed list of values (min the smaller of two). */
static void save_written(const char *name, col_scene_form form, unsigned dims, size_t count,
                         size_t nframes) {
  static const float values[] = {0.0f, -0.0f,  0x1p-149f, FLT_MAX, -FLT_MAX, INFINITY,
                                 1.5f, -2.25f, FLT_MIN,   1e-40f,  100.0f,   -INFINITY,
                                 3.0f, 0.125f, -7.0f,     1e30f,   2.0f};
  const size_t nv = sizeof values / sizeof values[0];
  static float v[4][6][16];
  col_boxes frames[4];
  size_t k = 0;
  for (size_t f = 0; f < nframes; f++) {
    frames[f] = (col_boxes){.dims = dims, .count = count};
    for (unsigned a = 0; a < dims; a++) {
      for (size_t i = 0; i < count; i++) {
        float lo = values[k++ % nv], hi = values[(k++ * 7) % nv];
        if (lo > hi) {
          const float t = lo;
          lo = hi, hi = t;
        }
        v[f][a][i] = lo, v[f][dims + a][i] = hi;
      }
      frames[f].min[a] = v[f][a], frames[f].max[a] = v[f][dims + a];
    }
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  col_scene_error err;
  if (out == NULL || col_scene_write_file(out, form, frames, nframes, &err) != COL_OK) {
    fprintf(stderr, "seeds scene: %s could not be written\n", name);
    exit(1);
  }
  fclose(out);
  save_file(name, buf, len);
  free(buf);
}

void seeds_write(void) {
  save_written("text-2d-1x1", COL_SCENE_TEXT, 2, 1, 1);
  save_written("text-2d-5x3", COL_SCENE_TEXT, 2, 5, 3);
  save_written("text-3d-4x2", COL_SCENE_TEXT, 3, 4, 2);
  save_written("text-3d-empty-frames", COL_SCENE_TEXT, 3, 0, 2);
  save_written("binary-2d-5x3", COL_SCENE_BINARY, 2, 5, 3);
  save_written("binary-3d-16x4", COL_SCENE_BINARY, 3, 16, 4);
  save_written("binary-2d-empty", COL_SCENE_BINARY, 2, 0, 1);
  save_text("text-by-hand", "collide-scene 1 2d\r\n# a level\r\n\r\n  0 0.5\t10 1e1\r\n"
                            "-inf -0 INF 0x1p-149\r\n   ---\r\n1 2 3 4\r\n5 6 7 8");
  save_text("bad-version", "collide-scene 2 2d\n0 0 1 1\n");
  save_text("bad-dims", "collide-scene 1 4d\n");
  save_text("bad-3d-box-in-2d", "collide-scene 1 2d\n0 0 1 1\n0 0 0 1 1 1\n");
  save_text("bad-nan", "collide-scene 1 3d\n0 0 0 1 nan 1\n");
  save_text("bad-inverted", "collide-scene 1 2d\n0 5 1 4\n");
  save_text("bad-frame-counts", "collide-scene 1 2d\n0 0 1 1\n---\n0 0 1 1\n0 0 1 1\n");
  save_text("bad-overflow", "collide-scene 1 2d\n0 0 1e39 1\n");
  save_text("bad-word", "collide-scene 1 2d\n0 0 one 1\n");
  const uint8_t truncated[] = {'C', 'O', 'L', 'S', 'C', 'E', 'N', 'E', 1, 0, 0, 0, 2, 0, 0,
                               0,   1,   0,   0,   0,   1,   0,   0,   0, 0, 0, 0, 0, 0, 0};
  save_file("bad-binary-truncated", truncated, sizeof truncated);
  const uint8_t huge[] = {'C', 'O', 'L', 'S', 'C',  'E',  'N',  'E',  1,    0,    0,    0,
                          3,   0,   0,   0,   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  save_file("bad-binary-huge-counts", huge, sizeof huge);
  /* The other modes: a text body, and a binary header of 3 boxes x 2 frames (3D) with its
   * 3 x 2 x 6 floats: the bytes 0x00 0x00 0x80 0x3f (1.0) for every min and max. */
  enc e = {.n = 0};
  put8(&e, 1 | 4);
  put_bytes(&e, "0 0 0 1 1 1\n---\n2 2 2 3 3 3\n", 28);
  save(&e, "mode-text-body-3d");
  e.n = 0;
  put8(&e, 2 | 4), put8(&e, 3), put8(&e, 2);
  for (int i = 0; i < 3 * 2 * 6; i++) put8(&e, 0), put8(&e, 0), put8(&e, 0x80), put8(&e, 0x3f);
  save(&e, "mode-binary-body-3d");
  e.n = 0;
  put8(&e, 2 | 8), put8(&e, 1), put8(&e, 1); /* an allocation failed */
  for (int i = 0; i < 4; i++) put8(&e, 0), put8(&e, 0), put8(&e, 0x80), put8(&e, 0x3f);
  save(&e, "mode-binary-allocation-fails");
}
