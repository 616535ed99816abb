/* ibsw_scramble: garbage in every register of the model before reset (docs/cosim.md,
   "Reset"), as the RTL's registers start random. */
#include "ibsw_internal.h"

static uint64_t unit64(uint64_t *st) { /* splitmix64 */
  uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static unsigned below(uint64_t *r, unsigned n) { return (unsigned)(unit64(r) % n); }
/* Scramble: every register, every buffer entry and every pending next-state field
 * gets a value legal for its type and never its reset value, as the RTL's registers start
 * random; only ibsw_reset may bring them back. */
static unsigned nz_below(uint64_t *r, unsigned n) { return n < 2 ? 0 : 1 + below(r, n - 1); }
static uint64_t nz64(uint64_t *r) { return unit64(r) | 1u; }

static void scr_flit(uint64_t *r, ibsw_flit_t *f) {
  *f = (ibsw_flit_t){1, (uint8_t)below(r, 4), (uint8_t)below(r, 16), 1, nz64(r)};
}

static void scr_regs(uint64_t *r, const ibsw_cfg_t *c, ibsw_regs_t *g) {
  const unsigned P = c->num_ports, NL = c->num_data_vls + 1;
  g->cycle = 8u * below(r, 100) + 1 + below(r, 7); /* a wrong slot phase shows at a slower LinkSpeed */
  for (unsigned n = 0; n <= P; n++) {
    for (unsigned l = 0; l < NL; l++) {
      const unsigned d = ibsw_lane_depth(c, l);
      ibsw_lane_t *x = &g->ln[n][l];
      x->rd = (uint16_t)nz_below(r, d);
      x->cnt = (uint16_t)(1 + below(r, d));
      x->rxs = (uint8_t)nz_below(r, 3);
      x->ist = (uint8_t)nz_below(r, 4);
      x->rc = (uint8_t)(1 + below(r, 255));
      x->hsent = 1;
      g->ost[n][l] = IBSW_OST_BUSY;
      g->owner[n][l] = (uint8_t)nz_below(r, P + 1);
      g->vrr[n][l] = (uint8_t)nz_below(r, P + 1);
      g->cred[n][l] = (uint16_t)below(r, d); /* never the maximum */
    }
    g->pend[n] = 1 + below(r, 16);
    g->srr[n] = (uint8_t)nz_below(r, c->num_data_vls);
    scr_flit(r, &g->stg[n]);
    scr_flit(r, &g->oreg[n]);
    g->crout[n] = (uint8_t)(1 + below(r, (1u << NL) - 1u));
    ibsw_port_t *p = &g->port[n];
    /* never the reset state of either BootActive value */
    p->phys = (uint8_t)(c->boot_active ? IBSW_TRAINING : IBSW_DISABLED);
    p->pstate = (uint8_t)(IBSW_INIT + below(r, 2));
    p->draining = p->sent_drained = p->peer_drained = p->seen2 = 1;
    p->target = IBSW_SLEEP;
    p->tcnt = 1 + below(r, 100);
    for (unsigned k = 0; k < IBSW_NEV; k++) g->ev[n][k] = (uint16_t)(1 + below(r, 3));
    g->ev_err[n] = (uint16_t)(2u << below(r, 15));
    g->err_r[n] = 1;
    g->err_code_r[n] = (uint8_t)(1 + below(r, 15));
    for (unsigned k = 0; k < IBSW_NCNT; k++) g->cnt[n][k] = 1 + below(r, 200);
    ibsw_sampler_t *s = &g->smp[n];
    s->status = (uint8_t)(1 + below(r, 2));
    s->win = 1;
    for (unsigned k = 0; k < 4; k++) s->sel[k] = (uint8_t)(1 + below(r, 5));
    s->start = 1 + below(r, 50);
    s->interval = 1 + below(r, 50);
    s->wait = 1 + below(r, 50);
    s->run = 1 + below(r, 50);
    for (unsigned k = 0; k < 4; k++) s->res[k] = 1 + below(r, 100);
    s->qd = 1 + below(r, 100);
  }
  scr_flit(r, &g->sma_in);
  g->lft_top = (uint16_t)(1 + below(r, 64u * c->lft_blocks - 1u));
  g->sma_ev_err = 2;
  g->sma_ev_n = 1;
  g->sma_err_r = 1;
  g->sma_err_code_r = (uint8_t)(1 + below(r, 4));
  g->sma_dropped = 1 + below(r, 100);
  ibsw_sma_t *a = &g->sma;
  a->state = (uint8_t)(1 + below(r, 4));
  a->ingress = (uint8_t)nz_below(r, P + 1);
  a->nflit = (uint8_t)(1 + below(r, 16));
  a->synth = a->echo = 1;
  a->dropped = 0; /* a response half pushed from garbage: its HEAD first, so it shows */
  a->resp_len = (uint8_t)(3 + below(r, 14));
  a->idx = 0;
  a->cls = 0x81;
  a->attr = 0x15;
  a->mod = 1;
  a->status = 0x1C;
  for (unsigned k = 0; k < IBSW_MAD_WORDS; k++) a->mad[k] = nz64(r), a->resp[k] = nz64(r);
  g->pw = 1 + below(r, 40000);
  g->energy = nz64(r);
}

void ibsw_scramble(ibsw_state_t *s, ibsw_next_t *nx, const ibsw_cfg_t *c, uint64_t seed) {
  const unsigned P = c->num_ports, NL = c->num_data_vls + 1;
  uint64_t r = seed;
  scr_regs(&r, c, &s->r);
  scr_regs(&r, c, &nx->r);
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++) {
      for (unsigned k = 0; k < ibsw_lane_depth(c, l); k++)
        s->mem[n][l][k] = (ibsw_entry_t){nz64(&r), (uint8_t)below(&r, 3), (uint8_t)nz_below(&r, P + 1), 0};
      nx->push[n][l] = 1;
      nx->push_pos[n][l] = (uint16_t)below(&r, ibsw_lane_depth(c, l));
      nx->push_e[n][l] = (ibsw_entry_t){nz64(&r), IBSW_HEAD, 1, 0};
    }
  for (unsigned k = 0; k < 64u * c->lft_blocks; k++) s->lft[k] = (uint8_t)below(&r, 0xFF);
  nx->lft_blk_valid = nx->lft_cfg_valid = 1;
  nx->lft_blk = 0;
  nx->lft_cfg_addr = 0;
  nx->lft_cfg_val = 1;
  for (unsigned k = 0; k < 64; k++) nx->lft_blk_e[k] = 1;
}
