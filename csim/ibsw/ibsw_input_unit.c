/* ibsw_input_unit: docs/ibsw.md §5.1 ARRIVE (count, lane, space, framing and routing) and
   §5.3 the front of each input buffer (routing time, requester). */
#include <string.h>

#include "ibsw_internal.h"

/* §5.3, every lane (n, l) including the SMA's responses (0, V). */
void ibsw_front_unit(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  const unsigned R = x->cfg->route_cycles;
  const bool short_r = ibsw_bug(x, IBSW_BUG_ROUTE_CYCLES_SHORT);
  memset(x->nx->r.crout, 0, sizeof x->nx->r.crout);
  for (unsigned n = 0; n <= x->P; n++)
    for (unsigned l = n == 0 ? x->V : 0; l < x->NL; l++) {
      const ibsw_lane_t *ln = &r->ln[n][l];
      ibsw_lane_t *q = &x->nx->r.ln[n][l];
      if (ln->ist == IBSW_IST_IDLE && ln->cnt > 0) {
        const ibsw_entry_t *e = ibsw_front(x, n, l);
        if (e->drop) { /* pop and discard: that is how its credit returns */
          x->pop[n][l] = 1;
          q->rd = (uint16_t)((ln->rd + 1u) % ibsw_lane_depth(x->cfg, l));
          q->cnt--;
          if (n >= 1) x->nx->r.crout[n] |= (uint8_t)(1u << l);
        } else if (R == 5 || (short_r && R == 6)) {
          q->ist = IBSW_IST_WAIT;
        } else {
          q->ist = IBSW_IST_ROUTE;
          q->rc = (uint8_t)(R - 5);
        }
      } else if (ln->ist == IBSW_IST_ROUTE) {
        q->rc = (uint8_t)(ln->rc - 1);
        if (ln->rc == (short_r ? 2 : 1)) q->ist = IBSW_IST_WAIT;
      }
    }
}

/* Steps 3-4 for one flit of kind 0-2 on lane l of port n (LinkUp). */
static void arrive(ibsw_ctx_t *x, unsigned n, unsigned l, unsigned kind, uint64_t data) {
  const ibsw_regs_t *r = &x->s->r;
  ibsw_lane_t *q = &x->nx->r.ln[n][l];
  const unsigned rxs = r->ln[n][l].rxs;
  bool full = r->ln[n][l].cnt >= ibsw_lane_depth(x->cfg, l) && !x->pop[n][l];
  if (ibsw_bug(x, IBSW_BUG_OVERFLOW_DROPS_ALL_LANES)) /* planted: any full lane of the port */
    for (unsigned k = 0; k < x->NL; k++)
      full |= r->ln[n][k].cnt >= ibsw_lane_depth(x->cfg, k) && !x->pop[n][k];
  if (full) { /* lost: the sender had no credit */
    ibsw_raise(x, n, 6);
    if (kind == IBSW_HEAD) q->rxs = IBSW_RX_DROPPING;
    if (kind == IBSW_TAIL) q->rxs = IBSW_RX_IDLE;
    return;
  }
  ibsw_entry_t e = {data, (uint8_t)kind, 0, 1};
  if (l < x->V && r->port[n].pstate == IBSW_INIT) { /* no data before Armed */
    ibsw_raise(x, n, 11);
    ibsw_push(x, n, l, &e);
    return;
  }
  if (kind == IBSW_HEAD) {
    unsigned egr = 0, code = 0;
    if (rxs != IBSW_RX_IDLE) ibsw_raise(x, n, 8);
    if (ibsw_route(x, n, l, data, &egr, &code)) {
      e.drop = 0;
      e.egr = (uint8_t)egr;
      if (egr >= 1) x->nx->r.pend[egr]++;
      q->rxs = IBSW_RX_OPEN;
    } else {
      ibsw_raise(x, n, code);
      q->rxs = IBSW_RX_DROPPING;
    }
  } else if (rxs == IBSW_RX_OPEN) {
    e.drop = 0;
    if (kind == IBSW_TAIL) q->rxs = IBSW_RX_IDLE;
  } else if (rxs == IBSW_RX_DROPPING) {
    if (kind == IBSW_TAIL) q->rxs = IBSW_RX_IDLE;
  } else {
    ibsw_raise(x, n, 7); /* orphan */
  }
  ibsw_push(x, n, l, &e);
}

/* §5.1 for every port: by the port's PhysState at c. Symbols are the FSM's (§6.2). */
void ibsw_input_unit(ibsw_ctx_t *x) {
  for (unsigned n = 1; n <= x->P; n++) {
    if (!x->in->valid[n]) continue;
    const unsigned kind = x->in->kind[n] & 3u, phys = x->s->r.port[n].phys;
    if (kind == IBSW_SYM) continue;
    if (phys == IBSW_DISABLED || phys == IBSW_SLEEP) continue;
    if (phys != IBSW_LINKUP) {
      ibsw_raise(x, n, 10);
      continue;
    }
    ibsw_count(x, n, IBSW_C_RCV_DATA, 2);
    if (kind == IBSW_TAIL) ibsw_count(x, n, IBSW_C_RCV_PKTS, 1);
    const unsigned vl = x->in->vl[n] & 15u;
    unsigned l;
    if (vl < x->V)
      l = vl;
    else if (vl == 15)
      l = x->V;
    else {
      ibsw_raise(x, n, 5);
      continue;
    }
    arrive(x, n, l, kind, x->in->data[n]);
  }
}
