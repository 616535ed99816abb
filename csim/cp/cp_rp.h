/*
 * cp_rp -- reaction point: the per-flow rate limiters of a source adapter,
 * driven by the BCN messages of congestion points. Spec: docs/cp.md §9.
 *
 * C only (there is no RTL reaction point). One cp_rp_t serves one adapter;
 * a flow is an index 0..n_flows-1 chosen by the caller (the experiment uses
 * the destination node, i.e. the adapter's VOQ). Time is integer picoseconds,
 * rates are bits per second.
 *
 * Laws (|Fb| reconstructed from the 6-bit QntzFb, §9):
 *   negative (NEG, MAX):  R <- max(Rmin,  R * (1 - Gd * |Fb|))
 *   positive (POS):       R <- min(Rlink, R + Gi * |Fb| * Runit)
 *   |Fb| = QntzFb * (2W+1) * Qeq / 63        (Qeq,flow for per-flow feedback)
 * A limiter is created (at R = Rlink) by the first negative BCN for a flow
 * and released when R is back at Rlink.
 */
#ifndef CP_RP_H
#define CP_RP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BCN type, as on the CP's bcn_type_o / fbcn_type_o. */
enum { CP_RP_NEG = 0, CP_RP_POS = 1, CP_RP_MAX = 2 };

/* Which feedback loop a message belongs to: the queue-level (ECM) BCN of a
 * CP, or the per-flow (E2CM) answer to a probe. They use different gains. */
enum { CP_RP_QUEUE = 0, CP_RP_FLOW = 1 };

typedef struct {
  unsigned w;        /* W, 0..15 (seed: 2) */
  uint32_t qeq;      /* Qeq bytes (seed: 75 KB = 76800) */
  uint32_t qeq_flow; /* Qeq,flow bytes (seed: 15 KB = 15360) */
  double rlink;      /* link rate, b/s (10e9) */
  double runit;      /* rate unit of the increase law, b/s (1e6) */
  double rmin;       /* floor of a limited rate, b/s (1e6) */
  /* Gain scales: Gd = gd_k/((2W+1)Qeq), Gi = gi_k*(Rlink/Runit)/((2W+1)Qeq),
     * and the same with Qeq,flow for per-flow feedback. Seed: 0.5, 0.1, 0.5, 0.005. */
  double gd_k, gi_k, gd_flow_k, gi_flow_k;
  /* Token-bucket depth in bytes: how far a limited flow may run ahead of its
     * rate (credit it keeps after waiting for the shared link). 0 = strict
     * spacing of one frame time at R. */
  uint32_t bucket_bytes;
  /* E2CM probing: a probe is put on the frame that brings a flow's byte
     * count since its last probe to probe_bytes (0 = never probe). Only
     * rate-limited flows probe, unless probe_all (E2CM with continuous probing). */
  uint32_t probe_bytes;
  bool probe_all;
  /* Most limiters active at once in this adapter; 0 = no limit, the seed's
     * adapter ("No limit on number of rate limiters", seed 001). At the limit,
     * a negative BCN for a flow without a limiter is refused (the flow stays
     * at line rate): the behaviour of an adapter with a fixed limiter pool
     * (our choice of policy; the seed has none). */
  unsigned max_limiters;
} cp_rp_cfg_t;

/* Derived gains (units: Gd 1/byte, Gi (1/byte) so Gi*|Fb|*Runit is b/s). */
typedef struct {
  double gd, gi, gd_flow, gi_flow;
} cp_rp_gains_t;

typedef struct {
  bool active;        /* a rate limiter exists for this flow */
  uint16_t cpid;      /* CPID of the CP that last sent it negative feedback (its tag) */
  double rate;        /* R, b/s (meaningful while active) */
  uint64_t tat_ps;    /* GCRA theoretical arrival time of the next frame */
  uint32_t probe_cnt; /* bytes since the last probe */
} cp_rp_limiter_t;

/* Optional statistics; pass NULL to cp_rp_init for none. */
typedef struct {
  uint64_t created, released;
  uint64_t neg, pos, ignored_pos; /* ignored_pos: POS for a flow with no limiter */
  uint64_t at_rmin;               /* decreases that hit the Rmin floor */
  uint64_t probes;
  uint64_t refused; /* negative BCNs refused: no free limiter (max_limiters) */
} cp_rp_stats_t;

typedef struct {
  cp_rp_cfg_t cfg;
  cp_rp_gains_t g;
  unsigned n_flows;
  unsigned n_active;
  cp_rp_limiter_t *lim; /* n_flows entries, allocated by cp_rp_init */
  cp_rp_stats_t *stats; /* may be NULL */
} cp_rp_t;

/* What the adapter puts on a frame it sends. */
typedef struct {
  bool tagged; /* the flow is rate limited: frame carries the limiter's CPID */
  uint16_t cpid;
  bool probe; /* E2CM probe */
} cp_rp_tx_t;

/* Seed 001 values: W=2, Qeq=75 KB, Qeq,flow=15 KB, Rlink=10 Gb/s, Runit=Rmin=1 Mb/s,
 * gain scales 0.5/0.1/0.5/0.005, no limit on the number of limiters; ours:
 * bucket one 1500-byte frame, no probing. */
void cp_rp_cfg_default(cp_rp_cfg_t *cfg);
/* Gains from a configuration (no validation). */
void cp_rp_gains(const cp_rp_cfg_t *cfg, cp_rp_gains_t *g);
/* Validate cfg and allocate n_flows idle limiters. 0 or -EINVAL / -ENOMEM
 * (one line on stderr naming the field). */
int cp_rp_init(cp_rp_t *rp, const cp_rp_cfg_t *cfg, unsigned n_flows, cp_rp_stats_t *stats);
void cp_rp_free(cp_rp_t *rp);
/* All limiters released, statistics untouched. */
void cp_rp_reset(cp_rp_t *rp);

/* |Fb| in bytes reconstructed from QntzFb for a loop (CP_RP_QUEUE / CP_RP_FLOW). */
double cp_rp_fb_abs(const cp_rp_t *rp, int level, unsigned qntzfb);

/* Outcome of one BCN. */
enum {
  CP_RP_R_IGNORED = 0, /* POS for a flow without a limiter */
  CP_RP_R_DECREASED,
  CP_RP_R_CREATED, /* first negative BCN: limiter created, then decreased */
  CP_RP_R_INCREASED,
  CP_RP_R_RELEASED, /* increase reached Rlink: limiter released */
  CP_RP_R_REFUSED   /* negative BCN, no limiter and max_limiters in use: ignored */
};
/* Apply one BCN (type CP_RP_NEG/POS/MAX, qntzfb 0..63, level CP_RP_QUEUE/FLOW,
 * cpid of the sender) to flow `flow` at time now_ps. Returns CP_RP_R_* or
 * -EINVAL for a bad flow, type, level or qntzfb. MAX is negative feedback
 * with its own QntzFb (the CP sends 63). */
int cp_rp_feedback(cp_rp_t *rp, unsigned flow, int type, unsigned qntzfb, int level, uint16_t cpid,
                   uint64_t now_ps);

/* May `flow` start a frame of len bytes at now_ps? If not, *when_ps (may be
 * NULL) is the earliest time it may. Unlimited flows always may. */
bool cp_rp_may_send(const cp_rp_t *rp, unsigned flow, uint64_t now_ps, uint32_t len, uint64_t *when_ps);
/* The adapter started a frame of `flow` (len bytes) at now_ps: charge the
 * limiter and tell what to put on the frame (tag, probe). */
void cp_rp_sent(cp_rp_t *rp, unsigned flow, uint64_t now_ps, uint32_t len, cp_rp_tx_t *tx);

static inline bool cp_rp_limited(const cp_rp_t *rp, unsigned flow) { return rp->lim[flow].active; }
/* Current rate of a flow: R while limited, else Rlink. */
double cp_rp_rate(const cp_rp_t *rp, unsigned flow);
/* Picoseconds to send len bytes at rate bps, rounded up. */
uint64_t cp_rp_ser_ps(uint32_t len, double bps);

#ifdef __cplusplus
}
#endif

#endif /* CP_RP_H */
