/* The inputs the kernel peers are compared on: the shared input sets of the classification (one
 * per family and kind, drawn with the digest's generators: tools/digest/digest.h) and the timing
 * sets of the benchmark rows. */
#ifndef COLLIDE_KP_INPUTS_H
#define COLLIDE_KP_INPUTS_H

#include "kpeers.h"

#include <stdint.h>
#include <stdio.h>

/* The shared input sets, per family:
 *   random  values of the digest's generator (quarter grid, a few ulps off, wide and huge,
 *           specials: +-0, +-inf, NaN, subnormals, FLT_MAX);
 *   grid    a tile grid: integer boxes that touch, segments between quarter-grid points, circles
 *           on integer centres with half-integer radii;
 *   edge    the edge cases: touching, k ulps apart, NaN, +-inf, inverted, zero size, start
 *           inside, start on a face moving away, zero-length and axis-parallel segments, short
 *           segments, near-tangent far away. */
typedef enum kp_set { KP_RANDOM, KP_GRID, KP_EDGE, KP_SETS } kp_set;
const char *kp_set_name(kp_set s);
/* How many inputs each set holds. */
uint32_t kp_set_size(kp_set s);

/* Input `index` of a set (made again alone from its family, set and index). */
kp_item kp_input(kp_family f, kp_set s, uint32_t index);
/* An input drawn from a fuzzer's bytes (the digest's byte reader): the set's generator, the
 * bytes deciding each choice; exhausted bytes read as 0. */
kp_item kp_input_bytes(kp_family f, kp_set s, const uint8_t *bytes, size_t n);

/* The timing set of a family's rows, n items (n + 1 allocated: prepare's room): one query
 * (a 100-wide box, a segment across the world) against n objects of a 1000-wide world, as
 * collide's own benchmark rows, or n pairs about half of which hit. Free with free(). */
kp_item *kp_timing_items(kp_family f, size_t n);

/* The item's values, in decimal and %a, one line each, indented by `indent`. */
void kp_print_item(FILE *out, kp_family f, const kp_item *it, const char *indent);

#endif
