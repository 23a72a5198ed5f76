/* What the peer-engine benchmark files share (bench_peers.c registers the rows on the built-in
 * scenes, bench_peer_files.c on scene files, bench_peer_rows.c holds what a row of either does,
 * bench_peer_probes.c asks each structure about the touch rule). */
#ifndef COLLIDE_BENCH_PEERS_H
#define COLLIDE_BENCH_PEERS_H

#include "gbench.h"
#include "peers/peers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* (bench_peer_rows.c) A peer row's counters of the engine's sorted exact set (its reported pairs
 * re-tested with the closed rule): pairs, and missed_pairs, how many of our pairs (sweep and prune
 * on the same boxes; kept per scene and size, except the moving scene's) it lacks; the row is
 * skipped when it holds a pair we do not. A scene file's rows pass SCENE_COUNT + the file's index
 * and its frame 0; `marks` (NULL: none) compares with our static rule's pairs instead
 * (col_broadphase_pairs_static), for a row run with the engine's own. */
void bench_peer_exact_counters(gb_state *st, int scene, const col_boxes *boxes,
                               const uint8_t *marks, const col_pairs *exact);

/* One from-scratch frame of a peer row, the same on built-in scenes and scene files: the
 * previous structure dropped (outside the row's timing when `st` is not NULL; NULL for the
 * untimed passes after the loop), then a fresh one built on `boxes` and its pairs found, the
 * TSC ticks of each added to *build and *find. False when the engine refused the boxes. */
bool bench_peer_rebuild(gb_state *st, const peer_structure *p, void *peer, const col_boxes *boxes,
                        uint64_t *build, uint64_t *find);

/* A peer row's timing counters, the same on built-in scenes and scene files: bench_finish on
 * build + find ticks, engine_pairs (as the engine reported them), kcycles_per_run and, from
 * scratch, build_kcycles and find_kcycles (a kept structure's frame is its update alone, in
 * `find`). */
void bench_peer_counters(gb_state *st, size_t n, size_t engine_pairs, uint64_t build, uint64_t find,
                         bool from_scratch);

/* The rows of every structure on every scene file (bench_peer_files.c). */
void bench_register_peer_files(const peer_structure *const *list, size_t count);

/* JSON context "peer_touch_rules": one line per structure, "engine-name: probe=0|1, ...", the
 * touch rule each shows on a few probe boxes. */
void bench_peer_touch_rules(const peer_structure *const *list, size_t count);

#endif
