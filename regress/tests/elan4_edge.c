/* elan4 edge: two directed destination-side scenarios of docs/elan4.md that
 * no other test reaches, each the scenario of an RTL assertion
 * (rtl/elan4/elan4.bugs), with the test's own reference: packets built here
 * from §4.6 (CRC by testbench/ref/crc32_ref.h), tables from §4.4/§4.5,
 * never the model's code. The test plays the neighbour on in_*, the local
 * memory on lm_* and the host on hm_*.
 *
 * elan4_rx_busy_vc (§6.5 receiver table, §8 "HEAD on a busy VC";
 * rx_queue_bound): hm_ready_i is held low, so packet P0 (a 2-dword WRITE to
 * a host page, VC 0) stalls the input processor at its second host dword
 * (the first waits in the arbiter's output register). Meanwhile P1 (a
 * WRITE to local memory, VC 1) arrives and waits FULL, and then two
 * intruders I1, I2 (WRITEs to other local dwords) arrive on VC 1 before
 * P1's token: each is a HEAD on a FULL register, a protocol error, dropped
 * up to its TAIL with no token and no effect. hm_ready_i then goes high.
 * Checks (elan4.rx): a credit for every flit the cycle after; exactly two
 * tokens, P0's ack on VC 0 then P1's ack on VC 1; P0's dwords on hm_*, P1's
 * on lm_*, no write of the intruders' data; at the end cnt_rx_pkts 2,
 * cnt_tx_tokens 2, cnt_proto_err 2. elan4.scenario: both intruders' TAILs
 * went in before P1's token and before P0's host write was taken (else the
 * run did not test a busy VC).
 *
 * elan4_ep_fifo_full (§6.7 event FIFO; ep_fifo_bound): SETEVENT S0 fires a
 * COPY event of 64 dwords (local to local), then SETEVENTs S1..S(EpFifo+1)
 * to an INTERRUPT event that never fires arrive on alternating VCs, each as
 * soon as its VC is free. The event processor is busy with the COPY, so
 * S1..S(EpFifo) fill the FIFO; the IP holds the next one until the EP takes
 * a request after the COPY (§6.5: a set is pushed only while the FIFO holds
 * fewer than EpFifo). Checks (elan4.event): every token an ack, in TAIL
 * order; the last set's token after the COPY's last write; the 64 copied
 * dwords written once each, in order, equal to the source; the second
 * event's e0 = count + EpFifo + 1, the COPY event's count 0, no interrupt
 * record; cnt_events_set EpFifo + 2, cnt_events_fired 1. elan4.scenario:
 * the last set's TAIL went in, and S1..S(EpFifo) were acked, while the COPY
 * was still writing (else the FIFO was never full).
 */

#include <stdio.h>
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum { MAXP = 8, MAXW = 12, MAXCOPY = 64 };
#define CTX    0x123u
#define VA1    0x00007F0000001000ull /* local page */
#define PA1    0x300000u
#define VA4    (VA1 + 0x6000u) /* a host page */
#define HPA    0x0001234560000ull
#define EVA    0x0000000000610000ull /* the events' page, local */
#define PAE    0x306000u
#define EVC    0x40u                 /* the COPY event */
#define EVY    0x80u                 /* the INTERRUPT event that never fires */
#define SVA    0x0000000000620000ull /* COPY source page */
#define PAS    0x308000u
#define DVA    0x0000000000630000ull /* COPY destination page */
#define PAD    0x30A000u
#define YCOUNT 0x80000000u /* far below 0: never fires */

enum { C_TXTOK = 9, C_RXPK = 10, C_EVSET = 24, C_EVFIRE = 25, C_PROTO = 27 };

typedef struct {
  uint32_t w[MAXW];
  unsigned nw, vc;
  bool intruder; /* sent on its VC while the previous packet there awaits its token */
} pk_t;

typedef struct {
  const elan4_view_t *vw;
  bool ep; /* elan4_ep_fifo_full, else elan4_rx_busy_vc */
  e4h_lm_t lm;
  unsigned nvc;
  pk_t p[MAXP];
  unsigned np;
  /* the neighbour */
  unsigned cur;                   /* packet being sent (np: all sent) */
  int64_t h;                      /* its HEAD cycle, -1 before */
  int64_t tail_at[MAXP];          /* TAIL cycles */
  int64_t tok_at[MAXP];           /* token cycles (non-intruders) */
  bool vc_busy[4];                /* our packet on the VC awaits its token */
  unsigned awq[MAXP], aw_h, aw_t; /* non-intruders awaiting tokens, TAIL order */
  unsigned sent_mask, credit_due;
  int64_t release;    /* hm_ready_i high from this cycle (busy_vc) */
  bool nostall;       /* the gate's negative: hm_ready_i high throughout, the IP never held */
  unsigned ncopy_len; /* the COPY's dwords */
  bool late;          /* the gate's negative: the sets after S0 only once the COPY is over */
  int64_t hw_at;      /* P0's last host dword taken */
  unsigned nhw;       /* its dwords taken */
  /* ep */
  unsigned ncopy;   /* copy writes seen */
  int64_t copy_end; /* the last one's cycle */
  unsigned y_sets;  /* e0 writes of event Y */
  bool c_set;       /* e0 write of event C */
  bool lw_p1;       /* busy_vc: P1's local write seen */
  bool done;
  int64_t done_at;
} ed_t;

static uint32_t w0(unsigned kind, unsigned n, unsigned ctx) { return kind | n << 4 | ctx << 16; }
static unsigned put64(uint32_t *w, unsigned k, uint64_t v) {
  w[k] = (uint32_t)v;
  w[k + 1] = (uint32_t)(v >> 32);
  return k + 2;
}
static void pte(ed_t *g, uint64_t va, unsigned perm, uint64_t pa, unsigned space) {
  const uint64_t mask = (1ull << g->vw->param.PtBits) - 1u;
  const uint64_t b = ((va >> 13) ^ CTX) & mask;
  const uint64_t dw = (g->vw->param.PtBase + 16u * b) / 8u;
  g->lm.mem[dw] = 1u | perm << 1 | space << 3 | (va >> 13) << 13; /* V, W/R, space (§4.5) */
  g->lm.mem[dw + 1] = pa | (uint64_t)CTX << 50;
}
static void mk_write(pk_t *p, uint64_t va, const uint64_t *data, unsigned n, unsigned vc, bool intruder) {
  unsigned k = 0;
  p->w[k++] = w0(1, n, CTX);
  p->w[k++] = 1; /* source node */
  k = put64(p->w, k, va);
  for (unsigned i = 0; i < n; i++) k = put64(p->w, k, data[i]);
  p->nw = k;
  p->vc = vc;
  p->intruder = intruder;
}
static void mk_sev(pk_t *p, uint64_t eva, unsigned vc) {
  unsigned k = 0;
  p->w[k++] = w0(3, 0, CTX);
  p->w[k++] = 1;
  k = put64(p->w, k, eva);
  p->w[k++] = 1; /* inc */
  p->nw = k;
  p->vc = vc;
}
/* P0's two host dwords (the arbiter's output register takes the first with hm_ready_i low, the second
   holds the IP, §5.1 rule 5), P1's, the intruders' */
static const uint64_t D0[2] = {0x0123456789ABCDEFull, 0x0F1E2D3C4B5A6978ull};
static const uint64_t D1[1] = {0x1111222233334444ull};
static const uint64_t DX[1] = {0xDEADBEEFDEADBEEFull};

static uint64_t src_dw(unsigned i) { return 0x5EED000000000000ull ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull); }

static void init_common(ed_t *g, const elan4_view_t *vw, bool ep, bool gate_neg) {
  g->vw = vw;
  g->ep = ep;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->nvc = (unsigned)vw->param.NumVcs;
  g->h = g->hw_at = g->copy_end = g->done_at = -1;
  for (unsigned k = 0; k < MAXP; k++) g->tail_at[k] = g->tok_at[k] = -1;
  if (!ep) {
    pte(g, VA1, 3, PA1, 1);
    pte(g, VA4, 3, HPA, 0);
    mk_write(&g->p[0], VA4, D0, 2, 0, false);
    mk_write(&g->p[1], VA1, D1, 1, 1, false);
    mk_write(&g->p[2], VA1 + 8u, DX, 1, 1, true);
    mk_write(&g->p[3], VA1 + 16u, DX, 1, 1, true);
    g->np = 4;
    g->nostall = gate_neg;
    g->release = gate_neg ? 0 : INT64_MAX;
    return;
  }
  pte(g, EVA, 3, PAE, 1);
  pte(g, SVA, 3, PAS, 1);
  pte(g, DVA, 3, PAD, 1);
  /* event C (§4.4): COPY (type 0) of ncopy_len dwords, count -1: the first set of 1 fires it */
  g->ncopy_len = MAXCOPY;
  g->late = gate_neg;
  g->lm.mem[(PAE + EVC) / 8u] = (uint64_t)g->ncopy_len << 32 | 0xFFFFFFFFu;
  g->lm.mem[(PAE + EVC) / 8u + 1] = SVA;
  g->lm.mem[(PAE + EVC) / 8u + 2] = DVA;
  g->lm.mem[(PAE + EVC) / 8u + 3] = CTX;
  /* event Y: INTERRUPT (type 2), count far below 0 */
  g->lm.mem[(PAE + EVY) / 8u] = 2ull << 41 | YCOUNT;
  g->lm.mem[(PAE + EVY) / 8u + 3] = CTX;
  for (unsigned i = 0; i < MAXCOPY; i++) g->lm.mem[PAS / 8u + i] = src_dw(i);
  const unsigned nset = (unsigned)vw->param.EpFifo + 1;
  mk_sev(&g->p[0], EVA + EVC, 0);
  for (unsigned k = 1; k <= nset; k++) mk_sev(&g->p[k], EVA + EVY, k % 2u);
  g->np = nset + 1;
}
static void init_busy(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  init_common(ctx, &elan4_default_view, false, false);
}
static void init_ep(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  init_common(ctx, &elan4_default_view, true, false);
}
static void init_busy_gate(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  init_common(ctx, &elan4_default_view, false, true);
}
static void init_ep_gate(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  init_common(ctx, &elan4_default_view, true, true);
}

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  ed_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  (void)rng;
  (void)prev_out;
  IN(node_i, 3);
  IN(hm_ready_i, t >= g->release ? 1 : 0);
  uint64_t rd;
  if (e4h_lm_answer(&g->lm, cycle, &rd)) {
    IN(lm_rvalid_i, 1);
    IN(lm_rdata_i, rd);
  }
  g->credit_due = g->sent_mask;
  g->sent_mask = 0;
  if (g->cur < g->np && g->h < 0 && t >= 4) {
    const pk_t *p = &g->p[g->cur];
    if ((p->intruder || !g->vc_busy[p->vc]) && !(g->late && g->cur > 0 && g->copy_end < 0)) g->h = t;
  }
  if (g->cur < g->np && g->h >= 0) {
    const pk_t *p = &g->p[g->cur];
    const unsigned f = (unsigned)(t - g->h);
    IN(in_valid_i, 1);
    IN(in_vc_i, p->vc);
    if (f == 0) {
      IN(in_kind_i, 0);
      IN(in_data_i, 0xFFFFFFFFu); /* every route tag used */
    } else if (f <= p->nw) {
      IN(in_kind_i, 1);
      IN(in_data_i, p->w[f - 1]);
    } else {
      IN(in_kind_i, 2);
      IN(in_data_i, crc32_ref_words(p->w, p->nw));
      g->tail_at[g->cur] = t;
      if (!p->intruder) {
        g->vc_busy[p->vc] = true;
        g->awq[g->aw_t++ % MAXP] = g->cur;
      }
      g->cur++;
      g->h = -1;
      /* busy_vc: the host answers once both intruders are in */
      if (!g->ep && !g->nostall && g->cur == g->np) g->release = t + 8;
    }
    g->sent_mask = 1u << p->vc;
  }
  return !(g->done && t > g->done_at + 4);
}

static bool end_checks(ed_t *g, const void *out, cosim_msg_t *msg, uint64_t cycle) {
  const char *id = g->ep ? "elan4.event" : "elan4.rx";
  const unsigned nset = g->np;
  const struct {
    unsigned lane;
    uint64_t want;
  } busy[] = {{C_RXPK, 2}, {C_TXTOK, 2}, {C_PROTO, 2}}, /* the intruders: counted, not received */
      ep[] = {{C_RXPK, nset}, {C_TXTOK, nset}, {C_EVSET, nset}, {C_EVFIRE, 1}, {C_PROTO, 0}};
  const unsigned n = g->ep ? 5 : 3;
  for (unsigned k = 0; k < n; k++) {
    const unsigned lane = g->ep ? ep[k].lane : busy[k].lane;
    const uint64_t want = g->ep ? ep[k].want : busy[k].want;
    if (CNT(lane) != want) {
      cosim_fail(msg, id, "cnt_o lane %u = %llu, want %llu at the end (cycle %llu)", lane,
                 (unsigned long long)CNT(lane), (unsigned long long)want, (unsigned long long)cycle);
      return false;
    }
  }
  if (g->ep) {
    const uint64_t ye0 = g->lm.mem[(PAE + EVY) / 8u], ce0 = g->lm.mem[(PAE + EVC) / 8u];
    if (ye0 != (2ull << 41 | (uint32_t)(YCOUNT + nset - 1u)) || ce0 != (uint64_t)g->ncopy_len << 32)
      return e4h_fail_at(msg, id, "final e0 of the COPY or the INTERRUPT event", cycle);
    for (unsigned i = 0; i < g->ncopy_len; i++)
      if (g->lm.mem[PAD / 8u + i] != src_dw(i)) return e4h_fail_at(msg, id, "a copied dword differs", cycle);
    /* the FIFO was full: S1..S(EpFifo) acked and S(EpFifo+1) in, all while the COPY still wrote */
    bool full = g->tail_at[nset - 1] < g->copy_end;
    for (unsigned k = 1; k + 1 < nset; k++) full &= g->tok_at[k] >= 0 && g->tok_at[k] < g->copy_end;
    if (!full)
      return e4h_fail_at(
          msg, "elan4.scenario",
          "the event FIFO was never full during the COPY: ep_fifo_bound's scenario not reached", cycle);
  } else {
    /* both intruders in before P1's token and before P0's host write: a HEAD on a FULL register */
    if (!(g->tail_at[3] >= 0 && g->tail_at[3] < g->tok_at[1] && g->tail_at[3] < g->hw_at))
      return e4h_fail_at(msg, "elan4.scenario",
                         "the intruders did not arrive on a busy VC: rx_queue_bound's scenario not reached",
                         cycle);
  }
  return true;
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  ed_t *g = ctx;
  const int64_t t = (int64_t)cycle;
  const char *id = g->ep ? "elan4.event" : "elan4.rx";
  (void)in;
  if (OUT(out_credit_o) != g->credit_due) {
    cosim_fail(msg, "elan4.rx", "out_credit_o 0x%llx, want 0x%x (one per flit of the cycle before, §6.5)",
               (unsigned long long)OUT(out_credit_o), g->credit_due);
    return false;
  }
  if (OUT(irq_valid_o)) return e4h_fail_at(msg, id, "an interrupt record, none expected", cycle);
  /* host master: busy_vc's P0 dwords, in order, each taken once, only from the release on */
  if (OUT(hm_valid_o) && t >= g->release) {
    const uint64_t a = HPA + (VA4 & 0x1FFFu) + 8u * g->nhw;
    if (g->ep || g->nhw >= 2 || !OUT(hm_write_o) || OUT(hm_addr_o) != a || OUT(hm_data_o) != D0[g->nhw] ||
        OUT(hm_be_o) != 0xFF)
      return e4h_fail_at(msg, id, "a host-master request other than P0's next dword", cycle);
    if (++g->nhw == 2) g->hw_at = t;
  }
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o);
    const uint64_t d = OUT(lm_wdata_o);
    if (OUT(lm_write_o)) {
      if (OUT(lm_be_o) != 0xFF) return e4h_fail_at(msg, id, "a local write with lm_be_o != 0xFF", cycle);
      if (!g->ep) {
        if (a != (PA1 + (VA1 & 0x1FFFu)) / 8u || d != D1[0] || g->lw_p1)
          return e4h_fail_at(msg, id, "a local write other than P1's dword (an intruder executed?)", cycle);
        g->lw_p1 = true;
      } else if (a == (PAE + EVY) / 8u) {
        g->y_sets++;
      } else if (a == (PAE + EVC) / 8u) {
        if (g->c_set) return e4h_fail_at(msg, id, "the COPY event's e0 written twice", cycle);
        g->c_set = true;
      } else if (a >= PAD / 8u && a < PAD / 8u + g->ncopy_len) {
        if (a != PAD / 8u + g->ncopy || d != src_dw(g->ncopy))
          return e4h_fail_at(msg, id, "a COPY write out of order or with the wrong data", cycle);
        g->ncopy++;
        if (g->ncopy == g->ncopy_len) g->copy_end = t;
      } else
        return e4h_fail_at(msg, id, "a local write outside the events and the COPY destination", cycle);
      e4h_lm_write(&g->lm, a, d);
    } else
      e4h_lm_read(&g->lm, cycle, a);
  }
  /* tokens: one per non-intruder, an ack, in TAIL order (the IP is sequential, §6.5) */
  if (OUT(out_valid_o)) {
    if (OUT(out_kind_o) != 3) return e4h_fail_at(msg, id, "a packet flit on out_*, none expected", cycle);
    if (g->aw_h == g->aw_t) return e4h_fail_at(msg, id, "a TOKEN with no packet of ours awaiting one", cycle);
    const unsigned k = g->awq[g->aw_h++ % MAXP];
    if (OUT(out_vc_o) != g->p[k].vc || OUT(out_data_o) != 1) {
      cosim_fail(msg, id, "TOKEN vc %llu data %llu for packet %u, want vc %u ack (cycle %llu)",
                 (unsigned long long)OUT(out_vc_o), (unsigned long long)OUT(out_data_o), k, g->p[k].vc,
                 (unsigned long long)cycle);
      return false;
    }
    /* the FIFO was full until the EP took a request after the COPY */
    if (g->ep && k + 1 == g->np && (g->copy_end < 0 || t <= g->copy_end))
      return e4h_fail_at(msg, id, "the last set acked while the COPY ran with the event FIFO full (§6.5)",
                         cycle);
    if (!g->ep && k == 0 && g->hw_at < 0)
      return e4h_fail_at(msg, id, "P0 acked before its host write was taken", cycle);
    g->tok_at[k] = t;
    g->vc_busy[g->p[k].vc] = false;
  }
  const bool all = g->cur == g->np && g->aw_h == g->aw_t &&
                   (g->ep ? g->ncopy == g->ncopy_len && g->c_set && g->y_sets == g->np - 1 : g->lw_p1);
  if (all && !g->done) {
    g->done = true;
    g->done_at = t + 3; /* the counters settle */
  }
  if (g->done && t == g->done_at) return end_checks(g, out, msg, cycle);
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  ed_t *g = ctx;
  if (g->ep)
    printf("elan4_ep_fifo_full: COPY writes until cycle %lld; sets' TAILs / tokens:", (long long)g->copy_end);
  else
    printf("elan4_rx_busy_vc: P0's host write taken in cycle %lld; TAILs / tokens:", (long long)g->hw_at);
  for (unsigned k = 0; k < g->np; k++)
    printf(" %lld/%lld", (long long)g->tail_at[k], (long long)g->tok_at[k]);
  printf("\n");
  if (!g->done || (int64_t)cycles <= g->done_at) {
    cosim_fail(msg, g->ep ? "elan4.event" : "elan4.rx",
               "incomplete after %llu cycles: %u of %u packets sent, %u tokens, %u COPY writes, %u sets of "
               "the second event",
               (unsigned long long)cycles, g->cur, g->np, g->aw_h, g->ncopy, g->y_sets);
    return false;
  }
  return true;
}

COSIM_TEST(elan4_rx_busy_vc, .target = &elan4_default_target,
           .purpose =
               "docs/elan4.md §6.5/§8: two HEADs on a VC whose packet waits FULL (IP stalled on a host "
               "write) are dropped, counted, never executed (rx_queue_bound's scenario)",
           .ctx_size = sizeof(ed_t), .init = init_busy, .drive = drive, .check = check, .finish = finish)
/* the scenario gates' negatives: the same scoreboards where the scenario cannot happen must fail elan4.scenario */
COSIM_TEST(
    elan4_rx_busy_vc_nostall, .target = &elan4_default_target,
    .purpose =
        "elan4_rx_busy_vc with hm_ready_i high throughout: the IP is not held, so the intruders do not "
        "meet a waiting packet (elan4.scenario must fail)",
    .ctx_size = sizeof(ed_t), .init = init_busy_gate, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_ep_fifo_late_sets, .target = &elan4_default_target,
           .purpose = "elan4_ep_fifo_full with the sets sent after the COPY: the event FIFO never fills "
                      "(elan4.scenario must fail)",
           .ctx_size = sizeof(ed_t), .init = init_ep_gate, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_ep_fifo_full, .target = &elan4_default_target,
           .purpose =
               "docs/elan4.md §6.7: SETEVENTs fill the event FIFO during a 64-dword COPY, the IP holds "
               "the next one (ep_fifo_bound's scenario)",
           .ctx_size = sizeof(ed_t), .init = init_ep, .drive = drive, .check = check, .finish = finish)
