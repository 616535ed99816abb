/*
 * cp_hotspot -- the frame-level, event-driven model of seed 001's
 * single-hop output-generated hotspot: N adapters, one N-port output-queued
 * switch, links of line rate and fixed delay, congestion points on every
 * output queue (cphs_cp), reaction points in every adapter (csim/cp/cp_rp).
 *
 * Modelling choices the seed leaves open (each also noted where it is coded):
 *  - time is integer picoseconds; events at equal times run in the order
 *    they were scheduled (cphs_evq), so a run is a pure function of its seed;
 *  - store-and-forward: a frame enters its output queue when its last bit
 *    has arrived (link delay after the adapter finished sending it);
 *  - a frame holds its input partition and counts in Q until its last bit
 *    has left the output; an output serves its queue FIFO at line rate, the
 *    hot output at hot_frac * line rate for frames that *start* inside the
 *    hotspot window;
 *  - adapter egress (seed 001: 150 KB, PAUSE at 150 KB - rtt*bw / -10 KB):
 *    a frame reaches its adapter's egress buffer one link delay after it
 *    left the output; the buffer drains as a fluid at the node's service rate
 *    (the hot node's is hot_frac during the hotspot) and PAUSEs the output
 *    feeding it; egress = 0 gives ideal sinks and a slow hot output instead;
 *  - PAUSE is per input, XOFF sent when the input's partition exceeds
 *    pause_hi after an arrival, XON when it falls below pause_lo after a
 *    departure, each reaching the adapter one link delay later; a paused
 *    adapter finishes the frame it is sending. A frame that finds its
 *    partition full is dropped (also with PAUSE on, where the 40 KB headroom
 *    makes it impossible at the default link delay);
 *  - adapters: one VOQ per destination holding floor(ingress/(N-1)/frame)
 *    frames; a frame generated for a full VOQ is not generated (selective
 *    source quench) and counted as lost offered load; the link is served
 *    round-robin over VOQs that are non-empty and allowed by their rate
 *    limiter; frames are sent back to back at line rate;
 *  - BCNs (queue-level and per-flow) reach the source adapter
 *    cp_latency + link_delay after the enqueue that triggered them; the
 *    adapter applies them to the rate limiter of the VOQ whose destination is
 *    the CP's port (single hop: CPID = output port = destination);
 *  - the CP's flow id is the frame's source node (unique among the frames of
 *    one output queue; 8 bits for N <= 256);
 *  - frames of a rate-limited flow carry the limiter's CPID tag; E2CM puts a
 *    probe on every probe_bytes of a limited flow, E2CM-CP on every
 *    probe_bytes of every flow (the CP in mode E2CM-CP answers every sample
 *    per flow anyway, docs/cp.md §7).
 */
#ifndef CPHS_SIM_H
#define CPHS_SIM_H

#include "cphs_params.h"
#include "cphs_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  cphs_stats_t stats;
  cphs_summary_t sum;
  char err[400];          /* first invariant violation or CP error; empty if none */
  char assert_label[128]; /* an RTL CP's assertion that failed (ends the run); empty if none */
  uint64_t assert_ps;     /* simulated time of the event it failed in */
} cphs_result_t;

/* Run one scenario. 0 when the run completed (r->err says whether its
 * invariants held), -1 if it could not be set up (message on stderr). */
int cphs_sim_run(const cphs_params_t *p, cphs_result_t *r);
void cphs_result_free(cphs_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
