// The plain-C peer_ops of peers.h over an adapter's C++ class, written once for every C++
// adapter. The class P keeps one engine structure and has
//   P(int kind, bool count_only)       kind: the structure's peer_structure.kind
//   void clear()                       drops the engine structure
//   bool build(const col_boxes *)      a fresh structure holding every box
//   void find()                        the engine's own pair update
//   size_t reported(col_pairs *out)    what peer_ops.reported_pairs says
// and, where the engine has them,
//   void move(const col_boxes *, const uint32_t *moved, const float *delta, size_t count)
//   void stored(uint32_t i, float min[2], float max[2]) const
//   void set_static(const uint8_t *is_static)
// which fill peer_ops.move, peer_ops.stored_box and peer_ops.set_static (NULL without them).
#ifndef COLLIDE_PEER_OPS_H
#define COLLIDE_PEER_OPS_H

#include "peers.h"

#include <cstdint>
#include <new>
#include <type_traits>

namespace peer_ops_detail {

template <class P, class = void> struct has_move : std::false_type {};
template <class P> struct has_move<P, std::void_t<decltype(&P::move)>> : std::true_type {};
template <class P, class = void> struct has_stored : std::false_type {};
template <class P> struct has_stored<P, std::void_t<decltype(&P::stored)>> : std::true_type {};
template <class P, class = void> struct has_static : std::false_type {};
template <class P> struct has_static<P, std::void_t<decltype(&P::set_static)>> : std::true_type {};

// Engines allocate as they like; an adapter's constructor only records its arguments, so
// nothrow new is the whole out-of-memory story (create returns NULL).
template <class P> void *trampoline_create(int kind, bool count_only) {
  return new (std::nothrow) P(kind, count_only);
}
template <class P> void trampoline_destroy(void *self) { delete static_cast<P *>(self); }
template <class P> void trampoline_clear(void *self) { static_cast<P *>(self)->clear(); }
template <class P> bool trampoline_build(void *self, const col_boxes *b) {
  return static_cast<P *>(self)->build(b);
}
template <class P> void trampoline_find(void *self) { static_cast<P *>(self)->find(); }
template <class P>
void trampoline_move(void *self, const col_boxes *b, const uint32_t *moved, const float *delta,
                     size_t count) {
  static_cast<P *>(self)->move(b, moved, delta, count);
}
template <class P> size_t trampoline_reported(void *self, col_pairs *out) {
  return static_cast<P *>(self)->reported(out);
}
template <class P> void trampoline_stored(void *self, uint32_t i, float min[2], float max[2]) {
  static_cast<const P *>(self)->stored(i, min, max);
}
template <class P> void trampoline_static(void *self, const uint8_t *is_static) {
  static_cast<P *>(self)->set_static(is_static);
}

} // namespace peer_ops_detail

// The operations of class P, for its structures' peer_structure.ops.
template <class P> constexpr peer_ops peer_ops_of() {
  namespace d = peer_ops_detail;
  peer_ops ops = {d::trampoline_create<P>,
                  d::trampoline_destroy<P>,
                  d::trampoline_clear<P>,
                  d::trampoline_build<P>,
                  d::trampoline_find<P>,
                  nullptr,
                  d::trampoline_reported<P>,
                  nullptr,
                  nullptr};
  if constexpr (d::has_move<P>::value) ops.move = d::trampoline_move<P>;
  if constexpr (d::has_stored<P>::value) ops.stored_box = d::trampoline_stored<P>;
  if constexpr (d::has_static<P>::value) ops.set_static = d::trampoline_static<P>;
  return ops;
}

#endif
