/*
 * cp_hotspot -- measurements: 1-ms time series and the summary of a run.
 *
 * Definitions (also in the CSV headers' documentation, docs in the scenario
 * file cp_hotspot_base.scn):
 *  - TP_aggr(bin): bytes whose transmission on any switch output link ended
 *    in the bin, / (N * Rlink * bin). TP_hot: the same for the hot output,
 *    / (Rlink * bin) (so the hotspot's ceiling is hot_frac = 0.1).
 *  - Q_hot: bytes in the hot output queue, a frame counted from its arrival
 *    (last bit in) until its transmission ends. Per bin: time-weighted mean,
 *    min, max, value at the bin's end.
 *  - Steady state = the second half of the hotspot window [mid, hot_end).
 *  - Recovery time: with pre = mean TP_aggr over the bins in
 *    [warmup, hot_start), the time from hot_end to the start of the first
 *    5-bin (5 ms) window, starting at or after hot_end, whose mean TP_aggr is
 *    >= 0.98 * pre; -1 if no such window fits before the end of the run.
 *  - Per-flow hot occupancy: for each source s != hot, the time-weighted mean
 *    of the bytes of s's frames in the hot queue over the steady state
 *    (measured by the harness, independently of the CP's flow table).
 */
#ifndef CPHS_STATS_H
#define CPHS_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "cphs_params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CPHS_RECOVERY_WINDOW 5 /* bins */
#define CPHS_RECOVERY_FRAC   0.98

typedef struct {
  uint64_t tx_all, tx_hot; /* bytes whose transmission ended in the bin */
  uint64_t q_int;          /* integral of Q_hot, bytes x ps */
  uint32_t q_min, q_max, q_end;
  uint64_t accepted, lost; /* offered bytes taken into a VOQ / quenched (VOQ full) */
  uint64_t drops;          /* frames dropped at the switch */
  uint32_t bcn_neg, bcn_pos, bcn_max, fbcn;
  uint32_t pauses;   /* PAUSE-on messages sent */
  uint32_t limiters; /* active rate limiters at the bin's end */
  uint8_t lim_set;
} cphs_bin_t;

typedef struct {
  const cphs_params_t *p;
  uint64_t nbins;
  cphs_bin_t *bin;
  /* Q_hot tracker */
  uint64_t q_t;        /* time of the last change */
  uint32_t q;          /* current value */
  uint64_t win0, win1; /* steady-state window */
  uint32_t win_min, win_max;
  uint64_t q_win_int;
  uint32_t q_peak;
  /* per-flow occupancy of the hot queue */
  uint64_t *flow_t;
  uint64_t *flow_int; /* bytes x ps within the window */
  uint32_t *flow_q;
} cphs_stats_t;

typedef struct {
  char name[96];
  char arrivals[16];
  unsigned n;
  int cm, pause, rtl;
  uint64_t seed;
  double tp_aggr_pre, tp_aggr_ss, tp_hot_hot, tp_hot_ss;
  double q_ss_mean, q_ss_bin_min, q_ss_bin_max, q_ss_min, q_ss_max, q_peak;
  double flow_mean, flow_min, flow_max; /* bytes */
  double flow_in_band;                  /* fraction of hot flows in [flow_lo, flow_hi] x Qeq,flow */
  uint64_t drops, drops_hot;            /* total; during the hotspot window */
  double lost_frac;                     /* quenched bytes / offered bytes, whole run */
  double recovery_ms;
  uint64_t bcn_neg, bcn_pos, bcn_max, fbcn, limiters_created;
  uint64_t frames_gen, frames_out;
  uint64_t cp_cycles;
  uint64_t digest;
  /* adapter egress buffer (bytes) and its PAUSE: peak occupancy over every
     * node, frames dropped at a full buffer, XOFF/XON sent and the occupancy
     * at each (min/max over the run; -1 when none was sent) */
  double egress_peak;
  uint64_t egress_drops, xoffs, xons;
  double xoff_occ_min, xoff_occ_max, xon_occ_min, xon_occ_max;
  /* source quench per flow (src, dst): hot flows (dst = hot node) with at
     * least one quenched frame, and the quenched fraction of offered frames of
     * hot and of cold flows */
  uint64_t quench_hot_flows;
  double quench_hot_frac, quench_cold_frac;
  /* rate limiters: most active at once in one adapter, negative BCNs refused */
  uint64_t lim_peak, lim_refused;
  /* cost */
  uint64_t events;
  double wall_s, events_per_s, sim_per_wall;
} cphs_summary_t;

int cphs_stats_init(cphs_stats_t *s, const cphs_params_t *p);
void cphs_stats_free(cphs_stats_t *s);
static inline cphs_bin_t *cphs_stats_bin(cphs_stats_t *s, uint64_t t) {
  uint64_t b = t / s->p->bin_ps;
  return &s->bin[b < s->nbins ? b : s->nbins - 1];
}
/* Q_hot becomes q at time t. */
void cphs_stats_q(cphs_stats_t *s, uint64_t t, uint32_t q);
/* Source src's bytes in the hot queue become q at time t. */
void cphs_stats_flow(cphs_stats_t *s, uint64_t t, unsigned src, uint32_t q);
/* The number of active limiters becomes k at time t. */
void cphs_stats_limiters(cphs_stats_t *s, uint64_t t, uint32_t k);
/* Close the trackers at t_end and compute the summary's measured fields. */
void cphs_stats_finish(cphs_stats_t *s, cphs_summary_t *sum);

void cphs_summary_csv_header(FILE *f);
void cphs_summary_csv_row(FILE *f, const cphs_summary_t *s);
/* The fields that must match between model and RTL runs (not the cost). */
int cphs_summary_same(const cphs_summary_t *a, const cphs_summary_t *b, char *why, size_t len);
void cphs_timeseries_csv(FILE *f, const cphs_stats_t *s);
/* The time series' columns after t_ms: name, unit, printf format of a double
   (timeseries.csv and the results store's "bin" rows, cphs_db.c). */
#define CPHS_TS_COLS 15
typedef struct {
  const char *name, *unit, *fmt;
} cphs_ts_col_t;
extern const cphs_ts_col_t cphs_ts_cols[CPHS_TS_COLS];
/* Bin b's values; cum (drops, lost bytes; start at 0) carries the cumulative
   columns, so call for b = 0, 1, ... in order. Returns the bin's end, ms. */
double cphs_ts_values(const cphs_stats_t *s, uint64_t b, uint64_t cum[2], double v[CPHS_TS_COLS]);
/* One row per source: its steady-state mean occupancy of the hot queue. */
void cphs_flows_csv(FILE *f, const cphs_stats_t *s);
/* Source src's steady-state mean bytes in the hot queue (flows.csv's value). */
double cphs_flow_mean(const cphs_stats_t *s, unsigned src);

#ifdef __cplusplus
}
#endif
#endif
