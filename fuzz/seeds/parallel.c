/* The parallel target's seeds: sets of 256 boxes and more (where the parallel call starts its
 * tasks) of each shape, 2D and 3D, both touch rules, decoded or generated; a lattice whose
 * boxes lie over several cells at once. Written by `make seeds` (fuzz/make_seeds.c runs
 * seeds_write). */
#include "encode.h"

#include <stdio.h>

void seeds_write(void) {
  /* Generated sets of each shape (the second n byte's bits 2-3: as generated, flat, lattice,
   * points), sizes with a scalar tail after the vector blocks of 4. */
  const size_t counts[] = {1023, 1021, 770, 300};
  for (unsigned shape = 0; shape <= 3; shape++)
    for (unsigned dims = 2; dims <= 3; dims++)
      for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        enc g = {.n = 0};
        put8(&g, (uint8_t)((dims == 3) | (c == 1) << 1 | (uint8_t)(c << 2)));
        put8(&g, (uint8_t)(counts[c] & 0xFF));
        put8(&g, (uint8_t)(shape << 2 | counts[c] >> 8));
        char name[64];
        snprintf(name, sizeof name, "shape%u-%uD-n%zu", shape, dims, counts[c]);
        save(&g, name);
      }
  /* A 10 x 10 x 10 lattice of unit boxes touching their neighbours, every eighth grown by a
   * quarter: many boxes over four cells at once. */
  enc l = {.n = 0};
  put8(&l, 1), put8(&l, 1000 & 0xFF), put8(&l, 1000 >> 8);
  put_lattice_boxes(&l);
  save(&l, "lattice-3D-n1000");
  /* The edge boxes among a generated set of 400. */
  for (unsigned dims = 2; dims <= 3; dims++) {
    enc e = {.n = 0};
    put8(&e, dims == 3), put8(&e, 400 & 0xFF), put8(&e, 400 >> 8);
    for (size_t i = 0; i < 40; i++)
      for (unsigned k = 0; k < 2 * dims; k++) putf(&e, edge_boxes[(i * 5) % NEDGE][k]);
    char name[64];
    snprintf(name, sizeof name, "edges-%uD-n400", dims);
    save(&e, name);
  }
}
