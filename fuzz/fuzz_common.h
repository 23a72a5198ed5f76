/* Shared by the differential fuzz targets: a byte reader that turns fuzzer input into the
 * floats and sizes that reach every edge of the kernels, the list of backends to compare,
 * and the disagreement report. The input format is documented in docs/fuzzing-targets.md; seed files
 * are written by fuzz/seeds/<target>.c with the matching encoder (fuzz/seeds/encode.c). */
#ifndef COLLIDE_FUZZ_COMMON_H
#define COLLIDE_FUZZ_COMMON_H

#include "collide.h"
/* splitmix64: the generator behind every target's decoded fills. */
#include "splitmix64.h"

#include <stdio.h>

/* Each target defines its name ("aabb", ...) and LLVMFuzzerTestOneInput. */
extern const char fz_target[];
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

typedef struct fz_reader {
  const uint8_t *p;
  size_t n;
} fz_reader;

/* Exhausted input reads as zero bytes, so every input decodes to something. */
uint8_t fz_u8(fz_reader *r);
uint32_t fz_u32(fz_reader *r);

/* One float from its tag byte:
 *   0x00-0x7f  grid value (tag - 64) / 4: small numbers, so equal (touching) edges are common
 *   0x80-0x8f  the grid value of the next byte, moved one ulp up (tag bit 0 clear) or down
 *   0x90-0x9f  a special value: +-0, +-inf, NaNs with payloads, denormals, FLT_MIN, FLT_MAX...
 *   0xa0-0xff  raw: the next four bytes are the bit pattern (little-endian) */
float fz_float(fz_reader *r);
float fz_grid(uint8_t index);
extern const uint32_t fz_special_bits[16];

/* The supported backends that implement any of `kernels` (col_kernel bits: a user backend
 * may fill only some slots), scalar first (the reference); returns how many (at most max). */
size_t fz_backends(const char **names, size_t max, unsigned kernels);
#define FZ_MAX_BACKENDS (16 + COL_USER_MAX)

/* For a target's own oracle: no coverage instrumentation (its compares say nothing about the
 * library, and tracing them cost the broadphase target a tenth of its executions). */
#if defined(__clang__)
#define FZ_ORACLE __attribute__((no_sanitize("coverage")))
#else
#define FZ_ORACLE
#endif

/* Selects a backend by name or aborts: a fuzz run must never silently use another one. */
void fz_select(const char *name);

/* Exactly `bytes` of heap (one byte for 0, so that a pointer exists): no slack after the last
 * element, so ASan sees a read or write of one element past it. Aborts when out of memory. */
void *fz_alloc(size_t bytes);

/* Allocation failures: after fz_fail_allocation(k), the k-th allocation from then on (0: the
 * next one; malloc, calloc and realloc) returns NULL, once; fz_allocation_failed() disarms it
 * and tells whether it happened. Arm it around one library call only (fz_alloc aborts when its
 * own allocation fails). */
void fz_fail_allocation(long k);
bool fz_allocation_failed(void);

/* The sprite overlap by its definition, for the sprite and mask targets: every world pixel
 * of the two rectangles' intersection, row-major, solid in both (alpha > thr). */
col_pixel_hit fz_sprite_brute_force(const col_sprite *a, const col_sprite *b, uint8_t thr);

/* The box sets of the broadphase and parallel targets, decoded from their input: flags byte
 * (bit 0: 3D; bit 1: the open touch rule; bits 2-7 pick a backend), n as two bytes (0..1023
 * when the second byte's top four bits are set or `always_large`, else 0..127; its bits 2-3
 * shape the set, see fuzz_common.c), then boxes of 4 (2D) or 6 (3D) floats (min x, min y,
 * max x, max y[, min z, max z]) while the input lasts; the remaining boxes come from a
 * generator seeded by the input length: small boxes in a 1000-wide world. `v` holds min x, y,
 * z, then max x, y, z (fz_alloc'd; z zero in 2D); fz_box_set_free releases them. */
enum { FZ_SMALL_SET = 128 }; /* sets of more boxes are "large" (generated on wider grids) */
typedef struct fz_box_set {
  col_boxes boxes;
  float *v[6];
  col_touch touch;
  uint8_t flags, n_low, n_high;
} fz_box_set;
void fz_box_set_decode(const uint8_t *data, size_t size, bool always_large, fz_box_set *out);
void fz_box_set_free(fz_box_set *set);

/* Disagreement report helpers: print to stderr, then fz_fail aborts. */
void fz_print_floats(const char *label, const float *v, size_t n);
_Noreturn void fz_fail(void);

#endif
