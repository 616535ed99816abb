/* elan4_pio: the PIO operations of docs/elan4.md §4.1 that no other test
 * issues (docs/coverage.md, elan4's uncovered host-port points), one at a
 * time, with the test's own reference (§4.1's address map, §6.1's PIO
 * table, §6.10's counters), never the model's code.
 *
 * Node 1, no queue opened, no network traffic. The script, each request
 * from the cycle the previous one was accepted (a read: answered):
 *   W1 local-memory window write, byte WA (0x8000_0000 + WA): one local-memory
 *      write of DA at dword WA/8, all bytes;
 *   W2 a window write with ht_be_i 0x0F: bad, no write;
 *   R1 window read of WA: DA; R2 window read of WB (preloaded): DB;
 *   W3 TLBFLUSH (0x0210_0000); R3 a TLBFLUSH read: 0, not bad (§14 (3));
 *   R4 a read of queue 0's page, R5 a misaligned window read, R6 a read of
 *      an address in no row: each 0, bad;
 *   W4 a write to an address in no row, W5 a TLBFLUSH with ht_be_i 0x0F: bad.
 * Checks (elan4.pio): each answer's data and tag, in script order; the only
 * local-memory requests are W1's write and R1's and R2's reads, at their
 * dwords; no host-master request, packet or interrupt; then cnt_pio_wr 5,
 * cnt_pio_rd 6, cnt_pio_bad 6. */
#include "elan4_harness.h"

enum { NODE = 1, START = 8 };
#define WIN 0x80000000u
#define WA  0x00100000u /* byte addresses in local memory, above the descriptors, routes and page table */
#define WB  0x00100800u
#define DA  0x0123456789ABCDEFull
#define DB  0xFEDCBA9876543210ull

static const struct {
  bool write;
  uint32_t addr;
  uint64_t data;
  uint8_t be;
  uint64_t answer; /* a read's */
} script[] = {
    {true, WIN + WA, DA, 0xFF, 0},         /* W1 */
    {true, WIN + WA + 8u, DB, 0x0F, 0},    /* W2: partial window write, bad */
    {false, WIN + WA, 0, 0xFF, DA},        /* R1 */
    {false, WIN + WB, 0, 0xFF, DB},        /* R2 */
    {true, 0x02100000u, 0x5555u, 0xFF, 0}, /* W3: TLBFLUSH */
    {false, 0x02100000u, 0, 0xFF, 0},      /* R3: TLBFLUSH read, 0, not bad */
    {false, 0x00000008u, 0, 0xFF, 0},      /* R4: queue page read, bad */
    {false, WIN + WA + 4u, 0, 0xFF, 0},    /* R5: misaligned, bad */
    {false, 0x03000000u, 0, 0xFF, 0},      /* R6: in no row, bad */
    {true, 0x03000000u, 1, 0xFF, 0},       /* W4: in no row, bad */
    {true, 0x02100000u, 0, 0x0F, 0},       /* W5: partial TLBFLUSH, bad */
};
enum { NSCRIPT = sizeof script / sizeof script[0], N_WR = 5, N_RD = 6, N_BAD = 6 };

typedef struct {
  const elan4_view_t *vw;
  e4h_lm_t lm;
  unsigned step;       /* next request */
  unsigned nans;       /* reads answered */
  bool wait_answer;    /* a read accepted, its answer not yet seen */
  unsigned nlmw, nlmr; /* local-memory writes and reads seen */
  uint64_t done_at;    /* the last answer or acceptance; 0 while running */
  unsigned owed[4];
} g_t;

static void init_view(g_t *g, const elan4_view_t *vw) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->lm.mem[WB / 8u] = DB;
}
E4H_INIT(init_default, init_view, elan4_default_view)
E4H_INIT(init_min, init_view, elan4_min_view)

static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  g_t *g = ctx;
  (void)rng;
  (void)prev_out;
  e4h_drive_base(g->vw, in, &g->lm, cycle, NODE, g->owed, (unsigned)g->vw->param.NumVcs);
  if (cycle >= START && g->step < NSCRIPT && !g->wait_answer) {
    e4h_drive_pio(g->vw, in, script[g->step].write, script[g->step].addr, script[g->step].data,
                  (uint8_t)(0x40u + g->step));
    IN(ht_be_i, script[g->step].be);
  }
  return !(g->done_at && cycle > g->done_at + 6);
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  g_t *g = ctx;
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o);
    if (OUT(lm_write_o)) {
      if (g->nlmw++ || a != WA / 8u || OUT(lm_wdata_o) != DA || OUT(lm_be_o) != 0xFF)
        return FAIL("elan4.pio",
                    "local-memory write %u at dword 0x%x data 0x%016llx be 0x%02llx (cycle %llu): "
                    "want only W1's, dword 0x%x data 0x%016llx be 0xff",
                    g->nlmw, a, (unsigned long long)OUT(lm_wdata_o), (unsigned long long)OUT(lm_be_o),
                    (unsigned long long)cycle, WA / 8u, (unsigned long long)DA);
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else {
      const uint32_t want = g->nlmr == 0 ? WA / 8u : WB / 8u;
      if (g->nlmr++ >= 2 || a != want)
        return FAIL("elan4.pio", "local-memory read %u at dword 0x%x (cycle %llu): want only R1's and R2's",
                    g->nlmr, a, (unsigned long long)cycle);
      e4h_lm_read(&g->lm, cycle, a);
    }
  }
  if (OUT(hm_valid_o) || OUT(out_valid_o) || OUT(irq_valid_o))
    return e4h_fail_at(msg, "elan4.pio", "a host-master request, packet or interrupt, none expected", cycle);
  if (OUT(ht_rvalid_o)) {
    /* the answer of the read accepted last (one read at a time) */
    unsigned k = g->step - 1;
    if (!g->wait_answer || script[k].write)
      return e4h_fail_at(msg, "elan4.pio", "an answer with no read outstanding", cycle);
    if (OUT(ht_rdata_o) != script[k].answer || OUT(ht_rtag_o) != 0x40u + k)
      return FAIL("elan4.pio",
                  "read %u (addr 0x%08x) answered 0x%016llx tag 0x%02llx, want 0x%016llx tag 0x%02x", k,
                  script[k].addr, (unsigned long long)OUT(ht_rdata_o), (unsigned long long)OUT(ht_rtag_o),
                  (unsigned long long)script[k].answer, 0x40u + k);
    g->wait_answer = false;
    g->nans++;
    if (g->step == NSCRIPT) g->done_at = cycle;
  }
  if (INP(ht_valid_i) && OUT(ht_ready_o)) {
    g->wait_answer = !script[g->step].write;
    g->step++;
    if (g->step == NSCRIPT && !g->wait_answer) g->done_at = cycle;
  }
  /* §6.10: an event of cycle t is in the value shown in t+2 */
  if (g->done_at && cycle == g->done_at + 4) {
    const uint64_t wr = CNT(0), rd = CNT(1), bad = CNT(2);
    if (wr != N_WR || rd != N_RD || bad != N_BAD)
      return FAIL("elan4.pio", "cnt_pio_wr %llu rd %llu bad %llu (cycle %llu), want %u %u %u",
                  (unsigned long long)wr, (unsigned long long)rd, (unsigned long long)bad,
                  (unsigned long long)cycle, N_WR, N_RD, N_BAD);
  }
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  g_t *g = ctx;
  if (g->step != NSCRIPT || g->nans != N_RD || g->nlmw != 1 || g->nlmr != 2 || !g->done_at ||
      cycles < g->done_at + 5) {
    cosim_fail(msg, "elan4.pio", "incomplete: %u of %u requests, %u of %u answers, %u/%u local writes/reads",
               g->step, (unsigned)NSCRIPT, g->nans, (unsigned)N_RD, g->nlmw, g->nlmr);
    return false;
  }
  return true;
}

COSIM_TEST(
    elan4_pio, .target = &elan4_default_target,
    .purpose = "docs/elan4.md §4.1: window write/read, TLBFLUSH, bad PIO reads and writes, their counters",
    .ctx_size = sizeof(g_t), .init = init_default, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_pio_min, .target = &elan4_min_target, .purpose = "elan4_pio on the min target (LmLatency 1)",
           .ctx_size = sizeof(g_t), .init = init_min, .drive = drive, .check = check, .finish = finish)
