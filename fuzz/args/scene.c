/* Argument fuzzing of scene files (see fuzz_args.c): every call of collide/scene.h with NULL
 * pointers, frames and forms out of range, scenes built by hand that break the rules, streams
 * that cannot be read or written, paths that cannot be opened or created, and allocations that
 * fail; each judged against the header's error list, with *scene untouched and `error` filled on
 * an error, zeroed on success, and what was written read back to the same bits. The scene
 * target fuzzes the two formats themselves. */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A folder of this process's own for the path forms (removed at exit), under TMPDIR. Sized for
 * any path: fuzz.sh points TMPDIR into the run's own folder under build/, as long as the
 * checkout's path makes it (a 64-byte buffer once cut the mkdtemp template there, and every
 * input writing a scene crashed, in CI only). */
static char folder[PATH_MAX];
static char path_in_folder[PATH_MAX + 8];
static void remove_folder(void) {
  remove(path_in_folder);
  rmdir(folder);
}
static const char *scratch_path(void) {
  if (folder[0] == '\0') {
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0') tmp = "/tmp";
    const int len = snprintf(folder, sizeof folder, "%s/collide-args.XXXXXX", tmp);
    if (len < 0 || (size_t)len >= sizeof folder || mkdtemp(folder) == NULL) {
      fprintf(stderr, "fuzz args: cannot make a scratch folder under TMPDIR=%s\n", tmp);
      abort();
    }
    snprintf(path_in_folder, sizeof path_in_folder, "%s/scene", folder);
    atexit(remove_folder);
  }
  return path_in_folder;
}

/* The header's rules for one box: no NaN, min <= max on every axis. */
static bool box_ok(const col_boxes *b, size_t i) {
  for (unsigned k = 0; k < b->dims; k++)
    if (isnan(b->min[k][i]) || isnan(b->max[k][i]) || b->min[k][i] > b->max[k][i]) return false;
  return true;
}

/* Two frames of two boxes (dims 2 or 3) from the input's floats, in `v` (12 floats a frame). */
typedef struct frames2 {
  float v[2][12];
  col_boxes f[2];
  bool ok[2]; /* every box of the frame keeps the rules */
} frames2;
static void make_frames(fz_reader *r, unsigned dims, frames2 *s) {
  for (int fr = 0; fr < 2; fr++) {
    s->ok[fr] = true;
    for (int k = 0; k < 12; k++) s->v[fr][k] = fz_float(r);
    s->f[fr] = (col_boxes){dims,
                           {&s->v[fr][0], &s->v[fr][2], &s->v[fr][4]},
                           {&s->v[fr][6], &s->v[fr][8], &s->v[fr][10]},
                           2};
    for (size_t i = 0; i < 2; i++) s->ok[fr] = s->ok[fr] && box_ok(&s->f[fr], i);
  }
}

/* scene.h: on an error `error` says why (a reason, a message); on success it is zeroed. */
static void judge(const char *op, col_status got, unsigned applies, bool kept,
                  const col_scene_error *e, bool memory) {
  const bool described =
      got == COL_OK ? e->reason == NULL && e->message[0] == '\0' && e->line == 0 && e->offset == 0
                    : e->reason != NULL && e->message[0] != '\0';
  if (memory)
    fa_judge_starved(op, got, applies, kept, kept);
  else
    fa_judge(op, got, applies, kept);
  if (described) return;
  fprintf(stderr,
          "fuzz args: %s returned %d with error {line %llu, offset %llu, reason %s, "
          "message \"%s\"} (scene.h: filled on an error, zeroed on success)\n",
          op, got, (unsigned long long)e->line, (unsigned long long)e->offset,
          e->reason ? e->reason : "NULL", e->message);
  fz_fail();
}

/* The frames read back: the same bits as written. */
static void same_frames(const char *op, const col_scene *s, const frames2 *w) {
  bool same = s->frames == 2 && s->count == 2 && s->dims == w->f[0].dims;
  for (size_t fr = 0; same && fr < 2; fr++) {
    col_boxes b;
    same = col_scene_frame(s, fr, &b) == COL_OK;
    for (unsigned k = 0; same && k < s->dims; k++)
      same = memcmp(b.min[k], w->f[fr].min[k], 2 * sizeof(float)) == 0 &&
             memcmp(b.max[k], w->f[fr].max[k], 2 * sizeof(float)) == 0;
  }
  if (same) return;
  fprintf(stderr, "fuzz args: %s: the scene read back is not the frames written\n", op);
  fz_fail();
}

static const char text_scene[] = "collide-scene 1 2d\n0 0 1 1\n2 2 3 3\n---\n0 0 2 2\n1 1 4 4\n";

/* A read scene's frames: NULL pointers, a frame past the last, each frame in range. */
static void frames_of(const col_scene *s, uint8_t pick) {
  col_boxes b;
  memset(&b, CANARY, sizeof b);
  const size_t k = pick % 4;
  fa_judge("col_scene_frame", col_scene_frame(NULL, k, &b), ERR(COL_ERR_NULL),
           fa_untouched(&b, sizeof b));
  fa_judge("col_scene_frame", col_scene_frame(s, k, NULL), ERR(COL_ERR_NULL), true);
  const col_status st = col_scene_frame(s, k, &b);
  fa_judge("col_scene_frame", st, k >= s->frames ? ERR(COL_ERR_SIZE) : 0,
           fa_untouched(&b, sizeof b));
  if (st == COL_OK && (b.count != s->count || b.dims != s->dims || b.min[0] == NULL)) fz_fail();
  col_scene_error e;
  judge("col_scene_validate", col_scene_validate(s, &e), 0, true, &e, false);
}

/* The readers: memory, stream, path (choice 0-2), each with its NULLs and its failures. */
static void readers(unsigned choice, uint8_t flags, uint8_t starve) {
  col_scene s, untouched;
  memset(&s, CANARY, sizeof s), memset(&untouched, CANARY, sizeof untouched);
  col_scene_error e;
  col_scene_error *ep = flags & 4 ? NULL : &e;
  col_scene *sp = flags & 1 ? NULL : &s;
  unsigned applies = sp == NULL ? ERR(COL_ERR_NULL) : 0;
  col_status st;
  const char *op;
  fa_arm(starve);
  if (choice == 0) {
    const bool bytes_null = flags & 2, empty = flags & 8;
    const size_t size = empty ? 0 : sizeof text_scene - 1;
    if (bytes_null && size > 0) applies |= ERR(COL_ERR_NULL);
    if (empty) applies |= ERR(COL_ERR_FORMAT);
    st = col_scene_read_memory(bytes_null ? NULL : text_scene, size, sp, ep),
    op = "col_scene_read_memory";
  } else {
    /* 0 NULL, 1 a stream or path holding the scene (flags bit 3: after 70 KB of comments), 2 a
     * write-only stream / a missing path, 3 an empty file / a folder */
    const unsigned which = flags >> 1 & 3;
    const char *path = scratch_path();
    if (which == 1 || which == 3) {
      FILE *f = fopen(path, "wb");
      if (f == NULL) abort();
      /* flags bit 3: over 64 KB (the reader's first buffer) of comment lines after the
       * header line (scene.h: the first line is the header, '#' lines are ignored after it) */
      const size_t head = (size_t)(strchr(text_scene, '\n') + 1 - text_scene);
      const size_t body = which == 1 ? sizeof text_scene - 1 : 0;
      if (body && fwrite(text_scene, 1, head, f) != head) abort();
      for (int k = 0; which == 1 && (flags & 8) && k < 1100; k++)
        if (fputs("# a comment line of the scene's author, sixty-four bytes long ..\n", f) < 0)
          abort();
      if (body && fwrite(text_scene + head, 1, body - head, f) != body - head) abort();
      fclose(f);
    }
    if (which == 0) applies |= ERR(COL_ERR_NULL);
    if (which == 2) applies |= ERR(COL_ERR_IO);
    if (which == 3) applies |= choice == 1 ? ERR(COL_ERR_FORMAT) : ERR(COL_ERR_IO);
    if (choice == 1) {
      FILE *f = which == 0 ? NULL : fopen(path, which == 2 ? "wb" : "rb");
      if (which != 0 && f == NULL) abort();
      st = col_scene_read_file(f, sp, ep), op = "col_scene_read_file";
      if (f) fclose(f);
    } else {
      const char *p = which == 0   ? NULL
                      : which == 2 ? "/nonexistent-collide-folder/scene"
                      : which == 3 ? folder
                                   : path;
      st = col_scene_read_path(p, sp, ep), op = "col_scene_read_path";
    }
  }
  const bool kept = memcmp(&s, &untouched, sizeof s) == 0;
  if (ep)
    judge(op, st, applies, kept, ep, true);
  else
    fa_judge_starved(op, st, applies, kept, kept);
  if (st != COL_OK) return;
  frames_of(&s, flags >> 4);
  col_scene_destroy(&s);
  col_scene_destroy(&s); /* zeroed: nothing */
  col_scene_destroy(NULL);
}

/* col_scene_validate on scenes built by hand: NULL, NULL data with boxes, no frame, dims not
 * 2 or 3, a count past the limits, boxes read from the input (a NaN or inverted one is
 * COL_ERR_FORMAT). */
static void validate(fz_reader *r, uint8_t flags) {
  frames2 w;
  const unsigned dims = flags & 1 ? 3 : 2;
  make_frames(r, dims, &w);
  float data[24];
  /* The scene layout: per frame 2 x dims arrays of 2 floats. */
  for (int fr = 0; fr < 2; fr++)
    for (unsigned a = 0; a < 2 * dims; a++)
      for (int i = 0; i < 2; i++)
        data[(fr * 2 * (int)dims + (int)a) * 2 + i] =
            a < dims ? w.f[fr].min[a][i] : w.f[fr].max[a - dims][i];
  col_scene s = {dims, 2, 2, COL_SCENE_TEXT, data, NULL};
  unsigned applies = w.ok[0] && w.ok[1] ? 0 : ERR(COL_ERR_FORMAT);
  switch (flags >> 1 & 7) {
  case 0: applies = ERR(COL_ERR_NULL); break;
  case 1: s.data = NULL, applies = ERR(COL_ERR_NULL); break;
  case 2: s.frames = 0, applies = ERR(COL_ERR_FORMAT); break;
  case 3: s.dims = flags & 16 ? 4 : 1, applies = ERR(COL_ERR_FORMAT); break;
  case 4: s.count = (size_t)1 << 40, s.data = data, applies = ERR(COL_ERR_FORMAT); break;
  default: break;
  }
  col_scene_error e;
  judge("col_scene_validate", col_scene_validate((flags >> 1 & 7) == 0 ? NULL : &s, &e), applies,
        true, &e, false);
}

/* The writers (stream or path: flags bit 0), with their NULLs, forms, frame sets and failures;
 * a written scene read back to the same bits. */
static void writers(fz_reader *r, uint8_t flags, uint8_t how) {
  frames2 w;
  make_frames(r, how & 1 ? 3 : 2, &w);
  const bool to_path = flags & 1;
  static const int forms[4] = {COL_SCENE_TEXT, COL_SCENE_BINARY, 2, -1};
  const int form = forms[how >> 1 & 3];
  col_boxes frames[2] = {w.f[0], w.f[1]};
  size_t nframes = 2;
  unsigned applies = form != COL_SCENE_TEXT && form != COL_SCENE_BINARY ? ERR(COL_ERR_ARGUMENT) : 0;
  /* 0 the frames as read, 1 NULL frames, 2 none, 3 dims 4, 4 frames of other counts, 5 a NULL
   * array, 6 the target NULL, 7 a target that cannot be written (a read-only stream, a path in
   * a missing folder). */
  const unsigned what = how >> 3 & 7;
  bool target_null = false, unwritable = false;
  /* With flags bit 1: 3 the second frame of the other dims, 4 both frames past the limits
   * (2^40 boxes), 5 a min array NULL instead, 7 a stream that fails after a few bytes. */
  const bool other = flags & 2;
  switch (what) {
  case 1: applies |= ERR(COL_ERR_NULL); break;
  case 2: nframes = 0, applies |= ERR(COL_ERR_SIZE); break;
  case 3:
    if (other)
      frames[1].dims = frames[0].dims == 2 ? 3 : 2;
    else
      frames[0].dims = frames[1].dims = 4;
    applies |= ERR(COL_ERR_SIZE);
    break;
  case 4:
    if (other)
      frames[0].count = frames[1].count = (size_t)1 << 40;
    else
      frames[1].count = 1;
    applies |= ERR(COL_ERR_SIZE);
    break;
  case 5:
    if (other)
      frames[1].min[0] = NULL;
    else
      frames[1].max[1] = NULL;
    applies |= ERR(COL_ERR_NULL);
    break;
  case 6: target_null = true, applies |= ERR(COL_ERR_NULL); break;
  case 7: unwritable = true; break;
  default: break;
  }
  /* Boxes breaking a rule are refused: checked frame by frame after the set's shape, so a bad
   * box of the first frame comes before the second frame's dims, count or array (not before
   * counts past the limits, checked first). */
  if ((!w.ok[0] && (what == 0 || (what == 3 && other) || (what == 4 && !other) || what >= 5)) ||
      (!w.ok[1] && (what == 0 || what >= 6)))
    applies |= ERR(COL_ERR_FORMAT);
  /* The stream that fails after `room` bytes (unbuffered: each write meets the end): COL_ERR_IO
   * when the scene is longer, which writing it to memory first tells. */
  const bool short_stream = unwritable && other && !to_path;
  char room_buf[256];
  const size_t room = short_stream ? fz_u8(r) : 0; /* a byte after the floats */
  if (short_stream && applies == 0) {
    char *all = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&all, &len);
    if (m == NULL || col_scene_write_file(m, (col_scene_form)form, frames, nframes, NULL) != COL_OK)
      abort();
    fclose(m);
    free(all);
    if (len > room) applies |= ERR(COL_ERR_IO);
  } else if (unwritable) {
    applies |= ERR(COL_ERR_IO);
  }
  const char *path = scratch_path();
  remove(path);
  col_scene_error e;
  col_status st;
  const col_boxes *fp = what == 1 ? NULL : frames;
  if (to_path) {
    const char *p = target_null ? NULL : unwritable ? "/nonexistent-collide-folder/scene" : path;
    st = col_scene_write_path(p, (col_scene_form)form, fp, nframes, &e);
  } else {
    FILE *f = target_null    ? NULL
              : short_stream ? fmemopen(room_buf, room ? room : 1, "w")
                             : fopen(unwritable ? "/dev/null" : path, unwritable ? "rb" : "wb");
    if (!target_null && f == NULL) abort();
    if (short_stream) setvbuf(f, NULL, _IONBF, 0);
    st = col_scene_write_file(f, (col_scene_form)form, fp, nframes, &e);
    if (f) fclose(f);
  }
  /* On a refusal nothing is written: the path form leaves no file. */
  const bool no_file = access(path, F_OK) != 0;
  judge(to_path ? "col_scene_write_path" : "col_scene_write_file", st, applies,
        st == COL_OK || !to_path || no_file, &e, false);
  if (st != COL_OK || short_stream) return;
  col_scene s;
  if (col_scene_read_path(path, &s, NULL) != COL_OK || s.form != (col_scene_form)form) {
    fputs("fuzz args: a written scene does not read back in its form\n", stderr);
    fz_fail();
  }
  same_frames(to_path ? "col_scene_write_path" : "col_scene_write_file", &s, &w);
  col_scene_destroy(&s);
}

/* Scene files (operation bytes 0xE8-0xEB): a choice byte (bits 0-2: read from memory, a
 * stream, a path; validate; write; bits 3-7: the choice's flags), a byte of its own, the
 * starve byte, then the frames' floats. */
void fa_scene(fz_reader *r) {
  const uint8_t choice = fz_u8(r), how = fz_u8(r), starve = fa_starve(r);
  const uint8_t flags = choice >> 3 | (uint8_t)(how << 5);
  switch (choice & 7) {
  case 0:
  case 1:
  case 2: readers(choice & 7, flags, starve); break;
  case 3:
  case 4: validate(r, flags); break;
  default: writers(r, flags, how); break;
  }
}
