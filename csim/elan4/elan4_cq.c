/* elan4 host port, queue intake and descriptor cache (docs/elan4.md §4.1, §4.2,
 * §6.1, §6.2): PIO acceptance, held PIO operations, arrivals with out-of-order
 * reassembly, drain and refill, the miss sequence (victim, spill, load, install). */
#include "elan4_internal.h"

#define BAR_CQCTL    0x02000000u
#define BAR_TLBFLUSH 0x02100000u
#define BAR_WINDOW   0x80000000u

static bool slot_has_ooo(const elan4_cfg_t *c, const elan4_slot_t *q) {
  for (unsigned i = 0; i < c->ooo_window; i++)
    if (q->have[pos_add(q->wp, i) % ELAN4_IBUF]) return true;
  return false;
}

bool elan4_intake_ok(const elan4_cfg_t *c, const elan4_state_t *s) {
  if (s->pio.kind != PIO_NONE) return false;
  for (unsigned k = 0; k < c->num_cq; k++) {
    const elan4_slot_t *q = &s->slot[k];
    if (q->used && q->state == ELAN4_Q_OK && pos_sub(q->wp, q->dp) >= c->ooo_window) return false;
  }
  return true;
}

static bool sten_holds(const elan4_state_t *s, unsigned k) {
  return s->st.st != ST_IDLE && s->st.slot == k && s->slot[k].gen == s->st.gen;
}

/* §6.2 "Evictable", from start-of-cycle state. */
static bool evictable(const elan4_cfg_t *c, const elan4_state_t *s, unsigned k) {
  const elan4_slot_t *q = &s->slot[k];
  if (q->out || sten_holds(s, k)) return false;
  if (q->state != ELAN4_Q_OK) return true;
  if (slot_has_ooo(c, q) || q->dp != q->wp || q->refill_f || q->late) return false;
  if (q->rp == q->wp) return true;
  if (q->hend == q->rp) return false; /* dword rp not in the head buffer */
  uint64_t dw0 = q->head[q->rp % ELAN4_MAX_HEAD];
  if (elan4_check_dw0(c, q->d0, dw0)) return false;
  return pos_sub(q->wp, q->rp) < elan4_cmd_len(dw0);
}

static uint64_t status_cached(const elan4_cfg_t *c, const elan4_slot_t *q) {
  bool ok = q->state == ELAN4_Q_OK;
  bool busy = ok && (q->rp != q->wp || slot_has_ooo(c, q) || q->out);
  uint32_t pos = q->state == ELAN4_Q_ERROR ? q->epos : q->fp;
  return (uint64_t)(q->state == ELAN4_Q_ERROR ? q->code : 0) | (uint64_t)q->state << 8 | 1ull << 10 |
         (uint64_t)busy << 11 | (uint64_t)(pos & ELAN4_POS_MASK) << 12 |
         (uint64_t)(q->wp & ELAN4_POS_MASK) << 32;
}
static uint64_t status_stored(uint64_t d1) {
  unsigned st = (unsigned)((d1 >> 8) & 3u);
  if (st == 3) st = ELAN4_Q_CLOSED;
  uint32_t wp = (uint32_t)(d1 >> 12) & ELAN4_POS_MASK, rp = (uint32_t)(d1 >> 32) & ELAN4_POS_MASK;
  bool busy = st == ELAN4_Q_OK && rp != wp;
  return (uint64_t)(st == ELAN4_Q_ERROR ? (d1 & 0xFFu) : 0) | (uint64_t)st << 8 | (uint64_t)busy << 11 |
         (uint64_t)rp << 12 | (uint64_t)wp << 32;
}

/* The state a CQCTL value gives (§4.2): CLOSED, OK, or ERROR with E_CONFIG. */
static unsigned cqctl_state(const elan4_cfg_t *c, uint64_t v, unsigned *code) {
  *code = 0;
  if (!(v >> 63)) return ELAN4_Q_CLOSED;
  uint64_t dw = depth_dw(c, d0_class(v));
  uint64_t base = d0_base(v);
  const bool misaligned = base % (dw * 8) && c->bug != ELAN4_BUG_CQCTL_ALIGN_UNCHECKED; /* planted */
  if (((v >> 54) & 0x1FFu) || misaligned || base + dw * 8 > (1ull << 31)) {
    *code = ELAN4_E_CONFIG;
    return ELAN4_Q_ERROR;
  }
  return ELAN4_Q_OK;
}

void elan4_cq_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  const elan4_pio_t *p = &s->pio;
  elan4_lmreq_t *r = &y->req[RQ_CQ];
  const uint32_t desc = c->desc_base / 8u + 2u * p->q;
  y->cq_what = 0;
  switch (p->kind) {
    case PIO_CQCTL_WR: {
      unsigned code, st = cqctl_state(c, p->data, &code);
      uint64_t d1 = (uint64_t)code | (uint64_t)st << 8;
      *r = (elan4_lmreq_t){true, true, desc + p->step, p->step ? d1 : p->data};
      break;
    }
    case PIO_CQCTL_RD:
      if (elan4_slot_of(c, s, p->q) < 0 && !p->wait) *r = (elan4_lmreq_t){true, false, desc + 1, 0};
      break;
    case PIO_WIN_WR: *r = (elan4_lmreq_t){true, true, (p->addr - BAR_WINDOW) / 8u, p->data}; break;
    case PIO_WIN_RD:
      if (!p->wait) *r = (elan4_lmreq_t){true, false, (p->addr - BAR_WINDOW) / 8u, 0};
      break;
    case PIO_MISS:
      if (p->step == 1) {
        const elan4_slot_t *v = &s->slot[p->victim];
        uint64_t d1 = slot_d1(v);
        if (c->bug == ELAN4_BUG_SPILL_WRONG_POSITION) d1 += 1ull << 12; /* planted: wp + 1 */
        *r = (elan4_lmreq_t){true, true, c->desc_base / 8u + 2u * v->q + 1, d1};
      } else if (p->step == 2 || p->step == 3) {
        *r = (elan4_lmreq_t){true, false, desc + (p->step - 2u), 0};
      }
      break;
    default: break;
  }
  if (r->valid) {
    y->cq_what = 1;
    return;
  }
  for (unsigned i = 0; i < c->num_cq; i++) { /* refill */
    unsigned k = (s->refill_rr + i) % c->num_cq;
    const elan4_slot_t *q = &s->slot[k];
    if (!q->used || q->state != ELAN4_Q_OK) continue;
    uint32_t nxt = pos_add(q->hend, q->refill_f);
    if (nxt != q->dp && pos_sub(nxt, q->rp) < c->head_dwords) {
      *r = (elan4_lmreq_t){true, false, bs_addr(c, q, nxt), 0};
      y->cq_what = 2;
      y->cq_slot = (uint8_t)k;
      y->cq_pos = nxt;
      return;
    }
  }
  for (unsigned i = 0; i < c->num_cq; i++) { /* drain */
    unsigned k = (s->drain_rr + i) % c->num_cq;
    const elan4_slot_t *q = &s->slot[k];
    if (!q->used || q->state != ELAN4_Q_OK || q->dp == q->wp) continue;
    *r = (elan4_lmreq_t){true, true, bs_addr(c, q, q->dp),
                         q->ibuf[q->dp % ELAN4_IBUF] ^ (c->bug == ELAN4_BUG_DRAIN_FLIPS_BIT)}; /* planted */
    y->cq_what = 3;
    y->cq_slot = (uint8_t)k;
    y->cq_pos = q->dp;
    return;
  }
}

/* A queue-page write reaching the intake (§6.1 "Arrival"). */
static void arrive(elan4_cyc_t *y, unsigned k, unsigned kidx, uint64_t data, uint8_t be) {
  const elan4_cfg_t *c = y->c;
  const elan4_slot_t *q = &y->s->slot[k];
  elan4_slot_t *n = &y->nx->slot[k];
  if (q->state != ELAN4_Q_OK || y->err_code[k]) { /* an E_GAP of this cycle discards it too */
    if (c->bug != ELAN4_BUG_ERROR_DISCARD_UNCOUNTED || q->state != ELAN4_Q_ERROR) /* planted */
      cyc_count(y, ELAN4_CNT_CQ_DISCARD);
    return;
  }
  if (be != 0xFF) {
    cyc_qerr(y, IS_CQ, k, ELAN4_E_PARTIAL, q->wp);
    return;
  }
  uint32_t p = pos_add(q->wp, (kidx - q->wp) & 511u);
  if (pos_sub(p, q->wp) >= c->ooo_window) {
    cyc_qerr(y, IS_CQ, k, ELAN4_E_WINDOW, p);
    return;
  }
  if (pos_sub(p, q->fp) >= depth_dw(c, d0_class(q->d0)) + (c->bug == ELAN4_BUG_OVERFLOW_OFF_BY_ONE)) {
    cyc_qerr(y, IS_CQ, k, ELAN4_E_OVERFLOW, p);
    return;
  }
  if (q->have[p % ELAN4_IBUF]) {
    cyc_qerr(y, IS_CQ, k, ELAN4_E_DUP, p);
    return;
  }
  cyc_dirty_slot(y, k);
  n->have[p % ELAN4_IBUF] = true;
  n->ibuf[p % ELAN4_IBUF] = data;
  if (p == q->wp) {
    uint32_t w = pos_add(p, 1);
    while (n->have[w % ELAN4_IBUF] && pos_sub(w, q->wp) < c->ooo_window) w = pos_add(w, 1);
    if (c->bug == ELAN4_BUG_OOO_RELEASE_EARLY) /* planted: jump over a gap to the last held dword */
      for (uint32_t j = 0; j < c->ooo_window; j++)
        if (n->have[pos_add(q->wp, j) % ELAN4_IBUF]) w = pos_add(q->wp, j + 1);
    n->wp = w;
  }
}

static void accept(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_in_t *in = y->in;
  elan4_state_t *n = y->nx;
  if (y->iqw) { /* an internal queue write: exactly a host write of that dword (§6.1) */
    if (elan4_slot_of(c, y->s, y->iqw_q) >= 0)
      n->arr = (elan4_arr_t){true, y->iqw_q, y->iqw_k, y->iqw_data, 0xFF};
    else
      n->pio = (elan4_pio_t){.kind = PIO_MISS,
                             .write = true,
                             .addr = y->iqw_q * 0x1000u + 8u * y->iqw_k,
                             .data = y->iqw_data,
                             .be = 0xFF,
                             .q = y->iqw_q};
    return;
  }
  if (!in->ht_valid || !elan4_intake_ok(c, y->s)) return;
  const uint32_t a = in->ht_addr;
  const bool wr = in->ht_write;
  cyc_count(y, wr ? ELAN4_CNT_PIO_WR : ELAN4_CNT_PIO_RD);
  elan4_pio_t p = {.write = wr, .addr = a, .data = in->ht_data, .be = in->ht_be, .tag = in->ht_tag};
  if (a & 7u) {
    p.kind = PIO_BAD;
  } else if (a < c->num_queues * 0x1000u) {
    p.q = (uint16_t)(a >> 12);
    if (!wr) {
      p.kind = PIO_BAD;
    } else if (elan4_slot_of(c, y->s, p.q) >= 0) {
      n->arr = (elan4_arr_t){true, p.q, (uint16_t)((a >> 3) & 511u), in->ht_data, in->ht_be};
      return;
    } else {
      p.kind = PIO_MISS;
    }
  } else if (a >= BAR_CQCTL && a < BAR_CQCTL + 8u * c->num_queues) {
    p.q = (uint16_t)((a - BAR_CQCTL) / 8u);
    p.kind = !wr ? PIO_CQCTL_RD : in->ht_be == 0xFF ? PIO_CQCTL_WR : PIO_BAD;
  } else if (a == BAR_TLBFLUSH) {
    p.kind = !wr ? PIO_ZERO : in->ht_be == 0xFF ? PIO_TLBFLUSH : PIO_BAD;
  } else if (a >= BAR_WINDOW) {
    p.kind = !wr ? PIO_WIN_RD : in->ht_be == 0xFF ? PIO_WIN_WR : PIO_BAD;
  } else {
    p.kind = PIO_BAD;
  }
  n->pio = p;
}

static void answer(elan4_cyc_t *y, uint64_t v) {
  y->nx->r.ht_rvalid = true;
  y->nx->r.ht_rdata = v;
  y->nx->r.ht_rtag = y->s->pio.tag;
  y->nx->pio.kind = PIO_NONE;
}

static void install(elan4_cyc_t *y, uint64_t d1) {
  const elan4_pio_t *p = &y->s->pio;
  elan4_slot_t *n = &y->nx->slot[p->victim];
  uint32_t gen = n->gen + 1;
  cyc_dirty_slot(y, p->victim);
  memset(n, 0, sizeof *n);
  n->used = n->ever = true;
  n->gen = gen;
  n->q = p->q;
  n->d0 = y->nx->pio.d0;
  unsigned st = (unsigned)((d1 >> 8) & 3u);
  n->state = (uint8_t)(st == 3 ? ELAN4_Q_CLOSED : st);
  n->code = n->state == ELAN4_Q_ERROR ? (uint8_t)d1 : 0;
  n->wp = n->dp = (uint32_t)(d1 >> 12) & ELAN4_POS_MASK;
  n->rp = n->hend = n->fp = (uint32_t)(d1 >> 32) & ELAN4_POS_MASK;
  n->epos = n->state == ELAN4_Q_ERROR ? n->rp : 0;
  cyc_count(y, ELAN4_CNT_CQ_LOAD);
  y->nx->pio.step = 5;
}

static void pio_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  const elan4_pio_t *p = &s->pio;
  const bool granted = y->granted == RQ_CQ && y->cq_what == 1;
  const bool data = y->rd_due && y->rd.owner == LMR_PIO;
  switch (p->kind) {
    case PIO_BAD:
      if (!(c->bug == ELAN4_BUG_PIO_BAD_UNCOUNTED && (p->addr & 7u)))
        cyc_count(y, ELAN4_CNT_PIO_BAD); /* planted */
      if (p->write)
        n->pio.kind = PIO_NONE;
      else
        answer(y, 0);
      break;
    case PIO_ZERO: answer(y, 0); break;
    case PIO_CQCTL_WR:
      if (!p->wait) { /* t+1: re-initialise a cached slot; E_CONFIG raised */
        n->pio.wait = true;
        int k = elan4_slot_of(c, s, p->q);
        if (k >= 0) {
          y->cqctl_slot = k;
          y->cqctl_val = p->data;
        }
        unsigned code;
        if (cqctl_state(c, p->data, &code) == ELAN4_Q_ERROR) {
          cyc_irq(y, IS_CQ, 3, p->q, code);
          cyc_count(y, ELAN4_CNT_CQ_ERROR);
        }
      }
      if (granted) {
        if (p->step == 0)
          n->pio.step = 1;
        else
          n->pio.kind = PIO_NONE;
      }
      break;
    case PIO_CQCTL_RD: {
      int k = elan4_slot_of(c, s, p->q);
      if (k >= 0 && !p->wait) {
        answer(y, status_cached(c, &s->slot[k]));
      } else {
        if (granted) {
          n->pio.wait = true;
          lmr_tag(y, LMR_PIO, 0, 0, 1);
        }
        if (data) answer(y, status_stored(y->rd_data));
      }
      break;
    }
    case PIO_TLBFLUSH: /* at the end of the first cycle with no MMU fill in progress */
      if (s->fill.active) break;
      cyc_dirty(y, ELAN4_DIRTY_TLB);
      for (unsigned e = 0; e < ELAN4_MAX_TLB; e++) n->tlb[e].valid = false;
      n->tlb_repl = 0;
      n->pio.kind = PIO_NONE;
      break;
    case PIO_WIN_WR:
      if (granted) n->pio.kind = PIO_NONE;
      break;
    case PIO_WIN_RD:
      if (granted) {
        n->pio.wait = true;
        lmr_tag(y, LMR_PIO, 0, 0, 0);
      }
      if (data) answer(y, y->rd_data);
      break;
    case PIO_MISS:
      if (p->step == 0) {
        int v = -1;
        for (unsigned k = 0; k < c->num_cq && v < 0; k++)
          if (!s->slot[k].ever) v = (int)k;
        for (unsigned i = 0; i < c->num_cq && v < 0; i++) {
          unsigned k = (s->victim_rr + i) % c->num_cq;
          if (evictable(c, s, k)) {
            v = (int)k;
            n->victim_rr = (uint8_t)((k + 1) % c->num_cq);
          }
        }
        if (v >= 0) {
          n->pio.victim = (uint8_t)v;
          n->pio.step = s->slot[v].used ? 1 : 2;
        }
      } else if (p->step == 1) {
        if (granted) {
          cyc_count(y, ELAN4_CNT_CQ_SPILL);
          n->pio.step = 2;
        }
      } else if (p->step == 2 || p->step == 3) {
        if (granted) {
          lmr_tag(y, LMR_PIO, 0, 0, p->step - 2u);
          n->pio.step = (uint8_t)(p->step + 1);
        }
      } else if (p->step == 5) { /* the held write arrives; the operation completes */
        arrive(y, p->victim, (p->addr >> 3) & 511u, p->data, p->be);
        n->pio.kind = PIO_NONE;
      }
      if (data && y->rd.pos == 0) n->pio.d0 = y->rd_data;
      if (data && y->rd.pos == 1) install(y, y->rd_data);
      break;
    default: break;
  }
}

void elan4_cq_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  n->arr.valid = false;
  /* gap timeout, checked before the cycle's arrival */
  for (unsigned k = 0; k < c->num_cq; k++) {
    const elan4_slot_t *q = &s->slot[k];
    if (!q->used || q->state != ELAN4_Q_OK || !slot_has_ooo(c, q)) {
      n->slot[k].gap_cnt = 0;
      continue;
    }
    n->slot[k].gap_cnt = q->gap_cnt + 1;
    if (q->gap_cnt + 1 >= c->gap_timeout + (c->bug == ELAN4_BUG_GAP_TIMEOUT_LATE)) /* planted */
      cyc_qerr(y, IS_CQ, k, ELAN4_E_GAP, q->wp);
  }
  if (s->arr.valid) {
    int k = elan4_slot_of(c, s, s->arr.q);
    if (k >= 0) arrive(y, (unsigned)k, s->arr.k, s->arr.data, s->arr.be);
  }
  pio_cycle(y);
  accept(y);
  /* planted bug empty_extra_cycle: the pending head-buffer step */
  for (unsigned k = 0; k < c->num_cq; k++)
    if (s->slot[k].late) {
      n->slot[k].late = false;
      n->slot[k].hend = pos_add(n->slot[k].hend, 1);
    }
  /* drain and refill grants */
  if (y->granted == RQ_CQ && y->cq_what == 2) {
    elan4_slot_t *q = &n->slot[y->cq_slot];
    q->refill_f++;
    lmr_tag(y, LMR_REFILL, y->cq_slot, q->gen, y->cq_pos);
    n->refill_rr = (uint8_t)((y->cq_slot + 1u) % c->num_cq);
  } else if (y->granted == RQ_CQ && y->cq_what == 3) {
    const elan4_slot_t *o = &s->slot[y->cq_slot];
    elan4_slot_t *q = &n->slot[y->cq_slot];
    cyc_dirty_slot(y, y->cq_slot);
    q->dp = pos_add(o->dp, 1);
    q->have[o->dp % ELAN4_IBUF] = false;
    if (o->hend == o->dp && pos_sub(o->hend, o->rp) < c->head_dwords && !o->late) {
      q->head[o->dp % ELAN4_MAX_HEAD] = o->ibuf[o->dp % ELAN4_IBUF];
      if (c->bug == ELAN4_BUG_EMPTY_EXTRA_CYCLE)
        q->late = true;
      else
        q->hend = pos_add(o->hend, 1);
    }
    n->drain_rr = (uint8_t)((y->cq_slot + 1u) % c->num_cq);
  }
  if (y->rd_due && y->rd.owner == LMR_REFILL) {
    elan4_slot_t *q = &n->slot[y->rd.slot];
    if (q->used && q->gen == y->rd.gen && q->state == ELAN4_Q_OK) {
      cyc_dirty_slot(y, y->rd.slot);
      q->head[y->rd.pos % ELAN4_MAX_HEAD] = y->rd_data;
      q->hend = pos_add(q->hend, 1);
      q->refill_f--;
    }
  }
}

/* A CQCTL write re-initialises a cached slot (§4.2), over every other event of
   the cycle for that queue (§7). */
void elan4_cq_reinit(elan4_cyc_t *y) {
  elan4_slot_t *q = &y->nx->slot[y->cqctl_slot];
  unsigned code, st = cqctl_state(y->c, y->cqctl_val, &code);
  uint32_t gen = q->gen + 1;
  uint16_t qid = q->q;
  cyc_dirty_slot(y, (unsigned)y->cqctl_slot);
  memset(q, 0, sizeof *q);
  q->used = q->ever = true;
  q->q = qid;
  q->gen = gen;
  q->d0 = y->cqctl_val;
  q->state = (uint8_t)st;
  q->code = (uint8_t)code;
}
