/* elan4 link transmitter (docs/elan4.md §6.4): one flit per cycle (tokens >
 * the packet in progress > a new packet), credits, outstanding lists per VC,
 * tokens received, ack timeouts, and the STEN side of nack/retry. */
#include "elan4_internal.h"

/* A packet's token was a nack, or it timed out (cycle t = now). */
static void nacked(elan4_cyc_t *y, const elan4_outst_t *e) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  if (e->owner == 2) {
    elan4_rp_token(y, e->slot, false);
    return;
  }
  if (e->owner == 3) {
    elan4_dma_token(y, e->gen, e->pos, false);
    return;
  }
  const elan4_slot_t *q = &s->slot[e->slot];
  if (e->owner != 1 || !q->used || q->gen != e->gen || q->state != ELAN4_Q_OK) return; /* abandoned */
  if (e->tries < c->retry_limit + (c->bug == ELAN4_BUG_STEN_RETRY_EXTRA)) {            /* planted */
    if (n->n_resend < ELAN4_MAX_RESEND)
      n->resend[n->n_resend++] = (elan4_resend_t){
          e->slot,      e->gen, e->pos,  e->len,
          e->tries + 1, e->q,   e->dest, s->cyc + (uint64_t)c->retry_backoff * (e->tries + 1)};
  } else {
    cyc_qerr(y, IS_TOK, e->slot, ELAN4_E_RETRY, e->pos);
  }
}

static void leave_oldest(elan4_state_t *n, unsigned v) {
  for (unsigned i = 0; i + 1 < n->n_outst[v]; i++) n->outst[v][i] = n->outst[v][i + 1];
  n->n_outst[v]--;
}

void elan4_tx_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  const elan4_in_t *in = y->in;
  elan4_state_t *n = y->nx;
  elan4_reg_t *r = &n->r;
  unsigned used[ELAN4_MAX_VCS] = {0};
  r->out_valid = false;
  r->out_kind = r->out_vc = 0;
  r->out_data = 0;

  /* tokens received, and timeouts (before this cycle's HEAD joins a list) */
  const bool tok = in->in_valid && in->in_kind == ELAN4_TOKEN;
  for (unsigned v = 0; v < c->num_vcs; v++) {
    const bool tok_v = tok && in->in_vc == v;
    if (tok_v) cyc_count(y, ELAN4_CNT_RX_TOKENS);
    if (!s->n_outst[v]) {
      if (tok_v) cyc_count(y, ELAN4_CNT_PROTO_ERR);
      continue;
    }
    const elan4_outst_t e = s->outst[v][0];
    if (tok_v) {
      leave_oldest(n, v);
      n->last_leave[v] = s->cyc;
      if (in->in_data & 1u) {
        cyc_count(y, ELAN4_CNT_ACKS_RX);
        const elan4_slot_t *q = &s->slot[e.slot];
        if (e.owner == 2) elan4_rp_token(y, e.slot, true);
        if (e.owner == 3) elan4_dma_token(y, e.gen, e.pos, true);
        if (e.owner == 1 && q->used && q->gen == e.gen && q->state == ELAN4_Q_OK && n->slot[e.slot].out &&
            c->bug != ELAN4_BUG_STEN_ACK_IGNORED) /* planted: the ack leaves out(q) */
          n->slot[e.slot].out--;
      } else {
        cyc_count(y, ELAN4_CNT_NACKS_RX);
        nacked(y, &e);
      }
    } else if (e.tail_sent) {
      uint64_t t0 = e.t0 > s->last_leave[v] ? e.t0 : s->last_leave[v];
      if (s->cyc >= t0 + c->ack_timeout) {
        leave_oldest(n, v);
        n->last_leave[v] = s->cyc;
        cyc_count(y, ELAN4_CNT_TIMEOUTS);
        if (!(e.owner == 3 && y->c->bug == ELAN4_BUG_DMA_TIMEOUT_IGNORED)) nacked(y, &e);
      }
    }
  }

  /* the flit of this cycle */
  if (s->n_tok) {
    r->out_valid = true;
    r->out_kind = ELAN4_TOKEN;
    r->out_vc = s->tok_vc[0];
    r->out_data = s->tok_ack[0] & 1u;
    cyc_count(y, ELAN4_CNT_TX_TOKENS);
    if (!s->tok_ack[0]) cyc_count(y, ELAN4_CNT_NACKS_TX);
    for (unsigned i = 0; i + 1 < s->n_tok; i++) {
      n->tok_vc[i] = s->tok_vc[i + 1];
      n->tok_ack[i] = s->tok_ack[i + 1];
    }
    n->n_tok = (uint8_t)(s->n_tok - 1);
  } else if (s->txp.active) {
    const unsigned v = s->txp.vc;
    if (s->credits[v]) {
      used[v]++;
      r->out_valid = true;
      r->out_vc = (uint8_t)v;
      if (s->txp.sent < s->txp.nbody) {
        r->out_kind = ELAN4_BODY;
        r->out_data = s->txp.body[s->txp.sent];
        n->txp.sent = (uint8_t)(s->txp.sent + 1);
      } else {
        r->out_kind = ELAN4_TAIL;
        /* elite4's TAIL CRC; planted tail_crc_short: the last body word left out */
        const unsigned ncrc = s->txp.nbody - (c->bug == ELAN4_BUG_TAIL_CRC_SHORT && s->txp.nbody);
        r->out_data = common_crc32_words(s->txp.body, ncrc);
        n->txp.active = false;
        cyc_count(y, ELAN4_CNT_TX_PKTS);
        for (unsigned i = n->n_outst[v]; i-- > 0;) /* the packet in progress is the newest listed */
          if (!n->outst[v][i].tail_sent) {
            n->outst[v][i].tail_sent = true;
            n->outst[v][i].t0 = s->cyc;
            break;
          }
        if (s->st.st == ST_TX && s->txp.owner == 1)
          n->st.st = ST_IDLE; /* STEN idle in the cycle after its TAIL */
      }
    }
  } else {
    /* a new packet: RP > ST > DMA, on a VC with a credit and room in its list */
    const int rpi = elan4_rp_eligible(s);
    const unsigned vr = c->vc_reply, vs = c->vc_sten;
    const bool rp_ok = rpi >= 0 && s->credits[vr] && s->n_outst[vr] < c->max_outstanding;
    const bool st_ok =
        s->st.st == ST_SEND && !y->st_drop && s->credits[vs] && s->n_outst[vs] < c->max_outstanding;
    uint32_t dmo = 0;
    uint8_t dmm = 0;
    const unsigned vd = c->vc_dma;
    const int dmk = (rp_ok || st_ok) ? 0 : elan4_dma_sendable(c, s, &dmo, &dmm);
    const bool dma_ok = dmk && s->credits[vd] && s->n_outst[vd] < c->max_outstanding;
    if (dma_ok) {
      used[vd]++;
      r->out_valid = true;
      r->out_kind = ELAN4_HEAD;
      r->out_vc = (uint8_t)vd;
      r->out_data = s->dma.route;
      elan4_txp_t *p = &n->txp;
      memset(p, 0, sizeof *p);
      p->active = true;
      p->vc = (uint8_t)vd;
      p->owner = 3;
      p->nbody = (uint8_t)elan4_dma_body(y, dmo, dmm, p->body);
      n->outst[vd][n->n_outst[vd]++] = (elan4_outst_t){3, 0, s->dma.gen, dmo, dmm, 0, 0, 0, false, 0};
      elan4_dma_sent(y, dmk, dmo, dmm);
    } else if (rp_ok || st_ok) {
      const unsigned v = rp_ok ? vr : vs;
      used[v]++;
      r->out_valid = true;
      r->out_kind = ELAN4_HEAD;
      r->out_vc = (uint8_t)v;
      elan4_txp_t *p = &n->txp;
      memset(p, 0, sizeof *p);
      p->active = true;
      p->vc = (uint8_t)v;
      p->owner = rp_ok ? 2 : 1;
      if (rp_ok) {
        const unsigned sl = s->rp_send[rpi].slot;
        r->out_data = s->rs[sl].route;
        p->nbody = (uint8_t)elan4_rp_body(y, sl, p->body);
        n->outst[v][n->n_outst[v]++] =
            (elan4_outst_t){2, (uint8_t)sl, 0, 0, 0, s->rs[sl].tries, 0, 0, false, 0};
        for (unsigned i = (unsigned)rpi; i + 1 < n->n_rp_send; i++) n->rp_send[i] = n->rp_send[i + 1];
        n->n_rp_send--;
        if (s->rs[sl].tries) cyc_count(y, ELAN4_CNT_RESENDS);
      } else {
        r->out_data = s->st.route;
        p->nbody = (uint8_t)elan4_sten_body(y, p->body);
        const elan4_sten_t *j = &s->st;
        n->outst[v][n->n_outst[v]++] =
            (elan4_outst_t){1, j->slot, j->gen, j->pos, j->len, j->tries, j->q, j->dest, false, 0};
        n->st.st = ST_TX;
        if (j->resend) cyc_count(y, ELAN4_CNT_RESENDS);
      }
    }
  }

  /* credits: used this cycle, returned by the switch (usable next cycle) */
  for (unsigned v = 0; v < c->num_vcs; v++) {
    unsigned cr = s->credits[v] - used[v];
    if ((in->in_credit >> v) & 1u) {
      if (cr + 1 > c->link_buf)
        cyc_count(y, ELAN4_CNT_PROTO_ERR);
      else
        cr++;
    }
    n->credits[v] = (uint8_t)cr;
  }
}
