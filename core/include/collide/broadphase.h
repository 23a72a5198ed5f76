/* collide/broadphase.h — Broadphases: pair lists, the algorithms, their statistics and the
 * incremental cache: part of the public API, included by collide.h (which defines the types it
 * uses); include collide.h, not this file. */
#ifndef COLLIDE_PUBLIC_BROADPHASE_H
#define COLLIDE_PUBLIC_BROADPHASE_H

/* ---------------------------------------------------------------------------------------- */
/* 4.5 Broadphase: all pairs of overlapping boxes                                           */
/* ---------------------------------------------------------------------------------------- */

/* A pair of box indices, a < b. */
typedef struct col_pair {
  uint32_t a, b;
} col_pair;

/* A growable pair list owned by the caller: start it zeroed (or with col_pairs_init), reuse it
 * across calls (its memory is kept), release it with col_pairs_free. `work` is the working
 * memory the broadphases keep between calls made with this list (NULL until the first call
 * that needs some; grown, never shrunk, by later calls), so that a loop calling
 * col_broadphase_pairs once a frame stops allocating after its first frames. Leave it alone:
 * set it only through col_pairs_init / col_pairs_free; two lists must not share it. */
typedef struct col_pairs {
  col_pair *data;
  size_t count, capacity;
  struct col_pairs_work *work;
} col_pairs;

void col_pairs_init(col_pairs *pairs);
void col_pairs_free(col_pairs *pairs);
/* Sorts by (a, b): the canonical order in which two pair lists can be compared. */
void col_pairs_sort(col_pairs *pairs);

/* A set of 2D or 3D boxes as a structure of arrays: box i spans min[k][i]..max[k][i] on axis k
 * (k < dims). With count == 0 the pointers may be NULL. */
typedef struct col_boxes {
  unsigned dims; /* 2 or 3 */
  const float *min[3], *max[3];
  size_t count;
} col_boxes;

typedef enum col_broadphase {
  COL_BROADPHASE_BRUTE = 0,    /* every pair once: N(N-1)/2 tests, on the active backend */
  COL_BROADPHASE_SAP = 1,      /* sweep and prune (box pruning): the boxes sorted on min x (from
                                  32 boxes a bucket sort with an insertion pass, which hands
                                  clustered values to the radix sort; an LSD radix sort on the
                                  float bits otherwise), then each box tested on the active
                                  backend against the run of boxes whose min x lies within its
                                  x extent; from 256 boxes, all finite and upright on y (and z),
                                  swept per cell of a grid over y and z (y in 2D): cells of
                                  about two mean box extents (1.5 in 2D), fewer when a cell
                                  would hold under about 150 boxes, one cell when the boxes
                                  would be copied into more than three cells each on average */
  COL_BROADPHASE_GRID = 2,     /* uniform grid: cell side = 2 x the mean box extent; boxes spanning
                                  many cells, inverted or non-finite ones are tested directly */
  COL_BROADPHASE_TREE = 3,     /* bounding volume tree built top-down (median splits), each box
                                  queried against it; see col_broadphase_cache for the
                                  incremental, per-frame form */
  COL_BROADPHASE_QUADTREE = 4, /* quadtree (2D) / octree (3D): boxes straddling a node's centre
                                  lines stay at it; a node's boxes are tested against each other
                                  and against those of its ancestors that meet their bounds,
                                  swept on one axis when there are many (meshes: triangles on
                                  the centre planes) */
} col_broadphase;

/* The registry of broadphase algorithms, for harnesses that run every one (tests, fuzzers,
 * benchmarks): col_broadphase_count() of them, the i-th by col_broadphase_at (false, writing
 * nothing, when i is out of range or out is NULL). `algorithm` is the value to pass to
 * col_broadphase_pairs; `uses_backend`: its inner loop runs on the active backend (so it is
 * worth timing per backend); `two_d` / `three_d`: the box sets it takes (col_broadphase_pairs
 * returns COL_ERR_SIZE for the others). */
typedef struct col_broadphase_info {
  const char *name; /* "brute", "sap", "grid", "tree", "quadtree" */
  col_broadphase algorithm;
  bool uses_backend;
  bool two_d, three_d;
} col_broadphase_info;

size_t col_broadphase_count(void);
bool col_broadphase_at(size_t i, col_broadphase_info *out);

/* What a broadphase run did: box-pair tests performed (by the built-in algorithms at least one
 * per pair found; brute force exactly N(N-1)/2; the quadtree fewer than M(M-1)/2, M the boxes
 * without NaN, when M > 8 and two boxes each lie strictly on one side of every centre line of
 * the set's finite bounds, on different sides of one), pairs found, and the peak bytes of working
 * memory it held at once (sort keys, copies, grid cells, tree nodes...; the pair list itself not
 * included). `cells` names the path sweep and prune took (col_broadphase_pairs with
 * COL_BROADPHASE_SAP and the parallel calls, which report the same value): the cells of its
 * grid over y (and z in 3D) it swept, 1 when it swept the set whole; 0 for fewer than 2
 * boxes (nothing to sweep), the other algorithms, the bipartite form and the cache. The rules,
 * so that a benchmark can tell which path it timed:
 *   - 1 when fewer than 256 boxes can pair (boxes with a NaN coordinate cannot), when a box has
 *     min y > max y, min y = -inf or max y = +inf (or the same on z), or when every box has
 *     zero size on y (or z), or all share one y (or z) range;
 *   - more than 1 in 2D when, besides, every coordinate is finite, at least 300 boxes, and the
 *     y range of the whole set (lowest min y to highest max y) is at least 3.01 times the
 *     boxes' mean height (cells about 1.5 mean heights tall, at least 150 boxes a cell);
 *   - in 3D, cells about 2 mean extents on y and z, at least about 150 boxes a cell, and 1 also
 *     when the boxes would be copied into more than 3 cells each on average. */
typedef struct col_broadphase_stats {
  uint64_t tests, pairs, scratch_bytes;
  uint64_t cells;
} col_broadphase_stats;

/* All pairs (a, b), a < b, of boxes that overlap under `touch` (exactly the pairs for which
 * col_aabb2_overlap / col_aabb3_overlap is true), written to `out` (replacing its contents) in
 * an unspecified order; col_pairs_sort gives the canonical one. Every algorithm returns the
 * same pair set as brute force; boxes with a NaN coordinate never pair. `stats` may be NULL.
 * Errors: COL_ERR_NULL (boxes, out, or an array with count > 0), COL_ERR_SIZE (dims not 2 or
 * 3, count > UINT32_MAX), COL_ERR_ARGUMENT (touch, algorithm), COL_ERR_MEMORY (out is then
 * empty), and the backend errors. */
col_status col_broadphase_pairs(col_broadphase algorithm, const col_boxes *boxes, col_touch touch,
                                col_pairs *out, col_broadphase_stats *stats);

/* Receives pairs from col_broadphase_pairs_stream: pairs[0, count), 1 <= count <= the batch
 * size, readable only during the call (the next batch reuses the memory). */
typedef void col_pair_sink(void *context, const col_pair *pairs, size_t count);

/* col_broadphase_pairs with the pairs handed to `sink` in batches instead of collected in a
 * list: the batches, in the order the sink gets them, are exactly the list col_broadphase_pairs
 * writes for the same boxes, touch rule, algorithm and backend (same pairs, same order). For
 * outputs larger than the caches (millions of pairs): each batch is read by the sink while it is
 * still in the cache, and the whole output is never written to memory.
 * `buffer` holds the batch and the algorithm's working memory: keep it between calls (start it
 * with col_pairs_init, release it with col_pairs_free) and the calls stop allocating; its
 * capacity becomes `batch` pairs (more when one step of an algorithm, such as a box's run of
 * hits, writes more at once: the sink still gets at most `batch` a call), its contents are
 * undefined after the call (count 0).
 * `batch`: pairs per sink call at most; 0 picks 4,096 (32 KB); a batch may be shorter than
 * that when an algorithm needs more room than the batch has left. The sink must not call back
 * into this call's buffer. Errors as col_broadphase_pairs (then the sink may have had part of
 * the pairs), and COL_ERR_NULL for a NULL buffer or sink, COL_ERR_SIZE for a batch under 64 or
 * over SIZE_MAX / sizeof(col_pair) (its bytes past what a size_t counts). */
col_status col_broadphase_pairs_stream(col_broadphase algorithm, const col_boxes *boxes,
                                       col_touch touch, col_pairs *buffer, size_t batch,
                                       col_pair_sink *sink, void *context,
                                       col_broadphase_stats *stats);

/* Static boxes. Most boxes of a game level never move (tiles, walls, props). Marking them
 * static asks for the static rule: pairs of two static boxes are left out (two walls that touch
 * never make a contact: Box2D and Jolt never pair two static bodies, Bullet filters them by its
 * collision groups), and every pair with at least one box that is not static is reported
 * exactly as col_broadphase_pairs reports it. `is_static` holds one byte per box (boxes->count
 * of them): nonzero marks box i static; NULL marks none (the call is then col_broadphase_pairs).
 * The rule goes by the marks, not by motion: a static box may move (a door), and its pairs with
 * the boxes not static follow it.
 *
 * col_broadphase_pairs_static: every pair (a, b), a < b, that col_broadphase_pairs finds for
 * the same algorithm and touch rule, less those with both boxes static, written to `out`
 * (replacing its contents) in the order col_broadphase_pairs gives them (col_pairs_sort gives
 * the canonical one). From scratch the algorithm still tests static boxes against each other
 * (every pair is found, the static ones dropped in one pass over the list); the kept grid of
 * col_broadphase_cache (COL_BROADPHASE_GRID) is the form that never looks for them. stats as
 * col_broadphase_pairs' with pairs counting those reported. Errors as col_broadphase_pairs
 * (COL_ERR_MEMORY: out then empty). */
col_status col_broadphase_pairs_static(col_broadphase algorithm, const col_boxes *boxes,
                                       const uint8_t *is_static, col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats);

/* Bipartite sweep and prune: every pair (a, b) with box a of set `first` overlapping box b of
 * set `second` (a indexes first, b indexes second; the two sets are independent, so a < b does
 * not apply), exactly the pairs an all-against-all test finds. Both sets must have the same
 * dims. Boxes with NaN never pair. Errors as col_broadphase_pairs (COL_ERR_MEMORY: out then
 * empty; COL_ERR_SIZE also when the dims differ). */
col_status col_broadphase_bipartite(const col_boxes *first, const col_boxes *second,
                                    col_touch touch, col_pairs *out, col_broadphase_stats *stats);

/* Incremental broadphase for moving scenes (the per-frame form). The cache keeps the previous
 * frame's boxes, a bounding volume tree whose leaves are "fat" (each box grown by a quarter of
 * the mean box extent, fixed at the last rebuild) and the previous pairs. Each update finds the
 * boxes whose coordinates changed (bit for bit), reinserts those that left their fat leaf,
 * keeps the previous pairs between unmoved boxes, and queries the tree for the moved ones.
 * The result is always exactly col_broadphase_pairs' pair set for the boxes given (unspecified
 * order). A change of count, dims or touch rule rebuilds everything. */
typedef struct col_broadphase_cache col_broadphase_cache;

/* COL_ERR_NULL or COL_ERR_MEMORY; *cache is set on success only. */
col_status col_broadphase_cache_create(col_broadphase_cache **cache);
/* The algorithm the cache keeps up to date: COL_BROADPHASE_TREE (the default: moved boxes are
 * reinserted and looked up, other pairs carried over; when more than a quarter of the boxes
 * moved, the tree is built again top-down and every pair found from it, as from scratch),
 * COL_BROADPHASE_GRID (the kept grid, made for game levels, where most boxes rest and a few
 * move: the boxes that did not move in the last update rest in a uniform grid kept between
 * updates, together with the pairs among them; an update takes the boxes that moved out of
 * the grid, puts those that stopped back, finds the pairs among the moving boxes by sweep and
 * prune on them alone and looks each up in the grid cells it covers on the active backend, so
 * its cost follows the boxes that moved, not the level's size (the resting pairs are copied);
 * the first update, and any in which more than a quarter of the boxes moved, is found from
 * scratch by sweep and prune, after which every box rests) or COL_BROADPHASE_SAP (the order on min
 * x is kept: when at most a quarter of the boxes moved, each moved one is put back in its place by
 * shifting the boxes in between (or, past N shifted places, all are merged in one pass), the pairs
 * between unmoved boxes carried over and each moved box looked up in a window of sorted positions
 * around it whose size adapts to the scene, or, when its overlaps may lie outside the window,
 * forward in its sweep run and backward from the first positions whose max x reaches it; otherwise
 * everything is sorted and swept again). Other values: COL_ERR_ARGUMENT. A change resets the cache.
 */
col_status col_broadphase_cache_set_algorithm(col_broadphase_cache *cache,
                                              col_broadphase algorithm);
void col_broadphase_cache_destroy(col_broadphase_cache *cache);
/* The pairs of this frame's `boxes` into `out`; stats count the exact box tests of this
 * update (not the tree traversal). Errors as col_broadphase_pairs; after an error (COL_ERR_MEMORY
 * included, whichever frame or rebuild it strikes) `out` is empty, the cache is reset and the
 * next update rebuilds. */
col_status col_broadphase_cache_update(col_broadphase_cache *cache, const col_boxes *boxes,
                                       col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats);
/* Static boxes (see col_broadphase_pairs_static): is_static[0, count) is copied and every later
 * update reports the static rule's pairs (those of col_broadphase_pairs_static for the same
 * boxes), which the kept grid never looks for; count must equal every later update's box count
 * (COL_ERR_SIZE from the update otherwise, the cache then left as it was). NULL (count 0)
 * clears the marks. Marks other than the cache holds reset it (the next update rebuilds).
 * Errors: COL_ERR_NULL (cache; is_static NULL with count > 0), COL_ERR_SIZE (count >
 * UINT32_MAX), COL_ERR_MEMORY (the marks are then cleared and the cache reset). */
col_status col_broadphase_cache_set_static(col_broadphase_cache *cache, const uint8_t *is_static,
                                           size_t count);
/* Contact events: with tracking on, each successful update also finds the pairs that began (in
 * this update's pairs and not in the previous update's) and those that ended (in the previous
 * update's and not in this one's): exactly the difference of the two pair sets. After the
 * first update, and after any reset (a change of count, dims, touch rule, algorithm or static
 * marks, or an error), `began` is every pair of the update and `ended` empty. Only a pair with
 * a box that moved (changed bit for bit, or listed) can begin or end, so only those pairs are
 * compared: the cost follows what moved. Off by default. Errors: COL_ERR_NULL. */
col_status col_broadphase_cache_track_changes(col_broadphase_cache *cache, bool on);
/* The last update's began and ended pairs, each sorted by (a, b) (col_pairs_sort's order),
 * into the caller's two lists (replacing their contents; their working memory is untouched).
 * Errors: COL_ERR_NULL, COL_ERR_ARGUMENT (tracking is off, or the last update failed or came
 * before tracking was turned on), COL_ERR_MEMORY (both lists then empty). */
col_status col_broadphase_cache_changes(const col_broadphase_cache *cache, col_pairs *began,
                                        col_pairs *ended);
/* The same update when the caller knows which boxes changed (as engines do): `moved` lists
 * them (moved_count entries, any order, repeats allowed; a listed box that did not change is
 * fine), so the cache does not compare every box with the last frame. Every box not listed
 * must be bit for bit as in the previous update; otherwise the pairs are unspecified (the
 * call stays memory-safe). The first update, and one after a change of count, dims or touch
 * rule, reads every box whatever the list says. With the sweep and prune algorithm the
 * sorted copy of the boxes is kept between frames and only the listed boxes are re-sorted and
 * looked up (when at most a quarter of the boxes are listed). Errors: those of
 * col_broadphase_cache_update, COL_ERR_NULL for moved == NULL with moved_count > 0, and
 * COL_ERR_SIZE for a listed index >= boxes->count (the cache is then left as it was). */
col_status col_broadphase_cache_update_moved(col_broadphase_cache *cache, const col_boxes *boxes,
                                             const uint32_t *moved, size_t moved_count,
                                             col_touch touch, col_pairs *out,
                                             col_broadphase_stats *stats);

#endif
