/*
 * cp_hotspot -- the sources: per node, when the next frame is generated and
 * to which destination. Uniform destinations over all nodes but self.
 *
 * Time is divided into frame slots (frame bytes at line rate: 1.2 us for
 * 1500 B at 10 Gb/s); each node's slot grid has its own random phase so that
 * nodes are not artificially synchronised.
 *  - Bernoulli: i.i.d. per slot, a frame with probability load, each to an
 *    independent destination. The gap to the next frame is drawn directly
 *    (geometric), so there is one event per frame, not per slot.
 *  - Bursty: on/off. A burst is a geometric number of back-to-back frames,
 *    mean burst_us / slot (>= 1), all to one destination; the idle gap
 *    between bursts is geometric on {0, 1, ...} slots with mean
 *    mean_burst * (1 - load) / load, so the average load is the same.
 * Randomness: one xoshiro256** stream per node (testbench/rng.c), seeded from
 * (run seed, node), so a node's traffic does not depend on the CM scheme.
 */
#ifndef CPHS_TRAFFIC_H
#define CPHS_TRAFFIC_H

#include <stdint.h>

#include "cosim.h"
#include "cphs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  cosim_rng_t rng;
  uint32_t burst_left; /* frames left in the current burst (bursty) */
  uint16_t dst;        /* current burst's destination */
} cphs_src_t;

typedef struct {
  unsigned n;
  uint64_t slot_ps;
  double load;
  int bursty;
  double mean_burst;  /* frames */
  double p_burst_end; /* per frame: burst ends after it */
  double p_gap_end;   /* per idle slot: gap ends */
  cphs_src_t *src;
} cphs_traffic_t;

int cphs_traffic_init(cphs_traffic_t *t, const cphs_params_t *p);
void cphs_traffic_free(cphs_traffic_t *t);
/* Time of node i's first frame. */
uint64_t cphs_traffic_first(cphs_traffic_t *t, unsigned i);
/* A frame is generated at node i at time now: its destination, and the time
 * of the node's next frame. */
uint16_t cphs_traffic_frame(cphs_traffic_t *t, unsigned i, uint64_t now, uint64_t *next);

#ifdef __cplusplus
}
#endif
#endif
