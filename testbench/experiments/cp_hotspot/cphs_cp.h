/*
 * cp_hotspot -- the congestion points, reached only through the co-simulation
 * target cp_exp (testbench/bind/cp.h): its C model (--mode=model) or its
 * Verilated RTL (--mode=rtl). Nothing else in the experiment sees the CP.
 *
 * One instance per switch output queue. Each queue event is one CP cycle
 * (an enqueue and a dequeue are never merged: they are separate events of the
 * frame-level simulation and get a cycle each); after an enqueue two idle
 * cycles let the 2-cycle pipeline (docs/cp.md §7, §10) put a BCN on
 * bcn_valid_o / fbcn_valid_o, which is collected here. A dequeue needs no
 * idle cycles: it never produces a BCN.
 */
#ifndef CPHS_CP_H
#define CPHS_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "cphs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cphs_cp cphs_cp_t;

typedef struct {
  bool valid;
  uint8_t type; /* 0 NEG, 1 POS, 2 MAX */
  uint8_t qntzfb;
  uint16_t dst;  /* node the message goes to (source of the sampled frame) */
  uint16_t flow; /* CP flow id (= source node in this experiment) */
  uint16_t cpid; /* queue-level only (per-flow messages carry no CPID port) */
} cphs_bcn_t;

typedef struct {
  cphs_bcn_t q; /* queue-level (ECM) */
  cphs_bcn_t f; /* per-flow (E2CM) */
} cphs_cp_fb_t;

typedef struct {
  uint64_t cycles;
  uint32_t frames, samples, neg, pos, max, fbcn, ft_full, errors; /* the CP's own counters */
  uint64_t ev_err, cfg_err, q_mismatch;                           /* seen by the harness */
} cphs_cp_counts_t;

/* Names of the CP model's planted bugs ([0] = "none", NULL-terminated). */
const char *const *cphs_cp_bug_names(void);
/* Create and configure the CP of output `port` (CPID = port; LFSR seed from
 * the run seed and the port). NULL after printing why. */
/* Whether this binary has cp_exp's RTL (the sanitizer build leaves the heavy target out). */
bool cphs_cp_has_rtl(void);
cphs_cp_t *cphs_cp_create(const cphs_params_t *p, unsigned port);
void cphs_cp_destroy(cphs_cp_t *c);
/* A frame enters the queue; q_after is the harness's occupancy after it
 * (checked against q_o). Any BCN the sample produced is returned in *fb. */
void cphs_cp_enq(cphs_cp_t *c, uint16_t len, uint16_t flow, uint16_t src, bool probe, bool tagged,
                 uint16_t tag_cpid, uint32_t q_after, cphs_cp_fb_t *fb);
/* A frame leaves the queue. */
void cphs_cp_deq(cphs_cp_t *c, uint16_t len, uint16_t flow);
void cphs_cp_counts(const cphs_cp_t *c, cphs_cp_counts_t *k);
/* FNV-1a digest of every output of every cycle (when params.digest). */
uint64_t cphs_cp_digest(const cphs_cp_t *c);
/* First problem seen (empty string if none). */
const char *cphs_cp_error(const cphs_cp_t *c);
/* The first RTL assertion that failed in this CP (its label; empty if none,
 * always for the C model), and the CP cycle it failed in. */
const char *cphs_cp_assert(const cphs_cp_t *c, uint64_t *cp_cycle);

#ifdef __cplusplus
}
#endif
#endif
