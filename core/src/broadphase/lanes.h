/* Internal: four float lanes at a time with GNU vector extensions (SSE2 on x86-64, NEON on
 * Arm, plain C elsewhere), for the broadphases' passes that are not the backends' kernels: only
 * IEEE sub, mul, compares and bit selects, so every lane gets exactly the scalar result.
 * Included by broadphase.h. */
#ifndef COLLIDE_BROADPHASE_LANES_H
#define COLLIDE_BROADPHASE_LANES_H

#include <stdint.h>
#include <string.h>

#define COL__BP_INLINE static inline __attribute__((always_inline))

/* The passes over every box (sweep and prune's survey, count and deal, the quadtree, the kept
 * grid), and a copy of a box built once in two 16-byte vectors and stored whole at each of its
 * places: the lanes get exactly the scalar tail's results. */
typedef float col__f4 __attribute__((vector_size(16)));
typedef uint32_t col__u4 __attribute__((vector_size(16)));
typedef int32_t col__i4 __attribute__((vector_size(16)));

COL__BP_INLINE col__f4 load4(const float *p) {
  col__f4 v;
  memcpy(&v, p, sizeof v);
  return v;
}

COL__BP_INLINE col__f4 splat4(float x) { return (col__f4){x, x, x, x}; }

/* v's lanes in the order of the lane numbers in `lanes` (each 0-3), a shuffle chosen at run
 * time: gcc and clang spell it differently. */
#ifdef __clang__
#define COL__SHUFFLE4(v, lanes) __builtin_shufflevector((v), (lanes))
#else
#define COL__SHUFFLE4(v, lanes) __builtin_shuffle((v), (lanes))
#endif

/* t where m (all ones), f elsewhere. */
COL__BP_INLINE col__f4 pick4(col__i4 m, col__f4 t, col__f4 f) {
  return (col__f4)(((col__i4)t & m) | ((col__i4)f & ~m));
}

/* a < b ? a : b and a > b ? a : b per lane (b when either is NaN), as pick4 gives them: on x86
 * one minps / maxps, which return exactly that, instead of a compare and a select (the survey's
 * running minimum and maximum wait on it at every step). */
COL__BP_INLINE col__f4 min4(col__f4 a, col__f4 b) {
#if defined(__SSE__) && (defined(__x86_64__) || defined(__i386__))
  return __builtin_ia32_minps(a, b);
#else
  return pick4(a < b, a, b);
#endif
}
COL__BP_INLINE col__f4 max4(col__f4 a, col__f4 b) {
#if defined(__SSE__) && (defined(__x86_64__) || defined(__i386__))
  return __builtin_ia32_maxps(a, b);
#else
  return pick4(a > b, a, b);
#endif
}

/* The lanes of m that are set, as bits 0-3 (on x86 one movmskps). */
COL__BP_INLINE unsigned lanes_set(col__i4 m) {
#if defined(__SSE__) && (defined(__x86_64__) || defined(__i386__))
  return (unsigned)__builtin_ia32_movmskps((col__f4)m);
#else
  m &= (col__i4){1, 2, 4, 8};
  return (unsigned)(m[0] | m[1] | m[2] | m[3]);
#endif
}

#endif
