/* elan4 golden: docs/elan4.md §4.7's worked example through the ports, with
 * the test's own reference (the flits and CRC computed here from §4.6, the
 * cycles from §9.1's table), never the model's code.
 *
 * Node 3. Route table entry 5 is valid (preloaded local memory). The script:
 *   1. CQCTL(0) = base 0x100000, class 0, ctx 0x123, WRITE enabled, open;
 *   2. a NOP to queue 0's page (dword 0): the descriptor miss loads queue 0;
 *   3. from cycle 80: §4.7's three dwords at page dwords 1, 2, 3, one per cycle;
 *   4. the neighbour acks the packet 3 cycles after its TAIL;
 *   5. a read of CQCTL(0): OK, cached, not busy, fp = wp = 4.
 * Checks: elan4.irq (no interrupt record: none is raised; a reset that
 * forgets the irq registers shows at cycle 0), elan4.golden (HEAD = route word, W0..W5 and the TAIL CRC of §4.7 on
 * VC VcSten, the backing-store writes, the status word), elan4.latency (§9.1:
 * backing-store writes at t0+3..t0+5, tr_cmd_o at t0+6, tr_form_o at t0+8+L,
 * HEAD at t0+9+L, TAIL at t0+16+L).
 * The ports are reached through the target's view, so one test serves every
 * target where §4.7 is legal (NumNodes > 5, OooWindow >= 2: not elan4_min).
 */
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum { NODE = 3, DEST = 5 };
#define ROUTE     0xFFFFFF31u
#define QBASE     0x100000u
#define CQCTL_VAL (QBASE | (uint64_t)0x123 << 33 | 1ull << 47 | 1ull << 63)
#define DW0       0x0000000000050011ull
#define DW1       0x00007F0000001000ull
#define DW2       0x1122334455667788ull

typedef struct {
  const elan4_view_t *vw;
  int64_t vc;          /* VcSten */
  e4h_lm_t lm;         /* local memory behind lm_* */
  unsigned step;       /* PIO script position */
  int64_t t0;          /* the WRITE's first dword accepted */
  int64_t tail_at;     /* TAIL seen on out_* */
  unsigned nflit;      /* flits of the packet seen */
  unsigned ncredit[4]; /* credits to return */
  unsigned nbs;        /* backing-store writes of the WRITE seen */
  bool tok_sent, status_ok, done;
  uint64_t cycle_done;
} g_t;

static const struct {
  bool write;
  uint32_t addr;
  uint64_t data;
} script[] = {
    {true, 0x02000000u, CQCTL_VAL}, /* CQCTL(0) */
    {true, 0x0000, 0},              /* NOP, page dword 0 */
    {true, 0x0008, DW0},            /* §4.7, page dwords 1..3 */
    {true, 0x0010, DW1},
    {true, 0x0018, DW2},
    {false, 0x02000000u, 0}, /* status of queue 0 */
};
enum { NSCRIPT = sizeof script / sizeof script[0], STEP_WRITE = 2, STEP_STATUS = 5 };

static void init_view(g_t *g, const elan4_view_t *vw) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->vc = (int64_t)vw->param.VcSten;
  g->lm.mem[(vw->param.RtBase + 8u * DEST) / 8u] = 1ull << 32 | ROUTE; /* valid route to node 5 */
  g->t0 = g->tail_at = -1;
}
E4H_INIT(init_default, init_view, elan4_default_view)
E4H_INIT(init_max, init_view, elan4_max_view)
E4H_INIT(init_onevc, init_view, elan4_onevc_view)

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  g_t *g = ctx;
  (void)rng;
  (void)prev_out;
  IN(node_i, NODE);
  uint64_t rd;
  if (e4h_lm_answer(&g->lm, cycle, &rd)) { /* the read on lm_* LmLatency cycles ago */
    IN(lm_rvalid_i, 1);
    IN(lm_rdata_i, rd);
  }
  IN(in_credit_i, e4h_credits(g->ncredit, 4));
  if (g->tail_at >= 0 && !g->tok_sent && cycle == (uint64_t)g->tail_at + 3) {
    IN(in_valid_i, 1);
    IN(in_kind_i, 3); /* TOKEN */
    IN(in_vc_i, (uint64_t)g->vc);
    IN(in_data_i, 1); /* ack */
    g->tok_sent = true;
  }
  bool wait = (g->step == STEP_WRITE && cycle < 80) ||
              (g->step == STEP_STATUS && (!g->tok_sent || cycle < (uint64_t)g->tail_at + 6));
  if (g->step < NSCRIPT && !wait) {
    IN(ht_valid_i, 1);
    IN(ht_write_i, script[g->step].write);
    IN(ht_addr_i, script[g->step].addr);
    IN(ht_data_i, script[g->step].data);
    IN(ht_be_i, 0xFF);
    IN(ht_tag_i, 0x5A);
  }
  return !(g->done && cycle > g->cycle_done + 4);
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  g_t *g = ctx;
  const int64_t t = (int64_t)cycle, d = g->t0 >= 0 ? t - g->t0 : -1, L = g->lm.lat;
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o);
    if (OUT(lm_write_o)) {
      if (OUT(lm_be_o) != 0xFF)
        return e4h_fail_at(msg, "elan4.golden", "a local-memory write without lm_be_o = 0xFF", cycle);
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
      uint32_t k = a - QBASE / 8u;
      if (g->t0 >= 0 && k >= 1 && k <= 3) { /* the WRITE's backing-store writes */
        static const uint64_t want[4] = {0, DW0, DW1, DW2};
        if (d != (int64_t)(2 + k))
          return e4h_fail_at(msg, "elan4.latency", "backing-store write not at t0+3..t0+5", cycle);
        if (OUT(lm_wdata_o) != want[k])
          return e4h_fail_at(msg, "elan4.golden", "backing-store write data", cycle);
        g->nbs++;
      }
    } else {
      e4h_lm_read(&g->lm, cycle, a);
    }
  }
  /* PIO acceptance */
  if (INP(ht_valid_i) && OUT(ht_ready_o)) {
    if (g->step == STEP_WRITE) g->t0 = t;
    g->step++;
  }
  if (OUT(ht_rvalid_o)) {
    const uint64_t st = OUT(ht_rdata_o);
    /* code 0, state OK (1), cached, not busy, fp = 4, wp = 4 */
    const uint64_t want = 1ull << 8 | 1ull << 10 | 4ull << 12 | 4ull << 32;
    if (OUT(ht_rtag_o) != 0x5A || st != want) {
      cosim_fail(msg, "elan4.golden", "status word 0x%016llx tag 0x%02llx, want 0x%016llx tag 0x5a",
                 (unsigned long long)st, (unsigned long long)OUT(ht_rtag_o), (unsigned long long)want);
      return false;
    }
    /* the counters (§6.10) show every event up to the read's acceptance:
       5 PIO writes, 1 read, 1 load, 2 commands (NOP, WRITE), 1 packet, 1 token, 1 ack */
    static const struct {
      unsigned lane, want;
    } cn[] = {{0, 5}, {1, 1}, {2, 0}, {5, 1}, {7, 2}, {8, 1}, {11, 1}, {12, 1}, {13, 0}, {27, 0}};
    for (unsigned k = 0; k < sizeof cn / sizeof cn[0]; k++) {
      uint64_t v = cosim_lane_get(&g->vw->out.cnt_o, out, cn[k].lane);
      if (v != cn[k].want) {
        cosim_fail(msg, "elan4.golden", "cnt_o lane %u = %llu, want %u", cn[k].lane, (unsigned long long)v,
                   cn[k].want);
        return false;
      }
    }
    g->status_ok = true;
  }
  /* no interrupt and no host-master request belong to this scenario */
  if (OUT(irq_valid_o) || OUT(irq_cause_o) || OUT(irq_data_o))
    return e4h_fail_at(msg, "elan4.irq", "an interrupt record, none raised", cycle);
  if (OUT(hm_valid_o)) return e4h_fail_at(msg, "elan4.golden", "a host-master request, none expected", cycle);
  /* trace outputs */
  if (OUT(tr_cmd_o) && g->t0 >= 0 && d != 6)
    return e4h_fail_at(msg, "elan4.latency", "tr_cmd_o not at t0+6", cycle);
  if (g->t0 >= 0 && d == 6 && !OUT(tr_cmd_o))
    return e4h_fail_at(msg, "elan4.latency", "no tr_cmd_o at t0+6", cycle);
  if (OUT(tr_form_o) && (d != 8 + L || OUT(tr_form_q_o) != 0))
    return e4h_fail_at(msg, "elan4.latency", "tr_form_o not at t0+8+L for queue 0", cycle);
  if (g->t0 >= 0 && d == 8 + L && !OUT(tr_form_o))
    return e4h_fail_at(msg, "elan4.latency", "no tr_form_o at t0+8+L", cycle);
  /* the packet */
  if (g->t0 >= 0 && d == 9 + L && !(OUT(out_valid_o) && OUT(out_kind_o) == 0))
    return e4h_fail_at(msg, "elan4.latency", "no HEAD on out_* at t0+9+L", cycle);
  if (OUT(out_valid_o) && OUT(out_kind_o) != 3) {
    static const uint32_t body[6] = {0x01230011u, NODE, 0x00001000u, 0x00007F00u, 0x55667788u, 0x11223344u};
    const unsigned f = g->nflit++;
    const unsigned kind = f == 0 ? 0 : f <= 6 ? 1 : 2;
    const uint32_t want = f == 0 ? ROUTE : f <= 6 ? body[f - 1] : crc32_ref_words(body, 6);
    if (f > 7 || d != 9 + L + (int64_t)f)
      return e4h_fail_at(msg, "elan4.latency", "a flit outside t0+9+L..t0+16+L", cycle);
    const uint64_t ok = OUT(out_kind_o), od = OUT(out_data_o), ov = OUT(out_vc_o);
    if (ok != kind || od != want || ov != (uint64_t)g->vc) {
      cosim_fail(msg, "elan4.golden",
                 "flit %u: kind %llu data 0x%08llx vc %llu, want kind %u data 0x%08x vc %lld", f,
                 (unsigned long long)ok, (unsigned long long)od, (unsigned long long)ov, kind, want,
                 (long long)g->vc);
      return false;
    }
    if (f == 7 && want != 0x8DB536D0u)
      return e4h_fail_at(msg, "elan4.golden", "the reference CRC is not §4.7's", cycle);
    if (f == 7) g->tail_at = t;
    g->ncredit[ov & 3u]++;
  }
  if (g->status_ok && !g->done) {
    g->done = true;
    g->cycle_done = cycle;
  }
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  g_t *g = ctx;
  (void)cycles;
  if (g->nflit != 8 || g->nbs != 3 || !g->status_ok) {
    cosim_fail(msg, "elan4.golden",
               "incomplete: %u flits (want 8), %u backing-store writes (want 3), status %s", g->nflit, g->nbs,
               g->status_ok ? "read" : "never answered");
    return false;
  }
  return true;
}

COSIM_TEST(
    elan4_golden, .target = &elan4_default_target,
    .purpose = "docs/elan4.md §4.7: the 8-byte WRITE's exact flits and CRC, §9.1's cycles, status word",
    .ctx_size = sizeof(g_t), .init = init_default, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_golden_max, .target = &elan4_max_target,
           .purpose = "elan4_golden on the max target (LmLatency 8, VcSten 3, 32 slots, 4 VCs)",
           .ctx_size = sizeof(g_t), .init = init_max, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_golden_onevc, .target = &elan4_onevc_target,
           .purpose = "elan4_golden on the onevc target (STEN, DMA and replies on VC 0)",
           .ctx_size = sizeof(g_t), .init = init_onevc, .drive = drive, .check = check, .finish = finish)
