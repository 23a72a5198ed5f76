/* What the peer-engine benchmark files share (bench_peers.c registers the rows on the built-in
 * scenes, bench_peer_files.c on scene files, bench_peer_probes.c asks each structure about the
 * touch rule). */
#ifndef COLLIDE_BENCH_PEERS_H
#define COLLIDE_BENCH_PEERS_H

#include "peers/peers.h"

#include <stdbool.h>
#include <stddef.h>

/* How many of our pairs (sweep and prune on the same boxes; kept per scene and size, except the
 * moving scene's) the engine's sorted exact set lacks; false when it holds a pair we do not. A
 * scene file's rows pass SCENE_COUNT + the file's index and its frame 0. */
bool bench_peer_missed_of_ours(int scene, const col_boxes *boxes, const col_pairs *exact,
                               size_t *missed);

/* The rows of every structure on every scene file (bench_peer_files.c). */
void bench_register_peer_files(const peer_structure *const *list, size_t count);

/* JSON context "peer_touch_rules": one line per structure, "engine-name: probe=0|1, ...", the
 * touch rule each shows on a few probe boxes. */
void bench_peer_touch_rules(const peer_structure *const *list, size_t count);

#endif
