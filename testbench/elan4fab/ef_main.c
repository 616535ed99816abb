/* elan4_fabric_sim: elan4 nodes on radix-4 fat trees of elite4 switches, on
 * the generic fabric core (docs/elan4fab.md). Programs written against the
 * host API (ef_host.h) run on the nodes; the checks are the testbench's own
 * (the data a put wrote, an atomic's totals, a lock word's transitions, the
 * latency contracts of docs/elan4.md §9), never the models' code.
 *
 * Tests (--test=NAME):
 *   put     an 8-byte put from --src to --dst (default 0 -> nodes-1): a cold
 *           put (queue descriptor load, TLB miss), then the warm one whose
 *           per-stage breakdown (docs/elan4.md §9.3) is printed beside seed
 *           004's Table 3, then a put with a remote event (event fired, the
 *           destination host's interrupt). Checks e4fab.put_data,
 *           e4fab.latency (§9.1's source and destination rows exactly, and
 *           Table 3's 82.5 / 157.5 ns bounds), e4fab.stages (every stage
 *           seen), e4fab.event; then an 8-byte get of that dword back
 *           into the source's host memory: e4fab.get_data.
 *   fadd    every node fetch-adds 1 to one word on node 0, --rounds times:
 *           e4fab.fadd_total (the final word) and e4fab.fadd_unique (the old
 *           values returned are each of init .. init + total - 1 once).
 *   cas     every node takes a lock on node 0 by compare-and-swap, reads a
 *           counter there, writes it back plus one, releases the lock, for
 *           --rounds acquisitions in all: e4fab.cas_mutex (the lock word only
 *           ever goes 0 -> holder -> 0) and e4fab.cas_count (no update lost).
 *   getsizes  --src reads 8 B .. --max-bytes of --dst's memory by READ
 *           (up to 8 dwords each) and by a RUN_DMA it puts into --dst's
 *           queue page; latency to the last dword written locally:
 *           e4fab.getsizes_data (every byte, nothing beyond).
 *   (sizes, dmabw, evrate, isolation: see docs/elan4fab.md.)
 * --db=PATH: the run, its parameters, the put's packets, hops and stages,
 * the sweeps' results into the SQLite store (docs/store.md).
 * Every run: e4fab.lockstep / assert:<label> (a node's model vs RTL, or an
 * RTL assertion), fabric.lockstep (a switch), e4fab.errors (no NIC error
 * counter moved, no switch error), e4fab.deadline (the program ended within
 * --cycles). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bind/elite4.h"
#include "bind/fabric_elite4.h"
#include "first_failure.h"
#include "ef_host.h"
#include "ef_log.h"
#include "ef_node.h"
#include "elite4/elite4.h"
#include "fabric/fabric.h"
#include "fabric/fabric_topo.h"
#include "waves.h"
#include "fabric/e4t_topo.h"
#include "store/store.h"

/* --- the address plan every node uses (ours, docs/elan4fab.md "Address plan") --- */
#define CTX      0x42u
#define VA_HEAP  0x00007F0000000000ull        /* 4 pages, local memory: put targets, atomics, lock */
#define VA_HOST  (VA_HEAP + 0x100ull * 8192u) /* 2 pages, host memory: replies */
#define VA_EV    (VA_HEAP + 0x200ull * 8192u) /* 1 page, local memory: events */
#define VA_HSRC  (VA_HEAP + 0x300ull * 8192u) /* 16 pages, host memory: DMA sources */
#define HPA_SRC  0x2000000000ull
#define VA_Q     (VA_HEAP + 0x280ull * 8192u) /* queue 0's page (space 2): event COPYs write commands here */
#define PA_HEAP  0x01000000u
#define PA_EV    0x02000000u
#define HPA_HOST 0x1000000000ull
#define QBASE    0x00800000u /* queue 0's backing store: class 1 (8 KB) */
#define QCLASS   1u

enum { T_PUT = 0, T_FADD, T_CAS, T_SIZES, T_DMABW, T_EVRATE, T_ISOLATION, T_GETSIZES, T_N };
/* Planted testbench bugs (--tb-bug=NAME): each breaks what one check
 * judges, so the negative proves that check fires (docs/elan4fab.md). */
enum {
  TB_NONE = 0,
  TB_STAMP_LATE,
  TB_EVENT_COUNT_ZERO,
  TB_FADD_REPLY_SLOT,
  TB_CAS_NO_INCREMENT,
  TB_LOG_NO_LM,
  TB_DMA_SHORT,      /* sizes, dmabw: every DMA 8 bytes shorter than its message */
  TB_EVR_DATA,       /* evrate: the builder's last command carries another dword */
  TB_GET_VA,         /* put: the get reads the dword after the one it checks */
  TB_REORDER_NONE,   /* --reorder: the hosts keep their writes in order after all */
  TB_ISO_WANT_OFF,   /* isolation: the first kind's expected code off by one */
  TB_HOST_READS_1,   /* the hosts hold one NIC read at a time (HostReadTags is larger) */
  TB_HOST_NO_ALLOC,  /* every growth of a host's queues fails */
  TB_GET_SHORT,      /* getsizes: every get one dword short (the last READ n - 1, the DMA 8 bytes less) */
  TB_DB_SKIP_STAGE,  /* --db: the measured put's "packet formed" stage is not written */
  TB_DB_SKIP_RESULT, /* --db: the sizes sweep's first DMA result row is not written */
  TB_N
};
static const char *const tb_bug_names[] = {
    "none",          "stamp_late", "event_count_zero", "fadd_reply_slot", "cas_no_increment", "log_no_lm",
    "dma_short",     "evr_data",   "get_va",           "reorder_none",    "iso_want_off",     "host_reads_1",
    "host_no_alloc", "get_short",  "db_skip_stage",    "db_skip_result"};
_Static_assert(sizeof tb_bug_names / sizeof tb_bug_names[0] == TB_N, "one name per TB_* bug");
static const char *const test_names[] = {"put",   "fadd",   "cas",       "sizes",
                                         "dmabw", "evrate", "isolation", "getsizes"};
_Static_assert(sizeof test_names / sizeof test_names[0] == T_N, "one name per test");

typedef struct {
  unsigned test, nodes, src, dst, rounds, host_lat, link_delay, nic_bug, tb_bug;
  uint32_t max_bytes;   /* sizes, dmabw: the largest message */
  unsigned reorder;     /* hosts write queue pages out of order within this window */
  ef_nic_mode_t nic;    /* the path's NICs (put: src and dst; else every NIC) */
  fabric_mode_t sw;     /* the path's switches (put) or every switch */
  bool nic_all, sw_all; /* --nic-all / --sw-all: every instance, not only the path */
  uint64_t seed, cycles;
  double cable_m; /* report only: metres of cable per link for Table 3's rows */
  const char *name, *out, *trace, *db;
  char expect[160];
  uint64_t expect_cycle;
  bool expect_on;
  char argv_line[2048];
} cfg_t;

typedef struct {
  cfg_t c;
  e4t_topo_t topo;
  fabric_t f;
  uint32_t node0; /* first node instance (after the switches) */
  ef_log_t log;
  /* the first failure */
  bool failed;
  uint64_t fail_cycle;
  char fail_id[64], fail_msg[600];
  /* programs */
  unsigned *round;      /* [node] rounds done */
  int *pending;         /* [node] op awaited (its cookie), -1 none */
  unsigned *phase;      /* [node] cas: 0 acquire, 1 read, 2 write+release */
  unsigned *seen;       /* [node] interrupt records already consumed */
  uint64_t *wait_until; /* [node] cas: back-off after a failed attempt */
  unsigned *fails;      /* [node] cas: failed attempts in a row */
  cosim_rng_t rng;
  uint64_t *got; /* fadd: old values returned, in order */
  size_t ngot;
  uint64_t lock_prev, acquisitions;
  /* the put's path for its waveform views (--trace): instance, HEAD cycle there */
  uint32_t path_inst[16];
  uint64_t path_cycle[16];
  unsigned npath;
  int iso_node, iso_fault_node; /* isolation: the garbage queue's node, its bad VA's destination (-1: none) */
  store_t *st;                  /* --db: the run's rows go here (docs/store.md), NULL: none */
} world_t;

static void failf(world_t *w, uint64_t cycle, const char *id, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  first_failure(&w->failed, &w->fail_cycle, w->fail_id, sizeof w->fail_id, w->fail_msg, sizeof w->fail_msg,
                cycle, id, fmt, ap);
  va_end(ap);
}

static ef_node_t *node(world_t *w, unsigned d) { return ef_node_of(&w->f, w->node0 + d); }
static double ns(double cycles) { return cycles * 1000.0 / FABRIC_NOMINAL_MHZ; }

/* --- local memory image before cycle 0 (docs/elan4.md §4.5: the driver may
 * write it directly) --- */
static int pte_collision = -1; /* a bucket two pages of the plan share (no chaining, §4.5) */
static void pte(ef_node_t *n, uint64_t va, unsigned perm, uint64_t pa, unsigned space) {
  const elan4_view_t *v = ef_view();
  const uint64_t b = ((va >> 13) ^ CTX) & ((1ull << v->param.PtBits) - 1u);
  const uint64_t dw = (v->param.PtBase + 16u * b) / 8u;
  if (ef_mem_get(&n->lm, dw) & 1u) pte_collision = (int)b;
  ef_mem_set(&n->lm, dw, 1u | perm << 1 | space << 3 | (va >> 13) << 13);
  ef_mem_set(&n->lm, dw + 1, pa | (uint64_t)CTX << 50);
}
static void image(world_t *w, unsigned d) {
  ef_node_t *n = node(w, d);
  const elan4_view_t *v = ef_view();
  for (unsigned t = 0; t < w->c.nodes; t++) {
    uint32_t word;
    uint8_t tags[E4T_MAX_HOPS + 1];
    e4t_route(&w->topo, d, t, &word, tags);
    ef_mem_set(&n->lm, (v->param.RtBase + 8u * t) / 8u, 1ull << 32 | word);
  }
  for (unsigned k = 0; k < 16; k++) pte(n, VA_HEAP + 8192ull * k, 3, PA_HEAP + 8192ull * k, 1);
  for (unsigned k = 0; k < 16; k++) pte(n, VA_HSRC + 8192ull * k, 3, HPA_SRC + 8192ull * k, 0);
  for (unsigned k = 0; k < 2; k++) pte(n, VA_HOST + 8192ull * k, 3, HPA_HOST + 8192ull * k, 0);
  pte(n, VA_EV, 1, PA_EV, 1);
  pte(n, VA_Q, 1, 0, 2); /* PA[25:13] = queue 0 */
}
static uint64_t lm_heap(world_t *w, unsigned d, uint64_t off) {
  return ef_mem_get(&node(w, d)->lm, (PA_HEAP + off) / 8);
}

/* --- building the fabric --- */
/* tests between --src and --dst only: their path's instances take --nic / --sw */
static bool two_ended(unsigned t) {
  return t == T_PUT || t == T_SIZES || t == T_DMABW || t == T_EVRATE || t == T_GETSIZES;
}
static bool on_path_sw(world_t *w, unsigned s) {
  if (w->c.sw_all) return true;
  if (!two_ended(w->c.test)) return false;
  /* the switches a put's HEAD can pass: every switch of the subtree above both ends */
  const unsigned lvl = e4t_sw_level(&w->topo, s), idx = e4t_sw_index(&w->topo, s);
  const unsigned a = w->topo.leaf_sw[w->c.src] % w->topo.per_level,
                 b = w->topo.leaf_sw[w->c.dst] % w->topo.per_level;
  (void)idx;
  return lvl == 0 ? (idx == a || idx == b) : true;
}
static bool on_path_nic(world_t *w, unsigned d) {
  return w->c.nic_all || !two_ended(w->c.test) || d == w->c.src || d == w->c.dst;
}

static int build(world_t *w, char *err, size_t errlen) {
  cfg_t *c = &w->c;
  if (e4t_topo_build(&w->topo, c->nodes)) {
    snprintf(err, errlen, "--nodes=%u: 4, 16, 64, 256, 1024 or 4096", c->nodes);
    return -1;
  }
  fabric_init(&w->f);
  const unsigned nsw = w->topo.nsw;
  for (unsigned s = 0; s < nsw; s++) {
    char nm[32];
    snprintf(nm, sizeof nm, "sw%u", s);
    fe4_params_t pr = {.seed = c->seed * 1000003u + s};
    const fabric_mode_t m = on_path_sw(w, s) ? c->sw : FABRIC_MODEL;
    if (fabric_add(&w->f, &fe4_type, m, nm, &pr, err, errlen) == FABRIC_NONE) return -1;
  }
  w->node0 = nsw;
  static char tpath[64][1200];
  for (unsigned d = 0; d < c->nodes; d++) {
    char nm[32];
    snprintf(nm, sizeof nm, "nic%u", d);
    ef_node_params_t pr = {.node = d,
                           .mode = on_path_nic(w, d) ? c->nic : EF_NIC_MODEL,
                           .bug = c->nic_bug,
                           .seed = c->seed * 7919u + d,
                           .host_lat = c->host_lat,
                           .num_nodes = c->nodes,
                           .log = c->test == T_PUT || c->test == T_EVRATE || c->test == T_GETSIZES ? &w->log
                                                                                                   : NULL};
    if (c->trace && pr.mode != EF_NIC_MODEL) {
      snprintf(tpath[d], sizeof tpath[d], "%s/nic%u.fst", c->trace, d);
      pr.trace = tpath[d];
    }
    if (fabric_add(&w->f, &ef_node_type, FABRIC_MODEL, nm, &pr, err, errlen) == FABRIC_NONE) return -1;
  }
  fabric_topo_t T;
  int rc = fabric_topo_kary_ntree(&T, 4, w->topo.levels, err, errlen);
  if (!rc) rc = fabric_topo_wire(&w->f, &T, 0, nsw, 0, c->link_delay, err, errlen);
  fabric_topo_free(&T);
  if (rc) return -1;
  if (c->trace) {
    /* the RTL and lockstep switches (the NICs trace themselves, from their params) */
    if (fabric_trace(&w->f, c->trace, err, errlen) < 0) return -1;
  }
  if (fabric_threads(&w->f, 1, err, errlen)) return -1;
  for (unsigned d = 0; d < c->nodes; d++) image(w, d);
  if (pte_collision >= 0) {
    snprintf(err, errlen,
             "the address plan puts two pages in page-table bucket %d (testbench/elan4fab/ef_main.c)",
             pte_collision);
    return -1;
  }
  return 0;
}

/* --- observing every cycle: switch HEADs, NIC failures, error counters --- */
static void observe(fabric_t *f, void *ctx) {
  world_t *w = ctx;
  const uint64_t c = f->cycle;
  for (uint32_t s = 0; s < w->node0; s++) {
    const fabric_inst_t *x = &f->inst[s];
    if (!x->ran) continue;
    for (unsigned p = 0; p < FE4_PORTS; p++) {
      if (w->c.test == T_PUT && x->in[p].valid && x->in[p].kind == ELITE4_HEAD)
        ef_log(&w->log, c, s, EF_EV_SW_IN, p, 0);
      if (w->c.test == T_PUT && x->out[p].valid && x->out[p].kind == ELITE4_HEAD)
        ef_log(&w->log, c, s, EF_EV_SW_OUT, p, 0);
    }
    if (x->side[FE4_SIDE_ERR])
      failf(w, c, "e4fab.errors", "switch %u raised an error (err_o 0x%" PRIx64 ") at cycle %" PRIu64, s,
            x->side[FE4_SIDE_ERR], c);
  }
  for (unsigned d = 0; d < w->c.nodes; d++) {
    ef_node_t *n = node(w, d);
    if (n->failed) {
      const char *bar = strchr(n->fail, '|');
      char id[64];
      snprintf(id, sizeof id, "%.*s", (int)(bar - n->fail), n->fail);
      failf(w, n->fail_cycle, !strcmp(id, "fabric.lockstep") ? "e4fab.lockstep" : id, "%s", bar + 1);
    }
    if (n->host.oom) failf(w, c, "e4fab.host", "node %u: the host ran out of memory", d);
    if (n->host.rd_over)
      failf(w, c, "e4fab.host", "node %u: the NIC had more than the host's %u reads out (HostReadTags)", d,
            n->host.rd_cap);
    /* the isolation test's garbage queue (queue 0 of iso_node) may err; a
       destination of its bad VA may fault (cause 4) */
    const bool iso = (int)d == w->iso_node, fault_ok = (int)d == w->iso_fault_node;
    if (n->last.irq_valid_o && n->last.irq_cause_o == 3 && !(iso && n->last.irq_info_o == 0))
      failf(w, c, "e4fab.errors",
            "node %u: queue %u entered ERROR, code %u at position %u (docs/elan4.md §7) at cycle %" PRIu64, d,
            n->last.irq_info_o, (unsigned)(n->last.irq_data_o & 0xFF),
            (unsigned)(n->last.irq_data_o >> 8 & 0xFFFFF), c);
    if (n->last.irq_valid_o && n->last.irq_cause_o != 1 && n->last.irq_cause_o != 2 &&
        n->last.irq_cause_o != 3 && !(fault_ok && n->last.irq_cause_o == 4))
      failf(w, c, "e4fab.errors", "node %u: interrupt cause %u (data 0x%" PRIx64 ") at cycle %" PRIu64, d,
            n->last.irq_cause_o, n->last.irq_data_o, c);
    /* error counters of docs/elan4.md §6.10 that a correct run never moves */
    static const unsigned bad[] = {ELAN4_CNT_PIO_BAD,    ELAN4_CNT_CQ_DISCARD, ELAN4_CNT_CQ_ERROR,
                                   ELAN4_CNT_CRC_ERR,    ELAN4_CNT_BAD_PKTS,   ELAN4_CNT_XLATE_FAULT,
                                   ELAN4_CNT_PROT_FAULT, ELAN4_CNT_IRQ_LOST,   ELAN4_CNT_PROTO_ERR};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      const uint32_t v = elan4_default_cnt_o_get(&n->last, bad[k]);
      const bool allowed = (iso && (bad[k] == ELAN4_CNT_CQ_DISCARD || bad[k] == ELAN4_CNT_CQ_ERROR)) ||
                           (fault_ok && bad[k] == ELAN4_CNT_XLATE_FAULT);
      if (v && !allowed)
        failf(w, c, "e4fab.errors", "node %u: counter %s = %u at cycle %" PRIu64, d,
              ef_node_type.counter_name[bad[k]], v, c);
    }
  }
}

/* Runs until done(w) or the deadline; false on a failure. */
static bool run_until(world_t *w, bool (*done)(world_t *, uint64_t), void (*prog)(world_t *, uint64_t)) {
  while (!w->failed) {
    const uint64_t c = w->f.cycle;
    if (c >= w->c.cycles) {
      failf(w, c, "e4fab.deadline", "the program did not finish within %" PRIu64 " cycles (--cycles)",
            w->c.cycles);
      break;
    }
    if (prog) prog(w, c);
    fabric_step(&w->f, c + 1);
    if (w->f.failed) failf(w, w->f.fail_cycle, w->f.fail_check, "%s", w->f.fail_msg);
    if (!w->failed && done(w, w->f.cycle)) return true;
  }
  return false;
}

/* --- test put --- */
static uint64_t put_from, put_ev_from;
static bool put_warm_done(world_t *w, uint64_t now) {
  (void)now;
  return ef_log_first(&w->log, EF_EV_RX_TOKEN, w->node0 + w->c.src, put_from) >= 0 &&
         ef_host_idle(&node(w, w->c.src)->host);
}
/* the ack is back and the destination's host has the interrupt, or 300
   cycles have passed since the ack (e4fab.event then judges) */
static bool put_ev_done(world_t *w, uint64_t now) {
  const long t = ef_log_first(&w->log, EF_EV_RX_TOKEN, w->node0 + w->c.src, put_ev_from);
  return t >= 0 &&
         (ef_irq_find(&node(w, w->c.dst)->host, 0, 2, 0xC0FFEEu) >= 0 || now >= w->log.ev[t].cycle + 300);
}
static unsigned get_seen;
static bool get_done(world_t *w, uint64_t now) {
  (void)now;
  return ef_irq_find(&node(w, w->c.src)->host, get_seen, 2, 0x6E7u) >= 0;
}
static bool host_quiet(world_t *w, uint64_t now) {
  (void)now;
  return ef_host_idle(&node(w, w->c.src)->host) && w->f.cycle > 8;
}

typedef struct {
  const char *stage;
  uint64_t cycle;
  unsigned inst, port;
} row_t;

static uint64_t ev_cycle(world_t *w, unsigned kind, uint32_t inst, uint64_t from) {
  const long i = ef_log_first(&w->log, kind, inst, from);
  return i < 0 ? EF_NEVER : w->log.ev[i].cycle;
}

/* --- the results store (--db; docs/elan4fab.md "Results in the store") --- */
static void db_result(world_t *w, const char *series, const char *label, double x, const char *x_unit,
                      double value, const char *unit) {
  if (w->st && store_result(w->st, &(store_result_t){series, label, x, x_unit, value, unit}))
    failf(w, w->f.cycle, "store.write", "%s", store_error(w->st));
}
static uint64_t db_cyc(uint64_t c) { return c == EF_NEVER ? STORE_NONE : c; }
static void add_stage(world_t *w, store_stage_t *g, unsigned *ng, uint64_t id, const char *what,
                      uint32_t inst, int port, uint64_t cycle) {
  g[*ng] = (store_stage_t){.packet = id,
                           .idx = *ng,
                           .stage = what,
                           .instance = w->f.inst[inst].name,
                           .port = port,
                           .cycle = db_cyc(cycle)};
  (*ng)++;
}
/* One packet of test put from the log: its packets row, a hops row per
 * switch and its named stages in order. s -> d (nodes); t0: its first stage,
 * `stage0`; cmd: a host command (accepted, formed follow t0); wr_kind /
 * wr_a: the write of its first data dword at d (EF_EV_LM_WRITE: a dword
 * address, EF_EV_HM_WRITE: a byte address; EF_EV_N: none); fire: d's
 * event fires. The measured put's stages are the breakdown printed. */
static void db_put_packet(world_t *w, uint64_t id, unsigned s, unsigned d, unsigned vc, const char *stage0,
                          uint64_t t0, bool cmd, unsigned wr_kind, uint64_t wr_a, bool fire) {
  if (!w->st || w->failed) return;
  const uint32_t S = w->node0 + s, D = w->node0 + d;
  const uint64_t head = ev_cycle(w, EF_EV_TX_HEAD, S, t0), tail = ev_cycle(w, EF_EV_TX_TAIL, S, head),
                 hin = ev_cycle(w, EF_EV_RX_HEAD, D, head), tin = ev_cycle(w, EF_EV_RX_TAIL, D, hin),
                 ack = ev_cycle(w, EF_EV_RX_TOKEN, S, tin);
  store_stage_t g[64];
  store_hop_t hop[16];
  unsigned ng = 0, nh = 0, tries = 0;
#define STAGE(what_, inst_, port_, cyc_) add_stage(w, g, &ng, id, what_, inst_, port_, cyc_)
  STAGE(stage0, S, STORE_NO_PORT, t0);
  if (cmd) {
    STAGE("command accepted", S, STORE_NO_PORT, ev_cycle(w, EF_EV_CMD, S, t0));
    if (!(w->c.tb_bug == TB_DB_SKIP_STAGE && id == 2)) /* planted: a stage not written */
      STAGE("packet formed", S, STORE_NO_PORT, ev_cycle(w, EF_EV_FORM, S, t0));
  }
  STAGE("first flit on the link (HEAD out)", S, STORE_NO_PORT, head);
  uint64_t wr = EF_NEVER, fired = EF_NEVER;
  for (size_t i = 0; i < w->log.n; i++) {
    const ef_event_t *e = &w->log.ev[i];
    if (e->kind == EF_EV_TX_HEAD && e->inst == S && e->cycle >= head && e->cycle < ack) tries++;
    if (e->kind == wr_kind && e->inst == D && e->a == wr_a && e->cycle >= hin && wr == EF_NEVER)
      wr = e->cycle;
    if (e->kind == EF_EV_FIRE && e->inst == D && e->cycle >= hin && fired == EF_NEVER) fired = e->cycle;
    if (e->cycle < head || e->cycle > hin || (e->kind != EF_EV_SW_IN && e->kind != EF_EV_SW_OUT) || ng > 58)
      continue;
    const bool in = e->kind == EF_EV_SW_IN;
    STAGE(in ? "switch in (HEAD)" : "switch out (HEAD)", e->inst, e->port, e->cycle);
    if (in && nh < 16) {
      hop[nh] = (store_hop_t){.packet = id,
                              .idx = nh,
                              .instance = w->f.inst[e->inst].name,
                              .in_port = e->port,
                              .out_port = STORE_NO_PORT,
                              .arrival = e->cycle,
                              .grant = STORE_NONE, /* the switch's allocation is not observed here */
                              .departure = STORE_NONE};
      nh++;
    } else if (!in && nh && !strcmp(hop[nh - 1].instance, w->f.inst[e->inst].name)) {
      hop[nh - 1].out_port = e->port;
      hop[nh - 1].departure = e->cycle;
    }
  }
  STAGE("destination input (HEAD in)", D, STORE_NO_PORT, hin);
  STAGE("TAIL in", D, STORE_NO_PORT, tin);
  if (wr_kind != EF_EV_N) STAGE("memory written", D, STORE_NO_PORT, wr);
  if (fire) STAGE("event fired", D, STORE_NO_PORT, fired);
  STAGE("ack back at the source (TOKEN in)", S, STORE_NO_PORT, ack);
#undef STAGE
  const store_packet_t p = {.id = id,
                            .src = s,
                            .dst = d,
                            .vc = vc,
                            .flits = head == EF_NEVER || tail == EF_NEVER ? 0 : (unsigned)(tail - head + 1),
                            .hops = nh,
                            .tries = tries,
                            .created = t0,
                            .injected = db_cyc(head),
                            .head_rx = db_cyc(hin),
                            .tail_rx = db_cyc(tin),
                            .acked = db_cyc(ack)};
  int e = store_packet(w->st, &p);
  for (unsigned k = 0; k < nh && !e; k++) e = store_hop(w->st, &hop[k]);
  for (unsigned k = 0; k < ng && !e; k++) e = store_stage(w->st, &g[k]);
  if (e) failf(w, w->f.cycle, "store.write", "%s", store_error(w->st));
}

static int test_put(world_t *w, FILE *rep) {
  cfg_t *c = &w->c;
  ef_host_t *hs = &node(w, c->src)->host;
  const unsigned S = w->node0 + c->src, D = w->node0 + c->dst;
  const elan4_view_t *v = ef_view();
  const uint64_t L = v->param.LmLatency;
  /* open queue 0 and load its descriptor (a GUARD: always enabled, nothing to wait for) */
  ef_open(hs, 0, QBASE, QCLASS, (uint32_t)(v->param.DepthKb1 * 128u), CTX, 0);
  ef_guard(hs, 0, 0);
  if (!run_until(w, host_quiet, NULL)) return 1;
  /* cold: the destination's TLB misses */
  const uint64_t cold_data = 0x0123456789ABCDEFull, data = 0x1122334455667788ull;
  put_from = w->f.cycle;
  const int op_cold = ef_put(hs, 0, c->dst, VA_HEAP + 0x100, &cold_data, 1, 0, w->f.cycle);
  if (!run_until(w, put_warm_done, NULL)) return 1;
  if (lm_heap(w, c->dst, 0x100) != cold_data)
    failf(w, w->f.cycle, "e4fab.put_data",
          "node %u: the cold put left 0x%016" PRIx64 " at VA 0x%" PRIx64 ", want 0x%016" PRIx64, c->dst,
          lm_heap(w, c->dst, 0x100), VA_HEAP + 0x100, cold_data);
  for (unsigned k = 0; k < 16; k++) fabric_step(&w->f, w->f.cycle + 1); /* everything settles */
  /* warm: the measured 8-byte put (Table 3's case: E = 0, TLB hit, queue cached and empty) */
  put_from = w->f.cycle;
  const int op = ef_put(hs, 0, c->dst, VA_HEAP + 0x108, &data, 1, 0, w->f.cycle);
  if (!run_until(w, put_warm_done, NULL)) return 1;
  const uint64_t t0 = hs->op[op].accept + (c->tb_bug == TB_STAMP_LATE);
  const uint64_t cmd = ev_cycle(w, EF_EV_CMD, S, t0), form = ev_cycle(w, EF_EV_FORM, S, t0),
                 head = ev_cycle(w, EF_EV_TX_HEAD, S, t0), tail = ev_cycle(w, EF_EV_TX_TAIL, S, t0),
                 hin = ev_cycle(w, EF_EV_RX_HEAD, D, t0), tin = ev_cycle(w, EF_EV_RX_TAIL, D, t0),
                 ack = ev_cycle(w, EF_EV_RX_TOKEN, S, t0);
  const uint64_t want_dw = (PA_HEAP + 0x108) / 8;
  uint64_t wr = EF_NEVER;
  for (size_t i = 0; i < w->log.n; i++)
    if (w->log.ev[i].kind == EF_EV_LM_WRITE && c->tb_bug != TB_LOG_NO_LM && w->log.ev[i].inst == D &&
        w->log.ev[i].a == want_dw && w->log.ev[i].cycle >= hin) {
      wr = w->log.ev[i].cycle;
      break;
    }
  if (lm_heap(w, c->dst, 0x108) != data)
    failf(w, w->f.cycle, "e4fab.put_data",
          "node %u: the put left 0x%016" PRIx64 " at VA 0x%" PRIx64 ", want 0x%016" PRIx64, c->dst,
          lm_heap(w, c->dst, 0x108), VA_HEAP + 0x108, data);
  if (ack == EF_NEVER || wr == EF_NEVER || head == EF_NEVER || hin == EF_NEVER)
    failf(w, w->f.cycle, "e4fab.stages",
          "the put's stages are incomplete (HEAD out %s, HEAD in %s, written %s, ack %s)",
          head == EF_NEVER ? "never" : "seen", hin == EF_NEVER ? "never" : "seen",
          wr == EF_NEVER ? "never" : "seen", ack == EF_NEVER ? "never" : "seen");
  if (w->failed) return 1;
  /* the breakdown: every stage, with the switches' HEADs between */
  row_t rows[64];
  unsigned nr = 0;
  rows[nr++] = (row_t){"host write arrival (first dword on ht_*)", t0, c->src, 0};
  rows[nr++] = (row_t){"command accepted", cmd, c->src, 0};
  rows[nr++] = (row_t){"packet formed", form, c->src, 0};
  rows[nr++] = (row_t){"first flit on the link (HEAD out)", head, c->src, 0};
  w->npath = 0;
  w->path_inst[w->npath] = S;
  w->path_cycle[w->npath++] = head;
  unsigned nsw_path = 0;
  uint64_t sw_time = 0;
  for (size_t i = 0; i < w->log.n && nr < 60; i++) {
    const ef_event_t *e = &w->log.ev[i];
    if (e->cycle < head || e->cycle > hin || (e->kind != EF_EV_SW_IN && e->kind != EF_EV_SW_OUT)) continue;
    rows[nr++] = (row_t){e->kind == EF_EV_SW_IN ? "switch in (HEAD)" : "switch out (HEAD)", e->cycle, e->inst,
                         e->port};
    if (e->kind == EF_EV_SW_IN && w->npath < 15) {
      w->path_inst[w->npath] = e->inst;
      w->path_cycle[w->npath++] = e->cycle;
    }
    if (e->kind == EF_EV_SW_IN) {
      nsw_path++;
      sw_time -= e->cycle;
    } else {
      sw_time += e->cycle;
    }
  }
  w->path_inst[w->npath] = D;
  w->path_cycle[w->npath++] = hin;
  rows[nr++] = (row_t){"destination input (HEAD in)", hin, c->dst, 0};
  rows[nr++] = (row_t){"TAIL in", tin, c->dst, 0};
  rows[nr++] = (row_t){"memory written (lm_*)", wr, c->dst, 0};
  rows[nr++] = (row_t){"ack back at the source (TOKEN in)", ack, c->src, 0};
  fprintf(
      rep,
      "\n8-byte put, node %u -> node %u (%u switches), nominal clock %.0f MHz, link latency %u cycle(s)\n",
      c->src, c->dst, nsw_path, FABRIC_NOMINAL_MHZ, c->link_delay);
  fprintf(rep, "%-44s %8s %8s %9s  %s\n", "stage", "cycle", "+cycles", "+ns", "where");
  for (unsigned k = 0; k < nr; k++) {
    char where[48];
    if (!strncmp(rows[k].stage, "switch", 6))
      snprintf(where, sizeof where, "sw%u port %u (level %u)", rows[k].inst, rows[k].port,
               e4t_sw_level(&w->topo, rows[k].inst));
    else
      snprintf(where, sizeof where, "node %u", rows[k].inst);
    fprintf(rep, "%-44s %8" PRIu64 " %8" PRIu64 " %9.1f  %s\n", rows[k].stage, rows[k].cycle - t0,
            rows[k].cycle - t0, ns((double)(rows[k].cycle - t0)), where);
  }
  /* Table 3 (seed 004: 4,096 nodes, 11 switches, 50 m of cable) beside ours */
  const double cmd_ns = ns((double)(tail - t0)), in_ns = ns((double)(wr - hin));
  const double link_ns = ns((double)(c->link_delay * (nsw_path + 1)));
  const double sw_ns = nsw_path ? ns((double)sw_time) / nsw_path : 0;
  const double cable_ns = c->cable_m * FABRIC_NS_PER_M;
  fprintf(rep, "\nseed 004 Table 3 beside this run (ns; ours at %.0f MHz)\n", FABRIC_NOMINAL_MHZ);
  fprintf(rep, "%-40s %10s %12s  %s\n", "row", "seed", "netcosim", "our interval");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "Elan4 command processor", 82.5, cmd_ns,
          "first dword accepted -> TAIL on the link");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "  (first flit)", 82.5, ns((double)(head - t0)),
          "first dword accepted -> HEAD on the link");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "Elan4 input", 157.5, in_ns, "HEAD in -> data on lm_* (TLB hit)");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "Elite4 switch (per switch)", 21.0, sw_ns,
          "HEAD in -> HEAD out, mean over the path");
  /* on the seed's 4,096 nodes the 11 switches are this run's own path, else 11 x its mean */
  const bool full = nsw_path == 11;
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "11 switches (4,096 nodes)", 231.0,
          full ? ns((double)sw_time) : 11 * sw_ns,
          full ? "this run's 11 switches, HEAD in -> out summed" : "11 x ours (extrapolated)");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "cable (50 m at 4 ns/m)", 200.0, 50 * FABRIC_NS_PER_M,
          "the same parameter");
  fprintf(rep, "%-40s %10.1f %12.1f  %s\n", "total, 4,096 nodes", 82.5 + 157.5 + 231.0 + 200.0,
          cmd_ns + in_ns + (full ? ns((double)sw_time) : 11 * sw_ns) + 50 * FABRIC_NS_PER_M,
          "sum of the rows");
  fprintf(rep, "%-40s %10s %12.1f  %s\n", "this run: first dword -> data written", "", ns((double)(wr - t0)),
          "measured end to end");
  fprintf(rep, "%-40s %10s %12.1f  %s\n", "  of which links", "", link_ns, "link latency x hops");
  if (c->cable_m > 0)
    fprintf(rep, "%-40s %10s %12.1f  %s\n", "  (cable per link, --cable-m)", "", cable_ns, "");
  fprintf(rep, "%-40s %10s %12.1f  %s\n", "this run: ack back at the source", "", ns((double)(ack - t0)), "");
  /* the contracts of docs/elan4.md §9.1 (exact) and §9.2 (Table 3 bounds) */
  const struct {
    const char *what;
    uint64_t got, want;
  } ex[] = {
      {"first dword accepted -> tr_cmd (command accepted + 1)", cmd + 1 - t0, 6},
      {"first dword accepted -> HEAD on out_* (9 + L)", head - t0, 9 + L},
      {"first dword accepted -> TAIL on out_* (16 + L)", tail - t0, 16 + L},
      {"HEAD on in_* -> data write on lm_* (11, TLB hit)", wr - hin, 11},
      {"TAIL on in_* -> TOKEN out at the destination (5)", ev_cycle(w, EF_EV_TX_TOKEN, D, tin) - tin, 5}};
  for (unsigned k = 0; k < sizeof ex / sizeof ex[0]; k++)
    if (ex[k].got != ex[k].want)
      failf(w, t0, "e4fab.latency", "%s: %" PRIu64 " cycles, docs/elan4.md §9.1 says %" PRIu64, ex[k].what,
            ex[k].got, ex[k].want);
  if (ns((double)(head - t0)) > 82.5 || in_ns > 157.5)
    failf(w, t0, "e4fab.latency",
          "Table 3 bound broken: command -> first flit %.1f ns (<= 82.5), input %.1f ns (<= 157.5)",
          ns((double)(head - t0)), in_ns);
  if (w->failed) return 1;
  /* --db: the cold put (1) and the measured one (2), its stages the breakdown above */
  const unsigned vst = (unsigned)v->param.VcSten, vrp = (unsigned)v->param.VcReply;
  db_put_packet(w, 1, c->src, c->dst, vst, "host write arrival (first dword on ht_*)", hs->op[op_cold].accept,
                true, EF_EV_LM_WRITE, (PA_HEAP + 0x100) / 8, false);
  db_put_packet(w, 2, c->src, c->dst, vst, "host write arrival (first dword on ht_*)", t0, true,
                EF_EV_LM_WRITE, want_dw, false);
  if (w->st) db_result(w, "put8_latency", "STEN", 8, "bytes", (double)(wr - t0), "cycles");
  /* a put with a remote event: the destination's event fires and its host sees the interrupt */
  ef_node_t *nd = node(w, c->dst);
  ef_mem_set(&nd->lm, PA_EV / 8, ef_e0(c->tb_bug == TB_EVENT_COUNT_ZERO ? 0 : -1, 0, 2));
  ef_mem_set(&nd->lm, PA_EV / 8 + 1, 0xC0FFEEu);
  ef_mem_set(&nd->lm, PA_EV / 8 + 3, CTX);
  put_ev_from = w->f.cycle;
  const uint64_t d2[2] = {0x5A5A5A5AA5A5A5A5ull, 0x0F0F0F0FF0F0F0F0ull};
  const int op2 = ef_put(hs, 0, c->dst, VA_HEAP + 0x110, d2, 2, VA_EV, w->f.cycle);
  if (!run_until(w, put_ev_done, NULL)) return 1;
  const uint64_t t2 = hs->op[op2].accept, h2 = ev_cycle(w, EF_EV_RX_HEAD, D, t2),
                 fire = ev_cycle(w, EF_EV_FIRE, D, t2);
  const ef_host_t *hd = &nd->host;
  const int ir = ef_irq_find(hd, 0, 2, 0xC0FFEEu);
  for (unsigned k = 0; k < 2; k++)
    if (lm_heap(w, c->dst, 0x110 + 8 * k) != d2[k])
      failf(w, w->f.cycle, "e4fab.put_data",
            "node %u: the put with an event left 0x%016" PRIx64 " in its dword %u, want 0x%016" PRIx64,
            c->dst, lm_heap(w, c->dst, 0x110 + 8 * k), k, d2[k]);
  if (fire == EF_NEVER || ir < 0 || (ef_mem_get(&nd->lm, PA_EV / 8) & 0xFFFFFFFFu) != 0)
    failf(w, w->f.cycle, "e4fab.event", "node %u: the put's event did not fire once (fired %s, e0 count %d)",
          c->dst, fire == EF_NEVER ? "never" : "yes", (int)(int32_t)ef_mem_get(&nd->lm, PA_EV / 8));
  if (w->failed) return 1;
  db_put_packet(w, 3, c->src, c->dst, vst, "host write arrival (first dword on ht_*)", t2, true,
                EF_EV_LM_WRITE, (PA_HEAP + 0x110) / 8, true);
  fprintf(rep,
          "\n16-byte put with a remote event (E = 1): HEAD in -> event fired %" PRIu64 " cycles (%.1f ns), "
          "-> destination host's interrupt %" PRIu64 " cycles (%.1f ns)\n",
          fire - h2, ns((double)(fire - h2)), hd->irq[ir].cycle - h2, ns((double)(hd->irq[ir].cycle - h2)));
  /* an 8-byte get of the first put's dword: the reply lands in the source's
     host memory (a host-memory PTE), then the source's own event fires */
  ef_node_t *ns_ = node(w, c->src);
  ef_mem_set(&ns_->lm, PA_EV / 8, ef_e0(-1, 0, 2));
  ef_mem_set(&ns_->lm, PA_EV / 8 + 1, 0x6E7u);
  ef_mem_set(&ns_->lm, PA_EV / 8 + 3, CTX);
  get_seen = hs->nirq;
  const int op3 = ef_get(hs, 0, c->dst, VA_HEAP + 0x108 + (c->tb_bug == TB_GET_VA ? 8u : 0u), 1,
                         VA_HOST + 0x40, VA_EV, w->f.cycle);
  if (!run_until(w, get_done, NULL)) return 1;
  const uint64_t t3 = hs->op[op3].accept;
  const uint64_t got = ef_mem_get(&hs->mem, (HPA_HOST + 0x40) / 8);
  if (got != data)
    failf(w, w->f.cycle, "e4fab.get_data",
          "node %u: the get of node %u's dword returned 0x%016" PRIx64 ", want 0x%016" PRIx64, c->src, c->dst,
          got, data);
  uint64_t hmw = EF_NEVER;
  for (size_t i = 0; i < w->log.n; i++)
    if (w->log.ev[i].kind == EF_EV_HM_WRITE && w->log.ev[i].inst == S && w->log.ev[i].cycle >= t3 &&
        w->log.ev[i].a == HPA_HOST + 0x40) {
      hmw = w->log.ev[i].cycle;
      break;
    }
  if (w->failed) return 1;
  const uint64_t gi = hs->irq[ef_irq_find(hs, get_seen, 2, 0x6E7u)].cycle;
  /* --db: the get's READ (4) and its reply (5), which starts when the READ's TAIL is in */
  db_put_packet(w, 4, c->src, c->dst, vst, "host write arrival (first dword on ht_*)", t3, true, EF_EV_N, 0,
                false);
  db_put_packet(w, 5, c->dst, c->src, vrp, "the READ's TAIL in", ev_cycle(w, EF_EV_RX_TAIL, D, t3), false,
                EF_EV_HM_WRITE, HPA_HOST + 0x40, true);
  fprintf(rep,
          "8-byte get from node %u: first dword accepted -> reply in host memory %" PRIu64
          " cycles (%.1f ns), "
          "-> the source host's interrupt %" PRIu64 " cycles (%.1f ns)\n",
          c->dst, hmw - t3, ns((double)(hmw - t3)), gi - t3, ns((double)(gi - t3)));
  return 0;
}

/* --- test fadd --- */
#define FADD_INIT 0x00000000FFFFFFF0ull /* the total crosses bit 31's carry */
static void fadd_prog(world_t *w, uint64_t now) {
  const elan4_view_t *v = ef_view();
  for (unsigned d = 0; d < w->c.nodes; d++) {
    ef_host_t *h = &node(w, d)->host;
    if (w->pending[d] >= 0) {
      const int i = ef_irq_find(h, w->seen[d], 2, (uint64_t)w->pending[d]);
      if (i < 0) continue;
      w->seen[d] = (unsigned)i + 1;
      const unsigned slot = w->c.tb_bug == TB_FADD_REPLY_SLOT ? 0 : w->round[d] % 512u;
      w->got[w->ngot++] = ef_mem_get(&h->mem, (HPA_HOST + 8u * slot) / 8);
      w->round[d]++;
      w->pending[d] = -1;
    }
    if (now == 0) ef_open(h, 0, QBASE, QCLASS, (uint32_t)(v->param.DepthKb1 * 128u), CTX, now);
    if (w->round[d] >= w->c.rounds) continue;
    const uint32_t cookie = d << 20 | w->round[d];
    ef_waitevent(h, 0, VA_EV, ef_e0(-1, 0, 2), cookie, 0, now);
    ef_fadd(h, 0, 0, VA_HEAP, 1, VA_HOST + 8u * (w->round[d] % 512u), VA_EV, now);
    w->pending[d] = (int)cookie;
  }
}
static bool fadd_done(world_t *w, uint64_t now) {
  (void)now;
  return w->ngot == (size_t)w->c.nodes * w->c.rounds;
}
static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}
static int test_fadd(world_t *w, FILE *rep) {
  const size_t total = (size_t)w->c.nodes * w->c.rounds;
  ef_mem_set(&node(w, 0)->lm, PA_HEAP / 8, FADD_INIT);
  if (!run_until(w, fadd_done, fadd_prog)) return 1;
  const uint64_t fin = lm_heap(w, 0, 0);
  if (fin != FADD_INIT + total)
    failf(w, w->f.cycle, "e4fab.fadd_total",
          "node 0's word is 0x%" PRIx64 " after %zu fetch-adds of 1 from 0x%" PRIx64 ", want 0x%" PRIx64, fin,
          total, FADD_INIT, FADD_INIT + total);
  qsort(w->got, w->ngot, sizeof *w->got, cmp_u64);
  for (size_t i = 0; i < w->ngot && !w->failed; i++)
    if (w->got[i] != FADD_INIT + i)
      failf(w, w->f.cycle, "e4fab.fadd_unique",
            "the old values returned are not each of 0x%" PRIx64 "..+%zu once: "
            "the %zu-th smallest is 0x%" PRIx64,
            FADD_INIT, total - 1, i, w->got[i]);
  if (w->failed) return 1;
  db_result(w, "fadd_time", "FADD", (double)total, "atomics", (double)w->f.cycle, "cycles");
  fprintf(rep, "fadd: %u nodes x %u fetch-adds to node 0 in %" PRIu64 " cycles (%.1f us): %.2f M atomics/s\n",
          w->c.nodes, w->c.rounds, w->f.cycle, ns((double)w->f.cycle) / 1000,
          (double)total / (ns((double)w->f.cycle) * 1e-9) / 1e6);
  return 0;
}

/* --- test cas: lock on node 0 (heap + 0x40), counter (heap + 0x80) --- */
enum { LOCK = 0x40, COUNT = 0x80 };
static void cas_prog(world_t *w, uint64_t now) {
  const elan4_view_t *v = ef_view();
  /* the lock word's transitions, seen in node 0's memory (the testbench's) */
  const uint64_t lk = lm_heap(w, 0, LOCK);
  if (lk != w->lock_prev) {
    if (w->lock_prev != 0 && lk != 0)
      failf(w, now, "e4fab.cas_mutex",
            "node 0's lock went from holder %" PRIu64 " to %" PRIu64 " without a release", w->lock_prev - 1,
            lk - 1);
    if (lk) w->acquisitions++;
    w->lock_prev = lk;
  }
  for (unsigned d = 0; d < w->c.nodes; d++) {
    ef_host_t *h = &node(w, d)->host;
    if (now == 0) ef_open(h, 0, QBASE, QCLASS, (uint32_t)(v->param.DepthKb1 * 128u), CTX, now);
    if (w->pending[d] >= 0) {
      const unsigned cause = w->phase[d] == 2 ? 1 : 2;
      const int i = ef_irq_find(h, w->seen[d], cause, (uint64_t)w->pending[d]);
      if (i < 0) continue;
      w->seen[d] = (unsigned)i + 1;
      w->pending[d] = -1;
      const uint64_t got = ef_mem_get(&h->mem, HPA_HOST / 8);
      if (w->phase[d] == 0 && got == 0) {
        w->phase[d] = 1; /* acquired */
        w->fails[d] = 0;
      } else if (w->phase[d] == 0) {
        /* exponential back-off (ours: spinning at full rate starves the
           holder's own requests to node 0 of reply slots, a livelock) */
        const unsigned k = w->fails[d] < 7 ? w->fails[d]++ : 7;
        w->wait_until[d] = now + cosim_rng_below(&w->rng, 64u << k);
      } else if (w->phase[d] == 1)
        w->phase[d] = 2;
      else if (w->phase[d] == 2) {
        w->phase[d] = 0;
        w->round[d]++;
      }
    }
    if ((w->acquisitions >= w->c.rounds && w->phase[d] == 0) || now < w->wait_until[d]) continue;
    const uint32_t cookie = d << 20 | (w->round[d] & 0x3FFFF) << 2 | w->phase[d];
    if (w->phase[d] == 0) {
      ef_waitevent(h, 0, VA_EV, ef_e0(-1, 0, 2), cookie, 0, now);
      ef_cas(h, 0, 0, VA_HEAP + LOCK, 0, d + 1, VA_HOST, VA_EV, now);
    } else if (w->phase[d] == 1) {
      ef_waitevent(h, 0, VA_EV, ef_e0(-1, 0, 2), cookie, 0, now);
      ef_get(h, 0, 0, VA_HEAP + COUNT, 1, VA_HOST + 8, VA_EV, now);
    } else {
      /* write back the count + 1, wait for its ack (GUARD), release, wait, tell the host */
      const uint64_t nv = ef_mem_get(&h->mem, (HPA_HOST + 8) / 8) + (w->c.tb_bug != TB_CAS_NO_INCREMENT),
                     zero = 0;
      ef_put(h, 0, 0, VA_HEAP + COUNT, &nv, 1, 0, now);
      ef_guard(h, 0, now);
      ef_put(h, 0, 0, VA_HEAP + LOCK, &zero, 1, 0, now);
      ef_guard(h, 0, now);
      ef_interrupt(h, 0, cookie, now);
    }
    w->pending[d] = (int)cookie;
  }
}
static bool cas_done(world_t *w, uint64_t now) {
  (void)now;
  if (w->acquisitions < w->c.rounds) return false;
  for (unsigned d = 0; d < w->c.nodes; d++)
    if (w->pending[d] >= 0 || !ef_host_idle(&node(w, d)->host)) return false;
  return true;
}
static int test_cas(world_t *w, FILE *rep) {
  if (!run_until(w, cas_done, cas_prog)) return 1;
  uint64_t rounds = 0;
  for (unsigned d = 0; d < w->c.nodes; d++) rounds += w->round[d];
  const uint64_t cnt = lm_heap(w, 0, COUNT);
  if (cnt != rounds || rounds != w->acquisitions)
    failf(w, w->f.cycle, "e4fab.cas_count",
          "%" PRIu64 " acquisitions, %" PRIu64 " critical sections completed, counter %" PRIu64
          " (an update lost)",
          w->acquisitions, rounds, cnt);
  if (w->failed) return 1;
  db_result(w, "cas_time", "CAS", (double)rounds, "rounds", (double)w->f.cycle, "cycles");
  fprintf(rep,
          "cas: %u nodes, %" PRIu64 " lock/unlock rounds on node 0 in %" PRIu64
          " cycles (%.1f us), counter %" PRIu64 "\n",
          w->c.nodes, rounds, w->f.cycle, ns((double)w->f.cycle) / 1000, cnt);
  return 0;
}

/* --- tests sizes and dmabw: node src -> dst, messages of S bytes by STEN
 * (puts of up to 8 dwords written by the host, the last with a remote event)
 * or by DMA (one RUN_DMA from host memory, its remote event); the time from
 * the first dword of the first command accepted on ht_* to the destination
 * host's interrupt (seed 004 Fig. 10a; Fig. 6a for dmabw) --- */
static unsigned wait_node, wait_seen, wait_seen2;
static uint64_t wait_cookie;
static bool irq_arrived(world_t *w, uint64_t now) {
  (void)now;
  return ef_irq_find(&node(w, wait_node)->host, wait_seen, 2, wait_cookie) >= 0;
}
static bool irq2_arrived(world_t *w, uint64_t now) { /* dmabw, both directions */
  (void)now;
  return ef_irq_find(&node(w, w->c.dst)->host, wait_seen, 2, wait_cookie) >= 0 &&
         ef_irq_find(&node(w, w->c.src)->host, wait_seen2, 2, wait_cookie | 1ull << 40) >= 0;
}
static uint64_t pattern(unsigned kind, uint32_t bytes, unsigned i) {
  return (uint64_t)(kind + 1) << 60 ^ (uint64_t)bytes << 32 ^ (uint64_t)i * 0x9E3779B1u;
}
/* the destination's INTERRUPT event at VA_EV, written before its message
 * (the fabric idle: nothing reads it meanwhile) */
static void prime(world_t *w, unsigned d, int32_t count, uint64_t cookie) {
  ef_node_t *n = node(w, d);
  ef_mem_set(&n->lm, PA_EV / 8, ef_e0(count, 0, 2));
  ef_mem_set(&n->lm, PA_EV / 8 + 1, cookie);
  ef_mem_set(&n->lm, PA_EV / 8 + 3, CTX);
}
/* both hosts have written everything, then 300 more cycles: every packet
   acked and every event fired (a round trip on these trees is below 100) */
static uint64_t settle_at = EF_NEVER;
static bool settled(world_t *w, uint64_t now) {
  if (!ef_host_idle(&node(w, w->c.src)->host) || !ef_host_idle(&node(w, w->c.dst)->host)) {
    settle_at = EF_NEVER;
    return false;
  }
  if (settle_at == EF_NEVER) settle_at = now + 300;
  return now >= settle_at;
}
static void open_both(world_t *w) {
  const elan4_view_t *v = ef_view();
  const unsigned ends[2] = {w->c.src, w->c.dst};
  for (unsigned k = 0; k < 2; k++) {
    ef_host_t *h = &node(w, ends[k])->host;
    ef_open(h, 0, QBASE, QCLASS, (uint32_t)(v->param.DepthKb1 * 128u), CTX, w->f.cycle);
    ef_guard(h, 0, w->f.cycle);
  }
}
/* message of `bytes` from s to d by STEN (kind 0) or DMA (1), `count` times
 * back to back, into d's heap at `base`; returns the first op */
static int issue(world_t *w, unsigned s, unsigned d, unsigned kind, uint32_t bytes, unsigned count,
                 uint64_t base) {
  ef_host_t *h = &node(w, s)->host;
  const unsigned n = bytes / 8;
  int first = -1;
  for (unsigned r = 0; r < count; r++) {
    if (kind == 0) {
      for (unsigned i = 0; i < n; i += 8) {
        uint64_t data[8];
        const unsigned m = n - i < 8 ? n - i : 8;
        for (unsigned k = 0; k < m; k++) data[k] = pattern(0, bytes, i + k);
        const int op =
            ef_put(h, 0, d, VA_HEAP + base + 8ull * i, data, m, i + m == n ? VA_EV : 0, w->f.cycle);
        if (first < 0) first = op;
      }
    } else {
      for (unsigned i = 0; i < n; i++) ef_mem_set(&h->mem, HPA_SRC / 8 + i, pattern(1, bytes, i));
      const uint32_t len = bytes - (w->c.tb_bug == TB_DMA_SHORT && bytes > 8 ? 8u : 0u);
      const int op = ef_dma(h, 0, d, VA_HSRC, VA_HEAP + base, len, VA_EV, 0, w->f.cycle);
      if (first < 0) first = op;
    }
  }
  return first;
}
static void check_data(world_t *w, unsigned d, unsigned kind, uint32_t bytes, uint64_t base, const char *id) {
  for (unsigned i = 0; i < bytes / 8 && !w->failed; i++)
    if (lm_heap(w, d, base + 8ull * i) != pattern(kind, bytes, i))
      failf(w, w->f.cycle, id,
            "node %u: %s message of %u bytes: dword %u is 0x%016" PRIx64 ", want 0x%016" PRIx64, d,
            kind ? "DMA" : "STEN", bytes, i, lm_heap(w, d, base + 8ull * i), pattern(kind, bytes, i));
}

static const uint32_t size_list[] = {8,    64,   256,  512,   1024,  1536, 2048,
                                     3072, 4096, 8192, 16384, 32768, 65536};
enum { NSIZES = sizeof size_list / sizeof size_list[0] };

static int test_sizes(world_t *w, FILE *rep) {
  const cfg_t *c = &w->c;
  open_both(w);
  if (!run_until(w, settled, NULL)) return 1;
  double lat[2][NSIZES];
  unsigned ns_n = 0;
  for (unsigned k = 0; k < NSIZES && size_list[k] <= c->max_bytes; k++, ns_n++)
    for (unsigned kind = 0; kind < 2; kind++) {
      const uint32_t S = size_list[k];
      const uint64_t base = kind ? 0x10000u : 0;
      wait_node = c->dst;
      wait_seen = node(w, c->dst)->host.nirq;
      wait_cookie = (uint64_t)kind << 32 | S;
      prime(w, c->dst, -1, wait_cookie);
      const int op = issue(w, c->src, c->dst, kind, S, 1, base);
      if (!run_until(w, irq_arrived, NULL)) return 1;
      const ef_host_t *hd = &node(w, c->dst)->host;
      const uint64_t t = hd->irq[ef_irq_find(hd, wait_seen, 2, wait_cookie)].cycle;
      lat[kind][k] = ns((double)(t - node(w, c->src)->host.op[op].accept));
      check_data(w, c->dst, kind, S, base, "e4fab.sizes_data");
      if (!(c->tb_bug == TB_DB_SKIP_RESULT && kind && k == 0)) /* planted: a row not written */
        db_result(w, "put_latency", kind ? "DMA" : "STEN", S, "bytes",
                  (double)(t - node(w, c->src)->host.op[op].accept), "cycles");
      if (w->failed || !run_until(w, settled, NULL)) return 1;
    }
  fprintf(rep,
          "\nmessage latency vs size, node %u -> node %u: first command dword accepted -> the destination "
          "host's interrupt (ns at %.0f MHz; host read %u cycles = %.0f ns)\n",
          c->src, c->dst, FABRIC_NOMINAL_MHZ, c->host_lat, ns(c->host_lat));
  fprintf(rep, "%8s %10s %10s  %s\n", "bytes", "STEN", "DMA", "faster");
  int cross = -1;
  for (unsigned k = 0; k < ns_n; k++) {
    fprintf(rep, "%8u %10.1f %10.1f  %s\n", size_list[k], lat[0][k], lat[1][k],
            lat[0][k] <= lat[1][k] ? "STEN" : "DMA");
    if (cross < 0 && lat[1][k] < lat[0][k]) cross = (int)k;
  }
  bool holds = cross > 0;
  for (unsigned k = cross > 0 ? (unsigned)cross : 0; holds && k < ns_n; k++) holds = lat[1][k] < lat[0][k];
  if (cross < 0)
    fprintf(rep, "crossover: none up to %u bytes (STEN faster at every size)\n", size_list[ns_n - 1]);
  else
    fprintf(rep, "crossover: DMA faster from %u bytes%s (seed 004: above 1,500 bytes): %s\n",
            size_list[cross], holds ? " on" : ", not at every larger size",
            holds && size_list[cross] >= 1024 && size_list[cross] <= 2048 ? "the seed's shape holds"
                                                                          : "the seed's shape does not hold");
  return 0;
}

static const uint32_t bw_list[] = {1024, 4096, 16384, 65536};
static int test_dmabw(world_t *w, FILE *rep) {
  const cfg_t *c = &w->c;
  const unsigned M = c->rounds;
  open_both(w);
  if (!run_until(w, settled, NULL)) return 1;
  fprintf(rep,
          "\nDMA bandwidth, node %u <-> node %u, %u DMAs back to back from host memory (MB/s at %.0f MHz; "
          "link peak %.0f MB/s)\n",
          c->src, c->dst, M, FABRIC_NOMINAL_MHZ, 4.0 * FABRIC_NOMINAL_MHZ);
  fprintf(rep, "%8s %12s %14s\n", "bytes", "one-way", "bidirectional");
  for (unsigned k = 0; k < sizeof bw_list / sizeof bw_list[0] && bw_list[k] <= c->max_bytes; k++) {
    const uint32_t S = bw_list[k];
    double bw[2];
    for (unsigned bidi = 0; bidi < 2; bidi++) {
      wait_node = c->dst;
      wait_seen = node(w, c->dst)->host.nirq;
      wait_cookie = (uint64_t)(bidi + 2) << 32 | S;
      prime(w, c->dst, -(int32_t)M, wait_cookie);
      if (bidi) {
        wait_seen2 = node(w, c->src)->host.nirq;
        prime(w, c->src, -(int32_t)M, wait_cookie | 1ull << 40);
      }
      const int op = issue(w, c->src, c->dst, 1, S, M, 0x10000u);
      if (bidi) issue(w, c->dst, c->src, 1, S, M, 0x10000u);
      if (!run_until(w, bidi ? irq2_arrived : irq_arrived, NULL)) return 1;
      const ef_host_t *hd = &node(w, c->dst)->host;
      const uint64_t t = hd->irq[ef_irq_find(hd, wait_seen, 2, wait_cookie)].cycle;
      bw[bidi] = (double)M * S / (ns((double)(t - node(w, c->src)->host.op[op].accept)) * 1e-9) / 1e6;
      check_data(w, c->dst, 1, S, 0x10000u, "e4fab.dma_data");
      if (bidi) check_data(w, c->src, 1, S, 0x10000u, "e4fab.dma_data");
      if (w->failed || !run_until(w, settled, NULL)) return 1;
    }
    fprintf(rep, "%8u %12.0f %14.0f\n", S, bw[0], bw[1]);
    db_result(w, "dma_bw_oneway", "DMA", S, "bytes", bw[0], "MB/s");
    db_result(w, "dma_bw_bidir", "DMA", S, "bytes", bw[1], "MB/s");
  }
  fprintf(rep, "seed 004 Fig. 6a: 911 MB/s one-way, 900 MB/s bidirectional (98 %% of the achievable peak)\n");
  return 0;
}

/* --- test evrate: packets built by the event processor (seed 004: event
 * descriptors "copy [data] into separate packets routed to several network
 * destinations ... more than four million packets per second"). Node --dst
 * (the builder) holds K = 85 WRITE commands of one dword (3 dwords each) in
 * its local memory and a COPY event of 255 dwords from them into its own
 * queue 0's page; node --src sets that event remotely (SETEVENT), so one
 * arriving packet makes 85 packets, to every other node in turn. Rate:
 * packets / (the event fired -> the 85th TAIL on the builder's link). --- */
enum { EVR_K = 85 };
static unsigned count_after(const ef_log_t *l, unsigned kind, uint32_t inst, uint64_t from, uint64_t *last) {
  unsigned n = 0;
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i].kind == kind && l->ev[i].inst == inst && l->ev[i].cycle >= from) {
      n++;
      *last = l->ev[i].cycle;
    }
  return n;
}
static uint64_t evr_fire;
static bool evr_done(world_t *w, uint64_t now) {
  (void)now;
  uint64_t last;
  const long f = ef_log_first(&w->log, EF_EV_FIRE, w->node0 + w->c.dst, 0);
  if (f < 0) return false;
  evr_fire = w->log.ev[f].cycle;
  return count_after(&w->log, EF_EV_RX_TOKEN, w->node0 + w->c.dst, evr_fire, &last) >= EVR_K;
}
static unsigned evr_dest(const world_t *w, unsigned k) { /* every node but the builder, in turn */
  const unsigned d = k % (w->c.nodes - 1);
  return d >= w->c.dst ? d + 1 : d;
}
static int test_evrate(world_t *w, FILE *rep) {
  const cfg_t *c = &w->c;
  open_both(w);
  if (!run_until(w, settled, NULL)) return 1;
  ef_node_t *b = node(w, c->dst);
  const uint64_t cmd_pa = PA_HEAP + 4u * 8192u, dst_off = 5u * 8192u;
  for (unsigned k = 0; k < EVR_K; k++) {
    ef_mem_set(&b->lm, cmd_pa / 8 + 3 * k, 1u | 1u << 4 | (uint64_t)evr_dest(w, k) << 16); /* WRITE, n 1 */
    ef_mem_set(&b->lm, cmd_pa / 8 + 3 * k + 1, VA_HEAP + dst_off + 8u * k);
    ef_mem_set(&b->lm, cmd_pa / 8 + 3 * k + 2,
               pattern(2, EVR_K, k) ^ (c->tb_bug == TB_EVR_DATA && k == EVR_K - 1 ? 1u : 0u));
  }
  /* the COPY event, the second event slot; the queue's write position is 1 (the GUARD) */
  const uint64_t ev = PA_EV + 32;
  ef_mem_set(&b->lm, ev / 8, ef_e0(-1, 3 * EVR_K, 0));
  ef_mem_set(&b->lm, ev / 8 + 1, VA_HEAP + 4u * 8192u);
  ef_mem_set(&b->lm, ev / 8 + 2, VA_Q + 8);
  ef_mem_set(&b->lm, ev / 8 + 3, CTX);
  w->log.n = 0; /* the stages of this test only */
  ef_setevent(&node(w, c->src)->host, 0, true, c->dst, VA_EV + 32, 1, w->f.cycle);
  if (!run_until(w, evr_done, NULL)) return 1;
  const uint32_t B = w->node0 + c->dst;
  uint64_t last_tail = 0, last_head = 0;
  const unsigned tails = count_after(&w->log, EF_EV_TX_TAIL, B, evr_fire, &last_tail);
  count_after(&w->log, EF_EV_TX_HEAD, B, evr_fire, &last_head);
  const uint64_t first_head = ev_cycle(w, EF_EV_TX_HEAD, B, evr_fire);
  for (unsigned k = 0; k < EVR_K && !w->failed; k++)
    if (lm_heap(w, evr_dest(w, k), dst_off + 8u * k) != pattern(2, EVR_K, k))
      failf(w, w->f.cycle, "e4fab.evrate_data",
            "node %u: the event-built packet %u left 0x%016" PRIx64 ", want 0x%016" PRIx64, evr_dest(w, k), k,
            lm_heap(w, evr_dest(w, k), dst_off + 8u * k), pattern(2, EVR_K, k));
  if (tails < EVR_K)
    failf(w, w->f.cycle, "e4fab.evrate_data", "the builder sent %u packets after its event fired, want %u",
          tails, EVR_K);
  if (w->failed) return 1;
  const double t_all = ns((double)(last_tail - evr_fire)), t_steady = ns((double)(last_head - first_head));
  const double rate = EVR_K / (t_all * 1e-9) / 1e6, steady = (EVR_K - 1) / (t_steady * 1e-9) / 1e6;
  db_result(w, "event_packet_rate", "COPY", EVR_K, "packets", rate, "Mpackets/s");
  fprintf(rep,
          "\npackets built by the event processor: one SETEVENT from node %u fires a COPY of %u commands "
          "into node %u's "
          "queue: %u packets to %u nodes\n",
          c->src, EVR_K, c->dst, EVR_K, c->nodes - 1);
  fprintf(rep,
          "event fired -> first HEAD %" PRIu64 " cycles, -> %uth TAIL %" PRIu64
          " cycles (%.0f ns): %.2f M packets/s; "
          "HEAD to HEAD %.2f M packets/s (seed 004: more than 4 M/s): %s\n",
          first_head - evr_fire, EVR_K, last_tail - evr_fire, t_all, rate, steady,
          rate > 4.0 ? "holds" : "does not hold");
  return 0;
}

/* --- test getsizes: get latency vs size (seed 004 Fig. 10b). Node --src
 * reads `bytes` of node --dst's local memory into its own, two ways:
 *   READ  ceil(n / 8) READ commands of up to 8 dwords (docs/elan4.md §4.3),
 *         each with the requester's event (count -k): the replies are
 *         written by the requester's input processor;
 *   DMA   RUN_DMA's source is local only (§4.3, dw1), so the requester puts
 *         a RUN_DMA command (8 dwords, one WRITE) into --dst's queue 0 page
 *         (space 2, §4.5) and --dst's DMA engine sends the data back, its
 *         remote event the requester's (ours: a get by a remote DMA).
 * Latency: the requester's first command dword accepted on ht_* -> the last
 * dword of the data written on its lm_* (and -> its host's interrupt).
 * Check e4fab.getsizes_data: every dword, and the dword after the last is
 * untouched. --- */
static const uint32_t get_list[] = {8,   16,   24,   32,   40,   48,   56,    64,    256,
                                    512, 1024, 1536, 2048, 4096, 8192, 16384, 32768, 65536};
enum { NGET = sizeof get_list / sizeof get_list[0], GET_TO = 0x10000 /* the requester's heap offset */ };
static uint64_t get_poison(unsigned i) { return 0xBAD0000000000000ull | i; }
static int test_getsizes(world_t *w, FILE *rep) {
  const cfg_t *c = &w->c;
  ef_host_t *h = &node(w, c->src)->host;
  ef_node_t *nd = node(w, c->dst), *ns_ = node(w, c->src);
  open_both(w);
  if (!run_until(w, settled, NULL)) return 1;
  unsigned qpos = 1; /* --dst's queue 0: its GUARD took position 0 */
  uint64_t lat[2][NGET], irq[2][NGET];
  unsigned n_n = 0;
  /* k = -1: an 8-byte get of each kind first, not measured: both ends'
     TLBs then hold the pages (the put test's cold put, likewise) */
  for (int k = -1; k < NGET && (k < 0 || get_list[k] <= c->max_bytes); n_n += k >= 0, k++)
    for (unsigned kind = 0; kind < 2; kind++) {
      const uint32_t B = k < 0 ? 8 : get_list[k];
      const unsigned n = B / 8;
      /* the source data at --dst, the target poisoned one dword beyond (the fabric is idle) */
      for (unsigned i = 0; i < n; i++) ef_mem_set(&nd->lm, PA_HEAP / 8 + i, pattern(4 + kind, B, i));
      for (unsigned i = 0; i <= n; i++) ef_mem_set(&ns_->lm, (PA_HEAP + GET_TO) / 8 + i, get_poison(i));
      const unsigned sets = kind ? 1 : (n + 7) / 8;
      wait_node = c->src;
      wait_seen = h->nirq;
      wait_cookie = (uint64_t)(kind + 4) << 32 | B;
      prime(w, c->src, -(int32_t)sets, wait_cookie);
      w->log.n = 0; /* this get's events only */
      int op = -1;
      if (kind == 0) {
        for (unsigned i = 0; i < n; i += 8) {
          unsigned m = n - i < 8 ? n - i : 8;
          if (c->tb_bug == TB_GET_SHORT && i + m == n && m > 1) m--;
          const int o =
              ef_get(h, 0, c->dst, VA_HEAP + 8ull * i, m, VA_HEAP + GET_TO + 8ull * i, VA_EV, w->f.cycle);
          if (op < 0) op = o;
        }
      } else {
        const uint32_t len = B - (c->tb_bug == TB_GET_SHORT && B > 8 ? 8u : 0u);
        /* RUN_DMA, §4.3: op 5, E (a remote event), dest the requester, imm the byte count */
        const uint64_t dma[8] = {5u | 1u << 8 | (uint64_t)c->src << 16 | (uint64_t)len << 32,
                                 VA_HEAP,
                                 VA_HEAP + GET_TO,
                                 VA_EV,
                                 0,
                                 0,
                                 0,
                                 0};
        op = ef_put(h, 0, c->dst, VA_Q + 8ull * qpos, dma, 8, 0, w->f.cycle);
        qpos += 8;
      }
      if (!run_until(w, irq_arrived, NULL)) return 1;
      const uint64_t t0 = h->op[op].accept, lo = (PA_HEAP + GET_TO) / 8;
      uint64_t last = EF_NEVER;
      for (size_t i = 0; i < w->log.n; i++) {
        const ef_event_t *e = &w->log.ev[i];
        if (e->kind == EF_EV_LM_WRITE && e->inst == w->node0 + c->src && e->a >= lo && e->a < lo + n &&
            (last == EF_NEVER || e->cycle > last))
          last = e->cycle;
      }
      const uint64_t t_irq = h->irq[ef_irq_find(h, wait_seen, 2, wait_cookie)].cycle - t0;
      for (unsigned i = 0; i <= n && !w->failed; i++) {
        const uint64_t got = ef_mem_get(&ns_->lm, lo + i),
                       want = i < n ? pattern(4 + kind, B, i) : get_poison(i);
        if (got != want)
          failf(w, w->f.cycle, "e4fab.getsizes_data",
                "node %u: %s get of %u bytes from node %u: dword %u is 0x%016" PRIx64 ", want 0x%016" PRIx64
                "%s",
                c->src, kind ? "DMA" : "READ", B, c->dst, i, got, want, i < n ? "" : " (beyond the get)");
      }
      if (!w->failed && last == EF_NEVER)
        failf(w, w->f.cycle, "e4fab.getsizes_data", "node %u: the %u-byte %s get wrote nothing on lm_*",
              c->src, B, kind ? "DMA" : "READ");
      if (w->failed) return 1;
      if (k >= 0) {
        lat[kind][k] = last - t0;
        irq[kind][k] = t_irq;
        db_result(w, "get_latency", kind ? "DMA" : "READ", B, "bytes", (double)lat[kind][k], "cycles");
        db_result(w, "get_latency_irq", kind ? "DMA" : "READ", B, "bytes", (double)irq[kind][k], "cycles");
      }
      if (!run_until(w, settled, NULL)) return 1;
    }
  fprintf(
      rep,
      "\nget latency vs size, node %u reads node %u's local memory into its own: first command dword "
      "accepted -> the last dword written on lm_* (-> the requester host's interrupt); cycles, ns at %.0f "
      "MHz\n",
      c->src, c->dst, FABRIC_NOMINAL_MHZ);
  fprintf(rep, "%8s %8s %9s %9s %8s %9s %9s  %s\n", "bytes", "READ", "ns", "(irq ns)", "DMA", "ns",
          "(irq ns)", "faster");
  for (unsigned k = 0; k < n_n; k++)
    fprintf(rep, "%8u %8" PRIu64 " %9.1f %9.1f %8" PRIu64 " %9.1f %9.1f  %s\n", get_list[k], lat[0][k],
            ns((double)lat[0][k]), ns((double)irq[0][k]), lat[1][k], ns((double)lat[1][k]),
            ns((double)irq[1][k]), lat[0][k] <= lat[1][k] ? "READ" : "DMA");
  return 0;
}

/* --- test isolation (issue 11 item 5, across the fabric): node --src's
 * queue 0 is fed one kind of garbage at a time (docs/elan4.md §7: every
 * error code a host or a bad packet can cause but E_OVERFLOW, which needs
 * tokens withheld: the block test elan4_overflow) and must go to ERROR with
 * that code in its status word, while queues 1..3 of the same NIC keep
 * putting to three other nodes; at the end every one of their dwords is at
 * its destination, their status is OK, and no other queue or node raised
 * anything. --- */
enum { ISO_Q = 4 };
typedef struct {
  const char *what;
  unsigned code;
} iso_kind_t;
static const iso_kind_t iso_kinds[] = {{"CQCTL with a must-be-0 bit set", 1},
                                       {"a write with byte enables 0x0F", 2},
                                       {"a write OooWindow ahead of wp", 3},
                                       {"the same position written twice ahead of a gap", 5},
                                       {"opcode 9", 6},
                                       {"a WRITE on a queue whose WRITE class is off", 7},
                                       {"a WRITE of 0 dwords", 8},
                                       {"a WRITE to node 100 (>= NumNodes)", 9},
                                       {"a WRITE to a node with no route entry", 10},
                                       {"a WRITE to a VA the destination has not mapped", 11},
                                       {"a write ahead of a gap never filled", 12}};
enum { ISO_KINDS = sizeof iso_kinds / sizeof iso_kinds[0] };
static unsigned iso_sent[ISO_Q], iso_want_status, iso_n;
static const unsigned iso_dest[ISO_Q] = {0, 5, 10, 15};
static void iso_prog(world_t *w, uint64_t now) {
  ef_host_t *h = &node(w, w->c.src)->host;
  /* queues 1..3: a put each whenever their last is written out, one page each */
  for (unsigned q = 1; q < ISO_Q; q++)
    if (h->back_n < 24 && iso_sent[q] < iso_n) {
      const uint64_t v = pattern(3 + q, 1000, iso_sent[q]);
      ef_put(h, q, iso_dest[q], VA_HEAP + 8192ull * (8 + q) + 8ull * iso_sent[q], &v, 1, 0, now);
      iso_sent[q]++;
    }
  if (now % 64 == 0)
    for (unsigned q = 0; q < ISO_Q; q++) ef_status(h, q);
}
static bool iso_errored(world_t *w, uint64_t now) {
  (void)now;
  const ef_host_t *h = &node(w, w->c.src)->host;
  return h->status_n[0] > iso_want_status && (h->status[0] >> 8 & 3) == 2;
}
/* every put released to the PIO stream, then queues 1..3 not busy (§4.2's
   bit 11: no data unconsumed, no packet awaiting its token) in status reads
   issued after that */
static unsigned iso_idle_from[ISO_Q];
static bool iso_drained(world_t *w, uint64_t now) {
  (void)now;
  const ef_host_t *h = &node(w, w->c.src)->host;
  bool idle = h->back_n == 0; /* a status read behind the last write answers after it (in order) */
  for (unsigned q = 1; q < ISO_Q; q++) idle = idle && iso_sent[q] >= iso_n;
  if (!idle) {
    for (unsigned q = 1; q < ISO_Q; q++) iso_idle_from[q] = h->status_issued[q];
    return false;
  }
  for (unsigned q = 1; q < ISO_Q; q++)
    if (h->status_n[q] <= iso_idle_from[q] || (h->status[q] >> 11 & 1)) return false;
  return true;
}
static int test_isolation(world_t *w, FILE *rep) {
  const cfg_t *c = &w->c;
  const elan4_view_t *v = ef_view();
  const uint32_t depth = (uint32_t)(v->param.DepthKb1 * 128u);
  const uint64_t ok_cqctl = QBASE | (uint64_t)QCLASS << 31 | (uint64_t)CTX << 33 | 0x7Full << 47 | 1ull << 63;
  ef_host_t *h = &node(w, c->src)->host;
  w->iso_node = (int)c->src;
  iso_n = 8 * c->rounds; /* puts per queue */
  w->iso_fault_node = 7;
  for (unsigned q = 1; q < ISO_Q; q++) ef_open(h, q, QBASE + q * 8192u, QCLASS, depth, CTX, 0);
  fprintf(rep, "\nisolation: node %u's queue 0 fed garbage while its queues 1..3 put to nodes %u, %u, %u\n",
          c->src, iso_dest[1], iso_dest[2], iso_dest[3]);
  fprintf(rep, "%-52s %6s %6s %8s\n", "garbage", "want", "status", "cycles");
  for (unsigned k = 0; k < ISO_KINDS && !w->failed; k++) {
    const unsigned code = iso_kinds[k].code;
    const unsigned want = code + (c->tb_bug == TB_ISO_WANT_OFF && k == 0);
    const uint64_t t0 = w->f.cycle;
    iso_want_status = h->status_issued[0]; /* answers to reads issued before this CQCTL show the old queue */
    ef_cqctl(h, 0,
             code == 1   ? ok_cqctl | 1ull << 54
             : code == 7 ? ok_cqctl & ~(1ull << 47)
                         : ok_cqctl,
             depth);
    const uint64_t put_ok[3] = {1u | 1u << 4 | 1ull << 16, VA_HEAP, 0}; /* a WRITE of one dword to node 1 */
    uint64_t dw[3] = {put_ok[0], put_ok[1], put_ok[2]};
    switch (code) {
      case 2: ef_raw_at(h, 0, 0, 0, 0x0F); break;
      case 3: ef_raw_at(h, 0, (unsigned)v->param.OooWindow, 0, 0xFF); break;
      case 5:
        ef_raw_at(h, 0, 2, 0, 0xFF);
        ef_raw_at(h, 0, 2, 0, 0xFF);
        break;
      case 6:
        dw[0] = 9;
        ef_raw(h, 0, dw, 1, w->f.cycle);
        break;
      case 7: ef_raw(h, 0, dw, 3, w->f.cycle); break;
      case 8:
        dw[0] = 1u | 1ull << 16;
        ef_raw(h, 0, dw, 3, w->f.cycle);
        break;
      case 9:
        dw[0] = 1u | 1u << 4 | 100ull << 16;
        ef_raw(h, 0, dw, 3, w->f.cycle);
        break;
      case 10:
        dw[0] = 1u | 1u << 4 | 40ull << 16;
        ef_raw(h, 0, dw, 3, w->f.cycle);
        break;
      case 11:
        dw[0] = 1u | 1u << 4 | 7ull << 16;
        dw[1] = 0x0000100000000000ull; /* no PTE anywhere */
        ef_raw(h, 0, dw, 3, w->f.cycle);
        break;
      case 12: ef_raw_at(h, 0, 1, 0, 0xFF); break;
      default: break;
    }
    if (!run_until(w, iso_errored, iso_prog)) return 1;
    const uint64_t st = h->status[0];
    fprintf(rep, "%-52s %6u %6u %8" PRIu64 "\n", iso_kinds[k].what, want, (unsigned)(st & 0xFF),
            w->f.cycle - t0);
    if ((st & 0xFF) != want)
      failf(w, w->f.cycle, "e4fab.isolation",
            "%s: queue 0's status word 0x%016" PRIx64 " has code %u, want %u", iso_kinds[k].what, st,
            (unsigned)(st & 0xFF), want);
  }
  if (w->failed) return 1;
  if (!run_until(w, iso_drained, iso_prog)) return 1;
  for (unsigned q = 1; q < ISO_Q && !w->failed; q++) {
    for (unsigned i = 0; i < iso_n && !w->failed; i++) {
      const uint64_t got = lm_heap(w, iso_dest[q], 8192ull * (8 + q) + 8ull * i);
      if (got != pattern(3 + q, 1000, i))
        failf(w, w->f.cycle, "e4fab.isolation",
              "queue %u's put %u at node %u: 0x%016" PRIx64 ", want 0x%016" PRIx64, q, i, iso_dest[q], got,
              pattern(3 + q, 1000, i));
    }
  }
  if (w->failed) return 1;
  fprintf(
      rep,
      "queues 1..3: %u puts each, every dword at its destination; the garbage queue erred %u times, alone\n",
      iso_n, ISO_KINDS);
  return 0;
}

/* --db: the run's row and its parameters (key/value, docs/store.md) */
static int db_begin(world_t *w, char *err, size_t len) {
  const cfg_t *c = &w->c;
  char name[160];
  snprintf(name, sizeof name, "%s", c->name ? c->name : "");
  if (!c->name) snprintf(name, sizeof name, "elan4fab_%s_n%u", test_names[c->test], c->nodes);
  const store_run_t r = {.name = name,
                         .tool = "elan4_fabric_sim",
                         .seed = c->seed,
                         .nodes = c->nodes,
                         .clock_mhz = FABRIC_NOMINAL_MHZ,
                         .window_start = 0,
                         .window_end = c->cycles};
  if (store_run_begin(w->st, &r, NULL, err, len)) return -1;
  store_t *s = w->st;
  int e = 0;
  e |= store_param(s, "test", test_names[c->test]);
  e |= store_paramf(s, "topology", "4-ary %u-tree", w->topo.levels);
  e |= store_param(s, "switch", "elite4_p8");
  e |= store_param(s, "nic", "elan4_default");
  e |= store_paramf(s, "switches", "%u", w->topo.nsw);
  e |= store_paramf(s, "src", "%u", c->src);
  e |= store_paramf(s, "dst", "%u", c->dst);
  e |= store_paramf(s, "rounds", "%u", c->rounds);
  e |= store_paramf(s, "max_bytes", "%u", c->max_bytes);
  e |= store_paramf(s, "nic_mode", "%s%s", ef_nic_mode_names[c->nic], c->nic_all ? " (all)" : " (path)");
  e |= store_paramf(s, "sw_mode", "%s%s", fabric_mode_names[c->sw], c->sw_all ? " (all)" : " (path)");
  e |= store_paramf(s, "host_lat", "%u", c->host_lat);
  e |= store_paramf(s, "link_delay", "%u", c->link_delay);
  e |= store_paramf(s, "cable_m", "%g", c->cable_m);
  e |= store_paramf(s, "reorder", "%u", c->reorder);
  e |= store_param(s, "model_bug", c->nic_bug ? elan4_bug_names[c->nic_bug] : "none");
  e |= store_param(s, "tb_bug", tb_bug_names[c->tb_bug]);
  e |= store_paramf(s, "cycles_limit", "%" PRIu64, c->cycles);
  if (e) {
    snprintf(err, len, "%s", store_error(s));
    return -1;
  }
  return 0;
}

/* --- command line --- */
static int usage(int rc) {
  fprintf(
      rc ? stderr : stdout,
      "usage: elan4_fabric_sim --test=put|fadd|cas|sizes|dmabw|evrate|isolation|getsizes [--nodes=4|16|64] "
      "[--seed=N] "
      "[--cycles=N]\n"
      "         [--src=N --dst=N] [--rounds=N] [--max-bytes=N] [--nic=model|rtl|lockstep] "
      "[--sw=model|rtl|lockstep]\n"
      "         [--nic-all] [--sw-all] [--reorder=W] [--host-lat=N] [--link-delay=N] [--cable-m=M] "
      "[--trace=DIR]\n"
      "         [--inject-bug=NAME] [--tb-bug=NAME] [--expect-fail=check:ID@CYCLE|assert:LABEL@CYCLE] "
      "[--out=DIR] [--db=PATH] [--list]\n"
      "put: the path's NICs and switches take --nic / --sw (every one with --nic-all / --sw-all);\n"
      "fadd, cas: every NIC takes --nic, the switches --sw with --sw-all.\n"
      "--db=PATH: also write the run into SQLite database PATH (docs/store.md). docs/elan4fab.md.\n");
  return rc;
}
static int bad_arg(const char *a, const char *why) {
  fprintf(stderr, "elan4_fabric_sim: bad argument '%s': %s\n", a, why);
  usage(2);
  return 2;
}
static bool parse_u(const char *s, uint64_t *v) {
  char *e;
  errno = 0;
  const unsigned long long x = strtoull(s, &e, 10);
  if (errno || e == s || *e || *s == '-') return false;
  *v = x;
  return true;
}

int main(int argc, char **argv) {
  static world_t W;
  world_t *w = &W;
  cfg_t *c = &w->c;
  c->test = T_N;
  c->nodes = 64;
  c->src = 0;
  c->dst = UINT32_MAX;
  c->rounds = 20;
  c->host_lat = 188; /* seed 004: a PCI-X master read ~750 ns = 187.5 cycles */
  c->max_bytes = 65536;
  c->link_delay = 1;
  c->seed = 1;
  c->cycles = 200000;
  c->out = NULL;
  size_t pos = 0;
  for (int i = 0; i < argc && pos < sizeof c->argv_line - 2; i++) {
    if (i && (!strncmp(argv[i], "--out=", 6) || !strncmp(argv[i], "--name=", 7))) continue;
    pos += (size_t)snprintf(c->argv_line + pos, sizeof c->argv_line - pos, "%s%s", i ? " " : "", argv[i]);
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *eq = strchr(a, '=');
    const char *val = eq ? eq + 1 : "";
    const size_t kl = eq ? (size_t)(eq - a) : strlen(a);
    uint64_t u = 0;
#define KEY(k) (kl == strlen(k) && !strncmp(a, k, kl))
    if (KEY("--help")) return usage(0);
    if (KEY("--list")) {
      for (unsigned t = 0; t < T_N; t++) printf("%s\n", test_names[t]);
      return 0;
    }
    if (KEY("--test")) {
      for (c->test = 0; c->test < T_N && strcmp(val, test_names[c->test]); c->test++) {}
      /* a testlist line's name: elan4fab_<test>[_...] */
      if (c->test == T_N && !strncmp(val, "elan4fab_", 9))
        for (c->test = 0; c->test < T_N && strncmp(val + 9, test_names[c->test], strlen(test_names[c->test]));
             c->test++) {}
      if (c->test == T_N) return bad_arg(a, "no such test (--list)");
    } else if (KEY("--nodes") && parse_u(val, &u) &&
               (u == 4 || u == 16 || u == 64 || u == 256 || u == 1024 || u == 4096))
      c->nodes = (unsigned)u;
    else if (KEY("--nodes"))
      return bad_arg(a, "4, 16, 64, 256, 1024 or 4096 (above 64: NICs model only, two-ended tests)");
    else if (KEY("--seed") && parse_u(val, &u))
      c->seed = u;
    else if (KEY("--cycles") && parse_u(val, &u) && u > 0)
      c->cycles = u;
    else if (KEY("--src") && parse_u(val, &u))
      c->src = (unsigned)u;
    else if (KEY("--dst") && parse_u(val, &u))
      c->dst = (unsigned)u;
    else if (KEY("--rounds") && parse_u(val, &u) && u > 0 && u < (1u << 18))
      c->rounds = (unsigned)u;
    else if (KEY("--reorder") && parse_u(val, &u) && u <= ef_view()->param.OooWindow)
      c->reorder = (unsigned)u;
    else if (KEY("--reorder"))
      return bad_arg(a, "a window of 0..OooWindow (16) dwords");
    else if (KEY("--max-bytes") && parse_u(val, &u) && u >= 8 && u <= 65536)
      c->max_bytes = (uint32_t)u;
    else if (KEY("--host-lat") && parse_u(val, &u) && u > 0 && u < 100000)
      c->host_lat = (unsigned)u;
    else if (KEY("--link-delay") && parse_u(val, &u) && u > 0 && u <= FABRIC_MAX_LATENCY)
      c->link_delay = (unsigned)u;
    else if (KEY("--cable-m")) {
      char *e;
      c->cable_m = strtod(val, &e);
      if (e == val || *e || c->cable_m < 0 || c->cable_m > 1000) return bad_arg(a, "metres, 0..1000");
      c->link_delay = fabric_link_cycles(1, c->cable_m, FABRIC_NOMINAL_MHZ);
    } else if (KEY("--nic")) {
      unsigned m = 0;
      while (m < 3 && strcmp(val, ef_nic_mode_names[m])) m++;
      if (m == 3) return bad_arg(a, "model, rtl or lockstep");
      c->nic = (ef_nic_mode_t)m;
    } else if (KEY("--sw")) {
      unsigned m = 0;
      while (m < 3 && strcmp(val, fabric_mode_names[m])) m++;
      if (m == 3) return bad_arg(a, "model, rtl or lockstep");
      c->sw = (fabric_mode_t)m;
    } else if (KEY("--nic-all"))
      c->nic_all = true;
    else if (KEY("--sw-all"))
      c->sw_all = true;
    else if (KEY("--trace"))
      c->trace = *val ? val : "build/elan4fab";
    else if (KEY("--out"))
      c->out = val;
    else if (KEY("--name"))
      c->name = val;
    else if (KEY("--db")) /* the run into this SQLite database (docs/store.md) */
      c->db = val;
    else if (KEY("--inject-bug")) {
      unsigned b = 1;
      while (elan4_bug_names[b] && strcmp(val, elan4_bug_names[b])) b++;
      if (!elan4_bug_names[b]) return bad_arg(a, "no such elan4 model bug (csim/elan4/elan4.h)");
      c->nic_bug = b;
    } else if (KEY("--tb-bug")) {
      unsigned b = 1;
      while (b < TB_N && strcmp(val, tb_bug_names[b])) b++;
      if (b == TB_N)
        return bad_arg(a, "no such testbench bug (tb_bug_names in testbench/elan4fab/ef_main.c)");
      c->tb_bug = b;
    } else if (KEY("--expect-fail")) {
      const char *at = strrchr(val, '@');
      const bool chk = !strncmp(val, "check:", 6), as = !strncmp(val, "assert:", 7);
      if (!at || (!chk && !as) || !parse_u(at + 1, &c->expect_cycle))
        return bad_arg(a, "check:ID@CYCLE or assert:LABEL@CYCLE");
      const char *id = chk ? val + 6 : val;
      snprintf(c->expect, sizeof c->expect, "%.*s", (int)(at - id), id);
      c->expect_on = true;
    } else
      return bad_arg(a, "unknown option or value out of range");
  }
  if (c->test == T_N) return bad_arg("--test", "required (--list)");
  if (c->dst == UINT32_MAX) c->dst = c->nodes - 1;
  if (c->test == T_ISOLATION && c->nodes != 16)
    return bad_arg(
        "--nodes",
        "isolation runs on 16 nodes (its no-route destination, 40, is a node of NumNodes without a route)");
  /* above elan4_default's NumNodes every NIC is the model with NumNodes = --nodes (the spec allows
     2..4096; no RTL target has it), and only the tests between two nodes run there */
  if (c->nodes > 64 && (!two_ended(c->test) || c->nic != EF_NIC_MODEL || c->nic_all))
    return bad_arg("--nodes", "above 64 only --test=put|sizes|dmabw|evrate|getsizes with --nic=model");
  if (c->src >= c->nodes || c->dst >= c->nodes || c->src == c->dst)
    return bad_arg("--src/--dst", "two different nodes below --nodes");
  printf("seed: %" PRIu64 "\n", c->seed);
  if (c->trace && mkdir(c->trace, 0777) && errno != EEXIST) return bad_arg(c->trace, strerror(errno));
  char err[1200];
  /* opened before the run: a bad path is a usage error, no verdict */
  if (c->db && store_open(&w->st, c->db, err, sizeof err)) {
    fprintf(stderr, "elan4_fabric_sim: error: --db: %s\n", err);
    return 2;
  }
  if (build(w, err, sizeof err)) {
    fprintf(stderr, "elan4_fabric_sim: %s\n", err);
    store_close(w->st);
    return 2;
  }
  if (w->st && db_begin(w, err, sizeof err)) {
    fprintf(stderr, "elan4_fabric_sim: error: --db: %s\n", err);
    store_close(w->st);
    return 2;
  }
  w->round = calloc(c->nodes, sizeof *w->round);
  w->pending = malloc(c->nodes * sizeof *w->pending);
  w->phase = calloc(c->nodes, sizeof *w->phase);
  w->seen = calloc(c->nodes, sizeof *w->seen);
  w->wait_until = calloc(c->nodes, sizeof *w->wait_until);
  w->fails = calloc(c->nodes, sizeof *w->fails);
  cosim_rng_seed(&w->rng, c->seed);
  w->got = calloc((size_t)c->nodes * c->rounds + 1, sizeof *w->got);
  if (!w->round || !w->pending || !w->phase || !w->seen || !w->wait_until || !w->fails || !w->got)
    return fprintf(stderr, "elan4_fabric_sim: out of memory\n"), 2;
  w->iso_node = w->iso_fault_node = -1;
  for (unsigned d = 0; d < c->nodes; d++) {
    w->pending[d] = -1;
    ef_host_reorder(&node(w, d)->host, c->tb_bug == TB_REORDER_NONE ? 0 : c->reorder, c->seed * 131u + d);
    if (c->tb_bug == TB_HOST_READS_1) node(w, d)->host.rd_cap = 1;
    node(w, d)->host.no_alloc = c->tb_bug == TB_HOST_NO_ALLOC;
  }
  w->f.observer = observe;
  w->f.observer_ctx = w;
  printf("elan4_fabric_sim: test %s, %u nodes, NICs %s%s, switches %s%s, host read %u cycles, link %u "
         "cycle(s)\n",
         test_names[c->test], c->nodes, ef_nic_mode_names[c->nic],
         c->nic_all || !two_ended(c->test) ? "" : " (path)", fabric_mode_names[c->sw],
         c->sw_all            ? ""
         : two_ended(c->test) ? " (path)"
                              : " (none: --sw-all)",
         c->host_lat, c->link_delay);
  if (!two_ended(c->test) && !c->sw_all && c->sw != FABRIC_MODEL)
    printf("note: --sw applies to the path's switches in test put only; add --sw-all\n");
  FILE *rep = stdout;
  struct timespec ts0, ts1;
  clock_gettime(CLOCK_MONOTONIC, &ts0);
  if (c->test == T_PUT)
    test_put(w, rep);
  else if (c->test == T_FADD)
    test_fadd(w, rep);
  else if (c->test == T_CAS)
    test_cas(w, rep);
  else if (c->test == T_SIZES)
    test_sizes(w, rep);
  else if (c->test == T_DMABW)
    test_dmabw(w, rep);
  else if (c->test == T_EVRATE)
    test_evrate(w, rep);
  else if (c->test == T_GETSIZES)
    test_getsizes(w, rep);
  else
    test_isolation(w, rep);
  clock_gettime(CLOCK_MONOTONIC, &ts1);
  const double wall = (double)(ts1.tv_sec - ts0.tv_sec) + 1e-9 * (double)(ts1.tv_nsec - ts0.tv_nsec);
  /* make bench reads this line (mk/bench.sh); a speed, never asserted */
  printf("sim: %" PRIu64 " cycles, %u NICs, %.3f s wall, %.0f fabric cycles/s\n", w->f.cycle, c->nodes, wall,
         wall > 0 ? (double)w->f.cycle / wall : 0.0);
  if (c->reorder > 1 && !w->failed) { /* the reordering's coverage: it happened */
    uint64_t ooo = 0, acc = 0;
    for (unsigned d = 0; d < c->nodes; d++) {
      ooo += node(w, d)->host.pio_ooo;
      acc += node(w, d)->host.pio_accepted;
    }
    printf("reorder: %" PRIu64 " of %" PRIu64 " PIO writes accepted after a higher position of their queue\n",
           ooo, acc);
    if (!ooo)
      failf(w, w->f.cycle, "e4fab.reorder", "--reorder=%u but no queue write left the host out of order",
            c->reorder);
  }
  if (w->log.oom) failf(w, w->f.cycle, "e4fab.host", "the event log ran out of memory");
  if (w->st) { /* the run's row: status ok or its first failure; check store.count */
    char status[1400] = "ok";
    if (w->failed)
      snprintf(status, sizeof status, "%s%.60s@%" PRIu64 ": %.600s",
               strncmp(w->fail_id, "assert:", 7) ? "check:" : "", w->fail_id, w->fail_cycle, w->fail_msg);
    if (store_run_end(w->st, w->f.cycle, wall, status, err, sizeof err))
      failf(w, w->f.cycle, strncmp(err, "check:store.count", 17) ? "store.write" : "store.count", "%s", err);
    else
      printf("db: %s\n", c->db);
    store_close(w->st);
    w->st = NULL;
  }
  char inst_name[16][32];
  for (unsigned k = 0; k < w->npath; k++)
    snprintf(inst_name[k], sizeof inst_name[k], "%s", w->f.inst[w->path_inst[k]].name);
  fabric_free(&w->f); /* closes the FSTs */
  /* --trace: a GTKWave view per traced instance on the put's path, marked
     at the packet's HEAD there (make demo renders them in path order) */
  for (unsigned k = 0; c->trace && k < w->npath; k++) {
    char fst[1300], view[1300];
    snprintf(fst, sizeof fst, "%s/%s.fst", c->trace, inst_name[k]);
    snprintf(view, sizeof view, "%s/%s.gtkw", c->trace, inst_name[k]);
    FILE *t = fopen(fst, "r");
    if (!t) continue; /* a C-model instance: no waveform */
    fclose(t);
    const bool nic = w->path_inst[k] >= w->node0;
    if (waves_write_view(view, fst, nic ? elan4_default_target.glue : elite4_p8_target.glue,
                         test_names[c->test], c->seed, &w->path_cycle[k], -1, false,
                         "the put's HEAD (marker)") == 0)
      printf("view: %s (%s, HEAD at cycle %" PRIu64 ")\n", view, inst_name[k], w->path_cycle[k]);
  }
  int rc;
  char msg[2000];
  snprintf(msg, sizeof msg, "%s%s@%" PRIu64 ": %s", strncmp(w->fail_id, "assert:", 7) ? "check:" : "",
           w->fail_id, w->fail_cycle, w->fail_msg);
  if (!c->expect_on) {
    rc = w->failed;
  } else if (!w->failed) {
    snprintf(msg, sizeof msg, "expected %s@%" PRIu64 " to fail, and the run passed", c->expect,
             c->expect_cycle);
    rc = 1;
  } else if (strcmp(c->expect, w->fail_id) || c->expect_cycle != w->fail_cycle) {
    char m2[2300];
    snprintf(m2, sizeof m2, "expected %s@%" PRIu64 ", got %s", c->expect, c->expect_cycle, msg);
    snprintf(msg, sizeof msg, "%.1990s", m2);
    rc = 1;
  } else {
    printf("expected failure caught: %s\n", msg);
    rc = 0;
  }
  if (rc) {
    printf("rerun: %s\n", c->argv_line);
    if (w->failed && !c->trace && !strcmp(w->fail_id, "e4fab.lockstep"))
      printf("waveform: add --trace=DIR (an FST per RTL/lockstep NIC and switch, DIR/nic<d>.fst)\n");
    printf("TEST FAILED: %s\n", msg);
  } else {
    printf("TEST PASSED\n");
  }
  free(w->round);
  free(w->pending);
  free(w->phase);
  free(w->seen);
  free(w->wait_until);
  free(w->fails);
  free(w->got);
  free(w->log.ev);
  return rc;
}
