/* Binding of the elite4 model (csim/elite4/) to its co-simulation targets
 * (rtl/elite4/elite4.cosim): flat port buses <-> per-port arrays. */
#include "bind/elite4.h"

#include <stdlib.h>

typedef struct {
  elite4_cfg_t cfg;
  elite4_state_t s;
  elite4_next_t nx;
} e4_model_t;

static void *e4_create(const elite4_cfg_t *cfg) {
  e4_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->cfg = *cfg;
  if (elite4_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void e4_reset(void *p) {
  e4_model_t *m = p;
  elite4_reset(&m->s, &m->cfg);
}
static void e4_commit(void *p) {
  e4_model_t *m = p;
  elite4_commit(&m->cfg, &m->s, &m->nx);
}
static void e4_destroy(void *p) {
  e4_model_t *m = p;
  elite4_free(&m->s);
  free(m);
}

#define E4_TARGET(T, U)                                                               \
  static void *T##_create(unsigned bug) {                                             \
    elite4_cfg_t cfg = {(unsigned)U##_PARAM_NumPorts, (unsigned)U##_PARAM_NumVcs,     \
                        (unsigned)U##_PARAM_BufDepth, (uint32_t)U##_PARAM_UpMask, bug}; \
    return e4_create(&cfg);                                                           \
  }                                                                                   \
  static void T##_eval(void *p, const void *iv, void *ov) {                           \
    e4_model_t *m = p;                                                                \
    const T##_in_t *in = iv;                                                          \
    T##_out_t *out = ov;                                                              \
    const unsigned P = m->cfg.num_ports, V = m->cfg.num_vcs, VW = V == 2 ? 1 : 2;     \
    elite4_in_t mi;                                                                   \
    elite4_out_t mo;                                                                  \
    memset(&mi, 0, sizeof mi);                                                        \
    for (unsigned o = 0; o < P; o++) {                                                \
      mi.valid[o] = E4_GET(in, in_valid_i, o, 1);                                     \
      mi.kind[o] = E4_GET(in, in_kind_i, 2 * o, 2);                                   \
      mi.vc[o] = E4_GET(in, in_vc_i, VW * o, VW);                                     \
      mi.data[o] = E4_GET(in, in_data_i, 32 * o, 32);                                 \
      for (unsigned v = 0; v < V; v++) mi.credit[o][v] = E4_GET(in, in_credit_i, o * V + v, 1); \
    }                                                                                 \
    elite4_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);                                    \
    for (unsigned o = 0; o < P; o++) {                                                \
      E4_SET(out, out_valid_o, o, 1, mo.valid[o]);                                    \
      E4_SET(out, out_kind_o, 2 * o, 2, mo.kind[o]);                                  \
      E4_SET(out, out_vc_o, VW * o, VW, mo.vc[o]);                                    \
      E4_SET(out, out_data_o, 32 * o, 32, mo.data[o]);                                \
      for (unsigned v = 0; v < V; v++) {                                              \
        E4_SET(out, out_credit_o, o * V + v, 1, mo.credit[o][v]);                     \
        E4_SET(out, alloc_o, o * V + v, 1, mo.alloc[o][v]);                           \
      }                                                                               \
      E4_SET(out, err_o, o, 1, mo.err[o]);                                            \
      E4_SET(out, err_code_o, 3 * o, 3, mo.err_code[o]);                              \
      out->cnt_xmit_flits_o[o] = mo.cnt_xmit_flits[o];                                \
      out->cnt_rcv_flits_o[o] = mo.cnt_rcv_flits[o];                                  \
      out->cnt_xmit_pkts_o[o] = mo.cnt_xmit_pkts[o];                                  \
      out->cnt_rcv_pkts_o[o] = mo.cnt_rcv_pkts[o];                                    \
      out->cnt_xmit_wait_o[o] = mo.cnt_xmit_wait[o];                                  \
      out->cnt_errors_o[o] = mo.cnt_errors[o];                                        \
      out->cnt_crc_errors_o[o] = mo.cnt_crc_errors[o];                                \
    }                                                                                 \
  }                                                                                   \
  const cosim_target_t T##_target = {                                                 \
      &T##_glue, {T##_create, e4_reset, T##_eval, e4_commit, e4_destroy, elite4_bug_names, NULL}};

E4_TARGET(elite4_p8, ELITE4_P8)
E4_TARGET(elite4_p4, ELITE4_P4)
