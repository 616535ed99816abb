/* elan4 input processor (docs/elan4.md §6.5): one FULL packet at a time in
 * TAIL order: check, translate (MMU), execute (WRITE to local memory, host or a
 * queue page; SETEVENT and a WRITE's event pushed to the event FIFO; READ and
 * ATOMIC reserve a reply slot; ATOMIC's read-modify-write), then its token.
 * The reply unit (elan4_reply.c) answers the reserved slots. */
#include "elan4_internal.h"

enum { K_WRITE = 1, K_READ = 2, K_SETEVENT = 3, K_ATOMIC = 4 };
enum { SP_HOST = 0, SP_LOCAL = 1, SP_QUEUE = 2 };

static unsigned space_of(const elan4_xlate_t *x) { return (unsigned)((x->p0 >> 3) & 3u); }
static uint64_t pa_of(const elan4_xlate_t *x, uint64_t va) {
  return (x->p1 & ((1ull << 50) - 1) & ~0x1FFFull) | (va & 0x1FFFu);
}
static bool in_page(uint64_t va, uint64_t bytes) { return (va & 0x1FFFu) + bytes <= 0x2000u; }

static void token_vc(elan4_cyc_t *y, unsigned v, bool ack) {
  elan4_state_t *n = y->nx;
  n->tok_vc[n->n_tok] = (uint8_t)v;
  n->tok_ack[n->n_tok] = ack;
  n->n_tok++;
  n->rx[v].st = RX_FREE;
  n->ip.st = IP_IDLE;
}
static void token(elan4_cyc_t *y, bool ack) { token_vc(y, y->s->ip.vc, ack); }

/* §6.5 step 1 on the packet register; 0 = pass, else the counter to bump */
static int check(const elan4_cfg_t *c, const elan4_rxp_t *p, elan4_ip_t *ip) {
  if (p->crc != 1 && c->bug != ELAN4_BUG_CRC_IGNORED) return ELAN4_CNT_CRC_ERR; /* planted: verdict ignored */
  if (p->route != 0xFFFFFFFFu) return ELAN4_CNT_BAD_PKTS;
  if (p->overlength || p->nbody < 4) return ELAN4_CNT_BAD_PKTS;
  const uint32_t w0 = p->body[0], w1 = p->body[1];
  const unsigned kind = w0 & 15u, n = (w0 >> 4) & 15u, e = (w0 >> 8) & 1u, a = (w0 >> 9) & 1u;
  if (kind < 1 || kind > 4 || (w0 >> 10) & 0x3Fu || w0 >> 30 || w1 >> 12) return ELAN4_CNT_BAD_PKTS;
  const bool rw = kind == K_WRITE || kind == K_READ;
  if (rw ? (n < 1 || n > 8) : n != 0) return ELAN4_CNT_BAD_PKTS;
  if (kind != K_ATOMIC && a) return ELAN4_CNT_BAD_PKTS;
  if (kind == K_SETEVENT && e) return ELAN4_CNT_BAD_PKTS; /* no event dword in a SETEVENT (§14) */
  const unsigned len = kind == K_WRITE      ? 4 + 2 * n + 2 * e
                       : kind == K_READ     ? 6 + 2 * e
                       : kind == K_SETEVENT ? 5
                                            : 10 + 2 * e;
  if (p->nbody != len) return ELAN4_CNT_BAD_PKTS;
  if ((w1 & 0xFFFu) >= c->num_nodes) return ELAN4_CNT_BAD_PKTS;
  const uint64_t va = p->body[2] | (uint64_t)p->body[3] << 32;
  const uint64_t bytes = kind == K_SETEVENT ? 32 : kind == K_ATOMIC ? 8 : 8ull * n;
  if (va & (kind == K_SETEVENT ? 31u : 7u) || !in_page(va, bytes)) return ELAN4_CNT_BAD_PKTS;
  memset(ip, 0, sizeof *ip);
  for (unsigned i = 4; i + 1 < p->nbody; i += 2)
    ip->dw[(i - 4) / 2] = p->body[i] | (uint64_t)p->body[i + 1] << 32;
  if (kind == K_SETEVENT) ip->dw[0] = p->body[4];
  if (kind == K_WRITE && e) {
    ip->ev_va = ip->dw[n];
    if (ip->ev_va & 31u) return ELAN4_CNT_BAD_PKTS;
  }
  ip->kind = (uint8_t)kind;
  ip->n = (uint8_t)n;
  ip->e = (uint8_t)e;
  ip->a = (uint8_t)a;
  ip->ctx = (uint16_t)((w0 >> 16) & 0x3FFFu);
  ip->src = (uint16_t)(w1 & 0xFFFu);
  ip->va = va;
  return 0;
}

/* the internal queue write the IP presents (start-of-cycle state) */
bool elan4_ip_iqw(const elan4_cfg_t *c, const elan4_state_t *s, uint16_t *q, uint16_t *k, uint64_t *data) {
  const elan4_ip_t *ip = &s->ip;
  (void)c;
  if (ip->st != IP_EXEC || ip->kind != K_WRITE || ip->phase != 0 || space_of(&ip->x[0]) != SP_QUEUE)
    return false;
  const uint64_t pa = pa_of(&ip->x[0], ip->va);
  *q = (uint16_t)((pa >> 13) & 0x1FFFu);
  *k = (uint16_t)((((ip->va >> 3) & 511u) + ip->i) & 511u);
  *data = ip->dw[ip->i];
  return true;
}

void elan4_ip_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  const elan4_ip_t *ip = &s->ip;
  if (ip->st == IP_XLATE && !ip->wait) {
    y->look_req[0] = true;
    y->look_ctx[0] = ip->ctx;
    y->look_va[0] = ip->nlook ? ip->ev_va : ip->va;
  }
  if (ip->st != IP_EXEC) return;
  const elan4_xlate_t *x = &ip->x[0];
  const uint64_t pa = pa_of(x, ip->va);
  const unsigned sp = space_of(x);
  uint64_t wr_data = 0;
  bool wr = false, rd = false;
  if (ip->kind == K_WRITE && ip->phase == 0) {
    wr = true;
    wr_data = ip->dw[ip->i];
  } else if (ip->kind == K_ATOMIC && ip->phase == 2 && !ip->wait) {
    rd = true;
  } else if (ip->kind == K_ATOMIC && ip->phase == 3) {
    wr = true;
    wr_data = ip->old;
  }
  const uint64_t addr = pa + 8ull * (ip->kind == K_WRITE ? ip->i : 0);
  if ((wr || rd) && sp == SP_LOCAL) y->req[RQ_IP] = (elan4_lmreq_t){true, wr, (uint32_t)(addr / 8u), wr_data};
  if ((wr || rd) && sp == SP_HOST) {
    y->hm_req[0] = true;
    y->hm_wr[0] = wr;
    y->hm_addr[0] = addr;
    y->hm_data[0] = wr_data;
    y->hm_len[0] = 1;
  }
  if (wr && sp == SP_QUEUE && elan4_intake_ok(c, s)) {
    y->iqw = y->iqw_ip = true;
    elan4_ip_iqw(c, s, &y->iqw_q, &y->iqw_k, &y->iqw_data);
  }
}

static bool permitted(const elan4_xlate_t *x, unsigned kind, bool event) {
  const bool W = (x->p0 >> 1) & 1u, R = (x->p0 >> 2) & 1u;
  const unsigned sp = space_of(x);
  if (event || kind == K_SETEVENT) return W && sp == SP_LOCAL;
  if (kind == K_WRITE) return W;
  if (kind == K_READ) return R && sp != SP_QUEUE;
  return R && W && sp != SP_QUEUE; /* ATOMIC */
}

static void push_event(elan4_cyc_t *y, uint64_t addr, uint32_t inc) {
  y->push_v[0] = true;
  y->push[0] = (elan4_epreq_t){.addr = addr & 0x7FFFFFFFu, .inc = inc};
}

void elan4_ip_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  const elan4_ip_t *ip = &s->ip;
  switch (ip->st) {
    case IP_IDLE: {
      if (!s->n_ipq) return;
      const unsigned v = s->ipq[0];
      for (unsigned i = 0; i + 1 < n->n_ipq; i++) n->ipq[i] = n->ipq[i + 1];
      n->n_ipq--;
      n->ip.vc = (uint8_t)v;
      elan4_ip_t chk;
      int bad = check(c, &s->rx[v], &chk);
      if (bad) {
        cyc_count(y, (unsigned)bad);
        token_vc(y, v, false); /* queued at the end of x */
        return;
      }
      chk.vc = (uint8_t)v;
      chk.st = IP_XLATE;
      n->ip = chk;
      return;
    }
    case IP_XLATE: {
      if (!ip->wait && !y->look_done[0]) {
        if (y->look_req[0] && s->fill.active == false && n->fill.active)
          n->ip.wait = true; /* a miss: fill started */
        return;
      }
      if (!y->look_done[0]) return;
      n->ip.wait = false;
      const elan4_xlate_t *x = &y->look_res[0];
      const bool ev = ip->nlook == 1;
      const uint64_t va = ev ? ip->ev_va : ip->va;
      if (!x->ok) {
        cyc_count(y, ELAN4_CNT_XLATE_FAULT);
        cyc_irq(y, IS_IP, 4, ip->ctx, va);
        token(y, false);
        return;
      }
      if (!permitted(x, ip->kind, ev)) {
        cyc_count(y, ELAN4_CNT_PROT_FAULT);
        token(y, false);
        return;
      }
      n->ip.x[ip->nlook] = *x;
      if (ip->kind == K_WRITE && ip->e && ip->nlook == 0) {
        n->ip.nlook = 1;
        return;
      }
      n->ip.st = IP_EXEC;
      n->ip.phase = ip->kind == K_WRITE ? 0 : ip->kind == K_SETEVENT ? 1 : 4; /* 4: reserve a slot in e */
      n->ip.i = 0;
      return;
    }
    default: break;
  }
  /* IP_EXEC */
  const unsigned sp = space_of(&ip->x[0]);
  const bool lm_g = y->granted == RQ_IP, hm_g = y->hm_granted == 0;
  const bool granted = sp == SP_LOCAL ? lm_g : sp == SP_HOST ? hm_g : y->iqw_ip;
  switch (ip->phase) {
    case 0: /* WRITE data dwords */
      if (!granted) return;
      n->ip.i = (uint8_t)(ip->i + 1);
      if (ip->i + 1u < ip->n - (unsigned)(c->bug == ELAN4_BUG_IP_WRITE_SHORT && ip->n > 1))
        return; /* planted */
      if (ip->e)
        n->ip.phase = 1;
      else
        token(y, true);
      return;
    case 1: /* event set pushed (SETEVENT's target, or a WRITE's event) */
      if (s->n_epf >= c->ep_fifo && c->bug != ELAN4_BUG_EP_PUSH_FULL) return; /* planted: no room check */
      if (ip->kind == K_SETEVENT)
        push_event(y, pa_of(&ip->x[0], ip->va), (uint32_t)ip->dw[0]);
      else
        push_event(y, pa_of(&ip->x[1], ip->ev_va), 1);
      token(y, true);
      return;
    case 4: { /* READ / ATOMIC: the lowest free reply slot */
      int k = -1;
      for (unsigned j = 0; j < c->reply_slots && k < 0; j++)
        if (!s->rs[j].used) k = (int)j;
      if (k < 0) {
        cyc_count(y, ELAN4_CNT_NACK_BUSY);
        token(y, false);
        return;
      }
      cyc_dirty(y, ELAN4_DIRTY_RS);
      n->rs[k] = (elan4_rslot_t){true,
                                 ip->kind,
                                 ip->kind == K_READ ? ip->n : 1,
                                 ip->e,
                                 ip->src,
                                 ip->ctx,
                                 pa_of(&ip->x[0], ip->va),
                                 ip->dw[ip->kind == K_READ ? 0 : 2],
                                 ip->e ? ip->dw[ip->kind == K_READ ? 1 : 3] : 0,
                                 0,
                                 (uint8_t)sp,
                                 false,
                                 {0},
                                 0,
                                 0};
      n->rp_order[n->n_rp_order++] = (uint8_t)k;
      n->ip.rslot = (uint8_t)k;
      if (ip->kind == K_READ)
        token(y, true);
      else
        n->ip.phase = 2;
      return;
    }
    case 2: { /* ATOMIC read */
      if (!ip->wait && lm_g) lmr_tag(y, LMR_IP, 0, 0, 0);
      if (!ip->wait && (lm_g || hm_g)) n->ip.wait = true;
      bool data = (y->rd_due && y->rd.owner == LMR_IP) || (y->hm_rd_due && y->hm_rd_owner == 0);
      if (!data) return;
      const uint64_t old = y->rd_due && y->rd.owner == LMR_IP ? y->rd_data : y->hm_rd_data;
      n->ip.wait = false;
      cyc_dirty(y, ELAN4_DIRTY_RS);
      n->rs[ip->rslot].old = old;
      n->rs[ip->rslot].data[0] = old;
      n->rs[ip->rslot].have_old = true;
      if (!ip->a) {
        n->ip.old = old + ip->dw[0];
        if (c->bug == ELAN4_BUG_FADD_NO_CARRY) /* planted: the halves added apart */
          n->ip.old =
              ((old >> 32) + (ip->dw[0] >> 32)) << 32 | (uint32_t)((uint32_t)old + (uint32_t)ip->dw[0]);
      } else if (old == ip->dw[0] || c->bug == ELAN4_BUG_CAS_ALWAYS_SWAPS) {
        n->ip.old = ip->dw[1];
      } else { /* a failed CAS writes nothing */
        token(y, true);
        return;
      }
      n->ip.phase = 3;
      return;
    }
    default: /* 3: ATOMIC write */
      if (granted) token(y, true);
      return;
  }
}
