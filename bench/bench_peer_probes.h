/* The peer engines' touch rule as observed (bench_peers.c registers the rows; this file asks
 * each structure about a few probe boxes): the JSON context "peer_touch_rules", one line per
 * structure, "engine-name: probe=0|1, ...", which the report prints. */
#ifndef COLLIDE_BENCH_PEER_PROBES_H
#define COLLIDE_BENCH_PEER_PROBES_H

#include "peers/peers.h"

#include <stddef.h>

void bench_peer_touch_rules(const peer_structure *const *list, size_t count);

#endif
