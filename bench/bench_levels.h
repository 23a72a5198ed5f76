/* The built-in levels of the broadphase benchmarks (bench_levels.c): game levels as games have
 * them, most boxes static tiles and a share of boxes walking over them, added to the run as
 * scene files (bench_scene_files.h) with their tiles marked static:
 *   tiles-dense-P   a 60 x 50 grid of touching tiles of 16 units (3,000 tiles) and boxes of
 *                   12 x 24 walking over it, P% of all boxes (1, 10, 50; the 10% level has 300
 *                   walkers: the level of 3,000 tiles and 300 movers the benchmarks answer for);
 *   tiles-sparse-P  the platforms of a platformer on the same grid (rows of runs of tiles every
 *                   fourth row, a floor and two walls) and P% walkers;
 *   level-ctf2-movers  the real game level of bench/scenes/real.list (when the run loaded it)
 *                   with a tenth as many walkers of 0.75 x 1.5 of its mean tile;
 * 30 frames each, walkers moving up to 2 units a frame on each axis (bouncing off the level's
 * bounds). The default and full suites run all of them, quick the 10% dense level, smoke that
 * one over 4 frames; a run of the user's scene files alone none. */
#ifndef COLLIDE_BENCH_LEVELS_H
#define COLLIDE_BENCH_LEVELS_H

/* Adds the active suite's levels to the scene files (after those of the command line). */
void bench_levels_add(void);

#endif
