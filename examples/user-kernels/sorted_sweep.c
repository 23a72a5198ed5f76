/* A user broadphase: sort the boxes on min x, then sweep, testing each box against those that
 * start before it ends; registered as "user:sorted-sweep" for 2D and 3D sets. Bring it in with
 *
 *   make test fuzz bench USER_KERNELS=examples/user-kernels/sorted_sweep.c
 *
 * It must find exactly brute force's pairs for every input (NaN, inverted, infinite boxes,
 * both touch rules): the broadphase fuzzer checks the pair set on every input. */
#include <collide.h>

#include <stdlib.h>

typedef struct {
  float min_x;
  uint32_t index;
} entry;

static int by_min_x(const void *p, const void *q) {
  const float a = ((const entry *)p)->min_x, b = ((const entry *)q)->min_x;
  return (a > b) - (a < b);
}

static col_aabb3 box(const col_boxes *s, size_t i) {
  const bool three = s->dims == 3;
  return (col_aabb3){{s->min[0][i], s->min[1][i], three ? s->min[2][i] : 0.0f},
                     {s->max[0][i], s->max[1][i], three ? s->max[2][i] : 0.0f}};
}

static bool overlap(const col_boxes *s, col_aabb3 a, col_aabb3 b, col_touch touch) {
  if (s->dims == 3) return col_aabb3_overlap(a, b, touch);
  return col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                           (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
}

static col_status sweep(const col_boxes *s, col_touch touch, col_pairs *out,
                        col_broadphase_stats *stats, void *context) {
  (void)context;
  entry *order = malloc(s->count * sizeof *order);
  if (order == NULL) return COL_ERR_MEMORY;
  size_t n = 0;
  for (size_t i = 0; i < s->count; i++)
    if (s->min[0][i] == s->min[0][i]) order[n++] = (entry){s->min[0][i], (uint32_t)i};
  /* A NaN min x never pairs (every comparison with it is false): left out of the sort. */
  qsort(order, n, sizeof *order, by_min_x);
  col_status st = COL_OK;
  for (size_t r = 0; r < n && st == COL_OK; r++) {
    const col_aabb3 a = box(s, order[r].index);
    /* Any box b after r in this order overlaps a only if min x(b) reaches max x(a). */
    for (size_t j = r + 1; j < n && st == COL_OK; j++) {
      if (touch == COL_TOUCH_SEPARATES ? !(order[j].min_x < a.max.x) : !(order[j].min_x <= a.max.x))
        break;
      stats->tests++;
      if (overlap(s, a, box(s, order[j].index), touch))
        st = col_pairs_push(out, order[r].index, order[j].index);
    }
  }
  stats->scratch_bytes = s->count * sizeof *order;
  free(order);
  return st;
}

col_status col_user_register(void) {
  const col_user_broadphase mine = {
      .version = COL_USER_VERSION,
      .name = "sorted-sweep",
      .pairs = sweep,
      .two_d = true,
      .three_d = true,
  };
  col_broadphase algorithm;
  return col_broadphase_register(&mine, &algorithm);
}
