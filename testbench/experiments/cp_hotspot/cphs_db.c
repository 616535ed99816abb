/* cp_hotspot -- a run in the results store. What goes where: cphs_db.h. */
#include "cphs_db.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"

int cphs_db_bug(const char *name) {
  if (!strcmp(name, "db_skip_bin")) return CPHS_DBBUG_SKIP_BIN;
  if (!strcmp(name, "db_bin_start")) return CPHS_DBBUG_BIN_START;
  return CPHS_DBBUG_NONE;
}

typedef struct {
  store_t *db;
  int failed;
} param_ctx_t;

static void put_param(void *ctx, const char *key, const char *value) {
  param_ctx_t *c = ctx;
  if (!c->failed && store_param(c->db, key, value)) c->failed = 1;
}

/* summary.csv's figures after its text columns (name .. seed) and without
 * digest (a param): column, value, unit. Keep in step with
 * cphs_summary_csv_header and mk/cp-hotspot.sh's SUMMARY_COLS. */
typedef struct {
  const char *col;
  double v;
  const char *unit;
} fig_t;

static size_t summary_figs(const cphs_summary_t *s, fig_t *f) {
  const fig_t all[] = {
      {"tp_aggr_pre", s->tp_aggr_pre, "of N*Rlink"},
      {"tp_aggr_ss", s->tp_aggr_ss, "of N*Rlink"},
      {"tp_hot_hot", s->tp_hot_hot, "of Rlink"},
      {"tp_hot_ss", s->tp_hot_ss, "of Rlink"},
      {"q_ss_mean", s->q_ss_mean, "B"},
      {"q_ss_bin_min", s->q_ss_bin_min, "B"},
      {"q_ss_bin_max", s->q_ss_bin_max, "B"},
      {"q_ss_min", s->q_ss_min, "B"},
      {"q_ss_max", s->q_ss_max, "B"},
      {"q_peak", s->q_peak, "B"},
      {"flow_mean", s->flow_mean, "B"},
      {"flow_min", s->flow_min, "B"},
      {"flow_max", s->flow_max, "B"},
      {"flow_in_band", s->flow_in_band, "fraction"},
      {"drops", (double)s->drops, "frames"},
      {"drops_hot", (double)s->drops_hot, "frames"},
      {"lost_frac", s->lost_frac, "fraction"},
      {"recovery_ms", s->recovery_ms, "ms"},
      {"bcn_neg", (double)s->bcn_neg, "BCNs"},
      {"bcn_pos", (double)s->bcn_pos, "BCNs"},
      {"bcn_max", (double)s->bcn_max, "BCNs"},
      {"fbcn", (double)s->fbcn, "BCNs"},
      {"limiters_created", (double)s->limiters_created, "limiters"},
      {"frames_gen", (double)s->frames_gen, "frames"},
      {"frames_out", (double)s->frames_out, "frames"},
      {"cp_cycles", (double)s->cp_cycles, "cycles"},
      {"events", (double)s->events, "events"},
      {"wall_s", s->wall_s, "s"},
      {"events_per_s", s->events_per_s, "1/s"},
      {"sim_s_per_wall_s", s->sim_per_wall, "s/s"},
      {"egress_peak", s->egress_peak, "B"},
      {"egress_drops", (double)s->egress_drops, "frames"},
      {"xoffs", (double)s->xoffs, "PAUSEs"},
      {"xons", (double)s->xons, "PAUSEs"},
      {"xoff_occ_min", s->xoff_occ_min, "B"},
      {"xoff_occ_max", s->xoff_occ_max, "B"},
      {"xon_occ_min", s->xon_occ_min, "B"},
      {"xon_occ_max", s->xon_occ_max, "B"},
      {"quench_hot_flows", (double)s->quench_hot_flows, "flows"},
      {"quench_hot_frac", s->quench_hot_frac, "fraction"},
      {"quench_cold_frac", s->quench_cold_frac, "fraction"},
      {"lim_peak", (double)s->lim_peak, "limiters"},
      {"lim_refused", (double)s->lim_refused, "BCNs"},
  };
  memcpy(f, all, sizeof all);
  return sizeof all / sizeof all[0];
}

int cphs_db_write(store_t *db, const cphs_params_t *p, const cphs_result_t *r, const char *status, int bug,
                  int64_t *run_id, char *err, size_t len) {
  const cphs_stats_t *st = &r->stats;
  /* the CP's clock is the fabric's nominal one (testbench/clock.h): cycles
     here are simulated ps / NETCOSIM_CYCLE_PS, rounded down */
  const store_run_t run = {.name = p->name,
                           .tool = "cp_hotspot_sim",
                           .seed = p->seed,
                           .nodes = p->n,
                           .clock_mhz = NETCOSIM_CLOCK_MHZ,
                           .window_start = st->win0 / NETCOSIM_CYCLE_PS,
                           .window_end = st->win1 / NETCOSIM_CYCLE_PS};
  if (store_run_begin(db, &run, run_id, err, len)) return -1;
  param_ctx_t pc = {db, 0};
  cphs_params_each(p, put_param, &pc);
  if (!pc.failed && store_paramf(db, "result.digest", "%016" PRIx64, r->sum.digest)) pc.failed = 1;
  int rc = pc.failed ? -1 : 0;

  fig_t f[64];
  const size_t nf = summary_figs(&r->sum, f);
  for (size_t i = 0; i < nf && !rc; i++)
    rc = store_result(db, &(store_result_t){.series = f[i].col,
                                            .label = "summary",
                                            .x = 0,
                                            .x_unit = "",
                                            .value = f[i].v,
                                            .unit = f[i].unit});

  /* the time series, column by column (a plot's query reads one series) */
  const uint64_t nbins = bug == CPHS_DBBUG_SKIP_BIN && st->nbins ? st->nbins - 1 : st->nbins;
  const double bin_ms = (double)p->bin_ps / 1e9;
  for (int c = 0; c < CPHS_TS_COLS && !rc; c++) {
    uint64_t cum[2] = {0, 0};
    double v[CPHS_TS_COLS];
    for (uint64_t b = 0; b < nbins && !rc; b++) {
      double t = cphs_ts_values(st, b, cum, v);
      if (bug == CPHS_DBBUG_BIN_START) t -= bin_ms; /* planted: the bin's start */
      rc = store_result(db, &(store_result_t){.series = cphs_ts_cols[c].name,
                                              .label = "bin",
                                              .x = t,
                                              .x_unit = "ms",
                                              .value = v[c],
                                              .unit = cphs_ts_cols[c].unit});
    }
  }
  for (unsigned i = 0; i < p->n && !rc; i++)
    if (i != p->hot)
      rc = store_result(db, &(store_result_t){.series = "hot_queue_bytes_mean",
                                              .label = "flow",
                                              .x = i,
                                              .x_unit = "node",
                                              .value = cphs_flow_mean(st, i),
                                              .unit = "B"});
  if (rc) {
    /* the run stays open: store_close rolls it back (nothing half-written) */
    snprintf(err, len, "%s", store_error(db));
    return -1;
  }
  return store_run_end(db, p->t_end_ps / NETCOSIM_CYCLE_PS, r->sum.wall_s, status, err, len);
}
