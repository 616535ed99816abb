/*
 * Unit tests for the congestion point C model (csim/cp), written from docs/cp.md.
 *
 *   test_cp [--seed=N] [--cycles=N]
 *
 * Prints the seed, one line per failed check, and ends with "N passed, N failed".
 * Exit status is nonzero if any check failed. --cycles sets the length of the random
 * run (default 1000000, split over four parameter sets).
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to capture the model's stderr */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "common/common_lfsr32.h"
#include "cp.h"

/* ------------------------------------------------------------------------------------ */
/* Harness                                                                              */
/* ------------------------------------------------------------------------------------ */

static uint64_t rnd64(tctx_t *t) { return unit_splitmix64(&t->rng); }
static uint32_t rnd32(tctx_t *t) { return (uint32_t)(rnd64(t) >> 32); }
static uint64_t rnd_below(tctx_t *t, uint64_t n) { return n == 0 ? 0 : rnd64(t) % n; }
static bool rnd_pct(tctx_t *t, unsigned pct) { return rnd_below(t, 100) < pct; }

static unsigned count_lines(const char *s) {
  unsigned n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* ------------------------------------------------------------------------------------ */
/* Driving the model                                                                    */
/* ------------------------------------------------------------------------------------ */

#define NONE (-1) /* "no message" in expectation tables */
/* The latency contract, docs/cp.md section 10 (written here from the spec, not taken
   from the model's constants): an enqueue in cycle t has its BCN on the outputs at
   t + BCN_LAT, its per-flow BCN at t + FBCN_LAT (the flow table runs one cycle behind,
   section 8); the event counters (frames, table full, errors) show t's events at
   t + CNT_LAT, and ft_full_o shows t's enqueue at t + FT_FULL_LAT. */
#define BCN_LAT     11u
#define FBCN_LAT    12u
#define CNT_LAT     2u
#define FT_FULL_LAT 2u

typedef struct {
  cp_cfg_t cfg;
  cp_state_t s;
  cp_out_t out; /* outputs of the current cycle */
  cp_next_t nx; /* what the last clock edge did */
} sim_t;

static cp_cfg_t mkcfg(unsigned qw, unsigned num_flows, unsigned flow_w, unsigned node_w, unsigned max_frame,
                      unsigned bug) {
  cp_cfg_t c = {.qw = qw,
                .num_flows = num_flows,
                .flow_w = flow_w,
                .node_w = node_w,
                .max_frame = max_frame,
                .bug = bug};
  return c;
}

/* Outputs depend on the state only, so any input gives them. */
static void sim_peek(sim_t *m) {
  const cp_in_t idle = {0};
  cp_next_t nx;
  cp_eval(&m->cfg, &m->s, &idle, &m->out, &nx);
}

static bool sim_init(tctx_t *t, sim_t *m, const cp_cfg_t *cfg) {
  memset(m, 0, sizeof(*m));
  m->cfg = *cfg;
  const int rc = cp_init(&m->s, cfg);
  if (!CHECK(t, rc == 0, "cp_init: rc=%d", rc)) return false;
  sim_peek(m);
  return true;
}

/* One clock cycle with inputs in; afterwards m->out holds the next cycle's outputs. */
static void sim_tick(sim_t *m, const cp_in_t *in) {
  cp_out_t o;
  cp_eval(&m->cfg, &m->s, in, &o, &m->nx);
  cp_commit(&m->cfg, &m->s, &m->nx);
  sim_peek(m);
}

static void sim_idle(sim_t *m, unsigned n) {
  const cp_in_t idle = {0};
  for (unsigned i = 0; i < n; i++) sim_tick(m, &idle);
}

static cp_in_t in_write(unsigned addr, uint32_t data) {
  cp_in_t in = {0};
  in.cfg_we = true;
  in.cfg_addr = addr;
  in.cfg_wdata = data;
  return in;
}

static cp_in_t in_enq(uint32_t len, uint32_t flow, uint32_t src) {
  cp_in_t in = {0};
  in.enq_valid = true;
  in.enq_len = len;
  in.enq_flow = flow;
  in.enq_src = src;
  return in;
}

static cp_in_t in_deq(uint32_t len, uint32_t flow) {
  cp_in_t in = {0};
  in.deq_valid = true;
  in.deq_len = len;
  in.deq_flow = flow;
  return in;
}

static void sim_write(sim_t *m, unsigned addr, uint32_t data) {
  const cp_in_t in = in_write(addr, data);
  sim_tick(m, &in);
}

static void sim_enq(sim_t *m, uint32_t len, uint32_t flow, uint32_t src) {
  const cp_in_t in = in_enq(len, flow, src);
  sim_tick(m, &in);
}

static void sim_deq(sim_t *m, uint32_t len, uint32_t flow) {
  const cp_in_t in = in_deq(len, flow);
  sim_tick(m, &in);
}

/* The test's own view of the register map (section 3), independent of the model's. */
static uint32_t reg_get(const cp_regs_t *r, unsigned addr) {
  switch (addr) {
    case CP_ADDR_MODE: return r->mode;
    case CP_ADDR_QEQ: return r->qeq;
    case CP_ADDR_W: return r->w;
    case CP_ADDR_PSAMPLE: return r->psample;
    case CP_ADDR_SAMPLE_BYTES: return r->sample_bytes;
    case CP_ADDR_BCNMAX: return r->bcnmax;
    case CP_ADDR_QEQ_FLOW: return r->qeq_flow;
    case CP_ADDR_BCNMAX_FLOW: return r->bcnmax_flow;
    case CP_ADDR_CPID: return r->cpid;
    case CP_ADDR_SEED: return r->seed;
    default: return 0;
  }
}

static void reg_set(cp_regs_t *r, unsigned addr, uint32_t v) {
  switch (addr) {
    case CP_ADDR_MODE: r->mode = v; break;
    case CP_ADDR_QEQ: r->qeq = v; break;
    case CP_ADDR_W: r->w = v; break;
    case CP_ADDR_PSAMPLE: r->psample = v; break;
    case CP_ADDR_SAMPLE_BYTES: r->sample_bytes = v; break;
    case CP_ADDR_BCNMAX: r->bcnmax = v; break;
    case CP_ADDR_QEQ_FLOW: r->qeq_flow = v; break;
    case CP_ADDR_BCNMAX_FLOW: r->bcnmax_flow = v; break;
    case CP_ADDR_CPID: r->cpid = v; break;
    case CP_ADDR_SEED: r->seed = v; break;
    default: break;
  }
}

/* Register widths from the section 3 table. */
static uint32_t reg_width_mask(unsigned addr, unsigned qw) {
  switch (addr) {
    case CP_ADDR_MODE: return 0x3u;
    case CP_ADDR_W: return 0xFu;
    case CP_ADDR_CPID: return 0xFFFFu;
    case CP_ADDR_QEQ:
    case CP_ADDR_BCNMAX:
    case CP_ADDR_QEQ_FLOW:
    case CP_ADDR_BCNMAX_FLOW: return (uint32_t)((UINT64_C(1) << qw) - 1u);
    default: return 0xFFFFFFFFu;
  }
}

static bool regs_equal(const cp_regs_t *a, const cp_regs_t *b) {
  for (unsigned addr = 0; addr <= CP_ADDR_SEED; addr++)
    if (reg_get(a, addr) != reg_get(b, addr)) return false;
  return true;
}

/* Write every register through the port, then APPLY; the APPLY must be accepted. */
static bool sim_configure(tctx_t *t, sim_t *m, const cp_regs_t *r) {
  for (unsigned addr = 0; addr <= CP_ADDR_SEED; addr++) sim_write(m, addr, reg_get(r, addr));
  sim_write(m, CP_ADDR_APPLY, 0);
  return CHECK(t, !m->out.cfg_err && regs_equal(&m->s.active, r),
               "configure: APPLY rejected (cfg_err_o=%d code %u)", m->out.cfg_err, m->out.cfg_err_code);
}

static cp_regs_t regs_with_mode(unsigned mode) {
  cp_regs_t r;
  cp_regs_default(&r);
  r.mode = mode;
  return r;
}

static bool out_equal(const cp_out_t *a, const cp_out_t *b) {
  return a->q == b->q && a->bcn_valid == b->bcn_valid && a->bcn_type == b->bcn_type &&
         a->bcn_dst == b->bcn_dst && a->bcn_flow == b->bcn_flow && a->bcn_cpid == b->bcn_cpid &&
         a->bcn_qoff == b->bcn_qoff && a->bcn_qdelta == b->bcn_qdelta && a->bcn_fb == b->bcn_fb &&
         a->bcn_qntzfb == b->bcn_qntzfb && a->fbcn_valid == b->fbcn_valid && a->fbcn_type == b->fbcn_type &&
         a->fbcn_dst == b->fbcn_dst && a->fbcn_flow == b->fbcn_flow && a->fbcn_qoff == b->fbcn_qoff &&
         a->fbcn_qdelta == b->fbcn_qdelta && a->fbcn_fb == b->fbcn_fb && a->fbcn_qntzfb == b->fbcn_qntzfb &&
         a->cfg_err == b->cfg_err && a->cfg_err_code == b->cfg_err_code && a->ev_err == b->ev_err &&
         a->ev_err_code == b->ev_err_code && a->ft_full == b->ft_full && a->cnt_frames == b->cnt_frames &&
         a->cnt_samples == b->cnt_samples && a->cnt_bcn_neg == b->cnt_bcn_neg &&
         a->cnt_bcn_pos == b->cnt_bcn_pos && a->cnt_bcn_max == b->cnt_bcn_max && a->cnt_fbcn == b->cnt_fbcn &&
         a->cnt_ft_full == b->cnt_ft_full && a->cnt_errors == b->cnt_errors;
}

static bool bcn_data_equal(const cp_out_t *a, const cp_out_t *b) {
  return a->bcn_type == b->bcn_type && a->bcn_dst == b->bcn_dst && a->bcn_flow == b->bcn_flow &&
         a->bcn_cpid == b->bcn_cpid && a->bcn_qoff == b->bcn_qoff && a->bcn_qdelta == b->bcn_qdelta &&
         a->bcn_fb == b->bcn_fb && a->bcn_qntzfb == b->bcn_qntzfb;
}

static bool fbcn_data_equal(const cp_out_t *a, const cp_out_t *b) {
  return a->fbcn_type == b->fbcn_type && a->fbcn_dst == b->fbcn_dst && a->fbcn_flow == b->fbcn_flow &&
         a->fbcn_qoff == b->fbcn_qoff && a->fbcn_qdelta == b->fbcn_qdelta && a->fbcn_fb == b->fbcn_fb &&
         a->fbcn_qntzfb == b->fbcn_qntzfb;
}

/* Index of the valid table entry holding flow, or -1 (the test's own lookup). */
static int ft_find(const sim_t *m, uint32_t flow) {
  for (unsigned i = 0; i < m->cfg.num_flows; i++)
    if (m->s.ft[i].valid && m->s.ft[i].flow == flow) return (int)i;
  return -1;
}

/* Queue-level messages of any type. */
static uint32_t msg_count(const cp_out_t *o) { return o->cnt_bcn_neg + o->cnt_bcn_pos + o->cnt_bcn_max; }

/* ------------------------------------------------------------------------------------ */
/* Hand-computed feedback table (sections 2, 7, 7.1, 10)                                */
/* ------------------------------------------------------------------------------------ */

/* Every row: a sample at Q = qold (sets Qold), then one more enqueue, the sample under
   test, at Q = q. QEQ = 76800, CPID = 0x1234, countdown sampling with SAMPLE_BYTES = 64 so
   every enqueue is a sample; between samples Q only moves by dequeues (not samples). */
typedef struct {
  uint32_t w, bcnmax;   /* config of the row */
  uint64_t qold, q;     /* Q at the previous sample, Q at this one */
  bool tagged, cpid_ok; /* enq_tagged_i, and enq_tag_cpid_i == CPID */
  int type;             /* CP_BCN_* or NONE */
  int64_t qoff, qdelta, fb;
  unsigned qntzfb;
} fb_row_t;

#define TAB_CPID 0x1234u

static const fb_row_t fb_rows[] = {
    /* Config A: W = 2, BCNMAX = 266240, D = (2*2+1)*76800 = 384000.
       QntzFb = min(63, floor(|Fb|*63 / 384000)); 384000/63 = 6095.24 bytes per step. */

    /* Qoff = 76800-76850 = -50; Qdelta = 50; Fb = -50 - 2*50 = -150;
       150*63 = 9450 < 384000 -> 0. Fb < 0: NEG with QntzFb at 0. */
    {2, 266240, 76800, 76850, false, false, CP_BCN_NEG, -50, 50, -150, 0},
    /* Qoff = 6800; Qdelta = 70000-80000 = -10000; Fb = 6800 + 20000 = 26800;
       26800*63 = 1688400; 4*384000 = 1536000 <= 1688400 < 1920000 -> 4. Tagged: POS. */
    {2, 266240, 80000, 70000, true, true, CP_BCN_POS, 6800, -10000, 26800, 4},
    /* Same Fb = 26800 > 0 but untagged: no message ("no self-increase"). */
    {2, 266240, 80000, 70000, false, false, NONE, 0, 0, 0, 0},
    /* Same, tagged with another CPID: tag_ok = 0, no message. */
    {2, 266240, 80000, 70000, true, false, NONE, 0, 0, 0, 0},
    /* Qoff = 76800-80000 = -3200; Qdelta = 80000-81600 = -1600; Fb = -3200 + 3200 = 0:
       no message even though tagged. */
    {2, 266240, 81600, 80000, true, true, NONE, 0, 0, 0, 0},
    /* Q = Qold = Qeq: everything 0, no message. */
    {2, 266240, 76800, 76800, true, true, NONE, 0, 0, 0, 0},
    /* Qoff = 800; Qdelta = 0; Fb = 800; 800*63 = 50400 < 384000 -> 0. POS with QntzFb 0. */
    {2, 266240, 76000, 76000, true, true, CP_BCN_POS, 800, 0, 800, 0},
    /* Qoff = 6800 (> 0) but Qdelta = 10000: Fb = 6800 - 20000 = -13200;
       13200*63 = 831600; 2*384000 = 768000 <= 831600 < 1152000 -> 2. NEG. */
    {2, 266240, 60000, 70000, false, false, CP_BCN_NEG, 6800, 10000, -13200, 2},
    /* Exact boundary: Qoff = 76800-204800 = -128000 = Fb; 128000*63 = 8064000
       = 21*384000 exactly -> 21. */
    {2, 266240, 204800, 204800, false, false, CP_BCN_NEG, -128000, 0, -128000, 21},
    /* One byte less: Fb = -127999; 127999*63 = 8063937 < 8064000 -> 20. */
    {2, 266240, 204799, 204799, false, false, CP_BCN_NEG, -127999, 0, -127999, 20},
    /* Quantiser step 0 -> 1: Fb = 76800-82895 = -6095; 6095*63 = 383985 < 384000 -> 0. */
    {2, 266240, 82895, 82895, false, false, CP_BCN_NEG, -6095, 0, -6095, 0},
    /* Fb = -6096; 6096*63 = 384048 >= 384000 -> 1. */
    {2, 266240, 82896, 82896, false, false, CP_BCN_NEG, -6096, 0, -6096, 1},
    /* Just below the clamp: Qoff = 76800-1001 = 75799; Qdelta = 1001-155101 = -154100;
       Fb = 75799 + 308200 = 383999; 383999*63 = 24191937; 62*384000 = 23808000 <=
       24191937 < 63*384000 = 24192000 -> 62. Tagged: POS. */
    {2, 266240, 155101, 1001, true, true, CP_BCN_POS, 75799, -154100, 383999, 62},
    /* Q == BCNMAX is not above it: Fb = 76800-266240 = -189440; 189440*63 = 11934720;
       31*384000 = 11904000 <= 11934720 < 12288000 -> 31. NEG. */
    {2, 266240, 266240, 266240, false, false, CP_BCN_NEG, -189440, 0, -189440, 31},
    /* Q = 266241 > BCNMAX: MAX, QntzFb = 63; the fields carry the computed values:
       Qoff = -189441, Qdelta = 0, Fb = -189441 (would quantise to 31). */
    {2, 266240, 266241, 266241, false, false, CP_BCN_MAX, -189441, 0, -189441, 63},
    /* MAX comes first even with Fb > 0 and no tag: Qoff = 76800-266300 = -189500;
       Qdelta = 266300-400000 = -133700; Fb = -189500 + 267400 = 77900. */
    {2, 266240, 400000, 266300, false, false, CP_BCN_MAX, -189500, -133700, 77900, 63},

    /* Config B: W = 2, BCNMAX = 4000000 (room for large NEG feedback), D = 384000. */

    /* At the clamp: Fb = 76800-460800 = -384000; 384000*63 = 24192000 = 63*D, below
       64*D = 24576000, so the division gives exactly 63. */
    {2, 4000000, 460800, 460800, false, false, CP_BCN_NEG, -384000, 0, -384000, 63},
    /* Fb = -390095; 390095*63 = 24575985 < 24576000: division path, 63. */
    {2, 4000000, 466895, 466895, false, false, CP_BCN_NEG, -390095, 0, -390095, 63},
    /* Fb = -390096; 390096*63 = 24576048 >= 64*D: clamped before dividing, 63. */
    {2, 4000000, 466896, 466896, false, false, CP_BCN_NEG, -390096, 0, -390096, 63},
    /* Qoff = 76800-1050000 = -973200; Qdelta = 50000; Fb = -973200 - 100000 = -1073200;
       far above the clamp -> 63. */
    {2, 4000000, 1000000, 1050000, false, false, CP_BCN_NEG, -973200, 50000, -1073200, 63},

    /* Config C: W = 0, D = 76800. Qoff = 76800-100000 = -23200; Qdelta = 50000 (weight 0);
       Fb = -23200; 23200*63 = 1461600; 19*76800 = 1459200 <= 1461600 < 1536000 -> 19. */
    {0, 266240, 50000, 100000, false, false, CP_BCN_NEG, -23200, 50000, -23200, 19},

    /* Config D: W = 15, D = 31*76800 = 2380800. Qoff = -23200; Qdelta = 10000;
       Fb = -23200 - 150000 = -173200; 173200*63 = 10911600; 4*2380800 = 9523200 <=
       10911600 < 11904000 -> 4. */
    {15, 266240, 90000, 100000, false, false, CP_BCN_NEG, -23200, 10000, -173200, 4},
};

/* Dequeue n bytes (0 or >= 64) of flow 1 in legal frames of at most MaxFrame bytes. */
static void deq_bytes(sim_t *m, uint64_t n) {
  while (n > 0) {
    uint64_t c = n > m->cfg.max_frame ? m->cfg.max_frame : n;
    if (n - c > 0 && n - c < 64) c = n - 64; /* leave a legal remainder */
    sim_deq(m, (uint32_t)c, 1);
    n -= c;
  }
}

/* Bring Q to target - len with enqueues of 65535 (samples, drained) and dequeues (not
   samples); returns len (64..65535): the caller's next enqueue is a sample at Q = target. */
static uint32_t prepare_sample(tctx_t *t, sim_t *m, uint64_t target) {
  while (target > (uint64_t)m->out.q + 65535u) {
    sim_enq(m, 65535, 1, 0);
    sim_idle(m, BCN_LAT); /* its BCN leaves before the next one is watched */
  }
  const uint64_t q = m->out.q;
  uint64_t len, dsum;
  if (target >= q + 64) {
    len = target - q;
    dsum = 0;
  } else {
    len = 64;
    dsum = q + 64 - target;
    if (dsum < 64) {
      len += 64;
      dsum += 64;
    }
  }
  CHECK(t, dsum <= q && len <= 65535, "prepare_sample(%" PRIu64 "): unreachable from Q=%" PRIu64, target, q);
  deq_bytes(m, dsum);
  return (uint32_t)len;
}

static void test_feedback_table(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 16, 8, 8, 65535, 0);
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_ECM);
  r.sample_bytes = 64; /* every enqueue is a sample */
  r.cpid = TAB_CPID;
  bool configured = false;

  for (size_t i = 0; i < sizeof(fb_rows) / sizeof(fb_rows[0]); i++) {
    const fb_row_t *row = &fb_rows[i];
    if (!configured || r.w != row->w || r.bcnmax != row->bcnmax) {
      r.w = row->w;
      r.bcnmax = row->bcnmax;
      if (!sim_configure(t, &m, &r)) return;
      configured = true;
    }
    CHECK(t, row->q <= row->qold + 65535, "row %zu: Q - Qold must fit one frame", i);

    /* The previous sample, at Q = qold. */
    uint32_t len = prepare_sample(t, &m, row->qold);
    sim_enq(&m, len, 1, 0);
    sim_idle(&m, BCN_LAT);
    CHECK(t, m.out.q == row->qold && m.s.qold == row->qold,
          "row %zu: setup sample at Q=%" PRIu64 ", got q_o=%u Qold=%" PRIu64, i, row->qold, m.out.q,
          m.s.qold);

    /* The sample under test, in cycle t. */
    len = prepare_sample(t, &m, row->q);
    const cp_out_t before = m.out;
    cp_in_t in = in_enq(len, 1, 100u + (uint32_t)i);
    in.enq_tagged = row->tagged;
    in.enq_tag_cpid = row->cpid_ok ? TAB_CPID : TAB_CPID ^ 1u;
    sim_tick(&m, &in);
    CHECK(t, m.nx.sample, "row %zu: the enqueue must be a sample", i);

    /* t+1: q_o has the enqueue (1 cycle), no BCN yet. */
    const cp_out_t t1 = m.out;
    CHECK(t, t1.q == row->q, "row %zu: q_o at t+1 = %u, want %" PRIu64, i, t1.q, row->q);
    CHECK(t, !t1.bcn_valid && t1.cnt_samples == before.cnt_samples,
          "row %zu: nothing at t+1 (bcn_valid_o=%d)", i, t1.bcn_valid);

    /* t+BCN_LAT-1: still nothing; t+BCN_LAT: the message, counted in the same cycle. */
    sim_idle(&m, BCN_LAT - 2);
    CHECK(t, !m.out.bcn_valid && m.out.cnt_samples == before.cnt_samples,
          "row %zu: nothing one cycle before the latency (bcn_valid_o=%d)", i, m.out.bcn_valid);
    sim_idle(&m, 1);
    const cp_out_t *o = &m.out;
    CHECK(t, o->cnt_samples == before.cnt_samples + 1, "row %zu: cnt_samples_o +1 at t+BCN_LAT", i);
    if (row->type == NONE) {
      CHECK(t, !o->bcn_valid, "row %zu: no BCN expected", i);
      CHECK(t, bcn_data_equal(o, &t1), "row %zu: bcn_* data must keep their values", i);
      CHECK(t, msg_count(o) == msg_count(&before), "row %zu: no message counted", i);
    } else {
      CHECK(t, o->bcn_valid && o->bcn_type == (unsigned)row->type,
            "row %zu: bcn_valid_o=%d type=%u, want type %d", i, o->bcn_valid, o->bcn_type, row->type);
      CHECK(t, o->bcn_qoff == row->qoff && o->bcn_qdelta == row->qdelta && o->bcn_fb == row->fb,
            "row %zu: Qoff/Qdelta/Fb = %" PRId64 "/%" PRId64 "/%" PRId64 ", want %" PRId64 "/%" PRId64
            "/%" PRId64,
            i, o->bcn_qoff, o->bcn_qdelta, o->bcn_fb, row->qoff, row->qdelta, row->fb);
      CHECK(t, o->bcn_qntzfb == row->qntzfb, "row %zu: QntzFb = %u, want %u", i, o->bcn_qntzfb, row->qntzfb);
      CHECK(t, o->bcn_dst == 100u + i && o->bcn_flow == 1 && o->bcn_cpid == TAB_CPID,
            "row %zu: dst/flow/cpid = %u/%u/0x%x", i, o->bcn_dst, o->bcn_flow, o->bcn_cpid);
      const uint32_t *cnt = row->type == CP_BCN_NEG   ? &o->cnt_bcn_neg
                            : row->type == CP_BCN_POS ? &o->cnt_bcn_pos
                                                      : &o->cnt_bcn_max;
      const uint32_t *cnt0 = row->type == CP_BCN_NEG   ? &before.cnt_bcn_neg
                             : row->type == CP_BCN_POS ? &before.cnt_bcn_pos
                                                       : &before.cnt_bcn_max;
      CHECK(t, *cnt == *cnt0 + 1 && msg_count(o) == msg_count(&before) + 1,
            "row %zu: exactly the type's counter +1", i);
    }
    CHECK(t, m.s.qold == row->q, "row %zu: Qold <- Q at every sample", i);

    /* t+BCN_LAT+1: a one-cycle pulse. */
    sim_idle(&m, 1);
    CHECK(t, !m.out.bcn_valid, "row %zu: bcn_valid_o is a pulse", i);
  }
  cp_free(&m.s);
}

/* ------------------------------------------------------------------------------------ */
/* Queue monitor (section 5)                                                            */
/* ------------------------------------------------------------------------------------ */

/* At t+1: q_o and ev_err_o; then one idle cycle, and at t+2 (CNT_LAT) cnt_errors_o. */
static void expect_ev(tctx_t *t, sim_t *m, int line, uint32_t q, unsigned code, uint32_t errors) {
  const cp_out_t *o = &m->out;
  check_impl(t, o->q == q, __FILE__, line, "q_o=%u, want %u", o->q, q);
  if (code == 0)
    check_impl(t, !o->ev_err, __FILE__, line, "no ev_err_o expected (code %u)", o->ev_err_code);
  else
    check_impl(t, o->ev_err && o->ev_err_code == code, __FILE__, line, "ev_err_o=%d code %u, want code %u",
               o->ev_err, o->ev_err_code, code);
  sim_idle(m, CNT_LAT - 1);
  check_impl(t, o->cnt_errors == errors, __FILE__, line, "cnt_errors_o=%u, want %u", o->cnt_errors, errors);
}

#define EXPECT_EV(t, m, q, code, errors) expect_ev((t), (m), __LINE__, (q), (code), (errors))

static void test_queue_monitor(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(16, 4, 4, 4, 65535, 0); /* QMax = 65535 */
  if (!sim_init(t, &m, &cfg)) return;
  /* MODE stays off (reset): the queue monitor works in every mode. */

  sim_deq(&m, 64, 0); /* Q = 0: underflow */
  EXPECT_EV(t, &m, 0, CP_EV_ERR_UNDERFLOW, 1);
  sim_idle(&m, 1);
  CHECK(t, !m.out.ev_err && m.out.ev_err_code == CP_EV_ERR_UNDERFLOW,
        "ev_err_o is a pulse, ev_err_code_o is held");

  sim_enq(&m, 63, 0, 0);
  EXPECT_EV(t, &m, 0, CP_EV_ERR_ENQ_LEN, 2);
  sim_enq(&m, 0, 0, 0);
  EXPECT_EV(t, &m, 0, CP_EV_ERR_ENQ_LEN, 3);
  sim_deq(&m, 63, 0); /* bad length comes before underflow */
  EXPECT_EV(t, &m, 0, CP_EV_ERR_DEQ_LEN, 4);

  /* Invalid events with garbage lengths are not events. */
  {
    cp_in_t in = {0};
    in.enq_len = 1;
    in.deq_len = 1;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 0, 0, 4);
  }

  /* A frame cannot leave in its arrival cycle: enq 100 + deq 100 at Q = 0. */
  {
    cp_in_t in = in_enq(100, 1, 0);
    in.deq_valid = true;
    in.deq_len = 100;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 100, CP_EV_ERR_UNDERFLOW, 5);
    CHECK(t, m.out.cnt_frames == 1, "the enqueue is accepted and counted (mode off too)");
  }
  /* Enqueue and dequeue in one cycle: 100 + 500 - 100 = 500. */
  {
    cp_in_t in = in_enq(500, 1, 0);
    in.deq_valid = true;
    in.deq_len = 100;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 500, 0, 5);
  }
  /* Fill to QMax exactly: 500 + 65035 = 65535. */
  sim_enq(&m, 65035, 1, 0);
  EXPECT_EV(t, &m, 65535, 0, 5);
  sim_enq(&m, 64, 1, 0);
  EXPECT_EV(t, &m, 65535, CP_EV_ERR_OVERFLOW, 6);
  /* At QMax, the enqueue may use the room this cycle's dequeue frees. */
  {
    cp_in_t in = in_enq(1000, 1, 0);
    in.deq_valid = true;
    in.deq_len = 1000;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 65535, 0, 6);
    /* ... but only up to it: deq 1000 + enq 1001 overflows, the dequeue still goes. */
    in.enq_len = 1001;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 64535, CP_EV_ERR_OVERFLOW, 7);
    sim_enq(&m, 1000, 1, 0);
    EXPECT_EV(t, &m, 65535, 0, 7);
  }
  /* Two rejections in one cycle: the smaller code, one error counted.
       enq overflow (3) + deq bad length (2) -> 2. */
  {
    cp_in_t in = in_enq(64, 1, 0);
    in.deq_valid = true;
    in.deq_len = 10;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 65535, CP_EV_ERR_DEQ_LEN, 8);
  }
  /* enq bad length (1) + deq underflow (4) -> 1. Drain first. */
  deq_bytes(&m, 65535);
  EXPECT_EV(t, &m, 0, 0, 8);
  {
    cp_in_t in = in_enq(20, 1, 0);
    in.deq_valid = true;
    in.deq_len = 64;
    sim_tick(&m, &in);
    EXPECT_EV(t, &m, 0, CP_EV_ERR_ENQ_LEN, 9);
  }
  /* Port widths: enq_len_i is 16 bits, so 0x10000 + 100 is a 100-byte frame. */
  sim_enq(&m, 0x10000u + 100u, 1, 0);
  EXPECT_EV(t, &m, 100, 0, 9);
  cp_free(&m.s);

  /* MaxFrame bounds legal lengths. */
  const cp_cfg_t cfg2 = mkcfg(27, 4, 4, 4, 9216, 0);
  if (!sim_init(t, &m, &cfg2)) return;
  sim_enq(&m, 9217, 0, 0);
  EXPECT_EV(t, &m, 0, CP_EV_ERR_ENQ_LEN, 1);
  sim_enq(&m, 9216, 0, 0);
  EXPECT_EV(t, &m, 9216, 0, 1);
  sim_enq(&m, 64, 0, 0);
  EXPECT_EV(t, &m, 9280, 0, 1);
  sim_deq(&m, 9217, 0);
  EXPECT_EV(t, &m, 9280, CP_EV_ERR_DEQ_LEN, 2);
  sim_deq(&m, 9216, 0);
  EXPECT_EV(t, &m, 64, 0, 2);
  CHECK(t, m.out.cnt_frames == 2, "cnt_frames_o counts accepted enqueues only");
  cp_free(&m.s);
}

/* ------------------------------------------------------------------------------------ */
/* Sampler (section 6)                                                                  */
/* ------------------------------------------------------------------------------------ */

/* Accepted frame lengths, oldest first, so dequeues only remove what entered. */
typedef struct {
  uint32_t *len;
  uint32_t *flow;
  size_t cap, head, n;
  uint64_t bytes;
} fq_t;

static bool fq_init(fq_t *f, size_t cap) {
  f->len = calloc(cap, sizeof(*f->len));
  f->flow = calloc(cap, sizeof(*f->flow));
  f->cap = cap;
  f->head = f->n = 0;
  f->bytes = 0;
  return f->len != NULL && f->flow != NULL;
}

static void fq_free(fq_t *f) {
  free(f->len);
  free(f->flow);
}

static void fq_push(fq_t *f, uint32_t len, uint32_t flow) {
  const size_t i = (f->head + f->n) % f->cap;
  f->len[i] = len;
  f->flow[i] = flow;
  f->n++;
  f->bytes += len;
}

static void fq_pop(fq_t *f) {
  f->bytes -= f->len[f->head];
  f->head = (f->head + 1) % f->cap;
  f->n--;
}

static void test_sampler_random(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 16, 8, 8, 1500, 0);
  if (!sim_init(t, &m, &cfg)) return;
  CHECK(t, m.s.lfsr.lfsr == CP_RESET_SEED, "reset: LFSR at the SEED reset value");

  cp_regs_t r = regs_with_mode(CP_MODE_ECM);
  r.psample = 0x80000000u;
  r.seed = 0xACE1ACE1u;
  if (!sim_configure(t, &m, &r)) return;
  const common_lfsr32_cfg_t rcfg = {.seed = r.seed, .bug = 0};
  common_lfsr32_state_t ref;
  if (!CHECK(t, common_lfsr32_init(&ref, &rcfg) == 0, "reference LFSR init")) return;
  CHECK(t, m.s.lfsr.lfsr == ref.lfsr, "APPLY loads SEED into the LFSR");

  fq_t fq;
  if (!CHECK(t, fq_init(&fq, 4096), "out of memory")) return;
  unsigned cands = 0, samples = 0;
  bool all_ok = true;
  for (int i = 0; i < 20000; i++) {
    cp_in_t in = {0};
    bool cand = false;
    uint32_t len = 0;
    if (rnd_pct(t, 70)) {
      /* 10 % illegal lengths: rejected, so not candidates. */
      len = rnd_pct(t, 10) ? (uint32_t)rnd_below(t, 64) : 64u + (uint32_t)rnd_below(t, 1437);
      in.enq_valid = true;
      in.enq_len = len;
      in.enq_flow = (uint32_t)rnd_below(t, 4);
      cand = len >= 64;
    }
    if (fq.bytes > 200000) {
      in.deq_valid = true;
      in.deq_len = fq.len[fq.head];
      in.deq_flow = fq.flow[fq.head];
      fq_pop(&fq);
    }
    /* lfsr_state is the state before this cycle's step. */
    const bool want = cand && ref.lfsr < r.psample;
    sim_tick(&m, &in);
    common_lfsr32_in_t lin = {.en = cand, .load = false, .seed = 0};
    common_lfsr32_out_t lo;
    common_lfsr32_next_t ln;
    common_lfsr32_eval(&rcfg, &ref, &lin, &lo, &ln);
    common_lfsr32_commit(&rcfg, &ref, &ln);
    all_ok &= CHECK(t, m.nx.sample == want && m.s.lfsr.lfsr == ref.lfsr,
                    "random sampling, cycle %d: sample=%d want %d, lfsr 0x%08" PRIx32 " want 0x%08" PRIx32, i,
                    m.nx.sample, want, m.s.lfsr.lfsr, ref.lfsr);
    if (cand) fq_push(&fq, len, in.enq_flow);
    cands += cand;
    samples += want;
    if (!all_ok) break;
  }
  sim_idle(&m, BCN_LAT); /* samples are counted when their feedback leaves */
  CHECK(t, m.out.cnt_samples == samples, "cnt_samples_o=%u, want %u", m.out.cnt_samples, samples);
  CHECK(t, samples > cands * 4 / 10 && samples < cands * 6 / 10,
        "PSAMPLE = 2^31 samples about half: %u of %u", samples, cands);

  /* APPLY in the same cycle as a candidate: the load wins over the step, the sample
       decision still uses the old state and PSAMPLE. */
  sim_write(&m, CP_ADDR_SEED, 0x55555555u);
  sim_write(&m, CP_ADDR_PSAMPLE, 0);
  {
    const bool want = ref.lfsr < r.psample;
    cp_in_t in = in_enq(100, 0, 0);
    in.cfg_we = true;
    in.cfg_addr = CP_ADDR_APPLY;
    sim_tick(&m, &in);
    CHECK(t, m.nx.sample == want && m.s.lfsr.lfsr == 0x55555555u,
          "APPLY + candidate: LFSR = new SEED (0x%08" PRIx32 "), sample by the old rule", m.s.lfsr.lfsr);
  }
  /* PSAMPLE = 0 never samples, but the LFSR still steps per candidate. */
  sim_enq(&m, 100, 0, 0);
  CHECK(t, !m.nx.sample && m.s.lfsr.lfsr == ((0x55555555u >> 1) ^ 0x80200003u),
        "PSAMPLE=0: no sample, LFSR steps");
  fq_free(&fq);
  cp_free(&m.s);
}

static void test_sampler_off_and_countdown(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 16, 8, 8, 1500, 0);

  /* Off: no samples, the LFSR does not move, even with PSAMPLE = all ones. */
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_OFF);
  r.psample = 0xFFFFFFFFu;
  r.seed = 0x1234567u;
  if (!sim_configure(t, &m, &r)) return;
  bool ok = true;
  for (int i = 0; i < 200 && ok; i++) {
    sim_enq(&m, 64 + (uint32_t)rnd_below(t, 1000), 0, 0);
    ok &= CHECK(t, !m.nx.sample && m.s.lfsr.lfsr == 0x1234567u,
                "MODE off, enqueue %d: sample=%d lfsr=0x%08" PRIx32, i, m.nx.sample, m.s.lfsr.lfsr);
  }
  sim_idle(&m, 3);
  CHECK(t, m.out.cnt_samples == 0 && msg_count(&m.out) == 0 && m.out.cnt_fbcn == 0,
        "MODE off: nothing sampled or sent");
  CHECK(t, m.out.cnt_frames == 200, "MODE off: frames still counted");
  cp_free(&m.s);

  /* Countdown: sample = enq_len >= cd; cd' = sample ? SAMPLE_BYTES : cd - enq_len. */
  if (!sim_init(t, &m, &cfg)) return;
  r = regs_with_mode(CP_MODE_ECM);
  r.sample_bytes = 1000;
  r.psample = 0xFFFFFFFFu; /* ignored in countdown mode */
  r.seed = 0xBEEFu;
  if (!sim_configure(t, &m, &r)) return;
  CHECK(t, m.s.cd == 1000, "APPLY loads the countdown: cd=%" PRIu32, m.s.cd);
  /* By hand: 600 -> cd 400; 399 -> cd 1; 64 >= 1 -> sample, cd 1000; 1000 >= 1000 ->
       sample; 999 -> cd 1. */
  const struct {
    uint32_t len;
    bool sample;
    uint32_t cd;
  } hand[] = {{600, false, 400}, {399, false, 1}, {64, true, 1000}, {1000, true, 1000}, {999, false, 1}};
  for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
    sim_enq(&m, hand[i].len, 0, 0);
    CHECK(t, m.nx.sample == hand[i].sample && m.s.cd == hand[i].cd,
          "countdown step %zu: sample=%d cd=%" PRIu32 ", want %d %" PRIu32, i, m.nx.sample, m.s.cd,
          hand[i].sample, hand[i].cd);
  }
  /* Rejected enqueues are not candidates. */
  sim_enq(&m, 10, 0, 0);
  CHECK(t, !m.nx.sample && m.s.cd == 1, "a rejected enqueue leaves the countdown alone");

  uint32_t cd = 1;
  unsigned samples = 2;
  ok = true;
  for (int i = 0; i < 5000 && ok; i++) {
    const uint32_t len = 64u + (uint32_t)rnd_below(t, 1437);
    const bool want = len >= cd;
    cd = want ? 1000u : cd - len;
    if (m.out.q > 1000000) deq_bytes(&m, 900000);
    sim_enq(&m, len, 0, 0);
    ok &= CHECK(t, m.nx.sample == want && m.s.cd == cd && m.s.lfsr.lfsr == 0xBEEFu,
                "countdown, enqueue %d: sample=%d cd=%" PRIu32 " lfsr=0x%" PRIx32, i, m.nx.sample, m.s.cd,
                m.s.lfsr.lfsr);
    samples += want;
  }
  sim_idle(&m, BCN_LAT);
  CHECK(t, m.out.cnt_samples == samples, "countdown: cnt_samples_o=%u want %u", m.out.cnt_samples, samples);

  /* APPLY with an enqueue in the same cycle: the reload wins. */
  sim_write(&m, CP_ADDR_SAMPLE_BYTES, 5000);
  {
    cp_in_t in = in_enq(64, 0, 0);
    in.cfg_we = true;
    in.cfg_addr = CP_ADDR_APPLY;
    sim_tick(&m, &in);
    CHECK(t, m.s.cd == 5000, "APPLY + candidate: cd reloaded with SAMPLE_BYTES (%" PRIu32 ")", m.s.cd);
  }
  cp_free(&m.s);
}

/* ------------------------------------------------------------------------------------ */
/* Flow table (section 8) and per-flow feedback (section 7)                             */
/* ------------------------------------------------------------------------------------ */

static void expect_entry(tctx_t *t, const sim_t *m, int line, unsigned idx, bool valid, uint32_t flow,
                         uint64_t q, uint64_t qold) {
  const cp_flow_entry_t *e = &m->s.ft[idx];
  if (!valid)
    check_impl(t, !e->valid, __FILE__, line, "entry %u must be free", idx);
  else
    check_impl(t, e->valid && e->flow == flow && e->q == q && e->qold == qold, __FILE__, line,
               "entry %u = {%d, flow %u, q %" PRIu64 ", qold %" PRIu64 "}, want {1, %u, %" PRIu64 ", %" PRIu64
               "}",
               idx, e->valid, e->flow, e->q, e->qold, flow, q, qold);
}

#define EXPECT_ENTRY(t, m, idx, valid, flow, q, qold) \
  expect_entry((t), (m), __LINE__, (idx), (valid), (flow), (q), (qold))

static void test_flow_table(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 4, 8, 8, 65535, 0);
  if (!sim_init(t, &m, &cfg)) return;
  /* MODE off (reset): the table does not move. */
  sim_enq(&m, 1000, 3, 0);
  CHECK(t, ft_find(&m, 3) < 0 && m.out.q == 1000, "MODE off: enqueue not tracked per flow");
  sim_deq(&m, 1000, 3);

  cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
  r.psample = 0; /* no samples: only the table moves */
  if (!sim_configure(t, &m, &r)) return;

  /* Allocation: lowest free entry. */
  sim_enq(&m, 1000, 5, 0);
  sim_enq(&m, 1000, 7, 0);
  sim_enq(&m, 1000, 9, 0);
  EXPECT_ENTRY(t, &m, 0, true, 5, 1000, 0);
  EXPECT_ENTRY(t, &m, 1, true, 7, 1000, 0);
  EXPECT_ENTRY(t, &m, 2, true, 9, 1000, 0);
  sim_enq(&m, 500, 7, 0); /* hit: gains enq_len */
  EXPECT_ENTRY(t, &m, 1, true, 7, 1500, 0);
  sim_deq(&m, 1000, 7);
  sim_deq(&m, 500, 7); /* q reaches 0: freed */
  EXPECT_ENTRY(t, &m, 1, false, 0, 0, 0);
  sim_enq(&m, 1000, 11, 0);
  EXPECT_ENTRY(t, &m, 1, true, 11, 1000, 0);
  sim_enq(&m, 1000, 13, 0);
  EXPECT_ENTRY(t, &m, 3, true, 13, 1000, 0);

  /* Full: 5, 11, 9, 13 tracked. Flow 15 is not tracked; ft_full_o pulses at t+2
       (FT_FULL_LAT: the table applies t's events in t+1), the counter shows it at t+2 too
       (CNT_LAT). */
  sim_enq(&m, 500, 15, 0);
  CHECK(t, !m.out.ft_full && m.out.cnt_ft_full == 0 && ft_find(&m, 15) < 0,
        "table full: nothing at t+1 (ft_full_o=%d cnt_ft_full_o=%u)", m.out.ft_full, m.out.cnt_ft_full);
  sim_idle(&m, FT_FULL_LAT - 1);
  CHECK(t, m.out.ft_full && m.out.cnt_ft_full == 1, "table full: ft_full_o=%d cnt_ft_full_o=%u at t+2",
        m.out.ft_full, m.out.cnt_ft_full);
  sim_idle(&m, 1);
  CHECK(t, !m.out.ft_full && m.out.cnt_ft_full == 1, "ft_full_o is a pulse");
  /* A dequeue that frees an entry does not help an enqueue in the same cycle (both work
       on the registered table). */
  {
    cp_in_t in = in_enq(200, 17, 0);
    in.deq_valid = true;
    in.deq_len = 1000;
    in.deq_flow = 5;
    sim_tick(&m, &in);
    EXPECT_ENTRY(t, &m, 0, false, 0, 0, 0);
    sim_idle(&m, FT_FULL_LAT - 1);
    CHECK(t, m.out.ft_full && m.out.cnt_ft_full == 2 && ft_find(&m, 17) < 0,
          "enqueue sees the registered (full) table");
  }
  sim_enq(&m, 300, 15, 0); /* flow 15 now gets entry 0 */
  EXPECT_ENTRY(t, &m, 0, true, 15, 300, 0);
  /* The untracked 500-byte frame of flow 15 leaves: q = max(0, 300 - 500) = 0, freed. */
  sim_deq(&m, 500, 15);
  EXPECT_ENTRY(t, &m, 0, false, 0, 0, 0);
  CHECK(t, m.out.q == 1000 + 1000 + 1000 + 300 + 200, "q_o = %u", m.out.q);

  /* Enqueue and dequeue of one flow in one cycle: q' = q + enq - deq. */
  {
    cp_in_t in = in_enq(400, 11, 0);
    in.deq_valid = true;
    in.deq_len = 700;
    in.deq_flow = 11;
    sim_tick(&m, &in);
    EXPECT_ENTRY(t, &m, 1, true, 11, 700, 0);
    /* ... saturating at 0 as a whole: 700 + 100 - 900 -> 0, freed. */
    in.enq_len = 100;
    in.deq_len = 900;
    sim_tick(&m, &in);
    EXPECT_ENTRY(t, &m, 1, false, 0, 0, 0);
  }
  /* A flow with no entry at the start of the cycle: the dequeue does not touch the entry
       its enqueue allocates. */
  {
    cp_in_t in = in_enq(200, 21, 0);
    in.deq_valid = true;
    in.deq_len = 100;
    in.deq_flow = 21;
    sim_tick(&m, &in);
    EXPECT_ENTRY(t, &m, 0, true, 21, 200, 0);
  }
  /* Saturating dequeue of a partly counted flow: 9 holds 1000, a 1500-byte frame goes. */
  sim_enq(&m, 1500, 23, 0); /* entry 1 */
  sim_deq(&m, 1500, 9);
  EXPECT_ENTRY(t, &m, 2, false, 0, 0, 0);

  /* Back to off: the table is kept empty (section 8), so no entry outlives frames
       that leave unseen; events allocate nothing and raise no ft_full_o. */
  r.mode = CP_MODE_OFF;
  if (!sim_configure(t, &m, &r)) return;
  sim_deq(&m, 200, 21);
  sim_enq(&m, 100, 23, 0);
  sim_enq(&m, 100, 25, 0);
  sim_enq(&m, 100, 27, 0);
  EXPECT_ENTRY(t, &m, 0, false, 21, 200, 0);
  EXPECT_ENTRY(t, &m, 1, false, 23, 1500, 0);
  CHECK(t,
        ft_find(&m, 21) < 0 && ft_find(&m, 23) < 0 && ft_find(&m, 25) < 0 && ft_find(&m, 27) < 0 &&
            !m.out.ft_full,
        "MODE off: the table empties, no allocation, no ft_full_o");
  cp_free(&m.s);
}

/* Per-flow feedback: QEQ_FLOW = 15360, BCNMAX_FLOW = 53248, W = 2,
   DF = 5*15360 = 76800; QntzFb_flow = min(63, floor(|Fb|*63 / 76800)). */
static void expect_fbcn(tctx_t *t, const sim_t *m, int line, int type, uint32_t dst, uint32_t flow,
                        int64_t qoff, int64_t qdelta, int64_t fb, unsigned qntzfb) {
  const cp_out_t *o = &m->out;
  if (type == NONE) {
    check_impl(t, !o->fbcn_valid, __FILE__, line, "no per-flow BCN expected");
    return;
  }
  check_impl(t,
             o->fbcn_valid && o->fbcn_type == (unsigned)type && o->fbcn_dst == dst && o->fbcn_flow == flow &&
                 o->fbcn_qoff == qoff && o->fbcn_qdelta == qdelta && o->fbcn_fb == fb &&
                 o->fbcn_qntzfb == qntzfb,
             __FILE__, line,
             "fbcn valid=%d type=%u dst=%u flow=%u qoff=%" PRId64 " qdelta=%" PRId64 " fb=%" PRId64
             " qntzfb=%u; want type %d dst %u flow %u %" PRId64 " %" PRId64 " %" PRId64 " %u",
             o->fbcn_valid, o->fbcn_type, o->fbcn_dst, o->fbcn_flow, o->fbcn_qoff, o->fbcn_qdelta, o->fbcn_fb,
             o->fbcn_qntzfb, type, dst, flow, qoff, qdelta, fb, qntzfb);
}

#define EXPECT_FBCN(t, m, type, dst, flow, qoff, qdelta, fb, qntzfb) \
  expect_fbcn((t), (m), __LINE__, (type), (dst), (flow), (qoff), (qdelta), (fb), (qntzfb))

/* A probe of flow with length len from src in cycle t; leaves the sim at t+FBCN_LAT. */
static void probe(sim_t *m, uint32_t len, uint32_t flow, uint32_t src) {
  cp_in_t in = in_enq(len, flow, src);
  in.enq_probe = true;
  sim_tick(m, &in);
  sim_idle(m, FBCN_LAT - 1);
}

static void test_flow_feedback(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 8, 8, 8, 65535, 0);
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
  r.psample = 0; /* no queue-level samples: only probes are answered */
  if (!sim_configure(t, &m, &r)) return;

  /* A plain frame is not answered. */
  sim_enq(&m, 10000, 3, 40);
  sim_idle(&m, 1);
  EXPECT_FBCN(t, &m, NONE, 0, 0, 0, 0, 0, 0);

  /* Probe: Q_flow = 20000, Qold_flow = 0 (allocation). Qoff = 15360-20000 = -4640;
       Qdelta = 20000; Fb = -4640 - 40000 = -44640; 44640*63 = 2812320;
       36*76800 = 2764800 <= 2812320 < 2841600 -> 36. NEG, to the probe's source. */
  {
    const cp_out_t before = m.out;
    cp_in_t in = in_enq(10000, 3, 42);
    in.enq_probe = true;
    sim_tick(&m, &in);
    CHECK(t, !m.out.fbcn_valid, "no per-flow BCN at t+1");
    sim_idle(&m, FBCN_LAT - 2);
    CHECK(t, !m.out.fbcn_valid && m.out.cnt_fbcn == before.cnt_fbcn,
          "no per-flow BCN at t+FBCN_LAT-1 (t+11)");
    sim_idle(&m, 1);
    EXPECT_FBCN(t, &m, CP_BCN_NEG, 42, 3, -4640, 20000, -44640, 36);
    CHECK(t, m.out.cnt_fbcn == before.cnt_fbcn + 1 && !m.out.bcn_valid && msg_count(&m.out) == 0,
          "cnt_fbcn_o +1 at t+FBCN_LAT, no queue-level BCN");
    sim_idle(&m, 1);
    CHECK(t, !m.out.fbcn_valid, "fbcn_valid_o is a pulse");
  }
  const int e3 = ft_find(&m, 3);
  CHECK(t, e3 >= 0 && m.s.ft[e3].qold == 20000, "answered probe: Qold_flow <- Q_flow");

  /* Q_flow = 21000, Qold_flow = 20000: Qoff = -5640; Qdelta = 1000;
       Fb = -5640 - 2000 = -7640; 7640*63 = 481320; 6*76800 = 460800 -> 6. */
  probe(&m, 1000, 3, 43);
  EXPECT_FBCN(t, &m, CP_BCN_NEG, 43, 3, -5640, 1000, -7640, 6);

  /* POS whatever the tag: new flow 4, Q_flow = 1000: Qoff = 14360; Qdelta = 1000;
       Fb = 14360 - 2000 = 12360; 12360*63 = 778680; 10*76800 = 768000 -> 10. */
  probe(&m, 1000, 4, 44);
  EXPECT_FBCN(t, &m, CP_BCN_POS, 44, 4, 14360, 1000, 12360, 10);

  /* Fb_flow == 0: no message, but Qold_flow is still written.
       Probe 16320 on new flow 6: Qoff = -960; Qdelta = 16320; Fb = -960 - 32640 = -33600;
       33600*63 = 2116800; 27*76800 = 2073600 -> 27. */
  probe(&m, 16320, 6, 45);
  EXPECT_FBCN(t, &m, CP_BCN_NEG, 45, 6, -960, 16320, -33600, 27);
  sim_deq(&m, 1320, 6); /* Q_flow = 15000 */
  /* Probe 1000: Q_flow = 16000, Qold = 16320: Qoff = -640; Qdelta = -320;
       Fb = -640 + 640 = 0: none. */
  {
    const uint32_t n = m.out.cnt_fbcn;
    probe(&m, 1000, 6, 46);
    EXPECT_FBCN(t, &m, NONE, 0, 0, 0, 0, 0, 0);
    CHECK(t, m.out.cnt_fbcn == n, "Fb_flow == 0 is not counted");
  }
  /* Probe 64: Q_flow = 16064, Qold = 16000 (written at the silent answer):
       Qoff = -704; Qdelta = 64; Fb = -704 - 128 = -832; 832*63 = 52416 < 76800 -> 0. */
  probe(&m, 64, 6, 47);
  EXPECT_FBCN(t, &m, CP_BCN_NEG, 47, 6, -704, 64, -832, 0);

  /* Q_flow > BCNMAX_FLOW: MAX with 63 and the computed fields. Flow 7, Q_flow = 60000:
       Qoff = 15360-60000 = -44640; Qdelta = 60000; Fb = -44640 - 120000 = -164640. */
  probe(&m, 60000, 7, 48);
  EXPECT_FBCN(t, &m, CP_BCN_MAX, 48, 7, -44640, 60000, -164640, 63);
  /* Exactly BCNMAX_FLOW is not above it: flow 8, Q_flow = 53248: Qoff = -37888;
       Qdelta = 53248; Fb = -37888 - 106496 = -144384 -> 144384*63/76800 = 118.4 -> 63. NEG. */
  probe(&m, 53248, 8, 49);
  EXPECT_FBCN(t, &m, CP_BCN_NEG, 49, 8, -37888, 53248, -144384, 63);

  /* Qold_flow <- the Q_flow the feedback read (start of t+1), even if t+1's own events
       change q. Flow 3 holds 21000: probe 500 at t, plain 700 at t+1. */
  {
    cp_in_t in = in_enq(500, 3, 50);
    in.enq_probe = true;
    sim_tick(&m, &in);
    sim_enq(&m, 700, 3, 50);
    const int e = ft_find(&m, 3);
    CHECK(t, e >= 0 && m.s.ft[e].q == 22200 && m.s.ft[e].qold == 21500,
          "Qold_flow = Q_flow read at t+1 (21500), q = 22200");
    sim_idle(&m, FBCN_LAT - 2);
    /* Qoff = 15360-21500 = -6140; Qdelta = 21500-21000 = 500; Fb = -6140 - 1000 = -7140;
           7140*63 = 449820 -> 5. */
    EXPECT_FBCN(t, &m, CP_BCN_NEG, 50, 3, -6140, 500, -7140, 5);
  }

  /* The entry is freed in t+1: the answer still goes (registered values), nothing is
       written. Flow 9, probe 2000: Qoff = 13360; Qdelta = 2000; Fb = 9360;
       9360*63 = 589680 -> 7. POS. */
  {
    cp_in_t in = in_enq(2000, 9, 51);
    in.enq_probe = true;
    sim_tick(&m, &in);
    const int e = ft_find(&m, 9);
    sim_deq(&m, 2000, 9);
    CHECK(t, e >= 0 && !m.s.ft[e].valid, "flow 9's entry freed in t+1");
    sim_idle(&m, FBCN_LAT - 2);
    EXPECT_FBCN(t, &m, CP_BCN_POS, 51, 9, 13360, 2000, 9360, 7);
  }

  /* Untracked flow: fill the table (3, 4, 6, 7, 8 + 10, 11, 12), then probe flow 13. */
  sim_enq(&m, 100, 10, 0);
  sim_enq(&m, 100, 11, 0);
  sim_enq(&m, 100, 12, 0);
  {
    const uint32_t n = m.out.cnt_fbcn;
    cp_in_t in = in_enq(1000, 13, 52);
    in.enq_probe = true;
    sim_tick(&m, &in);
    sim_idle(&m, FT_FULL_LAT - 1);
    CHECK(t, m.out.ft_full, "probe of a new flow finds the table full");
    sim_idle(&m, FBCN_LAT - FT_FULL_LAT);
    CHECK(t, !m.out.fbcn_valid && m.out.cnt_fbcn == n, "no answer for an untracked flow");
  }
  cp_free(&m.s);

  /* ECM: probes are not answered per flow. */
  if (!sim_init(t, &m, &cfg)) return;
  r = regs_with_mode(CP_MODE_ECM);
  r.psample = 0;
  if (!sim_configure(t, &m, &r)) return;
  probe(&m, 1000, 3, 1);
  CHECK(t, !m.out.fbcn_valid && m.out.cnt_fbcn == 0, "ECM: no per-flow answers");
  cp_free(&m.s);

  /* E2CM-CP: every sample is answered per flow (and queue-level), probes as such are not. */
  if (!sim_init(t, &m, &cfg)) return;
  r = regs_with_mode(CP_MODE_E2CM_CP);
  r.sample_bytes = 64;
  r.cpid = 7;
  if (!sim_configure(t, &m, &r)) return;
  {
    cp_in_t in = in_enq(1000, 2, 9);
    in.enq_tagged = true;
    in.enq_tag_cpid = 7;
    sim_tick(&m, &in);
    sim_idle(&m, BCN_LAT - 1);
    /* Queue level: Q = 1000, Qold = 0: Qoff = 75800; Qdelta = 1000; Fb = 73800;
           73800*63 = 4649400; 12*384000 = 4608000 -> 12. Tagged: POS.
           Per flow: Q_flow = 1000, Qold_flow = 0: Fb = 14360 - 2000 = 12360 -> 10. POS.
           The BCN at t+11, its per-flow BCN at t+12 (section 7). */
    CHECK(t,
          m.out.bcn_valid && m.out.bcn_type == CP_BCN_POS && m.out.bcn_fb == 73800 &&
              m.out.bcn_qntzfb == 12 && m.out.bcn_dst == 9 && m.out.bcn_cpid == 7 && m.out.cnt_bcn_pos == 1 &&
              !m.out.fbcn_valid && m.out.cnt_fbcn == 0,
          "E2CM-CP: queue-level POS at t+11, no per-flow BCN yet");
    sim_idle(&m, FBCN_LAT - BCN_LAT);
    EXPECT_FBCN(t, &m, CP_BCN_POS, 9, 2, 14360, 1000, 12360, 10);
    CHECK(t, !m.out.bcn_valid && m.out.cnt_fbcn == 1, "E2CM-CP: per-flow POS at t+12, counted with it");
  }
  /* Random sampling with PSAMPLE = 0: a probe that is not sampled gets no answer. */
  r.sample_bytes = 0;
  r.psample = 0;
  if (!sim_configure(t, &m, &r)) return;
  {
    const uint32_t n = m.out.cnt_fbcn;
    probe(&m, 1000, 2, 9);
    CHECK(t, !m.out.fbcn_valid && m.out.cnt_fbcn == n, "E2CM-CP: unsampled probe unanswered");
  }
  cp_free(&m.s);
}

static unsigned tracked(const sim_t *m) {
  unsigned n = 0;
  for (unsigned i = 0; i < m->cfg.num_flows; i++) n += m->s.ft[i].valid;
  return n;
}

/* Section 8 (the table runs one cycle behind the queue monitor) and its timing rules of
   sections 7 and 10, seen at the outputs: the values are those of applying each cycle's
   events in that cycle, ft_full_o and the per-flow message one cycle later. Per-flow
   numbers: QEQ_FLOW 15360 (later 20000), W 2, DF 76800 (later 100000). */
static void test_table_timing(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 4, 8, 8, 65535, 0);
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
  r.psample = 0; /* no queue-level samples: only probes are answered */
  if (!sim_configure(t, &m, &r)) return;

  /* Back-to-back events of one flow (t, t+1) and a probe of it at t+2: the probe's
       lookup sees both, one entry; an enqueue at t+3 does not reach the answer.
       Q_flow 3500, Qold_flow 0: Qoff 11860; Qdelta 3500; Fb 11860 - 7000 = 4860;
       4860*63 = 306180 -> 3. POS. */
  sim_enq(&m, 1000, 3, 0);
  sim_enq(&m, 2000, 3, 0);
  {
    cp_in_t in = in_enq(500, 3, 60);
    in.enq_probe = true;
    sim_tick(&m, &in);
  }
  sim_enq(&m, 700, 3, 0);
  CHECK(t, tracked(&m) == 1, "same flow back to back: one entry (%u tracked)", tracked(&m));
  sim_idle(&m, FBCN_LAT - 3);
  CHECK(t, !m.out.fbcn_valid, "back to back: no per-flow BCN at t+11");
  sim_idle(&m, 1);
  EXPECT_FBCN(t, &m, CP_BCN_POS, 60, 3, 11860, 3500, 4860, 3);

  /* A full table, back to back: flow 6 takes the last entry in s, flow 7 finds the table
       full in s+1 (its lookup sees s's allocation): ft_full_o and its count at s+3. */
  sim_enq(&m, 1000, 4, 0);
  sim_enq(&m, 1000, 5, 0);
  {
    const uint32_t n = m.out.cnt_ft_full;
    sim_enq(&m, 1000, 6, 0); /* s */
    sim_enq(&m, 1000, 7, 0); /* s+1 */
    CHECK(t, !m.out.ft_full && m.out.cnt_ft_full == n, "s's allocation raises no ft_full_o (s+2)");
    sim_idle(&m, 1);
    CHECK(t, m.out.ft_full && m.out.cnt_ft_full == n + 1 && ft_find(&m, 7) < 0,
          "s+1's enqueue finds the table full: ft_full_o=%d cnt_ft_full_o=%u at s+3", m.out.ft_full,
          m.out.cnt_ft_full);
    sim_idle(&m, 1);
    CHECK(t, !m.out.ft_full, "ft_full_o is a pulse");

    /* An entry freed in u is free for u+1's enqueue: no ft_full_o. */
    sim_deq(&m, 1000, 6); /* u */
    sim_enq(&m, 1000, 8, 0);
    bool pulse = m.out.ft_full;
    for (int k = 0; k < 3; k++) {
      sim_idle(&m, 1);
      pulse |= m.out.ft_full;
    }
    CHECK(t, !pulse && m.out.cnt_ft_full == n + 1 && ft_find(&m, 8) >= 0,
          "an entry freed in u takes u+1's new flow (no ft_full_o)");
  }

  /* A flow allocated in v+1 and emptied in v+2 (the dequeue's lookup sees v+1's
       allocation); a probe in v+3 starts it afresh: Q_flow 2000, Qold_flow 0:
       Qoff 13360; Qdelta 2000; Fb 9360; 9360*63 = 589680 -> 7. POS. */
  sim_deq(&m, 1000, 5); /* v: frees an entry */
  sim_enq(&m, 1000, 9, 0);
  sim_deq(&m, 1000, 9);
  probe(&m, 2000, 9, 61);
  EXPECT_FBCN(t, &m, CP_BCN_POS, 61, 9, 13360, 2000, 9360, 7);

  /* The per-flow snapshot uses the configuration of the decision cycle t+1 and the
       Qold_flow a probe sampled in s sees is cleared by an APPLY in a exactly when a <= s.
       Flow 9 holds 2000 with Qold_flow 2000. Shadow QEQ_FLOW = 20000, applied in s+1:
       the answer to s's probe still uses 15360 and Qold_flow 2000. Q_flow 3000: Qoff 12360;
       Qdelta 1000; Fb 12360 - 2000 = 10360; 10360*63 = 652680 -> 8. POS. */
  sim_write(&m, CP_ADDR_QEQ_FLOW, 20000);
  {
    cp_in_t in = in_enq(1000, 9, 62);
    in.enq_probe = true;
    sim_tick(&m, &in);               /* s */
    sim_write(&m, CP_ADDR_APPLY, 0); /* s+1 */
    sim_idle(&m, FBCN_LAT - 2);
    EXPECT_FBCN(t, &m, CP_BCN_POS, 62, 9, 12360, 1000, 10360, 8);
  }
  /* The APPLY of s+1 won over s's Qold_flow write (both land in one table cycle): the next
       probe sees Qold_flow 0. Q_flow 4000: Qoff 20000 - 4000 = 16000; Qdelta 4000;
       Fb 16000 - 8000 = 8000; DF 100000; 8000*63 = 504000 -> 5. POS. */
  probe(&m, 1000, 9, 63);
  EXPECT_FBCN(t, &m, CP_BCN_POS, 63, 9, 16000, 4000, 8000, 5);
  /* APPLY in the probe's own cycle (a = s): cleared for it. Q_flow 5000, Qold_flow 0 (not
       4000): Qoff 15000; Qdelta 5000; Fb 15000 - 10000 = 5000; 5000*63 = 315000 -> 3. */
  {
    cp_in_t in = in_enq(1000, 9, 64);
    in.enq_probe = true;
    in.cfg_we = true;
    in.cfg_addr = CP_ADDR_APPLY;
    sim_tick(&m, &in);
    sim_idle(&m, FBCN_LAT - 1);
    EXPECT_FBCN(t, &m, CP_BCN_POS, 64, 9, 15000, 5000, 5000, 3);
  }

  /* MODE off from t (APPLY in t-1, with a probe in t-1 while MODE is still on): the probe
       still reads its flow, then the table empties. Q_flow 6000, Qold_flow 0 (the APPLY):
       Qoff 14000; Qdelta 6000; Fb 14000 - 12000 = 2000; 2000*63 = 126000 -> 1. POS. */
  sim_write(&m, CP_ADDR_MODE, CP_MODE_OFF);
  {
    cp_in_t in = in_enq(1000, 9, 65);
    in.enq_probe = true;
    in.cfg_we = true;
    in.cfg_addr = CP_ADDR_APPLY;
    sim_tick(&m, &in);
    sim_idle(&m, FBCN_LAT - 1);
    EXPECT_FBCN(t, &m, CP_BCN_POS, 65, 9, 14000, 6000, 2000, 1);
    CHECK(t, tracked(&m) == 0, "MODE off: the table empties after the probe's lookup");
  }

  /* Reset empties the registered events: ft_full_o is 0 in the first two cycles, and no
       per-flow message is left on its way (garbage planted first, as the binding does). */
  m.s.ft_full = m.s.ft_full_pend = true;
  m.s.fbcn_late.valid = true;
  cp_reset(&m.s, &m.cfg);
  sim_peek(&m);
  bool any = m.out.ft_full || m.out.fbcn_valid;
  sim_idle(&m, 1);
  any |= m.out.ft_full || m.out.fbcn_valid;
  CHECK(t, !any && m.out.cnt_fbcn == 0 && m.out.cnt_ft_full == 0,
        "reset: no ft_full_o or per-flow BCN in the first two cycles");
  cp_free(&m.s);
}

/* ------------------------------------------------------------------------------------ */
/* Configuration (section 3)                                                            */
/* ------------------------------------------------------------------------------------ */

static void test_config_port(tctx_t *t) {
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 4, 8, 8, 9216, 0);
  if (!sim_init(t, &m, &cfg)) return;

  cp_regs_t def;
  cp_regs_default(&def);
  CHECK(t,
        def.mode == 0 && def.qeq == 76800 && def.w == 2 && def.psample == 85899346 && def.sample_bytes == 0 &&
            def.bcnmax == 266240 && def.qeq_flow == 15360 && def.bcnmax_flow == 53248 && def.cpid == 0 &&
            def.seed == 1,
        "cp_regs_default: the section 3 reset values");
  CHECK(t, regs_equal(&m.s.active, &def) && regs_equal(&m.s.shadow, &def),
        "reset: active and shadow at the reset values");
  CHECK(t,
        (2u * m.s.active.w + 1u) * m.s.active.qeq == 384000 &&
            (2u * m.s.active.w + 1u) * m.s.active.qeq_flow == 76800,
        "reset: D = 5*76800, DF = 5*15360");

  /* Each check, in turn: write the bad value, APPLY, restore. */
  const struct {
    unsigned addr;
    uint32_t bad;
    unsigned code;
  } bad[] = {
      {CP_ADDR_QEQ, 0, CP_CFG_ERR_QEQ},
      {CP_ADDR_BCNMAX, 76800, CP_CFG_ERR_BCNMAX}, /* equal is not above */
      {CP_ADDR_BCNMAX, 1000, CP_CFG_ERR_BCNMAX},
      {CP_ADDR_QEQ_FLOW, 0, CP_CFG_ERR_QEQ_FLOW},
      {CP_ADDR_BCNMAX_FLOW, 15360, CP_CFG_ERR_BCNMAX_FLOW},
      {CP_ADDR_SEED, 0, CP_CFG_ERR_SEED},
      {CP_ADDR_SAMPLE_BYTES, 63, CP_CFG_ERR_SAMPLE_BYTES},
      {CP_ADDR_SAMPLE_BYTES, 1, CP_CFG_ERR_SAMPLE_BYTES},
  };
  uint32_t errors = 0;
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    const cp_regs_t active = m.s.active;
    sim_write(&m, bad[i].addr, bad[i].bad);
    CHECK(t, !m.out.cfg_err, "a legal-address write is not an error");
    sim_write(&m, CP_ADDR_APPLY, 0xFFFFFFFFu);
    errors++;
    CHECK(t, m.out.cfg_err && m.out.cfg_err_code == bad[i].code && m.out.cnt_errors == errors - 1,
          "bad %zu: cfg_err_o=%d code %u (want %u), cnt_errors_o=%u", i, m.out.cfg_err, m.out.cfg_err_code,
          bad[i].code, m.out.cnt_errors);
    CHECK(t, regs_equal(&m.s.active, &active), "bad %zu: active config unchanged", i);
    sim_idle(&m, 1);
    CHECK(t, !m.out.cfg_err && m.out.cfg_err_code == bad[i].code && m.out.cnt_errors == errors,
          "bad %zu: cfg_err_o is a pulse, the code is held, counted at t+2", i);
    sim_write(&m, bad[i].addr, reg_get(&def, bad[i].addr));
  }
  /* Legal edges: SAMPLE_BYTES = 64, BCNMAX = QEQ + 1. */
  sim_write(&m, CP_ADDR_SAMPLE_BYTES, 64);
  sim_write(&m, CP_ADDR_BCNMAX, 76801);
  sim_write(&m, CP_ADDR_APPLY, 0);
  CHECK(t, !m.out.cfg_err && m.s.active.sample_bytes == 64 && m.s.active.bcnmax == 76801,
        "SAMPLE_BYTES=64 and BCNMAX=QEQ+1 are legal");
  /* First failure wins: QEQ = 0 and SEED = 0 -> 1. */
  sim_write(&m, CP_ADDR_SEED, 0);
  sim_write(&m, CP_ADDR_QEQ, 0);
  sim_write(&m, CP_ADDR_APPLY, 0);
  errors++;
  CHECK(t, m.out.cfg_err && m.out.cfg_err_code == CP_CFG_ERR_QEQ, "first failure wins");
  sim_write(&m, CP_ADDR_SEED, 1);
  sim_write(&m, CP_ADDR_QEQ, 76800);

  /* Unknown addresses: error 7 at the write, nothing stored. */
  for (unsigned addr = 10; addr <= 14; addr++) {
    const cp_regs_t shadow = m.s.shadow;
    sim_write(&m, addr, 0x12345678u);
    errors++;
    CHECK(t,
          m.out.cfg_err && m.out.cfg_err_code == CP_CFG_ERR_ADDR && m.out.cnt_errors == errors - 1 &&
              regs_equal(&m.s.shadow, &shadow),
          "write to address %u: error 7", addr);
  }
  /* cfg_we_i low: nothing happens. */
  {
    cp_in_t in = in_write(CP_ADDR_QEQ, 5);
    in.cfg_we = false;
    sim_tick(&m, &in);
    CHECK(t, m.s.shadow.qeq == 76800 && !m.out.cfg_err, "no write without cfg_we_i");
  }

  /* Only the low bits are stored. */
  sim_write(&m, CP_ADDR_MODE, 0xFFu);
  sim_write(&m, CP_ADDR_W, 0x1Fu);
  sim_write(&m, CP_ADDR_CPID, 0x12345u);
  sim_write(&m, CP_ADDR_BCNMAX, 0xFFFFFFFFu);
  sim_write(&m, CP_ADDR_QEQ_FLOW, (1u << 27) | 1000u);
  CHECK(t,
        m.s.shadow.mode == 3 && m.s.shadow.w == 15 && m.s.shadow.cpid == 0x2345 &&
            m.s.shadow.bcnmax == (1u << 27) - 1u && m.s.shadow.qeq_flow == 1000,
        "writes keep the register's low bits");
  CHECK(t, m.s.active.mode == 0, "writes go to the shadow only");

  /* A successful APPLY: active = shadow, D/DF derived, LFSR = SEED, cd = SAMPLE_BYTES. */
  sim_write(&m, CP_ADDR_QEQ, 50000);
  sim_write(&m, CP_ADDR_W, 3);
  sim_write(&m, CP_ADDR_SEED, 0xDEADBEEFu);
  sim_write(&m, CP_ADDR_SAMPLE_BYTES, 500);
  const uint32_t cnt_before = m.out.cnt_errors;
  sim_write(&m, CP_ADDR_APPLY, 0);
  CHECK(t, !m.out.cfg_err && regs_equal(&m.s.active, &m.s.shadow), "APPLY copies the shadow");
  CHECK(t,
        (2u * m.s.active.w + 1u) * m.s.active.qeq == 7u * 50000u &&
            (2u * m.s.active.w + 1u) * m.s.active.qeq_flow == 7u * 1000u,
        "D = 7*50000, DF = 7*1000");
  CHECK(t, m.s.lfsr.lfsr == 0xDEADBEEFu && m.s.cd == 500, "APPLY loads SEED and the countdown");
  CHECK(t, m.out.cnt_errors == cnt_before && m.out.cfg_err_code == CP_CFG_ERR_ADDR,
        "a good APPLY is not an error and leaves the held code");
  cp_free(&m.s);

  /* APPLY clears Qold and every Qold_flow; keeps Q, the occupancies and the counters. */
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
  r.sample_bytes = 64;
  if (!sim_configure(t, &m, &r)) return;
  {
    cp_in_t in = in_enq(3000, 1, 0);
    in.enq_probe = true;
    sim_tick(&m, &in);
    in.enq_flow = 2;
    sim_tick(&m, &in);
    sim_idle(&m, 3);
  }
  const int e1 = ft_find(&m, 1), e2 = ft_find(&m, 2);
  CHECK(t, e1 >= 0 && e2 >= 0 && m.s.qold == 6000 && m.s.ft[e1].qold == 3000 && m.s.ft[e2].qold == 3000,
        "setup: Qold and Qold_flow set");
  const cp_out_t before = m.out;
  sim_write(&m, CP_ADDR_APPLY, 0);
  CHECK(t, m.s.qold == 0 && m.s.ft[e1].qold == 0 && m.s.ft[e2].qold == 0,
        "APPLY clears Qold and every Qold_flow");
  CHECK(t,
        m.out.q == 6000 && m.s.ft[e1].q == 3000 && m.s.ft[e2].q == 3000 &&
            m.out.cnt_frames == before.cnt_frames && m.out.cnt_samples == before.cnt_samples &&
            msg_count(&m.out) == msg_count(&before) && m.out.cnt_fbcn == before.cnt_fbcn,
        "APPLY keeps Q, the occupancies and the counters");
  /* APPLY in the cycle the feedback unit writes Qold / Qold_flow: the clear wins. */
  {
    cp_in_t in = in_enq(1000, 1, 0);
    in.enq_probe = true;
    in.enq_tagged = true;            /* CPID 0: a POS answer */
    sim_tick(&m, &in);               /* t: sample + probe */
    sim_write(&m, CP_ADDR_APPLY, 0); /* t+1: feedback and APPLY */
    CHECK(t, m.s.qold == 0 && m.s.ft[e1].qold == 0, "APPLY wins over the feedback's writes");
    sim_idle(&m, BCN_LAT - 2);
    CHECK(t, m.out.bcn_valid, "the queue-level message of t+1 still goes out");
    sim_idle(&m, FBCN_LAT - BCN_LAT);
    CHECK(t, m.out.fbcn_valid, "the per-flow message of t+1 still goes out (t+12)");
  }
  cp_free(&m.s);

  /* QW < 19: the byte reset values are cut to QW bits like any stored value. */
  const cp_cfg_t cfg16 = mkcfg(16, 4, 8, 8, 9216, 0);
  if (sim_init(t, &m, &cfg16)) {
    CHECK(t,
          m.s.active.qeq == (76800u & 0xFFFFu) && m.s.active.bcnmax == (266240u & 0xFFFFu) &&
              m.s.active.qeq_flow == 15360 && m.s.active.bcnmax_flow == 53248,
          "QW=16 reset: QEQ=%u BCNMAX=%u", m.s.active.qeq, m.s.active.bcnmax);
    cp_free(&m.s);
  }
}

static void test_config_check(tctx_t *t) {
  cp_regs_t r;
  char msg[256];
  cp_regs_default(&r);
  CHECK(t, cp_regs_check(&r, 27, msg, sizeof(msg)) == 0 && msg[0] == '\0', "defaults pass: \"%s\"", msg);

  const struct {
    unsigned addr;
    uint32_t v;
    int code;
    const char *msg;
  } cases[] = {
      {CP_ADDR_QEQ, 0, 1, "cp: QEQ=0 must be non-zero"},
      {CP_ADDR_BCNMAX, 70000, 2, "cp: BCNMAX=70000 must be above QEQ=76800"},
      {CP_ADDR_QEQ_FLOW, 0, 3, "cp: QEQ_FLOW=0 must be non-zero"},
      {CP_ADDR_BCNMAX_FLOW, 100, 4, "cp: BCNMAX_FLOW=100 must be above QEQ_FLOW=15360"},
      {CP_ADDR_SEED, 0, 5, "cp: SEED=0 must be non-zero (the LFSR never leaves 0)"},
      {CP_ADDR_SAMPLE_BYTES, 10, 6, "cp: SAMPLE_BYTES=10 must be 0 (random sampling) or at least 64"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    cp_regs_t b = r;
    reg_set(&b, cases[i].addr, cases[i].v);
    const int code = cp_regs_check(&b, 27, msg, sizeof(msg));
    CHECK(t, code == cases[i].code && strcmp(msg, cases[i].msg) == 0,
          "cp_regs_check case %zu: %d \"%s\", want %d \"%s\"", i, code, msg, cases[i].code, cases[i].msg);
  }
  /* A value the register cannot hold is checked as stored, and the message says so. */
  {
    cp_regs_t b = r;
    b.qeq = 1u << 27;
    b.bcnmax = (1u << 27) + 1u;
    const int code = cp_regs_check(&b, 27, msg, sizeof(msg));
    CHECK(t, code == 1 && strstr(msg, "QEQ=0") && strstr(msg, "written as 134217728"), "cut value: %d \"%s\"",
          code, msg);
    CHECK(t, cp_regs_check(&b, 28, msg, sizeof(msg)) == 0, "2^27 fits QW=28");
  }
  CHECK(t, cp_regs_check(&r, 27, NULL, 0) == 0, "msg may be NULL");

  /* cp_regs_validate: one stderr line per failure, -EINVAL. */
  {
    char out[1024];
    capture_t cap;
    cp_regs_t b = r;
    b.bcnmax = 70000;
    b.seed = 0;
    capture_begin(&cap);
    const int rc = cp_regs_validate(&b, 27);
    capture_end(&cap, out, sizeof(out));
    CHECK(t,
          rc == -EINVAL && count_lines(out) == 2 &&
              strstr(out, "cp: BCNMAX=70000 must be above QEQ=76800\n") && strstr(out, "SEED=0"),
          "cp_regs_validate: rc=%d \"%s\"", rc, out);
    b = r;
    b.cpid = 0x10000;
    capture_begin(&cap);
    const int rc2 = cp_regs_validate(&b, 27);
    capture_end(&cap, out, sizeof(out));
    CHECK(t, rc2 == -EINVAL && count_lines(out) == 1 && strstr(out, "CPID=65536"),
          "cp_regs_validate: a field too wide is named: rc=%d \"%s\"", rc2, out);
    capture_begin(&cap);
    const int rc3 = cp_regs_validate(&r, 27);
    capture_end(&cap, out, sizeof(out));
    CHECK(t, rc3 == 0 && out[0] == '\0', "cp_regs_validate: defaults pass");
  }

  /* cp_regs_check agrees with the hardware's APPLY on random register sets. */
  sim_t m;
  const cp_cfg_t cfg = mkcfg(20, 4, 8, 8, 9216, 0);
  if (!sim_init(t, &m, &cfg)) return;
  bool ok = true;
  for (int i = 0; i < 300 && ok; i++) {
    cp_regs_t b;
    for (unsigned a = 0; a <= CP_ADDR_SEED; a++) {
      /* small values so every check both passes and fails now and then */
      const uint32_t v = rnd_pct(t, 50) ? (uint32_t)rnd_below(t, 100) : rnd32(t);
      reg_set(&b, a, v);
      sim_write(&m, a, v);
    }
    sim_write(&m, CP_ADDR_APPLY, 0);
    const int code = cp_regs_check(&b, 20, msg, sizeof(msg));
    const unsigned hw = m.out.cfg_err ? m.out.cfg_err_code : 0;
    ok &= CHECK(t, (unsigned)code == hw, "random regs %d: cp_regs_check %d, APPLY %u", i, code, hw);
  }
  cp_free(&m.s);

  /* PSAMPLE from a probability. */
  CHECK(t, cp_psample_from_probability(0.02) == 85899346u, "p=0.02 -> the reset PSAMPLE");
  CHECK(t, cp_psample_from_probability(0.5) == 0x80000000u, "p=0.5");
  CHECK(t, cp_psample_from_probability(1.0) == 0xFFFFFFFFu, "p=1 clamps");
  CHECK(t, cp_psample_from_probability(2.0) == 0xFFFFFFFFu, "p=2 clamps");
  CHECK(t, cp_psample_from_probability(0.0) == 0 && cp_psample_from_probability(-1.0) == 0, "p<=0 -> 0");
  CHECK(t, cp_psample_from_probability(0.0 / 0.0) == 0, "NaN -> 0");
  CHECK(t, cp_psample_from_probability(1.5 / 4294967296.0) == 2u, "round half up");
  CHECK(t, cp_psample_from_probability(1.49 / 4294967296.0) == 1u, "round down");
}

/* A bad parameter gives -EINVAL and exactly one stderr line naming the field and range. */
static void test_init(tctx_t *t) {
  const struct {
    cp_cfg_t cfg;
    const char *field, *range;
  } bad[] = {
      {{15, 16, 8, 8, 9216, 0}, "qw=15", "16..30"},
      {{31, 16, 8, 8, 9216, 0}, "qw=31", "16..30"},
      {{27, 1, 8, 8, 9216, 0}, "num_flows=1", "2..256"},
      {{27, 257, 8, 8, 9216, 0}, "num_flows=257", "2..256"},
      {{27, 16, 0, 8, 9216, 0}, "flow_w=0", "1..16"},
      {{27, 16, 17, 8, 9216, 0}, "flow_w=17", "1..16"},
      {{27, 16, 8, 0, 9216, 0}, "node_w=0", "1..16"},
      {{27, 16, 8, 17, 9216, 0}, "node_w=17", "1..16"},
      {{27, 16, 8, 8, 63, 0}, "max_frame=63", "64..65535"},
      {{27, 16, 8, 8, 65536, 0}, "max_frame=65536", "64..65535"},
      {{27, 16, 8, 8, 9216, CP_BUG_COUNT}, "bug=6", "0..5"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    cp_state_t s;
    char msg[512];
    capture_t cap;
    capture_begin(&cap);
    const int rc = cp_init(&s, &bad[i].cfg);
    capture_end(&cap, msg, sizeof(msg));
    CHECK(t, rc == -EINVAL && s.ft == NULL, "bad cfg %s: rc=%d", bad[i].field, rc);
    CHECK(t, count_lines(msg) == 1 && strstr(msg, bad[i].field) && strstr(msg, bad[i].range),
          "bad cfg message must be one line naming '%s' and '%s': \"%s\"", bad[i].field, bad[i].range, msg);
    cp_free(&s);
  }
  /* Edges are legal. */
  const cp_cfg_t edges[] = {{16, 2, 1, 1, 64, 0}, {30, 256, 16, 16, 65535, 3}};
  for (size_t i = 0; i < 2; i++) {
    cp_state_t s;
    CHECK(t, cp_init(&s, &edges[i]) == 0, "edge cfg %zu is legal", i);
    cp_free(&s);
  }

  CHECK(t,
        strcmp(cp_bug_names[0], "none") == 0 &&
            strcmp(cp_bug_names[CP_BUG_QOLD_NOT_UPDATED], "cp_qold_not_updated") == 0 &&
            strcmp(cp_bug_names[CP_BUG_QUANT_OFF_BY_ONE], "cp_quant_off_by_one") == 0 &&
            strcmp(cp_bug_names[CP_BUG_TABLE_NO_FREE], "cp_table_no_free") == 0 &&
            strcmp(cp_bug_names[CP_BUG_RESET_KEEPS_EV_CODE], "cp_reset_keeps_ev_code") == 0 &&
            strcmp(cp_bug_names[CP_BUG_FBCN_EARLY], "cp_fbcn_early") == 0 &&
            cp_bug_names[CP_BUG_COUNT] == NULL,
        "cp_bug_names");

  /* cp_reset returns to the reset state. */
  sim_t m;
  const cp_cfg_t cfg = mkcfg(27, 4, 8, 8, 9216, 0);
  if (!sim_init(t, &m, &cfg)) return;
  cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
  r.sample_bytes = 64;
  sim_configure(t, &m, &r);
  sim_enq(&m, 1000, 1, 1);
  sim_idle(&m, 3);
  cp_reset(&m.s, &m.cfg);
  sim_peek(&m);
  cp_regs_t def;
  cp_regs_default(&def);
  CHECK(t,
        m.out.q == 0 && m.out.cnt_frames == 0 && m.out.cnt_samples == 0 && m.s.qold == 0 &&
            ft_find(&m, 1) < 0 && regs_equal(&m.s.active, &def) && m.s.lfsr.lfsr == CP_RESET_SEED,
        "cp_reset");
  cp_free(&m.s);
}

/* ------------------------------------------------------------------------------------ */
/* Random run with invariants                                                           */
/* ------------------------------------------------------------------------------------ */

/* A mostly legal random register set for QW bits; now and then one check fails. */
static void random_regs(tctx_t *t, unsigned qw, unsigned max_frame, bool allow_off, uint32_t *cpids,
                        cp_regs_t *r) {
  const uint64_t qmax = (UINT64_C(1) << qw) - 1u;
  r->mode = allow_off && rnd_pct(t, 10) ? 0u : 1u + (uint32_t)rnd_below(t, 3);
  /* Thresholds the traffic reaches: a fill phase (5000 cycles) adds a few hundred frames
       net, and QEQ must stay well inside the buffer. */
  uint64_t reach = 400u * (uint64_t)max_frame;
  if (reach > qmax / 4) reach = qmax / 4;
  r->qeq = 1u + (uint32_t)rnd_below(t, reach);
  const uint64_t room = qmax - r->qeq < 2u * reach ? qmax - r->qeq : 2u * reach;
  r->bcnmax = r->qeq + 1u + (uint32_t)rnd_below(t, room);
  r->w = (uint32_t)rnd_below(t, 16);
  const unsigned p = (unsigned)rnd_below(t, 10);
  r->psample = p == 0 ? 0u : p == 1 ? 0xFFFFFFFFu : rnd32(t);
  r->sample_bytes = rnd_pct(t, 50) ? 0u : 64u + (uint32_t)rnd_below(t, 4u * max_frame);
  r->qeq_flow = 1u + (uint32_t)rnd_below(t, reach / 4);
  r->bcnmax_flow = r->qeq_flow + 1u + (uint32_t)rnd_below(t, reach);
  r->cpid = cpids[rnd_below(t, 4)];
  r->seed = rnd32(t) | 1u;
  if (rnd_pct(t, 15)) {
    switch (rnd_below(t, 6)) {
      case 0: r->qeq = 0; break;
      case 1: r->bcnmax = r->qeq; break;
      case 2: r->qeq_flow = 0; break;
      case 3: r->bcnmax_flow = (uint32_t)rnd_below(t, (uint64_t)r->qeq_flow + 1u); break;
      case 4: r->seed = 0; break;
      default: r->sample_bytes = 1u + (uint32_t)rnd_below(t, 63); break;
    }
  }
}

static bool state_equal(const cp_cfg_t *cfg, const cp_state_t *a, const cp_state_t *b,
                        const cp_flow_entry_t *bft) {
  return memcmp(a, b, sizeof(*a)) == 0 && memcmp(a->ft, bft, cfg->num_flows * sizeof(*bft)) == 0;
}

/* min(63, floor(|fb|*63 / d)) by plain division: the test's own quantiser. */
static unsigned ref_quant(int64_t fb, uint64_t d) {
  const uint64_t n = (uint64_t)(fb < 0 ? -fb : fb) * 63u;
  const uint64_t q = n / d;
  return q > 63 ? 63u : (unsigned)q;
}

/* A per-cycle invariant of the random run: a failure is reported (and ends the run); the
   passes are summarised in one check per run. */
#define INV(cond, ...)              \
  do {                              \
    if (!(cond)) {                  \
      CHECK(t, false, __VA_ARGS__); \
      ok = false;                   \
    }                               \
  } while (0)

/* One segment of the random run; returns false after the first failed invariant.
   allow_off: configurations may turn the CP off. The table is not updated while off
   (section 8), so once a tracked frame leaves during an off period its entry keeps stale
   bytes and "sum of per-flow q <= Q" no longer holds; it is checked until then. */
static bool random_run(tctx_t *t, const cp_cfg_t *cfg, bool allow_off, unsigned long cycles) {
  sim_t m;
  if (!sim_init(t, &m, cfg)) return false;
  const unsigned qw = cfg->qw;
  const uint64_t qmax = (UINT64_C(1) << qw) - 1u;
  const uint32_t fmask = (uint32_t)((1u << cfg->flow_w) - 1u);
  const uint32_t nmask = (uint32_t)((1u << cfg->node_w) - 1u);
  uint32_t cpids[4] = {0, 1, 0xABCD, rnd32(t) & 0xFFFFu};

  /* The test's own model of the configuration and the sampler. */
  cp_regs_t shadow, active;
  cp_regs_default(&shadow);
  for (unsigned a = 0; a <= CP_ADDR_SEED; a++)
    reg_set(&shadow, a, reg_get(&shadow, a) & reg_width_mask(a, qw));
  active = shadow;
  common_lfsr32_state_t rl;
  const common_lfsr32_cfg_t rlcfg = {.seed = CP_RESET_SEED, .bug = 0};
  common_lfsr32_init(&rl, &rlcfg);
  uint32_t cd = active.sample_bytes;

  /* Queue and counters. */
  fq_t fq;
  if (!CHECK(t, fq_init(&fq, (size_t)1 << 20), "out of memory")) {
    cp_free(&m.s);
    return false;
  }
  uint64_t q = 0, qold = 0;
  uint32_t frames = 0, errors = 0, ft_full = 0, none_samples = 0;

  /* The sample register as the test sees it. */
  bool smp = false, smp_probe = false, smp_tag_ok = false;
  uint32_t smp_src = 0, smp_flow = 0;
  /* Decisions on their way to the outputs (section 10): made in t+1, seen at t+BCN_LAT. */
  typedef struct {
    bool smp, probe, bcn;
    cp_msg_t em;
    uint32_t src, flow;
    cp_regs_t act;
  } dec_t;
  dec_t ring[BCN_LAT - 2];
  memset(ring, 0, sizeof ring);
  unsigned ring_i = 0;
  dec_t rf; /* the per-flow message leaves one cycle after the queue-level one (FBCN_LAT) */
  memset(&rf, 0, sizeof rf);

  cp_in_t script[16];
  unsigned script_n = 0, script_i = 0;
  unsigned phase = 0;   /* 0 balanced, 1 fill, 2 drain */
  bool ft_exact = true; /* no tracked bytes have left while the CP was off */
  unsigned applies = 0;
  cp_flow_entry_t *ft_copy = calloc(cfg->num_flows, sizeof(*ft_copy));
  uint32_t *stamp = calloc((size_t)fmask + 1u, sizeof(*stamp)); /* flow seen this cycle */
  bool ok = CHECK(t, ft_copy != NULL && stamp != NULL, "out of memory");

  for (unsigned long c = 0; c < cycles && ok; c++) {
    if (c % 5000 == 0) /* above BCNMAX, drain more often so Q keeps crossing QEQ */
      phase = q > active.bcnmax && rnd_pct(t, 50) ? 2u : (unsigned)rnd_below(t, 3);
    cp_in_t in = {0};

    /* Configuration: bursts that rewrite everything and APPLY, and stray writes. */
    if (script_i == script_n && rnd_below(t, 3000) == 0) {
      cp_regs_t r;
      random_regs(t, qw, cfg->max_frame, allow_off, cpids, &r);
      script_n = script_i = 0;
      for (unsigned a = 0; a <= CP_ADDR_SEED; a++)
        if (a == 0 || rnd_pct(t, 90)) script[script_n++] = in_write(a, reg_get(&r, a));
      script[script_n++] = in_write(CP_ADDR_APPLY, rnd32(t));
    }
    if (script_i < script_n) {
      in.cfg_we = true;
      in.cfg_addr = script[script_i].cfg_addr;
      in.cfg_wdata = script[script_i].cfg_wdata;
      script_i++;
    } else if (rnd_below(t, 5000) == 0) {
      in.cfg_we = true;
      in.cfg_addr = (uint32_t)rnd_below(t, 16);
      in.cfg_wdata = rnd32(t);
    }

    /* Enqueue: mostly legal frames; 3 % illegal lengths. */
    const unsigned enq_pct = phase == 1 ? 80 : phase == 2 ? 20 : 50;
    if (rnd_pct(t, enq_pct) && fq.n < fq.cap) {
      in.enq_valid = true;
      if (rnd_pct(t, 3)) {
        in.enq_len = rnd_pct(t, 50) || cfg->max_frame == 65535
                         ? (uint32_t)rnd_below(t, 64)
                         : cfg->max_frame + 1u + (uint32_t)rnd_below(t, 65535u - cfg->max_frame);
      } else {
        in.enq_len = 64u + (uint32_t)rnd_below(t, cfg->max_frame - 63u);
      }
      in.enq_flow = (uint32_t)rnd_below(t, (uint64_t)fmask + 1u);
      in.enq_src = (uint32_t)rnd_below(t, (uint64_t)nmask + 1u);
      in.enq_probe = rnd_pct(t, 30);
      in.enq_tagged = rnd_pct(t, 50);
      in.enq_tag_cpid = rnd_pct(t, 60) ? active.cpid : cpids[rnd_below(t, 4)];
    }
    /* Dequeue: the oldest frame (so flows and lengths are consistent); 2 % bad ones. */
    const unsigned deq_pct = phase == 1 ? 20 : phase == 2 ? 80 : 50;
    if (rnd_pct(t, 2)) {
      in.deq_valid = true;
      in.deq_flow = (uint32_t)rnd_below(t, (uint64_t)fmask + 1u);
      if (q + 64 <= cfg->max_frame && rnd_pct(t, 50))
        in.deq_len = (uint32_t)(q + 64 + rnd_below(t, cfg->max_frame - q - 63));
      else
        in.deq_len = (uint32_t)rnd_below(t, 64);
    } else if (fq.n > 0 && rnd_pct(t, deq_pct)) {
      in.deq_valid = true;
      in.deq_len = fq.len[fq.head];
      in.deq_flow = fq.flow[fq.head];
    }

    /* ---- expectations for this cycle (section 5, 6, 3) ---- */
    const bool enq_len_ok = in.enq_len >= 64 && in.enq_len <= cfg->max_frame;
    const bool deq_len_ok = in.deq_len >= 64 && in.deq_len <= cfg->max_frame;
    const bool deq_ok = in.deq_valid && deq_len_ok && in.deq_len <= q;
    const bool enq_ok = in.enq_valid && enq_len_ok && q - (deq_ok ? in.deq_len : 0) + in.enq_len <= qmax;
    const bool ev_rej = (in.enq_valid && !enq_ok) || (in.deq_valid && !deq_ok);

    bool exp_cfg_err = false, apply = false;
    unsigned exp_code = 0;
    cp_regs_t next_shadow = shadow;
    if (in.cfg_we) {
      if (in.cfg_addr == CP_ADDR_APPLY) {
        exp_code = (unsigned)cp_regs_check(&shadow, qw, NULL, 0);
        apply = exp_code == 0;
        exp_cfg_err = !apply;
      } else if (in.cfg_addr <= CP_ADDR_SEED) {
        reg_set(&next_shadow, in.cfg_addr, in.cfg_wdata & reg_width_mask(in.cfg_addr, qw));
      } else {
        exp_cfg_err = true;
        exp_code = CP_CFG_ERR_ADDR;
      }
    }

    const bool cand = enq_ok && active.mode != CP_MODE_OFF;
    const bool random = active.sample_bytes == 0;
    bool exp_sample = false;
    uint32_t next_cd = cd;
    if (cand && random)
      exp_sample = rl.lfsr < active.psample;
    else if (cand) {
      exp_sample = in.enq_len >= cd;
      next_cd = exp_sample ? active.sample_bytes : cd - in.enq_len;
    }
    if (apply) next_cd = shadow.sample_bytes;
    /* The sampler's LFSR: load (APPLY) has priority over the step (common_lfsr32). */
    common_lfsr32_next_t rl_next;
    {
      const common_lfsr32_in_t lin = {.en = cand && random, .load = apply, .seed = shadow.seed};
      common_lfsr32_out_t lo;
      common_lfsr32_eval(&rlcfg, &rl, &lin, &lo, &rl_next);
    }
    const bool exp_answer = enq_ok && ((active.mode == CP_MODE_E2CM && in.enq_probe) ||
                                       (active.mode == CP_MODE_E2CM_CP && exp_sample));

    /* The queue-level message the feedback unit must send this cycle (t+1 of smp). */
    bool exp_bcn = false;
    cp_msg_t em = {0};
    if (smp) {
      const uint64_t d = (2u * (uint64_t)active.w + 1u) * active.qeq;
      em.qoff = (int64_t)active.qeq - (int64_t)q;
      em.qdelta = (int64_t)q - (int64_t)qold;
      em.fb = em.qoff - (int64_t)active.w * em.qdelta;
      em.qntzfb = ref_quant(em.fb, d);
      if (q > active.bcnmax) {
        exp_bcn = true;
        em.type = CP_BCN_MAX;
        em.qntzfb = 63;
      } else if (em.fb < 0 || (em.fb > 0 && smp_tag_ok)) {
        exp_bcn = true;
        em.type = em.fb < 0 ? CP_BCN_NEG : CP_BCN_POS;
      }
    }

    const dec_t cur = {.smp = smp,
                       .probe = smp_probe,
                       .bcn = exp_bcn,
                       .em = em,
                       .src = smp_src,
                       .flow = smp_flow,
                       .act = active};

    /* ---- the cycle, with a purity check now and then ---- */
    const cp_out_t prev = m.out;
    const cp_regs_t act_prev = active;
    const uint32_t frames0 = frames, errors0 = errors, ft_full0 = ft_full;
    if (c % 16 == 0) {
      cp_state_t copy;
      memcpy(&copy, &m.s, sizeof(copy));
      memcpy(ft_copy, m.s.ft, cfg->num_flows * sizeof(*ft_copy));
      cp_out_t o1, o2;
      cp_next_t n1;
      cp_eval(&m.cfg, &m.s, &in, &o1, &n1);
      INV(state_equal(cfg, &m.s, &copy, ft_copy), "cycle %lu: cp_eval modified the state", c);
      cp_in_t other = in;
      other.enq_valid = !other.enq_valid;
      other.deq_valid = !other.deq_valid;
      other.cfg_we = !other.cfg_we;
      cp_eval(&m.cfg, &m.s, &other, &o2, &n1);
      INV(out_equal(&o1, &o2) && out_equal(&o1, &prev), "cycle %lu: outputs depend on the inputs", c);
    }
    sim_tick(&m, &in);
    const cp_out_t *o = &m.out;
    const dec_t r = ring[ring_i]; /* the decision of BCN_LAT - 2 cycles ago leaves now */
    ring[ring_i] = cur;
    ring_i = (ring_i + 1u) % (BCN_LAT - 2u);

    /* ---- checks ---- */
    INV(m.nx.enq_ok == enq_ok && m.nx.deq_ok == deq_ok, "cycle %lu: enq_ok=%d deq_ok=%d, want %d %d", c,
        m.nx.enq_ok, m.nx.deq_ok, enq_ok, deq_ok);
    INV(m.nx.sample == exp_sample && m.s.lfsr.lfsr == rl_next.lfsr && m.s.cd == next_cd,
        "cycle %lu: sample=%d want %d, lfsr 0x%08" PRIx32 " want 0x%08" PRIx32 ", cd %" PRIu32
        " want %" PRIu32,
        c, m.nx.sample, exp_sample, m.s.lfsr.lfsr, rl_next.lfsr, m.s.cd, next_cd);
    INV(m.nx.smp.answer_probe == exp_answer, "cycle %lu: answer_probe", c);
    INV(o->cfg_err == exp_cfg_err && (!exp_cfg_err || o->cfg_err_code == exp_code),
        "cycle %lu: cfg_err_o=%d code %u, want %d %u", c, o->cfg_err, o->cfg_err_code, exp_cfg_err, exp_code);

    /* Reference updates. */
    if (deq_ok && act_prev.mode == CP_MODE_OFF)
      for (unsigned i = 0; i < cfg->num_flows; i++)
        ft_exact &= !(m.s.ft[i].valid && m.s.ft[i].flow == (in.deq_flow & fmask));
    if (deq_ok) {
      q -= in.deq_len;
      fq_pop(&fq);
    }
    if (enq_ok) {
      q += in.enq_len;
      fq_push(&fq, in.enq_len, in.enq_flow & fmask);
      frames++;
    }
    errors += (uint32_t)ev_rej + (uint32_t)exp_cfg_err;
    if (smp) /* Qold <- the Q the feedback read */
      qold = prev.q;
    if (apply) {
      qold = 0;
      active = shadow;
      applies++;
    }
    shadow = next_shadow;
    common_lfsr32_commit(&rlcfg, &rl, &rl_next);
    cd = next_cd;
    INV(regs_equal(&m.s.active, &active) && regs_equal(&m.s.shadow, &shadow),
        "cycle %lu: active/shadow registers", c);

    /* Q: the accepted events, within the buffer, visible one cycle later. */
    INV(o->q == q && q <= qmax && q == fq.bytes, "cycle %lu: q_o=%u, want %" PRIu64, c, o->q, q);
    INV(m.s.qold == qold, "cycle %lu: Qold=%" PRIu64 " want %" PRIu64, c, m.s.qold, qold);

    /* The table: distinct flows, non-empty entries, sum of q <= Q. */
    uint64_t sum = 0;
    for (unsigned i = 0; i < cfg->num_flows && ok; i++) {
      const cp_flow_entry_t *e = &m.s.ft[i];
      if (!e->valid) continue;
      sum += e->q;
      INV(e->q > 0 && e->q <= qmax && e->qold <= qmax, "cycle %lu: entry %u q=%" PRIu64, c, i, e->q);
      INV(stamp[e->flow] != (uint32_t)c + 1u, "cycle %lu: flow %u in two entries", c, e->flow);
      stamp[e->flow] = (uint32_t)c + 1u;
    }
    INV(!ft_exact || sum <= q, "cycle %lu: sum of per-flow q %" PRIu64 " > Q %" PRIu64, c, sum, q);

    /* Counters: events of the cycles before this one (CNT_LAT = 2); ft_full_o comes
           with its count (FT_FULL_LAT = CNT_LAT = 2). */
    ft_full += o->ft_full;
    INV(o->cnt_frames == frames0 && o->cnt_errors == errors0 && o->cnt_ft_full == ft_full,
        "cycle %lu: cnt_frames %u/%u cnt_errors %u/%u cnt_ft_full %u/%u+%d", c, o->cnt_frames, frames0,
        o->cnt_errors, errors0, o->cnt_ft_full, ft_full0, o->ft_full);
    INV(o->ev_err == ev_rej, "cycle %lu: ev_err_o", c);
    const uint32_t ds = o->cnt_samples - prev.cnt_samples;
    const uint32_t dm = msg_count(o) - msg_count(&prev);
    INV(ds == (uint32_t)r.smp && dm == (uint32_t)o->bcn_valid &&
            o->cnt_fbcn - prev.cnt_fbcn == (uint32_t)o->fbcn_valid,
        "cycle %lu: counters vs messages (ds=%u dm=%u)", c, ds, dm);
    none_samples += r.smp && !o->bcn_valid;
    INV(o->cnt_samples == o->cnt_bcn_neg + o->cnt_bcn_pos + o->cnt_bcn_max + none_samples,
        "cycle %lu: samples == neg + pos + max + none", c);

    /* The queue-level message, against the test's own computation (decided BCN_LAT - 2
           cycles ago, on the previous cycle's sample then). */
    const cp_msg_t em_r = r.em;
    INV(o->bcn_valid == r.bcn, "cycle %lu: bcn_valid_o=%d want %d", c, o->bcn_valid, r.bcn);
    if (r.bcn && o->bcn_valid) {
      const uint32_t *cnt = em_r.type == CP_BCN_NEG   ? &o->cnt_bcn_neg
                            : em_r.type == CP_BCN_POS ? &o->cnt_bcn_pos
                                                      : &o->cnt_bcn_max;
      const uint32_t *cnt0 = em_r.type == CP_BCN_NEG   ? &prev.cnt_bcn_neg
                             : em_r.type == CP_BCN_POS ? &prev.cnt_bcn_pos
                                                       : &prev.cnt_bcn_max;
      INV(o->bcn_type == em_r.type && o->bcn_qoff == em_r.qoff && o->bcn_qdelta == em_r.qdelta &&
              o->bcn_fb == em_r.fb && o->bcn_qntzfb == em_r.qntzfb && o->bcn_dst == r.src &&
              o->bcn_flow == r.flow && o->bcn_cpid == r.act.cpid && *cnt == *cnt0 + 1,
          "cycle %lu: BCN type %u qoff %" PRId64 " qdelta %" PRId64 " fb %" PRId64
          " qntz %u; want %u %" PRId64 " %" PRId64 " %" PRId64 " %u",
          c, o->bcn_type, o->bcn_qoff, o->bcn_qdelta, o->bcn_fb, o->bcn_qntzfb, em_r.type, em_r.qoff,
          em_r.qdelta, em_r.fb, em_r.qntzfb);
    } else if (!o->bcn_valid) {
      INV(bcn_data_equal(o, &prev), "cycle %lu: bcn_* data held", c);
    }

    /* The per-flow message: only for an answered probe; self-consistent. */
    if (o->fbcn_valid) {
      const int64_t qf = (int64_t)rf.act.qeq_flow - o->fbcn_qoff;
      const uint64_t df = (2u * (uint64_t)rf.act.w + 1u) * rf.act.qeq_flow;
      const bool max = qf > (int64_t)rf.act.bcnmax_flow;
      INV(rf.probe && o->fbcn_dst == rf.src && o->fbcn_flow == rf.flow,
          "cycle %lu: per-flow BCN without an answered probe", c);
      INV(qf > 0 && qf <= (int64_t)qmax && qf - o->fbcn_qdelta >= 0 &&
              o->fbcn_fb == o->fbcn_qoff - (int64_t)rf.act.w * o->fbcn_qdelta,
          "cycle %lu: per-flow fields inconsistent", c);
      INV(max ? (o->fbcn_type == CP_BCN_MAX && o->fbcn_qntzfb == 63)
              : (o->fbcn_type == (o->fbcn_fb < 0 ? CP_BCN_NEG : CP_BCN_POS) && o->fbcn_fb != 0 &&
                 o->fbcn_qntzfb == ref_quant(o->fbcn_fb, df)),
          "cycle %lu: per-flow decision", c);
    } else {
      INV(fbcn_data_equal(o, &prev), "cycle %lu: fbcn_* data held", c);
    }
    rf = r;

    /* This cycle's enqueue is next cycle's sample register. */
    smp = exp_sample;
    smp_probe = exp_answer;
    smp_src = in.enq_src & nmask;
    smp_flow = in.enq_flow & fmask;
    smp_tag_ok = in.enq_tagged && in.enq_tag_cpid == act_prev.cpid;
  }
  CHECK(t, ok, "random run qw=%u num_flows=%u: %lu cycles, every invariant held", qw, cfg->num_flows, cycles);
  printf("random run qw=%u num_flows=%u: %lu cycles, %u frames, %u samples, %u BCN "
         "(%u NEG %u POS %u MAX), %u FBCN, %u errors, %u table full, %u applies%s\n",
         qw, cfg->num_flows, cycles, m.out.cnt_frames, m.out.cnt_samples, msg_count(&m.out),
         m.out.cnt_bcn_neg, m.out.cnt_bcn_pos, m.out.cnt_bcn_max, m.out.cnt_fbcn, m.out.cnt_errors,
         m.out.cnt_ft_full, applies, ft_exact ? "" : ", table stale after an off period");
  if (ok)
    CHECK(t,
          m.out.cnt_samples > 0 && msg_count(&m.out) > 0 && m.out.cnt_fbcn > 0 && m.out.cnt_errors > 0 &&
              (m.out.cnt_ft_full > 0 || cfg->num_flows >= (1u << cfg->flow_w)),
          "random run qw=%u: coverage samples=%u msgs=%u fbcn=%u errors=%u ft_full=%u", qw, m.out.cnt_samples,
          msg_count(&m.out), m.out.cnt_fbcn, m.out.cnt_errors, m.out.cnt_ft_full);
  free(stamp);
  free(ft_copy);
  fq_free(&fq);
  cp_free(&m.s);
  return ok;
}

static void test_random(tctx_t *t, unsigned long cycles) {
  const struct {
    cp_cfg_t cfg;
    bool allow_off;
  } seg[] = {
      {mkcfg(16, 4, 3, 4, 9216, 0), false},   /* small buffer: overflows; small table: full */
      {mkcfg(20, 16, 5, 8, 65535, 0), true},  /* jumbo frames */
      {mkcfg(27, 2, 1, 8, 9216, 0), false},   /* the defaults, a 2-entry table and 2 flows */
      {mkcfg(30, 256, 8, 16, 1500, 0), true}, /* the widest */
  };
  const size_t n = sizeof(seg) / sizeof(seg[0]);
  for (size_t i = 0; i < n; i++)
    if (!random_run(t, &seg[i].cfg, seg[i].allow_off, cycles / n + (i < cycles % n))) break;
}

/* ------------------------------------------------------------------------------------ */
/* Planted bugs                                                                         */
/* ------------------------------------------------------------------------------------ */

/* Run the same inputs on bug 0 and on the given bug; true if any output differs. */
static bool outputs_differ(tctx_t *t, const cp_cfg_t *base, unsigned bug, const cp_in_t *steps, size_t n) {
  sim_t a, b;
  cp_cfg_t cb = *base;
  cb.bug = bug;
  if (!sim_init(t, &a, base)) return false;
  if (!sim_init(t, &b, &cb)) {
    cp_free(&a.s);
    return false;
  }
  bool differ = false;
  for (size_t i = 0; i < n; i++) {
    sim_tick(&a, &steps[i]);
    sim_tick(&b, &steps[i]);
    differ |= !out_equal(&a.out, &b.out);
  }
  cp_free(&a.s);
  cp_free(&b.s);
  return differ;
}

/* Append the writes of r and an APPLY. */
static size_t add_config(cp_in_t *steps, size_t n, const cp_regs_t *r) {
  for (unsigned a = 0; a <= CP_ADDR_SEED; a++) steps[n++] = in_write(a, reg_get(r, a));
  steps[n++] = in_write(CP_ADDR_APPLY, 0);
  return n;
}

static size_t add_idle(cp_in_t *steps, size_t n, unsigned k) {
  for (unsigned i = 0; i < k; i++) memset(&steps[n++], 0, sizeof(steps[0]));
  return n;
}

static void test_planted_bugs(tctx_t *t) {
  cp_in_t steps[64];
  size_t n;
  const cp_cfg_t base = mkcfg(27, 16, 8, 8, 65535, 0);

  /* cp_qold_not_updated: ECM, every enqueue sampled, untagged.
       Q=40000 (NEG), Q=80000 (NEG, Qold=80000), dequeue to 69936, Q=70000: Fb = 6800 +
       2*10000 > 0 untagged, no message: Qold <- 70000 (bug: stays 80000); Q=80000: Qdelta
       10000 (bug: 0). */
  {
    cp_regs_t r = regs_with_mode(CP_MODE_ECM);
    r.sample_bytes = 64;
    n = add_config(steps, 0, &r);
    steps[n++] = in_enq(40000, 1, 1);
    steps[n++] = in_enq(40000, 1, 1);
    steps[n++] = in_deq(10064, 1);
    steps[n++] = in_enq(64, 1, 1);
    n = add_idle(steps, n, BCN_LAT);
    steps[n++] = in_enq(10000, 1, 1);
    n = add_idle(steps, n, BCN_LAT);
    CHECK(t, outputs_differ(t, &base, CP_BUG_QOLD_NOT_UPDATED, steps, n),
          "planted bug cp_qold_not_updated changes the outputs");
    CHECK(t, !outputs_differ(t, &base, CP_BUG_NONE, steps, n), "bug 0 vs bug 0: same");
  }
  /* cp_quant_off_by_one: QEQ = 1000, W = 0 (D = 1000): Q = 10000 gives Fb = -9000,
       QntzFb = 63 (NEG, not MAX); the bug gives 62. */
  {
    cp_regs_t r = regs_with_mode(CP_MODE_ECM);
    r.sample_bytes = 64;
    r.qeq = 1000;
    r.w = 0;
    r.bcnmax = 1000000;
    n = add_config(steps, 0, &r);
    steps[n++] = in_enq(10000, 1, 1);
    n = add_idle(steps, n, BCN_LAT);
    CHECK(t, outputs_differ(t, &base, CP_BUG_QUANT_OFF_BY_ONE, steps, n),
          "planted bug cp_quant_off_by_one changes the outputs");
  }
  /* cp_table_no_free: 2 entries; flow 1 comes and goes, then flows 2 and 3 arrive: the
       bug keeps flow 1's empty entry, so flow 3 finds the table full. */
  {
    const cp_cfg_t small = mkcfg(27, 2, 8, 8, 65535, 0);
    cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
    r.psample = 0;
    n = add_config(steps, 0, &r);
    steps[n++] = in_enq(1000, 1, 1);
    steps[n++] = in_deq(1000, 1);
    steps[n++] = in_enq(1000, 2, 1);
    steps[n++] = in_enq(1000, 3, 1);
    n = add_idle(steps, n, 2);
    CHECK(t, outputs_differ(t, &small, CP_BUG_TABLE_NO_FREE, steps, n),
          "planted bug cp_table_no_free changes the outputs");
  }
  /* cp_fbcn_early: one answered probe; the bug shows its per-flow BCN at t+11. */
  {
    cp_regs_t r = regs_with_mode(CP_MODE_E2CM);
    r.psample = 0;
    n = add_config(steps, 0, &r);
    steps[n] = in_enq(1000, 1, 1);
    steps[n++].enq_probe = true;
    n = add_idle(steps, n, FBCN_LAT);
    CHECK(t, outputs_differ(t, &base, CP_BUG_FBCN_EARLY, steps, n),
          "planted bug cp_fbcn_early changes the outputs");
  }
}

/* ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  uint64_t seed = 1;
  unsigned long cycles = 1000000;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--seed=", 7) == 0) {
      seed = strtoull(argv[i] + 7, NULL, 0);
    } else if (strncmp(argv[i], "--cycles=", 9) == 0) {
      cycles = strtoul(argv[i] + 9, NULL, 0);
    } else {
      fprintf(stderr, "usage: %s [--seed=N] [--cycles=N]\n", argv[0]);
      return 2;
    }
  }
  printf("seed %" PRIu64 "\n", seed);
  tctx_t t = {.passed = 0, .failed = 0, .rng = seed};

  test_init(&t);
  test_config_check(&t);
  test_config_port(&t);
  test_queue_monitor(&t);
  test_sampler_random(&t);
  test_sampler_off_and_countdown(&t);
  test_feedback_table(&t);
  test_flow_table(&t);
  test_flow_feedback(&t);
  test_table_timing(&t);
  test_planted_bugs(&t);
  test_random(&t, cycles);

  if (t.failed != 0) printf("rerun: %s --seed=%" PRIu64 " --cycles=%lu\n", argv[0], seed, cycles);
  return unit_summary(&t);
}
