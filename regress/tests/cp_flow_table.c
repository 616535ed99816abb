/* CP directed: the E2CM per-flow table's timing (docs/cp.md §7, §8, §10).
 *
 * E2CM (MODE 2) with QEQ_FLOW = 1000, BCNMAX_FLOW = 5000, W = 2 (so
 * DF = (2W+1)·QEQ_FLOW = 5000) and PSAMPLE = 0 (no queue-level sample: only
 * probes are answered). A script of events, one row per cycle, with the
 * per-flow BCN each probe must get 12 cycles later (§10) and the cycles in
 * which ft_full_o must pulse (2 cycles after the enqueue, §8), all computed by
 * hand from §7/§8, independently of the C model and the RTL:
 *   o1  flow 1 probe right after o0's enqueue of the same flow (back to back:
 *       its lookup must see o0's 600 B): Qf 900, Qold 0, Fb = 100 − 2·900 = −1700,
 *       QntzFb = floor(1700·63/5000) = 21, NEG at o13;
 *   o2  Qold_flow = 900 (o1's answered probe): Qf 1000, Fb = 0 − 2·100 = −200 → 2, NEG;
 *   o3  enqueue 64 and dequeue 600 of flow 1 in one cycle: Qf 464, Qold 1000,
 *       Fb = 536 + 2·536 = 1608 → 20, POS (a probe's answer needs no tag);
 *   o4  flow 1 drains to 0 (o3's Qold write is lost with it), o5 tracks it
 *       anew: Qf 200, Qold 0, Fb = 800 − 400 = 400 → 5, POS;
 *   o6..o12 flows 2..8 fill the 8-entry table; o13, o14 (flow 9) and o15
 *       (flow 10, while flow 2 leaves in the same cycle) find it full:
 *       ft_full_o at o15, o16, o17; o16's flow 10 takes flow 2's slot (freed by
 *       the event of the cycle before): Qf 64, Fb = 936 − 128 = 808 → 10, POS;
 *   o17 Qf 5064 > BCNMAX_FLOW: MAX (63) with Qdelta 5000 (Qold 64 from o16);
 *   o18 APPLY in the probe's cycle clears Qold_flow (it wins over o17's write):
 *       Qf 5128, Qdelta 5128, MAX; o19 sees o18's write: Qdelta 64, MAX;
 *   o20/o21 MODE 0 and APPLY (active from o22); o21's probe (MODE on, Qold
 *       cleared by o21's APPLY): Qf 5256, Qdelta 5256, MAX; o22's probe is not
 *       answered (MODE off) and the table drops every flow;
 *   o23/o24 MODE 2 and APPLY; o25: flow 10 tracked anew, Qf 64 → 10, POS.
 * cnt_ft_full_o and cnt_fbcn_o must show each pulse in the cycle it appears.
 */
#include <string.h>

#include "cp_drive.h"

enum { FBCN_LAT = 12, FULL_LAT = 2 }; /* docs/cp.md §10, stated here from the spec */
enum { CPT_NEG = 0, CPT_POS = 1, CPT_MAX = 2, NONE = -1 };

/* one row per cycle from FIRST_EVENT: the inputs of that cycle */
static const struct {
  int enq_len, enq_flow, probe; /* enq_len 0: no enqueue */
  int deq_len, deq_flow;        /* deq_len 0: no dequeue */
  int cfg_addr, cfg_data;       /* cfg_addr < 0: no register write */
  int full;                     /* this cycle's enqueue finds the table full */
  /* the per-flow BCN of this cycle's probe (type NONE: no answer) */
  int type, qntz;
  long qoff, qdelta, fb;
} row[] = {
    /* enq        flow probe deq     flow cfg      full type     qntz qoff  qdelta fb */
    {600, 1, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                   /* o0 */
    {300, 1, 1, 0, 0, -1, 0, 0, CPT_NEG, 21, 100, 900, -1700},       /* o1 */
    {100, 1, 1, 0, 0, -1, 0, 0, CPT_NEG, 2, 0, 100, -200},           /* o2 */
    {64, 1, 1, 600, 1, -1, 0, 0, CPT_POS, 20, 536, -536, 1608},      /* o3 */
    {0, 0, 0, 464, 1, -1, 0, 0, NONE, 0, 0, 0, 0},                   /* o4 */
    {200, 1, 1, 0, 0, -1, 0, 0, CPT_POS, 5, 800, 200, 400},          /* o5 */
    {64, 2, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o6 */
    {64, 3, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o7 */
    {64, 4, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o8 */
    {64, 5, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o9 */
    {64, 6, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o10 */
    {64, 7, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o11 */
    {64, 8, 0, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                    /* o12 */
    {64, 9, 0, 0, 0, -1, 0, 1, NONE, 0, 0, 0, 0},                    /* o13 */
    {64, 9, 1, 0, 0, -1, 0, 1, NONE, 0, 0, 0, 0},                    /* o14 */
    {64, 10, 0, 64, 2, -1, 0, 1, NONE, 0, 0, 0, 0},                  /* o15 */
    {64, 10, 1, 0, 0, -1, 0, 0, CPT_POS, 10, 936, 64, 808},          /* o16 */
    {5000, 10, 1, 0, 0, -1, 0, 0, CPT_MAX, 63, -4064, 5000, -14064}, /* o17 */
    {64, 10, 1, 0, 0, 15, 0, 0, CPT_MAX, 63, -4128, 5128, -14384},   /* o18 */
    {64, 10, 1, 0, 0, -1, 0, 0, CPT_MAX, 63, -4192, 64, -4320},      /* o19 */
    {0, 0, 0, 0, 0, 0, 0, 0, NONE, 0, 0, 0, 0},                      /* o20 */
    {64, 10, 1, 0, 0, 15, 0, 0, CPT_MAX, 63, -4256, 5256, -14768},   /* o21 */
    {64, 10, 1, 0, 0, -1, 0, 0, NONE, 0, 0, 0, 0},                   /* o22 */
    {0, 0, 0, 0, 0, 0, 2, 0, NONE, 0, 0, 0, 0},                      /* o23 */
    {0, 0, 0, 0, 0, 15, 0, 0, NONE, 0, 0, 0, 0},                     /* o24 */
    {64, 10, 1, 0, 0, -1, 0, 0, CPT_POS, 10, 936, 64, 808},          /* o25 */
};
#define NROWS (sizeof row / sizeof row[0])

/* configuration: register writes, then APPLY */
static const cp_cfg_write_t config[] = {
    {0, 2}, {1, 10000}, {2, 2}, {3, 0}, {5, 60000}, {6, 1000}, {7, 5000}, {15, 0},
};
#define NCFG        (sizeof config / sizeof config[0])
#define FIRST_EVENT (NCFG + 1)
#define LAST_CYCLE  (FIRST_EVENT + NROWS + FBCN_LAT)

typedef struct {
  unsigned fbcn_seen, full_seen;
} cpf_t;

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  cp_q20_f8_in_t *in = iv;
  if (c < NCFG) {
    cp_drive_cfg(in, config[c].addr, config[c].data);
    return true;
  }
  if (c > LAST_CYCLE) return false;
  if (c < FIRST_EVENT || c - FIRST_EVENT >= NROWS) return true;
  const unsigned k = (unsigned)(c - FIRST_EVENT);
  if (row[k].enq_len) {
    in->enq_valid_i = 1;
    in->enq_len_i = (uint16_t)row[k].enq_len;
    in->enq_flow_i = (uint8_t)row[k].enq_flow;
    in->enq_src_i = (uint8_t)(15 - row[k].enq_flow);
    in->enq_probe_i = (uint8_t)row[k].probe;
  }
  if (row[k].deq_len) {
    in->deq_valid_i = 1;
    in->deq_len_i = (uint16_t)row[k].deq_len;
    in->deq_flow_i = (uint8_t)row[k].deq_flow;
  }
  if (row[k].cfg_addr >= 0) {
    cp_drive_cfg(in, (uint8_t)row[k].cfg_addr, (uint32_t)row[k].cfg_data);
  }
  return true;
}

static int64_t sext(uint32_t v, unsigned bits) {
  return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
}

/* the row whose event shows in cycle c after lat cycles, or -1 */
static int row_at(uint64_t c, unsigned lat) {
  if (c < FIRST_EVENT + lat || c - FIRST_EVENT - lat >= NROWS) return -1;
  return (int)(c - FIRST_EVENT - lat);
}

static bool fbcn_due(uint64_t c) {
  int k = row_at(c, FBCN_LAT);
  return k >= 0 && row[k].type != NONE;
}

static unsigned count_before(uint64_t c, unsigned lat, bool fbcn) {
  unsigned n = 0;
  for (uint64_t x = 0; x <= c; x++) {
    int k = row_at(x, lat);
    if (k >= 0) n += fbcn ? row[k].type != NONE : row[k].full != 0;
  }
  return n;
}

static bool check(void *ctx, uint64_t c, const void *iv, const void *ov, cosim_msg_t *msg) {
  (void)iv;
  cpf_t *t = ctx;
  const cp_q20_f8_out_t *o = ov;
  const unsigned qw = (unsigned)CP_Q20_F8_PARAM_QW;
  if (o->cfg_err_o || o->ev_err_o || o->bcn_valid_o) {
    cosim_fail(msg, "cp.unexpected",
               "unexpected output: cfg_err %u (code %u), ev_err %u (code %u), bcn_valid %u", o->cfg_err_o,
               o->cfg_err_code_o, o->ev_err_o, o->ev_err_code_o, o->bcn_valid_o);
    return false;
  }
  /* ft_full_o: exactly FULL_LAT cycles after the enqueue that found the table full */
  const int kf = row_at(c, FULL_LAT);
  const bool want_full = kf >= 0 && row[kf].full;
  if (o->ft_full_o != want_full) {
    cosim_fail(msg, "cp.ft_full",
               "ft_full_o = %u in cycle %llu (event row o%d), expected %u (latency contract: %d)",
               o->ft_full_o, (unsigned long long)c, (int)(c - FIRST_EVENT) - FULL_LAT, want_full, FULL_LAT);
    return false;
  }
  t->full_seen += o->ft_full_o;
  if (o->cnt_ft_full_o != count_before(c, FULL_LAT, false)) {
    cosim_fail(msg, "cp.cnt_ft_full",
               "cnt_ft_full_o = %u, expected %u (each full table counted with its pulse)", o->cnt_ft_full_o,
               count_before(c, FULL_LAT, false));
    return false;
  }
  if (o->cnt_fbcn_o != count_before(c, FBCN_LAT, true)) {
    cosim_fail(msg, "cp.cnt_fbcn", "cnt_fbcn_o = %u, expected %u (each per-flow BCN counted with it)",
               o->cnt_fbcn_o, count_before(c, FBCN_LAT, true));
    return false;
  }
  /* the per-flow BCN of row k at exactly t_k + FBCN_LAT */
  const bool want = fbcn_due(c);
  if (o->fbcn_valid_o && !want) {
    const bool early = fbcn_due(c + 1), late = c > 0 && fbcn_due(c - 1);
    cosim_fail(msg,
               early  ? "cp.fbcn_early"
               : late ? "cp.fbcn_late"
                      : "cp.fbcn_valid",
               "a per-flow BCN in cycle %llu: %s (latency contract: %d)", (unsigned long long)c,
               early  ? "one cycle before its probe's"
               : late ? "one cycle after its probe's"
                      : "no probe's",
               FBCN_LAT);
    return false;
  }
  if (!o->fbcn_valid_o && want) {
    cosim_fail(msg, "cp.fbcn_missing", "no per-flow BCN in cycle %llu, %d cycles after the probe of row o%d",
               (unsigned long long)c, FBCN_LAT, row_at(c, FBCN_LAT));
    return false;
  }
  if (!want) return true;
  const int k = row_at(c, FBCN_LAT);
  t->fbcn_seen++;
  int64_t qoff = sext(o->fbcn_qoff_o, qw + 1), qd = sext(o->fbcn_qdelta_o, qw + 1),
          fb = sext(o->fbcn_fb_o, qw + 5);
  const unsigned flow = (unsigned)row[k].enq_flow, dst = 15u - flow;
  if (o->fbcn_type_o != (unsigned)row[k].type || qoff != row[k].qoff || qd != row[k].qdelta ||
      fb != row[k].fb || o->fbcn_qntzfb_o != (unsigned)row[k].qntz || o->fbcn_dst_o != dst ||
      o->fbcn_flow_o != flow) {
    cosim_fail(msg, "cp.fbcn_fields",
               "row o%d: per-flow BCN type %u Qoff %lld Qdelta %lld Fb %lld QntzFb %u dst %u flow %u; "
               "expected type %d Qoff %ld Qdelta %ld Fb %ld QntzFb %d dst %u flow %u",
               k, o->fbcn_type_o, (long long)qoff, (long long)qd, (long long)fb, o->fbcn_qntzfb_o,
               o->fbcn_dst_o, o->fbcn_flow_o, row[k].type, row[k].qoff, row[k].qdelta, row[k].fb, row[k].qntz,
               dst, flow);
    return false;
  }
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  const cpf_t *t = ctx;
  unsigned want_f = 0, want_m = 0;
  for (unsigned k = 0; k < NROWS; k++) {
    want_f += row[k].full != 0;
    want_m += row[k].type != NONE;
  }
  if (t->fbcn_seen != want_m || t->full_seen != want_f) {
    cosim_fail(msg, "cp.rows_checked",
               "%u of %u per-flow BCNs and %u of %u full-table pulses seen in %llu cycles", t->fbcn_seen,
               want_m, t->full_seen, want_f, (unsigned long long)cycles);
    return false;
  }
  return true;
}

COSIM_TEST(
    cp_flow_table, .target = &cp_q20_f8_target,
    .purpose = "hand-computed per-flow BCNs and full-table pulses: fbcn at exactly t+12, ft_full_o at t+2",
    .ctx_size = sizeof(cpf_t), .drive = drive, .check = check, .finish = finish)
