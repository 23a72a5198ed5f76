/* SDL2's rectangle calls (SDL_rect.h) as kernel peers: SDL_HasIntersectionF (box overlap),
 * SDL_IntersectFRect (the overlap rectangle, pushed out along its smaller side as a game does)
 * and SDL_IntersectFRectAndLine (a segment clipped to a rectangle). SDL holds a rectangle as
 * x, y, w, h: our boxes enter as x = min, w = max - min. */
#include "kp_adapter.h"

#include <SDL2/SDL_rect.h>
#include <SDL2/SDL_version.h>

#define VERSION KP_STR(SDL_MAJOR_VERSION) "." KP_STR(SDL_MINOR_VERSION) "." KP_STR(SDL_PATCHLEVEL)

static SDL_FRect rect(col_aabb3 b) {
  return (SDL_FRect){b.min.x, b.min.y, b.max.x - b.min.x, b.max.y - b.min.y};
}

/* box overlap */
static void box_query(const kp_item *it, SDL_FRect *q) { *q = rect(it->boxes.a); }
static void box_item(const kp_item *it, SDL_FRect *o) { *o = rect(it->boxes.b); }
static inline bool box_test(const SDL_FRect *q, const SDL_FRect *o, float *t, kp_answer *a) {
  (void)t, (void)a;
  return SDL_HasIntersectionF(q, o);
}
KP_KERNEL(box, SDL_FRect, SDL_FRect)

/* the push-out: the overlap rectangle's smaller side (x on a tie) */
typedef struct rect_pair {
  SDL_FRect a, b;
} rect_pair;
static void mtd_query(const kp_item *it, char *q) { (void)it, (void)q; }
static void mtd_item(const kp_item *it, rect_pair *o) {
  o->a = rect(it->boxes.a), o->b = rect(it->boxes.b);
}
static inline bool mtd_test(const char *q, const rect_pair *o, float *t, kp_answer *a) {
  (void)q, (void)t;
  SDL_FRect r;
  if (!SDL_IntersectFRect(&o->a, &o->b, &r)) return false;
  a->axis = r.h < r.w;
  a->depth = a->axis ? r.h : r.w;
  return true;
}
KP_KERNEL(mtd, char, rect_pair)

/* a segment clipped to the rectangle (the call changes its copy of the end points) */
typedef struct segment {
  float x1, y1, x2, y2;
} segment;
static void line_query(const kp_item *it, segment *q) {
  *q = (segment){it->segbox.from.x, it->segbox.from.y, it->segbox.to.x, it->segbox.to.y};
}
static void line_item(const kp_item *it, SDL_FRect *o) { *o = rect(it->segbox.box); }
static inline bool line_test(const segment *q, const SDL_FRect *o, float *t, kp_answer *a) {
  (void)t, (void)a;
  float x1 = q->x1, y1 = q->y1, x2 = q->x2, y2 = q->y2;
  return SDL_IntersectFRectAndLine(o, &x1, &y1, &x2, &y2);
}
KP_KERNEL(line, segment, SDL_FRect)

static const kp_impl impls[] = {
    KP_IMPL(box, "sdl-box", VERSION, SDL_FRect),
    KP_IMPL(mtd, "sdl-mtd", VERSION, rect_pair),
    KP_IMPL(line, "sdl-line", VERSION, SDL_FRect),
};
KP_TABLE(sdl, impls);
