/*
 * build/bin/elite4_fabric_core_cmp -- the first step of moving the elite4 fat
 * trees onto the generic fabric core (csim/fabric/, docs/fabric.md): the same
 * fabric run twice, once by testbench/fabric/e4f_fabric.c (today's binary's
 * path) and once by the core, whose instances wrap the very same switch
 * (model or RTL) and NIC objects; per-packet records, the scoreboard's
 * verdict, the end cycle and every switch's final outputs (counters
 * included) must be identical. Not part of `make test` yet (docs/fabric.md,
 * "Not done yet"): the switches have no quiet() here, so nothing is skipped
 * but NICs, and the observers below are copies of e4f_fabric.c's.
 *
 *   elite4_fabric_core_cmp [--nodes=16|64] [--traffic=uniform|complement|hotspot]
 *       [--load=X] [--cycles=N] [--seed=N] [--rtl=none|all|LIST] [--no-skip]
 *
 * First line `seed: N`; last line `TEST PASSED` or `TEST FAILED: <reason>`;
 * bad flags: exit status 2.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric/e4f_fabric.h"
#include "elite4/elite4.h"
#include "fabric/fabric.h"

/* ---- the elite4_p8 switch as a core instance type (prototype) ------------ */
typedef struct {
  e4f_fabric_t *F;
  unsigned s;
} sw_ref_t;

static void *sw_create(const void *params, unsigned index, char *err, size_t errlen) {
  sw_ref_t *x = malloc(sizeof *x);
  if (!x) snprintf(err, errlen, "out of memory");
  if (x) *x = (sw_ref_t){(e4f_fabric_t *)params, index};
  return x;
}
static void ref_free(void *x) { free(x); }

static void to_e4f(const fabric_flit_t *a, e4f_flit_t *b) {
  b->valid = a->valid;
  b->kind = a->kind;
  b->vc = a->vc;
  b->data = (uint32_t)a->data;
  for (unsigned v = 0; v < E4F_VCS; v++) b->credit[v] = (a->credit >> v) & 1u;
}
static void from_e4f(const e4f_flit_t *b, fabric_flit_t *a) {
  a->valid = b->valid;
  a->kind = b->valid ? b->kind : 0;
  a->vc = b->valid ? b->vc : 0;
  a->data = b->valid ? b->data : 0;
  a->credit = 0;
  for (unsigned v = 0; v < E4F_VCS; v++) a->credit |= (uint8_t)(b->credit[v] << v);
}

static void sw_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  sw_ref_t *x = p;
  e4f_fabric_t *F = x->F;
  const unsigned s = x->s;
  for (unsigned q = 0; q < E4F_PORTS; q++) {
    e4f_flit_t fl;
    to_e4f(&in[q], &fl);
    e4f_link_to_in(&F->in[s], q, &fl);
  }
  if (F->cfg.rtl[s]) {
    F->tgt->glue->rtl.step(F->inst[s], &F->in[s], &F->out[s]);
    const char *label = F->tgt->glue->rtl.assert_failed ? F->tgt->glue->rtl.assert_failed(F->inst[s]) : NULL;
    if (label && (!F->sb.failed || (F->sb.fail_cycle == c && strncmp(F->sb.fail_id, "assert:", 7)))) {
      char id[sizeof F->sb.fail_id];
      snprintf(id, sizeof id, "assert:%s", label);
      F->sb.failed = false;
      e4f_failf(&F->sb, c, id, "switch %u (RTL): assertion %s failed at cycle %" PRIu64, s, label, c);
    }
  } else
    F->tgt->model.eval(F->inst[s], &F->in[s], &F->out[s]);
  for (unsigned q = 0; q < E4F_PORTS; q++) {
    e4f_flit_t fl;
    e4f_link_from_out(&F->out[s], q, &fl);
    from_e4f(&fl, &out[q]);
  }
  side[0] = F->out[s].alloc_o;
  side[1] = F->out[s].err_o;
}
static void sw_commit(void *p) {
  sw_ref_t *x = p;
  if (!x->F->cfg.rtl[x->s]) x->F->tgt->model.commit(x->F->inst[x->s]);
}

static const fabric_port_kind_t e4_kind = {"elite4_link", 32, 2, E4F_VCS};
static const fabric_port_kind_t *const sw_ports[8] = {&e4_kind, &e4_kind, &e4_kind, &e4_kind,
                                                      &e4_kind, &e4_kind, &e4_kind, &e4_kind};
static const char *const sw_side[] = {"alloc_o", "err_o"};
static const fabric_impl_t sw_impl = {sw_create, ref_free, sw_eval, sw_commit, NULL, NULL, NULL, NULL, NULL};
/* model or RTL is chosen per switch by F->cfg.rtl (the same objects as the old path) */
static const fabric_type_t sw_type = {"elite4_p8", 8, sw_ports, 2, sw_side, 0, NULL, &sw_impl, NULL};

/* ---- the NIC and its traffic as an endpoint instance ---------------------- */
static void *nic_create(const void *params, unsigned index, char *err, size_t errlen) {
  sw_ref_t *x = malloc(sizeof *x);
  if (!x) snprintf(err, errlen, "out of memory");
  const e4f_fabric_t *F = params;
  if (x) *x = (sw_ref_t){(e4f_fabric_t *)params, index - F->topo.nsw};
  return x;
}
static void nic_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  sw_ref_t *x = p;
  e4f_fabric_t *F = x->F;
  const unsigned n = x->s;
  (void)side;
  if (c < F->cfg.cycles) {
    int d = e4f_traffic_next(&F->traffic, n, &F->gen[n]);
    if (d >= 0) e4f_nic_enqueue(&F->nic[n], &F->env, (unsigned)d, c);
  }
  e4f_flit_t rx, tx;
  memset(&tx, 0, sizeof tx);
  to_e4f(&in[0], &rx);
  e4f_nic_step(&F->nic[n], &F->env, c, &rx, &tx);
  from_e4f(&tx, &out[0]);
}
static bool nic_quiet(const void *p) {
  const sw_ref_t *x = p;
  return e4f_nic_idle(&x->F->nic[x->s]);
}
/* a traffic draw every cycle of the injection window (today's generator) */
static uint64_t nic_wake(void *p, uint64_t now) {
  const sw_ref_t *x = p;
  return now < x->F->cfg.cycles ? now : FABRIC_NEVER;
}
static const fabric_impl_t nic_impl = {nic_create, ref_free, nic_eval, NULL, nic_quiet,
                                       nic_wake,   NULL,     NULL,     NULL};
static const fabric_type_t nic_type = {"e4f_nic", 1, sw_ports, 0, NULL, 0, NULL, &nic_impl, NULL};

/* ---- observers: copies of e4f_fabric.c's (they move when e4f_* goes) ------ */
static void observe_arrival(e4f_fabric_t *f, unsigned s, unsigned p, const e4f_flit_t *fl, uint64_t c) {
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
    sl->id = fl->data;
    sl->hop = k->nhops++;
    k->hop[sl->hop] = (e4f_hop_t){(uint16_t)s, (uint8_t)p, E4F_NO_PORT, sl->arr, sl->grant, E4F_NONE};
  }
}
static void observe_outputs(e4f_fabric_t *f, unsigned s, uint64_t c) {
  const elite4_p8_out_t *o = &f->out[s];
  if (o->alloc_o)
    for (unsigned p = 0; p < E4F_PORTS; p++)
      for (unsigned v = 0; v < E4F_VCS; v++) {
        if (!elite4_p8_alloc_o_get(o, p * E4F_VCS + v)) continue;
        e4f_islot_t *sl = &f->islot[(s * E4F_PORTS + p) * E4F_VCS + v];
        sl->grant = (uint32_t)(c - 1);
        if (sl->id >= 0) {
          e4f_pkt_t *k = &f->rec.p[sl->id];
          if (sl->hop < k->nhops && k->hop[sl->hop].sw == s && k->hop[sl->hop].in == p)
            k->hop[sl->hop].grant = sl->grant;
        }
      }
  if (!o->out_valid_o) return;
  for (unsigned p = 0; p < E4F_PORTS; p++) {
    if (!elite4_p8_out_valid_o_get(o, p)) continue;
    e4f_flit_t fl;
    e4f_link_from_out(o, p, &fl);
    e4f_oslot_t *sl = &f->oslot[(s * E4F_PORTS + p) * E4F_VCS + fl.vc];
    if (fl.kind == ELITE4_HEAD) {
      sl->dep = (uint32_t)c;
      sl->pending = true;
    } else if (fl.kind == ELITE4_BODY && sl->pending) {
      sl->pending = false;
      e4f_hop_t *h = e4f_records_hop(&f->rec, fl.data, s);
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
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    if (!fab->inst[s].ran) continue;
    for (unsigned p = 0; p < E4F_PORTS; p++) {
      e4f_flit_t fl;
      to_e4f(&fab->inst[s].in[p], &fl);
      observe_arrival(F, s, p, &fl, c);
    }
  }
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    const elite4_p8_out_t *o = &F->out[s];
    if (o->err_o)
      for (unsigned p = 0; p < E4F_PORTS; p++)
        if (elite4_p8_err_o_get(o, p))
          e4f_failf(&F->sb, c, "fabric.switch_error",
                    "switch %u raised error %u on port %u at cycle %" PRIu64, s,
                    elite4_p8_err_code_o_get(o, p), p, c);
    if (o->out_valid_o)
      for (unsigned p = 0; p < E4F_PORTS; p++)
        if (F->topo.peer[s][p].kind == E4F_PEER_NONE && elite4_p8_out_valid_o_get(o, p))
          e4f_failf(&F->sb, c, "fabric.tied_off",
                    "switch %u sent a flit on tied-off port %u at cycle %" PRIu64, s, p, c);
    observe_outputs(F, s, c);
  }
  if (F->env.outstanding) F->busy_cycles++;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The core path: a fabric over F's objects, run until e4f_fabric_done(F). */
static int run_core(e4f_fabric_t *F, bool no_skip, fabric_t *fab, char *err, size_t errlen) {
  fabric_init(fab);
  fab->no_skip = no_skip;
  fab->observer = observe;
  fab->observer_ctx = F;
  for (unsigned s = 0; s < F->topo.nsw; s++) {
    char name[16];
    snprintf(name, sizeof name, "sw%u", s);
    if (fabric_add(fab, &sw_type, FABRIC_MODEL, name, F, err, errlen) == FABRIC_NONE) return -1;
  }
  for (unsigned n = 0; n < F->cfg.nodes; n++) {
    char name[16];
    snprintf(name, sizeof name, "nic%u", n);
    if (fabric_add(fab, &nic_type, FABRIC_MODEL, name, F, err, errlen) == FABRIC_NONE) return -1;
  }
  const unsigned D = F->cfg.link_delay;
  for (unsigned n = 0; n < F->cfg.nodes; n++)
    if (fabric_connect(fab, F->topo.nsw + n, 0, F->topo.leaf_sw[n], n % 4, D, err, errlen)) return -1;
  for (unsigned s = 0; s < F->topo.nsw; s++)
    for (unsigned p = 0; p < E4F_PORTS; p++) {
      const e4f_peer_t *e = &F->topo.peer[s][p];
      if (e->kind == E4F_PEER_SW && (e->id > s || (e->id == s && e->port > p)))
        if (fabric_connect(fab, s, p, e->id, e->port, D, err, errlen)) return -1;
    }
  double t0 = now_s();
  do {
    fabric_step(fab, UINT64_MAX);
    F->cycle = fab->cycle;
  } while (!e4f_fabric_done(F));
  F->wall_s = now_s() - t0;
  return 0;
}

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "elite4_fabric_core_cmp: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see the header of testbench/fabric/core/e4core_cmp.c)\n");
  return 2;
}

int main(int argc, char **argv) {
  e4f_cfg_t cfg;
  e4f_cfg_default(&cfg);
  bool no_skip = false;
  cfg.cycles = 5000;
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
    } else if (!strncmp(a, "--cycles=", 9)) {
      cfg.cycles = strtoull(a + 9, &end, 10);
    } else if (!strncmp(a, "--seed=", 7)) {
      cfg.seed = strtoull(a + 7, &end, 0);
    } else if (!strcmp(a, "--rtl=all") || !strcmp(a, "--rtl=none")) {
      memset(cfg.rtl, a[6] == 'a', sizeof cfg.rtl);
      end = "";
    } else if (!strncmp(a, "--rtl=", 6)) { /* a comma list of switch ids */
      const char *q = a + 6;
      end = "";
      while (*q) {
        unsigned long s = strtoul(q, &end, 10);
        if (end == q || s >= E4F_MAX_SW) return usage("--rtl: bad switch list '%s'", a);
        cfg.rtl[s] = 1;
        q = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return usage("--rtl: bad switch list '%s'", a);
      }
    } else if (!strcmp(a, "--no-skip")) {
      no_skip = true;
      end = "";
    } else
      return usage("unknown option '%s'", a);
    if (!end || *end) return usage("bad value in '%s'", a);
  }
  cfg.warmup = cfg.cycles / 5;
  printf("seed: %" PRIu64 "\n", cfg.seed);
  char err[400] = "";
  e4f_fabric_t *A = calloc(1, sizeof *A), *B = calloc(1, sizeof *B);
  if (!A || !B) return 1;
  if (e4f_fabric_init(A, &cfg, err, sizeof err) || e4f_fabric_init(B, &cfg, err, sizeof err))
    return usage("%s", err);
  e4f_fabric_run(A);
  fabric_t fab;
  if (run_core(B, no_skip, &fab, err, sizeof err)) {
    printf("TEST FAILED: core fabric: %s\n", err);
    return 1;
  }
  const double nc = (double)cfg.nodes;
  printf("old path: %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s\n", A->cycle, A->rec.n,
         nc * (double)A->cycle / A->wall_s / 1e6);
  printf("core:     %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s, %" PRIu64 " evaluations, %" PRIu64
         " cycles jumped\n",
         B->cycle, B->rec.n, nc * (double)B->cycle / B->wall_s / 1e6, fab.evals, fab.cycles_jumped);
  char why[300] = "";
  if (A->cycle != B->cycle)
    snprintf(why, sizeof why, "end cycle %" PRIu64 " vs %" PRIu64, A->cycle, B->cycle);
  else if (A->sb.failed != B->sb.failed || (A->sb.failed && strcmp(A->sb.fail_id, B->sb.fail_id)))
    snprintf(why, sizeof why, "verdict differs: %s vs %s", A->sb.failed ? A->sb.fail_id : "pass",
             B->sb.failed ? B->sb.fail_id : "pass");
  else if (A->rec.n != B->rec.n)
    snprintf(why, sizeof why, "%u vs %u packets", A->rec.n, B->rec.n);
  else if (A->env.outstanding != B->env.outstanding || A->env.win_flits != B->env.win_flits ||
           A->busy_cycles != B->busy_cycles)
    snprintf(why, sizeof why, "NIC counters or busy cycles differ");
  for (uint32_t k = 0; !why[0] && k < A->rec.n; k++)
    if (memcmp(&A->rec.p[k], &B->rec.p[k], sizeof A->rec.p[k]))
      snprintf(why, sizeof why, "packet %u's record differs", k);
  for (unsigned s = 0; !why[0] && s < A->topo.nsw; s++)
    if (memcmp(&A->out[s], &B->out[s], sizeof A->out[s]))
      snprintf(why, sizeof why, "switch %u's final outputs (counters included) differ", s);
  if (A->sb.failed) printf("both runs: %s@%" PRIu64 "\n", A->sb.fail_id, A->sb.fail_cycle);
  fabric_free(&fab);
  e4f_fabric_free(A);
  e4f_fabric_free(B);
  free(A);
  free(B);
  if (why[0]) {
    printf("rerun: %s", argv[0]);
    for (int i = 1; i < argc; i++) printf(" %s", argv[i]);
    printf("\nTEST FAILED: check:fabric.core_vs_e4f: %s\n", why);
    return 1;
  }
  printf("TEST PASSED\n");
  return 0;
}
