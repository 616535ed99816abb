/* elan4 DMA engine (docs/elan4.md §6.8): one DMA at a time from the DMA
 * queue; route read first; source chunks of <= 64 dwords (a lookup at each
 * source page), host or local; WRITE packets of <= 8 dwords that cross no page
 * on either side; resends from the buffer; the local event when all are acked;
 * failure codes 1 (route), 2 (source translation), 3 (retry limit). */
#include "elan4_internal.h"

#include <stddef.h>

#define ROUTE_POS 0xFFFFFFFFu

static uint64_t pa_of(const elan4_xlate_t *x, uint64_t va) {
  return (x->p1 & ((1ull << 50) - 1) & ~0x1FFFull) | (va & 0x1FFFu);
}
static uint32_t left_in_page(uint64_t va) { return (uint32_t)((0x2000u - (va & 0x1FFFu)) / 8u); }
static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }

unsigned elan4_dma_m(const elan4_cfg_t *c, const elan4_dmad_t *d, uint32_t o) {
  uint32_t m = umin(8, d->n - o);
  if (c->bug != ELAN4_BUG_DMA_PAGE_CROSS) m = umin(m, left_in_page(d->dst + 8ull * o));
  if (c->bug == ELAN4_BUG_DMA_SRC_PAGE_IGNORED) return m;
  return umin(m, left_in_page(d->src + 8ull * o));
}
/* at most 64 dwords, DmaBufDw - 8 when smaller (DmaBufDw 64: 56), so that a packet straddling a chunk
   boundary never waits for a chunk that waits for its ack (docs/elan4.md §6.8) */
static uint32_t chunk_size(const elan4_cfg_t *c, const elan4_dmad_t *d, uint32_t r) {
  const uint32_t cmax = c->dma_buf_dw - 8u < 64u ? c->dma_buf_dw - 8u : 64u;
  return umin(umin(cmax, d->n - r), left_in_page(d->src + 8ull * r));
}
/* rel: the oldest packet not yet released (a token's ack is released in the cycle after it) */
static uint32_t rel_of(const elan4_dma_t *j, const elan4_dmap_t *pk) {
  return j->npk ? pk[j->pk_head].o : j->onext;
}

/* this cycle's DMA: the running one, or the oldest descriptor started now;
   a chunk is started when the previous one's requests are all granted and the
   buffer has room. Only j's fields before its packet ring and the ring's
   pk_head and npk are set (the ring and the buffer are read from s->dma;
   elan4_dma_cycle's j is nx's own, which starts as a copy of s->dma). */
static void view_head(const elan4_dma_t *a, elan4_dma_t *j) {
  memcpy(j, a, offsetof(elan4_dma_t, pk));
  j->pk_head = a->pk_head;
  j->npk = a->npk;
}
static bool view(const elan4_cfg_t *c, const elan4_state_t *s, elan4_dma_t *j) {
  if (s->dma.busy) {
    view_head(&s->dma, j);
  } else {
    if (!s->n_dmaq) return false;
    view_head(&s->dma, j);
    j->busy = true;
    j->push = false;
    j->gen = s->dma.gen + 1;
    j->d = s->dmaq[0];
    j->route_asked = j->route_in = j->ck_on = false;
    j->rnext = j->arr = j->onext = j->pk_head = j->npk = 0;
  }
  if (!j->push && !j->ck_on && j->rnext < j->d.n) {
    const uint32_t sz = chunk_size(c, &j->d, j->rnext);
    if (j->rnext + sz - rel_of(j, s->dma.pk) <= c->dma_buf_dw) {
      j->ck_on = true;
      j->ck_r = j->rnext;
      j->ck_s = sz;
      j->ck_nreq = 0;
      j->ck_hm = j->ck_wait = false;
      j->ck_looked = !(j->rnext == 0 || ((j->d.src + 8ull * j->rnext) & 0x1FFFu) == 0);
    }
  }
  return true;
}

void elan4_dma_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_dma_t v; /* only the fields view sets are read */
  if (!view(c, s, &v)) return;
  if (v.push) {
    if (s->n_epf + 1u < c->ep_fifo) y->dma_pushes = true;
    return;
  }
  if (!v.route_asked) {
    y->req[RQ_DMA] = (elan4_lmreq_t){true, false, c->rt_base / 8u + v.d.dest, 0};
  } else if (v.ck_on && v.ck_looked && (v.xs.p0 >> 3 & 3u) == 1 && v.ck_nreq < v.ck_s) {
    y->req[RQ_DMA] =
        (elan4_lmreq_t){true, false, (uint32_t)(pa_of(&v.xs, v.d.src + 8ull * (v.ck_r + v.ck_nreq)) / 8u), 0};
  }
  if (v.ck_on && !v.ck_looked && !v.ck_wait) {
    y->look_req[2] = true;
    y->look_ctx[2] = v.d.ctx;
    y->look_va[2] = v.d.src + 8ull * v.ck_r;
  }
  if (v.ck_on && v.ck_looked && (v.xs.p0 >> 3 & 3u) == 0 && !v.ck_hm) {
    y->hm_req[3] = true;
    y->hm_wr[3] = false;
    y->hm_addr[3] = pa_of(&v.xs, v.d.src + 8ull * v.ck_r);
    y->hm_len[3] = (uint8_t)v.ck_s;
  }
}

static void fail(elan4_cyc_t *y, elan4_dma_t *j, unsigned code) {
  const elan4_state_t *s = y->s;
  cyc_irq(y, IS_DMA, 5, j->d.q, code);
  for (unsigned t = 0; t < 16; t++) /* its host reads keep their tags; their data is discarded */
    if (s->tag_busy[t] && s->tag_owner[t] == 3) {
      j->discard_tag[t] = true;
      if (y->c->bug == ELAN4_BUG_DMA_FAIL_FREES_TAGS) y->nx->tag_busy[t] = false;
    }
  if (y->hm_granted == 3) j->discard_tag[y->hm_tag] = true;
  j->busy = false;
}

void elan4_dma_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  elan4_dma_t *j = &n->dma; /* in place: nx's DMA starts as a copy of s's */
  /* host data of a failed DMA's reads, discarded */
  bool hm_mine = y->hm_rd_due && y->hm_rd_owner == 3;
  if (hm_mine && s->dma.discard_tag[y->hm_rd_tag]) {
    hm_mine = false;
    if (!n->tag_busy[y->hm_rd_tag]) n->dma.discard_tag[y->hm_rd_tag] = false;
  }
  if (!view(c, s, j)) return;
  if (!s->dma.busy) { /* started now: leaves the DMA queue */
    for (unsigned i = 0; i + 1 < n->n_dmaq; i++) n->dmaq[i] = n->dmaq[i + 1];
    n->n_dmaq--;
  }
  if (j->push) {
    if (y->dma_pushes) {
      y->push_v[1] = true;
      y->push[1] = (elan4_epreq_t){.va_given = true, .ctx = j->d.ctx, .addr = j->d.lev, .inc = 1};
      j->busy = false;
    }
    return;
  }
  /* the release (docs/elan4.md §6.8): the acks recorded before this cycle free their packets from the
     oldest; done when every packet was sent and all are acked */
  while (j->npk && j->pk[j->pk_head].acked) {
    j->pk_head = (j->pk_head + 1) % ELAN4_MAX_DMABUF;
    j->npk--;
  }
  if (s->dma.busy && j->onext == j->d.n && !j->npk) {
    if (j->d.r && c->bug != ELAN4_BUG_DMA_EVENT_LOST)
      j->push = true; /* presented from the next cycle */
    else
      j->busy = false;
    return;
  }
  if (y->granted == RQ_DMA) {
    if (!j->route_asked) {
      j->route_asked = true;
      lmr_tag(y, LMR_DMA, 0, j->gen, ROUTE_POS);
    } else {
      lmr_tag(y, LMR_DMA, 0, j->gen, j->ck_r + j->ck_nreq);
      if (++j->ck_nreq == j->ck_s) {
        j->ck_on = false;
        j->rnext = j->ck_r + j->ck_s;
      }
    }
  }
  if (y->hm_granted == 3) {
    j->ck_hm = true;
    j->ck_on = false;
    j->rnext = j->ck_r + j->ck_s;
  }
  if (j->ck_on && !j->ck_looked) {
    if (y->look_done[2]) {
      j->ck_wait = false;
      const unsigned sp = (unsigned)((y->look_res[2].p0 >> 3) & 3u);
      if (!y->look_res[2].ok || sp > 1) {
        fail(y, j, 2);
        return;
      }
      j->xs = y->look_res[2];
      j->ck_looked = true;
    } else if (y->look_req[2] && !s->fill.active && n->fill.active && n->fill.who == 2) { /* our own miss */
      j->ck_wait = true;
    }
  }
  if (y->rd_due && y->rd.owner == LMR_DMA && y->rd.gen == j->gen) {
    if (y->rd.pos == ROUTE_POS) {
      if (!((y->rd_data >> 32) & 1u)) {
        fail(y, j, 1);
        return;
      }
      j->route_in = true;
      j->route = (uint32_t)y->rd_data;
    } else {
      cyc_dirty(y, ELAN4_DIRTY_DMABUF);
      j->buf[j->arr % c->dma_buf_dw] = y->rd_data;
      j->arr++;
    }
  }
  if (hm_mine) {
    cyc_dirty(y, ELAN4_DIRTY_DMABUF);
    j->buf[j->arr % c->dma_buf_dw] = y->hm_rd_data;
    j->arr++;
  }
}

/* the packet the DMA asks the link for: 1 = a resend (its ring index in *o), 2 = a new one */
int elan4_dma_sendable(const elan4_cfg_t *c, const elan4_state_t *s, uint32_t *o, uint8_t *m) {
  const elan4_dma_t *j = &s->dma;
  if (!j->busy || j->push || !j->route_in) return 0;
  for (uint32_t i = 0; i < j->npk; i++) {
    const elan4_dmap_t *p = &j->pk[(j->pk_head + i) % ELAN4_MAX_DMABUF];
    if (p->pending && p->eligible <= s->cyc) {
      *o = p->o;
      *m = p->m;
      return 1;
    }
  }
  if (j->onext >= j->d.n) return 0;
  const unsigned mm = elan4_dma_m(c, &j->d, j->onext);
  if (j->arr < j->onext + mm) return 0;
  *o = j->onext;
  *m = (uint8_t)mm;
  return 2;
}

unsigned elan4_dma_body(const elan4_cyc_t *y, uint32_t o, unsigned m, uint32_t *b) {
  const elan4_dma_t *j = &y->s->dma;
  const bool last = o + m == j->d.n, e = last && j->d.e;
  const uint64_t va =
      j->d.dst + 8ull * (y->c->bug == ELAN4_BUG_DMA_OFFSET_12BIT ? o & 0xFFFu : o); /* planted */
  unsigned nb = 0;
  b[nb++] = 1u | m << 4 | (uint32_t)e << 8 | (uint32_t)j->d.ctx << 16;
  b[nb++] = y->in->node & 0xFFFu;
  b[nb++] = (uint32_t)va;
  b[nb++] = (uint32_t)(va >> 32);
  for (unsigned i = 0; i < m; i++) {
    const uint64_t d = j->buf[(o + i) % y->c->dma_buf_dw];
    b[nb++] = (uint32_t)d;
    b[nb++] = (uint32_t)(d >> 32);
  }
  if (e) {
    b[nb++] = (uint32_t)j->d.rev;
    b[nb++] = (uint32_t)(j->d.rev >> 32);
  }
  return nb;
}

static elan4_dmap_t *find(elan4_dma_t *j, uint32_t o) {
  for (uint32_t i = 0; i < j->npk; i++) {
    elan4_dmap_t *p = &j->pk[(j->pk_head + i) % ELAN4_MAX_DMABUF];
    if (p->o == o) return p;
  }
  return NULL;
}

void elan4_dma_sent(elan4_cyc_t *y, int which, uint32_t o, unsigned m) {
  elan4_dma_t *j = &y->nx->dma;
  if (which == 2) {
    j->pk[(j->pk_head + j->npk) % ELAN4_MAX_DMABUF] = (elan4_dmap_t){o, (uint8_t)m, false, false, 0, 0};
    j->npk++;
    j->onext = o + m;
  } else {
    elan4_dmap_t *p = find(j, o);
    if (p) p->pending = false;
    cyc_count(y, ELAN4_CNT_RESENDS);
  }
}

void elan4_dma_token(elan4_cyc_t *y, uint32_t gen, uint32_t o, bool ack) {
  const elan4_cfg_t *c = y->c;
  elan4_dma_t *j = &y->nx->dma;
  if (!y->s->dma.busy || y->s->dma.gen != gen) return; /* abandoned */
  elan4_dmap_t *p = find(j, o);
  if (!p) return;
  if (ack) {
    p->acked = true; /* released in the next cycle (elan4_dma_cycle) */
  } else if (p->tries < c->retry_limit + (c->bug == ELAN4_BUG_DMA_RETRY_EXTRA)) {
    p->tries++;
    p->pending = true;
    p->eligible = y->s->cyc + (uint64_t)c->retry_backoff * p->tries;
  } else {
    cyc_irq(y, IS_DMA, 5, j->d.q, 3);
    for (unsigned t = 0; t < 16; t++)
      if (y->s->tag_busy[t] && y->s->tag_owner[t] == 3) j->discard_tag[t] = true;
    j->busy = false;
  }
}
