/* The peers target's seeds: for every kernel built in and every rule it declares, the first input
 * of the shared sets that the rule explains (kp_rule_witness: dropped, that input's difference
 * would be unexplained or taken for rounding), in the target's set mode; and for every kernel
 * and set a few inputs in the generator mode. Written by `make seeds` (fuzz/make_seeds.c runs
 * seeds_write). */
#include "encode.h"

#include "kp_tally.h"

#include <stdio.h>

void seeds_write(void) {
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  enc e = {.n = 0};
  for (size_t i = 0; i < n; i++) {
    if (ks[i].impl == NULL) continue;
    kp_rules r;
    if (kp_rules_parse(ks[i].rules, &r) != NULL) continue;
    char name[96];
    for (int key = 0; key < KP_RULE_KEYS; key++) {
      kp_set s;
      uint32_t at;
      if (!r.set[key] || !kp_rule_witness(&ks[i], &r, (kp_rule_key)key, &s, &at)) continue;
      e.n = 0;
      put8(&e, (uint8_t)i), put8(&e, (uint8_t)(s << 1 | 1)), put8(&e, (uint8_t)at),
          put8(&e, (uint8_t)(at >> 8));
      snprintf(name, sizeof name, "rule-%s-%s", ks[i].name, kp_rule_name((kp_rule_key)key));
      save(&e, name);
    }
    for (int s = 0; s < KP_SETS; s++) {
      e.n = 0;
      put8(&e, (uint8_t)i), put8(&e, (uint8_t)(s << 1));
      for (int b = 0; b < 24; b++) put8(&e, (uint8_t)(b * 37 + (int)i * 11 + s));
      snprintf(name, sizeof name, "drawn-%s-%s", ks[i].name, kp_set_name((kp_set)s));
      save(&e, name);
    }
  }
}
