/* The NEON backend (4 lanes), written with SIMDe's NEON API. Native on AArch64 only; on
 * other machines it is built with SIMDE_NO_NATIVE as "neon-emu" (SIMDe's portable C), which
 * runs everywhere. See simd/simd_common.h for the vocabulary.
 * SIMDe 0.7.4 has no vsqrtq_f32 (nor vdivq_f32): vf_sqrt takes sqrtf per lane, which is the
 * same correctly rounded IEEE operation. */
/* collide-isa: arch=arm lanes=4 rank=10 cpu=asimd emulated=yes flags= */
#include <simde/arm/neon.h>

#include "backend.h"

#include <math.h>

#define COL_W 4

typedef simde_float32x4_t vf;
typedef simde_uint32x4_t vm;
typedef simde_uint32x4_t vi;

static inline vf vf_loadu(const float *p) { return simde_vld1q_f32(p); }
static inline void vf_storeu(float *p, vf v) { simde_vst1q_f32(p, v); }
static inline vf vf_set1(float x) { return simde_vdupq_n_f32(x); }
static inline vf vf_add(vf a, vf b) { return simde_vaddq_f32(a, b); }
static inline vf vf_sub(vf a, vf b) { return simde_vsubq_f32(a, b); }
static inline vf vf_mul(vf a, vf b) { return simde_vmulq_f32(a, b); }
/* Per lane as well: SIMDe 0.7.4 has no vdivq_f32 (the same correctly rounded division). */
static inline vf vf_div(vf a, vf b) {
  float x[4], y[4];
  simde_vst1q_f32(x, a);
  simde_vst1q_f32(y, b);
  for (int k = 0; k < 4; k++) x[k] = x[k] / y[k];
  return simde_vld1q_f32(x);
}
static inline vf vf_sqrt(vf a) {
  float lane[4];
  simde_vst1q_f32(lane, a);
  for (int k = 0; k < 4; k++) lane[k] = sqrtf(lane[k]);
  return simde_vld1q_f32(lane);
}
static inline vm vf_lt(vf a, vf b) { return simde_vcltq_f32(a, b); }
static inline vm vf_le(vf a, vf b) { return simde_vcleq_f32(a, b); }
static inline vm vf_gt(vf a, vf b) { return simde_vcgtq_f32(a, b); }
static inline vm vf_ge(vf a, vf b) { return simde_vcgeq_f32(a, b); }
static inline vm vf_eq(vf a, vf b) { return simde_vceqq_f32(a, b); }
/* a > b ? a : b and a < b ? a : b as x86's maxps/minps give them, by compare and select: NEON's
 * vmaxq/vminq return NaN when either operand is NaN, and vmaxnm/vminnm the number. */
static inline vf vf_max(vf a, vf b) { return simde_vbslq_f32(simde_vcgtq_f32(a, b), a, b); }
static inline vf vf_min(vf a, vf b) { return simde_vbslq_f32(simde_vcltq_f32(a, b), a, b); }
static inline vm vm_and(vm a, vm b) { return simde_vandq_u32(a, b); }
static inline vm vm_or(vm a, vm b) { return simde_vorrq_u32(a, b); }
static inline vm vm_andnot(vm a, vm b) { return simde_vbicq_u32(a, b); }
static inline uint32_t vm_bits(vm m) {
  static const uint32_t weight[4] = {1, 2, 4, 8};
  return simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(weight)));
}
/* Native AArch64 only: whether any lane is set, the test the kernels' hot loops take on every
 * block. The template's vm_bits(m) != 0 compiles to and (the lane weights, kept in a register),
 * addv (an across-lanes add) and fmov before the branch; here xtn (each all-ones or all-zero
 * lane keeps its low 16 bits) packs the mask into 64 bits and fmov tests it as one scalar: one
 * instruction fewer, no reduction. neon-emu keeps the template's test, so this code is checked
 * only where it runs natively: make cross-test ARCH=arm64 (its seeded bug: make
 * cross-selftest). */
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#define COL_HAVE_VM_ANY 1
static inline bool vm_any(vm m) {
  return simde_vget_lane_u64(simde_vreinterpret_u64_u16(simde_vmovn_u32(m)), 0) != 0;
}
#endif
static inline vf vf_select(vm m, vf t, vf f) { return simde_vbslq_f32(m, t, f); }
static inline vi vi_loadu(const uint32_t *p) { return simde_vld1q_u32(p); }
static inline vi vi_set1(uint32_t x) { return simde_vdupq_n_u32(x); }
/* (t & need) == need per lane. */
static inline vm vi_has_all(vi t, vi need) {
  return simde_vceqq_u32(simde_vandq_u32(t, need), need);
}
static inline vm vi_alpha_gt(vi px, vi thr) {
  return simde_vcgtq_u32(simde_vshrq_n_u32(px, 24), thr);
}

/* vld4q de-interleaves four 4-float boxes straight into their components. */
static inline void load_aabb2_aos(const col_aabb2 *p, vf *min_x, vf *min_y, vf *max_x, vf *max_y) {
  const simde_float32x4x4_t v = simde_vld4q_f32((const float *)(const void *)p);
  *min_x = v.val[0], *min_y = v.val[1], *max_x = v.val[2], *max_y = v.val[3];
}

/* Mask words: two per vector. vshl shifts right for negative counts and gives 0 for counts
 * of 64; popcount is vcnt's byte counts widened pairwise to 64 bits. */
typedef simde_uint64x2_t vq;
static inline vq vq_loadu(const uint64_t *p) { return simde_vld1q_u64(p); }
static inline void vq_storeu(uint64_t *p, vq v) { simde_vst1q_u64(p, v); }
static inline vq vq_zero(void) { return simde_vdupq_n_u64(0); }
static inline vq vq_and(vq a, vq b) { return simde_vandq_u64(a, b); }
static inline vq vq_or(vq a, vq b) { return simde_vorrq_u64(a, b); }
static inline vq vq_add(vq a, vq b) { return simde_vaddq_u64(a, b); }
static inline vq vq_srl(vq v, unsigned n) {
  return simde_vshlq_u64(v, simde_vdupq_n_s64(-(int64_t)n));
}
static inline vq vq_sll(vq v, unsigned n) {
  return simde_vshlq_u64(v, simde_vdupq_n_s64((int64_t)n));
}
static inline bool vq_any(vq v) { return simde_vmaxvq_u32(simde_vreinterpretq_u32_u64(v)) != 0; }
static inline vq vq_popcnt(vq v) {
  const simde_uint8x16_t bytes = simde_vcntq_u8(simde_vreinterpretq_u8_u64(v));
  return simde_vpaddlq_u32(simde_vpaddlq_u16(simde_vpaddlq_u8(bytes)));
}

/* Two lanes: a row's tail is always one word, loaded alone into the low lane. */
#define COL_HAVE_LOADU_N 1
static inline vq vq_loadu_n(const uint64_t *p, size_t n) {
  (void)n;
  return simde_vcombine_u64(simde_vld1_u64(p), simde_vdup_n_u64(0));
}

#include "../simd/simd_kernels.h"
