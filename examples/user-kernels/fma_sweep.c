/* A user backend that is right or wrong depending only on how it is compiled: one segment
 * against N spheres, both variants (the seed's recipe and the robust one), written with exactly
 * the reference's steps (DESIGN.md 4.4; core/src/segment.c and core/src/sweep_ref.h) in plain
 * C, registered as "user:fma-sweep".
 *
 *   make fuzz USER_KERNELS=examples/user-kernels/fma_sweep.c FUZZ_TARGETS=sweep
 *       agrees with the reference bit for bit (the harness compiles user files with
 *       -ffp-contract=off, like collide itself);
 *   make fuzz USER_KERNELS=examples/user-kernels/fma_sweep.c FUZZ_TARGETS=sweep \
 *             USER_CFLAGS='-mfma -ffp-contract=fast'
 *       lets the compiler contract the dot products, s*s + r2 and d - s*dir into fused
 *       multiply-adds: t moves by an ulp now and then, and near tangency the hit itself
 *       changes. The sweep fuzzer finds it (docs/fuzzing-targets.md, `sweep`). */
#include <collide.h>

#include <math.h>

/* The segment's own terms, once per call (the reference's col__segment_prepare). */
typedef struct segment {
  col_vec3 from, dir;
  float len;
  bool finite;
} segment;

static segment prepare(col_vec3 from, col_vec3 to) {
  segment g = {from, {0.0f, 0.0f, 0.0f}, 0.0f, false};
  g.finite = isfinite(from.x) && isfinite(from.y) && isfinite(from.z) && isfinite(to.x) &&
             isfinite(to.y) && isfinite(to.z);
  const col_vec3 v = {to.x - from.x, to.y - from.y, to.z - from.z};
  g.len = sqrtf((v.x * v.x + v.y * v.y) + v.z * v.z);
  if (g.len != 0.0f) g.dir = (col_vec3){v.x / g.len, v.y / g.len, v.z / g.len};
  return g;
}

/* Steps 1-6 for one sphere: hit and t (a miss is {false, +0}). */
static col_hit one(const segment *g, float cx, float cy, float cz, float r, bool robust) {
  const col_hit miss = {false, 0.0f};
  if (!g->finite || !isfinite(cx) || !isfinite(cy) || !isfinite(cz) || !isfinite(r) || r < 0.0f)
    return miss;
  const col_vec3 d = {cx - g->from.x, cy - g->from.y, cz - g->from.z};
  const float d2 = (d.x * d.x + d.y * d.y) + d.z * d.z;
  const float r2 = r * r;
  if (d2 < r2) return (col_hit){true, 0.0f};
  if (g->len == 0.0f) return miss;
  const float s = (g->dir.x * d.x + g->dir.y * d.y) + g->dir.z * d.z;
  if (s < 0.0f) return miss;
  float q;
  if (robust) {
    const col_vec3 e = {d.x - s * g->dir.x, d.y - s * g->dir.y, d.z - s * g->dir.z};
    q = r2 - ((e.x * e.x + e.y * e.y) + e.z * e.z);
  } else {
    q = (r2 + s * s) - d2;
  }
  if (q < 0.0f) return miss;
  float t = s - sqrtf(q);
  if (robust && t < 0.0f) t = 0.0f; /* not fmaxf: a NaN t stays NaN and misses below */
  if (!(t <= g->len)) return miss;
  return (col_hit){true, t == 0.0f ? 0.0f : t};
}

/* The earliest hit, ties to the lowest index. */
static col_segment_hit spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set, bool robust) {
  const segment g = prepare(from, to);
  col_segment_hit best = {false, 0.0f, COL_INDEX_NONE};
  for (size_t i = 0; i < set->count; i++) {
    const col_hit h =
        one(&g, set->center_x[i], set->center_y[i], set->center_z[i], set->radius[i], robust);
    if (h.hit && (!best.hit || h.t < best.t)) best = (col_segment_hit){true, h.t, (uint32_t)i};
  }
  return best;
}

static col_segment_hit recipe(col_vec3 from, col_vec3 to, const col_sphere_soa *set) {
  return spheres(from, to, set, false);
}

static col_segment_hit robust(col_vec3 from, col_vec3 to, const col_sphere_soa *set) {
  return spheres(from, to, set, true);
}

col_status col_user_register(void) {
  const col_user_backend mine = {
      .version = COL_USER_VERSION,
      .name = "fma-sweep",
      .width = 1,
      .kernels = {.segment_spheres = recipe, .segment_spheres_robust = robust},
  };
  return col_backend_register(&mine);
}
