/* The mask target's seeds: widths 63..129 against each other where they start and stop
 * touching, positions near the int32 ends, an empty mask and a dense one.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <stdio.h>

/* The width byte that decodes to edges[i] (1, 63, 64, 65, 127, 128, 129, 191, ...). */
static uint8_t mask_edge_width(unsigned i) { return (uint8_t)(0x80 + (i + 12 - 128 % 12) % 12); }

static void mask_file(const char *name, uint8_t base, uint8_t wa, uint8_t ha, uint8_t wb,
                      uint8_t hb, uint8_t x_mode, int8_t x_delta, uint8_t y_mode, int8_t y_delta,
                      uint8_t flags, uint8_t density) {
  enc e = {.n = 0};
  put8(&e, 20), put8(&e, base);
  put8(&e, wa), put8(&e, ha), put32(&e, 0xC0FFEE00u + wa), put8(&e, density);
  put8(&e, wb), put8(&e, hb), put32(&e, 0xBADD0000u + wb), put8(&e, density);
  put8(&e, x_mode), put8(&e, (uint8_t)x_delta), put8(&e, y_mode), put8(&e, (uint8_t)y_delta);
  put8(&e, flags), put32(&e, 0x5EED0000u + flags);
  save(&e, name);
}

void seeds_write(void) {
  /* Widths 63..129 against each other, at the offsets where they start and stop touching. */
  static const struct {
    uint8_t mode;
    int8_t delta;
    const char *what;
  } place[] = {{1, 0, "apart-left"},    {1, 32, "touch-left"}, {2, 0, "apart-right"},
               {2, -32, "touch-right"}, {3, 0, "aligned"},     {0, 37, "shift-37"}};
  int k = 0;
  for (unsigned i = 1; i <= 6; i++)
    for (unsigned j = 1; j <= 6; j++, k++) {
      char name[96];
      const unsigned widths[] = {1, 63, 64, 65, 127, 128, 129};
      snprintf(name, sizeof name, "w%u-w%u-%s", widths[i], widths[j], place[k % 6].what);
      mask_file(name, 0, mask_edge_width(i), 4, mask_edge_width(j), 3, place[k % 6].mode,
                place[k % 6].delta, (uint8_t)(k % 3 == 0 ? 1 : 3), (int8_t)(k % 3 == 0 ? 32 : 0),
                (uint8_t)(k % 2), (uint8_t)(k * 37 % 256));
    }
  mask_file("near-int32-max", 1, 100, 5, mask_edge_width(9), 5, 0, -50, 3, 0, 1, 200);
  mask_file("near-int32-min", 2, mask_edge_width(10), 5, 90, 5, 0, 60, 3, 0, 0, 200);
  mask_file("mixed-limits", 3, mask_edge_width(11), 6, mask_edge_width(11), 6, 0, 1, 0, -1, 1, 120);
  mask_file("empty-b", 0, 10, 4, 0, 4, 3, 0, 3, 0, 0, 255);
  mask_file("dense-256", 0, mask_edge_width(11), 15, mask_edge_width(8), 15, 0, 45, 3, 0, 0, 255);
}
