/* The SIMD kernel templates' common part. Each ISA file (x86/<name>.c, arm/<name>.c, with its
 * collide-isa line: scripts/build/isa-list.sh) defines a small vector vocabulary with SIMDe
 * intrinsics, then includes simd_kernels.h, which instantiates every kernel family once for that
 * ISA and defines the backend table. Built twice: natively with the ISA's -m flags, and emulated
 * with SIMDE_NO_NATIVE (COL_EMULATED set), which yields the "-emu" twin.
 *
 * The vocabulary an ISA file provides (all `static inline`, vectors never cross a non-inline
 * call: with SIMDE_NO_NATIVE that would change the ABI, see DESIGN.md 2):
 *   COL_W                       lanes of 32 bits (lanes= of its collide-isa line; the build
 *                               defines COL_ISA, the file's name, e.g. avx2)
 *   vf, vi, vm                  float vector, uint32 vector, lane mask
 *   vf_loadu vf_storeu vf_set1  unaligned load/store, broadcast
 *   vf_add vf_sub vf_mul vf_div vf_sqrt
 *   vf_lt vf_le vf_gt vf_ge vf_eq    ordered, quiet compares: false when either is NaN
 *   vf_max(a, b) vf_min(a, b)   a > b ? a : b and a < b ? a : b, exactly: b when either is NaN
 *                               and when a == b (+0 against -0 included): x86's maxps/minps;
 *                               NEON by compare and select. Only with the reference's operand
 *                               order (slab test: vf_max(near, N) ignores a NaN near)
 *   vm_and vm_or vm_andnot(a, b) = a & ~b; vm_bits: lane i -> bit i (every vm lane is all
 *                               ones or all zeros)
 *   vm_any(m)                   optional (COL_HAVE_VM_ANY): some lane set; default
 *                               vm_bits(m) != 0
 *   vf_select(m, t, f)          t where m, else f
 *   vi_loadu vi_set1 vi_alpha_gt(px, thr) = (px >> 24) > thr, per lane, as a vm
 *   vi_has_all(t, need)         lanes where (t & need) == need, as a vm
 *   emit_pairs(out, keep, ids, a)  optional (COL_HAVE_EMIT_PAIRS): the pairs (min(a, ids[i]),
 *                               max(a, ids[i])) of the set lanes i, packed at out (COL_W places
 *                               may be written); returns how many
 *   load_aabb2_aos(p, &minx, &miny, &maxx, &maxy): W consecutive col_aabb2, transposed
 *   load_sap_recs(rec, slot, dims, c[8]) optional (COL_HAVE_LOAD_SAP_RECS): W places (box
 *                               index | tag << 32): words 0-3 of each box's record (backend.h's
 *                               col__sap_rec), and in 3D words 4-5 (its second unit's 0-1),
 *                               transposed (c[k]: word k, bits unchanged; c[4], c[5] not set in
 *                               2D), the indices in c[6], tags c[7]
 *                               (a place's index is its first 32-bit word in memory on a
 *                               little-endian machine, its second on a big-endian one:
 *                               COL_BIG_ENDIAN, backend.h)
 *   vq                          W/2 lanes of uint64 (1-bit mask words)
 *   vq_loadu vq_storeu vq_zero vq_and vq_or vq_add
 *   vq_srl(v, n) vq_sll(v, n)   shift every lane by n: vq_srl by 0..63, vq_sll by 1..64 (64
 *                               gives 0); x86 counts are built as 64-bit values (cvtsi64):
 *                               SIMDe's emulated registers alias lanes of different widths in
 *                               the host's byte order, so on a big-endian machine a 32-bit
 *                               count (cvtsi32) is the high half of the 64-bit count read
 *   vq_any(v)                   some bit set; vq_popcnt(v): set bits of each lane, per lane
 *   store_mtd(out, dx, dy, hit)  optional (COL_HAVE_STORE_MTD): W col_mtd records written
 *                               with vector stores (12-byte records: x, y, hit + padding)
 * Only IEEE add, sub, mul, div, sqrt and ordered compares are used, in the scalar reference's
 * order: no FMA, no reciprocal estimates, no min/max other than vf_max / vf_min above (the
 * instructions' NaN and signed-zero rules differ between ISAs; these two are pinned). */
#ifndef COLLIDE_SIMD_COMMON_H
#define COLLIDE_SIMD_COMMON_H

#include "../backend.h"

#include <math.h>
#include <string.h>

#define COL_INLINE static inline __attribute__((always_inline))

#define COL_LANES ((uint32_t)(((uint64_t)1 << COL_W) - 1u))

/* The set bits of a partial block of `n` (< COL_W) valid lanes. */
#define COL_TAIL_BITS(n) ((uint32_t)(((uint64_t)1 << (n)) - 1u))

/* base + i for each set bit i, ascending; returns how many. */
COL_INLINE size_t emit_indices(uint32_t *out, uint32_t bits, uint32_t base) {
  size_t k = 0;
  while (bits != 0) {
    out[k++] = base + (uint32_t)__builtin_ctz(bits);
    bits &= bits - 1u;
  }
  return k;
}

/* Set bits of a lane mask. Four-lane masks use a table: the SSE2 and NEON builds may not have
 * a popcount instruction (gcc then calls a library routine). */
COL_INLINE unsigned col_popcount(uint32_t bits) {
  if (COL_W <= 4) {
    static const uint8_t small[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return small[bits & 15u];
  }
  return (unsigned)__builtin_popcount(bits);
}

#ifndef COL_HAVE_VM_ANY
/* The hot loops' "did anything hit" test; an ISA with a cheaper test defines its own. */
COL_INLINE bool vm_any(vm m) { return vm_bits(m) != 0; }
#endif

/* Tails are copied into stack blocks padded with a value that can never match (NaN for
 * coordinates, alpha 0 for pixels), so no kernel reads past the caller's arrays. */
COL_INLINE void pad_copy_f(float *dst, const float *src, size_t n, float pad) {
  for (size_t k = 0; k < COL_W; k++) dst[k] = k < n ? src[k] : pad;
}

COL_INLINE void pad_copy_u(uint32_t *dst, const uint32_t *src, size_t n) {
  for (size_t k = 0; k < COL_W; k++) dst[k] = k < n ? src[k] : 0u;
}

/* A finite x gives x * 0 == 0 (+0 or -0); +-inf and NaN give NaN. */
COL_INLINE vm vf_finite(vf x) {
  const vf zero = vf_set1(0.0f);
  return vf_eq(vf_mul(x, zero), zero);
}

#endif
