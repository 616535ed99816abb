/*
 * build/bin/elite4_fabric_core_sim -- the elite4 fat trees on the generic
 * fabric core (csim/fabric/, docs/fabric.md "elite4 on the core"), checked
 * against today's fabric (testbench/fabric/e4f_fabric.c) and against itself
 * without skipping:
 *
 *   core_vs_e4f      the same fabric through e4f_fabric.c and through the
 *                    core (switches: instance type elite4_p8 of
 *                    testbench/bind/fabric_elite4.c, model or RTL per switch;
 *                    NICs: the endpoint below); per-packet records, verdict,
 *                    end cycle and NIC counters must be identical
 *                    (check fabric.core_vs_e4f);
 *   skip_vs_noskip   the core with skipping (idle switches, idle NICs, idle
 *                    time) and without: identical records and identical
 *                    per-cycle output digests (check fabric.skip_vs_noskip,
 *                    at the first cycle whose digest differs, else the end).
 *   both (default)   both checks;
 *   core             the core path alone (its own verdict; for speed and RSS).
 *
 *   elite4_fabric_core_sim [--test=core_vs_e4f|skip_vs_noskip|both|core|bench]
 *       [--nodes=4|16|64|256] [--traffic=uniform|complement|hotspot]
 *       [--load=X] [--body=N] [--cycles=N] [--seed=N] [--link-delay=N]
 *       [--rtl=none|all|LIST] [--mode=model|rtl] [--nack-rate=X]
 *       [--records=on|off] [--inject-bug=NAME] [--expect-fail=check:ID@N]
 *       [--name=X] [--out=DIR]
 *
 * --inject-bug=fe4_quiet_lies plants a quiet() that looks at buffers and VC
 * states only (the negative of fabric.skip_vs_noskip), fe4_drop_credit a
 * binding that drops VC 1 credits on port 0 of every core switch (the
 * negative of fabric.core_vs_e4f); elite4 model bugs go
 * into every model switch of every path. --test=bench runs the three paths
 * and prints their node-cycles/s and peak RSS (no check). The NIC endpoint
 * and the observers here wrap e4f_nic.c, e4f_records.c and e4f_score.c; they
 * move into the new fabric binary when it replaces elite4_fabric_sim
 * (docs/fabric.md "Not done yet").
 *
 * First line `seed: N`; last line `TEST PASSED` or `TEST FAILED: check:ID@N: why`
 * (with a rerun line); bad flags: exit status 2, no verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bind/fabric_elite4.h"
#include "elite4/elite4.h"
#include "fabric/e4f_fabric.h"
#include "fabric/fabric.h"
#include "fabric/fabric_topo.h"
#include "route_elite.h"

/* ---- the NIC and its traffic as an endpoint instance ---------------------- */

/* The traffic draws of node n are made ahead, from the node's own stream, up
 * to its next packet: wake() is that packet's cycle, so a skipped NIC and an
 * evaluated one consume the same draws in the same order. */
typedef struct {
  e4f_fabric_t *F;
  unsigned n;
  uint64_t drawn; /* the first cycle not drawn yet */
  uint64_t next;  /* the cycle of the next packet, FABRIC_NEVER: none in the window */
  int dst;
} nic_ep_t;

static void draw_ahead(nic_ep_t *x) {
  const e4f_fabric_t *F = x->F;
  while (x->drawn < F->cfg.cycles) {
    const uint64_t c = x->drawn++;
    int d = e4f_traffic_next(&F->traffic, x->n, &x->F->gen[x->n]);
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
  e4f_fabric_t *F = (e4f_fabric_t *)(uintptr_t)params;
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

static void to_e4f(const fabric_flit_t *a, e4f_flit_t *b) {
  b->valid = a->valid;
  b->kind = a->kind;
  b->vc = a->vc;
  b->data = (uint32_t)a->data;
  for (unsigned v = 0; v < E4F_VCS; v++) b->credit[v] = (a->credit >> v) & 1u;
}

static void nic_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  nic_ep_t *x = p;
  e4f_fabric_t *F = x->F;
  (void)side;
  if (x->next == c) {
    e4f_nic_enqueue(&F->nic[x->n], &F->env, (unsigned)x->dst, c);
    draw_ahead(x);
  }
  e4f_flit_t rx, tx;
  to_e4f(&in[0], &rx);
  e4f_nic_step(&F->nic[x->n], &F->env, c, &rx, &tx);
  out[0] = (fabric_flit_t){tx.valid, tx.valid ? tx.kind : 0, tx.valid ? tx.vc : 0, 0, tx.valid ? tx.data : 0};
  for (unsigned v = 0; v < E4F_VCS; v++) out[0].credit |= (uint8_t)(tx.credit[v] << v);
}
static bool nic_quiet(const void *p) {
  const nic_ep_t *x = p;
  return e4f_nic_idle(&x->F->nic[x->n]);
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

/* ---- observers (as e4f_fabric.c's, on the core's flits and side outputs) --- */

static void observe_arrival(e4f_fabric_t *f, unsigned s, unsigned p, const fabric_flit_t *fl, uint64_t c) {
  if (!fl->valid || fl->kind == ELITE4_TOKEN) return;
  e4f_islot_t *sl = &f->islot[(s * E4F_PORTS + p) * E4F_VCS + fl->vc];
  if (fl->kind == ELITE4_HEAD) {
    sl->arr = (uint32_t)c;
    sl->grant = E4F_NONE;
    sl->id = -2;
  } else if (fl->kind == ELITE4_BODY && sl->id == -2) {
    sl->id = -1;
    if (fl->data >= f->rec.n) return;
    e4f_pkt_t *k = &f->rec.p[fl->data];
    if (k->nhops >= E4F_MAX_HOPS) return;
    sl->id = (int64_t)fl->data;
    sl->hop = k->nhops++;
    k->hop[sl->hop] = (e4f_hop_t){(uint16_t)s, (uint8_t)p, E4F_NO_PORT, sl->arr, sl->grant, E4F_NONE};
  }
}

static void observe_outputs(e4f_fabric_t *f, const fabric_inst_t *x, unsigned s, uint64_t c) {
  const uint64_t alloc = x->side[FE4_SIDE_ALLOC];
  for (uint64_t m = alloc; m; m &= m - 1) {
    const unsigned b = (unsigned)__builtin_ctzll(m), p = b / E4F_VCS;
    e4f_islot_t *sl = &f->islot[s * E4F_PORTS * E4F_VCS + b];
    sl->grant = (uint32_t)(c - 1); /* the pulse shows the cycle after the grant */
    if (sl->id >= 0) {
      e4f_pkt_t *k = &f->rec.p[sl->id];
      if (sl->hop < k->nhops && k->hop[sl->hop].sw == s && k->hop[sl->hop].in == p)
        k->hop[sl->hop].grant = sl->grant;
    }
  }
  for (unsigned p = 0; p < E4F_PORTS; p++) {
    const fabric_flit_t *fl = &x->out[p];
    if (!fl->valid) continue;
    e4f_oslot_t *sl = &f->oslot[(s * E4F_PORTS + p) * E4F_VCS + fl->vc];
    if (fl->kind == ELITE4_HEAD) {
      sl->dep = (uint32_t)c;
      sl->pending = true;
    } else if (fl->kind == ELITE4_BODY && sl->pending) {
      sl->pending = false;
      e4f_hop_t *h = e4f_records_hop(&f->rec, (uint32_t)fl->data, s);
      if (h) {
        h->out = (uint8_t)p;
        h->dep = sl->dep;
      }
    }
  }
}

static void observe(fabric_t *fab, void *ctx) {
  e4f_fabric_t *F = ctx;
  const uint64_t c = fab->cycle;
  const bool rec = F->cfg.records;
  if (rec)
    for (unsigned s = 0; s < F->topo.nsw; s++) {
      const fabric_inst_t *x = &fab->inst[s];
      if (!x->ran || !x->arrivals) continue;
      for (unsigned p = 0; p < E4F_PORTS; p++) observe_arrival(F, s, p, &x->in[p], c);
    }
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    const fabric_inst_t *x = &fab->inst[s];
    if (!x->ran) continue;
    for (uint64_t m = x->side[FE4_SIDE_ERR]; m; m &= m - 1) {
      const unsigned p = (unsigned)__builtin_ctzll(m);
      e4f_failf(&F->sb, c, "fabric.switch_error",
                "switch %u (level %u) raised error %u on port %u at cycle %" PRIu64, s,
                e4f_sw_level(&F->topo, s), (unsigned)(x->side[FE4_SIDE_ERR_CODE] >> (4 * p)) & 0xFu, p, c);
    }
    for (unsigned p = 0; p < E4F_PORTS; p++)
      if (F->topo.peer[s][p].kind == E4F_PEER_NONE && x->out[p].valid)
        e4f_failf(&F->sb, c, "fabric.tied_off", "switch %u sent a flit on tied-off port %u at cycle %" PRIu64,
                  s, p, c);
    if (rec) observe_outputs(F, x, s, c);
  }
  /* an RTL assertion is the first cause of its cycle (as in e4f_fabric.c) */
  if (fab->failed && !strncmp(fab->fail_check, "assert:", 7) &&
      (!F->sb.failed || (F->sb.fail_cycle == c && strncmp(F->sb.fail_id, "assert:", 7)))) {
    F->sb.failed = false;
    e4f_failf(&F->sb, c, fab->fail_check, "%s", fab->fail_msg);
  }
  if (F->env.outstanding) F->busy_cycles++;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run on the core: F holds NICs, records and scoreboard (its own switch
 * objects are not used); the switches are fe4_type instances. */
typedef struct {
  e4f_fabric_t *F;
  fabric_t fab;
  uint8_t rtl[E4F_MAX_SW];
} core_run_t;

static int run_core(core_run_t *R, const e4f_cfg_t *cfg, unsigned quiet_bug, bool no_skip, char *err,
                    size_t errlen) {
  e4f_cfg_t c0 = *cfg;
  memset(c0.rtl, 0, sizeof c0.rtl); /* F's own switches: cheap models, unused */
  R->F = calloc(1, sizeof *R->F);
  if (!R->F) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (e4f_fabric_init(R->F, &c0, err, errlen)) return -1;
  e4f_fabric_t *F = R->F;
  fabric_t *fab = &R->fab;
  fabric_init(fab);
  fab->no_skip = no_skip;
  fab->digest_on = true;
  fab->observer = observe;
  fab->observer_ctx = F;
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    char name[16];
    snprintf(name, sizeof name, "sw%u", s);
    fe4_params_t pr = {cfg->model_bug, quiet_bug, cfg->seed + s, NULL};
    if (fabric_add(fab, &fe4_type, cfg->rtl[s] ? FABRIC_RTL : FABRIC_MODEL, name, &pr, err, errlen) ==
        FABRIC_NONE)
      return -1;
  }
  for (unsigned n = 0; n < F->cfg.nodes; n++) {
    char name[16];
    snprintf(name, sizeof name, "nic%u", n);
    if (fabric_add(fab, &nic_type, FABRIC_MODEL, name, F, err, errlen) == FABRIC_NONE) return -1;
  }
  /* wired by the generic k-ary n-tree builder (checked against e4f_topo by tables_agree) */
  fabric_topo_t T;
  int rc = fabric_topo_kary_ntree(&T, 4, F->topo.levels, err, errlen);
  if (!rc) rc = fabric_topo_wire(fab, &T, 0, F->topo.nsw, 0, F->cfg.link_delay, err, errlen);
  fabric_topo_free(&T);
  if (rc) return -1;
  double t0 = now_s();
  do {
    /* never jump past the end of the injection window: the run may end there */
    const uint64_t limit = fab->cycle <= F->cfg.cycles ? F->cfg.cycles + 1 : fab->cycle + 1;
    fabric_step(fab, limit);
    F->cycle = fab->cycle;
  } while (!e4f_fabric_done(F));
  F->wall_s = now_s() - t0;
  return 0;
}

static void core_free(core_run_t *R) {
  fabric_free(&R->fab);
  if (R->F) e4f_fabric_free(R->F);
  free(R->F);
}

static bool hop_eq(const e4f_hop_t *a, const e4f_hop_t *b) {
  return a->sw == b->sw && a->in == b->in && a->out == b->out && a->arr == b->arr && a->grant == b->grant &&
         a->dep == b->dep;
}
static bool pkt_eq(const e4f_pkt_t *a, const e4f_pkt_t *b) {
  if (a->src != b->src || a->dst != b->dst || a->vc != b->vc || a->nsw != b->nsw || a->nhops != b->nhops ||
      a->tries != b->tries || a->state != b->state || a->nbody != b->nbody || a->seq != b->seq ||
      a->route != b->route || a->crc != b->crc || a->t_create != b->t_create || a->t_inject != b->t_inject ||
      a->t_head_rx != b->t_head_rx || a->t_tail_rx != b->t_tail_rx || a->t_done != b->t_done)
    return false;
  for (unsigned h = 0; h < a->nhops && h < E4F_MAX_HOPS; h++)
    if (!hop_eq(&a->hop[h], &b->hop[h])) return false;
  return true;
}

/* Two runs' results: why they differ (empty: identical); *cycle: where. */
static void compare(const e4f_fabric_t *A, const e4f_fabric_t *B, char *why, size_t len, uint64_t *cycle) {
  why[0] = 0;
  *cycle = A->cycle - 1;
  if (A->cycle != B->cycle)
    snprintf(why, len, "end cycle %" PRIu64 " vs %" PRIu64, A->cycle - 1, B->cycle - 1);
  else if (A->sb.failed != B->sb.failed ||
           (A->sb.failed && (strcmp(A->sb.fail_id, B->sb.fail_id) || A->sb.fail_cycle != B->sb.fail_cycle)))
    snprintf(why, len, "verdict differs: %s@%" PRIu64 " vs %s@%" PRIu64,
             A->sb.failed ? A->sb.fail_id : "pass", A->sb.failed ? A->sb.fail_cycle : 0,
             B->sb.failed ? B->sb.fail_id : "pass", B->sb.failed ? B->sb.fail_cycle : 0);
  else if (A->rec.n != B->rec.n)
    snprintf(why, len, "%u vs %u packets", A->rec.n, B->rec.n);
  else if (A->env.outstanding != B->env.outstanding || A->env.win_flits != B->env.win_flits ||
           A->env.refused != B->env.refused || A->env.retries != B->env.retries ||
           A->busy_cycles != B->busy_cycles)
    snprintf(why, len, "NIC counters or busy cycles differ");
  for (uint32_t k = 0; !why[0] && k < A->rec.n; k++)
    if (!pkt_eq(&A->rec.p[k], &B->rec.p[k])) {
      const e4f_pkt_t *a = &A->rec.p[k], *b = &B->rec.p[k];
      snprintf(why, len, "packet %u's record differs (created %u/%u, tail_rx %u/%u, hops %u/%u)", k,
               a->t_create, b->t_create, a->t_tail_rx, b->t_tail_rx, a->nhops, b->nhops);
      *cycle = a->t_create < b->t_create ? a->t_create : b->t_create;
    }
}

/* The generic builder's 4-ary n-tree and the Elite route plug-in against
 * e4f_topo's wiring table and routes, every switch port and every (src, dst). */
static bool tables_agree(unsigned nodes, char *why, size_t len) {
  e4f_topo_t *E = calloc(1, sizeof *E);
  fabric_topo_t T;
  char err[200];
  why[0] = 0;
  if (!E || e4f_topo_build(E, nodes) || fabric_topo_kary_ntree(&T, 4, E->levels, err, sizeof err)) {
    snprintf(why, len, "topology not built");
    free(E);
    return false;
  }
  for (unsigned s = 0; !why[0] && s < E->nsw; s++)
    for (unsigned q = 0; !why[0] && q < E4F_PORTS; q++) {
      const e4f_peer_t *a = &E->peer[s][q];
      const fabric_end_t *b = fabric_topo_peer(&T, s, q);
      const bool same =
          (a->kind == E4F_PEER_NONE && b->kind == FABRIC_END_NONE) ||
          (a->kind == E4F_PEER_NIC && b->kind == FABRIC_END_NODE && a->id == b->id) ||
          (a->kind == E4F_PEER_SW && b->kind == FABRIC_END_SWITCH && a->id == b->id && a->port == b->port);
      if (!same) snprintf(why, len, "switch %u port %u: e4f_topo and fabric_topo_kary_ntree differ", s, q);
    }
  for (unsigned a = 0; !why[0] && a < nodes; a++)
    for (unsigned b = 0; !why[0] && b < nodes; b++) {
      uint32_t w0;
      uint8_t tags[E4F_MAX_HOPS];
      unsigned n0 = e4f_route(E, a, b, &w0, tags), n1 = 0;
      uint64_t w1 = 0;
      if (route_elite.route(route_elite.ctx, &T, a, b, &w1, &n1, err, sizeof err) || w1 != w0 || n1 != n0)
        snprintf(why, len, "route %u -> %u: e4f_route 0x%08x (%u tags), plug-in 0x%08" PRIx64 " (%u)", a, b,
                 w0, n0, w1, n1);
    }
  fabric_topo_free(&T);
  free(E);
  return !why[0];
}

static long rss_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "elite4_fabric_core_sim: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see the header of testbench/fabric/core/e4core_cmp.c)\n");
  return 2;
}

static int argc_g;
static char **argv_g;
static int verdict(const char *expect, const char *id, uint64_t cycle, const char *why) {
  char got[200] = "";
  if (why[0])
    snprintf(got, sizeof got, "%s%s@%" PRIu64, strncmp(id, "assert:", 7) ? "check:" : "", id, cycle);
  if (expect && !strcmp(expect, got)) {
    printf("expected failure caught: %s: %s\nTEST PASSED\n", got, why);
    return 0;
  }
  if (!expect && !why[0]) {
    printf("TEST PASSED\n");
    return 0;
  }
  printf("rerun: %s", argv_g[0]);
  for (int i = 1; i < argc_g; i++) printf(" %s", argv_g[i]);
  if (expect && !why[0])
    printf("\nTEST FAILED: expected %s to fail, and the run passed\n", expect);
  else if (expect)
    printf("\nTEST FAILED: expected %s, got %s: %s\n", expect, got, why);
  else
    printf("\nTEST FAILED: %s: %s\n", got, why);
  return 1;
}

int main(int argc, char **argv) {
  argc_g = argc;
  argv_g = argv;
  e4f_cfg_t cfg;
  e4f_cfg_default(&cfg);
  cfg.cycles = 5000;
  unsigned quiet_bug = 0;
  bool warm_set = false;
  const char *test = "both", *expect = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char *end = NULL;
    if (!strncmp(a, "--nodes=", 8)) {
      cfg.nodes = (unsigned)strtoul(a + 8, &end, 10);
    } else if (!strncmp(a, "--traffic=", 10)) {
      if (e4f_pattern_parse(a + 10, &cfg.pattern))
        return usage("--traffic: '%s' is not uniform|complement|hotspot", a);
      end = "";
    } else if (!strncmp(a, "--load=", 7)) {
      cfg.load = strtod(a + 7, &end);
    } else if (!strncmp(a, "--nack-rate=", 12)) {
      cfg.nack_rate = strtod(a + 12, &end);
    } else if (!strncmp(a, "--body=", 7)) {
      cfg.nbody = (unsigned)strtoul(a + 7, &end, 10);
    } else if (!strncmp(a, "--link-delay=", 13)) {
      cfg.link_delay = (unsigned)strtoul(a + 13, &end, 10);
    } else if (!strncmp(a, "--cycles=", 9)) {
      cfg.cycles = strtoull(a + 9, &end, 10);
    } else if (!strncmp(a, "--warmup=", 9)) {
      cfg.warmup = strtoull(a + 9, &end, 10);
      warm_set = true;
    } else if (!strncmp(a, "--seed=", 7)) {
      cfg.seed = strtoull(a + 7, &end, 0);
    } else if (!strcmp(a, "--records=on") || !strcmp(a, "--records=off")) {
      cfg.records = a[11] == 'n';
      end = "";
    } else if (!strcmp(a, "--rtl=all") || !strcmp(a, "--rtl=none") || !strcmp(a, "--mode=rtl") ||
               !strcmp(a, "--mode=model")) {
      memset(cfg.rtl, !strcmp(a, "--rtl=all") || !strcmp(a, "--mode=rtl"), sizeof cfg.rtl);
      end = "";
    } else if (!strncmp(a, "--rtl=", 6)) { /* a comma list of switch ids */
      const char *q = a + 6;
      end = "";
      while (*q) {
        unsigned long s = strtoul(q, &end, 10);
        if (end == q || s >= E4F_MAX_SW) return usage("--rtl: bad switch list '%s'", a);
        cfg.rtl[s] = 1;
        if (*end && *end != ',') return usage("--rtl: bad switch list '%s'", a);
        q = *end == ',' ? end + 1 : end;
      }
    } else if (!strncmp(a, "--test=", 7)) {
      test = a + 7;
      if (strcmp(test, "both") && strcmp(test, "core_vs_e4f") && strcmp(test, "skip_vs_noskip") &&
          strcmp(test, "bench") && strcmp(test, "core"))
        return usage("--test: '%s' is not both|core_vs_e4f|skip_vs_noskip|core|bench", a);
      end = "";
    } else if (!strncmp(a, "--inject-bug=", 13)) {
      const char *b = a + 13;
      end = "";
      if (!strcmp(b, "fe4_quiet_lies"))
        quiet_bug = FE4_BUG_QUIET_LIES;
      else if (!strcmp(b, "fe4_drop_credit"))
        quiet_bug = FE4_BUG_DROP_CREDIT;
      else {
        unsigned k = 1;
        while (elite4_bug_names[k] && strcmp(elite4_bug_names[k], b)) k++;
        if (!elite4_bug_names[k])
          return usage("--inject-bug: '%s' is not fe4_quiet_lies, fe4_drop_credit or an elite4 model bug", a);
        cfg.model_bug = k;
      }
    } else if (!strncmp(a, "--expect-fail=", 14)) {
      expect = a + 14;
      if ((strncmp(expect, "check:", 6) && strncmp(expect, "assert:", 7)) || !strchr(expect, '@'))
        return usage("--expect-fail: '%s' is not check:ID@CYCLE or assert:LABEL@CYCLE", a);
      end = "";
    } else if (!strncmp(a, "--name=", 7) || !strncmp(a, "--out=", 6)) {
      end = ""; /* accepted for regress; this binary writes no files */
    } else
      return usage("unknown option '%s'", a);
    if (!end || *end) return usage("bad value in '%s'", a);
  }
  if (!warm_set) cfg.warmup = cfg.cycles / 5;
  printf("seed: %" PRIu64 "\n", cfg.seed);
  char err[400] = "";
  {
    e4f_cfg_t c0 = cfg; /* the old path's parameter checks, before anything runs */
    memset(c0.rtl, 0, sizeof c0.rtl);
    e4f_fabric_t *probe = calloc(1, sizeof *probe);
    if (!probe) return 1;
    const int bad = e4f_fabric_init(probe, &c0, err, sizeof err);
    e4f_fabric_free(probe);
    free(probe);
    if (bad) return usage("%s", err);
  }
  char why[600] = "";
  if (!tables_agree(cfg.nodes, why, sizeof why)) return verdict(expect, "fabric.tables", 0, why);
  const bool do_old = !strcmp(test, "both") || !strcmp(test, "core_vs_e4f") || !strcmp(test, "bench");
  const bool do_noskip = !strcmp(test, "both") || !strcmp(test, "skip_vs_noskip") || !strcmp(test, "bench");
  const double nc = (double)cfg.nodes;
  e4f_fabric_t *A = NULL;
  if (do_old) {
    A = calloc(1, sizeof *A);
    if (!A || e4f_fabric_init(A, &cfg, err, sizeof err)) {
      printf("TEST FAILED: check:fabric.setup@0: %s\n", A ? err : "out of memory");
      return 1;
    }
    e4f_fabric_run(A);
    printf("e4f path:      %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s, RSS %ld kB\n", A->cycle,
           A->rec.n, nc * (double)A->cycle / A->wall_s / 1e6, rss_kb());
  }
  core_run_t B = {0}, C = {0};
  if (run_core(&B, &cfg, quiet_bug, false, err, sizeof err)) {
    printf("TEST FAILED: check:fabric.setup@0: core fabric: %s\n", err);
    return 1;
  }
  printf("core, skip:    %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s, %" PRIu64
         " evaluations, %" PRIu64 " cycles jumped, RSS %ld kB\n",
         B.F->cycle, B.F->rec.n, nc * (double)B.F->cycle / B.F->wall_s / 1e6, B.fab.evals,
         B.fab.cycles_jumped, rss_kb());
  if (do_noskip) {
    if (run_core(&C, &cfg, quiet_bug, true, err, sizeof err)) {
      printf("TEST FAILED: check:fabric.setup@0: core fabric: %s\n", err);
      return 1;
    }
    printf("core, no skip: %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s, %" PRIu64 " evaluations\n",
           C.F->cycle, C.F->rec.n, nc * (double)C.F->cycle / C.F->wall_s / 1e6, C.fab.evals);
  }
  if (B.F->sb.failed)
    printf("run verdict: %s@%" PRIu64 ": %s\n", B.F->sb.fail_id, B.F->sb.fail_cycle, B.F->sb.fail);
  const char *id = "";
  char run_id[160];
  uint64_t cycle = 0;
  if (!strcmp(test, "bench")) {
    /* no check: figures only */
  } else {
    if (A) {
      compare(A, B.F, why, sizeof why, &cycle);
      id = "fabric.core_vs_e4f";
    }
    if (!why[0] && do_noskip) {
      id = "fabric.skip_vs_noskip";
      uint64_t dc = 0;
      if (fabric_digest_diff(&B.fab, &C.fab, &dc)) {
        snprintf(why, sizeof why, "the output digests differ first in cycle %" PRIu64, dc);
        cycle = dc;
      } else
        compare(C.F, B.F, why, sizeof why, &cycle);
    }
    if (!why[0] && B.F->sb.failed) { /* the paths agree; the run itself failed */
      snprintf(run_id, sizeof run_id, "%s", B.F->sb.fail_id);
      id = run_id;
      cycle = B.F->sb.fail_cycle;
      snprintf(why, sizeof why, "%s", B.F->sb.fail);
    }
  }
  /* oldest first: Verilator 5.006 hangs destroying an RTL model created
   * after one still alive (its scope registry) */
  if (A) {
    e4f_fabric_free(A);
    free(A);
  }
  core_free(&B);
  core_free(&C);
  return verdict(expect, id, cycle, why);
}
