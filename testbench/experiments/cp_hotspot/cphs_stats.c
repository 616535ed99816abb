/* cp_hotspot -- measurements. Definitions in cphs_stats.h. */
#include "cphs_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int cphs_stats_init(cphs_stats_t *s, const cphs_params_t *p) {
  memset(s, 0, sizeof *s);
  s->p = p;
  s->nbins = (p->t_end_ps + p->bin_ps - 1) / p->bin_ps;
  s->bin = calloc(s->nbins, sizeof *s->bin);
  s->flow_t = calloc(p->n, sizeof *s->flow_t);
  s->flow_int = calloc(p->n, sizeof *s->flow_int);
  s->flow_q = calloc(p->n, sizeof *s->flow_q);
  if (!s->bin || !s->flow_t || !s->flow_int || !s->flow_q) return -1;
  for (uint64_t b = 0; b < s->nbins; b++) s->bin[b].q_min = UINT32_MAX;
  s->win0 = p->hot_start_ps + (p->hot_end_ps - p->hot_start_ps) / 2;
  s->win1 = p->hot_end_ps;
  s->win_min = UINT32_MAX;
  return 0;
}

void cphs_stats_free(cphs_stats_t *s) {
  free(s->bin);
  free(s->flow_t);
  free(s->flow_int);
  free(s->flow_q);
  memset(s, 0, sizeof *s);
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1) {
  uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
  return hi > lo ? hi - lo : 0;
}

/* The current value s->q held over [s->q_t, t): integrate it bin by bin. */
static void q_advance(cphs_stats_t *s, uint64_t t) {
  if (t <= s->q_t) return;
  const uint64_t bp = s->p->bin_ps;
  uint64_t a = s->q_t;
  while (a < t) {
    uint64_t b = a / bp;
    if (b >= s->nbins) break;
    uint64_t e = (b + 1) * bp;
    if (e > t) e = t;
    cphs_bin_t *x = &s->bin[b];
    x->q_int += (uint64_t)s->q * (e - a);
    if (s->q < x->q_min) x->q_min = s->q;
    if (s->q > x->q_max) x->q_max = s->q;
    if (e == (b + 1) * bp) x->q_end = s->q; /* held to the bin's end */
    a = e;
  }
  uint64_t w = overlap(s->q_t, t, s->win0, s->win1);
  if (w) {
    s->q_win_int += (uint64_t)s->q * w;
    if (s->q < s->win_min) s->win_min = s->q;
    if (s->q > s->win_max) s->win_max = s->q;
  }
  s->q_t = t;
}

void cphs_stats_q(cphs_stats_t *s, uint64_t t, uint32_t q) {
  q_advance(s, t);
  s->q = q;
  if (q > s->q_peak) s->q_peak = q;
  cphs_bin_t *x = cphs_stats_bin(s, t);
  if (q < x->q_min) x->q_min = q;
  if (q > x->q_max) x->q_max = q;
}

void cphs_stats_flow(cphs_stats_t *s, uint64_t t, unsigned src, uint32_t q) {
  s->flow_int[src] += (uint64_t)s->flow_q[src] * overlap(s->flow_t[src], t, s->win0, s->win1);
  s->flow_t[src] = t;
  s->flow_q[src] = q;
}

void cphs_stats_limiters(cphs_stats_t *s, uint64_t t, uint32_t k) {
  cphs_bin_t *x = cphs_stats_bin(s, t);
  x->limiters = k;
  x->lim_set = 1;
}

static double tp_all(const cphs_stats_t *s, uint64_t b) {
  return (double)s->bin[b].tx_all * 8e12 / ((double)s->p->n * s->p->rlink * (double)s->p->bin_ps);
}
static double tp_hot(const cphs_stats_t *s, uint64_t b) {
  return (double)s->bin[b].tx_hot * 8e12 / (s->p->rlink * (double)s->p->bin_ps);
}

/* Mean of f over bins [b0, b1). */
static double mean_bins(const cphs_stats_t *s, double (*f)(const cphs_stats_t *, uint64_t), uint64_t b0,
                        uint64_t b1) {
  if (b1 > s->nbins) b1 = s->nbins;
  if (b1 <= b0) return 0;
  double acc = 0;
  for (uint64_t b = b0; b < b1; b++) acc += f(s, b);
  return acc / (double)(b1 - b0);
}

void cphs_stats_finish(cphs_stats_t *s, cphs_summary_t *sum) {
  const cphs_params_t *p = s->p;
  const uint64_t bp = p->bin_ps;
  q_advance(s, p->t_end_ps);
  for (unsigned i = 0; i < p->n; i++) cphs_stats_flow(s, p->t_end_ps, i, s->flow_q[i]);
  /* bins without a change keep the previous count of limiters and queue */
  uint32_t lim = 0;
  for (uint64_t b = 0; b < s->nbins; b++) {
    if (s->bin[b].lim_set)
      lim = s->bin[b].limiters;
    else
      s->bin[b].limiters = lim;
    if (s->bin[b].q_min == UINT32_MAX) s->bin[b].q_min = 0;
  }

  const uint64_t bw = p->warmup_ps / bp, bhs = p->hot_start_ps / bp, bhe = p->hot_end_ps / bp;
  const uint64_t bmid = s->win0 / bp;
  sum->tp_aggr_pre = mean_bins(s, tp_all, bw, bhs);
  sum->tp_aggr_ss = mean_bins(s, tp_all, bmid, bhe);
  sum->tp_hot_hot = mean_bins(s, tp_hot, bhs, bhe);
  sum->tp_hot_ss = mean_bins(s, tp_hot, bmid, bhe);
  const double ww = (double)(s->win1 - s->win0);
  sum->q_ss_mean = (double)s->q_win_int / ww;
  sum->q_ss_min = s->win_min == UINT32_MAX ? 0 : s->win_min;
  sum->q_ss_max = s->win_max;
  sum->q_ss_bin_min = 1e300;
  sum->q_ss_bin_max = 0;
  for (uint64_t b = bmid; b < bhe && b < s->nbins; b++) {
    double m = (double)s->bin[b].q_int / (double)bp;
    if (m < sum->q_ss_bin_min) sum->q_ss_bin_min = m;
    if (m > sum->q_ss_bin_max) sum->q_ss_bin_max = m;
  }
  if (sum->q_ss_bin_min > sum->q_ss_bin_max) sum->q_ss_bin_min = 0;
  sum->q_peak = s->q_peak;
  sum->flow_mean = 0;
  sum->flow_min = 1e300;
  sum->flow_max = 0;
  sum->flow_in_band = 0;
  for (unsigned i = 0; i < p->n; i++) {
    if (i == p->hot) continue;
    double m = (double)s->flow_int[i] / ww;
    sum->flow_mean += m / (p->n - 1);
    if (m >= p->flow_lo * p->qeq_flow && m <= p->flow_hi * p->qeq_flow) sum->flow_in_band += 1.0 / (p->n - 1);
    if (m < sum->flow_min) sum->flow_min = m;
    if (m > sum->flow_max) sum->flow_max = m;
  }
  uint64_t off = 0, lost = 0;
  sum->drops = sum->drops_hot = 0;
  for (uint64_t b = 0; b < s->nbins; b++) {
    off += s->bin[b].accepted;
    lost += s->bin[b].lost;
    sum->drops += s->bin[b].drops;
    if (b >= bhs && b < bhe) sum->drops_hot += s->bin[b].drops;
  }
  sum->lost_frac = off ? (double)lost / (double)(off + lost) : 0;
  sum->recovery_ms = -1;
  const double thr = CPHS_RECOVERY_FRAC * sum->tp_aggr_pre;
  for (uint64_t b = bhe; b + CPHS_RECOVERY_WINDOW <= s->nbins; b++) {
    if (mean_bins(s, tp_all, b, b + CPHS_RECOVERY_WINDOW) >= thr) {
      sum->recovery_ms = (double)(b * bp - p->hot_end_ps) / 1e9;
      break;
    }
  }
}

/* Column list: name, printf format of the row. Keep header and row in step. */
void cphs_summary_csv_header(FILE *f) {
  fprintf(f, "name,n,arrivals,pause,cm,mode,seed,tp_aggr_pre,tp_aggr_ss,tp_hot_hot,tp_hot_ss,"
             "q_ss_mean,q_ss_bin_min,q_ss_bin_max,q_ss_min,q_ss_max,q_peak,"
             "flow_mean,flow_min,flow_max,flow_in_band,drops,drops_hot,lost_frac,recovery_ms,"
             "bcn_neg,bcn_pos,bcn_max,fbcn,limiters_created,frames_gen,frames_out,cp_cycles,digest,"
             "events,wall_s,events_per_s,sim_s_per_wall_s,"
             "egress_peak,egress_drops,xoffs,xons,xoff_occ_min,xoff_occ_max,xon_occ_min,xon_occ_max,"
             "quench_hot_flows,quench_hot_frac,quench_cold_frac,lim_peak,lim_refused\n");
}

void cphs_summary_csv_row(FILE *f, const cphs_summary_t *s) {
  static const char *const cm[] = {"none", "ecm", "e2cm", "e2cm-cp"};
  fprintf(f,
          "%s,%u,%s,%s,%s,%s,%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,"
          "%.1f,%.1f,%.1f,%.0f,%.0f,%.0f,"
          "%.1f,%.1f,%.1f,%.4f,%" PRIu64 ",%" PRIu64 ",%.6f,%.1f,"
          "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
          ",%016" PRIx64 ","
          "%" PRIu64 ",%.3f,%.0f,%.6f,"
          "%.0f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.0f,%.0f,%.0f,%.0f,"
          "%" PRIu64 ",%.6f,%.6f,%" PRIu64 ",%" PRIu64 "\n",
          s->name, s->n, s->arrivals, s->pause ? "on" : "off", cm[s->cm], s->rtl ? "rtl" : "model", s->seed,
          s->tp_aggr_pre, s->tp_aggr_ss, s->tp_hot_hot, s->tp_hot_ss, s->q_ss_mean, s->q_ss_bin_min,
          s->q_ss_bin_max, s->q_ss_min, s->q_ss_max, s->q_peak, s->flow_mean, s->flow_min, s->flow_max,
          s->flow_in_band, s->drops, s->drops_hot, s->lost_frac, s->recovery_ms, s->bcn_neg, s->bcn_pos,
          s->bcn_max, s->fbcn, s->limiters_created, s->frames_gen, s->frames_out, s->cp_cycles, s->digest,
          s->events, s->wall_s, s->events_per_s, s->sim_per_wall, s->egress_peak, s->egress_drops, s->xoffs,
          s->xons, s->xoff_occ_min, s->xoff_occ_max, s->xon_occ_min, s->xon_occ_max, s->quench_hot_flows,
          s->quench_hot_frac, s->quench_cold_frac, s->lim_peak, s->lim_refused);
}

int cphs_summary_same(const cphs_summary_t *a, const cphs_summary_t *b, char *why, size_t len) {
#define SAME(f)                                                                         \
  do {                                                                                  \
    if (a->f != b->f) {                                                                 \
      snprintf(why, len, "%s differs: %.17g vs %.17g", #f, (double)a->f, (double)b->f); \
      return 0;                                                                         \
    }                                                                                   \
  } while (0)
  SAME(tp_aggr_pre);
  SAME(tp_aggr_ss);
  SAME(tp_hot_hot);
  SAME(tp_hot_ss);
  SAME(q_ss_mean);
  SAME(q_ss_bin_min);
  SAME(q_ss_bin_max);
  SAME(q_ss_min);
  SAME(q_ss_max);
  SAME(q_peak);
  SAME(flow_mean);
  SAME(flow_min);
  SAME(flow_max);
  SAME(flow_in_band);
  SAME(drops);
  SAME(drops_hot);
  SAME(lost_frac);
  SAME(recovery_ms);
  SAME(bcn_neg);
  SAME(bcn_pos);
  SAME(bcn_max);
  SAME(fbcn);
  SAME(limiters_created);
  SAME(frames_gen);
  SAME(frames_out);
  SAME(events);
  SAME(egress_peak);
  SAME(egress_drops);
  SAME(xoffs);
  SAME(xons);
  SAME(quench_hot_frac);
  SAME(quench_cold_frac);
  SAME(lim_peak);
  SAME(lim_refused);
#undef SAME
  if (a->digest != b->digest) {
    snprintf(why, len, "digest of the CP outputs differs: %016" PRIx64 " vs %016" PRIx64, a->digest,
             b->digest);
    return 0;
  }
  return 1;
}

const cphs_ts_col_t cphs_ts_cols[CPHS_TS_COLS] = {
    {"tp_aggr", "of N*Rlink", "%.6f"}, {"tp_hot", "of Rlink", "%.6f"},  {"q_hot_mean", "B", "%.1f"},
    {"q_hot_min", "B", "%.0f"},        {"q_hot_max", "B", "%.0f"},      {"q_hot_end", "B", "%.0f"},
    {"drops_cum", "frames", "%.0f"},   {"lost_cum_bytes", "B", "%.0f"}, {"lost_frac", "fraction", "%.6f"},
    {"bcn_neg", "BCNs", "%.0f"},       {"bcn_pos", "BCNs", "%.0f"},     {"bcn_max", "BCNs", "%.0f"},
    {"fbcn", "BCNs", "%.0f"},          {"pauses", "PAUSEs", "%.0f"},    {"limiters", "limiters", "%.0f"},
};

double cphs_ts_values(const cphs_stats_t *s, uint64_t b, uint64_t cum[2], double v[CPHS_TS_COLS]) {
  const cphs_params_t *p = s->p;
  const cphs_bin_t *x = &s->bin[b];
  const double bp = (double)p->bin_ps;
  cum[0] += x->drops;
  cum[1] += x->lost;
  v[0] = (double)x->tx_all * 8e12 / ((double)p->n * p->rlink * bp);
  v[1] = (double)x->tx_hot * 8e12 / (p->rlink * bp);
  v[2] = (double)x->q_int / bp;
  v[3] = x->q_min;
  v[4] = x->q_max;
  v[5] = x->q_end;
  v[6] = (double)cum[0];
  v[7] = (double)cum[1];
  v[8] = x->accepted + x->lost ? (double)x->lost / (double)(x->accepted + x->lost) : 0.0;
  v[9] = x->bcn_neg;
  v[10] = x->bcn_pos;
  v[11] = x->bcn_max;
  v[12] = x->fbcn;
  v[13] = x->pauses;
  v[14] = x->limiters;
  return (double)((b + 1) * p->bin_ps) / 1e9;
}

void cphs_timeseries_csv(FILE *f, const cphs_stats_t *s) {
  fprintf(f, "t_ms");
  for (int c = 0; c < CPHS_TS_COLS; c++) fprintf(f, ",%s", cphs_ts_cols[c].name);
  fprintf(f, "\n");
  uint64_t cum[2] = {0, 0};
  double v[CPHS_TS_COLS];
  for (uint64_t b = 0; b < s->nbins; b++) {
    fprintf(f, "%.3f", cphs_ts_values(s, b, cum, v));
    for (int c = 0; c < CPHS_TS_COLS; c++) {
      fputc(',', f);
      fprintf(f, cphs_ts_cols[c].fmt, v[c]);
    }
    fputc('\n', f);
  }
}

double cphs_flow_mean(const cphs_stats_t *s, unsigned src) {
  return (double)s->flow_int[src] / (double)(s->win1 - s->win0);
}

void cphs_flows_csv(FILE *f, const cphs_stats_t *s) {
  const cphs_params_t *p = s->p;
  fprintf(f, "src,hot_queue_bytes_mean\n");
  for (unsigned i = 0; i < p->n; i++)
    if (i != p->hot) fprintf(f, "%u,%.1f\n", i, cphs_flow_mean(s, i));
}
