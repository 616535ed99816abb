/*
 * Unit tests of the generic fabric core (docs/fabric.md), with two toy
 * instance types written here: a source-routed single-flit switch with
 * credits and an endpoint with Bernoulli injection. They are not a block;
 * they exist to exercise the core: skipping equals not skipping (and a
 * planted lie in quiet() is caught), lockstep names the first divergence,
 * topologies are wired and routed right, bad parameters are named, and
 * topology files (ibnetdiscover format) round-trip and refuse bad input
 * with file, line and field, and any number of threads gives the one-thread
 * run (and a planted parallel-path bug is caught as fabric.threads).
 *
 *   test_fabric [--seed=N]
 *
 * Prints the seed first and ends with "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno (unit.h) */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "fabric.h"
#include "fabric_topo.h"

/* ------------------------------------------------------------------------------------ */
/* Toy switch: P ports, 1 VC, a FIFO of DEPTH per input, credits per output,  */
/* a round-robin per output, registered outputs. A flit's data is            */
/* id << 32 | route, the route a list of 4-bit output ports, front first.    */
/* ------------------------------------------------------------------------------------ */
#define TOY_MAXP  16u
#define TOY_DEPTH 4u

enum { TOY_BUG_NONE = 0, TOY_BUG_QUIET_IGNORES_OUT = 1, TOY_BUG_RR_STUCK = 2 };

typedef struct {
  unsigned ports, bug;
} toy_sw_params_t;

typedef struct {
  uint64_t q[TOY_MAXP][TOY_DEPTH];
  uint8_t head[TOY_MAXP], cnt[TOY_MAXP];
  uint8_t cred[TOY_MAXP], rr[TOY_MAXP];
  fabric_flit_t oreg[TOY_MAXP];
  uint8_t creg[TOY_MAXP];
  uint64_t xmit[TOY_MAXP]; /* counter 0: flits sent per port */
} toy_sw_state_t;

typedef struct {
  unsigned ports, bug;
  toy_sw_state_t s, nx;
} toy_sw_t;

static void *toy_sw_create(const void *params, unsigned index, char *err, size_t errlen) {
  const toy_sw_params_t *p = params;
  (void)index;
  if (p->ports < 1 || p->ports > TOY_MAXP) {
    snprintf(err, errlen, "toy switch: ports %u out of range", p->ports);
    return NULL;
  }
  toy_sw_t *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->ports = p->ports;
  x->bug = p->bug;
  for (unsigned o = 0; o < x->ports; o++) x->s.cred[o] = TOY_DEPTH;
  return x;
}
static void toy_free(void *x) { free(x); }

static void toy_sw_eval(void *p, uint64_t cycle, const fabric_flit_t *in, fabric_flit_t *out,
                        uint64_t *side) {
  toy_sw_t *x = p;
  const unsigned P = x->ports;
  const toy_sw_state_t *s = &x->s;
  toy_sw_state_t *n = &x->nx;
  (void)cycle;
  *n = *s;
  for (unsigned o = 0; o < P; o++) {
    out[o] = s->oreg[o];
    out[o].credit = s->creg[o];
    n->oreg[o] = (fabric_flit_t){0};
    n->creg[o] = 0;
  }
  /* allocation on the current state, one grant per output */
  for (unsigned o = 0; o < P; o++) {
    if (!s->cred[o]) continue;
    for (unsigned k = 0; k < P; k++) {
      unsigned i = (s->rr[o] + k) % P;
      if (!s->cnt[i]) continue;
      uint64_t f = s->q[i][s->head[i]];
      if ((f & 0xFu) != o) continue;
      uint64_t g = (f & ~0xFFFFFFFFull) | ((uint32_t)f >> 4 | 0xF0000000u);
      n->oreg[o] = (fabric_flit_t){1, 0, 0, 0, g};
      n->cred[o]--;
      n->xmit[o]++;
      n->head[i] = (uint8_t)((s->head[i] + 1) % TOY_DEPTH);
      n->cnt[i]--;
      n->creg[i] = 1;
      if (x->bug != TOY_BUG_RR_STUCK) n->rr[o] = (uint8_t)((i + 1) % P);
      break;
    }
  }
  for (unsigned i = 0; i < P; i++) {
    n->cred[i] = (uint8_t)(n->cred[i] + (in[i].credit & 1u));
    if (in[i].valid) {
      if (n->cnt[i] >= TOY_DEPTH) {
        side[0] = 1; /* overflow: the sender ignored credits */
        continue;
      }
      n->q[i][(n->head[i] + n->cnt[i]) % TOY_DEPTH] = in[i].data;
      n->cnt[i]++;
    }
  }
}
static void toy_sw_commit(void *p) {
  toy_sw_t *x = p;
  x->s = x->nx;
}
static bool toy_sw_quiet(const void *p) {
  const toy_sw_t *x = p;
  for (unsigned i = 0; i < x->ports; i++) {
    if (x->s.cnt[i]) return false;
    if (x->bug != TOY_BUG_QUIET_IGNORES_OUT && (x->s.oreg[i].valid || x->s.creg[i])) return false;
  }
  return true;
}
static int toy_sw_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  const toy_sw_t *x = p;
  (void)last; /* the toy's counter register is its output */
  if (id != 0) return -1;
  *val = x->s.xmit[port];
  return 0;
}
static int toy_sw_config(void *p, const char *key, uint64_t index, uint64_t value, char *err, size_t errlen) {
  toy_sw_t *x = p;
  if (strcmp(key, "credits") != 0 || index >= x->ports || value > TOY_DEPTH) {
    snprintf(err, errlen, "toy switch: config %s[%" PRIu64 "] = %" PRIu64 " not accepted", key, index, value);
    return -1;
  }
  x->s.cred[index] = (uint8_t)value;
  return 0;
}

static const fabric_port_kind_t toy_kind = {"toy", 64, 0, 1};
static const fabric_port_kind_t *const toy_ports[TOY_MAXP] = {
    &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind,
    &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind, &toy_kind};
static const fabric_port_kind_t other_kind = {"other", 32, 0, 1};
static const fabric_port_kind_t *const other_ports[1] = {&other_kind};
static const char *const toy_side[] = {"overflow"};
static const char *const toy_cnt[] = {"xmit_flits"};

static const fabric_impl_t toy_sw_impl = {toy_sw_create, toy_free, toy_sw_eval,    toy_sw_commit,
                                          toy_sw_quiet,  NULL,     toy_sw_counter, toy_sw_config,
                                          NULL,          NULL};
/* the "RTL" of the lockstep test: the same code, a second instance per switch */
static const fabric_impl_t toy_sw_impl2 = {toy_sw_create, toy_free, toy_sw_eval,    toy_sw_commit,
                                           toy_sw_quiet,  NULL,     toy_sw_counter, toy_sw_config,
                                           NULL,          NULL};

static fabric_type_t toy_sw_type(unsigned ports) {
  return (fabric_type_t){"toy_sw", ports, toy_ports, 1, toy_side, 1, toy_cnt, &toy_sw_impl, &toy_sw_impl2};
}

/* ------------------------------------------------------------------------------------ */
/* Toy endpoint: Bernoulli(load) packet creation per cycle in [0, window),    */
/* drawn ahead so the next creation cycle is known (its wake-up time) and the */
/* draws are the same whether cycles are skipped or not; uniform destination; */
/* a source queue; credits; records.                                          */
/* ------------------------------------------------------------------------------------ */
#define TOY_SRCQ  64u
#define TOY_MAXPK 4096u

typedef struct {
  uint64_t created, injected, arrived;
  uint32_t src, dst, at;
} toy_rec_t;

typedef struct {
  const fabric_topo_t *topo;
  toy_rec_t *rec; /* [nodes * TOY_MAXPK] */
  double load;
  uint64_t window, seed;
} toy_nic_params_t;

typedef struct {
  uint64_t rng, next;
  uint32_t q[TOY_SRCQ];
  unsigned qh, qn, seq;
  uint8_t cred, creg;
  fabric_flit_t oreg;
} toy_nic_state_t;

typedef struct {
  toy_nic_params_t p;
  unsigned node;
  toy_nic_state_t s, nx;
} toy_nic_t;

static double u01(uint64_t *r) { return (double)(unit_splitmix64(r) >> 11) / 9007199254740992.0; }
static uint64_t draw_next(toy_nic_t *x, uint64_t *rng, uint64_t from) {
  if (x->p.load <= 0) return FABRIC_NEVER;
  for (uint64_t c = from; c < x->p.window; c++)
    if (u01(rng) < x->p.load) return c;
  return FABRIC_NEVER;
}

static void *toy_nic_create(const void *params, unsigned index, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  toy_nic_t *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->p = *(const toy_nic_params_t *)params;
  x->node = index - x->p.topo->nsw; /* nodes are added after the switches */
  x->s.rng = x->p.seed * 1000003u + x->node;
  x->s.cred = TOY_DEPTH;
  x->s.next = draw_next(x, &x->s.rng, 0);
  return x;
}

static uint32_t toy_route(const fabric_topo_t *t, unsigned src, unsigned dst) {
  uint8_t down[16];
  unsigned u = fabric_tree_route(t, src, dst, down), n = 0;
  uint32_t r = 0xFFFFFFFFu;
  /* up ports chosen by the destination's digits (deterministic, "d-mod-k") */
  for (unsigned l = 0; l < u; l++, n++)
    r = (r & ~(0xFu << (4 * n))) | (t->k + fabric_tree_digit(t, dst, l)) << (4 * n);
  for (unsigned i = 0; i <= u; i++, n++) r = (r & ~(0xFu << (4 * n))) | (uint32_t)down[i] << (4 * n);
  return r;
}

static void toy_nic_eval(void *p, uint64_t cycle, const fabric_flit_t *in, fabric_flit_t *out,
                         uint64_t *side) {
  toy_nic_t *x = p;
  const toy_nic_state_t *s = &x->s;
  toy_nic_state_t *n = &x->nx;
  (void)side;
  *n = *s;
  out[0] = s->oreg;
  out[0].credit = s->creg;
  n->oreg = (fabric_flit_t){0};
  n->creg = 0;
  if (s->next == cycle) {
    uint32_t dst = (uint32_t)(unit_splitmix64(&n->rng) % x->p.topo->nodes);
    if (n->qn < TOY_SRCQ && n->seq < TOY_MAXPK) {
      uint32_t id = x->node * TOY_MAXPK + n->seq++;
      x->p.rec[id] = (toy_rec_t){cycle, 0, 0, x->node, dst, 0};
      n->q[(n->qh + n->qn++) % TOY_SRCQ] = id;
    }
    n->next = draw_next(x, &n->rng, cycle + 1);
  }
  if (s->qn && s->cred) {
    uint32_t id = s->q[s->qh];
    toy_rec_t *r = &x->p.rec[id];
    r->injected = cycle;
    n->oreg = (fabric_flit_t){1, 0, 0, 0, (uint64_t)id << 32 | toy_route(x->p.topo, x->node, r->dst)};
    n->qh = (s->qh + 1) % TOY_SRCQ;
    n->qn--;
    n->cred--;
  }
  n->cred = (uint8_t)(n->cred + (in[0].credit & 1u));
  if (in[0].valid) {
    toy_rec_t *r = &x->p.rec[in[0].data >> 32];
    r->arrived = cycle;
    r->at = x->node;
    n->creg = 1;
  }
}
static void toy_nic_commit(void *p) {
  toy_nic_t *x = p;
  x->s = x->nx;
}
static bool toy_nic_quiet(const void *p) {
  const toy_nic_t *x = p;
  return !x->s.qn && !x->s.oreg.valid && !x->s.creg;
}
static uint64_t toy_nic_wake(void *p, uint64_t now) {
  toy_nic_t *x = p;
  (void)now;
  return x->s.next;
}
static const fabric_impl_t toy_nic_impl = {toy_nic_create, toy_free,     toy_nic_eval, toy_nic_commit,
                                           toy_nic_quiet,  toy_nic_wake, NULL,         NULL,
                                           NULL,           NULL};
static const fabric_type_t toy_nic_type = {"toy_nic", 1, toy_ports, 0, NULL, 0, NULL, &toy_nic_impl, NULL};
static const fabric_type_t other_type = {"other", 1, other_ports, 0, NULL, 0, NULL, &toy_nic_impl, NULL};

/* ------------------------------------------------------------------------------------ */
/* A run: a k-ary n-tree of toy switches with toy endpoints.                   */
/* ------------------------------------------------------------------------------------ */
typedef struct {
  fabric_t f;
  fabric_topo_t t;
  fabric_type_t swt;
  toy_rec_t *rec;
  uint64_t end;  /* the cycle the run drained */
  uint64_t seen; /* flits the observer saw arrive at endpoints */
} run_t;

/* the observer sees the cycle's inputs: count flits arriving at endpoints */
static void count_arrivals(fabric_t *f, void *ctx) {
  run_t *r = ctx;
  for (uint32_t i = r->t.nsw; i < f->ninst; i++) r->seen += f->inst[i].in[0].valid;
}

/* the parallel path of the next run_tree (test_threads): parts, an observer
 * or not (windows of the lookahead without one), a planted FABRIC_PBUG_* */
static unsigned g_threads = 1, g_pbug;
static bool g_no_observer;

static bool run_tree(tctx_t *tc, run_t *r, unsigned k, unsigned n, double load, uint64_t window,
                     uint64_t seed, bool no_skip, unsigned bug, fabric_mode_t mode, unsigned lat) {
  char err[256];
  memset(r, 0, sizeof *r);
  fabric_init(&r->f);
  r->f.no_skip = no_skip;
  r->f.digest_on = true;
  r->f.par_bug = g_pbug;
  if (!g_no_observer) {
    r->f.observer = count_arrivals;
    r->f.observer_ctx = r;
  }
  if (!CHECK(tc, fabric_topo_kary_ntree(&r->t, k, n, err, sizeof err) == 0, "tree %u,%u: %s", k, n, err))
    return false;
  r->swt = toy_sw_type(2 * k);
  r->rec = calloc((size_t)r->t.nodes * TOY_MAXPK, sizeof *r->rec);
  toy_sw_params_t sp = {2 * k, bug};
  for (unsigned s = 0; s < r->t.nsw; s++) {
    char name[32];
    snprintf(name, sizeof name, "sw%u", s);
    if (!CHECK(tc, fabric_add(&r->f, &r->swt, mode, name, &sp, err, sizeof err) == s, "add %s: %s", name,
               err))
      return false;
  }
  toy_nic_params_t np = {&r->t, r->rec, load, window, seed};
  for (unsigned d = 0; d < r->t.nodes; d++) {
    char name[32];
    snprintf(name, sizeof name, "nic%u", d);
    const uint32_t i = fabric_add(&r->f, &toy_nic_type, FABRIC_MODEL, name, &np, err, sizeof err);
    if (!CHECK(tc, i != FABRIC_NONE, "add %s: %s", name, err)) return false;
    r->f.inst[i].serial = true; /* the endpoints share the record table */
  }
  if (!CHECK(tc, fabric_topo_wire(&r->f, &r->t, 0, r->t.nsw, 0, lat, err, sizeof err) == 0, "wire: %s", err))
    return false;
  if (!CHECK(tc, fabric_threads(&r->f, g_threads, err, sizeof err) == 0, "threads %u: %s", g_threads, err))
    return false;
  fabric_run(&r->f, window);
  while (!r->f.failed && !fabric_idle(&r->f) && r->f.cycle < window + 100000)
    fabric_step(&r->f, window + 100000);
  r->end = r->f.cycle;
  return true;
}
static void run_free(run_t *r) {
  fabric_free(&r->f);
  fabric_topo_free(&r->t);
  free(r->rec);
}

/* The comparison a fabric binary's skip test makes: per-packet records and the
 * per-cycle digest trace. Returns the first mismatch ("fabric.skip_vs_noskip"). */
static bool same_run(const run_t *a, const run_t *b, char *why, size_t len) {
  size_t n = (size_t)a->t.nodes * TOY_MAXPK;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a->rec[i], &b->rec[i], sizeof a->rec[i]) != 0) {
      snprintf(why, len, "fabric.skip_vs_noskip: packet %zu record differs", i);
      return false;
    }
  uint64_t c;
  if (fabric_digest_diff(&a->f, &b->f, &c)) {
    snprintf(why, len, "fabric.skip_vs_noskip: output digest differs at cycle %" PRIu64, c);
    return false;
  }
  return true;
}

static void check_delivered(tctx_t *tc, const run_t *r, const char *what) {
  size_t n = (size_t)r->t.nodes * TOY_MAXPK, created = 0, bad = 0;
  for (size_t i = 0; i < n; i++) {
    const toy_rec_t *x = &r->rec[i];
    if (!x->created && !x->injected && !x->arrived && !x->src && !x->dst) continue;
    created++;
    if (!x->arrived || x->at != x->dst || x->arrived <= x->injected) bad++;
  }
  CHECK(tc, created > 0 && bad == 0, "%s: %zu packets, %zu not delivered right", what, created, bad);
  CHECK(tc, r->seen == created, "%s: the observer saw %" PRIu64 " arrivals of %zu packets", what, r->seen,
        created);
}

static void test_skip_equals_noskip(tctx_t *tc, uint64_t seed) {
  static const struct {
    unsigned k, n, lat;
    double load;
  } cfg[] = {{4, 2, 1, 0.02}, {4, 2, 1, 0.3}, {2, 3, 2, 0.1}, {3, 2, 3, 0.2}, {4, 3, 1, 0.01}};
  for (unsigned i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    run_t a, b;
    char why[200] = "";
    bool ok =
        run_tree(tc, &a, cfg[i].k, cfg[i].n, cfg[i].load, 2000, seed, false, 0, FABRIC_MODEL, cfg[i].lat) &&
        run_tree(tc, &b, cfg[i].k, cfg[i].n, cfg[i].load, 2000, seed, true, 0, FABRIC_MODEL, cfg[i].lat);
    if (ok) {
      CHECK(tc, same_run(&a, &b, why, sizeof why), "%u-ary %u-tree load %.2f: %s", cfg[i].k, cfg[i].n,
            cfg[i].load, why);
      CHECK(tc, !a.f.failed && !b.f.failed, "%u-ary %u-tree: a run failed", cfg[i].k, cfg[i].n);
      CHECK(tc, a.end == b.end, "drain cycle %" PRIu64 " vs %" PRIu64, a.end, b.end);
      check_delivered(tc, &a, "skip run");
      CHECK(tc, a.f.evals < b.f.evals, "skipping evaluated fewer instances (%" PRIu64 " vs %" PRIu64 ")",
            a.f.evals, b.f.evals);
      CHECK(tc, b.f.cycles_jumped == 0, "the no-skip path never jumps");
      printf("info: %u-ary %u-tree load %.2f: %" PRIu64 " of %" PRIu64 " instance evaluations, %" PRIu64
             " of %" PRIu64 " cycles jumped\n",
             cfg[i].k, cfg[i].n, cfg[i].load, a.f.evals, b.f.evals, a.f.cycles_jumped, a.end);
      if (cfg[i].load < 0.05)
        CHECK(tc, a.f.cycles_jumped > 0, "low load: idle time jumped (%" PRIu64 " cycles)",
              a.f.cycles_jumped);
      /* counters on demand: a leaf's xmit counts on its node ports sum the delivered packets */
      uint64_t v = 0;
      CHECK(tc, fabric_counter(&a.f, 0, 0, 0, &v) == 0 && v > 0, "counter read on demand");
      CHECK(tc, fabric_counter(&a.f, 0, 0, 1, &v) != 0, "unknown counter id refused");
    }
    run_free(&a);
    run_free(&b);
  }
}

/* negative: a quiet() that ignores the output registers lets the skip path
 * lose a cycle; the comparison must name it */
static void test_skip_negative(tctx_t *tc, uint64_t seed) {
  run_t a, b;
  char why[200] = "";
  if (run_tree(tc, &a, 4, 2, 0.05, 2000, seed, false, TOY_BUG_QUIET_IGNORES_OUT, FABRIC_MODEL, 1) &&
      run_tree(tc, &b, 4, 2, 0.05, 2000, seed, true, TOY_BUG_QUIET_IGNORES_OUT, FABRIC_MODEL, 1)) {
    bool same = same_run(&a, &b, why, sizeof why);
    CHECK(tc, !same && strstr(why, "fabric.skip_vs_noskip") != NULL,
          "planted quiet() lie caught by the skip-vs-no-skip comparison (%s)", why);
  }
  run_free(&a);
  run_free(&b);
}

/* The identity check of a threaded run (fabric.threads): the same records
 * and per-cycle digest trace as one thread, and the same end (with an
 * observer: without one a step is a window, and the drain loop's last step
 * may end up to a window later). */
static bool same_threaded(const run_t *one, const run_t *par, char *why, size_t len) {
  const bool windows = !par->f.observer;
  size_t n = (size_t)one->t.nodes * TOY_MAXPK;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&one->rec[i], &par->rec[i], sizeof one->rec[i]) != 0) {
      snprintf(why, len, "fabric.threads: packet %zu record differs", i);
      return false;
    }
  uint64_t c;
  if (fabric_digest_diff(&one->f, &par->f, &c)) {
    snprintf(why, len, "fabric.threads: output digest differs at cycle %" PRIu64, c);
    return false;
  }
  if ((!windows && one->end != par->end) || one->f.digest != par->f.digest || one->seen != par->seen) {
    snprintf(why, len,
             "fabric.threads: end %" PRIu64 " vs %" PRIu64 ", arrivals seen %" PRIu64 " vs %" PRIu64,
             one->end, par->end, one->seen, par->seen);
    return false;
  }
  return true;
}

static void test_threads(tctx_t *tc, uint64_t seed) {
  static const struct {
    unsigned k, n, lat, threads;
    double load;
    bool no_observer, no_skip;
  } cfg[] = {{4, 2, 1, 2, 0.3, false, false}, {4, 3, 1, 3, 0.1, false, false},
             {2, 3, 2, 4, 0.2, false, true},  {3, 2, 3, 2, 0.2, true, false},
             {4, 2, 4, 3, 0.3, true, false},  {4, 3, 2, 2, 0.01, true, false}};
  for (unsigned i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    run_t a, b;
    char why[200] = "";
    g_no_observer = cfg[i].no_observer;
    g_threads = 1;
    bool ok = run_tree(tc, &a, cfg[i].k, cfg[i].n, cfg[i].load, 2000, seed, cfg[i].no_skip, 0, FABRIC_MODEL,
                       cfg[i].lat);
    g_threads = cfg[i].threads;
    ok = ok && run_tree(tc, &b, cfg[i].k, cfg[i].n, cfg[i].load, 2000, seed, cfg[i].no_skip, 0, FABRIC_MODEL,
                        cfg[i].lat);
    if (ok) {
      CHECK(tc, same_threaded(&a, &b, why, sizeof why), "%u-ary %u-tree lat %u, %u threads%s: %s", cfg[i].k,
            cfg[i].n, cfg[i].lat, cfg[i].threads, cfg[i].no_observer ? ", no observer" : "", why);
      CHECK(tc, !a.f.failed && !b.f.failed, "threads: a run failed");
      CHECK(tc, b.f.parts == cfg[i].threads && b.f.cut_links > 0 && b.f.lookahead == cfg[i].lat,
            "%u parts, %" PRIu32 " cut links, lookahead %" PRIu64 " (the link latency %u)", b.f.parts,
            b.f.cut_links, b.f.lookahead, cfg[i].lat);
      /* once per cycle with an observer, once per lookahead window without */
      CHECK(tc,
            cfg[i].no_observer ? b.f.syncs < b.f.cycles_run || cfg[i].lat == 1 : b.f.syncs == b.f.cycles_run,
            "%" PRIu64 " synchronisations for %" PRIu64 " cycles run (lookahead %u)", b.f.syncs,
            b.f.cycles_run, cfg[i].lat);
      if (!cfg[i].no_observer) check_delivered(tc, &b, "threaded run");
      printf("info: %u-ary %u-tree lat %u load %.2f, %u threads%s: %" PRIu32 " cut links, %" PRIu64
             " synchronisations, %" PRIu64 " cycles run, %" PRIu64 " jumped\n",
             cfg[i].k, cfg[i].n, cfg[i].lat, cfg[i].load, cfg[i].threads,
             cfg[i].no_observer ? " (no observer)" : "", b.f.cut_links, b.f.syncs, b.f.cycles_run,
             b.f.cycles_jumped);
      run_free(&b);
    }
    run_free(&a);
  }
  /* negative: a part that reads its cut links one cycle late (as one that
   * does not wait for the other part's writes) must be caught */
  for (unsigned obs = 0; obs < 2; obs++) {
    run_t a, b;
    char why[200] = "";
    g_no_observer = obs;
    g_threads = 1;
    g_pbug = FABRIC_PBUG_CUT_LATE; /* inert on one thread: no cut links */
    bool ok = run_tree(tc, &a, 4, 2, 0.2, 2000, seed, false, 0, FABRIC_MODEL, 2);
    g_threads = 2;
    ok = ok && run_tree(tc, &b, 4, 2, 0.2, 2000, seed, false, 0, FABRIC_MODEL, 2);
    if (ok) {
      bool same = same_threaded(&a, &b, why, sizeof why);
      CHECK(tc, !same && strstr(why, "fabric.threads") != NULL,
            "planted late read of cut links caught by the threads identity check%s (%s)",
            obs ? ", no observer" : "", why);
      run_free(&b);
    }
    run_free(&a);
  }
  g_threads = 1;
  g_pbug = 0;
  g_no_observer = false;
}

static void test_lockstep(tctx_t *tc, uint64_t seed) {
  run_t a;
  /* the same implementation twice: no divergence, equal to the model run */
  if (run_tree(tc, &a, 4, 2, 0.3, 1000, seed, false, 0, FABRIC_LOCKSTEP, 1)) {
    CHECK(tc, !a.f.failed, "lockstep of identical implementations: %s", a.f.fail_msg);
    run_t m;
    char why[200] = "";
    if (run_tree(tc, &m, 4, 2, 0.3, 1000, seed, false, 0, FABRIC_MODEL, 1))
      CHECK(tc, same_run(&a, &m, why, sizeof why), "lockstep run equals the model run: %s", why);
    run_free(&m);
  }
  run_free(&a);
  /* negative: both sides stuck round-robin would agree; plant it in the
   * second implementation only by a per-instance bug on the "RTL" side */
  fabric_t f;
  char err[256];
  fabric_init(&f);
  f.no_skip = true; /* inputs fed by hand, not through links (arrivals 0: never cleared) */
  fabric_type_t t = toy_sw_type(2);
  toy_sw_params_t sp = {2, 0};
  uint32_t s0 = fabric_add(&f, &t, FABRIC_LOCKSTEP, "swA", &sp, err, sizeof err);
  CHECK(tc, s0 == 0, "add lockstep: %s", err);
  if (s0 == 0) {
    ((toy_sw_t *)f.inst[0].r)->bug = TOY_BUG_RR_STUCK;
    /* two inputs both to output 1, fed every cycle by hand (ports unwired) */
    for (uint64_t c = 0; c < 20 && !f.failed; c++) {
      f.inst[0].in[0] = (fabric_flit_t){1, 0, 0, 1, 0x100000001ull | 0xFFFFFFF0ull};
      f.inst[0].in[1] = (fabric_flit_t){1, 0, 0, 1, 0x200000001ull | 0xFFFFFFF0ull};
      fabric_step(&f, 100);
    }
    CHECK(tc, f.failed && strcmp(f.fail_check, "fabric.lockstep") == 0,
          "planted RTL-side bug caught by lockstep");
    char want[64];
    snprintf(want, sizeof want, "cycle %" PRIu64 ":", f.fail_cycle);
    CHECK(tc, strstr(f.fail_msg, "instance swA (toy_sw) port ") != NULL && strstr(f.fail_msg, want) != NULL,
          "divergence names instance, port and cycle: %s", f.fail_msg);
  }
  fabric_free(&f);
}

static void test_connect_errors(tctx_t *tc) {
  fabric_t f;
  char err[256] = "";
  fabric_init(&f);
  fabric_type_t t = toy_sw_type(4);
  toy_sw_params_t sp = {4, 0};
  toy_nic_params_t np = {NULL, NULL, 0, 0, 0};
  fabric_topo_t dummy = {0};
  np.topo = &dummy;
  uint32_t a = fabric_add(&f, &t, FABRIC_MODEL, "a", &sp, err, sizeof err);
  uint32_t b = fabric_add(&f, &t, FABRIC_RTL, "b", &sp, err, sizeof err);
  uint32_t o = fabric_add(&f, &other_type, FABRIC_MODEL, "o", &np, err, sizeof err);
  CHECK(tc, a == 0 && b == 1 && o == 2, "three instances");
  CHECK(tc,
        fabric_add(&f, &t, FABRIC_MODEL, "a", &sp, err, sizeof err) == FABRIC_NONE && strstr(err, "already"),
        "duplicate name refused: %s", err);
  CHECK(tc,
        fabric_add(&f, &toy_nic_type, FABRIC_RTL, "n", &np, err, sizeof err) == FABRIC_NONE &&
            strstr(err, "no RTL"),
        "missing implementation named: %s", err);
  CHECK(tc, fabric_connect(&f, a, 4, b, 0, 1, err, sizeof err) && strstr(err, "port out of range"),
        "port: %s", err);
  CHECK(tc, fabric_connect(&f, a, 0, o, 0, 1, err, sizeof err) && strstr(err, "kinds differ"), "kinds: %s",
        err);
  CHECK(tc, fabric_connect(&f, a, 0, b, 0, 0, err, sizeof err) && strstr(err, "latency 0"), "latency: %s",
        err);
  CHECK(tc, fabric_connect(&f, a, 0, b, 0, 1, err, sizeof err) == 0, "a good link");
  CHECK(tc, fabric_connect(&f, a, 0, b, 1, 1, err, sizeof err) && strstr(err, "already wired"), "twice: %s",
        err);
  CHECK(tc, fabric_config(&f, a, "credits", 1, 2, err, sizeof err) == 0, "config accepted");
  CHECK(tc, fabric_config(&f, a, "credits", 9, 2, err, sizeof err) != 0 && strstr(err, "credits[9]"),
        "bad config named: %s", err);
  CHECK(tc, fabric_config(&f, o, "x", 0, 0, err, sizeof err) != 0 && strstr(err, "no configuration channel"),
        "no config channel: %s", err);
  CHECK(tc, fabric_find(&f, "b") == b && fabric_find(&f, "zz") == FABRIC_NONE, "find by name");
  fabric_free(&f);
  CHECK(tc, fabric_link_cycles(1, 0, FABRIC_NOMINAL_MHZ) == 1, "no cable: the register only");
  CHECK(tc, fabric_link_cycles(1, 1.0, FABRIC_NOMINAL_MHZ) == 2, "1 m at 250 MHz: one more cycle");
  CHECK(tc, fabric_link_cycles(1, 2.5, FABRIC_NOMINAL_MHZ) == 4, "2.5 m = 10 ns: three more");
  CHECK(tc, fabric_link_cycles(1, 10.0, 100.0) == 5, "10 m at 100 MHz: 40 ns = four more");
}

/* Walk a route through the wiring table: where does it end? */
static bool walk_tree(const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *rng, unsigned *hops) {
  uint8_t down[16];
  unsigned u = fabric_tree_route(t, src, dst, down);
  fabric_end_t at = t->node[src];
  *hops = 0;
  for (unsigned h = 0; h < 2 * u + 1; h++) {
    unsigned q = h < u ? t->k + (unsigned)(unit_splitmix64(rng) % t->k) : down[h - u];
    const fabric_end_t *e = fabric_topo_peer(t, at.id, q);
    (*hops)++;
    if (h == 2 * u) return e->kind == FABRIC_END_NODE && e->id == dst;
    if (e->kind != FABRIC_END_SWITCH) return false;
    at = *e;
  }
  return false;
}

static void test_topologies(tctx_t *tc, uint64_t seed) {
  char err[256];
  uint64_t rng = seed;
  for (unsigned k = 2; k <= 5; k++)
    for (unsigned n = 1; n <= 4; n++) {
      fabric_topo_t t;
      if (!CHECK(tc, fabric_topo_kary_ntree(&t, k, n, err, sizeof err) == 0, "%u-ary %u-tree: %s", k, n, err))
        continue;
      unsigned sym = 0, tied = 0, bad = 0;
      for (unsigned s = 0; s < t.nsw; s++)
        for (unsigned q = 0; q < t.sw_ports; q++) {
          const fabric_end_t *e = fabric_topo_peer(&t, s, q);
          if (e->kind == FABRIC_END_SWITCH) {
            const fabric_end_t *b = fabric_topo_peer(&t, e->id, e->port);
            sym += b->kind == FABRIC_END_SWITCH && b->id == s && b->port == q;
            bad += fabric_tree_level(&t, e->id) != fabric_tree_level(&t, s) + (q >= k ? 1u : 0u) - (q < k);
          } else if (e->kind == FABRIC_END_NONE) {
            tied++;
            bad += fabric_tree_level(&t, s) != n - 1 || q < k;
          } else
            bad += fabric_tree_level(&t, s) != 0 || t.node[e->id].id != s || t.node[e->id].port != q;
        }
      unsigned links = 2 * (n - 1) * t.per_level * k; /* switch-switch port ends */
      CHECK(tc, t.nodes == t.per_level * k && sym == links && tied == t.per_level * k && bad == 0,
            "%u-ary %u-tree wiring: %u nodes, %u symmetric ends of %u, %u tied, %u wrong", k, n, t.nodes, sym,
            links, tied, bad);
      unsigned wrong = 0, maxhops = 0;
      for (unsigned trial = 0; trial < 400; trial++) {
        unsigned s = (unsigned)(unit_splitmix64(&rng) % t.nodes),
                 d = (unsigned)(unit_splitmix64(&rng) % t.nodes), h;
        wrong += !walk_tree(&t, s, d, &rng, &h);
        if (h > maxhops) maxhops = h;
      }
      CHECK(tc, wrong == 0 && maxhops <= 2 * n - 1, "%u-ary %u-tree routes: %u wrong, longest %u switches", k,
            n, wrong, maxhops);
      fabric_topo_free(&t);
    }
  /* k = 4: the Elite radix-4 wiring, (l, w) up 4 + j -> (l + 1, w with digit l := j) down w_l */
  fabric_topo_t t;
  if (fabric_topo_kary_ntree(&t, 4, 3, err, sizeof err) == 0) {
    const fabric_end_t *e =
        fabric_topo_peer(&t, 16 + 6, 4 + 3); /* level 1, w = 6 (digits 2, 1), digit 1 := 3 */
    CHECK(tc, t.nsw == 48 && e->kind == FABRIC_END_SWITCH && e->id == 32 + 14 && e->port == 1,
          "4-ary 3-tree: switch 22 up port 7 -> switch %u port %u (want 46 port 1)", e->id, e->port);
    fabric_topo_free(&t);
  }
  CHECK(tc,
        fabric_topo_single(&t, 6, 8, err, sizeof err) == 0 && t.nsw == 1 && t.node[5].port == 5 &&
            fabric_topo_peer(&t, 0, 7)->kind == FABRIC_END_NONE,
        "single switch");
  fabric_topo_free(&t);
  if (CHECK(tc, fabric_topo_torus2d(&t, 4, 3, 2, 1, err, sizeof err) == 0, "torus: %s", err)) {
    unsigned bad = 0;
    for (unsigned r = 0; r < t.nsw; r++)
      for (unsigned q = 0; q < 2; q++) {
        const fabric_end_t *xp = fabric_topo_peer(&t, r, 1 + FABRIC_TORUS_XP * 2 + q);
        const fabric_end_t *yp = fabric_topo_peer(&t, r, 1 + FABRIC_TORUS_YP * 2 + q);
        unsigned x = r % 4, y = r / 4;
        bad += xp->id != y * 4 + (x + 1) % 4 || xp->port != 1 + FABRIC_TORUS_XM * 2 + q;
        bad += yp->id != ((y + 1) % 3) * 4 + x || yp->port != 1 + FABRIC_TORUS_YM * 2 + q;
      }
    CHECK(tc, t.nodes == 12 && t.sw_ports == 9 && bad == 0, "4x3 torus, 2 parallel links: %u wrong", bad);
    fabric_topo_free(&t);
  }
  /* bad parameters: a message naming the parameter and its range */
  CHECK(tc, fabric_topo_kary_ntree(&t, 1, 2, err, sizeof err) && strstr(err, "k = 1 out of range 2..64"),
        "%s", err);
  CHECK(tc, fabric_topo_kary_ntree(&t, 4, 0, err, sizeof err) && strstr(err, "n = 0 out of range"), "%s",
        err);
  CHECK(tc, fabric_topo_kary_ntree(&t, 64, 5, err, sizeof err) && strstr(err, "n = 5 out of range"), "%s",
        err);
  CHECK(tc, fabric_topo_single(&t, 9, 8, err, sizeof err) && strstr(err, "nodes = 9 out of range 1..8"), "%s",
        err);
  CHECK(tc, fabric_topo_torus2d(&t, 4, 1, 1, 1, err, sizeof err) && strstr(err, "y = 1 out of range"), "%s",
        err);
  CHECK(tc, fabric_topo_torus2d(&t, 4, 4, 0, 1, err, sizeof err) && strstr(err, "p = 0 out of range"), "%s",
        err);
}

/* ------------------------------------------------------------------------------------ */
/* Two-level fat trees and topology files (ibnetdiscover format)              */
/* ------------------------------------------------------------------------------------ */

/* Walk src -> dst through a two-level fat tree: any up port at the leaf, any
 * of the m parallel down ports at the spine; where does it end? */
static bool walk_fat2(const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *rng) {
  const unsigned half = t->radix / 2;
  fabric_end_t at = t->node[src];
  if (at.id != src / half || at.port != src % half) return false;
  if (src / half != dst / half) {
    const fabric_end_t *up = fabric_topo_peer(t, at.id, half + (unsigned)(unit_splitmix64(rng) % half));
    if (up->kind != FABRIC_END_SWITCH || up->id < t->leaves) return false;
    const fabric_end_t *dn =
        fabric_topo_peer(t, up->id, (dst / half) * t->mult + (unsigned)(unit_splitmix64(rng) % t->mult));
    if (dn->kind != FABRIC_END_SWITCH || dn->id != dst / half || dn->port < half) return false;
    at = *dn;
  }
  const fabric_end_t *e = fabric_topo_peer(t, at.id, dst % half);
  return e->kind == FABRIC_END_NODE && e->id == dst;
}

static void test_fat2(tctx_t *tc, uint64_t seed) {
  static const unsigned cfg[][3] = {{4, 4, 0},   {8, 8, 0},  {8, 4, 2}, {24, 24, 0},
                                    {24, 12, 6}, {36, 6, 3}, {6, 2, 1}};
  uint64_t rng = seed ^ 0xfa72;
  char err[256];
  for (unsigned i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    fabric_topo_t t;
    const unsigned R = cfg[i][0], L = cfg[i][1];
    if (!CHECK(tc, fabric_topo_fat2(&t, R, L, cfg[i][2], err, sizeof err) == 0, "fat2 %u/%u/%u: %s", R, L,
               cfg[i][2], err))
      continue;
    const unsigned S = cfg[i][2] ? cfg[i][2] : R / 2;
    unsigned sym = 0, ends = 0, tied = 0, wrong = 0;
    for (unsigned s = 0; s < t.nsw; s++)
      for (unsigned q = 0; q < R; q++) {
        const fabric_end_t *e = fabric_topo_peer(&t, s, q);
        if (e->kind == FABRIC_END_SWITCH) {
          const fabric_end_t *b = fabric_topo_peer(&t, e->id, e->port);
          ends++;
          sym += b->kind == FABRIC_END_SWITCH && b->id == s && b->port == q && (s < L) != (e->id < L);
        } else if (e->kind == FABRIC_END_NONE) {
          tied++;
        }
      }
    for (unsigned trial = 0; trial < 400; trial++)
      wrong += !walk_fat2(&t, (unsigned)(unit_splitmix64(&rng) % t.nodes),
                          (unsigned)(unit_splitmix64(&rng) % t.nodes), &rng);
    CHECK(tc,
          t.nsw == L + S && t.nodes == L * R / 2 && ends == L * R && sym == ends &&
              tied == S * R - L * R / 2 && wrong == 0,
          "fat2 R=%u L=%u S=%u: %u switches, %u nodes, %u of %u link ends symmetric leaf-spine, %u tied off, "
          "%u "
          "routes wrong",
          R, L, S, t.nsw, t.nodes, sym, ends, tied, wrong);
    fabric_topo_free(&t);
  }
  fabric_topo_t t;
  CHECK(tc, fabric_topo_fat2(&t, 7, 4, 0, err, sizeof err) && strstr(err, "R = 7 out of range 4..254"), "%s",
        err);
  CHECK(tc, fabric_topo_fat2(&t, 8, 9, 0, err, sizeof err) && strstr(err, "L = 9 out of range 2..8"), "%s",
        err);
  CHECK(tc, fabric_topo_fat2(&t, 8, 1, 0, err, sizeof err) && strstr(err, "L = 1 out of range"), "%s", err);
  CHECK(tc, fabric_topo_fat2(&t, 12, 4, 4, err, sizeof err) && strstr(err, "S = 4 must divide R/2 = 6"), "%s",
        err);
  CHECK(tc, fabric_topo_fat2(&t, 256, 4, 0, err, sizeof err) && strstr(err, "R = 256"), "%s", err);
}

/* builder -> write -> read: the same wiring, and writing the read graph again gives the same text */
static bool round_trip(tctx_t *tc, const fabric_topo_t *t, const char *what) {
  char *buf = NULL, *buf2 = NULL, err[400] = "", why[600] = "";
  size_t len = 0, len2 = 0;
  FILE *m = open_memstream(&buf, &len);
  bool ok = m && fabric_topo_write_ibnd(t, m, err, sizeof err) == 0;
  if (m) fclose(m);
  fabric_topo_t r, r2;
  memset(&r, 0, sizeof r);
  memset(&r2, 0, sizeof r2);
  ok = CHECK(tc, ok, "%s: write: %s", what, err) &&
       CHECK(tc, fabric_topo_parse_ibnd(&r, what, buf, len, err, sizeof err) == 0, "%s: read back: %s", what,
             err) &&
       CHECK(tc, r.kind == FABRIC_TOPO_READ && fabric_topo_diff(t, &r, why, sizeof why) == 0,
             "%s: the read wiring equals the builder's: %s", what, why);
  if (ok) {
    m = open_memstream(&buf2, &len2);
    ok = m && fabric_topo_write_ibnd(&r, m, err, sizeof err) == 0;
    if (m) fclose(m);
    ok = CHECK(tc,
               ok && fabric_topo_parse_ibnd(&r2, what, buf2, len2, err, sizeof err) == 0 &&
                   fabric_topo_diff(&r, &r2, why, sizeof why) == 0,
               "%s: read -> write -> read: %s%s", what, err, why);
  }
  fabric_topo_free(&r);
  fabric_topo_free(&r2);
  free(buf);
  free(buf2);
  return ok;
}

static void test_ibnd_round_trip(tctx_t *tc) {
  char err[256], what[80];
  fabric_topo_t t;
  unsigned n_ok = 0, n = 0;
  for (unsigned k = 2; k <= 5; k++)
    for (unsigned lv = 1; lv <= 3; lv++) {
      snprintf(what, sizeof what, "%u-ary %u-tree", k, lv);
      if (fabric_topo_kary_ntree(&t, k, lv, err, sizeof err) == 0) n_ok += round_trip(tc, &t, what), n++;
      fabric_topo_free(&t);
    }
  if (fabric_topo_kary_ntree(&t, 4, 4, err, sizeof err) == 0) n_ok += round_trip(tc, &t, "4-ary 4-tree"), n++;
  fabric_topo_free(&t);
  static const unsigned tor[][4] = {{4, 3, 2, 1}, {3, 3, 2, 3}, {2, 2, 3, 2}, {5, 4, 1, 4}};
  for (unsigned i = 0; i < 4; i++) {
    snprintf(what, sizeof what, "torus %ux%u p%u c%u", tor[i][0], tor[i][1], tor[i][2], tor[i][3]);
    if (fabric_topo_torus2d(&t, tor[i][0], tor[i][1], tor[i][2], tor[i][3], err, sizeof err) == 0)
      n_ok += round_trip(tc, &t, what), n++;
    fabric_topo_free(&t);
  }
  if (fabric_topo_single(&t, 6, 8, err, sizeof err) == 0) n_ok += round_trip(tc, &t, "single 6 of 8"), n++;
  fabric_topo_free(&t);
  if (fabric_topo_single(&t, 1, 1, err, sizeof err) == 0) n_ok += round_trip(tc, &t, "single 1 of 1"), n++;
  fabric_topo_free(&t);
  static const unsigned f2[][3] = {{8, 8, 0}, {24, 12, 6}, {36, 6, 3}};
  for (unsigned i = 0; i < 3; i++) {
    snprintf(what, sizeof what, "fat2 R%u L%u S%u", f2[i][0], f2[i][1], f2[i][2]);
    if (fabric_topo_fat2(&t, f2[i][0], f2[i][1], f2[i][2], err, sizeof err) == 0)
      n_ok += round_trip(tc, &t, what), n++;
    fabric_topo_free(&t);
  }
  printf("info: ibnetdiscover round trip: %u of %u topologies identical\n", n_ok, n);
  /* what the format cannot hold */
  FILE *nul = fopen("/dev/null", "w");
  if (fabric_topo_single(&t, 4, 300, err, sizeof err) == 0)
    CHECK(tc,
          nul && fabric_topo_write_ibnd(&t, nul, err, sizeof err) && strstr(err, "300 ports, at most 254"),
          "%s", err);
  fabric_topo_free(&t);
  if (fabric_topo_kary_ntree(&t, 4, 8, err, sizeof err) == 0)
    CHECK(tc, nul && fabric_topo_write_ibnd(&t, nul, err, sizeof err) && strstr(err, "unicast LIDs"), "%s",
          err);
  fabric_topo_free(&t);
  if (nul) fclose(nul);
  /* a read graph differs from the builder's where one link is moved: the difference names switch, port, line */
  if (fabric_topo_kary_ntree(&t, 2, 2, err, sizeof err) == 0) {
    char *buf = NULL, why[600] = "";
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fabric_topo_write_ibnd(&t, m, err, sizeof err);
    fclose(m);
    /* swap the two nodes of leaf 0 in the text: H-..00 <-> H-..10 (node 0 and node 1) */
    char *a = strstr(buf, "\"H-4e43530200000000\"[1](4e43530200000001)");
    char *b = strstr(buf, "\"H-4e43530200000010\"[1](4e43530200000011)");
    fabric_topo_t r;
    if (CHECK(tc, a && b, "the written 2-ary 2-tree names nodes 0 and 1")) {
      memcpy(a, "\"H-4e43530200000010\"[1](4e43530200000011)", 41);
      memcpy(b, "\"H-4e43530200000000\"[1](4e43530200000001)", 41);
      /* and their Ca lines' ports, so both ends agree again: a consistent file, wired differently */
      char *c0 = strstr(buf, "[1](4e43530200000001)\t\"S-4e43530100000000\"[1]");
      char *c1 = strstr(buf, "[1](4e43530200000011)\t\"S-4e43530100000000\"[2]");
      if (CHECK(tc, c0 && c1, "Ca lines found")) {
        c0[43] = '2';
        c1[43] = '1';
        CHECK(tc, fabric_topo_parse_ibnd(&r, "swapped.ibnd", buf, len, err, sizeof err) == 0,
              "swapped file: %s", err);
        CHECK(tc,
              fabric_topo_diff(&t, &r, why, sizeof why) == 1 &&
                  strstr(why, "switch 0 port 0 joins node 0 vs node 1 (swapped.ibnd:"),
              "the difference names switch, port and file line: %s", why);
        fabric_topo_free(&r);
      }
    }
    free(buf);
  }
  fabric_topo_free(&t);
}

/* A dump in ibnetdiscover's own syntax (written here by hand after the man
 * page's description: vendid/devid/sysimgguid/switchguid lines, port GUIDs in
 * parentheses, a dual-ported CA, lid comments, ext ports, a grouping line),
 * and ibsim's example net file shipped by Debian's ibsim-utils. */
static const char real_dump[] =
    "#\n# Topology file: generated on Wed Nov 25 00:00:00 2026\n#\n# Initiated from node 0011750000aa0001 "
    "port "
    "0011750000aa0002\n\nNon-Chassis Nodes\n\n"
    "vendid=0x1175\ndevid=0x5a31\nsysimgguid=0x11750000bb0000\nswitchguid=0x11750000bb0001(11750000bb0001)\n"
    "Switch\t12 \"S-0011750000bb0001\"\t\t# \"edge-1\" base port 0 lid 3 lmc 0\n"
    "[1]\t\"H-0011750000aa0001\"[1](11750000aa0002) \t\t# \"node-a mlx4_0\" lid 7 4xQDR\n"
    "[2]\t\"H-0011750000aa0001\"[2](11750000aa0003) \t\t# \"node-a mlx4_0\" lid 8 4xQDR\n"
    "[9][ext 9]\t\"S-0011750000bb0002\"[11]\t\t# \"edge-2\" lid 4 4xQDR\n"
    "[10]\t\"S-0011750000bb0002\"[12]\t\t# \"edge-2\" lid 4 4xQDR\n"
    "\nvendid=0x1175\ndevid=0x5a31\nsysimgguid=0x11750000bb0000\nswitchguid=0x11750000bb0002(11750000bb0002)"
    "\n"
    "Switch\t12 \"S-0011750000bb0002\"\t\t# \"edge-2\" enhanced port 0 lid 4 lmc 0\n"
    "[11]\t\"S-0011750000bb0001\"[9]\t\t# \"edge-1\" lid 3 4xQDR\n"
    "[12]\t\"S-0011750000bb0001\"[10]\t\t# \"edge-1\" lid 3 4xQDR\n"
    "[3]\t\"H-0011750000aa0010\"[1](11750000aa0011) \t\t# \"node-b\" lid 9 4xQDR\n"
    "\nvendid=0x2c9\ndevid=0x673c\nsysimgguid=0x11750000aa0001\ncaguid=0x11750000aa0001\n"
    "Ca\t2 \"H-0011750000aa0001\"\t\t# \"node-a mlx4_0\"\n"
    "[2](11750000aa0003) \t\"S-0011750000bb0001\"[2]\t\t# lid 8 lmc 0 \"edge-1\" lid 3 4xQDR\n"
    "[1](11750000aa0002) \t\"S-0011750000bb0001\"[1]\t\t# lid 7 lmc 0 \"edge-1\" lid 3 4xQDR\n"
    "\nvendid=0x2c9\ndevid=0x673c\nsysimgguid=0x11750000aa0010\ncaguid=0x11750000aa0010\n"
    "Ca\t1 \"H-0011750000aa0010\"\t\t# \"node-b\"\n"
    "[1](11750000aa0011) \t\"S-0011750000bb0002\"[3]\t\t# lid 9 lmc 0 \"edge-2\" lid 4 4xQDR\n";

#define IBSIM_NET "/usr/share/doc/ibsim-utils/net-examples/net.2sw2path4hca"

static void test_ibnd_real(tctx_t *tc) {
  fabric_topo_t t;
  char err[400];
  if (CHECK(tc, fabric_topo_parse_ibnd(&t, "dump", real_dump, sizeof real_dump - 1, err, sizeof err) == 0,
            "hand-written ibnetdiscover dump: %s", err)) {
    /* node 0, 1: node-a's ports 1 and 2 (port order), node 2: node-b */
    const fabric_end_t *x = fabric_topo_peer(&t, 0, 8), *y = fabric_topo_peer(&t, 1, 11);
    CHECK(tc,
          t.nsw == 2 && t.nodes == 3 && t.sw_ports == 12 && t.node[0].id == 0 && t.node[0].port == 0 &&
              t.node[1].port == 1 && t.node[2].id == 1 && t.node[2].port == 2 &&
              x->kind == FABRIC_END_SWITCH && x->id == 1 && x->port == 10 && y->id == 0 && y->port == 9 &&
              t.line[8] != 0,
          "dump: 2 switches, 3 nodes (a dual-ported CA is two), links 0:8 <-> 1:10, 0:9 <-> 1:11");
    fabric_topo_free(&t);
  }
  if (CHECK(tc, fabric_topo_read_ibnd(&t, IBSIM_NET, err, sizeof err) == 0,
            "ibsim's example (Debian ibsim-utils; make deps installs it): %s", err)) {
    /* Switch1 [1] Hca1, [2] Hca3, [3] Switch2[3], [5] Switch2[5]; Switch2 [1] Hca2, [2] Hca4 */
    const fabric_end_t *a = fabric_topo_peer(&t, 0, 2), *b = fabric_topo_peer(&t, 1, 4);
    CHECK(tc,
          t.nsw == 2 && t.nodes == 4 && t.sw_ports == 8 && a->kind == FABRIC_END_SWITCH && a->id == 1 &&
              a->port == 2 && b->id == 0 && b->port == 4 && t.node[0].id == 0 && t.node[1].id == 1 &&
              t.node[2].id == 0 && t.node[2].port == 1 && t.node[3].id == 1 && t.node[3].port == 1,
          "%s: 2 switches, 4 nodes, two parallel switch links", IBSIM_NET);
    fabric_topo_free(&t);
  }
  /* the committed example files (testbench/fabric/topos/) are what the writer writes for their builders */
  static const struct {
    const char *file;
    int kind;
    unsigned a, b, c, d;
  } files[] = {{"ftree16.ibnd", FABRIC_TOPO_TREE, 4, 2, 0, 0},
               {"torus4x4_p2.ibnd", FABRIC_TOPO_TORUS, 4, 4, 2, 1},
               {"fat2_r8_l8.ibnd", FABRIC_TOPO_FAT2, 8, 8, 0, 0}};
  for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[600], why[600] = "";
    fabric_topo_t b;
    snprintf(path, sizeof path, "%s/testbench/fabric/topos/%s", NETCOSIM_SRCDIR, files[i].file);
    const int rb =
        files[i].kind == FABRIC_TOPO_TREE
            ? fabric_topo_kary_ntree(&b, files[i].a, files[i].b, err, sizeof err)
        : files[i].kind == FABRIC_TOPO_TORUS
            ? fabric_topo_torus2d(&b, files[i].a, files[i].b, files[i].c, files[i].d, err, sizeof err)
            : fabric_topo_fat2(&b, files[i].a, files[i].b, files[i].c, err, sizeof err);
    if (CHECK(tc, rb == 0 && fabric_topo_read_ibnd(&t, path, err, sizeof err) == 0, "%s: %s", path, err)) {
      CHECK(tc, fabric_topo_diff(&b, &t, why, sizeof why) == 0, "%s is the builder's wiring: %s", path, why);
      fabric_topo_free(&t);
    }
    fabric_topo_free(&b);
  }
  CHECK(tc,
        fabric_topo_read_ibnd(&t, "/nonexistent/x.ibnd", err, sizeof err) &&
            strstr(err, "/nonexistent/x.ibnd: cannot open"),
        "%s", err);
}

/* Bad input: -1 and "FILE:LINE: field: ..." naming what is wrong, never a crash. */
static void test_ibnd_bad(tctx_t *tc, uint64_t seed) {
  static const char sw2[] = "Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\n[2] \"S-02\"[1]\n"
                            "Switch 4 \"S-02\"\n[1] \"S-01\"[2]\n"
                            "Ca 1 \"H-0a\"\n[1] \"S-01\"[1]\n";
  static const struct {
    const char *text, *want;
  } bad[] = {
      {"Router 4 \"S-01\"\n", "bad.ibnd:1: keyword: unknown keyword 'Router'"},
      {"# c\nSwitch 4 \"S-01zz\"\n", "bad.ibnd:2: node id: bad GUID in \"S-01zz\""},
      {"Switch 4 \"S-01\"\n[1] \"H-0g\"[1]\n", "bad.ibnd:2: peer: bad GUID"},
      {"switchguid=0xnothex\n", "bad.ibnd:1: switchguid: bad GUID"},
      {"switchguid=0x02(02)\nSwitch 4 \"S-01\"\n",
       "bad.ibnd:2: switchguid: 0x0000000000000002 above does not match"},
      {"Switch 4 \"S-01\"\n[5] \"H-0a\"[1]\n",
       "bad.ibnd:2: port: port [5] out of range 1..4 (the Switch at line 1 declares 4 ports)"},
      {"Switch 4 \"S-01\"\n[0] \"H-0a\"[1]\n", "bad.ibnd:2: port: port [0] out of range"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\n[1] \"H-0b\"[1]\n",
       "bad.ibnd:3: port: port [1] listed twice (first at line 2)"},
      {"Switch 300 \"S-01\"\n", "bad.ibnd:1: port count: expected a number 1..254"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\nCa 1 \"H-0a\"\n[1] \"S-01\"[2]\n",
       "bad.ibnd:4: peer: port [1] links to \"S-01\"[2], but \"S-01\"[1] (line 2) links to this port: the "
       "link's two ends disagree"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\n[2] \"S-02\"[1]\nSwitch 4 \"S-02\"\nCa 1 \"H-0a\"\n[1] "
       "\"S-01\"[1]\n",
       "bad.ibnd:3: peer port: links to \"S-02\"[1], but that node's block (line 4) lists no port [1]"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\n[2] \"H-0b\"[1]\nCa 1 \"H-0a\"\n[1] \"S-01\"[2]\nCa 1 "
       "\"H-0b\"\n[1] \"S-01\"[2]\n",
       "bad.ibnd:5: peer: port [1] links to \"S-01\"[2], but \"S-01\"[1] (line 2) links to this port"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1]\n", "bad.ibnd:2: peer: \"H-0a\" is never declared"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[2]\nCa 1 \"H-0a\"\n[1] \"S-01\"[1]\n",
       "bad.ibnd:2: peer port: port [2] out of range 1..1 of \"H-0a\""},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"\n", "bad.ibnd:2: peer port: truncated line: expected [N]"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\n",
       "bad.ibnd:2: peer: truncated line: the peer id's closing quote is missing"},
      {"Switch 4 \"S-01\"\n[1]\n", "bad.ibnd:2: peer: truncated line"},
      {"Switch 4\n", "bad.ibnd:1: node id: truncated line"},
      {"Switch\n", "bad.ibnd:1: port count: truncated line"},
      {"Switch 4 \"S-01\"\n[1] \"H-0a\"[1] junk\n",
       "bad.ibnd:2: peer port: unexpected text after the peer's port"},
      {"[1] \"H-0a\"[1]\n", "bad.ibnd:1: port: a port line before any Switch or Ca line"},
      {"Switch 4 \"S-01\"\nSwitch 4 \"S-01\"\n",
       "bad.ibnd:2: node id: \"S-01\" declared twice (first at line 1)"},
      {"Switch 4 \"H-01\"\n", "bad.ibnd:1: node id: a Switch's id starts with S-"},
      {"Switch 4 \"S-01\"\n[1] \"S-02\"[1]\nCa 1 \"S-02\"\n",
       "bad.ibnd:3: node id: a Ca's id starts with H-"},
      {"Switch 1 \"S-01\"\nCa 1 \"H-0a\"\n[1] \"H-0b\"[1]\nCa 1 \"H-0b\"\n[1] \"H-0a\"[1]\n",
       "bad.ibnd:3: peer: a link between two Ca"},
      {"Rt 2 \"R-01\"\n", "bad.ibnd:1: keyword: routers (Rt) are not supported"},
      {"include other.net\n", "bad.ibnd:1: keyword: ibsim's 'include' extension is not supported"},
      {"# nothing\n", "bad.ibnd: Switch: no Switch in the file"},
      {"Switch 4 \"S-01\"\n", "bad.ibnd: Ca: no Ca port is linked"},
      {"Switch 4 \"S-01\"\n[1] \"S-01\"[1]\n", "bad.ibnd:2: peer port: port [1] linked to itself"},
  };
  char err[600];
  fabric_topo_t t;
  CHECK(tc,
        fabric_topo_parse_ibnd(&t, "good.ibnd", sw2, sizeof sw2 - 1, err, sizeof err) == 0 && t.nsw == 2 &&
            t.nodes == 1 && t.sw_ports == 4,
        "the small good file reads: %s", err);
  fabric_topo_free(&t);
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = 0;
    const int rc = fabric_topo_parse_ibnd(&t, "bad.ibnd", bad[i].text, strlen(bad[i].text), err, sizeof err);
    CHECK(tc, rc == -1 && strstr(err, bad[i].want), "bad input %u: want '%s', got rc %d '%s'", i, bad[i].want,
          rc, err);
    if (rc == 0) fabric_topo_free(&t);
  }
  /* random damage to a good dump (bytes changed, lines cut, truncation): a
   * verdict every time, and a failure names the file; ASan watches the rest */
  uint64_t rng = seed ^ 0x1b2d;
  unsigned reads = 0, named = 0, fails = 0;
  char *buf = malloc(sizeof real_dump);
  for (unsigned trial = 0; buf && trial < 3000; trial++) {
    size_t len = sizeof real_dump - 1;
    memcpy(buf, real_dump, len);
    const unsigned edits = 1 + (unsigned)(unit_splitmix64(&rng) % 4);
    for (unsigned e = 0; e < edits; e++) {
      const size_t at = (size_t)(unit_splitmix64(&rng) % len);
      switch (unit_splitmix64(&rng) % 4) {
        case 0: buf[at] = (char)(unit_splitmix64(&rng) & 0xFF); break;
        case 1: buf[at] = "[]\"()#\n 0xS-H"[unit_splitmix64(&rng) % 13]; break;
        case 2: len = at; break;
        default: memmove(buf + at, buf + at + 1, len - at - 1), len--; break;
      }
      if (!len) break;
    }
    err[0] = 0;
    if (fabric_topo_parse_ibnd(&t, "damaged", buf, len, err, sizeof err) == 0) {
      reads++;
      fabric_topo_free(&t);
    } else {
      fails++;
      named += !strncmp(err, "damaged", 7);
    }
  }
  free(buf);
  CHECK(tc, fails > 0 && named == fails, "damaged dumps: %u read, %u refused, %u of them naming the file",
        reads, fails, named);
}

int main(int argc, char **argv) {
  tctx_t t = {0, 0, 1};
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--seed=", 7) == 0)
      t.rng = strtoull(argv[i] + 7, NULL, 0);
    else {
      fprintf(stderr, "test_fabric: unknown option '%s' (usage: test_fabric [--seed=N])\n", argv[i]);
      return 2;
    }
  }
  const uint64_t seed = t.rng;
  printf("seed: %" PRIu64 "\n", seed);
  test_connect_errors(&t);
  test_topologies(&t, seed);
  test_skip_equals_noskip(&t, seed);
  test_skip_negative(&t, seed);
  test_lockstep(&t, seed);
  test_threads(&t, seed);
  test_fat2(&t, seed);
  test_ibnd_round_trip(&t);
  test_ibnd_real(&t);
  test_ibnd_bad(&t, seed);
  return unit_summary(&t);
}
