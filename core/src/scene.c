/* Scene files (collide/scene.h, docs/scenes.md): the public calls, the binary form and the
 * reading of a whole file into memory; the text form is scene_text.c. */
#include "scene_rules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Little-endian words and floats assembled byte by byte: the same file on every host. */
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

static col_status fail_at(col_scene_error *e, uint64_t offset, const char *reason,
                          const char *detail, unsigned long long a, unsigned long long b) {
  return col__scene_fail(e, COL_ERR_FORMAT, 0, offset, true, reason, detail, a, b);
}

/* Version 2's marks after the header: a flags word (bit 0: marks follow; no other bit), then
 * one bit a box (box i: bit i % 8 of byte i / 8), zero bits to the end of the last byte and
 * zero bytes to a multiple of four. Their size in *bytes (4 with no marks); NULL or the reason
 * at *at. */
static const char *marks_block(const unsigned char *p, size_t n, uint32_t count, uint64_t *bytes,
                               uint64_t *at, bool *marked) {
  *at = COL__SCENE_HEADER, *bytes = 4, *marked = false;
  if (n < COL__SCENE_HEADER + 4) return "truncated";
  const uint32_t flags = le32(p + COL__SCENE_HEADER);
  if (flags & ~1u) return "unknown flags (version 2 defines bit 0 only)";
  if (!(flags & 1u)) return NULL;
  *marked = true;
  const uint64_t bits = ((uint64_t)count + 7) / 8, padded = (bits + 3) / 4 * 4;
  *bytes = 4 + padded;
  if (n - COL__SCENE_HEADER - 4 < padded) return *at = n, "truncated";
  const unsigned char *m = p + COL__SCENE_HEADER + 4;
  for (uint64_t b = 0; b < padded; b++) {
    const unsigned used = b + 1 < bits ? 8u : b < bits ? (unsigned)(count - 8 * b) : 0u;
    if (used < 8 && (m[b] >> used) != 0)
      return *at = COL__SCENE_HEADER + 4 + b, "static marks past the last box";
  }
  return NULL;
}

static col_status read_binary(const unsigned char *p, size_t n, col_scene *out,
                              col_scene_error *e) {
  if (n < COL__SCENE_HEADER)
    return fail_at(e, n, "truncated", "the header is 24 bytes, the file %llu", n, 0);
  const uint32_t version = le32(p + 8), dims = le32(p + 12);
  const uint32_t count = le32(p + 16), frames = le32(p + 20);
  if (version != 1 && version != 2)
    return col__scene_fail(e, COL_ERR_VERSION, 0, 8, true,
                           "unsupported version (this reader reads versions 1 and 2)",
                           "version %llu", (unsigned long long)version);
  if (dims != 2 && dims != 3) return fail_at(e, 12, "dims not 2 or 3", "%llu", dims, 0);
  if (frames == 0) return fail_at(e, 20, "no frame", NULL, 0, 0);
  if (!col__scene_fits(dims, count, frames))
    return fail_at(e, 16, "scene larger than the limits (2^20 frames, 2^28 floats)",
                   "%llu boxes x %llu frames", count, frames);
  uint64_t head = COL__SCENE_HEADER, at = 0, marks_bytes = 0;
  bool marked = false;
  if (version == 2) {
    const char *why = marks_block(p, n, count, &marks_bytes, &at, &marked);
    if (why != NULL) return fail_at(e, at, why, NULL, 0, 0);
    head += marks_bytes;
  }
  const uint64_t floats = (uint64_t)frames * count * 2u * dims;
  const uint64_t payload = floats * 4u, rest = n - head;
  if (rest < payload)
    return fail_at(e, n, "truncated", "%llu bytes of boxes, want %llu", rest, payload);
  if (rest > payload)
    return fail_at(e, head + payload, "bytes after the last frame", "%llu of them", rest - payload,
                   0);
  /* The rules before any allocation: frame f's array a starts at (f * 2 dims + a) * count. */
  const unsigned char *v = p + head;
  for (uint64_t f = 0; f < frames; f++)
    for (uint64_t i = 0; i < count; i++) {
      float box[6];
      for (unsigned a = 0; a < 2 * dims; a++) {
        const uint32_t bits = le32(v + ((f * 2 * dims + a) * count + i) * 4);
        memcpy(&box[a], &bits, sizeof bits);
      }
      unsigned axis = 0;
      const char *why = col__scene_box_rule(box, box + dims, dims, &axis);
      if (why != NULL) {
        const unsigned a = isnan(box[axis]) ? axis : axis + (isnan(box[axis + dims]) ? dims : 0);
        const uint64_t box_at = head + ((f * 2 * dims + a) * count + i) * 4;
        char detail[64];
        snprintf(detail, sizeof detail, "%s, box %%llu of frame %%llu", col__scene_on_axis(axis));
        return fail_at(e, box_at, why, detail, i, f);
      }
    }
  float *data = malloc((size_t)floats * sizeof(float) + (floats == 0));
  uint8_t *marks = marked ? malloc(count + (count == 0)) : NULL;
  if (data == NULL || (marked && marks == NULL)) {
    free(data), free(marks);
    return col__scene_fail(e, COL_ERR_MEMORY, 0, 0, false, "out of memory", NULL);
  }
  for (uint64_t k = 0; k < floats; k++) {
    const uint32_t bits = le32(v + k * 4);
    memcpy(&data[k], &bits, sizeof bits);
  }
  size_t any = 0;
  for (uint32_t i = 0; marked && i < count; i++)
    any += marks[i] = (uint8_t)(p[COL__SCENE_HEADER + 4 + i / 8] >> (i % 8) & 1u);
  if (any == 0) free(marks), marks = NULL; /* no box marked: as a file without marks */
  *out = (col_scene){.dims = dims,
                     .count = count,
                     .frames = frames,
                     .form = COL_SCENE_BINARY,
                     .data = data,
                     .is_static = marks};
  return COL_OK;
}

col_status col_scene_read_memory(const void *bytes, size_t size, col_scene *scene,
                                 col_scene_error *error) {
  if ((bytes == NULL && size > 0) || scene == NULL)
    return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  col__scene_ok(error);
  const unsigned char *p = bytes;
  const size_t magic = sizeof COL__SCENE_MAGIC - 1;
  if (size >= magic && memcmp(p, COL__SCENE_MAGIC, magic) == 0)
    return read_binary(p, size, scene, error);
  return col__scene_text_read(p, size, scene, error);
}

col_status col_scene_read_file(FILE *file, col_scene *scene, col_scene_error *error) {
  if (file == NULL || scene == NULL)
    return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  /* The whole file into memory, then parsed there: the binary form needs its size anyway. */
  const uint64_t limit = COL_SCENE_MAX_BYTES < SIZE_MAX / 2 ? COL_SCENE_MAX_BYTES : SIZE_MAX / 2;
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      if (cap > limit) {
        free(buf);
        return fail_at(error, limit, "file larger than the limit (16 GiB)", NULL, 0, 0);
      }
      const size_t grown = cap ? 2 * cap : 1 << 16;
      unsigned char *more = realloc(buf, grown);
      if (more == NULL) {
        free(buf);
        return col__scene_fail(error, COL_ERR_MEMORY, 0, 0, false, "out of memory", NULL);
      }
      buf = more, cap = grown;
    }
    const size_t got = fread(buf + n, 1, cap - n, file);
    n += got;
    if (got == 0) break;
  }
  if (ferror(file)) {
    free(buf);
    return col__scene_fail(error, COL_ERR_IO, 0, n, true, "read error", NULL);
  }
  const col_status st = col_scene_read_memory(buf, n, scene, error);
  free(buf);
  return st;
}

col_status col_scene_read_path(const char *path, col_scene *scene, col_scene_error *error) {
  if (path == NULL || scene == NULL)
    return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return col__scene_fail(error, COL_ERR_IO, 0, 0, false, "cannot open", "%s", strerror(errno));
  const col_status st = col_scene_read_file(f, scene, error);
  fclose(f);
  return st;
}

col_status col_scene_frame(const col_scene *scene, size_t frame, col_boxes *out) {
  if (scene == NULL || out == NULL) return COL_ERR_NULL;
  if (frame >= scene->frames) return COL_ERR_SIZE;
  const size_t arrays = 2u * scene->dims;
  col_boxes b = {.dims = scene->dims, .count = scene->count};
  for (unsigned k = 0; k < scene->dims; k++) {
    b.min[k] = scene->data + (frame * arrays + k) * scene->count;
    b.max[k] = scene->data + (frame * arrays + scene->dims + k) * scene->count;
  }
  *out = b;
  return COL_OK;
}

void col_scene_destroy(col_scene *scene) {
  if (scene == NULL) return;
  free(scene->data), free(scene->is_static);
  *scene = (col_scene){0};
}

/* The writers' and the validator's check of frames as box sets: every rule of the header. */
static col_status check_frames(const col_boxes *frames, size_t nframes, size_t first,
                               col_scene_error *e) {
  if (frames == NULL) return col__scene_fail(e, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  if (nframes == 0) return col__scene_fail(e, COL_ERR_SIZE, 0, 0, false, "no frame", NULL);
  const unsigned dims = frames[0].dims;
  const size_t count = frames[0].count;
  if ((dims != 2 && dims != 3) || !col__scene_fits(dims, count, nframes))
    return col__scene_fail(e, COL_ERR_SIZE, 0, 0, false,
                           "dims not 2 or 3, or a scene larger than the limits", NULL);
  for (size_t f = 0; f < nframes; f++) {
    const col_boxes *b = &frames[f];
    if (b->dims != dims || b->count != count)
      return col__scene_fail(e, COL_ERR_SIZE, 0, 0, false, "frames of different dims or counts",
                             "frame %zu", first + f);
    for (unsigned k = 0; k < dims && count > 0; k++)
      if (b->min[k] == NULL || b->max[k] == NULL)
        return col__scene_fail(e, COL_ERR_NULL, 0, 0, false, "NULL pointer", "frame %zu",
                               first + f);
    for (size_t i = 0; i < count; i++) {
      float lo[3], hi[3];
      for (unsigned k = 0; k < dims; k++) lo[k] = b->min[k][i], hi[k] = b->max[k][i];
      unsigned axis = 0;
      const char *why = col__scene_box_rule(lo, hi, dims, &axis);
      if (why != NULL)
        return col__scene_fail(e, COL_ERR_FORMAT, 0, 0, false, why, "%s, box %zu of frame %zu",
                               col__scene_on_axis(axis), i, first + f);
    }
  }
  return COL_OK;
}

col_status col_scene_validate(const col_scene *scene, col_scene_error *error) {
  if (scene == NULL || (scene->data == NULL && scene->count > 0 && scene->frames > 0))
    return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  if (scene->frames == 0 || (scene->dims != 2 && scene->dims != 3) ||
      !col__scene_fits(scene->dims, scene->count, scene->frames))
    return col__scene_fail(error, COL_ERR_FORMAT, 0, 0, false,
                           "no frame, dims not 2 or 3, or a scene larger than the limit", NULL);
  for (size_t f = 0; f < scene->frames; f++) {
    col_boxes b;
    col_scene_frame(scene, f, &b);
    const col_status st = check_frames(&b, 1, f, error);
    if (st != COL_OK) return st;
  }
  col__scene_ok(error);
  return COL_OK;
}

/* Version 1 without marks (what every reader of version 1 reads), 2 with them. */
static col_status write_binary(FILE *f, const col_boxes *frames, size_t nframes,
                               const uint8_t *marks) {
  const unsigned dims = frames[0].dims;
  const size_t count = frames[0].count;
  unsigned char head[COL__SCENE_HEADER + 4];
  memcpy(head, COL__SCENE_MAGIC, 8);
  put_le32(head + 8, marks != NULL ? 2u : 1u), put_le32(head + 12, dims);
  put_le32(head + 16, (uint32_t)count), put_le32(head + 20, (uint32_t)nframes);
  put_le32(head + 24, 1u);
  const size_t head_bytes = marks != NULL ? sizeof head : COL__SCENE_HEADER;
  if (fwrite(head, 1, head_bytes, f) != head_bytes) return COL_ERR_IO;
  unsigned char chunk[4096];
  const size_t mark_bytes = marks != NULL ? (count + 7) / 8 : 0;
  const size_t padded = (mark_bytes + 3) / 4 * 4;
  for (size_t b = 0; b < padded; b += sizeof chunk) {
    const size_t m = padded - b < sizeof chunk ? padded - b : sizeof chunk;
    memset(chunk, 0, m);
    for (size_t i = 8 * b; i < count && i < 8 * (b + m); i++)
      chunk[i / 8 - b] |= (unsigned char)((marks[i] != 0) << (i % 8));
    if (fwrite(chunk, 1, m, f) != m) return COL_ERR_IO;
  }
  for (size_t fr = 0; fr < nframes; fr++)
    for (unsigned a = 0; a < 2 * dims; a++) {
      const float *src = a < dims ? frames[fr].min[a] : frames[fr].max[a - dims];
      for (size_t i = 0; i < count; i += sizeof chunk / 4) {
        const size_t m = count - i < sizeof chunk / 4 ? count - i : sizeof chunk / 4;
        for (size_t k = 0; k < m; k++) {
          uint32_t bits;
          memcpy(&bits, &src[i + k], sizeof bits);
          put_le32(chunk + 4 * k, bits);
        }
        if (fwrite(chunk, 4, m, f) != m) return COL_ERR_IO;
      }
    }
  return COL_OK;
}

col_status col_scene_write_file_static(FILE *file, col_scene_form form, const col_boxes *frames,
                                       size_t nframes, const uint8_t *is_static,
                                       col_scene_error *error) {
  if (file == NULL) return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  if (form != COL_SCENE_TEXT && form != COL_SCENE_BINARY)
    return col__scene_fail(error, COL_ERR_ARGUMENT, 0, 0, false, "unknown form", NULL);
  col_status st = check_frames(frames, nframes, 0, error);
  if (st != COL_OK) return st;
  st = form == COL_SCENE_TEXT ? col__scene_text_write(file, frames, nframes, is_static)
                              : write_binary(file, frames, nframes, is_static);
  if (st == COL_OK && fflush(file) != 0) st = COL_ERR_IO;
  if (st != COL_OK) return col__scene_fail(error, st, 0, 0, false, "write error", NULL);
  col__scene_ok(error);
  return COL_OK;
}

col_status col_scene_write_file(FILE *file, col_scene_form form, const col_boxes *frames,
                                size_t nframes, col_scene_error *error) {
  return col_scene_write_file_static(file, form, frames, nframes, NULL, error);
}

col_status col_scene_write_path_static(const char *path, col_scene_form form,
                                       const col_boxes *frames, size_t nframes,
                                       const uint8_t *is_static, col_scene_error *error) {
  if (path == NULL) return col__scene_fail(error, COL_ERR_NULL, 0, 0, false, "NULL pointer", NULL);
  /* Checked before the file is created: a refused scene leaves no file behind. */
  if (form != COL_SCENE_TEXT && form != COL_SCENE_BINARY)
    return col__scene_fail(error, COL_ERR_ARGUMENT, 0, 0, false, "unknown form", NULL);
  col_status st = check_frames(frames, nframes, 0, error);
  if (st != COL_OK) return st;
  FILE *f = fopen(path, "wb");
  if (f == NULL)
    return col__scene_fail(error, COL_ERR_IO, 0, 0, false, "cannot create", "%s", strerror(errno));
  st = col_scene_write_file_static(f, form, frames, nframes, is_static, error);
  if (fclose(f) != 0 && st == COL_OK)
    st = col__scene_fail(error, COL_ERR_IO, 0, 0, false, "write error", NULL);
  if (st != COL_OK) remove(path);
  return st;
}

col_status col_scene_write_path(const char *path, col_scene_form form, const col_boxes *frames,
                                size_t nframes, col_scene_error *error) {
  return col_scene_write_path_static(path, form, frames, nframes, NULL, error);
}
