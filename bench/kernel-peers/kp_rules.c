/* A kernel peer's rules column parsed (kp_rules.h): key=value tokens, comma-separated. */
#include "kp_rules.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[KP_RULE_KEYS] = {"touch",    "repr",   "empty", "nan",  "depth",
                                                "skin",     "inside", "ends",  "zero", "invalid",
                                                "parallel", "shrink", "short"};

const char *kp_rule_name(kp_rule_key k) { return (unsigned)k < KP_RULE_KEYS ? names[k] : "?"; }

static bool is(const char *v, const char *w) { return strcmp(v, w) == 0; }

static bool number(const char *v, float *out) {
  char *end;
  const double x = strtod(v, &end);
  if (end == v || *end != 0 || !(x >= 0) || x > FLT_MAX) return false;
  *out = (float)x;
  return true;
}

/* One key=value into r; NULL or the complaint. */
static const char *one(char *tok, kp_rules *r) {
  char *eq = strchr(tok, '=');
  if (eq == NULL) return "a rule is not key=value";
  *eq = 0;
  const char *v = eq + 1;
  int k = 0;
  while (k < KP_RULE_KEYS && strcmp(names[k], tok) != 0) k++;
  if (k == KP_RULE_KEYS) return "unknown rule key";
  if (r->set[k]) return "a rule key given twice";
  r->set[k] = true;
  bool ok = true;
  switch ((kp_rule_key)k) {
  case KP_R_TOUCH: ok = is(v, "open") || is(v, "closed"), r->open = is(v, "open"); break;
  case KP_R_REPR:
    ok = is(v, "xywh") || is(v, "centre"), r->xywh = is(v, "xywh"), r->centre = is(v, "centre");
    break;
  case KP_R_EMPTY:
    ok = is(v, "yes") || is(v, "degenerate"), r->empty = is(v, "yes"),
    r->degenerate = is(v, "degenerate");
    break;
  case KP_R_NAN:
    r->nan = is(v, "miss")      ? KP_NAN_MISS
             : is(v, "compare") ? KP_NAN_COMPARE
             : is(v, "clip")    ? KP_NAN_CLIP
                                : KP_NAN_HIT;
    ok = is(v, "miss") || is(v, "compare") || is(v, "clip") || is(v, "hit");
    break;
  case KP_R_DEPTH:
    ok = is(v, "overlap") || is(v, "rounded");
    r->depth_overlap = is(v, "overlap"), r->depth_rounded = is(v, "rounded");
    break;
  case KP_R_SKIN: ok = number(v, &r->skin); break;
  case KP_R_INSIDE:
    r->inside = is(v, "miss")     ? KP_INSIDE_MISS
                : is(v, "exit")   ? KP_INSIDE_EXIT
                : is(v, "closed") ? KP_INSIDE_CLOSED
                                  : KP_INSIDE_DEFAULT;
    ok = is(v, "miss") || is(v, "exit") || is(v, "closed") || is(v, "hit");
    break;
  case KP_R_ENDS: ok = is(v, "open"), r->ends_open = ok; break;
  case KP_R_ZERO: ok = is(v, "miss"), r->zero_miss = ok; break;
  case KP_R_INVALID: ok = is(v, "any"), r->invalid_any = ok; break;
  case KP_R_PARALLEL: ok = is(v, "eps"), r->parallel_eps = ok; break;
  case KP_R_SHRINK: ok = number(v, &r->shrink); break;
  case KP_R_SHORT: ok = is(v, "eps"), r->short_eps = ok; break;
  default: ok = false; break;
  }
  return ok ? NULL : "a rule's value is not one of its key's";
}

const char *kp_rules_parse(const char *text, kp_rules *out) {
  *out = (kp_rules){0};
  if (strcmp(text, "-") == 0) return NULL;
  char buf[512];
  if (strlen(text) >= sizeof buf) return "the rules are too long";
  strcpy(buf, text);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
    const char *why = one(tok, out);
    if (why) return why;
  }
  return NULL;
}

kp_rules kp_rules_prefix(const kp_rules *r, int keys) {
  kp_rules p = {0};
  for (int k = 0; k < keys && k < KP_RULE_KEYS; k++) {
    p.set[k] = r->set[k];
    switch ((kp_rule_key)k) {
    case KP_R_TOUCH: p.open = r->open; break;
    case KP_R_REPR: p.xywh = r->xywh, p.centre = r->centre; break;
    case KP_R_EMPTY: p.empty = r->empty, p.degenerate = r->degenerate; break;
    case KP_R_NAN: p.nan = r->nan; break;
    case KP_R_DEPTH: p.depth_overlap = r->depth_overlap, p.depth_rounded = r->depth_rounded; break;
    case KP_R_SKIN: p.skin = r->skin; break;
    case KP_R_INSIDE: p.inside = r->inside; break;
    case KP_R_ENDS: p.ends_open = r->ends_open; break;
    case KP_R_ZERO: p.zero_miss = r->zero_miss; break;
    case KP_R_INVALID: p.invalid_any = r->invalid_any; break;
    case KP_R_PARALLEL: p.parallel_eps = r->parallel_eps; break;
    case KP_R_SHRINK: p.shrink = r->shrink; break;
    case KP_R_SHORT: p.short_eps = r->short_eps; break;
    default: break;
    }
  }
  return p;
}
