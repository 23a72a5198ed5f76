/* CPU feature tests for backend selection: col__cpu_has_<name> for each ISA file, the features
 * its collide-isa line names (cpu=), all of them, as isa_list.h spells them for this target
 * (a file not built here: false). Built without ISA flags, so that the test itself runs on any
 * CPU of the architecture. */
#include "backend.h"

bool col__cpu_any(void) { return true; }
bool col__cpu_never(void) { return false; }

#if defined(__x86_64__) || defined(__i386__)
/* gcc's and clang's __builtin_cpu_supports also check that the OS saves the wider register
 * state (XCR0) before reporting AVX or AVX-512. */
#define COL_CPU_x86(feature) __builtin_cpu_supports(feature)
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
/* The kernel's hardware capability bits (HWCAP_ASIMD for cpu=asimd). */
#define COL_CPU_arm(FEATURE) ((getauxval(AT_HWCAP) & HWCAP_##FEATURE) != 0)
#elif defined(__aarch64__)
/* Without Linux's auxiliary vector only Advanced SIMD is known to be there (mandatory on
 * AArch64); another feature does not compile. */
#define COL_CPU_arm(FEATURE)    COL_CAT(COL__ARM_BASELINE_, FEATURE)
#define COL__ARM_BASELINE_ASIMD 1
#endif

/* Sweep and prune's pair-writer choice (broadphase/sap/sweep.c) was measured on Zen 3 apart. gcc 12
 * has no znver4 name to tell Zen 4 (family 19h too) from Zen 3 by; its AVX-512 does. */
bool col__cpu_zen3(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_is("amdfam19h") && !__builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

#define COL__ISA_CPU_TEST(name, lanes, cpu_test, built)                                            \
  bool col__cpu_has_##name(void) { return cpu_test; }
COL_ISA_NATIVE(COL__ISA_CPU_TEST)
COL_ISA_COMPILER(COL__ISA_CPU_TEST)
