// Bullet 3.24 (libbullet-dev, single precision) broadphases behind peers.h: btDbvtBroadphase
// (default: pairs found while inserting and moving; deferred: found in
// calculateOverlappingPairs), bt32BitAxisSweep3 and btSimpleBroadphase. Boxes enter as they
// are (no margin added by us); 2D scenes get z = [0, 0].
#include "peer_ops.h"

#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/BroadphaseCollision/btSimpleBroadphase.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

// The count-only store: Bullet's broadphases hand every new pair to addOverlappingPair and,
// where they track overlaps edge by edge (the axis sweep), every ended one to
// removeOverlappingPair; the count is the difference. btNullPairCache reports deferred
// removal, so the Dbvt never asks it to find pairs or clean up.
class CountingPairCache : public btNullPairCache {
public:
  size_t count = 0;
  btBroadphasePair *addOverlappingPair(btBroadphaseProxy *, btBroadphaseProxy *) override {
    count++;
    return nullptr;
  }
  void *removeOverlappingPair(btBroadphaseProxy *, btBroadphaseProxy *, btDispatcher *) override {
    count--;
    return nullptr;
  }
};

// Box i's proxy carries i + 1: btSimpleBroadphase skips proxies whose client object is null.
uint32_t index_of(const btBroadphaseProxy *proxy) {
  return (uint32_t)(reinterpret_cast<uintptr_t>(proxy->m_clientObject) - 1);
}

enum class Kind { Dbvt, DbvtDeferred, AxisSweep, Simple };

btVector3 corner(const col_boxes *b, const float *const *v, size_t i) {
  return btVector3(v[0][i], v[1][i], b->dims == 3 ? v[2][i] : 0.0f);
}

class BulletPeer {
public:
  BulletPeer(int kind, bool count_only) : kind_(static_cast<Kind>(kind)), count_only_(count_only) {}
  ~BulletPeer() { clear(); }

  void clear() {
    broadphase_.reset();
    // The Dbvt allocates each proxy with btAlignedAlloc and leaves them to the user: a user
    // calls destroyProxy per object, which also walks the pair cache (far slower than the
    // whole run at 100k boxes); the tree is gone, so the proxies are simply released.
    if (kind_ == Kind::Dbvt || kind_ == Kind::DbvtDeferred)
      for (btBroadphaseProxy *p : proxies_) btAlignedFree(p);
    proxies_.clear();
    counter_.reset();
  }

  bool build(const col_boxes *b) {
    clear();
    if (count_only_) counter_.reset(new CountingPairCache());
    btOverlappingPairCache *cache = counter_.get(); // nullptr: the engine's own hashed cache
    switch (kind_) {
    case Kind::Dbvt:
    case Kind::DbvtDeferred: {
      auto *dbvt = new btDbvtBroadphase(cache);
      dbvt->m_deferedcollide = kind_ == Kind::DbvtDeferred;
      broadphase_.reset(dbvt);
      break;
    }
    case Kind::AxisSweep: {
      // World bounds from the boxes, widened so that a moving scene stays inside; handles
      // for exactly N boxes (the 1.5 M default would allocate ~100 MB per build). The raycast
      // accelerator (a second, Dbvt, broadphase kept for ray queries) is disabled: it plays
      // no part in finding pairs.
      btVector3 lo(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT), hi = -lo;
      for (size_t i = 0; i < b->count; i++) {
        lo.setMin(corner(b, b->min, i));
        hi.setMax(corner(b, b->max, i));
      }
      const btVector3 pad = (hi - lo) * 0.25f + btVector3(16, 16, 16);
      broadphase_.reset(
          new bt32BitAxisSweep3(lo - pad, hi + pad, (unsigned)b->count + 1, cache, true));
      break;
    }
    case Kind::Simple: broadphase_.reset(new btSimpleBroadphase((int)b->count + 1, cache)); break;
    }
    proxies_.resize(b->count);
    // The static rule (set_static): static boxes in StaticFilter, masking StaticFilter out, so
    // the pair cache's needsBroadphaseCollision drops a pair of two of them.
    const int static_mask = btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter;
    for (size_t i = 0; i < b->count; i++) {
      const bool fixed = statics_ != nullptr && statics_[i];
      proxies_[i] = broadphase_->createProxy(
          corner(b, b->min, i), corner(b, b->max, i), 0, reinterpret_cast<void *>(i + 1),
          fixed ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter,
          fixed ? static_mask : btBroadphaseProxy::AllFilter, nullptr);
    }
    return true;
  }

  void set_static(const uint8_t *is_static) { statics_ = is_static; }

  void find() { broadphase_->calculateOverlappingPairs(nullptr); }

  void move(const col_boxes *b, const uint32_t *moved, const float *, size_t count) {
    for (size_t k = 0; k < count; k++) {
      const uint32_t i = moved[k];
      broadphase_->setAabb(proxies_[i], corner(b, b->min, i), corner(b, b->max, i), nullptr);
    }
    find();
  }

  size_t reported(col_pairs *out) {
    if (count_only_) return counter_->count;
    btOverlappingPairCache *cache = broadphase_->getOverlappingPairCache();
    const int n = cache->getNumOverlappingPairs();
    const btBroadphasePair *p = cache->getOverlappingPairArrayPtr();
    for (int k = 0; out != nullptr && k < n; k++)
      peer_push(out, index_of(p[k].m_pProxy0), index_of(p[k].m_pProxy1));
    return (size_t)n;
  }

private:
  Kind kind_;
  bool count_only_;
  const uint8_t *statics_ = nullptr;
  std::unique_ptr<CountingPairCache> counter_; // outlives broadphase_ (declared first)
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::vector<btBroadphaseProxy *> proxies_;
};

constexpr peer_ops ops = peer_ops_of<BulletPeer>();
// bt32BitAxisSweep3 inserts in O(N) per box and btSimpleBroadphase tests all pairs: both stop
// at 16,384 boxes in the benchmarks.
const peer_structure structures[] = {
    {"bullet", "dbvt", (int)Kind::Dbvt, true, 0, &ops, false},
    {"bullet", "dbvt-deferred", (int)Kind::DbvtDeferred, true, 0, &ops, false},
    {"bullet", "axissweep3", (int)Kind::AxisSweep, true, 16384, &ops, false},
    {"bullet", "simple", (int)Kind::Simple, true, 16384, &ops, true},
};

} // namespace

PEER_TABLE(bullet, structures);
