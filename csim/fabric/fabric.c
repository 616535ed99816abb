/* The generic fabric core: see fabric.h and docs/fabric.md. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "fabric.h"
#include "fabric_par.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void par_free(fabric_t *f);

void fabric_free(fabric_t *f) {
  if (f->dist) f->dist->free(f); /* the other processes first */
  par_free(f);                   /* the threads first: nothing runs while instances go */
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
  /* at least 2L + 1 slots (fabric.h "Parallel"), a power of two so that a
   * slot is c & (ring - 1), not a division per flit (ours) */
  unsigned ring = 1;
  while (ring < 2 * latency + 1) ring <<= 1;
  *l = (fabric_link_t){a, pa, b, pb, latency, ring, calloc(ring, sizeof *l->slot), 0, 0, 0};
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

bool fabric_inst_quiet(const fabric_inst_t *x) {
  if (x->m && (!x->type->model->quiet || !x->type->model->quiet(x->m))) return false;
  if (x->r && (!x->type->rtl->quiet || !x->type->rtl->quiet(x->r))) return false;
  return true;
}

/* After the parts ran cycles c .. end - 1: their counts and failures into f,
 * the window cut at the earliest failure (what one part would have run), the
 * digest items merged, the observer called, f->cycle = end. */
void fabric_par_end_window(fabric_t *f, fabric_par_t *par, uint64_t c, uint64_t end, const char *check) {
  bool oom = false;
  for (unsigned q = 0; q < par->n; q++) {
    const fabric_part_t *pt = &par->part[q];
    f->evals += pt->evals;
    oom |= pt->oom;
    fabric_par_failure(f, pt);
  }
  if (f->failed && f->fail_cycle + 1 < end) end = f->fail_cycle + 1; /* what one thread would have run */
  fabric_par_merge(f, par, c, end);
  if (oom && !f->failed) {
    f->failed = true;
    f->fail_cycle = c;
    snprintf(f->fail_check, sizeof f->fail_check, "%s", check);
    snprintf(f->fail_msg, sizeof f->fail_msg, "out of memory for the parts' digest items");
  }
  f->cycles_run += end - c;
  if (f->observer) f->observer(f, f->observer_ctx);
  f->cycle = end;
}

void fabric_jump_idle(fabric_t *f, uint64_t to) {
  /* nothing runs until `to`: every output is idle meanwhile */
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    if (!x->ran) continue;
    x->ran = false;
    memset(x->out, 0, x->type->nports * sizeof *x->out);
    if (x->type->nside) memset(x->side, 0, x->type->nside * sizeof *x->side);
  }
  f->cycles_jumped += to - f->cycle;
  f->cycle = to;
}

uint64_t fabric_inst_wake(fabric_inst_t *x, uint64_t now) {
  const fabric_impl_t *im = x->m ? x->type->model : x->type->rtl;
  void *p = x->m ? x->m : x->r;
  return im->wake ? im->wake(p, now) : FABRIC_NEVER;
}

bool fabric_idle(fabric_t *f) {
  for (uint32_t l = 0; l < f->nlink; l++)
    if (f->link[l].sent != f->link[l].taken) return false;
  for (uint32_t i = 0; i < f->ninst; i++)
    if (!fabric_inst_quiet(&f->inst[i])) return false;
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

/* ---- one part's cycles (docs/fabric.md "Parallel") ------------------------------ */

#define FABRIC_REBALANCE  1024   /* cycles run before the parts are cut again by eval times */
#define FABRIC_SAMPLE     512    /* ... measured in this many cycles before */
#define FABRIC_SAMPLE_MAX 100000 /* ns: an eval longer than this was descheduled, not costly */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fail(fabric_part_t *pt, uint64_t c, const char *check) {
  pt->failed = true;
  pt->fail_cycle = c;
  snprintf(pt->fail_check, sizeof pt->fail_check, "%s", check);
}

/* Lockstep: the model's and the RTL's outputs of one instance in one cycle. */
static void lockstep_compare(fabric_part_t *f, fabric_inst_t *x, uint64_t c) {
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

static void eval_inst(fabric_part_t *f, fabric_inst_t *x, uint64_t c) {
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

/* A part's digest item: room for the header and `n` words. */
static uint64_t *item_room(fabric_part_t *pt, size_t n) {
  if (pt->ndg + n > pt->cap_dg) {
    size_t nc = pt->cap_dg ? 2 * pt->cap_dg : 4096;
    while (nc < pt->ndg + n) nc *= 2;
    uint64_t *q = realloc(pt->dg, nc * sizeof *q);
    if (!q) {
      pt->oom = true;
      return NULL;
    }
    pt->dg = q;
    pt->cap_dg = nc;
  }
  return pt->dg + pt->ndg;
}

/* Cycles c0 .. c1 - 1 of one part; stops after a cycle with a failure.
 * `inline_dg`: the only part, the cycle's digest goes straight into f (no
 * items). Returns the cycle after the last one run. */
uint64_t fabric_part_run(fabric_t *f, fabric_part_t *pt, uint64_t c0, uint64_t c1, bool inline_dg) {
  uint64_t c = c0;
  for (; c < c1; c++) {
    /* 1. deliver: every slot read here was written L cycles ago, before the
     * window began; last cycle's inputs stay visible to the observer until now */
    for (uint32_t j = 0; j < pt->ninst; j++) {
      fabric_inst_t *x = &f->inst[pt->inst[j]];
      if (!x->arrivals) continue;
      memset(x->in, 0, x->type->nports * sizeof *x->in);
      x->arrivals = 0;
    }
    for (uint32_t j = 0; j < pt->nlink; j++) {
      fabric_link_t *k = &f->link[pt->link[j]];
      if (__atomic_load_n(&k->sent, __ATOMIC_RELAXED) == k->taken) continue;
      /* planted (FABRIC_PBUG_CUT_LATE): a cut link read one cycle late */
      const unsigned late = f->par_bug == FABRIC_PBUG_CUT_LATE && pt->cut[j];
      fabric_flit_t *s = &k->slot[(c + k->ring - k->latency - late) & (k->ring - 1)];
      if (fabric_flit_idle(s)) continue;
      fabric_inst_t *y = &f->inst[k->dst];
      y->in[k->dst_port] = *s;
      y->arrivals++;
      *s = idle_flit;
      k->taken++;
    }
    /* 2. evaluate (and 3. send) every instance that is not skippable */
    uint64_t h = 0;
    bool any = false;
    for (uint32_t j = 0; j < pt->ninst; j++) {
      const uint32_t i = pt->inst[j];
      fabric_inst_t *x = &f->inst[i];
      const bool was = x->ran;
      x->ran = false;
      if (!f->no_skip && !x->arrivals && fabric_inst_quiet(x) && fabric_inst_wake(x, c) > c) {
        /* a skipped instance's outputs are idle (observers may read them) */
        if (was) {
          memset(x->out, 0, x->type->nports * sizeof *x->out);
          if (x->type->nside) memset(x->side, 0, x->type->nside * sizeof *x->side);
        }
        continue;
      }
      if (pt->sample) {
        const uint64_t t0 = now_ns();
        eval_inst(pt, x, c);
        const uint64_t dt = now_ns() - t0;
        x->cost_ns += dt < FABRIC_SAMPLE_MAX ? dt : FABRIC_SAMPLE_MAX;
      } else {
        eval_inst(pt, x, c);
      }
      /* this instance's digest words: inline, or an item merged by the caller */
      uint64_t *it = NULL;
      size_t nw = 0;
      if (!inline_dg) it = item_room(pt, 3 + 2 * (size_t)x->type->nports + x->type->nside);
      for (unsigned p = 0; p < x->type->nports; p++) {
        const fabric_flit_t *o = &x->out[p];
        if (fabric_flit_idle(o)) continue;
        const uint64_t w0 = ((uint64_t)i << 32 | p) ^ flit_word(o) << 40, w1 = o->valid ? o->data : 0;
        if (inline_dg) {
          any = true;
          h = mix(h, w0);
          h = mix(h, w1);
        } else if (it) {
          it[3 + nw++] = w0;
          it[3 + nw++] = w1;
        }
        uint32_t l = x->link_out[p];
        if (l == FABRIC_NONE) continue; /* a tied-off port: observers see x->out */
        fabric_link_t *k = &f->link[l];
        k->slot[c & (k->ring - 1)] = *o;
        __atomic_store_n(&k->sent, k->sent + 1, __ATOMIC_RELAXED);
        k->flits += o->valid;
      }
      for (unsigned s = 0; s < x->type->nside; s++)
        if (x->side[s]) {
          const uint64_t w = ((uint64_t)i << 32 | (0x8000u + s)) ^ x->side[s];
          if (inline_dg) {
            any = true;
            h = mix(h, w);
          } else if (it) {
            it[3 + nw++] = w;
          }
        }
      if (it && nw) {
        it[0] = c;
        it[1] = i;
        it[2] = nw;
        pt->ndg += 3 + nw;
      }
    }
    for (uint32_t j = 0; j < pt->ninst; j++) {
      fabric_inst_t *x = &f->inst[pt->inst[j]];
      if (!x->ran) continue;
      if (x->m && x->type->model->commit) x->type->model->commit(x->m);
      if (x->r && x->type->rtl->commit) x->type->rtl->commit(x->r);
    }
    if (inline_dg && any) digest_push(f, c, h);
    if (pt->failed) return c + 1;
  }
  return c;
}

/* ---- the threads ------------------------------------------------------------------ */

/* Waiting: spin briefly (a window is microseconds), then yield, then sleep
 * 50 µs, doubling up to max_us (a worker: its part is taken by the caller
 * if it sleeps through a window, so it may sleep long while the driver does
 * other work; the caller waits for a part in progress: 50 µs). */
static void wait_pause(unsigned *spins, unsigned max_us) {
  if (++*spins < 2000) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else if (*spins < 2200) {
    sched_yield();
  } else {
    const unsigned k = *spins - 2200 < 5 ? *spins - 2200 : 5;
    unsigned us = 50u << k;
    if (us > max_us) us = max_us;
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
  }
}

static double thread_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One window of a part, timed with par_timing. */
static void run_window(fabric_par_t *par, fabric_part_t *pt) {
  const bool timed = par->f->par_timing;
  const double t0 = timed ? thread_cpu_s() : 0;
  fabric_part_run(par->f, pt, par->c0, par->c1, false);
  if (timed) pt->cpu_s = thread_cpu_s() - t0;
}

/* Part q of window (generation) g, if nobody took it yet: run it. Any
 * thread may run any part 1..n-1 (its results do not depend on which): a
 * worker that the OS has not scheduled does not hold the window up, the
 * caller runs its part once done with part 0. */
static bool take_part(fabric_par_t *par, unsigned q, unsigned g) {
  unsigned want = g - 1;
  if (!__atomic_compare_exchange_n(&par->claim[q], &want, g, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return false;
  run_window(par, &par->part[q]);
  __atomic_add_fetch(&par->done, 1, __ATOMIC_ACQ_REL);
  return true;
}

static void *worker(void *arg) {
  fabric_part_t *pt = arg;
  fabric_par_t *par = pt->par;
  const unsigned me = (unsigned)(pt - par->part);
  unsigned seen = 0;
  for (;;) {
    unsigned spins = 0, g;
    while ((g = __atomic_load_n(&par->go, __ATOMIC_ACQUIRE)) == seen) wait_pause(&spins, 1000);
    seen = g;
    if (__atomic_load_n(&par->quit, __ATOMIC_ACQUIRE)) return NULL;
    for (unsigned k = 0; k + 1 < par->n; k++)
      take_part(par, 1 + (me - 1 + k) % (par->n - 1), g); /* its own first */
  }
}

static void par_free(fabric_t *f) {
  fabric_par_t *par = f->par;
  if (!par) return;
  __atomic_store_n(&par->quit, true, __ATOMIC_RELEASE);
  __atomic_add_fetch(&par->go, 1, __ATOMIC_ACQ_REL);
  for (unsigned p = 0; p < par->n; p++) {
    fabric_part_t *pt = &par->part[p];
    if (pt->started) pthread_join(pt->th, NULL);
    free(pt->inst);
    free(pt->link);
    free(pt->cut);
    free(pt->dg);
  }
  free(par->part);
  free(par->claim);
  free(par);
  f->par = NULL;
  f->parts = 0;
}

/* The weight of an instance in the partition: its ports squared; when
 * rebalancing (by_cost), the time its evals took while sampled. */
static double weight(const fabric_inst_t *x, bool by_cost) {
  if (by_cost) return (double)x->cost_ns + 1;
  return x->type->nports ? (double)x->type->nports * x->type->nports : 1;
}

/* Instances to parts (see fabric_threads), then each part's lists, the cut
 * links and the lookahead. Called between windows only (workers wait). */
static void assign(fabric_t *f, bool by_cost) {
  fabric_par_t *par = f->par;
  const unsigned threads = par->n;
  double total = 0, cum = 0;
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    const double w = weight(x, by_cost);
    total += w;
    x->part = 0;
    if (x->serial || x->r) cum += w;
  }
  unsigned p = 0;
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_inst_t *x = &f->inst[i];
    if (x->serial || x->r) continue;
    const double w = weight(x, by_cost);
    while (p + 1 < threads && cum + w / 2 > total * (p + 1) / threads) p++;
    x->part = (uint16_t)p;
    cum += w;
  }
  for (unsigned q = 0; q < threads; q++) par->part[q].ninst = par->part[q].nlink = 0;
  f->lookahead = FABRIC_NEVER;
  f->cut_links = 0;
  for (uint32_t i = 0; i < f->ninst; i++) {
    fabric_part_t *pt = &par->part[f->inst[i].part];
    pt->inst[pt->ninst++] = i;
  }
  for (uint32_t l = 0; l < f->nlink; l++) {
    const fabric_link_t *k = &f->link[l];
    fabric_part_t *pt = &par->part[f->inst[k->dst].part];
    const bool cut = f->inst[k->src].part != f->inst[k->dst].part;
    pt->cut[pt->nlink] = cut;
    pt->link[pt->nlink++] = l;
    if (!cut) continue;
    f->cut_links++;
    if (k->latency < f->lookahead) f->lookahead = k->latency;
  }
}

/* The partition (block-neutral, docs/fabric.md "Parallel"): serial and RTL
 * instances go to part 0 (the calling thread: a driver's shared tables; the
 * Verilated models share Verilator's one default context); the others are
 * cut into contiguous ranges of instance indices, each about 1/T of the
 * total weight, part 0's share counting its serial instances. An instance
 * weighs the square of its ports (a switch's allocators and crossbar grow
 * so; an endpoint weighs 1). After FABRIC_REBALANCE cycles the parts
 * are cut again, each instance weighing the time its evals took in the
 * FABRIC_SAMPLE cycles before (a tree's leaves work more than its roots,
 * a driver's endpoint may cost more than its one port says). The second cut
 * depends on timings; no output does. Contiguous ranges keep a builder's neighbours (a tree's
 * switches of one level, a torus row) together. */
static int par_make(fabric_t *f, unsigned threads, bool start, char *err, size_t errlen) {
  par_free(f);
  f->lookahead = FABRIC_NEVER;
  f->cut_links = 0;
  if (threads < 1 || threads > 64) {
    snprintf(err, errlen, "threads = %u: 1..64", threads);
    return -1;
  }
  fabric_par_t *par = calloc(1, sizeof *par);
  if (!par || !(par->part = calloc(threads, sizeof *par->part)) ||
      !(par->claim = calloc(threads, sizeof *par->claim))) {
    if (par) free(par->part);
    free(par);
    snprintf(err, errlen, "threads: out of memory");
    return -1;
  }
  par->f = f;
  par->n = threads;
  par->ninst = f->ninst;
  par->nlink = f->nlink;
  f->par = par;
  f->parts = threads;
  for (unsigned q = 0; q < threads; q++) {
    fabric_part_t *pt = &par->part[q];
    pt->par = par;
    pt->inst = malloc((f->ninst + 1) * sizeof *pt->inst);
    pt->link = malloc((f->nlink + 1) * sizeof *pt->link);
    pt->cut = malloc(f->nlink + 1);
    if (!pt->inst || !pt->link || !pt->cut) {
      par_free(f);
      snprintf(err, errlen, "threads: out of memory");
      return -1;
    }
  }
  assign(f, false);
  par->rebalanced = !start; /* processes: no second cut (fabric_par.h) */
  for (unsigned q = 1; start && q < threads; q++) {
    fabric_part_t *pt = &par->part[q];
    if (pthread_create(&pt->th, NULL, worker, pt)) {
      par_free(f);
      snprintf(err, errlen, "threads: cannot start thread %u of %u", q, threads);
      return -1;
    }
    pt->started = true;
  }
  return 0;
}

int fabric_threads(fabric_t *f, unsigned threads, char *err, size_t errlen) {
  return par_make(f, threads, true, err, errlen);
}

int fabric_par_split(fabric_t *f, unsigned parts, char *err, size_t errlen) {
  return par_make(f, parts, false, err, errlen);
}

/* The parts' digest items of cycles c0 .. end - 1, merged in the order one
 * part would have mixed them (cycle, then instance index). */
void fabric_par_merge(fabric_t *f, fabric_par_t *par, uint64_t c0, uint64_t end) {
  size_t cur[64] = {0};
  for (uint64_t c = c0; c < end; c++) {
    uint64_t h = 0;
    bool any = false;
    for (;;) {
      unsigned best = par->n;
      uint64_t bi = UINT64_MAX;
      for (unsigned q = 0; q < par->n; q++) {
        const fabric_part_t *pt = &par->part[q];
        if (cur[q] < pt->ndg && pt->dg[cur[q]] == c && pt->dg[cur[q] + 1] < bi) {
          best = q;
          bi = pt->dg[cur[q] + 1];
        }
      }
      if (best == par->n) break;
      const fabric_part_t *pt = &par->part[best];
      const uint64_t *it = pt->dg + cur[best];
      for (uint64_t w = 0; w < it[2]; w++) h = mix(h, it[3 + w]);
      any = true;
      cur[best] += 3 + it[2];
    }
    if (any) digest_push(f, c, h);
  }
}

/* A part's failure into the fabric's (the earliest cycle, then the lowest
 * instance: what one thread would have recorded first). */
void fabric_par_failure(fabric_t *f, const fabric_part_t *pt) {
  if (!pt->failed || (f->failed && f->fail_cycle <= pt->fail_cycle)) return;
  f->failed = true;
  f->fail_cycle = pt->fail_cycle;
  snprintf(f->fail_check, sizeof f->fail_check, "%s", pt->fail_check);
  snprintf(f->fail_msg, sizeof f->fail_msg, "%s", pt->fail_msg);
}

void fabric_step(fabric_t *f, uint64_t limit) {
  if (f->dist) { /* another module runs the parts (fabric_mpi.c) */
    f->dist->step(f, limit);
    return;
  }
  const uint64_t c = f->cycle;
  if (c >= limit || f->failed) return;
  if (!f->par || f->par->ninst != f->ninst || f->par->nlink != f->nlink) {
    /* one part made on first use; a fabric grown since is partitioned again */
    char err[64];
    if (fabric_threads(f, f->par ? f->par->n : 1, err, sizeof err)) {
      f->failed = true;
      f->fail_cycle = c;
      snprintf(f->fail_check, sizeof f->fail_check, "fabric.threads");
      snprintf(f->fail_msg, sizeof f->fail_msg, "%s", err);
      return;
    }
  }
  /* whole-fabric idle: jump to the earliest wake-up */
  if (!f->no_skip && fabric_idle(f)) {
    uint64_t w = FABRIC_NEVER;
    for (uint32_t i = 0; i < f->ninst; i++) {
      uint64_t t = fabric_inst_wake(&f->inst[i], c);
      if (t < w) w = t;
    }
    if (w > c) {
      fabric_jump_idle(f, w < limit ? w : limit);
      return;
    }
  }
  fabric_par_t *par = f->par;
  if (par->n == 1) {
    fabric_part_t *pt = &par->part[0];
    pt->evals = 0;
    const uint64_t end = fabric_part_run(f, pt, c, c + 1, true);
    f->evals += pt->evals;
    fabric_par_failure(f, pt);
    f->cycles_run += end - c;
    if (f->observer) f->observer(f, f->observer_ctx);
    f->cycle = end;
    return;
  }
  if (!par->rebalanced) { /* sample eval times, then cut again by them */
    const bool sample = f->cycles_run + FABRIC_SAMPLE >= FABRIC_REBALANCE;
    for (unsigned q = 0; q < par->n; q++) par->part[q].sample = sample;
    if (f->cycles_run >= FABRIC_REBALANCE) {
      for (unsigned q = 0; q < par->n; q++) par->part[q].sample = false;
      par->rebalanced = true;
      assign(f, true);
    }
  }
  /* a window: one cycle when an observer reads every cycle, else the
   * lookahead (capped: idle time is jumped only between windows) */
  uint64_t W = f->observer ? 1 : f->lookahead < 256 ? f->lookahead : 256;
  if (W > limit - c) W = limit - c;
  for (unsigned q = 0; q < par->n; q++) {
    fabric_part_t *pt = &par->part[q];
    pt->evals = 0;
    pt->ndg = 0;
  }
  par->c0 = c;
  par->c1 = c + W;
  __atomic_store_n(&par->done, 0, __ATOMIC_RELAXED);
  /* release: the workers see everything above */
  const unsigned g = __atomic_add_fetch(&par->go, 1, __ATOMIC_ACQ_REL);
  run_window(par, &par->part[0]);
  double mine = par->part[0].cpu_s;
  for (unsigned q = 1; q < par->n; q++) /* those no worker has taken yet */
    if (take_part(par, q, g)) mine += par->part[q].cpu_s;
  unsigned spins = 0;
  const double w0 = f->par_timing ? thread_cpu_s() : 0;
  while (__atomic_load_n(&par->done, __ATOMIC_ACQUIRE) != par->n - 1) wait_pause(&spins, 50);
  f->syncs++;
  if (f->par_timing) {
    double crit = 0;
    for (unsigned q = 0; q < par->n; q++)
      if (par->part[q].cpu_s > crit) crit = par->part[q].cpu_s;
    for (unsigned q = 0; q < par->n; q++) f->par_work_s += par->part[q].cpu_s;
    f->par_crit_s += crit;
    f->par_caller_s += mine;
    f->par_wait_s += thread_cpu_s() - w0;
  }
  uint64_t end = c + W;
  fabric_par_end_window(f, par, c, end, "fabric.threads");
}

void fabric_run(fabric_t *f, uint64_t until) {
  while (f->cycle < until && !f->failed) fabric_step(f, until);
}

int fabric_counter(const fabric_t *f, uint32_t inst, unsigned port, unsigned id, uint64_t *val) {
  if (inst >= f->ninst) return -1;
  const fabric_inst_t *x = &f->inst[inst];
  if (f->dist && x->part != f->dist->part) return f->dist->counter(f, inst, port, id, val);
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
