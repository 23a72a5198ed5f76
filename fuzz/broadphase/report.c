/* The broadphase target's report of a difference (fuzz_broadphase.c and its parts): who differs
 * and by which pairs first, then the boxes of those pairs, the rest of the set and both lists. */
#include "report.h"

#include <string.h>

bool fb_same(const col_pairs *x, const col_pairs *y) {
  return x->count == y->count &&
         (x->count == 0 || memcmp(x->data, y->data, x->count * sizeof(col_pair)) == 0);
}

void fb_print_pairs(const char *label, const col_pairs *p) {
  fprintf(stderr, "  %-22s %zu pairs:", label, p->count);
  for (size_t i = 0; i < p->count && i < 64; i++)
    fprintf(stderr, " (%u,%u)", p->data[i].a, p->data[i].b);
  fputs(p->count > 64 ? " ...\n" : "\n", stderr);
}

/* The pairs of x that y lacks (both sorted): counted, the first 16 printed after `what`, their
 * boxes marked in `named`. */
static size_t print_missing(const char *what, const col_pairs *x, const col_pairs *y, bool *named) {
  size_t missing = 0, j = 0;
  fprintf(stderr, "    %s:", what);
  for (size_t i = 0; i < x->count; i++) {
    while (j < y->count && (y->data[j].a < x->data[i].a ||
                            (y->data[j].a == x->data[i].a && y->data[j].b < x->data[i].b)))
      j++;
    if (j < y->count && y->data[j].a == x->data[i].a && y->data[j].b == x->data[i].b) continue;
    if (missing++ < 16) fprintf(stderr, " (%u,%u)", x->data[i].a, x->data[i].b);
    named[x->data[i].a] = named[x->data[i].b] = true;
  }
  fputs(missing > 16 ? " ...\n" : missing == 0 ? " none\n" : "\n", stderr);
  return missing;
}

/* Who differs and by which pairs first, then the boxes of those pairs, then the rest of the set
 * (at most 200 boxes in all) and both pair lists. */
_Noreturn void fb_report(const col_boxes *s, float *const v[6], col_touch touch,
                         const col_pairs *want, const col_pairs *got, const char *who) {
  fprintf(stderr, "fuzz broadphase: touch rule %s, %uD, %zu boxes\n",
          touch == COL_TOUCH_OVERLAPS ? "closed (touching boxes overlap)" : "open", s->dims,
          s->count);
  bool *named = fz_alloc(s->count + 1);
  memset(named, 0, s->count + 1);
  fprintf(stderr, "  %s  <- DIFFERS from the oracle:\n", who);
  const size_t missing = print_missing("pairs missing", want, got, named);
  const size_t extra = print_missing("pairs extra", got, want, named);
  fprintf(stderr, "  (%zu of the oracle's %zu pairs missing, %zu extra)\n", missing, want->count,
          extra);
  size_t shown = 0;
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1 && shown < s->count) fprintf(stderr, "  the other boxes:\n");
    for (size_t i = 0; i < s->count && shown < 200; i++) {
      if (named[i] != (pass == 0)) continue;
      char name[48];
      snprintf(name, sizeof name, "box %zu min, max", i);
      const float box[6] = {v[0][i], v[1][i], v[2][i], v[3][i], v[4][i], v[5][i]};
      fz_print_floats(name, box, 6);
      shown++;
    }
  }
  fb_print_pairs("expected (oracle)", want);
  fb_print_pairs(who, got);
  fz_fail();
}
