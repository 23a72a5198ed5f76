/* Fuzz target: every kernel peer (bench/kernel-peers/kernel-peers.list, the libraries built in)
 * beside collide's reference call, its answer classified by the kernel's declared rules and the
 * exact judges (kp_rules.h). A difference no rule or accuracy band explains is a finding: the
 * report names the kernel, its library call and rules, the input in decimal and %a, both
 * answers, the model's and the exact ones, then aborts.
 * Input: byte 0 picks the kernel (its place in the list, modulo the list's length; a kernel not
 * built here skips the input), byte 1 the shared set (bits 1-2, modulo 3) and the mode (bit 0):
 * 1 = the set's input whose index is the next two bytes (little-endian, modulo the set's size),
 * as the tests and reports see it; 0 = the set's generator drawing from the rest of the bytes
 * (tools/digest's byte reader: each choice one byte, exhausted bytes read as 0). The seeds
 * (fuzz/seeds/peers.c) hold, for every kernel, one input per declared rule that needs it. */
#include "fuzz_common.h"
#include "kp_rules.h"
#include "kp_tally.h"

#include <stdlib.h>

const char fz_target[] = "peers";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  if (n == 0) return 0;
  const kp_kernel *k = &ks[data[0] % n];
  if (k->impl == NULL) return 0;
  kp_rules rules;
  const char *why = kp_rules_parse(k->rules, &rules);
  if (why) {
    fprintf(stderr, "fuzz peers: %s's rules '%s': %s\n", k->name, k->rules, why);
    abort();
  }
  const kp_set set = (kp_set)((data[1] >> 1) % KP_SETS);
  kp_item it;
  uint32_t index = 0;
  if (data[1] & 1) {
    index = (uint32_t)(size > 2 ? data[2] : 0) | (uint32_t)(size > 3 ? data[3] : 0) << 8;
    index %= kp_set_size(set);
    it = kp_input(k->family, set, index);
  } else {
    it = kp_input_bytes(k->family, set, data + 2, size - 2);
  }
  const kp_answer peer = kp_peer_answer(k->impl, &it);
  const kp_class c = kp_classify(k->family, &rules, &it, peer);
  if (c.verdict != KP_UNEXPLAINED) return 0;
  if (data[1] & 1)
    fprintf(stderr, "fuzz peers: input: set %s, input %u\n", kp_set_name(set), index);
  else
    fprintf(stderr, "fuzz peers: input: drawn by the %s set's generator from %zu bytes\n",
            kp_set_name(set), size - 2);
  kp_print_class(stderr, k, &it, &c);
  fprintf(stderr, "  %s %s   <- DIFFERS from what its declared rules say (unexplained)\n", k->name,
          c.peer.hit ? "hit" : "miss");
  fprintf(stderr, "  reference: collide %s, the rules' model %s (rules %s)\n",
          c.ours.hit ? "hit" : "miss", c.model.hit ? "hit" : "miss", k->rules);
  fz_fail();
}
