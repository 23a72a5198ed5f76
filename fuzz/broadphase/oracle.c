/* The broadphase target's oracle: sort on min x and the public single-pair rule (no library
 * broadphase involved). */
#include "oracle.h"

#include <stdlib.h>

/* The pair set by a method independent of the library's algorithms: sort the NaN-free boxes
 * on min x, then each box against the later ones while their min x reaches its max x (for an
 * overlapping pair the box sorted first always satisfies that, whatever the boxes' shapes),
 * each pair decided by the public single-pair rule. Returns the pairs tested: those whose x
 * ranges overlap, as a sweep on x tests them. */
typedef struct {
  float min_x;
  uint32_t index;
} entry;

FZ_ORACLE static int by_min_x(const void *p, const void *q) {
  const float a = ((const entry *)p)->min_x, b = ((const entry *)q)->min_x;
  if (a != b) return a < b ? -1 : 1;
  return ((const entry *)p)->index < ((const entry *)q)->index ? -1 : 1;
}

FZ_ORACLE static col_aabb3 box_at(const col_boxes *s, size_t i) {
  const bool three = s->dims == 3;
  return (col_aabb3){{s->min[0][i], s->min[1][i], three ? s->min[2][i] : 0.0f},
                     {s->max[0][i], s->max[1][i], three ? s->max[2][i] : 0.0f}};
}

FZ_ORACLE static bool rule(const col_boxes *s, col_aabb3 a, col_aabb3 b, col_touch touch) {
  if (s->dims == 3) return col_aabb3_overlap(a, b, touch);
  return col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                           (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
}

FZ_ORACLE size_t fb_oracle(const col_boxes *s, col_touch touch, col_pairs *out) {
  entry *e = fz_alloc(s->count * sizeof *e);
  size_t m = 0, tests = 0;
  for (size_t i = 0; i < s->count; i++)
    if (s->min[0][i] == s->min[0][i]) e[m++] = (entry){s->min[0][i], (uint32_t)i};
  qsort(e, m, sizeof *e, by_min_x);
  out->count = 0;
  for (size_t r = 0; r < m; r++) {
    const col_aabb3 a = box_at(s, e[r].index);
    for (size_t j = r + 1; j < m; j++) {
      if (touch == COL_TOUCH_SEPARATES ? !(e[j].min_x < a.max.x) : !(e[j].min_x <= a.max.x)) break;
      tests++;
      if (rule(s, a, box_at(s, e[j].index), touch) &&
          col_pairs_push(out, e[r].index, e[j].index) != COL_OK)
        abort();
    }
  }
  free(e);
  col_pairs_sort(out);
  return tests;
}
