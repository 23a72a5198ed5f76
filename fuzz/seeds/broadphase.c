/* The broadphase target's seeds: the edge boxes (encode.c) as sets in 2D and 3D, alone or topped
 * up by the target's generator, everything overlapping, and large generated sets of each shape.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <stdio.h>

void seeds_write(void) {
  const size_t counts[] = {2, 17, 40, 300};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      enc e = {.n = 0};
      put8(&e, dims == 3);
      put8(&e, (uint8_t)(counts[c] & 0xFF)), put8(&e, (uint8_t)(counts[c] >> 8));
      const size_t decoded = counts[c] < 40 ? counts[c] : 20;
      for (size_t i = 0; i < decoded; i++)
        for (unsigned k = 0; k < 2 * dims; k++) putf(&e, edge_boxes[(i * 5) % NEDGE][k]);
      char name[64];
      snprintf(name, sizeof name, "edges-%uD-n%zu", dims, counts[c]);
      save(&e, name);
    }
  enc e = {.n = 0};
  put8(&e, 0), put8(&e, 64), put8(&e, 0);
  for (int i = 0; i < 64; i++)
    for (int k = 0; k < 4; k++) putf(&e, k < 2 ? -1.0f : 1.0f); /* everything overlaps */
  save(&e, "all-overlapping");
  /* A 10 x 10 x 10 lattice of unit boxes touching their neighbours (no pair under the open
   * rule), every eighth grown by a quarter (pairs with its neighbours after it): sweep and
   * prune's grid over y and z then has many boxes over four cells at once, whose counts come
   * from the cells before them on both axes. */
  enc l = {.n = 0};
  put8(&l, 1 | 2), put8(&l, 1000 & 0xFF), put8(&l, 0xF0 | 1000 >> 8);
  put_lattice_boxes(&l);
  save(&l, "lattice-3D-n1000");
  /* Large generated sets of each shape (the second n byte's bits 2-3: flat, lattice, points),
   * sizes with a scalar tail after the vector blocks of 4, both touch rules. */
  const size_t large[] = {1023, 1021, 770};
  for (unsigned shape = 1; shape <= 3; shape++)
    for (unsigned dims = 2; dims <= 3; dims++)
      for (size_t c = 0; c < sizeof large / sizeof large[0]; c++) {
        enc g = {.n = 0};
        put8(&g, (uint8_t)((dims == 3) | (c == 1) << 1));
        put8(&g, (uint8_t)(large[c] & 0xFF));
        put8(&g, (uint8_t)(0xF0 | shape << 2 | large[c] >> 8));
        char name[64];
        snprintf(name, sizeof name, "shape%u-%uD-n%zu", shape, dims, large[c]);
        save(&g, name);
      }
}
