/* The digest's kernels and their inputs: every public kernel of collide run over a fixed,
 * versioned input set, each answer written in one canonical byte form and hashed (XXH3), so
 * that two builds, two backends or two machines can be compared by a line of text
 * (README, "Same answers everywhere"; DESIGN.md section 5).
 *
 * A kernel of the digest is a function that runs one input, chosen by its index: it draws the
 * input's values from the context (deterministic in the kernel's name and the index, so any
 * input can be made again alone), records them for --show, calls collide, and writes the
 * answer with the dg_out_* calls. The context hashes the answer bytes; in --show mode it also
 * prints inputs and answers. The same functions serve `make fuzz-choice`, where the values
 * come from the fuzzer's bytes instead. */
#ifndef COLLIDE_DIGEST_H
#define COLLIDE_DIGEST_H

#include "collide.h"

#include <stdio.h>

/* The input set's version: change it, and the golden file with it, whenever an input, a size
 * or the answer's byte form changes (tools/digest/golden.txt says why in its header). */
#define DG_INPUT_SET 2 /* 2: world_step.broadphase draws world_step.naive's inputs */

typedef struct dg_ctx dg_ctx;

typedef struct dg_kernel {
  const char *name;
  uint32_t inputs; /* how many inputs the set holds */
  /* The col_kernel slots it runs on the active backend: it is digested once per backend that
   * implements any of them. 0: backend-independent (the single-pair calls), digested once. */
  unsigned slots;
  int arg; /* the kernel's own parameter (a broadphase algorithm, say) */
  void (*run)(dg_ctx *c, const struct dg_kernel *k, uint32_t index);
  /* Kernels of one group draw the same inputs (the group's name seeds them) and must give the
   * same answers: every broadphase algorithm, the naive and broadphase-backed simulation steps,
   * the two movements, the cache's forms. NULL: a group of its own (its name). */
  const char *group;
} dg_kernel;

/* Each family file writes its kernels into `out` (at most DG_FAMILY_MAX) and returns how many. */
#define DG_FAMILY_MAX 32
size_t dg_boxes_kernels(dg_kernel *out);
size_t dg_circles_kernels(dg_kernel *out);
size_t dg_sweep_kernels(dg_kernel *out);
size_t dg_pixels_kernels(dg_kernel *out);
size_t dg_broadphase_kernels(dg_kernel *out);
size_t dg_sims_kernels(dg_kernel *out);

/* A family's table into `out`; returns its length. */
static inline size_t dg_copy_kernels(dg_kernel *out, const dg_kernel *table, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = table[i];
  return n;
}

/* All kernels, in the digest's order; returns how many (at most max). */
size_t dg_all_kernels(dg_kernel *out, size_t max);

/* ---- Drawing an input's values ---- */
uint64_t dg_u64(dg_ctx *c);
/* 0 .. n-1 (n >= 1). */
uint32_t dg_below(dg_ctx *c, uint32_t n);
/* true with probability about k / 256. */
bool dg_chance(dg_ctx *c, unsigned k);
/* A coordinate: mostly small values on a quarter grid (so that edges touch), some a few ulps
 * off the grid, some wide or huge, and about `special` in 256 a special value (+-0, +-inf, NaN
 * with and without payload, subnormals, FLT_MIN, FLT_MAX). */
float dg_coord(dg_ctx *c, unsigned special);
/* A size (radius, extent, mass): small non-negative grid values, some wide, and about
 * `special` in 256 a special value (which may be negative or NaN). */
float dg_size(dg_ctx *c, unsigned special);
/* x moved by k ulps (k may be negative; through zero and to infinity as the bits go). */
float dg_ulps(float x, int k);

/* ---- Recording inputs (printed by --show only) and answers (hashed) ---- */
bool dg_showing(const dg_ctx *c);
void dg_in_floats(dg_ctx *c, const char *name, const float *v, size_t n);
void dg_in_u32s(dg_ctx *c, const char *name, const uint32_t *v, size_t n);
void dg_in_int(dg_ctx *c, const char *name, int64_t v);

/* Floats are written by their bits after one canonicalization: every NaN as the default
 * quiet NaN (0x7fc00000; WebAssembly, for one, does not keep a NaN's sign or payload). Zeros
 * keep their sign: the library promises +0.0. All integers little-endian. */
void dg_out_floats(dg_ctx *c, const char *name, const float *v, size_t n);
void dg_out_float(dg_ctx *c, const char *name, float v);
void dg_out_u32s(dg_ctx *c, const char *name, const uint32_t *v, size_t n);
void dg_out_u8s(dg_ctx *c, const char *name, const uint8_t *v, size_t n);
void dg_out_int(dg_ctx *c, const char *name, int64_t v);
void dg_out_u64(dg_ctx *c, const char *name, uint64_t v);
void dg_out_bool(dg_ctx *c, const char *name, bool v);
void dg_out_status(dg_ctx *c, const char *name, col_status s);
/* A pair list: its count, then its pairs (a, b) in the list's order. */
void dg_out_pairs(dg_ctx *c, const char *name, const col_pairs *p);

/* Memory for an input: aborts with a message when out of memory (a digest must not skip). */
void *dg_alloc(size_t bytes);

/* ---- Running (digest.c) ---- */
/* The hash of one input's answer: kernel k, input `index`, on the active backend. `show`:
 * where to print the input and the answer (NULL: nothing printed). */
uint64_t dg_run_input(const dg_kernel *k, uint32_t index, FILE *show);
/* The same with the values drawn from `bytes` (make fuzz-choice): exhausted bytes read as 0. */
uint64_t dg_run_bytes(const dg_kernel *k, const uint8_t *bytes, size_t n, FILE *show);
/* The text --show prints for one input (by index, or from `bytes` when not NULL), on the
 * active backend; the caller frees it. */
char *dg_show_text(const dg_kernel *k, uint32_t index, const uint8_t *bytes, size_t n);
/* Where two --show texts of one input differ: the input once (its first 30 lines), then each
 * answer's first line and, of its value lines, those that differ (both sides', at most 8).
 * Tokenizes both texts in place. */
void dg_print_difference(FILE *out, const char *name_a, char *text_a, const char *name_b,
                         char *text_b);
/* The kernel's hash from its inputs' hashes (in index order). */
uint64_t dg_fold(const uint64_t *hashes, size_t n);

#endif
