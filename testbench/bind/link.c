/* Binding of the link model (csim/link/) to its co-simulation targets
 * (rtl/link/link.cosim): the model configured from the RTL's own parameter
 * values, ports through the generated view, and the scramble. */
#include "bind/link.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const link_view_t *vw;
  link_cfg_t cfg;
  link_state_t s;
  link_next_t nx;
} lk_model_t;

static void *lk_create(const link_view_t *vw, unsigned bug) {
  lk_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->vw = vw;
  m->cfg = (link_cfg_t){(unsigned)vw->param.NumVcs,      (unsigned)vw->param.RateNum,
                        (unsigned)vw->param.RateDen,     (unsigned)vw->param.CorePs,
                        (unsigned)vw->param.CableM,      (unsigned)vw->param.AlignCycles,
                        (unsigned)vw->param.TrainCycles, bug};
  if (link_init(&m->s, &m->cfg)) {
    free(m);
    return NULL;
  }
  return m;
}
static void lk_reset(void *p) {
  lk_model_t *m = p;
  link_reset(&m->s, &m->cfg);
}
static void lk_commit(void *p) {
  lk_model_t *m = p;
  link_commit(&m->cfg, &m->s, &m->nx);
}
static void lk_destroy(void *p) {
  lk_model_t *m = p;
  link_free(&m->s);
  free(m);
}
#define lk_bug_names link_bug_names

static void lk_eval(void *p, const void *in, void *out) {
  lk_model_t *m = p;
  const link_view_t *w = m->vw;
  link_in_t mi = {cosim_lane_get(&w->in.tx_valid_i, in, 0), (unsigned)cosim_lane_get(&w->in.tx_kind_i, in, 0),
                  (unsigned)cosim_lane_get(&w->in.tx_vc_i, in, 0),
                  (uint32_t)cosim_lane_get(&w->in.tx_data_i, in, 0),
                  (unsigned)cosim_lane_get(&w->in.rx_credit_i, in, 0)};
  link_out_t mo;
  link_eval(&m->cfg, &m->s, &mi, &mo, &m->nx);
  cosim_lane_set(&w->out.slot_o, out, 0, mo.slot);
  cosim_lane_set(&w->out.up_o, out, 0, mo.up);
  cosim_lane_set(&w->out.tx_err_o, out, 0, mo.tx_err);
  cosim_lane_set(&w->out.tx_credit_o, out, 0, mo.tx_credit);
  cosim_lane_set(&w->out.rx_valid_o, out, 0, mo.rx.valid);
  cosim_lane_set(&w->out.rx_kind_o, out, 0, mo.rx.kind);
  cosim_lane_set(&w->out.rx_vc_o, out, 0, mo.rx.vc);
  cosim_lane_set(&w->out.rx_data_o, out, 0, mo.rx.data);
  cosim_lane_set(&w->out.crc_err_o, out, 0, mo.crc_err);
  cosim_lane_set(&w->out.cnt_tx_flits_o, out, 0, mo.cnt_tx_flits);
  cosim_lane_set(&w->out.cnt_tx_err_o, out, 0, mo.cnt_tx_err);
  cosim_lane_set(&w->out.cnt_rx_flits_o, out, 0, mo.cnt_rx_flits);
  cosim_lane_set(&w->out.cnt_crc_err_o, out, 0, mo.cnt_crc_err);
}

/* scramble: every register and pending next-state field gets a legal value
 * that is not its reset value, as the RTL's registers start random. */
static uint64_t scr_flit(cosim_rng_t *r, unsigned V) {
  link_flit_t f = {true, cosim_rng_below(r, 4), cosim_rng_below(r, V), (uint32_t)cosim_rng_u64(r)};
  return link_flit_pack(&f);
}
static void scr_wire(cosim_rng_t *r, link_wire_t *w, bool flit, unsigned V) {
  for (unsigned k = 0; k < w->n; k++)
    w->w[k] = flit ? scr_flit(r, V) : 1u + cosim_rng_below(r, (1u << V) - 1u);
  w->head = w->n > 1 ? 1 + cosim_rng_below(r, w->n - 1) : 0;
}
static void scr_rx(cosim_rng_t *r, link_rx_state_t *x, unsigned V) {
  x->rxq = scr_flit(r, V);
  x->crcerr = true;
  for (unsigned v = 0; v < LINK_MAX_VCS; v++) {
    x->crc[v].c = (uint32_t)cosim_rng_u64(r) & ~1u; /* never 0xFFFFFFFF */
    x->crc[v].keep_err = true;
  }
}
static void lk_scramble(void *p, uint64_t seed) {
  lk_model_t *m = p;
  link_state_t *s = &m->s;
  link_next_t *nx = &m->nx;
  const unsigned V = m->cfg.num_vcs;
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  /* tcnt never 0; acc below RateDen, never 0 when it can be */
  s->tx.tcnt = nx->tx.tcnt = m->cfg.train_cycles ? 1 + cosim_rng_below(&r, m->cfg.train_cycles) : 0;
  s->tx.acc = nx->tx.acc = m->cfg.rate_den > 1 ? 1 + cosim_rng_below(&r, m->cfg.rate_den - 1) : 0;
  s->tx.txq = nx->tx.txq = scr_flit(&r, V);
  s->tx.err = nx->tx.err = s->tx.accepted = nx->tx.accepted = true;
  scr_wire(&r, &s->fwd, true, V);
  scr_wire(&r, &s->align, true, V);
  scr_wire(&r, &s->rev, false, V);
  scr_wire(&r, &s->ralign, false, V);
  for (unsigned k = 0; k < s->errline.n; k++) s->errline.w[k] = 1;
  s->errline.head = 1;
  nx->err_in = 1;
  scr_rx(&r, &s->rx, V);
  scr_rx(&r, &nx->rx, V);
  s->crq = nx->crq = 1u + cosim_rng_below(&r, (1u << V) - 1u);
  nx->fwd_in = nx->align_in = scr_flit(&r, V);
  nx->rev_in = nx->ralign_in = 1;
  s->cnt_tx_flits = nx->cnt_tx_flits = (uint32_t)cosim_rng_u64(&r) | 1u;
  s->cnt_tx_err = nx->cnt_tx_err = (uint32_t)cosim_rng_u64(&r) | 1u;
  s->cnt_rx_flits = nx->cnt_rx_flits = (uint32_t)cosim_rng_u64(&r) | 1u;
  s->cnt_crc_err = nx->cnt_crc_err = (uint32_t)cosim_rng_u64(&r) | 1u;
}

LINK_250_BIND_TARGET(lk)
LINK_4B5B_333_BIND_TARGET(lk)
LINK_400_BIND_TARGET(lk)
LINK_400_4B5B_W0_BIND_TARGET(lk)
