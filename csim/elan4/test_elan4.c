/* Unit tests of the elan4 model (docs/elan4.md): parameter checks (§2), the
 * latency contracts (§9.1), §4.7's golden flits, out-of-order reassembly and
 * its errors (§6.1, §7), two STEN packets per queue (§6.4), GUARD, resend on a
 * nack and E_RETRY, dword-0 error codes, interrupts (§6.9), counters (§6.10),
 * reset. Every expected number is from the spec, none from the model. Each
 * planted bug of elan4_bug_names is run against the test that must catch it.
 * Usage: test_elan4 [seed]; a failure prints a rerun line. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: capture the model's stderr, silence the negatives */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "../unit.h"
#include "elan4.h"

#define MEMDW  (1u << 19)
#define QBASE  0x100000u
#define ROUTE5 0xFFFFFF31u
#define MAXF   2048

typedef struct {
  uint64_t cyc;
  uint8_t kind, vc;
  uint32_t data;
} flit_t;

/* a host read taken on hm_*: answered one dword a cycle from ans_at on (never unless a test sets
   it), data HOSTD(its byte address) */
typedef struct {
  uint8_t tag, len, sent;
  uint64_t addr, at, ans_at;
} hreq_t;
typedef struct {
  elan4_t m;
  uint64_t *mem;
  elan4_in_t in; /* held inputs: the test sets, step() applies and clears the one-shot ones */
  elan4_out_t out;
  uint64_t cyc;
  bool rd_due[16];
  uint32_t rd_addr[16];
  uint8_t credit_back;
  flit_t f[MAXF];
  unsigned nf;
  uint64_t tr_cmd[32], tr_form[32];
  unsigned ncmd, nform;
  elan4_irq_t irq[32];
  unsigned nirq;
  uint64_t lmw_cyc[64];
  uint32_t lmw_addr[64];
  unsigned nlmw;
  bool accepted; /* the ht request of the last step was accepted */
  bool auto_ack; /* the neighbour acks every packet 3 cycles after its TAIL */
  uint64_t ack_at[64];
  uint8_t ack_vc[64];
  unsigned nack_q;
  uint64_t rdata;
  bool rvalid;
  hreq_t hr[16]; /* host reads taken on hm_* */
  unsigned nhr;
} h_t;
#define HOSTD(a) (0xF00D000000000000ull | (uint64_t)(a) >> 3)

static void h_init(h_t *h, const elan4_cfg_t *c) {
  memset(h, 0, sizeof *h);
  h->mem = calloc(MEMDW, sizeof *h->mem);
  if (elan4_init(&h->m, c)) abort();
  h->mem[(c->rt_base + 8u * 5) / 8u] = 1ull << 32 | ROUTE5;
  h->mem[(c->rt_base + 8u * 6) / 8u] = 0; /* node 6: no route */
}
static void h_free(h_t *h) {
  elan4_free(&h->m);
  free(h->mem);
}

static void step(h_t *h) {
  elan4_in_t in = h->in;
  in.node = 3;
  const unsigned i = (unsigned)(h->cyc % 16);
  if (h->rd_due[i]) {
    h->rd_due[i] = false;
    in.lm_rvalid = true;
    in.lm_rdata = h->rd_addr[i] < MEMDW ? h->mem[h->rd_addr[i]] : 0;
  }
  in.in_credit |= h->credit_back;
  if (h->nack_q && h->ack_at[0] <= h->cyc && !in.in_valid) {
    in.in_valid = true;
    in.in_kind = ELAN4_TOKEN;
    in.in_vc = h->ack_vc[0];
    in.in_data = 1;
    for (unsigned k = 0; k + 1 < h->nack_q; k++) {
      h->ack_at[k] = h->ack_at[k + 1];
      h->ack_vc[k] = h->ack_vc[k + 1];
    }
    h->nack_q--;
  }
  h->credit_back = 0;
  for (unsigned r = 0; r < h->nhr; r++)
    if (h->hr[r].ans_at <= h->cyc && h->hr[r].sent < h->hr[r].len) {
      in.hm_rvalid = true;
      in.hm_rtag = h->hr[r].tag;
      in.hm_rdata = HOSTD(h->hr[r].addr + 8u * h->hr[r].sent++);
      break;
    }
  elan4_eval(&h->m, &in, &h->out);
  const elan4_out_t *o = &h->out;
  h->accepted = in.ht_valid && o->ht_ready;
  if (h->accepted) h->in.ht_valid = false;
  h->in.in_valid = false;
  h->in.in_credit = 0;
  if (o->lm_valid && o->lm_write) {
    if (o->lm_addr < MEMDW) h->mem[o->lm_addr] = o->lm_wdata;
    if (h->nlmw < 64) {
      h->lmw_cyc[h->nlmw] = h->cyc;
      h->lmw_addr[h->nlmw++] = o->lm_addr;
    }
  } else if (o->lm_valid) {
    h->rd_due[(h->cyc + h->m.cfg.lm_latency) % 16] = true;
    h->rd_addr[(h->cyc + h->m.cfg.lm_latency) % 16] = o->lm_addr;
  }
  if (o->hm_valid && !o->hm_write && in.hm_ready && h->nhr < 16)
    h->hr[h->nhr++] = (hreq_t){o->hm_tag, o->hm_len, 0, o->hm_addr, h->cyc, UINT64_MAX};
  if (o->out_valid && h->nf < MAXF) h->f[h->nf++] = (flit_t){h->cyc, o->out_kind, o->out_vc, o->out_data};
  if (o->out_valid && o->out_kind != ELAN4_TOKEN) h->credit_back |= (uint8_t)(1u << o->out_vc);
  if (o->out_valid && o->out_kind == ELAN4_TAIL && h->auto_ack && h->nack_q < 64) {
    h->ack_at[h->nack_q] = h->cyc + 3;
    h->ack_vc[h->nack_q++] = o->out_vc;
  }
  if (o->tr_cmd && h->ncmd < 32) h->tr_cmd[h->ncmd++] = h->cyc;
  if (o->tr_form && h->nform < 32) h->tr_form[h->nform++] = h->cyc;
  if (o->irq_valid && h->nirq < 32) h->irq[h->nirq++] = (elan4_irq_t){o->irq_cause, o->irq_info, o->irq_data};
  h->rvalid = o->ht_rvalid;
  if (o->ht_rvalid) h->rdata = o->ht_rdata;
  elan4_commit(&h->m);
  h->cyc++;
}
static void run(h_t *h, unsigned n) {
  for (unsigned k = 0; k < n; k++) step(h);
}
/* a PIO request presented until accepted; returns its acceptance cycle */
static uint64_t pio(h_t *h, bool wr, uint32_t addr, uint64_t data, uint8_t be) {
  h->in.ht_valid = true;
  h->in.ht_write = wr;
  h->in.ht_addr = addr;
  h->in.ht_data = data;
  h->in.ht_be = be;
  h->in.ht_tag = 0x11;
  for (unsigned k = 0; k < 1000; k++) {
    step(h);
    if (h->accepted) return h->cyc - 1;
  }
  abort();
}
static uint64_t qwrite(h_t *h, unsigned q, unsigned k, uint64_t v) {
  return pio(h, true, q * 0x1000u + 8u * k, v, 0xFF);
}
static uint64_t status(h_t *h, unsigned q) {
  pio(h, false, 0x02000000u + 8u * q, 0, 0);
  for (unsigned k = 0; k < 100; k++) {
    if (h->rvalid) return h->rdata;
    step(h);
  }
  abort();
}
static void token(h_t *h, unsigned vc, bool ack) {
  h->in.in_valid = true;
  h->in.in_kind = ELAN4_TOKEN;
  h->in.in_vc = (uint8_t)vc;
  h->in.in_data = ack;
  step(h);
}
#define EN_ALL (0x7Full << 47)
static uint64_t cqctl_val(uint32_t base, unsigned ctx, uint64_t en) {
  return base | (uint64_t)ctx << 33 | en | 1ull << 63;
}
/* open queue q and make it cached (a NOP loads it); settle */
static void open_q(h_t *h, unsigned q, uint32_t base, unsigned ctx) {
  pio(h, true, 0x02000000u + 8u * q, cqctl_val(base, ctx, EN_ALL), 0xFF);
  qwrite(h, q, 0, 0); /* NOP at position 0 */
  run(h, 40);
}
static unsigned st_state(uint64_t s) { return (unsigned)((s >> 8) & 3u); }
static unsigned st_code(uint64_t s) { return (unsigned)(s & 0xFFu); }
static uint32_t st_pos(uint64_t s) { return (uint32_t)((s >> 12) & 0xFFFFFu); }
static uint32_t st_wp(uint64_t s) { return (uint32_t)((s >> 32) & 0xFFFFFu); }

static unsigned count_kind(const h_t *h, unsigned kind) {
  unsigned n = 0;
  for (unsigned i = 0; i < h->nf; i++) n += h->f[i].kind == kind;
  return n;
}

/* --- tests ----------------------------------------------------------------- */

/* §2: every parameter's legal extremes pass, one past fails naming the field */
static void try_bad(tctx_t *t, const elan4_cfg_t *c, const char *field) {
  elan4_t m;
  capture_t cap;
  char buf[512] = "";
  capture_begin(&cap);
  int rc = elan4_init(&m, c);
  capture_end(&cap, buf, sizeof buf);
  CHECK(t, rc == -EINVAL && strstr(buf, field), "illegal %s refused with -EINVAL naming it (rc %d, '%s')",
        field, rc, buf);
}
#define BAD(field, stmt)    \
  do {                      \
    elan4_cfg_t c_ = d;     \
    stmt;                   \
    try_bad(t, &c_, field); \
  } while (0)
#define GOOD(what, stmt)                                                    \
  do {                                                                      \
    elan4_cfg_t c_ = d;                                                     \
    elan4_t m_;                                                             \
    stmt;                                                                   \
    CHECK(t, elan4_init(&m_, &c_) == 0, "legal extreme %s accepted", what); \
  } while (0)

static void t_params(tctx_t *t) {
  elan4_cfg_t d;
  elan4_cfg_default(&d);
  /* §2's default column, field by field (elan4_cfg_default is the API's
     default configuration; no target reads it, so only this sees a change) */
  static const struct {
    const char *name;
    unsigned long long want;
  } dv[] = {{"NumCq", 8},         {"NumQueues", 64},    {"DepthKb0", 1},       {"DepthKb1", 8},
            {"DepthKb2", 64},     {"DepthKb3", 512},    {"OooWindow", 16},     {"HeadDwords", 16},
            {"GapTimeout", 4096}, {"NumNodes", 64},     {"NumVcs", 2},         {"LinkBuf", 8},
            {"VcSten", 0},        {"VcDma", 1},         {"VcReply", 0},        {"MaxOutstanding", 16},
            {"RetryLimit", 32},   {"RetryBackoff", 16}, {"AckTimeout", 16384}, {"TlbEntries", 16},
            {"PtBits", 10},       {"DescBase", 0x0},    {"RtBase", 0x20000},   {"PtBase", 0x40000},
            {"LmLatency", 2},     {"HostReadTags", 12}, {"ReplySlots", 4},     {"EpFifo", 4},
            {"DmaQueue", 4},      {"DmaBufDw", 256},    {"IrqDepth", 16},      {"bug", 0}};
  const unsigned long long got[] = {d.num_cq,      d.num_queues,     d.depth_kb[0], d.depth_kb[1],
                                    d.depth_kb[2], d.depth_kb[3],    d.ooo_window,  d.head_dwords,
                                    d.gap_timeout, d.num_nodes,      d.num_vcs,     d.link_buf,
                                    d.vc_sten,     d.vc_dma,         d.vc_reply,    d.max_outstanding,
                                    d.retry_limit, d.retry_backoff,  d.ack_timeout, d.tlb_entries,
                                    d.pt_bits,     d.desc_base,      d.rt_base,     d.pt_base,
                                    d.lm_latency,  d.host_read_tags, d.reply_slots, d.ep_fifo,
                                    d.dma_queue,   d.dma_buf_dw,     d.irq_depth,   d.bug};
  for (unsigned k = 0; k < sizeof dv / sizeof dv[0]; k++)
    CHECK(t, got[k] == dv[k].want, "default %s = %llu, §2 says %llu", dv[k].name, got[k], dv[k].want);
  GOOD("defaults", (void)0);
  GOOD("min",
       (c_.num_cq = 1, c_.num_queues = 1, c_.depth_kb[0] = 1, c_.depth_kb[1] = 2, c_.depth_kb[2] = 4,
        c_.depth_kb[3] = 8, c_.ooo_window = 1, c_.head_dwords = 12, c_.gap_timeout = 16, c_.num_nodes = 2,
        c_.link_buf = 4, c_.max_outstanding = 2, c_.retry_limit = 0, c_.retry_backoff = 0,
        c_.ack_timeout = 256, c_.tlb_entries = 2, c_.pt_bits = 4, c_.lm_latency = 1, c_.host_read_tags = 1,
        c_.reply_slots = 1, c_.ep_fifo = 2, c_.dma_queue = 1, c_.dma_buf_dw = 64, c_.irq_depth = 2));
  GOOD("max",
       (c_.num_cq = 32, c_.num_queues = 8192, c_.depth_kb[0] = 64, c_.depth_kb[1] = 128, c_.depth_kb[2] = 256,
        c_.depth_kb[3] = 512, c_.ooo_window = 64, c_.head_dwords = 64, c_.gap_timeout = 1u << 20,
        c_.num_nodes = 4096, c_.num_vcs = 4, c_.link_buf = 64, c_.max_outstanding = 64, c_.retry_limit = 255,
        c_.retry_backoff = 1024, c_.ack_timeout = 1u << 24, c_.tlb_entries = 128, c_.pt_bits = 16,
        c_.lm_latency = 8, c_.host_read_tags = 16, c_.reply_slots = 16, c_.ep_fifo = 16, c_.dma_queue = 16,
        c_.dma_buf_dw = 1024, c_.irq_depth = 64, c_.vc_sten = 3, c_.vc_dma = 2, c_.vc_reply = 1));
  BAD("NumCq", c_.num_cq = 0);
  BAD("NumCq", c_.num_cq = 33);
  BAD("NumQueues", c_.num_queues = 7);
  BAD("NumQueues", c_.num_queues = 8193);
  BAD("DepthKb0", c_.depth_kb[0] = 3);
  BAD("DepthKb2", c_.depth_kb[2] = 8);
  BAD("DepthKb3", c_.depth_kb[3] = 1024);
  BAD("OooWindow", c_.ooo_window = 0);
  BAD("OooWindow", c_.ooo_window = 65);
  BAD("HeadDwords", c_.head_dwords = 11);
  BAD("HeadDwords", c_.head_dwords = 65);
  BAD("GapTimeout", c_.gap_timeout = 15);
  BAD("GapTimeout", c_.gap_timeout = (1u << 20) + 1);
  BAD("NumNodes", c_.num_nodes = 1);
  BAD("NumNodes", c_.num_nodes = 4097);
  BAD("NumVcs", c_.num_vcs = 3);
  BAD("LinkBuf", c_.link_buf = 3);
  BAD("LinkBuf", c_.link_buf = 65);
  BAD("VcSten", c_.vc_sten = 2);
  BAD("VcDma", c_.vc_dma = 2);
  BAD("VcReply", c_.vc_reply = 2);
  BAD("MaxOutstanding", c_.max_outstanding = 1);
  BAD("MaxOutstanding", c_.max_outstanding = 65);
  BAD("RetryLimit", c_.retry_limit = 256);
  BAD("RetryBackoff", c_.retry_backoff = 1025);
  BAD("AckTimeout", c_.ack_timeout = 255);
  BAD("AckTimeout", c_.ack_timeout = (1u << 24) + 1);
  BAD("TlbEntries", c_.tlb_entries = 1);
  BAD("TlbEntries", c_.tlb_entries = 129);
  BAD("PtBits", c_.pt_bits = 3);
  BAD("PtBits", c_.pt_bits = 17);
  BAD("DescBase", c_.desc_base = 8);
  BAD("RtBase", c_.rt_base = 0x200);   /* overlaps the 64 descriptors at 0 */
  BAD("PtBase", c_.pt_base = 0x20100); /* overlaps the route table */
  BAD("PtBase", c_.pt_base = 0x80000000u);
  BAD("LmLatency", c_.lm_latency = 0);
  BAD("LmLatency", c_.lm_latency = 9);
  BAD("HostReadTags", c_.host_read_tags = 17);
  BAD("ReplySlots", c_.reply_slots = 0);
  BAD("EpFifo", c_.ep_fifo = 1);
  BAD("DmaQueue", c_.dma_queue = 17);
  BAD("DmaBufDw", c_.dma_buf_dw = 96);
  BAD("DmaBufDw", c_.dma_buf_dw = 1088);
  BAD("IrqDepth", c_.irq_depth = 1);
  BAD("IrqDepth", c_.irq_depth = 65);
}

/* §4.7 + §9.1: the 8-byte WRITE's flits and its cycles for LmLatency L, E = 0 and 1 */
static void t_golden_cfg(tctx_t *t, const elan4_cfg_t *cp, bool ev, bool timing);
static void t_golden(tctx_t *t, unsigned bug, unsigned L, bool ev) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.lm_latency = L;
  c.bug = bug;
  t_golden_cfg(t, &c, ev, true);
}
static void t_golden_cfg(tctx_t *t, const elan4_cfg_t *cp, bool ev, bool timing) {
  const elan4_cfg_t c = *cp;
  const unsigned L = c.lm_latency;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 0, QBASE, 0x123);
  const unsigned f0 = h->nf, c0 = h->ncmd, fo0 = h->nform, w0 = h->nlmw;
  const uint64_t d0 = 0x0000000000050011ull | (ev ? 1ull << 8 : 0);
  uint64_t t0 = qwrite(h, 0, 1, d0);
  qwrite(h, 0, 2, 0x00007F0000001000ull);
  qwrite(h, 0, 3, 0x1122334455667788ull);
  if (ev) qwrite(h, 0, 4, 0x00007F0000002020ull);
  run(h, 40);
  /* backing-store writes at t0+3.. (§9.1 row 2) */
  if (timing) {
    CHECK(t, h->nlmw >= w0 + 3 && h->lmw_cyc[w0] == t0 + 3 && h->lmw_addr[w0] == QBASE / 8 + 1,
          "L=%u: first backing-store write at t0+3 (got %+lld)", L, (long long)(h->lmw_cyc[w0] - t0));
    CHECK(t, h->ncmd == c0 + 1 && h->tr_cmd[c0] == t0 + 6 + ev, "L=%u E=%d: tr_cmd_o at t0+%d (got %+lld)", L,
          ev, 6 + ev, (long long)(h->tr_cmd[c0] - t0));
    CHECK(t, h->nform == fo0 + 1 && h->tr_form[fo0] == t0 + 8 + ev + L,
          "L=%u: tr_form_o at t0+8+L (got %+lld)", L, (long long)(h->tr_form[fo0] - t0));
  }
  const unsigned nb = ev ? 8 : 6;
  CHECK(t, h->nf == f0 + nb + 2, "L=%u: %u flits (want %u)", L, h->nf - f0, nb + 2);
  if (h->nf != f0 + nb + 2) goto out;
  const flit_t *f = &h->f[f0];
  CHECK(t, f[0].kind == ELAN4_HEAD && f[0].data == ROUTE5 && f[0].vc == c.vc_sten,
        "HEAD = route word 5 on VC VcSten");
  if (!timing)
    printf("  (NumCq %u OooWindow %u L %u: HEAD at t0+%lld, TAIL at t0+%lld)\n", c.num_cq, c.ooo_window, L,
           (long long)(f[0].cyc - t0), (long long)(f[nb + 1].cyc - t0));
  if (timing)
    CHECK(t, f[0].cyc == t0 + 9 + L + ev, "L=%u E=%d: HEAD at t0+%u (got %+lld)", L, ev, 9 + L + ev,
          (long long)(f[0].cyc - t0));
  if (timing)
    CHECK(t, f[nb + 1].cyc == t0 + (ev ? 19 : 16) + L, "L=%u E=%d: TAIL at t0+%u (got %+lld)", L, ev,
          (ev ? 19 : 16) + L, (long long)(f[nb + 1].cyc - t0));
  static const uint32_t w[6] = {0x01230011u, 3, 0x00001000u, 0x00007F00u, 0x55667788u, 0x11223344u};
  for (unsigned i = 0; i < 6; i++)
    CHECK(t, f[1 + i].kind == ELAN4_BODY && f[1 + i].data == (i == 0 && ev ? (w[0] | 1u << 8) : w[i]),
          "W%u = 0x%08x (got 0x%08x)", i, w[i], f[1 + i].data);
  if (!ev)
    CHECK(t, f[7].kind == ELAN4_TAIL && f[7].data == 0x8DB536D0u, "TAIL = §4.7's CRC 0x8DB536D0 (got 0x%08x)",
          f[7].data);
out:
  h_free(h);
  free(h);
}

/* §9.1 row 1: a 1-dword command (INTERRUPT) into an empty cached queue is
   accepted 3 cycles after its dword: tr_cmd_o at t+4; its record on irq_* 2
   cycles after it is raised (t+5); cnt_cmds shows it at t+5 */
static void t_empty(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 2, QBASE, 7);
  const unsigned c0 = h->ncmd, i0 = h->nirq;
  uint64_t tw = qwrite(h, 2, 1, 0xABCD000000000007ull); /* INTERRUPT, cookie 0xABCD0000 */
  bool cnt_ok = false;
  for (unsigned k = 0; k < 10; k++) {
    step(h);
    if (h->cyc - 1 == tw + 4) cnt_ok = h->out.cnt[ELAN4_CNT_CMDS] == 1; /* the NOP only */
    if (h->cyc - 1 == tw + 5) cnt_ok = cnt_ok && h->out.cnt[ELAN4_CNT_CMDS] == 2;
  }
  CHECK(t, h->ncmd == c0 + 1 && h->tr_cmd[c0] == tw + 4, "empty queue: tr_cmd_o at t+4 (got %+lld)",
        (long long)(h->tr_cmd[c0] - tw));
  CHECK(t, cnt_ok, "cnt_cmds shows the command accepted in t+3 at t+5");
  CHECK(t,
        h->nirq == i0 + 1 && h->irq[i0].cause == 1 && h->irq[i0].info == 2 && h->irq[i0].data == 0xABCD0000u,
        "INTERRUPT: record cause 1, info queue 2, data the cookie");
  h_free(h);
  free(h);
}

/* §6.1: a permuted command runs once, at the cycle its gap fills; a write one
   beyond the window is E_WINDOW at its position, interrupt cause 3 (§6.9) */
static void t_ooo(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 1, QBASE, 0x55);
  const unsigned c0 = h->ncmd, f0 = h->nf;
  qwrite(h, 1, 3, 0x1122334455667788ull); /* data first, then dword 0: position 2 is a gap */
  qwrite(h, 1, 1, 0x0000000000050011ull);
  run(h, 30);
  CHECK(t, h->ncmd == c0 && h->nf == f0, "nothing runs while position 2 is missing");
  uint64_t s = status(h, 1);
  CHECK(t, st_wp(s) == 2 && (s >> 11 & 1u), "wp stops at the gap (2), busy (status 0x%llx)",
        (unsigned long long)s);
  uint64_t tg = qwrite(h, 1, 2, 0x00007F0000001000ull); /* the gap */
  run(h, 40);
  /* arrives tg+1 (wp 2 -> 4), drains of 2 and 3 granted tg+2, tg+3, accepted tg+4 */
  CHECK(t, h->ncmd == c0 + 1 && h->tr_cmd[c0] == tg + 5,
        "runs once when the gap fills: tr_cmd_o at t+5 (got %+lld)", (long long)(h->tr_cmd[c0] - tg));
  CHECK(t, h->nf == f0 + 8, "one packet (%u flits)", h->nf - f0);
  /* one beyond the window: wp = 4 now, position 4 + 16 */
  const unsigned i0 = h->nirq;
  qwrite(h, 1, 4 + c.ooo_window, 0);
  run(h, 6);
  s = status(h, 1);
  CHECK(t, st_state(s) == ELAN4_Q_ERROR && st_code(s) == ELAN4_E_WINDOW && st_pos(s) == 4 + c.ooo_window,
        "E_WINDOW at position 20 (status 0x%llx)", (unsigned long long)s);
  CHECK(t,
        h->nirq == i0 + 1 && h->irq[i0].cause == 3 && h->irq[i0].info == 1 &&
            h->irq[i0].data == (ELAN4_E_WINDOW | (uint64_t)(4 + c.ooo_window) << 8),
        "interrupt cause 3, queue 1, data code | position << 8 (got cause %u data 0x%llx)", h->irq[i0].cause,
        (unsigned long long)h->irq[i0].data);
  h_free(h);
  free(h);
}

/* §6.4: at most 2 STEN packets of a queue await tokens; GUARD waits for both
   acks; a nack resends the packet from the backing store, identical */
static void t_inflight(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  c.retry_backoff = 0;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 0, QBASE, 0x123);
  const unsigned f0 = h->nf;
  unsigned k = 1;
  for (unsigned i = 0; i < 3; i++) { /* three WRITEs */
    qwrite(h, 0, k++, 0x0000000000050011ull);
    qwrite(h, 0, k++, 0x00007F0000001000ull + 8u * i);
    qwrite(h, 0, k++, 0x1000 + i);
  }
  qwrite(h, 0, k++, 6); /* GUARD */
  qwrite(h, 0, k++, 0x0000000000050011ull);
  qwrite(h, 0, k++, 0x00007F0000003000ull);
  qwrite(h, 0, k++, 0x4444);
  run(h, 80);
  CHECK(t, count_kind(h, ELAN4_HEAD) == 2, "2 packets in flight, never 3 (%u HEADs)",
        count_kind(h, ELAN4_HEAD));
  const unsigned f1 = h->nf;
  token(h, 0, false); /* nack the first: resent after the second */
  run(h, 40);
  CHECK(t, h->nf == f1 + 8, "the nacked packet is resent (%u flits)", h->nf - f1);
  if (h->nf == f1 + 8)
    for (unsigned i = 0; i < 8; i++)
      CHECK(t, h->f[f1 + i].data == h->f[f0 + i].data && h->f[f1 + i].kind == h->f[f0 + i].kind,
            "resent flit %u identical to the first try", i);
  token(h, 0, true); /* ack packet 2 (the second sent) */
  run(h, 40);
  CHECK(t, count_kind(h, ELAN4_HEAD) == 4, "third WRITE sent once out(q) < 2 (%u HEADs)",
        count_kind(h, ELAN4_HEAD));
  token(h, 0, true); /* ack the resent first */
  run(h, 40);
  CHECK(t, count_kind(h, ELAN4_HEAD) == 4, "GUARD holds the fourth WRITE while the third awaits its ack");
  token(h, 0, true);
  run(h, 40);
  CHECK(t, count_kind(h, ELAN4_HEAD) == 5, "after the last ack GUARD passes (%u HEADs)",
        count_kind(h, ELAN4_HEAD));
  h_free(h);
  free(h);
}

/* §6.4, §7: RetryLimit + 1 nacks: E_RETRY at the command's position */
static void t_retry(tctx_t *t) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.retry_limit = 2;
  c.retry_backoff = 3;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 0, QBASE, 0x123);
  qwrite(h, 0, 1, 0x0000000000050011ull);
  qwrite(h, 0, 2, 0x00007F0000001000ull);
  qwrite(h, 0, 3, 7);
  run(h, 40);
  for (unsigned i = 0; i < 3; i++) {
    CHECK(t, count_kind(h, ELAN4_TAIL) == i + 1, "try %u sent", i);
    token(h, 0, false);
    run(h, 60);
  }
  CHECK(t, count_kind(h, ELAN4_TAIL) == 3, "no fourth try (RetryLimit 2)");
  uint64_t s = status(h, 0);
  CHECK(t, st_state(s) == ELAN4_Q_ERROR && st_code(s) == ELAN4_E_RETRY && st_pos(s) == 1,
        "E_RETRY at the command's position 1 (status 0x%llx)", (unsigned long long)s);
  CHECK(t, h->out.cnt[ELAN4_CNT_RESENDS] == 2 && h->out.cnt[ELAN4_CNT_NACKS_RX] == 3,
        "2 resends, 3 nacks counted");
  h_free(h);
  free(h);
}

/* §4.3, §7: the dword-0 codes in their order, each at the command's position */
static void t_codes(tctx_t *t) {
  static const struct {
    uint64_t dw0;
    uint64_t en;
    unsigned code;
  } v[] = {
      {0x9, EN_ALL, ELAN4_E_OPCODE},
      {0x0000000000050011ull, EN_ALL & ~(1ull << 47), ELAN4_E_DISABLED},
      {0x0000000000050001ull, EN_ALL, ELAN4_E_FORMAT},  /* WRITE n = 0 */
      {0x1, EN_ALL & ~(1ull << 47), ELAN4_E_DISABLED},  /* disabled before format */
      {0x0000000000400011ull, EN_ALL, ELAN4_E_ROUTE},   /* dest 64 >= NumNodes */
      {0x0000000000060011ull, EN_ALL, ELAN4_E_NOROUTE}, /* node 6: route invalid */
  };
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
    elan4_cfg_t c;
    elan4_cfg_default(&c);
    h_t *h = malloc(sizeof *h);
    h_init(h, &c);
    pio(h, true, 0x02000000u, cqctl_val(QBASE, 1, v[i].en), 0xFF);
    qwrite(h, 0, 0, 0);
    run(h, 30);
    qwrite(h, 0, 1, v[i].dw0);
    qwrite(h, 0, 2, 0x2000);
    qwrite(h, 0, 3, 1);
    run(h, 30);
    uint64_t s = status(h, 0);
    CHECK(t, st_state(s) == ELAN4_Q_ERROR && st_code(s) == v[i].code && st_pos(s) == 1,
          "dw0 0x%llx: code %u at position 1 (status 0x%llx)", (unsigned long long)v[i].dw0, v[i].code,
          (unsigned long long)s);
    h_free(h);
    free(h);
  }
  /* E_CONFIG: base not aligned to the class */
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  pio(h, true, 0x02000000u + 8u * 9, cqctl_val(QBASE + 8, 1, EN_ALL), 0xFF);
  run(h, 4);
  uint64_t s = status(h, 9);
  CHECK(t, st_state(s) == ELAN4_Q_ERROR && st_code(s) == ELAN4_E_CONFIG && !(s >> 10 & 1u),
        "E_CONFIG, not cached (status 0x%llx)", (unsigned long long)s);
  h_free(h);
  free(h);
}

/* §3: after reset every output is 0 but ht_ready_o, whatever the registers held */
static void t_reset(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  memset(&h->m.s->r, 0x5A, sizeof h->m.s->r); /* garbage in every output register */
  h->m.s->r.ht_rvalid = h->m.s->r.lm_valid = h->m.s->r.lm_write = h->m.s->r.out_valid = h->m.s->r.irq_valid =
      true;
  h->m.s->r.tr_cmd = h->m.s->r.tr_form = h->m.s->r.tr_fire = true;
  elan4_reset(&h->m);
  step(h);
  const elan4_out_t *o = &h->out;
  bool zero = !o->ht_rvalid && !o->ht_rdata && !o->lm_valid && !o->lm_addr && !o->out_valid && !o->out_data &&
              !o->irq_valid && !o->irq_cause && !o->irq_info && !o->irq_data && !o->tr_cmd && !o->tr_form;
  for (unsigned k = 0; k < ELAN4_NCNT; k++) zero = zero && !o->cnt[k];
  CHECK(t, zero && o->ht_ready, "cycle 0 after reset: outputs 0, ht_ready_o 1");
  h_free(h);
  free(h);
}

/* §6.4: no token: the packet times out AckTimeout cycles after its TAIL
   (decided one cycle before it is on the port), is eligible RetryBackoff
   cycles later, and its resend (3 backing-store reads, the route read, formed
   in the route's data cycle) puts its HEAD on the port 6 + L cycles after */
static void t_timeout(tctx_t *t) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.ack_timeout = 256;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 0, QBASE, 0x123);
  const unsigned f0 = h->nf;
  qwrite(h, 0, 1, 0x0000000000050011ull);
  qwrite(h, 0, 2, 0x00007F0000001000ull);
  qwrite(h, 0, 3, 0x99);
  run(h, 400);
  CHECK(t, h->nf == f0 + 16, "sent twice (%u flits)", h->nf - f0);
  if (h->nf == f0 + 16) {
    const uint64_t tail_decided = h->f[f0 + 7].cyc - 1;
    const uint64_t want = tail_decided + c.ack_timeout + c.retry_backoff + 6 + c.lm_latency;
    CHECK(t, h->f[f0 + 8].kind == ELAN4_HEAD && h->f[f0 + 8].cyc == want,
          "resend HEAD at %+lld after the TAIL (got %+lld)", (long long)(want - h->f[f0 + 7].cyc),
          (long long)(h->f[f0 + 8].cyc - h->f[f0 + 7].cyc));
    for (unsigned i = 0; i < 8; i++)
      CHECK(t, h->f[f0 + 8 + i].data == h->f[f0 + i].data, "resend flit %u identical", i);
  }
  CHECK(t, h->out.cnt[ELAN4_CNT_TIMEOUTS] == 1 && h->out.cnt[ELAN4_CNT_RESENDS] == 1,
        "1 timeout, 1 resend counted");
  h_free(h);
  free(h);
}

/* the test's own CRC-32 (table-driven, apart from the model's bitwise one) */
static uint32_t ref_crc(const uint32_t *w, unsigned n) {
  static uint32_t tab[256];
  if (!tab[1])
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t x = i;
      for (int k = 0; k < 8; k++) x = (x & 1u) ? 0xEDB88320u ^ (x >> 1) : x >> 1;
      tab[i] = x;
    }
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned i = 0; i < n; i++)
    for (unsigned b = 0; b < 4; b++) c = tab[(c ^ (w[i] >> (8 * b))) & 0xFFu] ^ (c >> 8);
  return ~c;
}
static void send_flit(h_t *h, unsigned kind, uint32_t data) {
  h->in.in_valid = true;
  h->in.in_kind = (uint8_t)kind;
  h->in.in_vc = 0;
  h->in.in_data = data;
  step(h);
}
static void put_pte(h_t *h, unsigned ctx, uint64_t va, uint64_t pa, unsigned space, unsigned rw) {
  const elan4_cfg_t *c = &h->m.cfg;
  const uint32_t b = (c->pt_base + 16u * (((uint32_t)(va >> 13) ^ ctx) & ((1u << c->pt_bits) - 1))) / 8u;
  h->mem[b] = 1u | rw << 1 | space << 3 | (va & ~0x1FFFull);
  h->mem[b + 1] = pa | (uint64_t)ctx << 50;
}
static void send_words(h_t *h, const uint32_t *w, unsigned n) {
  send_flit(h, ELAN4_HEAD, 0xFFFFFFFFu);
  for (unsigned i = 0; i < n; i++) send_flit(h, ELAN4_BODY, w[i]);
  send_flit(h, ELAN4_TAIL, ref_crc(w, n));
}
/* the packet (HEAD..TAIL) starting at flit index i: its body words; returns their number */
static unsigned packet_at(const h_t *h, unsigned i, uint32_t *route, uint32_t *b, bool *crc_ok) {
  unsigned nb = 0;
  *route = h->f[i].data;
  for (i++; i < h->nf && h->f[i].kind == ELAN4_BODY; i++) b[nb++] = h->f[i].data;
  *crc_ok = i < h->nf && h->f[i].kind == ELAN4_TAIL && h->f[i].data == ref_crc(b, nb);
  return nb;
}
/* §4.7's packet arriving at node 5 (HEAD in cycle h returned) */
static uint64_t send_golden(h_t *h, bool bad_crc) {
  static const uint32_t w[6] = {0x01230011u, 3, 0x00001000u, 0x00007F00u, 0x55667788u, 0x11223344u};
  uint64_t t0 = h->cyc;
  send_flit(h, ELAN4_HEAD, 0xFFFFFFFFu);
  for (unsigned i = 0; i < 6; i++) send_flit(h, ELAN4_BODY, w[i]);
  send_flit(h, ELAN4_TAIL, ref_crc(w, 6) ^ (bad_crc ? 1u : 0u));
  return t0;
}

/* §6.5, §6.6, §9.1: HEAD in -> data on lm_* in 11 cycles (TLB hit), 14 + L on a
   miss; TOKEN (ack) on out_* at h+12 for a hit; a CRC error is nacked and not
   executed; an unmapped VA is nacked with interrupt 4 */
static void t_rx(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  const uint64_t va = 0x00007F0000001000ull;
  const uint32_t bkt = (c.pt_base + 16u * (((uint32_t)(va >> 13) ^ 0x123u) & ((1u << c.pt_bits) - 1))) / 8u;
  h->mem[bkt] = 1u | 2u | 1u << 3 | (va & ~0x1FFFull); /* V, W, local */
  h->mem[bkt + 1] = 0x200000ull | 0x123ull << 50;
  const uint32_t want = (0x200000u + 0x1000u) / 8u;
  for (unsigned pass = 0; pass < 2; pass++) { /* miss, then hit */
    const unsigned w0 = h->nlmw, f0 = h->nf;
    uint64_t hh = send_golden(h, false);
    run(h, 30);
    int at = -1;
    for (unsigned i = w0; i < h->nlmw; i++)
      if (h->lmw_addr[i] == want) at = (int)(h->lmw_cyc[i] - hh);
    CHECK(t, at == (pass ? 11 : 14 + (int)c.lm_latency), "%s: data on lm_* at h+%d (got h+%d)",
          pass ? "hit" : "miss", pass ? 11 : 14 + (int)c.lm_latency, at);
    CHECK(t, h->mem[want] == 0x1122334455667788ull, "the dword written");
    CHECK(t,
          h->nf == f0 + 1 && h->f[f0].kind == ELAN4_TOKEN && h->f[f0].data == 1 &&
              (!pass || h->f[f0].cyc == hh + 12),
          "%s: one ack TOKEN%s", pass ? "hit" : "miss", pass ? " at h+12" : "");
    h->mem[want] = 0;
  }
  { /* E = 1: two hits, data on lm_* at h+14 (§9.1) */
    const uint64_t evva = 0x00007F0000004000ull;
    put_pte(h, 0x123, evva, 0x300000, 1, 1);
    static const uint32_t we[8] = {0x01230111u, 3, 0x00001000u, 0x00007F00u, 0x9u, 0x8u, 0x4000u, 0x7F00u};
    send_words(h, we, 8); /* a miss for the event VA first */
    run(h, 40);
    const unsigned w1 = h->nlmw;
    const uint64_t he = h->cyc;
    send_words(h, we, 8);
    run(h, 40);
    int at = -1;
    for (unsigned i = w1; i < h->nlmw; i++)
      if (h->lmw_addr[i] == want && at < 0) at = (int)(h->lmw_cyc[i] - he);
    CHECK(t, at == 14, "E = 1, two hits: data on lm_* at h+14 (got h+%d)", at);
  }
  const unsigned f0 = h->nf, w0 = h->nlmw;
  send_golden(h, true);
  run(h, 30);
  CHECK(t, h->nf == f0 + 1 && h->f[f0].kind == ELAN4_TOKEN && h->f[f0].data == 0 && h->nlmw == w0,
        "a CRC error: nacked, nothing written");
  /* the same VA in another context: no translation (a TLB that ignores ctx would hit) */
  static const uint32_t w2[6] = {0x01240011u, 3, 0x00001000u, 0x00007F00u, 1, 2};
  const unsigned i0 = h->nirq, f1 = h->nf;
  send_flit(h, ELAN4_HEAD, 0xFFFFFFFFu);
  for (unsigned i = 0; i < 6; i++) send_flit(h, ELAN4_BODY, w2[i]);
  send_flit(h, ELAN4_TAIL, ref_crc(w2, 6));
  run(h, 30);
  CHECK(t, h->nf == f1 + 1 && h->f[f1].data == 0, "ctx 0x124: nacked");
  CHECK(t, h->nirq == i0 + 1 && h->irq[i0].cause == 4 && h->irq[i0].info == 0x124 && h->irq[i0].data == va,
        "translation fault: interrupt 4, info ctx, data the VA");
  CHECK(t,
        h->out.cnt[ELAN4_CNT_TLB_MISS] == 3 && h->out.cnt[ELAN4_CNT_TLB_HIT] == 4 &&
            h->out.cnt[ELAN4_CNT_CRC_ERR] == 1 && h->out.cnt[ELAN4_CNT_XLATE_FAULT] == 1,
        "counters: 3 misses, 4 hits, 1 CRC error, 1 translation fault (%u %u %u %u)",
        h->out.cnt[ELAN4_CNT_TLB_MISS], h->out.cnt[ELAN4_CNT_TLB_HIT], h->out.cnt[ELAN4_CNT_CRC_ERR],
        h->out.cnt[ELAN4_CNT_XLATE_FAULT]);
  h_free(h);
  free(h);
}

static uint64_t send_setevent(h_t *h, uint64_t va, uint32_t inc) {
  const uint32_t w[5] = {0x01230003u, 3, (uint32_t)va, (uint32_t)(va >> 32), inc};
  uint64_t t0 = h->cyc;
  send_flit(h, ELAN4_HEAD, 0xFFFFFFFFu);
  for (unsigned i = 0; i < 5; i++) send_flit(h, ELAN4_BODY, w[i]);
  send_flit(h, ELAN4_TAIL, ref_crc(w, 5));
  return t0;
}
#define E0(count, len, type) ((uint32_t)(count) | (uint64_t)(len) << 32 | (uint64_t)(type) << 41)

/* §4.4, §6.7, §9.1: a remote SETEVENT fires its event (tr_fire_o h+13+L with a
   hit), a COPY moves its dwords in ascending order, a COPY into a queue page
   chains a command (it runs and its packet leaves), an INTERRUPT event raises
   cause 2; an event at count 0 does not fire on a set of 1 */
static void t_event(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  const uint64_t evva = 0x00007F0000004000ull, qva = 0x00007F0000006000ull, srcva = 0x00007F0000008000ull;
  put_pte(h, 0x123, evva, 0x300000, 1, 3);
  put_pte(h, 0x123, srcva, 0x302000, 1, 3);
  put_pte(h, 0x123, qva, 0, 2, 3); /* queue 0's page */
  open_q(h, 0, QBASE, 0x123);
  const uint32_t ev = 0x300000u / 8u, src = 0x302000u / 8u;
  /* event 0: COPY of 3 dwords local -> local (src -> src + 0x100) */
  h->mem[ev] = E0(-1, 3, 0);
  h->mem[ev + 1] = srcva;
  h->mem[ev + 2] = srcva + 0x100;
  h->mem[ev + 3] = 0x123;
  for (unsigned i = 0; i < 3; i++) h->mem[src + i] = 0xA0 + i;
  send_setevent(h, evva, 1); /* a miss: fills the TLB */
  run(h, 60);
  const unsigned w0 = h->nlmw;
  h->mem[ev] = E0(-1, 3, 0);
  const unsigned f0 = h->nf;
  uint64_t hh = send_setevent(h, evva, 1);
  uint64_t fire = 0;
  for (unsigned k = 0; k < 60; k++) {
    step(h);
    if (h->out.tr_fire && !fire) fire = h->cyc - 1;
  }
  CHECK(t, fire == hh + 13 + c.lm_latency, "tr_fire_o at h+13+L (got %+lld)", (long long)(fire - hh));
  CHECK(t, h->nf > f0 && h->f[f0].kind == ELAN4_TOKEN && h->f[f0].data == 1 && h->f[f0].cyc == hh + 11,
        "SETEVENT acked: TOKEN at h+11");
  unsigned seen = 0;
  bool asc = true;
  for (unsigned i = w0; i < h->nlmw; i++)
    if (h->lmw_addr[i] >= src + 32 && h->lmw_addr[i] < src + 35)
      asc = asc && h->lmw_addr[i] == src + 32 + seen++;
  CHECK(t, seen == 3 && asc && h->mem[src + 34] == 0xA2, "COPY: 3 dwords written in ascending order");
  CHECK(t, (uint32_t)h->mem[ev] == 0, "count -1 + 1 = 0 written back");
  /* event 1: COPY into queue 0's page at dword 1: a WRITE command to node 5 */
  h->mem[ev + 4] = E0(-2, 3, 0);
  h->mem[ev + 5] = srcva + 0x200;
  h->mem[ev + 6] = qva + 8;
  h->mem[ev + 7] = 0x123;
  h->mem[src + 64] = 0x0000000000050011ull;
  h->mem[src + 65] = 0x00007F0000001000ull;
  h->mem[src + 66] = 0x5151;
  const unsigned f1 = h->nf;
  send_setevent(h, evva + 32, 1);
  run(h, 40);
  CHECK(t, count_kind(h, ELAN4_HEAD) == 0, "count -2 + 1: no fire, no packet");
  send_setevent(h, evva + 32, 1);
  run(h, 80);
  unsigned heads = 0;
  for (unsigned i = f1; i < h->nf; i++) heads += h->f[i].kind == ELAN4_HEAD;
  CHECK(t, heads == 1, "the chained WRITE runs once (%u packets)", heads);
  /* event 2: INTERRUPT, count 0 (primed at 0: must not fire on +1) then -1 */
  const unsigned i0 = h->nirq;
  h->mem[ev + 8] = E0(0, 0, 2);
  h->mem[ev + 9] = 0xC00C1E;
  h->mem[ev + 11] = 0x77;
  send_setevent(h, evva + 64, 1);
  run(h, 40);
  CHECK(t, h->nirq == i0, "count 0 -> 1: no fire");
  h->mem[ev + 8] = E0(-1, 0, 2);
  send_setevent(h, evva + 64, 1);
  run(h, 40);
  CHECK(t,
        h->nirq == i0 + 1 && h->irq[i0].cause == 2 && h->irq[i0].info == 0x77 && h->irq[i0].data == 0xC00C1E,
        "INTERRUPT event: cause 2, info e3.ctx, data param0");
  /* WAITEVENT (command of queue 0, ctx 0x123) re-primes event 3: count -2, INTERRUPT */
  qwrite(h, 0, 4, 4); /* position 4 after the chained WRITE at 1..3 */
  qwrite(h, 0, 5, evva + 96);
  qwrite(h, 0, 6, E0(-2, 0, 2));
  qwrite(h, 0, 7, 0xBEEF);
  qwrite(h, 0, 8, 0);
  run(h, 40);
  CHECK(t, h->mem[ev + 12] == E0(-2, 0, 2) && h->mem[ev + 13] == 0xBEEF && h->mem[ev + 15] == 0x123,
        "WAITEVENT wrote e0, e1, e2 and e3 = the queue's ctx");
  const unsigned i1 = h->nirq;
  send_setevent(h, evva + 96, 1);
  run(h, 40);
  CHECK(t, h->nirq == i1, "primed -2: no fire on the first set");
  send_setevent(h, evva + 96, 1);
  run(h, 40);
  CHECK(t,
        h->nirq == i1 + 1 && h->irq[i1].cause == 2 && h->irq[i1].info == 0x123 && h->irq[i1].data == 0xBEEF,
        "re-primed event fires on the second set");
  h_free(h);
  free(h);
}

static int find_head(const h_t *h, unsigned from) {
  for (unsigned i = from; i < h->nf; i++)
    if (h->f[i].kind == ELAN4_HEAD) return (int)i;
  return -1;
}

/* §6.5: a READ of 2 dwords is acked, then answered by a WRITE reply to the
   source's route with the data; ATOMIC fetch-add (with a carry) and
   compare-and-swap (hit and miss) change memory as §6.5 says and reply with
   the old value */
static void t_reply(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  const uint64_t va = 0x00007F000000A000ull, rva = 0x0000123400000040ull;
  put_pte(h, 0x123, va, 0x380000, 1, 3);
  const uint32_t pa = 0x380000u / 8u;
  h->mem[pa] = 0x1111222233334444ull;
  h->mem[pa + 1] = 0x5555666677778888ull;
  const uint32_t rd[6] = {0x01230022u,          5, (uint32_t)va, (uint32_t)(va >> 32), (uint32_t)rva,
                          (uint32_t)(rva >> 32)};
  unsigned f0 = h->nf;
  send_words(h, rd, 6);
  run(h, 60);
  int hd = find_head(h, f0);
  CHECK(t, h->nf > f0 && h->f[f0].kind == ELAN4_TOKEN && h->f[f0].data == 1, "READ acked");
  CHECK(t, hd >= 0, "a reply packet");
  if (hd >= 0) {
    uint32_t route, b[32];
    bool crc;
    unsigned nb = packet_at(h, (unsigned)hd, &route, b, &crc);
    const uint32_t want[8] = {0x01230021u, 3,           0x40,        0x1234,
                              0x33334444u, 0x11112222u, 0x77778888u, 0x55556666u};
    bool same = nb == 8 && crc && route == ROUTE5 && h->f[hd].vc == c.vc_reply;
    for (unsigned i = 0; same && i < 8; i++) same = b[i] == want[i];
    CHECK(t, same, "reply: WRITE n 2 to the reply VA with the data, route 5, VC VcReply, CRC");
  }
  token(h, c.vc_reply, true);
  /* the same READ with E (§4.6: a reply event VA after the reply VA): the reply
     WRITE has E (W0 bit 8) and that event VA as its last dword */
  const uint64_t eva = 0x0000123400000080ull;
  const uint32_t rde[8] = {0x01230122u,   5,
                           (uint32_t)va,  (uint32_t)(va >> 32),
                           (uint32_t)rva, (uint32_t)(rva >> 32),
                           (uint32_t)eva, (uint32_t)(eva >> 32)};
  f0 = h->nf;
  send_words(h, rde, 8);
  run(h, 60);
  hd = find_head(h, f0);
  CHECK(t, hd >= 0, "a reply packet to the READ with E");
  if (hd >= 0) {
    uint32_t route, b[32];
    bool crc;
    unsigned nb = packet_at(h, (unsigned)hd, &route, b, &crc);
    const uint32_t want[10] = {0x01230121u, 3,           0x40,        0x1234, 0x33334444u,
                               0x11112222u, 0x77778888u, 0x55556666u, 0x80,   0x1234};
    bool same = nb == 10 && crc && route == ROUTE5;
    for (unsigned i = 0; same && i < 10; i++) same = b[i] == want[i];
    CHECK(t, same, "reply to a READ with E: WRITE n 2, E, the data, then the reply event VA (%u words)", nb);
  }
  token(h, c.vc_reply, true);
  /* ATOMICs on dword pa: FADD 1 on 0xFFFFFFFF (carry), CAS hit, CAS miss */
  static const struct {
    unsigned A;
    uint64_t init, a, b, mem_after;
  } at[] = {
      {0, 0xFFFFFFFFull, 1, 0, 0x100000000ull},
      {1, 7, 7, 9, 9},
      {1, 7, 8, 9, 7},
  };
  for (unsigned k = 0; k < 3; k++) {
    h->mem[pa] = at[k].init;
    const uint32_t w[10] = {0x01230004u | at[k].A << 9,
                            5,
                            (uint32_t)va,
                            (uint32_t)(va >> 32),
                            (uint32_t)at[k].a,
                            (uint32_t)(at[k].a >> 32),
                            (uint32_t)at[k].b,
                            (uint32_t)(at[k].b >> 32),
                            (uint32_t)rva,
                            (uint32_t)(rva >> 32)};
    f0 = h->nf;
    send_words(h, w, 10);
    run(h, 60);
    CHECK(t, h->mem[pa] == at[k].mem_after, "atomic %u: memory 0x%llx (want 0x%llx)", k,
          (unsigned long long)h->mem[pa], (unsigned long long)at[k].mem_after);
    hd = find_head(h, f0);
    if (hd >= 0) {
      uint32_t route, b[32];
      bool crc;
      unsigned nb = packet_at(h, (unsigned)hd, &route, b, &crc);
      CHECK(t,
            nb == 6 && crc && b[0] == 0x01230011u && b[4] == (uint32_t)at[k].init &&
                b[5] == (uint32_t)(at[k].init >> 32),
            "atomic %u: reply carries the old value", k);
    } else {
      CHECK(t, false, "atomic %u: a reply packet", k);
    }
    token(h, c.vc_reply, true);
  }
  h_free(h);
  free(h);
}

/* §6.8: RUN_DMA of 100 dwords whose source crosses a page after 32 dwords and
   whose destination after 6: WRITE packets of <= 8 dwords crossing no page on
   either side, every dword delivered once to its address, on VC VcDma; all
   acked: the local event is set (an INTERRUPT event fires: cause 2) */
static void t_dma(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  h->auto_ack = true;
  const uint64_t s1 = 0x00007F000000C000ull, s2 = s1 + 0x2000, evva = 0x00007F0000004000ull;
  put_pte(h, 0x123, s1, 0x360000, 1, 3);
  put_pte(h, 0x123, s2, 0x362000, 1, 3);
  put_pte(h, 0x123, evva, 0x300000, 1, 3);
  const uint64_t src = s1 + 0x1F00, dst = 0x0000555500001FD0ull; /* 6 dwords to the page end */
  const unsigned N = 100;
  for (unsigned i = 0; i < N; i++) {
    uint64_t pa = i < 32 ? 0x360000u + 0x1F00u + 8u * i : 0x362000u + 8u * (i - 32);
    h->mem[pa / 8u] = 0xD00000000ull + i;
  }
  h->mem[0x300000u / 8u] = E0(-1, 0, 2);
  h->mem[0x300000u / 8u + 1] = 0xD0DE;
  h->mem[0x300000u / 8u + 3] = 0x123;
  open_q(h, 0, QBASE, 0x123);
  const unsigned f0 = h->nf, i0 = h->nirq;
  const uint64_t cmd[8] = {
      0x0000000000050005ull | 1u << 9 | (uint64_t)(8 * N) << 32, src, dst, 0, evva, 0, 0, 0};
  for (unsigned k = 0; k < 8; k++) qwrite(h, 0, 1 + k, cmd[k]);
  run(h, 1200);
  unsigned got[100] = {0}, pkts = 0;
  bool ok = true;
  for (int i = find_head(h, f0); i >= 0; i = find_head(h, (unsigned)i + 1)) {
    uint32_t route, b[32];
    bool crc;
    unsigned nb = packet_at(h, (unsigned)i, &route, b, &crc);
    pkts++;
    const unsigned m = (b[0] >> 4) & 15u;
    const uint64_t va = b[2] | (uint64_t)b[3] << 32;
    ok = ok && crc && route == ROUTE5 && h->f[i].vc == c.vc_dma && nb == 4 + 2 * m && m >= 1 && m <= 8 &&
         (b[0] & 0xFFFF010Fu) == 0x01230001u && (va & 7u) == 0 && va >= dst;
    const unsigned o = (unsigned)((va - dst) / 8u);
    ok = ok && (va & 0x1FFFu) + 8u * m <= 0x2000u && ((src + 8u * o) & 0x1FFFu) + 8u * m <= 0x2000u;
    for (unsigned k = 0; k < m && o + k < N; k++) {
      got[o + k]++;
      ok = ok && (b[4 + 2 * k] | (uint64_t)b[5 + 2 * k] << 32) == 0xD00000000ull + o + k;
    }
  }
  bool once = true;
  for (unsigned i = 0; i < N; i++) once = once && got[i] == 1;
  CHECK(t, ok, "DMA packets: route, VC, format, data, no page crossed on either side");
  CHECK(t, once && pkts == 14, "every dword delivered exactly once in 14 packets (%u)", pkts);
  CHECK(t, h->nirq == i0 + 1 && h->irq[i0].cause == 2 && h->irq[i0].data == 0xD0DE,
        "all acked: the local event fired (interrupt cause 2)");
  h_free(h);
  free(h);
}

/* §6.8, §6.9: a DMA that fails with code 3 (its retries used up) while one of its host reads, on a
   tag other than 0, is out: the read keeps its tag and its late data is discarded, not taken by the
   DMA behind it. RetryLimit 0: the first nack fails it. The source starts 2 dwords before a host
   page's end: two host reads (2 and 8 dwords); the first is held until the second is taken (tag 1,
   the lowest free, §5.1 rule 5), then answered; the second only after the failure, while the next
   DMA (8 dwords from local memory) runs. */
static void t_dma_fail_tags(tctx_t *t) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.retry_limit = 0;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  h->in.hm_ready = true;
  const uint64_t hs = 0x00007F000000E000ull, ls = 0x00007F0000020000ull, hpa = 0x7000000u;
  put_pte(h, 0x123, hs, hpa, 0, 3);
  put_pte(h, 0x123, hs + 0x2000, hpa + 0x10000, 0, 3);
  put_pte(h, 0x123, ls, 0x364000, 1, 3);
  for (unsigned i = 0; i < 8; i++) h->mem[0x364000u / 8u + i] = 0x2000000000ull + i;
  open_q(h, 0, QBASE, 0x123);
  const unsigned f0 = h->nf, i0 = h->nirq;
  const uint64_t dy = 0x0000555500000000ull, dz = 0x0000555500004000ull;
  const uint64_t y[8] = {0x50005ull | (uint64_t)(8 * 10) << 32, hs + 0x1FF0, dy, 0, 0, 0, 0, 0};
  const uint64_t z[8] = {0x50005ull | (uint64_t)(8 * 8) << 32, ls, dz, 0, 0, 0, 0, 0};
  for (unsigned k = 0; k < 8; k++) qwrite(h, 0, 1 + k, y[k]);
  for (unsigned k = 0; k < 8; k++) qwrite(h, 0, 9 + k, z[k]);
  for (unsigned k = 0; k < 400 && h->nhr < 2; k++) step(h);
  const bool two = h->nhr == 2 && h->hr[0].tag == 0 && h->hr[0].len == 2 && h->hr[0].addr == hpa + 0x1FF0 &&
                   h->hr[1].tag == 1 && h->hr[1].len == 8 && h->hr[1].addr == hpa + 0x10000;
  CHECK(t, two, "the failing DMA's two host reads: 2 dwords on tag 0, then 8 on tag 1 (%u reads, tags %u %u)",
        h->nhr, h->hr[0].tag, h->hr[1].tag);
  if (two) {
    h->hr[0].ans_at = h->cyc;
    int tl = -1; /* its first packet's TAIL, nacked: code 3 */
    for (unsigned k = 0; k < 400 && tl < 0; k++) {
      step(h);
      for (unsigned i = f0; i < h->nf && tl < 0; i++)
        if (h->f[i].kind == ELAN4_TAIL) tl = (int)i;
    }
    token(h, c.vc_dma, false);
    for (unsigned k = 0; k < 100 && h->nirq == i0; k++) step(h);
    CHECK(t,
          tl >= 0 && h->nirq == i0 + 1 && h->irq[i0].cause == 5 && h->irq[i0].info == 0 &&
              h->irq[i0].data == 3,
          "its first packet nacked: code 3 (cause 5, queue 0)");
    h->hr[1].ans_at = h->cyc; /* the tag-1 read's data, while the next DMA runs */
    h->auto_ack = true;
    run(h, 600);
  }
  unsigned got[8] = {0}, pkts = 0;
  bool ok = two;
  for (int i = find_head(h, f0); i >= 0 && two; i = find_head(h, (unsigned)i + 1)) {
    uint32_t route, b[32];
    bool crc;
    const unsigned nb = packet_at(h, (unsigned)i, &route, b, &crc), m = (b[0] >> 4) & 15u;
    const uint64_t va = b[2] | (uint64_t)b[3] << 32;
    ok = ok && crc && nb == 4 + 2 * m;
    if (pkts++ == 0) { /* the failing DMA's: the host's data */
      ok = ok && va == dy && m == 2;
      for (unsigned k = 0; k < m && k < 2; k++)
        ok = ok && (b[4 + 2 * k] | (uint64_t)b[5 + 2 * k] << 32) == HOSTD(hpa + 0x1FF0 + 8u * k);
      continue;
    }
    const unsigned o = (unsigned)((va - dz) / 8u);
    ok = ok && va >= dz && o + m <= 8;
    for (unsigned k = 0; k < m && o + k < 8; k++) {
      got[o + k]++;
      ok = ok && (b[4 + 2 * k] | (uint64_t)b[5 + 2 * k] << 32) == 0x2000000000ull + o + k;
    }
  }
  bool once = two;
  for (unsigned i = 0; i < 8; i++) once = once && got[i] == 1;
  CHECK(t, ok && once,
        "the next DMA's packets carry its own 8 dwords, once each; the late tag-1 data "
        "went nowhere (%u packets)",
        pkts);
  CHECK(t, two && h->hr[1].sent == 8 && h->out.cnt[ELAN4_CNT_PROTO_ERR] == 0,
        "the late read answered in full on its tag, no protocol error");
  h_free(h);
  free(h);
}

/* §6.2: three queues on two slots: victims, spills (d1 in local memory),
   reloads with the positions kept, the commands still right */
static void t_cache(tctx_t *t, unsigned bug) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.num_cq = 2;
  c.bug = bug;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  open_q(h, 0, QBASE, 0x123);
  open_q(h, 1, QBASE + 0x400, 0x123);
  open_q(h, 2, QBASE + 0x800, 0x123); /* evicts queue 0 (slot 0) */
  const uint32_t d1 = (c.desc_base + 16u * 0 + 8u) / 8u;
  CHECK(t, h->mem[d1] == (1ull << 8 | 1ull << 12 | 1ull << 32), "queue 0 spilled: OK, wp 1, rp 1 (d1 0x%llx)",
        (unsigned long long)h->mem[d1]);
  const unsigned f0 = h->nf;
  qwrite(h, 0, 1, 0x0000000000050011ull); /* queue 0 again: evicts queue 1 */
  qwrite(h, 0, 2, 0x00007F0000001000ull);
  qwrite(h, 0, 3, 0x77);
  run(h, 40);
  CHECK(t, h->nf == f0 + 8 && h->f[f0 + 5].data == 0x77,
        "queue 0's command after its reload: one packet, its data");
  CHECK(t, h->out.cnt[ELAN4_CNT_CQ_LOAD] == 4 && h->out.cnt[ELAN4_CNT_CQ_SPILL] == 2,
        "4 loads, 2 spills (%u, %u)", h->out.cnt[ELAN4_CNT_CQ_LOAD], h->out.cnt[ELAN4_CNT_CQ_SPILL]);
  uint64_t s = status(h, 1); /* not cached: from d1 */
  CHECK(t, st_state(s) == ELAN4_Q_OK && !(s >> 10 & 1u) && st_wp(s) == 1,
        "queue 1 uncached, OK, wp 1 (0x%llx)", (unsigned long long)s);
  h_free(h);
  free(h);
}

/* §4.1, §6.1, §7: bad PIO, the window, E_PARTIAL, E_DUP, E_GAP, E_OVERFLOW */
static void t_intake(tctx_t *t) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.gap_timeout = 16;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  pio(h, true, 0x80000000u + 0x3F0000u, 0xFEEDull, 0xFF);
  pio(h, false, 0x80000000u + 0x3F0000u, 0, 0);
  run(h, 6);
  CHECK(t, h->mem[0x3F0000u / 8u] == 0xFEED && h->rdata == 0xFEED, "window write then read");
  pio(h, true, 0x80000004u, 1, 0xFF); /* misaligned */
  pio(h, true, 0x01000000u, 1, 0xFF); /* no row */
  run(h, 4);
  CHECK(t, h->out.cnt[ELAN4_CNT_PIO_BAD] == 2, "2 bad PIOs counted (%u)", h->out.cnt[ELAN4_CNT_PIO_BAD]);
  open_q(h, 0, QBASE, 1);
  open_q(h, 1, QBASE + 0x400, 1);
  open_q(h, 2, QBASE + 0x800, 1);
  open_q(h, 3, QBASE + 0xC00, 1);
  pio(h, true, 0x0008, 0, 0x0F); /* queue 0: partial */
  qwrite(h, 1, 3, 0);            /* queue 1: out of order ... */
  qwrite(h, 1, 3, 0);            /* ... twice */
  qwrite(h, 2, 5, 0);            /* queue 2: a gap never filled */
  run(h, 30);
  uint64_t s0 = status(h, 0), s1 = status(h, 1), s2 = status(h, 2);
  CHECK(t, st_code(s0) == ELAN4_E_PARTIAL && st_pos(s0) == 1, "E_PARTIAL at wp 1 (0x%llx)",
        (unsigned long long)s0);
  CHECK(t, st_code(s1) == ELAN4_E_DUP && st_pos(s1) == 3, "E_DUP at 3 (0x%llx)", (unsigned long long)s1);
  CHECK(t, st_code(s2) == ELAN4_E_GAP && st_pos(s2) == 1, "E_GAP at wp 1 (0x%llx)", (unsigned long long)s2);
  /* queue 3 (class 0: 128 dwords): two WRITEs unacked keep fp at 1; NOPs fill to fp + 127 */
  for (unsigned i = 0; i < 2; i++) {
    qwrite(h, 3, 1 + 3 * i, 0x0000000000050011ull);
    qwrite(h, 3, 2 + 3 * i, 0x00007F0000001000ull);
    qwrite(h, 3, 3 + 3 * i, 5);
  }
  for (unsigned p = 7; p < 129; p++) qwrite(h, 3, p, 0);
  run(h, 20);
  uint64_t s3 = status(h, 3);
  CHECK(t, st_state(s3) == ELAN4_Q_OK && st_pos(s3) == 1, "fp held at 1 by unacked packets (0x%llx)",
        (unsigned long long)s3);
  qwrite(h, 3, 129, 0);
  run(h, 4);
  s3 = status(h, 3);
  CHECK(t, st_code(s3) == ELAN4_E_OVERFLOW && st_pos(s3) == 129, "E_OVERFLOW at fp + 128 (0x%llx)",
        (unsigned long long)s3);
  CHECK(t, h->out.cnt[ELAN4_CNT_CQ_ERROR] == 4, "4 queue errors counted");
  h_free(h);
  free(h);
}

/* Robustness: random garbage on every input for many cycles (random PIO to
   every region, random commands and CQCTL values, random flits, tokens,
   credits, stray lm/hm data, hm_ready): the model must stay inside its arrays
   (ASan/UBSan) and keep §3's port rules: idle fields 0, lm_be_o 0xFF on
   writes, out_vc_o < NumVcs, hm requests held until taken. */
static void t_fuzz(tctx_t *t, uint64_t seed, unsigned cycles) {
  elan4_cfg_t c;
  elan4_cfg_default(&c);
  c.gap_timeout = 64;
  c.ack_timeout = 300;
  c.retry_backoff = 2;
  c.retry_limit = 3;
  h_t *h = malloc(sizeof *h);
  h_init(h, &c);
  uint64_t r = seed;
  for (unsigned q = 0; q < 3; q++)
    put_pte(h, 0x123, 0x00007F0000000000ull + 0x2000ull * q, 0x200000 + 0x2000 * q, q, 7);
  bool ok = true;
  elan4_out_t prev = {0};
  bool prev_ready = false;
  for (unsigned k = 0; k < cycles && ok; k++) {
    uint64_t x = unit_splitmix64(&r);
    if (!h->in.ht_valid && (x & 3u) == 0) {
      static const uint32_t base[5] = {0x0000, 0x1000, 0x02000000u, 0x02100000u, 0x80000000u};
      uint64_t y = unit_splitmix64(&r);
      h->in.ht_valid = true;
      h->in.ht_write = (y & 7u) != 0;
      h->in.ht_addr = base[(y >> 3) % 5] + (uint32_t)((y >> 8) & 0x3F8u) + (((y >> 20) & 63u) == 0 ? 4u : 0u);
      if ((y >> 3) % 5 == 4) h->in.ht_addr = 0x80000000u + (uint32_t)((y >> 8) & 0x1FFFF8u);
      uint64_t d = unit_splitmix64(&r);
      static const uint64_t cmds[6] = {
          0x0000000000050011ull, 0x0000000000050003ull | 1u << 9, 0x7, 6, 0, 0x0000000000050002ull | 0x10};
      h->in.ht_data = (y >> 40) & 1u ? cmds[(y >> 41) % 6] : d;
      if (h->in.ht_addr >= 0x02000000u && h->in.ht_addr < 0x02100000u && ((y >> 45) & 1u))
        h->in.ht_data = cqctl_val(QBASE + 0x400u * ((y >> 46) & 7u), 0x123, EN_ALL);
      h->in.ht_be = ((y >> 50) & 15u) ? 0xFF : (uint8_t)(y >> 56);
    }
    if ((x >> 8) % 4 == 0) {
      h->in.in_valid = true;
      h->in.in_kind = (uint8_t)((x >> 12) & 3u);
      h->in.in_vc = (uint8_t)((x >> 14) & 1u);
      h->in.in_data = (x >> 16) & 1u ? 0xFFFFFFFFu : (uint32_t)(x >> 20);
    }
    h->in.in_credit = (uint8_t)((x >> 40) & 3u);
    h->in.hm_ready = (x >> 42) & 1u;
    h->in.hm_rvalid = ((x >> 43) & 7u) == 0;
    h->in.hm_rtag = (uint8_t)((x >> 46) & 15u);
    h->in.hm_rdata = x;
    h->in.lm_rvalid = ((x >> 50) & 31u) == 0;
    step(h);
    const elan4_out_t *o = &h->out;
    ok = ok && (!o->lm_valid || !o->lm_write || o->lm_be == 0xFF) &&
         (o->lm_valid || (!o->lm_addr && !o->lm_wdata));
    ok = ok && (!o->lm_write || o->lm_valid) && o->out_vc < c.num_vcs &&
         (o->out_valid || (!o->out_data && !o->out_kind));
    ok = ok && (o->irq_valid || (!o->irq_cause && !o->irq_data)) && (o->ht_rvalid || !o->ht_rdata);
    ok = ok && (o->hm_valid || (!o->hm_addr && !o->hm_data && !o->hm_len));
    /* a request shown and not taken is shown again, unchanged */
    ok = ok && (!prev.hm_valid || prev_ready ||
                (o->hm_valid && o->hm_addr == prev.hm_addr && o->hm_write == prev.hm_write &&
                 o->hm_len == prev.hm_len));
    prev = *o;
    prev_ready = h->in.hm_ready;
    if (!ok) printf("  fuzz: port rule broken at cycle %llu\n", (unsigned long long)h->cyc - 1);
  }
  CHECK(t, ok, "fuzz seed %llu: %u cycles of garbage, port rules kept", (unsigned long long)seed, cycles);
  CHECK(t, h->out.cnt[ELAN4_CNT_PIO_WR] > 0 && h->out.cnt[ELAN4_CNT_PROTO_ERR] > 0,
        "the garbage reached the NIC");
  h_free(h);
  free(h);
}

/* each planted bug is caught by the test named for it */
static unsigned run_case(unsigned which, unsigned bug) {
  tctx_t q = {0, 0, 0};
  switch (which) {
    case 0: t_golden(&q, bug, 2, false); break;
    case 1: t_empty(&q, bug); break;
    case 2: t_ooo(&q, bug); break;
    case 3: t_inflight(&q, bug); break;
    case 5: t_rx(&q, bug); break;
    case 6: t_event(&q, bug); break;
    case 7: t_reply(&q, bug); break;
    case 8: t_dma(&q, bug); break;
    case 9: t_cache(&q, bug); break;
    default: t_reset(&q, bug); break;
  }
  return (unsigned)q.failed;
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
  printf("seed: %llu\n", (unsigned long long)seed);
  tctx_t t = {0, 0, seed};
  t_params(&t);
  for (unsigned L = 1; L <= 8; L++) {
    t_golden(&t, 0, L, false);
    t_golden(&t, 0, L, true);
  }
  { /* near elan4.cosim's max and min targets: the same flits; the max keeps §9.1's cycles */
    elan4_cfg_t mx, mn;
    elan4_cfg_default(&mx);
    mx.num_cq = 32, mx.num_queues = 8192, mx.depth_kb[0] = 64, mx.depth_kb[1] = 128, mx.depth_kb[2] = 256;
    mx.ooo_window = 64, mx.head_dwords = 64, mx.num_nodes = 4096, mx.num_vcs = 4, mx.link_buf = 64;
    mx.max_outstanding = 64, mx.lm_latency = 8, mx.tlb_entries = 128, mx.vc_sten = 3, mx.vc_dma = 2,
    mx.vc_reply = 1;
    t_golden_cfg(&t, &mx, false, true);
    elan4_cfg_default(&mn);
    mn.num_cq = 1, mn.num_queues = 1, mn.depth_kb[1] = 2, mn.depth_kb[2] = 4, mn.depth_kb[3] = 8;
    mn.ooo_window = 1, mn.head_dwords = 12, mn.num_nodes = 8, mn.link_buf = 4, mn.max_outstanding = 2;
    mn.lm_latency = 1, mn.tlb_entries = 2, mn.pt_bits = 4;
    t_golden_cfg(&t, &mn, false, false);
  }
  t_empty(&t, 0);
  t_ooo(&t, 0);
  t_inflight(&t, 0);
  t_retry(&t);
  t_timeout(&t);
  t_codes(&t);
  t_reset(&t, 0);
  t_rx(&t, 0);
  t_event(&t, 0);
  t_reply(&t, 0);
  t_dma(&t, 0);
  t_dma_fail_tags(&t);
  t_cache(&t, 0);
  t_intake(&t);
  for (unsigned k = 0; k < 4; k++) t_fuzz(&t, seed * 1000003u + k, 20000);
  /* negatives: capture the planted bug's failures quietly, expect at least one */
  static const struct {
    unsigned bug, test;
  } neg[] = {
      {ELAN4_BUG_OOO_RELEASE_EARLY, 2},    {ELAN4_BUG_EMPTY_EXTRA_CYCLE, 1},
      {ELAN4_BUG_STEN_THREE_INFLIGHT, 3},  {ELAN4_BUG_GUARD_IGNORED, 3},
      {ELAN4_BUG_IRQ_CODE_SWAPPED, 2},     {ELAN4_BUG_RESET_KEEPS_IRQ, 4},
      {ELAN4_BUG_TLB_IGNORES_CTX, 5},      {ELAN4_BUG_COPY_REVERSED, 6},
      {ELAN4_BUG_FIRE_ON_EQUAL, 6},        {ELAN4_BUG_FADD_NO_CARRY, 7},
      {ELAN4_BUG_CAS_ALWAYS_SWAPS, 7},     {ELAN4_BUG_DMA_PAGE_CROSS, 8},
      {ELAN4_BUG_RESEND_FROM_NEW_DATA, 3}, {ELAN4_BUG_ERROR_SPILLS, 2},
      {ELAN4_BUG_SPILL_WRONG_POSITION, 9},
  };
  for (unsigned i = 0; i < sizeof neg / sizeof neg[0]; i++) {
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) dup2(null, 1);
    unsigned f = run_case(neg[i].test, neg[i].bug);
    fflush(stdout);
    if (saved >= 0 && null >= 0) dup2(saved, 1);
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    CHECK(&t, f > 0, "planted bug %s is caught", elan4_bug_names[neg[i].bug]);
  }
  if (t.failed) printf("rerun: build/asan/bin/test_elan4 %llu\n", (unsigned long long)seed);
  return unit_summary(&t);
}
