/* collide-scene: converts scene files between their text and binary forms and describes them
 * (collide/scene.h, docs/scenes.md). A file that breaks the format is reported on one line,
 * "collide-scene: FILE: line L (byte B): reason", with exit status 2. */
#include "collide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: collide-scene convert [--to text|binary] IN OUT\n"
    "       collide-scene info FILE...\n"
    "Scene files hold a game's boxes frame after frame (docs/scenes.md).\n"
    "  convert   reads IN (either form) and writes OUT in the other form, or the one --to\n"
    "            names; the boxes are the same bits, the static marks the same boxes\n"
    "  info      reads each FILE and prints its form, dims, boxes a frame, frames, static\n"
    "            boxes and the bounds of its finite coordinates per axis\n"
    "Exit status: 0 done, 1 OUT could not be written, 2 a bad file or usage (one line naming\n"
    "the file, the line or byte and the reason).\n";

/* Reads `path`, or says why not on one line (exit status 2 for the caller). */
static bool read_scene(const char *path, col_scene *scene) {
  col_scene_error e;
  const col_status st = col_scene_read_path(path, scene, &e);
  if (st == COL_OK) return true;
  fprintf(stderr, "collide-scene: %s: %s\n", path, e.message);
  return false;
}

static const char *form_name(col_scene_form form) {
  return form == COL_SCENE_TEXT ? "text" : "binary";
}

static int info(const char *path) {
  col_scene scene;
  if (!read_scene(path, &scene)) return 2;
  size_t statics = 0;
  for (size_t i = 0; scene.is_static != NULL && i < scene.count; i++) statics += scene.is_static[i];
  printf("%s: %s, %uD, %zu boxes a frame, %zu frames", path, form_name(scene.form), scene.dims,
         scene.count, scene.frames);
  if (statics > 0) printf(", %zu static (version 2 marks)", statics);
  printf("\n");
  for (unsigned k = 0; k < scene.dims; k++) {
    /* The finite bounds only: one unbounded box would hide the level's extent. */
    float lo = INFINITY, hi = -INFINITY;
    size_t unbounded = 0;
    for (size_t f = 0; f < scene.frames; f++) {
      col_boxes b;
      col_scene_frame(&scene, f, &b);
      for (size_t i = 0; i < b.count; i++) {
        const float mn = b.min[k][i], mx = b.max[k][i];
        if (isinf(mn) || isinf(mx)) unbounded++;
        if (isfinite(mn) && mn < lo) lo = mn;
        if (isfinite(mx) && mx > hi) hi = mx;
      }
    }
    if (lo <= hi)
      printf("  %c: %.9g .. %.9g", "xyz"[k], (double)lo, (double)hi);
    else
      printf("  %c: no finite bound", "xyz"[k]);
    if (unbounded > 0) printf(" (%zu %s unbounded)", unbounded, unbounded == 1 ? "box" : "boxes");
    printf("\n");
  }
  col_scene_destroy(&scene);
  return 0;
}

static int convert(const char *in, const char *out, int to) {
  col_scene scene;
  if (!read_scene(in, &scene)) return 2;
  const col_scene_form form = to >= 0                        ? (col_scene_form)to
                              : scene.form == COL_SCENE_TEXT ? COL_SCENE_BINARY
                                                             : COL_SCENE_TEXT;
  col_boxes *frames = malloc(scene.frames * sizeof *frames);
  if (frames == NULL) {
    fprintf(stderr, "collide-scene: %s: out of memory\n", in);
    col_scene_destroy(&scene);
    return 1;
  }
  for (size_t f = 0; f < scene.frames; f++) col_scene_frame(&scene, f, &frames[f]);
  col_scene_error e;
  const col_status st =
      col_scene_write_path_static(out, form, frames, scene.frames, scene.is_static, &e);
  if (st != COL_OK) fprintf(stderr, "collide-scene: %s: %s\n", out, e.message);
  free(frames);
  col_scene_destroy(&scene);
  return st == COL_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(usage, stdout);
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "info") == 0) {
    int rc = 0;
    for (int i = 2; i < argc; i++) {
      const int r = info(argv[i]);
      if (r > rc) rc = r;
    }
    return rc;
  }
  if (argc >= 2 && strcmp(argv[1], "convert") == 0) {
    int to = -1, i = 2;
    if (i + 1 < argc && strcmp(argv[i], "--to") == 0) {
      to = strcmp(argv[i + 1], "text") == 0     ? COL_SCENE_TEXT
           : strcmp(argv[i + 1], "binary") == 0 ? COL_SCENE_BINARY
                                                : -2;
      if (to == -2) {
        fprintf(stderr, "collide-scene: --to %s: want text or binary\n", argv[i + 1]);
        return 2;
      }
      i += 2;
    }
    if (argc - i == 2) return convert(argv[i], argv[i + 1], to);
    fprintf(stderr, "collide-scene convert: give IN and OUT (%d file%s given)\n", argc - i,
            argc - i == 1 ? "" : "s");
  } else if (argc == 2 && strcmp(argv[1], "info") == 0) {
    fputs("collide-scene info: name one or more scene files\n", stderr);
  } else if (argc >= 2) {
    /* A command misspelled: say so and which it resembles (a prefix either way), not only the
     * usage. */
    static const char *const commands[] = {"convert", "info"};
    const char *like = NULL;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
      const size_t n =
          strlen(argv[1]) < strlen(commands[k]) ? strlen(argv[1]) : strlen(commands[k]);
      if (n >= 2 && strncmp(argv[1], commands[k], n) == 0) like = commands[k];
    }
    fprintf(stderr, "collide-scene: '%s' is not a command (convert, info)%s%s%s\n", argv[1],
            like ? "; did you mean " : "", like ? like : "", like ? "?" : "");
  }
  fputs(usage, stderr);
  return 2;
}
