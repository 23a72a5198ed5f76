/* Fuzz target: the scene file reader (collide/scene.h) on arbitrary bytes. Whatever it reads
 * must pass col_scene_validate, write in both forms and read back to the same bits (dims,
 * counts, every float; scenes of up to 4,096 frames); whatever it refuses must leave the scene
 * untouched and say why; the stream reader must agree with the memory reader; a failed
 * allocation must give COL_ERR_MEMORY and nothing half-filled. No crash, no leak (ASan).
 * Input: a mode byte, then by mode % 4 (bit 2: 3D, bit 3: fail one allocation of the read,
 * which one by bits 4-5; bit 6: version 2, whose static marks must read back too):
 *   0  the rest is the file, as it is (either form, or neither);
 *   1  "collide-scene 1 2d\n" (or 2, or 3d) and the rest: the text body;
 *   2  a binary header (version 1 or 2, count = the next byte % 64, frames = the byte after % 8)
 *      and the rest: the binary boxes (after version 2's flags and marks), right in size or not;
 *   3  "COLSCENE" and the rest: the binary header's words too. */
#define _GNU_SOURCE
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "scene";

static _Noreturn void scene_fail(const char *what, const col_scene_error *e) {
  fprintf(stderr, "fuzz scene: %s%s%s\n", what, e != NULL ? ": " : "", e != NULL ? e->message : "");
  fz_fail();
}

static void put32le(uint8_t *p, uint32_t v) {
  for (int b = 0; b < 4; b++) p[b] = (uint8_t)(v >> (8 * b));
}

/* The file the input describes, in an exact-size buffer (a read past it is ASan's). */
static uint8_t *build(const uint8_t *data, size_t size, size_t *n, uint8_t *mode) {
  fz_reader r = {data, size};
  *mode = fz_u8(&r);
  const bool three = (*mode >> 2) & 1, two = (*mode >> 6) & 1;
  uint8_t head[24];
  size_t h = 0;
  switch (*mode % 4) {
  case 1:
    h = 19, memcpy(head, three ? "collide-scene 1 3d\n" : "collide-scene 1 2d\n", h);
    if (two) head[14] = '2';
    break;
  case 2: {
    const uint32_t count = fz_u8(&r) % 64, frames = fz_u8(&r) % 8;
    memcpy(head, "COLSCENE", 8);
    put32le(head + 8, two ? 2 : 1), put32le(head + 12, three ? 3 : 2);
    put32le(head + 16, count), put32le(head + 20, frames);
    h = 24;
    break;
  }
  case 3: h = 8, memcpy(head, "COLSCENE", 8); break;
  default: break;
  }
  *n = h + r.n;
  uint8_t *file = fz_alloc(*n);
  memcpy(file, head, h);
  if (r.n > 0) memcpy(file + h, r.p, r.n);
  return file;
}

static void same_scene(const col_scene *a, const col_scene *b, const char *what) {
  if (a->dims != b->dims || a->count != b->count || a->frames != b->frames) scene_fail(what, NULL);
  if ((a->is_static == NULL) != (b->is_static == NULL) ||
      (a->is_static != NULL && a->count > 0 && memcmp(a->is_static, b->is_static, a->count) != 0))
    scene_fail(what, NULL);
  for (size_t i = 0; a->is_static != NULL && i < a->count; i++)
    if (a->is_static[i] > 1) scene_fail("a static mark read as neither 0 nor 1", NULL);
  const size_t floats = a->frames * a->count * 2 * a->dims;
  if (floats > 0 && memcmp(a->data, b->data, floats * sizeof(float)) != 0) scene_fail(what, NULL);
}

/* The scene written in `form` and read again. */
static void round_trip(const col_scene *sc, col_scene_form form) {
  col_boxes *frames = fz_alloc(sc->frames * sizeof *frames);
  for (size_t f = 0; f < sc->frames; f++)
    if (col_scene_frame(sc, f, &frames[f]) != COL_OK) scene_fail("col_scene_frame failed", NULL);
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (out == NULL) abort();
  col_scene_error e;
  if (col_scene_write_file_static(out, form, frames, sc->frames, sc->is_static, &e) != COL_OK)
    scene_fail("a scene read could not be written", &e);
  fclose(out);
  col_scene back;
  if (col_scene_read_memory(buf, len, &back, &e) != COL_OK)
    scene_fail(form == COL_SCENE_TEXT ? "the text written does not read"
                                      : "the binary written does not read",
               &e);
  if (back.form != form) scene_fail("the form read back is not the form written", NULL);
  same_scene(sc, &back,
             form == COL_SCENE_TEXT ? "the text form changed the scene"
                                    : "the binary form changed the scene");
  col_scene_destroy(&back);
  free(buf);
  free(frames);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = 0;
  uint8_t mode = 0;
  uint8_t *file = build(data, size, &n, &mode);
  const col_scene untouched = {.dims = 99, .count = 7, .frames = 5, .data = (float *)file};
  col_scene sc = untouched;
  col_scene_error e = {.reason = NULL};

  const bool fail_one = (mode >> 3) & 1;
  if (fail_one) fz_fail_allocation((mode >> 4) & 3);
  const col_status st = col_scene_read_memory(file, n, &sc, &e);
  const bool failed = fail_one && fz_allocation_failed();
  if (failed && st != COL_ERR_MEMORY) scene_fail("a failed allocation was not COL_ERR_MEMORY", &e);
  if (st != COL_OK) {
    if (memcmp(&sc, &untouched, sizeof sc) != 0) scene_fail("a refused file wrote the scene", &e);
    if (e.reason == NULL || strstr(e.message, e.reason) == NULL)
      scene_fail("a refused file without its reason", &e);
    if (st != COL_ERR_FORMAT && st != COL_ERR_VERSION && st != COL_ERR_MEMORY)
      scene_fail("a refused file with an unexpected status", &e);
    free(file);
    return 0;
  }
  if (e.reason != NULL) scene_fail("a file read with an error left", &e);
  if (col_scene_validate(&sc, &e) != COL_OK) scene_fail("a scene read does not validate", &e);
  /* The stream reader: the same answer. */
  FILE *in = n > 0 ? fmemopen(file, n, "rb") : NULL;
  if (in != NULL) {
    col_scene again;
    if (col_scene_read_file(in, &again, &e) != COL_OK)
      scene_fail("the stream reader refused what the memory reader read", &e);
    same_scene(&sc, &again, "the stream reader read another scene");
    col_scene_destroy(&again);
    fclose(in);
  }
  /* A header may ask for up to 2^20 empty frames: their round trip (a col_boxes each, a line
   * each) would cost a second an input and find nothing the smaller ones do not. */
  if (sc.frames <= 4096) {
    round_trip(&sc, COL_SCENE_TEXT);
    round_trip(&sc, COL_SCENE_BINARY);
  }
  col_scene_destroy(&sc);
  free(file);
  return 0;
}
