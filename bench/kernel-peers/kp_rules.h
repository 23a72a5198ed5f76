/* A kernel peer's declared rules (the list's rules column), parsed, and the classification of
 * its answers against collide's by those rules and by exact arithmetic (docs/coming-from.md has
 * each key's meaning). */
#ifndef COLLIDE_KP_RULES_H
#define COLLIDE_KP_RULES_H

#include "kpeers.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KP_NAN_MISS, KP_NAN_COMPARE, KP_NAN_CLIP, KP_NAN_HIT };
enum { KP_INSIDE_DEFAULT, KP_INSIDE_MISS, KP_INSIDE_EXIT, KP_INSIDE_CLOSED };

/* The rule keys, in the order a difference is attributed to them (the first that changes the
 * answer names the reason). Bug rules (KP_RULE_IS_BUG) describe a peer's known error: a
 * difference they explain is explained, and still counted wrong against exact arithmetic. */
typedef enum kp_rule_key {
  KP_R_TOUCH,    /* touch=open|closed: the touch rule (collide's default: closed) */
  KP_R_REPR,     /* repr=xywh: boxes held as x, y, w, h (max rebuilt as x + (max - x), rounded);
                    repr=centre: a segment moved into the box's centre frame in float (from -
                    (max + min) / 2, half extents (max - min) / 2), then tested exactly. A
                    representation's rounding is an error: counted wrong against exact */
  KP_R_EMPTY,    /* empty=yes: a box with a size <= 0 (zero or inverted) overlaps nothing;
                    empty=degenerate: such a box is a degenerate polygon: a flat one's push-out
                    depth and axis mean nothing (only the decision is compared), an inverted
                    one is turned inside out (its decision is the peer's own) */
  KP_R_NAN,      /* nan=miss|compare|clip|hit: a comparison with a NaN fails (collide), passes,
                    SDL's clip (the overlap's ends chosen by compares, a NaN one keeping the first
                    box's end, then rejected only when hi <= lo holds), or any NaN is a hit */
  KP_R_DEPTH,    /* depth=overlap|rounded: mtd's depth is the overlap's side (not the push-out),
                    or the push-out rounded another way (compared within 2^-16 relative) */
  KP_R_SKIN,     /* skin=<float>: boxes apart by less than the skin are in contact */
  KP_R_INSIDE,   /* inside=miss|exit|closed: a segment starting inside misses, is the exit's
                    distance (a hit when the exit is within the segment), or starting on the
                    surface counts as inside (a hit) */
  KP_R_ENDS,     /* ends=open: entering exactly at t = 1 or leaving exactly at t = 0 is no hit,
                    nor is a segment parallel to an axis lying on the box's upper plane of it
                    (its far time (max - from) * BT_LARGE_FLOAT is 0) */
  KP_R_ZERO,     /* zero=miss: a zero-length segment misses (even inside), as does one whose
                    squared length underflows to 0 in float; against spheres, so does every
                    segment against a sphere of radius 0, or at most 2^-40 of the largest
                    coordinate (kp_sphere_reach) */
  KP_R_INVALID,  /* invalid=any: on input outside collide's contract or the judges' range
                    (non-finite values, a magnitude over 2^60, an inverted box against a
                    segment, a negative radius) the peer's answer is its own */
  KP_R_PARALLEL, /* parallel=eps (bug): an axis whose |to - from| < FLT_EPSILON is taken as
                    parallel (the start must lie within the slab) */
  KP_R_SHRINK,   /* shrink=<float> (bug): the box is clipped to [min, max - shrink] per axis */
  KP_R_SHORT,    /* short=eps (bug): a segment whose squared length < FLT_EPSILON misses */
  KP_RULE_KEYS
} kp_rule_key;
#define KP_RULE_IS_BUG(k) ((k) >= KP_R_PARALLEL)

typedef struct kp_rules {
  bool set[KP_RULE_KEYS]; /* declared */
  bool open;              /* touch */
  bool xywh, centre, empty, degenerate, zero_miss;
  int nan;
  bool depth_overlap, depth_rounded;
  float skin;
  int inside;
  bool ends_open, invalid_any, parallel_eps, short_eps;
  float shrink;
} kp_rules;

const char *kp_rule_name(kp_rule_key k);
/* Parses a rules column ("-": none). Returns NULL, or what is wrong (a static string). */
const char *kp_rules_parse(const char *text, kp_rules *out);
/* The rules with only the first `keys` keys (in kp_rule_key order) kept. */
kp_rules kp_rules_prefix(const kp_rules *r, int keys);

/* The verdict on one input. */
typedef enum kp_verdict {
  KP_SAME,        /* the peer answers as collide */
  KP_BY_RULE,     /* differs, as the declared rule `reason` says */
  KP_OURS_WRONG,  /* differs: collide is wrong against exact arithmetic, the peer right */
  KP_ACCURACY,    /* differs within the band of the decision boundary (rounding); the judge
                     says who is wrong */
  KP_UNEXPLAINED, /* differs, and no rule or accuracy band explains it */
} kp_verdict;

typedef struct kp_class {
  kp_verdict verdict;
  kp_rule_key reason; /* for KP_BY_RULE */
  kp_answer peer, ours, model;
  int exact_ours;     /* exact decision under collide's rules: 0, 1, or -1 (no judge here) */
  int exact_peer;     /* exact decision under the peer's conventions (no bug rules), or -1 */
  int alt, exact_alt; /* collide's other form (the recipe sphere test, the squared circle test) */
} kp_class;

/* Whether the item is outside collide's contract or the judges' range (invalid=any's inputs). */
bool kp_item_invalid(kp_family f, const kp_item *it);
/* The largest magnitude of a sphere item's coordinates (zero=miss: a radius at most 2^-40 of it
 * is a point for the peer). */
double kp_sphere_reach(const kp_item *it);
/* Whether the family has an exact judge (segments, circles; box overlap's compares are exact). */
bool kp_family_judged(kp_family f);
/* The classification of the peer's answer to `it` under rules `r`. */
kp_class kp_classify(kp_family f, const kp_rules *r, const kp_item *it, kp_answer peer);
/* collide's answer (the default call: closed rule, the robust sphere test, the seed's circles). */
kp_answer kp_ours(kp_family f, const kp_item *it);

/* The one-screen text of an unexplained (or any) difference: the kernel, the input in decimal
 * and %a, both answers, the model's and the exact ones. */
void kp_print_class(FILE *out, const kp_kernel *k, const kp_item *it, const kp_class *c);

#ifdef __cplusplus
}
#endif

#endif
