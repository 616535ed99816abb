/* cp_hotspot -- sources. See cphs_traffic.h. */
#include "cphs_traffic.h"

#include <math.h>
#include <stdlib.h>

/* Uniform in (0, 1]: never 0, so log() is finite. */
static double unif(cosim_rng_t *r) { return ((double)(cosim_rng_u64(r) >> 11) + 1.0) * 0x1.0p-53; }

/* Number of failures before the first success, success probability p. */
static uint64_t geom0(cosim_rng_t *r, double p) {
  if (p >= 1.0) return 0;
  double k = floor(log(unif(r)) / log1p(-p));
  return k > 1e15 ? (uint64_t)1e15 : (uint64_t)k;
}

static uint16_t pick_dst(cphs_traffic_t *t, unsigned i) {
  uint32_t d = cosim_rng_below(&t->src[i].rng, t->n - 1);
  return (uint16_t)(d >= i ? d + 1 : d);
}

int cphs_traffic_init(cphs_traffic_t *t, const cphs_params_t *p) {
  t->n = p->n;
  t->slot_ps = (uint64_t)llround((double)p->frame * 8e12 / p->rlink);
  t->load = p->load;
  t->bursty = p->arr == CPHS_ARR_BURSTY;
  /* Mean burst in frames; B = 1.2 us at 1500 B / 10 Gb/s is one frame, the
     * degenerate burst (then only the gaps are random). */
  t->mean_burst = (double)p->burst_us * 1e6 / (double)t->slot_ps;
  if (t->mean_burst < 1.0) t->mean_burst = 1.0;
  t->p_burst_end = 1.0 / t->mean_burst;
  double mean_gap = t->mean_burst * (1.0 - p->load) / p->load;
  t->p_gap_end = 1.0 / (1.0 + mean_gap);
  t->src = calloc(p->n, sizeof *t->src);
  if (!t->src) return -1;
  for (unsigned i = 0; i < p->n; i++) {
    /* Distinct, seed-determined stream per node. */
    cosim_rng_seed(&t->src[i].rng, p->seed * 0x9e3779b97f4a7c15ull + 0x51ed270b27ull * (i + 1));
  }
  return 0;
}

void cphs_traffic_free(cphs_traffic_t *t) {
  free(t->src);
  t->src = NULL;
}

uint64_t cphs_traffic_first(cphs_traffic_t *t, unsigned i) {
  cphs_src_t *s = &t->src[i];
  uint64_t phase = cosim_rng_u64(&s->rng) % t->slot_ps;
  uint64_t k;
  if (t->bursty) {
    /* start in a gap, as if the previous burst just ended */
    k = geom0(&s->rng, t->p_gap_end);
    s->burst_left = 0;
  } else {
    k = geom0(&s->rng, t->load);
  }
  return phase + k * t->slot_ps;
}

uint16_t cphs_traffic_frame(cphs_traffic_t *t, unsigned i, uint64_t now, uint64_t *next) {
  cphs_src_t *s = &t->src[i];
  if (!t->bursty) {
    *next = now + (1 + geom0(&s->rng, t->load)) * t->slot_ps;
    return pick_dst(t, i);
  }
  if (s->burst_left == 0) {
    s->dst = pick_dst(t, i);
    s->burst_left = (uint32_t)(1 + geom0(&s->rng, t->p_burst_end));
  }
  uint16_t d = s->dst;
  if (--s->burst_left)
    *next = now + t->slot_ps;
  else
    *next = now + (1 + geom0(&s->rng, t->p_gap_end)) * t->slot_ps;
  return d;
}
