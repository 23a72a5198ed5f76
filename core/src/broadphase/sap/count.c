/* Sweep and prune's grid of cells and the count of the boxes in each (the survey and the sort
 * before it are in survey.c and sort.c, the deal after it in deal.c, the sweep in sweep.c): cells
 * of equal size over y (and z in 3D), each box's coordinates written once as a record (16 bytes in
 * 2D, 32 in 3D: col__sap_rec), and the box dealt into every cell it covers as an 8-byte place (its
 * index and tag), in sorted order so that each cell stays sorted on min x. A pair met in several
 * cells is kept in the cell of the larger first row (and layer) of the two, which the places' tags
 * tell. The passes over every box run four lanes at a time; a box's places are written without
 * branches. */
#include "../broadphase.h"

#include <math.h>

/* Cells over y (and z in 3D) of equal size: cell_of is monotonic in the coordinate, so a box
 * spans cells cell_of(min)..cell_of(max) on each axis and every value in it lies in one of
 * them. */
typedef struct col__cells {
  float lo[2], scale[2]; /* axis y, then z */
  int count[2];          /* cells per axis (1 on z in 2D) */
} col__cells;

static inline int cell_of(const col__cells *c, int axis, float v) {
  /* Clamped before the conversion: v - lo overflows to +inf for boxes near both ends of the
   * float range, and converting inf to int is undefined. */
  const float t = (v - c->lo[axis]) * c->scale[axis], last = (float)(c->count[axis] - 1);
  const float u = t > 0 ? t : 0;
  return (int)(u < last ? u : last);
}

/* cell_of for four values. */
COL__BP_INLINE col__u4 cells4(const col__cells *c, int axis, col__f4 v) {
  const col__f4 zero = splat4(0.0f), last = splat4((float)(c->count[axis] - 1));
  const col__f4 t = (v - splat4(c->lo[axis])) * splat4(c->scale[axis]);
  return (col__u4) __builtin_convertvector(min4(max4(t, zero), last), col__i4);
}

/* Boxes i..i+3's records (at rec, the first one's) from their values in lanes: two 4x4
 * transposes of the x and y values; in 3D z's pairs in the second units. */
COL__BP_INLINE void put_recs4(col__sap_rec *restrict rec, bool z, col__f4 x0, col__f4 y0,
                              col__f4 x1, col__f4 y1, col__f4 z0, col__f4 z1) {
  const col__f4 zero = splat4(0.0f);
  const col__f4 lo01 = __builtin_shufflevector(x0, y0, 0, 4, 1, 5);
  const col__f4 lo23 = __builtin_shufflevector(x0, y0, 2, 6, 3, 7);
  const col__f4 hi01 = __builtin_shufflevector(x1, y1, 0, 4, 1, 5);
  const col__f4 hi23 = __builtin_shufflevector(x1, y1, 2, 6, 3, 7);
  const col__f4 z01 = __builtin_shufflevector(z0, z1, 0, 4, 1, 5);
  const col__f4 z23 = __builtin_shufflevector(z0, z1, 2, 6, 3, 7);
  /* Stored one by one: through an array, gcc kept them on the stack and copied them in a loop. */
  const col__f4 box0 = __builtin_shufflevector(lo01, hi01, 0, 1, 4, 5);
  const col__f4 box1 = __builtin_shufflevector(lo01, hi01, 2, 3, 6, 7);
  const col__f4 box2 = __builtin_shufflevector(lo23, hi23, 0, 1, 4, 5);
  const col__f4 box3 = __builtin_shufflevector(lo23, hi23, 2, 3, 6, 7);
  const col__f4 rest0 = __builtin_shufflevector(z01, zero, 0, 1, 4, 4);
  const col__f4 rest1 = __builtin_shufflevector(z01, zero, 2, 3, 4, 4);
  const col__f4 rest2 = __builtin_shufflevector(z23, zero, 0, 1, 4, 4);
  const col__f4 rest3 = __builtin_shufflevector(z23, zero, 2, 3, 4, 4);
  if (!z) {
    memcpy(rec[0].v, &box0, 16), memcpy(rec[1].v, &box1, 16);
    memcpy(rec[2].v, &box2, 16), memcpy(rec[3].v, &box3, 16);
    return;
  }
  memcpy(rec[0].v, &box0, 16), memcpy(rec[1].v, &rest0, 16);
  memcpy(rec[2].v, &box1, 16), memcpy(rec[3].v, &rest1, 16);
  memcpy(rec[4].v, &box2, 16), memcpy(rec[5].v, &rest2, 16);
  memcpy(rec[6].v, &box3, 16), memcpy(rec[7].v, &rest3, 16);
}

/* Box i's record (at rec, its first unit). */
COL__BP_INLINE void put_rec1(col__sap_rec *restrict rec, const col_boxes *b, size_t i) {
  const col__f4 box = {b->min[0][i], b->min[1][i], b->max[0][i], b->max[1][i]};
  memcpy(rec[0].v, &box, sizeof box);
  if (b->dims != 3) return;
  const uint32_t rest[4] = {0, 0, 0, 0};
  memcpy(rec[1].v, rest, sizeof rest);
  memcpy(&rec[1].v[0], &b->min[2][i], sizeof(float)), memcpy(&rec[1].v[1], &b->max[2][i], 4);
}

/* Every box's record (NaN or not: the sweep never reads those). */
COL__BP_INLINE void build_recs(const col_boxes *b, col__sap_rec *restrict rec) {
  const size_t n = b->count;
  const bool z = b->dims == 3;
  const size_t units = COL__SAP_UNITS(b->dims);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const col__f4 zero = splat4(0.0f);
    put_recs4(rec + i * units, z, load4(b->min[0] + i), load4(b->min[1] + i), load4(b->max[0] + i),
              load4(b->max[1] + i), z ? load4(b->min[2] + i) : zero,
              z ? load4(b->max[2] + i) : zero);
  }
  for (; i < n; i++) put_rec1(rec + i * units, b, i);
}

/* A box's cells as count_cells leaves them for the deal: a box over at most two cells per
 * axis as its first cell c00 | dy << 16 | dz << 17 (dy, dz: 1 when it covers the next row,
 * the next layer); a wider one (rare: cells hold 1.5 or 2 mean extents) as y0 | y1 << 8 |
 * z0 << 16 | z1 << 24 | WIDE. */
#define WIDE COL__SAP_WIDE

/* Boxes [from, to)'s cells in span[i] (as above; NaN or not: those are never dealt) and
 * records, and their tallies: a box without NaN (which must be the boxes to sweep) over at most
 * two cells per axis is one increment, tally[s * k + c00], s = dy + 2 dz its shape, c00 its
 * first cell (one counter per box, so only boxes with the same first cell and shape wait for
 * each other through memory); a wider one adds to count[] directly. Returns the wide boxes'
 * copies. */
COL__BP_INLINE size_t count_range(const col_boxes *b, const col__cells *c, bool maybe_nan,
                                  size_t from, size_t to, uint32_t *span, size_t *count,
                                  size_t *tally, col__sap_rec *restrict rec) {
  const int kz = c->count[1], k = c->count[0] * kz;
  const bool z = b->dims == 3;
  const size_t units = COL__SAP_UNITS(b->dims);
  size_t i = from, copies = 0;
  const col__u4 two = {2, 2, 2, 2}, lanes_k = {(uint32_t)k, (uint32_t)k, (uint32_t)k, (uint32_t)k};
  const col__u4 lanes_kz = {(uint32_t)kz, (uint32_t)kz, (uint32_t)kz, (uint32_t)kz};
  /* The arrays in locals: the stores below could alias *b as far as the compiler knows. */
  const float *const lx = b->min[0], *const hx = b->max[0], *const ly = b->min[1];
  const float *const hy = b->max[1], *const lz = b->min[2], *const hz = b->max[2];
  for (; i + 4 <= to; i += 4) {
    const col__f4 y0 = load4(ly + i), y1 = load4(hy + i);
    const col__f4 x0 = load4(lx + i), x1 = load4(hx + i);
    const col__u4 cy0 = cells4(c, 0, y0), cy1 = cells4(c, 0, y1);
    col__u4 cz0 = {0, 0, 0, 0}, cz1 = {0, 0, 0, 0};
    col__f4 z0 = splat4(0.0f), z1 = z0;
    if (z) {
      z0 = load4(lz + i), z1 = load4(hz + i);
      cz0 = cells4(c, 1, z0), cz1 = cells4(c, 1, z1);
    }
    col__i4 ok = {-1, -1, -1, -1};
    if (maybe_nan) {
      ok = (x0 == x0) & (x1 == x1) & (y0 == y0) & (y1 == y1);
      if (z) ok &= (z0 == z0) & (z1 == z1);
    }
    put_recs4(rec + i * units, z, x0, y0, x1, y1, z0, z1);
    const col__u4 dy = cy1 - cy0, dz = cz1 - cz0, c00 = cy0 * lanes_kz + cz0;
    const col__i4 narrow = (col__i4)((dy < two) & (dz < two));
    const col__u4 at = (dy + dz * 2) * lanes_k + c00;
    const col__u4 wide = cy0 | cy1 << 8 | cz0 << 16 | cz1 << 24 | WIDE;
    const col__u4 w = (col__u4)pick4(narrow, (col__f4)(c00 | dy << 16 | dz << 17), (col__f4)wide);
    memcpy(span + i, &w, sizeof w);
    const col__i4 plain = ok & narrow;
    if ((plain[0] & plain[1] & plain[2] & plain[3]) != 0) { /* the usual case: no branch a lane */
      tally[at[0]]++, tally[at[1]]++, tally[at[2]]++, tally[at[3]]++;
      continue;
    }
    for (int q = 0; q < 4; q++) {
      if (ok[q] == 0) continue;
      if (narrow[q] != 0)
        tally[at[q]]++;
      else
        copies += col__sap_count_wide(w[q], kz, count);
    }
  }
  for (; i < to; i++) {
    put_rec1(rec + i * units, b, i);
    uint32_t w = (uint32_t)cell_of(c, 0, b->min[1][i]) | (uint32_t)cell_of(c, 0, b->max[1][i]) << 8;
    if (z)
      w |= (uint32_t)cell_of(c, 1, b->min[2][i]) << 16 | (uint32_t)cell_of(c, 1, b->max[2][i])
                                                             << 24;
    const uint32_t y0 = w & 255u, dy = (w >> 8 & 255u) - y0;
    const uint32_t z0 = w >> 16 & 255u, dz = (w >> 24) - z0, c00 = y0 * (uint32_t)kz + z0;
    span[i] = dy < 2 && dz < 2 ? c00 | dy << 16 | dz << 17 : w | WIDE;
    if (col__bp_has_nan(b, i)) continue;
    if (dy < 2 && dz < 2)
      tally[(dy + 2 * dz) * (uint32_t)k + c00]++;
    else
      copies += col__sap_count_wide(w, kz, count);
  }
  return copies;
}

/* The cells' counts from the tallies: shape s covers c00, c00 + kz when s & 1, c00 + 1 when
 * s & 2, c00 + kz + 1 when s == 3. False when the copies would pass 3m (then one cell does
 * better). */
static bool fold_tallies(const col__cells *c, size_t m, size_t copies, size_t *count,
                         const size_t *tally) {
  const int kz = c->count[1], k = c->count[0] * kz;
  const size_t *t0 = tally, *t1 = tally + k, *t2 = tally + 2 * k, *t3 = tally + 3 * k;
  for (int y = 0, cell = 0; y < c->count[0]; y++)
    for (int zc = 0; zc < kz; zc++, cell++) {
      count[cell] += t0[cell] + t1[cell] + t2[cell] + t3[cell];
      copies += t0[cell] + 2 * (t1[cell] + t2[cell]) + 4 * t3[cell];
      if (y > 0) count[cell] += t1[cell - kz] + t3[cell - kz];
      if (zc > 0) count[cell] += t2[cell - 1] + t3[cell - 1];
      if (y > 0 && zc > 0) count[cell] += t3[cell - kz - 1];
    }
  return copies <= 3 * m;
}

/* The pass in the boxes' own order: with a grid, count_range over [from, to) into count and
 * tally (zeroed by the caller), returning the wide boxes' copies; otherwise every record. */
typedef size_t cells_fn(const col_boxes *b, const col__cells *c, bool grid, bool maybe_nan,
                        size_t from, size_t to, uint32_t *span, size_t *count, size_t *tally,
                        col__sap_rec *restrict rec);
static size_t cells_base(const col_boxes *b, const col__cells *c, bool grid, bool maybe_nan,
                         size_t from, size_t to, uint32_t *span, size_t *count, size_t *tally,
                         col__sap_rec *restrict rec) {
  if (!grid) {
    build_recs(b, rec);
    return 0;
  }
  return count_range(b, c, maybe_nan, from, to, span, count, tally, rec);
}
COL__AVX2_BUILD static size_t cells_avx2(const col_boxes *b, const col__cells *c, bool grid,
                                         bool maybe_nan, size_t from, size_t to, uint32_t *span,
                                         size_t *count, size_t *tally, col__sap_rec *restrict rec) {
  if (!grid) {
    build_recs(b, rec);
    return 0;
  }
  size_t copies = 0;
#if defined(__x86_64__) || defined(__i386__)
  /* 3D without NaN: eight lanes (count8.c), the last boxes here */
  if (b->dims == 3 && !maybe_nan)
    copies =
        col__sap_count8(b, c->lo, c->scale, c->count, from, to, span, count, tally, rec, &from);
#endif
  return copies + count_range(b, c, maybe_nan, from, to, span, count, tally, rec);
}

/* The pass as tasks over ranges of the boxes (multiples of 4, so that the lanes group the
 * boxes as one pass does): each its own k counts, 4k tallies and copies in `part`, summed in
 * task order afterwards (sums of integers: the same counts as one pass). */
typedef struct cells_job {
  cells_fn *fn;
  const col_boxes *b;
  const col__cells *c;
  bool maybe_nan;
  size_t tasks, k;
  uint32_t *span;
  col__sap_rec *rec;
  size_t *part; /* per task, `stride` apart: count (k), tally (4k), copies (1) */
  size_t stride;
  const col__sap_side *side; /* task 0 when there is one */
} cells_job;

static size_t cells_at(const cells_job *j, size_t t) {
  return t == j->tasks ? j->b->count : j->b->count / 4 * t / j->tasks * 4;
}

static void cells_task(void *context, uint32_t task) {
  const cells_job *j = context;
  /* The side work first: the lowest index is claimed first, and it is the longest task. */
  if (j->side != NULL && task == 0) {
    j->side->fn(j->side->context);
    return;
  }
  const size_t t = task - (j->side != NULL);
  size_t *count = j->part + t * j->stride, *tally = count + j->k;
  memset(count, 0, (5 * j->k + 1) * sizeof *count);
  tally[4 * j->k] = j->fn(j->b, j->c, true, j->maybe_nan, cells_at(j, t), cells_at(j, t + 1),
                          j->span, count, tally, j->rec);
}

/* count[0..k): every cell's boxes (among those without NaN: the boxes to sweep), by one pass
 * or by `tasks` tasks, each with its part of `part` (part_stride entries apart, laid out by
 * col__sap_deal); false when the grid is given up (too many copies). */
static col_status count_cells(col__bp *bp, const col__cells *c, size_t m, bool maybe_nan, bool avx2,
                              size_t tasks, uint32_t *span, size_t *count, size_t *tally,
                              size_t *part, size_t part_stride, const col__sap_side *side,
                              col__sap_rec *rec, bool *grid) {
  const size_t k = (size_t)c->count[0] * (size_t)c->count[1];
  cells_fn *fn = avx2 ? cells_avx2 : cells_base;
  memset(count, 0, k * sizeof *count);
  memset(tally, 0, 4 * k * sizeof *tally);
  size_t copies = 0;
  if (tasks > 1) {
    cells_job j = {fn, bp->boxes, c, maybe_nan, tasks, k, span, rec, part, part_stride, side};
    if (!col__par_run(bp, cells_task, &j, tasks + (side != NULL))) return COL_ERR_TASKS;
    for (size_t t = 0; t < tasks; t++) {
      const size_t *pc = part + t * j.stride, *pt = pc + k;
      for (size_t q = 0; q < k; q++) count[q] += pc[q];
      for (size_t q = 0; q < 4 * k; q++) tally[q] += pt[q];
      copies += pt[4 * k];
    }
  } else {
    if (side != NULL) side->fn(side->context);
    copies = fn(bp->boxes, c, true, maybe_nan, 0, bp->boxes->count, span, count, tally, rec);
  }
  *grid = fold_tallies(c, m, copies, count, tally);
  return COL_OK;
}

/* Cells per axis: about CELL_EXTENTS mean box extents each (CELL_EXTENTS_2D in 2D, where a
 * row holds more boxes and runs grow faster with its height), but few enough that a cell holds
 * about CELL_BOXES boxes or more (at most 256 rows in 2D, 32 x 32 in 3D), and only when every
 * box is finite and upright on the partitioned axes (an inverted box can still overlap
 * others, but spans no cell) and the copies stay under 3m. Smaller cells mean shorter runs
 * but more copies, and each run has a fixed cost; the sizes are the best of those tried on the
 * box-pruning scenes (docs/tuning.md: 2D gains from 1.5 extents at large sizes). */
enum { CELL_EXTENTS = 2, CELL_BOXES = 150 };
#define CELL_EXTENTS_2D 1.5

/* The grid for m sweepable boxes in c: false for a single cell (too few boxes, a box not finite
 * or inverted on y or z, no spread). */
static bool choose_cells(const col__survey *s, unsigned dims, size_t m, col__cells *c) {
  if (m < 256) return false;
  const int axes = dims == 3 ? 2 : 1, most = axes == 2 ? 32 : 256;
  const double fit = axes == 2 ? sqrt((double)m / CELL_BOXES) : (double)m / CELL_BOXES;
  const int cap = fit < 1 ? 1 : fit < most ? (int)fit : most;
  c->count[1] = 1, c->lo[1] = 0, c->scale[1] = 0;
  for (int a = 0; a < axes; a++) {
    if (!s->ok[a]) return false;
    const double mean = s->size[a] / (double)m, extent = (double)s->hi[a] - s->lo[a];
    if (!(mean > 0) || !(extent > 0)) return false;
    /* Clamped as a double: boxes of tiny size over a huge extent give a ratio past INT_MAX. */
    const double ratio = extent / ((axes == 1 ? CELL_EXTENTS_2D : CELL_EXTENTS) * mean);
    const int k = ratio >= cap ? cap : ratio < 1.0 ? 1 : (int)ratio;
    c->lo[a] = s->lo[a], c->count[a] = k, c->scale[a] = (float)((double)k / extent);
  }
  return c->count[0] * c->count[1] > 1;
}

/* Boxes per task at least (below that the task's start costs about as much as its boxes), and
 * tasks per worker (ranges cost about the same, but a loaded worker can fall behind): the
 * tasks of the count below and of the deal after it (deal.c). */
enum { DEAL_MIN_BOXES = 512, DEAL_TASKS_PER_WORKER = 2, DEAL_MAX_TASKS = 64 };

size_t col__sap_deal_tasks(const col__bp *bp, size_t m) {
  col_task_system ts;
  if (bp->par == NULL || col__par_tasks(bp->par, &ts) != COL_OK || ts.workers <= 1) return 0;
  size_t n = (size_t)ts.workers * DEAL_TASKS_PER_WORKER, most = m / DEAL_MIN_BOXES;
  if (n > most) n = most;
  return n > DEAL_MAX_TASKS ? DEAL_MAX_TASKS : n;
}

col_status col__sap_count(col__bp *bp, const col__survey *sv, bool avx2, size_t m,
                          const col__sap_side *side, col__sap_counted *out) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count, units = COL__SAP_UNITS(boxes->dims);
  col__cells cells = {{0, 0}, {0, 0}, {1, 1}};
  /* Slot 1: every box's cells (4 bytes each); slot 2: the records, every box's and the
   * padding's; slot 3: per cell, its boxes, first position and next free position, then
   * count_cells' tallies, then a parallel call's per-task parts (below). */
  const size_t span_bytes = 4 * n + 4, rec_bytes = (n + 1) * units * sizeof(col__sap_rec);
  uint32_t *span = col__bp_work(bp, 1, span_bytes);
  col__sap_rec *rec = col__bp_work(bp, 2, rec_bytes);
  if (span == NULL || rec == NULL) return COL_ERR_MEMORY;
  bool grid = choose_cells(sv, boxes->dims, m, &cells);
  const int k = grid ? cells.count[0] * cells.count[1] : 1, kz = cells.count[1];
  const size_t tasks = grid ? col__sap_deal_tasks(bp, m) : 0;
  /* fill reaches kz + 1 cells past the grid (deal: spare places) */
  const size_t per = (size_t)k + (size_t)kz + 1;
  /* After them: a parallel deal's fills (per task and cell), then the cell pass's parts (per
   * task: counts, tallies, copies). */
  const size_t fill_stride = COL__TASK_ROUND(per, sizeof(size_t));
  const size_t part_stride = COL__TASK_ROUND(5 * (size_t)k + 1, sizeof(size_t));
  const size_t parts = tasks > 1 ? tasks * (fill_stride + part_stride) : 0;
  const size_t cell_bytes = (3 * per + 4 * (size_t)k + parts) * sizeof(size_t);
  size_t *count = col__bp_work(bp, 3, cell_bytes);
  if (count == NULL) return COL_ERR_MEMORY;
  size_t *tally = count + 3 * per, *fills = tally + 4 * (size_t)k;
  size_t *part = fills + (tasks > 1 ? tasks * fill_stride : 0);
  if (grid) {
    const col_status st = count_cells(bp, &cells, m, sv->maybe_nan, avx2, tasks, span, count, tally,
                                      part, part_stride, side, rec, &grid);
    if (st != COL_OK) return st;
  } else {
    if (side != NULL) side->fn(side->context);
    (avx2 ? cells_avx2 : cells_base)(boxes, &cells, false, false, 0, n, span, count, tally, rec);
  }
  if (!grid) count[0] = m; /* one cell: also when the grid gave too many copies */
  const col__f4 nan4 = splat4(NAN);
  for (size_t u = 0; u < units; u++) memcpy(rec[n * units + u].v, &nan4, sizeof nan4);
  *out = (col__sap_counted){sv,           span,  rec, count,      count + per,
                            fills,        tasks, per, span_bytes, rec_bytes + cell_bytes,
                            grid ? k : 1, kz,    grid};
  return COL_OK;
}
