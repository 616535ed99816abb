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

/* A signed value as the low `bits` of its two's complement. */
static inline uint64_t twos(int64_t v, unsigned bits) { return (uint64_t)v & ((1ULL << bits) - 1); }

#define CP_TARGET(T, U)                                                              \
  static void *T##_create(unsigned bug) {                                            \
    cp_cfg_t cfg = {(unsigned)U##_PARAM_QW, (unsigned)U##_PARAM_NumFlows,            \
                    (unsigned)U##_PARAM_FlowW, (unsigned)U##_PARAM_NodeW,            \
                    (unsigned)U##_PARAM_MaxFrame, bug};                              \
    return cp_model_create(&cfg);                                                    \
  }                                                                                  \
  static void T##_eval(void *p, const void *iv, void *ov) {                          \
    cp_model_t *m = p;                                                               \
    const T##_in_t *in = iv;                                                         \
    T##_out_t *out = ov;                                                             \
    const unsigned qw = (unsigned)U##_PARAM_QW;                                      \
    cp_in_t mi = {in->cfg_we_i, in->cfg_addr_i, in->cfg_wdata_i, in->enq_valid_i,    \
                  in->enq_len_i, in->enq_flow_i, in->enq_src_i, in->enq_probe_i,     \
                  in->enq_tagged_i, in->enq_tag_cpid_i, in->deq_valid_i,             \
                  in->deq_len_i, in->deq_flow_i};                                    \
    cp_out_t mo;                                                                     \
    cp_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);                                       \
    out->q_o = mo.q;                                                                 \
    out->bcn_valid_o = mo.bcn_valid;                                                 \
    out->bcn_type_o = (uint8_t)mo.bcn_type;                                          \
    out->bcn_dst_o = (uint8_t)mo.bcn_dst;                                            \
    out->bcn_flow_o = (uint8_t)mo.bcn_flow;                                          \
    out->bcn_cpid_o = (uint16_t)mo.bcn_cpid;                                         \
    out->bcn_qoff_o = twos(mo.bcn_qoff, qw + 1);                                     \
    out->bcn_qdelta_o = twos(mo.bcn_qdelta, qw + 1);                                 \
    out->bcn_fb_o = twos(mo.bcn_fb, qw + 5);                                         \
    out->bcn_qntzfb_o = (uint8_t)mo.bcn_qntzfb;                                      \
    out->fbcn_valid_o = mo.fbcn_valid;                                               \
    out->fbcn_type_o = (uint8_t)mo.fbcn_type;                                        \
    out->fbcn_dst_o = (uint8_t)mo.fbcn_dst;                                          \
    out->fbcn_flow_o = (uint8_t)mo.fbcn_flow;                                        \
    out->fbcn_qoff_o = twos(mo.fbcn_qoff, qw + 1);                                   \
    out->fbcn_qdelta_o = twos(mo.fbcn_qdelta, qw + 1);                               \
    out->fbcn_fb_o = twos(mo.fbcn_fb, qw + 5);                                       \
    out->fbcn_qntzfb_o = (uint8_t)mo.fbcn_qntzfb;                                    \
    out->cfg_err_o = mo.cfg_err;                                                     \
    out->cfg_err_code_o = (uint8_t)mo.cfg_err_code;                                  \
    out->ev_err_o = mo.ev_err;                                                       \
    out->ev_err_code_o = (uint8_t)mo.ev_err_code;                                    \
    out->ft_full_o = mo.ft_full;                                                     \
    out->cnt_frames_o = mo.cnt_frames;                                               \
    out->cnt_samples_o = mo.cnt_samples;                                             \
    out->cnt_bcn_neg_o = mo.cnt_bcn_neg;                                             \
    out->cnt_bcn_pos_o = mo.cnt_bcn_pos;                                             \
    out->cnt_bcn_max_o = mo.cnt_bcn_max;                                             \
    out->cnt_fbcn_o = mo.cnt_fbcn;                                                   \
    out->cnt_ft_full_o = mo.cnt_ft_full;                                             \
    out->cnt_errors_o = mo.cnt_errors;                                               \
  }                                                                                  \
  const cosim_target_t T##_target = {                                                \
      &T##_glue,                                                                     \
      {T##_create, cp_model_reset, T##_eval, cp_model_commit, cp_model_destroy, cp_bug_names, NULL}};

CP_TARGET(cp_q20_f8, CP_Q20_F8)
CP_TARGET(cp_exp, CP_EXP)
