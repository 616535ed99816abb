/* elite4 fabric on the generic fabric core: NIC endpoints, observers, the
 * run. See e4t_fabric.h. */
#define _POSIX_C_SOURCE 200809L
#include "e4t_fabric.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bind/fabric_elite4.h"
#include "e4t_report.h"
#include "elite4/elite4.h"
#include "fabric/fabric_topo.h"
#ifdef FABRIC_MPI
#include "fabric/fabric_mpi.h"
#endif

/* in the order of the E4T_BUG_* bits (e4t_nic.h) */
const char *const e4t_fab_bug_names[] = {"none",
                                         "fab_route_wrong_port",
                                         "fab_nic_no_token",
                                         "fab_fold_drop",
                                         "fab_traffic_skew",
                                         "fab_nack_as_ack",
                                         "fab_body_flip",
                                         "fab_body_extra",
                                         "fab_rx_drop_head",
                                         "fab_rx_tail_open",
                                         "fab_rx_tail_flip",
                                         "fab_credit_skip",
                                         "fab_record_leak",
                                         "fab_nack_forever",
                                         "fab_ack_resend",
                                         "fab_hop_dep_late",
                                         "fab_seq_skip",
                                         "fab_tail_time_late",
                                         "fab_model_grant_late",
                                         "fab_retry_uncounted",
                                         "fab_route_pad",
                                         "fab_records_cap",
                                         "fab_table_swap",
                                         "fab_route_top_up",
                                         "fab_await_lost",
                                         "fab_id_wrong",
                                         "fab_vc_record",
                                         "fab_head_time_far",
                                         NULL};
_Static_assert(sizeof e4t_fab_bug_names / sizeof e4t_fab_bug_names[0] == E4T_BUG_N + 2,
               "one name per E4T_BUG_* bit, plus none and NULL");

void e4t_cfg_default(e4t_cfg_t *c) {
  memset(c, 0, sizeof *c);
  c->nodes = 16;
  c->pattern = E4T_UNIFORM;
  c->load = 0.3;
  c->nbody = 16;
  c->policy = E4T_VC_FREE;
  c->hot_frac = 0.1;
  c->burst = 8;
  c->link_delay = 1;
  c->seed = 1;
  c->cycles = 10000;
  c->warmup = 2000;
  c->drain_max = 50000;
  c->watchdog = 5000;
  c->src_queue = 256;
  c->records = true;
  c->threads = 1;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int counters_alloc(e4t_counters_t *k, unsigned nports, unsigned nodes) {
  k->xmit_flits = calloc(nports, sizeof *k->xmit_flits);
  k->rcv_flits = calloc(nports, sizeof *k->rcv_flits);
  k->xmit_wait = calloc(nports, sizeof *k->xmit_wait);
  k->xmit_pkts = calloc(nports, sizeof *k->xmit_pkts);
  k->nic_tx = calloc(nodes, sizeof *k->nic_tx);
  return k->xmit_flits && k->rcv_flits && k->xmit_wait && k->xmit_pkts && k->nic_tx ? 0 : -ENOMEM;
}

static void counters_free(e4t_counters_t *k) {
  free(k->xmit_flits);
  free(k->rcv_flits);
  free(k->xmit_wait);
  free(k->xmit_pkts);
  free(k->nic_tx);
}

/* ---- the NIC and its traffic as an endpoint instance ---------------------- */

/* The traffic draws of node n are made ahead, from the node's own stream, up
 * to its next packet: wake() is that packet's cycle, so a skipped NIC and an
 * evaluated one consume the same draws in the same order as drawing every
 * cycle would (docs/fabric.md "The scheduler"). */
typedef struct {
  e4t_fabric_t *F;
  unsigned n;
  uint64_t drawn; /* the first cycle not drawn yet */
  uint64_t next;  /* the cycle of the next packet, FABRIC_NEVER: none in the window */
  int dst;
} nic_ep_t;

static void draw_ahead(nic_ep_t *x) {
  e4t_fabric_t *F = x->F;
  while (x->drawn < F->cfg.cycles) {
    const uint64_t c = x->drawn++;
    int d = e4t_traffic_next(&F->traffic, x->n, c, &F->gen[x->n]);
    if (d >= 0) {
      x->next = c;
      x->dst = d;
      return;
    }
  }
  x->next = FABRIC_NEVER;
}

static void *nic_create(const void *params, unsigned index, char *err, size_t errlen) {
  nic_ep_t *x = calloc(1, sizeof *x);
  e4t_fabric_t *F = (e4t_fabric_t *)(uintptr_t)params;
  if (!x) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  x->F = F;
  x->n = index - F->topo.nsw;
  draw_ahead(x);
  return x;
}
static void nic_free(void *x) { free(x); }

static void nic_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  nic_ep_t *x = p;
  e4t_fabric_t *F = x->F;
  (void)side;
  if (x->next == c) {
    e4t_nic_enqueue(&F->nic[x->n], &F->env, (unsigned)x->dst, c);
    draw_ahead(x);
  }
  e4t_flit_t rx = {in[0].valid, in[0].kind, in[0].vc, (uint32_t)in[0].data, {false, false}}, tx;
  for (unsigned v = 0; v < E4T_VCS; v++) rx.credit[v] = (in[0].credit >> v) & 1u;
  e4t_nic_step(&F->nic[x->n], &F->env, c, &rx, &tx);
  out[0] = (fabric_flit_t){tx.valid, tx.valid ? tx.kind : 0, tx.valid ? tx.vc : 0, 0, tx.valid ? tx.data : 0};
  for (unsigned v = 0; v < E4T_VCS; v++) out[0].credit |= (uint8_t)(tx.credit[v] << v);
}
static bool nic_quiet(const void *p) {
  const nic_ep_t *x = p;
  return e4t_nic_idle(&x->F->nic[x->n]);
}
static uint64_t nic_wake(void *p, uint64_t now) {
  const nic_ep_t *x = p;
  (void)now; /* never below now: the NIC evaluates in its packet's cycle */
  return x->next;
}
static const fabric_impl_t nic_impl = {nic_create, nic_free, nic_eval, NULL, nic_quiet,
                                       nic_wake,   NULL,     NULL,     NULL, NULL};
static const fabric_port_kind_t *const nic_ports[1] = {&fe4_link_kind};
static const fabric_type_t nic_type = {"elite4_nic", 1, nic_ports, 0, NULL, 0, NULL, &nic_impl, NULL};

/* ---- observers, on the core's flits and side outputs ------------------------- */

/* A flit arriving at input (s, p): the HEAD's cycle, and on its first BODY
 * (the id) the packet's hop record. */
static void observe_arrival(e4t_fabric_t *f, unsigned s, unsigned p, const fabric_flit_t *fl, uint64_t c) {
  if (!fl->valid || fl->kind == ELITE4_TOKEN) return;
  e4t_islot_t *sl = &f->islot[(s * E4T_PORTS + p) * E4T_VCS + fl->vc];
  if (fl->kind == ELITE4_HEAD) {
    sl->arr = (uint32_t)c;
    sl->grant = E4T_NONE;
    sl->id = -2; /* waiting for the id */
  } else if (fl->kind == ELITE4_BODY && sl->id == -2) {
    sl->id = -1;
    e4t_pkt_t *k = e4t_records_get(&f->rec, (uint32_t)fl->data);
    if (!k || k->nhops >= E4T_MAX_HOPS) return;
    sl->id = (int64_t)fl->data;
    sl->hop = k->nhops++;
    k->hop[sl->hop] = (e4t_hop_t){(uint16_t)s, (uint8_t)p, E4T_NO_PORT, sl->arr, sl->grant, E4T_NONE};
  }
}

static void observe_outputs(e4t_fabric_t *f, const fabric_inst_t *x, unsigned s, uint64_t c) {
  for (uint64_t m = x->side[FE4_SIDE_ALLOC]; m; m &= m - 1) {
    const unsigned b = (unsigned)__builtin_ctzll(m), p = b / E4T_VCS;
    e4t_islot_t *sl = &f->islot[s * E4T_PORTS * E4T_VCS + b];
    sl->grant = (uint32_t)(c - 1); /* the pulse shows the cycle after the grant */
    if ((f->cfg.fab_bug & E4T_BUG_MODEL_GRANT_LATE) && f->cfg.rtl[s] == E4T_SW_MODEL)
      sl->grant++; /* planted */
    e4t_pkt_t *k = sl->id >= 0 ? e4t_records_get(&f->rec, (uint32_t)sl->id) : NULL;
    if (k && sl->hop < k->nhops && k->hop[sl->hop].sw == s && k->hop[sl->hop].in == p)
      k->hop[sl->hop].grant = sl->grant;
  }
  for (unsigned p = 0; p < E4T_PORTS; p++) {
    const fabric_flit_t *fl = &x->out[p];
    if (!fl->valid) continue;
    e4t_oslot_t *sl = &f->oslot[(s * E4T_PORTS + p) * E4T_VCS + fl->vc];
    if (fl->kind == ELITE4_HEAD) {
      sl->dep = (uint32_t)c;
      sl->pending = true;
    } else if (fl->kind == ELITE4_BODY && sl->pending) {
      sl->pending = false;
      e4t_hop_t *h = e4t_records_hop(&f->rec, (uint32_t)fl->data, s);
      if (h) {
        h->out = (uint8_t)p;
        h->dep = sl->dep + ((f->cfg.fab_bug & E4T_BUG_HOP_DEP_LATE) != 0); /* planted: a cycle late */
      }
    }
  }
}

/* The port counters, read on demand from the core (nothing is copied per cycle). */
static void snapshot(e4t_fabric_t *f, e4t_counters_t *k, uint64_t c) {
  static const unsigned id[4] = {FE4_CNT_XMIT_FLITS, FE4_CNT_RCV_FLITS, FE4_CNT_XMIT_WAIT, FE4_CNT_XMIT_PKTS};
  k->cycle = c;
  for (unsigned s = 0; s < f->topo.nsw; s++)
    for (unsigned p = 0; p < E4T_PORTS; p++) {
      const unsigned i = s * E4T_PORTS + p;
      uint32_t *dst[4] = {&k->xmit_flits[i], &k->rcv_flits[i], &k->xmit_wait[i], &k->xmit_pkts[i]};
      for (unsigned j = 0; j < 4; j++) {
        uint64_t v = 0;
        fabric_counter(&f->core, s, p, id[j], &v);
        *dst[j] = (uint32_t)v;
      }
    }
  for (unsigned n = 0; n < f->cfg.nodes; n++) k->nic_tx[n] = f->nic[n].tx_flits;
}

static void observe(fabric_t *fab, void *ctx) {
  e4t_fabric_t *F = ctx;
  const uint64_t c = fab->cycle;
  const bool rec = F->cfg.records;
  if (rec)
    for (unsigned s = 0; s < F->topo.nsw; s++) {
      const fabric_inst_t *x = &fab->inst[s];
      if (!x->ran || !x->arrivals) continue;
      for (unsigned p = 0; p < E4T_PORTS; p++) observe_arrival(F, s, p, &x->in[p], c);
    }
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    const fabric_inst_t *x = &fab->inst[s];
    if (!x->ran) continue;
    for (uint64_t m = x->side[FE4_SIDE_ERR]; m; m &= m - 1) {
      const unsigned p = (unsigned)__builtin_ctzll(m);
      e4t_failf(&F->sb, c, "fabric.switch_error",
                "switch %u (level %u) raised error %u on port %u at cycle %" PRIu64, s,
                e4t_sw_level(&F->topo, s), (unsigned)(x->side[FE4_SIDE_ERR_CODE] >> (4 * p)) & 0xFu, p, c);
    }
    for (unsigned p = 0; p < E4T_PORTS; p++)
      if (F->topo.peer[s][p].kind == E4T_PEER_NONE && x->out[p].valid)
        e4t_failf(&F->sb, c, "fabric.tied_off", "switch %u sent a flit on tied-off port %u at cycle %" PRIu64,
                  s, p, c);
    if (rec) observe_outputs(F, x, s, c);
  }
  /* the core's own failures (an RTL assertion, a lockstep divergence) are the
   * first cause of their cycle: the switch's, before what the NICs saw */
  if (fab->failed && (!F->sb.failed || (F->sb.fail_cycle == c && strncmp(F->sb.fail_id, "assert:", 7) &&
                                        strcmp(F->sb.fail_id, fab->fail_check)))) {
    F->sb.failed = false;
    e4t_failf(&F->sb, c, fab->fail_check, "%s", fab->fail_msg);
  }
  if (F->env.outstanding) F->busy_cycles++; /* packets created, tokens not all back */
}

static void retire(void *ctx, uint32_t id, const e4t_pkt_t *k) {
  e4t_fabric_t *f = ctx;
  if ((f->cfg.fab_bug & E4T_BUG_FOLD_DROP) && id % 100 == 99) return; /* planted: some retire unseen */
  e4t_acc_fold(&f->acc, &f->cfg, k);
}

int e4t_cfg_check(const e4t_cfg_t *cfg, char *err, size_t errlen) {
  const unsigned N = cfg->nodes;
  err[0] = 0;
  if (N != 4 && N != 16 && N != 64 && N != 256 && N != 1024 && N != 4096)
    snprintf(err, errlen, "nodes = %u: a radix-4 fat-tree has 4, 16, 64, 256, 1024 or 4096 nodes", N);
  else if (cfg->nbody < 1 || cfg->nbody > E4T_MAX_BODY)
    snprintf(err, errlen, "body = %u: 1..%u words (word 0 is the packet id)", cfg->nbody, E4T_MAX_BODY);
  else if (!(cfg->load >= 0 && cfg->load <= 1))
    snprintf(err, errlen, "load = %g: offered flits per node per cycle, 0..1", cfg->load);
  else if (cfg->link_delay < 1 || cfg->link_delay > E4T_MAX_LINK_DELAY)
    snprintf(err, errlen, "link-delay = %u: 1..%u cycles", cfg->link_delay, E4T_MAX_LINK_DELAY);
  else if (cfg->hot_node >= N)
    snprintf(err, errlen, "hot-node = %u: there are %u nodes", cfg->hot_node, N);
  else if (!(cfg->burst >= 1 && cfg->burst <= 1e6))
    snprintf(err, errlen, "burst = %g: mean packets per burst, 1..1000000", cfg->burst);
  else if (!(cfg->hot_frac >= 0 && cfg->hot_frac <= 1))
    snprintf(err, errlen, "hot-frac = %g: 0..1", cfg->hot_frac);
  else if (!(cfg->nack_rate >= 0 && cfg->nack_rate < 1))
    snprintf(err, errlen, "nack-rate = %g: 0..1 (exclusive)", cfg->nack_rate);
  else if (cfg->warmup >= cfg->cycles)
    snprintf(err, errlen, "warmup = %" PRIu64 " must be below cycles = %" PRIu64, cfg->warmup, cfg->cycles);
  else if (cfg->src_queue < 1)
    snprintf(err, errlen, "src-queue must be at least 1");
  else if (cfg->cycles > UINT32_MAX / 2)
    snprintf(err, errlen, "cycles = %" PRIu64 ": at most %u (records hold 32-bit cycles)", cfg->cycles,
             UINT32_MAX / 2);
  if (err[0]) return -1;
  return 0;
}

int e4t_fabric_init(e4t_fabric_t *f, const e4t_cfg_t *cfg, char *err, size_t errlen) {
  memset(f, 0, sizeof *f);
  f->cfg = *cfg;
  err[0] = 0;
  if (e4t_topo_build(&f->topo, cfg->nodes)) {
    snprintf(err, errlen, "nodes = %u: a radix-4 fat-tree has 4, 16, 64, 256, 1024 or 4096 nodes",
             cfg->nodes);
    return -1;
  }
  const unsigned nsw = f->topo.nsw, N = cfg->nodes, L = cfg->nbody + 2;
  if (e4t_cfg_check(cfg, err, errlen)) return -1;

  cosim_rng_t master;
  cosim_rng_seed(&master, cfg->seed);
  f->traffic = (e4t_traffic_t){.pattern = cfg->pattern,
                               .nodes = N,
                               .p_pkt = cfg->load / L,
                               .hot_frac = cfg->hot_frac,
                               .hot_node = cfg->hot_node,
                               .trace = &f->trace,
                               .skew = (cfg->fab_bug & E4T_BUG_TRAFFIC_SKEW) != 0};
  f->traffic.burst_len = cfg->burst;
  f->traffic.flits = L;
  if (cfg->pattern == E4T_BURSTY && !(f->traffic.burst = calloc(N, sizeof *f->traffic.burst))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (cfg->pattern == E4T_REPLAY) {
    if (!cfg->replay) {
      snprintf(err, errlen, "traffic replay needs a trace file (--replay=PATH)");
      return -1;
    }
    if (e4t_trace_load(&f->trace, cfg->replay, N, cfg->cycles, err, errlen)) return -1;
  }
  int rc = 0;
  f->nic = calloc(N, sizeof *f->nic);
  f->gen = calloc(N, sizeof *f->gen);
  f->islot = calloc((size_t)nsw * E4T_PORTS * E4T_VCS, sizeof *f->islot);
  f->oslot = calloc((size_t)nsw * E4T_PORTS * E4T_VCS, sizeof *f->oslot);
  if (!f->nic || !f->gen || !f->islot || !f->oslot) rc = -ENOMEM;
  /* the packets the run is expected to create (at most 2^18 up front), so the table rarely grows */
  double expect = 1024 + (double)N * (double)cfg->cycles * f->traffic.p_pkt * 1.1;
  if (!rc)
    rc = e4t_records_init(&f->rec, expect < (1 << 18) ? (uint32_t)expect : 1u << 18, cosim_rng_u64(&master),
                          cfg->records);
  e4t_acc_init(&f->acc);
  f->rec.retire = retire; /* records off: a packet is folded into f->acc when it is done */
  f->rec.retire_ctx = f;
  if (!rc) rc = e4t_score_init(&f->sb, N, E4T_VCS);
  for (unsigned k = 0; k < 2 && !rc; k++) rc = counters_alloc(&f->cnt[k], nsw * E4T_PORTS, N);
  for (unsigned n = 0; n < N && !rc; n++) {
    cosim_rng_seed(&f->gen[n], cosim_rng_u64(&master));
    rc = e4t_nic_init(&f->nic[n], n, cfg->src_queue, cosim_rng_u64(&master));
  }
  if (rc) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < (size_t)nsw * E4T_PORTS * E4T_VCS; i++) f->islot[i].id = -1;
  f->env = (e4t_nic_env_t){.topo = &f->topo,
                           .rec = &f->rec,
                           .sb = &f->sb,
                           .policy = cfg->policy,
                           .nbody = cfg->nbody,
                           .nack_rate = cfg->nack_rate,
                           .bugs = cfg->fab_bug,
                           .win_from = cfg->warmup,
                           .win_to = cfg->cycles};
  /* the core: switches 0..nsw-1, then the NICs, wired as a 4-ary n-tree */
  fabric_t *fab = &f->core;
  fabric_init(fab);
  fab->no_skip = cfg->no_skip;
  fab->digest_on = cfg->digest;
  fab->observer = cfg->no_observer ? NULL : observe;
  fab->observer_ctx = f;
  static const fabric_mode_t mode[3] = {FABRIC_MODEL, FABRIC_RTL, FABRIC_LOCKSTEP};
#ifdef FABRIC_MPI
  for (unsigned s = 0; s < nsw; s++) /* built without the RTL (mk/elite4_fabric.mk) */
    if (cfg->rtl[s]) {
      snprintf(
          err, errlen,
          "switch %u: RTL or lockstep, but elite4_fabric_mpi is model only (elite4_fabric_core_sim has the "
          "RTL)",
          s);
      return -1;
    }
#endif
  for (unsigned s = 0; s < nsw; s++) {
    char name[16], path[1200];
    snprintf(name, sizeof name, "sw%u", s);
    const bool tr = cfg->rtl[s] && cfg->trace_dir && (!cfg->trace_only || cfg->trace_only == s + 1);
    if (tr) snprintf(path, sizeof path, "%s/sw%u.fst", cfg->trace_dir, s);
    fe4_params_t pr = {cfg->model_bug, cfg->fe4_bug, cfg->seed + s, tr ? path : NULL};
    if (fabric_add(fab, &fe4_type, mode[cfg->rtl[s] % 3], name, &pr, err, errlen) == FABRIC_NONE) return -1;
  }
  for (unsigned n = 0; n < N; n++) {
    char name[16];
    snprintf(name, sizeof name, "nic%u", n);
    const uint32_t i = fabric_add(fab, &nic_type, FABRIC_MODEL, name, f, err, errlen);
    if (i == FABRIC_NONE) return -1;
    fab->inst[i].serial = true; /* records, scoreboard and packet counts are the driver's, shared */
  }
  fabric_topo_t T;
  if (cfg->wiring) { /* a topology file's table (--topo-file) */
    rc = fabric_topo_wire(fab, cfg->wiring, 0, nsw, 0, cfg->link_delay, err, errlen);
  } else {
    rc = fabric_topo_kary_ntree(&T, 4, f->topo.levels, err, errlen);
    if (!rc) rc = fabric_topo_wire(fab, &T, 0, nsw, 0, cfg->link_delay, err, errlen);
    fabric_topo_free(&T);
  }
  if (rc) return -1;
  fab->par_bug = cfg->par_bug;
  if (cfg->mpi && cfg->threads > 1) {
    snprintf(err, errlen, "--mpi runs one part per process: not with --threads=%u", cfg->threads);
    return -1;
  }
#ifdef FABRIC_MPI
  if (cfg->mpi) return fabric_mpi_start(fab, err, errlen);
#else
  if (cfg->mpi) {
    snprintf(err, errlen, "--mpi: this binary has no MPI (build/bin/elite4_fabric_mpi has)");
    return -1;
  }
#endif
  return fabric_threads(fab, cfg->threads ? cfg->threads : 1, err, errlen);
}

void e4t_fabric_free(e4t_fabric_t *f) {
  fabric_free(&f->core); /* oldest first (fabric.c: Verilator 5.006 hangs otherwise) */
  if (f->nic)
    for (unsigned n = 0; n < f->cfg.nodes; n++) e4t_nic_free(&f->nic[n]);
  free(f->nic);
  free(f->gen);
  free(f->islot);
  free(f->oslot);
  e4t_records_free(&f->rec);
  e4t_acc_free(&f->acc);
  e4t_trace_free(&f->trace);
  free(f->traffic.burst);
  e4t_score_free(&f->sb);
  for (unsigned k = 0; k < 2; k++) counters_free(&f->cnt[k]);
  memset(f, 0, sizeof *f);
}

/* ---- the run ---------------------------------------------------------------------- */

/* One core step, jumps bounded by `limit`. */
static void core_step(e4t_fabric_t *f, uint64_t limit) {
  fabric_step(&f->core, limit);
  f->cycle = f->core.cycle;
  /* counters as the outputs showed them in the window's first and last
   * cycles: read once that cycle is over (the core's cycle has moved on) */
  if (f->cycle - 1 == f->cfg.warmup) snapshot(f, &f->cnt[0], f->cfg.warmup);
  if (f->cycle - 1 == f->cfg.cycles) snapshot(f, &f->cnt[1], f->cfg.cycles);
  f->digest = f->core.digest;
  /* a failure of the core is recorded by the observer of its cycle */
}

void e4t_fabric_step(e4t_fabric_t *f) { core_step(f, f->core.cycle + 1); }

/* The oldest unfinished packet, for a deadlock report. */
static void describe_stuck(e4t_fabric_t *f, char *buf, size_t len) {
  static const char *const st[] = {"queued", "in flight", "delivered, token not back", "done"};
  uint64_t left = 0;
  int64_t first = -1;
  for (uint32_t id = 0; id < f->rec.n; id++) {
    const e4t_pkt_t *k = e4t_records_get(&f->rec, id);
    if (k && k->state != E4T_PKT_DONE) {
      left++;
      if (first < 0) first = id;
    }
  }
  if (first < 0) {
    snprintf(buf, len, "no packet left, but a NIC is not idle");
    return;
  }
  const e4t_pkt_t *k = e4t_records_get(&f->rec, (uint32_t)first);
  char where[64] = "";
  if (k->nhops) snprintf(where, sizeof where, ", last seen at switch %u", k->hop[k->nhops - 1].sw);
  snprintf(buf, len, "%" PRIu64 " packets unfinished; oldest: packet %" PRId64 " node %u -> %u VC %u, %s%s",
           left, first, k->src, k->dst, k->vc, st[k->state], where);
}

bool e4t_fabric_done(e4t_fabric_t *f) {
  if (f->finished) return true;
  const uint64_t c = f->cycle - 1; /* the cycle just run */
  if (f->sb.failed) return f->finished = true;
  if (c >= f->cfg.cycles && f->env.outstanding == 0) {
    bool idle = true;
    for (unsigned n = 0; n < f->cfg.nodes && idle; n++) idle = e4t_nic_idle(&f->nic[n]);
    if (idle) return f->finished = true;
  }
  char why[400];
  if (c >= f->cfg.cycles + f->cfg.drain_max) {
    describe_stuck(f, why, sizeof why);
    e4t_failf(&f->sb, c, "fabric.drain",
              "deadlock: not drained %" PRIu64 " cycles after injection stopped: %s", f->cfg.drain_max, why);
    return f->finished = true;
  }
  if (f->env.outstanding && c > f->env.last_progress + f->cfg.watchdog) {
    describe_stuck(f, why, sizeof why);
    e4t_failf(&f->sb, c, "fabric.deadlock",
              "deadlock: nothing reached any NIC for %" PRIu64 " cycles (cycle %" PRIu64 "): %s",
              f->cfg.watchdog, c, why);
    return f->finished = true;
  }
  return false;
}

void e4t_fabric_run(e4t_fabric_t *f) {
  const uint64_t w = f->cfg.warmup, e = f->cfg.cycles;
  double t0 = now_s();
  do {
    /* jumps land on the window's first and last cycles (their counters are read) */
    const uint64_t c = f->core.cycle;
    core_step(f, c < w ? w : c < e ? (c == w ? w + 1 : e) : c + 1);
  } while (!e4t_fabric_done(f));
  f->wall_s = now_s() - t0;
}

static void flit_str(const fabric_flit_t *x, char *buf, size_t len) {
  snprintf(buf, len, "valid=%u kind=%u vc=%u credit=0x%x data=0x%08" PRIx64, x->valid, x->kind, x->vc,
           x->credit, x->valid ? x->data : 0);
}

bool e4t_fabric_diff(const e4t_fabric_t *a, const e4t_fabric_t *b, char *buf, size_t len) {
  static const char *const md[3] = {"model", "RTL", "lockstep"};
  for (unsigned s = 0; s < a->topo.nsw; s++) {
    const fabric_inst_t *x = &a->core.inst[s], *y = &b->core.inst[s];
    const char *ma = md[a->cfg.rtl[s] % 3], *mb = md[b->cfg.rtl[s] % 3];
    for (unsigned p = 0; p < E4T_PORTS; p++) {
      const fabric_flit_t *u = &x->out[p], *v = &y->out[p];
      if (u->valid == v->valid && u->kind == v->kind && u->vc == v->vc && u->credit == v->credit &&
          (!u->valid || u->data == v->data))
        continue;
      char su[96], sv[96];
      flit_str(u, su, sizeof su);
      flit_str(v, sv, sizeof sv);
      snprintf(buf, len, "switch %u (%s vs %s) port %u: %s vs %s", s, ma, mb, p, su, sv);
      return true;
    }
    for (unsigned k = 0; k < FE4_NSIDE; k++)
      if (x->side[k] != y->side[k]) {
        snprintf(buf, len, "switch %u (%s vs %s) %s: 0x%" PRIx64 " vs 0x%" PRIx64, s, ma, mb,
                 fe4_type.side_name[k], x->side[k], y->side[k]);
        return true;
      }
  }
  return false;
}
