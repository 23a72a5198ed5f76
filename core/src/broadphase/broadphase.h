/* Internal: what the broadphase algorithms share (the public API is col_broadphase_pairs).
 * Each algorithm receives validated input and reports through col__bp_push, which keeps the
 * pair list growable and counts pairs; it counts its box tests itself. */
#ifndef COLLIDE_BROADPHASE_H
#define COLLIDE_BROADPHASE_H

#include "../backend.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

typedef struct col__bp {
  const col_boxes *boxes;
  col_touch touch;
  const col__backend *backend;
  col_pairs *out;
  col_broadphase_stats stats;
  const col_parallel *par;       /* non-NULL: sweep and prune sweeps its cells as tasks (tasks/) */
  bool any_order;                /* with par: the tasks write into the list in blocks (no join) */
  struct col__bp_writer *writer; /* a task writing into blocks of the caller's list, or NULL */
  /* parts > 1: a task of the parallel call as parts (tasks/parts.c), part `part` of `parts`:
   * sweep and prune deals only the boxes that may reach that part's cells (col__sap_dealt), in
   * the order `band` makes once the count is done (the part's boxes sorted), not the order the
   * deal is given. */
  uint32_t part, parts;
  const struct col__sap_band *band;
  /* A part of a large parallel call, which surveyed and counted every box once before its
   * tasks (tasks/parts.c): the count to deal from (read only), instead of its own. */
  const struct col__sap_counted *counted;
  /* Non-NULL: col_broadphase_pairs_stream; the list is a batch handed to the sink whenever an
   * algorithm needs more room than the batch has left (col__bp_reserve, col__bp_push). */
  const struct col__bp_stream *stream;
} col__bp;
/* A streaming call's sink and the batch size it was given (pairs). */
typedef struct col__bp_stream {
  col_pair_sink *sink;
  void *context;
  size_t batch;
} col__bp_stream;
/* The sorted order of a part's boxes (those whose cells may reach cells [lo, hi), every box
 * when `all`), made from the boxes' span words (sap/count.c) after the count: its length, the
 * order in *order. */
typedef struct col__sap_band {
  size_t (*fn)(void *context, const uint32_t *span, int kz, bool all, size_t lo, size_t hi,
               const uint32_t **order);
  void *context;
} col__sap_band;

/* Records that `bytes` of working memory are held at once (keeps the peak). */
static inline void col__bp_scratch(col__bp *bp, size_t bytes) {
  if (bytes > bp->stats.scratch_bytes) bp->stats.scratch_bytes = bytes;
}

/* The argument checks every broadphase entry point shares (see col_broadphase_pairs). */
col_status col__bp_check(const col_boxes *boxes, col_touch touch);

/* Working memory kept in the pair list between calls (col_pairs.work): slot `slot` (<
 * COL__BP_WORK_SLOTS) with room for `bytes`, its content undefined; NULL when out of memory.
 * A slot's pointer stays valid until the next call for the same slot. */
#define COL__BP_WORK_SLOTS 7
void *col__bp_work(col__bp *bp, unsigned slot, size_t bytes);

/* Appends (min(a, b), max(a, b)); COL_ERR_MEMORY when the list cannot grow. */
col_status col__bp_push(col__bp *bp, uint32_t a, uint32_t b);
/* Makes room for `extra` more pairs in the pair list (COL_ERR_MEMORY). */
col_status col__bp_reserve(col__bp *bp, size_t extra);
/* Appends (a, b) as given (bipartite pairs index two different sets). */
col_status col__bp_push_ordered(col__bp *bp, uint32_t a, uint32_t b);

#ifdef COL_VALIDATE
/* A quadtree node as its check sees it (quadtree.c): items[0, n) are the node's boxes, the
 * `stay` straddling ones first, then count[k] boxes of child k in order; `above` boxes are held
 * by the nodes above. Aborts naming the broken rule; the unit tests hand it wrong nodes. */
typedef struct col__qt_node {
  const col_aabb3 *norm; /* normalized boxes, by box index */
  const uint32_t *items;
  size_t n, stay;
  const size_t *count; /* 8 entries (4 used in 2D) */
  col_aabb3 cell;
  unsigned dims;
  size_t box_count, above;
} col__qt_node;
void col__quadtree_validate(const col__qt_node *node, uint32_t *scratch);
#endif

/* Box i as a 3D box (z = 0..0 for 2D sets), and whether any of its coordinates is NaN
 * (inline: every algorithm calls them per box). */
static inline col_aabb3 col__bp_box(const col_boxes *boxes, size_t i) {
  col_aabb3 r = {{boxes->min[0][i], boxes->min[1][i], 0.0f},
                 {boxes->max[0][i], boxes->max[1][i], 0.0f}};
  if (boxes->dims == 3) r.min.z = boxes->min[2][i], r.max.z = boxes->max[2][i];
  return r;
}

/* b with min and max swapped on each axis where min > max (the tree, its cache and the quadtree
 * place boxes by it; inline: they call it for every box). */
static inline col_aabb3 col__normalized(col_aabb3 b) {
  col_aabb3 r = b;
  if (b.min.x > b.max.x) r.min.x = b.max.x, r.max.x = b.min.x;
  if (b.min.y > b.max.y) r.min.y = b.max.y, r.max.y = b.min.y;
  if (b.min.z > b.max.z) r.min.z = b.max.z, r.max.z = b.min.z;
  return r;
}

static inline bool col__bp_has_nan(const col_boxes *boxes, size_t i) {
  const col_aabb3 b = col__bp_box(boxes, i);
  return b.min.x != b.min.x || b.min.y != b.min.y || b.min.z != b.min.z || b.max.x != b.max.x ||
         b.max.y != b.max.y || b.max.z != b.max.z;
}

/* The single-pair rule of the set's dimension (z is 0..0 in 2D sets, so the 3D rule decides
 * 2D pairs too under the closed rule; the open rule needs the 2D test). */
static inline bool col__bp_overlap(const col_boxes *boxes, col_aabb3 a, col_aabb3 b,
                                   col_touch touch) {
  if (boxes->dims == 3) return col_aabb3_overlap(a, b, touch);
  return col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                           (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
}

/* Box `query` against boxes [first, first + count) of the sorted or original arrays `min`,
 * `max` on the active backend; writes the hits' offsets (from first) to idx, returns how many. */
size_t col__bp_query_run(const col__bp *bp, col_aabb3 query, const float *const min[3],
                         const float *const max[3], size_t first, size_t count, uint32_t *idx);

/* Sorts `order` (n indices) by `keys` (n 32-bit keys, indexed by position in `order`'s
 * initial content), stable, LSD radix with 8-bit digits under 4,096 entries and 11-bit digits
 * from there; `scratch` holds 2n entries (radix.c). */
void col__radix_sort32(uint32_t *keys, uint32_t *order, size_t n, uint32_t *scratch);
/* Keys sorted by bucket put in order (sap/sort.c): insertion, the radix sort past 2m shifts. */
void col__sap_sort_fix(uint32_t *keys, uint32_t *order, size_t m, uint32_t *scratch);

/* A float's bits mapped so that unsigned order is float order (-0.0 just below +0.0). */
static inline uint32_t col__float_key(float f) {
  uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

#include "lanes.h"

/* Sweep and prune's boxes dealt into cells (sap/deal.c): every box's record (box i's at
 * rec[i * COL__SAP_UNITS(dims)], the padding's after the last box's, all NaN), and each cell a run
 * of places, each the box index | its tag << 32: cell c's boxes sorted on min x at slot[base[c],
 * base[c] + count[c]), then padding (the NaN record, tag 0) up to base[c + 1], a multiple of 16
 * with COL_SAP_PAD or more of them; `widest` is the largest base[c + 1] - base[c]. x_lower: whether
 * the sweep must test max x
 * >= min x (see col_sap_view). Work slots 1 to 4 hold it. Cells [from, to) are dealt: all of
 * them, or (bp->parts > 1) the part's range of the split (col__sap_split), the others not. */
typedef struct col__sap_dealt {
  const col__sap_rec *rec;
  const uint64_t *slot;
  const size_t *count, *base;
  int cells;
  size_t widest;
  bool x_lower;
  int from, to;
} col__sap_dealt;

struct col__survey;
/* Work a parallel call runs beside the pass over the boxes that counts their cells, as one task
 * of that job: the sort on min x when it stays on one thread (the count does not read the
 * order; the deal after it does). */
typedef struct col__sap_side {
  void (*fn)(void *context);
  void *context;
} col__sap_side;
/* The count before the deal (col__sap_count, sap/count.c): the grid (grid false: one cell; used
 * cells of k allocated, kz per row), every box's span word and record (then the NaN padding's),
 * the cells' box counts (count[0, used)), in work slots 1 to 3 of the call that counted; `base`:
 * the room after count for the cells' bases and fills (and a parallel deal's parts, `tasks` of
 * them at `fills`); span_bytes and `bytes` what slot 1 and slots 2-3 hold. The survey it was
 * made from (sv) is kept beside it. */
typedef struct col__sap_counted {
  const struct col__survey *sv;
  uint32_t *span;
  col__sap_rec *rec;
  size_t *count, *base, *fills;
  size_t tasks, per, span_bytes, bytes;
  int used, kz;
  bool grid;
} col__sap_counted;
col_status col__sap_count(col__bp *bp, const struct col__survey *sv, bool avx2, size_t m,
                          const col__sap_side *side, col__sap_counted *out);
/* sv: the boxes' survey (col__sap_survey); avx2: the passes' AVX2 build (col__bp_avx2_passes);
 * side: NULL, or work to finish before the deal reads `order` (run beside the count when
 * there are cell tasks, else first). With bp->counted the count is that one (sv, side unused)
 * and the bases, fills and places are the call's own. */
col_status col__sap_deal(col__bp *bp, const struct col__survey *sv, bool avx2,
                         const uint32_t *order, size_t m, const col__sap_side *side,
                         col__sap_dealt *out);

/* The passes around the sweep kernels (survey, bucket sort, cell count, deal) are plain C on
 * four-lane vectors, built twice: for the ISA baseline and, on x86, for AVX2 (the same source
 * under target("avx2"), as the AVX2 backend is built with -mavx2 only: three-operand forms,
 * 32-bit multiplies, blends, no FMA, so the same bits). The AVX2 build serves the native
 * backends of 8 lanes or more (AVX2, AVX-512; they only run where AVX2 is there too); every
 * other backend (scalar, SSE2, emulated, user) gets the baseline, so comparing two backends
 * still compares whole runs of one ISA each. */
#if defined(__x86_64__) || defined(__i386__)
#define COL__AVX2_BUILD __attribute__((target("avx2")))
#else
#define COL__AVX2_BUILD
#endif
/* The AVX2 build's count of boxes [from, to)'s cells in 3D without NaN (sap/count8.c): count.c's
 * pass eight boxes at a time, the grid given as its lo, scale and cells per axis (y, z); *done
 * is where it stopped (under eight boxes before `to`), returns the wide boxes' copies. */
size_t col__sap_count8(const col_boxes *b, const float lo[2], const float scale[2],
                       const int cells[2], size_t from, size_t to, uint32_t *span, size_t *count,
                       size_t *tally, col__sap_rec *restrict rec, size_t *done);
/* Whether a run on bp's backend takes the AVX2 build (sap/front.c; its callers pass the answer
 * down to the survey, the sort and the deal). */
bool col__bp_avx2_passes(const col__bp *bp);

/* What the sort and the grid need to know of the boxes, from one pass per axis in their own
 * order (sap/survey.c): per partitioned axis (y, then z) the range and summed size of the values
 * and whether every box is finite and upright there (NaN values skipped: compares with NaN are
 * false, their sizes count 0); whether some box is inverted on x; the range of the finite min
 * x (x_spread: there is one, with a finite spread); maybe_nan false when no coordinate is NaN
 * (then the sort and the deal skip their NaN tests; true may also mean an infinite box). */
typedef struct col__survey {
  float lo[2], hi[2];
  double size[2];
  bool ok[2];
  bool x_inverted;
  float x_lo, x_hi;
  bool x_spread, maybe_nan;
} col__survey;
void col__sap_survey(const col_boxes *boxes, bool avx2, col__survey *out);
/* The survey goes by chunks of COL__SURVEY_CHUNK boxes, each summed on its own and the parts
 * folded in chunk order, so that a parallel call (tasks/sort.c), surveying chunks as tasks,
 * gets the same bits. A chunk's part: the survey's fields before the fold. */
#define COL__SURVEY_CHUNK 4096
typedef struct col__survey_part {
  float lo[2], hi[2];
  double size[2];
  bool bad[2];
  bool inverted, odd;
  float x_lo, x_hi;
} col__survey_part;
void col__sap_survey_chunks(const col_boxes *boxes, bool avx2, size_t from, size_t to,
                            col__survey_part *part);
void col__sap_survey_fold(const col_boxes *boxes, const col__survey_part *part, size_t chunks,
                          col__survey *s);
/* The survey as tasks over ranges of chunks, parts in `part` (one per chunk); false when it is
 * not taken (no task system of two workers or more, one chunk): then col__sap_survey. */
col_status col__sap_par_survey(const col__bp *bp, bool avx2, col__survey_part *part, col__survey *s,
                               bool *taken);

/* One cell's arrays for its sweep (work slot 1 once the deal is done): min and max per axis,
 * id and tag, each `widest` entries rounded up to a cache line. */
static inline size_t col__sap_array_bytes(size_t widest) {
  return (widest * sizeof(float) + 63) / 64 * 64;
}
static inline size_t col__sap_cell_bytes(unsigned dims, size_t widest) {
  return (2 * (size_t)dims + 2) * col__sap_array_bytes(widest);
}

col_status col__bp_brute(col__bp *bp);
/* Sweep and prune (sap/sap.c), its sort (sap/sort.c) and its sweep. */
col_status col__bp_sap(col__bp *bp);
/* The boxes without NaN, sorted on min x: their indices in `order`, keys in `keys` (n each),
 * `scratch` COL__SORT_X_SCRATCH(n) words; returns how many. */
#define COL__SORT_X_SCRATCH(n) (4 * (size_t)(n) + 2)
size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch);
/* The same with the boxes' survey at hand (its min-x range; no NaN test when it found none),
 * in the passes' AVX2 build when avx2. */
size_t col__bp_sort_x_surveyed(const col_boxes *boxes, bool avx2, const col__survey *sv,
                               uint32_t *order, uint32_t *keys, uint32_t *scratch);
/* The same for a caller that needs only the order: `keys` may be left undefined (the AVX2
 * build's bucket sort writes none). */
size_t col__bp_sort_x_order(const col_boxes *boxes, bool avx2, const col__survey *sv,
                            uint32_t *order, uint32_t *keys, uint32_t *scratch);
/* The same with box i's index given as ids[i] (order holds ids of the sorted boxes): a part's
 * boxes, picked out of the whole set (sap/pick.c). */
size_t col__bp_sort_x_ids(const col_boxes *boxes, bool avx2, const col__survey *sv,
                          const uint32_t *ids, uint32_t *order, uint32_t *keys, uint32_t *scratch);
/* Boxes past which the deal prefetches (sap/deal.c, 65,536; the broadphase fuzzer lowers it,
 * since its inputs never reach that many). */
extern size_t col__deal_far;
/* Boxes from which the parallel call sorts as tasks (tasks/sort.c; tests lower it). */
extern size_t col__par_sort_min;
/* The sort of col__bp_sort_x_surveyed as tasks on bp->par's task system (tasks/sort.c), the
 * same order and count in *m; *m = SIZE_MAX when it is not taken (no task system of two
 * workers or more, a small input, no finite spread of min x): then sort as usual. */
col_status col__sap_par_sort(const col__bp *bp, const col__survey *sv, uint32_t *order,
                             uint32_t *keys, uint32_t *scratch, size_t *m);
/* The sweep of sweep and prune over `order`: every box without NaN (m of them), sorted on min
 * x, the boxes' survey sv, the passes' build avx2; `idx` has room for m indices. Its working
 * memory is kept in the pair list (COL_ERR_MEMORY). */
col_status col__bp_sap_sweep(col__bp *bp, const col__survey *sv, bool avx2, const uint32_t *order,
                             size_t m, const col__sap_side *side, uint32_t *idx);
/* Cells [from, to) of dealt boxes swept into bp's list, in cell order, with the cell arrays in
 * work slot 1 of bp's list (sap/sweep.c); `idx` has room for d->widest indices. */
col_status col__sap_sweep_cells(col__bp *bp, const col__sap_dealt *d, int from, int to,
                                uint32_t *idx);
/* The same for every cell, split into tasks run on bp->par's task system and joined in cell
 * order (tasks/sweep.c): the sequential call's pairs in its order. */
col_status col__sap_par_cells(col__bp *bp, const col__sap_dealt *d, uint32_t *idx);
/* The passes before the sweep on one thread (survey, sort, deal; sap/front.c), on bp's own working
 * memory: the dealt cells in *d, the sweep's index room in *idx. */
col_status col__sap_front(col__bp *bp, col__sap_dealt *d, uint32_t **idx);
/* The boxes without NaN (the sweep's m; sap/front.c). */
size_t col__sap_sweepable(const col_boxes *boxes);
/* A part's boxes sorted (sap/pick.c), the band a part's deal takes its order from: those whose
 * cells may reach [lo, hi) picked in index order without a branch (their min x beside them, in
 * own and xs), sorted as the whole set is (on the same range of min x; a stable sort on the
 * key, so ties stay in index order) carrying their box indices: the whole set's sorted order
 * restricted to them, as the deal needs. col__sap_pick_order is a col__sap_band's fn. */
typedef struct col__sap_pick {
  const col_boxes *boxes;
  const col__survey *sv;
  bool avx2, maybe_nan;
  uint32_t *order, *keys, *scratch, *own;
  float *xs;
} col__sap_pick;
size_t col__sap_pick_order(void *context, const uint32_t *span, int kz, bool all, size_t lo,
                           size_t hi, const uint32_t **order);
/* A box's cells in the deal's span word (sap/count.c): the flag of a box over more than two
 * cells on an axis, and such a box counted into count[cell] cell by cell (sap/count8.c; returns
 * its copies). */
#define COL__SAP_WIDE 0x80000000u
size_t col__sap_count_wide(uint32_t w, int kz, size_t *count);
col_status col__bp_grid(col__bp *bp);
col_status col__bp_tree(col__bp *bp);
col_status col__bp_quadtree(col__bp *bp);

/* The parallel sweep and prune's tasks. */
#include "tasks/tasks.h"

#endif
