/* elan4 DMA: directed RUN_DMAs (docs/elan4.md §4.3, §6.8) that the random
 * tests never issue, in lockstep, with the test's own reference: packets
 * built here from §6.8's split and §4.6 (CRC by testbench/ref/crc32_ref.h),
 * page tables from §4.5, cycles from §5.1, §6.6, §6.7, §6.9 — never the
 * model's code. The test plays the host (PIO writes, host memory behind
 * hm_*), the local memory and the neighbour (credits, tokens 1-24 cycles
 * after each TAIL by the seed, in order per VC). Node 1, queue 0 (context
 * 5); phases run one after the other, each from 8 cycles after the previous
 * one's outcome:
 *
 *   D1  12 dwords from a local source 3 dwords before its page's end: the
 *       source crosses to the next VA page, mapped to a PA elsewhere (the PA
 *       after the first page holds poison). Packets 3, 8, 1 (the last with
 *       the remote event). R = 1: the local event (an INTERRUPT event, count
 *       -1) fires: tr_fire_o T+7+L after the token T acking the last packet
 *       (done in T+1, the set presented T+2 and pushed, taken T+3 = x, its
 *       lookup a hit in x, e0 read granted x+1, data x+2+L, write granted
 *       x+3+L, §6.7/§6.8/§3.5), its e0 write on lm_* in that cycle, and a
 *       cause-2 record L+2 cycles after the e3 read on lm_* (§6.7: raised in
 *       e3's data cycle; §6.9).
 *   D2  10 dwords from a host page: one host read of 10 dwords on hm_* (held
 *       while hm_ready_i is low), answered 1-60 cycles (by the seed) after
 *       the take; packets 8, 2 with the host's data. R = 0: no event.
 *   D3  a source VA with no PTE: fails with code 2 (cause 5, info queue 0,
 *       data 2) L+2 cycles after the MMU fill's p1 read on lm_* (§6.6: the
 *       result in c+3+L, p1 on the port in c+3); no packet, no event.
 *   D4  a host source and a destination whose route entry is invalid: code
 *       1, L+2 cycles after the route read on lm_*; its host read is out
 *       (granted the cycle after its lookup's hit, before the route's data)
 *       and answered 150 cycles late: §6.8 keeps its tag until the data has
 *       come, and drops the data.
 *   D5  6 dwords from 2 dwords before a host page's end into the next VA
 *       page, host memory elsewhere: two host reads (2 and 4 dwords), each
 *       with the lowest tag free at its grant (§5.1 rule 5): D4's tag is
 *       still held (elan4_min, one tag: D5 waits for D4's last dword).
 *   D6  20 dwords (packets 8, 8, 4) whose first packet is nacked every
 *       time: RetryLimit identical resends, then code 3 two cycles after the
 *       last nack (§6.8, §6.9); no DMA HEAD after the failure cycle + 1; the
 *       abandoned packets' tokens have no effect (cnt_proto_err 0). A STEN
 *       WRITE behind the RUN_DMA in the same queue is delivered exactly and
 *       the queue never enters ERROR.
 *   D7  9 dwords to a destination 2 dwords before its page's end (packets
 *       2, 7) with R = 1 on a second event: the engine works after the three
 *       failures, its event fires at T+7+L.
 *   D8  4 dwords, one packet, whose first try the neighbour never answers
 *       (no token at all: a late one would be taken as the next packet's,
 *       §6.4): it times out AckTimeout cycles after its TAIL was decided
 *       (one cycle before the TAIL on out_*; §6.4 "the cycle its TAIL was
 *       sent"), cnt_timeouts +1 two cycles later; elan4_min (RetryLimit 0):
 *       code 3 two cycles after the timeout; elan4_default: one resend, acked.
 *   D9  5 dwords, R = 1 on an event in a page never looked up, with D10 (11
 *       dwords) waiting in the DMA queue: the event's lookup misses (§6.6:
 *       its result 3 + L cycles after the grant), so tr_fire_o is at
 *       T+10+2L; D10 starts in x = T+3 (§6.8: idle from the cycle after the
 *       push) and its lookup waits behind the event processor's fill.
 *   D11 16 dwords, R = 1, while the neighbour's SETEVENT S0 fires a 64-dword
 *       COPY event and S1..Sk (k = EpFifo - 1, one at a time on VC 0, each
 *       after the NIC's ack) fill the event FIFO to EpFifo - 1: D11's last
 *       token comes 2 cycles after Sk's ack, so D11 is done with the FIFO
 *       full and its push waits (§6.7: DMA pushes need count < EpFifo - 1).
 *       The EP takes S1 in w, the cycle the COPY's last write is on lm_*
 *       (idle from the cycle after its grant); the DMA pushes in w+1, behind
 *       S2..Sk; each set takes 3 + L cycles (e0 read granted at its take,
 *       data +1+L, write +2+L, the next taken +3+L): tr_fire_o in
 *       w + k(3+L) + 4 + L. A local SETEVENT (of S1..Sk's event), written
 *       once Sk is acked, waits: the FIFO is full until w, in w+1 the DMA
 *       pushes (the CP may not push in that cycle, §6.3) and fills it again,
 *       so it is accepted at the next take, w+4+L: tr_cmd_o in w+5+L.
 *       elan4.scenario: D11 done and Sk acked before w (negative:
 *       elan4_dma_late, D11's token only after the COPY).
 * Checks: elan4.dma (every packet's split, words, CRC, route, VC, order and
 * resends; each local source dword read once from its page's PA, none past
 * a page; each host read's address, length, order and tag; no other local
 * write or host request; the counters), elan4.dma_event (tr_fire_o and the
 * e0 write at T+7+L, the cause-2 records, no set of the failing DMAs'
 * event, the final e0s), elan4.dma_fail (each cause-5 record, its code and
 * cycle; no record or DMA packet the scenario does not predict; the STEN
 * WRITE). */
#include <stdio.h>
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum {
  NODE = 1,
  DEST = 0,
  BADDEST = 1,
  NDMA = 11,
  MAXPK = 8,
  MAXSCR = 128,
  NLAT = 64,
  MAXHR = 4,
  LATE = 150
};
/* the phases (index of d[], D1..D11 in the messages) */
enum { P_EVENT, P_HOST, P_XLATE, P_ROUTE, P_HOST2, P_RETRY, P_AFTER, P_TIMEOUT, P_MISS, P_QUEUED, P_FIFO };
#define CTX     0x5u
#define ROUTE   0xFFFFFF31u
#define QBASE   0x100000u
#define VA_A    0x20000ull /* page 0x10: local at PA_A */
#define VA_B    0x22000ull /* page 0x11: local at PA_B (not PA_A + 8 KB) */
#define VA_H    0x24000ull /* page 0x12: host at HPA */
#define VA_U    0x28000ull /* page 0x14: no PTE */
#define VA_H2   0x26000ull /* page 0x13, after VA_H: host at HPA2 (not HPA + 8 KB) */
#define VA_E    0x2A000ull /* page 0x15: local at PA_E, never looked up before D9's event */
#define PA_E    0x300000u
#define PA_A    0x200000u
#define PA_B    0x280000u
#define PA_POI  (PA_A + 0x2000u) /* poison: what a read past page A's end would get */
#define HPA     0x0001234560000ull
#define HPA2    0x00000ABCDE000ull
#define LEV     (VA_B + 0x1000u) /* D1's local event */
#define LEV2    (VA_A + 0x1000u) /* D7's (page A: in the TLB on elan4_min's two entries by then) */
#define LEVX    (VA_B + 0x1040u) /* D3, D4, D6's: must never be set */
#define COOKIE1 0xC0C0000000000001ull
#define COOKIE2 0xC0C0000000000006ull
#define COOKIEX 0xC0C00000000000FFull
#define COOKIE3 0xC0C0000000000009ull
#define LEV3    (VA_E + 0x100u) /* D9's: its lookup misses */
#define LEV4    (VA_E + 0x280u) /* D11's */
#define COOKIE4 0xC0C000000000000Bull
#define EVC_PA  (PA_E + 0x200u) /* D11: the COPY event the neighbour's S0 fires (64 dwords) */
#define EVY_PA  (PA_E + 0x240u) /* D11: the INTERRUPT event of S1..Sk, never fired */
#define CSRC_PA (PA_E + 0x800u)
#define CDST_PA (PA_E + 0x1000u)
#define NCOPY   64u
#define WR_VA   0x00007F0000108000ull /* D6's STEN WRITE */
#define WR_DATA 0x0123456789ABCDEFull

typedef struct {
  uint64_t src, dst, rev, lev;
  unsigned n, dest;
  bool e, r;
  unsigned fail; /* the expected failure code, 0 none */
  bool nack0;    /* the neighbour nacks every token of the packet at o = 0 */
  bool lose;     /* the neighbour never answers the first try of its one packet: an ack timeout */
  bool miss;     /* its local event's lookup misses (§6.6: the result 3 + L cycles later) */
  bool chain;    /* the next DMA waits in the DMA queue and starts when this one's event is pushed */
  uint64_t ck;   /* its local event's cookie */
  bool held;     /* D11: its last token waits until the event FIFO is full (the neighbour's SETEVENTs) */
  unsigned np;   /* packets (§6.8's split, computed here) */
  unsigned o[MAXPK * 4], m[MAXPK * 4];
} dma_t;

typedef struct {
  int64_t due; /* -1: none armed */
  unsigned cause, info;
  uint64_t data;
  const char *id;
} irqx_t;

typedef struct {
  unsigned vc, dma, pk; /* dma NDMA: the STEN WRITE */
  int64_t due;
} tok_t;

typedef struct {
  const elan4_view_t *vw;
  e4h_lm_t lm;
  int64_t L;
  /* the seed's neighbour and host: token latencies (1..24 after the TAIL, in turn), the host read's
     latency (1..60 after the take), hm_ready_i by cycle mod 64 (about a quarter low) */
  unsigned toklat[NLAT], ntok, hlat;
  uint64_t hm_mask;
  unsigned vc_sten, vc_dma;
  dma_t d[NDMA];
  /* PIO script: dwords with their phase */
  struct {
    uint32_t addr;
    uint64_t data;
    unsigned phase;
    bool gate; /* D11's local SETEVENT: written once Sk is acked (the event FIFO full) */
  } scr[MAXSCR];
  unsigned nscr, step, qpos;
  unsigned phase;     /* running phase (index of d[]) */
  int64_t phase_from; /* its PIO writes from this cycle */
  int64_t phase_done; /* its outcome seen (-1 not yet) */
  /* link */
  uint32_t w[32];
  unsigned nw, cur_vc;
  uint32_t head_route;
  bool in_pkt;
  unsigned ncredit[4];
  tok_t tq[64];
  unsigned tq_h, tq_t;
  /* per-packet state of the running DMA */
  bool sent[MAXPK * 4], acked[MAXPK * 4], nacked[MAXPK * 4]; /* nacked: a resend owed */
  unsigned next_new, nacks0, nresends;
  int64_t fail_t; /* the failure's cycle (code 3: the last nack) */
  int64_t to_at;  /* D8: the lost token's packet times out in this cycle (§6.4), -1 none */
  bool wr_sent, wr_acked;
  /* source reads of the running DMA */
  bool rd[64];
  /* host: the running DMA's expected reads (one per chunk, §6.8), the tags' last data cycles, the
     dwords to serve (one per cycle, in take order) */
  struct {
    uint64_t addr;
    unsigned len;
  } hx[MAXHR];
  unsigned nhx, hx_next;
  int64_t tag_end[16];             /* INT64_MAX: granted, not taken yet */
  bool hm_shown;                   /* a request on hm_* not taken yet */
  unsigned hm_tag_cur, hm_len_cur; /* the request shown: tag, length, address, its DMA fails */
  uint64_t hm_addr_cur;
  bool hm_late;
  struct {
    int64_t at;
    unsigned tag;
    uint64_t data;
  } beat[64];
  unsigned nbeat_h, nbeat_t;
  int64_t beat_free; /* the first cycle with no dword scheduled */
  unsigned ntakes;
  struct {
    unsigned phase, tag;
    int64_t shown, taken, last;
  } tk[8]; /* for the report */
  /* events and interrupts */
  int64_t fire_due;  /* the local event's tr_fire_o cycle, -1 none */
  bool fired;        /* it fired: its record is armed at the e3 read */
  uint64_t fire_ck;  /* its cookie */
  unsigned ev_phase; /* the phase whose event it is */
  /* D11: the neighbour's SETEVENTs S0 (fires the COPY) and S1..Sk (k = EpFifo - 1), one at a time on VC 0 */
  uint32_t sw[6];
  unsigned s_next, s_flit, s_tok; /* next to send; its flit (0: none in flight); tokens back from the NIC */
  bool s_busy;                    /* one sent, its token not back */
  unsigned ncw, yset;             /* COPY writes and the second event's sets seen */
  bool cset;
  int64_t held_tok, copy_w; /* D11's last token (its cycle), the COPY's last write on lm_* */
  unsigned held_idx;        /* that token's place in the token queue */
  bool late;                /* the scenario gate's negative: D11's last token only after the COPY */
  unsigned sev_in;          /* D11's SETEVENT: its dwords accepted (2), its acceptance seen (3) */
  int64_t cmd_due;          /* its tr_cmd_o cycle */
  uint32_t fire_pa;
  irqx_t ix;
  unsigned fires;
  bool done;
  int64_t done_at;
} dm_t;

/* independent arithmetic for the scoreboard */
static uint64_t src_val(uint32_t pa) {
  return 0xA5A5000000000000ull ^ ((uint64_t)pa * 0x9E3779B97F4A7C15ull);
}
static uint64_t host_val(uint64_t ha) { return 0x4855000000000000ull ^ (ha * 0xC2B2AE3D27D4EB4Full); }
static unsigned left(uint64_t va) { return (unsigned)((0x2000u - (va & 0x1FFFu)) / 8u); }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
/* the test's page table: 0 local, 1 host, 2 none; *pa the translated address */
static unsigned xlate(uint64_t va, uint64_t *pa) {
  const uint64_t pg = va & ~0x1FFFull, off = va & 0x1FFFu;
  if (pg == VA_A)
    *pa = PA_A + off;
  else if (pg == VA_E)
    *pa = PA_E + off;
  else if (pg == VA_B)
    *pa = PA_B + off;
  else if (pg == VA_H || pg == VA_H2) {
    *pa = (pg == VA_H ? HPA : HPA2) + off;
    return 1;
  } else
    return 2;
  return 0;
}
static uint64_t dma_dw(const dma_t *d, unsigned i) {
  uint64_t pa;
  const unsigned sp = xlate(d->src + 8ull * i, &pa);
  return sp == 0 ? src_val((uint32_t)pa) : host_val(pa);
}
static void split(dma_t *d) { /* §6.8: m_j = min(8, N - o_j, left in dst's page, left in src's page) */
  d->np = 0;
  for (unsigned o = 0; o < d->n;) {
    const unsigned m = umin(umin(8, d->n - o), umin(left(d->dst + 8ull * o), left(d->src + 8ull * o)));
    d->o[d->np] = o;
    d->m[d->np++] = m;
    o += m;
  }
}
static unsigned dma_words(const dma_t *d, unsigned k, uint32_t *w) {
  const unsigned o = d->o[k], m = d->m[k];
  const bool e = d->e && k + 1 == d->np;
  const uint64_t va = d->dst + 8ull * o;
  unsigned nw = 0;
  w[nw++] = 1u | m << 4 | (unsigned)e << 8 | CTX << 16;
  w[nw++] = NODE;
  w[nw++] = (uint32_t)va;
  w[nw++] = (uint32_t)(va >> 32);
  for (unsigned i = 0; i < m; i++) {
    const uint64_t v = dma_dw(d, o + i);
    w[nw++] = (uint32_t)v;
    w[nw++] = (uint32_t)(v >> 32);
  }
  if (e) {
    w[nw++] = (uint32_t)d->rev;
    w[nw++] = (uint32_t)(d->rev >> 32);
  }
  return nw;
}
static unsigned bucket(const dm_t *g, uint64_t va) {
  return (unsigned)(((va >> 13) ^ CTX) & ((1ull << g->vw->param.PtBits) - 1u));
}
static void pte(dm_t *g, uint64_t va, uint64_t pa, unsigned space) {
  const uint64_t dw = (g->vw->param.PtBase + 16u * bucket(g, va)) / 8u;
  g->lm.mem[dw] = 1u | 1u << 1 | 1u << 2 | space << 3 | (va >> 13) << 13; /* V, W, R, space (§4.5) */
  g->lm.mem[dw + 1] = pa | (uint64_t)CTX << 50;
}
static void event(dm_t *g, uint64_t va, uint64_t cookie) { /* INTERRUPT (type 2), count -1, §4.4 */
  uint64_t pa;
  xlate(va, &pa);
  g->lm.mem[pa / 8u] = 2ull << 41 | 0xFFFFFFFFu;
  g->lm.mem[pa / 8u + 1] = cookie;
  g->lm.mem[pa / 8u + 2] = 0;
  g->lm.mem[pa / 8u + 3] = CTX;
}
static bool in_event(uint32_t pa) {
  const uint32_t ev[7] = {PA_B + 0x1000u, PA_A + 0x1000u, PA_B + 0x1040u, PA_E + 0x100u,
                          PA_E + 0x280u,  EVC_PA,         EVY_PA};
  for (unsigned k = 0; k < 7; k++)
    if (pa >= ev[k] && pa < ev[k] + 32u) return true;
  return false;
}
static void scr(dm_t *g, uint32_t addr, uint64_t data, unsigned phase) {
  g->scr[g->nscr].addr = addr;
  g->scr[g->nscr].data = data;
  g->scr[g->nscr++].phase = phase;
}
/* a command's dwords at the queue's next positions (page dword = position mod 512, §6.1) */
static void cmd(dm_t *g, const uint64_t *dw, unsigned n, unsigned phase) {
  for (unsigned i = 0; i < n; i++, g->qpos++) scr(g, 8u * (g->qpos % 512u), dw[i], phase);
}

/* a host-source DMA's reads: one per chunk (§6.8: s_k = min(C, N - r_k, left in the page), C = 64 or
   DmaBufDw - 8); a failing DMA (D4) gets only its first chunk's read out before its route fails */
static void plan_host(dm_t *g, const dma_t *d) {
  const unsigned c = umin(64, (unsigned)g->vw->param.DmaBufDw - 8u);
  for (unsigned r = 0; r < d->n && g->nhx < MAXHR;) {
    uint64_t ha;
    const unsigned sz = umin(umin(c, d->n - r), left(d->src + 8ull * r));
    if (xlate(d->src + 8ull * r, &ha) != 1) break;
    g->hx[g->nhx].addr = ha;
    g->hx[g->nhx++].len = sz;
    r += sz;
    if (d->fail) break;
  }
}

static void init_view(dm_t *g, const elan4_view_t *vw, cosim_rng_t *rng) {
  g->vw = vw;
  for (unsigned i = 0; i < NLAT; i++) g->toklat[i] = 1 + cosim_rng_below(rng, 24);
  g->hlat = 1 + cosim_rng_below(rng, 60);
  g->hm_mask = cosim_rng_u64(rng) | cosim_rng_u64(rng);
  g->L = g->lm.lat = (int64_t)vw->param.LmLatency;
  g->vc_sten = (unsigned)vw->param.VcSten;
  g->vc_dma = (unsigned)vw->param.VcDma;
  g->lm.mem[(vw->param.RtBase + 8u * DEST) / 8u] = 1ull << 32 | ROUTE; /* node 1 (BADDEST): no route */
  for (uint32_t i = 0; i < 1024; i++) {
    g->lm.mem[PA_A / 8u + i] = src_val(PA_A + 8u * i);
    g->lm.mem[PA_B / 8u + i] = src_val(PA_B + 8u * i);
    g->lm.mem[PA_POI / 8u + i] = 0xBAD0BAD0BAD0BAD0ull;
  }
  pte(g, VA_A, PA_A, 1);
  pte(g, VA_B, PA_B, 1);
  pte(g, VA_H, HPA, 0);
  pte(g, VA_H2, HPA2, 0);
  event(g, LEV, COOKIE1);
  event(g, LEV2, COOKIE2);
  event(g, LEVX, COOKIEX);
  event(g, LEV3, COOKIE3);
  event(g, LEV4, COOKIE4);
  g->lm.mem[EVC_PA / 8u] = (uint64_t)NCOPY << 32 | 0xFFFFFFFFu; /* COPY (type 0), count -1 */
  g->lm.mem[EVC_PA / 8u + 1] = VA_E + (CSRC_PA - PA_E);
  g->lm.mem[EVC_PA / 8u + 2] = VA_E + (CDST_PA - PA_E);
  g->lm.mem[EVC_PA / 8u + 3] = CTX;
  g->lm.mem[EVY_PA / 8u] = 2ull << 41 | 0x80000000u; /* INTERRUPT, far below 0 */
  g->lm.mem[EVY_PA / 8u + 3] = CTX;
  for (unsigned i = 0; i < NCOPY; i++) g->lm.mem[CSRC_PA / 8u + i] = src_val(CSRC_PA + 8u * i);
  g->held_tok = g->copy_w = g->cmd_due = -1;
  pte(g, VA_E, PA_E, 1);
  static const dma_t dd[NDMA] = {
      {.src = VA_A + 0x1FE8u,
       .dst = 0x00007F0000100000ull,
       .rev = 0x00007F0000180020ull,
       .lev = LEV,
       .ck = COOKIE1,
       .n = 12,
       .dest = DEST,
       .e = true,
       .r = true},
      {.src = VA_H + 0x100u, .dst = 0x00007F0000104000ull, .n = 10, .dest = DEST},
      {.src = VA_U, .dst = 0x00007F0000106000ull, .lev = LEVX, .n = 4, .dest = DEST, .r = true, .fail = 2},
      {.src = VA_H + 0x200u,
       .dst = 0x00007F0000106000ull,
       .lev = LEVX,
       .n = 10,
       .dest = BADDEST,
       .r = true,
       .fail = 1},
      {.src = VA_H + 0x1FF0u, .dst = 0x00007F0000120000ull, .n = 6, .dest = DEST},
      {.src = VA_A + 0x40u,
       .dst = 0x00007F0000110000ull,
       .lev = LEVX,
       .n = 20,
       .dest = DEST,
       .r = true,
       .fail = 3,
       .nack0 = true},
      {.src = VA_A + 0x80u,
       .dst = 0x00007F000010BFF0ull,
       .lev = LEV2,
       .ck = COOKIE2,
       .n = 9,
       .dest = DEST,
       .r = true},
      {.src = VA_A + 0x300u, .dst = 0x00007F0000130000ull, .n = 4, .dest = DEST, .lose = true},
      {.src = VA_A + 0x400u,
       .dst = 0x00007F0000140000ull,
       .lev = LEV3,
       .ck = COOKIE3,
       .n = 5,
       .dest = DEST,
       .r = true,
       .miss = true,
       .chain = true},
      {.src = VA_A + 0x500u, .dst = 0x00007F0000150000ull, .n = 11, .dest = DEST},
      {.src = VA_A + 0x600u,
       .dst = 0x00007F0000160000ull,
       .lev = LEV4,
       .ck = COOKIE4,
       .n = 16,
       .dest = DEST,
       .r = true,
       .held = true},
  };
  memcpy(g->d, dd, sizeof dd);
  if (vw->param.RetryLimit == 0) g->d[P_TIMEOUT].fail = 3; /* the timeout fails it; else a resend */
  /* CQCTL(0): base, class 0, ctx, WRITE and RUN_DMA enabled, open */
  scr(g, 0x02000000u, QBASE | (uint64_t)CTX << 33 | 1ull << 47 | 1ull << 49 | 1ull << 51 | 1ull << 63, 0);
  for (unsigned k = 0; k < NDMA; k++) {
    dma_t *d = &g->d[k];
    split(d);
    const uint64_t dw[8] = {5u | (uint64_t)d->e << 8 | (uint64_t)d->r << 9 | (uint64_t)d->dest << 16 |
                                (uint64_t)(8u * d->n) << 32,
                            d->src,
                            d->dst,
                            d->e ? d->rev : 0,
                            d->r ? d->lev : 0,
                            0,
                            0,
                            0};
    cmd(g, dw, 8, k > 0 && g->d[k - 1].chain ? k - 1 : k);
    if (k == P_RETRY) { /* the STEN WRITE behind D6 */
      const uint64_t wr[3] = {1u | 1u << 4 | (uint64_t)DEST << 16, WR_VA, WR_DATA};
      cmd(g, wr, 3, k);
    }
    if (k == P_FIFO) { /* a local SETEVENT (inc 1) of the second event, gated: see the header */
      const uint64_t se[2] = {3u | 1ull << 32, VA_E + (EVY_PA - PA_E)};
      cmd(g, se, 2, k);
      g->scr[g->nscr - 1].gate = g->scr[g->nscr - 2].gate = true;
    }
  }
  g->to_at = -1;
  g->fail_t = g->fire_due = g->phase_done = g->done_at = -1;
  g->ix.due = -1;
  for (unsigned k = 0; k < 16; k++) g->tag_end[k] = -1;
  plan_host(g, &g->d[0]);
}
static void init_default(void *ctx, cosim_rng_t *rng) { init_view(ctx, &elan4_default_view, rng); }
static void init_min(void *ctx, cosim_rng_t *rng) { init_view(ctx, &elan4_min_view, rng); }
static void init_onevc(void *ctx, cosim_rng_t *rng) { init_view(ctx, &elan4_onevc_view, rng); }
static void init_late(void *ctx, cosim_rng_t *rng) { /* elan4_default: AckTimeout far beyond the COPY */
  dm_t *g = ctx;
  init_view(g, &elan4_default_view, rng);
  g->late = true;
}

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  dm_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  IN(node_i, NODE);
  IN(hm_ready_i, g->hm_mask >> (cycle % 64u) & 1u); /* a request is held now and then (§3.2) */
  uint64_t rd;
  if (e4h_lm_answer(&g->lm, cycle, &rd)) {
    IN(lm_rvalid_i, 1);
    IN(lm_rdata_i, rd);
  }
  IN(in_credit_i, e4h_credits(g->ncredit, 4));
  /* host read data, as scheduled at the takes */
  if (g->nbeat_h != g->nbeat_t && g->beat[g->nbeat_h % 64].at == t) {
    IN(hm_rvalid_i, 1);
    IN(hm_rtag_i, g->beat[g->nbeat_h % 64].tag);
    IN(hm_rdata_i, g->beat[g->nbeat_h % 64].data);
    g->nbeat_h++;
  }
  /* D11: the neighbour's SETEVENTs, from D11's first packet on, each after the previous one's token; a
     packet's flits back to back (tokens wait) */
  const unsigned k_s = (unsigned)g->vw->param.EpFifo - 1u;
  if (g->phase == P_FIFO && !g->s_flit && !g->s_busy && g->s_next <= k_s && g->next_new >= 1) {
    const uint64_t eva = VA_E + ((g->s_next ? EVY_PA : EVC_PA) - PA_E);
    g->sw[0] = 3u | CTX << 16;
    g->sw[1] = DEST;
    g->sw[2] = (uint32_t)eva;
    g->sw[3] = (uint32_t)(eva >> 32);
    g->sw[4] = 1;
    g->s_flit = 1;
  }
  if (g->s_flit) {
    const unsigned f = g->s_flit - 1;
    IN(in_valid_i, 1);
    IN(in_vc_i, 0);
    IN(in_kind_i, f == 0 ? 0 : f <= 5 ? 1 : 2);
    IN(in_data_i, f == 0 ? 0xFFFFFFFFu : f <= 5 ? g->sw[f - 1] : crc32_ref_words(g->sw, 5));
    if (f == 6) {
      g->s_flit = 0;
      g->s_busy = true;
      g->s_next++;
    } else
      g->s_flit++;
  } else if (g->tq_h != g->tq_t && g->tq[g->tq_h % 64].due <= t) {
    /* tokens: the oldest due one, one flit per cycle */
    const tok_t *k = &g->tq[g->tq_h % 64];
    const bool nack = k->dma < NDMA && g->d[k->dma].nack0 && g->d[k->dma].o[k->pk] == 0;
    IN(in_valid_i, 1);
    IN(in_kind_i, 3);
    IN(in_vc_i, k->vc);
    IN(in_data_i, nack ? 0 : 1);
  }
  if (g->phase < NDMA && g->step < g->nscr && g->scr[g->step].phase <= g->phase && t >= g->phase_from &&
      t >= 4 && !(g->scr[g->step].gate && g->s_tok < (unsigned)g->vw->param.EpFifo)) {
    IN(ht_valid_i, 1);
    IN(ht_write_i, 1);
    IN(ht_addr_i, g->scr[g->step].addr);
    IN(ht_data_i, g->scr[g->step].data);
    IN(ht_be_i, 0xFF);
  }
  return !(g->done && t > g->done_at + 4);
}

/* arm the expected interrupt record (one at a time: the phases do not overlap) */
static bool arm(dm_t *g, cosim_msg_t *msg, int64_t due, unsigned cause, unsigned info, uint64_t data,
                const char *id) {
  if (g->ix.due >= 0)
    return FAIL(id, "a second interrupt record armed while one is due (cycle %lld)", (long long)due);
  g->ix = (irqx_t){due, cause, info, data, id};
  return true;
}
static void next_phase(dm_t *g, int64_t t) { g->phase_done = t; }

static bool end_checks(dm_t *g, const void *out, cosim_msg_t *msg) {
  const unsigned rl = (unsigned)g->vw->param.RetryLimit, k_s = (unsigned)g->vw->param.EpFifo - 1u;
  const struct {
    unsigned lane, want;
    const char *id;
  } cn[] = {{24, 6 + k_s, "elan4.dma_event"},
            {25, 5, "elan4.dma_event"},
            {26, 0, "elan4.dma"},
            {27, 0, "elan4.dma"},
            {13, rl + 1, "elan4.dma_fail"},
            {14, rl + (rl > 0), "elan4.dma_fail"},
            {15, 1, "elan4.dma_fail"},
            {4, 0, "elan4.dma_fail"}};
  for (unsigned k = 0; k < sizeof cn / sizeof cn[0]; k++)
    if (CNT(cn[k].lane) != cn[k].want)
      return FAIL(cn[k].id, "cnt_o lane %u = %llu, want %u at the end", cn[k].lane,
                  (unsigned long long)CNT(cn[k].lane), cn[k].want);
  /* the fired events' count is 0, the failing DMAs' event untouched (§4.4) */
  if (g->lm.mem[(PA_B + 0x1000u) / 8u] != 2ull << 41 || g->lm.mem[(PA_A + 0x1000u) / 8u] != 2ull << 41 ||
      g->lm.mem[(PA_B + 0x1040u) / 8u] != (2ull << 41 | 0xFFFFFFFFu) ||
      g->lm.mem[(PA_E + 0x100u) / 8u] != 2ull << 41 || g->lm.mem[(PA_E + 0x280u) / 8u] != 2ull << 41 ||
      g->lm.mem[EVC_PA / 8u] != (uint64_t)NCOPY << 32 ||
      g->lm.mem[EVY_PA / 8u] != (2ull << 41 | (uint32_t)(0x80000000u + k_s + 1u)) || g->ncw != NCOPY ||
      !g->cset)
    return FAIL("elan4.dma_event", "final e0 of the events, or the COPY incomplete");
  return true;
}

/* a packet's TAIL: the words against the reference */
static bool tail(dm_t *g, int64_t t, uint32_t crc, cosim_msg_t *msg) {
  dma_t *d = &g->d[g->phase];
  /* D6's WRITE: on STEN's VC; where STEN and DMA share one (elan4_onevc), by its VA */
  if (g->cur_vc == g->vc_sten &&
      (g->vc_sten != g->vc_dma || (g->nw >= 4 && ((uint64_t)g->w[3] << 32 | g->w[2]) == WR_VA))) {
    const uint32_t want[6] = {1u | 1u << 4 | CTX << 16, NODE,
                              (uint32_t)WR_VA,          (uint32_t)(WR_VA >> 32),
                              (uint32_t)WR_DATA,        (uint32_t)(WR_DATA >> 32)};
    if (g->phase != P_RETRY || g->wr_sent || g->nw != 6 || memcmp(g->w, want, sizeof want) ||
        crc != crc32_ref_words(want, 6) || g->head_route != ROUTE)
      return FAIL("elan4.dma_fail", "a STEN packet other than D6's WRITE (cycle %lld)", (long long)t);
    g->wr_sent = true;
    g->tq[g->tq_t++ % 64] = (tok_t){g->cur_vc, NDMA, 0, t + g->toklat[g->ntok++ % NLAT]};
    return true;
  }
  if (g->cur_vc != g->vc_dma)
    return FAIL("elan4.dma", "a packet on VC %u (cycle %lld)", g->cur_vc, (long long)t);
  if (g->nw < 4) return FAIL("elan4.dma", "a DMA packet of %u words (cycle %lld)", g->nw, (long long)t);
  const uint64_t va = (uint64_t)g->w[3] << 32 | g->w[2];
  unsigned k = 0;
  while (k < d->np && d->dst + 8ull * d->o[k] != va) k++;
  if (k == d->np || d->fail == 1 || d->fail == 2)
    return FAIL("elan4.dma", "D%u: a packet to VA 0x%llx, not one of §6.8's (cycle %lld)", g->phase + 1,
                (unsigned long long)va, (long long)t);
  uint32_t want[32];
  const unsigned nw = dma_words(d, k, want);
  if (g->nw != nw || memcmp(g->w, want, 4u * nw) || crc != crc32_ref_words(want, nw) ||
      g->head_route != ROUTE) {
    unsigned i = 0;
    while (i < nw && i < g->nw && g->w[i] == want[i]) i++;
    return FAIL("elan4.dma",
                "D%u packet %u (o %u, m %u): %u words, want %u; first difference at word %u (cycle %lld)",
                g->phase + 1, k, d->o[k], d->m[k], g->nw, nw, i, (long long)t);
  }
  if (d->lose && !g->sent[k]) { /* no token: the oldest of VcDma's list, so it times out AckTimeout after */
    g->sent[k] = true;
    g->next_new++;
    g->to_at = t - 1 + (int64_t)g->vw->param.AckTimeout; /* its TAIL decided in t - 1 */
    return true;
  }
  if (!g->sent[k]) {
    if (k != g->next_new)
      return FAIL("elan4.dma", "D%u packet %u sent before packet %u (cycle %lld)", g->phase + 1, k,
                  g->next_new, (long long)t);
    g->sent[k] = true;
    g->next_new++;
  } else {
    if (!g->nacked[k])
      return FAIL("elan4.dma", "D%u packet %u sent again without a nack (cycle %lld)", g->phase + 1, k,
                  (long long)t);
    g->nacked[k] = false;
    g->nresends++;
  }
  if (d->held && k + 1 == d->np) { /* D11's last packet: its token once the event FIFO is full */
    g->held_idx = g->tq_t;
    g->tq[g->tq_t++ % 64] = (tok_t){g->cur_vc, g->phase, k, INT64_MAX};
    return true;
  }
  g->tq[g->tq_t++ % 64] = (tok_t){g->cur_vc, g->phase, k, t + g->toklat[g->ntok++ % NLAT]};
  return true;
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  dm_t *g = ctx;
  const int64_t t = (int64_t)cycle, L = g->L;
  dma_t *d = &g->d[g->phase < NDMA ? g->phase : NDMA - 1];
  const unsigned rl = (unsigned)g->vw->param.RetryLimit;
  /* PIO acceptance */
  if (INP(ht_valid_i) && OUT(ht_ready_o) && g->scr[g->step++].gate) g->sev_in++;
  /* D11's SETEVENT: the command processor may push only when the DMA does not (§6.3, §6.7): at w+1 the
     DMA's push takes the room S1's take made, so the SETEVENT waits for the next take, w+3+L, and is
     accepted in w+4+L (tr_cmd_o the cycle after) */
  if (g->sev_in == 2 && (OUT(tr_cmd_o) || t == g->cmd_due)) {
    if (!OUT(tr_cmd_o) || t != g->cmd_due || OUT(tr_cmd_q_o) != 0)
      return FAIL("elan4.dma_event",
                  "D11's local SETEVENT: tr_cmd_o %llu in cycle %lld, want cycle %lld (w+5+L)",
                  (unsigned long long)OUT(tr_cmd_o), (long long)t, (long long)g->cmd_due);
    g->sev_in = 3;
  }
  /* our token of this cycle (drive sent the queue's head) */
  if (INP(in_valid_i) && INP(in_kind_i) == 3) {
    const tok_t k = g->tq[g->tq_h++ % 64];
    const bool ack = INP(in_data_i) & 1u;
    if (k.dma == NDMA) {
      g->wr_acked = true;
    } else if (k.dma == g->phase && g->fail_t < 0) {
      if (ack) {
        g->acked[k.pk] = true;
        bool all = true;
        for (unsigned i = 0; i < d->np; i++) all &= g->acked[i];
        if (all && d->r &&
            !d->fail) { /* released and done in t+1: the event fires at t+7+L (the header's derivation) */
          uint64_t pa;
          xlate(d->lev, &pa);
          g->fire_due = d->held ? -1 : t + 7 + L + (d->miss ? 3 + L : 0); /* D11: at the COPY's end */
          if (d->held) g->held_tok = t;
          g->fire_pa = (uint32_t)pa;
          g->fire_ck = d->ck;
          g->ev_phase = g->phase;
        }
        if (all && (!d->r || d->chain) && !d->fail) next_phase(g, t);
      } else {
        g->nacked[k.pk] = true;
        if (++g->nacks0 == rl + 1) { /* §6.8: nacked after RetryLimit resends: code 3 */
          g->fail_t = t;
          if (!arm(g, msg, t + 2, 5, 0, 3, "elan4.dma_fail")) return false;
        }
      }
    }
  }
  /* D8's timeout: as a nack (§6.4), counted in cnt_timeouts two cycles later (§6.10) */
  if (g->to_at >= 0 && t == g->to_at) {
    if (INP(in_valid_i) && INP(in_kind_i) == 3)
      return FAIL("elan4.dma_fail", "a token in the timeout cycle (cycle %lld)", (long long)t);
    g->nacked[0] = true;
    if (rl == 0) {
      g->fail_t = t;
      if (!arm(g, msg, t + 2, 5, 0, 3, "elan4.dma_fail")) return false;
    }
  }
  if (g->to_at >= 0 && (t == g->to_at + 1 || t == g->to_at + 2)) {
    const uint64_t want = t == g->to_at + 2;
    if (CNT(15) != want)
      return FAIL("elan4.dma_fail", "cnt_timeouts %llu in cycle %lld, want %llu (the timeout in %lld)",
                  (unsigned long long)CNT(15), (long long)t, (unsigned long long)want, (long long)g->to_at);
  }
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o), pa = 8u * a;
    const uint64_t dat = OUT(lm_wdata_o);
    if (OUT(lm_write_o)) {
      const bool desc =
          pa < g->vw->param.DescBase + 16u * g->vw->param.NumQueues && pa >= g->vw->param.DescBase;
      const bool store = pa >= QBASE && pa < QBASE + 1024u;
      const unsigned k_s = (unsigned)g->vw->param.EpFifo - 1u;
      if (t == g->fire_due && pa == g->fire_pa) {
        if (dat != 2ull << 41)
          return FAIL("elan4.dma_event", "the local event's e0 write 0x%016llx", (unsigned long long)dat);
      } else if (g->phase == P_FIFO && pa == EVC_PA && !g->cset) { /* S0: the COPY event fires */
        if (dat != (uint64_t)NCOPY << 32 || !(OUT(tr_fire_o) && OUT(tr_fire_addr_o) == EVC_PA))
          return FAIL("elan4.dma_event", "S0's e0 write 0x%016llx without its fire (cycle %lld)",
                      (unsigned long long)dat, (long long)t);
        g->cset = true;
      } else if (g->phase >= P_FIFO && pa == EVY_PA && g->yset < k_s + 1) { /* S1..Sk, the SETEVENT */
        if (dat != (2ull << 41 | (uint32_t)(0x80000000u + ++g->yset)))
          return FAIL("elan4.dma_event", "a set of the second event: e0 0x%016llx (cycle %lld)",
                      (unsigned long long)dat, (long long)t);
      } else if (g->phase == P_FIFO && pa >= CDST_PA && pa < CDST_PA + 8u * NCOPY) {
        if (pa != CDST_PA + 8u * g->ncw || dat != src_val(CSRC_PA + 8u * g->ncw))
          return FAIL("elan4.dma_event", "a COPY write out of order or with other data (cycle %lld)",
                      (long long)t);
        if (++g->ncw == NCOPY) { /* the EP takes S1 now (idle from the cycle after the last grant, §6.7);
                                    the DMA pushes in the next cycle, behind S2..Sk: each set 3 + L cycles */
          g->copy_w = t;
          if (g->late) g->tq[g->held_idx % 64].due = t + 2;
          if (g->held_tok < 0 || g->s_tok != k_s + 1)
            return FAIL("elan4.scenario",
                        "D11 not done, or the event FIFO not full, before the COPY's end (cycle %lld): the "
                        "held push's scenario not reached",
                        (long long)t);
          g->fire_due = t + (int64_t)k_s * (3 + L) + 4 + L;
          g->cmd_due = t + 5 + L;
        }
      } else if (in_event(pa)) {
        return FAIL("elan4.dma_event", "an event written at 0x%x, not the expected set (cycle %lld)", pa,
                    (long long)t);
      } else if (!desc && !store) {
        return FAIL("elan4.dma", "a local write at 0x%x outside the queue's storage (cycle %lld)", pa,
                    (long long)t);
      }
      e4h_lm_write(&g->lm, a, dat);
    } else {
      e4h_lm_read(&g->lm, cycle, a);
      const uint32_t pt_p1 = (uint32_t)(g->vw->param.PtBase / 8u + 2u * bucket(g, VA_U) + 1u);
      const uint32_t rt_bad = (uint32_t)(g->vw->param.RtBase / 8u + BADDEST);
      if (a == pt_p1 && g->phase == P_XLATE && !arm(g, msg, t + L + 2, 5, 0, 2, "elan4.dma_fail"))
        return false;
      if (a == rt_bad && g->phase == P_ROUTE && !arm(g, msg, t + L + 2, 5, 0, 1, "elan4.dma_fail"))
        return false;
      if (g->fired && pa == g->fire_pa + 24u) { /* e3: cause 2 in its data cycle (§6.7) */
        g->fired = false;
        if (!arm(g, msg, t + L + 2, 2, CTX, g->fire_ck, "elan4.dma_event")) return false;
      }
      const bool in_a = pa >= PA_A && pa < PA_A + 0x4000u, in_b = pa >= PA_B && pa < PA_B + 0x2000u;
      if ((in_a || in_b) && !in_event(pa)) { /* a DMA source read: one of the running DMA's, once */
        unsigned i = 0;
        uint64_t sp = 0;
        while (i < d->n && !(xlate(d->src + 8ull * i, &sp) == 0 && sp == pa)) i++;
        if (i == d->n || g->rd[i])
          return FAIL("elan4.dma", "D%u: a local read at 0x%x, not a source dword not yet read (cycle %lld)",
                      g->phase + 1, pa, (long long)t);
        g->rd[i] = true;
      }
    }
  }
  /* host master: the running DMA's reads, one per host chunk, in order; a new request's tag is the lowest
     whose last dword came before its grant (shown - 1, §5.1 rule 5) */
  if (OUT(hm_valid_o)) {
    const unsigned tag = (unsigned)OUT(hm_tag_o);
    if (!g->hm_shown) {
      const int64_t gr = t - 1;
      unsigned k = 0;
      while (k < g->vw->param.HostReadTags && g->tag_end[k] >= gr) k++;
      if (g->hx_next == g->nhx || OUT(hm_write_o) || OUT(hm_addr_o) != g->hx[g->hx_next].addr ||
          OUT(hm_len_o) != g->hx[g->hx_next].len || OUT(hm_data_o) || OUT(hm_be_o))
        return FAIL("elan4.dma", "D%u: host request addr 0x%llx len %llu, want %s (cycle %lld)", g->phase + 1,
                    (unsigned long long)OUT(hm_addr_o), (unsigned long long)OUT(hm_len_o),
                    g->hx_next == g->nhx ? "none" : "the next chunk's read", (long long)t);
      if (k == g->vw->param.HostReadTags || tag != k)
        return k == g->vw->param.HostReadTags
                   ? FAIL("elan4.dma", "D%u: a host read (tag %u) granted with every tag held (cycle %lld)",
                          g->phase + 1, tag, (long long)t)
                   : FAIL("elan4.dma", "D%u: host read with tag %u, want the lowest free, %u (cycle %lld)",
                          g->phase + 1, tag, k, (long long)t);
      g->tag_end[tag] = INT64_MAX;
      g->hm_shown = true;
      g->hm_tag_cur = tag;
      g->hm_addr_cur = g->hx[g->hx_next].addr;
      g->hm_len_cur = g->hx[g->hx_next].len;
      g->hm_late = g->d[g->phase].fail != 0;
      g->hx_next++;
      if (g->ntakes < 8) g->tk[g->ntakes].shown = t;
    } else if (tag != g->hm_tag_cur || OUT(hm_addr_o) != g->hm_addr_cur || OUT(hm_len_o) != g->hm_len_cur)
      return FAIL("elan4.dma", "a held host request changed (cycle %lld)", (long long)t);
    if (INP(hm_ready_i)) { /* taken: its dwords from hlat on (LATE more for D4's, which fails before) */
      int64_t at = t + g->hlat + (g->hm_late ? LATE : 0);
      if (at < g->beat_free) at = g->beat_free;
      for (unsigned i = 0; i < g->hm_len_cur; i++) {
        g->beat[g->nbeat_t % 64].at = at + i;
        g->beat[g->nbeat_t % 64].tag = tag;
        g->beat[g->nbeat_t++ % 64].data = host_val(g->hm_addr_cur + 8u * i);
      }
      g->beat_free = at + g->hm_len_cur;
      g->tag_end[tag] = g->beat_free - 1;
      g->hm_shown = false;
      if (g->ntakes < 8) {
        g->tk[g->ntakes].phase = g->hm_late ? P_ROUTE : g->phase;
        g->tk[g->ntakes].tag = tag;
        g->tk[g->ntakes].taken = t;
        g->tk[g->ntakes].last = g->tag_end[tag];
      }
      g->ntakes++;
    }
  }
  /* the link */
  if (OUT(out_valid_o)) {
    const unsigned kind = (unsigned)OUT(out_kind_o), vc = (unsigned)OUT(out_vc_o);
    const uint32_t w = (uint32_t)OUT(out_data_o);
    if (kind != 3) g->ncredit[vc & 3u]++; /* tokens use no credits (§6.4) */
    if (kind == 3) { /* D11: the NIC's ack of our SETEVENT; once Sk's is back, D11's last token goes */
      if (g->phase != P_FIFO || !g->s_busy || vc != 0 || w != 1)
        return FAIL("elan4.dma", "a TOKEN (vc %u data %u) on out_*, not the ack of our SETEVENT (cycle %lld)",
                    vc, w, (long long)t);
      g->s_busy = false;
      if (++g->s_tok == (unsigned)g->vw->param.EpFifo && !g->late) g->tq[g->held_idx % 64].due = t + 2;
    } else if (kind == 0) {
      if (g->in_pkt) return FAIL("elan4.dma", "a HEAD inside a packet (cycle %lld)", (long long)t);
      if (vc == g->vc_dma && g->fail_t >= 0 && t > g->fail_t + 1)
        return FAIL("elan4.dma_fail", "a DMA HEAD after the failure (cycle %lld, failed in %lld)",
                    (long long)t, (long long)g->fail_t);
      g->in_pkt = true;
      g->nw = 0;
      g->cur_vc = vc;
      g->head_route = w;
    } else {
      if (!g->in_pkt || vc != g->cur_vc)
        return FAIL("elan4.dma", "a flit outside a packet (cycle %lld)", (long long)t);
      if (kind == 1) {
        if (g->nw == 32) return FAIL("elan4.dma", "a packet longer than 32 words (cycle %lld)", (long long)t);
        g->w[g->nw++] = w;
      } else {
        g->in_pkt = false;
        if (!tail(g, t, w, msg)) return false;
      }
    }
  }
  /* the local event: tr_fire_o exactly at its cycle */
  if ((OUT(tr_fire_o) && !(g->phase == P_FIFO && OUT(tr_fire_addr_o) == EVC_PA)) || t == g->fire_due) {
    if (!OUT(tr_fire_o) || t != g->fire_due || OUT(tr_fire_addr_o) != g->fire_pa ||
        !(OUT(lm_valid_o) && OUT(lm_write_o) && 8u * OUT(lm_addr_o) == g->fire_pa))
      return FAIL("elan4.dma_event",
                  "tr_fire_o %llu (address 0x%llx), want the local event at 0x%x fired in cycle %lld (T+7+L, "
                  "a miss 3+L more)",
                  (unsigned long long)OUT(tr_fire_o), (unsigned long long)OUT(tr_fire_addr_o), g->fire_pa,
                  (long long)g->fire_due);
    g->fire_due = -1;
    g->fired = true; /* its record comes after the e3 read */
    g->fires++;
  }
  /* interrupt records */
  if (OUT(irq_valid_o)) {
    const unsigned cause = (unsigned)OUT(irq_cause_o);
    const char *id = cause == 2 ? "elan4.dma_event" : "elan4.dma_fail";
    if (g->ix.due != t || cause != g->ix.cause || OUT(irq_info_o) != g->ix.info ||
        OUT(irq_data_o) != g->ix.data)
      return FAIL(id, "irq cause %u info 0x%llx data 0x%llx; want %s (cause %u data 0x%llx in cycle %lld)",
                  cause, (unsigned long long)OUT(irq_info_o), (unsigned long long)OUT(irq_data_o),
                  g->ix.due >= 0 ? "a record" : "none", g->ix.cause, (unsigned long long)g->ix.data,
                  (long long)g->ix.due);
    g->ix.due = -1;
    if ((cause == 2 && g->ev_phase == g->phase) || (cause == 5 && g->phase != P_RETRY)) next_phase(g, t);
  } else if (g->ix.due == t) {
    return FAIL(g->ix.id, "no interrupt record in cycle %lld: want cause %u data 0x%llx", (long long)t,
                g->ix.cause, (unsigned long long)g->ix.data);
  }
  /* D6: done once it failed, the WRITE is acked and every token went back */
  if (g->phase == P_RETRY && g->phase_done < 0 && g->fail_t >= 0 && g->ix.due < 0 && g->wr_acked &&
      g->tq_h == g->tq_t && !g->in_pkt && t > g->fail_t + 60)
    next_phase(g, t);
  /* the next phase: the outcome's checks, then its PIO writes 8 cycles on */
  if (g->phase_done >= 0 && g->phase < NDMA) {
    if (!d->fail && xlate(d->src, &(uint64_t){0}) == 0)
      for (unsigned i = 0; i < d->n; i++)
        if (!g->rd[i])
          return FAIL("elan4.dma", "D%u: source dword %u never read (cycle %lld)", g->phase + 1, i,
                      (long long)t);
    if (g->hx_next !=
        g->nhx) /* D4: the lookup hits in x, the read is granted x+1, the route's data is x+1+L */
      return FAIL("elan4.dma", "D%u: %u of its %u host reads shown before its outcome (cycle %lld)",
                  g->phase + 1, g->hx_next, g->nhx, (long long)t);
    if (d->nack0 && g->nresends != rl)
      return FAIL("elan4.dma_fail", "D6: %u resends, want RetryLimit = %u (cycle %lld)", g->nresends, rl,
                  (long long)t);
    g->phase++;
    g->phase_from = t + 8;
    g->phase_done = -1;
    memset(g->sent, 0, sizeof g->sent);
    memset(g->acked, 0, sizeof g->acked);
    memset(g->nacked, 0, sizeof g->nacked);
    memset(g->rd, 0, sizeof g->rd);
    g->next_new = g->nacks0 = g->nresends = 0;
    g->fail_t = -1;
    g->nhx = g->hx_next = 0;
    if (g->phase < NDMA) plan_host(g, &g->d[g->phase]);
  }
  if (g->phase == NDMA && !g->done && g->ix.due < 0 && g->fire_due < 0 && !g->fired && g->sev_in == 3 &&
      g->yset == (unsigned)g->vw->param.EpFifo) {
    g->done = true;
    g->done_at = t + 4; /* the counters settle */
  }
  if (g->done && t == g->done_at) return end_checks(g, out, msg);
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  dm_t *g = ctx;
  printf(
      "elan4_dma: %u phases done, %u local events fired, D6 %s, %u host reads taken; D11 done in %lld, the "
      "COPY's last write %lld, %u SETEVENTs acked\n",
      g->phase, g->fires, g->wr_acked ? "WRITE acked" : "WRITE not acked", g->ntakes, (long long)g->held_tok,
      (long long)g->copy_w, g->s_tok);
  for (unsigned k = 0; k < g->ntakes && k < 8; k++)
    printf("  host read %u: D%u tag %u shown %lld taken %lld last dword %lld\n", k, g->tk[k].phase + 1,
           g->tk[k].tag, (long long)g->tk[k].shown, (long long)g->tk[k].taken, (long long)g->tk[k].last);
  if (!g->done || (int64_t)cycles <= g->done_at)
    return FAIL(g->phase >= P_XLATE && g->phase <= P_RETRY ? "elan4.dma_fail" : "elan4.dma",
                "incomplete after %llu cycles: phase D%u, %u PIO writes of %u", (unsigned long long)cycles,
                g->phase + 1, g->step, g->nscr);
  return true;
}

COSIM_TEST(elan4_dma, .target = &elan4_default_target,
           .purpose = "docs/elan4.md §6.8: RUN_DMA's local event, a host source, a page-crossing source, "
                      "failures 1-3 (cause 5) and recovery, in lockstep",
           .ctx_size = sizeof(dm_t), .init = init_default, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_dma_min, .target = &elan4_min_target,
           .purpose = "elan4_dma on the min target (RetryLimit 0, DmaBufDw 64, two TLB entries, LmLatency 1)",
           .ctx_size = sizeof(dm_t), .init = init_min, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_dma_onevc, .target = &elan4_onevc_target,
           .purpose = "elan4_dma on the onevc target (STEN and DMA packets share VC 0)",
           .ctx_size = sizeof(dm_t), .init = init_onevc, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_dma_late, .target = &elan4_default_target,
           .purpose =
               "elan4_dma with D11's last token after the COPY: the event FIFO is not full when D11 is "
               "done (elan4.scenario must fail)",
           .ctx_size = sizeof(dm_t), .init = init_late, .drive = drive, .check = check, .finish = finish)

/* elan4_dma_edge: the RUN_DMA lengths the phases above never use (docs/elan4.md §4.3, §6.3, §7, §6.8), in
 * lockstep, with the same kind of reference (§4.2's status word, §6.9's records, §6.8's split, §4.6's
 * packets, never the model's code). Queue 0 (and queue 1 where NumQueues > 1), context 5:
 *
 *   Z1  a RUN_DMA with imm = 0 at position 0: §4.3 makes `imm` of RUN_DMA a dword-0 field that must be a
 *       non-zero multiple of 8, so the command processor refuses it with E_FORMAT (§6.3: a dword-0
 *       failure, the command not consumed): one cause-3 record {info 0, data 8 | position 0 << 8}
 *       (§6.9), no DMA start (no route read, no DMA packet, cnt_cmds unchanged). Queue 1's STEN WRITE,
 *       written between the RUN_DMA's dword 0 and dword 1, is delivered exactly and acked. The next
 *       command of queue 0 (a WRITE at positions 8..10, written after the record) is discarded (§7: an
 *       ERROR queue takes no data): cnt_cq_discard exactly +3, no packet. Queue 0's status: code 8,
 *       state ERROR, error position 0, wp in 1..8 frozen (§7), and cnt_cq_discard of the RUN_DMA's own
 *       dwords exactly 8 - wp, less one if a dword arrived in the cycle the queue entered ERROR (§7 drops
 *       it with the queue's data; §6.10 counts only arrivals at a queue already in ERROR). Queue 1: OK,
 *       code 0, fp = wp = 3, not busy.
 *   Z2  CQCTL(0) again (§4.2: positions 0, code 0, OK, checked in the status word), then a RUN_DMA with
 *       imm = 12 (not a multiple of 8): the same refusal and checks.
 *   Z3  CQCTL(0) again, a STEN WRITE, then the large DMA: BIGN dwords (64 KB on elan4_default, the §10
 *       plan's size; §4.3's own limit is imm < 2^32, so 64 KB is no maximum) from a local source at
 *       0x18 into its first page, over nine source pages mapped out of order, to a destination at 0x1F0
 *       into its page: every packet is §6.8's next one (split at both sides' pages, at most 8 dwords),
 *       so each dword is delivered once; each source dword read once from its page's PA. R = 1 on an
 *       event in a page never looked up: tr_fire_o at T+10+2L after the token T acking the last packet
 *       (D9's derivation above: §6.6's miss, §6.7), the cause-2 record L+2 after the e3 read.
 * Checks: elan4.dma_format (Z1, Z2: the records, the status words, the discards, the WRITE beside),
 * elan4.dma (Z3's packets and source reads), elan4.dma_event (Z3's event, its cycle and record). */
#define ZQ0       0x180000u /* queue 0's store (a multiple of 64 KB: elan4_max's class 0) */
#define ZQ1       0x190000u
#define ZVS       0x40000ull /* the source's first VA page (0x20) */
#define ZSRC      (ZVS + 0x18u)
#define ZPA       0x200000u /* nine source pages from here, out of order */
#define ZDST      0x00007F0000200000ull
#define ZDST0     (ZDST + 0x1F0u)
#define ZVEV      0x94000ull /* page 0x4A: its bucket differs from the source's on PtBits 4 */
#define ZLEV      (ZVEV + 0x100u)
#define ZPEV      0x300000u
#define ZCOOKIE   0xC0C0000000000E0Eull
#define ZWR_VA    0x00007F0000300000ull
#define ZWR1_VA   0x00007F0000302000ull
#define ZWR_DATA  0x0FEDCBA987654321ull
#define ZWR1_DATA 0x1122334455667788ull
#define ZIMM2     12u /* Z2's byte count: not a multiple of 8 */
enum { ZMAXN = 8192, ZNPG = 9, ZMAXS = 64 };

typedef struct {
  uint32_t addr;
  uint64_t data;
  bool write;
  unsigned phase; /* sent once the test is in this phase */
  unsigned rd;    /* a read: what its status word must be (1 Z's ERROR, 2 queue 1 OK, 3 fresh) */
} zreq_t;

typedef struct {
  int64_t due;
  unsigned what; /* 0 a DMA packet, 1 queue 0's WRITE, 2 queue 1's WRITE */
  bool last;     /* the big DMA's last packet */
} ztok_t;

typedef struct {
  const elan4_view_t *vw;
  e4h_lm_t lm;
  int64_t L;
  unsigned bign, nq, toklat[NLAT], ntok;
  zreq_t s[ZMAXS];
  unsigned ns, step, phase, nrd, rd_want[8], rd_done;
  int64_t phase_from, z_start;
  /* the link, per VC */
  uint32_t w[4][32];
  unsigned nw[4], ncredit[4];
  bool in_pkt[4];
  uint32_t route[4];
  ztok_t tq[128];
  unsigned tq_h, tq_t;
  bool wr0_sent, wr0_acked, wr1_sent, wr1_acked;
  uint32_t next_o; /* the big DMA's next packet */
  bool rd[ZMAXN];
  unsigned nrd_src;
  int64_t fire_due, rec_due;
  bool fired;
  unsigned wp[2];     /* Z1's, Z2's frozen wp */
  uint64_t disc[2];   /* Z1's, Z2's RUN_DMA dwords discarded (cnt_cq_discard) */
  int64_t last_acc;   /* the last PIO request accepted */
  int64_t zacc[2][8]; /* Z1's, Z2's RUN_DMA dwords: their acceptance cycles */
  unsigned nzacc[2];
  int64_t zerr[2];  /* the cycle queue 0 entered ERROR in Z1, Z2 (cnt_cq_error, §6.10: shown 2 later) */
  uint64_t cnt_err; /* cnt_cq_error last cycle */
  bool rec_z;       /* the running Z's cause-3 record came */
  unsigned nrec;
  bool done;
  int64_t done_at;
} zg_t;

static unsigned zperm(unsigned p) { return (p * 5u) % ZNPG; } /* VA page p (0..8) -> PA page slot */
static unsigned zxsrc(uint64_t va, uint32_t *pa) {            /* 0 mapped local; the source pages only */
  const uint64_t p = (va - ZVS) >> 13;
  if (va < ZVS || p >= ZNPG) return 2;
  *pa = ZPA + 0x2000u * zperm((unsigned)p) + (uint32_t)(va & 0x1FFFu);
  return 0;
}
static void zs(zg_t *g, bool write, uint32_t addr, uint64_t data, unsigned phase, unsigned rd) {
  g->s[g->ns++] = (zreq_t){addr, data, write, phase, rd};
}
static uint32_t zpage(unsigned q, unsigned pos) { return 0x1000u * q + 8u * (pos % 512u); }

static void zinit(zg_t *g, const elan4_view_t *vw, cosim_rng_t *rng, unsigned bign) {
  g->vw = vw;
  g->L = g->lm.lat = (int64_t)vw->param.LmLatency;
  g->bign = bign;
  g->nq = vw->param.NumQueues > 1 ? 2 : 1;
  for (unsigned i = 0; i < NLAT; i++) g->toklat[i] = 1 + cosim_rng_below(rng, 24);
  g->lm.mem[(vw->param.RtBase + 8u * DEST) / 8u] = 1ull << 32 | ROUTE;
  for (unsigned p = 0; p < ZNPG; p++) {
    const uint64_t va = ZVS + 0x2000ull * p;
    const uint32_t pa = ZPA + 0x2000u * zperm(p);
    const uint64_t dw =
        (vw->param.PtBase + 16u * (unsigned)(((va >> 13) ^ CTX) & ((1ull << vw->param.PtBits) - 1u))) / 8u;
    g->lm.mem[dw] = 1u | 1u << 1 | 1u << 2 | 1u << 3 | (va >> 13) << 13;
    g->lm.mem[dw + 1] = pa | (uint64_t)CTX << 50;
    for (uint32_t i = 0; i < 1024; i++) g->lm.mem[pa / 8u + i] = src_val(pa + 8u * i);
  }
  {
    const uint64_t dw =
        (vw->param.PtBase + 16u * (unsigned)(((ZVEV >> 13) ^ CTX) & ((1ull << vw->param.PtBits) - 1u))) / 8u;
    g->lm.mem[dw] = 1u | 1u << 1 | 1u << 2 | 1u << 3 | (ZVEV >> 13) << 13;
    g->lm.mem[dw + 1] = ZPEV | (uint64_t)CTX << 50;
    g->lm.mem[(ZPEV + 0x100u) / 8u] = 2ull << 41 | 0xFFFFFFFFu; /* INTERRUPT, count -1 */
    g->lm.mem[(ZPEV + 0x100u) / 8u + 1] = ZCOOKIE;
    g->lm.mem[(ZPEV + 0x100u) / 8u + 3] = CTX;
  }
  const uint64_t ctl = (uint64_t)CTX << 33 | 1ull << 47 | 1ull << 51 | 1ull << 63;
  const uint64_t wr0[3] = {1u | 1u << 4 | (uint64_t)DEST << 16, ZWR_VA, ZWR_DATA};
  const uint64_t wr1[3] = {1u | 1u << 4 | (uint64_t)DEST << 16, ZWR1_VA, ZWR1_DATA};
  /* imm 0; to node 1, whose route entry only a started DMA reads (queue 1's WRITE reads node 0's) */
  const uint64_t dma0[8] = {5u | (uint64_t)BADDEST << 16, ZSRC, ZDST0, 0, 0, 0, 0, 0};
  /* Z1 */
  zs(g, true, 0x02000000u, ZQ0 | ctl, 0, 0);
  if (g->nq > 1) zs(g, true, 0x02000008u, ZQ1 | ctl, 0, 0);
  zs(g, true, zpage(0, 0), dma0[0], 0, 0);
  if (g->nq > 1)
    for (unsigned i = 0; i < 3; i++) zs(g, true, zpage(1, i), wr1[i], 0, 0);
  for (unsigned i = 1; i < 8; i++) zs(g, true, zpage(0, i), dma0[i], 0, 0);
  /* after Z1's record: the next command, the status words, the re-open, Z2 */
  for (unsigned i = 0; i < 3; i++) zs(g, true, zpage(0, 8 + i), wr0[i], 1, 0);
  zs(g, false, 0x02000000u, 0, 2, 1);
  if (g->nq > 1) zs(g, false, 0x02000008u, 0, 2, 2);
  /* the status reads come before the re-open: wait for their answers */
  zs(g, true, 0x02000000u, ZQ0 | ctl, 2, 0);
  zs(g, false, 0x02000000u, 0, 2, 3);
  for (unsigned i = 0; i < 8; i++)
    zs(g, true, zpage(0, i), i ? dma0[i] : dma0[0] | (uint64_t)ZIMM2 << 32, 2, 0);
  /* after Z2's record: its status, the re-open, the WRITE, Z3 */
  zs(g, false, 0x02000000u, 0, 3, 1);
  zs(g, true, 0x02000000u, ZQ0 | ctl, 3, 0);
  zs(g, false, 0x02000000u, 0, 3, 3);
  for (unsigned i = 0; i < 3; i++) zs(g, true, zpage(0, i), wr0[i], 3, 0);
  const uint64_t big[8] = {
      5u | 1u << 9 | (uint64_t)DEST << 16 | (uint64_t)(8u * bign) << 32, ZSRC, ZDST0, 0, ZLEV, 0, 0, 0};
  for (unsigned i = 0; i < 8; i++) zs(g, true, zpage(0, 3 + i), big[i], 3, 0);
  g->fire_due = g->rec_due = g->done_at = -1;
  g->zerr[0] = g->zerr[1] = -1;
}
static void zinit_default(void *ctx, cosim_rng_t *rng) { zinit(ctx, &elan4_default_view, rng, ZMAXN); }
static void zinit_small(void *ctx, cosim_rng_t *rng) { zinit(ctx, &elan4_default_view, rng, 1536); }
static void zinit_min(void *ctx, cosim_rng_t *rng) { zinit(ctx, &elan4_min_view, rng, 1536); }
static void zinit_max(void *ctx, cosim_rng_t *rng) { zinit(ctx, &elan4_max_view, rng, 1536); }
static void zinit_onevc(void *ctx, cosim_rng_t *rng) { zinit(ctx, &elan4_onevc_view, rng, 1536); }

static bool zdrive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  zg_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  e4h_drive_base(g->vw, in, &g->lm, cycle, NODE, g->ncredit, 4);
  if (g->tq_h != g->tq_t && g->tq[g->tq_h % 128].due <= t) { /* tokens: all acks, in TAIL order */
    const unsigned what = g->tq[g->tq_h % 128].what;
    e4h_drive_token(g->vw, in, what ? g->vw->param.VcSten : g->vw->param.VcDma, 1);
  }
  /* the script, in its phases; nothing after a status read until it is answered (a CQCTL write behind it
     must not change what it reads) */
  if (g->step < g->ns && g->s[g->step].phase <= g->phase && t >= g->phase_from && t >= 4 &&
      g->rd_done == g->nrd) {
    e4h_drive_pio(g->vw, in, g->s[g->step].write, g->s[g->step].addr, g->s[g->step].data, g->step & 0xFFu);
  }
  return !(g->done && t > g->done_at + 4);
}

static bool zpkt(zg_t *g, unsigned vc, int64_t t, uint32_t crc, cosim_msg_t *msg) {
  const uint32_t *w = g->w[vc];
  const unsigned nw = g->nw[vc];
  const uint64_t va = nw >= 4 ? (uint64_t)w[3] << 32 | w[2] : 0;
  const int64_t due = t + g->toklat[g->ntok++ % NLAT];
  const int64_t prev = g->tq_h != g->tq_t ? g->tq[(g->tq_t - 1) % 128].due : 0;
  if (vc == g->vw->param.VcSten && (va == ZWR_VA || va == ZWR1_VA)) { /* a STEN WRITE */
    const bool q1 = va == ZWR1_VA;
    const uint64_t dat = q1 ? ZWR1_DATA : ZWR_DATA;
    const uint32_t want[6] = {1u | 1u << 4 | CTX << 16, NODE,          (uint32_t)va,
                              (uint32_t)(va >> 32),     (uint32_t)dat, (uint32_t)(dat >> 32)};
    if ((q1 ? g->wr1_sent : g->wr0_sent) || (!q1 && g->phase < 3) || nw != 6 ||
        memcmp(w, want, sizeof want) || crc != crc32_ref_words(want, 6) || g->route[vc] != ROUTE)
      return FAIL(
          "elan4.dma_format",
          "queue %u's WRITE: sent twice, before its phase, or with other words (cycle %lld); queue 0's "
          "refused queue holds a WRITE that must never run",
          q1, (long long)t);
    *(q1 ? &g->wr1_sent : &g->wr0_sent) = true;
    g->tq[g->tq_t++ % 128] = (ztok_t){due > prev ? due : prev + 1, q1 ? 2u : 1u, false};
    return true;
  }
  if (vc != g->vw->param.VcDma || g->phase < 3)
    return FAIL(g->phase < 3 ? "elan4.dma_format" : "elan4.dma",
                "a packet on VC %u to VA 0x%llx (phase Z%u, cycle %lld): not a packet the test expects", vc,
                (unsigned long long)va, g->phase < 3 ? (g->phase < 2 ? 1 : 2) : 3, (long long)t);
  const uint32_t o = g->next_o;
  if (o >= g->bign)
    return FAIL("elan4.dma", "Z3: a DMA packet after the last dword was sent (cycle %lld)", (long long)t);
  const unsigned m = umin(umin(8, g->bign - o), umin(left(ZDST0 + 8ull * o), left(ZSRC + 8ull * o)));
  uint32_t want[32];
  unsigned n = 0;
  want[n++] = 1u | m << 4 | CTX << 16;
  want[n++] = NODE;
  want[n++] = (uint32_t)(ZDST0 + 8ull * o);
  want[n++] = (uint32_t)((ZDST0 + 8ull * o) >> 32);
  for (unsigned i = 0; i < m; i++) {
    uint32_t pa = 0;
    zxsrc(ZSRC + 8ull * (o + i), &pa);
    const uint64_t v = src_val(pa);
    want[n++] = (uint32_t)v;
    want[n++] = (uint32_t)(v >> 32);
  }
  if (nw != n || memcmp(w, want, 4u * n) || crc != crc32_ref_words(want, n) || g->route[vc] != ROUTE) {
    unsigned i = 0;
    while (i < n && i < nw && w[i] == want[i]) i++;
    return FAIL(
        "elan4.dma",
        "Z3: packet at o %u (m %u, §6.8's next): %u words (VA 0x%llx), want %u; first difference at word %u "
        "(cycle %lld)",
        o, m, nw, (unsigned long long)va, n, i, (long long)t);
  }
  g->next_o = o + m;
  g->tq[g->tq_t++ % 128] = (ztok_t){due > prev ? due : prev + 1, 0, g->next_o == g->bign};
  return true;
}

static bool zcheck(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  zg_t *g = ctx;
  const int64_t t = (int64_t)cycle, L = g->L;
  const elan4_view_t *vw = g->vw;
  const unsigned zn = g->phase < 2 ? 1 : 2; /* the refused RUN_DMA of this phase */
  if (INP(ht_valid_i) && OUT(ht_ready_o)) {
    const zreq_t *r = &g->s[g->step++];
    if (!r->write) g->rd_want[g->nrd++ % 8] = r->rd;
    if (r->write && r->addr == zpage(0, 0) && (r->data & 0xFu) == 5 && g->phase < 3) g->z_start = t;
    if (r->write && r->addr < zpage(0, 8) && (g->phase == 0 || g->phase == 2) && g->nzacc[g->phase / 2] < 8)
      g->zacc[g->phase / 2][g->nzacc[g->phase / 2]++] = t;
    g->last_acc = t;
  }
  /* the cycle queue 0 entered ERROR in Z1 and Z2: counted in the value shown two cycles later (§6.10) */
  if (CNT(4) != g->cnt_err && (g->phase == 0 || g->phase == 2) && g->zerr[g->phase / 2] < 0)
    g->zerr[g->phase / 2] = t - 2;
  g->cnt_err = CNT(4);
  /* our token */
  if (INP(in_valid_i) && INP(in_kind_i) == 3) {
    const unsigned what = g->tq[g->tq_h % 128].what;
    const bool last = g->tq[g->tq_h++ % 128].last;
    if (what == 1) g->wr0_acked = true;
    if (what == 2) g->wr1_acked = true;
    if (last) g->fire_due = t + 10 + 2 * L; /* a miss: T+10+2L (D9) */
  }
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o), pa = 8u * a;
    if (OUT(lm_write_o)) {
      const bool desc = pa >= vw->param.DescBase && pa < vw->param.DescBase + 16u * vw->param.NumQueues;
      const bool store = pa >= ZQ0 && pa < ZQ1 + 0x10000u;
      if (t == g->fire_due && pa == ZPEV + 0x100u) {
        if (OUT(lm_wdata_o) != 2ull << 41)
          return FAIL("elan4.dma_event", "Z3's event e0 write 0x%016llx",
                      (unsigned long long)OUT(lm_wdata_o));
      } else if (!desc && !store)
        return FAIL(pa >= ZPEV && pa < ZPEV + 0x2000u ? "elan4.dma_event" : "elan4.dma",
                    "a local write at 0x%x, not the queues' storage or the event's fire (cycle %lld)", pa,
                    (long long)t);
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else {
      e4h_lm_read(&g->lm, cycle, a);
      if (a == (uint32_t)(vw->param.RtBase / 8u + BADDEST) && g->phase < 3)
        return FAIL("elan4.dma_format",
                    "Z%u: a route read: the refused RUN_DMA (imm %u) started a DMA (cycle %lld)", zn,
                    zn == 1 ? 0u : ZIMM2, (long long)t);
      if (g->fired && pa == ZPEV + 0x100u + 24u) { /* e3: cause 2 in its data cycle + 2 (§6.7, §6.9) */
        g->fired = false;
        g->rec_due = t + L + 2;
      }
      if (pa >= ZPA && pa < ZPA + 0x2000u * ZNPG) { /* a source read: the big DMA's, once */
        const unsigned slot = (pa - ZPA) / 0x2000u;
        unsigned p = 0;
        while (zperm(p) != slot) p++;
        const uint64_t va = ZVS + 0x2000ull * p + (pa & 0x1FFFu);
        const uint64_t i = (va - ZSRC) / 8u;
        if (g->phase < 3 || va < ZSRC || i >= g->bign || g->rd[i])
          return FAIL("elan4.dma", "a local read at 0x%x, not a source dword of Z3 not yet read (cycle %lld)",
                      pa, (long long)t);
        g->rd[i] = true;
        g->nrd_src++;
      }
    }
  }
  if (OUT(hm_valid_o)) return FAIL("elan4.dma", "a host request (cycle %lld)", (long long)t);
  /* the link */
  if (OUT(out_valid_o)) {
    const unsigned kind = (unsigned)OUT(out_kind_o), vc = (unsigned)OUT(out_vc_o) & 3u;
    const uint32_t w = (uint32_t)OUT(out_data_o);
    if (kind == 3) return FAIL("elan4.dma", "a TOKEN on out_* (cycle %lld)", (long long)t);
    g->ncredit[vc]++;
    if (kind == 0) {
      if (g->in_pkt[vc]) return FAIL("elan4.dma", "a HEAD inside a packet (cycle %lld)", (long long)t);
      g->in_pkt[vc] = true;
      g->nw[vc] = 0;
      g->route[vc] = w;
    } else if (!g->in_pkt[vc]) {
      return FAIL("elan4.dma", "a flit outside a packet (cycle %lld)", (long long)t);
    } else if (kind == 1) {
      if (g->nw[vc] == 32)
        return FAIL("elan4.dma", "a packet longer than 32 words (cycle %lld)", (long long)t);
      g->w[vc][g->nw[vc]++] = w;
    } else {
      g->in_pkt[vc] = false;
      if (!zpkt(g, vc, t, w, msg)) return false;
    }
  }
  /* Z3's event */
  if (OUT(tr_fire_o) || t == g->fire_due) {
    if (!OUT(tr_fire_o) || t != g->fire_due || OUT(tr_fire_addr_o) != ZPEV + 0x100u ||
        !(OUT(lm_valid_o) && OUT(lm_write_o) && 8u * OUT(lm_addr_o) == ZPEV + 0x100u))
      return FAIL("elan4.dma_event",
                  "tr_fire_o %llu (0x%llx), want Z3's event at 0x%x fired in cycle %lld (T+10+2L, a miss)",
                  (unsigned long long)OUT(tr_fire_o), (unsigned long long)OUT(tr_fire_addr_o), ZPEV + 0x100u,
                  (long long)g->fire_due);
    g->fire_due = -1;
    g->fired = true;
  }
  /* status words */
  if (OUT(ht_rvalid_o)) {
    const uint64_t st = OUT(ht_rdata_o) & ~(1ull << 10); /* bit 10 (cached) is the cache's business */
    const unsigned want = g->rd_want[g->rd_done++ % 8], z = g->phase < 3 ? 0 : 1;
    bool ok;
    if (want == 1) { /* Z's refusal: code 8, ERROR, position 0, wp frozen in 1..8 */
      const unsigned wp = (unsigned)(st >> 32 & 0xFFFFFu);
      ok = (st & 0x3FFu) == (8u | 2u << 8) && (st >> 12 & 0xFFFFFu) == 0 && wp >= 1 && wp <= 8 && !(st >> 52);
      /* the RUN_DMA's dwords after wp were discarded, except one arriving in the error cycle itself (in
         t+1 of its acceptance, the queue cached), which §6.10 does not count: 8 - wp - that one */
      unsigned at_err = 0;
      for (unsigned i = 1; i < g->nzacc[z]; i++) at_err += g->zacc[z][i] + 1 == g->zerr[z];
      ok &= g->disc[z] + wp + at_err == 8;
      g->wp[z] = wp;
    } else if (want == 2) {
      ok = st == (1ull << 8 | 3ull << 12 | 3ull << 32);
    } else {
      ok = st == 1ull << 8;
    }
    if (!ok)
      return FAIL("elan4.dma_format",
                  "status word 0x%016llx (without bit 10): want %s (Z%u's discards %llu; cycle %lld)",
                  (unsigned long long)st,
                  want == 1   ? "code 8, state ERROR, position 0, 1 <= wp <= 8, wp + the discards + a dword "
                                "arriving in the error cycle = 8"
                  : want == 2 ? "queue 1 OK: fp = wp = 3, not busy"
                              : "a fresh queue: OK, positions 0, not busy",
                  z + 1, (unsigned long long)g->disc[z], (long long)t);
  }
  /* interrupt records: Z1's and Z2's cause 3 (in phases 0 and 2), then Z3's cause 2 */
  if (OUT(irq_valid_o)) {
    const bool z = g->phase < 3;
    const unsigned cause = (unsigned)OUT(irq_cause_o);
    if (z ? (g->phase & 1u || g->rec_z || cause != 3 || OUT(irq_info_o) != 0 || OUT(irq_data_o) != 8)
          : (t != g->rec_due || cause != 2 || OUT(irq_info_o) != CTX || OUT(irq_data_o) != ZCOOKIE))
      return FAIL(
          z ? "elan4.dma_format" : "elan4.dma_event",
          "irq cause %u info 0x%llx data 0x%llx in cycle %lld; want %s", cause,
          (unsigned long long)OUT(irq_info_o), (unsigned long long)OUT(irq_data_o), (long long)t,
          z ? (g->phase & 1u || g->rec_z ? "none" : "cause 3, info 0, data 8 (E_FORMAT at position 0)")
            : "cause 2 from the event, L+2 after e3");
    g->nrec++;
    if (z)
      g->rec_z = true;
    else
      g->rec_due = -1;
  } else if (t == g->rec_due) {
    return FAIL("elan4.dma_event", "no cause-2 record in cycle %lld (L+2 after the e3 read)", (long long)t);
  }
  /* a refused RUN_DMA is refused soon: a record within 400 cycles of its dword 0 (the descriptor load and
     the head buffer, §6.1, §6.2, take far less) */
  if (g->z_start > 0 && !g->rec_z && t > g->z_start + 400)
    return FAIL("elan4.dma_format",
                "Z%u: no cause-3 record 400 cycles after the RUN_DMA's dword 0 (cycle %lld)",
                g->phase < 2 ? 1 : 2, (long long)t);
  /* the next phase: the script has reached it and its last write was counted (16 cycles: §6.1's intake and
     §6.10's two cycles take far less) */
  const bool quiet = g->step < g->ns && g->s[g->step].phase > g->phase && t > g->last_acc + 16;
  if (quiet && g->phase == 0 && g->rec_z) { /* Z1's RUN_DMA's discards; then the next command */
    g->disc[0] = CNT(3);
    g->phase = 1;
    g->phase_from = t + 1;
  } else if (quiet && g->phase == 1 && (g->nq == 1 || g->wr1_acked)) { /* the next command: three discards */
    if (CNT(3) != g->disc[0] + 3)
      return FAIL("elan4.dma_format",
                  "cnt_cq_discard %llu after Z1's next command, want %llu + 3 (cycle %lld)",
                  (unsigned long long)CNT(3), (unsigned long long)g->disc[0], (long long)t);
    g->phase = 2;
    g->phase_from = t + 1;
    g->rec_z = false;
    g->z_start = 0;
  } else if (quiet && g->phase == 2 && g->rec_z) {
    g->disc[1] = CNT(3) - g->disc[0] - 3;
    g->phase = 3;
    g->phase_from = t + 1;
  }
  /* the end: Z3 done, its event and record seen, every WRITE acked */
  if (g->phase == 3 && !g->done && g->next_o == g->bign && g->tq_h == g->tq_t && g->fire_due < 0 &&
      !g->fired && g->rec_due < 0 && g->wr0_acked && g->nrec == 3) {
    g->done = true;
    g->done_at = t + 4;
  }
  if (g->done && t == g->done_at) {
    if (g->nrd_src != g->bign)
      return FAIL("elan4.dma", "Z3: %u source dwords read, want %u", g->nrd_src, g->bign);
    const struct {
      unsigned lane;
      uint64_t want;
      const char *id;
    } cn[] = {{4, 2, "elan4.dma_format"}, {7, 1u + g->nq, "elan4.dma_format"},
              {24, 1, "elan4.dma_event"}, {25, 1, "elan4.dma_event"},
              {26, 0, "elan4.dma"},       {27, 0, "elan4.dma"},
              {13, 0, "elan4.dma"},       {15, 0, "elan4.dma"}};
    for (unsigned k = 0; k < sizeof cn / sizeof cn[0]; k++)
      if (CNT(cn[k].lane) != cn[k].want)
        return FAIL(cn[k].id, "cnt_o lane %u = %llu, want %llu at the end", cn[k].lane,
                    (unsigned long long)CNT(cn[k].lane), (unsigned long long)cn[k].want);
    if (g->lm.mem[(ZPEV + 0x100u) / 8u] != 2ull << 41)
      return FAIL("elan4.dma_event", "Z3's event: final e0 0x%016llx",
                  (unsigned long long)g->lm.mem[(ZPEV + 0x100u) / 8u]);
  }
  return true;
}

static bool zfinish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  zg_t *g = ctx;
  printf("elan4_dma_edge: phase Z%u, %u records, Z1 wp %u (discards %llu), Z2 wp %u (discards %llu), Z3 %u "
         "of %u "
         "dwords sent, %u read\n",
         g->phase < 2 ? 1 : g->phase, g->nrec, g->wp[0], (unsigned long long)g->disc[0], g->wp[1],
         (unsigned long long)g->disc[1], g->next_o, g->bign, g->nrd_src);
  if (!g->done || (int64_t)cycles <= g->done_at)
    return FAIL(g->phase < 3 ? "elan4.dma_format" : "elan4.dma",
                "incomplete after %llu cycles: phase %u, %u PIO "
                "requests of %u, Z3 %u of %u dwords sent",
                (unsigned long long)cycles, g->phase, g->step, g->ns, g->next_o, g->bign);
  return true;
}

COSIM_TEST(elan4_dma_edge, .target = &elan4_default_target,
           .purpose = "docs/elan4.md §4.3: RUN_DMA of 0 and 12 bytes refused (E_FORMAT), then a 64 KB DMA",
           .ctx_size = sizeof(zg_t), .init = zinit_default, .drive = zdrive, .check = zcheck,
           .finish = zfinish)
COSIM_TEST(elan4_dma_edge_small, .target = &elan4_default_target,
           .purpose = "elan4_dma_edge with a 12 KB DMA (smoke's budget)", .ctx_size = sizeof(zg_t),
           .init = zinit_small, .drive = zdrive, .check = zcheck, .finish = zfinish)
COSIM_TEST(elan4_dma_edge_min, .target = &elan4_min_target,
           .purpose = "elan4_dma_edge on the min target (one queue), a 12 KB DMA", .ctx_size = sizeof(zg_t),
           .init = zinit_min, .drive = zdrive, .check = zcheck, .finish = zfinish)
COSIM_TEST(elan4_dma_edge_max, .target = &elan4_max_target,
           .purpose = "elan4_dma_edge on the max target, a 12 KB DMA", .ctx_size = sizeof(zg_t),
           .init = zinit_max, .drive = zdrive, .check = zcheck, .finish = zfinish)
COSIM_TEST(elan4_dma_edge_onevc, .target = &elan4_onevc_target,
           .purpose = "elan4_dma_edge on the onevc target (STEN and DMA on VC 0), a 12 KB DMA",
           .ctx_size = sizeof(zg_t), .init = zinit_onevc, .drive = zdrive, .check = zcheck, .finish = zfinish)
