/* A deliberately WRONG user backend, to show what the harness reports: its 2D box query
 * treats one side of the closed touch rule as open ('>' where the rule says '>='), so a box
 * whose left edge lies exactly on the query's right edge is missed. The fuzz self-test
 * (make fuzz-selftest) builds the fuzzers with this file and must find the disagreement:
 *
 *   make fuzz USER_KERNELS=examples/user-kernels/wrong_touch.c FUZZ_TARGETS=aabb
 *
 * It is never part of a passing `make test`. */
#include <collide.h>

static size_t query2(col_aabb2 q, const col_aabb2_soa *set, col_touch touch, uint32_t *out) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    bool hit;
    if (touch == COL_TOUCH_SEPARATES)
      hit = q.max.x > set->min_x[i] && set->max_x[i] > q.min.x && q.max.y > set->min_y[i] &&
            set->max_y[i] > q.min.y;
    else /* the bug: q.max.x > min x instead of >= */
      hit = q.max.x > set->min_x[i] && set->max_x[i] >= q.min.x && q.max.y >= set->min_y[i] &&
            set->max_y[i] >= q.min.y;
    if (hit) out[found++] = (uint32_t)i;
  }
  return found;
}

col_status col_user_register(void) {
  const col_user_backend wrong = {
      .version = COL_USER_VERSION,
      .name = "wrong-touch",
      .width = 1,
      .kernels = {.aabb2_query = query2},
  };
  return col_backend_register(&wrong);
}
