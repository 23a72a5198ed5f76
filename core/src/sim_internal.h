/* Shared by the two simulations (sim.c: bouncing balls, sim_world.c: the platformer world): the
 * working memory kept between steps, and the candidate pairs as per-object neighbour lists. */
#ifndef COLLIDE_SIM_INTERNAL_H
#define COLLIDE_SIM_INTERNAL_H

#include "collide.h"
#include "sim_grid.h"

#include <math.h>

struct col__sim_scratch {
  col_pairs pairs;
  float *box[4];      /* candidate boxes: min x, min y, max x, max y */
  float *moved;       /* per object: distance moved so far in the step */
  uint8_t *wild_flag; /* per object: went past its limit in this step */
  uint32_t *wild;     /* the wild objects, ascending */
  size_t wild_count;
  bool all_wild;       /* too many wild objects: test every remaining pair */
  uint32_t *adj_start; /* world: neighbours of k are adj[adj_start[k] .. adj_start[k + 1]) */
  uint32_t *adj;
  size_t adj_capacity;
  /* World: grids of the grown boxes and of the wild entities' final boxes (both built when the
   * first entity of a step turns wild), and the partner list of the entity whose turn it is. */
  col__box_grid grown_grid, wild_grid;
  bool grids_ready; /* laid out and filled this step (at its first wild entity) */
  uint32_t *partners;
  size_t partner_count, partner_capacity;
};

struct col__sim_scratch *col__sim_scratch_new(size_t count);
void col__sim_scratch_free(struct col__sim_scratch *s);
bool col__sim_args_ok(col_sim_pairs pairing, col_broadphase algorithm);
/* Sorts a short neighbour row ascending. */
void col__sim_sort_row(uint32_t *v, size_t len);
/* Candidate pairs of the boxes in s->box as ascending neighbour lists: row k is
 * adj[adj_start[k] .. adj_start[k + 1]); pair (a, b) puts b in row a and, when `both`, a in
 * row b. Uses s->wild as cursors: call before marking anything wild. */
col_status col__sim_candidates(struct col__sim_scratch *s, size_t n, col_broadphase algorithm,
                               bool both);
/* Clears the wild flags of the previous step. */
void col__sim_wild_reset(struct col__sim_scratch *s);

static inline float col__maxf(float a, float b) { return a > b ? a : b; }
static inline float col__absf(float a) { return a < 0 ? -a : a; }
static inline float col__minf(float a, float b) { return a < b ? a : b; }

/* Wild objects past which every remaining pair is tested (sim.c; the sim fuzzer lowers it). */
extern size_t col__sim_wild_max;

#endif
