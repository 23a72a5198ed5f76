/* A user backend as a game programmer would write one: box queries and the minimum
 * translation distance in plain C, no intrinsics, registered as "user:plain-c". Bring it into
 * every test, fuzzer and benchmark with
 *
 *   make test fuzz bench USER_KERNELS=examples/user-kernels/plain_c.c
 *
 * Its kernels must return exactly what collide's scalar reference returns (collide.h states
 * each contract): the fuzzers compare them bit for bit on every input. */
#include <collide.h>

/* Closed rule: boxes that share an edge overlap; open rule: they must cross. A NaN makes every
 * comparison false, so a box with a NaN never overlaps. */
static bool axis(float a_min, float a_max, float b_min, float b_max, col_touch touch) {
  if (touch == COL_TOUCH_SEPARATES) return a_max > b_min && b_max > a_min;
  return a_max >= b_min && b_max >= a_min;
}

static size_t query2(col_aabb2 q, const col_aabb2_soa *set, col_touch touch, uint32_t *out) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    const bool hit = axis(q.min.x, q.max.x, set->min_x[i], set->max_x[i], touch) &&
                     axis(q.min.y, q.max.y, set->min_y[i], set->max_y[i], touch);
    out[found] = (uint32_t)i; /* written always, kept only on a hit: no branch on the store */
    found += hit;
  }
  return found;
}

static size_t query3(col_aabb3 q, const col_aabb3_soa *set, col_touch touch, uint32_t *out) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    const bool hit = axis(q.min.x, q.max.x, set->min_x[i], set->max_x[i], touch) &&
                     axis(q.min.y, q.max.y, set->min_y[i], set->max_y[i], touch) &&
                     axis(q.min.z, q.max.z, set->min_z[i], set->max_z[i], touch);
    if (hit) out[found++] = (uint32_t)i;
  }
  return found;
}

/* The smallest of the four push distances (left, right, down, up; the first one wins a tie),
 * signed; no hit when any distance is negative or NaN, or when the boxes only touch. */
static col_mtd mtd(col_aabb2 a, col_aabb2 b) {
  const float d[4] = {a.max.x - b.min.x, b.max.x - a.min.x, a.max.y - b.min.y, b.max.y - a.min.y};
  const col_mtd none = {{0.0f, 0.0f}, false};
  int best = 0;
  for (int k = 0; k < 4; k++) {
    if (!(d[k] >= 0.0f)) return none;
    if (d[k] < d[best]) best = k;
  }
  if (!(d[best] > 0.0f)) return none;
  col_mtd r = {{0.0f, 0.0f}, true};
  const float push = best == 0 || best == 2 ? -d[best] : d[best];
  if (best < 2)
    r.d.x = push;
  else
    r.d.y = push;
  return r;
}

static void mtd_batch(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out) {
  for (size_t i = 0; i < n; i++) out[i] = mtd(a[i], b[i]);
}

col_status col_user_register(void) {
  const col_user_backend mine = {
      .version = COL_USER_VERSION,
      .name = "plain-c",
      .width = 1,
      .kernels = {.aabb2_query = query2, .aabb3_query = query3, .aabb2_mtd_batch = mtd_batch},
  };
  return col_backend_register(&mine);
}
