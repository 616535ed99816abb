/* ibsw_vl_alloc, ibsw_switch_alloc, ibsw_crossbar, ibsw_credits: docs/ibsw.md §5.4 VA and
   SA (pacing, sink mode, DRAINED), §5.5 ST (staging -> output register), §5.6 credits. */
#include <string.h>

#include "ibsw_internal.h"

static void pop(ibsw_ctx_t *x, unsigned n, unsigned l) {
  ibsw_lane_t *q = &x->nx->r.ln[n][l];
  x->pop[n][l] = 1;
  q->rd = (uint16_t)((x->s->r.ln[n][l].rd + 1u) % ibsw_lane_depth(x->cfg, l));
  q->cnt--;
  if (n >= 1) x->nx->r.crout[n] |= (uint8_t)(1u << l);
}

/* VA (§5.4): per output lane, round robin over the inputs 0..P from vrr. The requesters
   are gathered once per cycle as a bit mask per output lane (bit n = input n). */
void ibsw_vl_alloc(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  const unsigned P = x->P;
  const bool short_r = ibsw_bug(x, IBSW_BUG_ROUTE_CYCLES_SHORT) && x->cfg->route_cycles == 5;
  uint32_t req[IBSW_MAXP1][IBSW_MAX_LANES];
  memset(req, 0, sizeof req);
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = n == 0 ? x->V : 0; l < x->NL; l++) {
      const ibsw_lane_t *ln = &r->ln[n][l];
      if (ln->cnt == 0) continue;
      const ibsw_entry_t *e = ibsw_front(x, n, l);
      bool rq = ln->ist == IBSW_IST_WAIT;
      /* planted: with R = 5 there is no ROUTE cycle to shorten, the IDLE HEAD requests */
      if (short_r && ln->ist == IBSW_IST_IDLE && e->kind == IBSW_HEAD && !e->drop) rq = true;
      if (rq) req[e->egr][l] |= 1u << n;
    }
  for (unsigned o = 0; o <= P; o++)
    for (unsigned l = o == 0 ? x->V : 0; l < x->NL; l++) {
      const uint32_t m = req[o][l];
      if (!m || r->ost[o][l] != IBSW_OST_FREE) continue;
      if (o == 0 && r->sma.state != IBSW_SMA_IDLE) continue;
      const uint32_t at = m & ~((1u << r->vrr[o][l]) - 1u); /* inputs vrr..P first */
      const unsigned n = (unsigned)__builtin_ctz(at ? at : m);
      x->nx->r.ost[o][l] = IBSW_OST_BUSY;
      x->nx->r.owner[o][l] = (uint8_t)n;
      x->nx->r.ln[n][l].ist = IBSW_IST_ACTIVE;
      x->nx->r.ln[n][l].hsent = 0;
      x->nx->r.vrr[o][l] = (uint8_t)((n + 1) % (P + 1));
      if (o == 0) {
        ibsw_sma_t *q = &x->nx->r.sma;
        q->state = IBSW_SMA_RECV;
        q->ingress = (uint8_t)n;
        q->nflit = 0;
        q->synth = 0;
      }
    }
}

static bool ready(const ibsw_ctx_t *x, unsigned o, unsigned l) {
  const ibsw_regs_t *r = &x->s->r;
  if (r->ost[o][l] != IBSW_OST_BUSY) return false;
  const unsigned n = r->owner[o][l];
  return r->ln[n][l].ist == IBSW_IST_ACTIVE && r->ln[n][l].cnt > 0;
}

/* Serve the front of the lane owning (o, l) (§5.4's table): the flit it sends, popped or
   not. Returns true if the packet ended here (TAIL or synthetic close). */
static bool serve(ibsw_ctx_t *x, unsigned o, unsigned l, ibsw_flit_t *f) {
  const ibsw_regs_t *r = &x->s->r;
  const unsigned n = r->owner[o][l];
  const ibsw_entry_t *e = ibsw_front(x, n, l);
  const bool hsent = r->ln[n][l].hsent;
  f->valid = 1;
  f->vl = (uint8_t)(l < x->V ? l : 15);
  f->synth = 0;
  bool end = false;
  if (!e->drop && e->kind == IBSW_HEAD && !hsent) {
    f->kind = IBSW_HEAD;
    f->data = e->data;
    if (l == x->V)
      f->data = (e->data & UINT64_C(0xFFFF000000000000)) | ((e->data & UINT64_C(0xFFFFFFFFFFFF)) >> 5);
    pop(x, n, l);
    x->nx->r.ln[n][l].hsent = 1;
  } else if (!e->drop && e->kind != IBSW_HEAD && hsent) {
    f->kind = e->kind;
    f->data = e->data;
    pop(x, n, l);
    end = e->kind == IBSW_TAIL;
  } else { /* a HEAD or a drop-marked entry with the HEAD sent: synthetic close */
    f->kind = IBSW_TAIL;
    f->data = IBSW_BAD_TAIL;
    f->synth = 1;
    if (ibsw_bug(x, IBSW_BUG_LANE_POP_WRONG_ORDER)) pop(x, n, l);
    end = true;
  }
  if (end) {
    x->nx->r.ln[n][l].ist = IBSW_IST_IDLE;
    x->nx->r.ost[o][l] = IBSW_OST_FREE;
    if (o >= 1) x->nx->r.pend[o]--;
  }
  return end;
}

static ibsw_flit_t symbol(unsigned code) {
  ibsw_flit_t f = {1, IBSW_SYM, 0, 0, code};
  return f;
}

/* §6.4 step 3 */
static bool drained_due(const ibsw_ctx_t *x, unsigned o) {
  const ibsw_regs_t *r = &x->s->r;
  const ibsw_port_t *p = &r->port[o];
  if (!p->draining || p->sent_drained || r->pend[o] != 0) return false;
  for (unsigned l = 0; l < x->NL; l++)
    if (r->ost[o][l] != IBSW_OST_FREE) return false;
  return ibsw_bug(x, IBSW_BUG_DRAINED_BEFORE_CREDITS) || ibsw_cred_full(x, r, o);
}

/* ST (§5.5): the staging register of c is the output register of c+1 and the pins of
   c+2, whatever the port's state then. */
void ibsw_crossbar(ibsw_ctx_t *x) {
  for (unsigned o = 1; o <= x->P; o++) x->nx->r.oreg[o] = x->s->r.stg[o];
}

/* SA (§5.4) for every output: the flit (or symbol) of c into the staging register. */
void ibsw_switch_alloc(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  ibsw_regs_t *q = &x->nx->r;
  const unsigned V = x->V, NL = x->NL;
  for (unsigned o = 1; o <= x->P; o++) {
    const ibsw_port_t *p = &r->port[o];
    ibsw_flit_t f = {0, 0, 0, 0, 0};
    bool any_ready = false;
    for (unsigned l = 0; l < NL; l++) any_ready |= ready(x, o, l);
    const bool sink_drain = ibsw_bug(x, IBSW_BUG_DRAIN_SINKS_PEND) && p->draining;
    if (p->phys != IBSW_LINKUP || sink_drain) { /* sink mode (§6.6) */
      for (unsigned l = 0; l < NL; l++) {
        if (!ready(x, o, l)) continue;
        ibsw_flit_t d;
        if (serve(x, o, l, &d)) {
          ibsw_raise(x, o, 15);
        }
      }
      if (p->phys == IBSW_POLLING || p->phys == IBSW_LER) f = symbol(IBSW_SYM_TS1);
      if (p->phys == IBSW_TRAINING) f = symbol(IBSW_SYM_TS2);
      if (sink_drain && x->slot && drained_due(x, o)) {
        f = symbol(IBSW_SYM_DRAINED);
        q->port[o].sent_drained = 1;
      }
      q->stg[o] = f;
      continue;
    }
    int chosen = -1;
    if (x->slot) {
      if (drained_due(x, o)) {
        f = symbol(IBSW_SYM_DRAINED);
        q->port[o].sent_drained = 1;
      } else if (ibsw_bug(x, IBSW_BUG_VL15_IN_ROUND_ROBIN)) { /* planted: VL15 is one more lane of the RR */
        for (unsigned k = 0; k < NL; k++) {
          const unsigned l = (r->srr[o] + k) % NL;
          if (l < V && p->pstate != IBSW_ACTIVE) continue;
          if (ready(x, o, l) && r->cred[o][l] > 0) {
            chosen = (int)l;
            q->srr[o] = (uint8_t)((l + 1) % NL);
            break;
          }
        }
      } else if (ready(x, o, V) && r->cred[o][V] > 0) {
        chosen = (int)V; /* VL15 first */
      } else if (p->pstate == IBSW_ACTIVE) {
        for (unsigned k = 0; k < V; k++) {
          const unsigned l = (r->srr[o] + k) % V;
          if (ready(x, o, l) && r->cred[o][l] > 0) {
            chosen = (int)l;
            q->srr[o] = (uint8_t)((l + 1) % V);
            break;
          }
        }
      }
    }
    if (chosen >= 0) {
      serve(x, o, (unsigned)chosen, &f);
      x->consume[o][chosen] = 1;
      ibsw_count(x, o, IBSW_C_XMIT_DATA, 2);
      if (f.kind == IBSW_TAIL) ibsw_count(x, o, IBSW_C_XMIT_PKTS, 1);
    } else if (any_ready) {
      ibsw_count(x, o, IBSW_C_XMIT_WAIT, 1);
    }
    q->stg[o] = f;
  }
  /* output 0, the SMA: no credits, slots or port state; captured in c+1 (§7.3) */
  ibsw_flit_t f = {0, 0, 0, 0, 0};
  if (ready(x, 0, V)) serve(x, 0, V, &f);
  q->sma_in = f;
}

/* §5.6: credit returns on in_credit_i, against this cycle's consumes. */
void ibsw_credits(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  for (unsigned o = 1; o <= x->P; o++) {
    if (r->port[o].phys != IBSW_LINKUP) continue; /* ignored silently */
    for (unsigned l = 0; l < x->NL; l++) {
      const bool ret = (x->in->credit[o] >> l) & 1u;
      const unsigned max = ibsw_lane_depth(x->cfg, l);
      int c = r->cred[o][l] - x->consume[o][l];
      if (ret) {
        if (r->cred[o][l] == max && !x->consume[o][l])
          ibsw_raise(x, o, 14);
        else
          c++;
      }
      x->nx->r.cred[o][l] = (uint16_t)c;
    }
  }
}
