/* The text form of scene files (collide/scene.h, docs/scenes.md): one box per line, frames
 * separated by "---", numbers read and written in the "C" locale's form whatever the
 * program's locale. */
#include "scene_rules.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

enum { TOKEN_MAX = 63 };

/* The program's decimal point, when it is one character other than '.' (else '.'): numbers are
 * handed to strtof and taken from snprintf with it swapped in and out, so that a game that
 * set LC_NUMERIC to a comma locale still reads and writes the same files. */
static char locale_point(void) {
  const char *p = localeconv()->decimal_point;
  return p != NULL && p[0] != '\0' && p[1] == '\0' ? p[0] : '.';
}

/* One number token (not NUL-terminated, len > 0): NULL and *out, or the reason it is refused. */
static const char *parse_number(const unsigned char *tok, size_t len, char point, float *out) {
  if (len > TOKEN_MAX) return "number too long (over 63 characters)";
  char buf[TOKEN_MAX + 1];
  for (size_t i = 0; i < len; i++) {
    const char c = (char)tok[i];
    /* A ',' would be the decimal point of a comma locale: never one in this format. */
    if (c == ',' || c == '\0' || (i == 0 && (c == '\r' || c == '\v' || c == '\f')))
      return "not a number";
    buf[i] = c == '.' ? point : c;
  }
  buf[len] = '\0';
  errno = 0;
  char *end = NULL;
  const float v = strtof(buf, &end);
  if (end != buf + len) return "not a number";
  if (isnan(v)) return "NaN coordinate";
  if (isinf(v) && errno == ERANGE) return "number out of float range";
  *out = v;
  return NULL;
}

/* The boxes read so far, box after box (2 x dims floats each: min then max), transposed into
 * the scene's arrays at the end, when the count is known. */
typedef struct text_reader {
  const unsigned char *p;
  size_t n;
  col_scene_error *e;
  unsigned dims;
  float *boxes;
  uint64_t nboxes, cap;      /* boxes held, room */
  uint64_t count, in_frame;  /* the first frame's count (once ended), this frame's boxes */
  uint64_t frames;           /* frames ended */
  uint64_t line, line_start; /* the current line and its offset */
} text_reader;

static col_status fail(text_reader *r, uint64_t offset, const char *reason, const char *detail,
                       uint64_t a, uint64_t b) {
  return col__scene_fail(r->e, COL_ERR_FORMAT, r->line, offset, true, reason, detail,
                         (unsigned long long)a, (unsigned long long)b);
}

/* Ends a frame: its count must be the first frame's. */
static col_status end_frame(text_reader *r) {
  if (r->frames > 0 && r->in_frame != r->count)
    return fail(r, r->line_start, "frames of different box counts",
                "this frame has %llu boxes, the first %llu", r->in_frame, r->count);
  if (r->frames == 0) r->count = r->in_frame;
  r->frames++, r->in_frame = 0;
  if (!col__scene_fits(r->dims, r->count, r->frames))
    return fail(r, r->line_start, "scene larger than the limits (2^20 frames, 2^28 floats)", NULL,
                0, 0);
  return COL_OK;
}

/* The tokens of one line [s, end): a box. Counted first, so that a line of the wrong length
 * says how long it is (a 3D box in a 2D file: 6, want 4) before any of its numbers is read. */
static col_status box_line(text_reader *r, const unsigned char *s, const unsigned char *end,
                           char point) {
  const unsigned want = 2 * r->dims;
  uint64_t tokens = 0;
  for (const unsigned char *q = s; q < end;) {
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q == end) break;
    tokens++;
    while (q < end && *q != ' ' && *q != '\t') q++;
  }
  if (tokens != want)
    return fail(r, r->line_start, "wrong number of numbers on a box line", "%llu, want %llu",
                tokens, want);
  float v[6];
  unsigned got = 0;
  for (const unsigned char *q = s; got < want;) {
    while (*q == ' ' || *q == '\t') q++;
    const unsigned char *t = q;
    while (q < end && *q != ' ' && *q != '\t') q++;
    const char *why = parse_number(t, (size_t)(q - t), point, &v[got]);
    if (why != NULL)
      return fail(r, (uint64_t)(t - r->p), why, "number %llu of the line", got + 1u, 0);
    got++;
  }
  unsigned axis = 0;
  const char *why = col__scene_box_rule(v, v + r->dims, r->dims, &axis);
  if (why != NULL) return fail(r, r->line_start, why, col__scene_on_axis(axis), 0, 0);
  if (!col__scene_fits(r->dims, r->in_frame + 1 > r->count ? r->in_frame + 1 : r->count,
                       r->frames + 1))
    return fail(r, r->line_start, "scene larger than the limits (2^20 frames, 2^28 floats)", NULL,
                0, 0);
  if (r->nboxes == r->cap) {
    const uint64_t cap = r->cap ? 2 * r->cap : 64;
    if (cap * want * sizeof(float) > SIZE_MAX) return COL_ERR_MEMORY;
    float *grown = realloc(r->boxes, (size_t)(cap * want * sizeof(float)));
    if (grown == NULL) return COL_ERR_MEMORY;
    r->boxes = grown, r->cap = cap;
  }
  memcpy(r->boxes + r->nboxes * want, v, want * sizeof(float));
  r->nboxes++, r->in_frame++;
  return COL_OK;
}

/* The header line [s, end): "collide-scene", the version, "2d" or "3d". */
static col_status header_line(text_reader *r, const unsigned char *s, const unsigned char *end) {
  const unsigned char *w[4];
  size_t len[4];
  unsigned words = 0;
  const unsigned char *q = s;
  while (q < end) {
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q == end) break;
    const unsigned char *t = q;
    while (q < end && *q != ' ' && *q != '\t') q++;
    if (words < 4) w[words] = t, len[words] = (size_t)(q - t);
    words++;
  }
  const size_t magic = sizeof COL__SCENE_TEXT_MAGIC - 1;
  if (words == 0 || len[0] != magic || memcmp(w[0], COL__SCENE_TEXT_MAGIC, magic) != 0)
    return col__scene_fail(r->e, COL_ERR_FORMAT, 0, 0, true,
                           "not a collide scene (no \"collide-scene\" line, no \"COLSCENE\" magic)",
                           NULL);
  if (words < 2 || len[1] != 1 || w[1][0] != '1')
    return col__scene_fail(r->e, COL_ERR_VERSION, 1, words < 2 ? 0 : (uint64_t)(w[1] - r->p), true,
                           "unsupported version (this reader reads version 1)", NULL);
  if (words != 3 || len[2] != 2 || (w[2][0] != '2' && w[2][0] != '3') || w[2][1] != 'd')
    return col__scene_fail(r->e, COL_ERR_FORMAT, 1, words < 3 ? 0 : (uint64_t)(w[2] - r->p), true,
                           "bad header (want \"collide-scene 1 2d\" or \"collide-scene 1 3d\")",
                           NULL);
  r->dims = (unsigned)(w[2][0] - '0');
  return COL_OK;
}

static col_status read_lines(text_reader *r) {
  const char point = locale_point();
  size_t pos = 0;
  while (pos < r->n) {
    const unsigned char *s = r->p + pos;
    const unsigned char *nl = memchr(s, '\n', r->n - pos);
    const unsigned char *end = nl != NULL ? nl : r->p + r->n;
    const size_t next = (size_t)(end - r->p) + (nl != NULL);
    if (end > s && end[-1] == '\r') end--;
    r->line++, r->line_start = pos;
    col_status st = COL_OK;
    if (r->line == 1) {
      st = header_line(r, s, end);
    } else {
      const unsigned char *q = s;
      while (q < end && (*q == ' ' || *q == '\t')) q++;
      const size_t sep = sizeof COL__SCENE_SEPARATOR - 1;
      if (q == end || *q == '#') {
        /* blank or comment */
      } else if ((size_t)(end - q) >= sep && memcmp(q, COL__SCENE_SEPARATOR, sep) == 0) {
        const unsigned char *t = q + sep;
        while (t < end && (*t == ' ' || *t == '\t')) t++;
        st = t == end ? end_frame(r)
                      : fail(r, (uint64_t)(q - r->p), "not a number",
                             "a separator is \"---\" alone", 0, 0);
      } else {
        st = box_line(r, s, end, point);
      }
    }
    if (st != COL_OK) return st;
    pos = next;
  }
  if (r->line == 0)
    return col__scene_fail(r->e, COL_ERR_FORMAT, 0, 0, true,
                           "not a collide scene (no \"collide-scene\" line, no \"COLSCENE\" magic)",
                           "the file is empty");
  r->line_start = r->n;
  return end_frame(r);
}

col_status col__scene_text_read(const unsigned char *p, size_t n, col_scene *out,
                                col_scene_error *e) {
  text_reader r = {.p = p, .n = n, .e = e};
  col_status st = read_lines(&r);
  float *data = NULL;
  const size_t want = 2u * r.dims;
  if (st == COL_OK) {
    /* The boxes into the scene's arrays: frame f, array a, box i at (f * 2 dims + a) * count + i.
     */
    data = malloc(r.nboxes * want * sizeof(float) + (r.nboxes == 0));
    if (data == NULL) st = COL_ERR_MEMORY;
  }
  if (st == COL_OK) {
    for (uint64_t b = 0; b < r.nboxes; b++) {
      const uint64_t f = b / r.count, i = b % r.count;
      for (size_t a = 0; a < want; a++) data[(f * want + a) * r.count + i] = r.boxes[b * want + a];
    }
    *out = (col_scene){.dims = r.dims,
                       .count = (size_t)r.count,
                       .frames = (size_t)r.frames,
                       .form = COL_SCENE_TEXT,
                       .data = data};
  }
  if (st == COL_ERR_MEMORY)
    col__scene_fail(e, st, 0, 0, false, "out of memory", "reading %llu boxes",
                    (unsigned long long)r.nboxes);
  free(r.boxes);
  return st;
}

/* One float with 9 significant digits (enough for every float to read back to its bits) and
 * '.' as its decimal point whatever the locale. */
static int put_number(FILE *f, float v, char point, bool last) {
  char buf[40];
  if (isinf(v)) return fputs(v > 0 ? "inf" : "-inf", f) < 0 || fputc(last ? '\n' : ' ', f) < 0;
  const int n = snprintf(buf, sizeof buf, "%.9g", (double)v);
  if (n < 0 || (size_t)n >= sizeof buf) return 1;
  for (int i = 0; i < n; i++)
    if (buf[i] == point) buf[i] = '.';
  return fputs(buf, f) < 0 || fputc(last ? '\n' : ' ', f) < 0;
}

col_status col__scene_text_write(FILE *f, const col_boxes *frames, size_t nframes) {
  const unsigned dims = frames[0].dims;
  const size_t count = frames[0].count;
  const char point = locale_point();
  int bad = fprintf(f, "%s %u %ud\n", COL__SCENE_TEXT_MAGIC, COL_SCENE_VERSION, dims) < 0;
  bad |= fprintf(f, "# %zu boxes a frame, %zu frames; a box: min x, min y,%s max x, max y%s\n",
                 count, nframes, dims == 3 ? " min z," : "", dims == 3 ? ", max z" : "") < 0;
  for (size_t fr = 0; fr < nframes && !bad; fr++) {
    if (fr > 0) bad |= fputs(COL__SCENE_SEPARATOR "\n", f) < 0;
    const col_boxes *b = &frames[fr];
    for (size_t i = 0; i < count && !bad; i++) {
      for (unsigned k = 0; k < dims; k++) bad |= put_number(f, b->min[k][i], point, false);
      for (unsigned k = 0; k < dims; k++) bad |= put_number(f, b->max[k][i], point, k + 1 == dims);
    }
  }
  return bad ? COL_ERR_IO : COL_OK;
}
