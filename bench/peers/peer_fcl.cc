// FCL 0.7.0 (libfcl-dev, S = float) broadphase managers behind peers.h: the brute force
// (NaiveCollisionManager), the sweep and prunes (SaP, SSaP), the interval tree, the two dynamic
// AABB trees (pointer nodes, array nodes) and the spatial hash, each with its defaults.
// FCL is 3D only: 2D scenes enter as flat boxes (z = [0, 0], which the closed rule keeps
// overlapping). All pairs come from collide(cdata, callback), whose callback only records the
// pair (no narrowphase).
#include "peer_ops.h"

#include <fcl/broadphase/broadphase_SSaP.h>
#include <fcl/broadphase/broadphase_SaP.h>
#include <fcl/broadphase/broadphase_bruteforce.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree_array.h>
#include <fcl/broadphase/broadphase_interval_tree.h>
#include <fcl/broadphase/broadphase_spatialhash.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace {

using S = float;
using Object = fcl::CollisionObject<S>;

// A geometry whose local AABB is our box itself. CollisionObject::computeAABB translates the
// local AABB by the object's translation when the rotation is the identity: with a zero
// translation each corner becomes c + 0 = c, so the manager holds our box bit for bit. (A Box
// shape of side max - min centred at a translation would round the corners: the pair set
// would then differ from ours at touching boxes.)
class BoxAsGiven : public fcl::CollisionGeometry<S> {
public:
  void set(const fcl::Vector3<S> &lo, const fcl::Vector3<S> &hi) {
    aabb_local.min_ = lo;
    aabb_local.max_ = hi;
    aabb_center = aabb_local.center();
    aabb_radius = (hi - aabb_center).norm();
  }
  void computeLocalAABB() override {} // set() already placed it
  fcl::NODE_TYPE getNodeType() const override { return fcl::BV_AABB; }
};

enum class Kind { Naive, SaP, SSaP, IntervalTree, DynamicTree, DynamicTreeArray, SpatialHash };

fcl::Vector3<S> corner(const col_boxes *b, const float *const *v, size_t i) {
  return fcl::Vector3<S>(v[0][i], v[1][i], b->dims == 3 ? v[2][i] : 0.0f);
}

// What the callback fills: the own store (pairs as handed over) or only their number.
struct Store {
  bool count_only;
  size_t count;
  col_pairs pairs;
};

bool record(Object *a, Object *b, void *data) {
  Store *store = static_cast<Store *>(data);
  store->count++;
  if (!store->count_only)
    peer_push(&store->pairs, (uint32_t) reinterpret_cast<uintptr_t>(a->getUserData()),
              (uint32_t) reinterpret_cast<uintptr_t>(b->getUserData()));
  return false; // false: go on (true would stop the query)
}

class FclPeer {
public:
  FclPeer(int kind, bool count_only) : kind_(static_cast<Kind>(kind)), store_{count_only, 0, {}} {}
  ~FclPeer() {
    clear();
    col_pairs_free(&store_.pairs);
  }

  // The manager goes; the objects stay (they are the user's, like a world's bodies, and a
  // build re-places them): a rebuild times the manager, not object allocation.
  void clear() { manager_.reset(); }

  bool build(const col_boxes *b) {
    clear();
    if (objects_.size() != b->count) {
      objects_.clear();
      geometry_.clear();
      for (size_t i = 0; i < b->count; i++) {
        geometry_.push_back(std::make_shared<BoxAsGiven>());
        objects_.emplace_back(new Object(geometry_[i]));
        objects_[i]->setUserData(reinterpret_cast<void *>(i));
      }
      raw_.resize(b->count);
      for (size_t i = 0; i < b->count; i++) raw_[i] = objects_[i].get();
    }
    for (size_t i = 0; i < b->count; i++) place(b, i);
    manager_.reset(make(b));
    if (!manager_) return false;
    manager_->registerObjects(raw_);
    manager_->setup();
    return true;
  }

  void find() {
    store_.count = 0;
    store_.pairs.count = 0;
    manager_->collide(&store_, record);
  }

  // The cheapest correct per-frame path: each moved object gets its new AABB
  // (computeAABB), the manager is told which moved (update(objects): the trees, SaP and the
  // hash update those alone; the brute force and SSaP redo everything) and collide() reports
  // the pairs. The interval tree takes the full update(): its per-object one looks for each
  // max endpoint among the min endpoints (leaving them stale) and crashed on the moving
  // scene at 4,096 boxes.
  void move(const col_boxes *b, const uint32_t *moved, const float *, size_t count) {
    updated_.resize(count);
    for (size_t k = 0; k < count; k++) {
      place(b, moved[k]);
      updated_[k] = raw_[moved[k]];
    }
    if (kind_ == Kind::IntervalTree)
      manager_->update();
    else
      manager_->update(updated_);
    find();
  }

  size_t reported(col_pairs *out) {
    for (size_t k = 0; out != nullptr && !store_.count_only && k < store_.pairs.count; k++)
      peer_push(out, store_.pairs.data[k].a, store_.pairs.data[k].b);
    return store_.count;
  }

private:
  void place(const col_boxes *b, size_t i) {
    geometry_[i]->set(corner(b, b->min, i), corner(b, b->max, i));
    objects_[i]->computeAABB();
  }

  fcl::BroadPhaseCollisionManager<S> *make(const col_boxes *b) {
    switch (kind_) {
    case Kind::Naive: return new (std::nothrow) fcl::NaiveCollisionManager<S>();
    case Kind::SaP: return new (std::nothrow) fcl::SaPCollisionManager<S>();
    case Kind::SSaP: return new (std::nothrow) fcl::SSaPCollisionManager<S>();
    case Kind::IntervalTree: return new (std::nothrow) fcl::IntervalTreeCollisionManager<S>();
    case Kind::DynamicTree: return new (std::nothrow) fcl::DynamicAABBTreeCollisionManager<S>();
    case Kind::DynamicTreeArray:
      return new (std::nothrow) fcl::DynamicAABBTreeCollisionManager_Array<S>();
    case Kind::SpatialHash: break;
    }
    // The hash's scene limits: the boxes' bounds widened by a quarter and 16 units on each
    // side, so that a moving scene stays inside (boxes beyond them are tested against every
    // object); its cell: the mean box side, as for Chipmunk's space hash.
    fcl::Vector3<S> lo = fcl::Vector3<S>::Constant(1e30f), hi = -lo;
    double side = 0;
    for (size_t i = 0; i < b->count; i++) {
      lo = lo.cwiseMin(corner(b, b->min, i));
      hi = hi.cwiseMax(corner(b, b->max, i));
      side += ((double)b->max[0][i] - b->min[0][i]) + ((double)b->max[1][i] - b->min[1][i]);
    }
    if (b->count == 0) lo = hi = fcl::Vector3<S>::Zero();
    const fcl::Vector3<S> pad = (hi - lo) * 0.25f + fcl::Vector3<S>::Constant(16);
    const S cell = b->count ? (S)(side / (2.0 * (double)b->count)) : 1;
    return new (std::nothrow) fcl::SpatialHashingCollisionManager<S>(
        cell > 0 ? cell : 1, lo - pad, hi + pad, (unsigned)(b->count > 1000 ? b->count : 1000));
  }

  Kind kind_;
  Store store_;
  std::vector<std::shared_ptr<BoxAsGiven>> geometry_;
  std::vector<std::unique_ptr<Object>> objects_;
  std::vector<Object *> raw_, updated_;
  std::unique_ptr<fcl::BroadPhaseCollisionManager<S>> manager_; // before objects_ go
};

constexpr peer_ops ops = peer_ops_of<FclPeer>();
// Where each stops in the benchmarks (max_count), by how its run grows with N: the brute force
// and the interval tree's collide test (nearly) every pair, so 1,024; SaP's build, SSaP's
// find and the array tree grow faster than the pointer tree, the one run at 100,000, so
// 16,384. all_pairs (left out of the paired moving benchmarks, 640 frames each): the brute
// force, the interval tree and the spatial hash, and the sweep and prunes (SSaP re-sorts
// everything every frame).
const peer_structure structures[] = {
    {"fcl", "naive", (int)Kind::Naive, true, 1024, &ops, true},
    {"fcl", "sap", (int)Kind::SaP, true, 16384, &ops, true},
    {"fcl", "ssap", (int)Kind::SSaP, true, 16384, &ops, true},
    {"fcl", "intervaltree", (int)Kind::IntervalTree, true, 1024, &ops, true},
    {"fcl", "dynamictree", (int)Kind::DynamicTree, true, 0, &ops, false},
    {"fcl", "dynamictree-array", (int)Kind::DynamicTreeArray, true, 16384, &ops, false},
    {"fcl", "spatialhash", (int)Kind::SpatialHash, true, 16384, &ops, true},
};

} // namespace

PEER_TABLE(fcl, structures);
