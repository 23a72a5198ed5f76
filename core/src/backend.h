/* Internal: the backend table that every SIMD backend fills, and the shared kernel inputs.
 * Public entry points validate their arguments, then call the active backend's kernel with
 * inputs that are known to be valid. */
#ifndef COLLIDE_BACKEND_H
#define COLLIDE_BACKEND_H

#include "collide.h"

/* The overlap of two sprites, already clipped and validated: `a` and `b` point at the first
 * pixel of the overlap window in each sprite; rows are `*_stride` pixels apart. */
typedef struct col__pixel_window {
  const uint32_t *a, *b;
  size_t a_stride, b_stride;
  size_t width, height;
} col__pixel_window;

/* A sprite overlap result relative to the window's top-left: (col, row). */
typedef struct col__window_hit {
  bool hit;
  size_t col, row;
  uint64_t count;
} col__window_hit;

/* The overlap of two masks (mask.c), clipped and validated. Word k of a window row covers
 * 64 pixels of a's word grid; the matching 64 pixels of b are
 * (b[k] >> shift) | (b[k + 1] << (64 - shift)) (no second term when shift is 0), which the
 * masks' zero guard words keep in bounds. `first` and `last` keep the overlap's columns of
 * word 0 and word `words - 1` (both apply when words == 1). A hit's `col` is the bit index
 * from bit 0 of word 0. */
typedef struct col__mask_window {
  const uint64_t *a, *b;
  size_t a_stride, b_stride;
  size_t words, height;
  unsigned shift;
  uint64_t first, last;
} col__mask_window;

/* The terms of a segment that do not depend on the sphere (sweep.c): whether from and to are
 * finite, len = |to - from| and dir = (to - from) / len (left zero when len == 0). */
typedef struct col__segment_prep {
  col_vec3 from, dir;
  float len;
  bool finite;
} col__segment_prep;

col__segment_prep col__segment_prepare(col_vec3 from, col_vec3 to);

/* Sweep and prune's view of the boxes (broadphase/sap.c): sorted on min x, NaN-free, and
 * followed by COL__SAP_PAD boxes of NaN so that a run can be scanned a vector at a time without
 * a bound (a NaN min x ends every run). `x_lower`: test max x[j] against min x[r] (skippable
 * under the closed rule when no box is inverted on x: sorting implies it). */
#define COL__SAP_PAD 16
typedef struct col__sap_view {
  const float *min[3], *max[3];
  unsigned dims;
  bool x_lower;
} col__sap_view;

typedef struct col__backend {
  const char *name;
  unsigned width;
  bool emulated;
  bool (*supported)(void);

  /* Write ascending indices of overlapping boxes, return their number. `touch` is valid. */
  size_t (*aabb2_query)(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                        uint32_t *indices);
  size_t (*aabb2_query_aos)(col_aabb2 query, const col_aabb2 *boxes, size_t n, col_touch touch,
                            uint32_t *indices);
  size_t (*aabb3_query)(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                        uint32_t *indices);
  void (*aabb2_mtd_batch)(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out);
  col__window_hit (*sprite_overlap)(const col__pixel_window *w, uint8_t threshold,
                                    col_pixel_mode mode);
  col__window_hit (*mask_overlap)(const col__mask_window *w, col_pixel_mode mode);
  void (*circle_overlap_batch)(size_t n, const col_circle_soa *a, const col_circle_soa *b,
                               col_circle_test test, uint8_t *hit);
  void (*elastic_batch)(size_t n, const col_ball_soa *a, const col_ball_soa *b,
                        col_elastic_rule rule);
  col_segment_hit (*segment_spheres)(col_vec3 from, col_vec3 to, const col_sphere_soa *set);
  /* The run of sorted box r: the positions j > r whose min x is within box r's x extent
   * (min x[j] <= max x[r], < for the open rule), ascending, that overlap box r under `touch`;
   * returns their number and sets *tested to the run's length. `touch` is valid. */
  size_t (*sap_run)(const col__sap_view *v, size_t r, col_touch touch, uint32_t *out,
                    size_t *tested);
} col__backend;

/* CPU feature tests (cpu.c, built without ISA flags). */
bool col__cpu_any(void);
bool col__cpu_never(void);
bool col__cpu_has_sse2(void);
bool col__cpu_has_avx2(void);
bool col__cpu_has_avx512(void);
bool col__cpu_has_x86_64_v3(void);
bool col__cpu_has_neon(void);

/* The backends' tables: the reference built as scalar (scalar.c) and auto-vectorized
 * (x86/autovec.c), and the SIMD ones (simd/simd_kernels.h instantiated by each ISA file). */
extern const col__backend col__backend_scalar, col__backend_autovec;
extern const col__backend col__backend_sse2, col__backend_sse2_emu;
extern const col__backend col__backend_avx2, col__backend_avx2_emu;
extern const col__backend col__backend_avx512, col__backend_avx512_emu;
extern const col__backend col__backend_neon, col__backend_neon_emu;

/* The active backend, resolving it on first use. On failure returns the status and sets
 * *backend to NULL. */
col_status col__backend_active(const col__backend **backend);

/* For the unit tests only: forget the resolution so that COLLIDE_BACKEND is read again. */
void col__backend_reset(void);

#endif
