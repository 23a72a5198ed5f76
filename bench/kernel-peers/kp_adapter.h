/* The three functions of a kp_impl (kpeers.h) for one kernel, written once for every adapter
 * (C and C++). An adapter gives, for kernel `id`:
 *   Q            the library's form of the query (items[0]'s first box or segment; for pair
 *                families anything: a char)
 *   O            its form of one item (the other box, the sphere; both sides of a pair)
 *   id_query(const kp_item *, Q *) and id_item(const kp_item *, O *): the conversions
 *   id_test(const Q *, const O *, float *t, kp_answer *a): the library's call, its decision
 *                returned, t the hit's parameter where it has one (the loop keeps the
 *                earliest), a->axis and a->depth for the push-out
 * and KP_KERNEL(id, Q, O) defines id_prepare, id_answer and id_loop; KP_IMPL(id, "kernel",
 * version, O) is its kp_impl. The query sits at the start of the prepared memory, the items
 * KP_QUERY_ROOM bytes further on (kpeers.h: the harness allocates that much more). */
#ifndef COLLIDE_KP_ADAPTER_H
#define COLLIDE_KP_ADAPTER_H

#include "kpeers.h"

#include <math.h>

#define KP_STR2(x) #x
#define KP_STR(x)  KP_STR2(x)

#define KP_KERNEL(id, Q, O)                                                                        \
  static void id##_prepare(const kp_item *items, size_t n, void *native) {                         \
    Q *q = (Q *)native;                                                                            \
    O *o = (O *)((char *)native + KP_QUERY_ROOM);                                                  \
    if (n) id##_query(&items[0], q);                                                               \
    for (size_t i = 0; i < n; i++) id##_item(&items[i], &o[i]);                                    \
  }                                                                                                \
  static void id##_answer(const void *native, size_t n, kp_answer *out) {                          \
    const Q *q = (const Q *)native;                                                                \
    const O *o = (const O *)((const char *)native + KP_QUERY_ROOM);                                \
    for (size_t i = 0; i < n; i++) {                                                               \
      float t = 0;                                                                                 \
      out[i].axis = 0, out[i].depth = 0;                                                           \
      out[i].hit = id##_test(q, &o[i], &t, &out[i]);                                               \
    }                                                                                              \
  }                                                                                                \
  static double id##_loop(const void *native, size_t n) {                                          \
    const Q *q = (const Q *)native;                                                                \
    const O *o = (const O *)((const char *)native + KP_QUERY_ROOM);                                \
    size_t hits = 0;                                                                               \
    float best = INFINITY;                                                                         \
    kp_answer a;                                                                                   \
    for (size_t i = 0; i < n; i++) {                                                               \
      float t = 0;                                                                                 \
      if (id##_test(q, &o[i], &t, &a)) hits++, best = t < best ? t : best;                         \
    }                                                                                              \
    return (double)hits + (best < INFINITY ? (double)best : 0.0);                                  \
  }

#define KP_IMPL(id, kernel, version, O)                                                            \
  { kernel, version, sizeof(O), id##_prepare, id##_answer, id##_loop, NULL, 0 }

/* For a library whose items are objects it allocates: id_release(void *native, size_t n) frees
 * them, and rows stop at `max` items. */
#define KP_IMPL_OWNED(id, kernel, version, O, max)                                                 \
  { kernel, version, sizeof(O), id##_prepare, id##_answer, id##_loop, id##_release, max }

#endif
