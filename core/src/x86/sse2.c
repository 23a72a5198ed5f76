/* The SSE2 backend (4 lanes), written with SIMDe; SSE2 is the x86-64 baseline. Also built
 * with SIMDE_NO_NATIVE as "sse2-emu". See simd/simd_common.h for the vocabulary. */
#include <simde/x86/sse2.h>

#include "backend.h"

#define COL_W         4
#define COL_ISA       sse2
#define COL_ISA_NAME  "sse2"
#define COL_CPU_CHECK col__cpu_has_sse2

typedef simde__m128 vf;
typedef simde__m128 vm;
typedef simde__m128i vi;

static inline vf vf_loadu(const float *p) { return simde_mm_loadu_ps(p); }
static inline void vf_storeu(float *p, vf v) { simde_mm_storeu_ps(p, v); }
static inline vf vf_set1(float x) { return simde_mm_set1_ps(x); }
static inline vf vf_add(vf a, vf b) { return simde_mm_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return simde_mm_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return simde_mm_mul_ps(a, b); }
static inline vf vf_sqrt(vf a) { return simde_mm_sqrt_ps(a); }
static inline vm vf_lt(vf a, vf b) { return simde_mm_cmplt_ps(a, b); }
static inline vm vf_le(vf a, vf b) { return simde_mm_cmple_ps(a, b); }
static inline vm vf_gt(vf a, vf b) { return simde_mm_cmpgt_ps(a, b); }
static inline vm vf_ge(vf a, vf b) { return simde_mm_cmpge_ps(a, b); }
static inline vm vf_eq(vf a, vf b) { return simde_mm_cmpeq_ps(a, b); }
static inline vm vm_and(vm a, vm b) { return simde_mm_and_ps(a, b); }
static inline vm vm_or(vm a, vm b) { return simde_mm_or_ps(a, b); }
static inline vm vm_andnot(vm a, vm b) { return simde_mm_andnot_ps(b, a); }
static inline uint32_t vm_bits(vm m) { return (uint32_t)simde_mm_movemask_ps(m); }
static inline vf vf_select(vm m, vf t, vf f) {
  return simde_mm_or_ps(simde_mm_and_ps(m, t), simde_mm_andnot_ps(m, f));
}
static inline vi vi_loadu(const uint32_t *p) { return simde_mm_loadu_si128((const void *)p); }
static inline vi vi_set1(uint32_t x) { return simde_mm_set1_epi32((int32_t)x); }
/* Alphas and thresholds are 0..255, so the signed compare is exact. */
static inline vm vi_alpha_gt(vi px, vi thr) {
  return simde_mm_castsi128_ps(simde_mm_cmpgt_epi32(simde_mm_srli_epi32(px, 24), thr));
}

/* Four boxes (min_x, min_y, max_x, max_y each) to four vectors: a 4x4 transpose. */
static inline void load_aabb2_aos(const col_aabb2 *p, vf *min_x, vf *min_y, vf *max_x, vf *max_y) {
  const float *f = (const float *)(const void *)p; /* 4 floats per box, no padding */
  const vf r0 = simde_mm_loadu_ps(f), r1 = simde_mm_loadu_ps(f + 4);
  const vf r2 = simde_mm_loadu_ps(f + 8), r3 = simde_mm_loadu_ps(f + 12);
  const vf lo01 = simde_mm_unpacklo_ps(r0, r1), lo23 = simde_mm_unpacklo_ps(r2, r3);
  const vf hi01 = simde_mm_unpackhi_ps(r0, r1), hi23 = simde_mm_unpackhi_ps(r2, r3);
  *min_x = simde_mm_movelh_ps(lo01, lo23);
  *min_y = simde_mm_movehl_ps(lo23, lo01);
  *max_x = simde_mm_movelh_ps(hi01, hi23);
  *max_y = simde_mm_movehl_ps(hi23, hi01);
}

#include "../simd/simd_kernels.h"
