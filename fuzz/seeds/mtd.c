/* The mtd target's seeds: the platform example and the edge pairs below at every length of
 * `lengths`.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdio.h>

/* Pairs a, b as a min x y, max x y, b min x y, max x y. */
static const float edge_pairs[][8] = {
    {0, 0, 64, 64, 32, 32, 96, 96},      /* the seed: (-32, 0) */
    {32, 32, 96, 96, 0, 0, 64, 64},      /* swapped: (32, 0) */
    {0, 0, 10, 10, 0, -20, 10, 30},      /* tie left/right */
    {0, 0, 10, 10, -20, 0, 30, 10},      /* tie down/up */
    {0, 0, 10, 10, -20, 6, 4, 30},       /* tie right/down */
    {0, 0, 1, 1, 1, -5, 9, 5},           /* touching */
    {-1, -1, -0.0f, 1, 0, -5, 9, 5},     /* touching through -0.0 */
    {-1, -1, 0x1p-149f, 1, 0, -5, 9, 5}, /* denormal penetration */
    {NAN, 0, 10, 10, 1, 1, 2, 2},
    {0, 0, 10, 10, 1, 1, 2, NAN},
    {-INFINITY, -INFINITY, INFINITY, INFINITY, 0, 0, 1, 1},
    {0, 0, INFINITY, 1, INFINITY, 0, INFINITY, 1}, /* inf - inf */
    {5, 5, 4, 4, 0, 0, 10, 10},                    /* inverted inside */
    {0, 0, 1, 1, 2, 0, 3, 1},                      /* apart */
    {0.5f, 0.25f, 2.5f, 1.75f, 2.25f, -1, 4, 4},
};
#define NPAIRS (sizeof edge_pairs / sizeof edge_pairs[0])

void seeds_write(void) {
  enc e = {.n = 0};
  put8(&e, 0), put8(&e, 1);
  for (int k = 0; k < 8; k++) putf(&e, edge_pairs[0][k]);
  save(&e, "example-playing-with-platforms");
  for (size_t l = 0; l < NLENGTHS; l++) {
    e.n = 0;
    put8(&e, (uint8_t)(lengths[l] % 16)), put8(&e, (uint8_t)lengths[l]);
    for (size_t i = 0; i < lengths[l]; i++)
      for (int k = 0; k < 8; k++) putf(&e, edge_pairs[(i * 7 + l) % NPAIRS][k]);
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    save(&e, name);
  }
}
