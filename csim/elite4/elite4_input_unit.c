/*
 * elite4_input_unit -- ARRIVE, input buffers, the front rules, input VC states, the
 * staging registers and the body CRC.
 * Spec: docs/elite4.md sections 5.1 (ARRIVE, tin), 5.2 (front rules), 5.3 (combined
 * tokens), 5.5 (what a sending input VC stages), 5.6 (CRC from the staging register),
 * 5.7 (credits upstream).
 *
 * Each input VC (i, v) has a common_fifo of BufDepth entries {kind, data} (word 0 = data,
 * word 1 = kind), the registers of elite4_ivc_t and its staging register stg[i][v].
 */
#include "elite4_internal.h"

#include <stddef.h>
#include <string.h>

#include "common/common_crc32.h"

/* ---- CRC (section 5.6: "crc <- feed(crc, data) (4 bytes, byte 0 = data[7:0] first)") -- */

uint32_t elite4_body_crc(const uint32_t *words, unsigned n) {
  /* The register starts at 0xFFFFFFFF when the circuit opens (section 5.4); a TAIL
       matches when data == ~crc (section 5.6). */
  uint32_t c = COMMON_CRC32_INIT;
  for (unsigned k = 0; k < n; k++) c = common_crc32_feed_word(c, words[k]);
  return ~c;
}

/* ---- buffer side: fronts and route decode ---------------------------------------- */

void elite4_act_scan(const elite4_state_t *s, unsigned nivc, elite4_act_t *a) {
  *a = (elite4_act_t){0};
  for (unsigned k = 0; k < nivc; k++) {
    const uint64_t bit = UINT64_C(1) << k;
    const common_fifo_state_t *b = &s->buf[k];
    const unsigned ist = s->ivc[k].st, ost = s->ovc[k].st;
    if (b->count != 0) a->nonempty |= bit;
    if (ist == ELITE4_IST_ACTIVE) a->active |= bit;
    if (ist == ELITE4_IST_WAIT_TOKEN && s->ivc[k].pend == 0) a->settle |= bit;
    if (s->stg[k].valid) a->stg |= bit;
    if (b->overflow || b->underflow) a->flag |= bit;
    if (s->tokp[k].valid) a->tokp |= bit;
    if (ost == ELITE4_OST_BUSY) a->obusy |= bit;
    if (ost == ELITE4_OST_FREE) a->ofree |= bit;
  }
  for (unsigned p = 0; p < nivc / s->num_vcs; p++) {
    const uint64_t bit = UINT64_C(1) << p;
    const elite4_ev_t *e = &s->ev[p];
    const common_credit_counter_state_t *cs = &s->cred[p];
    if (e->n_err | e->n_crc | e->wait) a->ev |= bit;
    if (s->sel[p].valid) a->sel |= bit;
    if (s->tin[p].valid) a->tin |= bit;
    if (cs->underflow | cs->overflow | cs->bad_vc) a->cflag |= bit;
  }
}

void elite4_input_front(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w) {
  /* The buffer's outputs depend on its registered state only: pop_data_o is the entry
       at the head slot rd, word 0 = data, word 1 = kind (common_fifo's storage layout),
       read in place rather than through an idle common_fifo_eval. An empty buffer
       (empty_o: count == 0) has no front to read. */
  const unsigned words = COMMON_FIFO_WORDS(s->buf_cfg.width);
  const elite4_act_t *a = &s->act;
  w->nonempty = a->nonempty;
  w->active = a->active;
  w->settle = a->settle;
  w->stg_v = a->stg;
  w->buf_flag = a->flag;
  w->tokp_v = a->tokp;
  w->obusy = a->obusy;
  w->ofree = a->ofree;

  w->req_mask = 0;
  for (uint64_t m = a->nonempty; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    const common_fifo_state_t *b = &s->buf[k];
    elite4_front_t *f = &w->front[k];
    const uint32_t *e = &b->mem[(size_t)b->rd * words];
    f->valid = true;
    f->kind = (uint8_t)(e[1] & 0x3u);
    f->data = e[0];

    /* Section 5.2: route decode for each (i, v) with a HEAD at the front and IDLE. */
    if (f->kind == ELITE4_HEAD && s->ivc[k].st == ELITE4_IST_IDLE) {
      elite4_route_decode(cfg, f->data, &w->req[k]);
      if (w->req[k].kind != ELITE4_REQ_ILLEGAL) w->req_mask |= UINT64_C(1) << k; /* a VA requester (5.4) */
    }
  }
}

/* ---- next state ------------------------------------------------------------------ */

/* Section 5.5: the flit input VC k stages when SA lets it send, and its own state change.
   Returns the pop. */
static bool send_front(const elite4_cfg_t *cfg, unsigned i, unsigned k, const elite4_ivc_t *c,
                       elite4_ivc_t *n, elite4_work_t *w, elite4_stg_t *st) {
  const elite4_front_t *f = &w->front[k];
  st->valid = true;

  if (f->kind == ELITE4_HEAD && !c->head_sent) {
    /* The HEAD with its tag(s) removed; pop; head_sent <- 1. */
    st->kind = ELITE4_HEAD;
    st->data = elite4_route_strip(cfg, f->data, c->bcast, c->upn);
    n->head_sent = true;
    return true;
  }
  if (f->kind == ELITE4_HEAD) {
    /* A HEAD with head_sent = 1: the packet lost its tail upstream. A TAIL with data
           0xBAD0BAD0 closes the circuit; the HEAD stays (not popped); error 4. */
    st->kind = ELITE4_TAIL;
    st->data = ELITE4_BAD_TAIL;
    elite4_error(w, i, ELITE4_ERR_TRUNCATED);
    n->st = ELITE4_IST_WAIT_TOKEN;
    w->closes |= UINT64_C(1) << k;
    return false;
  }
  /* BODY or TAIL: as is; pop. (ACTIVE with head_sent = 0 always has the HEAD at the
       front, so these follow the HEAD.) The CRC is ST's, next cycle. */
  st->kind = f->kind;
  st->data = f->data;
  if (f->kind == ELITE4_TAIL) {
    n->st = ELITE4_IST_WAIT_TOKEN; /* or IDLE below, section 5.3 */
    w->closes |= UINT64_C(1) << k;
  }
  return true;
}

void elite4_input_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in,
                       elite4_work_t *w, elite4_next_t *nx) {
  nx->buf_touched = 0;
  w->closes = 0;
  w->tok_new = 0;
  w->tok_new_ack = 0;

  /* Section 5.1: tin <- the TOKEN arriving on port p (processed by T1 next cycle). */
  memset(nx->tin, 0, sizeof(nx->tin));
  nx->act.tin = 0;
  for (uint32_t m = w->in_valid; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(m);
    if (w->in_kind[p] == ELITE4_TOKEN) {
      nx->tin[p] = (elite4_tin_t){true, w->in_vc[p], (in->data[p] & 1u) != 0};
      nx->act.tin |= UINT64_C(1) << p;
    }
  }

  /* Every input VC holds its registers and stages nothing, except those with work: a
       flit in the buffer (IDLE and DROP act on it, ACTIVE sends it, a grant needs it) or
       arriving, a staged flit (CRC), a token, a common_fifo pulse to clear, or a
       WAIT_TOKEN owing nothing (never registered from reset; a scrambled start). */
  const uint64_t work = w->nonempty | w->push | w->stg_v | w->tok_hit | w->buf_flag | w->settle;
  nx->ivc_touched = work; /* the others hold, their stg empty (stg_v is in work) */
  /* act': the VCs without work keep their bits (and have no pulse); stg' is what sends. */
  elite4_act_t *na = &nx->act;
  na->nonempty = w->nonempty & ~work;
  na->active = w->active & ~work;
  na->settle = w->settle & ~work;
  na->flag = 0;
  na->stg = w->send;

  for (uint64_t wm = work; wm != 0; wm &= wm - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(wm), i = k >> w->vs, v = k & w->vm;
    const uint64_t bit = UINT64_C(1) << k;
    const elite4_ivc_t *c = &s->ivc[k];
    elite4_ivc_t *n = &nx->ivc[k];
    const elite4_front_t *f = &w->front[k];
    elite4_stg_t *st = &nx->stg[k];
    bool pop = false;

    *n = *c;
    *st = (elite4_stg_t){false, 0, 0};

    /* Section 5.6 (ST): the CRC register takes the BODY staged last cycle; a staged
             TAIL, other than the synthetic one, is checked against ~crc. */
    const elite4_stg_t *sg = &s->stg[k];
    if (sg->valid && sg->kind == ELITE4_BODY) {
      n->crc = common_crc32_feed_word(c->crc, sg->data);
    } else if (sg->valid && sg->kind == ELITE4_TAIL && sg->data != ELITE4_BAD_TAIL && sg->data != ~c->crc) {
      elite4_error(w, i, ELITE4_ERR_CRC);
      w->crc_err[i]++;
    }

    /* Tokens (T1, section 5.3) for this input VC: all of this cycle's apply. */
    if (w->tok_hit & bit) {
      n->pend = c->pend & ~w->tok_clear[k];
      n->ack = c->ack && !(w->tok_nack & bit);
    }

    switch (c->st) {
      case ELITE4_IST_IDLE:
        if (!(w->nonempty & bit)) break;
        if (f->kind != ELITE4_HEAD) {
          /* BODY or TAIL with no open packet: pop and discard; error 2. */
          pop = true;
          elite4_error(w, i, ELITE4_ERR_NO_PACKET);
        } else if (w->req[k].kind == ELITE4_REQ_ILLEGAL) {
          /* Illegal route: pop the HEAD, drop the rest, nack upstream (the output
                     unit raises error 6 instead if a token is still pending); error 1. */
          pop = true;
          n->st = ELITE4_IST_DROP;
          w->tok_new |= bit;                                               /* ack bit 0: a nack */
          if (cfg->bug == ELITE4_BUG_ILLEGAL_ACKED) w->tok_new_ack |= bit; /* planted: an ack */
          elite4_error(w, i, ELITE4_ERR_ROUTE);
        } else if (w->granted & bit) {
          /* VA grant: the circuit opens; the HEAD stays at the front and SA sends it
                     from the next cycle on. */
          n->st = ELITE4_IST_ACTIVE;
          n->outs = w->grant[k];
          n->bcast = w->req[k].bcast;
          n->upn = w->req[k].upn;
          n->head_sent = false;
          n->pend = w->grant[k];
          n->ack = true;
          n->crc = COMMON_CRC32_INIT;
        }
        break;

      case ELITE4_IST_DROP:
        if (!(w->nonempty & bit)) break;
        if (f->kind == ELITE4_HEAD) {
          /* The dropped packet had no TAIL: DROP ends; the HEAD is decoded next
                     cycle (not popped); error 4. */
          n->st = ELITE4_IST_IDLE;
          elite4_error(w, i, ELITE4_ERR_TRUNCATED);
        } else {
          pop = true; /* BODY, TAIL: pop and discard */
          if (f->kind == ELITE4_TAIL) n->st = ELITE4_IST_IDLE;
        }
        break;

      case ELITE4_IST_ACTIVE:
        if (w->send & bit) pop = send_front(cfg, i, k, c, n, w, st);
        break;

      default: break; /* WAIT_TOKEN: waits (the tokens above) */
    }

    /* Section 5.3: WAIT_TOKEN (already, or from this cycle's TAIL) with nothing owed
             any more after this cycle's tokens: IDLE, the combined token pending. */
    if (n->st == ELITE4_IST_WAIT_TOKEN && n->pend == 0) {
      w->tok_new |= bit;
      if (n->ack) w->tok_new_ack |= bit;
      n->st = ELITE4_IST_IDLE;
    }

    /* Section 5.1: a HEAD/BODY/TAIL arriving on port i for VC v is pushed with
             common_fifo semantics (accepted if not full or popped this cycle). */
    const bool push = (w->push & bit) != 0;
    if (push || pop || s->buf[k].overflow || s->buf[k].underflow) {
      const uint32_t entry[2] = {in->data[i], push ? w->in_kind[i] : 0u}; /* used if push */
      const common_fifo_in_t fi = {.push = push, .push_data = entry, .pop = pop};
      common_fifo_out_t fo;
      common_fifo_eval(&s->buf_cfg, &s->buf[k], &fi, &fo, &nx->buf[k]);
      nx->buf_touched |= bit;
      if (nx->buf[k].overflow) elite4_error(w, i, ELITE4_ERR_OVERFLOW); /* rejected push: error 3 */
      if (nx->buf[k].overflow || nx->buf[k].underflow) na->flag |= bit;
      if (s->buf[k].count + nx->buf[k].push_ok - nx->buf[k].pop_ok != 0) na->nonempty |= bit;
    } else if (w->nonempty & bit) {
      na->nonempty |= bit;
    }
    if (n->st == ELITE4_IST_ACTIVE) na->active |= bit;
    if (n->st == ELITE4_IST_WAIT_TOKEN && n->pend == 0) na->settle |= bit;

    /* Section 5.7: out_credit_o pulses the cycle after any pop; section 5.4: alloc_o
             the cycle after a grant. */
    nx->r.credit[i][v] = pop; /* elsewhere 0 from the top */
    nx->r.alloc[i][v] = (w->granted & bit) != 0;
  }
}
