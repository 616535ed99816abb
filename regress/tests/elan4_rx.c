/* elan4 rx: the destination side of docs/elan4.md (§6.5 receiver and input
 * processor, §6.6 MMU, §9.1's destination rows) through the ports, with the
 * test's own reference: packets built here from §4.6 (CRC by
 * testbench/ref/crc32_ref.h), page-table entries from §4.5, cycles from
 * §6.5/§6.6/§9.1, never the model's code.
 *
 * The test plays the remote node on in_* (one packet at a time on VC 0, the
 * next HEAD 3 cycles after the previous token and reply are done) and the
 * local memory on lm_* (LmLatency, image preloaded with the PTEs and the
 * route of the source node). With HEAD on in_* in cycle h, TAIL in h+1+nw
 * (nw body words), the IP's check in x = h+2+nw, L = LmLatency (§6.5, §6.6;
 * for an 8-byte WRITE x = h+8, §9.1's destination rows):
 *   1. WRITE ctx C to VA1: TLB miss, data on lm_* in x+6+L (h+14+L), ack x+7+L;
 *   2. WRITE ctx C to VA1: hit, data on lm_* in x+3 (h+11), ack TOKEN x+4 (h+12);
 *   3. the same with a flipped CRC: nack in x+2, nothing written;
 *   4. WRITE to an unmapped VA: nack in x+6+L, interrupt cause 4 in x+6+L;
 *   5. ATOMIC FADD (hit, a carry through 56 bits): the IP reads the dword,
 *      the write of old + a in x+6+L, ack x+7+L, a reply packet with the old
 *      value on VcReply (route of the source node; we ack it);
 *   6. CAS with a != old: no write, ack x+6+L, reply with the old value;
 *   7. CAS with a == old: b written in x+6+L, ack x+7+L, reply;
 *   8. READ of 3 dwords from VA1 (hit): ack x+4, a reply packet with the
 *      three dwords;
 *   9. SETEVENT (inc 1, miss) to an INTERRUPT event with count 0: ack
 *      x+7+L, e0 = count 1 written in x+9+2L, no fire (§6.7);
 *  10. SETEVENT (inc 2, hit) to one with count -1: ack x+4, e0 written and
 *      tr_fire_o in x+6+L, then interrupt cause 2 (e3.ctx, param0);
 *  11. WRITE ctx C2 to VA1 (C2's own PTE, another page): a miss (the TLB
 *      holds VA1 for C only), data to C2's page in x+6+L;
 *  12. WRITE to a page mapped R only: miss, nack in x+6+L (protection);
 *  13. a route word not 0xFFFFFFFF, 14. a misaligned target VA: nack in
 *      x+2 (cnt_bad_pkts), nothing written;
 *  15. WRITE to a page mapped to host memory (miss): taken on hm_* in x+6+L;
 *  16. READ of 2 dwords from it (hit): the RP's host read on hm_* in x+4,
 *      the reply with the two dwords;
 *  17. READ of 1 dword (host page) whose reply we nack: resent whole, not before the
 *      nack + RetryBackoff (or, RetryLimit 0: failed, interrupt cause 6).
 * Checks: elan4.rx (credits, tokens, data and cycles of 1-4, 8, 13-17, counters
 * of §6.10), elan4.irq (the one record of 4, nothing else, from cycle 0),
 * elan4.fadd (5), elan4.mutex (6, 7), elan4.event (9, 10), elan4.mmu (11,
 * 12); each packet's reply (flits, CRC by our reference) under its own id.
 */

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum { NPKT = 17, MAXW = 24 };
#define CTX    0x123u
#define CTX2   0x124u
#define VA1    0x00007F0000001000ull
#define VA2    (VA1 + 0x2000u) /* no PTE in its bucket */
#define VA3    (VA1 + 0x4000u) /* mapped R only */
#define PA1    0x300000u
#define PA3    0x302000u
#define PA2    0x304000u /* C2's page for VA1 */
#define RVA    0x0000000000500008ull
#define D1     0x0123456789ABCDEFull
#define D2     0x00FFFFFFFFFFFFFFull
#define FADDA  0x0000000000000001ull
#define CASB   0xCAFEF00D12345678ull
#define RROUTE 0xFFFFFF51u
#define VA4    (VA1 + 0x6000u) /* mapped to host memory */
#define HPA    0x0001234560000ull
#define HD2    0x5A5A00000000A5A5ull /* host dword after VA4's */
#define RD1    0x8877665544332211ull /* preloaded after VA1's dword, read back by the READ */
#define RD2    0xF0E1D2C3B4A59687ull
#define EVA    0x0000000000610000ull /* the events' page, mapped W, local */
#define PAE    0x306000u
#define EVOFFA 0x40u /* event A: count 0, a set of 1 does not fire */
#define EVOFFB 0x80u /* event B: count -1, a set of 2 fires (INTERRUPT) */
#define ECTX   0x77u
#define COOKIE 0xC00C1E0012345678ull

/* counters of §6.10 this test moves */
enum {
  C_TXPK = 8,
  C_TXTOK = 9,
  C_RXPK = 10,
  C_RXTOK = 11,
  C_ACKRX = 12,
  C_NACKRX = 13,
  C_RESEND = 14,
  C_NACKTX = 16,
  C_CRC = 17,
  C_BAD = 18,
  C_HIT = 19,
  C_MISS = 20,
  C_XLATE = 21,
  C_PROT = 22,
  C_EVSET = 24,
  C_EVFIRE = 25,
  C_PROTO = 27,
  NCNT = 28
};

typedef struct {
  const char *id;   /* check id of this packet's expectations */
  uint32_t w[MAXW]; /* body words */
  unsigned nw;      /* body words */
  bool bad_crc;     /* TAIL carries CRC ^ 1 */
  uint32_t route;   /* HEAD: 0xFFFFFFFF (every tag used) unless a test of the check */
  bool wr;          /* a data write expected */
  uint32_t wr_addr; /* its dword address */
  uint64_t wr_data; /* and data */
  int64_t wr_off;   /* its cycle on lm_*, from h */
  int64_t tok_off;  /* the TOKEN on out_*, from h */
  bool ack;         /* ack (1) or nack (0) */
  bool irq;         /* interrupt cause 4 on irq_* at tok_off */
  uint64_t irq_va;
  bool ev;          /* an event set: e0 written on lm_* at ev_off */
  uint32_t ev_addr; /* e0's dword address */
  uint64_t ev_e0;   /* the new e0 */
  int64_t ev_off;
  bool fire; /* it fires: tr_fire_o at ev_off, then interrupt cause 2 */
  bool hwr;  /* a host write at hm_off (PA + VA[12:0], data wr_data) */
  bool hrd;  /* a host read of rn dwords from PA + VA[12:0] on hm_* at hm_off */
  int64_t hm_off;
  bool rnack; /* its first reply is nacked by us: resent (RetryLimit > 0) or failed, cause 6 */
  bool reply; /* a reply packet: WRITE of rdata[0..rn-1] to RVA */
  unsigned rn;
  uint64_t rdata[8];
  unsigned dcnt[NCNT]; /* counter increments */
} pkt_t;

typedef struct {
  const elan4_view_t *vw;
  unsigned node, src, vcr, nvc;
  e4h_lm_t lm;      /* local memory behind lm_* */
  uint64_t hmem[8]; /* host dwords at HPA + 0x1000 + 8i */
  bool rnacked;     /* the reply's first try nacked */
  int64_t rnack_at; /* in this cycle */
  int64_t hm_rd_at; /* our host-read answer: first dword in this cycle */
  unsigned hm_rd_n;
  pkt_t p[NPKT];
  unsigned cur; /* packet in flight (NPKT: all done) */
  int64_t h;    /* its HEAD cycle, -1 before it starts */
  bool tok_seen, wr_seen, irq_seen, ev_seen;
  unsigned rflit;     /* reply flits seen */
  int64_t rtail;      /* reply TAIL cycle */
  bool rtok_sent;     /* our ack for the reply sent */
  int64_t ready_at;   /* the next packet may start from this cycle */
  unsigned credit[4]; /* credits to return for the reply's flits */
  unsigned cnt[NCNT]; /* expected counters */
  unsigned cnt_done;  /* packets whose counters are due */
  bool done;
  int64_t cycle_done;
} rx_t;

static uint32_t w0(unsigned kind, unsigned n, unsigned a, unsigned ctx) {
  return kind | n << 4 | a << 9 | ctx << 16;
}
static unsigned put64(uint32_t *w, unsigned k, uint64_t v) {
  w[k] = (uint32_t)v;
  w[k + 1] = (uint32_t)(v >> 32);
  return k + 2;
}
static void pte(rx_t *g, unsigned ctx, uint64_t va, unsigned perm, uint64_t pa, unsigned space) {
  const uint64_t mask = (1ull << g->vw->param.PtBits) - 1u;
  const uint64_t b = ((va >> 13) ^ ctx) & mask;
  const uint64_t dw = (g->vw->param.PtBase + 16u * b) / 8u;
  g->lm.mem[dw] = 1u | perm << 1 | space << 3 | (va >> 13) << 13; /* V, W/R, space */
  g->lm.mem[dw + 1] = pa | (uint64_t)ctx << 50;
}
static void mk_write(rx_t *g, pkt_t *p, unsigned ctx, uint64_t va, uint64_t data) {
  unsigned k = 0;
  p->w[k++] = w0(1, 1, 0, ctx);
  p->w[k++] = g->src;
  k = put64(p->w, k, va);
  p->nw = put64(p->w, k, data);
  p->dcnt[C_RXPK] = p->dcnt[C_TXTOK] = 1;
}
static void mk_atomic(rx_t *g, pkt_t *p, unsigned cas, uint64_t a, uint64_t b) {
  unsigned k = 0;
  p->w[k++] = w0(4, 0, cas, CTX);
  p->w[k++] = g->src;
  k = put64(p->w, k, VA1);
  k = put64(p->w, k, a);
  k = put64(p->w, k, b);
  p->nw = put64(p->w, k, RVA);
  p->dcnt[C_RXPK] = p->dcnt[C_TXTOK] = 1;
  p->dcnt[C_HIT] = 1;
  p->dcnt[C_TXPK] = p->dcnt[C_RXTOK] = p->dcnt[C_ACKRX] = 1; /* the reply and our ack */
  p->reply = true;
  p->ack = true;
}

static void mk_sev(rx_t *g, pkt_t *p, uint64_t eva, uint32_t inc) {
  unsigned k = 0;
  p->w[k++] = w0(3, 0, 0, CTX);
  p->w[k++] = g->src;
  k = put64(p->w, k, eva);
  p->w[k++] = inc;
  p->nw = k;
  p->ack = p->ev = true;
  p->dcnt[C_RXPK] = p->dcnt[C_TXTOK] = p->dcnt[C_EVSET] = 1;
}

static void init_view(rx_t *g, const elan4_view_t *vw) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->nvc = (unsigned)vw->param.NumVcs;
  g->vcr = (unsigned)vw->param.VcReply;
  g->node = vw->param.NumNodes > 3 ? 3 : 0;
  g->src = vw->param.NumNodes > 5 ? 5 : 1;
  g->lm.mem[(vw->param.RtBase + 8u * g->src) / 8u] = 1ull << 32 | RROUTE; /* the reply's route */
  pte(g, CTX, VA1, 3, PA1, 1);
  pte(g, CTX, VA3, 2, PA3, 1);
  pte(g, CTX2, VA1, 3, PA2, 1);
  pte(g, CTX, EVA, 3, PAE, 1);
  pte(g, CTX, VA4, 3, HPA, 0);
  g->hmem[1] = HD2;
  g->lm.mem[(PA1 + (VA1 & 0x1FFFu)) / 8u + 1] = RD1;
  g->lm.mem[(PA1 + (VA1 & 0x1FFFu)) / 8u + 2] = RD2;
  /* events (§4.4): type INTERRUPT, e1 the cookie, e3 the context */
  g->lm.mem[(PAE + EVOFFA) / 8u] = 2ull << 41;
  g->lm.mem[(PAE + EVOFFB) / 8u] = 2ull << 41 | 0xFFFFFFFFu;
  g->lm.mem[(PAE + EVOFFB) / 8u + 1] = COOKIE;
  g->lm.mem[(PAE + EVOFFB) / 8u + 3] = ECTX;
  g->lm.mem[(PAE + EVOFFA) / 8u + 3] = ECTX;
  const int64_t L = g->lm.lat;
  pkt_t *p = g->p;
  /* x: the IP's check cycle, from h: the TAIL (h + 1 + body words) arrived the cycle before (§6.5) */
#define X(k) ((int64_t)p[k].nw + 2)
  /* 1: miss */
  p[0].id = "elan4.rx";
  mk_write(g, &p[0], CTX, VA1, D1);
  p[0].wr = p[0].ack = true;
  p[0].wr_addr = (PA1 + (VA1 & 0x1FFFu)) / 8u;
  p[0].wr_data = D1;
  p[0].wr_off = X(0) + 6 + L;
  p[0].tok_off = X(0) + 7 + L;
  p[0].dcnt[C_MISS] = 1;
  /* 2: hit */
  p[1].id = "elan4.rx";
  mk_write(g, &p[1], CTX, VA1, D2);
  p[1].wr = p[1].ack = true;
  p[1].wr_addr = (PA1 + (VA1 & 0x1FFFu)) / 8u;
  p[1].wr_data = D2;
  p[1].wr_off = X(1) + 3;
  p[1].tok_off = X(1) + 4;
  p[1].dcnt[C_HIT] = 1;
  /* 3: CRC error */
  p[2].id = "elan4.rx";
  mk_write(g, &p[2], CTX, VA1, ~D2);
  p[2].bad_crc = true;
  p[2].tok_off = X(2) + 2;
  p[2].dcnt[C_CRC] = p[2].dcnt[C_NACKTX] = 1;
  /* 4: no translation */
  p[3].id = "elan4.rx";
  mk_write(g, &p[3], CTX, VA2, D1);
  p[3].tok_off = X(3) + 6 + L;
  p[3].irq = true;
  p[3].irq_va = VA2;
  p[3].dcnt[C_MISS] = p[3].dcnt[C_XLATE] = p[3].dcnt[C_NACKTX] = 1;
  /* 5: FADD */
  p[4].id = "elan4.fadd";
  mk_atomic(g, &p[4], 0, FADDA, 0);
  p[4].rn = 1;
  p[4].rdata[0] = D2;
  p[4].wr = true;
  p[4].wr_addr = (PA1 + (VA1 & 0x1FFFu)) / 8u;
  p[4].wr_data = D2 + FADDA;
  p[4].wr_off = X(4) + 6 + L;
  p[4].tok_off = X(4) + 7 + L;
  /* 6: CAS, compare fails */
  p[5].id = "elan4.mutex";
  mk_atomic(g, &p[5], 1, D2, CASB);
  p[5].rn = 1;
  p[5].rdata[0] = D2 + FADDA;
  p[5].tok_off = X(5) + 6 + L;
  /* 7: CAS, compare succeeds */
  p[6].id = "elan4.mutex";
  mk_atomic(g, &p[6], 1, D2 + FADDA, CASB);
  p[6].rn = 1;
  p[6].rdata[0] = D2 + FADDA;
  p[6].wr = true;
  p[6].wr_addr = (PA1 + (VA1 & 0x1FFFu)) / 8u;
  p[6].wr_data = CASB;
  p[6].wr_off = X(6) + 6 + L;
  p[6].tok_off = X(6) + 7 + L;
  /* 8: READ of 3 dwords from VA1 (hit): slot reserved in e = x+2, ack x+4; the reply carries the three
     dwords (the CAS's value and the two preloaded after it) */
  p[7].id = "elan4.rx";
  {
    unsigned k = 0;
    p[7].w[k++] = w0(2, 3, 0, CTX);
    p[7].w[k++] = g->src;
    k = put64(p[7].w, k, VA1);
    p[7].nw = put64(p[7].w, k, RVA);
  }
  p[7].ack = p[7].reply = true;
  p[7].tok_off = X(7) + 4;
  p[7].rn = 3;
  p[7].rdata[0] = CASB;
  p[7].rdata[1] = RD1;
  p[7].rdata[2] = RD2;
  p[7].dcnt[C_RXPK] = p[7].dcnt[C_TXTOK] = p[7].dcnt[C_HIT] = 1;
  p[7].dcnt[C_TXPK] = p[7].dcnt[C_RXTOK] = p[7].dcnt[C_ACKRX] = 1;
  /* 9: SETEVENT (inc 1) to event A, TLB miss: ack at e+2 = x+7+L, the EP takes the set in e+1, e0 read,
     e0 = count + 1 written on lm_* in e+4+L (§6.7); 0 -> 1 does not fire */
  p[8].id = "elan4.event";
  mk_sev(g, &p[8], EVA + EVOFFA, 1);
  p[8].tok_off = X(8) + 7 + L;
  p[8].ev_e0 = 2ull << 41 | 1u;
  p[8].ev_addr = (PAE + EVOFFA) / 8u;
  p[8].ev_off = X(8) + 9 + 2 * L;
  p[8].dcnt[C_MISS] = 1;
  /* 10: SETEVENT (inc 2) to event B, hit: ack x+4, e0 written in x+6+L, -1 -> 1 fires: tr_fire_o with
     the event's local address in the same cycle, then interrupt cause 2 (e3.ctx, param0) */
  p[9].id = "elan4.event";
  mk_sev(g, &p[9], EVA + EVOFFB, 2);
  p[9].tok_off = X(9) + 4;
  p[9].ev_e0 = 2ull << 41 | 1u;
  p[9].ev_addr = (PAE + EVOFFB) / 8u;
  p[9].ev_off = X(9) + 6 + L;
  p[9].fire = true;
  p[9].dcnt[C_HIT] = p[9].dcnt[C_EVFIRE] = 1;
  /* 11: another context, same VA: its own translation (before 12: with TlbEntries 2, 12's fill
     would evict VA1's entry of ctx C) */
  p[10].id = "elan4.mmu";
  mk_write(g, &p[10], CTX2, VA1, D1);
  p[10].wr = p[10].ack = true;
  p[10].wr_addr = (PA2 + (VA1 & 0x1FFFu)) / 8u;
  p[10].wr_data = D1;
  p[10].wr_off = X(10) + 6 + L;
  p[10].tok_off = X(10) + 7 + L;
  p[10].dcnt[C_MISS] = 1;
  /* 12: protection fault (R only) */
  p[11].id = "elan4.mmu";
  mk_write(g, &p[11], CTX, VA3, D1);
  p[11].tok_off = X(11) + 6 + L;
  p[11].dcnt[C_MISS] = p[11].dcnt[C_PROT] = p[11].dcnt[C_NACKTX] = 1;
  /* 13: a HEAD whose route word is not 0xFFFFFFFF (a tag unused): nack in x+2, cnt_bad_pkts, nothing written */
  p[12].id = "elan4.rx";
  mk_write(g, &p[12], CTX, VA1, D2);
  p[12].route = 0xFFFFFF31u;
  p[12].tok_off = X(12) + 2;
  p[12].dcnt[C_BAD] = p[12].dcnt[C_NACKTX] = 1;
  /* 14: a WRITE whose target VA has bits [2:0] != 0: nack in x+2, cnt_bad_pkts */
  p[13].id = "elan4.rx";
  mk_write(g, &p[13], CTX, VA1 + 4u, D2);
  p[13].tok_off = X(13) + 2;
  p[13].dcnt[C_BAD] = p[13].dcnt[C_NACKTX] = 1;
  /* 15: WRITE to VA4, mapped to host memory (miss): taken on hm_* in x+6+L (hm_ready_i 1), ack x+7+L */
  p[14].id = "elan4.rx";
  mk_write(g, &p[14], CTX, VA4, D1);
  p[14].hwr = p[14].ack = true;
  p[14].wr_data = D1;
  p[14].hm_off = X(14) + 6 + L;
  p[14].tok_off = X(14) + 7 + L;
  p[14].dcnt[C_MISS] = 1;
  /* 16: READ of 2 dwords from VA4 (hit): slot in e = x+2, the RP's host read (tag 0, len 2) on hm_* in
     x+4 (§5.1 rule 5), answered 3 cycles later; ack x+4; the reply carries the written dword and HD2 */
  p[15].id = "elan4.rx";
  {
    unsigned k = 0;
    p[15].w[k++] = w0(2, 2, 0, CTX);
    p[15].w[k++] = g->src;
    k = put64(p[15].w, k, VA4);
    p[15].nw = put64(p[15].w, k, RVA);
  }
  p[15].ack = p[15].reply = p[15].hrd = true;
  p[15].tok_off = X(15) + 4;
  p[15].hm_off = X(15) + 4;
  p[15].rn = 2;
  p[15].rdata[0] = D1;
  p[15].rdata[1] = HD2;
  p[15].dcnt[C_RXPK] = p[15].dcnt[C_TXTOK] = p[15].dcnt[C_HIT] = 1;
  p[15].dcnt[C_TXPK] = p[15].dcnt[C_RXTOK] = p[15].dcnt[C_ACKRX] = 1;
  /* 17: READ of 1 dword from VA4 (hit: installed by 15, still there with TlbEntries 2; host read on hm_* in
     x+4), its reply nacked once: resent whole from the slot after
     RetryBackoff (§6.4, §6.5), or, with RetryLimit 0, failed: slot freed, interrupt cause 6 */
  p[16].id = "elan4.rx";
  {
    unsigned k = 0;
    p[16].w[k++] = w0(2, 1, 0, CTX);
    p[16].w[k++] = g->src;
    k = put64(p[16].w, k, VA4);
    p[16].nw = put64(p[16].w, k, RVA);
  }
  p[16].ack = p[16].reply = p[16].rnack = p[16].hrd = true;
  p[16].hm_off = X(16) + 4;
  p[16].tok_off = X(16) + 4;
  p[16].rn = 1;
  p[16].rdata[0] = D1;
  p[16].dcnt[C_RXPK] = p[16].dcnt[C_TXTOK] = p[16].dcnt[C_HIT] = 1;
  p[16].dcnt[C_NACKRX] = 1;
  if (vw->param.RetryLimit > 0) {
    p[16].dcnt[C_TXPK] = p[16].dcnt[C_RXTOK] = 2;
    p[16].dcnt[C_ACKRX] = p[16].dcnt[C_RESEND] = 1;
  } else
    p[16].dcnt[C_TXPK] = p[16].dcnt[C_RXTOK] = 1;
  for (unsigned k = 0; k < NPKT; k++)
    if (!p[k].route) p[k].route = 0xFFFFFFFFu; /* every route tag used */
#undef X
  g->h = -1;
  g->rtail = -1;
  g->hm_rd_at = -1;
  g->ready_at = 4;
}
E4H_INIT(init_default, init_view, elan4_default_view)
E4H_INIT(init_max, init_view, elan4_max_view)
E4H_INIT(init_onevc, init_view, elan4_onevc_view)
E4H_INIT(init_min, init_view, elan4_min_view)

/* the flit f of packet p: 0 HEAD, 1..nw BODY, nw+1 TAIL */
static void flit(const pkt_t *p, unsigned f, unsigned *kind, uint32_t *data) {
  if (f == 0) {
    *kind = 0;
    *data = p->route;
  } else if (f <= p->nw) {
    *kind = 1;
    *data = p->w[f - 1];
  } else {
    *kind = 2;
    *data = crc32_ref_words(p->w, p->nw) ^ (p->bad_crc ? 1u : 0u);
  }
}

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  rx_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  IN(node_i, g->node);
  IN(hm_ready_i, 1);
  if (g->hm_rd_at >= 0 && (int64_t)cycle >= g->hm_rd_at &&
      (int64_t)cycle < g->hm_rd_at + (int64_t)g->hm_rd_n) {
    IN(hm_rvalid_i, 1);
    IN(hm_rdata_i, g->hmem[cycle - (uint64_t)g->hm_rd_at]);
    IN(hm_rtag_i, 0);
  }
  uint64_t rd;
  if (e4h_lm_answer(&g->lm, cycle, &rd)) {
    IN(lm_rvalid_i, 1);
    IN(lm_rdata_i, rd);
  }
  IN(in_credit_i, e4h_credits(g->credit, g->nvc));
  if (g->cur < NPKT && g->h < 0 && t >= g->ready_at) g->h = t;
  if (g->cur < NPKT && g->h >= 0 && t - g->h <= (int64_t)g->p[g->cur].nw + 1) {
    unsigned kind;
    uint32_t data;
    flit(&g->p[g->cur], (unsigned)(t - g->h), &kind, &data);
    IN(in_valid_i, 1);
    IN(in_kind_i, kind);
    IN(in_vc_i, 0);
    IN(in_data_i, data);
  } else if (g->rtail >= 0 && !g->rtok_sent && t >= g->rtail + 3) {
    IN(in_valid_i, 1);
    IN(in_kind_i, 3);
    IN(in_vc_i, g->vcr);
    if (g->p[g->cur].rnack && !g->rnacked) { /* nack the first try: a resend (or a failure) follows */
      IN(in_data_i, 0);
      g->rnacked = true;
      g->rnack_at = t;
      g->rtail = -1;
      g->rflit = 0;
    } else {
      IN(in_data_i, 1); /* ack the reply */
      g->rtok_sent = true;
      g->ready_at = t + 3;
    }
  }
  return !(g->done && t > g->cycle_done + 4);
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  rx_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  pkt_t *p = g->cur < NPKT ? &g->p[g->cur] : NULL;
  const char *id = p ? p->id : "elan4.rx";
  const int64_t d = p && g->h >= 0 ? t - g->h : -1;
  /* interrupts: packet 4's record (cause 4) at its nack's cycle; the firing event's (cause 2) after its e0
     write; nothing else */
  const bool irq_now = OUT(irq_valid_o) || OUT(irq_cause_o) || OUT(irq_info_o) || OUT(irq_data_o);
  if (irq_now && p && p->fire && g->ev_seen && !g->irq_seen) {
    if (OUT(irq_valid_o) != 1 || OUT(irq_cause_o) != 2 || OUT(irq_info_o) != ECTX ||
        OUT(irq_data_o) != COOKIE) {
      cosim_fail(msg, "elan4.event",
                 "record valid %llu cause %llu info 0x%llx data 0x%llx, want 1 2 0x%x 0x%llx (cycle %llu)",
                 (unsigned long long)OUT(irq_valid_o), (unsigned long long)OUT(irq_cause_o),
                 (unsigned long long)OUT(irq_info_o), (unsigned long long)OUT(irq_data_o), ECTX,
                 (unsigned long long)COOKIE, (unsigned long long)cycle);
      return false;
    }
    g->irq_seen = true;
  } else if (irq_now && p && p->rnack && g->rnacked && g->vw->param.RetryLimit == 0 && !g->irq_seen) {
    /* RetryLimit 0: the nacked reply failed (§6.5): cause 6, info ctx, data the reply VA */
    if (OUT(irq_valid_o) != 1 || OUT(irq_cause_o) != 6 || OUT(irq_info_o) != CTX || OUT(irq_data_o) != RVA)
      return e4h_fail_at(msg, p->id, "not the failed reply's interrupt record (cause 6, ctx, reply VA)",
                         cycle);
    g->irq_seen = g->rtok_sent = true;
    g->ready_at = t + 3;
  } else if (irq_now) {
    if (!(p && p->irq && d == p->tok_off && !g->irq_seen))
      return e4h_fail_at(msg, p && p->ev ? p->id : "elan4.irq", "an interrupt record, none expected", cycle);
    if (OUT(irq_valid_o) != 1 || OUT(irq_cause_o) != 4 || OUT(irq_info_o) != CTX ||
        OUT(irq_data_o) != p->irq_va) {
      cosim_fail(msg, "elan4.irq",
                 "record valid %llu cause %llu info 0x%llx data 0x%llx, want 1 4 0x%x 0x%llx",
                 (unsigned long long)OUT(irq_valid_o), (unsigned long long)OUT(irq_cause_o),
                 (unsigned long long)OUT(irq_info_o), (unsigned long long)OUT(irq_data_o), CTX,
                 (unsigned long long)p->irq_va);
      return false;
    }
    g->irq_seen = true;
  } else if (p && p->irq && d == p->tok_off)
    return e4h_fail_at(msg, "elan4.irq", "no interrupt cause 4 at the nack's cycle (x+6+L)", cycle);
  /* event fired: tr_fire_o with the event's local byte address in the cycle its e0 write is on lm_* */
  if (OUT(tr_fire_o) || OUT(tr_fire_addr_o)) {
    if (!(p && p->fire && d == p->ev_off && OUT(tr_fire_o) == 1 && OUT(tr_fire_addr_o) == 8ull * p->ev_addr))
      return e4h_fail_at(msg, p && p->ev ? p->id : "elan4.rx",
                         "tr_fire_o/tr_fire_addr_o not the event's fire", cycle);
  } else if (p && p->fire && d == p->ev_off)
    return e4h_fail_at(msg, p->id, "no tr_fire_o at the e0 write's cycle", cycle);
  /* host master: packet 15's write, packet 16's read, each at its cycle, nothing else */
  if (OUT(hm_valid_o) || OUT(hm_write_o) || OUT(hm_addr_o) || OUT(hm_data_o) || OUT(hm_be_o) ||
      OUT(hm_len_o) || OUT(hm_tag_o)) {
    const bool w = p && p->hwr, r = p && p->hrd;
    const uint64_t wa = HPA + (VA4 & 0x1FFFu);
    if (!(w || r) || d != p->hm_off || OUT(hm_valid_o) != 1 || OUT(hm_write_o) != (w ? 1u : 0u) ||
        OUT(hm_addr_o) != wa || OUT(hm_data_o) != (w ? p->wr_data : 0) || OUT(hm_be_o) != (w ? 0xFFu : 0u) ||
        OUT(hm_len_o) != (w ? 0u : p->rn) || OUT(hm_tag_o) != 0) {
      cosim_fail(msg, id,
                 "hm_* valid %llu write %llu addr 0x%llx data 0x%llx be 0x%llx len %llu tag %llu at h+%lld",
                 (unsigned long long)OUT(hm_valid_o), (unsigned long long)OUT(hm_write_o),
                 (unsigned long long)OUT(hm_addr_o), (unsigned long long)OUT(hm_data_o),
                 (unsigned long long)OUT(hm_be_o), (unsigned long long)OUT(hm_len_o),
                 (unsigned long long)OUT(hm_tag_o), (long long)d);
      return false;
    }
    if (w) g->hmem[0] = OUT(hm_data_o);
    if (r) {
      g->hm_rd_at = t + 3;
      g->hm_rd_n = p->rn;
    }
    g->wr_seen = true;
  } else if (p && (p->hwr || p->hrd) && d == p->hm_off)
    return e4h_fail_at(msg, id, "no host-master request at its cycle", cycle);
  /* credits: one per flit of ours, the cycle after it */
  {
    const bool f_prev = g->cur < NPKT && g->h >= 0 && d >= 1 && d <= (int64_t)p->nw + 2;
    const uint64_t want = f_prev ? 1u : 0u; /* our packets are on VC 0 */
    if (OUT(out_credit_o) != want) {
      cosim_fail(msg, "elan4.rx", "out_credit_o 0x%llx, want 0x%llx (cycle %llu)",
                 (unsigned long long)OUT(out_credit_o), (unsigned long long)want, (unsigned long long)cycle);
      return false;
    }
  }
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o);
    if (OUT(lm_write_o) && p && p->ev && !g->ev_seen && a == p->ev_addr) {
      if (OUT(lm_wdata_o) != p->ev_e0 || OUT(lm_be_o) != 0xFF || d != p->ev_off) {
        cosim_fail(msg, id, "e0 write data 0x%016llx be 0x%llx at h+%lld; want 0x%016llx at h+%lld",
                   (unsigned long long)OUT(lm_wdata_o), (unsigned long long)OUT(lm_be_o), (long long)d,
                   (unsigned long long)p->ev_e0, (long long)p->ev_off);
        return false;
      }
      g->ev_seen = true;
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else if (OUT(lm_write_o)) {
      if (!p || !p->wr || g->wr_seen || a != p->wr_addr || OUT(lm_wdata_o) != p->wr_data ||
          OUT(lm_be_o) != 0xFF || d != p->wr_off) {
        cosim_fail(
            msg, id,
            "lm write dw 0x%x data 0x%016llx be 0x%llx at h+%lld; want %s dw 0x%x data 0x%016llx at h+%lld",
            a, (unsigned long long)OUT(lm_wdata_o), (unsigned long long)OUT(lm_be_o), (long long)d,
            p && p->wr && !g->wr_seen ? "one write" : "no write", p ? p->wr_addr : 0,
            (unsigned long long)(p ? p->wr_data : 0), (long long)(p ? p->wr_off : 0));
        return false;
      }
      g->wr_seen = true;
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else {
      e4h_lm_read(&g->lm, cycle, a);
    }
  }
  if (p && p->wr && !g->wr_seen && d >= p->wr_off)
    return e4h_fail_at(msg, id, "no data write on lm_* at its cycle", cycle);
  if (p && p->ev && !g->ev_seen && d >= p->ev_off)
    return e4h_fail_at(msg, id, "no e0 write on lm_* at its cycle", cycle);
  if (p && p->fire && g->irq_seen == false && d > p->ev_off + 64)
    return e4h_fail_at(msg, id, "no interrupt cause 2 within 64 cycles of the fire", cycle);
  /* link output: tokens and the reply packet */
  if (OUT(out_valid_o)) {
    const uint64_t ok = OUT(out_kind_o), od = OUT(out_data_o), ov = OUT(out_vc_o);
    if (ok == 3) {
      if (!p || g->tok_seen || d != p->tok_off || ov != 0 || od != (p->ack ? 1u : 0u)) {
        cosim_fail(msg, id, "TOKEN vc %llu data %llu at h+%lld; want vc 0 data %u at h+%lld",
                   (unsigned long long)ov, (unsigned long long)od, (long long)d, p && p->ack ? 1u : 0u,
                   (long long)(p ? p->tok_off : -1));
        return false;
      }
      g->tok_seen = true;
    } else {
      const unsigned f = g->rflit++;
      if (p && g->rnacked && f == 0) { /* the resend: not before the nack + RetryBackoff (decided), try 1 */
        if (g->vw->param.RetryLimit == 0)
          return e4h_fail_at(msg, id, "a resent reply with RetryLimit 0 (it must fail)", cycle);
        if (t < g->rnack_at + (int64_t)g->vw->param.RetryBackoff + 1)
          return e4h_fail_at(msg, id, "the reply resent before nack + RetryBackoff", cycle);
      }
      if (!p || !p->reply || f > 5 + 2 * p->rn)
        return e4h_fail_at(msg, id, "a packet flit on out_*, no reply expected", cycle);
      uint32_t body[4 + 16];
      body[0] = w0(1, p->rn, 0, CTX);
      body[1] = g->node;
      put64(body, 2, RVA);
      for (unsigned k = 0; k < p->rn; k++) put64(body, 4 + 2 * k, p->rdata[k]);
      const unsigned nb = 4 + 2 * p->rn;
      const unsigned kind = f == 0 ? 0 : f <= nb ? 1 : 2;
      const uint32_t want = f == 0 ? RROUTE : f <= nb ? body[f - 1] : crc32_ref_words(body, nb);
      if (ok != kind || od != want || ov != g->vcr) {
        cosim_fail(msg, id, "reply flit %u: kind %llu data 0x%08llx vc %llu, want kind %u data 0x%08x vc %u",
                   f, (unsigned long long)ok, (unsigned long long)od, (unsigned long long)ov, kind, want,
                   g->vcr);
        return false;
      }
      g->credit[ov & 3u]++;
      if (f == nb + 1) g->rtail = t;
    }
  }
  if (p && !g->tok_seen && d >= p->tok_off)
    return e4h_fail_at(msg, id, "no TOKEN on out_* at its cycle", cycle);
  /* counters (§6.10), in the cycle the next packet's HEAD goes in */
  if (g->h == t && g->cnt_done < g->cur) {
    for (; g->cnt_done < g->cur; g->cnt_done++)
      for (unsigned k = 0; k < NCNT; k++) g->cnt[k] += g->p[g->cnt_done].dcnt[k];
    for (unsigned k = 0; k < NCNT; k++) {
      const uint64_t v = cosim_lane_get(&g->vw->out.cnt_o, out, k);
      if (v != g->cnt[k]) {
        cosim_fail(msg, g->p[g->cur - 1].id, "cnt_o lane %u = %llu, want %u after packet %u (cycle %llu)", k,
                   (unsigned long long)v, g->cnt[k], g->cur, (unsigned long long)cycle);
        return false;
      }
    }
  }
  /* the packet is over when its token (and reply, acked) are done */
  if (p && g->tok_seen && (!p->reply || (g->rtok_sent && t >= g->ready_at - 1)) && (!p->ev || g->ev_seen) &&
      (!p->fire || g->irq_seen)) {
    if (!p->reply) g->ready_at = t + 3;
    g->cur++;
    g->h = -1;
    g->tok_seen = g->wr_seen = g->irq_seen = g->ev_seen = g->rtok_sent = false;
    g->rflit = 0;
    g->rtail = -1;
    g->hm_rd_at = -1;
    g->rnacked = false;
    if (g->cur == NPKT) {
      g->done = true;
      g->cycle_done = t + 3; /* the counters of the last packet, two cycles after its events */
    }
  }
  if (g->done && t == g->cycle_done) {
    for (; g->cnt_done < NPKT; g->cnt_done++)
      for (unsigned k = 0; k < NCNT; k++) g->cnt[k] += g->p[g->cnt_done].dcnt[k];
    for (unsigned k = 0; k < NCNT; k++) {
      const uint64_t v = cosim_lane_get(&g->vw->out.cnt_o, out, k);
      if (v != g->cnt[k]) {
        cosim_fail(msg, g->p[NPKT - 1].id, "cnt_o lane %u = %llu, want %u at the end (cycle %llu)", k,
                   (unsigned long long)v, g->cnt[k], (unsigned long long)cycle);
        return false;
      }
    }
  }
  (void)in;
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  rx_t *g = ctx;
  (void)cycles;
  if (!g->done || g->cnt_done != NPKT) {
    cosim_fail(msg, "elan4.rx", "incomplete: %u of %u packets answered, counters checked after %u", g->cur,
               NPKT, g->cnt_done);
    return false;
  }
  return true;
}

COSIM_TEST(elan4_rx, .target = &elan4_default_target,
           .purpose =
               "docs/elan4.md §6.5/§6.6/§9.1 destination side: remote WRITE miss/hit, CRC and MMU nacks, "
               "FADD, CAS, counters",
           .ctx_size = sizeof(rx_t), .init = init_default, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_rx_max, .target = &elan4_max_target,
           .purpose = "elan4_rx on the max target (LmLatency 8, PtBits 16, VcReply 1, 4 VCs)",
           .ctx_size = sizeof(rx_t), .init = init_max, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_rx_onevc, .target = &elan4_onevc_target,
           .purpose = "elan4_rx on the onevc target (replies on VC 0)", .ctx_size = sizeof(rx_t),
           .init = init_onevc, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_rx_min, .target = &elan4_min_target,
           .purpose = "elan4_rx on the min target (LmLatency 1, PtBits 4, TlbEntries 2, 1 reply slot)",
           .ctx_size = sizeof(rx_t), .init = init_min, .drive = drive, .check = check, .finish = finish)
