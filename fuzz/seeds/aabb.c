/* The aabb target's seeds: the seeds' platform example, an empty set, a NaN query, and the
 * edge boxes (encode.c) at every length of `lengths`, also with every fourth box poisoned by a NaN.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdio.h>

/* One query (offset byte, the query box) and n boxes taken in turn from `boxes`. */
static void aabb_file(const char *name, size_t offset, const float q[6], size_t n,
                      const float (*boxes)[6], size_t nboxes, int nan_every) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)offset);
  for (int k = 0; k < 6; k++) putf(&e, q[k]);
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 6; k++) {
      const bool poison =
          nan_every && i % (size_t)nan_every == (size_t)nan_every - 1 && k == (int)(i % 6);
      putf(&e, poison ? NAN : boxes[i % nboxes][k]);
    }
  save(&e, name);
}

void seeds_write(void) {
  const float unit[6] = {0, 0, 1, 1, 0, 1};
  const float seed_q[6] = {0, 0, 64, 64, 0, 1};
  const float seed_box[1][6] = {{32, 32, 96, 96, 0, 1}};
  aabb_file("example-playing-with-platforms", 0, seed_q, 1, seed_box, 1, 0);
  aabb_file("empty", 3, unit, 0, edge_boxes, NEDGE, 0);
  const float nan_q[6] = {0, NAN, 1, 1, 0, 1};
  aabb_file("nan-query", 1, nan_q, 9, edge_boxes, NEDGE, 0);
  for (size_t l = 0; l < NLENGTHS; l++) {
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    aabb_file(name, lengths[l] % 16, unit, lengths[l], edge_boxes, NEDGE, 0);
    snprintf(name, sizeof name, "edges-nan-n%zu", lengths[l]);
    aabb_file(name, (lengths[l] + 5) % 16, unit, lengths[l], edge_boxes, NEDGE, 4);
  }
}
