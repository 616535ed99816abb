/* cp_hotspot -- CP instances through the cp_exp target ops. See cphs_cp.h. */
#include "cphs_cp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/cp.h"

struct cphs_cp {
  bool rtl;
  void *h; /* model instance or Verilated handle */
  bool digest;
  uint64_t dig;
  cphs_cp_counts_t k;
  cp_exp_out_t last;
  char err[200];
  char assert_label[128]; /* the first RTL assertion that failed (empty: none) */
  uint64_t assert_cycle;  /* in the CP's cycles */
};

static const cosim_target_t *tgt(void) { return &cp_exp_target; }

const char *const *cphs_cp_bug_names(void) { return tgt()->model.bug_names; }

#define FNV_PRIME 0x100000001b3ull
static uint64_t fold(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= FNV_PRIME;
  }
  return h;
}

static void note(cphs_cp_t *c, const char *what, unsigned v) {
  if (!c->err[0])
    snprintf(c->err, sizeof c->err, "%s (%u) at CP cycle %llu", what, v, (unsigned long long)c->k.cycles);
}

/* One clock: inputs in, this cycle's (registered) outputs out. */
static void step(cphs_cp_t *c, const cp_exp_in_t *in, cp_exp_out_t *out) {
  memset(out, 0, sizeof *out);
  if (c->rtl) {
    tgt()->glue->rtl.step(c->h, in, out);
    const char *l = tgt()->glue->rtl.assert_failed ? tgt()->glue->rtl.assert_failed(c->h) : NULL;
    if (l && !c->assert_label[0]) {
      snprintf(c->assert_label, sizeof c->assert_label, "%s", l);
      c->assert_cycle = c->k.cycles;
    }
  } else {
    tgt()->model.eval(c->h, in, out);
    tgt()->model.commit(c->h);
  }
  c->k.cycles++;
  if (out->ev_err_o) {
    c->k.ev_err++;
    note(c, "ev_err_o with code", out->ev_err_code_o);
  }
  if (out->cfg_err_o) {
    c->k.cfg_err++;
    note(c, "cfg_err_o with code", out->cfg_err_code_o);
  }
  if (c->digest) {
#define CPHS_FOLD(name, width) c->dig = fold(c->dig, (uint64_t)out->name);
    CP_EXP_OUTPUTS(CPHS_FOLD)
#undef CPHS_FOLD
  }
  c->last = *out;
}

static uint32_t lfsr_seed(uint64_t run_seed, unsigned port) {
  /* splitmix64 of (seed, port): distinct per port, never 0 (illegal SEED). */
  uint64_t z = run_seed * 0x9e3779b97f4a7c15ull + (uint64_t)(port + 1) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  uint32_t s = (uint32_t)z ^ (uint32_t)(z >> 32);
  return s ? s : 1;
}

bool cphs_cp_has_rtl(void) { return tgt()->glue->rtl.create != NULL; }

cphs_cp_t *cphs_cp_create(const cphs_params_t *p, unsigned port) {
  cphs_cp_t *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->rtl = p->rtl;
  c->digest = p->digest;
  c->dig = 0xcbf29ce484222325ull;
  if (c->rtl) {
    c->h = tgt()->glue->rtl.create(NULL, p->seed + port); /* registers' start */
    if (c->h) tgt()->glue->rtl.reset(c->h);
  } else {
    c->h = tgt()->model.create(p->inject_bug);
    /* garbage first, as the RTL's registers start random: reset must set them all */
    if (c->h && tgt()->model.scramble) tgt()->model.scramble(c->h, p->seed + port);
    if (c->h) tgt()->model.reset(c->h);
  }
  if (!c->h) {
    fprintf(stderr, "cp_hotspot: cannot create the %s CP of port %u\n", c->rtl ? "RTL" : "model", port);
    free(c);
    return NULL;
  }
  /* Registers of docs/cp.md §3, then APPLY (address 15). */
  const uint32_t mode = p->cm == CPHS_CM_ECM ? 1 : p->cm == CPHS_CM_E2CM ? 2 : 3;
  const uint32_t regs[][2] = {
      {0, mode},      {1, p->qeq},      {2, p->w},           {3, p->psample}, {4, 0 /* random sampling */},
      {5, p->bcnmax}, {6, p->qeq_flow}, {7, p->bcnmax_flow}, {8, port},       {9, lfsr_seed(p->seed, port)},
      {15, 0},
  };
  cp_exp_in_t in;
  cp_exp_out_t out;
  for (size_t r = 0; r < sizeof regs / sizeof regs[0]; r++) {
    memset(&in, 0, sizeof in);
    in.cfg_we_i = 1;
    in.cfg_addr_i = (uint8_t)regs[r][0];
    in.cfg_wdata_i = regs[r][1];
    step(c, &in, &out);
  }
  memset(&in, 0, sizeof in);
  step(c, &in, &out); /* cfg_err_o of APPLY is visible now */
  step(c, &in, &out);
  if (c->k.cfg_err) {
    fprintf(stderr, "cp_hotspot: CP of port %u rejected its configuration: %s\n", port, c->err);
    cphs_cp_destroy(c);
    return NULL;
  }
  return c;
}

void cphs_cp_destroy(cphs_cp_t *c) {
  if (!c) return;
  if (c->rtl)
    tgt()->glue->rtl.destroy(c->h);
  else
    tgt()->model.destroy(c->h);
  free(c);
}

/* The queue-level message (t+11) and the per-flow one (t+12) of one enqueue. */
static void take_q(const cp_exp_out_t *o, cphs_cp_fb_t *fb) {
  fb->q.valid = o->bcn_valid_o;
  if (fb->q.valid) {
    fb->q.type = o->bcn_type_o;
    fb->q.qntzfb = o->bcn_qntzfb_o;
    fb->q.dst = o->bcn_dst_o;
    fb->q.flow = o->bcn_flow_o;
    fb->q.cpid = o->bcn_cpid_o;
  }
}
static void take_f(const cp_exp_out_t *o, cphs_cp_fb_t *fb) {
  fb->f.valid = o->fbcn_valid_o;
  if (fb->f.valid) {
    fb->f.type = o->fbcn_type_o;
    fb->f.qntzfb = o->fbcn_qntzfb_o;
    fb->f.dst = o->fbcn_dst_o;
    fb->f.flow = o->fbcn_flow_o;
    fb->f.cpid = 0;
  }
}

void cphs_cp_enq(cphs_cp_t *c, uint16_t len, uint16_t flow, uint16_t src, bool probe, bool tagged,
                 uint16_t tag_cpid, uint32_t q_after, cphs_cp_fb_t *fb) {
  cp_exp_in_t in;
  cp_exp_out_t out;
  memset(&in, 0, sizeof in);
  in.enq_valid_i = 1;
  in.enq_len_i = len;
  in.enq_flow_i = (uint8_t)flow;
  in.enq_src_i = (uint8_t)src;
  in.enq_probe_i = probe;
  in.enq_tagged_i = tagged;
  in.enq_tag_cpid_i = tag_cpid;
  step(c, &in, &out); /* cycle t: the event */
  memset(&in, 0, sizeof in);
  step(c, &in, &out); /* t+1: q_o shows t's events */
  if (out.q_o != q_after) {
    c->k.q_mismatch++;
    note(c, "q_o differs from the harness's queue occupancy", out.q_o);
  }
  for (unsigned k = 2; k <= CP_BCN_LATENCY; k++)
    step(c, &in, &out); /* t+11: the queue-level BCN, if any (docs/cp.md §10) */
  take_q(&out, fb);
  for (unsigned k = CP_BCN_LATENCY + 1; k <= CP_FBCN_LATENCY; k++)
    step(c, &in, &out); /* t+12: the per-flow BCN, if any (the table runs a cycle behind) */
  take_f(&out, fb);
}

void cphs_cp_deq(cphs_cp_t *c, uint16_t len, uint16_t flow) {
  cp_exp_in_t in;
  cp_exp_out_t out;
  memset(&in, 0, sizeof in);
  in.deq_valid_i = 1;
  in.deq_len_i = len;
  in.deq_flow_i = (uint8_t)flow;
  step(c, &in, &out);
}

void cphs_cp_counts(const cphs_cp_t *c, cphs_cp_counts_t *k) {
  *k = c->k;
  /* The CP's counters as of its last outputs (every enqueue is followed by
     * CP_FBCN_LATENCY - 1 idle cycles, so they are current except for a trailing
     * dequeue). */
  k->frames = c->last.cnt_frames_o;
  k->samples = c->last.cnt_samples_o;
  k->neg = c->last.cnt_bcn_neg_o;
  k->pos = c->last.cnt_bcn_pos_o;
  k->max = c->last.cnt_bcn_max_o;
  k->fbcn = c->last.cnt_fbcn_o;
  k->ft_full = c->last.cnt_ft_full_o;
  k->errors = c->last.cnt_errors_o;
}

uint64_t cphs_cp_digest(const cphs_cp_t *c) { return c->dig; }

const char *cphs_cp_error(const cphs_cp_t *c) { return c->err; }

const char *cphs_cp_assert(const cphs_cp_t *c, uint64_t *cp_cycle) {
  if (cp_cycle) *cp_cycle = c->assert_cycle;
  return c->assert_label;
}
