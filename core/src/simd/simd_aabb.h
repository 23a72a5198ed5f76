/* AABB query template (DESIGN.md 4.1), instantiated once per ISA: W boxes per step, the same
 * ordered compares as col_aabb2_overlap, the overlap mask turned into ascending indices.
 * `open` is a compile-time constant in each caller, so each touch rule gets its own loop. */
#ifndef COLLIDE_SIMD_AABB_H
#define COLLIDE_SIMD_AABB_H

COL_INLINE vm axis_test(vf q_min, vf q_max, vf b_min, vf b_max, bool open) {
  return open ? vm_and(vf_gt(q_max, b_min), vf_gt(b_max, q_min))
              : vm_and(vf_ge(q_max, b_min), vf_ge(b_max, q_min));
}

typedef struct query2 {
  vf min_x, min_y, max_x, max_y;
} query2;

COL_INLINE query2 broadcast2(col_aabb2 q) {
  return (query2){vf_set1(q.min.x), vf_set1(q.min.y), vf_set1(q.max.x), vf_set1(q.max.y)};
}

COL_INLINE vm mask2_of(const query2 *q, vf min_x, vf min_y, vf max_x, vf max_y, bool open) {
  return vm_and(axis_test(q->min_x, q->max_x, min_x, max_x, open),
                axis_test(q->min_y, q->max_y, min_y, max_y, open));
}

COL_INLINE uint32_t block2(const query2 *q, vf min_x, vf min_y, vf max_x, vf max_y, bool open) {
  return vm_bits(mask2_of(q, min_x, min_y, max_x, max_y, open));
}

/* Four blocks per step: one test of the OR of their masks skips the emission work when none
 * hits (hits are rare in a query). A branch-free left-pack of every block (AVX-512 compress,
 * or an AVX2 permute table) was measured slower on Zen 4 than the occasional mispredict. */
COL_INLINE vm mask2(const query2 *q, const col_aabb2_soa *set, size_t i, bool open) {
  return mask2_of(q, vf_loadu(set->min_x + i), vf_loadu(set->min_y + i), vf_loadu(set->max_x + i),
                  vf_loadu(set->max_y + i), open);
}

COL_INLINE size_t query2_soa(col_aabb2 query, const col_aabb2_soa *set, uint32_t *out, bool open) {
  const query2 q = broadcast2(query);
  const size_t n = set->count;
  size_t i = 0, found = 0;
  for (; i + 4 * COL_W <= n; i += 4 * COL_W) {
    const vm m0 = mask2(&q, set, i, open), m1 = mask2(&q, set, i + COL_W, open);
    const vm m2 = mask2(&q, set, i + 2 * COL_W, open), m3 = mask2(&q, set, i + 3 * COL_W, open);
    if (!vm_any(vm_or(vm_or(m0, m1), vm_or(m2, m3)))) continue;
    found += emit_indices(out + found, vm_bits(m0), (uint32_t)i);
    found += emit_indices(out + found, vm_bits(m1), (uint32_t)(i + COL_W));
    found += emit_indices(out + found, vm_bits(m2), (uint32_t)(i + 2 * COL_W));
    found += emit_indices(out + found, vm_bits(m3), (uint32_t)(i + 3 * COL_W));
  }
  for (; i + COL_W <= n; i += COL_W)
    found += emit_indices(out + found, vm_bits(mask2(&q, set, i, open)), (uint32_t)i);
  if (i < n) {
    float t[4][COL_W];
    pad_copy_f(t[0], set->min_x + i, n - i, NAN);
    pad_copy_f(t[1], set->min_y + i, n - i, NAN);
    pad_copy_f(t[2], set->max_x + i, n - i, NAN);
    pad_copy_f(t[3], set->max_y + i, n - i, NAN);
    const uint32_t bits =
        block2(&q, vf_loadu(t[0]), vf_loadu(t[1]), vf_loadu(t[2]), vf_loadu(t[3]), open);
    found += emit_indices(out + found, bits & COL_TAIL_BITS(n - i), (uint32_t)i);
  }
  return found;
}

static size_t simd_aabb2_query(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                               uint32_t *out) {
  return touch == COL_TOUCH_SEPARATES ? query2_soa(query, set, out, true)
                                      : query2_soa(query, set, out, false);
}

/* Array-of-structures input: the ISA transposes W boxes into four vectors. */
COL_INLINE size_t query2_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n, uint32_t *out,
                             bool open) {
  const query2 q = broadcast2(query);
  size_t i = 0, found = 0;
  vf min_x, min_y, max_x, max_y;
  for (; i + COL_W <= n; i += COL_W) {
    load_aabb2_aos(boxes + i, &min_x, &min_y, &max_x, &max_y);
    found += emit_indices(out + found, block2(&q, min_x, min_y, max_x, max_y, open), (uint32_t)i);
  }
  if (i < n) {
    col_aabb2 t[COL_W];
    for (size_t k = 0; k < COL_W; k++)
      t[k] = k < n - i ? boxes[i + k] : (col_aabb2){{NAN, NAN}, {NAN, NAN}};
    load_aabb2_aos(t, &min_x, &min_y, &max_x, &max_y);
    const uint32_t bits = block2(&q, min_x, min_y, max_x, max_y, open);
    found += emit_indices(out + found, bits & COL_TAIL_BITS(n - i), (uint32_t)i);
  }
  return found;
}

static size_t simd_aabb2_query_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n,
                                   col_touch touch, uint32_t *out) {
  return touch == COL_TOUCH_SEPARATES ? query2_aos(query, boxes, n, out, true)
                                      : query2_aos(query, boxes, n, out, false);
}

typedef struct query3 {
  vf min_x, min_y, min_z, max_x, max_y, max_z;
} query3;

COL_INLINE vm mask3(const query3 *q, const float *const src[6], size_t i, bool open) {
  return vm_and(
      vm_and(axis_test(q->min_x, q->max_x, vf_loadu(src[0] + i), vf_loadu(src[3] + i), open),
             axis_test(q->min_y, q->max_y, vf_loadu(src[1] + i), vf_loadu(src[4] + i), open)),
      axis_test(q->min_z, q->max_z, vf_loadu(src[2] + i), vf_loadu(src[5] + i), open));
}

COL_INLINE size_t query3_soa(col_aabb3 query, const col_aabb3_soa *set, uint32_t *out, bool open) {
  const query3 q = {vf_set1(query.min.x), vf_set1(query.min.y), vf_set1(query.min.z),
                    vf_set1(query.max.x), vf_set1(query.max.y), vf_set1(query.max.z)};
  const float *const src[6] = {set->min_x, set->min_y, set->min_z,
                               set->max_x, set->max_y, set->max_z};
  const size_t n = set->count;
  size_t i = 0, found = 0;
  for (; i + 2 * COL_W <= n; i += 2 * COL_W) {
    const vm m0 = mask3(&q, src, i, open), m1 = mask3(&q, src, i + COL_W, open);
    if (!vm_any(vm_or(m0, m1))) continue;
    found += emit_indices(out + found, vm_bits(m0), (uint32_t)i);
    found += emit_indices(out + found, vm_bits(m1), (uint32_t)(i + COL_W));
  }
  for (; i + COL_W <= n; i += COL_W)
    found += emit_indices(out + found, vm_bits(mask3(&q, src, i, open)), (uint32_t)i);
  if (i < n) {
    float t[6][COL_W];
    const float *const tail[6] = {t[0], t[1], t[2], t[3], t[4], t[5]};
    for (int k = 0; k < 6; k++) pad_copy_f(t[k], src[k] + i, n - i, NAN);
    found += emit_indices(out + found, vm_bits(mask3(&q, tail, 0, open)) & COL_TAIL_BITS(n - i),
                          (uint32_t)i);
  }
  return found;
}

static size_t simd_aabb3_query(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                               uint32_t *out) {
  return touch == COL_TOUCH_SEPARATES ? query3_soa(query, set, out, true)
                                      : query3_soa(query, set, out, false);
}

#endif
