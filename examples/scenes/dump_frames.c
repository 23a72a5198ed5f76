/* A game's side of scene files (docs/scenes.md): a small 2D level, frame after frame, dumped
 * with col_scene_write_path so that collide's harness runs on the very same boxes
 * (make bench SCENE=..., make fuzz SCENE=...).
 *
 * The level: a floor and two walls, rows of touching tiles (platforms), and actors that walk
 * along the platforms, one step a frame. Usage: dump_frames OUTPUT [FRAMES] (default 3 frames,
 * binary form; an OUTPUT ending in .txt is written in the text form). */
#include "collide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TILES_PER_ROW = 40, ROWS = 6, ACTORS = 24 };
enum { COUNT = 3 + ROWS * TILES_PER_ROW + ACTORS };

/* One frame's boxes, as the game keeps them: four arrays (min x, min y, max x, max y). */
typedef struct frame {
  float min_x[COUNT], min_y[COUNT], max_x[COUNT], max_y[COUNT];
} frame;

static void put(frame *f, size_t i, float x0, float y0, float x1, float y1) {
  f->min_x[i] = x0, f->min_y[i] = y0, f->max_x[i] = x1, f->max_y[i] = y1;
}

/* The level at frame `t`: the static part never moves, actor a walks back and forth on
 * platform row a % ROWS, standing on it (its feet touch the tiles' tops). */
static void build(frame *f, int t) {
  size_t i = 0;
  put(f, i++, 0, 0, 640, 16);    /* floor */
  put(f, i++, 0, 0, 16, 480);    /* left wall */
  put(f, i++, 624, 0, 640, 480); /* right wall */
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < TILES_PER_ROW; c++) { /* touching 16 x 16 tiles */
      const float x = 16.0f * (float)c, y = 64.0f + 64.0f * (float)r;
      put(f, i++, x, y, x + 16, y + 16);
    }
  for (int a = 0; a < ACTORS; a++) {
    const int r = a % ROWS, span = 560, phase = (37 * a + 5 * t) % (2 * span);
    const float x = 32.0f + (float)(phase < span ? phase : 2 * span - phase);
    const float y = 64.0f + 64.0f * (float)r + 16.0f;
    put(f, i++, x, y, x + 12, y + 24);
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s OUTPUT [FRAMES]\n", argv[0]);
    return 2;
  }
  const int nframes = argc == 3 ? atoi(argv[2]) : 3;
  if (nframes < 1) {
    fprintf(stderr, "%s: FRAMES must be at least 1\n", argv[0]);
    return 2;
  }
  frame *frames = malloc((size_t)nframes * sizeof *frames);
  col_boxes *boxes = malloc((size_t)nframes * sizeof *boxes);
  if (frames == NULL || boxes == NULL) return 1;
  for (int t = 0; t < nframes; t++) {
    build(&frames[t], t);
    boxes[t] = (col_boxes){.dims = 2,
                           .min = {frames[t].min_x, frames[t].min_y, NULL},
                           .max = {frames[t].max_x, frames[t].max_y, NULL},
                           .count = COUNT};
  }
  const size_t len = strlen(argv[1]);
  const col_scene_form form =
      len > 4 && strcmp(argv[1] + len - 4, ".txt") == 0 ? COL_SCENE_TEXT : COL_SCENE_BINARY;
  col_scene_error error;
  const col_status st = col_scene_write_path(argv[1], form, boxes, (size_t)nframes, &error);
  if (st != COL_OK) {
    fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], error.message);
    return 1;
  }
  printf("%s: %d frames of %d boxes\n", argv[1], nframes, COUNT);
  free(frames);
  free(boxes);
  return 0;
}
