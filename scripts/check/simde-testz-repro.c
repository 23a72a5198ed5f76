/* A minimal reproducer for SIMDe upstream (found by collide's SIMDE_NATIVE=1 variant,
 * docs/determinism.md): simde_mm_testz_si128 answers 1 ("a AND b is all zeros") as soon as ONE
 * of the two 64-bit lanes of a AND b is zero. Intel's PTEST sets ZF only when all 128 bits are
 * zero, so for a = b = {1, 0} the answer must be 0. A wrong answer, not an inexact one: the
 * operation is integer and exact.
 *
 * Seen with Debian 12's libsimde-dev 0.7.4~rc2-2 (x86/sse4.1.h, the portable branch):
 *
 *     for (size_t i = 0 ; i < (sizeof(a_.u64) / sizeof(a_.u64[0])) ; i++) {
 *       if ((a_.u64[i] & b_.u64[i]) == 0)
 *         return 1;
 *     }
 *     return 0;
 *
 * which should read "if ((a_.u64[i] & b_.u64[i]) != 0) return 0; ... return 1;". The branch is
 * taken wherever SSE4.1 is not native and ARMv7 NEON is not either: x86 without -msse4.1,
 * POWER, MIPS, RISC-V, s390x, and everywhere with SIMDE_NO_NATIVE. simde_mm256_testz_si256
 * reaches it on targets whose natural vector is 128 bits (SIMDE_NATURAL_VECTOR_SIZE_LE(128):
 * x86-64 with SSE2 only, POWER with VSX), which is how collide's avx2-emu twin built with
 * SIMDE_NATIVE=1 answered "no pixel overlaps" on 85 of the digest's 256 mask_overlap inputs on
 * x86-64 and on ppc64le (the any-bit test of a row's four mask words).
 *
 * Run it (exit 1 while SIMDe is wrong, 0 once fixed):
 *     cc -O2 scripts/check/simde-testz-repro.c -o build/simde-testz-repro &&
 * build/simde-testz-repro cc -O2 -DSIMDE_NO_NATIVE ...                (the same answer from the
 * portable code) cc -O2 -msse4.1 ...                         (native PTEST: 0, right) and the
 * 256-bit form, from the 128-bit one, natively on x86-64 (no -mavx): cc -O2 -DREPRO_256
 * scripts/check/simde-testz-repro.c -o build/simde-testz-repro-256 */
#include <stdio.h>

#ifdef REPRO_256
#include <simde/x86/avx.h>
#else
#include <simde/x86/sse4.1.h>
#endif

int main(void) {
  int wrong = 0;
  /* One bit set in lane 0, then in lane 1: a AND a is not zero, testz must be 0. */
  for (int lane = 0; lane < 2; lane++) {
#ifdef REPRO_256
    const simde__m256i a =
        lane == 0 ? simde_mm256_set_epi64x(0, 0, 0, 1) : simde_mm256_set_epi64x(0, 0, 1, 0);
    const int got = simde_mm256_testz_si256(a, a);
    const char *call = "simde_mm256_testz_si256";
#else
    const simde__m128i a = lane == 0 ? simde_mm_set_epi64x(0, 1) : simde_mm_set_epi64x(1, 0);
    const int got = simde_mm_testz_si128(a, a);
    const char *call = "simde_mm_testz_si128";
#endif
    printf("%s(a, a), a with bit 0 of 64-bit lane %d set: %d (expected 0)%s\n", call, lane, got,
           got != 0 ? "  <- WRONG" : "");
    wrong |= got != 0;
  }
  /* And all zeros: testz must be 1. */
#ifdef REPRO_256
  const int zero =
      simde_mm256_testz_si256(simde_mm256_setzero_si256(), simde_mm256_setzero_si256());
#else
  const int zero = simde_mm_testz_si128(simde_mm_setzero_si128(), simde_mm_setzero_si128());
#endif
  printf("testz(0, 0): %d (expected 1)%s\n", zero, zero != 1 ? "  <- WRONG" : "");
  wrong |= zero != 1;
  printf("%s\n",
         wrong ? "SIMDe answers wrongly (see the comment at the top)" : "SIMDe answers right");
  return wrong;
}
