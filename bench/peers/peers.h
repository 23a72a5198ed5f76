/* Peer engines' broadphases (those of bench/peers/peers.list) behind one plain-C interface, so
 * that the C benchmarks and tests drive them like our own algorithms (the same pattern as the
 * Google Benchmark shim: C++ inside, C outside).
 *
 * A peer instance owns one engine structure. The life of a from-scratch run is
 *   peer_build (a fresh structure, every box inserted: engines that find pairs while inserting
 *   do so here) -> peer_find (the engine's own pair update) -> peer_reported (what it reports);
 * a moving scene calls peer_move once per frame after the first build and find. What the
 * engine reports is its own set (its touch rule, margins, quantization, stale cached pairs);
 * peer_exact re-tests it with our closed rule to give the comparable set.
 *
 * Each structure runs in one of two pair-collection modes:
 *   own:        the pair store a user of the engine would have (Bullet's btHashedOverlappingPair
 *               Cache; for Box2D, Chipmunk and ODE, whose broadphases hand pairs to a callback, a
 *               callback that appends to a vector, and for Box2D's per-frame update a set of
 *               current pairs pruned like b2ContactManager::Collide does);
 *   count-only: a store that only counts what it is handed (the cheapest the engine can do). */
#ifndef COLLIDE_PEERS_H
#define COLLIDE_PEERS_H

#include "collide.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an engine's adapter does; `self` is what create returned. */
typedef struct peer_ops {
  /* `kind`: which of the engine's structures (peer_structure.kind). NULL when out of memory. */
  void *(*create)(int kind, bool count_only);
  void (*destroy)(void *self);
  /* Drops the engine structure (the benchmarks call it outside the timed part). */
  void (*clear)(void *self);
  /* Replaces the structure with one holding every box (3D engines get z = [0, 0] for 2D
   * scenes). Returns false when the engine refused (sizes). */
  bool (*build)(void *self, const col_boxes *boxes);
  void (*find)(void *self);
  /* NULL when the structure has no per-frame update. `boxes` hold this frame's coordinates;
   * `moved` lists the boxes that moved and `delta` their displacement (dx, dy); the engine
   * updates them and its pairs. */
  void (*move)(void *self, const col_boxes *boxes, const uint32_t *moved, const float *delta,
               size_t count);
  /* The pairs the engine reports now, as (a < b) index pairs appended to `out`; in count-only
   * mode `out` is left alone and the count is what the store was handed (for Bullet's moving
   * scene: net adds since the build). Returns the number of pairs reported (with repeats, if
   * the engine reports a pair twice). */
  size_t (*reported_pairs)(void *self, col_pairs *out);
  /* NULL when the engine stores boxes as given: the box the engine holds for box i now
   * (Box2D's fat AABB), for the tests that pin down its reported set. */
  void (*stored_box)(void *self, uint32_t i, float min[2], float max[2]);
  /* NULL when the structure has no static rule of its own: the next builds take `is_static`
   * (one byte a box, nonzero: static; kept by pointer, NULL: none) and never report a pair of
   * two static boxes, by the engine's own means (Bullet: collision filter groups, the static
   * ones in StaticFilter masking StaticFilter out; Box2D: b2ContactManager's rule that a pair of
   * two bodies that are not dynamic makes no contact, applied to the pairs UpdatePairs hands
   * over, the static proxies never moved unless they change; Chipmunk: cpSpace's two indexes, the
   * static boxes in one met with cpSpatialIndexCollideStatic). */
  void (*set_static)(void *self, const uint8_t *is_static);
} peer_ops;

typedef struct peer_structure {
  const char *engine; /* its engine's name in bench/peers/peers.list: "bullet", ... */
  const char *name;   /* "dbvt", "dbvt-deferred", "axissweep3", ... */
  int kind;           /* the adapter's number for it, passed to ops->create */
  bool three_d;       /* runs 3D scenes too: its engine is 3D in peers.list (the tests check) */
  size_t max_count;   /* largest N it is run at in benchmarks (0: no limit) */
  const peer_ops *ops;
  bool all_pairs; /* tests every pair on each update (Bullet's and ODE's simple ones), or is
                   * otherwise too slow per frame (FCL's, but for its dynamic trees): left out
                   * of the paired per-frame benchmarks, 640 frames each */
} peer_structure;

/* An adapter's export: its structures, in the order its line of peers.list names them. */
typedef struct peer_table {
  const peer_structure *structures;
  size_t count;
} peer_table;

/* Defines peer_<engine>_table, the one symbol the registry (peers.c) looks for in an adapter,
 * over the adapter's array `structures` (its count is the array's size). */
#define PEER_TABLE_COUNT(structures) (sizeof(structures) / sizeof((structures)[0]))
#ifdef __cplusplus
#define PEER_TABLE(engine, structures)                                                             \
  extern "C" const peer_table peer_##engine##_table = {structures, PEER_TABLE_COUNT(structures)}
#else
#define PEER_TABLE(engine, structures)                                                             \
  extern const peer_table peer_##engine##_table;                                                   \
  const peer_table peer_##engine##_table = {structures, PEER_TABLE_COUNT(structures)}
#endif

/* An engine of bench/peers/peers.list, built in or not. */
typedef struct peer_engine {
  const char *name;       /* "bullet", as in peer_structure.engine and the benchmark rows */
  const char *package;    /* its Debian package, "libbullet-dev" */
  int dims;               /* 3: runs 3D scenes (2D ones as flat boxes); 2: 2D scenes only */
  const char *structures; /* the list's names of its structures, space-separated, in order */
  bool built;             /* compiled in: its package was installed when collide was built */
} peer_engine;

/* The engines of the list, in its order. */
size_t peer_engines(const peer_engine **list);

/* The structures compiled in (engines found at build time), in the list's order; at most
 * PEER_MAX_STRUCTURES (the benchmarks size their tables by it). */
enum { PEER_MAX_STRUCTURES = 32 };
size_t peer_structures(const peer_structure *const **list);

/* Engines not compiled in, each with the reason ("chipmunk: libchipmunk-dev was not installed
 * when collide was built"), one per line; "" when all are present. */
const char *peer_absent(void);

/* Sorts `pairs` as col_pairs_sort does (by a, then b), in time linear in their number and
 * in the largest box index. */
void peer_sort(col_pairs *pairs);

/* `exact` := the pairs of `reported` that overlap under the closed rule (col_aabb2_overlap or
 * col_aabb3_overlap, COL_TOUCH_OVERLAPS), sorted, without repeats. */
void peer_exact(const col_boxes *boxes, const col_pairs *reported, col_pairs *exact);

/* Appends (min(a, b), max(a, b)) to `out`; aborts when out of memory (benchmark/test code). */
void peer_push(col_pairs *out, uint32_t a, uint32_t b);

#ifdef __cplusplus
}
#endif

#endif
