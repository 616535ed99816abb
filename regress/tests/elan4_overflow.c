/* elan4 overflow: E_OVERFLOW (code 4, docs/elan4.md §6.1 arrival check 3, §4.2, §6.2, §7, §8) in
 * lockstep, with the test's own reference (§4.2's status word, §6.9's record, §6.10's counters, §4.6's
 * packets with testbench/ref/crc32_ref.h), never the model's code. The test plays the host (PIO), the
 * local memory and the neighbour (credits at once; tokens only as said below). Node 1; queue A = 0
 * (context 5) and queue B = 1 (context 6), both depth class 0 (D = DepthKb0 * 128 dwords: 128 on
 * elan4_default).
 *
 *   O1  A gets three STEN WRITEs W1, W2, W3 (positions 0..8) and then NOPs up to position D - 1, written
 *       in order (p = wp, so never E_WINDOW); B gets an INTERRUPT (cookie C1) among them. The neighbour
 *       withholds W1's and W2's tokens, so out(A) = 2 and the command processor holds W3 (§6.3, §6.4):
 *       rp stops at 6, and fp, the start of the oldest command with a packet awaiting its token (§4.2),
 *       stays 0. Once both packets are seen and B's record came: cnt_cmds = 3 (W3 not accepted), and A's
 *       status word (a PIO read) is OK, cached, busy, fp = 0, wp = D: wp lags fp by a whole depth.
 *   O2  A's next dword (page dword D mod 512, so p = D = fp + D): §6.1 check 3 puts A into ERROR with
 *       E_OVERFLOW at error position D. Accepted in t, it arrives in t+1 (§6.1 case a), so the cause-3
 *       record {info 0, data 4 | D << 8} is on irq_* in exactly t+3, and cnt_cq_error turns 1 in t+3
 *       (§5.1 rule 6, §6.9, §6.10). A's status: code 4, ERROR, cached, not busy (its data dropped, its
 *       packets abandoned, §6.2), position D, wp frozen at D (§7). The offending dword is not a discard
 *       (the queue was OK at its arrival): cnt_cq_discard stays 0. A's backing-store writes are its
 *       positions in order, each with the host's dword, none of position D, none on lm_* after t+2 (a
 *       drain granted in the error cycle t+1 is on the port in t+2, §5.1 rule 4).
 *   O3  three more dwords to A: each discarded (§7), cnt_cq_discard exactly 3.
 *   O4  the withheld tokens (acks) come: W1's and W2's packets were abandoned, so nothing happens (no
 *       W3, no resend, no protocol error). B then runs a WRITE (its packet exact, acked) and an
 *       INTERRUPT (cookie C2): the other queue is unharmed (§8). B's status: OK, fp = wp = 5, not busy.
 * Checks: elan4.overflow (everything above, and no interrupt record, packet or local write the scenario
 * does not predict). */
#include <stdio.h>
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum { NODE = 1, DEST = 0, CTXA = 5, CTXB = 6, MAXD = 8192, MAXS = MAXD + 64, TOKLAT = 6 };
#define ROUTE   0xFFFFFF31u
#define QA      0x180000u /* A's store: a multiple of 64 KB (elan4_max's class 0) */
#define QB      0x190000u
#define VA_W1   0x00007F0000300000ull
#define VA_W2   0x00007F0000300008ull
#define VA_W3   0x00007F0000300010ull
#define VA_WB   0x00007F0000302000ull
#define DAT_W1  0x0123456789ABCDEFull
#define DAT_W2  0x0F1E2D3C4B5A6978ull
#define DAT_W3  0x7777666655554444ull
#define DAT_WB  0x1122334455667788ull
#define DAT_OVF 0xBAD0BAD0BAD0BAD0ull
#define C1      0xC0C0B001u
#define C2      0xC0C0B002u
#define CQCTL   0x02000000u

typedef struct {
  uint32_t addr;
  uint64_t data;
  bool write;
  unsigned phase; /* sent once the test is in this phase */
  unsigned rd;    /* a read: which status word (1 A stalled, 2 A in ERROR, 3 B at the end) */
} oreq_t;

typedef struct {
  const elan4_view_t *vw;
  e4h_lm_t lm;
  unsigned D, vcs, nwr;
  oreq_t s[MAXS];
  unsigned ns, step, phase, nrd, rd_want[8], rd_done;
  int64_t phase_from, last_acc;
  uint64_t adat[MAXD]; /* A's dword at each position, as written */
  unsigned a_drained;  /* A's backing-store writes seen (positions 0, 1, ...) */
  /* the link */
  uint32_t w[4][32];
  unsigned nw[4], ncredit[4];
  bool in_pkt[4];
  uint32_t route[4];
  unsigned npk;             /* packets seen: W1, W2, then B's WRITE */
  int64_t tok_due[4];       /* per packet: its token's cycle (-1: withheld) */
  unsigned tok_h;           /* tokens sent */
  int64_t ovf_acc, rec_due; /* the overflowing write's acceptance; the cause-3 record's cycle */
  unsigned nrec;            /* records seen: C1, the cause 3, C2 */
  bool done;
  int64_t done_at;
} og_t;

static uint32_t qpage(unsigned q, unsigned pos) { return 0x1000u * q + 8u * (pos % 512u); }
static void os(og_t *g, bool write, uint32_t addr, uint64_t data, unsigned phase, unsigned rd) {
  g->s[g->ns++] = (oreq_t){addr, data, write, phase, rd};
  g->nwr += write;
}
/* A's dword at position pos (phase 0): also what its backing-store write must carry */
static void awrite(og_t *g, unsigned pos, uint64_t d) {
  g->adat[pos] = d;
  os(g, true, qpage(0, pos), d, 0, 0);
}
static uint64_t wr_dw0(unsigned dest) { return 1u | 1u << 4 | (uint64_t)dest << 16; } /* WRITE, n = 1 */

static void oinit(og_t *g, const elan4_view_t *vw) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->vcs = (unsigned)vw->param.NumVcs;
  g->D = (unsigned)vw->param.DepthKb0 * 128u;
  g->ovf_acc = g->rec_due = g->done_at = -1;
  for (unsigned k = 0; k < 4; k++) g->tok_due[k] = -1;
  g->lm.mem[(vw->param.RtBase + 8u * DEST) / 8u] = 1ull << 32 | ROUTE;
  /* §4.2: class 0, WRITE (47) and INTERRUPT (52) enabled, open */
  const uint64_t en = 1ull << 47 | 1ull << 52 | 1ull << 63;
  os(g, true, CQCTL, QA | (uint64_t)CTXA << 33 | en, 0, 0);
  os(g, true, CQCTL + 8u, QB | (uint64_t)CTXB << 33 | en, 0, 0);
  const uint64_t va[3] = {VA_W1, VA_W2, VA_W3}, dat[3] = {DAT_W1, DAT_W2, DAT_W3};
  for (unsigned c = 0; c < 3; c++) {
    awrite(g, 3 * c, wr_dw0(DEST));
    awrite(g, 3 * c + 1, va[c]);
    awrite(g, 3 * c + 2, dat[c]);
  }
  for (unsigned p = 9; p < g->D; p++) {
    awrite(g, p, 0); /* NOP */
    if (p == 40) os(g, true, qpage(1, 0), 7u | (uint64_t)C1 << 32, 0, 0);
  }
  os(g, false, CQCTL, 0, 0, 1);
  /* O2 */
  os(g, true, qpage(0, g->D), DAT_OVF, 1, 0);
  os(g, false, CQCTL, 0, 1, 2);
  /* O3 */
  for (unsigned i = 1; i <= 3; i++) os(g, true, qpage(0, g->D + i), wr_dw0(DEST), 2, 0);
  /* O4 */
  os(g, true, qpage(1, 1), wr_dw0(DEST), 3, 0);
  os(g, true, qpage(1, 2), VA_WB, 3, 0);
  os(g, true, qpage(1, 3), DAT_WB, 3, 0);
  os(g, true, qpage(1, 4), 7u | (uint64_t)C2 << 32, 3, 0);
  os(g, false, CQCTL + 8u, 0, 4, 3);
}
E4H_INIT(init_default, oinit, elan4_default_view)
E4H_INIT(init_max, oinit, elan4_max_view)
E4H_INIT(init_onevc, oinit, elan4_onevc_view)

#define ID "elan4.overflow"

static bool odrive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  og_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  e4h_drive_base(g->vw, in, &g->lm, cycle, NODE, g->ncredit, g->vcs);
  /* tokens (acks), in packet order: W1's and W2's withheld until O4 */
  if (g->tok_h < g->npk && g->tok_due[g->tok_h] >= 0 && g->tok_due[g->tok_h] <= t) {
    e4h_drive_token(g->vw, in, g->vw->param.VcSten, 1);
  }
  /* the script; nothing after a status read until it is answered */
  if (g->step < g->ns && g->s[g->step].phase <= g->phase && t >= g->phase_from && t >= 4 &&
      g->rd_done == g->nrd) {
    e4h_drive_pio(g->vw, in, g->s[g->step].write, g->s[g->step].addr, g->s[g->step].data, g->step & 0xFFu);
  }
  return !(g->done && t > g->done_at + 4);
}

/* a packet's TAIL: W1, W2 (queue A), then B's WRITE, word for word (§4.6) */
static bool opkt(og_t *g, unsigned vc, int64_t t, uint32_t crc, cosim_msg_t *msg) {
  static const uint64_t va[3] = {VA_W1, VA_W2, VA_WB}, dat[3] = {DAT_W1, DAT_W2, DAT_WB};
  const unsigned k = g->npk;
  if (k >= 3 || (k == 2 && g->phase < 3))
    return FAIL(ID, "packet %u on VC %u (phase O%u, cycle %lld): W3 or a resend of A's, or B's early", k + 1,
                vc, g->phase + 1, (long long)t);
  const uint32_t want[6] = {1u | 1u << 4 | (k < 2 ? CTXA : CTXB) << 16,
                            NODE,
                            (uint32_t)va[k],
                            (uint32_t)(va[k] >> 32),
                            (uint32_t)dat[k],
                            (uint32_t)(dat[k] >> 32)};
  if (vc != g->vw->param.VcSten || g->nw[vc] != 6 || memcmp(g->w[vc], want, sizeof want) ||
      crc != crc32_ref_words(want, 6) || g->route[vc] != ROUTE)
    return FAIL(ID, "packet %u (%s): VC %u, %u words, CRC 0x%08x: not §4.6's (cycle %lld)", k + 1,
                k < 2 ? "A's WRITE" : "B's WRITE", vc, g->nw[vc], crc, (long long)t);
  g->tok_due[k] = k < 2 ? -1 : t + TOKLAT;
  g->npk++;
  return true;
}

static bool ocheck(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  og_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  const elan4_view_t *vw = g->vw;
  const unsigned D = g->D;
  if (INP(ht_valid_i) && OUT(ht_ready_o)) {
    const oreq_t *r = &g->s[g->step++];
    if (!r->write) g->rd_want[g->nrd++ % 8] = r->rd;
    if (r->write && r->addr == qpage(0, D) && g->phase == 1) {
      g->ovf_acc = t;
      g->rec_due = t + 3; /* arrives t+1 (§6.1 a), raised there, shown 2 cycles later (§6.9) */
    }
    g->last_acc = t;
  }
  if (INP(in_valid_i) && INP(in_kind_i) == 3) g->tok_h++;
  /* local memory: descriptors, the route, the two stores; A's drains in order, with the host's data */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o), pa = 8u * a;
    const bool desc = pa >= vw->param.DescBase && pa < vw->param.DescBase + 16u * vw->param.NumQueues;
    const bool sa = pa >= QA && pa < QA + 8u * D, sb = pa >= QB && pa < QB + 8u * D;
    if (OUT(lm_write_o)) {
      if (sa) {
        const unsigned p = g->a_drained;
        if (p >= D || (pa - QA) / 8u != p || OUT(lm_wdata_o) != g->adat[p] ||
            (g->ovf_acc >= 0 && t > g->ovf_acc + 2))
          return FAIL(ID,
                      "A's backing-store write at 0x%x data 0x%016llx (cycle %lld): want position %u's dword "
                      "at 0x%x, positions < %u only, none after the error cycle + 1 (overflowing write "
                      "accepted in %lld)",
                      pa, (unsigned long long)OUT(lm_wdata_o), (long long)t, p, QA + 8u * (p % D), D,
                      (long long)g->ovf_acc);
        g->a_drained++;
      } else if (!desc && !sb)
        return FAIL(ID, "a local write at 0x%x, not a descriptor or a queue's store (cycle %lld)", pa,
                    (long long)t);
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else {
      if (!desc && !sa && !sb && pa != vw->param.RtBase + 8u * DEST)
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
      if (!opkt(g, vc, t, w, msg)) return false;
    }
  }
  /* interrupt records: B's C1, A's cause 3 in exactly rec_due, B's C2 */
  if (t == g->rec_due - 1 && CNT(4) != 0)
    return FAIL(ID, "cnt_cq_error %llu in cycle %lld, want 0 until the error's cycle + 2",
                (unsigned long long)CNT(4), (long long)t);
  if (t == g->rec_due && CNT(4) != 1)
    return FAIL(ID,
                "cnt_cq_error %llu in cycle %lld, want 1 (the error in the overflowing write's arrival %lld, "
                "shown 2 cycles later)",
                (unsigned long long)CNT(4), (long long)t, (long long)g->ovf_acc + 1);
  if (OUT(irq_valid_o)) {
    const unsigned cause = (unsigned)OUT(irq_cause_o), k = g->nrec;
    const uint64_t info = OUT(irq_info_o), data = OUT(irq_data_o);
    const bool ok = k == 0   ? cause == 1 && info == 1 && data == C1
                    : k == 1 ? t == g->rec_due && cause == 3 && info == 0 && data == (4u | (uint64_t)D << 8)
                    : k == 2 ? g->phase >= 3 && cause == 1 && info == 1 && data == C2
                             : false;
    if (!ok)
      return FAIL(ID, "irq cause %u info 0x%llx data 0x%llx in cycle %lld; want %s (cause-3 cycle %lld)",
                  cause, (unsigned long long)info, (unsigned long long)data, (long long)t,
                  k == 0   ? "cause 1, info 1, data C1 (B's INTERRUPT)"
                  : k == 1 ? "cause 3, info 0, data 4 | D << 8 (E_OVERFLOW at D) in the cause-3 cycle"
                  : k == 2 ? "cause 1, info 1, data C2 (B's INTERRUPT after A's error)"
                           : "none",
                  (long long)(k == 1 ? g->rec_due : -1));
    g->nrec++;
  } else if (t == g->rec_due)
    return FAIL(ID, "no cause-3 record in cycle %lld (E_OVERFLOW: the overflowing write's acceptance + 3)",
                (long long)t);
  /* status words (§4.2) */
  if (OUT(ht_rvalid_o)) {
    const uint64_t st = OUT(ht_rdata_o);
    const unsigned want = g->rd_want[g->rd_done++ % 8];
    const uint64_t w = want == 1   ? 1ull << 8 | 1ull << 10 | 1ull << 11 | (uint64_t)D << 32
                       : want == 2 ? 4u | 2ull << 8 | 1ull << 10 | (uint64_t)D << 12 | (uint64_t)D << 32
                                   : 1ull << 8 | 1ull << 10 | 5ull << 12 | 5ull << 32;
    if (st != w)
      return FAIL(ID, "status word 0x%016llx, want 0x%016llx (%s; cycle %lld)", (unsigned long long)st,
                  (unsigned long long)w,
                  want == 1   ? "A: OK, cached, busy, fp 0, wp D"
                  : want == 2 ? "A: E_OVERFLOW, ERROR, cached, not busy, position D, wp D"
                              : "B: OK, cached, not busy, fp = wp = 5",
                  (long long)t);
  }
  /* the phases: the script reached the next one's requests and its last one was counted */
  const bool quiet =
      g->step < g->ns && g->s[g->step].phase > g->phase && t > g->last_acc + 16 && g->rd_done == g->nrd;
  if (quiet && g->phase == 0 && g->npk == 2 && g->nrec == 1) {
    if (CNT(7) != 3)
      return FAIL(ID, "cnt_cmds %llu before the overflowing write, want 3 (W1, W2, C1; W3 held, §6.3)",
                  (unsigned long long)CNT(7));
    g->phase = 1;
    g->phase_from = t + 1;
  } else if (quiet && g->phase == 1 && g->nrec == 2) {
    if (CNT(3) != 0)
      return FAIL(ID, "cnt_cq_discard %llu after the error, want 0 (the offending dword is no discard)",
                  (unsigned long long)CNT(3));
    g->phase = 2;
    g->phase_from = t + 1;
  } else if (quiet && g->phase == 2) {
    if (CNT(3) != 3)
      return FAIL(ID, "cnt_cq_discard %llu after three writes to A in ERROR, want 3 (cycle %lld)",
                  (unsigned long long)CNT(3), (long long)t);
    g->phase = 3;
    g->phase_from = t + 1;
    for (unsigned k = 0; k < 2; k++) g->tok_due[k] = t + 1 + k; /* the withheld acks */
  } else if (quiet && g->phase == 3 && g->npk == 3 && g->tok_h == 3 && g->nrec == 3) {
    g->phase = 4;
    g->phase_from = t + 1;
  }
  if (g->phase == 4 && !g->done && g->step == g->ns && g->rd_done == g->nrd) {
    g->done = true;
    g->done_at = t + 4;
  }
  if (g->done && t == g->done_at) {
    const struct {
      unsigned lane;
      uint64_t want;
    } cn[] = {{0, g->nwr}, {1, 3},  {2, 0},  {3, 3},  {4, 1},  {5, 2},  {6, 0},  {7, 5},
              {8, 3},      {11, 3}, {12, 3}, {13, 0}, {14, 0}, {15, 0}, {26, 0}, {27, 0}};
    for (unsigned k = 0; k < sizeof cn / sizeof cn[0]; k++)
      if (CNT(cn[k].lane) != cn[k].want)
        return FAIL(ID, "cnt_o lane %u = %llu, want %llu at the end (cycle %lld)", cn[k].lane,
                    (unsigned long long)CNT(cn[k].lane), (unsigned long long)cn[k].want, (long long)t);
  }
  return true;
}

static bool ofinish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  og_t *g = ctx;
  printf(
      "elan4_overflow: D %u, phase O%u, overflowing write accepted in cycle %lld, record in %lld, %u of A's "
      "dwords drained, %u packets, %u records\n",
      g->D, g->phase + 1, (long long)g->ovf_acc, (long long)g->rec_due, g->a_drained, g->npk, g->nrec);
  if (!g->done || (int64_t)cycles <= g->done_at)
    return FAIL(ID, "incomplete after %llu cycles: phase O%u, %u PIO requests of %u, %u packets, %u records",
                (unsigned long long)cycles, g->phase + 1, g->step, g->ns, g->npk, g->nrec);
  return true;
}

COSIM_TEST(elan4_overflow, .target = &elan4_default_target,
           .purpose = "docs/elan4.md §6.1/§7: E_OVERFLOW (code 4) when fp lags wp by a whole depth (tokens "
                      "withheld), then discards; another queue unharmed",
           .ctx_size = sizeof(og_t), .init = init_default, .drive = odrive, .check = ocheck,
           .finish = ofinish)
COSIM_TEST(elan4_overflow_max, .target = &elan4_max_target,
           .purpose = "elan4_overflow on the max target (class 0 = 8192 dwords)", .ctx_size = sizeof(og_t),
           .init = init_max, .drive = odrive, .check = ocheck, .finish = ofinish)
COSIM_TEST(elan4_overflow_onevc, .target = &elan4_onevc_target,
           .purpose = "elan4_overflow on the onevc target", .ctx_size = sizeof(og_t), .init = init_onevc,
           .drive = odrive, .check = ocheck, .finish = ofinish)
