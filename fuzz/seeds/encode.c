/* The seed files' encoder (encode.h) and the tables more than one target's seeds use. */
#include "encode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *out_dir;
static size_t files_written;

void seeds_into(const char *dir) { out_dir = dir; }
size_t seeds_saved(void) { return files_written; }

void put8(enc *e, uint8_t v) {
  if (e->n == sizeof e->buf) abort();
  e->buf[e->n++] = v;
}

void put32(enc *e, uint32_t v) {
  for (int k = 0; k < 4; k++) put8(e, (uint8_t)(v >> (8 * k)));
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The shortest encoding of f: a grid byte, a special tag, or the raw bits. */
void putf(enc *e, float f) {
  const size_t at = e->n;
  const uint32_t u = bits_of(f);
  int done = 0;
  for (int g = 0; g < 128 && !done; g++)
    if (bits_of(fz_grid((uint8_t)g)) == u) put8(e, (uint8_t)g), done = 1;
  for (int k = 0; k < 16 && !done; k++)
    if (fz_special_bits[k] == u) put8(e, (uint8_t)(0x90 | k)), done = 1;
  if (!done) put8(e, 0xa0), put32(e, u);
  fz_reader r = {e->buf + at, e->n - at};
  if (bits_of(fz_float(&r)) != u) {
    fprintf(stderr, "make_seeds: %a does not round-trip\n", (double)f);
    exit(1);
  }
}

void save(const enc *e, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/seed-%s", out_dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(e->buf, 1, e->n, f) != e->n || fclose(f) != 0) {
    fprintf(stderr, "make_seeds: cannot write %s\n", path);
    exit(1);
  }
  files_written++;
}

const size_t lengths[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 50, 127};
_Static_assert(sizeof lengths / sizeof lengths[0] == NLENGTHS, "NLENGTHS counts lengths");

const float edge_boxes[][6] = {
    {1, 0, 2, 1, 0, 1},                   /* touching right */
    {-1, 0, 0, 1, 0, 1},                  /* touching left */
    {0, 1, 1, 2, 0, 1},                   /* touching top */
    {1, 1, 2, 2, 1, 2},                   /* touching corner, and on z */
    {0, 0, 1, 1, 1, 2},                   /* touching on z only */
    {0x1.000002p0f, 0, 2, 1, 0, 1},       /* one ulp apart */
    {0x1.fffffep-1f, 0, 2, 1, 0, 1},      /* one ulp overlap */
    {-0.0f, 0, 1, 1, 0, 1},               /* -0.0 edge */
    {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}, /* point inside */
    {1, 0.5f, 1, 0.5f, 0.5f, 0.5f},       /* point on an edge */
    {1, 1, 0, 0, 0, 1},                   /* inverted */
    {-INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY},
    {INFINITY, 0, INFINITY, 1, 0, 1},
    {2, 2, 3, 3, 0, 1},         /* apart */
    {0x1p-149f, 0, 1, 1, 0, 1}, /* denormal */
};
_Static_assert(sizeof edge_boxes / sizeof edge_boxes[0] == NEDGE, "NEDGE counts edge_boxes");

void put_lattice_boxes(enc *e) {
  for (int i = 0; i < 1000; i++) {
    const float grow = i % 8 == 3 ? 1.25f : 1.0f;
    const float x = (float)(i % 10 - 5), y = (float)(i / 10 % 10 - 5), z = (float)(i / 100 - 5);
    putf(e, x), putf(e, y), putf(e, x + grow), putf(e, y + grow), putf(e, z), putf(e, z + grow);
  }
}
