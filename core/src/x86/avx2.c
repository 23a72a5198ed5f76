/* The AVX2 backend (8 lanes), written with SIMDe; built with -mavx2 only (no -mfma: the
 * contract forbids contraction). Also built with SIMDE_NO_NATIVE as "avx2-emu". See
 * simd/simd_common.h for the vocabulary. */
/* collide-isa: arch=x86 lanes=8 rank=30 cpu=avx2 emulated=yes flags=-mavx2 */
#include <simde/x86/avx2.h>

#include "backend.h"

#define COL_W 8

typedef simde__m256 vf;
typedef simde__m256 vm;
typedef simde__m256i vi;

static inline vf vf_loadu(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void vf_storeu(float *p, vf v) { simde_mm256_storeu_ps(p, v); }
static inline vf vf_set1(float x) { return simde_mm256_set1_ps(x); }
static inline vf vf_add(vf a, vf b) { return simde_mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return simde_mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return simde_mm256_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return simde_mm256_div_ps(a, b); }
static inline vf vf_sqrt(vf a) { return simde_mm256_sqrt_ps(a); }
/* a > b ? a : b and a < b ? a : b: vmaxps/vminps exactly (the second operand on NaN and on
 * equal zeros); the operand order is part of the contract (simd/simd_common.h). */
static inline vf vf_max(vf a, vf b) { return simde_mm256_max_ps(a, b); }
static inline vf vf_min(vf a, vf b) { return simde_mm256_min_ps(a, b); }
static inline vm vf_lt(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline vm vf_le(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline vm vf_gt(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline vm vf_ge(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline vm vf_eq(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
static inline vm vm_and(vm a, vm b) { return simde_mm256_and_ps(a, b); }
static inline vm vm_or(vm a, vm b) { return simde_mm256_or_ps(a, b); }
static inline vm vm_andnot(vm a, vm b) { return simde_mm256_andnot_ps(b, a); }
static inline uint32_t vm_bits(vm m) { return (uint32_t)simde_mm256_movemask_ps(m); }
static inline vf vf_select(vm m, vf t, vf f) { return simde_mm256_blendv_ps(f, t, m); }
static inline vi vi_loadu(const uint32_t *p) { return simde_mm256_loadu_si256((const void *)p); }
static inline vi vi_set1(uint32_t x) { return simde_mm256_set1_epi32((int32_t)x); }
/* (t & need) == need per lane. */
static inline vm vi_has_all(vi t, vi need) {
  return simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(simde_mm256_and_si256(t, need), need));
}
/* Alphas and thresholds are 0..255, so the signed compare is exact. */
static inline vm vi_alpha_gt(vi px, vi thr) {
  return simde_mm256_castsi256_ps(simde_mm256_cmpgt_epi32(simde_mm256_srli_epi32(px, 24), thr));
}

/* Four registers of two 4-float records each (record k in the low half, record k + 4 in the
 * high half) to four vectors of one field each, in record order: a 4x4 transpose per half. */
static inline void transpose4x2(vf r0, vf r1, vf r2, vf r3, vf *c0, vf *c1, vf *c2, vf *c3) {
  const vf lo01 = simde_mm256_unpacklo_ps(r0, r1), lo23 = simde_mm256_unpacklo_ps(r2, r3);
  const vf hi01 = simde_mm256_unpackhi_ps(r0, r1), hi23 = simde_mm256_unpackhi_ps(r2, r3);
  *c0 = simde_mm256_shuffle_ps(lo01, lo23, 0x44);
  *c1 = simde_mm256_shuffle_ps(lo01, lo23, 0xEE);
  *c2 = simde_mm256_shuffle_ps(hi01, hi23, 0x44);
  *c3 = simde_mm256_shuffle_ps(hi01, hi23, 0xEE);
}

/* Eight boxes: four 32-byte loads hold boxes (0,1) (2,3) (4,5) (6,7); two-lane permutes pair
 * boxes k and k+4 in one register (low and high halves), so that the in-half 4x4 transpose
 * leaves every component in box order. */
static inline void load_aabb2_aos(const col_aabb2 *p, vf *min_x, vf *min_y, vf *max_x, vf *max_y) {
  const float *f = (const float *)(const void *)p; /* 4 floats per box, no padding */
  const vf b01 = simde_mm256_loadu_ps(f), b23 = simde_mm256_loadu_ps(f + 8);
  const vf b45 = simde_mm256_loadu_ps(f + 16), b67 = simde_mm256_loadu_ps(f + 24);
  transpose4x2(simde_mm256_permute2f128_ps(b01, b45, 0x20), /* boxes 0 | 4 */
               simde_mm256_permute2f128_ps(b01, b45, 0x31), /* boxes 1 | 5 */
               simde_mm256_permute2f128_ps(b23, b67, 0x20), /* boxes 2 | 6 */
               simde_mm256_permute2f128_ps(b23, b67, 0x31), /* boxes 3 | 7 */
               min_x, min_y, max_x, max_y);
}

/* Eight sweep-and-prune places (box index | tag << 32) to eight vectors: words 0-3 of each
 * place's record, in 3D words 4-5 too (2D: the 16-byte records of places k and k + 4 loaded
 * into the two halves of a register; 3D: one 32-byte load per record, and two-lane permutes
 * pair the first halves of records k and k + 4, then the second halves; each set transposed
 * as above), then the indices and the tags (even and odd words of the places, the other way
 * round on a big-endian machine, put in order by a 64-bit permute). */
#define COL_HAVE_LOAD_SAP_RECS 1
static inline void load_sap_recs(const col__sap_rec *rec, const uint64_t *slot, unsigned dims,
                                 vf c[8]) {
  if (dims == 3) {
    /* Named loads, not an array filled in a loop: gcc 12 kept that array on the stack, each
     * record stored and read back before the permutes (docs/tuning-avx2.md). */
#define REC3(k) simde_mm256_loadu_ps((const float *)(const void *)&rec[(uint32_t)slot[k] * 2])
    const vf r0 = REC3(0), r1 = REC3(1), r2 = REC3(2), r3 = REC3(3);
    const vf r4 = REC3(4), r5 = REC3(5), r6 = REC3(6), r7 = REC3(7);
#undef REC3
    vf unused[2];
    transpose4x2(simde_mm256_permute2f128_ps(r0, r4, 0x20),
                 simde_mm256_permute2f128_ps(r1, r5, 0x20),
                 simde_mm256_permute2f128_ps(r2, r6, 0x20),
                 simde_mm256_permute2f128_ps(r3, r7, 0x20), &c[0], &c[1], &c[2], &c[3]);
    transpose4x2(simde_mm256_permute2f128_ps(r0, r4, 0x31),
                 simde_mm256_permute2f128_ps(r1, r5, 0x31),
                 simde_mm256_permute2f128_ps(r2, r6, 0x31),
                 simde_mm256_permute2f128_ps(r3, r7, 0x31), &c[4], &c[5], &unused[0], &unused[1]);
  } else {
    vf r[4];
    for (int k = 0; k < 4; k++)
      r[k] = simde_mm256_insertf128_ps(
          simde_mm256_castps128_ps256(simde_mm_loadu_ps(rec[(uint32_t)slot[k]].v)),
          simde_mm_loadu_ps(rec[(uint32_t)slot[k + 4]].v), 1);
    transpose4x2(r[0], r[1], r[2], r[3], &c[0], &c[1], &c[2], &c[3]);
  }
  const float *s = (const float *)(const void *)slot;
  const vf s03 = simde_mm256_loadu_ps(s), s47 = simde_mm256_loadu_ps(s + 8);
  const vf even = simde_mm256_shuffle_ps(s03, s47, SIMDE_MM_SHUFFLE(2, 0, 2, 0));
  const vf odd = simde_mm256_shuffle_ps(s03, s47, SIMDE_MM_SHUFFLE(3, 1, 3, 1));
  c[6 + COL_BIG_ENDIAN] = simde_mm256_castpd_ps(
      simde_mm256_permute4x64_pd(simde_mm256_castps_pd(even), SIMDE_MM_SHUFFLE(3, 1, 2, 0)));
  c[7 - COL_BIG_ENDIAN] = simde_mm256_castpd_ps(
      simde_mm256_permute4x64_pd(simde_mm256_castps_pd(odd), SIMDE_MM_SHUFFLE(3, 1, 2, 0)));
}

/* Eight 12-byte col_mtd records (x, y, hit, padding) as three 32-byte stores: output dword d
 * holds field d % 3 of record d / 3 (the hit dword: the bool and its padding, COL_TRUE_DWORD), so
 * each output vector gathers records with one index vector from each of x, y and hit, then blends
 * the fields into place. */
#define COL_HAVE_STORE_MTD 1
_Static_assert(sizeof(col_mtd) == 12, "col_mtd is x, y, hit and padding");
static inline void store_mtd(col_mtd *out, vf dx, vf dy, vm hit) {
  const vf h =
      simde_mm256_and_ps(hit, simde_mm256_castsi256_ps(simde_mm256_set1_epi32(COL_TRUE_DWORD)));
  float *f = (float *)(void *)out;
  static const int32_t idx_table[3][8] = {
      {0, 0, 0, 1, 1, 1, 2, 2}, {2, 3, 3, 3, 4, 4, 4, 5}, {5, 5, 6, 6, 6, 7, 7, 7}};
  const vi idx0 = simde_mm256_loadu_si256(idx_table[0]);
  const vi idx1 = simde_mm256_loadu_si256(idx_table[1]);
  const vi idx2 = simde_mm256_loadu_si256(idx_table[2]);
  vf v;
  /* field of each lane: out0 x y h x y h x y, out1 h x y h x y h x, out2 y h x y h x y h */
  v = simde_mm256_blend_ps(simde_mm256_permutevar8x32_ps(dx, idx0),
                           simde_mm256_permutevar8x32_ps(dy, idx0), 0x92);
  simde_mm256_storeu_ps(f, simde_mm256_blend_ps(v, simde_mm256_permutevar8x32_ps(h, idx0), 0x24));
  v = simde_mm256_blend_ps(simde_mm256_permutevar8x32_ps(dx, idx1),
                           simde_mm256_permutevar8x32_ps(dy, idx1), 0x24);
  simde_mm256_storeu_ps(f + 8,
                        simde_mm256_blend_ps(v, simde_mm256_permutevar8x32_ps(h, idx1), 0x49));
  v = simde_mm256_blend_ps(simde_mm256_permutevar8x32_ps(dx, idx2),
                           simde_mm256_permutevar8x32_ps(dy, idx2), 0x49);
  simde_mm256_storeu_ps(f + 16,
                        simde_mm256_blend_ps(v, simde_mm256_permutevar8x32_ps(h, idx2), 0x92));
}

/* The whole-cell sweep's pair writer with a compress by table: entry m holds a byte per lane,
 * the lanes of m's set bits in order, except that hits 2-3 and 4-5 trade places (the rest 0),
 * widened to eight lane indices by one vpmovzxbd from memory, so one variable permute packs the
 * hit ids in that order; min / max against the query's index, then the in-lane interleaves
 * (unpacklo, unpackhi) give hits 0-3 and 4-7 as (a, b) records in order, with no cross-lane
 * shuffle; stored whole (the caller keeps room for them: no branch on the number of hits). */
#define COL_HAVE_EMIT_PAIRS 1
#define LANES_BELOW(m, i)   __builtin_popcount((unsigned)(m) & ((1u << (i)) - 1u))
#define HIT_BYTE(k)         ((k) == 2 ? 4 : (k) == 3 ? 5 : (k) == 4 ? 2 : (k) == 5 ? 3 : (k))
#define LANE_AT(m, i)       (((m) >> (i)&1u) ? (uint64_t)(i) << (8 * HIT_BYTE(LANES_BELOW(m, i))) : 0u)
#define COMPRESS_ENTRY(m)                                                                          \
  (LANE_AT(m, 0) | LANE_AT(m, 1) | LANE_AT(m, 2) | LANE_AT(m, 3) | LANE_AT(m, 4) | LANE_AT(m, 5) | \
   LANE_AT(m, 6) | LANE_AT(m, 7))
#define COMPRESS_4(m)                                                                              \
  COMPRESS_ENTRY(m), COMPRESS_ENTRY((m) + 1), COMPRESS_ENTRY((m) + 2), COMPRESS_ENTRY((m) + 3)
#define COMPRESS_16(m) COMPRESS_4(m), COMPRESS_4((m) + 4), COMPRESS_4((m) + 8), COMPRESS_4((m) + 12)
#define COMPRESS_64(m)                                                                             \
  COMPRESS_16(m), COMPRESS_16((m) + 16), COMPRESS_16((m) + 32), COMPRESS_16((m) + 48)
static const uint64_t compress_table[256] = {COMPRESS_64(0u), COMPRESS_64(64u), COMPRESS_64(128u),
                                             COMPRESS_64(192u)};
_Static_assert(sizeof(col_pair) == 8, "col_pair is two uint32");
static inline size_t emit_pairs(col_pair *out, vm keep, const uint32_t *ids, uint32_t a) {
  const uint32_t bits = vm_bits(keep);
  /* The entry's bytes as memory holds them, lane 0's first: on a big-endian machine (s390x, where
   * the emulated twin runs) a uint64_t keeps its low byte last, so it is swapped first. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const uint64_t entry = __builtin_bswap64(compress_table[bits]);
#else
  const uint64_t entry = compress_table[bits];
#endif
  const vi lanes =
      simde_mm256_cvtepu8_epi32(simde_mm_loadl_epi64((const simde__m128i *)(const void *)&entry));
  const vi b = simde_mm256_permutevar8x32_epi32(vi_loadu(ids), lanes);
  const vi q = simde_mm256_set1_epi32((int32_t)a);
  const vi lo = simde_mm256_min_epu32(q, b), hi = simde_mm256_max_epu32(q, b);
  simde_mm256_storeu_si256((void *)out, simde_mm256_unpacklo_epi32(lo, hi));
  simde_mm256_storeu_si256((void *)(out + 4), simde_mm256_unpackhi_epi32(lo, hi));
  return (size_t)__builtin_popcount(bits);
}

/* Mask words: four per vector. Popcount per lane: a 16-entry nibble table looked up with
 * vpshufb, then vpsadbw sums each lane's bytes (Mula, Kurz, Lemire, "Faster population counts
 * using AVX2 instructions", The Computer Journal 61(1), 2018). */
typedef simde__m256i vq;
static inline vq vq_loadu(const uint64_t *p) { return simde_mm256_loadu_si256((const void *)p); }
static inline void vq_storeu(uint64_t *p, vq v) { simde_mm256_storeu_si256((void *)p, v); }
static inline vq vq_zero(void) { return simde_mm256_setzero_si256(); }
static inline vq vq_and(vq a, vq b) { return simde_mm256_and_si256(a, b); }
static inline vq vq_or(vq a, vq b) { return simde_mm256_or_si256(a, b); }
static inline vq vq_add(vq a, vq b) { return simde_mm256_add_epi64(a, b); }
static inline vq vq_srl(vq v, unsigned n) {
  return simde_mm256_srl_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline vq vq_sll(vq v, unsigned n) {
  return simde_mm256_sll_epi64(v, simde_mm_cvtsi64_si128((int64_t)n));
}
static inline bool vq_any(vq v) { return !simde_mm256_testz_si256(v, v); }
static inline vq vq_popcnt(vq x) {
  static const uint8_t nibble_bits[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                          0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  const vq table = simde_mm256_loadu_si256((const void *)nibble_bits);
  const vq low = simde_mm256_set1_epi8(0x0F);
  const vq lo = simde_mm256_shuffle_epi8(table, simde_mm256_and_si256(x, low));
  const vq hi =
      simde_mm256_shuffle_epi8(table, simde_mm256_and_si256(simde_mm256_srli_epi64(x, 4), low));
  return simde_mm256_sad_epu8(simde_mm256_add_epi8(lo, hi), simde_mm256_setzero_si256());
}

/* Native vpmaskmovq suppresses faults on masked-off lanes; SIMDe's portable maskload reads
 * the whole vector, so the emulated build keeps the template's copying tail. */
#if defined(SIMDE_X86_AVX2_NATIVE)
#define COL_HAVE_LOADU_N 1
static inline vq vq_loadu_n(const uint64_t *p, size_t n) {
  static const int64_t lanes[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
  const vq keep = simde_mm256_loadu_si256((const void *)(lanes + 4 - n));
  return simde_mm256_maskload_epi64((const int64_t *)(const void *)p, keep);
}
#endif

#include "../simd/simd_kernels.h"
