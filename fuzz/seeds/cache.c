/* The cache target's seeds: a few boxes churned over many frames (every operation on every
 * box, a removal before the first frame so that the first tree is a single leaf, teleports of
 * each box in turn), in 2D and 3D, both touch rules, listed or found, tree and sweep and
 * prune; and the chain of nested boxes deeper than the tree's query stack, with the allocation
 * of the larger stack failing. Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdio.h>

enum { DEEP = 0x10, STARVE = 0x20 };

static void header(enc *e, uint8_t mode, uint8_t n, uint8_t frames, uint8_t fail_frame,
                   uint8_t fail_at) {
  put8(e, mode), put8(e, n), put8(e, frames), put8(e, fail_frame), put8(e, fail_at);
}

/* n boxes in a row along x, each overlapping its neighbour; box 1 NaN when `lonely`. */
static void row(enc *e, unsigned dims, unsigned n, bool lonely) {
  for (unsigned i = 0; i < n; i++)
    for (unsigned k = 0; k < 2 * dims; k++) {
      const bool max = k >= dims, x = k % dims == 0;
      float f = x ? (float)i * 1.5f + (max ? 2.0f : 0.0f) : (max ? 1.0f : 0.0f);
      if (lonely && i == 1 && k == 0) f = NAN;
      putf(e, f);
    }
}

static void churn(unsigned dims, uint8_t flags, unsigned n, bool lonely, const char *name) {
  enc e = {.n = 0};
  const unsigned frames = 8 + 4 * n; /* 16..56 */
  header(&e, (uint8_t)((dims == 3) | flags), (uint8_t)(n - 2), (uint8_t)(frames - 8), 3, 1);
  row(&e, dims, n, lonely);
  /* Frame f: box f % n teleported far, then back two frames later; every third frame one
   * box removed or added back, shrunk, swapped, grown, moved a little or given a new box. */
  for (unsigned f = 1; f < frames; f++) {
    const uint8_t box = (uint8_t)(f % n), other = (uint8_t)((f * 7 + 3) % n);
    const uint8_t op = (uint8_t)(f % 3 == 0 ? 2 + (f / 3) % 6 : f % 3 == 1 ? 0 : 1);
    put8(&e, 2);
    put8(&e, box), put8(&e, (uint8_t)(op | (f & 3) << 3));
    if (op == 3 || op == 7) put8(&e, (uint8_t)(64 + f % 48));
    if (op == 6) put8(&e, other);
    if (op == 5)
      for (unsigned k = 0; k < 2 * dims; k++) putf(&e, k < dims ? -1.0f : (float)(f % 5));
    put8(&e, other), put8(&e, 1); /* the other box home (added back after a removal) */
  }
  save(&e, name);
}

/* The chain: frame 0 empty, frame 1 the nested boxes inserted one by one, frame 2 the
 * innermost shrunk (looked up through the whole chain, the larger stack allocated first),
 * frame 3 an outer box teleported and one sent back (reinserted: the periodic rebuild). */
static void chain(unsigned dims, uint8_t flags, unsigned n, uint8_t fail_frame, uint8_t fail_at,
                  const char *name) {
  enc e = {.n = 0};
  /* The n byte's top two bits with the mode's DEEP bit ask for the chain, its low five its
   * length past 130. */
  header(&e, (uint8_t)((dims == 3) | DEEP | flags), (uint8_t)(0xC0 | (n - 130) % 32u), 1,
         fail_frame, fail_at);
  putf(&e, 0.25f);
  for (int k = 0; k < 3; k++) putf(&e, 0.0f);
  put8(&e, 1), put8(&e, (uint8_t)(n - 1)), put8(&e, 4);                /* frame 2 */
  put8(&e, 2), put8(&e, 5), put8(&e, 0), put8(&e, 9), put8(&e, 1 | 8); /* frame 3 */
  save(&e, name);
}

/* The shortest inputs run first when a corpus loads: the first tree a single leaf (box 1 NaN),
 * which box 0 then leaves (teleported); the rest from the generator. */
static void first_leaf(unsigned dims) {
  enc e = {.n = 0};
  header(&e, (uint8_t)(dims == 3), 0, 0, 0, 0);
  for (unsigned i = 0; i < 2; i++)
    for (unsigned k = 0; k < 2 * dims; k++)
      putf(&e, i == 1 && k == 0 ? NAN : k < dims ? 0.0f : 1.0f);
  put8(&e, 1), put8(&e, 0), put8(&e, 0);
  char name[32];
  snprintf(name, sizeof name, "first-leaf-%uD", dims);
  save(&e, name);
}

void seeds_write(void) {
  char name[64];
  first_leaf(2), first_leaf(3);
  for (unsigned dims = 2; dims <= 3; dims++) {
    const unsigned counts[] = {2, 3, 5, 12};
    for (unsigned c = 0; c < 4; c++)
      for (uint8_t flags = 0; flags < 16; flags += 2) {
        snprintf(name, sizeof name, "churn-%uD-n%u-%s%s%s", dims, counts[c],
                 flags & 2 ? "open" : "closed", flags & 4 ? "-listed" : "",
                 flags & 8 ? "-sap" : "");
        churn(dims, (uint8_t)(flags | (c << 6)), counts[c], false, name);
      }
    for (uint8_t flags = 0; flags < 8; flags += 4) {
      snprintf(name, sizeof name, "lonely-%uD%s", dims, flags & 4 ? "-listed" : "");
      churn(dims, (uint8_t)(flags | STARVE), 2, true, name);
    }
    for (uint8_t flags = 0; flags < 8; flags += 4) {
      const char *list = flags & 4 ? "-listed" : "";
      snprintf(name, sizeof name, "chain-%uD%s", dims, list);
      chain(dims, flags, 140, 0, 0, name);
      snprintf(name, sizeof name, "chain-%uD%s-stack-fails", dims, list);
      chain(dims, (uint8_t)(flags | STARVE), 140, 2, 0, name);
      snprintf(name, sizeof name, "chain-%uD%s-fails-2", dims, list);
      chain(dims, (uint8_t)(flags | STARVE), 160, 1, 2, name);
    }
    snprintf(name, sizeof name, "chain-%uD-sap", dims);
    chain(dims, 8, 140, 0, 0, name);
  }
}
