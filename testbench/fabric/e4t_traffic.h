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
 *               (the hot node itself always sends uniformly);
 *   bitrev      node i -> i with its log2(N) address bits reversed;
 *   transpose   node i -> i with the high and low halves of its address bits
 *               swapped (N = 4^k: 4, 16, 64, 256);
 *               (bitrev, transpose: the usual permutations of interconnect
 *               studies, e.g. Dally & Towles ch. 3; a node that maps to
 *               itself sends nothing, its draws are still made)
 *   bursty      on/off sources: a burst is a geometric number of packets (mean
 *               `burst`) to one uniformly drawn destination, one packet every
 *               L cycles (back to back at the link's rate); between bursts a
 *               new one starts in each cycle with probability q chosen so the
 *               mean offered load is `load`: a burst of B packets lasts
 *               (B - 1) L + 1 cycles, so 1 / q = B L / load - (B - 1) L - 1
 *               (the usual two-state Markov-modulated source, e.g. Dally &
 *               Towles §24.2; not in the seeds);
 *   replay      a trace file (e4t_trace_load): each node sends exactly the
 *               messages listed for it, at their cycles; --load is not used.
 * Each node draws from its own stream (seeded from the run's seed), so the
 * traffic is the same whatever the switches are (model or RTL). */
#ifndef E4T_TRAFFIC_H
#define E4T_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  E4T_UNIFORM = 0,
  E4T_COMPLEMENT,
  E4T_HOTSPOT,
  E4T_BITREV,
  E4T_TRANSPOSE,
  E4T_REPLAY,
  E4T_BURSTY
} e4t_pattern_t;

/* A bursty source's state. */
typedef struct {
  bool on;
  unsigned wait; /* cycles to the burst's next packet */
  unsigned dst;
} e4t_burst_t;

/* A trace's messages of one source node, in cycle order, and the next one to send. */
typedef struct {
  uint32_t *cycle, *dst;
  uint32_t n, cap, next;
} e4t_trace_node_t;
typedef struct {
  e4t_trace_node_t *node; /* [nodes] */
  unsigned nodes;
  uint64_t messages;
} e4t_trace_t;

/* The trace file format (docs/elite4.md §11.3): text, one message per line,
 * `CYCLE SRC DST` (decimal, separated by blanks); `#` starts a comment,
 * blank lines are skipped; 0 <= CYCLE < cycles (the injection window),
 * SRC, DST < nodes, SRC != DST, and each source's cycles strictly increase
 * (a node creates at most one packet per cycle). Every message is one packet
 * of the run's length. 0, or -1 with "FILE:LINE: field ...: why" in err. */
int e4t_trace_load(e4t_trace_t *t, const char *path, unsigned nodes, uint64_t cycles, char *err, size_t len);
void e4t_trace_free(e4t_trace_t *t);

typedef struct {
  e4t_pattern_t pattern;
  unsigned nodes;
  double p_pkt; /* packets per node per cycle = load / L */
  double hot_frac;
  unsigned hot_node;
  e4t_trace_t *trace; /* replay */
  e4t_burst_t *burst; /* bursty: [nodes] */
  double burst_len;   /* bursty: mean packets per burst */
  unsigned flits;     /* bursty: L, the cycles between a burst's packets */
  bool skew; /* planted (fab_traffic_skew): node 1's permutation partner and node 0's last message wrong */
} e4t_traffic_t;

const char *e4t_pattern_name(e4t_pattern_t p);
int e4t_pattern_parse(const char *s, e4t_pattern_t *p); /* 0 or -EINVAL */
/* The destination of node src's next packet, or -1: no packet this cycle.
 * Called once per node per cycle of the injection window, in cycle order. */
int e4t_traffic_next(e4t_traffic_t *t, unsigned src, uint64_t cycle, cosim_rng_t *rng);

#ifdef __cplusplus
}
#endif
#endif
