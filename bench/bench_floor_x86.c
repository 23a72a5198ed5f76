/* The floor's passes on x86 (bench_floor.h), in SSE2, the x86-64 baseline: no flags of its own.
 * Why non-temporal stores: a plain store to a line not in the cache first reads the line
 * (read for ownership), so writing 150 MB of pairs moves 300 MB over the memory bus; a
 * non-temporal store (movntdq) fills a write-combining buffer and sends whole lines without
 * reading them (U. Drepper, "What Every Programmer Should Know About Memory", 2007, 6.1
 * "Bypassing the Cache"; Intel 64 and IA-32 Architectures Optimization Reference Manual, on
 * streaming stores). Both rows store 16 bytes at a time, four to a line, so the two differ
 * only in the store instruction. */
#include "bench_floor.h"

#if BENCH_FLOOR_X86
#include <emmintrin.h>
#include <math.h>

const char *const bench_floor_stream_kind = "non-temporal stores (SSE2 movntdq) and sfence";

float bench_floor_read(const col_boxes *boxes) {
  /* Two accumulators a side, so the loop is bound by its loads, not by min's latency. */
  __m128 lo0 = _mm_set1_ps(INFINITY), lo1 = lo0, hi0 = _mm_set1_ps(-INFINITY), hi1 = hi0;
  float lo = INFINITY, hi = -INFINITY;
  const size_t n = boxes->count;
  for (unsigned k = 0; k < boxes->dims; k++) {
    const float *mn = boxes->min[k], *mx = boxes->max[k];
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      lo0 = _mm_min_ps(lo0, _mm_loadu_ps(mn + i));
      lo1 = _mm_min_ps(lo1, _mm_loadu_ps(mn + i + 4));
      hi0 = _mm_max_ps(hi0, _mm_loadu_ps(mx + i));
      hi1 = _mm_max_ps(hi1, _mm_loadu_ps(mx + i + 4));
    }
    for (; i < n; i++) {
      lo = mn[i] < lo ? mn[i] : lo;
      hi = mx[i] > hi ? mx[i] : hi;
    }
  }
  float l[4], h[4];
  _mm_storeu_ps(l, _mm_min_ps(lo0, lo1));
  _mm_storeu_ps(h, _mm_max_ps(hi0, hi1));
  for (int j = 0; j < 4; j++) {
    lo = l[j] < lo ? l[j] : lo;
    hi = h[j] > hi ? h[j] : hi;
  }
  return hi - lo;
}

/* One run of `lines` 64-byte lines of pairs (a, a + 1) from a = 0, four 16-byte stores a line;
 * `stream` is a constant in each caller's copy once inlined. */
static inline __attribute__((always_inline)) void write_run(__m128i *p, size_t lines, bool stream) {
  const __m128i four = _mm_set1_epi32(4);
  __m128i v = _mm_setr_epi32(0, 1, 1, 2), w = _mm_setr_epi32(2, 3, 3, 4);
  for (size_t i = 0; i < lines; i++, p += 4) {
    const __m128i v2 = _mm_add_epi32(v, four), w2 = _mm_add_epi32(w, four);
    if (stream) {
      _mm_stream_si128(p, v), _mm_stream_si128(p + 1, w);
      _mm_stream_si128(p + 2, v2), _mm_stream_si128(p + 3, w2);
    } else {
      _mm_store_si128(p, v), _mm_store_si128(p + 1, w);
      _mm_store_si128(p + 2, v2), _mm_store_si128(p + 3, w2);
    }
    v = _mm_add_epi32(v2, four), w = _mm_add_epi32(w2, four);
  }
}

void bench_floor_write(col_pair *out, size_t count, uint32_t n, bool stream) {
  /* Runs of whole lines (8 pairs each) with every index below n: a < n - 1, so b < n too. */
  const size_t run = n > 8 ? (size_t)(n - 1) / 8 : 0; /* lines per run */
  size_t k = 0;
  while (run > 0 && count - k >= 8) {
    const size_t lines = (count - k) / 8 < run ? (count - k) / 8 : run;
    if (stream)
      write_run((__m128i *)(void *)(out + k), lines, true);
    else
      write_run((__m128i *)(void *)(out + k), lines, false);
    k += lines * 8;
  }
  for (uint32_t a = 0; k < count; k++, a++) out[k] = (col_pair){a % (n - 1), a % (n - 1) + 1};
  /* Non-temporal stores are weakly ordered: the fence makes them visible before what follows,
   * as a broadphase's caller would need before reading its pairs. */
  if (stream) _mm_sfence();
}

#else
/* Not x86: bench_floor.c's plain C stands in. */
typedef int bench_floor_x86_unused;
#endif
