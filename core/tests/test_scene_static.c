/* Scene files' static marks (version 2, collide/scene.h): the writers' round trip in both forms,
 * version 1 files when no marks are given, the readers' refusals with where and why, and the
 * marks read back as 1 for exactly the marked boxes. */
#define _DEFAULT_SOURCE /* open_memstream, mkstemp */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Two frames of n 2D boxes (box i at x = i), its marks every third box (value 7). */
typedef struct marked_scene {
  float v[2][4][40];
  col_boxes frames[2];
  uint8_t marks[40];
  size_t n;
} marked_scene;

static void scene_make(marked_scene *m, size_t n) {
  m->n = n;
  for (int f = 0; f < 2; f++) {
    for (size_t i = 0; i < n; i++) {
      m->v[f][0][i] = (float)i + 0.5f * (float)f, m->v[f][1][i] = -0.0f;
      m->v[f][2][i] = m->v[f][0][i] + 1.25f, m->v[f][3][i] = 1.0f;
    }
    m->frames[f] =
        (col_boxes){2, {m->v[f][0], m->v[f][1], NULL}, {m->v[f][2], m->v[f][3], NULL}, n};
  }
  for (size_t i = 0; i < n; i++) m->marks[i] = i % 3 == 0 ? 7 : 0;
}

/* Writes the scene to memory in `form` with `marks`; the bytes in *out (free them). */
static size_t write_mem(const marked_scene *m, col_scene_form form, const uint8_t *marks,
                        char **out) {
  size_t size = 0;
  FILE *f = open_memstream(out, &size);
  cr_assert_not_null(f);
  col_scene_error e;
  cr_assert_eq(col_scene_write_file_static(f, form, m->frames, 2, marks, &e), COL_OK, "%s",
               e.message);
  fclose(f);
  return size;
}

Test(scene, static_marks_round_trip) {
  marked_scene m;
  scene_make(&m, 37);
  for (int form = 0; form < 2; form++) {
    char *bytes = NULL;
    const size_t size = write_mem(&m, (col_scene_form)form, m.marks, &bytes);
    if (form == COL_SCENE_TEXT)
      cr_assert(strncmp(bytes, "collide-scene 2 2d\n", 19) == 0 &&
                    strstr(bytes, "\nstatic 0 3 6 9 ") != NULL,
                "a version 2 text file with its static lines: %.80s", bytes);
    else
      cr_assert_eq(bytes[8], 2, "a version 2 binary file");
    col_scene sc;
    col_scene_error e;
    cr_assert_eq(col_scene_read_memory(bytes, size, &sc, &e), COL_OK, "%s", e.message);
    cr_assert_not_null(sc.is_static);
    for (size_t i = 0; i < m.n; i++)
      cr_assert_eq(sc.is_static[i], i % 3 == 0 ? 1 : 0, "form %d, box %zu", form, i);
    cr_assert_eq(sc.count, m.n);
    cr_assert_eq(sc.frames, 2u);
    col_boxes b;
    cr_assert_eq(col_scene_frame(&sc, 1, &b), COL_OK);
    cr_assert_eq(fbits(b.min[0][5]), fbits(m.v[1][0][5]));
    cr_assert_eq(fbits(b.min[1][5]), fbits(-0.0f));
    col_scene_destroy(&sc);
    cr_assert_null(sc.is_static, "destroy clears the marks");
    free(bytes);
    /* No marks: version 1, every reader of version 1 reads it, no marks read back. */
    bytes = NULL;
    const size_t plain = write_mem(&m, (col_scene_form)form, NULL, &bytes);
    if (form == COL_SCENE_TEXT)
      cr_assert_not_null(strstr(bytes, "collide-scene 1 2d\n"));
    else
      cr_assert_eq(bytes[8], 1);
    cr_assert_eq(col_scene_read_memory(bytes, plain, &sc, &e), COL_OK, "%s", e.message);
    cr_assert_null(sc.is_static);
    col_scene_destroy(&sc);
    free(bytes);
    /* Marks that mark nothing: read back as none. */
    uint8_t none[40] = {0};
    bytes = NULL;
    const size_t empty = write_mem(&m, (col_scene_form)form, none, &bytes);
    cr_assert_eq(col_scene_read_memory(bytes, empty, &sc, &e), COL_OK, "%s", e.message);
    cr_assert_null(sc.is_static);
    col_scene_destroy(&sc);
    free(bytes);
  }
}

Test(scene, static_marks_by_path_and_ranges) {
  const char *text = "collide-scene 2 2d\n"
                     "static 0-2 5\n"
                     "0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n"
                     "---\n"
                     "static 4 4\n"
                     "0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n";
  col_scene sc;
  col_scene_error e;
  cr_assert_eq(col_scene_read_memory(text, strlen(text), &sc, &e), COL_OK, "%s", e.message);
  const uint8_t want[6] = {1, 1, 1, 0, 1, 1};
  cr_assert_not_null(sc.is_static);
  cr_assert(memcmp(sc.is_static, want, 6) == 0, "ranges, single indices and repeats");
  char path[] = "/tmp/collide-scene-static-XXXXXX";
  const int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  col_boxes frames[2];
  col_scene_frame(&sc, 0, &frames[0]), col_scene_frame(&sc, 1, &frames[1]);
  cr_assert_eq(col_scene_write_path_static(path, COL_SCENE_BINARY, frames, 2, sc.is_static, &e),
               COL_OK);
  col_scene back;
  cr_assert_eq(col_scene_read_path(path, &back, &e), COL_OK, "%s", e.message);
  cr_assert(memcmp(back.is_static, want, 6) == 0);
  col_scene_destroy(&back);
  cr_assert_eq(col_scene_write_path_static(NULL, COL_SCENE_TEXT, frames, 2, want, &e),
               COL_ERR_NULL);
  cr_assert_eq(col_scene_write_file_static(NULL, COL_SCENE_TEXT, frames, 2, want, &e),
               COL_ERR_NULL);
  cr_assert_eq(col_scene_write_path_static(path, (col_scene_form)5, frames, 2, want, &e),
               COL_ERR_ARGUMENT);
  unlink(path);
  col_scene_destroy(&sc);
}

/* A binary version 2 file of two 2D boxes in one frame: the flags word, `marks` bytes (a
 * multiple of 4 with flags bit 0), then the boxes unless `truncate`. */
static size_t binary2(unsigned char *out, uint32_t flags, const unsigned char *marks, size_t nmarks,
                      bool truncate) {
  memcpy(out, "COLSCENE", 8);
  const uint32_t w[5] = {2, 2, 2, 1, flags};
  for (int k = 0; k < 5; k++)
    for (int b = 0; b < 4; b++) out[8 + 4 * k + b] = (unsigned char)(w[k] >> (8 * b));
  size_t at = 28;
  if (nmarks) memcpy(out + at, marks, nmarks);
  at += nmarks;
  if (truncate) return at;
  const float v[8] = {0, 2, 0, 2, 1, 3, 1, 3};
  for (size_t i = 0; i < 8; i++) {
    const uint32_t u = fbits(v[i]);
    for (int b = 0; b < 4; b++) out[at + 4 * i + b] = (unsigned char)(u >> (8 * b));
  }
  return at + 32;
}

Test(scene, static_marks_refused_with_where_and_why) {
  static const struct {
    const char *name, *text, *reason;
    uint64_t line, offset;
  } texts[] = {
      {"static in version 1", "collide-scene 1 2d\nstatic 0\n0 0 1 1\n",
       "a \"static\" line needs version 2 of the format", 2, 19},
      {"static word", "collide-scene 2 2d\nstatic 0 1x\n0 0 1 1\n", "bad static mark", 2, 28},
      {"static reversed", "collide-scene 2 2d\nstatic 5-3\n0 0 1 1\n", "bad static mark", 2, 26},
      {"static negative", "collide-scene 2 2d\nstatic -1\n0 0 1 1\n", "bad static mark", 2, 26},
      {"static past the last box", "collide-scene 2 2d\n0 0 1 1\nstatic 0 1\n",
       "static mark past the last box", 3, 36},
      {"static huge", "collide-scene 2 2d\nstatic 4294967296\n0 0 1 1\n", "bad static mark", 2, 26},
  };
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
    col_scene sc = {.dims = 9};
    col_scene_error e;
    cr_assert_eq(col_scene_read_memory(texts[k].text, strlen(texts[k].text), &sc, &e),
                 COL_ERR_FORMAT, "%s", texts[k].name);
    cr_assert_eq(sc.dims, 9u, "%s: the scene was written", texts[k].name);
    cr_assert_str_eq(e.reason, texts[k].reason, "%s", texts[k].name);
    cr_assert_eq(e.line, texts[k].line, "%s: line %llu", texts[k].name, (unsigned long long)e.line);
    cr_assert_eq(e.offset, texts[k].offset, "%s: byte %llu (%s)", texts[k].name,
                 (unsigned long long)e.offset, e.message);
  }
  unsigned char bytes[128];
  const unsigned char ok[4] = {1, 0, 0, 0}, past[4] = {1 | 8, 0, 0, 0}, pad[4] = {1, 0, 3, 0};
  col_scene sc;
  col_scene_error e;
  size_t n = binary2(bytes, 1, ok, 4, false);
  cr_assert_eq(col_scene_read_memory(bytes, n, &sc, &e), COL_OK, "%s", e.message);
  cr_assert(sc.is_static[0] == 1 && sc.is_static[1] == 0);
  col_scene_destroy(&sc);
  n = binary2(bytes, 0, NULL, 0, false);
  cr_assert_eq(col_scene_read_memory(bytes, n, &sc, &e), COL_OK, "flags 0: no marks");
  cr_assert_null(sc.is_static);
  col_scene_destroy(&sc);
  const struct {
    const char *name;
    uint32_t flags;
    const unsigned char *marks;
    bool truncate;
    const char *reason;
    uint64_t offset;
  } bins[] = {
      {"unknown flags", 3, ok, false, "unknown flags (version 2 defines bit 0 only)", 24},
      {"a mark past the last box", 1, past, false, "static marks past the last box", 28},
      {"nonzero padding", 1, pad, false, "static marks past the last box", 30},
      {"marks truncated", 1, ok, true, "truncated", 0},
  };
  for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++) {
    n = binary2(bytes, bins[k].flags, bins[k].marks, bins[k].truncate ? 2 : 4, bins[k].truncate);
    cr_assert_eq(col_scene_read_memory(bytes, n, &sc, &e), COL_ERR_FORMAT, "%s", bins[k].name);
    cr_assert_str_eq(e.reason, bins[k].reason, "%s", bins[k].name);
    if (bins[k].offset) cr_assert_eq(e.offset, bins[k].offset, "%s: %s", bins[k].name, e.message);
  }
}
