/* 1-bit mask overlap template (col_mask_overlap, mask.c): COL_Q = W / 2 words of 64 pixels at
 * a time. b's words are shifted onto a's word grid with two unaligned loads (words k and
 * k + 1, the masks' guard words keep both in bounds) and one shift each, ANDed with a's
 * words; the overlap's edge columns are kept by the window's first/last masks, applied to the
 * first and the last chunk of a row. The first hit is the first non-zero chunk (rows in
 * order, its lowest set bit); the count is a branch-free per-lane popcount sum, started at
 * the first hit as in the sprite template. */
#ifndef COLLIDE_SIMD_MASK_H
#define COLLIDE_SIMD_MASK_H

#define COL_Q (COL_W / 2)

typedef struct mask_plan {
  size_t chunks, full; /* chunks per row; how many of them hold COL_Q words */
  vq head, end;        /* the edge masks of chunk 0 and of chunk chunks - 1 */
} mask_plan;

/* a's words ANDed with b's words k and k + 1 shifted onto a's grid. */
COL_INLINE vq mask_bits(vq a, vq b, vq b_next, unsigned shift) {
  return vq_and(a, vq_or(vq_srl(b, shift), vq_sll(b_next, 64u - shift)));
}

COL_INLINE vq mask_chunk(const uint64_t *a, const uint64_t *b, unsigned shift) {
  return mask_bits(vq_loadu(a), vq_loadu(b), vq_loadu(b + 1), shift);
}

#ifndef COL_HAVE_LOADU_N
/* n (< COL_Q) words into the low lanes, zeros above, reading nothing past p[n - 1]. An ISA
 * with fault-suppressing masked loads defines its own (COL_HAVE_LOADU_N). */
COL_INLINE vq vq_loadu_n(const uint64_t *p, size_t n) {
  uint64_t t[COL_Q];
  for (size_t k = 0; k < COL_Q; k++) t[k] = k < n ? p[k] : 0;
  return vq_loadu(t);
}
#endif

/* The last n (< COL_Q) words of a row: nothing past the row (b: past its word n) is read. */
COL_INLINE vq mask_tail(const uint64_t *a, const uint64_t *b, size_t n, unsigned shift) {
  return mask_bits(vq_loadu_n(a, n), vq_loadu_n(b, n), vq_loadu_n(b + 1, n), shift);
}

/* Word k's edge mask: first/last columns, nothing past the last word. */
COL_INLINE uint64_t edge_mask(const col_mask_window *w, size_t k) {
  if (k >= w->words) return 0;
  return (k == 0 ? w->first : ~(uint64_t)0) & (k + 1 == w->words ? w->last : ~(uint64_t)0);
}

COL_INLINE mask_plan plan_of(const col_mask_window *w) {
  mask_plan p;
  p.chunks = (w->words + COL_Q - 1) / COL_Q;
  p.full = w->words / COL_Q;
  uint64_t head[COL_Q], end[COL_Q];
  for (size_t l = 0; l < COL_Q; l++) {
    head[l] = edge_mask(w, l);
    end[l] = edge_mask(w, (p.chunks - 1) * COL_Q + l);
  }
  p.head = vq_loadu(head);
  p.end = vq_loadu(end);
  return p;
}

COL_INLINE vq row_chunk(const col_mask_window *w, const mask_plan *p, size_t row, size_t c) {
  const uint64_t *a = w->a + row * w->a_stride + c * COL_Q;
  const uint64_t *b = w->b + row * w->b_stride + c * COL_Q;
  vq v = c < p->full ? mask_chunk(a, b, w->shift) : mask_tail(a, b, w->words - c * COL_Q, w->shift);
  if (c == 0) v = vq_and(v, p->head);
  if (c + 1 == p->chunks) v = vq_and(v, p->end);
  return v;
}

/* Colliding pixels from chunk c of `row` to the end of the window. */
COL_INLINE uint64_t mask_count_from(const col_mask_window *w, const mask_plan *p, size_t row,
                                    size_t c) {
  vq sum = vq_zero();
  for (; row < w->height; row++, c = 0)
    for (; c < p->chunks; c++) sum = vq_add(sum, vq_popcnt(row_chunk(w, p, row, c)));
  uint64_t lanes[COL_Q], total = 0;
  vq_storeu(lanes, sum);
  for (size_t l = 0; l < COL_Q; l++) total += lanes[l];
  return total;
}

static col_window_hit simd_mask_overlap(const col_mask_window *w, col_pixel_mode mode) {
  const mask_plan p = plan_of(w);
  col_window_hit r = {false, 0, 0, 0};
  for (size_t row = 0; row < w->height; row++) {
    for (size_t c = 0; c < p.chunks; c++) {
      const vq v = row_chunk(w, &p, row, c);
      if (!vq_any(v)) continue;
      uint64_t lanes[COL_Q];
      vq_storeu(lanes, v);
      size_t l = 0;
      while (lanes[l] == 0) l++;
      r.hit = true;
      r.col = (c * COL_Q + l) * 64 + (size_t)__builtin_ctzll(lanes[l]);
      r.row = row;
      r.count = mode == COL_PIXEL_FIRST ? 1 : mask_count_from(w, &p, row, c);
      return r;
    }
  }
  return r;
}

#endif
