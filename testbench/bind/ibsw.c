/* Binding of the ibsw model (csim/ibsw/) to its co-simulation targets
 * (rtl/ibsw/ibsw.cosim). The target boilerplate and the per-lane port accessors are
 * generated (ibsw_view_t, <T>_BIND_TARGET); this file holds the model calls and the
 * scramble. Port n (1..P) is lane n-1 of every per-port bus. */
#include "bind/ibsw.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const ibsw_view_t *vw;
  ibsw_cfg_t cfg;
  ibsw_state_t s;
  ibsw_next_t nx;
} ib_model_t;

static void *ib_create(const ibsw_view_t *vw, unsigned bug) {
  ib_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->vw = vw;
  m->cfg = (ibsw_cfg_t){(unsigned)vw->param.NumPorts,   (unsigned)vw->param.NumDataVls, (unsigned)vw->param.BufDepth,
                        (unsigned)vw->param.Buf15Depth, (unsigned)vw->param.RouteCycles,
                        (uint32_t)vw->param.WakeCycles, (unsigned)vw->param.LftBlocks,  (unsigned)vw->param.LinkSpeed,
                        (unsigned)vw->param.CntW,       (unsigned)vw->param.ExtW,       (unsigned)vw->param.BootActive,
                        bug};
  if (ibsw_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void ib_reset(void *p) {
  ib_model_t *m = p;
  ibsw_reset(&m->s, &m->cfg);
}
static void ib_commit(void *p) {
  ib_model_t *m = p;
  ibsw_commit(&m->cfg, &m->s, &m->nx);
}
static void ib_destroy(void *p) {
  ib_model_t *m = p;
  ibsw_free(&m->s);
  free(m);
}
#define ib_bug_names ibsw_bug_names

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

/* --- scramble: every register, every buffer entry and every pending next-state field
 * gets a value legal for its type and never its reset value, as the RTL's registers start
 * random; only ibsw_reset may bring them back. ----------------------------------------- */
static unsigned nz_below(cosim_rng_t *r, unsigned n) { return n < 2 ? 0 : 1 + cosim_rng_below(r, n - 1); }
static uint64_t nz64(cosim_rng_t *r) { return cosim_rng_u64(r) | 1u; }

static void scr_flit(cosim_rng_t *r, ibsw_flit_t *f) {
  *f = (ibsw_flit_t){1, (uint8_t)cosim_rng_below(r, 4), (uint8_t)cosim_rng_below(r, 16), 1, nz64(r)};
}

static void scr_regs(cosim_rng_t *r, const ibsw_cfg_t *c, ibsw_regs_t *g) {
  const unsigned P = c->num_ports, NL = c->num_data_vls + 1;
  g->cycle = 1 + cosim_rng_below(r, 1000); /* a wrong slot phase shows at a slower LinkSpeed */
  for (unsigned n = 0; n <= P; n++) {
    for (unsigned l = 0; l < NL; l++) {
      const unsigned d = ibsw_lane_depth(c, l);
      ibsw_lane_t *x = &g->ln[n][l];
      x->rd = (uint16_t)nz_below(r, d);
      x->cnt = (uint16_t)(1 + cosim_rng_below(r, d));
      x->rxs = (uint8_t)nz_below(r, 3);
      x->ist = (uint8_t)nz_below(r, 4);
      x->rc = (uint8_t)(1 + cosim_rng_below(r, 255));
      x->hsent = 1;
      g->ost[n][l] = IBSW_OST_BUSY;
      g->owner[n][l] = (uint8_t)nz_below(r, P + 1);
      g->vrr[n][l] = (uint8_t)nz_below(r, P + 1);
      g->cred[n][l] = (uint16_t)cosim_rng_below(r, d); /* never the maximum */
    }
    g->pend[n] = 1 + cosim_rng_below(r, 16);
    g->srr[n] = (uint8_t)nz_below(r, c->num_data_vls);
    scr_flit(r, &g->stg[n]);
    scr_flit(r, &g->oreg[n]);
    g->crout[n] = (uint8_t)(1 + cosim_rng_below(r, (1u << NL) - 1u));
    ibsw_port_t *p = &g->port[n];
    /* never the reset state of either BootActive value */
    p->phys = (uint8_t)(c->boot_active ? IBSW_TRAINING : IBSW_DISABLED);
    p->pstate = (uint8_t)(IBSW_INIT + cosim_rng_below(r, 2));
    p->draining = p->sent_drained = p->peer_drained = p->seen2 = 1;
    p->target = IBSW_SLEEP;
    p->tcnt = 1 + cosim_rng_below(r, 100);
    for (unsigned k = 0; k < IBSW_NEV; k++) g->ev[n][k] = (uint16_t)(1 + cosim_rng_below(r, 3));
    g->ev_err[n] = (uint16_t)(2u << cosim_rng_below(r, 15));
    g->err_r[n] = 1;
    g->err_code_r[n] = (uint8_t)(1 + cosim_rng_below(r, 15));
    for (unsigned k = 0; k < IBSW_NCNT; k++) g->cnt[n][k] = 1 + cosim_rng_below(r, 200);
    ibsw_sampler_t *s = &g->smp[n];
    s->status = (uint8_t)(1 + cosim_rng_below(r, 2));
    s->win = 1;
    for (unsigned k = 0; k < 4; k++) s->sel[k] = (uint8_t)(1 + cosim_rng_below(r, 5));
    s->start = 1 + cosim_rng_below(r, 50);
    s->interval = 1 + cosim_rng_below(r, 50);
    s->wait = 1 + cosim_rng_below(r, 50);
    s->run = 1 + cosim_rng_below(r, 50);
    for (unsigned k = 0; k < 4; k++) s->res[k] = 1 + cosim_rng_below(r, 100);
    s->qd = 1 + cosim_rng_below(r, 100);
  }
  scr_flit(r, &g->sma_in);
  g->lft_top = (uint16_t)(1 + cosim_rng_below(r, 64u * c->lft_blocks - 1u));
  g->sma_ev_err = 2;
  g->sma_ev_n = 1;
  g->sma_err_r = 1;
  g->sma_err_code_r = (uint8_t)(1 + cosim_rng_below(r, 4));
  g->sma_dropped = 1 + cosim_rng_below(r, 100);
  ibsw_sma_t *a = &g->sma;
  a->state = (uint8_t)(1 + cosim_rng_below(r, 4));
  a->ingress = (uint8_t)nz_below(r, P + 1);
  a->nflit = (uint8_t)(1 + cosim_rng_below(r, 16));
  a->synth = a->echo = a->dropped = 1;
  a->resp_len = (uint8_t)(3 + cosim_rng_below(r, 14));
  a->idx = (uint8_t)cosim_rng_below(r, a->resp_len);
  a->cls = 0x81;
  a->attr = 0x15;
  a->mod = 1;
  a->status = 0x1C;
  for (unsigned k = 0; k < IBSW_MAD_WORDS; k++) a->mad[k] = nz64(r), a->resp[k] = nz64(r);
  g->pw = 1 + cosim_rng_below(r, 40000);
  g->energy = nz64(r);
}

static void ib_scramble(void *p, uint64_t seed) {
  ib_model_t *m = p;
  const ibsw_cfg_t *c = &m->cfg;
  const unsigned P = c->num_ports, NL = c->num_data_vls + 1;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  scr_regs(&r, c, &m->s.r);
  scr_regs(&r, c, &m->nx.r);
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++) {
      for (unsigned k = 0; k < ibsw_lane_depth(c, l); k++)
        m->s.mem[n][l][k] = (ibsw_entry_t){nz64(&r), (uint8_t)cosim_rng_below(&r, 3), (uint8_t)nz_below(&r, P + 1), 0};
      m->nx.push[n][l] = 1;
      m->nx.push_pos[n][l] = (uint16_t)cosim_rng_below(&r, ibsw_lane_depth(c, l));
      m->nx.push_e[n][l] = (ibsw_entry_t){nz64(&r), IBSW_HEAD, 1, 0};
    }
  for (unsigned k = 0; k < 64u * c->lft_blocks; k++) m->s.lft[k] = (uint8_t)cosim_rng_below(&r, 0xFF);
  m->nx.lft_blk_valid = m->nx.lft_cfg_valid = 1;
  m->nx.lft_blk = 0;
  m->nx.lft_cfg_addr = 0;
  m->nx.lft_cfg_val = 1;
  for (unsigned k = 0; k < 64; k++) m->nx.lft_blk_e[k] = 1;
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
