/* elan4 command processor (docs/elan4.md §4.3 encoding and checks, §6.3). */
#include "elan4_internal.h"

static unsigned op_of(uint64_t d) { return (unsigned)(d & 15u); }
static unsigned n_of(uint64_t d) { return (unsigned)((d >> 4) & 15u); }
static unsigned e_of(uint64_t d) { return (unsigned)((d >> 8) & 1u); }
static unsigned r_of(uint64_t d) { return (unsigned)((d >> 9) & 1u); }
static unsigned a_of(uint64_t d) { return (unsigned)((d >> 10) & 1u); }
static unsigned dest_of(uint64_t d) { return (unsigned)((d >> 16) & 0xFFFu); }
static uint32_t imm_of(uint64_t d) { return (uint32_t)(d >> 32); }

unsigned elan4_cmd_len(uint64_t d) {
  switch (op_of(d)) {
    case ELAN4_OP_WRITE: return 2 + n_of(d) + e_of(d);
    case ELAN4_OP_READ: return 3 + e_of(d);
    case ELAN4_OP_SETEVENT: return 2;
    case ELAN4_OP_WAITEVENT: return 5;
    case ELAN4_OP_RUN_DMA: return 8;
    case ELAN4_OP_ATOMIC: return 5 + e_of(d);
    default: return 1;
  }
}

/* The dword-0 checks in §4.3's order: E_OPCODE, E_DISABLED, E_FORMAT, E_ROUTE. */
unsigned elan4_check_dw0(const elan4_cfg_t *c, uint64_t cfg, uint64_t d) {
  static const int en_bit[9] = {-1, 47, 48, 49, 50, 51, -1, 52, 53};
  const unsigned op = op_of(d);
  if (op >= 9) return ELAN4_E_OPCODE;
  if (en_bit[op] >= 0 && !((cfg >> en_bit[op]) & 1u)) return ELAN4_E_DISABLED;
  const bool rw = op == ELAN4_OP_WRITE || op == ELAN4_OP_READ;
  const bool e_ok = rw || op == ELAN4_OP_ATOMIC || op == ELAN4_OP_RUN_DMA;
  const bool r_ok = op == ELAN4_OP_SETEVENT || op == ELAN4_OP_RUN_DMA;
  const bool remote =
      rw || op == ELAN4_OP_RUN_DMA || op == ELAN4_OP_ATOMIC || (op == ELAN4_OP_SETEVENT && r_of(d));
  const bool imm_zero = rw || op == ELAN4_OP_WAITEVENT || op == ELAN4_OP_ATOMIC;
  if ((d >> 11) & 0x1Fu || (d >> 28) & 0xFu) return ELAN4_E_FORMAT;
  if (op == ELAN4_OP_NOP && d != 0) return ELAN4_E_FORMAT;
  if (op == ELAN4_OP_GUARD && d != 6) return ELAN4_E_FORMAT;
  if (rw ? (n_of(d) < 1 || n_of(d) > 8) : n_of(d) != 0) return ELAN4_E_FORMAT;
  if (!e_ok && e_of(d)) return ELAN4_E_FORMAT;
  if (!r_ok && r_of(d)) return ELAN4_E_FORMAT;
  if (op != ELAN4_OP_ATOMIC && a_of(d)) return ELAN4_E_FORMAT;
  if (!remote && dest_of(d)) return ELAN4_E_FORMAT;
  if (imm_zero && imm_of(d)) return ELAN4_E_FORMAT;
  if (op == ELAN4_OP_RUN_DMA && c->bug != ELAN4_BUG_CP_DMA_LEN_UNCHECKED && /* planted */
      (imm_of(d) == 0 || (imm_of(d) % 8u && c->bug != ELAN4_BUG_CP_DMA_LEN_ODD)))
    return ELAN4_E_FORMAT;
  if (remote && dest_of(d) >= c->num_nodes) return ELAN4_E_ROUTE;
  return 0;
}

static bool in_page(uint64_t va, uint64_t bytes) { return (va & 0x1FFFu) + bytes <= 0x2000u; }

/* The body checks (E_FORMAT, §4.3) of a complete command. */
unsigned elan4_check_body(const uint64_t *w, unsigned len) {
  const uint64_t d = w[0];
  const unsigned n = n_of(d), e = e_of(d);
  bool ok = true;
  (void)len;
  switch (op_of(d)) {
    case ELAN4_OP_WRITE: ok = !(w[1] & 7u) && in_page(w[1], 8ull * n) && (!e || !(w[2 + n] & 31u)); break;
    case ELAN4_OP_READ:
      ok = !(w[1] & 7u) && !(w[2] & 7u) && in_page(w[1], 8ull * n) && in_page(w[2], 8ull * n) &&
           (!e || !(w[3] & 31u));
      break;
    case ELAN4_OP_SETEVENT: ok = !(w[1] & 31u); break;
    case ELAN4_OP_WAITEVENT:
      ok = !(w[1] & 31u) && ((w[2] >> 32) & 0x1FFu) <= 256 && ((w[2] >> 41) & 3u) != 3 && !(w[2] >> 43);
      break;
    case ELAN4_OP_RUN_DMA:
      ok = !(w[1] & 7u) && !(w[2] & 7u) && (e ? !(w[3] & 31u) : w[3] == 0) &&
           (r_of(d) ? !(w[4] & 31u) : w[4] == 0) && w[5] == 0 && w[6] == 0 && w[7] == 0;
      break;
    case ELAN4_OP_ATOMIC:
      ok = !(w[1] & 7u) && !(w[4] & 7u) && (a_of(d) || w[3] == 0) && (!e || !(w[5] & 31u));
      break;
    default: break;
  }
  return ok ? 0 : ELAN4_E_FORMAT;
}

static bool to_sten(uint64_t d) {
  unsigned op = op_of(d);
  return op == ELAN4_OP_WRITE || op == ELAN4_OP_READ || op == ELAN4_OP_ATOMIC ||
         (op == ELAN4_OP_SETEVENT && r_of(d));
}

void elan4_cp_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  const bool sten_free = s->st.st == ST_IDLE && elan4_resend_eligible(s) < 0;
  const unsigned max_out = c->bug == ELAN4_BUG_STEN_THREE_INFLIGHT ? 3 : 2;
  for (unsigned i = 0; i < c->num_cq; i++) {
    const unsigned k = (s->cp_rr + i) % c->num_cq;
    const elan4_slot_t *q = &s->slot[k];
    if (!q->used || q->state != ELAN4_Q_OK || q->hend == q->rp) continue;
    uint64_t w[11] = {0};
    w[0] = q->head[q->rp % ELAN4_MAX_HEAD];
    unsigned code = elan4_check_dw0(c, q->d0, w[0]), len = 0;
    if (code == ELAN4_E_FORMAT && c->bug == ELAN4_BUG_CP_FORMAT_STALLS && op_of(w[0]) == ELAN4_OP_RUN_DMA)
      continue; /* planted: the refusal never made */
    if (!code) {
      len = elan4_cmd_len(w[0]);
      const unsigned need = len - (c->bug == ELAN4_BUG_CMD_COMPLETE_EARLY && len > 1); /* planted */
      if (pos_sub(q->hend, q->rp) < need) continue;                                    /* not complete yet */
      for (unsigned j = 1; j < len; j++) w[j] = q->head[pos_add(q->rp, j) % ELAN4_MAX_HEAD];
      code = elan4_check_body(w, len);
    }
    if (!code) { /* ready? */
      const unsigned op = op_of(w[0]);
      bool go = true;
      if (to_sten(w[0]))
        go = q->out < max_out && sten_free;
      else if (op == ELAN4_OP_SETEVENT || op == ELAN4_OP_WAITEVENT)
        /* not while the DMA pushes (§6.7); push stays set once the engine is idle, so busy too (found by
           elan4_dma's D11: a local SETEVENT after a DMA's local event waited for the next RUN_DMA) */
        go = s->n_epf + 1u < c->ep_fifo && !((s->dma.busy || c->bug == ELAN4_BUG_CP_WAITS_IDLE_DMA) &&
                                             s->dma.push && c->bug != ELAN4_BUG_CP_PUSH_WITH_DMA);
      else if (op == ELAN4_OP_RUN_DMA)
        go = s->n_dmaq < c->dma_queue;
      else if (op == ELAN4_OP_GUARD)
        go = q->out == 0 || c->bug == ELAN4_BUG_GUARD_IGNORED;
      if (!go) continue;
      /* accepted */
      if (to_sten(w[0])) {
        elan4_sten_t *j = &n->st;
        uint32_t seq = s->st.seq + 1;
        memset(j, 0, sizeof *j);
        j->st = ST_ROUTE;
        j->slot = (uint8_t)k;
        j->gen = q->gen;
        j->pos = q->rp;
        j->len = len;
        j->q = q->q;
        j->dest = (uint16_t)dest_of(w[0]);
        j->seq = seq;
        memcpy(j->cmd, w, sizeof j->cmd);
        n->slot[k].out = (uint8_t)(q->out + 1);
      } else if (op == ELAN4_OP_SETEVENT || op == ELAN4_OP_WAITEVENT) {
        y->push_v[2] = true;
        if (op == ELAN4_OP_SETEVENT)
          y->push[2] = (elan4_epreq_t){
              .va_given = true, .ctx = (uint16_t)d0_ctx(q->d0), .addr = w[1], .inc = imm_of(w[0])};
        else
          y->push[2] = (elan4_epreq_t){true, true, (uint16_t)d0_ctx(q->d0), w[1], 0, w[2], w[3], w[4]};
      } else if (op == ELAN4_OP_RUN_DMA) {
        n->dmaq[s->n_dmaq] = (elan4_dmad_t){
            q->q, (uint16_t)d0_ctx(q->d0), (uint16_t)dest_of(w[0]), e_of(w[0]), r_of(w[0]), w[1], w[2], w[3],
            w[4], imm_of(w[0]) / 8u};
        n->n_dmaq = (uint8_t)(s->n_dmaq + 1);
      } else if (op == ELAN4_OP_INTERRUPT) {
        cyc_irq(y, IS_CP, 1, q->q, c->bug == ELAN4_BUG_INTR_COOKIE_LOST ? 0 : imm_of(w[0])); /* planted */
      }
      n->slot[k].rp = pos_add(q->rp, len);
      cyc_count(y, ELAN4_CNT_CMDS);
      n->r.tr_cmd = true;
      n->r.tr_cmd_q = q->q;
    } else {
      cyc_qerr(y, IS_CP, k, code, q->rp);
    }
    n->cp_rr = (uint8_t)((k + 1) % c->num_cq);
    return;
  }
}
