/* The broadphase front end: the growable pair list, argument checks, the shared helpers, and
 * the dispatch to each algorithm (DESIGN.md 4.5). */
#include "static.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer (the fuzz and sanitizer builds) the part of a kept work block past
 * what the caller asked for is poisoned, so that reading or writing past the bytes requested
 * is reported even though the block is larger (grown by half, or kept from a larger call). */
#if defined(__SANITIZE_ADDRESS__)
#define COL__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COL__ASAN 1
#endif
#endif
#ifdef COL__ASAN
#include <sanitizer/asan_interface.h>
#define COL__POISON(p, n)   ASAN_POISON_MEMORY_REGION(p, n)
#define COL__UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define COL__POISON(p, n)   ((void)(p), (void)(n))
#define COL__UNPOISON(p, n) ((void)(p), (void)(n))
#endif

void col_pairs_init(col_pairs *pairs) {
  if (pairs != NULL) *pairs = (col_pairs){NULL, 0, 0, NULL};
}

/* The working memory kept in a pair list: blocks that only grow (see col__bp_work). */
struct col_pairs_work {
  void *block[COL__BP_WORK_SLOTS];
  size_t bytes[COL__BP_WORK_SLOTS];
  col__bp_task *task; /* a parallel sweep's tasks, each list with its own working memory */
  size_t tasks;
};

void col_pairs_free(col_pairs *pairs) {
  if (pairs == NULL) return;
  free(pairs->data);
  if (pairs->work != NULL)
    for (int k = 0; k < COL__BP_WORK_SLOTS; k++) {
      COL__UNPOISON(pairs->work->block[k], pairs->work->bytes[k]);
      free(pairs->work->block[k]);
    }
  if (pairs->work != NULL) {
    for (size_t t = 0; t < pairs->work->tasks; t++) {
      col_pairs_free(&pairs->work->task[t].list);
      free(pairs->work->task[t].stolen.data);
    }
    free(pairs->work->task);
  }
  free(pairs->work);
  *pairs = (col_pairs){NULL, 0, 0, NULL};
}

void *col__bp_work(col__bp *bp, unsigned slot, size_t bytes) {
  col_pairs *out = bp->out;
  if (out->work == NULL && (out->work = calloc(1, sizeof *out->work)) == NULL) return NULL;
  struct col_pairs_work *w = out->work;
  if (bytes == 0) bytes = 1;
  if (w->bytes[slot] < bytes) {
    /* Freed, not reallocated: the old content is not needed, so nothing is copied. Grown by
     * half again so that slowly growing inputs do not reallocate every call. */
    const size_t grown = bytes + bytes / 2;
    COL__UNPOISON(w->block[slot], w->bytes[slot]);
    free(w->block[slot]);
    w->block[slot] = malloc(grown);
    w->bytes[slot] = w->block[slot] != NULL ? grown : 0;
    if (w->block[slot] == NULL) return NULL;
  }
  COL__UNPOISON(w->block[slot], bytes);
  COL__POISON((char *)w->block[slot] + bytes, w->bytes[slot] - bytes);
  return w->block[slot];
}

col__bp_task *col__bp_tasks(col__bp *bp, size_t n) {
  col_pairs *out = bp->out;
  if (out->work == NULL && (out->work = calloc(1, sizeof *out->work)) == NULL) return NULL;
  struct col_pairs_work *w = out->work;
  if (w->tasks < n) {
    /* Grown in place: the lists already there keep their memory. */
    col__bp_task *task = realloc(w->task, n * sizeof *task);
    if (task == NULL) return NULL;
    memset(task + w->tasks, 0, (n - w->tasks) * sizeof *task);
    w->task = task, w->tasks = n;
  }
  return w->task;
}

static int by_pair(const void *x, const void *y) {
  const col_pair *p = x, *q = y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return (p->b > q->b) - (p->b < q->b);
}

void col_pairs_sort(col_pairs *pairs) {
  if (pairs != NULL && pairs->count > 1)
    qsort(pairs->data, pairs->count, sizeof(col_pair), by_pair);
}

col_status col__bp_push(col__bp *bp, uint32_t a, uint32_t b) {
  return a < b ? col__bp_push_ordered(bp, a, b) : col__bp_push_ordered(bp, b, a);
}

/* The list's one growth policy: doubled (from 256) until `needed` pairs fit. */
static col_status grow(col_pairs *out, size_t needed) {
  size_t grown = out->capacity ? out->capacity : 256;
  while (grown < needed) grown *= 2;
  col_pair *data = realloc(out->data, grown * sizeof(col_pair));
  if (data == NULL) return COL_ERR_MEMORY;
  out->data = data;
  out->capacity = grown;
  return COL_OK;
}

/* A streaming call's pairs so far handed to its sink, `batch` at most a call, in order. */
static void stream_flush(col__bp *bp) {
  const col__bp_stream *s = bp->stream;
  col_pairs *out = bp->out;
  for (size_t at = 0; at < out->count; at += s->batch)
    s->sink(s->context, out->data + at, out->count - at < s->batch ? out->count - at : s->batch);
  out->count = 0;
}

col_status col__bp_reserve(col__bp *bp, size_t extra) {
  col_pairs *out = bp->out;
  if (out->capacity - out->count >= extra) return COL_OK;
  if (bp->stream != NULL) {
    /* The batch goes to the sink; the list grows only for a step larger than the batch. */
    stream_flush(bp);
    return out->capacity >= extra ? COL_OK : grow(out, extra);
  }
  return bp->writer != NULL ? col__bp_next_block(bp, extra) : grow(out, out->count + extra);
}

/* The any-order join's blocks (broadphase.h). A block too small for `extra` is never taken, so
 * a cell's run of hits written whole (the backends without a cell sweep) lands in one block. */
size_t col__par_block_pairs = 4096;

col_status col__bp_next_block(col__bp *bp, size_t extra) {
  col__bp_writer *w = bp->writer;
  col__bp_blocks *b = w->blocks;
  col_pairs *out = bp->out;
  if (w->at != SIZE_MAX) b->fill[w->at] = out->count;
  w->at = SIZE_MAX;
  if (extra <= b->block) {
    const size_t k = atomic_fetch_add_explicit(&b->next, 1, memory_order_relaxed);
    if (k < b->count) {
      w->at = k;
      out->data = b->base + k * b->block, out->count = 0, out->capacity = b->block;
      return COL_OK;
    }
  }
  /* No block left: the task's own list from here on (the caller copies it in after). */
  w->spilled = true;
  bp->writer = NULL;
  out->data = w->own->data, out->count = 0, out->capacity = w->own->capacity;
  return out->capacity >= extra ? COL_OK : grow(out, extra);
}

void col__bp_writer_close(col__bp_writer *w, col_pairs *window) {
  if (w->spilled) {
    w->own->data = window->data, w->own->count = window->count;
    w->own->capacity = window->capacity;
  } else {
    w->own->count = 0;
    if (w->at != SIZE_MAX) w->blocks->fill[w->at] = window->count;
  }
  w->own->work = window->work;
}

size_t col__bp_blocks_pack(col__bp_blocks *blocks, size_t used) {
  const size_t size = blocks->block;
  size_t *fill = blocks->fill;
  /* Blocks [lo, hi) still hold pairs that may move; the first gap takes pairs from the last
   * block's end, so pairs move only into gaps (a few blocks' worth, not the list). */
  size_t lo = 0, hi = used;
  while (hi > 0 && fill[hi - 1] == 0) hi--;
  while (lo + 1 < hi) {
    if (fill[lo] == size) {
      lo++;
      continue;
    }
    const size_t last = hi - 1, take = size - fill[lo] < fill[last] ? size - fill[lo] : fill[last];
    memcpy(blocks->base + lo * size + fill[lo], blocks->base + last * size + fill[last] - take,
           take * sizeof(col_pair));
    fill[lo] += take, fill[last] -= take;
    while (hi > lo + 1 && fill[hi - 1] == 0) hi--;
  }
  return lo < hi ? lo * size + fill[lo] : lo * size;
}

static col_status append(col_pairs *out, uint32_t a, uint32_t b) {
  if (out->count == out->capacity && grow(out, out->count + 1) != COL_OK) return COL_ERR_MEMORY;
  out->data[out->count++] = (col_pair){a, b};
  return COL_OK;
}

col_status col__bp_push_ordered(col__bp *bp, uint32_t a, uint32_t b) {
  if (bp->out->count == bp->out->capacity && bp->stream != NULL) stream_flush(bp);
  const col_status st = append(bp->out, a, b);
  if (st == COL_OK) bp->stats.pairs++;
  return st;
}

col_status col_pairs_push(col_pairs *pairs, uint32_t a, uint32_t b) {
  if (pairs == NULL) return COL_ERR_NULL;
  return a < b ? append(pairs, a, b) : append(pairs, b, a);
}

size_t col__bp_query_run(const col__bp *bp, col_aabb3 query, const float *const min[3],
                         const float *const max[3], size_t first, size_t count, uint32_t *idx) {
  if (bp->boxes->dims == 3) {
    const col_aabb3_soa run = {min[0] + first, min[1] + first, min[2] + first, max[0] + first,
                               max[1] + first, max[2] + first, count};
    return bp->backend->k.aabb3_query(query, &run, bp->touch, idx);
  }
  const col_aabb2_soa run = {min[0] + first, min[1] + first, max[0] + first, max[1] + first, count};
  const col_aabb2 q = {{query.min.x, query.min.y}, {query.max.x, query.max.y}};
  return bp->backend->k.aabb2_query(q, &run, bp->touch, idx);
}

col_status col__bp_check(const col_boxes *boxes, col_touch touch) {
  if (boxes == NULL) return COL_ERR_NULL;
  if (boxes->dims != 2 && boxes->dims != 3) return COL_ERR_SIZE;
  if (boxes->count > 0)
    for (unsigned k = 0; k < boxes->dims; k++)
      if (boxes->min[k] == NULL || boxes->max[k] == NULL) return COL_ERR_NULL;
  if (boxes->count > UINT32_MAX) return COL_ERR_SIZE;
  if (touch != COL_TOUCH_OVERLAPS && touch != COL_TOUCH_SEPARATES) return COL_ERR_ARGUMENT;
  return COL_OK;
}

/* The registry of algorithms: the one list that the dispatch below, the tests, the fuzzers
 * and the benchmarks walk (col_broadphase_at). Row k holds algorithm k; user broadphases
 * (col_broadphase_register) follow the built-in rows. */
static const struct {
  col_broadphase_info info;
  col_status (*run)(col__bp *bp);
} builtin[] = {
    {{"brute", COL_BROADPHASE_BRUTE, true, true, true}, col__bp_brute},
    {{"sap", COL_BROADPHASE_SAP, true, true, true}, col__bp_sap},
    {{"grid", COL_BROADPHASE_GRID, false, true, true}, col__bp_grid},
    {{"tree", COL_BROADPHASE_TREE, false, true, true}, col__bp_tree},
    {{"quadtree", COL_BROADPHASE_QUADTREE, false, true, true}, col__bp_quadtree},
};
enum { BUILTIN = sizeof builtin / sizeof builtin[0] };

static struct {
  col_broadphase_info info;
  col_user_broadphase user;
  char name[COL__USER_FULL_MAX];
} user[COL_USER_MAX];
static atomic_int user_count;

static size_t algorithms(void) { return BUILTIN + (size_t)atomic_load(&user_count); }

static const col_broadphase_info *info_of(size_t k) {
  return k < BUILTIN ? &builtin[k].info : &user[k - BUILTIN].info;
}

size_t col_broadphase_count(void) { return algorithms(); }

bool col_broadphase_at(size_t i, col_broadphase_info *out) {
  if (i >= algorithms() || out == NULL) return false;
  *out = *info_of(i);
  return true;
}

col_status col_broadphase_register(const col_user_broadphase *broadphase,
                                   col_broadphase *algorithm) {
  if (broadphase == NULL || broadphase->name == NULL || broadphase->pairs == NULL ||
      algorithm == NULL)
    return COL_ERR_NULL;
  if (broadphase->version != COL_USER_VERSION) return COL_ERR_VERSION;
  char full[COL__USER_FULL_MAX];
  if (!col__user_full_name(broadphase->name, full) || !(broadphase->two_d || broadphase->three_d))
    return COL_ERR_ARGUMENT;
  const int n = atomic_load(&user_count);
  for (size_t k = 0; k < algorithms(); k++)
    if (strcmp(info_of(k)->name, full) == 0) return COL_ERR_EXISTS;
  if (n == COL_USER_MAX) return COL_ERR_SIZE;
  memcpy(user[n].name, full, sizeof full);
  user[n].user = *broadphase;
  user[n].info = (col_broadphase_info){user[n].name, (col_broadphase)(BUILTIN + (size_t)n), false,
                                       broadphase->two_d, broadphase->three_d};
  *algorithm = user[n].info.algorithm;
  atomic_store(&user_count, n + 1);
  return COL_OK;
}

/* A user broadphase gets validated input, an emptied list and zeroed stats (backends.h). */
static col_status run_user(size_t u, col__bp *bp) {
  col_broadphase_stats st = {0, 0, 0, 0};
  const col_status status =
      user[u].user.pairs(bp->boxes, bp->touch, bp->out, &st, user[u].user.context);
  bp->stats = (col_broadphase_stats){st.tests, bp->out->count, st.scratch_bytes, 0};
  return status;
}

col_status col__bp_run(size_t k, col__bp *bp) {
  if (bp->boxes->count < 2) return COL_OK;
  return k < BUILTIN ? builtin[k].run(bp) : run_user(k - BUILTIN, bp);
}

/* Algorithm k on validated input; the list emptied on error, the stats written on success. */
static col_status run_algorithm(size_t k, col__bp *bp, col_broadphase_stats *stats) {
  col_status st = col__backend_active(&bp->backend);
  if (st != COL_OK) return st;
  bp->out->count = 0;
  st = col__bp_run(k, bp);
  if (st != COL_OK) {
    bp->out->count = 0;
    return st;
  }
  if (stats != NULL) *stats = bp->stats;
  return COL_OK;
}

col_status col__bp_check_call(col_broadphase algorithm, const col_boxes *boxes, col_touch touch,
                              size_t *k) {
  const col_status checked = col__bp_check(boxes, touch);
  if (checked != COL_OK) return checked;
  *k = (unsigned)algorithm;
  if (*k >= algorithms()) return COL_ERR_ARGUMENT;
  const col_broadphase_info *info = info_of(*k);
  if ((boxes->dims == 2 && !info->two_d) || (boxes->dims == 3 && !info->three_d))
    return COL_ERR_SIZE;
  return COL_OK;
}

col_status col_broadphase_pairs(col_broadphase algorithm, const col_boxes *boxes, col_touch touch,
                                col_pairs *out, col_broadphase_stats *stats) {
  if (out == NULL) return COL_ERR_NULL;
  size_t k;
  const col_status checked = col__bp_check_call(algorithm, boxes, touch, &k);
  if (checked != COL_OK) return checked;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0, 0}, NULL, false, NULL, 0, 0, NULL, NULL, NULL};
  return run_algorithm(k, &bp, stats);
}

/* The default batch: 32 KB of pairs, which the first- or second-level cache holds. */
enum { STREAM_BATCH = 4096, STREAM_BATCH_MIN = 64 };

col_status col_broadphase_pairs_stream(col_broadphase algorithm, const col_boxes *boxes,
                                       col_touch touch, col_pairs *buffer, size_t batch,
                                       col_pair_sink *sink, void *context,
                                       col_broadphase_stats *stats) {
  if (buffer == NULL || sink == NULL) return COL_ERR_NULL;
  size_t k;
  const col_status checked = col__bp_check_call(algorithm, boxes, touch, &k);
  if (checked != COL_OK) return checked;
  if (batch == 0) batch = STREAM_BATCH;
  /* Under the least, or more pairs than a size_t can count the bytes of. */
  if (batch < STREAM_BATCH_MIN || batch > SIZE_MAX / sizeof(col_pair)) return COL_ERR_SIZE;
  buffer->count = 0;
  /* The batch is the list's capacity: a list kept from a larger call is cut down to it, so that
   * the pairs stay in the cache between the algorithm's stores and the sink's reads. */
  if (buffer->capacity != batch) {
    col_pair *data = realloc(buffer->data, batch * sizeof(col_pair));
    if (data == NULL) return COL_ERR_MEMORY;
    buffer->data = data, buffer->capacity = batch;
  }
  const col__bp_stream stream = {sink, context, batch};
  col__bp bp = {boxes, touch, NULL, buffer, {0, 0, 0, 0}, NULL,   false,
                NULL,  0,     0,    NULL,   NULL,         &stream};
  const col_status st = run_algorithm(k, &bp, stats);
  if (st == COL_OK) stream_flush(&bp);
  buffer->count = 0;
  return st;
}
