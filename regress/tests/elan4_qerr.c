/* elan4 qerr: the queue error codes no other lockstep test produces, E_CONFIG (1), E_RETRY (11) and
 * E_GAP (12) (docs/elan4.md §4.2, §6.1 "Gap timeout", §6.4, §7), in lockstep, each checked from the spec:
 * the cause-3 record {info q, data code | position << 8} in its exact cycle (§6.9: raised in u, shown in
 * u+2), cnt_cq_error in the same cycle (§6.10), the status word (§4.2), writes discarded after
 * (cnt_cq_discard), another queue unharmed. The test plays the host (PIO), the local memory and the
 * neighbour (credits at once, tokens as said below); its reference is its own, never the model's code.
 * Node 1, destination node 0; elan4_default (NumCq 8, OooWindow 16, RetryLimit R, RetryBackoff K and
 * GapTimeout G read from the target).
 *
 *   Q1  E_CONFIG on a queue that is not cached: CQCTL(2) open with must-be-0 bit 54 set. Accepted in t,
 *       raised in t+1 (§7's table; §7 "every entry into ERROR raises cause 3 and counts cnt_cq_error"):
 *       record {2, 1} on irq_* in t+3, cnt_cq_error 1 in t+3. Its status (uncached: from d1, §6.1) is
 *       code 1, ERROR, not cached, position 0, wp 0; a write to its page then misses, installs the ERROR
 *       descriptor and is discarded; its status is then the same, cached. Queue 3 (legal CQCTL) runs an
 *       INTERRUPT (cookie C1): it is cached and OK.
 *   Q2  E_CONFIG on a cached queue: CQCTL(3) open with base 8 bytes past a multiple of its depth: the
 *       slot is re-initialised in t+1 (§6.1) into ERROR E_CONFIG: record {3, 1} in t+3; status code 1,
 *       ERROR, cached, position 0, wp 0; a write to it is discarded. (The third E_CONFIG condition, the
 *       store beyond 2^31, cannot be met by an aligned base: every depth is a power of two dividing 2^31.)
 *   Q3  E_RETRY: queue 0 (context 5) sends one STEN WRITE; the neighbour nacks each try, R + 1 nacks:
 *       every try the same packet (§4.6), try k's HEAD after nack k + K·k (§6.4's back-off); the last nack
 *       (cycle n) fails it: record {0, 11 | 0 << 8} in n+2, cnt_cq_error in n+2; no further try; status
 *       code 11, ERROR, cached, not busy, position 0, wp 3; a later write discarded.
 *   Q4  E_GAP: queue 1 (context 6) gets a NOP at position 0 (in order, runs) and then page dword 2 (p = 2,
 *       wp = 1): an out-of-order dword, arriving in t+1 and so held at the start of t+2 .. t+1+G: E_GAP at
 *       position wp = 1 in t+1+G, record {1, 12 | 1 << 8} in t+3+G; status code 12, ERROR, cached, not
 *       busy, position 1, wp 1; a later write discarded. (No write arrives in the timeout's own cycle: the
 *       spec leaves its count open, §14.)
 *   Q5  queue 5 (context 7), opened in Q1, runs an INTERRUPT (cookie C2) after all this: status OK, fp =
 *       wp = 1. End counters exact.
 * elan4_qerr_min (elan4_min: one queue, OooWindow 1, RetryLimit 0): queue 0 plays every part: Q1 on it
 * (uncached), a legal CQCTL (ERROR is left only so, §7) and C1, Q2, a legal CQCTL and Q3 (one nack fails
 * it), then as Q4 a legal CQCTL and one WRITE whose token never comes: it times out AckTimeout cycles
 * after its TAIL was decided (the cycle before the TAIL on out_*, §6.4's "sent" read as elan4_dma's D8 reads
 * it) and, RetryLimit 0, fails: E_RETRY record 2 cycles later, cnt_timeouts 1; then the status, a legal
 * CQCTL and C2 as Q5. No E_GAP there (with OooWindow 1 an out-of-order dword is E_WINDOW).
 * Check: elan4.qerr (everything above, and no interrupt record, packet, local write or host request the
 * scenario does not predict). */
#include <stdio.h>
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum { NODE = 1, DEST = 0, CTXA = 5, CTXB = 6, CTXE = 7, MAXS = 64, MAXR = 16, TOKLAT = 5, NPH = 7 };
#define ROUTE  0xFFFFFF31u
#define QSTORE 0x180000u /* queue q's store at QSTORE + 0x10000·q: 64 KB multiples */
#define VA_W   0x00007F0000300000ull
#define DAT_W  0x0123456789ABCDEFull
#define C1     0xC0C0E001u
#define C2     0xC0C0E002u
#define CQCTL  0x02000000u
#define EN     (1ull << 47 | 1ull << 52 | 1ull << 63) /* WRITE, INTERRUPT, open */

typedef struct {
  uint32_t addr;
  uint64_t data;
  bool write;
  unsigned phase; /* sent once the test is in this phase */
  uint64_t st;    /* a read: the status word it must return */
  unsigned rec;   /* a write: 1 E_CONFIG record due in t+3 (q from the address); 2 the gap dword; 3 C1/C2 */
} qreq_t;

typedef struct {
  unsigned cause, info;
  uint64_t data;
  int64_t due; /* its cycle on irq_*, or -1 (an INTERRUPT command: any cycle, in order) */
} qrec_t;

typedef struct {
  const elan4_view_t *vw;
  e4h_lm_t lm;
  unsigned vcs, R, K, G, nwr;
  bool one; /* a one-queue target (elan4_min): queue 0 plays every part, no E_GAP */
  qreq_t s[MAXS];
  unsigned ns, step, phase, nrd, rd_done;
  uint64_t rd_want[8];
  int64_t phase_from, last_acc;
  qrec_t rec[MAXR];
  unsigned nexp, nrec, nerr; /* records expected so far, seen; cause-3 records expected */
  /* the link */
  uint32_t w[4][32];
  unsigned nw[4], ncredit[4];
  bool in_pkt[4];
  uint32_t route[4];
  unsigned npk, ntok; /* queue 0's tries seen; nacks sent */
  int64_t tok_due, last_nack;
  bool done;
  int64_t done_at;
} qg_t;

static uint32_t qpage(unsigned q, unsigned k) { return 0x1000u * q + 8u * k; }
static uint64_t cq(unsigned q, unsigned ctx) { return (QSTORE + 0x10000u * q) | (uint64_t)ctx << 33 | EN; }
static void qs(qg_t *g, bool write, uint32_t addr, uint64_t data, unsigned phase, uint64_t st, unsigned rec) {
  g->s[g->ns++] = (qreq_t){addr, data, write, phase, st, rec};
  g->nwr += write;
}
/* status words (§4.2): ERROR with code and position, cached or not; OK with fp = wp */
static uint64_t st_err(unsigned code, bool cached, unsigned pos, unsigned wp) {
  return code | 2ull << 8 | (uint64_t)cached << 10 | (uint64_t)pos << 12 | (uint64_t)wp << 32;
}
static uint64_t st_ok(unsigned fp, unsigned wp) {
  return 1ull << 8 | 1ull << 10 | (uint64_t)fp << 12 | (uint64_t)wp << 32;
}

static void qinit(qg_t *g, const elan4_view_t *vw) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->vcs = (unsigned)vw->param.NumVcs;
  g->R = (unsigned)vw->param.RetryLimit;
  g->K = (unsigned)vw->param.RetryBackoff;
  g->G = (unsigned)vw->param.GapTimeout;
  g->tok_due = g->last_nack = g->done_at = -1;
  g->lm.mem[(vw->param.RtBase + 8u * DEST) / 8u] = 1ull << 32 | ROUTE;
  g->one = vw->param.NumQueues == 1;
  if (g->one) { /* Q1 on queue 0, then the queue re-opened for each next part */
    qs(g, true, CQCTL, cq(0, CTXA) | 1ull << 54, 0, 0, 1);
    qs(g, false, CQCTL, 0, 0, st_err(1, false, 0, 0), 0);
    qs(g, true, qpage(0, 0), 0, 0, 0, 0);
    qs(g, false, CQCTL, 0, 0, st_err(1, true, 0, 0), 0);
    qs(g, true, CQCTL, cq(0, CTXA), 0, 0, 0);
    qs(g, true, qpage(0, 0), 7u | (uint64_t)C1 << 32, 0, 0, 3);
    qs(g, true, CQCTL, cq(0, CTXA) + 8u, 1, 0, 1);
    qs(g, false, CQCTL, 0, 1, st_err(1, true, 0, 0), 0);
    qs(g, true, qpage(0, 0), 0, 1, 0, 0);
    qs(g, true, CQCTL, cq(0, CTXA), 2, 0, 0);
  } else {
    /* Q1 */
    qs(g, true, CQCTL, cq(0, CTXA), 0, 0, 0);
    qs(g, true, CQCTL + 8u, cq(1, CTXB), 0, 0, 0);
    qs(g, true, CQCTL + 24u, cq(3, CTXA), 0, 0, 0);
    qs(g, true, CQCTL + 40u, cq(5, CTXE), 0, 0, 0);
    qs(g, true, CQCTL + 16u, cq(2, CTXA) | 1ull << 54, 0, 0, 1); /* must-be-0 bit 54 */
    qs(g, false, CQCTL + 16u, 0, 0, st_err(1, false, 0, 0), 0);
    qs(g, true, qpage(2, 0), 0, 0, 0, 0); /* NOP: discarded */
    qs(g, false, CQCTL + 16u, 0, 0, st_err(1, true, 0, 0), 0);
    qs(g, true, qpage(3, 0), 7u | (uint64_t)C1 << 32, 0, 0, 3);
    /* Q2: base 8 bytes off its depth's multiple */
    qs(g, true, CQCTL + 24u, cq(3, CTXA) + 8u, 1, 0, 1);
    qs(g, false, CQCTL + 24u, 0, 1, st_err(1, true, 0, 0), 0);
    qs(g, true, qpage(3, 0), 0, 1, 0, 0);
  }
  /* Q3: WRITE, n = 1, to DEST */
  qs(g, true, qpage(0, 0), 1u | 1u << 4 | (uint64_t)DEST << 16, 2, 0, 0);
  qs(g, true, qpage(0, 1), VA_W, 2, 0, 0);
  qs(g, true, qpage(0, 2), DAT_W, 2, 0, 0);
  qs(g, false, CQCTL, 0, 3, st_err(11, true, 0, 3), 0);
  qs(g, true, qpage(0, 3), 0, 3, 0, 0);
  if (g->one) { /* Q4 is the timeout: queue 0 re-opened, one WRITE whose token never comes */
    qs(g, true, CQCTL, cq(0, CTXA), 4, 0, 0);
    qs(g, true, qpage(0, 0), 1u | 1u << 4 | (uint64_t)DEST << 16, 4, 0, 0);
    qs(g, true, qpage(0, 1), VA_W, 4, 0, 0);
    qs(g, true, qpage(0, 2), DAT_W, 4, 0, 0);
    qs(g, false, CQCTL, 0, 5, st_err(11, true, 0, 3), 0);
    /* Q5 on queue 0, re-opened */
    qs(g, true, CQCTL, cq(0, CTXA), 5, 0, 0);
    qs(g, true, qpage(0, 0), 7u | (uint64_t)C2 << 32, 5, 0, 3);
    qs(g, false, CQCTL, 0, 6, st_ok(1, 1), 0);
    return;
  }
  /* Q4 */
  qs(g, true, qpage(1, 0), 0, 3, 0, 0);
  qs(g, true, qpage(1, 2), 0x5A5A5A5A5A5A5A5Aull, 4, 0, 2);
  qs(g, false, CQCTL + 8u, 0, 5, st_err(12, true, 1, 1), 0);
  qs(g, true, qpage(1, 1), 0, 5, 0, 0);
  /* Q5 */
  qs(g, true, qpage(5, 0), 7u | (uint64_t)C2 << 32, 5, 0, 3);
  qs(g, false, CQCTL + 40u, 0, 6, st_ok(1, 1), 0); /* once C2's record came */
}
E4H_INIT(init_default, qinit, elan4_default_view)
E4H_INIT(init_min, qinit, elan4_min_view)

#define ID "elan4.qerr"

static bool qdrive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  qg_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  e4h_drive_base(g->vw, in, &g->lm, cycle, NODE, g->ncredit, g->vcs);
  if (g->tok_due >= 0 && g->tok_due == t) { /* a nack (in_data_i bit 0 = 0) */
    e4h_drive_token(g->vw, in, g->vw->param.VcSten, 0);
  }
  if (g->step < g->ns && g->s[g->step].phase <= g->phase && t >= g->phase_from && t >= 4 &&
      g->rd_done == g->nrd) {
    e4h_drive_pio(g->vw, in, g->s[g->step].write, g->s[g->step].addr, g->s[g->step].data, g->step & 0xFFu);
  }
  return !(g->done && t > g->done_at + 4);
}

static void expect_rec(qg_t *g, unsigned cause, unsigned info, uint64_t data, int64_t due) {
  if (g->nexp < MAXR) g->rec[g->nexp++] = (qrec_t){cause, info, data, due};
  g->nerr += cause == 3;
}

/* a TAIL on out_*: queue 0's WRITE, try npk + 1, word for word (§4.6) */
static bool qpkt(qg_t *g, unsigned vc, int64_t t, uint32_t crc, cosim_msg_t *msg) {
  const uint32_t want[6] = {
      1u | 1u << 4 | CTXA << 16, NODE, (uint32_t)VA_W, (uint32_t)(VA_W >> 32), (uint32_t)DAT_W,
      (uint32_t)(DAT_W >> 32)};
  const bool tmo = g->one && g->phase == 4 && g->npk == g->R + 1; /* Q4 on one queue: the timeout */
  if (!tmo && (g->phase != 2 || g->npk > g->R))
    return FAIL(ID,
                "packet %u on VC %u in phase Q%u (cycle %lld): want R + 1 = %u tries of queue 0's WRITE only",
                g->npk + 1, vc, g->phase + 1, (long long)t, g->R + 1);
  if (vc != g->vw->param.VcSten || g->nw[vc] != 6 || memcmp(g->w[vc], want, sizeof want) ||
      crc != crc32_ref_words(want, 6) || g->route[vc] != ROUTE)
    return FAIL(ID, "try %u of queue 0's WRITE: VC %u, %u words, CRC 0x%08x: not §4.6's (cycle %lld)",
                g->npk + 1, vc, g->nw[vc], crc, (long long)t);
  g->npk++;
  if (tmo) /* no token: it times out AckTimeout after its TAIL was decided (t - 1, as elan4_dma's D8, §6.4),
              failing it (RetryLimit 0): E_RETRY in that cycle, shown 2 later */
    expect_rec(g, 3, 0, 11u, t - 1 + (int64_t)g->vw->param.AckTimeout + 2);
  else
    g->tok_due = t + TOKLAT;
  return true;
}

static bool qcheck(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  qg_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  const elan4_view_t *vw = g->vw;
  if (INP(ht_valid_i) && OUT(ht_ready_o)) {
    const qreq_t *r = &g->s[g->step++];
    if (!r->write) g->rd_want[g->nrd++ % 8] = r->st;
    if (r->rec == 1) /* E_CONFIG, raised in t+1 (§7), shown 2 cycles later (§6.9) */
      expect_rec(g, 3, (r->addr - CQCTL) / 8u, 1u, t + 3);
    else if (r->rec == 2) /* arrives t+1, held at the start of t+2 .. t+1+G */
      expect_rec(g, 3, 1, 12u | 1u << 8, t + 3 + g->G);
    else if (r->rec == 3)
      expect_rec(g, 1, r->addr / 0x1000u, r->data >> 32, -1);
    g->last_acc = t;
  }
  if (INP(in_valid_i) && INP(in_kind_i) == 3) {
    g->ntok++;
    g->last_nack = t;
    g->tok_due = -1;
    if (g->ntok == g->R + 1) /* the failing nack: E_RETRY in t (token handling), shown in t+2 */
      expect_rec(g, 3, 0, 11u, t + 2);
  }
  /* local memory: descriptors, the route, the stores */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o), pa = 8u * a;
    const bool desc = pa >= vw->param.DescBase && pa < vw->param.DescBase + 16u * vw->param.NumQueues;
    const bool store = pa >= QSTORE && pa < QSTORE + 0x60000u;
    if (OUT(lm_write_o)) {
      if (!desc && !store)
        return FAIL(ID, "a local write at 0x%x, not a descriptor or a queue's store (cycle %lld)", pa,
                    (long long)t);
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else {
      if (!desc && !store && pa != vw->param.RtBase + 8u * DEST)
        return FAIL(ID, "a local read at 0x%x (cycle %lld)", pa, (long long)t);
      e4h_lm_read(&g->lm, cycle, a);
    }
  }
  if (OUT(hm_valid_o)) return FAIL(ID, "a host request (cycle %lld)", (long long)t);
  /* the link */
  if (OUT(out_valid_o)) {
    const unsigned kind = (unsigned)OUT(out_kind_o), vc = (unsigned)OUT(out_vc_o) & 3u;
    const uint32_t w = (uint32_t)OUT(out_data_o);
    if (kind == 3) return FAIL(ID, "a TOKEN on out_* (cycle %lld)", (long long)t);
    g->ncredit[vc]++;
    if (kind == 0) {
      if (g->in_pkt[vc]) return FAIL(ID, "a HEAD inside a packet (cycle %lld)", (long long)t);
      /* try k+1 (k = npk >= 1) is eligible from nack k's cycle + K·k (§6.4) */
      if (g->npk > 0 && t <= g->last_nack + (int64_t)g->K * g->npk)
        return FAIL(ID, "try %u's HEAD in cycle %lld, nack %u in %lld: not after its back-off K·%u = %u",
                    g->npk + 1, (long long)t, g->npk, (long long)g->last_nack, g->npk, g->K * g->npk);
      g->in_pkt[vc] = true;
      g->nw[vc] = 0;
      g->route[vc] = w;
    } else if (!g->in_pkt[vc]) {
      return FAIL(ID, "a flit outside a packet (cycle %lld)", (long long)t);
    } else if (kind == 1) {
      if (g->nw[vc] == 32) return FAIL(ID, "a packet longer than 32 words (cycle %lld)", (long long)t);
      g->w[vc][g->nw[vc]++] = w;
    } else {
      g->in_pkt[vc] = false;
      if (!qpkt(g, vc, t, w, msg)) return false;
    }
  }
  /* interrupt records, in order; a cause-3 record and its cnt_cq_error step in exactly their cycle */
  for (unsigned k = g->nrec; k < g->nexp; k++) {
    const qrec_t *e = &g->rec[k];
    if (e->cause != 3) continue;
    unsigned before = 0;
    for (unsigned j = 0; j < k; j++) before += g->rec[j].cause == 3;
    if (t == e->due - 1 && CNT(4) != before)
      return FAIL(ID, "cnt_cq_error %llu in cycle %lld, want %u until the error's cycle + 2",
                  (unsigned long long)CNT(4), (long long)t, before);
    if (t == e->due && CNT(4) != before + 1)
      return FAIL(ID, "cnt_cq_error %llu in cycle %lld, want %u (error code %llu, shown 2 cycles after it)",
                  (unsigned long long)CNT(4), (long long)t, before + 1,
                  (unsigned long long)(e->data & 0xFFu));
    break;
  }
  if (OUT(irq_valid_o)) {
    const unsigned cause = (unsigned)OUT(irq_cause_o);
    const uint64_t info = OUT(irq_info_o), data = OUT(irq_data_o);
    const qrec_t *e = g->nrec < g->nexp ? &g->rec[g->nrec] : NULL;
    if (!e || cause != e->cause || info != e->info || data != e->data || (e->due >= 0 && t != e->due))
      return FAIL(ID,
                  "irq cause %u info 0x%llx data 0x%llx in cycle %lld; want %s%u info %u data 0x%llx in %lld",
                  cause, (unsigned long long)info, (unsigned long long)data, (long long)t,
                  e ? "cause " : "none: ", e ? e->cause : 0, e ? e->info : 0,
                  e ? (unsigned long long)e->data : 0ull, e ? (long long)e->due : -1ll);
    g->nrec++;
  } else if (g->nrec < g->nexp && g->rec[g->nrec].due == t) {
    const qrec_t *e = &g->rec[g->nrec];
    return FAIL(ID, "no record in cycle %lld: want cause %u info %u data 0x%llx (code %llu at position %llu)",
                (long long)t, e->cause, e->info, (unsigned long long)e->data,
                (unsigned long long)(e->data & 0xFFu), (unsigned long long)(e->data >> 8));
  }
  /* status words (§4.2) */
  if (OUT(ht_rvalid_o)) {
    const uint64_t st = OUT(ht_rdata_o), w = g->rd_want[g->rd_done++ % 8];
    if (st != w)
      return FAIL(ID, "status word 0x%016llx, want 0x%016llx (phase Q%u, cycle %lld)", (unsigned long long)st,
                  (unsigned long long)w, g->phase + 1, (long long)t);
  }
  /* the phases: the script reached the next one's requests, its last one answered, its records seen */
  const bool quiet = g->step < g->ns && g->s[g->step].phase > g->phase && t > g->last_acc + 16 &&
                     g->rd_done == g->nrd && g->nrec == g->nexp;
  static const struct {
    unsigned disc, err; /* cnt_cq_discard, cnt_cq_error at the phase's end */
  } want[2][NPH - 1] = {{{1, 1}, {2, 2}, {2, 3}, {3, 3}, {3, 4}, {4, 4}},
                        {{1, 1}, {2, 2}, {2, 3}, {3, 3}, {3, 4}, {3, 4}}}; /* one queue: Q4 a timeout */
  bool next = false;
  if (quiet && g->phase < NPH - 1) {
    if (g->phase == 2)
      next = g->npk == g->R + 1 && g->ntok == g->R + 1 && t > g->last_nack + (int64_t)g->K * (g->R + 1) + 64;
    else
      next = g->phase != 4 || g->nerr == 4;
  }
  if (next) {
    if (CNT(3) != want[g->one][g->phase].disc || CNT(4) != want[g->one][g->phase].err)
      return FAIL(ID, "after phase Q%u: cnt_cq_discard %llu, cnt_cq_error %llu; want %u, %u (cycle %lld)",
                  g->phase + 1, (unsigned long long)CNT(3), (unsigned long long)CNT(4),
                  want[g->one][g->phase].disc, want[g->one][g->phase].err, (long long)t);
    g->phase++;
    g->phase_from = t + 1;
  }
  if (g->phase == NPH - 1 && !g->done && g->step == g->ns && g->rd_done == g->nrd && g->nrec == g->nexp &&
      g->nexp == 6) {
    g->done = true;
    g->done_at = t + 4;
  }
  if (g->done && t == g->done_at) {
    const struct {
      unsigned lane;
      uint64_t want;
    } cn[] = {{0, g->nwr},      {1, 6},       {2, 0},
              {3, 4u - g->one}, {4, 4},       {5, g->one ? 1u : 5u},
              {6, 0},           {7, 4},       {8, g->R + 1 + g->one},
              {11, g->R + 1},   {12, 0},      {13, g->R + 1},
              {14, g->R},       {15, g->one}, {26, 0},
              {27, 0}};
    for (unsigned k = 0; k < sizeof cn / sizeof cn[0]; k++)
      if (CNT(cn[k].lane) != cn[k].want)
        return FAIL(ID, "cnt_o lane %u = %llu, want %llu at the end (cycle %lld)", cn[k].lane,
                    (unsigned long long)CNT(cn[k].lane), (unsigned long long)cn[k].want, (long long)t);
  }
  return true;
}

static bool qfinish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  qg_t *g = ctx;
  printf("elan4_qerr: phase Q%u, %u records of %u expected:", g->phase + 1, g->nrec, g->nexp);
  for (unsigned k = 0; k < g->nexp; k++)
    printf(" %u/%u/0x%llx@%lld", g->rec[k].cause, g->rec[k].info, (unsigned long long)g->rec[k].data,
           (long long)g->rec[k].due);
  printf("; %u tries, %u nacks (last in %lld)\n", g->npk, g->ntok, (long long)g->last_nack);
  if (!g->done || (int64_t)cycles <= g->done_at)
    return FAIL(ID, "incomplete after %llu cycles: phase Q%u, %u PIO requests of %u, %u tries, %u records",
                (unsigned long long)cycles, g->phase + 1, g->step, g->ns, g->npk, g->nrec);
  return true;
}

COSIM_TEST(
    elan4_qerr, .target = &elan4_default_target,
    .purpose = "docs/elan4.md §7: E_CONFIG (cached and not), E_RETRY (RetryLimit + 1 nacks), E_GAP "
               "(GapTimeout), each with its record, counter, status and discards; another queue unharmed",
    .ctx_size = sizeof(qg_t), .init = init_default, .drive = qdrive, .check = qcheck, .finish = qfinish)
COSIM_TEST(elan4_qerr_min, .target = &elan4_min_target,
           .purpose = "elan4_qerr on the min target: queue 0 only (E_CONFIG uncached then cached, re-opened; "
                      "E_RETRY at the first nack, RetryLimit 0); no E_GAP (OooWindow 1)",
           .ctx_size = sizeof(qg_t), .init = init_min, .drive = qdrive, .check = qcheck, .finish = qfinish)
