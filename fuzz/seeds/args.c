/* The args target's seeds: registrations of one's own backend or broadphase.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <stdio.h>

/* Registrations (operation bytes 0xF8-0xFF): a name from the target's list (top bit: a
 * backend), flag bits, the version byte. */
void seeds_write(void) {
  static const uint8_t regs[][4] = {
      {0xF8, 6, 2, 0},       {0xF9, 7, 4, 0},       {0xFA, 10, 6, 0},      {0xFB, 2, 6, 0},
      {0xFC, 5, 0, 0},       {0xFD, 8, 6, 0xF1},    {0xF8, 0x8A, 0x21, 0}, {0xF9, 0x8B, 0x41, 0},
      {0xFA, 0x8A, 0x21, 0}, {0xFB, 0x89, 0x01, 0}, {0xFC, 0x85, 0x21, 0}, {0xFD, 0x8B, 0x20, 0}};
  for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
    enc e = {.n = 0};
    for (int k = 0; k < 4; k++) put8(&e, regs[i][k]);
    char name[64];
    snprintf(name, sizeof name, "register-%zu", i);
    save(&e, name);
  }
}
