/* Scene files as benchmark scenes (docs/scenes.md): the files named on the command line
 * (--collide_scene=FILE, repeatable) are read once, before any benchmark is registered, and
 * the broadphase, parallel and peer families register rows on them named with the file's
 * stem where a built-in scene's name goes (broadphase/sap/avx2/<stem>/N, N = boxes a frame).
 * Loading is never timed. A file scene's rows walk its frames, one frame per iteration, in
 * the order 0, 1, ..., F-1, F-2, ..., 1, 0, 1, ...: every step is between neighbouring frames,
 * so a kept cache never sees a jump from the last frame back to the first. */
#ifndef COLLIDE_BENCH_SCENE_FILES_H
#define COLLIDE_BENCH_SCENE_FILES_H

#include "collide.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bench_scene_file {
  char name[64];    /* the file's stem: the scene part of its rows */
  const char *path; /* as given on the command line ("built-in: ..." for the levels) */
  col_scene scene;  /* its is_static: the static marks of a version 2 file, or NULL */
  bool level;       /* a built-in level (bench_levels.c): fewer rows (one backend each) */
} bench_scene_file;

/* Adds a scene made in memory (the built-in levels, bench_levels.c) as one more file, taking
 * its data: `name` must be new, `path` says what it is. Returns false (after printing why) when
 * the table is full or the name taken. */
bool bench_scene_files_add(const char *name, const char *path, col_scene scene);

/* Reads and removes the scene options from argv (--collide_scene=FILE, --collide_scene_only),
 * reading every file. Returns 0, or 2 after printing why on stderr ("collide-bench: FILE: line
 * L (byte B): reason", a name taken twice or by a built-in scene, a name with a character
 * outside [A-Za-z0-9_.-]). */
int bench_scene_files_load(int *argc, char **argv);

/* The files loaded, in command-line order: the k-th, or NULL past the last. */
const bench_scene_file *bench_scene_file_at(size_t k);
size_t bench_scene_file_count(void);

/* --collide_scene_only: the families register the scene files' rows and nothing else. */
bool bench_scene_only(void);

/* The frame a file scene's row runs at its i-th step (the order above). */
size_t bench_scene_file_step(const bench_scene_file *f, uint64_t i);

/* Frame `frame` of the file as boxes (pointers into the loaded data). */
col_boxes bench_scene_file_frame(const bench_scene_file *f, size_t frame);

/* The boxes of frame `to` that differ from frame `from` (any coordinate's bits): their
 * indices into `moved` (room for count) and, when `delta` is not NULL, the change of their
 * min x and min y (2 floats a box). Returns how many. */
size_t bench_scene_file_moved(const bench_scene_file *f, size_t from, size_t to, uint32_t *moved,
                              float *delta);

/* A scene-file row's timing walk by walk: the steps of each walk over the file's frames (2 (F
 * - 1) steps; 8 on a file of one frame) summed apart, so that the row reports its fastest
 * walk's cycles per frame (kcycles_min) and how much slower its slowest was (kcycles_spread:
 * slowest / fastest - 1, over `walks` whole walks), the repeated measurements a verdict
 * needs (a partial last walk is left out; with none whole, the mean of the steps). */
typedef struct bench_walks {
  uint64_t ticks, period, in_walk, walks, steps, total;
  double best, worst;
} bench_walks;
void bench_walks_start(bench_walks *w, const bench_scene_file *f);
void bench_walks_step(bench_walks *w, uint64_t ticks);
struct gb_state;
void bench_walks_counters(struct gb_state *st, const bench_walks *w);

/* JSON context: collide_scene_files, one line per file "name boxes dims frames path". */
void bench_scene_files_context(void);

#endif
