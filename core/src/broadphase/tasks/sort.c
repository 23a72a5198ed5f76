/* Sweep and prune's sort on min x (../sap/sort.c) split into tasks, for the parallel call. The
 * sequential sort's result is the boxes without NaN ordered by min x's key, equal keys by
 * index (its bucket scatter and insertion pass are stable, and so is the radix sort it falls
 * back on), so any stable sort gives it. Here: the same kind of monotonic bucket map (a
 * larger value never gets a lower bucket), its buckets grouped into coarse ones; tasks over
 * ranges of the boxes count their boxes per coarse bucket, a prefix sum over (coarse bucket,
 * task) gives each its places, and each scatters its boxes there in index order. The coarse
 * buckets are then the final order's segments: tasks over ranges of them sort each one by a
 * counting pass on its fine buckets and an insertion pass on the keys (the radix sort when the
 * insertion would move more than twice the segment's boxes). Everything in the sort's
 * scratch: no allocation, no lock. */
#include "../broadphase.h"

#include "../../validate.h"

#include <string.h>

/* Boxes per task at least and tasks at most (the counters must fit the scratch: see plan);
 * boxes per coarse bucket at least, coarse buckets at most. */
enum { SORT_MIN_N = 2048, SORT_MIN_BOXES = 1024, SORT_MAX_TASKS = 16 };
/* Under this many boxes the parallel call sorts on one thread, beside the cell count (sap.c):
 * on 2 cores the three passes below cost more than the AVX2 bucket sort on one thread at the
 * smaller sizes measured and gain only at the largest (docs/tuning.md). A
 * variable, not a constant, so that the fuzzer and the tests can reach the parallel sort with
 * fewer boxes (never below SORT_MIN_N). */
size_t col__par_sort_min = 1u << 18;
enum { COARSE_BOXES = 64, COARSE_MAX = 1024 };

typedef struct sort_job {
  const col_boxes *boxes;
  bool maybe_nan;
  float lo, scale, last;
  size_t n, tasks, coarse, width;
  uint32_t *order, *keys;
  uint32_t *trip;  /* 3 words a kept box: fine bucket, key, index; by coarse bucket */
  uint32_t *hist;  /* tasks x coarse: counts, then each task's next place */
  uint32_t *first; /* coarse + 1: each coarse bucket's first place */
  uint32_t *fine;  /* tasks x (width + 1): each task's fine counters */
} sort_job;

static inline uint32_t bucket_of(const sort_job *j, float x) {
  const float t = (x - j->lo) * j->scale, u = t > 0 ? t : 0;
  return (uint32_t)(u < j->last ? u : j->last);
}

static size_t range_at(size_t n, size_t t, size_t tasks) { return n * t / tasks; }

static void count_task(void *context, uint32_t t) {
  const sort_job *j = context;
  uint32_t *h = j->hist + (size_t)t * j->coarse;
  memset(h, 0, j->coarse * sizeof *h);
  const float *x = j->boxes->min[0];
  const size_t to = range_at(j->n, t + 1, j->tasks);
  for (size_t i = range_at(j->n, t, j->tasks); i < to; i++) {
    if (j->maybe_nan && col__bp_has_nan(j->boxes, i)) continue;
    h[bucket_of(j, x[i]) / j->width]++;
  }
}

static void scatter_task(void *context, uint32_t t) {
  const sort_job *j = context;
  uint32_t *h = j->hist + (size_t)t * j->coarse;
  const float *x = j->boxes->min[0];
  const size_t to = range_at(j->n, t + 1, j->tasks);
  for (size_t i = range_at(j->n, t, j->tasks); i < to; i++) {
    if (j->maybe_nan && col__bp_has_nan(j->boxes, i)) continue;
    const uint32_t b = bucket_of(j, x[i]);
    uint32_t *p = j->trip + 3 * (size_t)h[b / j->width]++;
    p[0] = b, p[1] = col__float_key(x[i]), p[2] = (uint32_t)i;
  }
}

/* Coarse bucket c's boxes (places s..e) into keys and order, sorted. */
static void sort_segment(const sort_job *j, size_t c, uint32_t *cnt) {
  const size_t s = j->first[c], e = j->first[c + 1], lo = c * j->width;
  if (s == e) return;
  const uint32_t *trip = j->trip + 3 * s;
  uint32_t *keys = j->keys + s, *order = j->order + s;
  memset(cnt, 0, (j->width + 1) * sizeof *cnt);
  for (size_t r = 0; r < e - s; r++) cnt[trip[3 * r] - lo + 1]++;
  for (size_t b = 0; b < j->width; b++) cnt[b + 1] += cnt[b];
  for (size_t r = 0; r < e - s; r++) {
    const uint32_t to = cnt[trip[3 * r] - lo]++;
    keys[to] = trip[3 * r + 1], order[to] = trip[3 * r + 2];
  }
  /* Only boxes of one fine bucket can be out of order now (as in the sequential sort). */
  const size_t m = e - s;
  /* The segment's triples are spent: their 3m words hold the radix sort's 2m. */
  col__sap_sort_fix(keys, order, m, j->trip + 3 * s);
}

static void segment_task(void *context, uint32_t t) {
  const sort_job *j = context;
  uint32_t *cnt = j->fine + (size_t)t * (j->width + 1);
  const size_t to = range_at(j->coarse, t + 1, j->tasks);
  for (size_t c = range_at(j->coarse, t, j->tasks); c < to; c++) sort_segment(j, c, cnt);
}

col_status col__sap_par_sort(const col__bp *bp, const col__survey *sv, uint32_t *order,
                             uint32_t *keys, uint32_t *scratch, size_t *m) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  *m = SIZE_MAX;
  col_task_system ts;
  if (bp->par == NULL || n < SORT_MIN_N || n < col__par_sort_min || !sv->x_spread) return COL_OK;
  if (col__par_tasks(bp->par, &ts) != COL_OK || ts.workers <= 1) return COL_OK;
  size_t tasks = (size_t)ts.workers * 2, coarse = n / COARSE_BOXES;
  if (tasks > SORT_MAX_TASKS) tasks = SORT_MAX_TASKS;
  if (tasks > n / SORT_MIN_BOXES) tasks = n / SORT_MIN_BOXES;
  if (coarse > COARSE_MAX) coarse = COARSE_MAX;
  const size_t width = (n + coarse - 1) / coarse;
  /* The scratch (COL__SORT_X_SCRATCH(n) words): 3n for the triples, then the counters:
   * tasks (coarse + width + 1) + coarse + 1 words, under n + 2 for n >= SORT_MIN_N. */
  sort_job j = {boxes,
                sv->maybe_nan,
                sv->x_lo,
                (float)((double)n / ((double)sv->x_hi - sv->x_lo)),
                (float)(n - 1),
                n,
                tasks,
                coarse,
                width,
                order,
                keys,
                scratch,
                scratch + 3 * n,
                scratch + 3 * n + tasks * coarse,
                scratch + 3 * n + tasks * coarse + coarse + 1};
#ifdef COL_VALIDATE
  if (tasks * (coarse + width + 1) + coarse + 1 > n + 2)
    col__validate_fail("parallel sort", "counters past the scratch", n);
#endif
  if (!col__par_run(bp, count_task, &j, tasks)) return COL_ERR_TASKS;
  size_t at = 0;
  for (size_t c = 0; c < coarse; c++) {
    j.first[c] = (uint32_t)at;
    for (size_t t = 0; t < tasks; t++) {
      const uint32_t here = j.hist[t * coarse + c];
      j.hist[t * coarse + c] = (uint32_t)at, at += here;
    }
  }
  j.first[coarse] = (uint32_t)at;
  if (!col__par_run(bp, scatter_task, &j, tasks)) return COL_ERR_TASKS;
  if (!col__par_run(bp, segment_task, &j, tasks)) return COL_ERR_TASKS;
  *m = at;
  return COL_OK;
}

typedef struct survey_job {
  const col_boxes *boxes;
  bool avx2;
  size_t chunks, tasks;
  col__survey_part *part;
} survey_job;

static void survey_task(void *context, uint32_t t) {
  const survey_job *j = context;
  const size_t from = range_at(j->chunks, t, j->tasks), to = range_at(j->chunks, t + 1, j->tasks);
  col__sap_survey_chunks(j->boxes, j->avx2, from, to, j->part + from);
}

col_status col__sap_par_survey(const col__bp *bp, bool avx2, col__survey_part *part, col__survey *s,
                               bool *taken) {
  const size_t chunks = (bp->boxes->count + COL__SURVEY_CHUNK - 1) / COL__SURVEY_CHUNK;
  col_task_system ts;
  *taken = false;
  if (bp->par == NULL || chunks < 2) return COL_OK;
  if (col__par_tasks(bp->par, &ts) != COL_OK || ts.workers <= 1) return COL_OK;
  size_t tasks = (size_t)ts.workers * 2;
  if (tasks > chunks) tasks = chunks;
  survey_job j = {bp->boxes, avx2, chunks, tasks, part};
  if (!col__par_run(bp, survey_task, &j, tasks)) return COL_ERR_TASKS;
  col__sap_survey_fold(bp->boxes, part, chunks, s);
  *taken = true;
  return COL_OK;
}
