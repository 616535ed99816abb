/* elan4 random: random command streams from the host into several queues,
 * the network side answered by a responder in this test, in lockstep
 * (default) or model mode, judged by an independent scoreboard written from
 * docs/elan4.md alone (§4.3 commands, §4.4 events, §4.5 tables, §4.6
 * packets, §6 behaviour, §7 error codes, §8 isolation), never the model's
 * code (CRCs by testbench/ref/crc32_ref.h).
 *
 * Host side: NQ queues (min(NumCq, 6)), each its own context and page (its
 * local event, reply event and reply slots), fed NOP, WRITE 1-8 dwords
 * (+ remote event), READ 1-8 (+ reply event), SETEVENT local and remote,
 * WAITEVENT, INTERRUPT, ATOMIC fadd/cas (+ reply event) and GUARD, the
 * dwords of a command optionally permuted within OooWindow (§6.1), as long
 * as the queue's unretired dwords fit its depth. Commands retire when
 * accepted (tr_cmd_o), their packet acked and their reply landed, so ids and
 * positions recycle and the load stays up for the whole run. Bad PIOs
 * (misaligned or unmapped BAR addresses, §4.1) are mixed in.
 *
 * Isolation (§8): with --isolation (the default on targets with 4+ slots)
 * the last queues are *victims*: now and then a victim stops, waits until
 * its own traffic is done, and gets one malformed input (bad opcode, bad
 * length, must-be-0 bits, misaligned or page-crossing VA, disabled class,
 * destination out of range, invalid route entry, partial write, write
 * beyond the window, duplicate write). It must enter ERROR with §7's code
 * and position (interrupt cause 3, status word by PIO), and nothing else may
 * change: no other queue errs, every other queue's traffic completes
 * byte-exact. Then the host re-opens it (CQCTL) and it carries on.
 *
 * Network side (the test plays the neighbour and every remote node): each
 * packet leaving on out_* is checked flit by flit against the scoreboard's
 * own packet for the queue's next command (per-queue order, §4.6 header,
 * payload, CRC), answered in order per VC after a random delay with an ack
 * or, sometimes, a nack (resend expected, identical; never more than
 * RetryLimit), credits returned late. READ and ATOMIC are executed by the
 * remote (the test's own memory image) and answered with reply packets on
 * in_* (some with a bad CRC first: nacked, resent). Remote traffic into the
 * NIC runs meanwhile: WRITEs, READs and ATOMICs from node 0 (replies checked,
 * atomics by our own arithmetic), and malformed packets (bad kind, bad VA,
 * overlength, translation and protection faults, bad CRC) that must be
 * nacked, counted and not executed.
 *
 * Check ids: elan4.packet (a packet's flits, CRC, order), elan4.inflight
 * (two STEN packets per queue), elan4.order (a command accepted before it
 * was written), elan4.guard, elan4.store (backing-store writes carry the
 * host's data), elan4.memory (replies and remote writes land, no stray
 * write), elan4.event (e0 arithmetic, fires), elan4.irq (records), elan4.rx
 * (the NIC's tokens for our packets, credits, counters), elan4.atomic,
 * elan4.qerr (a victim's code, position, status), elan4.isolation (another
 * queue erred), elan4.pio, elan4.stuck (a command not done in time),
 * elan4.busy (fewer than 90 % of cycles with traffic in flight).
 *
 * RUN_DMA is issued by elan4_random_full (1..64 dwords), _full_big (up to
 * 512: several chunks, a full ring) and _full_min (up to 200 on the min
 * target: DmaQueue 1, DmaBufDw 64), all in lockstep since the DMA engine is
 * in RTL; elan4_random_full_nodma is the same pressure (STEN nacks, every
 * reply slot) without it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "elan4_harness.h"
#include "ref/crc32_ref.h"

enum {
  MAXQ = 6,
  RING = 512,     /* commands per queue not yet retired (power of two) */
  STOREDW = 8192, /* the largest class-0 ring (64 KB) */
  NODE = 1,
  SRC = 0,       /* the remote node of the inbound traffic */
  CTX_IN = 0x3F, /* its context */
  NREPLY = 8,    /* reply slots per queue page */
  NATOM = 4,     /* atomic dwords at each side */
  IPQ = 64,      /* inbound packets waiting */
  TOKQ = 128,    /* NIC packets awaiting our token, per VC */
  RPQ = 16,      /* replies expected from the NIC's RP */
  EVQ = 1024     /* event ops / fires / cookies per queue */
};

#define PA_Q(q)  (0x180000u + (uint32_t)(q)*0x2000u)
#define PA_DS(q) (0x1C0000u + (uint32_t)(q)*0x2000u) /* queue q's DMA source page */
#define PA_IN    0x1F0000u /* inbound page: per-VC write areas, atomics at +0x1000 */
#define PA_RO    0x1F2000u /* read-only page (R): the inbound READs' source */
#define HPA \
  0x0001234560000ull                    /* host page of the inbound traffic (space host, §4.5): per-VC write
                                        areas, read-only dwords at +0x800, atomics at +0x1000 */
#define RVA_BASE  0x0000500000000000ull /* remote VAs of our WRITE/READ */
#define RATOM_VA  0x0000600000000000ull /* remote atomic dwords */
#define REVA_BASE 0x0000700000000000ull /* remote event VAs */

typedef enum {
  K_NOP,
  K_WRITE,
  K_READ,
  K_SEVL,
  K_SEVR,
  K_WAIT,
  K_INTR,
  K_ATOMIC,
  K_GUARD,
  K_DMA,
  K_BAD,
  NKIND
} kind_t;
static const char *const kind_name[NKIND] = {
    "NOP",       "WRITE",  "READ",  "SETEVENT-local", "SETEVENT-remote", "WAITEVENT",
    "INTERRUPT", "ATOMIC", "GUARD", "RUN_DMA",        "malformed"};
typedef enum {
  B_OPCODE,
  B_DISABLED,
  B_LEN,
  B_MBZ,
  B_VA,
  B_ROUTE,
  B_NOROUTE,
  B_PARTIAL,
  B_WINDOW,
  B_DUP,
  NBAD
} bad_t;
static const char *const bad_name[NBAD] = {
    "bad opcode",       "disabled class", "bad length",    "must-be-0 bits", "bad VA",
    "dest >= NumNodes", "invalid route",  "partial write", "beyond window",  "duplicate write"};

typedef struct {
  uint8_t kind, len, tries, bad, rslot;
  bool written, accepted, sent, acked, needs_reply, reply_done, resend, dma_done;
  uint32_t pos;
  uint64_t dw[12];
  uint32_t route, body[22];
  uint8_t nbody;
  uint64_t written_at;
} cmd_t;

typedef struct {
  uint8_t set; /* 1 set (inc), 0 prime (e0) */
  uint64_t v;
} evop_t;

typedef enum { V_NORMAL, V_QUIET, V_BAD, V_STATUS, V_STATUS_SENT, V_REOPEN } vstate_t;

/* scenarios a variant must reach (finish() fails elan4.scenario if one never held):
   N_FULLVC: VcReply lists MaxOutstanding of the NIC's packets awaiting our tokens while a reply is owed
   (§6.4: the reply waits; tx_outstanding_bound); N_TAGRACE: a host read of the reply unit outstanding
   while a host ATOMIC of ours awaits its token (with one tag the IP's read waits, §6.5; hm_read_has_tag) */
enum { N_FULLVC = 1, N_TAGRACE = 2 };

typedef struct {
  unsigned qid, ctx;
  uint64_t va;        /* the queue's page VA */
  uint64_t dsva;      /* its DMA source page's VA (elan4_random_full) */
  uint32_t last_head; /* head as the watchdog last saw it, since this cycle: */
  uint64_t head_since;
  uint32_t base; /* backing store */
  uint64_t en;   /* class enables */
  bool victim;
  cmd_t ring[RING];
  uint32_t head, acc, tail, sent_next; /* ring indices, free-running */
  uint32_t pos;                        /* next stream position */
  unsigned inflight;                   /* packets sent, not acked */
  bool rslot_busy[NREPLY];
  uint64_t store[STOREDW]; /* host dword by position mod depth */
  /* the local event: ops in acceptance order, its e0 as predicted */
  evop_t ops[EVQ];
  uint32_t op_h, op_t;
  uint64_t e0;
  uint64_t fire_at[EVQ]; /* predicted fires (cycle) awaiting their cause-2 record */
  uint32_t fire_h, fire_t;
  uint64_t rev_at[EVQ]; /* reply-event sets expected (cycle of the reply's ack) */
  uint32_t rev_h, rev_t;
  uint32_t cookie[EVQ]; /* INTERRUPT cookies, acceptance order */
  uint32_t ck_h, ck_t;
  /* isolation */
  vstate_t vs;
  uint64_t bad_at, bad_written_at;
  uint8_t bad;
  uint32_t bad_pos;
  uint8_t bad_code;
  unsigned errors;
} q_t;

typedef enum {
  IR_REPLY,
  IR_WRITE,
  IR_READ,
  IR_ATOMIC,
  IR_QWRITE,
  IR_SEV,
  IR_BADKIND,
  IR_BADVA,
  IR_OVERLEN,
  IR_XLATE,
  IR_PROT
} irole_t;

typedef struct {
  uint32_t w[26];
  uint8_t nw, role, q, vc, n, aidx;
  bool bad_crc, ack, cas, host; /* host: the target is the host page */
  uint16_t cmd;
  uint32_t pa;
  uint64_t va, rva, a, b, data[8];
} ipkt_t;

typedef struct {
  bool ack, sten, dma;
  uint8_t q;
  uint16_t cmd; /* STEN: ring index; RP: index in rp[] */
  uint64_t rva;
  uint64_t due;
} tok_t;

typedef struct {
  bool used;
  uint64_t rva;
  uint8_t n, tries;
  uint64_t data[8];
  bool sent; /* its reply seen on out_* (once) */
} rpexp_t;

typedef struct {
  bool write;
  uint32_t addr;
  uint64_t data;
  uint8_t be, tag;
} hreq_t;

typedef enum { HB_NONE, HB_CMD, HB_CQCTL, HB_STATUS, HB_BAD, HB_BADPIO } hb_t;

typedef struct {
  const elan4_view_t *vw;
  bool isolation;
  bool sten_nack;               /* nack STEN packets too (resends from the backing store, §6.4) */
  unsigned rd_max;              /* inbound READ/ATOMIC in flight at once (their reply slots) */
  uint64_t stop_at;             /* no new traffic from this cycle (the busy gate's negative) */
  unsigned need;                /* scenarios the run must reach (N_*), else elan4.scenario fails it */
  uint64_t n_fullvc, n_tagrace; /* cycles each scenario held */
  unsigned nq, ndest, nvc, vcs, vcr, depth, win, nackcap;
  uint64_t stuck; /* a command not done this long after it was written: elan4.stuck */
  uint64_t pmask;
  e4h_lm_t lm;
  q_t q[MAXQ];
  uint32_t route[8];
  uint64_t va_in, va_ro;
  /* host */
  hreq_t burst[16];
  unsigned nb, bi, bq;
  uint32_t bcmd;
  hb_t bkind;
  unsigned opening; /* queues opened so far (setup) */
  uint64_t pio_bad, pio_bad_at;
  /* the NIC's outgoing packet being received */
  bool op_on;
  uint8_t op_vc;
  uint32_t op_route, op_body[32];
  unsigned op_n;
  unsigned owed[4]; /* credits we owe the NIC */
  tok_t tq[4][TOKQ];
  uint32_t tq_h[4], tq_t[4];
  uint64_t last_due[4];
  /* remote memory (our WRITE/READ/ATOMIC targets) */
  uint64_t ratom[NATOM];
  /* inbound */
  ipkt_t ip[IPQ];
  uint32_t ip_h, ip_t;
  ipkt_t cur;
  bool cur_on;
  unsigned cur_f;
  ipkt_t aw[16]; /* sent, awaiting the NIC's token, TAIL order */
  uint32_t aw_h, aw_t;
  bool vc_busy[4];
  unsigned sent_vc_mask; /* our flit's VC this cycle */
  unsigned credit_due;   /* ... and last cycle's: its credit due now */
  unsigned in_rdat;      /* inbound READ/ATOMIC not yet answered and acked */
  rpexp_t rp[RPQ];
  uint64_t amem[NATOM]; /* our atomic dwords as the scoreboard computes them */
  /* host memory behind hm_* (the host page only): reads answered in order after a random latency */
  bool hostmem;
  uint64_t va_h, hmem[1024], hamem[NATOM];
  struct {
    uint8_t tag, len, got;
    bool rp; /* the reply unit's (a READ's source), not the IP's atomic read */
    uint64_t due, data[64];
  } hr[16];
  uint32_t hr_h, hr_t;
  uint64_t n_hm;
  /* the network-fed queue: node 0's WRITEs of zeros into its page (PTE space queue, §4.5, §6.5) run as
     NOPs; internal queue writes then meet the host's (§6.1) */
  bool qnet, qn_busy;
  unsigned qn_qid;
  uint32_t qn_base;
  uint64_t qn_va, qn_sent, qn_acked, qn_acc, qn_tok_at;
  /* node 0's SETEVENTs on an event of the inbound page (count far below 0): incs in TAIL order (§6.5, §6.7) */
  uint32_t sev_inc[64];
  uint32_t sev_h, sev_t;
  uint64_t sev_at[64];
  /* RUN_DMA: jobs in acceptance order, one runs at a time
     (§6.8), each its packets as §6.8 splits them */
  bool dma;
  unsigned dma_max; /* a RUN_DMA's dwords: 1..dma_max, from one source page (64 unless set) */
  struct {
    uint8_t q, np;
    uint32_t cmd;
    struct {
      uint32_t w[22];
      uint8_t nw, tries;
      bool sent, acked, resend;
    } pk[80]; /* dma_max 512 dwords: 64 packets, plus one per page crossed on either side */
  } dj[8];
  uint32_t dj_h, dj_t;
  int m_dma; /* the DMA packet just matched */
  uint64_t n_dma_pkts;
  uint64_t roimg[1024];
  uint64_t irq4_va[64];
  uint32_t i4_h, i4_t;
  /* counters the scoreboard expects */
  uint64_t n_crc_sent, n_crc_tok, n_bad_sent, n_bad_tok;
  uint64_t lost_seen;
  /* stats */
  uint64_t busy, n_kind[NKIND], n_pkts, n_nacks, n_resends, n_in, n_in_bad, n_rp, n_errors, n_fires,
      n_bad[NBAD];
  unsigned rr_vc, max_inflight, n_two;
  int m_q, m_rp; /* the NIC packet just matched: queue and ring index, or RP entry */
  uint32_t m_cmd;
  uint64_t now;
} rnd_t;

#define RNG_BELOW(r, n) cosim_rng_below((r), (uint32_t)(n))
#define CH(r, p)        cosim_rng_chance((r), (p))

static uint64_t remote_data(uint64_t va) { /* the remote's memory for our READs: a hash of the address */
  uint64_t z = va + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* a page VA whose page-table bucket (§4.5) is b for context ctx */
static uint64_t page_va(const rnd_t *g, unsigned b, unsigned ctx) {
  return ((0x3A5ull << g->vw->param.PtBits) | ((b ^ ctx) & g->pmask)) << 13;
}
static void pte(rnd_t *g, unsigned ctx, uint64_t va, unsigned perm, uint64_t pa) {
  const uint64_t b = ((va >> 13) ^ ctx) & g->pmask;
  const uint64_t dw = (g->vw->param.PtBase + 16u * b) / 8u;
  g->lm.mem[dw] = 1u | perm << 1 | 1u << 3 | (va >> 13) << 13; /* V, W/R, local */
  g->lm.mem[dw + 1] = pa | (uint64_t)ctx << 50;
}
static uint32_t lo(uint64_t v) { return (uint32_t)v; }
static uint32_t hi(uint64_t v) { return (uint32_t)(v >> 32); }
static uint64_t cqctl(const q_t *q) {
  return q->base | (uint64_t)q->ctx << 33 | q->en << 47 | 1ull << 63; /* class 0 */
}

static void init_view(rnd_t *g, const elan4_view_t *vw, bool isolation) {
  g->vw = vw;
  g->lm.lat = (int64_t)vw->param.LmLatency;
  g->pmask = (1ull << vw->param.PtBits) - 1u;
  g->nq = (unsigned)(vw->param.NumCq < MAXQ ? vw->param.NumCq : MAXQ);
  if (g->nq > vw->param.NumQueues) g->nq = (unsigned)vw->param.NumQueues;
  g->isolation = isolation && g->nq >= 4;
  g->ndest = (unsigned)(vw->param.NumNodes < 8 ? vw->param.NumNodes : 8);
  g->nvc = (unsigned)vw->param.NumVcs;
  g->vcs = (unsigned)vw->param.VcSten;
  g->vcr = (unsigned)vw->param.VcReply;
  g->depth = (unsigned)vw->param.DepthKb0 * 128u;
  g->win = (unsigned)vw->param.OooWindow;
  g->nackcap = vw->param.RetryLimit < 2 ? (unsigned)vw->param.RetryLimit : 2;
  g->stop_at = UINT64_MAX;
  g->stuck = 10000u + 8u * vw->param.RetryBackoff;
  g->rd_max = 1;
  for (unsigned d = 0; d < g->ndest; d++) { /* valid routes to nodes 0..ndest-1 (§4.5) */
    g->route[d] = 0xFFFFF000u | d << 4 | 0x5u;
    g->lm.mem[(vw->param.RtBase + 8u * d) / 8u] = 1ull << 32 | g->route[d];
  }
  for (unsigned i = 0; i < g->nq; i++) {
    q_t *q = &g->q[i];
    q->qid = (unsigned)(i * (vw->param.NumQueues / MAXQ > 0 ? vw->param.NumQueues / MAXQ : 1));
    q->ctx = 0x40u + i;
    q->va = page_va(g, i + 1, q->ctx);
    q->base = 0x200000u + i * g->depth * 8u;
    q->victim = g->isolation && i >= g->nq - 2;
    q->en = q->victim ? 0x3Fu : 0x7Fu; /* victims: ATOMIC disabled (§4.2 bit 53) */
    pte(g, q->ctx, q->va, 3, PA_Q(i));
    /* local event (§4.4): INTERRUPT type, count -2, param0 the queue's cookie, e3 its ctx */
    q->e0 = 2ull << 41 | 0xFFFFFFFEu;
    g->lm.mem[PA_Q(i) / 8u] = q->e0;
    g->lm.mem[PA_Q(i) / 8u + 1] = 0xC0C0000000000000ull | i;
    g->lm.mem[PA_Q(i) / 8u + 3] = q->ctx;
    /* reply event: count far below 0, never fires in a run */
    g->lm.mem[(PA_Q(i) + 0x20u) / 8u] = 2ull << 41 | 0x80000000u;
    g->lm.mem[(PA_Q(i) + 0x20u) / 8u + 3] = q->ctx;
  }
  g->va_in = page_va(g, 10, CTX_IN);
  g->va_ro = page_va(g, 11, CTX_IN);
  pte(g, CTX_IN, g->va_in, 3, PA_IN);
  pte(g, CTX_IN, g->va_ro, 2, PA_RO); /* R only */
  g->lm.mem[(vw->param.RtBase + 8u * SRC) / 8u] = 1ull << 32 | g->route[SRC];
  for (unsigned i = 0; i < 1024; i++)
    g->lm.mem[PA_RO / 8u + i] = g->roimg[i] = remote_data(PA_RO + 8u * i) ^ 0xA5;
  for (unsigned i = 0; i < NATOM; i++) {
    g->amem[i] = remote_data(0x1000u + i) & 0xFFFFFFFFFFull;
    g->lm.mem[(PA_IN + 0x1000u) / 8u + i] = g->amem[i];
    g->ratom[i] = remote_data(0x2000u + i) & 0xFFFFFFFFFFull;
  }
  g->lm.mem[(PA_IN + 0x1800u) / 8u] = 2ull << 41 | 0x80000000u; /* node 0's event: INTERRUPT, never fires */
  g->lm.mem[(PA_IN + 0x1800u) / 8u + 3] = CTX_IN;
  for (unsigned i = 0; i < g->nq; i++) g->q[i].bad_at = 600u + 500u * i;
  g->qnet = g->nq >= 2 && vw->param.NumCq > g->nq;
  if (g->qnet) {
    g->qn_qid = (unsigned)vw->param.NumQueues - 1;
    g->qn_base = 0x200000u + g->nq * g->depth * 8u;
    g->qn_va = page_va(g, 13, CTX_IN);
    const uint64_t b = ((g->qn_va >> 13) ^ CTX_IN) & g->pmask, dw = (vw->param.PtBase + 16u * b) / 8u;
    g->lm.mem[dw] = 1u | 1u << 1 | 2u << 3 | (g->qn_va >> 13) << 13; /* V, W, space queue */
    g->lm.mem[dw + 1] = (uint64_t)g->qn_qid << 13 | (uint64_t)CTX_IN << 50;
  }
  g->hostmem = true;
  g->va_h = page_va(g, 12, CTX_IN);
  g->m_dma = -1;
  {
    const uint64_t b = ((g->va_h >> 13) ^ CTX_IN) & g->pmask, dw = (vw->param.PtBase + 16u * b) / 8u;
    g->lm.mem[dw] = 1u | 3u << 1 | 0u << 3 | (g->va_h >> 13) << 13; /* V, W, R, space host */
    g->lm.mem[dw + 1] = HPA | (uint64_t)CTX_IN << 50;
  }
  for (unsigned i = 0; i < 1024; i++) g->hmem[i] = remote_data(HPA + 8u * i) ^ 0x5A;
  for (unsigned i = 0; i < NATOM; i++) g->hamem[i] = g->hmem[0x1000u / 8u + i];
}
static void init_default(void *ctx, cosim_rng_t *rng) {
  (void)rng, init_view(ctx, &elan4_default_view, true);
}
static void init_max(void *ctx, cosim_rng_t *rng) { (void)rng, init_view(ctx, &elan4_max_view, true); }
static void init_onevc(void *ctx, cosim_rng_t *rng) { (void)rng, init_view(ctx, &elan4_onevc_view, true); }
static void init_min(void *ctx, cosim_rng_t *rng) { (void)rng, init_view(ctx, &elan4_min_view, false); }
/* STEN nacks and every reply slot, no RUN_DMA: the lockstep form of elan4_random_full */
static void init_pressure(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  (void)rng;
  init_view(g, &elan4_default_view, true);
  g->sten_nack = true;
  g->rd_max = (unsigned)g->vw->param.ReplySlots;
}
static void init_full(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  init_pressure(g, rng);
  g->dma = true;
  for (unsigned i = 0; i < g->nq; i++) { /* each queue's DMA source page, R, its own bucket (PtBits 10) */
    q_t *q = &g->q[i];
    q->dsva = page_va(g, 20 + i, q->ctx);
    pte(g, q->ctx, q->dsva, 2, PA_DS(i));
    for (unsigned k = 0; k < 1024; k++) g->lm.mem[PA_DS(i) / 8u + k] = remote_data(PA_DS(i) + 8u * k) ^ 0x77;
  }
}
/* the DMA queue, chunks and ring at their minimum (DmaQueue 1, DmaBufDw 64): RUN_DMA of up to 200
   dwords, so a DMA is several chunks that wait for the ring to free (§6.8); no nacks (RetryLimit 0) */
static void init_full_min(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  (void)rng;
  init_view(g, &elan4_min_view, false);
  g->rd_max = (unsigned)g->vw->param.ReplySlots;
  g->dma = true;
  g->dma_max = 200;
  for (unsigned i = 0; i < g->nq; i++) {
    q_t *q = &g->q[i];
    q->dsva = page_va(g, 20 + i, q->ctx);
    pte(g, q->ctx, q->dsva, 2, PA_DS(i));
    for (unsigned k = 0; k < 1024; k++) g->lm.mem[PA_DS(i) / 8u + k] = remote_data(PA_DS(i) + 8u * k) ^ 0x77;
  }
}
/* elan4_random_full with RUN_DMA of up to 512 dwords: several chunks, the ring (DmaBufDw 256) full
   while packets wait for tokens, destinations across pages */
static void init_full_big(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  init_full(g, rng);
  g->dma_max = 512;
  g->stuck += 20000u; /* one DMA at a time (§6.8): a queue's RUN_DMA may wait behind five of 64 packets */
}
static void init_stop(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  init_view(ctx, &elan4_default_view, true);
  ((rnd_t *)ctx)->stop_at = 2000;
}

/* tx_outstanding_bound's scenario on elan4_min (MaxOutstanding 2, STEN and replies both on VC 0):
   long token delays keep the queue's two STEN packets awaiting tokens while a reply is owed */
static void init_min_fullvc(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  (void)rng;
  init_view(g, &elan4_min_view, false);
  g->need = N_FULLVC;
}
/* hm_read_has_tag's scenario on elan4_onetag (one host-read tag, two reply slots): the reply unit's
   host read outstanding while a host ATOMIC waits in the input processor */
static void init_onetag(void *ctx, cosim_rng_t *rng) {
  rnd_t *g = ctx;
  (void)rng;
  init_view(g, &elan4_onetag_view, false);
  g->rd_max = (unsigned)g->vw->param.ReplySlots;
  g->need = N_TAGRACE;
}

/* --- the scoreboard's packet for a STEN command (§4.6) ------------------------------------------- */
static void expect_packet(const rnd_t *g, const q_t *q, cmd_t *c) {
  const uint64_t d0 = c->dw[0];
  const unsigned op = d0 & 15u, n = (d0 >> 4) & 15u, e = (d0 >> 8) & 1u, a = (d0 >> 10) & 1u;
  const unsigned dest = (d0 >> 16) & 0xFFFu;
  static const unsigned kind_of[9] = {0, 1, 2, 3, 0, 0, 0, 0, 4};
  const unsigned kind = kind_of[op];
  unsigned k = 0;
  c->route = g->route[dest];
  c->body[k++] =
      kind | (kind <= 2 ? n : 0) << 4 | (op == 3 ? 0 : e) << 8 | (op == 8 ? a : 0) << 9 | q->ctx << 16;
  c->body[k++] = NODE;
  c->body[k++] = lo(c->dw[1]);
  c->body[k++] = hi(c->dw[1]);
  if (op == 3) {
    c->body[k++] = hi(d0); /* the increment */
  } else {
    for (unsigned i = 2; i < c->len; i++) {
      c->body[k++] = lo(c->dw[i]);
      c->body[k++] = hi(c->dw[i]);
    }
  }
  c->nbody = (uint8_t)k;
}

static bool is_sten(const cmd_t *c) {
  return c->kind == K_WRITE || c->kind == K_READ || c->kind == K_SEVR || c->kind == K_ATOMIC;
}
static bool cmd_done(const cmd_t *c) {
  return c->accepted && (!is_sten(c) || c->acked) && (!c->needs_reply || c->reply_done) &&
         (c->kind != K_DMA || c->dma_done);
}
static void retire(q_t *q) {
  while (q->head != q->tail && q->ring[q->head % RING].kind != K_BAD && cmd_done(&q->ring[q->head % RING])) {
    cmd_t *c = &q->ring[q->head % RING];
    if (c->needs_reply) q->rslot_busy[c->rslot] = false;
    q->head++;
  }
}
static uint32_t head_pos(const q_t *q) { return q->head != q->tail ? q->ring[q->head % RING].pos : q->pos; }

/* --- host: the next burst ------------------------------------------------------------------------- */
static void burst_cmd(rnd_t *g, unsigned qi, cmd_t *c, cosim_rng_t *rng) {
  q_t *q = &g->q[qi];
  unsigned order[12];
  for (unsigned i = 0; i < c->len; i++) order[i] = i;
  if (c->len <= g->win && c->len > 1 && CH(rng, 0.3)) /* relaxed-order PIO within the window (§6.1) */
    for (unsigned i = c->len - 1; i > 0; i--) {
      unsigned j = RNG_BELOW(rng, i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  g->nb = c->len;
  for (unsigned i = 0; i < c->len; i++) {
    const unsigned k = order[i];
    g->burst[i] = (hreq_t){true, q->qid * 0x1000u + 8u * ((c->pos + k) % 512u), c->dw[k], 0xFF, 0};
    q->store[(c->pos + k) % g->depth] = c->dw[k];
  }
  g->bi = 0;
  g->bq = qi;
  g->bcmd = q->tail;
  g->bkind = HB_CMD;
  q->tail++;
  q->pos += c->len;
}

static bool gen_cmd(rnd_t *g, unsigned qi, cosim_rng_t *rng) {
  q_t *q = &g->q[qi];
  if (q->tail - q->head >= RING - 1) return false;
  cmd_t c;
  memset(&c, 0, sizeof c);
  c.pos = q->pos;
  const unsigned dest = RNG_BELOW(rng, g->ndest);
  unsigned w = RNG_BELOW(rng, 100);
  kind_t k = w < 32   ? K_WRITE
             : w < 44 ? K_READ
             : w < 52 ? K_SEVL
             : w < 60 ? K_SEVR
             : w < 64 ? K_WAIT
             : w < 68 ? K_INTR
             : w < 80 ? K_ATOMIC
             : w < 86 ? K_GUARD
                      : K_NOP;
  if (k == K_ATOMIC && !(q->en & 0x40u)) k = K_WRITE;
  if (k == K_NOP && g->dma && w >= 93) k = K_DMA;
  unsigned slot = NREPLY;
  if (k == K_READ || k == K_ATOMIC) {
    for (unsigned s = 0; s < NREPLY; s++)
      if (!q->rslot_busy[s]) slot = s;
    if (slot == NREPLY) k = K_WRITE;
  }
  const unsigned e = CH(rng, 0.25);
  c.kind = (uint8_t)k;
  switch (k) {
    case K_WRITE: {
      const unsigned n = 1 + RNG_BELOW(rng, 8);
      c.dw[0] = 1u | n << 4 | e << 8 | (uint64_t)dest << 16;
      c.dw[1] = RVA_BASE + ((uint64_t)RNG_BELOW(rng, 16) << 13) + 8u * RNG_BELOW(rng, 1024 - n + 1);
      for (unsigned i = 0; i < n; i++) c.dw[2 + i] = cosim_rng_u64(rng);
      if (e) c.dw[2 + n] = REVA_BASE + 32u * RNG_BELOW(rng, 1024);
      c.len = (uint8_t)(2 + n + e);
      break;
    }
    case K_READ: {
      const unsigned n = 1 + RNG_BELOW(rng, 8);
      c.dw[0] = 2u | n << 4 | e << 8 | (uint64_t)dest << 16;
      c.dw[1] = RVA_BASE + ((uint64_t)RNG_BELOW(rng, 16) << 13) + 8u * RNG_BELOW(rng, 1024 - n + 1);
      c.dw[2] = q->va + 0x100u + 64u * slot;
      if (e) c.dw[3] = q->va + 0x20u;
      c.len = (uint8_t)(3 + e);
      break;
    }
    case K_SEVL:
      c.dw[0] = 3u | (uint64_t)(1 + RNG_BELOW(rng, 3)) << 32;
      c.dw[1] = q->va;
      c.len = 2;
      break;
    case K_SEVR:
      c.dw[0] = 3u | 1u << 9 | (uint64_t)dest << 16 | (uint64_t)(cosim_rng_u64(rng) & 0xFFFFFFFFu) << 32;
      c.dw[1] = REVA_BASE + 32u * RNG_BELOW(rng, 1024);
      c.len = 2;
      break;
    case K_WAIT:
      c.dw[0] = 4;
      c.dw[1] = q->va;
      c.dw[2] = 2ull << 41 | (uint32_t)(-(int32_t)(1 + RNG_BELOW(rng, 3))); /* INTERRUPT, count -1..-3 */
      c.dw[3] = 0xC0C0000000000000ull | qi;
      c.dw[4] = 0;
      c.len = 5;
      break;
    case K_INTR:
      c.dw[0] = 7u | (uint64_t)(cosim_rng_u64(rng) & 0xFFFFFFFFu) << 32;
      c.len = 1;
      break;
    case K_ATOMIC: {
      const unsigned cas = CH(rng, 0.5), ai = RNG_BELOW(rng, NATOM);
      c.dw[0] = 8u | e << 8 | cas << 10 | (uint64_t)dest << 16;
      c.dw[1] = RATOM_VA + 8u * ai;
      c.dw[2] = cas && CH(rng, 0.6) ? g->ratom[ai] : (cosim_rng_u64(rng) >> RNG_BELOW(rng, 64));
      c.dw[3] = cas ? cosim_rng_u64(rng) : 0;
      c.dw[4] = q->va + 0x100u + 64u * slot;
      if (e) c.dw[5] = q->va + 0x20u;
      c.len = (uint8_t)(5 + e);
      break;
    }
    case K_GUARD:
      c.dw[0] = 6;
      c.len = 1;
      break;
    case K_DMA: { /* N dwords from the queue's DMA source page to a remote VA that may cross pages */
      const unsigned n = 1 + RNG_BELOW(rng, g->dma_max ? g->dma_max : 64);
      c.dw[0] = 5u | e << 8 | (uint64_t)dest << 16 | (uint64_t)(8u * n) << 32;
      c.dw[1] = q->dsva + 8u * RNG_BELOW(rng, 1024 - n + 1);
      c.dw[2] = RVA_BASE + ((uint64_t)RNG_BELOW(rng, 16) << 13) + 8u * RNG_BELOW(rng, 1024);
      c.dw[3] = e ? REVA_BASE + 32u * RNG_BELOW(rng, 1024) : 0;
      c.len = 8;
      break;
    }
    default:
      c.dw[0] = 0;
      c.len = 1;
      break;
  }
  /* room (§6.1 E_OVERFLOW never for a correct host): every position below head + depth */
  const unsigned lim = g->depth - 1 < 120 ? g->depth - 1 : 120;
  if (c.pos + c.len - head_pos(q) > lim) return false;
  if (k == K_READ || k == K_ATOMIC) {
    c.needs_reply = true;
    c.rslot = (uint8_t)slot;
    q->rslot_busy[slot] = true;
  }
  if (is_sten(&c)) expect_packet(g, q, &c);
  q->ring[q->tail % RING] = c;
  burst_cmd(g, qi, &q->ring[q->tail % RING], rng);
  return true;
}

/* a malformed input for victim q (§7 codes, §8), queue quiet: wp = pos */
static void gen_bad(rnd_t *g, unsigned qi, cosim_rng_t *rng) {
  q_t *q = &g->q[qi];
  cmd_t c;
  memset(&c, 0, sizeof c);
  c.kind = K_BAD;
  c.pos = q->pos;
  const uint32_t P = q->pos;
  unsigned b;
  for (;;) {
    b = RNG_BELOW(rng, NBAD);
    if (b == B_ROUTE && g->vw->param.NumNodes >= 4096) continue; /* dest cannot exceed 4095 */
    if (b == B_NOROUTE && g->vw->param.NumNodes <= g->ndest) continue;
    if (b == B_DUP && g->win < 2) continue;
    break;
  }
  const unsigned dest = RNG_BELOW(rng, g->ndest);
  q->bad = (uint8_t)b;
  q->bad_pos = P;
  g->n_bad[b]++;
  g->nb = 0;
  switch (b) {
    case B_OPCODE:
      c.dw[0] = (9u + RNG_BELOW(rng, 7)) | (cosim_rng_u64(rng) & ~15ull);
      c.len = 1;
      q->bad_code = 6;
      break;
    case B_DISABLED: /* ATOMIC, well formed, class not enabled */
      c.dw[0] = 8u | (uint64_t)dest << 16;
      c.dw[1] = RATOM_VA;
      c.dw[4] = q->va + 0x100u;
      c.len = 5;
      q->bad_code = 7;
      break;
    case B_LEN: {
      const unsigned n = CH(rng, 0.3) ? 0 : 9 + RNG_BELOW(rng, 7);
      c.dw[0] = 1u | n << 4 | (uint64_t)dest << 16;
      c.len = 3;
      q->bad_code = 8;
      break;
    }
    case B_MBZ:
      c.dw[0] = 1u | 1u << 4 | (1u + RNG_BELOW(rng, 31)) << 11 | (uint64_t)dest << 16;
      c.len = 3;
      q->bad_code = 8;
      break;
    case B_VA: /* misaligned, or 16 bytes from the page's last dword */
      c.dw[0] = 1u | 2u << 4 | (uint64_t)dest << 16;
      c.dw[1] =
          CH(rng, 0.5) ? RVA_BASE + 8u * RNG_BELOW(rng, 512) + 1u + RNG_BELOW(rng, 7) : RVA_BASE + 0x1FF8u;
      c.dw[2] = cosim_rng_u64(rng);
      c.dw[3] = cosim_rng_u64(rng);
      c.len = 4;
      q->bad_code = 8;
      break;
    case B_ROUTE:
      c.dw[0] = 1u | 1u << 4 |
                (uint64_t)(g->vw->param.NumNodes + RNG_BELOW(rng, 4096 - (uint32_t)g->vw->param.NumNodes))
                    << 16;
      c.dw[1] = RVA_BASE;
      c.len = 3;
      q->bad_code = 9;
      break;
    case B_NOROUTE: /* a node with no valid route entry */
      c.dw[0] = 1u | 1u << 4 | (uint64_t)(g->vw->param.NumNodes - 1) << 16;
      c.dw[1] = RVA_BASE;
      c.dw[2] = cosim_rng_u64(rng);
      c.len = 3;
      q->bad_code = 10;
      break;
    case B_PARTIAL:
      g->burst[0] = (hreq_t){true, q->qid * 0x1000u + 8u * (P % 512u), cosim_rng_u64(rng),
                             (uint8_t)(1u + RNG_BELOW(rng, 254)), 0};
      g->nb = 1;
      q->bad_code = 2;
      break;
    case B_WINDOW: {
      const uint32_t p = P + g->win + RNG_BELOW(rng, 4);
      g->burst[0] = (hreq_t){true, q->qid * 0x1000u + 8u * (p % 512u), cosim_rng_u64(rng), 0xFF, 0};
      g->nb = 1;
      q->bad_pos = p;
      q->bad_code = 3;
      break;
    }
    case B_DUP:
      g->burst[0] = (hreq_t){true, q->qid * 0x1000u + 8u * ((P + 1) % 512u), cosim_rng_u64(rng), 0xFF, 0};
      g->burst[1] = g->burst[0];
      g->burst[1].data = ~g->burst[1].data;
      g->nb = 2;
      q->bad_pos = P + 1;
      q->bad_code = 5;
      break;
  }
  if (!g->nb) {
    for (unsigned i = 0; i < c.len; i++) {
      g->burst[i] = (hreq_t){true, q->qid * 0x1000u + 8u * ((P + i) % 512u), c.dw[i], 0xFF, 0};
      q->store[(P + i) % g->depth] = c.dw[i];
    }
    g->nb = c.len;
  }
  c.bad = (uint8_t)b;
  q->ring[q->tail % RING] = c;
  g->bcmd = q->tail;
  q->tail++;
  g->bi = 0;
  g->bq = qi;
  g->bkind = HB_BAD;
}

static void next_burst(rnd_t *g, uint64_t cycle, cosim_rng_t *rng) {
  g->bkind = HB_NONE;
  if (g->opening < g->nq + g->qnet) { /* setup: open every queue */
    const q_t *q = &g->q[g->opening < g->nq ? g->opening : 0];
    g->burst[0] = g->opening < g->nq
                      ? (hreq_t){true, 0x02000000u + 8u * q->qid, cqctl(q), 0xFF, 0}
                      : (hreq_t){true, 0x02000000u + 8u * g->qn_qid,
                                 g->qn_base | 0x3Eull << 33 | 0x7Full << 47 | 1ull << 63, 0xFF, 0};
    g->nb = 1;
    g->bi = 0;
    g->bq = g->opening < g->nq ? g->opening : 0;
    g->bkind = HB_CQCTL;
    return;
  }
  if (cycle >= g->stop_at) return;
  for (unsigned i = 0; i < g->nq; i++) { /* the victims' steps first */
    q_t *q = &g->q[i];
    if (q->vs == V_NORMAL && q->victim && cycle >= q->bad_at) q->vs = V_QUIET;
    if (q->vs == V_QUIET && q->head == q->tail) {
      gen_bad(g, i, rng);
      return;
    }
    if (q->vs == V_STATUS) {
      g->burst[0] = (hreq_t){false, 0x02000000u + 8u * q->qid, 0, 0xFF, (uint8_t)(0x80u | i)};
      g->nb = 1;
      g->bi = 0;
      g->bq = i;
      g->bkind = HB_STATUS;
      return;
    }
    if (q->vs == V_REOPEN) {
      g->burst[0] = (hreq_t){true, 0x02000000u + 8u * q->qid, cqctl(q), 0xFF, 0};
      g->nb = 1;
      g->bi = 0;
      g->bq = i;
      g->bkind = HB_CQCTL;
      return;
    }
  }
  if (CH(rng, 0.004)) { /* a bad PIO (§4.1): misaligned, or in no region; touches nothing */
    const uint32_t a = CH(rng, 0.5) ? 8u * RNG_BELOW(rng, 512) + 1u + RNG_BELOW(rng, 7)
                                    : 0x03000000u + 8u * RNG_BELOW(rng, 1024);
    g->burst[0] = (hreq_t){true, a, cosim_rng_u64(rng), 0xFF, 0};
    g->nb = 1;
    g->bi = 0;
    g->bkind = HB_BADPIO;
    return;
  }
  const unsigned start = RNG_BELOW(rng, g->nq);
  for (unsigned k = 0; k < g->nq; k++) {
    const unsigned i = (start + k) % g->nq;
    if (g->q[i].vs == V_NORMAL && gen_cmd(g, i, rng)) return;
  }
}

/* --- inbound (the remote side into in_*) ---------------------------------------------------------- */
static void ip_push(rnd_t *g, const ipkt_t *p, bool front) {
  if (g->ip_t - g->ip_h >= IPQ) return;
  if (front)
    g->ip[--g->ip_h % IPQ] = *p;
  else
    g->ip[g->ip_t++ % IPQ] = *p;
}
static unsigned w_put(uint32_t *w, unsigned k, uint64_t v) {
  w[k] = lo(v);
  w[k + 1] = hi(v);
  return k + 2;
}
static void gen_inbound(rnd_t *g, cosim_rng_t *rng) {
  ipkt_t p;
  memset(&p, 0, sizeof p);
  unsigned k = 0, r = RNG_BELOW(rng, 100);
  const bool rd_ok = g->in_rdat < g->rd_max;
  p.host = g->hostmem && CH(rng, 0.4);
  if (g->qnet && !g->qn_busy && g->qn_sent - g->qn_acc + 8u <= 100u && CH(rng, 0.15)) {
    const unsigned pos = (unsigned)(g->qn_sent % 512u), n0 = 1 + RNG_BELOW(rng, 8);
    p.role = IR_QWRITE;
    p.n = (uint8_t)(pos + n0 > 512 ? 512 - pos : n0); /* not past the page's dword 511 (§14) */
    p.w[k++] = 1u | p.n << 4 | CTX_IN << 16;
    p.w[k++] = SRC;
    k = w_put(p.w, k, g->qn_va + 8u * pos);
    for (unsigned i = 0; i < p.n; i++) k = w_put(p.w, k, 0); /* NOPs */
    p.nw = (uint8_t)k;
    p.ack = true;
    g->qn_sent += p.n;
    g->qn_busy = true;
    ip_push(g, &p, false);
    return;
  }
  if (r >= 90 && g->sev_t - g->sev_h < 48) { /* SETEVENT on the inbound page's event */
    p.role = IR_SEV;
    p.w[k++] = 3u | CTX_IN << 16;
    p.w[k++] = SRC;
    k = w_put(p.w, k, g->va_in + 0x1800u);
    p.a = 1 + RNG_BELOW(rng, 3);
    p.w[k++] = (uint32_t)p.a;
    p.nw = (uint8_t)k;
    p.ack = true;
    ip_push(g, &p, false);
    return;
  }
  if (r < 40 ||
      (!rd_ok && r < 70)) { /* a WRITE of 1..8 dwords into a per-VC area (the VC is chosen at send) */
    p.role = IR_WRITE;
    p.n = (uint8_t)(1 + RNG_BELOW(rng, 8));
    p.w[k++] = 1u | p.n << 4 | CTX_IN << 16;
    p.w[k++] = SRC;
    p.va = 8u * RNG_BELOW(rng, 32 - p.n + 1); /* offset in the VC's area, VA fixed at send */
    k += 2;
    for (unsigned i = 0; i < p.n; i++) {
      p.data[i] = cosim_rng_u64(rng);
      k = w_put(p.w, k, p.data[i]);
    }
    p.bad_crc = CH(rng, 0.05);
    p.ack = true;
  } else if (r < 55) { /* READ from the read-only page, or the host page's read-only dwords */
    p.role = IR_READ;
    p.n = (uint8_t)(1 + RNG_BELOW(rng, 8));
    const unsigned o = p.host ? 256 + RNG_BELOW(rng, 256 - p.n + 1) : RNG_BELOW(rng, 1024 - p.n + 1);
    p.w[k++] = 2u | p.n << 4 | CTX_IN << 16;
    p.w[k++] = SRC;
    k = w_put(p.w, k, (p.host ? g->va_h : g->va_ro) + 8u * o);
    p.rva = 0x0000ABCD00000000ull + 8u * RNG_BELOW(rng, 1u << 20);
    k = w_put(p.w, k, p.rva);
    for (unsigned i = 0; i < p.n; i++) p.data[i] = p.host ? g->hmem[o + i] : g->roimg[o + i];
    p.ack = true;
    g->in_rdat++;
  } else if (r < 70) { /* ATOMIC on one of our atomic dwords */
    p.role = IR_ATOMIC;
    p.cas = CH(rng, 0.5);
    p.aidx = (uint8_t)RNG_BELOW(rng, NATOM);
    p.w[k++] = 4u | (unsigned)p.cas << 9 | CTX_IN << 16;
    p.w[k++] = SRC;
    k = w_put(p.w, k, (p.host ? g->va_h : g->va_in) + 0x1000u + 8u * p.aidx);
    p.a = p.cas && CH(rng, 0.6) ? (p.host ? g->hamem : g->amem)[p.aidx]
                                : cosim_rng_u64(rng) >> RNG_BELOW(rng, 64);
    p.b = p.cas ? cosim_rng_u64(rng) : 0;
    k = w_put(p.w, k, p.a);
    k = w_put(p.w, k, p.b);
    p.rva = 0x0000ABCE00000000ull + 8u * RNG_BELOW(rng, 1u << 20);
    k = w_put(p.w, k, p.rva);
    p.ack = true;
    p.bad_crc = CH(rng, 0.05);
    g->in_rdat++;
  } else { /* malformed (§6.5 checks, §8): nacked, counted, not executed */
    const unsigned m = RNG_BELOW(rng, 5);
    p.host = false;
    p.role = (uint8_t)(IR_BADKIND + m);
    p.w[k++] = (m == 0 ? (CH(rng, 0.3) ? 0u : 5u + RNG_BELOW(rng, 11)) : 1u) | (m == 2 ? 8u : 1u) << 4 |
               CTX_IN << 16;
    p.w[k++] = SRC;
    p.va = m == 1   ? g->va_in + 4u                                   /* misaligned */
           : m == 3 ? g->va_in ^ (1ull << (13 + g->vw->param.PtBits)) /* same bucket, no PTE matches */
           : m == 4 ? g->va_ro                                        /* mapped R only */
                    : g->va_in;
    k = w_put(p.w, k, p.va);
    const unsigned nd = m == 2 ? 11 : 1; /* overlength: 26 body words */
    for (unsigned i = 0; i < nd; i++) k = w_put(p.w, k, cosim_rng_u64(rng));
    p.ack = false;
  }
  p.nw = (uint8_t)k;
  ip_push(g, &p, false);
}

/* the reply to one of our READ/ATOMIC commands, executed by the remote (q's command c, acked) */
static void remote_reply(rnd_t *g, unsigned qi, uint32_t ci, cosim_rng_t *rng) {
  q_t *q = &g->q[qi];
  cmd_t *c = &q->ring[ci % RING];
  ipkt_t p;
  memset(&p, 0, sizeof p);
  p.role = IR_REPLY;
  p.q = (uint8_t)qi;
  p.cmd = (uint16_t)(ci % RING);
  const uint64_t d0 = c->dw[0];
  const unsigned e = (d0 >> 8) & 1u;
  uint64_t rva, eva = 0;
  if (c->kind == K_READ) {
    p.n = (d0 >> 4) & 15u;
    for (unsigned i = 0; i < p.n; i++) p.data[i] = remote_data(c->dw[1] + 8u * i);
    rva = c->dw[2];
    if (e) eva = c->dw[3];
  } else {
    const unsigned ai = (unsigned)((c->dw[1] - RATOM_VA) / 8u);
    const uint64_t old = g->ratom[ai];
    if ((d0 >> 10) & 1u) {
      if (old == c->dw[2]) g->ratom[ai] = c->dw[3];
    } else
      g->ratom[ai] = old + c->dw[2];
    p.n = 1;
    p.data[0] = old;
    rva = c->dw[4];
    if (e) eva = c->dw[5];
  }
  unsigned k = 0;
  p.w[k++] = 1u | p.n << 4 | e << 8 | q->ctx << 16;
  p.w[k++] = (d0 >> 16) & 0xFFFu;
  k = w_put(p.w, k, rva);
  for (unsigned i = 0; i < p.n; i++) k = w_put(p.w, k, p.data[i]);
  if (e) k = w_put(p.w, k, eva);
  p.nw = (uint8_t)k;
  p.pa = PA_Q(qi) + (uint32_t)(rva - q->va);
  p.rva = e; /* whether the reply sets the reply event */
  p.ack = true;
  p.bad_crc = CH(rng, 0.05);
  ip_push(g, &p, false);
}

/* our token for the NIC's packet (drive, the cycle it is on in_*) */
static void token_effect(rnd_t *g, const tok_t *t, cosim_rng_t *rng) {
  if (t->dma) {
    __typeof__(g->dj[0]) *j = &g->dj[g->dj_h % 8];
    if (!t->ack) {
      j->pk[t->cmd].resend = true;
      return;
    }
    j->pk[t->cmd].acked = true;
    for (unsigned i = 0; i < j->np; i++)
      if (!j->pk[i].acked) return;
    g->q[j->q].ring[j->cmd].dma_done = true; /* every packet acked: done (§6.8) */
    g->dj_h++;
    retire(&g->q[j->q]);
  } else if (t->sten) {
    q_t *q = &g->q[t->q];
    cmd_t *c = &q->ring[t->cmd];
    if (!t->ack) {
      c->resend = true;
      return;
    }
    c->acked = true;
    q->inflight--;
    if (c->needs_reply) remote_reply(g, t->q, (uint32_t)t->cmd, rng);
    retire(q);
  } else {
    rpexp_t *r = &g->rp[t->cmd];
    if (!t->ack) return;
    r->used = false;
    g->in_rdat--;
  }
}

/* --- drive ------------------------------------------------------------------------------------------ */
static bool drive(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in) {
  rnd_t *g = ctx;
  (void)prev_out;
  IN(node_i, NODE);
  IN(hm_ready_i, g->hostmem ? CH(rng, 0.7) : 1);                /* backpressure on the host master port */
  if (g->hr_h != g->hr_t && g->hr[g->hr_h % 16].due <= cycle) { /* host read data, in order (§3.2) */
    __typeof__(g->hr[0]) *h = &g->hr[g->hr_h % 16];
    IN(hm_rvalid_i, 1);
    IN(hm_rtag_i, h->tag);
    IN(hm_rdata_i, h->data[h->got]);
    if (++h->got == h->len) g->hr_h++;
  }
  uint64_t rd;
  if (e4h_lm_answer(&g->lm, cycle, &rd)) {
    IN(lm_rvalid_i, 1);
    IN(lm_rdata_i, rd);
  }
  uint64_t cr = 0; /* credits back, late and in bursts (backpressure) */
  for (unsigned v = 0; v < g->nvc; v++)
    if (g->owed[v] && CH(rng, 0.7)) {
      g->owed[v]--;
      cr |= 1u << v;
    }
  IN(in_credit_i, cr);
  /* in_*: a due token first, else our packet in progress, else a new one */
  g->credit_due = g->sent_vc_mask;
  g->sent_vc_mask = 0;
  bool used = false;
  for (unsigned v = 0; v < g->nvc && !used; v++)
    if (g->tq_h[v] != g->tq_t[v] && g->tq[v][g->tq_h[v] % TOKQ].due <= cycle) {
      const tok_t t = g->tq[v][g->tq_h[v]++ % TOKQ];
      IN(in_valid_i, 1);
      IN(in_kind_i, 3);
      IN(in_vc_i, v);
      IN(in_data_i, t.ack);
      token_effect(g, &t, rng);
      used = true;
    }
  if (!g->cur_on && g->ip_h == g->ip_t && cycle < g->stop_at && g->opening == g->nq + g->qnet &&
      CH(rng, 0.08))
    gen_inbound(g, rng);
  if (!used && !g->cur_on && g->ip_h != g->ip_t && g->aw_t - g->aw_h < 16) {
    for (unsigned k = 0; k < g->nvc; k++) {
      const unsigned v = (g->rr_vc + k) % g->nvc;
      if (g->vc_busy[v]) continue;
      g->cur = g->ip[g->ip_h++ % IPQ];
      g->cur.vc = (uint8_t)v;
      if (g->cur.role == IR_WRITE) { /* the VC's own area: nothing else writes it while this is in flight */
        g->cur.pa = (g->cur.host ? 0 : PA_IN) + 0x100u * v + (uint32_t)g->cur.va;
        w_put(g->cur.w, 2, (g->cur.host ? g->va_h : g->va_in) + 0x100u * v + g->cur.va);
      }
      g->cur_on = true;
      g->cur_f = 0;
      g->vc_busy[v] = true;
      g->rr_vc = v + 1;
      break;
    }
  }
  if (!used && g->cur_on) {
    const unsigned f = g->cur_f++;
    IN(in_valid_i, 1);
    IN(in_vc_i, g->cur.vc);
    if (f == 0) {
      IN(in_kind_i, 0);
      IN(in_data_i, 0xFFFFFFFFu); /* every route tag used */
    } else if (f <= g->cur.nw) {
      IN(in_kind_i, 1);
      IN(in_data_i, g->cur.w[f - 1]);
    } else {
      IN(in_kind_i, 2);
      IN(in_data_i, crc32_ref_words(g->cur.w, g->cur.nw) ^ (g->cur.bad_crc ? 0x10u : 0u));
      g->cur_on = false;
      ipkt_t p = g->cur;
      if (p.bad_crc) p.ack = false;
      g->aw[g->aw_t++ % 16] = p;
      if (p.bad_crc)
        g->n_crc_sent++;
      else if (p.role >= IR_BADKIND)
        g->n_bad_sent++;
      if (!p.bad_crc && p.role == IR_XLATE && g->i4_t - g->i4_h < 64) g->irq4_va[g->i4_t++ % 64] = p.va;
      if (p.role == IR_SEV) {
        g->sev_at[g->sev_t % 64] = cycle;
        g->sev_inc[g->sev_t++ % 64] = (uint32_t)p.a;
      }
      g->n_in++;
    }
    g->sent_vc_mask = 1u << g->cur.vc;
  }
  /* ht_*: the burst's current request */
  if (g->bkind == HB_NONE) next_burst(g, cycle, rng);
  if (g->bkind != HB_NONE) {
    const hreq_t *h = &g->burst[g->bi];
    IN(ht_valid_i, 1);
    IN(ht_write_i, h->write);
    IN(ht_addr_i, h->addr);
    IN(ht_data_i, h->data);
    IN(ht_be_i, h->be);
    IN(ht_tag_i, h->tag);
  }
  return true;
}

/* --- check ------------------------------------------------------------------------------------------- */
static int q_of_qid(const rnd_t *g, uint64_t qid) {
  for (unsigned i = 0; i < g->nq; i++)
    if (g->q[i].qid == qid) return (int)i;
  return -1;
}
static int q_of_ctx(const rnd_t *g, unsigned ctx) {
  for (unsigned i = 0; i < g->nq; i++)
    if (g->q[i].ctx == ctx) return (int)i;
  return -1;
}
static bool body_eq(const cmd_t *c, uint32_t route, const uint32_t *b, unsigned n) {
  return c->route == route && c->nbody == n && !memcmp(c->body, b, n * 4u);
}
static void push_tok(rnd_t *g, unsigned vc, tok_t t, uint64_t cycle, cosim_rng_t *rng) {
  /* mostly short, now and then long (every queue then fills its two packets awaiting tokens, §6.4),
     always well inside AckTimeout (256 at its minimum) */
  const uint64_t lng = g->vw->param.AckTimeout / 2 < 400 ? g->vw->param.AckTimeout / 2 : 400;
  uint64_t due =
      cycle + 1 + RNG_BELOW(rng, 24) + (CH(rng, 0.02) ? lng / 2 + RNG_BELOW(rng, (uint32_t)lng / 2) : 0);
  if (due < g->last_due[vc]) due = g->last_due[vc];
  g->last_due[vc] = due;
  t.due = due;
  g->tq[vc][g->tq_t[vc]++ % TOKQ] = t;
}

/* a packet from the NIC, complete at its TAIL */
static bool nic_packet(rnd_t *g, uint64_t cycle, uint32_t crc, cosim_msg_t *msg) {
  const uint32_t *b = g->op_body;
  const unsigned n = g->op_n;
  if (n > 22)
    return FAIL("elan4.packet", "a packet of %u body words on VC %u (at most 22, §4.6)", n, g->op_vc);
  const uint32_t want_crc = crc32_ref_words(b, n);
  if (crc != want_crc)
    return FAIL("elan4.packet", "TAIL CRC 0x%08x, the body's CRC-32 is 0x%08x (VC %u, W0 0x%08x)", crc,
                want_crc, g->op_vc, n ? b[0] : 0);
  const unsigned ctx = n ? (b[0] >> 16) & 0x3FFFu : 0;
  const int qi = q_of_ctx(g, ctx);
  g->n_pkts++;
  g->m_q = g->m_rp = -1;
  g->m_dma = -1;
  if (qi >= 0 && g->dma && g->op_vc == g->vw->param.VcDma) {
    if (g->dj_h == g->dj_t)
      return FAIL("elan4.dma", "a packet on VcDma (W0 0x%08x), no RUN_DMA accepted", b[0]);
    __typeof__(g->dj[0]) *j = &g->dj[g->dj_h % 8];
    for (unsigned i = 0; i < j->np; i++) {
      if (!j->pk[i].resend || j->pk[i].nw != n || memcmp(j->pk[i].w, b, 4u * n)) continue;
      j->pk[i].resend = false;
      g->m_dma = (int)i;
      g->n_resends++;
      break;
    }
    if (g->m_dma < 0) {
      unsigned i = 0;
      while (i < j->np && j->pk[i].sent) i++;
      if (i == j->np)
        return FAIL("elan4.dma", "queue %u's DMA: a packet beyond its %u", g->q[j->q].qid, j->np);
      if ((unsigned)qi != j->q || j->pk[i].nw != n || memcmp(j->pk[i].w, b, 4u * n) ||
          g->op_route != g->route[(g->q[j->q].ring[j->cmd].dw[0] >> 16) & 0xFFFu]) {
        unsigned k = 0;
        while (k < n && k < j->pk[i].nw && b[k] == j->pk[i].w[k]) k++;
        return FAIL("elan4.dma",
                    "queue %u's DMA packet %u of %u differs at word %u (%u/%u words, got 0x%08x want 0x%08x)",
                    g->q[j->q].qid, i, j->np, k, n, j->pk[i].nw, k < n ? b[k] : 0,
                    k < j->pk[i].nw ? j->pk[i].w[k] : 0);
      }
      j->pk[i].sent = true;
      g->m_dma = (int)i;
      g->n_dma_pkts++;
    }
    return true;
  }
  if (qi >= 0) {
    q_t *q = &g->q[qi];
    if (g->op_vc != g->vcs)
      return FAIL("elan4.packet", "queue %u's packet on VC %u, VcSten is %u", q->qid, g->op_vc, g->vcs);
    cmd_t *hit = NULL;
    for (uint32_t i = q->head; i != q->acc && !hit; i++) { /* a resend: identical to its first try */
      cmd_t *c = &q->ring[i % RING];
      if (c->resend && body_eq(c, g->op_route, b, n)) hit = c;
    }
    const cmd_t *stale = NULL; /* a resend identical but for its route (§6.4: its dest's), named on failure */
    for (uint32_t i = q->head; i != q->acc && !hit && !stale; i++) {
      const cmd_t *c = &q->ring[i % RING];
      if (c->resend && body_eq(c, c->route, b, n)) stale = c;
    }
#define STALE_RESEND()                                                                                       \
  if (stale)                                                                                                 \
  return FAIL("elan4.packet",                                                                                \
              "queue %u, resend of the command at position %u (%s): route 0x%08x, want 0x%08x (its dest's)", \
              q->qid, stale->pos, kind_name[stale->kind], g->op_route, stale->route)
    if (hit) {
      g->m_q = qi;
      g->m_cmd = (uint32_t)(hit - q->ring);
      hit->resend = false;
      g->n_resends++;
    } else {
      while (q->sent_next != q->acc && !is_sten(&q->ring[q->sent_next % RING])) q->sent_next++;
      if (q->sent_next == q->acc) {
        STALE_RESEND();
        return FAIL("elan4.packet",
                    "queue %u: a packet (W0 0x%08x) with no accepted command waiting to be sent", q->qid,
                    b[0]);
      }
      cmd_t *c = &q->ring[q->sent_next % RING];
      if (!body_eq(c, g->op_route, b, n)) {
        STALE_RESEND();
        unsigned k = 0;
        while (k < n && k < c->nbody && b[k] == c->body[k]) k++;
        return FAIL(
            "elan4.packet",
            "queue %u, command at position %u (%s): packet differs at word %u (route 0x%08x/0x%08x, %u/%u "
            "words, got 0x%08x want 0x%08x)",
            q->qid, c->pos, kind_name[c->kind], k, g->op_route, c->route, n, c->nbody, k < n ? b[k] : 0,
            k < c->nbody ? c->body[k] : 0);
      }
      g->m_q = qi;
      g->m_cmd = (uint32_t)(c - q->ring);
      c->sent = true;
      q->sent_next++;
      if (++q->inflight > g->max_inflight) g->max_inflight = q->inflight;
      if (q->inflight == 2) g->n_two++;
      if (q->inflight > 2)
        return FAIL("elan4.inflight", "queue %u: %u STEN packets awaiting tokens (at most 2, §6.4)", q->qid,
                    q->inflight);
    }
#undef STALE_RESEND
    return true;
  }
  if (ctx == CTX_IN && n >= 4 && (b[0] & 15u) == 1u) { /* the RP's reply to one of our READ/ATOMIC */
    if (g->op_vc != g->vcr) return FAIL("elan4.packet", "a reply on VC %u, VcReply is %u", g->op_vc, g->vcr);
    const uint64_t rva = b[2] | (uint64_t)b[3] << 32;
    for (unsigned i = 0; i < RPQ; i++) {
      rpexp_t *r = &g->rp[i];
      if (!r->used || r->rva != rva) continue;
      uint32_t want[20];
      unsigned k = 0;
      want[k++] = 1u | r->n << 4 | CTX_IN << 16;
      want[k++] = NODE;
      k = w_put(want, k, rva);
      for (unsigned j = 0; j < r->n; j++) k = w_put(want, k, r->data[j]);
      if (g->op_route != g->route[SRC] || n != k || memcmp(want, b, 4u * k)) {
        unsigned j = 0;
        while (j < n && j < k && b[j] == want[j]) j++;
        return FAIL(r->n == 1 && rva >> 32 == 0xABCEu ? "elan4.atomic" : "elan4.memory",
                    "reply to reply VA 0x%llx differs at word %u (got 0x%08x want 0x%08x, %u/%u words)",
                    (unsigned long long)rva, j, j < n ? b[j] : 0, j < k ? want[j] : 0, n, k);
      }
      g->n_rp++;
      g->m_rp = (int)i;
      r->sent = true;
      return true;
    }
    return FAIL("elan4.packet", "a reply to VA 0x%llx, none expected", (unsigned long long)rva);
  }
  (void)cycle;
  return FAIL("elan4.packet", "a packet on VC %u with W0 0x%08x: no queue's context, not a reply", g->op_vc,
              n ? b[0] : 0);
}

static bool check_lm_write(rnd_t *g, uint32_t a, uint64_t d, cosim_msg_t *msg) {
  const uint64_t byte = 8ull * a;
  const uint64_t db = g->vw->param.DescBase;
  if (byte >= db && byte < db + 16ull * g->vw->param.NumQueues) return true; /* descriptors (§6.2) */
  for (unsigned i = 0; i < g->nq; i++) {
    q_t *q = &g->q[i];
    if (byte >= q->base && byte < q->base + 8ull * g->depth) { /* backing store (§6.1) */
      const uint64_t want = q->store[(byte - q->base) / 8u];
      if (d != want)
        return FAIL("elan4.store",
                    "queue %u backing-store dword %llu written 0x%016llx, the host wrote 0x%016llx", q->qid,
                    (unsigned long long)((byte - q->base) / 8u), (unsigned long long)d,
                    (unsigned long long)want);
      return true;
    }
    if (byte == PA_Q(i)) { /* the local event's e0 (§4.4, §6.7) */
      if (q->op_h == q->op_t)
        return FAIL("elan4.event", "queue %u's event e0 written (0x%016llx), no set or prime pending", q->qid,
                    (unsigned long long)d);
      const evop_t op = q->ops[q->op_h++ % EVQ];
      uint64_t want = op.v;
      bool fire = false;
      if (op.set) {
        const uint32_t c0 = (uint32_t)q->e0, c1 = c0 + (uint32_t)op.v;
        want = (q->e0 & ~0xFFFFFFFFull) | c1;
        fire = (int32_t)c0 < 0 && (int32_t)c1 >= 0;
      }
      if (d != want)
        return FAIL("elan4.event", "queue %u's event e0 = 0x%016llx after a %s, want 0x%016llx", q->qid,
                    (unsigned long long)d, op.set ? "set" : "prime", (unsigned long long)want);
      q->e0 = d;
      if (fire) {
        q->fire_at[q->fire_t++ % EVQ] = g->now;
        g->n_fires++;
      }
      return true;
    }
    if (byte > PA_Q(i) && byte < PA_Q(i) + 0x20u) return true; /* e1..e3 of a prime */
    if (byte == PA_Q(i) + 0x20u) {                             /* the reply event: +1 per set */
      const uint64_t old = g->lm.mem[a];
      const uint64_t want = (old & ~0xFFFFFFFFull) | (uint32_t)((uint32_t)old + 1u);
      if (d != want)
        return FAIL("elan4.event", "queue %u's reply event e0 = 0x%016llx, was 0x%016llx: a set adds 1",
                    q->qid, (unsigned long long)d, (unsigned long long)old);
      if (q->rev_h == q->rev_t)
        return FAIL("elan4.event", "queue %u's reply event set, no reply with E landed", q->qid);
      q->rev_h++;
      return true;
    }
    if (byte >= PA_Q(i) + 0x100u && byte < PA_Q(i) + 0x100u + 64u * NREPLY) return true; /* reply data */
  }
  if (g->qnet && byte >= g->qn_base &&
      byte < g->qn_base + 8ull * g->depth) { /* the network-fed queue's store */
    if (d)
      return FAIL("elan4.store", "queue %u backing-store write 0x%016llx: only NOPs were written to it",
                  g->qn_qid, (unsigned long long)d);
    return true;
  }
  if (byte == PA_IN + 0x1800u) { /* node 0's SETEVENTs, in the order their TAILs were sent */
    const uint64_t old = g->lm.mem[a];
    if (g->sev_h == g->sev_t)
      return FAIL("elan4.event", "the inbound page's event e0 written (0x%016llx), no SETEVENT sent",
                  (unsigned long long)d);
    const uint64_t want = (old & ~0xFFFFFFFFull) | (uint32_t)((uint32_t)old + g->sev_inc[g->sev_h++ % 64]);
    if (d != want)
      return FAIL("elan4.event", "the inbound page's event e0 = 0x%016llx after a SETEVENT, want 0x%016llx",
                  (unsigned long long)d, (unsigned long long)want);
    return true;
  }
  if (byte >= PA_IN && byte < PA_IN + 0x100u * g->nvc) return true;                /* remote WRITEs */
  if (byte >= PA_IN + 0x1000u && byte < PA_IN + 0x1000u + 8u * NATOM) return true; /* atomics */
  return FAIL("elan4.memory", "a write of 0x%016llx to local byte 0x%llx, outside every region written to",
              (unsigned long long)d, (unsigned long long)byte);
}

/* our token for the packet nic_packet matched: an ack, or now and then a nack (at most nackcap per
   packet, so RetryLimit is never reached), after a random delay, in order per VC */
static bool answer(rnd_t *g, uint64_t cycle, uint32_t d) {
  cosim_rng_t r;
  cosim_rng_seed(&r, cycle * 0x9E3779B97F4A7C15ull ^ d);
  tok_t t = {.ack = true};
  if (g->m_dma >= 0) {
    __typeof__(g->dj[0].pk[0]) *k = &g->dj[g->dj_h % 8].pk[g->m_dma];
    t.dma = true;
    t.cmd = (uint16_t)g->m_dma;
    if (k->tries < g->nackcap && CH(&r, 0.04)) {
      t.ack = false;
      k->tries++;
      g->n_nacks++;
    }
  } else if (g->m_q >= 0) {
    cmd_t *c = &g->q[g->m_q].ring[g->m_cmd];
    t.sten = true;
    t.q = (uint8_t)g->m_q;
    t.cmd = (uint16_t)g->m_cmd;
    if (g->sten_nack && c->tries < g->nackcap && CH(&r, 0.04)) {
      t.ack = false;
      c->tries++;
      g->n_nacks++;
    }
  } else if (g->m_rp >= 0) {
    rpexp_t *x = &g->rp[g->m_rp];
    t.cmd = (uint16_t)g->m_rp;
    if (x->tries < g->nackcap && CH(&r, 0.04)) {
      t.ack = false;
      x->tries++;
      g->n_nacks++;
    }
  } else
    return false;
  push_tok(g, g->op_vc, t, cycle, &r);
  return true;
}

/* the scenarios of `need`, counted from what the ports showed (never the DUT's state) */
static void scenarios(rnd_t *g) {
  const unsigned vr = g->vcr;
  const uint64_t listed = g->tq_t[vr] - g->tq_h[vr] + (g->op_on && g->op_vc == vr);
  bool owed = false;
  for (unsigned i = 0; i < RPQ; i++) owed |= g->rp[i].used && !g->rp[i].sent;
  if (owed && listed >= g->vw->param.MaxOutstanding) g->n_fullvc++;
  bool rp_read = false, atomic = false;
  for (uint32_t i = g->hr_h; i != g->hr_t; i++) rp_read |= g->hr[i % 16].rp;
  for (uint32_t i = g->aw_h; i != g->aw_t; i++) {
    const ipkt_t *p = &g->aw[i % 16];
    atomic |= p->role == IR_ATOMIC && p->host && !p->bad_crc;
  }
  if (rp_read && atomic) g->n_tagrace++;
}

static bool watchdogs(rnd_t *g, uint64_t cycle, cosim_msg_t *msg) {
  bool busy = g->cur_on || g->ip_h != g->ip_t || g->aw_h != g->aw_t || g->op_on || g->bkind == HB_CMD;
  for (unsigned v = 0; v < g->nvc; v++) busy |= g->tq_h[v] != g->tq_t[v];
  for (unsigned i = 0; i < g->nq; i++) {
    q_t *q = &g->q[i];
    busy |= q->head != q->tail;
    if (q->head != q->last_head) {
      q->last_head = q->head;
      q->head_since = cycle;
    }
    if (q->head != q->tail) { /* the oldest command, from when it was written and became the oldest */
      const cmd_t *c = &q->ring[q->head % RING];
      const uint64_t from = c->written_at > q->head_since ? c->written_at : q->head_since;
      if (c->kind != K_BAD && c->written && cycle > from + g->stuck)
        return FAIL("elan4.stuck",
                    "queue %u: the %s at position %u written in cycle %llu is not done (accepted %d, sent "
                    "%d, nacked %u times, a resend due %d, acked %d, reply %d)",
                    q->qid, kind_name[c->kind], c->pos, (unsigned long long)c->written_at, c->accepted,
                    c->sent, c->tries, c->resend, c->acked, c->reply_done);
    }
    if (q->fire_h != q->fire_t && cycle > q->fire_at[q->fire_h % EVQ] + 2000)
      return FAIL("elan4.event",
                  "queue %u: its event fired in cycle %llu, no interrupt record (cause 2) since", q->qid,
                  (unsigned long long)q->fire_at[q->fire_h % EVQ]);
    if (q->rev_h != q->rev_t && cycle > q->rev_at[q->rev_h % EVQ] + 2000)
      return FAIL("elan4.event", "queue %u: a reply with E landed in cycle %llu, its event was never set",
                  q->qid, (unsigned long long)q->rev_at[q->rev_h % EVQ]);
    if (q->vs == V_BAD && cycle > q->bad_written_at + 3000)
      return FAIL("elan4.qerr", "queue %u: %s written in cycle %llu, the queue never entered ERROR", q->qid,
                  bad_name[q->bad], (unsigned long long)q->bad_written_at);
  }
  for (unsigned i = 0; i < RPQ; i++) busy |= g->rp[i].used;
  busy |= g->hr_h != g->hr_t || g->qn_acc != g->qn_sent || g->sev_h != g->sev_t || g->dj_h != g->dj_t;
  if (g->sev_h != g->sev_t && cycle > g->sev_at[g->sev_h % 64] + 2000)
    return FAIL("elan4.event", "node 0's SETEVENT (TAIL in cycle %llu) never set its event",
                (unsigned long long)g->sev_at[g->sev_h % 64]);
  if (g->qn_acc < g->qn_acked && cycle > g->qn_tok_at + 2000)
    return FAIL("elan4.stuck", "queue %u: %llu NOPs written into it by the network, %llu run", g->qn_qid,
                (unsigned long long)g->qn_acked, (unsigned long long)g->qn_acc);
  g->busy += busy;
  scenarios(g);
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  rnd_t *g = ctx;
  uint64_t ncmd = 0;
  printf("elan4_random: %u queues (%s), commands:", g->nq, g->isolation ? "2 victims" : "no isolation");
  for (unsigned k = 0; k < NKIND; k++)
    if (k != K_BAD) {
      printf(" %s %llu", kind_name[k], (unsigned long long)g->n_kind[k]);
      ncmd += g->n_kind[k];
    }
  printf("\nelan4_random: %llu packets (%llu resends, %llu nacked by us), %llu inbound packets (%llu after a "
         "bad CRC), "
         "%llu replies from the RP, %llu event fires, %llu host-master requests\n",
         (unsigned long long)g->n_pkts, (unsigned long long)g->n_resends, (unsigned long long)g->n_nacks,
         (unsigned long long)g->n_in, (unsigned long long)g->n_in_bad, (unsigned long long)g->n_rp,
         (unsigned long long)g->n_fires, (unsigned long long)g->n_hm);
  printf("elan4_random: %llu queue errors from malformed input:", (unsigned long long)g->n_errors);
  for (unsigned b = 0; b < NBAD; b++) printf(" %s %llu", bad_name[b], (unsigned long long)g->n_bad[b]);
  printf("; %llu NOPs run from the network", (unsigned long long)g->qn_acc);
  printf("; %llu bad PIOs; %u times a queue had 2 STEN packets awaiting tokens\n",
         (unsigned long long)g->pio_bad, g->n_two);
  printf("scenarios: %llu cycles with VC %u listing MaxOutstanding packets while a reply was owed, %llu with "
         "a reply unit host read outstanding while a host ATOMIC awaited its token\n",
         (unsigned long long)g->n_fullvc, g->vcr, (unsigned long long)g->n_tagrace);
  if ((g->need & N_FULLVC) && !g->n_fullvc)
    return FAIL("elan4.scenario", "never a full VcReply list with a reply owed: tx_outstanding_bound's "
                                  "scenario not reached");
  if ((g->need & N_TAGRACE) && !g->n_tagrace)
    return FAIL("elan4.scenario", "never a reply unit host read outstanding with a host ATOMIC waiting: "
                                  "hm_read_has_tag's scenario not reached");
  printf("busy: %llu of %llu cycles with traffic in flight (%.1f %%)\n", (unsigned long long)g->busy,
         (unsigned long long)cycles, cycles ? 100.0 * (double)g->busy / (double)cycles : 0.0);
  if ((double)g->busy < 0.9 * (double)cycles)
    return FAIL("elan4.busy", "coverage hole: traffic in flight in only %llu of %llu cycles (< 90 %%)",
                (unsigned long long)g->busy, (unsigned long long)cycles);
  if (cycles >= 2000 && ncmd == 0)
    return FAIL("elan4.busy", "no command written in %llu cycles", (unsigned long long)cycles);
  return true;
}

static bool check(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg) {
  rnd_t *g = ctx;
  g->now = cycle;
  /* host requests */
  if (g->bkind != HB_NONE && INP(ht_valid_i) && OUT(ht_ready_o)) {
    if (g->bkind == HB_BAD && g->bi == 0) { /* its first dword may already err (a dword-0 check, §4.3) */
      g->q[g->bq].vs = V_BAD;
      g->q[g->bq].bad_written_at = cycle;
    }
    if (++g->bi == g->nb) {
      q_t *q = g->bkind == HB_BADPIO ? NULL : &g->q[g->bq];
      switch (g->bkind) {
        case HB_CMD:
          q->ring[g->bcmd % RING].written = true;
          q->ring[g->bcmd % RING].written_at = cycle;
          g->n_kind[q->ring[g->bcmd % RING].kind]++;
          break;
        case HB_BAD: q->ring[g->bcmd % RING].written = true; break;
        case HB_CQCTL:
          if (g->opening < g->nq + g->qnet)
            g->opening++;
          else { /* re-opened: positions from 0 (§4.2) */
            q->head = q->acc = q->tail = q->sent_next = 0;
            q->pos = 0;
            q->inflight = 0;
            q->vs = V_NORMAL;
            q->bad_at = cycle + 1000u + (cycle * 7919u) % 2000u;
          }
          break;
        case HB_STATUS: q->vs = V_STATUS_SENT; break;
        case HB_BADPIO:
          g->pio_bad++;
          g->pio_bad_at = cycle;
          break;
        default: break;
      }
      g->bkind = HB_NONE;
    }
  }
  if (OUT(ht_rvalid_o)) { /* a victim's status word (§4.2) */
    const int qi = (int)(OUT(ht_rtag_o) & 0x7Fu);
    if (!(OUT(ht_rtag_o) & 0x80u) || qi >= (int)g->nq || g->q[qi].vs != V_STATUS_SENT)
      return FAIL("elan4.qerr", "a PIO read answer (tag 0x%02llx), none outstanding",
                  (unsigned long long)OUT(ht_rtag_o));
    q_t *q = &g->q[qi];
    const uint64_t st = OUT(ht_rdata_o);
    if ((st & 0x3FFu) != (2u << 8 | q->bad_code) || ((st >> 12) & 0xFFFFFu) != (q->bad_pos & 0xFFFFFu))
      return FAIL("elan4.qerr",
                  "queue %u status 0x%016llx after %s: want state ERROR, code %u, position %u (§4.2, §7)",
                  q->qid, (unsigned long long)st, bad_name[q->bad], q->bad_code, q->bad_pos & 0xFFFFFu);
    q->vs = V_REOPEN;
  }
  if (g->pio_bad_at && cycle >= g->pio_bad_at + 3 && CNT(2) != g->pio_bad)
    return FAIL("elan4.pio", "cnt_pio_bad %llu, %llu bad PIOs accepted (§4.1)", (unsigned long long)CNT(2),
                (unsigned long long)g->pio_bad);
  /* commands accepted (tr_cmd_o: the cycle before) */
  if (OUT(tr_cmd_o) && g->qnet && OUT(tr_cmd_q_o) == g->qn_qid) {
    if (++g->qn_acc > g->qn_sent)
      return FAIL("elan4.order", "queue %u: %llu commands accepted, only %llu NOPs sent into its page",
                  g->qn_qid, (unsigned long long)g->qn_acc, (unsigned long long)g->qn_sent);
  } else if (OUT(tr_cmd_o)) {
    const int qi = q_of_qid(g, OUT(tr_cmd_q_o));
    if (qi < 0)
      return FAIL("elan4.order", "a command accepted on queue %llu, not one of ours",
                  (unsigned long long)OUT(tr_cmd_q_o));
    q_t *q = &g->q[qi];
    /* accepted in cycle-1; its last dword accepted on ht_* 3 cycles before that at the earliest (§6.1's
       empty-queue latency) */
    if (q->acc == q->tail || !q->ring[q->acc % RING].written || q->ring[q->acc % RING].written_at + 4 > cycle)
      return FAIL("elan4.order",
                  "queue %u: a command accepted (cycle %llu) less than 3 cycles after the host "
                  "wrote all of it",
                  q->qid, (unsigned long long)cycle - 1);
    cmd_t *c = &q->ring[q->acc % RING];
    switch (c->kind) {
      case K_SEVL: q->ops[q->op_t++ % EVQ] = (evop_t){1, c->dw[0] >> 32}; break;
      case K_WAIT: q->ops[q->op_t++ % EVQ] = (evop_t){0, c->dw[2]}; break;
      case K_INTR: q->cookie[q->ck_t++ % EVQ] = (uint32_t)(c->dw[0] >> 32); break;
      case K_DMA: { /* §6.8's packets: at most 8 dwords, none crossing a page on either side */
        if (g->dj_t - g->dj_h >= 8) return FAIL("elan4.dma", "more DMA jobs waiting than the test tracks");
        __typeof__(g->dj[0]) *j = &g->dj[g->dj_t++ % 8];
        memset(j, 0, sizeof *j);
        j->q = (uint8_t)qi;
        j->cmd = q->acc % RING;
        const uint64_t src = c->dw[1], dst = c->dw[2], nd = (c->dw[0] >> 32) / 8u, e = (c->dw[0] >> 8) & 1u;
        for (uint64_t o = 0; o < nd; j->np++) {
          uint64_t m = nd - o < 8 ? nd - o : 8;
          const uint64_t dl = (0x2000u - ((dst + 8u * o) & 0x1FFFu)) / 8u;
          const uint64_t sl = (0x2000u - ((src + 8u * o) & 0x1FFFu)) / 8u;
          if (dl < m) m = dl;
          if (sl < m) m = sl;
          const bool last = o + m == nd;
          unsigned k = 0;
          j->pk[j->np].w[k++] = 1u | (unsigned)m << 4 | (unsigned)(last && e) << 8 | q->ctx << 16;
          j->pk[j->np].w[k++] = NODE;
          k = w_put(j->pk[j->np].w, k, dst + 8u * o);
          for (uint64_t i = 0; i < m; i++)
            k = w_put(j->pk[j->np].w, k, g->lm.mem[PA_DS(qi) / 8u + ((src + 8u * (o + i)) & 0x1FFFu) / 8u]);
          if (last && e) k = w_put(j->pk[j->np].w, k, c->dw[3]);
          j->pk[j->np].nw = (uint8_t)k;
          o += m;
        }
        break;
      }
      case K_GUARD: /* §4.3: every earlier packet of the queue acked */
        for (uint32_t i = q->head; i != q->acc; i++)
          if (is_sten(&q->ring[i % RING]) && !q->ring[i % RING].acked)
            return FAIL("elan4.guard", "queue %u: GUARD at position %u accepted, the %s at %u not acked",
                        q->qid, c->pos, kind_name[q->ring[i % RING].kind], q->ring[i % RING].pos);
        break;
      case K_BAD:
        if (c->bad != B_NOROUTE)
          return FAIL("elan4.qerr", "queue %u: the malformed command at %u (%s) was accepted", q->qid, c->pos,
                      bad_name[c->bad]);
        break;
      default: break;
    }
    c->accepted = true;
    q->acc++;
    retire(q);
  }
  /* interrupts (§6.9) */
  if (OUT(irq_valid_o)) {
    const unsigned cause = (unsigned)OUT(irq_cause_o);
    const uint64_t info = OUT(irq_info_o), data = OUT(irq_data_o);
    const int qi = q_of_qid(g, info);
    if (cause == 1 && qi >= 0) {
      q_t *q = &g->q[qi];
      for (;;) {
        if (q->ck_h == q->ck_t)
          return FAIL("elan4.irq", "an INTERRUPT record for queue %u (cookie 0x%llx), none accepted", q->qid,
                      (unsigned long long)data);
        if (q->cookie[q->ck_h % EVQ] == data) break;
        if (CNT(26) <= g->lost_seen)
          return FAIL("elan4.irq", "queue %u's INTERRUPT record cookie 0x%llx, want 0x%x", q->qid,
                      (unsigned long long)data, q->cookie[q->ck_h % EVQ]);
        g->lost_seen++, q->ck_h++;
      }
      q->ck_h++;
    } else if (cause == 2) {
      const int qe = (data >> 56) == 0xC0u ? (int)(data & 0xFFu) : -1;
      if (qe < 0 || qe >= (int)g->nq || info != g->q[qe].ctx || g->q[qe].fire_h == g->q[qe].fire_t)
        return FAIL("elan4.event", "an event record (info 0x%llx, data 0x%llx), no fire predicted",
                    (unsigned long long)info, (unsigned long long)data);
      g->q[qe].fire_h++;
    } else if (cause == 3) {
      if (qi < 0)
        return FAIL("elan4.isolation", "queue %llu entered ERROR, not one of ours", (unsigned long long)info);
      q_t *q = &g->q[qi];
      if (q->vs != V_BAD)
        return FAIL("elan4.isolation",
                    "queue %u entered ERROR (code %llu, position %llu) with no malformed input", q->qid,
                    (unsigned long long)(data & 0xFF), (unsigned long long)((data >> 8) & 0xFFFFF));
      const uint64_t want = q->bad_code | (uint64_t)(q->bad_pos & 0xFFFFFu) << 8;
      if (data != want)
        return FAIL("elan4.qerr",
                    "queue %u ERROR record data 0x%llx after %s: want code %u position %u (0x%llx)", q->qid,
                    (unsigned long long)data, bad_name[q->bad], q->bad_code, q->bad_pos & 0xFFFFFu,
                    (unsigned long long)want);
      q->vs = V_STATUS;
      q->errors++;
      g->n_errors++;
    } else if (cause == 4) {
      if (g->i4_h == g->i4_t || info != CTX_IN || data != g->irq4_va[g->i4_h % 64])
        return FAIL("elan4.irq", "a translation-fault record (ctx 0x%llx, VA 0x%llx), none expected",
                    (unsigned long long)info, (unsigned long long)data);
      g->i4_h++;
    } else
      return FAIL("elan4.irq", "an interrupt record cause %u info 0x%llx data 0x%llx, none expected", cause,
                  (unsigned long long)info, (unsigned long long)data);
  }
  /* credits for our flits: each the cycle after (§6.5) */
  if (OUT(out_credit_o) != g->credit_due)
    return FAIL("elan4.rx", "out_credit_o 0x%llx, want 0x%x (one per flit we sent the cycle before)",
                (unsigned long long)OUT(out_credit_o), g->credit_due);
  /* local memory */
  if (OUT(lm_valid_o)) {
    const uint32_t a = (uint32_t)OUT(lm_addr_o);
    if (OUT(lm_write_o)) {
      if (OUT(lm_be_o) != 0xFF)
        return FAIL("elan4.memory", "a local-memory write with lm_be_o 0x%llx",
                    (unsigned long long)OUT(lm_be_o));
      if (!check_lm_write(g, a, OUT(lm_wdata_o), msg)) return false;
      e4h_lm_write(&g->lm, a, OUT(lm_wdata_o));
    } else
      e4h_lm_read(&g->lm, cycle, a);
  }
  if (OUT(hm_valid_o) && INP(hm_ready_i)) { /* a host request taken (§3.2) */
    const uint64_t a = OUT(hm_addr_o), off = a - HPA;
    const bool wr = OUT(hm_write_o);
    const unsigned len = (unsigned)OUT(hm_len_o), tag = (unsigned)OUT(hm_tag_o);
    g->n_hm++;
    if (!g->hostmem || a < HPA || off >= 0x2000u || (a & 7u))
      return FAIL("elan4.memory", "a host %s at 0x%llx, outside the host page", wr ? "write" : "read",
                  (unsigned long long)a);
    if (wr) {
      const bool area = off < 0x100u * g->nvc || (off >= 0x1000u && off < 0x1000u + 8u * NATOM);
      if (!area || OUT(hm_be_o) != 0xFF || len || tag)
        return FAIL("elan4.memory",
                    "a host write at +0x%llx be 0x%llx len %u tag %u: not a dword of a written area",
                    (unsigned long long)off, (unsigned long long)OUT(hm_be_o), len, tag);
      g->hmem[off / 8u] = OUT(hm_data_o);
    } else {
      if (len < 1 || len > 64 || off / 8u + len > 1024 || tag >= g->vw->param.HostReadTags ||
          g->hr_t - g->hr_h >= 16)
        return FAIL("elan4.memory", "a host read at +0x%llx of %u dwords, tag %u", (unsigned long long)off,
                    len, tag);
      for (uint32_t i = g->hr_h; i != g->hr_t; i++)
        if (g->hr[i % 16].tag == tag)
          return FAIL("elan4.memory", "a host read with tag %u, still outstanding (§5.1)", tag);
      __typeof__(g->hr[0]) *h = &g->hr[g->hr_t++ % 16];
      h->tag = (uint8_t)tag;
      h->len = (uint8_t)len;
      h->got = 0;
      h->rp = !(off >= 0x1000u && off < 0x1000u + 8u * NATOM);
      h->due = cycle + 1 + (cycle * 2654435761u >> 7) % 60u; /* 1..60 cycles */
      if (g->hr_t - g->hr_h > 1 && h->due < g->hr[(g->hr_t - 2) % 16].due)
        h->due = g->hr[(g->hr_t - 2) % 16].due;
      for (unsigned i = 0; i < len; i++) h->data[i] = g->hmem[off / 8u + i]; /* as of the take: PCI order */
    }
  }
  /* the link from the NIC */
  if (OUT(out_valid_o)) {
    const unsigned kind = (unsigned)OUT(out_kind_o), vc = (unsigned)OUT(out_vc_o);
    const uint32_t d = (uint32_t)OUT(out_data_o);
    if (kind == 3) { /* the NIC's token for our packet: TAIL order (the IP is sequential, §6.5) */
      if (g->aw_h == g->aw_t) return FAIL("elan4.rx", "a TOKEN on VC %u, no packet of ours awaits one", vc);
      ipkt_t *p = &g->aw[g->aw_h++ % 16];
      if (vc != p->vc || (d & 1u) != (p->ack ? 1u : 0u) || d > 1u)
        return FAIL(p->role == IR_ATOMIC ? "elan4.atomic" : "elan4.rx",
                    "TOKEN vc %u data 0x%x for our packet (role %u%s), want vc %u %s", vc, d, p->role,
                    p->bad_crc ? ", bad CRC" : "", p->vc, p->ack ? "ack" : "nack");
      g->vc_busy[p->vc] = false;
      if (p->bad_crc)
        g->n_crc_tok++;
      else if (p->role >= IR_BADKIND)
        g->n_bad_tok++;
      const uint64_t ncrc = CNT(17), nbad = CNT(18) + CNT(21) + CNT(22);
      if (ncrc < g->n_crc_tok || ncrc > g->n_crc_sent || nbad < g->n_bad_tok || nbad > g->n_bad_sent)
        return FAIL("elan4.rx", "counters: crc %llu (want %llu..%llu), bad+xlate+prot %llu (want %llu..%llu)",
                    (unsigned long long)ncrc, (unsigned long long)g->n_crc_tok,
                    (unsigned long long)g->n_crc_sent, (unsigned long long)nbad,
                    (unsigned long long)g->n_bad_tok, (unsigned long long)g->n_bad_sent);
      if (p->bad_crc) { /* the good copy follows */
        ipkt_t r = *p;
        r.bad_crc = false;
        r.ack = r.role < IR_BADKIND;
        g->n_in_bad++;
        ip_push(g, &r, true);
      } else if (p->role == IR_REPLY) {
        q_t *q = &g->q[p->q];
        cmd_t *c = &q->ring[p->cmd];
        for (unsigned i = 0; i < p->n; i++)
          if (g->lm.mem[p->pa / 8u + i] != p->data[i])
            return FAIL("elan4.memory", "queue %u: reply dword %u at local 0x%x is 0x%016llx, want 0x%016llx",
                        q->qid, i, p->pa + 8u * i, (unsigned long long)g->lm.mem[p->pa / 8u + i],
                        (unsigned long long)p->data[i]);
        if (p->rva) q->rev_at[q->rev_t++ % EVQ] = cycle;
        c->reply_done = true;
        retire(q);
      } else if (p->role == IR_QWRITE) {
        g->qn_acked += p->n;
        g->qn_busy = false;
        g->qn_tok_at = cycle;
      } else if (p->role == IR_WRITE) {
        for (unsigned i = 0; i < p->n; i++) {
          const uint64_t got = p->host ? g->hmem[p->pa / 8u + i] : g->lm.mem[p->pa / 8u + i];
          /* the ack comes at the last host write's grant (§6.5): that one may still wait on hm_* (§5.1) */
          const bool pending = p->host && i + 1 == p->n && OUT(hm_valid_o) && OUT(hm_write_o) &&
                               OUT(hm_addr_o) == HPA + p->pa + 8u * i && OUT(hm_data_o) == p->data[i];
          if (got != p->data[i] && !pending)
            return FAIL("elan4.memory", "remote WRITE dword %u at %s 0x%x is 0x%016llx, want 0x%016llx", i,
                        p->host ? "host page +" : "local", p->pa + 8u * i, (unsigned long long)got,
                        (unsigned long long)p->data[i]);
        }
      } else if (p->role == IR_READ || p->role == IR_ATOMIC) {
        unsigned s = 0;
        while (s < RPQ && g->rp[s].used) s++;
        if (s == RPQ) return FAIL("elan4.rx", "more replies outstanding than the test tracks");
        rpexp_t *r = &g->rp[s];
        *r = (rpexp_t){true, p->rva, p->n, 0, {0}, false};
        if (p->role == IR_READ)
          memcpy(r->data, p->data, sizeof r->data);
        else { /* our own arithmetic (§6.5): FADD mod 2^64, CAS if equal */
          uint64_t *am = p->host ? g->hamem : g->amem;
          const uint64_t old = am[p->aidx];
          const uint64_t nw = p->cas ? (old == p->a ? p->b : old) : old + p->a;
          r->n = 1;
          r->data[0] = old;
          am[p->aidx] = nw;
          const uint64_t got =
              p->host ? g->hmem[0x1000u / 8u + p->aidx] : g->lm.mem[(PA_IN + 0x1000u) / 8u + p->aidx];
          const bool pending = p->host && OUT(hm_valid_o) && OUT(hm_write_o) &&
                               OUT(hm_addr_o) == HPA + 0x1000u + 8u * p->aidx && OUT(hm_data_o) == nw;
          if (got != nw && !pending)
            return FAIL("elan4.atomic",
                        "%s on atomic dword %u: memory 0x%016llx, want 0x%016llx (old 0x%016llx)",
                        p->cas ? "CAS" : "FADD", p->aidx, (unsigned long long)got, (unsigned long long)nw,
                        (unsigned long long)old);
        }
      }
    } else {
      g->owed[vc & 3u]++;
      if (kind == 0) {
        if (g->op_on)
          return FAIL("elan4.packet", "a HEAD on VC %u inside another packet (flits interleave)", vc);
        g->op_on = true;
        g->op_vc = (uint8_t)vc;
        g->op_route = d;
        g->op_n = 0;
      } else {
        if (!g->op_on || vc != g->op_vc)
          return FAIL("elan4.packet", "a %s flit on VC %u outside a packet", kind == 1 ? "BODY" : "TAIL", vc);
        if (kind == 1) {
          if (g->op_n < 32) g->op_body[g->op_n] = d;
          g->op_n++;
        } else {
          g->op_on = false;
          if (!nic_packet(g, cycle, d, msg)) return false;
          if (!answer(g, cycle, d)) return FAIL("elan4.packet", "internal: a packet matched nothing");
        }
      }
    }
  }
  return watchdogs(g, cycle, msg);
}

#define PURPOSE \
  "random commands into several queues, a responder with nacks, remote traffic, malformed input isolated"
COSIM_TEST(elan4_random, .target = &elan4_default_target, .purpose = PURPOSE, .ctx_size = sizeof(rnd_t),
           .init = init_default, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_max, .target = &elan4_max_target, .purpose = "elan4_random on the max target",
           .ctx_size = sizeof(rnd_t), .init = init_max, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_onevc, .target = &elan4_onevc_target, .purpose = "elan4_random on the onevc target",
           .ctx_size = sizeof(rnd_t), .init = init_onevc, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_min, .target = &elan4_min_target,
           .purpose = "elan4_random on the min target (one queue, no nacks: RetryLimit 0)",
           .ctx_size = sizeof(rnd_t), .init = init_min, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(
    elan4_random_min_fullvc, .target = &elan4_min_target,
    .purpose = "elan4_random_min that must list MaxOutstanding packets on VcReply while a reply is owed "
               "(§6.4; tx_outstanding_bound's scenario)",
    .ctx_size = sizeof(rnd_t), .init = init_min_fullvc, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_onetag, .target = &elan4_onetag_target,
           .purpose =
               "elan4_random on elan4_onetag (one host-read tag, two reply slots): the reply unit's host "
               "read and a host ATOMIC compete for the tag (§6.5; hm_read_has_tag's scenario)",
           .ctx_size = sizeof(rnd_t), .init = init_onetag, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_full, .target = &elan4_default_target,
           .purpose =
               "elan4_random with STEN packets nacked (resends), inbound READ/ATOMIC using every reply "
               "slot, and RUN_DMA",
           .ctx_size = sizeof(rnd_t), .init = init_full, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_full_big, .target = &elan4_default_target,
           .purpose = "elan4_random_full with RUN_DMA of up to 512 dwords (chunks, a full ring, page splits)",
           .ctx_size = sizeof(rnd_t), .init = init_full_big, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_full_min, .target = &elan4_min_target,
           .purpose = "RUN_DMA of up to 200 dwords on the min target (DmaQueue 1, DmaBufDw 64), no nacks",
           .ctx_size = sizeof(rnd_t), .init = init_full_min, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_full_nodma, .target = &elan4_default_target,
           .purpose = "elan4_random_full without RUN_DMA: resends and every reply slot, in lockstep",
           .ctx_size = sizeof(rnd_t), .init = init_pressure, .drive = drive, .check = check, .finish = finish)
COSIM_TEST(elan4_random_stop, .target = &elan4_default_target,
           .purpose = "elan4_random with new traffic stopped at cycle 2000: the busy gate's negative",
           .ctx_size = sizeof(rnd_t), .init = init_stop, .drive = drive, .check = check, .finish = finish)
