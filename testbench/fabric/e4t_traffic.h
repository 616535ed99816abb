/* elite4 fabric traffic: who sends to whom, and when.
 *
 * Every node creates packets as a Bernoulli process: in each cycle of the
 * injection window, one packet of L flits with probability load / L, so the
 * offered load is `load` flits per node per cycle (HEAD, BODY and TAIL
 * flits; tokens are not counted). Destinations:
 *   uniform     any other node, uniformly;
 *   complement  node i -> N - 1 - i (seed 004, Fig. 8b: every packet crosses
 *               the bisection);
 *   hotspot     the hot node with probability hot_frac, otherwise uniform
 *               (the hot node itself always sends uniformly).
 * Each node draws from its own stream (seeded from the run's seed), so the
 * traffic is the same whatever the switches are (model or RTL). */
#ifndef E4T_TRAFFIC_H
#define E4T_TRAFFIC_H

#include <stdbool.h>

#include "cosim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { E4T_UNIFORM = 0, E4T_COMPLEMENT, E4T_HOTSPOT } e4t_pattern_t;

typedef struct {
  e4t_pattern_t pattern;
  unsigned nodes;
  double p_pkt; /* packets per node per cycle = load / L */
  double hot_frac;
  unsigned hot_node;
} e4t_traffic_t;

const char *e4t_pattern_name(e4t_pattern_t p);
int e4t_pattern_parse(const char *s, e4t_pattern_t *p); /* 0 or -EINVAL */

/* The destination of node src's next packet, or -1: no packet this cycle. */
int e4t_traffic_next(const e4t_traffic_t *t, unsigned src, cosim_rng_t *rng);

#ifdef __cplusplus
}
#endif
#endif
