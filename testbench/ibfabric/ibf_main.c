/*
 * build/bin/ibsw_fabric_sim -- ibsw switches (the C model, docs/ibsw.md) on a
 * 2-D torus of the generic fabric core with IB host endpoints, LFT routing
 * (up* / down* or dimension order, testbench/fabric/core/route_lft.c) and
 * a static "k links deactivated" mode (docs/ibsw.md §12, "In a fabric").
 *
 *   ibsw_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR]
 *       [--x=4] [--y=4] [--parallel=2] [--hosts=16] [--vls=4] [--len=32]
 *       [--traffic=uniform|bitrev] [--load=X] [--packets=N] [--routing=updn|dor]
 *       [--off=K] [--root=S] [--link-latency=N] [--route-cycles=R] [--buf=N]
 *       [--no-skip] [--inject-bug=NAME] [--expect-fail=check:ID@N]
 *   ibsw_fabric_sim --list | --help
 *
 * --cycles is the run's limit (a run not drained by then fails check
 * ibfab.timeout). Statistics over the last half of the packets (seed 000
 * §4.3.1: 80,000 packets, the last 40,000): throughput = data flits received
 * between the creation of packet N/2 and of packet N, per host and cycle;
 * latency over each host's second half. First line `seed: N`; last line
 * `TEST PASSED` or `TEST FAILED: <reason>` after a `rerun:` line. Bad flags:
 * a message on stderr, exit status 2, no verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/fabric_ibsw.h"
#include "fabric/core/route_lft.h"
#include "fabric/fabric.h"
#include "fabric/fabric_topo.h"
#include "ibfabric/ibf_host.h"

typedef struct {
  unsigned x, y, pl, hosts, vls, len, traffic, routing, off, root, lat, rcycles, buf, boot, wake, sample;
  double load;
  uint64_t packets, cycles, seed;
  bool no_skip;
  const char *bug, *expect, *test, *out;
} cfg_t;

static const struct {
  const char *name, *purpose;
} tests[] = {
    {"smoke", "4x4 torus, 2 parallel links, 16 hosts/switch, up*/down*, uniform 0.3, 8,000 packets"},
    {"dor_bitrev_off", "as smoke with DOR, bit-reversal 0.3 and 16 links deactivated by MADs"},
    {"updn_off", "as smoke with 24 links deactivated by MADs"},
    {"skip_vs_noskip", "the smoke run with and without skipping: identical output digests"},
    {"train",
     "as smoke without BootActive: every link trains (TS1/TS2, W = 64), the SM arms and activates every\n"
     "                 switch port by MADs, then deactivates 8 links"},
    {"sample",
     "as smoke with the SM reading PortCounters of every inter-switch port by MADs during the traffic"},
    {"run", "one run with the flags given (the default)"},
};

static const char *const bug_names[] = {"none",       "seq_skip",
                                        "body_flip",  "drop_last",
                                        "lft_wrong",  "lft_top_low",
                                        "sm_one_end", "sm_bad_set",
                                        "quiet_lies", "power_counts_disabled",
                                        "dor_one_vl", "host_skips_training",
                                        NULL};

static const char *rerun_line;

static int usage_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ibsw_fabric_sim: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see --help)\n");
  va_end(ap);
  return 2;
}

/* --expect-fail=check:ID@CYCLE inverts the verdict: passes only if exactly that check fails there. */
static int verdict(bool ok, const cfg_t *c, const char *id, uint64_t cycle, const char *why) {
  char msg[800];
  snprintf(msg, sizeof msg, "check:%s@%" PRIu64 ": %s", id, cycle, why);
  if (!c->expect) {
    if (ok) {
      printf("TEST PASSED\n");
      return 0;
    }
    printf("rerun: %s\nTEST FAILED: %s\n", rerun_line, msg);
    return 1;
  }
  char want[200];
  snprintf(want, sizeof want, "%s", c->expect);
  char got[200];
  snprintf(got, sizeof got, "check:%s@%" PRIu64, id, cycle);
  if (!ok && !strcmp(got, want)) {
    printf("expected failure caught: %s\nTEST PASSED\n", msg);
    return 0;
  }
  printf("rerun: %s\nTEST FAILED: expected %s, %s%s\n", rerun_line, want, ok ? "and the run passed" : "got ",
         ok ? "" : msg);
  return 1;
}

static bool parse_u64(const char *s, uint64_t *v) {
  if (!*s) return false;
  char *e;
  unsigned long long x = strtoull(s, &e, 10);
  if (*e || *s == '-') return false;
  *v = x;
  return true;
}

static bool in_range(uint64_t u, uint64_t lo, uint64_t hi) { return u >= lo && u <= hi; }

static int bug_id(const char *b) {
  for (int i = 0; bug_names[i]; i++)
    if (!strcmp(bug_names[i], b)) return i;
  return -1;
}
static bool bug_is(const cfg_t *c, const char *b) { return c->bug && !strcmp(c->bug, b); }

/* ---- the fabric run ---------------------------------------------------------------- */

/* One step of the SM's bring-up and deactivation list (docs/ibsw.md §13). */
enum { OP_GET_UP, OP_SET_ARM, OP_SET_ACT, OP_SET_OFF, OP_GET_OFF };
static const char *const op_names[] = {"Get PortInfo (LinkUp?)", "Set PortInfo Armed", "Set PortInfo Active",
                                       "Set PortInfo Disabled", "Get PortInfo (Disabled?)"};
typedef struct {
  unsigned sw, port, kind; /* switch, IBA port, OP_* */
} smop_t;
typedef struct {
  unsigned sw, port;
  uint64_t xd, at; /* last PortXmitData and the cycle it was read */
} smp_t;

typedef struct {
  const cfg_t *c;
  fabric_t f;
  fabric_topo_t t;
  route_lft_t r;
  ibf_world_t w;
  uint8_t *off;
  unsigned nsw, P, nodes;
  uint32_t host0;
  fibsw_params_t sp;
  ibf_host_params_t *hp;
  /* SM */
  smop_t *ops;
  unsigned nops, cur, nset_off; /* done when cur == nops */
  bool waiting;
  uint16_t tid;
  uint64_t sent_at, op_at, mads, sm_from;
  smp_t *smp; /* --sample: the ports sampled in turn */
  unsigned nsmp, smp_cur;
  uint64_t rtt_sum, rtt_n, rtt_max, util_n, util_low, util_high;
  double util_sum;
  unsigned *par_sw, *par_port; /* BFS tree from host 0's switch over active links */
  /* statistics */
  bool snap0, snap1;
  uint64_t rx0, rx1, e0, e1, t0, t1, start;
  char check_id[32]; /* lft.<what> of a table that fails route_lft_check */
} run_t;

static void observer(fabric_t *f, void *ctx) {
  run_t *R = ctx;
  for (unsigned s = 0; s < R->nsw; s++) {
    const fabric_inst_t *x = &f->inst[s];
    if (!x->ran) continue;
    for (unsigned k = 0; k <= R->P; k++)
      if (x->side[k])
        ibf_fail(&R->w, f->cycle, "ibfab.switch_err",
                 "switch %u %s%u: error code %" PRIu64 " (docs/ibsw.md §10)", s, k < R->P ? "port " : "SMA",
                 k < R->P ? k + 1 : 0, x->side[k]);
  }
}

/* Directed route from host 0 to switch s (tags) and back (return tags). */
static void dr_routes(const run_t *R, unsigned s, uint64_t *fwd, uint64_t *ret) {
  unsigned path[64], eg[64], m = 0;
  for (unsigned v = s; v != R->t.node[0].id; v = R->par_sw[v]) path[m++] = v;
  path[m++] = R->t.node[0].id; /* path[m-1] = host 0's switch ... path[0] = s */
  assert(m <= 9);              /* setup() refused deeper tori: 9 tags of 5 bits in 48 */
  uint64_t f = 0, b = 0;
  unsigned nt = 0;
  for (unsigned i = m - 1; i > 0; i--) { /* forward: at path[i], towards path[i-1] */
    eg[i] = R->par_port[path[i - 1]];    /* the port of path[i] leading to path[i-1] */
    f |= (uint64_t)(eg[i] + 1) << (5 * nt++);
  }
  /* tag 0 at s: already zero */
  nt = 0;
  for (unsigned i = 0; i + 1 < m; i++) { /* back: at path[i] towards path[i+1] */
    const fabric_end_t *e = fabric_topo_peer(&R->t, path[i + 1], R->par_port[path[i]]);
    b |= (uint64_t)(e->port + 1) << (5 * nt++);
  }
  b |= (uint64_t)(R->t.node[0].port + 1) << (5 * nt);
  *fwd = f;
  *ret = b;
}

/* A MAD to switch sw by directed route (§7.1): class, method, attribute, AttrMod, nd data words. */
static void sm_send_mad(run_t *R, unsigned sw, unsigned cls, unsigned method, unsigned attr, unsigned mod,
                        const uint64_t *data, unsigned nd) {
  uint64_t fwd, ret, w[IBF_MAD_MAX];
  dr_routes(R, sw, &fwd, &ret);
  R->tid++;
  w[0] = UINT64_C(0xFFFF) << 48 | fwd;
  w[1] = (uint64_t)R->tid << 48 | ret;
  w[2] = (uint64_t)cls << 56 | (uint64_t)method << 48 | (uint64_t)attr << 32 | (uint64_t)mod << 16;
  for (unsigned i = 0; i < nd; i++) w[3 + i] = data[i];
  if (ibf_host_send_mad(R->f.inst[R->host0].m, w, 3 + nd) == 0) {
    R->waiting = true;
    R->sent_at = R->f.cycle;
    R->mads++;
  }
}
static void sm_send(run_t *R, unsigned sw, unsigned port, unsigned method, uint64_t data) {
  sm_send_mad(R, sw, 0x81, method, 0x0015, port, &data, 1);
}

/* Stage 1 of §13 during traffic (--sample=1): PortCounters Gets (PerfMgt, 4 words) of every active
 * inter-switch port in turn, one outstanding; each response's PortXmitData against the previous
 * sample of that port gives the link's utilisation. Stages 2-5 are not done: this only measures. */
static void sample_step(run_t *R) {
  if (!R->c->sample || !R->nsmp || R->w.delivered == R->c->packets) return;
  void *h0 = R->f.inst[R->host0].m;
  uint64_t rsp[IBF_MAD_MAX];
  unsigned n = ibf_host_recv_mad(h0, rsp);
  const uint64_t now = R->f.cycle - 1;
  if (n) {
    smp_t *p = &R->smp[R->smp_cur];
    const unsigned status = (unsigned)(rsp[2] & 0xFFFF);
    if (!R->waiting || n != 7 || (uint16_t)(rsp[1] >> 48) != R->tid || (rsp[2] >> 48 & 0xFF) != 0x81 ||
        (rsp[2] >> 56) != 0x04 || status) {
      ibf_fail(&R->w, now, "ibfab.mad",
               "SM: PortCounters of switch %u port %u: bad response (status 0x%04x, %u words)", p->sw,
               p->port, status, n);
      return;
    }
    R->waiting = false;
    const uint64_t rtt = now - R->sent_at;
    R->rtt_sum += rtt;
    R->rtt_n++;
    if (rtt > R->rtt_max) R->rtt_max = rtt;
    const uint64_t xd = rsp[3] >> 32; /* PortXmitData, 4-octet units: 2 per flit */
    if (p->at && now > p->at) {
      const double u = (double)(xd - p->xd) / 2.0 / (double)(now - p->at);
      R->util_sum += u;
      R->util_n++;
      if (u < 0.1) R->util_low++;
      if (u > 0.5) R->util_high++;
    }
    p->xd = xd;
    p->at = now;
    R->smp_cur = (R->smp_cur + 1) % R->nsmp;
  }
  if (R->waiting) {
    if (now > R->sent_at + 20000)
      ibf_fail(&R->w, now, "ibfab.sm", "SM: PortCounters of switch %u port %u unanswered for 20,000 cycles",
               R->smp[R->smp_cur].sw, R->smp[R->smp_cur].port);
    return;
  }
  const uint64_t zero[4] = {0, 0, 0, 0};
  sm_send_mad(R, R->smp[R->smp_cur].sw, 0x04, 0x01, 0x0012, R->smp[R->smp_cur].port, zero, 4);
}

/* The SM's list, one MAD outstanding: a Set must answer status 0; a Get is repeated until the port
 * is in the state asked for (20,000 cycles at most, check ibfab.sm). */
static void sm_step(run_t *R) {
  if (R->cur == R->nops || R->f.cycle == 0) return;
  void *h0 = R->f.inst[R->host0].m;
  uint64_t rsp[IBF_MAD_MAX];
  unsigned n = ibf_host_recv_mad(h0, rsp);
  const uint64_t now = R->f.cycle - 1;
  smop_t *o = &R->ops[R->cur];
  if (n) {
    if (!R->waiting || n != 4 || (uint16_t)(rsp[1] >> 48) != R->tid || (rsp[2] >> 48 & 0xFF) != 0x81) {
      ibf_fail(&R->w, now, "ibfab.mad", "SM: unexpected response (TID %u, %u words)",
               (unsigned)(rsp[1] >> 48), n);
      return;
    }
    const unsigned status = (unsigned)(rsp[2] & 0xFFFF), phys = (unsigned)(rsp[3] >> 56 & 0xF);
    if (status) {
      ibf_fail(&R->w, now, "ibfab.mad", "SM: switch %u port %u: %s status 0x%04x", o->sw, o->port,
               op_names[o->kind], status);
      return;
    }
    R->waiting = false;
    const bool done = o->kind == OP_GET_UP    ? phys == IBSW_LINKUP
                      : o->kind == OP_GET_OFF ? phys == IBSW_DISABLED
                                              : true;
    if (done) {
      R->cur++;
      R->op_at = now;
      if (R->cur == R->nops) return;
      o = &R->ops[R->cur];
    }
  }
  if (R->waiting || now < R->sm_from) return;
  if (now > R->op_at + 20000) {
    ibf_fail(&R->w, now, "ibfab.sm", "SM: switch %u port %u: %s not done 20,000 cycles after its turn", o->sw,
             o->port, op_names[o->kind]);
    return;
  }
  if (o->kind == OP_SET_OFF && bug_is(R->c, "sm_one_end") &&
      R->cur == R->nset_off + 1) { /* planted: one end never told */
    R->cur++;
    return;
  }
  static const uint64_t data[] = {0, (uint64_t)IBSW_ARMED << 60, (uint64_t)IBSW_ACTIVE << 60,
                                  (uint64_t)IBSW_DISABLED << 56, 0};
  uint64_t d = data[o->kind];
  if (o->kind == OP_SET_OFF && bug_is(R->c, "sm_bad_set") && R->cur == R->nset_off + 2)
    d |= (uint64_t)1 << 60; /* planted: both fields set, 0x001C */
  sm_send(R, o->sw, o->port, o->kind == OP_GET_UP || o->kind == OP_GET_OFF ? 0x01 : 0x02, d);
}

static int setup(run_t *R, const cfg_t *c, bool no_skip, char *err, size_t errlen) {
  memset(R, 0, sizeof *R);
  R->c = c;
  if (fabric_topo_torus2d(&R->t, c->x, c->y, c->pl, c->hosts, err, errlen)) return -1;
  R->nsw = R->t.nsw;
  R->P = R->t.sw_ports;
  R->nodes = R->t.nodes;
  if (R->P > 31) {
    snprintf(err, errlen, "--hosts + 4 * --parallel = %u switch ports, at most 31 (docs/ibsw.md §2)", R->P);
    return -1;
  }
  if (c->traffic == IBF_BITREV && (R->nodes & (R->nodes - 1))) {
    snprintf(err, errlen, "--traffic=bitrev needs a power-of-two number of hosts (%u)", R->nodes);
    return -1;
  }
  if (R->nodes > 4095) {
    snprintf(err, errlen, "%u hosts: at most 4,095 (the HEAD's 12-bit source field)", R->nodes);
    return -1;
  }
  R->off = calloc((size_t)R->nsw * R->P, 1);
  if (route_lft_pick_off(&R->t, c->off, c->seed, R->off, err, errlen)) return -1;
  if (route_lft_build(&R->r, &R->t, (route_lft_algo_t)c->routing, R->off, c->root, err, errlen)) return -1;
  R->r.vls = c->routing == ROUTE_LFT_UPDN ? c->vls : 1;
  const char *what;
  if (bug_is(c, "dor_one_vl"))
    R->r.one_vl = true; /* planted: and the check is skipped (a deadlock's negative) */
  else if (route_lft_check(&R->r, &what, err, errlen)) {
    snprintf(R->check_id, sizeof R->check_id, "lft.%s", what);
    return -2;
  }
  if (ibf_world_init(&R->w, R->nodes, c->packets)) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  fabric_init(&R->f);
  R->f.no_skip = no_skip;
  R->f.digest_on = !strcmp(c->test, "skip_vs_noskip");
  const fabric_type_t *st = fibsw_type(R->P, c->vls, err, errlen), *ht = ibf_host_type(c->vls, err, errlen);
  if (!st || !ht) return -1;
  ibsw_cfg_t *sc = &R->sp.cfg;
  *sc = (ibsw_cfg_t){.num_ports = R->P,
                     .num_data_vls = c->vls,
                     .buf_depth = c->buf,
                     .buf15_depth = 8,
                     .route_cycles = c->rcycles,
                     .wake_cycles = c->wake,
                     .lft_blocks = (R->nodes + 1 + 63) / 64,
                     .link_speed = 3,
                     .cnt_w = 32,
                     .ext_w = 64,
                     .boot_active = c->boot,
                     .bug = 0};
  if (bug_is(c, "power_counts_disabled")) sc->bug = IBSW_BUG_POWER_COUNTS_DISABLED;
  R->sp.quiet_bug = bug_is(c, "quiet_lies") ? FIBSW_BUG_QUIET_LIES : 0;
  char name[32];
  for (unsigned s = 0; s < R->nsw; s++) {
    snprintf(name, sizeof name, "sw%u", s);
    if (fabric_add(&R->f, st, FABRIC_MODEL, name, &R->sp, err, errlen) == FABRIC_NONE) return -1;
  }
  R->hp = calloc(R->nodes, sizeof *R->hp);
  /* bit-reversal: a node whose reversal is itself has nobody to send to and injects nothing
     (ours); the others share the N packets */
  unsigned senders = 0;
  uint64_t dummy = 0;
  for (unsigned d = 0; d < R->nodes; d++) senders += ibf_dest(c->traffic, d, R->nodes, &dummy) != d;
  const uint64_t per = c->packets / senders, extra = c->packets % senders;
  unsigned si = 0;
  unsigned hbug = bug_is(c, "seq_skip")              ? IBF_BUG_SEQ_SKIP
                  : bug_is(c, "body_flip")           ? IBF_BUG_BODY_FLIP
                  : bug_is(c, "drop_last")           ? IBF_BUG_DROP_LAST
                  : bug_is(c, "host_skips_training") ? IBF_BUG_SKIP_TRAINING
                                                     : 0;
  for (unsigned d = 0; d < R->nodes; d++) {
    const bool sends = ibf_dest(c->traffic, d, R->nodes, &dummy) != d;
    R->hp[d] = (ibf_host_params_t){d,
                                   R->nodes,
                                   c->vls,
                                   c->buf,
                                   8,
                                   c->len,
                                   c->boot,
                                   c->wake,
                                   c->load,
                                   c->traffic,
                                   sends ? per + (si < extra) : 0,
                                   c->seed,
                                   &R->r,
                                   &R->w,
                                   hbug};
    si += sends;
    snprintf(name, sizeof name, "h%u", d);
    uint32_t id = fabric_add(&R->f, ht, FABRIC_MODEL, name, &R->hp[d], err, errlen);
    if (id == FABRIC_NONE) return -1;
    if (d == 0) R->host0 = id;
  }
  if (fabric_topo_wire(&R->f, &R->t, 0, R->nsw, 0, c->lat, err, errlen)) return -1;
  /* the tables, through the configuration channel (IBA port = topology port + 1) */
  for (unsigned s = 0; s < R->nsw; s++) {
    for (unsigned d = 0; d < R->nodes; d++) {
      unsigned e = R->r.lft[(size_t)s * R->nodes + d] + 1u;
      if (bug_is(c, "lft_wrong") && s == R->t.node[0].id && d == R->nodes - 1) e = R->t.node[1].port + 1u;
      if (fabric_config(&R->f, s, "lft", d + 1, e, err, errlen)) return -1;
    }
    if (fabric_config(&R->f, s, "lft_top", 0, R->nodes - bug_is(c, "lft_top_low"), err, errlen)) return -1;
  }
  R->f.observer = observer;
  R->f.observer_ctx = R;
  /* the SM's work: every deactivated end, and the directed-route tree over the active links */
  const unsigned train = !c->boot;
  R->ops = calloc((size_t)3 * R->nsw * R->P * train + 4 * c->off + 1, sizeof *R->ops);
  for (unsigned k = OP_GET_UP; train && k <= OP_SET_ACT; k++)
    for (unsigned s = 0; s < R->nsw; s++)
      for (unsigned q = 0; q < R->P; q++) R->ops[R->nops++] = (smop_t){s, q + 1, k};
  R->nset_off = R->nops;
  for (unsigned k = OP_SET_OFF; k <= OP_GET_OFF; k++)
    for (unsigned s = 0; s < R->nsw; s++)
      for (unsigned q = 0; q < R->P; q++)
        if (R->off[(size_t)s * R->P + q]) R->ops[R->nops++] = (smop_t){s, q + 1, k};
  R->smp = calloc((size_t)R->nsw * R->P + 1, sizeof *R->smp);
  for (unsigned s = 0; c->sample && s < R->nsw; s++)
    for (unsigned q = 0; q < R->P; q++)
      if (fabric_topo_peer(&R->t, s, q)->kind == FABRIC_END_SWITCH && !R->off[(size_t)s * R->P + q])
        R->smp[R->nsmp++] = (smp_t){s, q + 1, 0, 0};
  /* training: every link trains at once; the SM starts once they can be up (§6.5: W + Lk + 4) */
  R->sm_from = train ? (uint64_t)c->wake + 2 * c->lat + 16 : 0;
  R->op_at = R->sm_from;
  R->par_sw = calloc(R->nsw, sizeof *R->par_sw);
  R->par_port = calloc(R->nsw, sizeof *R->par_port);
  unsigned *q = calloc(R->nsw, sizeof *q), h = 0, n = 0;
  uint8_t *seen = calloc(R->nsw, 1);
  const unsigned s0 = R->t.node[0].id;
  q[n++] = s0;
  seen[s0] = 1;
  while (h < n) {
    unsigned s = q[h++];
    for (unsigned p = 0; p < R->P; p++) {
      const fabric_end_t *e = fabric_topo_peer(&R->t, s, p);
      if (e->kind != FABRIC_END_SWITCH || R->off[(size_t)s * R->P + p] || seen[e->id]) continue;
      seen[e->id] = 1;
      R->par_sw[e->id] = s;
      R->par_port[e->id] = p; /* s's port towards e->id */
      q[n++] = e->id;
    }
  }
  /* §3.3: a directed route holds 9 tags, so the SM reaches switches at most 8 hops from
     host 0's; deeper tags would spill into the TID (dr_routes). */
  unsigned deepest = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned d = 0;
    for (unsigned v = q[i]; v != s0; v = R->par_sw[v]) d++;
    if (d > deepest) deepest = d;
  }
  free(q);
  free(seen);
  if (deepest > 8 && (train || c->off || c->sample)) {
    snprintf(err, errlen,
             "the subnet manager's directed routes would need %u hops from host 0's switch; docs/ibsw.md "
             "section 3.3 allows 8 (a smaller torus, or no --off, --test=train or --sample)",
             deepest);
    return -1;
  }
  return 0;
}

static void teardown(run_t *R) {
  fabric_free(&R->f);
  route_lft_free(&R->r);
  fabric_topo_free(&R->t);
  ibf_world_free(&R->w);
  free(R->off);
  free(R->hp);
  free(R->ops);
  free(R->smp);
  free(R->par_sw);
  free(R->par_port);
}

static uint64_t sum_counter(run_t *R, unsigned id) {
  uint64_t t = 0, v;
  for (unsigned s = 0; s < R->nsw; s++)
    if (fabric_counter(&R->f, s, 0, id, &v) == 0) t += v;
  return t;
}

static bool hosts_up(run_t *R) {
  for (unsigned d = 0; d < R->nodes; d++)
    if (!ibf_host_link_up(R->f.inst[R->nsw + d].m)) return false;
  return true;
}

/* Runs to the end: 0 passed, 1 failed (R->w has the failure). */
static int run(run_t *R) {
  fabric_t *f = &R->f;
  const cfg_t *c = R->c;
  /* bring-up: the SM's MADs and the table writes, then traffic */
  while (!R->w.failed && (R->cur != R->nops || !fabric_idle(f) || !hosts_up(R))) {
    if (f->cycle >= c->cycles) {
      ibf_fail(&R->w, f->cycle, "ibfab.timeout", "the SM had not finished by cycle %" PRIu64, c->cycles);
      break;
    }
    sm_step(R);
    fabric_step(f, c->cycles);
  }
  if (R->w.failed) return 1;
  R->start = f->cycle;
  for (unsigned d = 0; d < R->nodes; d++) ibf_host_start(f->inst[R->nsw + d].m, R->start);
  uint64_t last_progress = f->cycle, last_seen = 0;
  while (!R->w.failed && !f->failed) {
    if (R->w.created == c->packets && fabric_idle(f)) break;
    if (f->cycle >= c->cycles) {
      ibf_fail(&R->w, f->cycle, "ibfab.timeout",
               "%" PRIu64 " of %" PRIu64 " packets delivered by cycle %" PRIu64, R->w.delivered, c->packets,
               c->cycles);
      break;
    }
    sample_step(R);
    fabric_step(f, c->cycles);
    if (!R->snap0 && R->w.half_cycle != FABRIC_NEVER) {
      R->snap0 = true;
      R->t0 = R->f.cycle - 1;
      R->rx0 = R->w.flits_rx;
      R->e0 = sum_counter(R, FIBSW_CNT_ENERGY);
    }
    /* the window ends when the first host stops creating (every host injects throughout), or
       with the last packet if that came first (too short a run to have a second half of all hosts) */
    if (!R->snap1 && R->snap0 && (R->w.first_done != FABRIC_NEVER || R->w.last_cycle != FABRIC_NEVER)) {
      R->snap1 = true;
      R->t1 = R->f.cycle - 1;
      R->rx1 = R->w.flits_rx;
      R->e1 = sum_counter(R, FIBSW_CNT_ENERGY);
    }
    if (R->w.delivered != last_seen) last_seen = R->w.delivered, last_progress = f->cycle;
    if (R->w.created == c->packets && f->cycle - last_progress > 20000) {
      ibf_fail(&R->w, f->cycle, "ibfab.deadlock",
               "no packet delivered for 20,000 cycles (%" PRIu64 " of %" PRIu64 ")", R->w.delivered,
               c->packets);
      break;
    }
  }
  if (f->failed) ibf_fail(&R->w, f->fail_cycle, f->fail_check, "%s", f->fail_msg);
  if (R->w.failed) return 1;
  /* loss: every flow's receiver saw every sequence number its sender used */
  for (unsigned s = 0; s < R->nodes; s++)
    for (unsigned d = 0; d < R->nodes; d++)
      if (R->w.next_seq[(size_t)s * R->nodes + d] != R->w.sent_seq[(size_t)s * R->nodes + d]) {
        ibf_fail(&R->w, f->cycle - 1, "ibfab.loss", "flow %u->%u: %u sent, %u delivered", s, d,
                 R->w.sent_seq[(size_t)s * R->nodes + d], R->w.next_seq[(size_t)s * R->nodes + d]);
        return 1;
      }
  /* power (§9 / seed Table 1): 43.4 W per switch + 0.95 W per powered port; every port but the
     deactivated ends is LinkUp */
  const uint64_t pw = sum_counter(R, FIBSW_CNT_POWER_MW);
  const uint64_t want = (uint64_t)R->nsw * 43400 + (uint64_t)950 * (R->nsw * R->P - 2 * c->off);
  if (pw != want) {
    ibf_fail(&R->w, f->cycle - 1, "ibfab.power", "switches draw %" PRIu64 " mW, Table 1 gives %" PRIu64 " mW",
             pw, want);
    return 1;
  }
  return 0;
}

static void report(run_t *R) {
  const cfg_t *c = R->c;
  const ibf_world_t *w = &R->w;
  const uint64_t win = R->t1 > R->t0 ? R->t1 - R->t0 : 0;
  const double thr = win ? (double)(R->rx1 - R->rx0) / win / R->nodes : 0;
  const double lat = w->lat_n ? (double)w->lat_sum / w->lat_n : 0;
  const double pw = (double)sum_counter(R, FIBSW_CNT_POWER_MW) / 1000.0;
  const double pw_all = (R->nsw * 43400.0 + 950.0 * R->nsw * R->P) / 1000.0;
  const double epw = win ? (double)(R->e1 - R->e0) / win / 1000.0 : 0;
  printf("fabric: %ux%u torus, %u parallel links, %u hosts/switch (%u ports), %u hosts, routing %s, %u links "
         "off, "
         "root %u\n",
         c->x, c->y, c->pl, c->hosts, R->P, R->nodes, route_lft_algo_names[c->routing], c->off, c->root);
  printf("bring-up: %" PRIu64 " cycles (%" PRIu64 " MADs), traffic from cycle %" PRIu64
         ", drained at %" PRIu64 "\n",
         R->start, R->mads, R->start, R->f.cycle);
  printf("packets: %" PRIu64 " delivered of %" PRIu64 "; window %" PRIu64 "..%" PRIu64 " (%" PRIu64
         " cycles: packet N/2 created .. the first host done)\n",
         w->delivered, w->total, R->t0, R->t1, win);
  printf("result: traffic=%s routing=%s off=%u load=%.4f throughput=%.4f latency=%.1f latency_max=%" PRIu64
         " power_w=%.1f power_all_w=%.1f saved_pct=%.2f energy_power_w=%.1f evals=%" PRIu64 "\n",
         c->traffic == IBF_BITREV ? "bitrev" : "uniform", route_lft_algo_names[c->routing], c->off, c->load,
         thr, lat, w->lat_max, pw, pw_all, 100.0 * (pw_all - pw) / pw_all, epw, R->f.evals);
  printf(
      "throughput: %.4f flits/cycle/host = %.0f MB/s of 2,000 (offered %.4f); latency %.1f cycles = %.0f ns "
      "(max %" PRIu64 ")\n",
      thr, thr * 2000, c->load, lat, lat * 4, w->lat_max);
  printf("power: %.1f W (all ports on: %.1f W, saved %.2f %%)\n", pw, pw_all, 100.0 * (pw_all - pw) / pw_all);
  if (c->sample)
    printf("sampling: %" PRIu64 " PortCounters MADs under traffic, round trip mean %.0f max %" PRIu64
           " cycles; %" PRIu64 " link samples, utilisation mean %.3f, %" PRIu64 " below 0.1, %" PRIu64
           " above 0.5\n",
           R->rtt_n, R->rtt_n ? (double)R->rtt_sum / R->rtt_n : 0.0, R->rtt_max, R->util_n,
           R->util_n ? R->util_sum / R->util_n : 0.0, R->util_low, R->util_high);
}

static void usage(FILE *o) {
  fprintf(o, "usage: ibsw_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--x=4] [--y=4] [--parallel=2] "
             "[--hosts=16]\n"
             "         [--vls=4] [--len=32] [--traffic=uniform|bitrev] [--load=X] [--packets=N] "
             "[--routing=updn|dor]\n"
             "         [--off=K] [--root=S] [--link-latency=N] [--route-cycles=R] [--buf=N] [--no-skip]\n"
             "         [--boot-active=1|0] [--wake-cycles=W] [--sample=0|1]\n"
             "         [--inject-bug=NAME] [--expect-fail=check:ID@CYCLE]\n"
             "       ibsw_fabric_sim --list | --help\n"
             "bugs: seq_skip body_flip drop_last lft_wrong lft_top_low sm_one_end sm_bad_set quiet_lies\n"
             "      power_counts_disabled dor_one_vl host_skips_training\n");
}

static void scenario(cfg_t *c) {
  if (!strcmp(c->test, "dor_bitrev_off")) {
    c->routing = ROUTE_LFT_DOR;
    c->traffic = IBF_BITREV;
    c->off = 16;
  } else if (!strcmp(c->test, "updn_off")) {
    c->off = 24;
  } else if (!strcmp(c->test, "sample")) {
    c->sample = 1;
  } else if (!strcmp(c->test, "train")) {
    c->boot = 0;
    c->wake = 64;
    c->off = 8;
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--list")) {
      for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
        printf("%-16s %s\n", tests[k].name, tests[k].purpose);
      return 0;
    }
  }
  cfg_t c = {.x = 4,
             .y = 4,
             .pl = 2,
             .hosts = 16,
             .vls = 4,
             .len = 32,
             .traffic = IBF_UNIFORM,
             .routing = ROUTE_LFT_UPDN,
             .off = 0,
             .root = 0,
             .lat = 1,
             .rcycles = 25,
             .buf = 16,
             .load = 0.3,
             .packets = 8000,
             .cycles = 1000000,
             .seed = 1,
             .test = "run",
             .boot = 1,
             .wake = 1024};
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--seed=", 7) && !parse_u64(argv[i] + 7, &c.seed))
      return usage_fail("bad --seed '%s' (expected an unsigned integer)", argv[i] + 7);
  printf("seed: %" PRIu64 "\n", c.seed);
  static char rr[4096];
  size_t k = (size_t)snprintf(rr, sizeof rr, "%s --seed=%" PRIu64, argv[0], c.seed);
  for (int i = 1; i < argc && k < sizeof rr; i++)
    if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--name=", 7) && strncmp(argv[i], "--out=", 6))
      k += (size_t)snprintf(rr + k, sizeof rr - k, " %s", argv[i]);
  rerun_line = rr;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--test=", 7)) c.test = argv[i] + 7;
  size_t ti = 0;
  while (ti < sizeof tests / sizeof tests[0] && strcmp(tests[ti].name, c.test)) ti++;
  if (ti == sizeof tests / sizeof tests[0])
    return usage_fail("--test: no test '%s' (--list names them)", c.test);
  scenario(&c);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = strchr(a, '=');
    v = v ? v + 1 : "";
    uint64_t u = 0;
    bool isnum = parse_u64(v, &u);
#define NUM(flag, field, lo, hi)                                                                      \
  if (!strncmp(a, flag "=", sizeof flag)) {                                                           \
    if (!isnum || !in_range(u, lo, hi))                                                               \
      return usage_fail("%s '%s': expected an integer %llu..%llu", flag, v, (unsigned long long)(lo), \
                        (unsigned long long)(hi));                                                    \
    c.field = u;                                                                                      \
    continue;                                                                                         \
  }
    NUM("--x", x, 2, 64)
    NUM("--y", y, 2, 64)
    NUM("--parallel", pl, 1, 7)
    NUM("--hosts", hosts, 1, 29)
    NUM("--vls", vls, 2, 7)
    NUM("--len", len, 2, 256)
    NUM("--off", off, 0, 100000)
    NUM("--root", root, 0, 4095)
    NUM("--link-latency", lat, 1, 4096)
    NUM("--route-cycles", rcycles, 5, 255)
    NUM("--buf", buf, 4, 256)
    NUM("--boot-active", boot, 0, 1)
    NUM("--sample", sample, 0, 1)
    NUM("--wake-cycles", wake, 1, 16777215)
    NUM("--packets", packets, 2, 100000000)
    NUM("--cycles", cycles, 1, UINT64_MAX)
#undef NUM
    if (!strncmp(a, "--seed=", 7) || !strncmp(a, "--test=", 7) || !strncmp(a, "--name=", 7)) continue;
    if (!strncmp(a, "--out=", 6)) {
      c.out = v;
      continue;
    }
    if (!strcmp(a, "--no-skip")) {
      c.no_skip = true;
      continue;
    }
    if (!strncmp(a, "--load=", 7)) {
      char *e;
      c.load = strtod(v, &e);
      if (*e || !*v || !(c.load >= 0 && c.load <= 1))
        return usage_fail("--load '%s': expected a number 0..1", v);
      continue;
    }
    if (!strncmp(a, "--traffic=", 10)) {
      if (!strcmp(v, "uniform"))
        c.traffic = IBF_UNIFORM;
      else if (!strcmp(v, "bitrev"))
        c.traffic = IBF_BITREV;
      else
        return usage_fail("--traffic '%s': expected uniform or bitrev", v);
      continue;
    }
    if (!strncmp(a, "--routing=", 10)) {
      if (!strcmp(v, "updn"))
        c.routing = ROUTE_LFT_UPDN;
      else if (!strcmp(v, "dor"))
        c.routing = ROUTE_LFT_DOR;
      else
        return usage_fail("--routing '%s': expected updn or dor", v);
      continue;
    }
    if (!strncmp(a, "--inject-bug=", 13)) {
      if (bug_id(v) < 0) return usage_fail("--inject-bug '%s': no such bug (--help lists them)", v);
      c.bug = bug_id(v) ? v : NULL;
      continue;
    }
    if (!strncmp(a, "--expect-fail=", 14)) {
      const char *at = strrchr(v, '@');
      uint64_t cy;
      if (strncmp(v, "check:", 6) || !at || at == v + 6 || !parse_u64(at + 1, &cy))
        return usage_fail("--expect-fail '%s': expected check:ID@CYCLE", v);
      c.expect = v;
      continue;
    }
    return usage_fail("unknown argument '%s'", a);
  }
  if (c.vls < 4 && c.routing == ROUTE_LFT_DOR)
    return usage_fail("--routing=dor needs --vls=4 or more (%u)", c.vls);
  if (c.root >= c.x * c.y) return usage_fail("--root %u: out of range 0..%u", c.root, c.x * c.y - 1);

  char err[512];
  static run_t A, B;
  int rc = setup(&A, &c, c.no_skip, err, sizeof err);
  if (rc == -2) return verdict(false, &c, A.check_id, 0, err);
  if (rc) {
    teardown(&A);
    return usage_fail("%s", err);
  }
  int bad = run(&A);
  if (!bad) report(&A);
  if (!bad && !strcmp(c.test, "skip_vs_noskip")) {
    if (setup(&B, &c, true, err, sizeof err)) return usage_fail("%s", err);
    int bad2 = run(&B);
    uint64_t dc = 0;
    bool diff = fabric_digest_diff(&A.f, &B.f, &dc);
    if (bad2) {
      ibf_fail(&A.w, B.w.fail_cycle, B.w.fail_check, "without skipping: %s", B.w.fail_msg);
    } else if (diff || A.f.cycle != B.f.cycle) {
      if (!diff) dc = A.f.cycle < B.f.cycle ? A.f.cycle : B.f.cycle;
      ibf_fail(&A.w, dc, "ibfab.skip_vs_noskip",
               "outputs differ from cycle %" PRIu64 " (end %" PRIu64 " vs %" PRIu64 ")", dc, A.f.cycle,
               B.f.cycle);
    } else {
      printf("check: ok   skip vs no skip: identical output digests over %" PRIu64
             " cycles; evaluations %" PRIu64 " vs %" PRIu64 "\n",
             A.f.cycle, A.f.evals, B.f.evals);
    }
    bad = A.w.failed;
    teardown(&B);
  } else if (!bad) {
    printf("check: ok   every packet delivered once, in order, intact, to its host; no switch error; power "
           "as Table 1\n");
  }
  char why[400];
  snprintf(why, sizeof why, "%s", A.w.fail_msg);
  char id[48];
  snprintf(id, sizeof id, "%s", A.w.fail_check);
  uint64_t fc = A.w.fail_cycle;
  teardown(&A);
  return verdict(!bad, &c, bad ? id : "ibfab", bad ? fc : 0, why);
}
