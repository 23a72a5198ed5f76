/* The AVX-512 backend (16 lanes), written with SIMDe; built with -mavx512f only. Masks are
 * native __mmask16 registers. Matching indices are written by the generic bit loop: compress
 * instructions were measured slow on AMD Zen 4 (the store form is microcoded), and hits are
 * rare in a query. Also
 * built with SIMDE_NO_NATIVE as "avx512-emu". See simd/simd_common.h for the vocabulary. */
/* collide-isa: arch=x86 lanes=16 rank=40 cpu=avx512f emulated=yes flags=-mavx512f */
#include <simde/x86/avx512.h>

#include "backend.h"

#define COL_W 16

typedef simde__m512 vf;
typedef simde__mmask16 vm;
typedef simde__m512i vi;

static inline vf vf_loadu(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void vf_storeu(float *p, vf v) { simde_mm512_storeu_ps(p, v); }
static inline vf vf_set1(float x) { return simde_mm512_set1_ps(x); }
static inline vf vf_add(vf a, vf b) { return simde_mm512_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return simde_mm512_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return simde_mm512_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return simde_mm512_div_ps(a, b); }
static inline vf vf_sqrt(vf a) { return simde_mm512_sqrt_ps(a); }
/* a > b ? a : b and a < b ? a : b: vmaxps/vminps exactly (the second operand on NaN and on
 * equal zeros); the operand order is part of the contract (simd/simd_common.h). */
static inline vf vf_max(vf a, vf b) { return simde_mm512_max_ps(a, b); }
static inline vf vf_min(vf a, vf b) { return simde_mm512_min_ps(a, b); }
static inline vm vf_lt(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline vm vf_le(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline vm vf_gt(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline vm vf_ge(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline vm vf_eq(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline vm vm_and(vm a, vm b) { return (vm)(a & b); }
static inline vm vm_or(vm a, vm b) { return (vm)(a | b); }
static inline vm vm_andnot(vm a, vm b) { return (vm)(a & (vm)~b); }
static inline uint32_t vm_bits(vm m) { return (uint32_t)m; }
static inline vf vf_select(vm m, vf t, vf f) { return simde_mm512_mask_blend_ps(m, f, t); }
static inline vi vi_loadu(const uint32_t *p) { return simde_mm512_loadu_si512((const void *)p); }
static inline vi vi_set1(uint32_t x) { return simde_mm512_set1_epi32((int32_t)x); }
/* (t & need) == need per lane. */
static inline vm vi_has_all(vi t, vi need) {
  return simde_mm512_cmpeq_epi32_mask(simde_mm512_and_si512(t, need), need);
}
/* Alphas and thresholds are 0..255, so the signed compare is exact. */
static inline vm vi_alpha_gt(vi px, vi thr) {
  return simde_mm512_cmpgt_epi32_mask(simde_mm512_srli_epi32(px, 24), thr);
}

/* Four registers of four 4-float records each (records 4k .. 4k + 3 in register k) to four
 * vectors of one field each, in record order: the in-lane 4x4 transpose gathers field c of
 * records (j, 4+j, 8+j, 12+j) in 128-bit lane j, and one permute per field puts record i in
 * lane i. */
static inline void transpose4x4(vf r0, vf r1, vf r2, vf r3, vf *c0, vf *c1, vf *c2, vf *c3) {
  const vf lo01 = simde_mm512_unpacklo_ps(r0, r1), lo23 = simde_mm512_unpacklo_ps(r2, r3);
  const vf hi01 = simde_mm512_unpackhi_ps(r0, r1), hi23 = simde_mm512_unpackhi_ps(r2, r3);
  /* lane i of the result is element 4 * (i % 4) + i / 4 of the transposed register (a table
   * load: SIMDe's setr_epi32 builds the vector lane by lane) */
  static const int32_t order_table[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  const vi order = simde_mm512_loadu_si512(order_table);
  *c0 = simde_mm512_permutexvar_ps(order, simde_mm512_shuffle_ps(lo01, lo23, 0x44));
  *c1 = simde_mm512_permutexvar_ps(order, simde_mm512_shuffle_ps(lo01, lo23, 0xEE));
  *c2 = simde_mm512_permutexvar_ps(order, simde_mm512_shuffle_ps(hi01, hi23, 0x44));
  *c3 = simde_mm512_permutexvar_ps(order, simde_mm512_shuffle_ps(hi01, hi23, 0xEE));
}

/* Sixteen boxes: four registers of four boxes each, transposed. */
static inline void load_aabb2_aos(const col_aabb2 *p, vf *min_x, vf *min_y, vf *max_x, vf *max_y) {
  const float *f = (const float *)(const void *)p; /* 4 floats per box, no padding */
  transpose4x4(simde_mm512_loadu_ps(f), simde_mm512_loadu_ps(f + 16), simde_mm512_loadu_ps(f + 32),
               simde_mm512_loadu_ps(f + 48), min_x, min_y, max_x, max_y);
}

/* Sixteen sweep-and-prune places (box index | tag << 32) to eight vectors: words 0-3 of each
 * place's record, in 3D words 4-5 too (2D: register k holds the 16-byte records of places
 * 4k..4k + 3, one 128-bit insert each; 3D: register k holds records 2k and 2k + 1, and
 * 128-bit lane shuffles of two registers gather the first halves of four records, then the
 * second halves; each set transposed as above), then the indices and the tags (the even and
 * odd words of the places, the other way round on a big-endian machine; one two-register
 * permute each). */
#define COL_HAVE_LOAD_SAP_RECS 1
static inline void load_sap_recs(const col__sap_rec *rec, const uint64_t *slot, unsigned dims,
                                 vf c[8]) {
  if (dims == 3) {
    /* Named registers, not arrays filled in loops: gcc 12 kept such arrays on the stack, each
     * record stored and read back before the shuffles (docs/tuning-avx2.md). */
#define REC3(k)                                                                                    \
  simde_mm512_castpd_ps(simde_mm512_insertf64x4(                                                   \
      simde_mm512_castpd256_pd512(                                                                 \
          simde_mm256_loadu_pd((const double *)(const void *)&rec[(uint32_t)slot[2 * k] * 2])),    \
      simde_mm256_loadu_pd((const double *)(const void *)&rec[(uint32_t)slot[2 * k + 1] * 2]), 1))
    const vf r0 = REC3(0), r1 = REC3(1), r2 = REC3(2), r3 = REC3(3);
    const vf r4 = REC3(4), r5 = REC3(5), r6 = REC3(6), r7 = REC3(7);
#undef REC3
    vf unused[2];
    const vf a[4] = {simde_mm512_shuffle_f32x4(r0, r1, SIMDE_MM_SHUFFLE(2, 0, 2, 0)),
                     simde_mm512_shuffle_f32x4(r2, r3, SIMDE_MM_SHUFFLE(2, 0, 2, 0)),
                     simde_mm512_shuffle_f32x4(r4, r5, SIMDE_MM_SHUFFLE(2, 0, 2, 0)),
                     simde_mm512_shuffle_f32x4(r6, r7, SIMDE_MM_SHUFFLE(2, 0, 2, 0))};
    const vf b[4] = {simde_mm512_shuffle_f32x4(r0, r1, SIMDE_MM_SHUFFLE(3, 1, 3, 1)),
                     simde_mm512_shuffle_f32x4(r2, r3, SIMDE_MM_SHUFFLE(3, 1, 3, 1)),
                     simde_mm512_shuffle_f32x4(r4, r5, SIMDE_MM_SHUFFLE(3, 1, 3, 1)),
                     simde_mm512_shuffle_f32x4(r6, r7, SIMDE_MM_SHUFFLE(3, 1, 3, 1))};
    transpose4x4(a[0], a[1], a[2], a[3], &c[0], &c[1], &c[2], &c[3]);
    transpose4x4(b[0], b[1], b[2], b[3], &c[4], &c[5], &unused[0], &unused[1]);
  } else {
#define REC2(k)                                                                                    \
  simde_mm512_insertf32x4(                                                                         \
      simde_mm512_insertf32x4(                                                                     \
          simde_mm512_insertf32x4(                                                                 \
              simde_mm512_castps128_ps512(simde_mm_loadu_ps(rec[(uint32_t)slot[4 * k]].v)),        \
              simde_mm_loadu_ps(rec[(uint32_t)slot[4 * k + 1]].v), 1),                             \
          simde_mm_loadu_ps(rec[(uint32_t)slot[4 * k + 2]].v), 2),                                 \
      simde_mm_loadu_ps(rec[(uint32_t)slot[4 * k + 3]].v), 3)
    const vf a[4] = {REC2(0), REC2(1), REC2(2), REC2(3)};
#undef REC2
    transpose4x4(a[0], a[1], a[2], a[3], &c[0], &c[1], &c[2], &c[3]);
  }
  static const int32_t even_table[16] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
  static const int32_t odd_table[16] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
  const float *s = (const float *)(const void *)slot;
  const vf s07 = simde_mm512_loadu_ps(s), s8f = simde_mm512_loadu_ps(s + 16);
  c[6 + COL_BIG_ENDIAN] =
      simde_mm512_permutex2var_ps(s07, simde_mm512_loadu_si512(even_table), s8f);
  c[7 - COL_BIG_ENDIAN] = simde_mm512_permutex2var_ps(s07, simde_mm512_loadu_si512(odd_table), s8f);
}

/* Sixteen 12-byte col_mtd records (x, y, hit, padding) as three 64-byte stores: output dword
 * d holds field d % 3 of record d / 3 (the hit dword: the bool and its padding, COL_TRUE_DWORD);
 * one index vector per output gathers from x, y and hit, and two masked blends put the fields in
 * place. */
#define COL_HAVE_STORE_MTD 1
_Static_assert(sizeof(col_mtd) == 12, "col_mtd is x, y, hit and padding");
static inline void store_mtd(col_mtd *out, vf dx, vf dy, vm hit) {
  const vf h = simde_mm512_castsi512_ps(
      simde_mm512_maskz_mov_epi32(hit, simde_mm512_set1_epi32(COL_TRUE_DWORD)));
  float *f = (float *)(void *)out;
  static const int32_t idx_table[3][16] = {
      {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5},
      {5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10},
      {10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15},
  };
  const simde__mmask16 y_lanes[3] = {0x2492, 0x9249, 0x4924}, h_lanes[3] = {0x4924, 0x2492, 0x9249};
  for (int v = 0; v < 3; v++) {
    const vi idx = simde_mm512_loadu_si512(idx_table[v]);
    vf o = simde_mm512_permutexvar_ps(idx, dx);
    o = simde_mm512_mask_blend_ps(y_lanes[v], o, simde_mm512_permutexvar_ps(idx, dy));
    o = simde_mm512_mask_blend_ps(h_lanes[v], o, simde_mm512_permutexvar_ps(idx, h));
    simde_mm512_storeu_ps(f + 16 * v, o);
  }
}

/* Sweep and prune's pairs: the kept lanes' box indices packed with the register form of
 * vpcompressd (the store form is the microcoded one), min / max against the query's index,
 * and two interleaving permutes give sixteen (a, b) records, stored whole: the caller keeps
 * room for them, so there is no branch on the number of hits. */
#define COL_HAVE_EMIT_PAIRS 1
/* SIMDe 0.7.4 takes the native vpcompressd only when AVX-512VL is enabled too (this build
 * enables F alone, which has the 512-bit form), so the native build calls the intrinsic. */
static inline vi compress_u32(vm keep, vi v) {
#if defined(SIMDE_X86_AVX512F_NATIVE)
  return _mm512_maskz_compress_epi32(keep, v);
#else
  return simde_mm512_maskz_compress_epi32(keep, v);
#endif
}
_Static_assert(sizeof(col_pair) == 8, "col_pair is two uint32");
static inline size_t emit_pairs(col_pair *out, vm keep, const uint32_t *ids, uint32_t a) {
  static const int32_t first_table[16] = {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23};
  static const int32_t second_table[16] = {8,  24, 9,  25, 10, 26, 11, 27,
                                           12, 28, 13, 29, 14, 30, 15, 31};
  const vi b = compress_u32(keep, vi_loadu(ids)), q = vi_set1(a);
  const vi lo = simde_mm512_min_epu32(q, b), hi = simde_mm512_max_epu32(q, b);
  uint32_t *o = (uint32_t *)(void *)out;
  simde_mm512_storeu_si512(
      (void *)o, simde_mm512_permutex2var_epi32(lo, simde_mm512_loadu_si512(first_table), hi));
  simde_mm512_storeu_si512((void *)(o + 16), simde_mm512_permutex2var_epi32(
                                                 lo, simde_mm512_loadu_si512(second_table), hi));
  return (size_t)__builtin_popcount((unsigned)keep);
}

/* Mask words: eight per vector. AVX-512F alone has neither vpshufb, vpsadbw nor vpopcntq on
 * zmm registers: popcount per lane is the bit-parallel count of Hacker's Delight (Warren,
 * 2nd ed., 5-1) carried to the whole 64-bit lane with shifts and adds. */
typedef simde__m512i vq;
static inline vq vq_loadu(const uint64_t *p) { return simde_mm512_loadu_si512((const void *)p); }
static inline void vq_storeu(uint64_t *p, vq v) { simde_mm512_storeu_si512((void *)p, v); }
static inline vq vq_zero(void) { return simde_mm512_setzero_si512(); }
static inline vq vq_and(vq a, vq b) { return simde_mm512_and_si512(a, b); }
static inline vq vq_or(vq a, vq b) { return simde_mm512_or_si512(a, b); }
static inline vq vq_add(vq a, vq b) { return simde_mm512_add_epi64(a, b); }
static inline vq vq_srl(vq v, unsigned n) {
  return simde_mm512_srl_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline vq vq_sll(vq v, unsigned n) {
  return simde_mm512_sll_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline bool vq_any(vq v) { return simde_mm512_test_epi64_mask(v, v) != 0; }
/* Every intermediate stays small: SIMDe's portable code adds on signed lanes, where the
 * textbook x - ((x >> 1) & m1) step overflows (undefined behaviour that UBSan reports). */
static inline vq vq_popcnt(vq x) {
  const vq m1 = simde_mm512_set1_epi64(0x5555555555555555);
  const vq m2 = simde_mm512_set1_epi64(0x3333333333333333);
  const vq m4 = simde_mm512_set1_epi64(0x0F0F0F0F0F0F0F0F);
  /* Nibble counts from the four 1-bit fields of each nibble (<= 4: nothing carries). */
  const vq even = simde_mm512_and_si512(x, m1),
           odd = simde_mm512_and_si512(simde_mm512_srli_epi64(x, 1), m1);
  x = simde_mm512_add_epi64(
      simde_mm512_add_epi64(simde_mm512_and_si512(even, m2),
                            simde_mm512_and_si512(simde_mm512_srli_epi64(even, 2), m2)),
      simde_mm512_add_epi64(simde_mm512_and_si512(odd, m2),
                            simde_mm512_and_si512(simde_mm512_srli_epi64(odd, 2), m2)));
  x = simde_mm512_and_si512(simde_mm512_add_epi64(x, simde_mm512_srli_epi64(x, 4)), m4);
  x = simde_mm512_add_epi64(x, simde_mm512_srli_epi64(x, 8));
  x = simde_mm512_add_epi64(x, simde_mm512_srli_epi64(x, 16));
  x = simde_mm512_add_epi64(x, simde_mm512_srli_epi64(x, 32));
  return simde_mm512_and_si512(x, simde_mm512_set1_epi64(0x7F));
}

/* Native masked loads suppress faults on masked-off lanes. SIMDe 0.7.4 has no
 * _mm512_maskz_loadu_epi64, so the native build calls the intrinsic itself (simde__m512i is
 * __m512i there); the emulated build keeps the template's copying tail. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define COL_HAVE_LOADU_N 1
static inline vq vq_loadu_n(const uint64_t *p, size_t n) {
  return _mm512_maskz_loadu_epi64((__mmask8)((1u << n) - 1u), p);
}
#endif

#include "../simd/simd_kernels.h"
