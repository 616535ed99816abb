/* elan4 reply unit (docs/elan4.md §6.5 "Reply unit"): ReplySlots slots
 * reserved by the input processor; one gatherer, in reservation order, reads a
 * READ's dwords (local memory, or one host read) or waits for an ATOMIC's old
 * value, then the route entry of the source node; valid routes join the send
 * list, whose oldest eligible slot asks the link for a WRITE reply packet. */
#include "elan4_internal.h"

#define ROUTE_POS 0xFFu

int elan4_rp_eligible(const elan4_state_t *s) {
  for (unsigned i = 0; i < s->n_rp_send; i++)
    if (s->rp_send[i].eligible <= s->cyc) return (int)i;
  return -1;
}

/* the gatherer's slot this cycle: the one in service, or the oldest reserved (taken now) */
static bool gather_of(const elan4_state_t *s, elan4_gather_t *g) {
  if (s->gat.active) {
    *g = s->gat;
    return true;
  }
  if (!s->n_rp_order) return false;
  *g = (elan4_gather_t){true, false, s->rp_order[0], 0, 0, false};
  return true;
}

void elan4_rp_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_gather_t gg;
  if (!gather_of(s, &gg)) return;
  const elan4_gather_t *g = &gg;
  const elan4_rslot_t *r = &s->rs[g->slot];
  const bool ready = r->kind == 2 ? g->narr == r->n : r->have_old;
  if (ready) { /* the route entry of the source node */
    if (!g->route_asked) y->req[RQ_RP] = (elan4_lmreq_t){true, false, c->rt_base / 8u + r->src, 0};
    return;
  }
  if (r->kind != 2) return;
  if (r->space == 1 && g->nread < r->n)
    y->req[RQ_RP] = (elan4_lmreq_t){true, false, (uint32_t)((r->addr + 8ull * g->nread) / 8u), 0};
  if (r->space == 0 && g->nread == 0) {
    y->hm_req[1] = true;
    y->hm_wr[1] = false;
    y->hm_addr[1] = r->addr;
    y->hm_len[1] = r->n;
  }
}

static void rp_token_apply(elan4_cyc_t *y, unsigned slot, bool ack);

static void gather_cycle(elan4_cyc_t *y) {
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  elan4_gather_t gg;
  if (!gather_of(s, &gg)) return;
  const elan4_gather_t *g = &gg;
  if (!s->gat.active) { /* a slot reserved in e is served from e+1 */
    for (unsigned i = 0; i + 1 < n->n_rp_order; i++) n->rp_order[i] = n->rp_order[i + 1];
    n->n_rp_order--;
    n->gat = gg;
  }
  const elan4_rslot_t *r = &s->rs[g->slot];
  elan4_rslot_t *nr = &n->rs[g->slot];
  cyc_dirty(y, ELAN4_DIRTY_RS);
  if (y->granted == RQ_RP) {
    const bool route = r->kind == 2 ? g->narr == r->n : r->have_old;
    lmr_tag(y, LMR_RP, g->slot, 0, route ? ROUTE_POS : g->nread);
    if (route)
      n->gat.route_asked = true;
    else
      n->gat.nread = (uint8_t)(g->nread + 1);
  }
  if (y->hm_granted == 1) n->gat.nread = r->n;
  if (y->hm_rd_due && y->hm_rd_owner == 1) {
    nr->data[g->narr] = y->hm_rd_data;
    n->gat.narr = (uint8_t)(g->narr + 1);
  }
  if (!(y->rd_due && y->rd.owner == LMR_RP)) return;
  if (y->rd.pos != ROUTE_POS) {
    nr->data[y->rd.pos] = y->rd_data;
    n->gat.narr = (uint8_t)(g->narr + 1);
    return;
  }
  /* the route's data cycle */
  n->gat.active = false;
  if (!((y->rd_data >> 32) & 1u)) {
    cyc_irq(y, IS_RP, 6, r->ctx, r->reply_va);
    nr->used = false;
    return;
  }
  nr->route = (uint32_t)y->rd_data;
  n->rp_send[n->n_rp_send++] = (elan4_rpsend_t){g->slot, 0};
}

/* the reply: a WRITE packet (§4.6) to the requester's reply VA */
unsigned elan4_rp_body(const elan4_cyc_t *y, unsigned slot, uint32_t *b) {
  const elan4_rslot_t *r = &y->s->rs[slot];
  unsigned nb = 0;
  b[nb++] = 1u | (uint32_t)r->n << 4 | (uint32_t)r->e << 8 | (uint32_t)r->ctx << 16;
  b[nb++] = y->in->node & 0xFFFu;
  b[nb++] = (uint32_t)r->reply_va;
  b[nb++] = (uint32_t)(r->reply_va >> 32);
  for (unsigned i = 0; i < r->n; i++) {
    b[nb++] = (uint32_t)r->data[i];
    b[nb++] = (uint32_t)(r->data[i] >> 32);
  }
  if (r->e) {
    b[nb++] = (uint32_t)r->ev_va;
    b[nb++] = (uint32_t)(r->ev_va >> 32);
  }
  return nb;
}

/* The gatherer, then this cycle's token result: in one cycle a route arrival
 * joins the send list (or fails, its interrupt first) before a slot a token
 * puts back (or fails) (§6.5). */
void elan4_rp_cycle(elan4_cyc_t *y) {
  gather_cycle(y);
  if (y->rp_tok_v) rp_token_apply(y, y->rp_tok_slot, y->rp_tok_ack);
}

/* a reply's token (or timeout), from the transmitter: kept for elan4_rp_cycle */
void elan4_rp_token(elan4_cyc_t *y, unsigned slot, bool ack) {
  y->rp_tok_v = true;
  y->rp_tok_ack = ack;
  y->rp_tok_slot = (uint8_t)slot;
}

/* ack frees the slot; nack retries or fails */
static void rp_token_apply(elan4_cyc_t *y, unsigned slot, bool ack) {
  const elan4_cfg_t *c = y->c;
  const elan4_rslot_t *r = &y->s->rs[slot];
  elan4_state_t *n = y->nx;
  cyc_dirty(y, ELAN4_DIRTY_RS);
  if (ack) {
    n->rs[slot].used = false;
  } else if (r->tries < c->retry_limit) {
    n->rs[slot].tries = r->tries + 1;
    n->rp_send[n->n_rp_send++] =
        (elan4_rpsend_t){(uint8_t)slot, y->s->cyc + (uint64_t)c->retry_backoff * (r->tries + 1)};
  } else {
    cyc_irq(y, IS_RP, 6, r->ctx, r->reply_va);
    n->rs[slot].used = false;
  }
}
