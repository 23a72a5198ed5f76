/* A backend built from the reference source itself (the *_ref.h headers): instantiated by
 * scalar.c (built with -fno-tree-vectorize: the real scalar baseline) and by x86/autovec.c
 * (built with -O3 -march=x86-64-v3: what the compiler's auto-vectorizer makes of the same
 * source). The including file defines REF_TABLE, REF_NAME, REF_SUPPORTED and REF_KIND. */
#ifndef COLLIDE_REF_BACKEND_H
#define COLLIDE_REF_BACKEND_H

#include "aabb_ref.h"
#include "circle_ref.h"
#include "mask_ref.h"
#include "mtd_ref.h"
#include "slab_ref.h"
#include "sprite_ref.h"
#include "sweep_ref.h"

static size_t ref_aabb2_query(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                              uint32_t *indices) {
  return col__aabb2_query_ref(query, set, touch, indices);
}

static size_t ref_aabb2_query_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n,
                                  col_touch touch, uint32_t *indices) {
  return col__aabb2_query_aos_ref(query, boxes, n, touch, indices);
}

static size_t ref_aabb3_query(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                              uint32_t *indices) {
  return col__aabb3_query_ref(query, set, touch, indices);
}

static void ref_mtd_batch(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out) {
  col__mtd_batch_ref(n, a, b, out);
}

static col_window_hit ref_sprite_overlap(const col_sprite_window *w, uint8_t threshold,
                                         col_pixel_mode mode) {
  return col__sprite_window_ref(w, threshold, mode);
}

static col_window_hit ref_mask_overlap(const col_mask_window *w, col_pixel_mode mode) {
  return col_mask_window_ref(w, mode);
}

static void ref_circle_overlap_batch(size_t n, const col_circle_soa *a, const col_circle_soa *b,
                                     col_circle_test test, uint8_t *hit) {
  col__circle_overlap_batch_ref(n, a, b, test, hit);
}

static void ref_elastic_batch(size_t n, const col_ball_soa *a, const col_ball_soa *b,
                              col_elastic_rule rule) {
  col__elastic_batch_ref(n, a, b, rule);
}

static col_segment_hit ref_segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set) {
  return col__segment_spheres_ref(from, to, set);
}

static col_segment_hit ref_segment_spheres_robust(col_vec3 from, col_vec3 to,
                                                  const col_sphere_soa *set) {
  return col__segment_spheres_robust_ref(from, to, set);
}

static col_aabb2_hit ref_sweep_aabb2(col_aabb2 mover, col_vec2 move, const col_aabb2_soa *set,
                                     col_touch touch) {
  return col__sweep_aabb2_ref(mover, move, set, touch);
}

static col_aabb3_hit ref_sweep_aabb3(col_aabb3 mover, col_vec3 move, const col_aabb3_soa *set,
                                     col_touch touch) {
  return col__sweep_aabb3_ref(mover, move, set, touch);
}

static size_t ref_sap_run(const col_sap_view *v, size_t r, col_touch touch, uint32_t *out,
                          size_t *tested) {
  return col__sap_run_ref(v, r, touch, out, tested);
}

const col__backend REF_TABLE = {
    .name = REF_NAME,
    .width = 1,
    .kind = REF_KIND,
    .supported = REF_SUPPORTED,
    .kernels = COL_KERNEL_ALL,
    .k =
        {
            .aabb2_query = ref_aabb2_query,
            .aabb2_query_aos = ref_aabb2_query_aos,
            .aabb3_query = ref_aabb3_query,
            .aabb2_mtd_batch = ref_mtd_batch,
            .sprite_overlap = ref_sprite_overlap,
            .mask_overlap = ref_mask_overlap,
            .circle_overlap_batch = ref_circle_overlap_batch,
            .elastic_batch = ref_elastic_batch,
            .segment_spheres = ref_segment_spheres,
            .sap_run = ref_sap_run,
            .segment_spheres_robust = ref_segment_spheres_robust,
            .sweep_aabb2 = ref_sweep_aabb2,
            .sweep_aabb3 = ref_sweep_aabb3,
        },
};

#endif
