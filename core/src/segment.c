/* The terms of a segment against spheres that do not depend on the sphere (DESIGN.md 4.4,
 * steps 1, 4 and 5's direction), computed once per segment: by col_segment_sphere (sweep.c), by
 * the reference backends (sweep_ref.h) and by the SIMD backends (simd/simd_sweep.h), so that
 * all of them start from the very same len and dir. Its own file, below all three: the
 * references and the SIMD templates call it, and it calls nothing of theirs. Out of line, as
 * it always was: once per batch, inlining it saves nothing, and in the emulated AVX-512 file
 * (at gcc's inlining limits) it cost other kernels the inlining of their vector helpers. */
#include "backend.h"

#include <math.h>

col__segment_prep col__segment_prepare(col_vec3 from, col_vec3 to) {
  col__segment_prep g = {from, {0.0f, 0.0f, 0.0f}, 0.0f, false};
  g.finite = isfinite(from.x) && isfinite(from.y) && isfinite(from.z) && isfinite(to.x) &&
             isfinite(to.y) && isfinite(to.z);
  const col_vec3 v = {to.x - from.x, to.y - from.y, to.z - from.z};
  g.len = sqrtf((v.x * v.x + v.y * v.y) + v.z * v.z);
  /* dir is only used when len != 0 (step 4); skipping it avoids a 0/0. */
  if (g.len != 0.0f) g.dir = (col_vec3){v.x / g.len, v.y / g.len, v.z / g.len};
  return g;
}
