/* Binding of the ibsw model (csim/ibsw/) to its co-simulation targets
 * (rtl/ibsw/ibsw.cosim). The target boilerplate and the per-lane port accessors are
 * generated (ibsw_view_t, <T>_BIND_TARGET); this file holds the model calls and the
 * scramble. Port n (1..P) is lane n-1 of every per-port bus. */
#include "bind/ibsw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const ibsw_view_t *vw;
  ibsw_cfg_t cfg;
  ibsw_state_t s;
  ibsw_next_t nx;
  unsigned bbug;              /* a planted bug of the binding's own (below) */
  uint8_t cr_now[IBSW_MAXP1]; /* credit_counted_twice: this cycle's returns on in_credit_i */
} ib_model_t;

/* Planted bugs: the model's (csim/ibsw's list IBSW_BUGS, so the same names in the same order)
 * and, after them, the binding's own. credit_counted_twice: a data-lane credit return (LinkUp) adds two
 * to the model's counter, up to its maximum (no error 14), so the model believes it has credits
 * its neighbour never gave (the negative of the harness's ibsw.credit check). */
enum { IB_BUG_CREDIT_COUNTED_TWICE = IBSW_BUG_COUNT };
static const char *const ib_bug_names[] = {IBSW_BUGS(IBSW_BUG_NAME) "credit_counted_twice", NULL};
_Static_assert(sizeof ib_bug_names / sizeof ib_bug_names[0] == IBSW_BUG_COUNT + 2u,
               "ib_bug_names: the model's bugs, then the binding's one");

static void *ib_create(const ibsw_view_t *vw, unsigned bug) {
  ib_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->vw = vw;
  m->bbug = bug >= IBSW_BUG_COUNT ? bug : 0;
  if (m->bbug) bug = 0;
  m->cfg = (ibsw_cfg_t){
      (unsigned)vw->param.NumPorts,   (unsigned)vw->param.NumDataVls,  (unsigned)vw->param.BufDepth,
      (unsigned)vw->param.Buf15Depth, (unsigned)vw->param.RouteCycles, (uint32_t)vw->param.WakeCycles,
      (unsigned)vw->param.LftBlocks,  (unsigned)vw->param.LinkSpeed,   (unsigned)vw->param.CntW,
      (unsigned)vw->param.ExtW,       (unsigned)vw->param.BootActive,  bug};
  if (ibsw_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void ib_reset(void *p) {
  ib_model_t *m = p;
  ibsw_reset(&m->s, &m->cfg);
  memset(m->cr_now, 0, sizeof m->cr_now);
}
static void ib_commit(void *p) {
  ib_model_t *m = p;
  ibsw_commit(&m->cfg, &m->s, &m->nx);
  if (m->bbug == IB_BUG_CREDIT_COUNTED_TWICE) /* planted: the second unit of each return */
    for (unsigned n = 1; n <= m->cfg.num_ports; n++)
      for (unsigned l = 0; l < m->cfg.num_data_vls; l++)
        if (((m->cr_now[n] >> l) & 1) && m->s.r.port[n].phys == IBSW_LINKUP &&
            m->s.r.cred[n][l] < ibsw_lane_depth(&m->cfg, l))
          m->s.r.cred[n][l]++;
}
static void ib_destroy(void *p) {
  ib_model_t *m = p;
  ibsw_free(&m->s);
  free(m);
}

static void ib_eval(void *p, const void *in, void *out) {
  ib_model_t *m = p;
  const ibsw_view_t *w = m->vw;
  const unsigned P = m->cfg.num_ports;
  ibsw_in_t mi;
  ibsw_out_t mo;
  memset(&mi, 0, sizeof mi);
  for (unsigned n = 1; n <= P; n++) {
    mi.valid[n] = cosim_lane_get(&w->in.in_valid_i, in, n - 1);
    mi.kind[n] = (uint8_t)cosim_lane_get(&w->in.in_kind_i, in, n - 1);
    mi.vl[n] = (uint8_t)cosim_lane_get(&w->in.in_vl_i, in, n - 1);
    mi.data[n] = cosim_lane_get(&w->in.in_data_i, in, n - 1);
    mi.credit[n] = (uint8_t)cosim_lane_get(&w->in.in_credit_i, in, n - 1);
    m->cr_now[n] = mi.credit[n];
  }
  mi.cfg_valid = cosim_lane_get(&w->in.cfg_valid_i, in, 0);
  mi.cfg_sel = (uint8_t)cosim_lane_get(&w->in.cfg_sel_i, in, 0);
  mi.cfg_addr = (uint16_t)cosim_lane_get(&w->in.cfg_addr_i, in, 0);
  mi.cfg_data = (uint16_t)cosim_lane_get(&w->in.cfg_data_i, in, 0);
  ibsw_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);
  static const size_t cnt_port[IBSW_NCNT] = {
      offsetof(ibsw_view_t, out.cnt_xmit_data_o),     offsetof(ibsw_view_t, out.cnt_rcv_data_o),
      offsetof(ibsw_view_t, out.cnt_xmit_pkts_o),     offsetof(ibsw_view_t, out.cnt_rcv_pkts_o),
      offsetof(ibsw_view_t, out.cnt_xmit_wait_o),     offsetof(ibsw_view_t, out.cnt_symbol_err_o),
      offsetof(ibsw_view_t, out.cnt_rcv_err_o),       offsetof(ibsw_view_t, out.cnt_relay_err_o),
      offsetof(ibsw_view_t, out.cnt_xmit_discards_o), offsetof(ibsw_view_t, out.cnt_vl15_dropped_o),
      offsetof(ibsw_view_t, out.cnt_link_downed_o),   offsetof(ibsw_view_t, out.ext_xmit_data_o),
      offsetof(ibsw_view_t, out.ext_rcv_data_o),      offsetof(ibsw_view_t, out.ext_xmit_pkts_o),
      offsetof(ibsw_view_t, out.ext_rcv_pkts_o)};
  for (unsigned n = 1; n <= P; n++) {
    const unsigned k = n - 1;
    cosim_lane_set(&w->out.out_valid_o, out, k, mo.valid[n]);
    cosim_lane_set(&w->out.out_kind_o, out, k, mo.kind[n]);
    cosim_lane_set(&w->out.out_vl_o, out, k, mo.vl[n]);
    cosim_lane_set(&w->out.out_data_o, out, k, mo.data[n]);
    cosim_lane_set(&w->out.out_credit_o, out, k, mo.credit[n]);
    cosim_lane_set(&w->out.port_state_o, out, k, mo.port_state[n]);
    cosim_lane_set(&w->out.phys_state_o, out, k, mo.phys_state[n]);
    cosim_lane_set(&w->out.draining_o, out, k, mo.draining[n]);
    cosim_lane_set(&w->out.power_on_o, out, k, mo.power_on[n]);
    cosim_lane_set(&w->out.err_o, out, k, mo.err[n]);
    cosim_lane_set(&w->out.err_code_o, out, k, mo.err_code[n]);
    cosim_lane_set(&w->out.sample_status_o, out, k, mo.sample_status[n]);
    for (unsigned c = 0; c < IBSW_NCNT; c++)
      cosim_lane_set((const cosim_lane_t *)((const char *)w + cnt_port[c]), out, k, mo.cnt[n][c]);
  }
  cosim_lane_set(&w->out.power_mw_o, out, 0, mo.power_mw);
  cosim_lane_set(&w->out.energy_o, out, 0, mo.energy);
  cosim_lane_set(&w->out.sma_err_o, out, 0, mo.sma_err);
  cosim_lane_set(&w->out.sma_err_code_o, out, 0, mo.sma_err_code);
  cosim_lane_set(&w->out.cnt_sma_dropped_o, out, 0, mo.cnt_sma_dropped);
}

/* scramble: csim/ibsw/ibsw_scramble.c (the model's own, so its unit test proves a
   forgotten reset shows). */
static void ib_scramble(void *p, uint64_t seed) {
  ib_model_t *m = p;
  ibsw_scramble(&m->s, &m->nx, &m->cfg, seed);
}

IBSW_P24_BIND_TARGET(ib)
IBSW_P4_BIND_TARGET(ib)
IBSW_P2_MAX_BIND_TARGET(ib)
IBSW_P31_BIND_TARGET(ib)
IBSW_P8_W24_BIND_TARGET(ib)

void ibsw_bind_parts(void *p, const ibsw_cfg_t **cfg, ibsw_state_t **s, ibsw_next_t **nx) {
  ib_model_t *m = p;
  *cfg = &m->cfg;
  *s = &m->s;
  *nx = &m->nx;
}
