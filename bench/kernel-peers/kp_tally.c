/* Classified answers counted over a set (kp_tally.h). */
#include "kp_tally.h"

#include <stdlib.h>

kp_answer kp_peer_answer(const kp_impl *impl, const kp_item *it) {
  /* Aligned for the adapters' vector types (Bullet's btVector3, Eigen's). */
  static _Alignas(64) unsigned char native[KP_QUERY_ROOM + 1024];
  kp_answer a = {false, 0, 0};
  if (impl->native_size > 1024) {
    fprintf(stderr, "kernel-peers: %s's items are over 1024 bytes\n", impl->kernel);
    exit(2);
  }
  impl->prepare(it, 1, native);
  impl->answer(native, 1, &a);
  if (impl->release) impl->release(native, 1);
  return a;
}

void kp_tally_add(kp_tally *t, const kp_class *c, uint32_t index) {
  t->inputs++;
  if (c->verdict != KP_SAME) t->differ++;
  if (c->verdict == KP_BY_RULE) t->by_rule[c->reason]++;
  if (c->verdict == KP_OURS_WRONG) t->ours_wrong_diff++;
  if (c->verdict == KP_ACCURACY) t->accuracy++;
  if (c->verdict == KP_UNEXPLAINED) {
    if (t->unexplained++ == 0) t->first_unexplained = index;
  }
  if (c->exact_ours >= 0) {
    t->judged++;
    if (c->ours.hit != (bool)c->exact_ours)
      t->ours_wrong++, c->ours.hit ? t->ours_false_hits++ : t->ours_misses++;
    if (c->alt >= 0 && c->alt != c->exact_alt) t->alt_wrong++;
  }
  if (c->exact_peer >= 0 && c->peer.hit != (bool)c->exact_peer)
    t->peer_wrong++, c->peer.hit ? t->peer_false_hits++ : t->peer_misses++;
}

kp_tally kp_tally_set(const kp_kernel *k, const kp_rules *r, kp_set s, FILE *show, int max_show) {
  kp_tally t = {0};
  t.first_unexplained = UINT32_MAX;
  const uint32_t n = kp_set_size(s);
  int shown = 0;
  for (uint32_t i = 0; i < n; i++) {
    const kp_item it = kp_input(k->family, s, i);
    const kp_class c = kp_classify(k->family, r, &it, kp_peer_answer(k->impl, &it));
    kp_tally_add(&t, &c, i);
    if (c.verdict == KP_UNEXPLAINED && show && shown++ < max_show) {
      fprintf(show, "kernel-peers: unexplained difference, set %s input %u:\n", kp_set_name(s), i);
      kp_print_class(show, k, &it, &c);
    }
  }
  return t;
}

bool kp_rule_witness(const kp_kernel *k, const kp_rules *r, kp_rule_key key, kp_set *set,
                     uint32_t *index) {
  for (int s = 0; s < KP_SETS; s++)
    for (uint32_t i = 0; i < kp_set_size((kp_set)s); i++) {
      const kp_item it = kp_input(k->family, (kp_set)s, i);
      const kp_class c = kp_classify(k->family, r, &it, kp_peer_answer(k->impl, &it));
      if (c.verdict == KP_BY_RULE && c.reason == key) {
        *set = (kp_set)s, *index = i;
        return true;
      }
    }
  return false;
}
