// Box2D 2.4.1 (libbox2d-dev) broadphases behind peers.h, 2D only: b2BroadPhase (CreateProxy,
// then UpdatePairs; MoveProxy + UpdatePairs per frame) and b2DynamicTree with one Query per
// box. Both store "fat" AABBs: each box grown by b2_aabbExtension (0.1) per side on insertion,
// and by 4x the displacement in the direction of motion when a moved box leaves its fat box.
#include "peer_ops.h"

#include <box2d/b2_broad_phase.h>
#include <box2d/b2_dynamic_tree.h>

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

namespace {

b2AABB box_of(const col_boxes *b, size_t i) {
  b2AABB a;
  a.lowerBound.Set(b->min[0][i], b->min[1][i]);
  a.upperBound.Set(b->max[0][i], b->max[1][i]);
  return a;
}

uint32_t index_of(void *user_data) { return (uint32_t) reinterpret_cast<uintptr_t>(user_data); }

uint64_t key_of(uint32_t a, uint32_t b) {
  return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

// b2BroadPhase, used the way b2World uses it: pairs from UpdatePairs go to the caller's
// callback; a per-frame user keeps the current pairs in a set, adds what UpdatePairs reports
// and drops pairs whose fat AABBs no longer overlap (b2ContactManager::Collide's rule).
class BroadPhasePeer {
public:
  BroadPhasePeer(int, bool count_only) : count_only_(count_only) {}

  void clear() {
    bp_.reset();
    proxies_.clear();
    pairs_.clear();
    current_.clear();
    count_ = 0;
  }

  bool build(const col_boxes *b) {
    clear();
    if (b->count > (size_t)INT32_MAX) return false;
    bp_.reset(new b2BroadPhase());
    proxies_.resize(b->count);
    for (size_t i = 0; i < b->count; i++)
      proxies_[i] = bp_->CreateProxy(box_of(b, i), reinterpret_cast<void *>(i));
    moving_ = false;
    return true;
  }

  void set_static(const uint8_t *is_static) { statics_ = is_static; }

  // UpdatePairs' callback; with static marks, b2ContactManager::AddPair's rule: two bodies that
  // are not dynamic make no contact (b2Body::ShouldCollide).
  void AddPair(void *a, void *b) {
    if (statics_ != nullptr && statics_[index_of(a)] && statics_[index_of(b)]) return;
    if (count_only_)
      count_++;
    else if (moving_)
      current_.insert(key_of(index_of(a), index_of(b)));
    else
      pairs_.push_back(col_pair{index_of(a), index_of(b)});
  }

  void find() { bp_->UpdatePairs(this); }

  void move(const col_boxes *b, const uint32_t *moved, const float *delta, size_t count) {
    if (!moving_ && !count_only_) { // from here on the pairs live in the per-frame set
      for (const col_pair &p : pairs_) current_.insert(key_of(p.a, p.b));
      pairs_.clear();
    }
    moving_ = true;
    count_ = 0;
    for (size_t k = 0; k < count; k++)
      bp_->MoveProxy(proxies_[moved[k]], box_of(b, moved[k]),
                     b2Vec2(delta[2 * k], delta[2 * k + 1]));
    bp_->UpdatePairs(this);
    if (count_only_) return;
    for (auto it = current_.begin(); it != current_.end();) {
      const uint32_t a = (uint32_t)(*it >> 32), c = (uint32_t)*it;
      it = bp_->TestOverlap(proxies_[a], proxies_[c]) ? std::next(it) : current_.erase(it);
    }
  }

  size_t reported(col_pairs *out) {
    if (count_only_) return count_;
    if (moving_) {
      if (out)
        for (uint64_t k : current_) peer_push(out, (uint32_t)(k >> 32), (uint32_t)k);
      return current_.size();
    }
    if (out)
      for (const col_pair &p : pairs_) peer_push(out, p.a, p.b);
    return pairs_.size();
  }

  void stored(uint32_t i, float min[2], float max[2]) const {
    const b2AABB &a = bp_->GetFatAABB(proxies_[i]);
    min[0] = a.lowerBound.x, min[1] = a.lowerBound.y;
    max[0] = a.upperBound.x, max[1] = a.upperBound.y;
  }

private:
  bool count_only_, moving_ = false;
  const uint8_t *statics_ = nullptr;
  std::unique_ptr<b2BroadPhase> bp_;
  std::vector<int32> proxies_;
  std::vector<col_pair> pairs_;          // from scratch: as UpdatePairs reported them
  std::unordered_set<uint64_t> current_; // per frame: the pairs kept up to date
  size_t count_ = 0;
};

// b2DynamicTree on its own: every box inserted, then every box queried with its own (exact)
// AABB; a pair (i, j) is kept from box i's query when i < j.
class TreePeer {
public:
  TreePeer(int, bool count_only) : count_only_(count_only) {}

  void clear() {
    tree_.reset();
    proxies_.clear();
    pairs_.clear();
    count_ = 0;
  }

  bool build(const col_boxes *b) {
    clear();
    if (b->count > (size_t)INT32_MAX) return false;
    boxes_ = *b;
    tree_.reset(new b2DynamicTree());
    proxies_.resize(b->count);
    for (size_t i = 0; i < b->count; i++)
      proxies_[i] = tree_->CreateProxy(box_of(b, i), reinterpret_cast<void *>(i));
    return true;
  }

  // Query's callback: keep going (true) after every proxy.
  bool QueryCallback(int32 proxy) {
    const uint32_t j = index_of(tree_->GetUserData(proxy));
    if (j > query_) {
      if (count_only_)
        count_++;
      else
        pairs_.push_back(col_pair{query_, j});
    }
    return true;
  }

  void find() {
    for (size_t i = 0; i < boxes_.count; i++) {
      query_ = (uint32_t)i;
      tree_->Query(this, box_of(&boxes_, i));
    }
  }

  size_t reported(col_pairs *out) {
    if (count_only_) return count_;
    if (out)
      for (const col_pair &p : pairs_) peer_push(out, p.a, p.b);
    return pairs_.size();
  }

  void stored(uint32_t i, float min[2], float max[2]) const {
    const b2AABB &a = tree_->GetFatAABB(proxies_[i]);
    min[0] = a.lowerBound.x, min[1] = a.lowerBound.y;
    max[0] = a.upperBound.x, max[1] = a.upperBound.y;
  }

private:
  bool count_only_;
  col_boxes boxes_{};
  std::unique_ptr<b2DynamicTree> tree_;
  std::vector<int32> proxies_;
  std::vector<col_pair> pairs_;
  uint32_t query_ = 0;
  size_t count_ = 0;
};

constexpr peer_ops broadphase_ops = peer_ops_of<BroadPhasePeer>(),
                   tree_ops = peer_ops_of<TreePeer>();
const peer_structure structures[] = {
    {"box2d", "broadphase", 0, false, 0, &broadphase_ops, false},
    {"box2d", "tree", 0, false, 0, &tree_ops, false},
};

} // namespace

PEER_TABLE(box2d, structures);
