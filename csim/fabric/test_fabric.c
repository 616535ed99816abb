/*
 * Unit tests of the generic fabric core (docs/fabric.md), with two toy
 * instance types written here: a source-routed single-flit switch with
 * credits and an endpoint with Bernoulli injection. They are not a block;
 * they exist to exercise the core: skipping equals not skipping (and a
 * planted lie in quiet() is caught), lockstep names the first divergence,
 * topologies are wired and routed right, bad parameters are named.
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

static bool run_tree(tctx_t *tc, run_t *r, unsigned k, unsigned n, double load, uint64_t window,
                     uint64_t seed, bool no_skip, unsigned bug, fabric_mode_t mode, unsigned lat) {
  char err[256];
  memset(r, 0, sizeof *r);
  fabric_init(&r->f);
  r->f.no_skip = no_skip;
  r->f.digest_on = true;
  r->f.observer = count_arrivals;
  r->f.observer_ctx = r;
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
    if (!CHECK(tc, fabric_add(&r->f, &toy_nic_type, FABRIC_MODEL, name, &np, err, sizeof err) != FABRIC_NONE,
               "add %s: %s", name, err))
      return false;
  }
  if (!CHECK(tc, fabric_topo_wire(&r->f, &r->t, 0, r->t.nsw, 0, lat, err, sizeof err) == 0, "wire: %s", err))
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
  return unit_summary(&t);
}
