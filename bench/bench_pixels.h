/* The pixel scenes and images behind the sprite and mask benchmarks (bench_sprite.c,
 * bench_mask.c): two square images a and b of at least 1024 x 1024 pixels per pattern, viewed
 * through windows of the benchmark's side so that the branch predictor cannot learn one small
 * sprite by heart. Patterns: NOISE (every alpha 0 or 255 at random, independently in a and b:
 * half solid) and NOHIT (a and b solid on complementary pixels: nothing ever collides). */
#ifndef COLLIDE_BENCH_PIXELS_H
#define COLLIDE_BENCH_PIXELS_H

#include "collide.h"

typedef enum bench_pixel_pattern {
  BENCH_PIXELS_NOISE,
  BENCH_PIXELS_NOHIT,
  BENCH_PIXEL_PATTERNS
} bench_pixel_pattern;

typedef struct bench_pixel_image {
  int32_t side;
  uint32_t *a, *b;
} bench_pixel_image;

enum { BENCH_PIXEL_WINDOWS = 64 };

/* The pattern's images, grown (and regenerated) when `side` exceeds them. */
const bench_pixel_image *bench_pixel_image_of(bench_pixel_pattern pattern, int32_t side);

/* Window k (0..BENCH_PIXEL_WINDOWS-1) of the images as two side x side sprites at (0, 0) and
 * (dx, dy), viewed with the images' stride. */
void bench_pixel_window(const bench_pixel_image *img, int32_t side, size_t k, int32_t dx,
                        int32_t dy, col_sprite *a, col_sprite *b);

/* The "partial" scene's offset of b: side / 4 + 7 right (unaligned to 64), side / 4 down. */
static inline int32_t bench_pixel_partial_dx(int32_t side) { return side / 4 + 7; }
static inline int32_t bench_pixel_partial_dy(int32_t side) { return side / 4; }

/* The scenes both families run, named <family>/<variant>/<backend>/<scene>: variant "count"
 * (COL_PIXEL_COUNT) or "first" (COL_PIXEL_FIRST); scene "noise50" (NOISE: the first-hit mode
 * stops at once, the count mode counts a quarter of the pixels), "nohit" (NOHIT, full overlap:
 * first-hit must scan the whole overlap like counting) or "partial" (NOISE with b moved by the
 * offset above). */
typedef struct bench_pixel_scene {
  const char *variant, *scene;
  col_pixel_mode mode;
  bench_pixel_pattern pattern;
  bool partial;
} bench_pixel_scene;
enum { BENCH_PIXEL_SCENES = 5 };
extern const bench_pixel_scene bench_pixel_scenes[BENCH_PIXEL_SCENES];

#endif
