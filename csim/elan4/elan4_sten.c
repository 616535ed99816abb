/* elan4 STEN, the short transaction engine (docs/elan4.md §4.6 packet body,
 * §6.4): one job at a time; route read, forming, resends from the backing store. */
#include "elan4_internal.h"

#define ROUTE_POS 0xFFFFu /* lmr pos of a route read */

int elan4_resend_eligible(const elan4_state_t *s) {
  for (unsigned i = 0; i < s->n_resend; i++)
    if (s->resend[i].eligible <= s->cyc) return (int)i;
  return -1;
}

/* The job's queue was abandoned (ERROR, or CQCTL since the job began). */
static bool abandoned(const elan4_state_t *s) {
  const elan4_slot_t *q = &s->slot[s->st.slot];
  return !q->used || q->gen != s->st.gen || q->state != ELAN4_Q_OK;
}

static uint32_t route_addr(const elan4_cfg_t *c, unsigned dest) { return c->rt_base / 8u + dest; }

void elan4_st_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  const elan4_sten_t *j = &s->st;
  elan4_lmreq_t *r = &y->req[RQ_ST];
  y->st_drop = j->st >= ST_ROUTE && j->st <= ST_SEND && abandoned(s);
  if (y->st_drop) return;
  if (j->st == ST_IDLE) {
    int i = elan4_resend_eligible(s);
    if (i >= 0) {
      const elan4_resend_t *e = &s->resend[i];
      *r = (elan4_lmreq_t){true, false, bs_addr(c, &s->slot[e->slot], e->pos), 0};
    }
  } else if (j->st == ST_RSREAD) {
    if (j->nread < j->len) {
      uint32_t p = pos_add(j->pos, j->nread);
      if (c->bug == ELAN4_BUG_RESEND_FROM_NEW_DATA)
        p = pos_add(p, j->len); /* planted: the next command's dwords */
      *r = (elan4_lmreq_t){true, false, bs_addr(c, &s->slot[j->slot], p), 0};
    } else if (!j->wait) /* dest kept with the entry: dword 0 may not have arrived (§6.4) */
      *r = (elan4_lmreq_t){true, false, route_addr(c, c->bug == ELAN4_BUG_RESEND_ROUTE_STALE ? 0u : j->dest),
                           0};
  } else if (j->st == ST_ROUTE && !j->wait) {
    *r = (elan4_lmreq_t){true, false, route_addr(c, j->dest), 0};
  }
}

void elan4_st_cycle(elan4_cyc_t *y) {
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  const elan4_sten_t *j = &s->st;
  const bool granted = y->granted == RQ_ST;
  if (y->st_drop) {
    n->st.st = ST_IDLE;
    return;
  }
  if (j->st == ST_IDLE) {
    int i = elan4_resend_eligible(s);
    if (i < 0) return; /* (a new command is given to STEN by the command processor) */
    const elan4_resend_t e = s->resend[i];
    /* the entry leaves the list */
    for (unsigned k = (unsigned)i; k + 1 < n->n_resend; k++) n->resend[k] = n->resend[k + 1];
    n->n_resend--;
    elan4_sten_t *t = &n->st;
    memset(t, 0, sizeof *t);
    t->st = ST_RSREAD;
    t->resend = true;
    t->slot = e.slot;
    t->gen = e.gen;
    t->pos = e.pos;
    t->len = e.len;
    t->tries = e.tries;
    t->q = e.q;
    t->dest = e.dest;
    t->seq = j->seq + 1;
    if (granted) {
      lmr_tag(y, LMR_STEN, e.slot, t->seq, 0);
      t->nread = 1;
    }
    return;
  }
  if (granted) {
    if (j->st == ST_RSREAD && j->nread < j->len) {
      lmr_tag(y, LMR_STEN, j->slot, j->seq, j->nread);
      n->st.nread = j->nread + 1;
    } else {
      lmr_tag(y, LMR_STEN, j->slot, j->seq, ROUTE_POS);
      n->st.wait = true;
    }
  }
  if (!(y->rd_due && y->rd.owner == LMR_STEN && y->rd.gen == j->seq)) return;
  if (y->rd.pos != ROUTE_POS) {
    n->st.cmd[y->rd.pos] = y->rd_data;
    n->st.narr = j->narr + 1;
    return;
  }
  /* the route's data cycle */
  if (!((y->rd_data >> 32) & 1u)) {
    cyc_qerr(y, IS_ST, j->slot, ELAN4_E_NOROUTE, j->pos);
    n->st.st = ST_IDLE;
    return;
  }
  n->st.st = ST_SEND;
  n->st.route = (uint32_t)y->rd_data;
  n->r.tr_form = true;
  n->r.tr_form_q = j->q;
}

/* The body words of STEN's packet (§4.6); returns their number. */
unsigned elan4_sten_body(const elan4_cyc_t *y, uint32_t *b) {
  const elan4_sten_t *j = &y->s->st;
  const uint64_t *w = j->cmd, d = w[0];
  const unsigned op = (unsigned)(d & 15u);
  const unsigned kind = op == ELAN4_OP_WRITE ? 1 : op == ELAN4_OP_READ ? 2 : op == ELAN4_OP_SETEVENT ? 3 : 4;
  const unsigned nn = (op == ELAN4_OP_WRITE || op == ELAN4_OP_READ) ? (unsigned)((d >> 4) & 15u) : 0;
  const unsigned e = op == ELAN4_OP_SETEVENT ? 0 : (unsigned)((d >> 8) & 1u);
  const unsigned a = op == ELAN4_OP_ATOMIC ? (unsigned)((d >> 10) & 1u) : 0;
  unsigned nb = 0;
  b[nb++] = kind | nn << 4 | e << 8 | a << 9 | (uint32_t)d0_ctx(y->s->slot[j->slot].d0) << 16;
  b[nb++] = y->in->node & 0xFFFu;
  if (op == ELAN4_OP_SETEVENT) {
    b[nb++] = (uint32_t)w[1];
    b[nb++] = (uint32_t)(w[1] >> 32);
    b[nb++] = (uint32_t)(d >> 32);
    return nb;
  }
  for (unsigned i = 1; i < j->len; i++) {
    b[nb++] = (uint32_t)w[i];
    b[nb++] = (uint32_t)(w[i] >> 32);
  }
  return nb;
}
