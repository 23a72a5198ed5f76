/* The kernel peers' tests (make test's peer-check): the list against the adapters, every
 * kernel's answers over the shared sets explained by its declared rules and the exact judges,
 * each declared rule needed by some input (so that a wrong or missing rule is seen: the
 * classification can fail), and the peers' behaviours the docs name, pinned on inputs written
 * here by hand with the answers the libraries' sources give (not collide's). */
#include "kp_tally.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

/* Sanitized builds run a quarter of each set (the plain build runs them whole). */
#if defined(__SANITIZE_ADDRESS__)
#define SHARE 4
#else
#define SHARE 1
#endif

static const kp_kernel *named(const char *name) {
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  for (size_t i = 0; i < n; i++)
    if (strcmp(ks[i].name, name) == 0) return ks[i].impl ? &ks[i] : NULL;
  cr_assert_fail("no kernel %s in the list", name);
  return NULL;
}

Test(kernel_peers, list_matches_adapters) {
  cr_assert_str_empty(kp_check(), "%s", kp_check());
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  cr_assert_gt(n, 0);
  for (size_t i = 0; i < n; i++) {
    kp_rules r;
    const char *why = kp_rules_parse(ks[i].rules, &r);
    cr_expect_null(why, "%s: rules '%s': %s", ks[i].name, ks[i].rules, why ? why : "");
    for (size_t j = 0; j < i; j++)
      cr_expect_str_neq(ks[i].name, ks[j].name, "kernel %s listed twice", ks[i].name);
  }
  if (*kp_absent()) cr_log_warn("not installed, not tested:\n%s", kp_absent());
}

Test(kernel_peers, rules_parser_refuses) {
  kp_rules r;
  cr_expect_not_null(kp_rules_parse("touch=sideways", &r));
  cr_expect_not_null(kp_rules_parse("colour=red", &r));
  cr_expect_not_null(kp_rules_parse("touch=open,touch=open", &r));
  cr_expect_not_null(kp_rules_parse("skin", &r));
  cr_expect_null(kp_rules_parse("touch=open,skin=0.02", &r));
  cr_expect(r.open && r.skin == 0.02f);
}

/* Every difference over the shared sets is explained: by a declared rule, collide's error or the
 * accuracy band; the unexplained ones are printed with their inputs. */
Test(kernel_peers, every_difference_explained, .timeout = 240) {
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (ks[i].impl == NULL) continue;
    kp_rules r;
    cr_assert_null(kp_rules_parse(ks[i].rules, &r));
    for (int s = 0; s < KP_SETS; s++) {
      kp_tally t = {0};
      int shown = 0;
      for (uint32_t j = 0; j < kp_set_size((kp_set)s); j += SHARE) {
        const kp_item it = kp_input(ks[i].family, (kp_set)s, j);
        const kp_class c = kp_classify(ks[i].family, &r, &it, kp_peer_answer(ks[i].impl, &it));
        kp_tally_add(&t, &c, j);
        if (c.verdict == KP_UNEXPLAINED && shown++ < 3) {
          fprintf(stderr, "unexplained difference, set %s input %u:\n", kp_set_name((kp_set)s), j);
          kp_print_class(stderr, &ks[i], &it, &c);
        }
      }
      bad += t.unexplained;
      cr_expect_eq(t.unexplained, 0, "%s: %u unexplained differences in set %s", ks[i].name,
                   t.unexplained, kp_set_name((kp_set)s));
    }
  }
  cr_assert_eq(bad, 0);
}

/* Each declared rule explains some input of the shared sets (a rule declared for nothing fails
 * here). */
Test(kernel_peers, every_rule_needed, .timeout = 240) {
  const kp_kernel *ks;
  const size_t n = kp_kernels(&ks);
  for (size_t i = 0; i < n; i++) {
    if (ks[i].impl == NULL) continue;
    kp_rules r;
    cr_assert_null(kp_rules_parse(ks[i].rules, &r));
    for (int key = 0; key < KP_RULE_KEYS; key++) {
      if (!r.set[key]) continue;
      kp_set s;
      uint32_t at;
      cr_expect(kp_rule_witness(&ks[i], &r, (kp_rule_key)key, &s, &at),
                "%s: its rule %s explains no input of the shared sets that would otherwise be "
                "unexplained",
                ks[i].name, kp_rule_name((kp_rule_key)key));
    }
  }
}

/* A rule declared wrongly is seen: SDL's rectangles taken as closed, or Box2D's NaN compares as
 * collide's, leave differences unexplained (the fuzz self-test seeds the same kind of slip). */
Test(kernel_peers, wrong_rule_unexplained) {
  const struct {
    const char *kernel, *rules;
  } wrong[] = {{"sdl-box", "repr=xywh,empty=yes,nan=clip"},
               {"box2d-box", "-"},
               {"sdl-line", "invalid=any"},
               {"bullet-ray2", "zero=miss,invalid=any"}};
  for (size_t w = 0; w < sizeof wrong / sizeof wrong[0]; w++) {
    const kp_kernel *k = named(wrong[w].kernel);
    if (k == NULL) continue;
    kp_rules r;
    cr_assert_null(kp_rules_parse(wrong[w].rules, &r));
    uint32_t unexplained = 0;
    for (int s = 0; s < KP_SETS; s++)
      unexplained += kp_tally_set(k, &r, (kp_set)s, NULL, 0).unexplained;
    cr_expect_gt(unexplained, 0, "%s with rules %s: no difference unexplained", wrong[w].kernel,
                 wrong[w].rules);
  }
}

static kp_item boxes(float ax0, float ay0, float ax1, float ay1, float bx0, float by0, float bx1,
                     float by1) {
  kp_item it = {0};
  it.boxes.a = (col_aabb3){{ax0, ay0, 0}, {ax1, ay1, 0}};
  it.boxes.b = (col_aabb3){{bx0, by0, 0}, {bx1, by1, 0}};
  return it;
}

static bool peer_hit(const char *kernel, kp_item it) {
  const kp_kernel *k = named(kernel);
  if (k == NULL) return false;
  return kp_peer_answer(k->impl, &it).hit;
}

/* SDL's rectangles are open (touching ones do not intersect); Box2D's and Chipmunk's closed. */
Test(kernel_peers, touching_boxes) {
  const kp_item touching = boxes(0, 0, 1, 1, 1, 0, 2, 1);
  if (named("sdl-box")) cr_expect_not(peer_hit("sdl-box", touching));
  if (named("box2d-box")) cr_expect(peer_hit("box2d-box", touching));
  if (named("chipmunk-box")) cr_expect(peer_hit("chipmunk-box", touching));
}

/* A NaN coordinate: Box2D's b2TestOverlap and SDL count the box as overlapping (their compares
 * reject only on a true comparison), where collide's closed rule says no. */
Test(kernel_peers, nan_box_overlaps) {
  const kp_item far_nan = boxes(0, 0, NAN, 1, 50, 50, 60, 60);
  if (named("box2d-box"))
    cr_expect_not(peer_hit("box2d-box", far_nan), "y separates: b2TestOverlap says no");
  const kp_item nan_x = boxes(NAN, 0, NAN, 1, 50, 0, 60, 1);
  if (named("box2d-box")) cr_expect(peer_hit("box2d-box", nan_x));
  if (named("sdl-box")) cr_expect(peer_hit("sdl-box", nan_x));
  kp_item it = {0};
  it.boxes.a = (col_aabb3){{NAN, 0, 0}, {NAN, 1, 1}};
  it.boxes.b = (col_aabb3){{50, 0, 0}, {60, 1, 1}};
  if (named("bullet-box")) cr_expect(peer_hit("bullet-box", it));
  cr_expect_not(col_aabb3_overlap(it.boxes.a, it.boxes.b, COL_TOUCH_OVERLAPS));
}

static kp_item segbox(col_vec3 from, col_vec3 to, col_aabb3 box) {
  kp_item it = {0};
  it.segbox.from = from, it.segbox.to = to, it.segbox.box = box;
  return it;
}

/* SDL 2.26 clips a line to [x, x + w - 1] x [y, y + h - 1]: a vertical line at x = 1.5 through
 * the rectangle (0, 0, 2, 2) is not found. */
Test(kernel_peers, sdl_line_clip) {
  if (!named("sdl-line")) return;
  const kp_item it =
      segbox((col_vec3){1.5f, -1, 0}, (col_vec3){1.5f, 3, 0}, (col_aabb3){{0, 0, 0}, {2, 2, 0}});
  cr_expect_not(peer_hit("sdl-line", it));
  const kp_item in =
      segbox((col_vec3){0.5f, -1, 0}, (col_vec3){0.5f, 3, 0}, (col_aabb3){{0, 0, 0}, {2, 2, 0}});
  cr_expect(peer_hit("sdl-line", in));
}

/* Box2D's b2AABB::RayCast takes an axis with |d| < FLT_EPSILON as parallel: a segment 2^-25
 * long crossing the face x = 1 is missed. */
Test(kernel_peers, box2d_short_segment) {
  if (!named("box2d-ray")) return;
  const kp_item it = segbox((col_vec3){1 - 0x1p-26f, 0.5f, 0}, (col_vec3){1 + 0x1p-26f, 0.5f, 0},
                            (col_aabb3){{1, 0, 0}, {2, 1, 0}});
  cr_expect_not(peer_hit("box2d-ray", it));
  cr_expect(col_segment_aabb2((col_vec2){1 - 0x1p-26f, 0.5f}, (col_vec2){1 + 0x1p-26f, 0.5f},
                              (col_aabb2){{1, 0}, {2, 1}}, COL_TOUCH_OVERLAPS)
                .hit);
}

/* Bullet's btRayAabb2 is open at both ends: a segment ending exactly on a face is no hit. */
Test(kernel_peers, bullet_open_ends) {
  if (!named("bullet-ray2")) return;
  const col_aabb3 box = {{0, 0, 0}, {1, 1, 1}};
  cr_expect_not(
      peer_hit("bullet-ray2", segbox((col_vec3){-1, 0.5f, 0.5f}, (col_vec3){0, 0.5f, 0.5f}, box)));
  cr_expect(peer_hit("bullet-ray2",
                     segbox((col_vec3){-1, 0.5f, 0.5f}, (col_vec3){0.5f, 0.5f, 0.5f}, box)));
}

/* b2CollideCircles reports a contact for a NaN circle (its only test is distSqr > radius^2). */
Test(kernel_peers, box2d_nan_circle) {
  if (!named("box2d-circles")) return;
  kp_item it = {0};
  it.circles.a = (col_circle){{NAN, 0}, 1}, it.circles.b = (col_circle){{100, 0}, 1};
  cr_expect(peer_hit("box2d-circles", it));
  cr_expect_not(col_circle_overlap(it.circles.a, it.circles.b));
}
