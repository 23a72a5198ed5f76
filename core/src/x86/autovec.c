/* The "autovec" backend: the very same reference source as the scalar backend, built with
 * -O3 -march=x86-64-v3 (AVX2 era) and the compiler's auto-vectorizer left on, so that the
 * benchmarks can show what the compiler alone makes of it next to the hand-written SIMD.
 * -ffp-contract=off still applies: no FMA contraction, so its results stay bit-exact.
 * Its CPU test is what -march=x86-64-v3 lets the compiler use (clang 14 knows neither
 * "x86-64-v3" nor "f16c" as feature names; every CPU with AVX2 and FMA has F16C, LZCNT and
 * MOVBE). */
/* collide-isa: arch=x86 kind=compiler lanes=1 rank=0 cpu=avx2+fma+bmi+bmi2+popcnt emulated=no
 * flags=-O3 -march=x86-64-v3 */
#include "backend.h"

/* The build names the file (-DCOL_ISA=autovec); the rest comes from its collide-isa line. */
#define REF_TABLE     COL_CAT(col__backend_, COL_ISA)
#define REF_NAME      COL_STR(COL_ISA)
#define REF_SUPPORTED COL_CAT(col__cpu_has_, COL_ISA)
#define REF_KIND      COL_BACKEND_COMPILER
#include "../ref_backend.h"
