/* Kernel peers: other libraries' collision kernels (bench/kernel-peers/kernel-peers.list) behind
 * one plain-C interface, so that the benchmarks, tests and the peers fuzz target run them beside
 * collide's kernels on the same inputs (docs/coming-from.md).
 *
 * An input is one kp_item of a family: two boxes, a segment and a box, a segment and a sphere,
 * two circles. An adapter converts items into its library's own form once (prepare, untimed),
 * then answers them (answer: one kp_answer per item, for the classification) or runs them in a
 * plain loop the way a user's code would (loop: timed). One-against-many families (box overlap,
 * segments) take the query (the first box, the segment) of items[0] for the whole call; pair
 * families (mtd, circle) take both sides of every item. */
#ifndef COLLIDE_KPEERS_H
#define COLLIDE_KPEERS_H

#include "collide.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kp_family {
  KP_BOX2,      /* two 2D boxes overlap (col_aabb2_overlap) */
  KP_BOX3,      /* two 3D boxes overlap (col_aabb3_overlap) */
  KP_MTD,       /* the push-out of box a from box b (col_aabb2_mtd) */
  KP_SEGBOX2,   /* a segment against a 2D box (col_segment_aabb2) */
  KP_SEGBOX3,   /* a segment against a 3D box (col_segment_aabb3) */
  KP_SEGSPHERE, /* a segment against a sphere (col_segment_sphere_robust) */
  KP_SEGCIRCLE, /* a 2D segment against a circle (the same, z = 0) */
  KP_CIRCLE,    /* two circles overlap (col_circle_overlap) */
  KP_FAMILIES
} kp_family;

/* One input. 2D families leave z at 0 (boxes: min.z = max.z = 0). */
typedef struct kp_item {
  union {
    struct {
      col_aabb3 a, b; /* box2, box3, mtd (a pushed out of b) */
    } boxes;
    struct {
      col_vec3 from, to;
      col_aabb3 box; /* segbox2, segbox3 */
    } segbox;
    struct {
      col_vec3 from, to;
      col_sphere sphere; /* segsphere, segcircle (z = 0) */
    } segsphere;
    struct {
      col_circle a, b; /* circle */
    } circles;
  };
} kp_item;

/* One answer: the decision, and for mtd the push-out (depth along `axis`, 0: x, 1: y). */
typedef struct kp_answer {
  bool hit;
  int axis;
  float depth;
} kp_answer;

/* Room for the query's own form at the start of an adapter's prepared memory. */
#define KP_QUERY_ROOM 256

/* What an adapter exports per kernel. */
typedef struct kp_impl {
  const char *kernel;  /* the list's kernel column */
  const char *version; /* the library's version, from its headers ("2.26.5") */
  size_t native_size;  /* bytes of the library's form per item: prepare's room is
                          KP_QUERY_ROOM + n * native_size */
  void (*prepare)(const kp_item *items, size_t n, void *native);
  void (*answer)(const void *native, size_t n, kp_answer *out);
  /* The timed loop over n prepared items: a checksum of its answers (hits counted, or the
   * earliest hit's parameter), so that nothing is optimized away. */
  double (*loop)(const void *native, size_t n);
  /* NULL, or what frees the library objects prepare made (ODE's geoms); the harness calls it
   * when done with the prepared items. */
  void (*release)(void *native, size_t n);
  size_t max_count; /* the largest n a row times (objects per item cost memory), 0: no limit */
} kp_impl;

typedef struct kp_table {
  const kp_impl *impls;
  size_t count;
} kp_table;

#define KP_TABLE_COUNT(a) (sizeof(a) / sizeof((a)[0]))
#ifdef __cplusplus
#define KP_TABLE(lib, impls)                                                                       \
  extern "C" const kp_table kp_##lib##_table = {impls, KP_TABLE_COUNT(impls)}
#else
#define KP_TABLE(lib, impls)                                                                       \
  extern const kp_table kp_##lib##_table;                                                          \
  const kp_table kp_##lib##_table = {impls, KP_TABLE_COUNT(impls)}
#endif

/* A kernel of the list, with its adapter's implementation when its library was built in. */
typedef struct kp_kernel {
  const char *name;     /* "sdl-box" */
  const char *lib;      /* "sdl" */
  const char *package;  /* "libsdl2-dev" */
  kp_family family;     /* from the list's family column */
  const char *function; /* "SDL_HasIntersectionF" */
  const char *rules;    /* the list's rules column, as written ("-": none) */
  const kp_impl *impl;  /* NULL when the library was not installed at build time */
} kp_kernel;

/* Every kernel of the list, in its order. Aborts with a message when a built library's adapter
 * lacks a kernel the list names, or names one the list does not (kp_check says which). */
size_t kp_kernels(const kp_kernel **list);
/* "" when the adapters and the list agree, else what differs (one line each). */
const char *kp_check(void);
/* Libraries of the list not built in, with their packages, one per line; "" when none. */
const char *kp_absent(void);

/* The family's name in the list and rows ("box2"), and back (-1 for an unknown name). */
const char *kp_family_name(kp_family f);
int kp_family_of(const char *name);
/* One-against-many families take items[0]'s query for the whole call. */
bool kp_family_is_query(kp_family f);
bool kp_family_is_2d(kp_family f);

#ifdef __cplusplus
}
#endif

#endif
