// ODE 0.16.2 (libode-dev, dReal = double) collision spaces behind peers.h: dSimpleSpace,
// dHashSpace, dSweepAndPruneSpace and dQuadTreeSpace, 3D (2D scenes get z = [0, 0]). Each box
// is a geom of our own class (dCreateGeomClass) whose AABB function returns the box as given
// (float to double is exact), so dSpaceCollide runs the broadphase alone: ODE tests the AABBs
// of the candidates it finds (closed: touching boxes pass) and hands each surviving pair to
// the near callback, which only records it. ODE keeps no pairs between calls: each
// dSpaceCollide finds them all again. A moving box gets its new AABB in the geom's class data
// and dGeomSetPosition (the public call that marks a geom's AABB stale in its space).
#include "peer_ops.h"

#include <ode/ode.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// A geom's class data: its box (min x, max x, min y, max y, min z, max z, ODE's AABB order)
// and its index.
struct BoxData {
  dReal aabb[6];
  uint32_t index;
};

BoxData *data_of(dGeomID g) { return static_cast<BoxData *>(dGeomGetClassData(g)); }

void box_aabb(dGeomID g, dReal aabb[6]) { std::memcpy(aabb, data_of(g)->aabb, sizeof(dReal[6])); }

// dCollide would ask for a collider; it is never called (the near callback only records).
dColliderFn *no_collider(int) { return nullptr; }

// ODE is initialised once per process, and closed at exit; the box class is registered once
// (ODE allows only a few user classes).
struct OdeLibrary {
  int box_class;
  OdeLibrary() {
    dInitODE2(0);
    const dGeomClass c = {(int)sizeof(BoxData), no_collider, box_aabb, nullptr, nullptr};
    box_class = dCreateGeomClass(&c);
  }
  ~OdeLibrary() { dCloseODE(); }
};

int box_class() {
  static OdeLibrary library;
  return library.box_class;
}

enum class Kind { Simple, Hash, Sap, QuadTree };

void set_box(BoxData *d, const col_boxes *b, size_t i) {
  for (int k = 0; k < 3; k++) {
    d->aabb[2 * k] = k < (int)b->dims ? b->min[k][i] : 0.0;
    d->aabb[2 * k + 1] = k < (int)b->dims ? b->max[k][i] : 0.0;
  }
}

class OdePeer {
public:
  // ODE is initialised, and the box class registered, before the first space is made.
  OdePeer(int kind, bool count_only) : kind_(static_cast<Kind>(kind)), count_only_(count_only) {
    box_class();
  }
  ~OdePeer() { clear(); }

  void clear() {
    if (space_) dSpaceDestroy(space_); // cleanup mode (the default): destroys the geoms too
    space_ = nullptr;
    geoms_.clear();
    pairs_.clear();
    count_ = 0;
  }

  bool build(const col_boxes *b) {
    clear();
    switch (kind_) {
    case Kind::Simple: space_ = dSimpleSpaceCreate(nullptr); break;
    case Kind::Hash: space_ = dHashSpaceCreate(nullptr); break;
    case Kind::Sap: space_ = dSweepAndPruneSpaceCreate(nullptr, dSAP_AXES_XYZ); break;
    case Kind::QuadTree: space_ = quadtree(b); break;
    }
    if (space_ == nullptr) return false;
    const int cls = box_class();
    geoms_.resize(b->count);
    for (size_t i = 0; i < b->count; i++) {
      dGeomID g = dCreateGeom(cls);
      BoxData *d = data_of(g);
      set_box(d, b, i);
      d->index = (uint32_t)i;
      // The quadtree files a geom in a block by the AABB it holds when added: computed here
      // (dGeomGetAABB), or else every geom enters the block of an all-zero AABB and the first
      // dSpaceCollide moves each out of that one list, quadratic in N.
      if (kind_ == Kind::QuadTree) dGeomGetAABB(g, d->aabb);
      dSpaceAdd(space_, g);
      geoms_[i] = g;
    }
    return true;
  }

  void find() {
    pairs_.clear();
    count_ = 0;
    dSpaceCollide(space_, this, near_pair);
  }

  void move(const col_boxes *b, const uint32_t *moved, const float *, size_t count) {
    for (size_t k = 0; k < count; k++) {
      const uint32_t i = moved[k];
      BoxData *d = data_of(geoms_[i]);
      set_box(d, b, i);
      dGeomSetPosition(geoms_[i], 0.5 * (d->aabb[0] + d->aabb[1]), 0.5 * (d->aabb[2] + d->aabb[3]),
                       0.5 * (d->aabb[4] + d->aabb[5]));
    }
    find();
  }

  size_t reported(col_pairs *out) {
    if (count_only_) return count_;
    for (size_t k = 0; out != nullptr && k < pairs_.size(); k += 2)
      peer_push(out, pairs_[k], pairs_[k + 1]);
    return pairs_.size() / 2;
  }

private:
  static void near_pair(void *self, dGeomID a, dGeomID b) {
    OdePeer *p = static_cast<OdePeer *>(self);
    if (p->count_only_) {
      p->count_++;
    } else {
      p->pairs_.push_back(data_of(a)->index);
      p->pairs_.push_back(data_of(b)->index);
    }
  }

  // The quadtree covers the boxes' x and y range (its two axes; z is its up axis), widened
  // so that a moving scene stays inside, with a depth that leaves a few boxes per leaf cell
  // (4^depth leaves, all allocated up front; at most 4^8).
  static dSpaceID quadtree(const col_boxes *b) {
    dReal lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < b->count; i++)
      for (int k = 0; k < 2; k++) {
        lo[k] = std::fmin(lo[k], (dReal)b->min[k][i]);
        hi[k] = std::fmax(hi[k], (dReal)b->max[k][i]);
      }
    if (b->count == 0) lo[0] = lo[1] = hi[0] = hi[1] = 0;
    dVector3 centre, extents;
    for (int k = 0; k < 2; k++) {
      centre[k] = 0.5 * (lo[k] + hi[k]);
      extents[k] = 0.75 * (hi[k] - lo[k]) + 16; // half widths: the range and half again
    }
    centre[2] = 0, extents[2] = 0, centre[3] = extents[3] = 0;
    int depth = 1;
    while (depth < 8 && ((size_t)1 << (2 * depth)) < b->count / 4) depth++;
    return dQuadTreeSpaceCreate(nullptr, centre, extents, depth);
  }

  Kind kind_;
  bool count_only_;
  dSpaceID space_ = nullptr;
  std::vector<dGeomID> geoms_;
  std::vector<uint32_t> pairs_; // the last dSpaceCollide's pairs, two indices each
  size_t count_ = 0;
};

constexpr peer_ops ops = peer_ops_of<OdePeer>();
// Where each stops in the benchmarks (max_count): the simple space tests every pair, so 4,096,
// and it is left out of the paired benchmarks (all_pairs); the hash space zeroes an N x N bit
// table per dSpaceCollide (1.25 GB at 100,000) and the quadtree's run grows as fast there, so
// 16,384; the sweep and prune runs 100,000 in the full suite.
const peer_structure structures[] = {
    {"ode", "simple", (int)Kind::Simple, true, 4096, &ops, true},
    {"ode", "hash", (int)Kind::Hash, true, 16384, &ops, false},
    {"ode", "sap", (int)Kind::Sap, true, 100000, &ops, false},
    {"ode", "quadtree", (int)Kind::QuadTree, true, 16384, &ops, false},
};

} // namespace

PEER_TABLE(ode, structures);
