/* CP random: enqueue/dequeue streams in phases that drive the congestion
 * point into every corner of docs/cp.md: Q at 0 and at the buffer limit,
 * Fb at both extremes, quantiser edges, BCN_MAX crossings, a full flow table,
 * every mode, every illegal configuration and illegal events.
 *
 * Scoreboard (independent of the model): a ledger of Q under the §5 rules;
 * a mirror of the configuration registers with the §3 validation; every BCN
 * checked for internal consistency against the active configuration (Qoff =
 * Qeq − Q, Fb = Qoff − W·Qdelta, QntzFb = min(63, |Fb|·63/D), the type from
 * the sign and the thresholds); and coverage gates for the corners.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_drive.h"

#define QW      ((unsigned)CP_Q20_F8_PARAM_QW)
#define QMAX    ((1u << QW) - 1u)
#define MAXF    ((unsigned)CP_Q20_F8_PARAM_MaxFrame)
#define NFLOWID 16u /* FlowW = 4: twice the table's 8 entries */
#define RING    4096u

typedef struct {
  uint32_t r[16];
} regs_t;

enum { PH_NORMAL, PH_BADCFG, PH_EXTREME, PH_COUNT };

typedef struct {
  /* stimulus */
  unsigned phase, phase_left, step, next_bad;
  double p_enq, p_deq;
  uint8_t wq_addr[16];
  uint32_t wq_data[16];
  unsigned wq_n, wq_i;
  uint16_t ring_len[RING];
  uint8_t ring_flow[RING];
  unsigned ring_head, ring_n;
  /* scoreboard */
  regs_t shadow, active, active_prev; /* active during this cycle and the previous one */
  uint64_t q;                         /* ledger: Q at the start of this cycle */
  uint64_t q_prev;                    /* ... and of the previous cycle */
  /* Q and the active registers of the last HIST cycles: a BCN on the outputs in cycle
     c was decided in cycle c - (BCN_LAT - 1) (docs/cp.md §10: enqueue t, decision t+1,
     outputs t+11), a per-flow BCN in cycle c - (FBCN_LAT - 1) (outputs t+12) */
  uint64_t q_hist[16];
  regs_t act_hist[16];
  /* per cycle of the last HIST: could its enqueue be answered per flow (§7 answer_probe;
     in E2CM-CP it depends on the sample), and its source and flow */
  bool ans_hist[16];
  uint32_t src_hist[16], flow_hist[16];
  bool want_ev_err, want_cfg_err;
  unsigned want_ev_code, want_cfg_code, held_ev_code, held_cfg_code;
  bool q_was_pos;
  /* coverage */
  unsigned cov_q0, cov_ev[5], cov_cfg[8], cov_ftfull, cov_bcn[3], cov_fbcn[3];
  unsigned cov_qntz63, cov_qntz0;
  int64_t fb_min, fb_max;
  uint64_t busy; /* cycles with an event on the inputs (enqueue, dequeue, register write) */
  double idle;   /* cp_random_sparse only: probability of an idle cycle */
} cpr_t;

static const uint32_t reg_mask[16] = {3,    QMAX, 15,   0xffffffffu, 0xffffffffu,
                                      QMAX, QMAX, QMAX, 0xffff,      0xffffffffu};

static void regs_default(regs_t *g) {
  memset(g, 0, sizeof *g);
  g->r[0] = 0;
  g->r[1] = 76800 & QMAX;
  g->r[2] = 2;
  g->r[3] = 85899346u;
  g->r[4] = 0;
  g->r[5] = 266240 & QMAX;
  g->r[6] = 15360 & QMAX;
  g->r[7] = 53248 & QMAX;
  g->r[8] = 0;
  g->r[9] = 1;
}

/* §3 validation, first failure wins. */
static unsigned regs_check(const regs_t *g) {
  if (g->r[1] == 0) return 1;
  if (g->r[5] <= g->r[1]) return 2;
  if (g->r[6] == 0) return 3;
  if (g->r[7] <= g->r[6]) return 4;
  if (g->r[9] == 0) return 5;
  if (g->r[4] != 0 && g->r[4] < 64) return 6;
  return 0;
}

static void wq_push(cpr_t *t, unsigned addr, uint32_t data) {
  if (t->wq_n < 16) {
    t->wq_addr[t->wq_n] = (uint8_t)addr;
    t->wq_data[t->wq_n++] = data;
  }
}

/* A legal random configuration, written and applied. */
static void random_config(cpr_t *t, cosim_rng_t *rng, unsigned w, uint32_t sample_bytes) {
  uint32_t qeq = 2000 + cosim_rng_below(rng, 200000);
  uint32_t bcnmax = qeq + 1 + cosim_rng_below(rng, QMAX - qeq - 1);
  uint32_t qeqf = 500 + cosim_rng_below(rng, 30000);
  uint32_t bcnmaxf = qeqf + 1 + cosim_rng_below(rng, 100000);
  static const uint32_t psample[] = {85899346u, 429496730u, 2147483648u, 4294967295u};
  unsigned mode = cosim_rng_chance(rng, 0.1) ? 0 : 1 + cosim_rng_below(rng, 3);
  wq_push(t, 0, mode);
  wq_push(t, 1, qeq);
  wq_push(t, 2, w);
  wq_push(t, 3, psample[cosim_rng_below(rng, 4)]);
  wq_push(t, 4, sample_bytes);
  wq_push(t, 5, bcnmax);
  wq_push(t, 6, qeqf);
  wq_push(t, 7, bcnmaxf);
  wq_push(t, 8, cosim_rng_below(rng, 4));
  wq_push(t, 9, 1 + (uint32_t)cosim_rng_below(rng, 0xfffffffeu));
  wq_push(t, 15, 0);
}

/* An illegal configuration for error code `code` (7: an unknown address). */
static void bad_config(cpr_t *t, unsigned code) {
  switch (code) {
    case 1: wq_push(t, 1, 0); break;
    case 2:
      wq_push(t, 1, 50000);
      wq_push(t, 5, 40000);
      break;
    case 3: wq_push(t, 6, 0); break;
    case 4:
      wq_push(t, 6, 20000);
      wq_push(t, 7, 20000);
      break;
    case 5: wq_push(t, 9, 0); break;
    case 6: wq_push(t, 4, 63); break;
    default: wq_push(t, 11, 1234); return;
  }
  wq_push(t, 15, 0);
}

static void new_phase(cpr_t *t, cosim_rng_t *rng) {
  t->phase = cosim_rng_below(rng, 10) < 7 ? PH_NORMAL : cosim_rng_chance(rng, 0.5) ? PH_BADCFG : PH_EXTREME;
  t->phase_left = 500 + cosim_rng_below(rng, 2500);
  t->step = 0;
  t->wq_n = t->wq_i = 0;
  /* fill, drain, balanced; each leaves about 6 % of cycles without an event, so the
     run stays above the 90 % busy gate with the register writes and the extreme phases */
  static const double mix[3][2] = {{0.85, 0.6}, {0.6, 0.85}, {0.75, 0.75}};
  unsigned k = cosim_rng_below(rng, 3);
  t->p_enq = mix[k][0];
  t->p_deq = mix[k][1];
  if (t->phase == PH_NORMAL) {
    random_config(t, rng, cosim_rng_below(rng, 16),
                  cosim_rng_chance(rng, 0.2) ? 64 + cosim_rng_below(rng, 20000) : 0);
  } else if (t->phase == PH_BADCFG) {
    bad_config(t, 1 + t->next_bad); /* every code in turn */
    t->next_bad = (t->next_bad + 1) % 7;
    /* then restore a sane configuration from the shadow the bad one left */
    random_config(t, rng, cosim_rng_below(rng, 16), 0);
  } else {
    /* Fb extremes: fill with sampling off, then W = 15 and every frame sampled. */
    wq_push(t, 4, 0xfffffff0u);
    wq_push(t, 1, 10000);
    wq_push(t, 5, QMAX);
    wq_push(t, 6, 15360);
    wq_push(t, 7, 53248);
    wq_push(t, 9, 7);
    wq_push(t, 8, 0);
    wq_push(t, 0, 1);
    wq_push(t, 15, 0);
    t->phase_left = 1210;
  }
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)prev;
  cpr_t *t = ctx;
  cp_q20_f8_in_t *in = iv;
  if (c == 0) {
    regs_default(&t->shadow);
    t->active = t->active_prev = t->shadow;
    t->fb_min = t->fb_max = 0;
  }
  if (t->phase_left == 0) new_phase(t, rng);
  t->phase_left--;
  t->step++;

  if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true; /* sparse: idle cycle */
  if (t->wq_i < t->wq_n) {                                        /* configuration writes first */
    cp_drive_cfg(in, t->wq_addr[t->wq_i], t->wq_data[t->wq_i]);
    t->wq_i++;
    return true;
  }
  bool enq = cosim_rng_chance(rng, t->p_enq), deq = cosim_rng_chance(rng, t->p_deq);
  uint32_t len = 64 + cosim_rng_below(rng, MAXF - 63);
  if (t->phase == PH_EXTREME) {
    /* fill to the limit (no samples), then every frame sampled with W = 15, then
       drain deep and sample again (Qold stays high): Fb at its negative, then
       positive, extreme */
    unsigned s = t->step - t->wq_n;
    enq = s < 140 || s == 142 || s == 1200 || s == 1202;
    deq = s >= 146 && s < 1190;
    len = MAXF;
    if (s == 141) {
      cp_drive_cfg(in, 2, 15);
    }
    if (s == 143) {
      cp_drive_cfg(in, 4, 64);
    }
    if (s == 144) {
      in->cfg_we_i = 1;
      in->cfg_addr_i = 15;
    }
    if (s == 145) {
      enq = true;
      len = 64;
    } /* Qold = 0: Fb = Qeq − Q − 15·Q */
    if (s == 1200 || s == 1202) len = 64;
    if (in->cfg_we_i) enq = deq = false;
  }
  if (enq) {
    in->enq_valid_i = 1;
    in->enq_len_i =
        (uint16_t)(cosim_rng_chance(rng, 0.01) ? (cosim_rng_chance(rng, 0.5) ? 20 : MAXF + 100) : len);
    in->enq_flow_i = (uint8_t)cosim_rng_below(rng, NFLOWID);
    in->enq_src_i = in->enq_flow_i;
    in->enq_probe_i = cosim_rng_chance(rng, 0.3);
    in->enq_tagged_i = cosim_rng_chance(rng, 0.6);
    in->enq_tag_cpid_i = (uint16_t)cosim_rng_below(rng, 4);
  }
  if (t->phase == PH_EXTREME && enq && in->enq_len_i == 64) {
    in->enq_tagged_i = 1; /* positive feedback needs this CP's tag (CPID 0) */
    in->enq_tag_cpid_i = 0;
  }
  if (deq) {
    in->deq_valid_i = 1;
    if (t->ring_n && !cosim_rng_chance(rng, 0.02)) { /* the oldest frame leaves */
      in->deq_len_i = t->ring_len[t->ring_head];
      in->deq_flow_i = t->ring_flow[t->ring_head];
    } else { /* a bogus dequeue the CP must reject: a bad length, or more than Q holds */
      in->deq_len_i = (uint16_t)(cosim_rng_chance(rng, 0.5) || t->q + 64 > MAXF ? 30 : t->q + 64);
      in->deq_flow_i = (uint8_t)cosim_rng_below(rng, NFLOWID);
    }
  }
  return true;
}

/* docs/cp.md §10, stated here from the spec: the per-flow BCN one cycle after the
   queue-level one (§8: the flow table runs one cycle behind) */
enum { BCN_LAT = 11, FBCN_LAT = 12, HIST = 16 };

static int64_t sext(uint32_t v, unsigned bits) {
  return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
}

static unsigned quant(int64_t fb, uint64_t d) {
  uint64_t mag = (uint64_t)(fb < 0 ? -fb : fb) * 63u;
  return mag >= 64u * d ? 63u : (unsigned)(mag / d);
}

/* One BCN channel's consistency with the configuration that computed it. */
static bool check_msg(cpr_t *t, const regs_t *g, const char *what, unsigned type, uint32_t qoff_b,
                      uint32_t qdelta_b, uint32_t fb_b, unsigned qntz, uint64_t qeq, uint64_t thresh,
                      uint64_t q_known, bool q_is_known, cosim_msg_t *msg, unsigned *cov) {
  int64_t qoff = sext(qoff_b, QW + 1), qd = sext(qdelta_b, QW + 1), fb = sext(fb_b, QW + 5);
  uint64_t w = g->r[2], d = (2 * w + 1) * qeq;
  int64_t q = (int64_t)qeq - qoff;
  if (q_is_known && (uint64_t)q != q_known) {
    cosim_fail(msg, "cp.qoff", "%s: Qoff %lld says Q = %lld, the queue held %llu", what, (long long)qoff,
               (long long)q, (unsigned long long)q_known);
    return false;
  }
  if (fb != qoff - (int64_t)w * qd) {
    cosim_fail(msg, "cp.fb_formula", "%s: Fb %lld != Qoff %lld − %llu·Qdelta %lld", what, (long long)fb,
               (long long)qoff, (unsigned long long)w, (long long)qd);
    return false;
  }
  unsigned want_type = (uint64_t)q > thresh ? 2u : fb < 0 ? 0u : 1u;
  unsigned want_q = want_type == 2 ? 63u : quant(fb, d);
  if (type != want_type || qntz != want_q || (want_type == 1 && fb <= 0)) {
    cosim_fail(msg, "cp.quantiser",
               "%s: type %u QntzFb %u for Q %lld Fb %lld (D %llu); expected type %u QntzFb %u", what, type,
               qntz, (long long)q, (long long)fb, (unsigned long long)d, want_type, want_q);
    return false;
  }
  cov[type]++;
  if (type != 2) {
    t->cov_qntz63 += qntz == 63;
    t->cov_qntz0 += qntz == 0;
  }
  if (fb < t->fb_min) t->fb_min = fb;
  if (fb > t->fb_max) t->fb_max = fb;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *iv, const void *ov, cosim_msg_t *msg) {
  cpr_t *t = ctx;
  const cp_q20_f8_in_t *in = iv;
  const cp_q20_f8_out_t *o = ov;

  t->busy += in->enq_valid_i || in->deq_valid_i || in->cfg_we_i;

  /* --- outputs of this cycle against the ledger and the register mirror --- */
  if (o->q_o != t->q) {
    cosim_fail(msg, "cp.q_ledger", "q_o = %u, the ledger of accepted events says %llu", o->q_o,
               (unsigned long long)t->q);
    return false;
  }
  if (o->ev_err_o != t->want_ev_err || o->ev_err_code_o != t->held_ev_code) {
    cosim_fail(msg, "cp.ev_err", "ev_err_o %u code %u, expected %u code %u", o->ev_err_o, o->ev_err_code_o,
               t->want_ev_err, t->held_ev_code);
    return false;
  }
  if (o->cfg_err_o != t->want_cfg_err || o->cfg_err_code_o != t->held_cfg_code) {
    cosim_fail(msg, "cp.cfg_err", "cfg_err_o %u code %u, expected %u code %u", o->cfg_err_o,
               o->cfg_err_code_o, t->want_cfg_err, t->held_cfg_code);
    return false;
  }
  t->q_hist[c % HIST] = t->q;
  t->act_hist[c % HIST] = t->active;
  if ((o->bcn_valid_o && c < BCN_LAT - 1) || (o->fbcn_valid_o && c < FBCN_LAT - 1)) {
    cosim_fail(msg, "cp.bcn_early", "a BCN in cycle %llu, before any decision could reach the outputs",
               (unsigned long long)c);
    return false;
  }
  const unsigned dc = (unsigned)((c + HIST - (BCN_LAT - 1)) % HIST); /* the decision cycle */
  const regs_t *g = &t->act_hist[dc];
  if (o->bcn_valid_o && !check_msg(t, g, "BCN", o->bcn_type_o, o->bcn_qoff_o, o->bcn_qdelta_o, o->bcn_fb_o,
                                   o->bcn_qntzfb_o, g->r[1], g->r[5], t->q_hist[dc], true, msg, t->cov_bcn))
    return false;
  /* the per-flow BCN against the configuration of its decision cycle, 11 cycles before */
  const regs_t *gf = &t->act_hist[(c + HIST - (FBCN_LAT - 1)) % HIST];
  if (o->fbcn_valid_o &&
      !check_msg(t, gf, "per-flow BCN", o->fbcn_type_o, o->fbcn_qoff_o, o->fbcn_qdelta_o, o->fbcn_fb_o,
                 o->fbcn_qntzfb_o, gf->r[6], gf->r[7], 0, false, msg, t->cov_fbcn))
    return false;
  /* ... and only for an enqueue that could be answered, FBCN_LAT cycles before */
  const unsigned ec = (unsigned)((c + HIST - FBCN_LAT) % HIST);
  if (o->fbcn_valid_o &&
      (!t->ans_hist[ec] || o->fbcn_dst_o != t->src_hist[ec] || o->fbcn_flow_o != t->flow_hist[ec])) {
    cosim_fail(msg, "cp.fbcn_source",
               "per-flow BCN to %u flow %u: the enqueue %u cycles before (%s, source %u flow %u) is no "
               "answered probe",
               (unsigned)o->fbcn_dst_o, (unsigned)o->fbcn_flow_o, (unsigned)FBCN_LAT,
               t->ans_hist[ec] ? "answerable" : "not answerable", t->src_hist[ec], t->flow_hist[ec]);
    return false;
  }
  t->cov_ftfull += o->ft_full_o;

  /* --- this cycle's inputs: the next cycle's expectations (§5, §3) --- */
  t->q_prev = t->q;
  bool enq_len_ok = in->enq_len_i >= 64 && in->enq_len_i <= MAXF;
  bool deq_len_ok = in->deq_len_i >= 64 && in->deq_len_i <= MAXF;
  bool deq_ok = in->deq_valid_i && deq_len_ok && in->deq_len_i <= t->q;
  uint64_t after = t->q - (deq_ok ? in->deq_len_i : 0);
  bool enq_ok = in->enq_valid_i && enq_len_ok && after + in->enq_len_i <= QMAX;
  t->ans_hist[c % HIST] = enq_ok && ((t->active.r[0] == 2 && in->enq_probe_i) || t->active.r[0] == 3);
  t->src_hist[c % HIST] = in->enq_src_i;
  t->flow_hist[c % HIST] = in->enq_flow_i;
  unsigned code = 0;
  if (in->enq_valid_i && !enq_len_ok)
    code = 1;
  else if (in->deq_valid_i && !deq_len_ok)
    code = 2;
  else if (in->enq_valid_i && !enq_ok)
    code = 3;
  else if (in->deq_valid_i && !deq_ok)
    code = 4;
  t->want_ev_err = code != 0;
  if (code) {
    t->held_ev_code = code;
    t->cov_ev[code]++;
  }
  if (deq_ok) {
    if (t->ring_n && t->ring_len[t->ring_head] == in->deq_len_i &&
        t->ring_flow[t->ring_head] == in->deq_flow_i) {
      t->ring_head = (t->ring_head + 1) % RING;
      t->ring_n--;
    }
  }
  if (enq_ok && t->ring_n < RING) {
    unsigned slot = (t->ring_head + t->ring_n++) % RING;
    t->ring_len[slot] = in->enq_len_i;
    t->ring_flow[slot] = in->enq_flow_i;
  }
  t->q = after + (enq_ok ? in->enq_len_i : 0);
  if (t->q > 0) t->q_was_pos = true;
  if (t->q == 0 && t->q_was_pos) t->cov_q0++;

  t->active_prev = t->active;
  t->want_cfg_err = false;
  if (in->cfg_we_i) {
    unsigned a = in->cfg_addr_i;
    if (a == 15) {
      unsigned k = regs_check(&t->shadow);
      if (k) {
        t->want_cfg_err = true;
        t->held_cfg_code = k;
        t->cov_cfg[k]++;
      } else {
        t->active = t->shadow;
      }
    } else if (a <= 9) {
      t->shadow.r[a] = in->cfg_wdata_i & reg_mask[a];
    } else {
      t->want_cfg_err = true;
      t->held_cfg_code = 7;
      t->cov_cfg[7]++;
    }
  }
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  const cpr_t *t = ctx;
  /* Busy gate first: a run that is mostly idle proves little, whatever corners it hit. */
  const double busy = cycles ? (double)t->busy / (double)cycles : 0;
  printf("busy: %.1f %% of %llu cycles had an event (enqueue, dequeue or register write)\n", 100 * busy,
         (unsigned long long)cycles);
  if (busy < 0.90) {
    cosim_fail(msg, "cp.busy", "only %.1f %% of cycles had an event (gate: 90 %%)", 100 * busy);
    return false;
  }
  const char *hole = NULL;
  if (!t->cov_q0)
    hole = "Q never drained to 0";
  else if (!t->cov_ev[3])
    hole = "no enqueue hit the buffer limit";
  for (unsigned k = 1; k <= 4 && !hole; k++)
    if (!t->cov_ev[k]) hole = "an event error code never occurred";
  static char which[64];
  for (unsigned k = 1; k <= 7 && !hole; k++)
    if (!t->cov_cfg[k]) {
      snprintf(which, sizeof which, "configuration error code %u never occurred", k);
      hole = which;
    }
  if (!hole && !t->cov_ftfull) hole = "the flow table never filled";
  for (unsigned k = 0; k < 3 && !hole; k++)
    if (!t->cov_bcn[k] || !t->cov_fbcn[k]) hole = "a BCN type (queue or per-flow) never occurred";
  if (!hole && (!t->cov_qntz63 || !t->cov_qntz0)) hole = "QntzFb never reached 0 and 63 without MAX";
  if (!hole && (t->fb_min > -15 * (int64_t)QMAX || t->fb_max < 14 * (int64_t)QMAX))
    hole = "Fb never came near its extremes (±16·QMax)";
  if (hole) {
    cosim_fail(msg, "cp.coverage", "coverage hole: %s (Fb seen %lld..%lld)", hole, (long long)t->fb_min,
               (long long)t->fb_max);
    return false;
  }
  return true;
}

COSIM_TEST(cp_random, .target = &cp_q20_f8_target,
           .purpose = "CP random phases to every corner; ledger, config mirror, BCN consistency, coverage",
           .ctx_size = sizeof(cpr_t), .drive = drive, .check = check, .finish = finish)

/* The negative of the busy gate: cp_random's stimulus and scoreboard with half of the
   cycles left idle. It exists to fail (regress/testlist: cp_busy_gate). */
static void sparse_init(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  ((cpr_t *)ctx)->idle = 0.5;
}
COSIM_TEST(cp_random_sparse, .target = &cp_q20_f8_target,
           .purpose = "cp_random with half the cycles idle: must fail the busy gate (cp.busy)",
           .ctx_size = sizeof(cpr_t), .init = sparse_init, .drive = drive, .check = check, .finish = finish)
