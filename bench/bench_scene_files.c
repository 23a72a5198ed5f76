/* Scene files as benchmark scenes (bench_scene_files.h). */
#include "bench_scene_files.h"
#include "bench_scenes.h"
#include "gbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The files a run takes: enough for the built-in real scenes and a user's own, each held
 * whole in memory (the format's limit is 1 GiB of boxes a file). */
enum { MAX_FILES = 32 };
static bench_scene_file files[MAX_FILES];
static size_t file_count;
static bool only;

/* The stem: the file name without its folders and its last extension. */
static int name_of(const char *path, char *name, size_t size) {
  const char *base = strrchr(path, '/');
  base = base != NULL ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  const size_t len = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
  if (len == 0 || len >= size) {
    fprintf(stderr,
            "collide-bench: %s: the file's name without its extension must be 1 to %zu "
            "characters: it names the scene's benchmark rows\n",
            path, size - 1);
    return 2;
  }
  for (size_t i = 0; i < len; i++) {
    const char c = base[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-' || c == '.')) {
      fprintf(stderr,
              "collide-bench: %s: '%.*s' names the scene's benchmark rows, so it may hold "
              "only letters, digits, '_', '-' and '.': rename the file\n",
              path, (int)len, base);
      return 2;
    }
  }
  memcpy(name, base, len);
  name[len] = '\0';
  return 0;
}

static int add_file(const char *path) {
  if (file_count == MAX_FILES) {
    fprintf(stderr, "collide-bench: more than %d scene files\n", MAX_FILES);
    return 2;
  }
  bench_scene_file *f = &files[file_count];
  if (name_of(path, f->name, sizeof f->name) != 0) return 2;
  for (int s = 0; s < SCENE_COUNT; s++)
    if (strcmp(f->name, bench_scene_name[s]) == 0) {
      fprintf(stderr, "collide-bench: %s: '%s' is a built-in scene's name: rename the file\n", path,
              f->name);
      return 2;
    }
  for (size_t k = 0; k < file_count; k++)
    if (strcmp(f->name, files[k].name) == 0) {
      fprintf(stderr, "collide-bench: %s: scene '%s' is also %s: rename one of them\n", path,
              f->name, files[k].path);
      return 2;
    }
  col_scene_error error;
  if (col_scene_read_path(path, &f->scene, &error) != COL_OK) {
    fprintf(stderr, "collide-bench: %s: %s\n", path, error.message);
    return 2;
  }
  f->path = path;
  file_count++;
  return 0;
}

int bench_scene_files_load(int *argc, char **argv) {
  int n = 0;
  for (int i = 0; i < *argc; i++) {
    if (i > 0 && strncmp(argv[i], "--collide_scene=", 16) == 0) {
      if (add_file(argv[i] + 16) != 0) return 2;
    } else if (i > 0 && strcmp(argv[i], "--collide_scene_only") == 0) {
      only = true;
    } else {
      argv[n++] = argv[i];
    }
  }
  argv[n] = NULL;
  *argc = n;
  if (only && file_count == 0) {
    fprintf(stderr, "collide-bench: --collide_scene_only without a --collide_scene=FILE\n");
    return 2;
  }
  return 0;
}

bool bench_scene_files_add(const char *name, const char *path, col_scene scene) {
  bool taken = file_count == MAX_FILES || strlen(name) >= sizeof files[0].name;
  for (size_t k = 0; k < file_count && !taken; k++) taken = strcmp(files[k].name, name) == 0;
  if (taken) {
    fprintf(stderr, "collide-bench: the built-in scene %s: no room, or its name is taken\n", name);
    col_scene_destroy(&scene);
    return false;
  }
  bench_scene_file *f = &files[file_count++];
  snprintf(f->name, sizeof f->name, "%s", name);
  f->path = path, f->scene = scene, f->level = true;
  return true;
}

const bench_scene_file *bench_scene_file_at(size_t k) { return k < file_count ? &files[k] : NULL; }

size_t bench_scene_file_count(void) { return file_count; }

bool bench_scene_only(void) { return only; }

size_t bench_scene_file_step(const bench_scene_file *f, uint64_t i) {
  const uint64_t frames = f->scene.frames;
  if (frames < 2) return 0;
  const uint64_t k = i % (2 * (frames - 1));
  return (size_t)(k < frames ? k : 2 * (frames - 1) - k);
}

col_boxes bench_scene_file_frame(const bench_scene_file *f, size_t frame) {
  col_boxes b = {0};
  col_scene_frame(&f->scene, frame, &b);
  return b;
}

size_t bench_scene_file_moved(const bench_scene_file *f, size_t from, size_t to, uint32_t *moved,
                              float *delta) {
  const col_boxes a = bench_scene_file_frame(f, from), b = bench_scene_file_frame(f, to);
  size_t m = 0;
  for (size_t i = 0; i < a.count; i++) {
    bool same = true;
    for (unsigned k = 0; k < a.dims; k++)
      same = same && memcmp(&a.min[k][i], &b.min[k][i], sizeof(float)) == 0 &&
             memcmp(&a.max[k][i], &b.max[k][i], sizeof(float)) == 0;
    if (same) continue;
    if (delta != NULL)
      delta[2 * m] = b.min[0][i] - a.min[0][i], delta[2 * m + 1] = b.min[1][i] - a.min[1][i];
    moved[m++] = (uint32_t)i;
  }
  return m;
}

void bench_walks_start(bench_walks *w, const bench_scene_file *f) {
  *w = (bench_walks){0};
  w->period = f->scene.frames > 1 ? 2 * (f->scene.frames - 1) : 8;
}

void bench_walks_step(bench_walks *w, uint64_t ticks) {
  w->ticks += ticks, w->total += ticks, w->steps++;
  if (++w->in_walk < w->period) return;
  const double mean = (double)w->ticks / (double)w->period;
  if (w->walks == 0 || mean < w->best) w->best = mean;
  if (w->walks == 0 || mean > w->worst) w->worst = mean;
  w->walks++, w->ticks = 0, w->in_walk = 0;
}

void bench_walks_counters(struct gb_state *st, const bench_walks *w) {
  const double mean = w->steps ? (double)w->total / (double)w->steps : 0.0;
  gb_counter(st, "kcycles_min", (w->walks ? w->best : mean) / 1000.0, GB_PLAIN);
  gb_counter(st, "kcycles_spread", w->walks > 1 && w->best > 0 ? w->worst / w->best - 1.0 : 0.0,
             GB_PLAIN);
  gb_counter(st, "walks", (double)w->walks, GB_PLAIN);
}

void bench_scene_files_context(void) {
  if (file_count == 0) return;
  size_t size = 1;
  for (size_t k = 0; k < file_count; k++) size += strlen(files[k].path) + 128;
  char *text = malloc(size);
  if (text == NULL) return;
  text[0] = '\0';
  for (size_t k = 0; k < file_count; k++) {
    const bench_scene_file *f = &files[k];
    snprintf(text + strlen(text), size - strlen(text), "%s%s %zu %u %zu %s", k ? "\n" : "", f->name,
             f->scene.count, f->scene.dims, f->scene.frames, f->path);
  }
  gb_add_context("collide_scene_files", text);
  free(text);
}
