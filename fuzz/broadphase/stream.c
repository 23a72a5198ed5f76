/* The streamed call against the list (stream.h). */
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct joined {
  const col_pairs *list;
  size_t at, longest;
  bool differs;
} joined;

/* Each batch compared where it lands in the list, so nothing is copied. */
static void compare_batch(void *context, const col_pair *pairs, size_t count) {
  joined *j = context;
  if (count > j->longest) j->longest = count;
  if (count == 0 || j->at + count > j->list->count ||
      memcmp(j->list->data + j->at, pairs, count * sizeof *pairs) != 0)
    j->differs = true;
  j->at += count;
}

void fb_stream_check(const col_broadphase_info *info, const col_boxes *boxes, col_touch touch,
                     const col_pairs *list, size_t batch, const char *backend) {
  static col_pairs buffer; /* kept between inputs, as a caller keeps it between frames */
  joined j = {list, 0, 0, false};
  const col_status st = col_broadphase_pairs_stream(info->algorithm, boxes, touch, &buffer, batch,
                                                    compare_batch, &j, NULL);
  if (st == COL_OK && !j.differs && j.at == list->count && j.longest <= batch) return;
  fprintf(stderr,
          "fuzz broadphase: %s on %s, %uD, %zu boxes, streamed in batches of %zu: status %d, "
          "%zu pairs streamed against %zu listed, longest batch %zu, %s\n",
          info->name, backend, boxes->dims, boxes->count, batch, (int)st, j.at, list->count,
          j.longest, j.differs ? "the pairs or their order differ" : "same pairs so far");
  fz_fail();
}
