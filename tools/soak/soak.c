/* The incremental broadphase cache over a long run: frames of the moving scene (a tenth of the
 * boxes move each frame) through col_broadphase_cache_update_moved, once per kept algorithm
 * (tree, sweep and prune, the kept grid), with the pairs compared against brute force every few
 * frames. It fails when memory grows (peak RSS, or the bytes the cache reports holding) or the
 * per-frame time drifts between the first and the last window of frames. Usage in README.md
 * ("Soak test") and `make help`; the options are read from the command line:
 *   soak FRAMES BOXES CHECK_EVERY RSS_SLACK_KB DRIFT [--selftest-leak|-slow|-pairs]
 * The hidden --selftest-* options seed a fault (a per-frame leak, a per-frame slowdown, a
 * dropped pair) so that `make soak-selftest` shows each check can fail. */
#define _POSIX_C_SOURCE 200809L
#include "bench_scenes.h"
#include "collide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ALGOS = 3 };
static const col_broadphase algo_of[ALGOS] = {COL_BROADPHASE_TREE, COL_BROADPHASE_SAP,
                                              COL_BROADPHASE_GRID};
static const char *const algo_name[ALGOS] = {"tree", "sap", "grid"};

typedef struct run {
  col_broadphase_cache *cache;
  col_pairs pairs;
  double *first, *last;     /* per-frame ns of the first and last windows */
  double interval_ns;       /* summed since the last progress line */
  uint64_t bytes_first_max; /* the cache's reported bytes: peak over the first window */
  uint64_t bytes_end, bytes_max;
  uint64_t pairs_first, pairs_end;
} run;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* VmRSS and VmHWM (peak RSS) in KB, from /proc/self/status; 0 when unreadable. */
static void rss_kb(long *rss, long *hwm) {
  *rss = *hwm = 0;
  FILE *f = fopen("/proc/self/status", "r");
  if (f == NULL) return;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmRSS:", 6) == 0) *rss = strtol(line + 6, NULL, 10);
    if (strncmp(line, "VmHWM:", 6) == 0) *hwm = strtol(line + 6, NULL, 10);
  }
  fclose(f);
}

/* The moving scene's boxes walk at random, so over a million frames the scene would spread
 * out (at 1,024 boxes its pairs fall from about 200 to under 20) and the last frames would
 * time an emptier scene than the first. A moved box whose centre leaves the first frame's
 * range is put back by that range's width on the axis: the density stays that of the start
 * (the box jumps across the scene, one more move for the cache to follow). */
static void wrap(bench_scene *s, const uint32_t *moved, size_t m, const float lo[2],
                 const float hi[2]) {
  for (size_t k = 0; k < m; k++)
    for (int a = 0; a < 2; a++) {
      const uint32_t i = moved[k];
      const float c = 0.5f * (s->v[a][i] + s->v[3 + a][i]), w = hi[a] - lo[a];
      const float d = c < lo[a] ? w : c > hi[a] ? -w : 0.0f;
      s->v[a][i] += d, s->v[3 + a][i] += d;
    }
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median (sorts the window in place): robust to the other loads of a shared machine. */
static double median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int fail(const char *what) {
  fprintf(stderr, "soak: FAILED: %s\n", what);
  return 1;
}

static bool same_pairs(col_pairs *got, const col_pairs *want) {
  col_pairs_sort(got);
  return got->count == want->count &&
         (got->count == 0 || memcmp(got->data, want->data, got->count * sizeof(col_pair)) == 0);
}

static long arg_long(const char *s, const char *name, long lo) {
  char *end;
  const long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo) {
    fprintf(stderr, "soak: %s=%s: expected an integer >= %ld\n", name, s, lo);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 6 || argc > 7) {
    fprintf(stderr, "usage: soak FRAMES BOXES CHECK_EVERY RSS_SLACK_KB DRIFT\n");
    return 2;
  }
  const size_t frames = (size_t)arg_long(argv[1], "SOAK_FRAMES", 100);
  const size_t n = (size_t)arg_long(argv[2], "SOAK_BOXES", 10);
  const size_t check_every = (size_t)arg_long(argv[3], "SOAK_CHECK_EVERY", 1);
  const long slack_kb = arg_long(argv[4], "SOAK_RSS_SLACK_KB", 0);
  const double drift = strtod(argv[5], NULL);
  if (!(drift >= 1.0)) {
    fprintf(stderr, "soak: SOAK_DRIFT=%s: expected a factor >= 1\n", argv[5]);
    return 2;
  }
  const char *seed = argc == 7 ? argv[6] : "";
  const bool leak = strcmp(seed, "--selftest-leak") == 0,
             slow = strcmp(seed, "--selftest-slow") == 0,
             drop = strcmp(seed, "--selftest-pairs") == 0;
  if (*seed && !leak && !slow && !drop) {
    fprintf(stderr, "soak: unknown option %s\n", seed);
    return 2;
  }
  /* The windows whose figures are compared: the first and the last 1% of the frames (at
   * least 100); memory is measured once the first window is done. */
  const size_t window = frames / 100 > 100 ? frames / 100 : 100;
  const size_t progress_every = frames / 20 ? frames / 20 : 1;

  bench_scene scene = {0};
  bench_scene_fill(&scene, SCENE_MOVING, n);
  uint32_t *moved = bench_alloc((n / 10 + 1) * sizeof *moved);
  uint64_t rng = 0x50a4;
  /* The range of the first frame's centres: wandering boxes are wrapped back into it. */
  float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 2; k++) {
      const float c = 0.5f * (scene.v[k][i] + scene.v[3 + k][i]);
      lo[k] = c < lo[k] ? c : lo[k], hi[k] = c > hi[k] ? c : hi[k];
    }
  col_pairs brute = {0};
  run runs[ALGOS] = {0};
  for (int a = 0; a < ALGOS; a++) {
    if (col_broadphase_cache_create(&runs[a].cache) != COL_OK ||
        col_broadphase_cache_set_algorithm(runs[a].cache, algo_of[a]) != COL_OK)
      return fail("creating the cache");
    runs[a].first = bench_alloc(window * sizeof(double));
    runs[a].last = bench_alloc(window * sizeof(double));
  }
  printf("soak: %zu frames of the moving scene, %zu boxes (a tenth move per frame), caches: "
         "tree, sap (listed update); brute force every %zu frames; windows of %zu frames\n",
         frames, n, check_every, window);
  fflush(stdout);

  long rss0 = 0, hwm0 = 0, rss, hwm;
  size_t checks = 0;
  const double t0 = now_ns();
  volatile unsigned char sink = 0;
  for (size_t f = 0; f < frames; f++) {
    /* Frame 0 is the scene as filled: every box is read (first update). */
    const size_t m = f ? bench_scene_step(&scene, &rng, f, moved, NULL) : 0;
    wrap(&scene, moved, m, lo, hi);
    const col_boxes boxes = bench_scene_boxes(&scene);
    const bool check = f % check_every == 0 || f + 1 == frames;
    if (check && col_broadphase_pairs(COL_BROADPHASE_BRUTE, &boxes, COL_TOUCH_OVERLAPS, &brute,
                                      NULL) != COL_OK)
      return fail("brute force returned an error");
    if (check) col_pairs_sort(&brute), checks++;
    for (int a = 0; a < ALGOS; a++) {
      run *r = &runs[a];
      col_broadphase_stats st;
      const double s = now_ns();
      const col_status cs = col_broadphase_cache_update_moved(r->cache, &boxes, moved, m,
                                                              COL_TOUCH_OVERLAPS, &r->pairs, &st);
      if (slow) { /* seeded: the update's time grows to 4x over the run */
        const double u = now_ns() - s;
        while (now_ns() - s < u * (1.0 + 3.0 * (double)f / (double)frames))
          ;
      }
      const double dt = now_ns() - s;
      if (cs != COL_OK) return fail("the cache's update returned an error");
      if (f < window) r->first[f] = dt;
      if (f >= frames - window) r->last[f - (frames - window)] = dt;
      r->interval_ns += dt;
      if (f < window && st.scratch_bytes > r->bytes_first_max)
        r->bytes_first_max = st.scratch_bytes;
      if (st.scratch_bytes > r->bytes_max) r->bytes_max = st.scratch_bytes;
      r->bytes_end = st.scratch_bytes, r->pairs_end = r->pairs.count;
      if (f + 1 == window) r->pairs_first = r->pairs.count;
      if (drop && check && f >= frames / 2 && r->pairs.count) r->pairs.count--; /* seeded */
      if (check && !same_pairs(&r->pairs, &brute)) {
        fprintf(stderr, "soak: frame %zu: the %s cache has %zu pairs, brute force %zu%s\n", f,
                algo_name[a], r->pairs.count, brute.count,
                r->pairs.count == brute.count ? " (different pairs)" : "");
        return fail("the cache's pairs differ from brute force");
      }
    }
    if (leak) { /* seeded: 1 KB a frame kept and touched */
      unsigned char *p = malloc(1024);
      if (p) memset(p, (int)f, 1024), sink ^= p[f % 1024];
    }
    if (f + 1 == window) {
      rss_kb(&rss0, &hwm0);
      printf("soak: after the first window (%zu frames): RSS %ld KB, peak RSS %ld KB\n", window,
             rss0, hwm0);
    }
    if ((f + 1) % progress_every == 0 || f + 1 == frames) {
      const double t = now_ns(), el = (t - t0) * 1e-9;
      const size_t since = f + 1 < progress_every ? f + 1 : progress_every;
      rss_kb(&rss, &hwm);
      printf("soak: %8zu frames  %7.1f s  ETA %6.1f s  ns/frame tree %7.0f sap %7.0f  RSS %ld KB\n",
             f + 1, el, el / (double)(f + 1) * (double)(frames - f - 1),
             runs[0].interval_ns / (double)since, runs[1].interval_ns / (double)since, rss);
      fflush(stdout);
      runs[0].interval_ns = runs[1].interval_ns = 0;
    }
  }
  const double total_s = (now_ns() - t0) * 1e-9;
  rss_kb(&rss, &hwm);

  /* The verdicts. Memory: the peak RSS at the end may exceed the peak after the first window
   * by the slack only; the cache's reported bytes at their peak by a quarter (+ 64 KB) over
   * the first window's peak (the pair list follows the pair count, which varies from frame to
   * frame). Time: each window's median per-frame time, the last within DRIFT x the first. */
  int bad = 0;
  printf("soak: summary after %zu frames in %.1f s (%zu brute-force checks, every one exact)\n",
         frames, total_s, checks);
  printf("soak:   peak RSS %ld KB after the first window, %ld KB at the end (bound: +%ld KB); "
         "RSS now %ld KB\n",
         hwm0, hwm, slack_kb, rss);
  if (hwm > hwm0 + slack_kb) bad |= fail("peak RSS grew past the bound");
  for (int a = 0; a < ALGOS; a++) {
    run *r = &runs[a];
    const double m0 = median(r->first, window), m1 = median(r->last, window);
    const uint64_t bound = r->bytes_first_max + r->bytes_first_max / 4 + 65536;
    printf("soak:   %-4s median ns/frame first window %.0f, last %.0f (x%.2f, bound x%.2f); "
           "cache bytes first window %llu, end %llu, peak %llu (bound %llu); pairs after the "
           "first window %llu, at the end %llu\n",
           algo_name[a], m0, m1, m1 / m0, drift, (unsigned long long)r->bytes_first_max,
           (unsigned long long)r->bytes_end, (unsigned long long)r->bytes_max,
           (unsigned long long)bound, (unsigned long long)r->pairs_first,
           (unsigned long long)r->pairs_end);
    if (m1 > drift * m0) bad |= fail("the per-frame time drifted past the bound");
    if (r->bytes_max > bound) bad |= fail("the cache's reported memory grew past the bound");
    col_broadphase_cache_destroy(r->cache);
    col_pairs_free(&r->pairs);
    free(r->first), free(r->last);
  }
  col_pairs_free(&brute);
  free(moved);
  bench_scene_free(&scene);
  if (!bad) printf("soak: ok\n");
  return bad;
}
