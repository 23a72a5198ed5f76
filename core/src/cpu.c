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
#else
bool col__cpu_has_sse2(void) { return false; }
bool col__cpu_has_avx2(void) { return false; }
bool col__cpu_has_avx512(void) { return false; }
#endif

#if defined(__aarch64__)
bool col__cpu_has_neon(void) { return true; /* Advanced SIMD is mandatory on AArch64 */ }
#else
bool col__cpu_has_neon(void) { return false; }
#endif
