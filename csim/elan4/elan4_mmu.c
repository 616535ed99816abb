/* elan4 MMU (docs/elan4.md §4.5, §6.6): a TLB of TlbEntries matching PTEs,
 * one lookup per cycle (IP > EP > DMA, none while a fill is in progress), the
 * fill reading the hashed bucket's two dwords through the local-memory port
 * at the highest priority; and the host master port's arbiter (§5.1 rule 5). */
#include "elan4_internal.h"

bool elan4_pte_match(const elan4_cfg_t *c, uint64_t p0, uint64_t p1, unsigned ctx, uint64_t va) {
  if (!(p0 & 1u) || (p0 >> 13) != (va >> 13) || (unsigned)(p1 >> 50) != ctx) return false;
  const unsigned space = (unsigned)((p0 >> 3) & 3u);
  if (space == 3 || (p0 >> 5) & 0xFFu || p1 & 0x1FFFu) return false;
  const uint64_t pa = p1 & ((1ull << 50) - 1) & ~0x1FFFull;
  if (space == 1 && (pa >> 31)) return false;
  if (space == 2 && (((pa >> 13) & 0x1FFFu) >= c->num_queues || (va >> 12) & 1u)) return false;
  return true;
}

static uint32_t bucket(const elan4_cfg_t *c, unsigned ctx, uint64_t va) {
  uint32_t m = (1u << c->pt_bits) - 1u;
  uint32_t h = ((uint32_t)(va >> 13) ^ ctx) & m;
  return c->pt_base / 8u + 2u * h;
}

void elan4_mmu_present(elan4_cyc_t *y) {
  const elan4_state_t *s = y->s;
  const elan4_fill_t *f = &s->fill;
  if (!f->active) return;
  /* p0 in c+1, p1 in c+2 (the highest priority: these are their grant cycles) */
  if (s->cyc == f->c + 1 || s->cyc == f->c + 2)
    y->req[RQ_MMU] =
        (elan4_lmreq_t){true, false, bucket(y->c, f->ctx, f->va) + (unsigned)(s->cyc - f->c - 1), 0};
}

void elan4_mmu_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  const elan4_fill_t *f = &s->fill;
  if (f->active) {
    if (y->granted == RQ_MMU) lmr_tag(y, LMR_MMU, 0, 0, (uint32_t)(s->cyc - f->c - 1));
    if (y->rd_due && y->rd.owner == LMR_MMU && y->rd.pos == 0) n->fill.p0 = y->rd_data;
    if (y->rd_due && y->rd.owner == LMR_MMU && y->rd.pos == 1) {
      const uint64_t p0 = f->p0, p1 = y->rd_data;
      elan4_xlate_t r = {false, 0, 0};
      if (elan4_pte_match(c, p0, p1, f->ctx, f->va)) {
        int e = -1;
        for (unsigned k = 0; k < c->tlb_entries && e < 0; k++)
          if (!s->tlb[k].valid) e = (int)k;
        if (e < 0) {
          e = s->tlb_repl;
          n->tlb_repl = (uint8_t)((s->tlb_repl + 1u) % c->tlb_entries);
        }
        cyc_dirty(y, ELAN4_DIRTY_TLB);
        n->tlb[e] = (elan4_tlbe_t){true, p0, p1};
        r = (elan4_xlate_t){true, p0, p1};
      }
      y->look_done[f->who] = true;
      y->look_res[f->who] = r;
      n->fill.active = false;
    }
    /* the fill's own reads were tagged LMR_NONE: nothing else uses their data */
    return; /* no lookup while a fill is in progress */
  }
  for (unsigned w = 0; w < 3; w++) {
    if (!y->look_req[w]) continue;
    const unsigned ctx = y->look_ctx[w];
    const uint64_t va = y->look_va[w];
    for (unsigned k = 0; k < c->tlb_entries; k++) {
      const elan4_tlbe_t *e = &s->tlb[k];
      unsigned ectx = c->bug == ELAN4_BUG_TLB_IGNORES_CTX ? (unsigned)(e->p1 >> 50) : ctx;
      if (e->valid && elan4_pte_match(c, e->p0, e->p1, ectx, va)) {
        cyc_count(y, ELAN4_CNT_TLB_HIT);
        y->look_done[w] = true;
        y->look_res[w] = (elan4_xlate_t){true, e->p0, e->p1};
        return;
      }
    }
    cyc_count(y, ELAN4_CNT_TLB_MISS);
    n->fill = (elan4_fill_t){true, (uint8_t)w, (uint16_t)ctx, va, 0, s->cyc};
    return;
  }
}

/* Host master arbiter: IP > RP > EP > DMA; a request shown stays until taken. */
void elan4_hm_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  const elan4_in_t *in = y->in;
  elan4_state_t *n = y->nx;
  y->hm_granted = -1;
  /* read data */
  if (in->hm_rvalid) {
    const unsigned t = in->hm_rtag & 15u;
    if (t < c->host_read_tags && s->tag_busy[t] && s->tag_got[t] < s->tag_len[t]) {
      y->hm_rd_due = true;
      y->hm_rd_owner = s->tag_owner[t];
      y->hm_rd_tag = (uint8_t)t;
      y->hm_rd_data = in->hm_rdata;
      n->tag_got[t] = (uint8_t)(s->tag_got[t] + 1);
      if (n->tag_got[t] == s->tag_len[t]) n->tag_busy[t] = false;
    } else {
      cyc_count(y, ELAN4_CNT_PROTO_ERR);
    }
  }
  const bool free_port = !s->hm.busy || in->hm_ready;
  if (s->hm.busy && in->hm_ready) n->hm.busy = false;
  if (!free_port) return;
  int tag = -1;
  for (unsigned t = 0; t < c->host_read_tags && tag < 0; t++)
    if (!s->tag_busy[t]) tag = (int)t;
  for (int k = 0; k < 4; k++) {
    if (!y->hm_req[k] || (!y->hm_wr[k] && tag < 0)) continue;
    y->hm_granted = k;
    n->hm = (elan4_hm_t){true,
                         y->hm_wr[k],
                         y->hm_addr[k],
                         y->hm_wr[k] ? y->hm_data[k] : 0,
                         y->hm_wr[k] ? 0 : y->hm_len[k],
                         y->hm_wr[k] ? 0 : (uint8_t)tag};
    if (!y->hm_wr[k]) {
      n->tag_busy[tag] = true;
      n->tag_len[tag] = y->hm_len[k];
      n->tag_got[tag] = 0;
      n->tag_owner[tag] = (uint8_t)k;
      y->hm_tag = (uint8_t)tag;
    }
    return;
  }
}
