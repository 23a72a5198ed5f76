/* The digest's box kernels: overlap of two boxes, the queries of a box against a set (2D SoA,
 * 2D AoS, 3D), the minimum translation distance single and batched. */
#include "digest.h"

#include <stdlib.h>

/* One box on `dims` axes into min[]/max[]: an edge and an extent on each axis, or (one box
 * in 16) two independent edges, which may leave it inverted. */
static void draw_box(dg_ctx *c, unsigned dims, float *min, float *max) {
  const bool loose = dg_chance(c, 16);
  for (unsigned a = 0; a < dims; a++) {
    min[a] = dg_coord(c, 6);
    max[a] = loose ? dg_coord(c, 6) : min[a] + dg_size(c, 6);
  }
}

/* How many boxes a set of an input holds: mostly a few, sometimes a few hundred (so that every
 * vector width and tail is met). */
static size_t draw_count(dg_ctx *c) {
  const uint32_t k = dg_below(c, 8);
  return k < 5 ? dg_below(c, 20) : k < 7 ? dg_below(c, 80) : dg_below(c, 400);
}

static col_touch draw_touch(dg_ctx *c) {
  return dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
}

static void overlap(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const unsigned dims = (unsigned)k->arg;
  float a[6], b[6];
  draw_box(c, dims, a, a + 3);
  draw_box(c, dims, b, b + 3);
  dg_in_floats(c, "a (min, max)", a, 6);
  dg_in_floats(c, "b (min, max)", b, 6);
  bool hit[2];
  for (int t = 0; t < 2; t++) {
    if (dims == 2) {
      const col_aabb2 p = {{a[0], a[1]}, {a[3], a[4]}}, q = {{b[0], b[1]}, {b[3], b[4]}};
      hit[t] = col_aabb2_overlap(p, q, (col_touch)t);
    } else {
      const col_aabb3 p = {{a[0], a[1], a[2]}, {a[3], a[4], a[5]}};
      const col_aabb3 q = {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
      hit[t] = col_aabb3_overlap(p, q, (col_touch)t);
    }
  }
  dg_out_bool(c, "closed rule", hit[0]);
  dg_out_bool(c, "open rule", hit[1]);
}

/* A query box and a set of n boxes, SoA (min x, min y, [min z,] max x, ...). */
static void query(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const int form = k->arg; /* 2: SoA 2D, 3: SoA 3D, 4: AoS 2D */
  const unsigned dims = form == 3 ? 3 : 2;
  const size_t n = draw_count(c);
  float q[6] = {0}, *v[6];
  for (unsigned a = 0; a < 2 * dims; a++) v[a] = dg_alloc(n * sizeof(float));
  draw_box(c, dims, q, q + 3);
  for (size_t i = 0; i < n; i++) {
    float mn[3], mx[3];
    draw_box(c, dims, mn, mx);
    /* One box in eight shares an edge with the query: touching is where the rules differ. */
    if (dg_chance(c, 32)) mn[0] = q[3];
    for (unsigned a = 0; a < dims; a++) v[a][i] = mn[a], v[dims + a][i] = mx[a];
  }
  const col_touch touch = draw_touch(c);
  dg_in_floats(c, "query (min, max)", q, 6);
  dg_in_int(c, "touch", touch);
  static const char *names[6] = {"min x", "min y", "min z", "max x", "max y", "max z"};
  for (unsigned a = 0; a < 2 * dims; a++)
    dg_in_floats(c, names[a % dims + 3 * (a / dims)], v[a], n);
  uint32_t *idx = dg_alloc(n * sizeof *idx);
  size_t count = 0;
  col_status s;
  if (form == 3) {
    const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
    s = col_aabb3_query((col_aabb3){{q[0], q[1], q[2]}, {q[3], q[4], q[5]}}, &set, touch, idx,
                        &count);
  } else if (form == 2) {
    const col_aabb2_soa set = {v[0], v[1], v[2], v[3], n};
    s = col_aabb2_query((col_aabb2){{q[0], q[1]}, {q[3], q[4]}}, &set, touch, idx, &count);
  } else {
    col_aabb2 *boxes = dg_alloc(n * sizeof *boxes);
    for (size_t i = 0; i < n; i++) boxes[i] = (col_aabb2){{v[0][i], v[1][i]}, {v[2][i], v[3][i]}};
    s = col_aabb2_query_aos((col_aabb2){{q[0], q[1]}, {q[3], q[4]}}, boxes, n, touch, idx, &count);
    free(boxes);
  }
  dg_out_status(c, "status", s);
  dg_out_u32s(c, "indices", idx, s == COL_OK ? count : 0);
  free(idx);
  for (unsigned a = 0; a < 2 * dims; a++) free(v[a]);
}

static col_aabb2 draw_box2(dg_ctx *c) {
  float mn[2], mx[2];
  draw_box(c, 2, mn, mx);
  return (col_aabb2){{mn[0], mn[1]}, {mx[0], mx[1]}};
}

static void out_mtd(dg_ctx *c, const char *name, col_mtd m) {
  const float d[2] = {m.d.x, m.d.y};
  dg_out_floats(c, name, d, 2);
  dg_out_bool(c, "hit", m.hit);
}

static void mtd(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const col_aabb2 a = draw_box2(c), b = draw_box2(c);
  dg_in_floats(c, "a", &a.min.x, 4);
  dg_in_floats(c, "b", &b.min.x, 4);
  out_mtd(c, "d", col_aabb2_mtd(a, b));
}

static void mtd_batch(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const size_t n = draw_count(c) / 2;
  col_aabb2 *a = dg_alloc(n * sizeof *a), *b = dg_alloc(n * sizeof *b);
  col_mtd *out = dg_alloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) a[i] = draw_box2(c), b[i] = draw_box2(c);
  dg_in_floats(c, "a", (const float *)a, 4 * n);
  dg_in_floats(c, "b", (const float *)b, 4 * n);
  const col_status s = col_aabb2_mtd_batch(n, a, b, out);
  dg_out_status(c, "status", s);
  for (size_t i = 0; i < n && s == COL_OK; i++) out_mtd(c, "d", out[i]);
  free(a), free(b), free(out);
}

size_t dg_boxes_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"aabb2_overlap", 4096, 0, 2, overlap, NULL},
      {"aabb3_overlap", 4096, 0, 3, overlap, NULL},
      {"aabb2_query", 512, COL_KERNEL_AABB2_QUERY, 2, query, NULL},
      {"aabb2_query_aos", 512, COL_KERNEL_AABB2_QUERY_AOS, 4, query, NULL},
      {"aabb3_query", 512, COL_KERNEL_AABB3_QUERY, 3, query, NULL},
      {"aabb2_mtd", 4096, 0, 0, mtd, NULL},
      {"aabb2_mtd_batch", 512, COL_KERNEL_AABB2_MTD, 0, mtd_batch, NULL},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
