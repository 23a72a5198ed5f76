/* A deliberately WRONG user broadphase, to show what the harness reports: a brute-force pair
 * search that treats boxes whose x ranges only touch (one's max x equal to the other's min x)
 * as apart, although the closed touch rule counts them as overlapping. Every other pair is
 * right, so only inputs with touching edges expose it. Try it:
 *
 *   make fuzz USER_KERNELS=examples/user-kernels/drops_touching.c FUZZ_TARGETS=broadphase
 *
 * `make test` runs exactly that and checks the report (make fuzz-failure-check); it is never
 * part of a passing run of your own kernels. */
#include <collide.h>

static col_aabb3 box(const col_boxes *s, size_t i) {
  const bool three = s->dims == 3;
  return (col_aabb3){{s->min[0][i], s->min[1][i], three ? s->min[2][i] : 0.0f},
                     {s->max[0][i], s->max[1][i], three ? s->max[2][i] : 0.0f}};
}

static bool overlap(const col_boxes *s, col_aabb3 a, col_aabb3 b, col_touch touch) {
  /* the bug: touching x ranges never pair */
  if (a.max.x == b.min.x || b.max.x == a.min.x) return false;
  if (s->dims == 3) return col_aabb3_overlap(a, b, touch);
  return col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                           (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
}

static col_status all_pairs(const col_boxes *s, col_touch touch, col_pairs *out,
                            col_broadphase_stats *stats, void *context) {
  (void)context;
  for (size_t i = 0; i < s->count; i++)
    for (size_t j = i + 1; j < s->count; j++) {
      stats->tests++;
      if (overlap(s, box(s, i), box(s, j), touch)) {
        const col_status st = col_pairs_push(out, (uint32_t)i, (uint32_t)j);
        if (st != COL_OK) return st;
      }
    }
  return COL_OK;
}

col_status col_user_register(void) {
  const col_user_broadphase wrong = {
      .version = COL_USER_VERSION,
      .name = "drops-touching",
      .pairs = all_pairs,
      .two_d = true,
      .three_d = true,
  };
  col_broadphase algorithm;
  return col_broadphase_register(&wrong, &algorithm);
}
