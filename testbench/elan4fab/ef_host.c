/* The host of one elan4 node: see ef_host.h. */
#include "ef_host.h"

#include <string.h>

#define CQCTL_ADDR(q) (0x02000000u + 8u * (q))

void ef_host_init(ef_host_t *h, unsigned node, unsigned read_lat) {
  memset(h, 0, sizeof *h);
  h->node = node;
  h->read_lat = read_lat ? read_lat : 1;
  h->rd_cap = 16u;
  memset(h->tag_q, -1, sizeof h->tag_q);
}
void ef_host_reorder(ef_host_t *h, unsigned window, uint64_t seed) {
  h->reorder = window;
  h->rng = seed * 0x9E3779B97F4A7C15ull | 1u;
}
static unsigned rng_below(ef_host_t *h, unsigned n) {
  h->rng ^= h->rng << 13;
  h->rng ^= h->rng >> 7;
  h->rng ^= h->rng << 17;
  return (unsigned)(h->rng % n);
}
void ef_host_free(ef_host_t *h) {
  free(h->back);
  free(h->pio);
  free(h->irq);
  free(h->op);
  ef_mem_free(&h->mem);
  memset(h, 0, sizeof *h);
}

/* rings of ef_pio_t: 0, or -1 (out of memory, counted) */
static int ring_push(ef_host_t *h, ef_pio_t **r, unsigned *head, unsigned *n, unsigned *cap,
                     const ef_pio_t *x) {
  if (*n == *cap) {
    const unsigned nc = *cap ? 2 * *cap : 64;
    ef_pio_t *g = h->no_alloc ? NULL : malloc(nc * sizeof *g);
    if (!g) return --h->oom;
    for (unsigned i = 0; i < *n; i++) g[i] = (*r)[(*head + i) % *cap];
    free(*r);
    *r = g;
    *head = 0;
    *cap = nc;
  }
  (*r)[(*head + *n) % *cap] = *x;
  (*n)++;
  return 0;
}

static int new_op(ef_host_t *h, unsigned op, unsigned q, uint64_t now) {
  if (h->nop == h->cap_op) {
    const unsigned nc = h->cap_op ? 2 * h->cap_op : 64;
    ef_op_t *g = h->no_alloc ? NULL : realloc(h->op, nc * sizeof *g);
    if (!g) return --h->oom;
    h->op = g;
    h->cap_op = nc;
  }
  h->op[h->nop] = (ef_op_t){.queued = now, .accept = EF_NEVER, .op = (uint8_t)op, .q = (uint8_t)q};
  return (int)h->nop++;
}

/* A command of n dwords into queue q's backlog: its op index, or -1. */
static int command(ef_host_t *h, unsigned q, const uint64_t *dw, unsigned n, uint64_t now) {
  const int op = new_op(h, (unsigned)(dw[0] & 0xF), q, now);
  if (op < 0) return op;
  for (unsigned i = 0; i < n; i++) {
    const ef_pio_t x = {.data = dw[i], .write = 1, .q = (uint8_t)q, .op = i ? -1 : op};
    if (ring_push(h, &h->back, &h->back_h, &h->back_n, &h->back_cap, &x)) return -1;
  }
  return op;
}

/* §4.3 dword 0 */
static uint64_t dw0(unsigned op, unsigned n, unsigned e, unsigned r, unsigned a, unsigned dest,
                    uint32_t imm) {
  return op | n << 4 | e << 8 | r << 9 | a << 10 | (uint64_t)dest << 16 | (uint64_t)imm << 32;
}

void ef_open(ef_host_t *h, unsigned q, uint32_t base, unsigned cls, uint32_t depth_dw, unsigned ctx,
             uint64_t now) {
  (void)now;
  const uint64_t v =
      (base & 0x7FFFFFFFu) | (uint64_t)cls << 31 | (uint64_t)ctx << 33 | 0x7Full << 47 | 1ull << 63;
  const ef_pio_t x = {.addr = CQCTL_ADDR(q), .data = v, .write = 1, .q = (uint8_t)q, .op = -1};
  h->depth_dw[q] = depth_dw;
  h->wp[q] = h->fp[q] = h->top_pos[q] = 0;
  /* behind every command already released: the PIO stream is in order */
  ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &x);
}

void ef_cqctl(ef_host_t *h, unsigned q, uint64_t value, uint32_t depth_dw) {
  const ef_pio_t x = {.addr = CQCTL_ADDR(q), .data = value, .write = 1, .q = (uint8_t)q, .op = -1};
  h->depth_dw[q] = depth_dw;
  h->wp[q] = h->fp[q] = h->top_pos[q] = 0;
  ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &x);
}
int ef_raw(ef_host_t *h, unsigned q, const uint64_t *dw, unsigned n, uint64_t now) {
  return command(h, q, dw, n, now);
}
void ef_raw_at(ef_host_t *h, unsigned q, unsigned ahead, uint64_t data, uint8_t be) {
  const uint64_t p = h->wp[q] + ahead;
  const ef_pio_t x = {.addr = (uint32_t)(q * 0x1000u + 8u * (p % 512u)),
                      .data = data,
                      .pos = p,
                      .write = 1,
                      .q = (uint8_t)q,
                      .be_off = (uint8_t)(0xFFu ^ be),
                      .op = -1};
  ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &x);
}
void ef_status(ef_host_t *h, unsigned q) {
  h->status_issued[q]++;
  const ef_pio_t rd = {.addr = CQCTL_ADDR(q), .write = 0, .q = (uint8_t)q, .op = -1};
  ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &rd);
}

int ef_put(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, const uint64_t *data, unsigned n,
           uint64_t event_va, uint64_t now) {
  uint64_t dw[11];
  unsigned k = 0;
  const unsigned e = event_va != 0;
  dw[k++] = dw0(1, n, e, 0, 0, dest, 0);
  dw[k++] = va;
  for (unsigned i = 0; i < n; i++) dw[k++] = data[i];
  if (e) dw[k++] = event_va;
  return command(h, q, dw, k, now);
}
int ef_get(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, unsigned n, uint64_t reply_va,
           uint64_t event_va, uint64_t now) {
  const unsigned e = event_va != 0;
  const uint64_t dw[4] = {dw0(2, n, e, 0, 0, dest, 0), va, reply_va, event_va};
  return command(h, q, dw, 3 + e, now);
}
static int atomic(ef_host_t *h, unsigned q, unsigned cas, unsigned dest, uint64_t va, uint64_t a, uint64_t b,
                  uint64_t reply_va, uint64_t event_va, uint64_t now) {
  const unsigned e = event_va != 0;
  const uint64_t dw[6] = {dw0(8, 0, e, 0, cas, dest, 0), va, a, b, reply_va, event_va};
  return command(h, q, dw, 5 + e, now);
}
int ef_fadd(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, uint64_t addend, uint64_t reply_va,
            uint64_t event_va, uint64_t now) {
  return atomic(h, q, 0, dest, va, addend, 0, reply_va, event_va, now);
}
int ef_cas(ef_host_t *h, unsigned q, unsigned dest, uint64_t va, uint64_t cmp, uint64_t swap,
           uint64_t reply_va, uint64_t event_va, uint64_t now) {
  return atomic(h, q, 1, dest, va, cmp, swap, reply_va, event_va, now);
}
int ef_setevent(ef_host_t *h, unsigned q, bool remote, unsigned dest, uint64_t event_va, uint32_t inc,
                uint64_t now) {
  const uint64_t dw[2] = {dw0(3, 0, 0, remote, 0, remote ? dest : 0, inc), event_va};
  return command(h, q, dw, 2, now);
}
int ef_waitevent(ef_host_t *h, unsigned q, uint64_t event_va, uint64_t e0, uint64_t p0, uint64_t p1,
                 uint64_t now) {
  const uint64_t dw[5] = {4, event_va, e0, p0, p1};
  return command(h, q, dw, 5, now);
}
int ef_guard(ef_host_t *h, unsigned q, uint64_t now) {
  const uint64_t dw[1] = {6};
  return command(h, q, dw, 1, now);
}
int ef_dma(ef_host_t *h, unsigned q, unsigned dest, uint64_t src_va, uint64_t dst_va, uint32_t bytes,
           uint64_t remote_ev, uint64_t local_ev, uint64_t now) {
  const uint64_t dw[8] = {
      dw0(5, 0, remote_ev != 0, local_ev != 0, 0, dest, bytes), src_va, dst_va, remote_ev, local_ev, 0, 0, 0};
  return command(h, q, dw, 8, now);
}
int ef_interrupt(ef_host_t *h, unsigned q, uint32_t cookie, uint64_t now) {
  const uint64_t dw[1] = {dw0(7, 0, 0, 0, 0, 0, cookie)};
  return command(h, q, dw, 1, now);
}

int ef_irq_find(const ef_host_t *h, unsigned from, unsigned cause, uint64_t data) {
  for (unsigned i = from; i < h->nirq; i++)
    if (h->irq[i].cause == cause && h->irq[i].data == data) return (int)i;
  return -1;
}
bool ef_host_idle(const ef_host_t *h) { return !h->back_n && !h->pio_n && !h->rd_n; }

/* The backlog's head command goes into the PIO stream when the queue has
 * room for all of it (§6.1: p < fp + DepthDw), else a status read. */
static void release(ef_host_t *h) {
  while (h->back_n) {
    const ef_pio_t *x = &h->back[h->back_h];
    const unsigned q = x->q;
    unsigned n = 1; /* the command's length: dwords up to the next op's first */
    while (n < h->back_n && h->back[(h->back_h + n) % h->back_cap].op < 0) n++;
    if (h->wp[q] + n > h->fp[q] + h->depth_dw[q]) {
      if (!h->fp_wait[q]) {
        const ef_pio_t rd = {.addr = CQCTL_ADDR(q), .write = 0, .q = (uint8_t)q, .op = -1};
        h->fp_wait[q] = true;
        ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &rd);
      }
      return;
    }
    for (unsigned i = 0; i < n; i++) {
      ef_pio_t y = h->back[h->back_h];
      y.addr = (uint32_t)(q * 0x1000u + 8u * (h->wp[q] % 512u));
      y.pos = h->wp[q];
      h->wp[q]++;
      if (ring_push(h, &h->pio, &h->pio_h, &h->pio_n, &h->pio_cap, &y)) return;
      h->back_h = (h->back_h + 1) % h->back_cap;
      h->back_n--;
    }
  }
}

void ef_host_drive(ef_host_t *h, ef_ht_req_t *req) {
  release(h);
  memset(req, 0, sizeof *req);
  if (!h->pio_n) return;
  ef_pio_t *x = &h->pio[h->pio_h];
  if (h->reorder > 1 && x->write && x->addr < 0x02000000u) {
    /* a run of queue-page writes of one queue at the head: present any of
       them whose position is below the run's lowest + `reorder` (every
       position below the lowest has been accepted, so the NIC's wp is the
       lowest when this one arrives: p - wp < reorder <= OooWindow) */
    unsigned k = 1;
    uint64_t lo = x->pos;
    while (k < 2 * h->reorder && k < h->pio_n) {
      const ef_pio_t *y = &h->pio[(h->pio_h + k) % h->pio_cap];
      if (!y->write || y->addr >= 0x02000000u || y->q != x->q) break;
      if (y->pos < lo) lo = y->pos;
      k++;
    }
    unsigned cand[128], nc = 0;
    for (unsigned i = 0; i < k; i++)
      if (h->pio[(h->pio_h + i) % h->pio_cap].pos < lo + (uint64_t)h->reorder) cand[nc++] = i;
    const unsigned j = cand[rng_below(h, nc)];
    if (j) {
      ef_pio_t *y = &h->pio[(h->pio_h + j) % h->pio_cap], t = *x;
      *x = *y;
      *y = t;
    }
  }
  req->valid = true;
  req->write = x->write;
  req->addr = x->addr;
  req->data = x->data;
  req->be = (uint8_t)(0xFFu ^ x->be_off);
  if (!x->write) {
    req->tag = h->next_tag;
    h->tag_q[h->next_tag] = (int8_t)x->q;
  }
}

void ef_host_ht_result(ef_host_t *h, uint64_t cycle, bool ready, bool rvalid, uint8_t rtag, uint64_t rdata) {
  if (ready && h->pio_n) {
    const ef_pio_t *x = &h->pio[h->pio_h];
    if (x->op >= 0) h->op[x->op].accept = cycle;
    if (x->write && x->addr < 0x02000000u) {
      if (x->pos + 1 < h->top_pos[x->q]) h->pio_ooo++;
      if (x->pos + 1 > h->top_pos[x->q]) h->top_pos[x->q] = x->pos + 1;
    }
    if (!x->write) h->next_tag++;
    h->pio_h = (h->pio_h + 1) % h->pio_cap;
    h->pio_n--;
    h->pio_accepted++;
  }
  if (rvalid && h->tag_q[rtag] >= 0) { /* a status word (§4.2): fp = [31:12] mod 2^20 when OK */
    const unsigned q = (unsigned)h->tag_q[rtag];
    h->tag_q[rtag] = -1;
    h->fp_wait[q] = false;
    h->status[q] = rdata;
    h->status_n[q]++;
    if (((rdata >> 8) & 3) == 1) h->fp[q] = h->wp[q] - ((h->wp[q] - (rdata >> 12)) & 0xFFFFFu);
  }
}

void ef_host_irq(ef_host_t *h, uint64_t cycle, uint8_t cause, uint16_t info, uint64_t data) {
  if (h->nirq == h->cap_irq) {
    const unsigned nc = h->cap_irq ? 2 * h->cap_irq : 64;
    ef_irq_t *g = h->no_alloc ? NULL : realloc(h->irq, nc * sizeof *g);
    if (!g) {
      h->oom--;
      return;
    }
    h->irq = g;
    h->cap_irq = nc;
  }
  h->irq[h->nirq++] = (ef_irq_t){cycle, cause, info, data};
}

bool ef_host_hm_answer(ef_host_t *h, uint64_t cycle, uint8_t *tag, uint64_t *data) {
  if (!h->rd_n) return false;
  ef_hread_t *r = &h->rd[h->rd_h];
  if (cycle < r->due) return false;
  *tag = r->tag;
  *data = ef_mem_get(&h->mem, r->addr / 8 + r->i);
  if (++r->i == r->len) {
    h->rd_h = (h->rd_h + 1) % 16u;
    h->rd_n--;
  }
  return true;
}

void ef_host_hm_take(ef_host_t *h, uint64_t cycle, bool write, uint64_t addr, uint64_t data, uint8_t len,
                     uint8_t tag) {
  if (write) {
    if (ef_mem_set(&h->mem, addr / 8, data)) h->oom--;
    h->hm_writes++;
    return;
  }
  h->hm_reads++;
  if (h->rd_n == h->rd_cap) { /* more than HostReadTags (<= 16) reads out: the NIC broke its contract */
    h->rd_over++;
    return;
  }
  h->rd[(h->rd_h + h->rd_n++) % 16u] = (ef_hread_t){cycle + h->read_lat, addr, len, tag, 0};
}
