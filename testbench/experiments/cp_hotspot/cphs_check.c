/* cp_hotspot -- named checks' predicates. See cphs_check.h. */
#include "cphs_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* Print one criterion and record the first failure. */
static bool crit(bool ok, bool *all, char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static bool crit(bool ok, bool *all, char *why, size_t len, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("check: %-4s %s\n", ok ? "ok" : "FAIL", line);
    if (!ok && *all) {
        snprintf(why, len, "%s", line);
        *all = false;
    }
    return ok;
}

bool cphs_check_run(const cphs_params_t *p, const cphs_summary_t *s, char *why, size_t len)
{
    bool all = true;
    switch (p->check) {
    case CPHS_CHECK_NONE:
    case CPHS_CHECK_MODEL_VS_RTL:
        break;
    case CPHS_CHECK_DROPS: {
        /* The hot queue can hold at most the N-1 other inputs' partitions;
         * without CM and PAUSE it fills them (minus the few cold frames in
         * transit) and arrivals to full partitions are dropped. */
        const double cap = (double)(p->n - 1) * p->mem_per_input;
        crit(s->q_peak >= p->drop_fill * cap, &all, why, len,
             "peak Q_hot %.0f B >= %.2f x (N-1) x M = %.0f B", s->q_peak, p->drop_fill, p->drop_fill * cap);
        crit(s->drops_hot > 0, &all, why, len, "frames dropped during the hotspot: %" PRIu64 " > 0",
             s->drops_hot);
        break;
    }
    case CPHS_CHECK_BAND: {
        /* Steady state = second half of the hotspot; Q_hot as 1-ms means. */
        const double lo = p->band_lo * p->qeq, hi = p->band_hi * p->qeq;
        crit(s->q_ss_bin_min >= lo, &all, why, len, "min 1-ms mean of Q_hot %.0f B >= %.0f B",
             s->q_ss_bin_min, lo);
        crit(s->q_ss_bin_max <= hi, &all, why, len, "max 1-ms mean of Q_hot %.0f B <= %.0f B",
             s->q_ss_bin_max, hi);
        crit(fabs(s->tp_hot_ss - p->hot_frac) <= p->tp_tol, &all, why, len,
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
        crit(s->flow_mean >= lo && s->flow_mean <= hi, &all, why, len,
             "mean hot-flow occupancy %.0f B in [%.0f, %.0f] B", s->flow_mean, lo, hi);
        crit(s->flow_in_band >= p->flow_frac, &all, why, len,
             "hot flows in [%.0f, %.0f] B: %.0f %% >= %.0f %% (range %.0f..%.0f B)", lo, hi,
             100 * s->flow_in_band, 100 * p->flow_frac, s->flow_min, s->flow_max);
        break;
    }
    }
    return all;
}
