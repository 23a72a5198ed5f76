/* What the two scene forms share (collide/scene.h): the error report, the box rules and the
 * size limit, so that the text reader, the binary reader, the writers and col_scene_validate
 * refuse exactly the same scenes. Internal: scene.c (the public calls, the binary form) and
 * scene_text.c (the text form) include it. */
#ifndef COL_SCENE_RULES_H
#define COL_SCENE_RULES_H

#include "collide.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* The text form's magic word and frame separator, the binary form's magic and header size. */
#define COL__SCENE_TEXT_MAGIC "collide-scene"
#define COL__SCENE_SEPARATOR  "---"
#define COL__SCENE_MAGIC      "COLSCENE"
#define COL__SCENE_HEADER     24u

/* Fills `e` (when not NULL) and returns `status`. `line` > 0: a text line; `at`: the error has
 * a place in the file (`offset`), else it is about boxes handed to a writer or the validator.
 * `detail` (printf format, may be NULL) follows the reason in the message. */
static inline col_status col__scene_fail(col_scene_error *e, col_status status, uint64_t line,
                                         uint64_t offset, bool at, const char *reason,
                                         const char *detail, ...) {
  if (e == NULL) return status;
  e->line = line, e->offset = offset, e->reason = reason;
  int n = 0;
  if (line > 0)
    n = snprintf(e->message, sizeof e->message, "line %llu (byte %llu): ", (unsigned long long)line,
                 (unsigned long long)offset);
  else if (at)
    n = snprintf(e->message, sizeof e->message, "byte %llu: ", (unsigned long long)offset);
  if (n < 0) n = 0;
  size_t used = (size_t)n < sizeof e->message ? (size_t)n : sizeof e->message - 1;
  n = snprintf(e->message + used, sizeof e->message - used, "%s", reason);
  used += n > 0 ? (size_t)n : 0;
  if (detail != NULL && used + 2 < sizeof e->message) {
    e->message[used++] = ',', e->message[used++] = ' ', e->message[used] = '\0';
    va_list ap;
    va_start(ap, detail);
    vsnprintf(e->message + used, sizeof e->message - used, detail, ap);
    va_end(ap);
  }
  return status;
}

/* Clears a report on success. */
static inline void col__scene_ok(col_scene_error *e) {
  if (e == NULL) return;
  e->line = 0, e->offset = 0, e->reason = NULL, e->message[0] = '\0';
}

/* "on x", "on y", "on z": the axis of a box rule's failure, for the messages. */
static inline const char *col__scene_on_axis(unsigned axis) {
  return axis == 0 ? "on x" : axis == 1 ? "on y" : "on z";
}

/* The box rules: NULL when box (min[0..dims-1], max[0..dims-1]) is kept, else the reason, with
 * the axis at fault in *axis. NaN first: a NaN box is also unordered. */
static inline const char *col__scene_box_rule(const float *min, const float *max, unsigned dims,
                                              unsigned *axis) {
  for (unsigned k = 0; k < dims; k++)
    if (isnan(min[k]) || isnan(max[k])) return *axis = k, "NaN coordinate";
  for (unsigned k = 0; k < dims; k++)
    if (min[k] > max[k]) return *axis = k, "inverted box (min > max)";
  return NULL;
}

/* Whether frames x count boxes of `dims` stay within the limits: count within the broadphases'
 * 32-bit indices, frames <= COL_SCENE_MAX_FRAMES and frames x max(count, 1) x 2 x dims <=
 * COL_SCENE_MAX_FLOATS (an empty frame counts as one box: a corrupt frame count of boxless
 * frames must not make a program that lists the frames allocate gigabytes). Each factor is
 * bounded first: the product cannot wrap. */
static inline bool col__scene_fits(unsigned dims, uint64_t count, uint64_t frames) {
  if (count > UINT32_MAX || count > COL_SCENE_MAX_FLOATS || frames > COL_SCENE_MAX_FRAMES)
    return false;
  return frames * (count > 0 ? count : 1) * 2u * dims <= COL_SCENE_MAX_FLOATS;
}

/* The text form (scene_text.c). The reader takes the whole file; the writer's frames have been
 * checked by the caller. */
col_status col__scene_text_read(const unsigned char *p, size_t n, col_scene *out,
                                col_scene_error *e);
col_status col__scene_text_write(FILE *f, const col_boxes *frames, size_t nframes,
                                 const uint8_t *is_static);

#endif
