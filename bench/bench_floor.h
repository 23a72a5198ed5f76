/* The memory floor of a broadphase (bench_floor.c): the two passes any broadphase of a scene
 * must make, read every coordinate of the boxes once and write every pair once, timed with
 * nothing in between. The SIMD forms live in the ISA's own file (bench_floor_x86.c); where no
 * such file applies, bench_floor.c's plain C stands in, and the non-temporal row says so. */
#ifndef COLLIDE_BENCH_FLOOR_H
#define COLLIDE_BENCH_FLOOR_H

#include "collide.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether an ISA file gives the floor its own passes here (x86: SSE2, the x86-64 baseline). */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#define BENCH_FLOOR_X86 1
#else
#define BENCH_FLOOR_X86 0
#endif

/* What the non-temporal row's stores are on this build, for its label. */
extern const char *const bench_floor_stream_kind;

/* Reads every float of the boxes' arrays (2 x dims arrays of count floats) and returns the
 * widest max minus the lowest min, a value that depends on every one of them. */
float bench_floor_read(const col_boxes *boxes);

/* Writes `count` pairs into `out` (16-byte aligned): (a, a + 1) for a = 0, 1, ... cycling
 * below n - 1 in runs of whole 64-byte lines, so every index is a box's (n >= 2). `stream`:
 * non-temporal stores where the ISA has them, then a store fence; plain stores otherwise. */
void bench_floor_write(col_pair *out, size_t count, uint32_t n, bool stream);

#endif
