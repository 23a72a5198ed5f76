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
  const char *path; /* as given on the command line */
  col_scene scene;
} bench_scene_file;

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

/* JSON context: collide_scene_files, one line per file "name boxes dims frames path". */
void bench_scene_files_context(void);

#endif
