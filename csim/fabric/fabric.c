/* The generic fabric core: see fabric.h and docs/fabric.md. */
#include "fabric.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fabric_mode_names[3] = {"model", "rtl", "lockstep"};

static const fabric_flit_t idle_flit;

void fabric_init(fabric_t *f) { memset(f, 0, sizeof *f); }

static void inst_free(fabric_inst_t *x) {
  if (x->m) x->type->model->destroy(x->m);
  if (x->r) x->type->rtl->destroy(x->r);
  free(x->in);
  free(x->out);
  free(x->out_r);
  free(x->side);
  free(x->side_r);
  free(x->link_in);
  free(x->link_out);
}

void fabric_free(fabric_t *f) {
  /* oldest first (Verilator 5.006 hangs destroying a model created after one still alive) */
  for (uint32_t i = 0; i < f->ninst; i++) inst_free(&f->inst[i]);
  for (uint32_t l = 0; l < f->nlink; l++) free(f->link[l].slot);
  free(f->inst);
  free(f->link);
  free(f->dg_cycle);
  free(f->dg_value);
  memset(f, 0, sizeof *f);
}

static bool grow(void **p, uint32_t *cap, uint32_t n, size_t elem) {
  if (n < *cap) return true;
  uint32_t nc = *cap ? 2 * *cap : 16;
  void *q = realloc(*p, (size_t)nc * elem);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

uint32_t fabric_add(fabric_t *f, const fabric_type_t *type, fabric_mode_t mode, const char *name,
                    const void *params, char *err, size_t errlen) {
  const bool want_m = mode != FABRIC_RTL, want_r = mode != FABRIC_MODEL;
  if ((unsigned)mode > FABRIC_LOCKSTEP) {
    snprintf(err, errlen, "instance %s: mode %d out of range", name, (int)mode);
    return FABRIC_NONE;
  }
  if ((want_m && !type->model) || (want_r && !type->rtl)) {
    snprintf(err, errlen, "instance %s: type %s has no %s implementation", name, type->name,
             want_m && !type->model ? "model" : "RTL");
    return FABRIC_NONE;
  }
  if (fabric_find(f, name) != FABRIC_NONE) {
    snprintf(err, errlen, "instance %s: name already used", name);
    return FABRIC_NONE;
  }
  if (!grow((void **)&f->inst, &f->cap_inst, f->ninst, sizeof *f->inst)) {
    snprintf(err, errlen, "instance %s: out of memory", name);
    return FABRIC_NONE;
  }
  fabric_inst_t *x = &f->inst[f->ninst];
  memset(x, 0, sizeof *x);
  x->type = type;
  x->mode = mode;
  snprintf(x->name, sizeof x->name, "%s", name);
  const unsigned P = type->nports, S = type->nside ? type->nside : 1;
  x->in = calloc(P, sizeof *x->in);
  x->out = calloc(P, sizeof *x->out);
  x->out_r = want_m && want_r ? calloc(P, sizeof *x->out_r) : NULL;
  x->side = calloc(S, sizeof *x->side);
  x->side_r = calloc(S, sizeof *x->side_r);
  x->link_in = malloc(P * sizeof *x->link_in);
  x->link_out = malloc(P * sizeof *x->link_out);
  if (!x->in || !x->out || (want_m && want_r && !x->out_r) || !x->side || !x->side_r || !x->link_in ||
      !x->link_out) {
    snprintf(err, errlen, "instance %s: out of memory", name);
    inst_free(x);
    return FABRIC_NONE;
  }
  for (unsigned p = 0; p < P; p++) x->link_in[p] = x->link_out[p] = FABRIC_NONE;
  if (want_m && !(x->m = type->model->create(params, f->ninst, err, errlen))) {
    inst_free(x);
    return FABRIC_NONE;
  }
  if (want_r && !(x->r = type->rtl->create(params, f->ninst, err, errlen))) {
    inst_free(x);
    return FABRIC_NONE;
  }
  return f->ninst++;
}

static int connect1(fabric_t *f, uint32_t a, unsigned pa, uint32_t b, unsigned pb, unsigned latency,
                    char *err, size_t errlen) {
  if (!grow((void **)&f->link, &f->cap_link, f->nlink, sizeof *f->link)) {
    snprintf(err, errlen, "link %s.%u -> %s.%u: out of memory", f->inst[a].name, pa, f->inst[b].name, pb);
    return -1;
  }
  fabric_link_t *l = &f->link[f->nlink];
  memset(l, 0, sizeof *l);
  *l = (fabric_link_t){a, pa, b, pb, latency, calloc(latency, sizeof *l->slot), 0, 0};
  if (!l->slot) {
    snprintf(err, errlen, "link %s.%u -> %s.%u: out of memory", f->inst[a].name, pa, f->inst[b].name, pb);
    return -1;
  }
  f->inst[a].link_out[pa] = f->nlink;
  f->inst[b].link_in[pb] = f->nlink;
  f->nlink++;
  return 0;
}

int fabric_connect(fabric_t *f, uint32_t a, unsigned pa, uint32_t b, unsigned pb, unsigned latency, char *err,
                   size_t errlen) {
  if (a >= f->ninst || b >= f->ninst) {
    snprintf(err, errlen, "link: instance %" PRIu32 " out of range (%" PRIu32 " instances)",
             a >= f->ninst ? a : b, f->ninst);
    return -1;
  }
  fabric_inst_t *x = &f->inst[a], *y = &f->inst[b];
  if (pa >= x->type->nports || pb >= y->type->nports) {
    snprintf(err, errlen, "link %s.%u - %s.%u: port out of range (%s has %u ports)", x->name, pa, y->name, pb,
             pa >= x->type->nports ? x->name : y->name,
             pa >= x->type->nports ? x->type->nports : y->type->nports);
    return -1;
  }
  if (x->link_out[pa] != FABRIC_NONE || y->link_out[pb] != FABRIC_NONE || (a == b && pa == pb)) {
    snprintf(err, errlen, "link %s.%u - %s.%u: port already wired", x->name, pa, y->name, pb);
    return -1;
  }
  const fabric_port_kind_t *ka = x->type->port[pa], *kb = y->type->port[pb];
  if (ka != kb && strcmp(ka->name, kb->name) != 0) {
    snprintf(err, errlen, "link %s.%u - %s.%u: port kinds differ (%s, %s)", x->name, pa, y->name, pb,
             ka->name, kb->name);
    return -1;
  }
  if (latency < 1 || latency > FABRIC_MAX_LATENCY) {
    snprintf(err, errlen, "link %s.%u - %s.%u: latency %u out of range 1..%u", x->name, pa, y->name, pb,
             latency, FABRIC_MAX_LATENCY);
    return -1;
  }
  if (connect1(f, a, pa, b, pb, latency, err, errlen)) return -1;
  return connect1(f, b, pb, a, pa, latency, err, errlen);
}

unsigned fabric_link_cycles(unsigned reg, double metres, double mhz) {
  double ns = metres * FABRIC_NS_PER_M, period = 1000.0 / mhz;
  /* 1e-9: 1 m at 250 MHz is exactly one cycle, not two by rounding */
  return reg + (unsigned)ceil(ns / period - 1e-9);
}

uint32_t fabric_find(const fabric_t *f, const char *name) {
  for (uint32_t i = 0; i < f->ninst; i++)
    if (strcmp(f->inst[i].name, name) == 0) return i;
  return FABRIC_NONE;
}

static bool inst_quiet(const fabric_inst_t *x) {
  if (x->m && (!x->type->model->quiet || !x->type->model->quiet(x->m))) return false;
  if (x->r && (!x->type->rtl->quiet || !x->type->rtl->quiet(x->r))) return false;
  return true;
}

static uint64_t inst_wake(fabric_inst_t *x, uint64_t now) {
  const fabric_impl_t *im = x->m ? x->type->model : x->type->rtl;
  void *p = x->m ? x->m : x->r;
  return im->wake ? im->wake(p, now) : FABRIC_NEVER;
}

bool fabric_idle(fabric_t *f) {
  for (uint32_t l = 0; l < f->nlink; l++)
    if (f->link[l].busy) return false;
  for (uint32_t i = 0; i < f->ninst; i++)
    if (!inst_quiet(&f->inst[i])) return false;
  return true;
}

/* splitmix64's finaliser: a cheap, well-mixed hash step */
static uint64_t mix(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static uint64_t flit_word(const fabric_flit_t *o) {
  return (uint64_t)o->valid | (uint64_t)o->kind << 8 | (uint64_t)o->vc << 16 | (uint64_t)o->credit << 24;
}

static bool flit_eq(const fabric_flit_t *a, const fabric_flit_t *b) {
  return a->valid == b->valid && a->kind == b->kind && a->vc == b->vc && a->credit == b->credit &&
         (!a->valid || a->data == b->data);
}

static void fail(fabric_t *f, uint64_t c, const char *check) {
  f->failed = true;
  f->fail_cycle = c;
  snprintf(f->fail_check, sizeof f->fail_check, "%s", check);
}

/* Lockstep: the model's and the RTL's outputs of one instance in one cycle. */
static void lockstep_compare(fabric_t *f, fabric_inst_t *x, uint64_t c) {
  for (unsigned p = 0; p < x->type->nports; p++) {
    const fabric_flit_t *a = &x->out[p], *b = &x->out_r[p];
    if (flit_eq(a, b)) continue;
    fail(f, c, "fabric.lockstep");
    snprintf(f->fail_msg, sizeof f->fail_msg,
             "instance %s (%s) port %u cycle %" PRIu64
             ": model valid=%u kind=%u vc=%u credit=0x%x data=0x%" PRIx64
             ", RTL valid=%u kind=%u vc=%u credit=0x%x data=0x%" PRIx64,
             x->name, x->type->name, p, c, a->valid, a->kind, a->vc, a->credit, a->data, b->valid, b->kind,
             b->vc, b->credit, b->data);
    return;
  }
  for (unsigned s = 0; s < x->type->nside; s++) {
    if (x->side[s] == x->side_r[s]) continue;
    fail(f, c, "fabric.lockstep");
    snprintf(f->fail_msg, sizeof f->fail_msg,
             "instance %s (%s) port %s cycle %" PRIu64 ": model 0x%" PRIx64 ", RTL 0x%" PRIx64, x->name,
             x->type->name, x->type->side_name[s], c, x->side[s], x->side_r[s]);
    return;
  }
}

static void eval_inst(fabric_t *f, fabric_inst_t *x, uint64_t c) {
  const unsigned P = x->type->nports, S = x->type->nside;
  memset(x->out, 0, P * sizeof *x->out);
  if (S) memset(x->side, 0, S * sizeof *x->side);
  if (x->m) x->type->model->eval(x->m, c, x->in, x->out, x->side);
  if (x->r) {
    fabric_flit_t *o = x->m ? x->out_r : x->out;
    uint64_t *sd = x->m ? x->side_r : x->side;
    memset(o, 0, P * sizeof *o);
    if (S) memset(sd, 0, S * sizeof *sd);
    x->type->rtl->eval(x->r, c, x->in, o, sd);
    const char *label = x->type->rtl->failed ? x->type->rtl->failed(x->r) : NULL;
    if (label && !f->failed) {
      char id[sizeof f->fail_check];
      snprintf(id, sizeof id, "assert:%s", label);
      fail(f, c, id);
      snprintf(f->fail_msg, sizeof f->fail_msg,
               "instance %s (%s, RTL): assertion %s failed at cycle %" PRIu64, x->name, x->type->name, label,
               c);
    }
    if (x->m && !f->failed) lockstep_compare(f, x, c);
  }
  x->ran = true;
  x->evals++;
  f->evals++;
}

static void digest_push(fabric_t *f, uint64_t c, uint64_t h) {
  f->digest = mix(f->digest, mix(c, h));
  if (!f->digest_on) return;
  if (f->ndg == f->cap_dg) {
    size_t nc = f->cap_dg ? 2 * f->cap_dg : 1024;
    uint64_t *a = realloc(f->dg_cycle, nc * sizeof *a);
    if (!a) return;
    f->dg_cycle = a;
    uint64_t *b = realloc(f->dg_value, nc * sizeof *b);
    if (!b) return;
    f->dg_value = b;
    f->cap_dg = nc;
  }
  f->dg_cycle[f->ndg] = c;
  f->dg_value[f->ndg] = h;
  f->ndg++;
}

void fabric_step(fabric_t *f, uint64_t limit) {
  const uint64_t c = f->cycle;
  if (c >= limit || f->failed) return;
  /* whole-fabric idle: jump to the earliest wake-up */
  if (!f->no_skip && fabric_idle(f)) {
    uint64_t w = FABRIC_NEVER;
    for (uint32_t i = 0; i < f->ninst; i++) {
      uint64_t t = inst_wake(&f->inst[i], c);
      if (t < w) w = t;
    }
    if (w > c) {
      uint64_t to = w < limit ? w : limit;
      /* nothing runs until `to`: every output is idle meanwhile */
      for (uint32_t i = 0; i < f->ninst; i++) {
        fabric_inst_t *x = &f->inst[i];
        if (!x->ran) continue;
        x->ran = false;
        memset(x->out, 0, x->type->nports * sizeof *x->out);
        if (x->type->nside) memset(x->side, 0, x->type->nside * sizeof *x->side);
      }
      f->cycles_jumped += to - c;
      f->cycle = to;
      return;
    }
  }
  /* 1. deliver: every slot read here was written L cycles ago; last cycle's
   * inputs stay visible to the observer until now */
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    if (!x->arrivals) continue;
    memset(x->in, 0, x->type->nports * sizeof *x->in);
    x->arrivals = 0;
  }
  for (uint32_t l = 0; l < f->nlink; l++) {
    fabric_link_t *k = &f->link[l];
    if (!k->busy) continue;
    fabric_flit_t *s = &k->slot[c % k->latency];
    if (fabric_flit_idle(s)) continue;
    fabric_inst_t *y = &f->inst[k->dst];
    y->in[k->dst_port] = *s;
    y->arrivals++;
    *s = idle_flit;
    k->busy--;
  }
  /* 2. evaluate (and 3. send) every instance that is not skippable */
  uint64_t h = 0;
  bool any = false;
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    const bool was = x->ran;
    x->ran = false;
    if (!f->no_skip && !x->arrivals && inst_quiet(x) && inst_wake(x, c) > c) {
      /* a skipped instance's outputs are idle (observers may read them) */
      if (was) {
        memset(x->out, 0, x->type->nports * sizeof *x->out);
        if (x->type->nside) memset(x->side, 0, x->type->nside * sizeof *x->side);
      }
      continue;
    }
    eval_inst(f, x, c);
    for (unsigned p = 0; p < x->type->nports; p++) {
      const fabric_flit_t *o = &x->out[p];
      if (fabric_flit_idle(o)) continue;
      any = true;
      h = mix(h, ((uint64_t)i << 32 | p) ^ flit_word(o) << 40);
      h = mix(h, o->valid ? o->data : 0);
      uint32_t l = x->link_out[p];
      if (l == FABRIC_NONE) continue; /* a tied-off port: observers see x->out */
      fabric_link_t *k = &f->link[l];
      k->slot[c % k->latency] = *o;
      k->busy++;
      k->flits += o->valid;
    }
    for (unsigned s = 0; s < x->type->nside; s++)
      if (x->side[s]) {
        any = true;
        h = mix(h, ((uint64_t)i << 32 | (0x8000u + s)) ^ x->side[s]);
      }
  }
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    if (!x->ran) continue;
    if (x->m && x->type->model->commit) x->type->model->commit(x->m);
    if (x->r && x->type->rtl->commit) x->type->rtl->commit(x->r);
  }
  if (any) digest_push(f, c, h);
  f->cycles_run++;
  if (f->observer) f->observer(f, f->observer_ctx);
  f->cycle = c + 1;
}

void fabric_run(fabric_t *f, uint64_t until) {
  while (f->cycle < until && !f->failed) fabric_step(f, until);
}

int fabric_counter(const fabric_t *f, uint32_t inst, unsigned port, unsigned id, uint64_t *val) {
  if (inst >= f->ninst) return -1;
  const fabric_inst_t *x = &f->inst[inst];
  const fabric_impl_t *im = x->m ? x->type->model : x->type->rtl;
  const void *p = x->m ? x->m : x->r;
  if (!im->counter || port >= x->type->nports || id >= x->type->ncounters) return -1;
  return im->counter(p, f->cycle ? f->cycle - 1 : 0, port, id, val);
}

int fabric_config(fabric_t *f, uint32_t inst, const char *key, uint64_t index, uint64_t value, char *err,
                  size_t errlen) {
  if (inst >= f->ninst) {
    snprintf(err, errlen, "config %s: instance %" PRIu32 " out of range", key, inst);
    return -1;
  }
  fabric_inst_t *x = &f->inst[inst];
  const fabric_impl_t *im[2] = {x->m ? x->type->model : NULL, x->r ? x->type->rtl : NULL};
  void *p[2] = {x->m, x->r};
  for (unsigned k = 0; k < 2; k++) {
    if (!im[k]) continue;
    if (!im[k]->config) {
      snprintf(err, errlen, "config %s: instance %s (%s) has no configuration channel", key, x->name,
               x->type->name);
      return -1;
    }
    if (im[k]->config(p[k], key, index, value, err, errlen)) return -1;
  }
  return 0;
}

int fabric_trace(fabric_t *f, const char *dir, char *err, size_t errlen) {
  int n = 0;
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    if (!x->r || !x->type->rtl->trace) continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.fst", dir, x->name);
    if (x->type->rtl->trace(x->r, path, err, errlen)) return -1;
    n++;
  }
  return n;
}

bool fabric_digest_diff(const fabric_t *a, const fabric_t *b, uint64_t *cycle) {
  size_t n = a->ndg < b->ndg ? a->ndg : b->ndg;
  for (size_t k = 0; k < n; k++)
    if (a->dg_cycle[k] != b->dg_cycle[k] || a->dg_value[k] != b->dg_value[k]) {
      *cycle = a->dg_cycle[k] < b->dg_cycle[k] ? a->dg_cycle[k] : b->dg_cycle[k];
      return true;
    }
  if (a->ndg != b->ndg) {
    *cycle = a->ndg > n ? a->dg_cycle[n] : b->dg_cycle[n];
    return true;
  }
  return false;
}
