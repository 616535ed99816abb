/* cp_hotspot -- named checks' predicates. See cphs_check.h. */
#include "cphs_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const *cphs_check_ids(cphs_check_t kind) {
  static const char *const none[] = {NULL};
  static const char *const drops[] = {"hotspot.drops.fill", "hotspot.drops.dropped", NULL};
  static const char *const band[] = {"hotspot.band.q_low", "hotspot.band.q_high", "hotspot.band.tp_hot",
                                     NULL};
  static const char *const flows[] = {"hotspot.flows.mean", "hotspot.flows.fraction", NULL};
  static const char *const mvr[] = {CPHS_ID_MODEL_VS_RTL, NULL};
  static const char *const egress[] = {"hotspot.egress.pauses", "hotspot.egress.xoff", "hotspot.egress.xon",
                                       "hotspot.egress.overflow", NULL};
  static const char *const quench[] = {"hotspot.quench.hot", "hotspot.quench.cold", NULL};
  static const char *const lim[] = {"hotspot.limiters.refused", "hotspot.limiters.peak", NULL};
  switch (kind) {
    case CPHS_CHECK_EGRESS: return egress;
    case CPHS_CHECK_QUENCH: return quench;
    case CPHS_CHECK_LIMITERS: return lim;
    case CPHS_CHECK_DROPS: return drops;
    case CPHS_CHECK_BAND: return band;
    case CPHS_CHECK_FLOWS: return flows;
    case CPHS_CHECK_MODEL_VS_RTL: return mvr;
    case CPHS_CHECK_NONE: break;
  }
  return none;
}

/* Print one criterion and record the first failure. */
static bool crit(bool ok, const char *id, double at_ms, cphs_fail_t *first, bool *all, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static bool crit(bool ok, const char *id, double at_ms, cphs_fail_t *first, bool *all, const char *fmt, ...) {
  char line[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  printf("check: %-4s %-24s %s\n", ok ? "ok" : "FAIL", id, line);
  if (!ok && *all) {
    snprintf(first->id, sizeof first->id, "%s", id);
    first->at_ms = at_ms;
    snprintf(first->text, sizeof first->text, "%s (at %g ms)", line, at_ms);
    *all = false;
  }
  return ok;
}

static double ms(uint64_t ps) { return (double)ps / CPHS_PS_PER_MS; }

bool cphs_check_run(const cphs_params_t *p, const cphs_stats_t *st, const cphs_summary_t *s,
                    cphs_fail_t *first) {
  bool all = true;
  memset(first, 0, sizeof *first);
  const double hot_end = ms(p->hot_end_ps), t_end = ms(p->t_end_ps);
  switch (p->check) {
    case CPHS_CHECK_NONE:
    case CPHS_CHECK_MODEL_VS_RTL: break;
    case CPHS_CHECK_DROPS: {
      /* The hot queue can hold at most the N-1 other inputs' partitions;
         * without CM and PAUSE it fills them (minus the few cold frames in
         * transit) and arrivals to full partitions are dropped. The peak is
         * over the whole run, the drops over the hotspot. */
      const double cap = (double)(p->n - 1) * p->mem_per_input;
      crit(s->q_peak >= p->drop_fill * cap, "hotspot.drops.fill", t_end, first, &all,
           "peak Q_hot %.0f B >= %.2f x (N-1) x M = %.0f B", s->q_peak, p->drop_fill, p->drop_fill * cap);
      crit(s->drops_hot > 0, "hotspot.drops.dropped", hot_end, first, &all,
           "frames dropped during the hotspot: %" PRIu64 " > 0", s->drops_hot);
      break;
    }
    case CPHS_CHECK_BAND: {
      /* Steady state = second half of the hotspot; Q_hot as 1-ms means. A
         * band criterion fires at the end of the first bin outside the band. */
      const double lo = p->band_lo * p->qeq, hi = p->band_hi * p->qeq;
      const uint64_t bp = p->bin_ps, b0 = st->win0 / bp, b1 = p->hot_end_ps / bp;
      double lo_at = -1, hi_at = -1;
      for (uint64_t b = b0; b < b1 && b < st->nbins; b++) {
        const double m = (double)st->bin[b].q_int / (double)bp;
        if (m < lo && lo_at < 0) lo_at = ms((b + 1) * bp);
        if (m > hi && hi_at < 0) hi_at = ms((b + 1) * bp);
      }
      crit(lo_at < 0, "hotspot.band.q_low", lo_at, first, &all, "min 1-ms mean of Q_hot %.0f B >= %.0f B",
           s->q_ss_bin_min, lo);
      crit(hi_at < 0, "hotspot.band.q_high", hi_at, first, &all, "max 1-ms mean of Q_hot %.0f B <= %.0f B",
           s->q_ss_bin_max, hi);
      crit(fabs(s->tp_hot_ss - p->hot_frac) <= p->tp_tol, "hotspot.band.tp_hot", hot_end, first, &all,
           "TP_hot %.4f within %.4f of the hot service rate %.4f", s->tp_hot_ss, p->tp_tol, p->hot_frac);
      break;
    }
    case CPHS_CHECK_FLOWS: {
      /* Per-flow occupancy = time-weighted mean of one source's bytes in the
         * hot queue over the second half of the hotspot, measured by the
         * harness from its own queue (not the CP's table). The mean over hot
         * flows, and at least flow_frac of the flows, must lie in
         * [flow_lo, flow_hi] x Qeq,flow. Not every flow: a flow that MAX
         * messages drove near Rmin sends (so probes) rarely and recovers
         * slowly, under E2CM too; ECM alone leaves most flows out. */
      const double lo = p->flow_lo * p->qeq_flow, hi = p->flow_hi * p->qeq_flow;
      crit(s->flow_mean >= lo && s->flow_mean <= hi, "hotspot.flows.mean", hot_end, first, &all,
           "mean hot-flow occupancy %.0f B in [%.0f, %.0f] B", s->flow_mean, lo, hi);
      crit(s->flow_in_band >= p->flow_frac, "hotspot.flows.fraction", hot_end, first, &all,
           "hot flows in [%.0f, %.0f] B: %.0f %% >= %.0f %% (range %.0f..%.0f B)", lo, hi,
           100 * s->flow_in_band, 100 * p->flow_frac, s->flow_min, s->flow_max);
      break;
    }
    case CPHS_CHECK_EGRESS: {
      /* Seed 001's adapter: a 150 KB egress buffer that PAUSEs its switch
         * output at high = 150 KB - rtt x bw and releases it at high - 10 KB.
         * The buffer is measured where frames arrive (the occupancy only
         * grows there); XOFF must go at the first arrival above high (so
         * within one frame of it), XON when the drain reaches low (the drain
         * is a fluid, the XON time rounded up to the ps: within 8 B below). */
      const double hi = cphs_adapter_hi(p), lo = cphs_adapter_lo(p);
      crit(s->xoffs > 0, "hotspot.egress.pauses", hot_end, first, &all,
           "adapter PAUSE used: %" PRIu64 " XOFF, %" PRIu64 " XON", s->xoffs, s->xons);
      crit(s->xoffs == 0 || (s->xoff_occ_min > hi && s->xoff_occ_max <= hi + p->frame), "hotspot.egress.xoff",
           t_end, first, &all, "XOFF at occupancy [%.0f, %.0f] B within (high %.0f, high + frame %.0f] B",
           s->xoff_occ_min, s->xoff_occ_max, hi, hi + p->frame);
      crit(s->xons == 0 || (s->xon_occ_max <= lo + 1e-6 && s->xon_occ_min >= lo - 8), "hotspot.egress.xon",
           t_end, first, &all, "XON at occupancy [%.0f, %.0f] B within [low - 8, low = %.0f] B",
           s->xon_occ_min, s->xon_occ_max, lo);
      crit(s->egress_drops == 0 && s->egress_peak <= p->egress, "hotspot.egress.overflow", t_end, first, &all,
           "egress peak %.0f B <= %u B, frames lost at a full egress buffer %" PRIu64 " = 0", s->egress_peak,
           p->egress, s->egress_drops);
      break;
    }
    case CPHS_CHECK_QUENCH: {
      /* Seed 001: "per-flow selective source quench used when VOQ full".
         * Under ECM the hot flows are rate limited, their VOQs fill and are
         * quenched; the cold flows of the same adapters keep going.
         * Selectivity is judged first: a quench that is not per flow (quench=node)
         * fails hotspot.quench.cold whatever it does to the hot flows. */
      crit(s->quench_cold_frac <= p->quench_cold_max, "hotspot.quench.cold", t_end, first, &all,
           "cold flows' quenched fraction %.5f <= %.5f", s->quench_cold_frac, p->quench_cold_max);
      crit(s->quench_hot_flows == p->n - 1, "hotspot.quench.hot", t_end, first, &all,
           "hot flows quenched: %" PRIu64 " of %u (%.3f of their frames)", s->quench_hot_flows, p->n - 1,
           s->quench_hot_frac);
      break;
    }
    case CPHS_CHECK_LIMITERS: {
      /* Seed 001: "No limit on number of rate limiters". */
      crit(s->lim_refused == 0, "hotspot.limiters.refused", t_end, first, &all,
           "negative BCNs refused for want of a limiter: %" PRIu64 " = 0", s->lim_refused);
      crit(s->lim_peak >= p->limiters_min, "hotspot.limiters.peak", t_end, first, &all,
           "most limiters at once in one adapter %" PRIu64 " >= %u", s->lim_peak, p->limiters_min);
      break;
    }
  }
  return all;
}
