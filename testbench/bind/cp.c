/* Binding of the CP model (csim/cp/) to its co-simulation targets
 * (rtl/cp/cp.cosim). The model is configured from the RTL's elaborated
 * parameters; signed outputs become two's complement at their port width. */
#include "bind/cp.h"

#include <stdlib.h>

typedef struct {
  cp_cfg_t cfg;
  cp_state_t s;
  cp_next_t nx;
} cp_model_t;

static void *cp_model_create(const cp_cfg_t *cfg) {
  cp_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->cfg = *cfg;
  if (cp_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void cp_model_reset(void *p) {
  cp_model_t *m = p;
  cp_reset(&m->s, &m->cfg);
}
static void cp_model_commit(void *p) {
  cp_model_t *m = p;
  cp_commit(&m->cfg, &m->s, &m->nx);
}
static void cp_model_destroy(void *p) {
  cp_model_t *m = p;
  cp_free(&m->s);
  free(m);
}

/* --- garbage before reset (docs/cosim.md "Reset") -------------------------------------
 * Every register of the model and every field of the pending next state gets a value
 * that its register could hold but that is not its reset value, so a register that
 * cp_reset forgets (or a next-state field cp_eval forgets) differs from the RTL, whose
 * registers start from seeded random values. */

/* A value of `bits` bits (1..64) other than `reset`. */
static uint64_t junk(cosim_rng_t *r, unsigned bits, uint64_t reset) {
  const uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1u;
  uint64_t v = cosim_rng_u64(r) & mask;
  return v == (reset & mask) ? (v ^ 1u) : v;
}
/* A signed value of `bits` bits (two's complement range), non-zero. */
static int64_t sjunk(cosim_rng_t *r, unsigned bits) {
  const int64_t v = (int64_t)(cosim_rng_u64(r) << (64 - bits)) >> (64 - bits);
  return v ? v : -1;
}

static void junk_regs(cosim_rng_t *r, const cp_cfg_t *cfg, cp_regs_t *g) {
  g->mode = (uint32_t)junk(r, 2, CP_RESET_MODE);
  g->qeq = (uint32_t)junk(r, cfg->qw, CP_RESET_QEQ);
  g->w = (uint32_t)junk(r, 4, CP_RESET_W);
  g->psample = (uint32_t)junk(r, 32, CP_RESET_PSAMPLE);
  g->sample_bytes = (uint32_t)junk(r, 32, CP_RESET_SAMPLE_BYTES);
  g->bcnmax = (uint32_t)junk(r, cfg->qw, CP_RESET_BCNMAX);
  g->qeq_flow = (uint32_t)junk(r, cfg->qw, CP_RESET_QEQ_FLOW);
  g->bcnmax_flow = (uint32_t)junk(r, cfg->qw, CP_RESET_BCNMAX_FLOW);
  g->cpid = (uint32_t)junk(r, 16, CP_RESET_CPID);
  g->seed = (uint32_t)junk(r, 32, CP_RESET_SEED);
  if (!g->seed) g->seed = 2; /* the LFSR seed register never holds 0 */
}

static void junk_msg(cosim_rng_t *r, const cp_cfg_t *cfg, cp_msg_t *m) {
  m->valid = true;
  m->type = 1 + (unsigned)cosim_rng_below(r, 2); /* POS or MAX: never the reset NEG (0) */
  m->dst = (uint32_t)junk(r, cfg->node_w, 0);
  m->flow = (uint32_t)junk(r, cfg->flow_w, 0);
  m->qoff = sjunk(r, cfg->qw + 1);
  m->qdelta = sjunk(r, cfg->qw + 1);
  m->fb = sjunk(r, cfg->qw + 5);
  m->qntzfb = (unsigned)junk(r, 6, 0);
}

static void junk_entry(cosim_rng_t *r, const cp_cfg_t *cfg, cp_flow_entry_t *e) {
  e->valid = true;
  e->flow = (uint32_t)junk(r, cfg->flow_w, 0);
  e->q = junk(r, cfg->qw, 0);
  e->qold = junk(r, cfg->qw, 0);
}

static void junk_counters(cosim_rng_t *r, cp_counters_t *c) {
  c->frames = (uint32_t)junk(r, 32, 0);
  c->samples = (uint32_t)junk(r, 32, 0);
  c->bcn_neg = (uint32_t)junk(r, 32, 0);
  c->bcn_pos = (uint32_t)junk(r, 32, 0);
  c->bcn_max = (uint32_t)junk(r, 32, 0);
  c->fbcn = (uint32_t)junk(r, 32, 0);
  c->ft_full = (uint32_t)junk(r, 32, 0);
  c->errors = (uint32_t)junk(r, 32, 0);
}

static void junk_sample(cosim_rng_t *r, const cp_cfg_t *cfg, cp_sample_reg_t *p) {
  p->sample = p->answer_probe = p->tag_ok = true;
  p->src = (uint32_t)junk(r, cfg->node_w, 0);
  p->flow = (uint32_t)junk(r, cfg->flow_w, 0);
}

/* A feedback pipeline stage (docs/cp.md §10) that is not its reset value: a sample
   with both messages. */
static void junk_stage(cosim_rng_t *r, const cp_cfg_t *cfg, cp_fb_stage_t *st) {
  st->sample = true;
  junk_msg(r, cfg, &st->bcn);
  st->bcn.valid = true;
  st->cpid = (uint32_t)junk(r, 16, 0);
  junk_msg(r, cfg, &st->fbcn);
  st->fbcn.valid = true;
}

static void cp_model_scramble(void *p, uint64_t seed) {
  cp_model_t *m = p;
  const cp_cfg_t *cfg = &m->cfg;
  cp_state_t *s = &m->s;
  cp_next_t *nx = &m->nx;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);

  junk_regs(&r, cfg, &s->shadow);
  junk_regs(&r, cfg, &s->active);
  s->q = junk(&r, cfg->qw, 0);
  s->lfsr.lfsr = (uint32_t)junk(&r, 32, CP_RESET_SEED) | 2u; /* never 0, never the reset 1 */
  s->lfsr.seed_err = true;
  s->cd = (uint32_t)junk(&r, 32, 0);
  junk_sample(&r, cfg, &s->smp);
  s->qold = junk(&r, cfg->qw, 0);
  for (unsigned k = 0; k < CP_FB_STAGES; k++) junk_stage(&r, cfg, &s->fbp[k]);
  s->pend.frame = s->pend.ft_full = s->pend.ev_err = s->pend.cfg_err = true;
  for (unsigned i = 0; i < cfg->num_flows; i++) junk_entry(&r, cfg, &s->ft[i]);
  junk_msg(&r, cfg, &s->bcn);
  s->bcn_cpid = (uint32_t)junk(&r, 16, 0);
  junk_msg(&r, cfg, &s->fbcn);
  s->cfg_err = s->ev_err = s->ft_full = true;
  s->cfg_err_code = 1 + (unsigned)cosim_rng_below(&r, 7);
  s->ev_err_code = 1 + (unsigned)cosim_rng_below(&r, 4);
  junk_counters(&r, &s->cnt);

  /* The pending next state: cp_eval must write all of it before any commit. */
  junk_regs(&r, cfg, &nx->shadow);
  junk_regs(&r, cfg, &nx->active);
  nx->q = junk(&r, cfg->qw, 0);
  nx->lfsr.lfsr = (uint32_t)junk(&r, 32, CP_RESET_SEED) | 2u;
  nx->lfsr.seed_err = true;
  nx->cd = (uint32_t)junk(&r, 32, 0);
  junk_sample(&r, cfg, &nx->smp);
  nx->qold = junk(&r, cfg->qw, 0);
  for (unsigned k = 0; k < CP_FB_STAGES; k++) junk_stage(&r, cfg, &nx->fbp[k]);
  nx->pend.frame = nx->pend.ft_full = nx->pend.ev_err = nx->pend.cfg_err = true;
  nx->ft_nwr = CP_FT_MAX_WRITES;
  for (unsigned i = 0; i < CP_FT_MAX_WRITES; i++) {
    nx->ft_wr[i].idx = (unsigned)cosim_rng_below(&r, cfg->num_flows);
    junk_entry(&r, cfg, &nx->ft_wr[i].e);
  }
  nx->ft_clear_qold = nx->ft_invalidate = true;
  junk_msg(&r, cfg, &nx->bcn);
  nx->bcn_cpid = (uint32_t)junk(&r, 16, 0);
  junk_msg(&r, cfg, &nx->fbcn);
  nx->cfg_err = nx->ev_err = nx->ft_full = true;
  nx->cfg_err_code = 1 + (unsigned)cosim_rng_below(&r, 7);
  nx->ev_err_code = 1 + (unsigned)cosim_rng_below(&r, 4);
  junk_counters(&r, &nx->cnt);
  nx->apply_ok = nx->enq_ok = nx->deq_ok = nx->sample = true;
  /* the delayed table's output registers (docs/cp.md §8), drawn last so the values above
     stay as they were */
  s->ft_full_pend = nx->ft_full_pend = true;
  junk_msg(&r, cfg, &s->fbcn_late);
  junk_msg(&r, cfg, &nx->fbcn_late);
}

/* A signed value as the low `bits` of its two's complement. */
static inline uint64_t twos(int64_t v, unsigned bits) { return (uint64_t)v & ((1ULL << bits) - 1); }

#define CP_TARGET(T, U)                                                                                   \
  static void *T##_create(unsigned bug) {                                                                 \
    cp_cfg_t cfg = {(unsigned)U##_PARAM_QW,    (unsigned)U##_PARAM_NumFlows, (unsigned)U##_PARAM_FlowW,   \
                    (unsigned)U##_PARAM_NodeW, (unsigned)U##_PARAM_MaxFrame, bug};                        \
    return cp_model_create(&cfg);                                                                         \
  }                                                                                                       \
  static void T##_eval(void *p, const void *iv, void *ov) {                                               \
    cp_model_t *m = p;                                                                                    \
    const T##_in_t *in = iv;                                                                              \
    T##_out_t *out = ov;                                                                                  \
    const unsigned qw = (unsigned)U##_PARAM_QW;                                                           \
    cp_in_t mi = {in->cfg_we_i,    in->cfg_addr_i, in->cfg_wdata_i, in->enq_valid_i,  in->enq_len_i,      \
                  in->enq_flow_i,  in->enq_src_i,  in->enq_probe_i, in->enq_tagged_i, in->enq_tag_cpid_i, \
                  in->deq_valid_i, in->deq_len_i,  in->deq_flow_i};                                       \
    cp_out_t mo;                                                                                          \
    cp_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);                                                            \
    out->q_o = mo.q;                                                                                      \
    out->bcn_valid_o = mo.bcn_valid;                                                                      \
    out->bcn_type_o = (uint8_t)mo.bcn_type;                                                               \
    out->bcn_dst_o = (uint8_t)mo.bcn_dst;                                                                 \
    out->bcn_flow_o = (uint8_t)mo.bcn_flow;                                                               \
    out->bcn_cpid_o = (uint16_t)mo.bcn_cpid;                                                              \
    out->bcn_qoff_o = twos(mo.bcn_qoff, qw + 1);                                                          \
    out->bcn_qdelta_o = twos(mo.bcn_qdelta, qw + 1);                                                      \
    out->bcn_fb_o = twos(mo.bcn_fb, qw + 5);                                                              \
    out->bcn_qntzfb_o = (uint8_t)mo.bcn_qntzfb;                                                           \
    out->fbcn_valid_o = mo.fbcn_valid;                                                                    \
    out->fbcn_type_o = (uint8_t)mo.fbcn_type;                                                             \
    out->fbcn_dst_o = (uint8_t)mo.fbcn_dst;                                                               \
    out->fbcn_flow_o = (uint8_t)mo.fbcn_flow;                                                             \
    out->fbcn_qoff_o = twos(mo.fbcn_qoff, qw + 1);                                                        \
    out->fbcn_qdelta_o = twos(mo.fbcn_qdelta, qw + 1);                                                    \
    out->fbcn_fb_o = twos(mo.fbcn_fb, qw + 5);                                                            \
    out->fbcn_qntzfb_o = (uint8_t)mo.fbcn_qntzfb;                                                         \
    out->cfg_err_o = mo.cfg_err;                                                                          \
    out->cfg_err_code_o = (uint8_t)mo.cfg_err_code;                                                       \
    out->ev_err_o = mo.ev_err;                                                                            \
    out->ev_err_code_o = (uint8_t)mo.ev_err_code;                                                         \
    out->ft_full_o = mo.ft_full;                                                                          \
    out->cnt_frames_o = mo.cnt_frames;                                                                    \
    out->cnt_samples_o = mo.cnt_samples;                                                                  \
    out->cnt_bcn_neg_o = mo.cnt_bcn_neg;                                                                  \
    out->cnt_bcn_pos_o = mo.cnt_bcn_pos;                                                                  \
    out->cnt_bcn_max_o = mo.cnt_bcn_max;                                                                  \
    out->cnt_fbcn_o = mo.cnt_fbcn;                                                                        \
    out->cnt_ft_full_o = mo.cnt_ft_full;                                                                  \
    out->cnt_errors_o = mo.cnt_errors;                                                                    \
  }                                                                                                       \
  const cosim_target_t T##_target = {&T##_glue,                                                           \
                                     {T##_create, cp_model_reset, T##_eval, cp_model_commit,              \
                                      cp_model_destroy, cp_bug_names, cp_model_scramble}};

CP_TARGET(cp_q20_f8, CP_Q20_F8)
CP_TARGET(cp_exp, CP_EXP)
