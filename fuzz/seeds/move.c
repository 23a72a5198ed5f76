/* The move target's seeds: every roughness with slope limits 0, 4 and 8, big actors across
 * word edges, a flat level and a tall actor.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <stdio.h>

typedef struct move_actor_spec {
  uint8_t w, h;
  int8_t x, y;
  int16_t vx, vy;
  uint8_t slope;
} move_actor_spec;

static void put_speed(enc *e, int16_t v) {
  const uint16_t u = (uint16_t)(v + 300); /* decodes as u % 601 - 300 */
  put8(e, (uint8_t)u), put8(e, (uint8_t)(u >> 8));
}

static void move_file(const char *name, uint8_t w, uint8_t h, uint8_t roughness, uint8_t noise,
                      const move_actor_spec *actors, size_t n) {
  enc e = {.n = 0};
  put8(&e, w), put8(&e, h), put8(&e, (uint8_t)-3), put8(&e, 5);
  put32(&e, 0xF100D000u + w * 7u + roughness), put8(&e, roughness), put8(&e, noise);
  put8(&e, (uint8_t)(n - 1));
  for (size_t i = 0; i < n; i++) {
    const move_actor_spec *a = &actors[i];
    put8(&e, a->w), put8(&e, a->h), put8(&e, (uint8_t)a->x), put8(&e, (uint8_t)a->y);
    put_speed(&e, a->vx), put_speed(&e, a->vy), put8(&e, a->slope);
  }
  save(&e, name);
}

void seeds_write(void) {
  /* Small actors walking both ways with each slope limit, big ones across word edges. */
  for (uint8_t rough = 0; rough <= 8; rough += 2)
    for (uint8_t slope = 0; slope <= 8; slope += 4) {
      const move_actor_spec actors[4] = {{0, 3, 2, 10, 120, 7, slope},
                                         {1, 1, 60, 20, -150, -40, slope},
                                         {0x81, 12, -5, 0, 300, 300, slope},
                                         {20, 23, 30, -20, -300, 12, slope}};
      char name[64];
      snprintf(name, sizeof name, "rough-%u-slope-%u", rough, slope);
      move_file(name, 0x80 + (rough % 8), 48, rough, (uint8_t)(rough * 3 % 16), actors, 4);
    }
  const move_actor_spec flat[2] = {{3, 7, 0, 0, 100, 0, 0}, {3, 7, 10, 0, -100, 100, 2}};
  move_file("flat", 100, 40, 0, 0, flat, 2);
  const move_actor_spec tall[1] = {{69, 23, -10, -30, 90, 250, 8}};
  move_file("tall-actor-steep-level", 0x87, 64, 8, 4, tall, 1);
}
