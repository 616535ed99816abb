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
 * Checks: elan4.golden (HEAD = route word, W0..W5 and the TAIL CRC of §4.7 on
 * VC VcSten, the backing-store writes, the status word and counters),
 * elan4.latency (§9.1 with L = 2: backing-store writes at t0+3..t0+5,
 * tr_cmd_o at t0+6, tr_form_o at t0+10, HEAD at t0+11, TAIL at t0+18).
 */
#include <string.h>

#include "bind/elan4.h"
#include "ref/crc32_ref.h"

typedef elan4_default_in_t gin_t;
typedef elan4_default_out_t gout_t;

enum { LAT = (int)ELAN4_DEFAULT_PARAM_LmLatency, NODE = 3, DEST = 5, MEMDW = 1u << 19 };
#define ROUTE     0xFFFFFF31u
#define RT_DW     (((uint32_t)ELAN4_DEFAULT_PARAM_RtBase + 8u * DEST) / 8u)
#define QBASE     0x100000u
#define CQCTL_VAL (QBASE | (uint64_t)0x123 << 33 | 1ull << 47 | 1ull << 63)
#define DW0       0x0000000000050011ull
#define DW1       0x00007F0000001000ull
#define DW2       0x1122334455667788ull

typedef struct {
  uint64_t mem[MEMDW]; /* local memory, dword addressed, 0 where never written */
  bool rd_due[16];
  uint32_t rd_addr[16];
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

static void init(void *ctx, cosim_rng_t *rng) {
  g_t *g = ctx;
  (void)rng;
  g->mem[RT_DW] = 1ull << 32 | ROUTE; /* valid route to node 5 */
  g->t0 = g->tail_at = -1;
}

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *inp) {
  g_t *g = ctx;
  gin_t *in = inp;
  (void)rng;
  (void)prev_out;
  in->node_i = NODE;
  const unsigned i = (unsigned)(cycle % 16);
  if (g->rd_due[i]) { /* the read on lm_* LmLatency cycles ago */
    g->rd_due[i] = false;
    in->lm_rvalid_i = 1;
    in->lm_rdata_i = g->rd_addr[i] < MEMDW ? g->mem[g->rd_addr[i]] : 0;
  }
  for (unsigned v = 0; v < 2; v++)
    if (g->ncredit[v]) {
      g->ncredit[v]--;
      in->in_credit_i |= (uint8_t)(1u << v);
    }
  if (g->tail_at >= 0 && !g->tok_sent && cycle == (uint64_t)g->tail_at + 3) {
    in->in_valid_i = 1;
    in->in_kind_i = 3; /* TOKEN */
    in->in_vc_i = 0;
    in->in_data_i = 1; /* ack */
    g->tok_sent = true;
  }
  bool wait = (g->step == STEP_WRITE && cycle < 80) ||
              (g->step == STEP_STATUS && (!g->tok_sent || cycle < (uint64_t)g->tail_at + 6));
  if (g->step < NSCRIPT && !wait) {
    in->ht_valid_i = 1;
    in->ht_write_i = script[g->step].write;
    in->ht_addr_i = script[g->step].addr;
    in->ht_data_i = script[g->step].data;
    in->ht_be_i = 0xFF;
    in->ht_tag_i = 0x5A;
  }
  return !(g->done && cycle > g->cycle_done + 4);
}

static bool fail_at(cosim_msg_t *msg, const char *id, const char *what, uint64_t cycle) {
  cosim_fail(msg, id, "%s (cycle %llu)", what, (unsigned long long)cycle);
  return false;
}

static bool check(void *ctx, uint64_t cycle, const void *inp, const void *outp, cosim_msg_t *msg) {
  g_t *g = ctx;
  const gin_t *in = inp;
  const gout_t *out = outp;
  const int64_t t = (int64_t)cycle, d = g->t0 >= 0 ? t - g->t0 : -1;
  /* local memory */
  if (out->lm_valid_o) {
    if (out->lm_write_o) {
      if (out->lm_be_o != 0xFF)
        return fail_at(msg, "elan4.golden", "a local-memory write without lm_be_o = 0xFF", cycle);
      if (out->lm_addr_o < MEMDW) g->mem[out->lm_addr_o] = out->lm_wdata_o;
      uint32_t k = out->lm_addr_o - QBASE / 8u;
      if (g->t0 >= 0 && k >= 1 && k <= 3) { /* the WRITE's backing-store writes */
        static const uint64_t want[4] = {0, DW0, DW1, DW2};
        if (d != (int64_t)(2 + k))
          return fail_at(msg, "elan4.latency", "backing-store write not at t0+3..t0+5", cycle);
        if (out->lm_wdata_o != want[k])
          return fail_at(msg, "elan4.golden", "backing-store write data", cycle);
        g->nbs++;
      }
    } else {
      g->rd_due[(cycle + LAT) % 16] = true;
      g->rd_addr[(cycle + LAT) % 16] = out->lm_addr_o;
    }
  }
  /* PIO acceptance */
  if (in->ht_valid_i && out->ht_ready_o) {
    if (g->step == STEP_WRITE) g->t0 = t;
    g->step++;
  }
  if (out->ht_rvalid_o) {
    const uint64_t st = out->ht_rdata_o;
    /* code 0, state OK (1), cached, not busy, fp = 4, wp = 4 */
    const uint64_t want = 1ull << 8 | 1ull << 10 | 4ull << 12 | 4ull << 32;
    if (out->ht_rtag_o != 0x5A || st != want) {
      cosim_fail(msg, "elan4.golden", "status word 0x%016llx tag 0x%02x, want 0x%016llx tag 0x5a",
                 (unsigned long long)st, out->ht_rtag_o, (unsigned long long)want);
      return false;
    }
    g->status_ok = true;
  }
  /* trace outputs */
  if (out->tr_cmd_o && g->t0 >= 0 && d != 6)
    return fail_at(msg, "elan4.latency", "tr_cmd_o not at t0+6", cycle);
  if (g->t0 >= 0 && d == 6 && !out->tr_cmd_o)
    return fail_at(msg, "elan4.latency", "no tr_cmd_o at t0+6", cycle);
  if (out->tr_form_o && (d != 10 || out->tr_form_q_o != 0))
    return fail_at(msg, "elan4.latency", "tr_form_o not at t0+10 for queue 0", cycle);
  if (g->t0 >= 0 && d == 10 && !out->tr_form_o)
    return fail_at(msg, "elan4.latency", "no tr_form_o at t0+10", cycle);
  /* the packet */
  if (g->t0 >= 0 && d == 11 && !(out->out_valid_o && out->out_kind_o == 0))
    return fail_at(msg, "elan4.latency", "no HEAD on out_* at t0+11", cycle);
  if (out->out_valid_o && out->out_kind_o != 3) {
    static const uint32_t body[6] = {0x01230011u, NODE, 0x00001000u, 0x00007F00u, 0x55667788u, 0x11223344u};
    const unsigned f = g->nflit++;
    const unsigned kind = f == 0 ? 0 : f <= 6 ? 1 : 2;
    const uint32_t want = f == 0 ? ROUTE : f <= 6 ? body[f - 1] : crc32_ref_words(body, 6);
    if (f > 7 || d != 11 + (int64_t)f)
      return fail_at(msg, "elan4.latency", "a flit outside t0+11..t0+18", cycle);
    if (out->out_kind_o != kind || out->out_data_o != want || out->out_vc_o != 0) {
      cosim_fail(msg, "elan4.golden", "flit %u: kind %u data 0x%08x vc %u, want kind %u data 0x%08x vc 0", f,
                 out->out_kind_o, out->out_data_o, out->out_vc_o, kind, want);
      return false;
    }
    if (f == 7 && want != 0x8DB536D0u)
      return fail_at(msg, "elan4.golden", "the reference CRC is not §4.7's", cycle);
    if (f == 7) g->tail_at = t;
    g->ncredit[out->out_vc_o]++;
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
    .ctx_size = sizeof(g_t), .init = init, .drive = drive, .check = check, .finish = finish)
