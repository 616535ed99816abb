/*
 * cp_rp -- reaction point (per-flow rate limiters at a source adapter).
 * Spec: docs/cp.md §9. See cp_rp.h for the laws.
 */
#include "cp_rp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cp_rp_cfg_default(cp_rp_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->w = 2;
  cfg->qeq = 75u * 1024u;
  cfg->qeq_flow = 15u * 1024u;
  cfg->rlink = 10e9;
  cfg->runit = 1e6;
  cfg->rmin = 1e6;
  cfg->gd_k = 0.5;
  cfg->gi_k = 0.1;
  cfg->gd_flow_k = 0.5;
  cfg->gi_flow_k = 0.005;
  cfg->bucket_bytes = 1500;
  cfg->probe_bytes = 0;
  cfg->probe_all = false;
  cfg->max_limiters = 0; /* seed 001: "No limit on number of rate limiters" */
}

void cp_rp_gains(const cp_rp_cfg_t *cfg, cp_rp_gains_t *g) {
  /* The seed prints Gi0 = (Rlink/Runit)*((2W+1)Qeq); only the division is
     * dimensionally a gain per byte of feedback (docs/cp.md §9). */
  const double d = (2.0 * cfg->w + 1.0) * cfg->qeq;
  const double df = (2.0 * cfg->w + 1.0) * cfg->qeq_flow;
  g->gd = cfg->gd_k / d;
  g->gi = cfg->gi_k * (cfg->rlink / cfg->runit) / d;
  g->gd_flow = cfg->gd_flow_k / df;
  g->gi_flow = cfg->gi_flow_k * (cfg->rlink / cfg->runit) / df;
}

static int bad(const char *msg, double v) {
  fprintf(stderr, "cp_rp: %s (got %g)\n", msg, v);
  return -EINVAL;
}

int cp_rp_init(cp_rp_t *rp, const cp_rp_cfg_t *cfg, unsigned n_flows, cp_rp_stats_t *stats) {
  memset(rp, 0, sizeof *rp);
  if (cfg->w > 15) return bad("w must be 0..15", cfg->w);
  if (cfg->qeq == 0) return bad("qeq must be > 0", cfg->qeq);
  if (cfg->qeq_flow == 0) return bad("qeq_flow must be > 0", cfg->qeq_flow);
  if (!(cfg->rlink > 0)) return bad("rlink must be > 0", cfg->rlink);
  if (!(cfg->runit > 0)) return bad("runit must be > 0", cfg->runit);
  if (!(cfg->rmin > 0) || cfg->rmin > cfg->rlink) return bad("rmin must be in (0, rlink]", cfg->rmin);
  /* A decrease factor (1 - Gd|Fb|) with |Fb| up to (2W+1)Qeq is 1 - gd_k:
     * gd_k >= 1 could zero or negate R. */
  if (!(cfg->gd_k > 0 && cfg->gd_k < 1)) return bad("gd_k must be in (0, 1)", cfg->gd_k);
  if (!(cfg->gd_flow_k > 0 && cfg->gd_flow_k < 1)) return bad("gd_flow_k must be in (0, 1)", cfg->gd_flow_k);
  if (!(cfg->gi_k >= 0)) return bad("gi_k must be >= 0", cfg->gi_k);
  if (!(cfg->gi_flow_k >= 0)) return bad("gi_flow_k must be >= 0", cfg->gi_flow_k);
  if (n_flows == 0) return bad("n_flows must be > 0", n_flows);
  rp->lim = calloc(n_flows, sizeof *rp->lim);
  if (!rp->lim) return -ENOMEM;
  rp->cfg = *cfg;
  cp_rp_gains(cfg, &rp->g);
  rp->n_flows = n_flows;
  rp->stats = stats;
  return 0;
}

void cp_rp_free(cp_rp_t *rp) {
  free(rp->lim);
  rp->lim = NULL;
  rp->n_flows = 0;
}

void cp_rp_reset(cp_rp_t *rp) {
  memset(rp->lim, 0, rp->n_flows * sizeof *rp->lim);
  rp->n_active = 0;
}

double cp_rp_fb_abs(const cp_rp_t *rp, int level, unsigned qntzfb) {
  /* Inverse of QntzFb = floor(|Fb|*63/((2W+1)Qeq)): the lower end of the
     * quantisation interval, so QntzFb 0 is no feedback at all. */
  const uint32_t qeq = level == CP_RP_FLOW ? rp->cfg.qeq_flow : rp->cfg.qeq;
  return (double)qntzfb * (2.0 * rp->cfg.w + 1.0) * (double)qeq / 63.0;
}

uint64_t cp_rp_ser_ps(uint32_t len, double bps) { return (uint64_t)ceil((double)len * 8e12 / bps); }

double cp_rp_rate(const cp_rp_t *rp, unsigned flow) {
  return rp->lim[flow].active ? rp->lim[flow].rate : rp->cfg.rlink;
}

/* A rate change applies from now: the part of the current frame's spacing
 * still to wait is stretched or shrunk by old/new, as a token bucket filling
 * at the new rate would (else a flow throttled to Rmin would sit out a 12 ms
 * gap after a large increase). */
static void rescale(cp_rp_limiter_t *l, double old, uint64_t now_ps) {
  if (l->rate == old || l->tat_ps <= now_ps) return;
  const double rest = (double)(l->tat_ps - now_ps) * old / l->rate;
  l->tat_ps = now_ps + (uint64_t)(rest + 0.5);
}

int cp_rp_feedback(cp_rp_t *rp, unsigned flow, int type, unsigned qntzfb, int level, uint16_t cpid,
                   uint64_t now_ps) {
  if (flow >= rp->n_flows || qntzfb > 63 || (level != CP_RP_QUEUE && level != CP_RP_FLOW) ||
      (type != CP_RP_NEG && type != CP_RP_POS && type != CP_RP_MAX))
    return -EINVAL;
  cp_rp_limiter_t *l = &rp->lim[flow];
  const double fb = cp_rp_fb_abs(rp, level, qntzfb);
  if (type == CP_RP_POS) {
    /* "No self-increase": a flow without a limiter is already at Rlink. */
    if (!l->active) {
      if (rp->stats) rp->stats->ignored_pos++;
      return CP_RP_R_IGNORED;
    }
    if (rp->stats) rp->stats->pos++;
    const double gi = level == CP_RP_FLOW ? rp->g.gi_flow : rp->g.gi;
    const double old = l->rate;
    l->rate += gi * fb * rp->cfg.runit;
    rescale(l, old, now_ps);
    if (l->rate >= rp->cfg.rlink) {
      /* Back at line rate: the limiter goes away (and with it the tag). */
      l->active = false;
      l->rate = rp->cfg.rlink;
      rp->n_active--;
      if (rp->stats) rp->stats->released++;
      return CP_RP_R_RELEASED;
    }
    return CP_RP_R_INCREASED;
  }
  int r = CP_RP_R_DECREASED;
  if (!l->active && rp->cfg.max_limiters && rp->n_active >= rp->cfg.max_limiters) {
    /* Every limiter of the pool is in use: this flow is not throttled. */
    if (rp->stats) rp->stats->refused++;
    return CP_RP_R_REFUSED;
  }
  if (!l->active) {
    /* Created at line rate; its first frame may go at once (tat = now). */
    l->active = true;
    l->rate = rp->cfg.rlink;
    l->tat_ps = now_ps;
    l->probe_cnt = 0;
    rp->n_active++;
    if (rp->stats) rp->stats->created++;
    r = CP_RP_R_CREATED;
  }
  if (rp->stats) rp->stats->neg++;
  /* The latest congestion point to complain owns the tag (as in QCN). */
  l->cpid = cpid;
  const double gd = level == CP_RP_FLOW ? rp->g.gd_flow : rp->g.gd;
  const double old = l->rate;
  l->rate *= 1.0 - gd * fb;
  if (l->rate <= rp->cfg.rmin) {
    l->rate = rp->cfg.rmin;
    if (rp->stats) rp->stats->at_rmin++;
  }
  rescale(l, old, now_ps);
  return r;
}

bool cp_rp_may_send(const cp_rp_t *rp, unsigned flow, uint64_t now_ps, uint32_t len, uint64_t *when_ps) {
  (void)len; /* GCRA charges the frame after it is sent, whatever its length */
  const cp_rp_limiter_t *l = &rp->lim[flow];
  if (!l->active) return true;
  /* GCRA: conforming when now >= tat - tau, tau = bucket depth at rate R. */
  const uint64_t tau = cp_rp_ser_ps(rp->cfg.bucket_bytes, l->rate);
  const uint64_t earliest = l->tat_ps > tau ? l->tat_ps - tau : 0;
  if (now_ps >= earliest) return true;
  if (when_ps) *when_ps = earliest;
  return false;
}

void cp_rp_sent(cp_rp_t *rp, unsigned flow, uint64_t now_ps, uint32_t len, cp_rp_tx_t *tx) {
  cp_rp_limiter_t *l = &rp->lim[flow];
  tx->tagged = l->active;
  tx->cpid = l->active ? l->cpid : 0;
  tx->probe = false;
  if (l->active) l->tat_ps = (l->tat_ps > now_ps ? l->tat_ps : now_ps) + cp_rp_ser_ps(len, l->rate);
  if (rp->cfg.probe_bytes && (l->active || rp->cfg.probe_all)) {
    l->probe_cnt += len;
    if (l->probe_cnt >= rp->cfg.probe_bytes) {
      l->probe_cnt = 0;
      tx->probe = true;
      if (rp->stats) rp->stats->probes++;
    }
  }
}
