/* The slab target's seeds: the edge cases of DESIGN.md 4.9 (a zero move component on a box's
 * plane under both rules and both signs of zero, grazing an edge, a corner tie, touching at the
 * end, flat and point boxes, inverted, NaN, infinite and half-space boxes, an overflowing move),
 * a bullet through a row of tiles, a platformer's moving box, and the edge boxes at batch
 * lengths across the SIMD tails.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { F3D = 1, FOPEN = 2, FBOX = 4 };

/* A box coordinate: raw bits, since the target reads bytes below 0x40 as the mover's points. */
static void put_coord(enc *e, float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  put8(e, 0xa0), put32(e, u);
}

typedef struct scene {
  const char *name;
  uint8_t flags;
  float p[3], q[3], move[3]; /* from, to; or mover min, max, move */
  int n;
  float box[4][6]; /* min x y z, max x y z */
} scene;

#define U                                                                                          \
  { 0, 0, 0, 1, 1, 1 }
static const scene scenes[] = {
    {"slide-top", F3D, {-1, 1, .5f}, {2, 1, .5f}, {0}, 2, {U, {2, 0, 0, 3, 1, 1}}},
    {"slide-bottom-neg-zero", F3D, {-1, 0, .5f}, {2, -0.0f, .5f}, {0}, 1, {U}},
    {"slide-2d", 0, {-1, 1, 0}, {2, 1, 0}, {0}, 1, {U}},
    {"point-on-face", F3D, {0, .5f, .5f}, {0, .5f, .5f}, {0}, 2, {U, {0, 0, 0, 0, 1, 1}}},
    {"point-at-corner-2d", 0, {1, 1, 0}, {1, 1, 0}, {0}, 1, {U}},
    {"graze-edge", F3D, {-1, 1, .5f}, {1, -1, .5f}, {0}, 1, {U}},
    {"corner-tie", F3D, {-1, -1, -1}, {1, 1, 1}, {0}, 1, {U}},
    {"touch-at-end", F3D, {-2, .5f, .5f}, {0, .5f, .5f}, {0}, 1, {U}},
    {"flat-and-point-boxes",
     F3D,
     {0, .5f, .5f},
     {2, .5f, .5f},
     {0},
     2,
     {{1, 0, 0, 1, 1, 1}, {1, .5f, .5f, 1, .5f, .5f}}},
    {"specials",
     F3D,
     {-1, .5f, .5f},
     {3, .5f, .5f},
     {0},
     4,
     {{1, 0, 0, 0, 1, 1},
      {0, 0, NAN, 1, 1, 1},
      {-INFINITY, -INFINITY, -INFINITY, INFINITY, 0, 1},
      {0x1p-149f, 0, 0, INFINITY, 1, 1}}},
    {"half-space",
     F3D,
     {0, 2, 0},
     {0, -2, 0},
     {0},
     1,
     {{-INFINITY, -INFINITY, -INFINITY, INFINITY, 0, INFINITY}}},
    {"overflowing-move", F3D, {-3e38f, .5f, .5f}, {3e38f, .5f, .5f}, {0}, 1, {U}},
    {"tiny-move", F3D, {0, .5f, .5f}, {0x1p-149f, .5f, .5f}, {0}, 1, {U}},
    {"platformer-floor",
     FBOX,
     {0, 1, 0},
     {1, 2, 0},
     {3, 0, 0},
     2,
     {{-10, 0, 0, 10, 1, 0}, {3, 1, 0, 4, 5, 0}}},
    {"platformer-fall", FBOX, {0, 3, 0}, {1, 4, 0}, {0, -4, 0}, 1, {{-10, 0, 0, 10, 1, 0}}},
    {"crate-neg-zero", FBOX | F3D, {1, 5, 1}, {3, 7, 3}, {-0.0f, -6, 0}, 1, {{0, 0, 0, 2, 2, 2}}},
};
#define NSCENES (sizeof scenes / sizeof scenes[0])

static void put_head(enc *e, const scene *s, uint8_t flags, size_t n) {
  const unsigned dims = flags & F3D ? 3 : 2;
  put8(e, flags), put8(e, (uint8_t)n);
  for (unsigned k = 0; k < dims; k++) putf(e, s->p[k]);
  for (unsigned k = 0; k < dims; k++) putf(e, s->q[k]);
  if (flags & FBOX)
    for (unsigned k = 0; k < dims; k++) putf(e, s->move[k]);
}

static void put_box(enc *e, const float b[6], unsigned dims) {
  for (unsigned k = 0; k < dims; k++) put_coord(e, b[k]);
  for (unsigned k = 0; k < dims; k++) put_coord(e, b[3 + k]);
}

void seeds_write(void) {
  enc e = {.n = 0};
  char name[80];
  for (size_t i = 0; i < NSCENES; i++)
    for (int open = 0; open < 2; open++) {
      const scene *s = &scenes[i];
      const uint8_t flags = (uint8_t)(s->flags | (open ? FOPEN : 0));
      e.n = 0;
      put_head(&e, s, flags, (size_t)s->n);
      for (int b = 0; b < s->n; b++) put_box(&e, s->box[b], flags & F3D ? 3 : 2);
      snprintf(name, sizeof name, "%s-%s", s->name, open ? "open" : "closed");
      save(&e, name);
    }
  /* The bullet: 23 m in one step through 0.5 m tiles with gaps (2D, both rules via the
   * flags' misalignment bits, which also shift the arrays). */
  e.n = 0;
  const scene bullet = {"", 0, {-1, .25f, 0}, {22.148f, .25f, 0}, {0}, 0, {{0}}};
  put_head(&e, &bullet, 0x30, 16);
  for (int i = 0; i < 16; i++) {
    const float x = (float)((i * 7) % 31) * 0.5f;
    const float b[6] = {x, 0, 0, x + .5f, .5f, 0};
    put_box(&e, b, 2);
  }
  save(&e, "bullet-tile-row");
  /* The encoder's edge boxes around the unit box at lengths across the tails, with a segment
   * along a face (x moving, y on the plane y = 1) and palette coordinates (the segment's own
   * points) every fifth box. */
  const size_t lens[] = {5, 9, 17, 33, 63};
  const scene along = {"", 0, {-1, 1, .5f}, {2, 1, .5f}, {0}, 0, {{0}}};
  for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
    const uint8_t flags = (uint8_t)((l & 1 ? F3D : 0) | (l & 2 ? FOPEN : 0) | (l << 4));
    e.n = 0;
    put_head(&e, &along, flags, lens[l]);
    const unsigned dims = flags & F3D ? 3 : 2;
    for (size_t i = 0; i < lens[l]; i++) {
      const float *eb = edge_boxes[(i * 4 + l) % NEDGE];
      const float b[6] = {eb[0], eb[1], eb[4], eb[2], eb[3], eb[5]};
      if (i % 5 == 4)
        for (unsigned k = 0; k < 2 * dims; k++) put8(&e, (uint8_t)(k % 2 ? 0x20 : 0x00));
      else
        put_box(&e, b, dims);
    }
    snprintf(name, sizeof name, "edges-n%zu", lens[l]);
    save(&e, name);
  }
}
