/* The seed files' encoder, shared by the seed writers fuzz/seeds/<target>.c: bytes, words and
 * floats in the targets' input format (fuzz_common.h's reader), each float checked by decoding
 * it again, and the file written into the output folder as seed-<name>. */
#ifndef COLLIDE_FUZZ_SEEDS_ENCODE_H
#define COLLIDE_FUZZ_SEEDS_ENCODE_H

#include "../fuzz_common.h"

typedef struct enc {
  uint8_t buf[1 << 16];
  size_t n;
} enc;

void put8(enc *e, uint8_t v);
/* Little-endian, as fz_u32 reads it. */
void put32(enc *e, uint32_t v);
/* The shortest encoding of f: a grid byte, a special tag, or the raw bits; exits when it does
 * not decode to f again. */
void putf(enc *e, float f);
/* Writes e to <the output folder>/seed-<name>; exits on failure. */
void save(const enc *e, const char *name);

/* The output folder (make_seeds.c: its argument), and how many files save wrote. */
void seeds_into(const char *dir);
size_t seeds_saved(void);

/* Batch lengths across the SIMD widths (the tails of 4, 8 and 16 lanes), for the batch seeds. */
enum { NLENGTHS = 18 };
extern const size_t lengths[NLENGTHS];

/* Boxes around the query (0,0,0)-(1,1,1), as min x y, max x y, min z max z: touching on each
 * side, one ulp apart or overlapping, -0.0, points, inverted, infinite, apart, denormal. The
 * aabb seeds query them; the broadphase seeds pair them. */
enum { NEDGE = 15 };
extern const float edge_boxes[NEDGE][6];

/* A 10 x 10 x 10 lattice of unit boxes touching their neighbours (no pair under the open rule),
 * every eighth grown by a quarter (pairs with its neighbours after it), as 1,000 boxes of 6
 * floats: sweep and prune's grid over y and z then has many boxes over four cells at once. */
void put_lattice_boxes(enc *e);

/* Writes the target's seeds with save: defined by fuzz/seeds/<target>.c, one per target (the
 * Makefile links each with make_seeds.c into its own program). */
void seeds_write(void);

#endif
