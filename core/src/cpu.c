/* CPU feature tests for backend selection. Built without ISA flags, so that the test itself
 * runs on any CPU of the architecture. gcc's and clang's __builtin_cpu_supports also check
 * that the OS saves the wider register state (XCR0) before reporting AVX or AVX-512. */
#include "backend.h"

bool col__cpu_any(void) { return true; }
bool col__cpu_never(void) { return false; }

#if defined(__x86_64__) || defined(__i386__)
bool col__cpu_has_sse2(void) { return __builtin_cpu_supports("sse2"); }
bool col__cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
bool col__cpu_has_avx512(void) { return __builtin_cpu_supports("avx512f"); }
/* What -march=x86-64-v3 lets the compiler use (clang 14 knows neither "x86-64-v3" nor "f16c"
 * as feature names; every CPU with AVX2 and FMA has F16C, LZCNT and MOVBE). */
bool col__cpu_has_x86_64_v3(void) {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
}
#else
bool col__cpu_has_sse2(void) { return false; }
bool col__cpu_has_avx2(void) { return false; }
bool col__cpu_has_avx512(void) { return false; }
bool col__cpu_has_x86_64_v3(void) { return false; }
#endif

#if defined(__aarch64__)
bool col__cpu_has_neon(void) { return true; /* Advanced SIMD is mandatory on AArch64 */ }
#else
bool col__cpu_has_neon(void) { return false; }
#endif
