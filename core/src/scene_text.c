/* The text form of scene files (collide/scene.h, docs/scenes.md): one box per line, frames
 * separated by "---", numbers read and written in the "C" locale's form whatever the
 * program's locale; version 2 adds "static" lines that mark boxes by index. */
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
  unsigned version;
  /* Version 2's static marks: ranges [lo, hi] of box indices, with the line and offset of
   * each (checked against the count once it is known). */
  struct mark_range {
    uint64_t lo, hi, line, offset;
  } * ranges;
  size_t nranges, ranges_cap;
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
  if (words < 2 || len[1] != 1 || (w[1][0] != '1' && w[1][0] != '2'))
    return col__scene_fail(r->e, COL_ERR_VERSION, 1, words < 2 ? 0 : (uint64_t)(w[1] - r->p), true,
                           "unsupported version (this reader reads versions 1 and 2)", NULL);
  if (words != 3 || len[2] != 2 || (w[2][0] != '2' && w[2][0] != '3') || w[2][1] != 'd')
    return col__scene_fail(r->e, COL_ERR_FORMAT, 1, words < 3 ? 0 : (uint64_t)(w[2] - r->p), true,
                           "bad header (want \"collide-scene 1 2d\" or \"collide-scene 1 3d\")",
                           NULL);
  r->dims = (unsigned)(w[2][0] - '0');
  r->version = (unsigned)(w[1][0] - '0');
  return COL_OK;
}

/* A decimal index (digits only, below 2^32). */
static bool parse_index(const unsigned char *t, const unsigned char *end, uint64_t *out) {
  if (t == end || end - t > 10) return false;
  uint64_t v = 0;
  for (; t < end; t++) {
    if (*t < '0' || *t > '9') return false;
    v = v * 10 + (uint64_t)(*t - '0');
  }
  *out = v;
  return v <= UINT32_MAX;
}

/* A "static" line [q, end) (q after the word): indices and ranges "lo-hi" of boxes that never
 * move, separated by blanks. */
static col_status static_line(text_reader *r, const unsigned char *q, const unsigned char *end) {
  if (r->version < 2)
    return fail(r, r->line_start, "a \"static\" line needs version 2 of the format",
                "the header says \"collide-scene 1\"", 0, 0);
  for (;;) {
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q == end) return COL_OK;
    const unsigned char *t = q;
    while (q < end && *q != ' ' && *q != '\t') q++;
    const unsigned char *dash = memchr(t, '-', (size_t)(q - t));
    uint64_t lo, hi;
    if (!parse_index(t, dash != NULL ? dash : q, &lo) ||
        (dash != NULL && !parse_index(dash + 1, q, &hi)) || (dash != NULL && hi < lo))
      return fail(r, (uint64_t)(t - r->p), "bad static mark",
                  "want a box index or a range lo-hi (lo <= hi)", 0, 0);
    if (dash == NULL) hi = lo;
    if (r->nranges == r->ranges_cap) {
      const size_t cap = r->ranges_cap ? 2 * r->ranges_cap : 16;
      struct mark_range *grown = realloc(r->ranges, cap * sizeof *grown);
      if (grown == NULL) return COL_ERR_MEMORY;
      r->ranges = grown, r->ranges_cap = cap;
    }
    r->ranges[r->nranges++] = (struct mark_range){lo, hi, r->line, (uint64_t)(t - r->p)};
  }
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
      } else if ((size_t)(end - q) >= 6 && memcmp(q, "static", 6) == 0 &&
                 (end - q == 6 || q[6] == ' ' || q[6] == '\t')) {
        st = static_line(r, q + 6, end);
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
  uint8_t *marks = NULL;
  const size_t want = 2u * r.dims;
  for (size_t k = 0; st == COL_OK && k < r.nranges; k++)
    if (r.ranges[k].hi >= r.count) {
      r.line = r.ranges[k].line;
      st = fail(&r, r.ranges[k].offset, "static mark past the last box", "box %llu of %llu boxes",
                r.ranges[k].hi, r.count);
    }
  if (st == COL_OK && r.version == 2 && r.nranges > 0) {
    marks = calloc(r.count + (r.count == 0), 1);
    if (marks == NULL) st = COL_ERR_MEMORY;
    for (size_t k = 0; marks != NULL && k < r.nranges; k++)
      memset(marks + r.ranges[k].lo, 1, (size_t)(r.ranges[k].hi - r.ranges[k].lo + 1));
  }
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
                       .data = data,
                       .is_static = marks};
  } else {
    free(marks);
  }
  if (st == COL_ERR_MEMORY)
    col__scene_fail(e, st, 0, 0, false, "out of memory", "reading %llu boxes",
                    (unsigned long long)r.nboxes);
  free(r.boxes), free(r.ranges);
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

/* The marked boxes as "static" lines of at most 16 runs each ("lo-hi", or "i" alone). */
static int put_marks(FILE *f, const uint8_t *marks, size_t count) {
  int bad = 0;
  unsigned runs = 0;
  for (size_t i = 0; i < count && !bad;) {
    if (!marks[i]) {
      i++;
      continue;
    }
    size_t j = i;
    while (j + 1 < count && marks[j + 1]) j++;
    if (runs == 0) bad |= fputs("static", f) < 0;
    bad |= (j > i ? fprintf(f, " %zu-%zu", i, j) : fprintf(f, " %zu", i)) < 0;
    if (++runs == 16) bad |= fputc('\n', f) < 0, runs = 0;
    i = j + 1;
  }
  if (runs > 0) bad |= fputc('\n', f) < 0;
  return bad;
}

col_status col__scene_text_write(FILE *f, const col_boxes *frames, size_t nframes,
                                 const uint8_t *is_static) {
  const unsigned dims = frames[0].dims;
  const size_t count = frames[0].count;
  const char point = locale_point();
  int bad = fprintf(f, "%s %u %ud\n", COL__SCENE_TEXT_MAGIC, is_static != NULL ? 2u : 1u, dims) < 0;
  bad |= fprintf(f, "# %zu boxes a frame, %zu frames; a box: min x, min y,%s max x, max y%s\n",
                 count, nframes, dims == 3 ? " min z," : "", dims == 3 ? ", max z" : "") < 0;
  if (is_static != NULL) bad |= put_marks(f, is_static, count);
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
