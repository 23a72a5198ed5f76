/* The "autovec" backend: the very same reference source as the scalar backend, built with
 * -O3 -march=x86-64-v3 (AVX2 era) and the compiler's auto-vectorizer left on, so that the
 * benchmarks can show what the compiler alone makes of it next to the hand-written SIMD.
 * -ffp-contract=off still applies: no FMA contraction, so its results stay bit-exact. */
/* collide-isa: arch=x86 emulated=no flags=-O3 -march=x86-64-v3 */
#include "backend.h"

#define REF_TABLE     col__backend_autovec
#define REF_NAME      "autovec"
#define REF_SUPPORTED col__cpu_has_x86_64_v3
#define REF_KIND      COL_BACKEND_COMPILER
#include "../ref_backend.h"
