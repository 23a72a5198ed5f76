/* The SSE2 backend (4 lanes), written with SIMDe; SSE2 is the x86-64 baseline. Also built
 * with SIMDE_NO_NATIVE as "sse2-emu". See simd/simd_common.h for the vocabulary. */
/* collide-isa: arch=x86 lanes=4 rank=20 cpu=sse2 emulated=yes flags=-msse2 */
#include <simde/x86/sse2.h>

#include "backend.h"

#define COL_W 4

typedef simde__m128 vf;
typedef simde__m128 vm;
typedef simde__m128i vi;

static inline vf vf_loadu(const float *p) { return simde_mm_loadu_ps(p); }
static inline void vf_storeu(float *p, vf v) { simde_mm_storeu_ps(p, v); }
static inline vf vf_set1(float x) { return simde_mm_set1_ps(x); }
static inline vf vf_add(vf a, vf b) { return simde_mm_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return simde_mm_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return simde_mm_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return simde_mm_div_ps(a, b); }
static inline vf vf_sqrt(vf a) { return simde_mm_sqrt_ps(a); }
/* a > b ? a : b and a < b ? a : b: maxps/minps exactly (the second operand on NaN and on
 * equal zeros); the operand order is part of the contract (simd/simd_common.h). */
static inline vf vf_max(vf a, vf b) { return simde_mm_max_ps(a, b); }
static inline vf vf_min(vf a, vf b) { return simde_mm_min_ps(a, b); }
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
/* (t & need) == need per lane. */
static inline vm vi_has_all(vi t, vi need) {
  return simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(simde_mm_and_si128(t, need), need));
}
/* Alphas and thresholds are 0..255, so the signed compare is exact. */
static inline vm vi_alpha_gt(vi px, vi thr) {
  return simde_mm_castsi128_ps(simde_mm_cmpgt_epi32(simde_mm_srli_epi32(px, 24), thr));
}

/* Four 4-float records to four vectors of one field each: a 4x4 transpose. */
static inline void transpose4(vf r0, vf r1, vf r2, vf r3, vf *c0, vf *c1, vf *c2, vf *c3) {
  const vf lo01 = simde_mm_unpacklo_ps(r0, r1), lo23 = simde_mm_unpacklo_ps(r2, r3);
  const vf hi01 = simde_mm_unpackhi_ps(r0, r1), hi23 = simde_mm_unpackhi_ps(r2, r3);
  *c0 = simde_mm_movelh_ps(lo01, lo23);
  *c1 = simde_mm_movehl_ps(lo23, lo01);
  *c2 = simde_mm_movelh_ps(hi01, hi23);
  *c3 = simde_mm_movehl_ps(hi23, hi01);
}

/* Four boxes (min_x, min_y, max_x, max_y each) to four vectors. */
static inline void load_aabb2_aos(const col_aabb2 *p, vf *min_x, vf *min_y, vf *max_x, vf *max_y) {
  const float *f = (const float *)(const void *)p; /* 4 floats per box, no padding */
  transpose4(simde_mm_loadu_ps(f), simde_mm_loadu_ps(f + 4), simde_mm_loadu_ps(f + 8),
             simde_mm_loadu_ps(f + 12), min_x, min_y, max_x, max_y);
}

/* Four sweep-and-prune places (box index | tag << 32) to eight vectors: words 0-3 of each
 * place's record (a 4x4 transpose), in 3D words 4-5 too (another), then the indices and the
 * tags (the even and odd words of the places; the other way round on a big-endian machine). */
#define COL_HAVE_LOAD_SAP_RECS 1
static inline void load_sap_recs(const col__sap_rec *rec, const uint64_t *slot, unsigned dims,
                                 vf c[8]) {
  const float *f[4];
  for (int k = 0; k < 4; k++) f[k] = rec[(uint32_t)slot[k] * COL__SAP_UNITS(dims)].v;
  transpose4(simde_mm_loadu_ps(f[0]), simde_mm_loadu_ps(f[1]), simde_mm_loadu_ps(f[2]),
             simde_mm_loadu_ps(f[3]), &c[0], &c[1], &c[2], &c[3]);
  if (dims == 3) {
    vf unused[2];
    transpose4(simde_mm_loadu_ps(f[0] + 4), simde_mm_loadu_ps(f[1] + 4),
               simde_mm_loadu_ps(f[2] + 4), simde_mm_loadu_ps(f[3] + 4), &c[4], &c[5], &unused[0],
               &unused[1]);
  }
  const float *s = (const float *)(const void *)slot;
  const vf s01 = simde_mm_loadu_ps(s), s23 = simde_mm_loadu_ps(s + 4);
  c[6 + COL_BIG_ENDIAN] = simde_mm_shuffle_ps(s01, s23, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
  c[7 - COL_BIG_ENDIAN] = simde_mm_shuffle_ps(s01, s23, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
}

/* Mask words: two per vector. Popcount per lane: bit-parallel byte counts in the manner of
 * Hacker's Delight (Warren, 2nd ed., 5-1), then psadbw sums each lane's eight bytes. */
typedef simde__m128i vq;
static inline vq vq_loadu(const uint64_t *p) { return simde_mm_loadu_si128((const void *)p); }
static inline void vq_storeu(uint64_t *p, vq v) { simde_mm_storeu_si128((void *)p, v); }
static inline vq vq_zero(void) { return simde_mm_setzero_si128(); }
static inline vq vq_and(vq a, vq b) { return simde_mm_and_si128(a, b); }
static inline vq vq_or(vq a, vq b) { return simde_mm_or_si128(a, b); }
static inline vq vq_add(vq a, vq b) { return simde_mm_add_epi64(a, b); }
static inline vq vq_srl(vq v, unsigned n) {
  return simde_mm_srl_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline vq vq_sll(vq v, unsigned n) {
  return simde_mm_sll_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline bool vq_any(vq v) {
  return simde_mm_movemask_epi8(simde_mm_cmpeq_epi8(v, simde_mm_setzero_si128())) != 0xFFFF;
}
static inline vq vq_popcnt(vq x) {
  const vq m1 = simde_mm_set1_epi8(0x55), m2 = simde_mm_set1_epi8(0x33);
  const vq m4 = simde_mm_set1_epi8(0x0F);
  /* Nibble counts from the four 1-bit fields of each nibble: every byte stays below 128,
   * because SIMDe's portable code adds on signed bytes (the textbook x - ((x >> 1) & m1)
   * step overflows them: undefined behaviour that UBSan reports). */
  const vq even = simde_mm_and_si128(x, m1),
           odd = simde_mm_and_si128(simde_mm_srli_epi64(x, 1), m1);
  x = simde_mm_add_epi8(simde_mm_add_epi8(simde_mm_and_si128(even, m2),
                                          simde_mm_and_si128(simde_mm_srli_epi64(even, 2), m2)),
                        simde_mm_add_epi8(simde_mm_and_si128(odd, m2),
                                          simde_mm_and_si128(simde_mm_srli_epi64(odd, 2), m2)));
  x = simde_mm_add_epi8(simde_mm_and_si128(x, m4),
                        simde_mm_and_si128(simde_mm_srli_epi64(x, 4), m4));
  return simde_mm_sad_epu8(x, simde_mm_setzero_si128());
}

/* Two lanes: a row's tail is always one word, which movq loads alone. */
#define COL_HAVE_LOADU_N 1
static inline vq vq_loadu_n(const uint64_t *p, size_t n) {
  (void)n;
  return simde_mm_loadl_epi64((const void *)p);
}

#include "../simd/simd_kernels.h"
