/* A kernel's answers over a shared input set, classified and counted (kp_rules.h): the figures
 * of the report's tables, the tests' and the benchmarks' answer rows. */
#ifndef COLLIDE_KP_TALLY_H
#define COLLIDE_KP_TALLY_H

#include "kp_inputs.h"
#include "kp_rules.h"

#include <stdio.h>

typedef struct kp_tally {
  uint32_t inputs;
  uint32_t differ;                /* the peer's decision is not collide's (closed rule) */
  uint32_t by_rule[KP_RULE_KEYS]; /* ... explained by that declared rule */
  uint32_t ours_wrong_diff;       /* ... collide wrong against exact arithmetic, the peer right */
  uint32_t accuracy;              /* ... in the accuracy band (the judge says who is wrong) */
  uint32_t unexplained;           /* ... by nothing */
  uint32_t judged;                /* inputs with an exact answer */
  uint32_t peer_wrong, peer_false_hits, peer_misses; /* against the exact answer, its conventions */
  uint32_t ours_wrong, ours_false_hits, ours_misses; /* collide's default call */
  uint32_t alt_wrong;         /* collide's other form (recipe sphere, squared circles) */
  uint32_t first_unexplained; /* the first such input's index, UINT32_MAX if none */
} kp_tally;

/* One peer answer to one item (prepare + answer on memory of the adapter's size). */
kp_answer kp_peer_answer(const kp_impl *impl, const kp_item *it);
/* Adds one classified input to the tally. */
void kp_tally_add(kp_tally *t, const kp_class *c, uint32_t index);
/* Kernel k (built in) over set s under rules r; unexplained differences printed to `show` (at
 * most `max_show`; NULL: none printed). */
kp_tally kp_tally_set(const kp_kernel *k, const kp_rules *r, kp_set s, FILE *show, int max_show);

/* The first input of the shared sets (in set order) whose difference rule `key` of r explains
 * (the first rule, in key order, that changes collide's answer into the peer's). False when no
 * input needs the rule. The witnesses are the peers fuzz target's seeds, and the tests' proof
 * that each declared rule is needed. */
bool kp_rule_witness(const kp_kernel *k, const kp_rules *r, kp_rule_key key, kp_set *set,
                     uint32_t *index);

#endif
