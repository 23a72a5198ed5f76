/* The touch rule each peer structure shows on probe boxes (bench_peer_probes.h). */
#include "bench_peers.h"
#include "gbench.h"

#include <stdio.h>
#include <string.h>

/* The touch rule as observed: box A = [0, 1]^2 and a box B placed by `probe`; does the engine
 * report the pair? Probes: B shares A's right edge (touch), B starts 2^-10 or 0.15 to the
 * right (gaps below Box2D's two fat margins), B lies above A with x overlapping (a y gap of 4). */
static const char *const probe_name[] = {"touch", "gap 2^-10", "gap 0.15", "x overlap & y gap 4"};
enum { PROBES = 4 };

static int probe(const peer_structure *p, int which) {
  static const float dx[PROBES] = {1.0f, 1.0f + 0x1p-10f, 1.15f, 0.0f};
  static const float dy[PROBES] = {0.0f, 0.0f, 0.0f, 5.0f};
  const float lo_x[2] = {0.0f, dx[which]}, lo_y[2] = {0.0f, dy[which]},
              hi_x[2] = {1.0f, dx[which] + 1.0f}, hi_y[2] = {1.0f, dy[which] + 1.0f}, z[2] = {0, 0};
  const col_boxes boxes = {2, {lo_x, lo_y, z}, {hi_x, hi_y, z}, 2};
  void *peer = p->ops->create(p->kind, true);
  if (peer == NULL || !p->ops->build(peer, &boxes)) {
    if (peer) p->ops->destroy(peer);
    return -1;
  }
  p->ops->find(peer);
  const int reported = (int)p->ops->reported_pairs(peer, NULL);
  p->ops->destroy(peer);
  return reported;
}

void bench_peer_touch_rules(const peer_structure *const *list, size_t count) {
  char buf[4096] = "";
  for (size_t i = 0; i < count; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, sizeof buf - used, "%s%s-%s:", i ? "\n" : "", list[i]->engine,
             list[i]->name);
    for (int k = 0; k < PROBES; k++) {
      used = strlen(buf);
      snprintf(buf + used, sizeof buf - used, "%s %s=%d", k ? "," : "", probe_name[k],
               probe(list[i], k));
    }
  }
  gb_add_context("peer_touch_rules", buf);
}
