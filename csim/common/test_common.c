/*
 * Unit tests for the common C models, written from docs/common.md.
 *
 *   test_common [--long] [--seed=N]
 *
 * Prints the seed, one line per failed check, and ends with "N passed, N failed".
 * Exit status is nonzero if any check failed. --long adds the full-period LFSR check
 * (2^32-1 steps).
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to capture the models' stderr */

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

#include "common_crc32.h"
#include "common_credit_counter.h"
#include "common_fifo.h"
#include "common_counter.h"
#include "common_lfsr32.h"
#include "common_rr_arbiter.h"

/* ------------------------------------------------------------------------------------ */
/* Harness                                                                              */
/* ------------------------------------------------------------------------------------ */

static uint64_t rnd64(tctx_t *t) { return unit_splitmix64(&t->rng); }
static uint32_t rnd32(tctx_t *t) { return (uint32_t)(rnd64(t) >> 32); }
/* Uniform enough in 0..n-1 for tests (n small). */
static unsigned rnd_below(tctx_t *t, unsigned n) { return (unsigned)(rnd64(t) % n); }
static bool rnd_pct(tctx_t *t, unsigned pct) { return rnd_below(t, 100) < pct; }

/* A bad cfg must give -EINVAL and exactly one stderr line naming the field and range. */
static void check_bad_cfg(tctx_t *t, const char *file, int line, int rc, const char *msg, const char *field,
                          const char *range) {
  check_impl(t, rc == -EINVAL, file, line, "bad cfg (%s): rc=%d, want -EINVAL", field, rc);
  const char *nl = strchr(msg, '\n');
  bool one_line = nl != NULL && nl[1] == '\0';
  bool named = strstr(msg, field) != NULL && strstr(msg, range) != NULL;
  check_impl(t, one_line && named, file, line,
             "bad cfg message should be one line naming '%s' and '%s', got \"%s\"", field, range, msg);
}

#define EXPECT_BAD_CFG(t, init_call, field, range)                       \
  do {                                                                   \
    char msg_[512];                                                      \
    capture_t cap_;                                                      \
    capture_begin(&cap_);                                                \
    int rc_ = (init_call);                                               \
    capture_end(&cap_, msg_, sizeof(msg_));                              \
    check_bad_cfg((t), __FILE__, __LINE__, rc_, msg_, (field), (range)); \
  } while (0)

static void check_bug_names(tctx_t *t, const char *const *names, const char *bug1) {
  CHECK(t, names[0] != NULL && strcmp(names[0], "none") == 0, "bug_names[0] must be \"none\"");
  CHECK(t, names[1] != NULL && strcmp(names[1], bug1) == 0, "bug_names[1] must be \"%s\"", bug1);
  CHECK(t, names[1] != NULL && names[2] == NULL, "bug_names must be NULL-terminated after %s", bug1);
}

/* ------------------------------------------------------------------------------------ */
/* common_fifo                                                                          */
/* ------------------------------------------------------------------------------------ */

/* One cycle: outputs (with the head entry copied out before the edge), then the edge. */
typedef struct {
  common_fifo_out_t o;
  uint32_t head[COMMON_FIFO_MAX_WORDS];
} fifo_obs_t;

static void fifo_cycle(const common_fifo_cfg_t *cfg, common_fifo_state_t *s, bool push, const uint32_t *data,
                       bool pop, fifo_obs_t *obs) {
  common_fifo_in_t in = {.push = push, .push_data = data, .pop = pop};
  common_fifo_next_t nx;
  common_fifo_eval(cfg, s, &in, &obs->o, &nx);
  memcpy(obs->head, obs->o.pop_data, COMMON_FIFO_WORDS(cfg->width) * sizeof(uint32_t));
  obs->o.pop_data = obs->head;
  common_fifo_commit(cfg, s, &nx);
}

/* docs/common.md "Timing (Depth = 2)", cycle by cycle, plus cycle 6 for the underflow. */
static void test_fifo_timing_table(tctx_t *t) {
  const common_fifo_cfg_t cfg = {.width = 32, .depth = 2, .bug = 0};
  common_fifo_state_t s;
  if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init width=32 depth=2")) return;

  enum { A = 0xAAAA0001u, B = 0xBBBB0002u, C = 0xCCCC0003u };
  const bool push[7] = {1, 1, 1, 0, 0, 0, 0};
  const uint32_t data[7] = {A, B, C, 0, 0, 0, 0};
  const bool pop[7] = {0, 0, 0, 1, 1, 1, 0};
  const unsigned exp_count[7] = {0, 1, 2, 2, 1, 0, 0};
  const bool exp_full[7] = {0, 0, 1, 1, 0, 0, 0};
  const bool exp_empty[7] = {1, 0, 0, 0, 0, 1, 1};
  const uint32_t exp_head[7] = {0, A, A, A, B, 0, 0}; /* compared only while not empty */
  const bool exp_over[7] = {0, 0, 0, 1, 0, 0, 0};
  const bool exp_under[7] = {0, 0, 0, 0, 0, 0, 1};

  for (int c = 0; c < 7; c++) {
    fifo_obs_t obs;
    uint32_t d = data[c];
    fifo_cycle(&cfg, &s, push[c], &d, pop[c], &obs);
    CHECK(t, obs.o.count == exp_count[c], "fifo timing cycle %d: count_o=%u want %u", c, obs.o.count,
          exp_count[c]);
    CHECK(t, obs.o.full == exp_full[c], "fifo timing cycle %d: full_o=%d want %d", c, obs.o.full,
          exp_full[c]);
    CHECK(t, obs.o.empty == exp_empty[c], "fifo timing cycle %d: empty_o=%d want %d", c, obs.o.empty,
          exp_empty[c]);
    if (!exp_empty[c])
      CHECK(t, obs.head[0] == exp_head[c],
            "fifo timing cycle %d: pop_data_o=0x%08" PRIx32 " want 0x%08" PRIx32, c, obs.head[0],
            exp_head[c]);
    CHECK(t, obs.o.overflow == exp_over[c], "fifo timing cycle %d: overflow_o=%d want %d", c, obs.o.overflow,
          exp_over[c]);
    CHECK(t, obs.o.underflow == exp_under[c], "fifo timing cycle %d: underflow_o=%d want %d", c,
          obs.o.underflow, exp_under[c]);
  }
  common_fifo_free(&s);
}

/* Full + pop + push is accepted: count holds, no overflow, order kept. */
static void test_fifo_full_pop_push(tctx_t *t) {
  const common_fifo_cfg_t cfg = {.width = 16, .depth = 3, .bug = 0};
  common_fifo_state_t s;
  if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init depth=3")) return;
  fifo_obs_t obs;
  for (uint32_t v = 1; v <= 3; v++) fifo_cycle(&cfg, &s, true, &v, false, &obs);
  uint32_t v4 = 4;
  fifo_cycle(&cfg, &s, true, &v4, true, &obs); /* full: pops 1, pushes 4 */
  CHECK(t, obs.o.full && obs.head[0] == 1, "fifo full+pop+push: was full with head 1");
  fifo_cycle(&cfg, &s, false, NULL, false, &obs);
  CHECK(t, obs.o.full && obs.o.count == 3 && !obs.o.overflow,
        "fifo full+pop+push accepted: count=%u overflow=%d", obs.o.count, obs.o.overflow);
  bool order_ok = true;
  for (uint32_t want = 2; want <= 4; want++) {
    fifo_cycle(&cfg, &s, false, NULL, true, &obs);
    order_ok = order_ok && !obs.o.empty && obs.head[0] == want;
  }
  CHECK(t, order_ok, "fifo full+pop+push: entries leave in order 2,3,4");
  common_fifo_free(&s);
}

/* Depth 5 (not a power of two): random push/pop against a simple array queue. */
static void test_fifo_random_wrap(tctx_t *t, unsigned width, unsigned depth, unsigned cycles) {
  const common_fifo_cfg_t cfg = {.width = width, .depth = depth, .bug = 0};
  const unsigned words = COMMON_FIFO_WORDS(width);
  common_fifo_state_t s;
  if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init width=%u depth=%u", width, depth)) return;

  /* Reference: a plain array, entries shifted down on pop. */
  uint32_t(*ref)[COMMON_FIFO_MAX_WORDS] = calloc(depth, sizeof(*ref));
  unsigned ref_count = 0;
  bool ref_over = false, ref_under = false;
  unsigned n_over = 0, n_under = 0, n_full_pop_push = 0, n_wrap_pops = 0;
  char why[256] = "";
  unsigned fail_cycle = cycles;

  for (unsigned c = 0; c < cycles && fail_cycle == cycles; c++) {
    /* Phases of push-heavy / pop-heavy / balanced traffic, to hit full and empty. */
    unsigned phase = (c / 40) % 3;
    unsigned p_push = phase == 0 ? 80 : phase == 1 ? 20 : 50;
    unsigned p_pop = phase == 0 ? 20 : phase == 1 ? 80 : 50;
    bool push = rnd_pct(t, p_push), pop = rnd_pct(t, p_pop);
    uint32_t data[COMMON_FIFO_MAX_WORDS];
    for (unsigned w = 0; w < COMMON_FIFO_MAX_WORDS; w++)
      data[w] = rnd32(t); /* high bits beyond Width are garbage on purpose */

    fifo_obs_t obs;
    fifo_cycle(&cfg, &s, push, data, pop, &obs);

    if (obs.o.count != ref_count || obs.o.full != (ref_count == depth) || obs.o.empty != (ref_count == 0) ||
        obs.o.overflow != ref_over || obs.o.underflow != ref_under) {
      snprintf(why, sizeof(why), "count=%u/%u full=%d empty=%d over=%d/%d under=%d/%d", obs.o.count,
               ref_count, obs.o.full, obs.o.empty, obs.o.overflow, ref_over, obs.o.underflow, ref_under);
      fail_cycle = c;
    } else if (ref_count > 0 && memcmp(obs.head, ref[0], words * sizeof(uint32_t)) != 0) {
      snprintf(why, sizeof(why), "pop_data word0=0x%08" PRIx32 " want 0x%08" PRIx32, obs.head[0], ref[0][0]);
      fail_cycle = c;
    }

    /* Spec "Behaviour, per cycle". */
    bool pop_ok = pop && ref_count > 0;
    bool push_ok = push && (ref_count < depth || pop_ok);
    if (push && pop && ref_count == depth) n_full_pop_push++;
    if (pop_ok) {
      memmove(ref[0], ref[1], (size_t)(ref_count - 1) * sizeof(*ref));
      ref_count--;
      n_wrap_pops++;
    }
    if (push_ok) {
      memset(ref[ref_count], 0, sizeof(*ref));
      memcpy(ref[ref_count], data, words * sizeof(uint32_t));
      if (width % 32 != 0) ref[ref_count][words - 1] &= (1u << (width % 32)) - 1u;
      ref_count++;
    }
    ref_over = push && !push_ok;
    ref_under = pop && !pop_ok;
    n_over += ref_over;
    n_under += ref_under;
  }
  CHECK(t, fail_cycle == cycles, "fifo random width=%u depth=%u: mismatch in cycle %u: %s", width, depth,
        fail_cycle, why);
  CHECK(t, n_over > 0 && n_under > 0 && n_full_pop_push > 0 && n_wrap_pops > 2 * depth,
        "fifo random width=%u depth=%u: coverage over=%u under=%u full+pop+push=%u pops=%u", width, depth,
        n_over, n_under, n_full_pop_push, n_wrap_pops);
  free(ref);
  common_fifo_free(&s);
}

/* Unused high bits of the top word are masked on push. */
static void test_fifo_width_mask(tctx_t *t) {
  const unsigned widths[] = {1, 31, 32, 33, 255, 256};
  for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
    const common_fifo_cfg_t cfg = {.width = widths[i], .depth = 2, .bug = 0};
    const unsigned words = COMMON_FIFO_WORDS(cfg.width);
    common_fifo_state_t s;
    if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init width=%u", cfg.width)) continue;
    uint32_t ones[COMMON_FIFO_MAX_WORDS];
    memset(ones, 0xFF, sizeof(ones));
    fifo_obs_t obs;
    fifo_cycle(&cfg, &s, true, ones, false, &obs);
    fifo_cycle(&cfg, &s, false, NULL, false, &obs);
    bool ok = true;
    for (unsigned w = 0; w < words; w++) {
      unsigned bits = cfg.width - 32 * w;
      uint32_t want = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
      ok = ok && obs.head[w] == want;
    }
    CHECK(t, ok, "fifo width=%u: all-ones push reads back masked to Width bits", cfg.width);
    common_fifo_free(&s);
  }
}

/* Largest depth: fill completely, drain, entries come back in order. */
static void test_fifo_max_depth(tctx_t *t) {
  const common_fifo_cfg_t cfg = {.width = 17, .depth = 65535, .bug = 0};
  common_fifo_state_t s;
  if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init depth=65535")) return;
  fifo_obs_t obs;
  for (uint32_t v = 0; v < 65536; v++) /* the last push is rejected */
    fifo_cycle(&cfg, &s, true, &v, false, &obs);
  fifo_cycle(&cfg, &s, false, NULL, false, &obs);
  CHECK(t, obs.o.full && obs.o.count == 65535 && obs.o.overflow,
        "fifo depth=65535: full after 65535 pushes, push 65536 rejected");
  bool ok = true;
  for (uint32_t v = 0; v < 65535; v++) {
    fifo_cycle(&cfg, &s, false, NULL, true, &obs);
    ok = ok && !obs.o.empty && obs.head[0] == (v & 0x1FFFFu);
  }
  fifo_cycle(&cfg, &s, false, NULL, false, &obs);
  CHECK(t, ok && obs.o.empty && obs.o.count == 0, "fifo depth=65535: drains in order");
  common_fifo_free(&s);
}

/* eval must not modify the state (registers or memory). */
static void test_fifo_pure(tctx_t *t) {
  const common_fifo_cfg_t cfg = {.width = 64, .depth = 3, .bug = 0};
  common_fifo_state_t s;
  if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init")) return;
  uint32_t d[2] = {1, 2};
  fifo_obs_t obs;
  fifo_cycle(&cfg, &s, true, d, false, &obs);
  common_fifo_state_t before = s;
  uint32_t mem_before[6];
  memcpy(mem_before, s.mem, sizeof(mem_before));
  uint32_t d2[2] = {7, 8};
  common_fifo_in_t in = {.push = true, .push_data = d2, .pop = true};
  common_fifo_out_t out;
  common_fifo_next_t nx;
  common_fifo_eval(&cfg, &s, &in, &out, &nx);
  common_fifo_eval(&cfg, &s, &in, &out, &nx);
  CHECK(t, memcmp(&before, &s, sizeof(s)) == 0 && memcmp(mem_before, s.mem, sizeof(mem_before)) == 0,
        "fifo eval leaves the state untouched");
  common_fifo_free(&s);
}

static void test_fifo_bad_cfg(tctx_t *t) {
  common_fifo_state_t s;
  common_fifo_cfg_t cfg = {.width = 32, .depth = 1, .bug = 0};
  EXPECT_BAD_CFG(t, common_fifo_init(&s, &cfg), "depth=1", "2..65535");
  common_fifo_free(&s); /* safe after a failed init */
  cfg.depth = 65536;
  EXPECT_BAD_CFG(t, common_fifo_init(&s, &cfg), "depth=65536", "2..65535");
  cfg.depth = 4;
  cfg.width = 0;
  EXPECT_BAD_CFG(t, common_fifo_init(&s, &cfg), "width=0", "1..256");
  cfg.width = 257;
  EXPECT_BAD_CFG(t, common_fifo_init(&s, &cfg), "width=257", "1..256");
  cfg.width = 32;
  cfg.bug = 2;
  EXPECT_BAD_CFG(t, common_fifo_init(&s, &cfg), "bug=2", "0..1");
  check_bug_names(t, common_fifo_bug_names, "fifo_full_early");
}

/* Planted bug fifo_full_early: full at Depth-1, the Depth-th push is rejected. */
static void test_fifo_bug(tctx_t *t) {
  fifo_obs_t obs[2][6];
  for (unsigned bug = 0; bug < 2; bug++) {
    const common_fifo_cfg_t cfg = {.width = 8, .depth = 4, .bug = bug};
    common_fifo_state_t s;
    if (!CHECK(t, common_fifo_init(&s, &cfg) == 0, "fifo init bug=%u", bug)) return;
    for (uint32_t c = 0; c < 6; c++) fifo_cycle(&cfg, &s, c < 4, &c, false, &obs[bug][c]);
    common_fifo_free(&s);
  }
  /* The 4th push happens in cycle 3; a rejection would pulse overflow_o in cycle 4. */
  CHECK(t, !obs[0][3].o.full && obs[0][4].o.count == 4 && !obs[0][4].o.overflow,
        "fifo bug=none: 4 pushes into depth 4 all accepted");
  CHECK(t, obs[1][3].o.full && obs[1][4].o.count == 3 && obs[1][4].o.overflow,
        "fifo bug=fifo_full_early: full at 3, 4th push rejected (count=%u)", obs[1][4].o.count);
}

/* ------------------------------------------------------------------------------------ */
/* common_credit_counter                                                                */
/* ------------------------------------------------------------------------------------ */

static common_credit_counter_out_t cc_cycle(const common_credit_counter_cfg_t *cfg,
                                            common_credit_counter_state_t *s, bool init, bool consume,
                                            unsigned vc, uint32_t ret) {
  common_credit_counter_in_t in = {.init = init, .consume = consume, .consume_vc = vc, .return_mask = ret};
  common_credit_counter_out_t out;
  common_credit_counter_next_t nx;
  common_credit_counter_eval(cfg, s, &in, &out, &nx);
  common_credit_counter_commit(cfg, s, &nx);
  return out;
}

static common_credit_counter_out_t cc_idle(const common_credit_counter_cfg_t *cfg,
                                           common_credit_counter_state_t *s) {
  return cc_cycle(cfg, s, false, false, 0, 0);
}

static void test_cc_rules(tctx_t *t) {
  /* NumVcs = 3, MaxCredits = 2. VcW = 2, so consume_vc_i = 3 is representable. */
  const common_credit_counter_cfg_t cfg = {.num_vcs = 3, .max_credits = 2, .bug = 0};
  common_credit_counter_state_t s;
  if (!CHECK(t, common_credit_counter_init(&s, &cfg) == 0, "cc init num_vcs=3 max=2")) return;
  common_credit_counter_out_t o;

  o = cc_idle(&cfg, &s);
  CHECK(t,
        o.credits[0] == 2 && o.credits[1] == 2 && o.credits[2] == 2 && o.avail == 0x7 && o.underflow == 0 &&
            o.overflow == 0 && !o.bad_vc,
        "cc reset: every count = MaxCredits, avail all, no pulses");
  CHECK(t, o.credits[3] == 0 && o.credits[15] == 0, "cc credits[] beyond NumVcs are 0");

  /* Latency 1: the consume cycle still shows the old count. */
  o = cc_cycle(&cfg, &s, false, true, 1, 0);
  CHECK(t, o.credits[1] == 2, "cc consume: same cycle still shows 2");
  o = cc_cycle(&cfg, &s, false, true, 1, 0);
  CHECK(t, o.credits[1] == 1 && o.avail == 0x7, "cc consume: 1 cycle later credits[1]=1");
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[1] == 0 && o.avail == 0x5, "cc vc1 at 0: avail bit 1 clear (avail=0x%x)", o.avail);

  /* cons && ret at 0: count holds, no underflow. */
  cc_cycle(&cfg, &s, false, true, 1, 0x2);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[1] == 0 && o.underflow == 0, "cc cons&&ret at 0: holds 0, no underflow");

  /* Underflow: consume at 0 is rejected; pulse exactly one cycle. */
  cc_cycle(&cfg, &s, false, true, 1, 0);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[1] == 0 && o.underflow == 0x2 && o.overflow == 0 && !o.bad_vc,
        "cc underflow: consume at 0 rejected, underflow_o=0x%x", o.underflow);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.underflow == 0, "cc underflow is a one-cycle pulse");

  /* Return on vc1 brings it back. */
  cc_cycle(&cfg, &s, false, false, 0, 0x2);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[1] == 1 && (o.avail & 0x2), "cc return: credits[1]=1");

  /* cons && ret at Max: count holds, no overflow. */
  cc_cycle(&cfg, &s, false, true, 2, 0x4);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[2] == 2 && o.overflow == 0, "cc cons&&ret at Max: holds Max, no overflow");

  /* Overflow: return at Max rejected; several VCs at once, each on its own. */
  cc_cycle(&cfg, &s, false, false, 0, 0x7); /* vc0, vc2 at Max; vc1 at 1 */
  o = cc_idle(&cfg, &s);
  CHECK(t, o.overflow == 0x5 && o.credits[0] == 2 && o.credits[1] == 2 && o.credits[2] == 2,
        "cc overflow: returns at Max rejected on vc0,vc2 (overflow_o=0x%x), vc1 incremented", o.overflow);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.overflow == 0, "cc overflow is a one-cycle pulse");

  /* Consume on one VC and return on another in the same cycle. */
  cc_cycle(&cfg, &s, false, true, 0, 0x0);
  cc_cycle(&cfg, &s, false, true, 2, 0x1);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[0] == 2 && o.credits[2] == 1 && o.underflow == 0 && o.overflow == 0,
        "cc consume vc2 + return vc0 in one cycle");

  /* bad_vc: consume_vc_i = 3 >= NumVcs: no VC consumes; returns still apply. */
  cc_cycle(&cfg, &s, false, true, 3, 0x4);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.bad_vc && o.credits[0] == 2 && o.credits[1] == 2 && o.credits[2] == 2 && o.underflow == 0,
        "cc bad_vc: consume_vc=3 rejected, return on vc2 still counted");
  o = cc_idle(&cfg, &s);
  CHECK(t, !o.bad_vc, "cc bad_vc is a one-cycle pulse");
  cc_cycle(&cfg, &s, false, false, 3, 0);
  o = cc_idle(&cfg, &s);
  CHECK(t, !o.bad_vc, "cc bad consume_vc without consume_i: no bad_vc");

  /* init priority: init with consume, bad vc, returns at Max: reload, no pulses at all. */
  cc_cycle(&cfg, &s, false, true, 0, 0);
  cc_cycle(&cfg, &s, false, true, 0, 0);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.credits[0] == 0, "cc vc0 drained to 0");
  cc_cycle(&cfg, &s, true, true, 0, 0x6);
  o = cc_idle(&cfg, &s);
  CHECK(t,
        o.credits[0] == 2 && o.credits[1] == 2 && o.credits[2] == 2 && o.underflow == 0 && o.overflow == 0 &&
            !o.bad_vc,
        "cc init: all reload to Max; consume at 0 and returns at Max ignored, no pulses");
  cc_cycle(&cfg, &s, true, true, 3, 0);
  o = cc_idle(&cfg, &s);
  CHECK(t, !o.bad_vc, "cc init: no bad_vc pulse during init");

  /* Return bits at and above NumVcs are outside the port: ignored. */
  cc_cycle(&cfg, &s, false, false, 0, 0xFFFFFFF8u);
  o = cc_idle(&cfg, &s);
  CHECK(t, o.overflow == 0 && o.credits[3] == 0, "cc return bits >= NumVcs ignored");
  common_credit_counter_free(&s);
}

/* consume_vc_i is VcW = max(1, clog2(NumVcs)) bits wide. */
static void test_cc_vc_width(tctx_t *t) {
  common_credit_counter_state_t s;
  common_credit_counter_out_t o;
  const common_credit_counter_cfg_t one = {.num_vcs = 1, .max_credits = 1, .bug = 0};
  if (CHECK(t, common_credit_counter_init(&s, &one) == 0, "cc init num_vcs=1")) {
    cc_cycle(&one, &s, false, true, 1, 0);
    o = cc_idle(&one, &s);
    CHECK(t, o.bad_vc && o.credits[0] == 1, "cc num_vcs=1 (VcW=1): consume_vc=1 is bad_vc");
    cc_cycle(&one, &s, false, true, 0, 0);
    o = cc_idle(&one, &s);
    CHECK(t, !o.bad_vc && o.credits[0] == 0 && o.avail == 0, "cc num_vcs=1 max=1: consume vc0 -> 0");
    /* Bits above VcW are outside the port: consume_vc = 2 is VC 0. */
    cc_cycle(&one, &s, true, false, 0, 0);
    cc_cycle(&one, &s, false, true, 2, 0);
    o = cc_idle(&one, &s);
    CHECK(t, !o.bad_vc && o.credits[0] == 0, "cc num_vcs=1: consume_vc=2 is VC 0 (1-bit port)");
  }
  const common_credit_counter_cfg_t four = {.num_vcs = 4, .max_credits = 2, .bug = 0};
  if (CHECK(t, common_credit_counter_init(&s, &four) == 0, "cc init num_vcs=4")) {
    cc_cycle(&four, &s, false, true, 4, 0);
    o = cc_idle(&four, &s);
    CHECK(t, !o.bad_vc && o.credits[0] == 1, "cc num_vcs=4: consume_vc=4 is VC 0 (VcW=2)");
  }
  const common_credit_counter_cfg_t sixteen = {.num_vcs = 16, .max_credits = 65535, .bug = 0};
  if (CHECK(t, common_credit_counter_init(&s, &sixteen) == 0, "cc init num_vcs=16 max=65535")) {
    o = cc_idle(&sixteen, &s);
    CHECK(t, o.avail == 0xFFFF && o.credits[15] == 65535, "cc num_vcs=16 reset");
    cc_cycle(&sixteen, &s, false, true, 15, 0);
    o = cc_idle(&sixteen, &s);
    CHECK(t, o.credits[15] == 65534 && !o.bad_vc, "cc num_vcs=16: consume vc15");
    /* init_i reloads exactly the 16 VCs (no entry past the array: ASan/UBSan). */
    cc_cycle(&sixteen, &s, true, false, 0, 0);
    o = cc_idle(&sixteen, &s);
    CHECK(t, o.credits[15] == 65535, "cc num_vcs=16: init reloads vc15");
  }
}

/* Random traffic against a reference written straight from the spec's pseudo-code. */
static void test_cc_random(tctx_t *t) {
  const common_credit_counter_cfg_t cfg = {.num_vcs = 3, .max_credits = 3, .bug = 0};
  common_credit_counter_state_t s;
  if (!CHECK(t, common_credit_counter_init(&s, &cfg) == 0, "cc init")) return;
  unsigned ref[3] = {3, 3, 3};
  uint32_t ref_under = 0, ref_over = 0;
  bool ref_bad = false;
  unsigned fail_cycle = 0;
  bool ok = true;
  unsigned n_under = 0, n_over = 0, n_bad = 0, n_both = 0;
  for (unsigned c = 0; c < 5000 && ok; c++) {
    bool init = rnd_pct(t, 2);
    bool consume = rnd_pct(t, 60);
    unsigned vc = rnd_below(t, 4);
    uint32_t ret = rnd32(t) & (c % 200 < 100 ? 0x7u : rnd32(t) & 0x7u);
    common_credit_counter_out_t o = cc_cycle(&cfg, &s, init, consume, vc, ret);
    for (unsigned v = 0; v < 3; v++)
      ok = ok && o.credits[v] == ref[v] && ((o.avail >> v) & 1u) == (ref[v] > 0);
    ok = ok && o.underflow == ref_under && o.overflow == ref_over && o.bad_vc == ref_bad;
    if (!ok) fail_cycle = c;
    ref_under = ref_over = 0;
    ref_bad = false;
    if (init) {
      for (unsigned v = 0; v < 3; v++) ref[v] = 3;
      continue;
    }
    ref_bad = consume && vc >= 3;
    n_bad += ref_bad;
    for (unsigned v = 0; v < 3; v++) {
      bool cons = consume && vc == v, r = (ret >> v) & 1u;
      if (cons && r)
        n_both++;
      else if (cons && ref[v] == 0)
        ref_under |= 1u << v;
      else if (cons)
        ref[v]--;
      else if (r && ref[v] == 3)
        ref_over |= 1u << v;
      else if (r)
        ref[v]++;
    }
    n_under += ref_under != 0;
    n_over += ref_over != 0;
  }
  CHECK(t, ok, "cc random: mismatch against reference in cycle %u", fail_cycle);
  CHECK(t, n_under && n_over && n_bad && n_both, "cc random coverage under=%u over=%u bad=%u both=%u",
        n_under, n_over, n_bad, n_both);
}

static void test_cc_pure(tctx_t *t) {
  const common_credit_counter_cfg_t cfg = {.num_vcs = 5, .max_credits = 4, .bug = 0};
  common_credit_counter_state_t s;
  if (!CHECK(t, common_credit_counter_init(&s, &cfg) == 0, "cc init")) return;
  bool ok = true;
  for (int i = 0; i < 200; i++) {
    common_credit_counter_in_t in = {.init = rnd_pct(t, 5),
                                     .consume = rnd_pct(t, 70),
                                     .consume_vc = rnd_below(t, 8),
                                     .return_mask = rnd32(t)};
    common_credit_counter_state_t before = s;
    common_credit_counter_out_t out;
    common_credit_counter_next_t nx;
    common_credit_counter_eval(&cfg, &s, &in, &out, &nx);
    ok = ok && memcmp(&before, &s, sizeof(s)) == 0;
    common_credit_counter_commit(&cfg, &s, &nx);
  }
  CHECK(t, ok, "cc eval leaves the state untouched");
}

static void test_cc_bad_cfg(tctx_t *t) {
  common_credit_counter_state_t s;
  common_credit_counter_cfg_t cfg = {.num_vcs = 0, .max_credits = 8, .bug = 0};
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "num_vcs=0", "1..16");
  cfg.num_vcs = 17;
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "num_vcs=17", "1..16");
  cfg.num_vcs = 2;
  cfg.max_credits = 0;
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "max_credits=0", "1..65535");
  cfg.max_credits = 65536;
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "max_credits=65536", "1..65535");
  cfg.max_credits = 8;
  cfg.bug = 2; /* the first illegal one */
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "bug=2", "0..1");
  cfg.bug = 9;
  EXPECT_BAD_CFG(t, common_credit_counter_init(&s, &cfg), "bug=9", "0..1");
  check_bug_names(t, common_credit_counter_bug_names, "credit_return_lost");
}

/* Planted bug credit_return_lost: consume + return on the same VC decrements. */
static void test_cc_bug(tctx_t *t) {
  unsigned after[2];
  for (unsigned bug = 0; bug < 2; bug++) {
    const common_credit_counter_cfg_t cfg = {.num_vcs = 2, .max_credits = 4, .bug = bug};
    common_credit_counter_state_t s;
    if (!CHECK(t, common_credit_counter_init(&s, &cfg) == 0, "cc init bug=%u", bug)) return;
    cc_cycle(&cfg, &s, false, true, 1, 0);   /* 4 -> 3 */
    cc_cycle(&cfg, &s, false, true, 1, 0x2); /* consume + return on vc1 */
    after[bug] = cc_idle(&cfg, &s).credits[1];
  }
  CHECK(t, after[0] == 3, "cc bug=none: consume+return holds (credits=%u)", after[0]);
  CHECK(t, after[1] == 2, "cc bug=credit_return_lost: consume+return decrements (credits=%u)", after[1]);
}

/* ------------------------------------------------------------------------------------ */
/* common_rr_arbiter                                                                    */
/* ------------------------------------------------------------------------------------ */

static common_rr_arbiter_out_t arb_cycle(const common_rr_arbiter_cfg_t *cfg, common_rr_arbiter_state_t *s,
                                         uint64_t req, bool ack) {
  common_rr_arbiter_in_t in = {.req = req, .ack = ack};
  common_rr_arbiter_out_t out;
  common_rr_arbiter_next_t nx;
  common_rr_arbiter_eval(cfg, s, &in, &out, &nx);
  common_rr_arbiter_commit(cfg, s, &nx);
  return out;
}

static void test_arb_rules(tctx_t *t) {
  const common_rr_arbiter_cfg_t cfg = {.num_req = 4, .bug = 0};
  common_rr_arbiter_state_t s;
  if (!CHECK(t, common_rr_arbiter_init(&s, &cfg) == 0, "arb init num_req=4")) return;
  common_rr_arbiter_out_t o;

  /* All requesting, ack = 1: rotation 0,1,2,3,0,1. */
  const unsigned want[6] = {0, 1, 2, 3, 0, 1};
  bool rot_ok = true;
  for (int i = 0; i < 6; i++) {
    o = arb_cycle(&cfg, &s, 0xF, true);
    rot_ok = rot_ok && o.gnt_valid && o.gnt_idx == want[i] && o.gnt == (UINT64_C(1) << want[i]);
  }
  CHECK(t, rot_ok, "arb all requesting with ack: grants rotate 0,1,2,3,0,1");

  /* ack = 0: grant shown but priority holds. */
  o = arb_cycle(&cfg, &s, 0xF, false);
  CHECK(t, o.gnt_idx == 2, "arb ack=0: grants 2");
  o = arb_cycle(&cfg, &s, 0xF, false);
  CHECK(t, o.gnt_idx == 2 && s.ptr == 2, "arb ack=0: priority does not advance");

  /* No request: no grant, idx 0, ptr holds even with ack. */
  o = arb_cycle(&cfg, &s, 0, true);
  CHECK(t, !o.gnt_valid && o.gnt == 0 && o.gnt_idx == 0 && s.ptr == 2,
        "arb no request: gnt_o=0, gnt_idx_o=0, gnt_valid_o=0, ptr holds");

  /* Search order from ptr=2: 2,3,0,1. Only 1 requesting -> 1; ptr' = 2. */
  o = arb_cycle(&cfg, &s, 0x2, true);
  CHECK(t, o.gnt_idx == 1 && o.gnt == 0x2 && s.ptr == 2, "arb wraps to 1 from ptr 2, ptr'=2");
  o = arb_cycle(&cfg, &s, 0x9, true); /* 0 and 3: from ptr 2 -> 3 */
  CHECK(t, o.gnt_idx == 3 && s.ptr == 0, "arb from ptr 2 req {0,3} grants 3, ptr'=0");
  o = arb_cycle(&cfg, &s, 0x9, true);
  CHECK(t, o.gnt_idx == 0 && s.ptr == 1, "arb from ptr 0 req {0,3} grants 0");

  /* Combinational: the same state gives different grants for different req. */
  common_rr_arbiter_in_t in1 = {.req = 0x4, .ack = false}, in2 = {.req = 0x8, .ack = false};
  common_rr_arbiter_out_t o1, o2;
  common_rr_arbiter_next_t nx;
  common_rr_arbiter_eval(&cfg, &s, &in1, &o1, &nx);
  common_rr_arbiter_eval(&cfg, &s, &in2, &o2, &nx);
  CHECK(t, o1.gnt_idx == 2 && o2.gnt_idx == 3, "arb grant follows req_i in the same cycle");

  /* Request bits at and above NumReq are outside the port. */
  o = arb_cycle(&cfg, &s, 0xF0, true);
  CHECK(t, !o.gnt_valid && o.gnt == 0, "arb req bits >= NumReq ignored");

  /* NumReq = 63: bit 63 is the one bit of req outside the port. */
  const common_rr_arbiter_cfg_t c63 = {.num_req = 63, .bug = 0};
  if (CHECK(t, common_rr_arbiter_init(&s, &c63) == 0, "arb init num_req=63")) {
    o = arb_cycle(&c63, &s, UINT64_C(1) << 63, true);
    CHECK(t, !o.gnt_valid && o.gnt == 0, "arb num_req=63: req bit 63 ignored");
  }
}

/* Random requests (sticky until granted, plus noise), ack = 1: reference grant and fairness. */
static void test_arb_random(tctx_t *t, unsigned n) {
  const common_rr_arbiter_cfg_t cfg = {.num_req = n, .bug = 0};
  common_rr_arbiter_state_t s;
  if (!CHECK(t, common_rr_arbiter_init(&s, &cfg) == 0, "arb init num_req=%u", n)) return;
  uint64_t req = 0;
  unsigned ref_ptr = 0;
  unsigned waits[64] = {0};
  unsigned max_wait = 0;
  bool grant_ok = true;
  unsigned fail_cycle = 0;
  for (unsigned c = 0; c < 20000 && grant_ok; c++) {
    /* New requests appear; now and then one drops without being served. */
    for (unsigned i = 0; i < n; i++) {
      if (rnd_pct(t, 30)) req |= UINT64_C(1) << i;
      if (rnd_pct(t, 3)) req &= ~(UINT64_C(1) << i);
    }
    bool ack = c % 1000 < 900 ? true : rnd_pct(t, 50);
    common_rr_arbiter_out_t o = arb_cycle(&cfg, &s, req, ack);

    unsigned g = 0;
    bool any = req != 0;
    for (unsigned k = 0; k < n && any; k++) {
      unsigned i = (ref_ptr + k) % n;
      if ((req >> i) & 1u) {
        g = i;
        break;
      }
    }
    grant_ok = o.gnt_valid == any && o.gnt_idx == (any ? g : 0) && o.gnt == (any ? UINT64_C(1) << g : 0);
    if (!grant_ok) fail_cycle = c;
    if (any && ack) {
      ref_ptr = (g + 1) % n;
      /* Fairness: every other requester still waiting has seen one more grant. */
      for (unsigned i = 0; i < n; i++) {
        if (i == g || !((req >> i) & 1u)) continue;
        waits[i]++;
        if (waits[i] > max_wait) max_wait = waits[i];
      }
      waits[g] = 0;
      req &= ~(UINT64_C(1) << g);
    }
    for (unsigned i = 0; i < n; i++)
      if (!((req >> i) & 1u)) waits[i] = 0;
  }
  CHECK(t, grant_ok, "arb random num_req=%u: grant differs from reference in cycle %u", n, fail_cycle);
  CHECK(t, max_wait <= n - 1,
        "arb fairness num_req=%u: a waiting requester saw %u grants to "
        "others (limit %u)",
        n, max_wait, n - 1);
  CHECK(t, n > 8 || max_wait == n - 1, "arb fairness num_req=%u: worst case %u reached", n, max_wait);
}

static void test_arb_pure(tctx_t *t) {
  const common_rr_arbiter_cfg_t cfg = {.num_req = 64, .bug = 0};
  common_rr_arbiter_state_t s;
  if (!CHECK(t, common_rr_arbiter_init(&s, &cfg) == 0, "arb init num_req=64")) return;
  bool ok = true;
  for (int i = 0; i < 200; i++) {
    common_rr_arbiter_in_t in = {.req = rnd64(t) & rnd64(t), .ack = rnd_pct(t, 80)};
    common_rr_arbiter_state_t before = s;
    common_rr_arbiter_out_t out;
    common_rr_arbiter_next_t nx;
    common_rr_arbiter_eval(&cfg, &s, &in, &out, &nx);
    ok = ok && memcmp(&before, &s, sizeof(s)) == 0;
    common_rr_arbiter_commit(&cfg, &s, &nx);
  }
  CHECK(t, ok, "arb eval leaves the state untouched");
  common_rr_arbiter_out_t o = arb_cycle(&cfg, &s, UINT64_C(1) << 63, true);
  CHECK(t, o.gnt == UINT64_C(1) << 63 && o.gnt_idx == 63 && s.ptr == 0,
        "arb num_req=64: requester 63 granted, ptr wraps to 0");
}

static void test_arb_bad_cfg(tctx_t *t) {
  common_rr_arbiter_state_t s;
  common_rr_arbiter_cfg_t cfg = {.num_req = 1, .bug = 0};
  EXPECT_BAD_CFG(t, common_rr_arbiter_init(&s, &cfg), "num_req=1", "2..64");
  cfg.num_req = 65;
  EXPECT_BAD_CFG(t, common_rr_arbiter_init(&s, &cfg), "num_req=65", "2..64");
  cfg.num_req = 4;
  cfg.bug = 2;
  EXPECT_BAD_CFG(t, common_rr_arbiter_init(&s, &cfg), "bug=2", "0..1");
  check_bug_names(t, common_rr_arbiter_bug_names, "arb_no_rotate");
}

/* Planted bug arb_no_rotate: with everyone requesting, requester 0 wins forever. */
static void test_arb_bug(tctx_t *t) {
  unsigned seen[2] = {0, 0}; /* bitmask of granted indices over 8 cycles */
  for (unsigned bug = 0; bug < 2; bug++) {
    const common_rr_arbiter_cfg_t cfg = {.num_req = 4, .bug = bug};
    common_rr_arbiter_state_t s;
    if (!CHECK(t, common_rr_arbiter_init(&s, &cfg) == 0, "arb init bug=%u", bug)) return;
    for (int i = 0; i < 8; i++) seen[bug] |= 1u << arb_cycle(&cfg, &s, 0xF, true).gnt_idx;
  }
  CHECK(t, seen[0] == 0xF, "arb bug=none: all four requesters granted");
  CHECK(t, seen[1] == 0x1, "arb bug=arb_no_rotate: only requester 0 granted (seen=0x%x)", seen[1]);
}

/* ------------------------------------------------------------------------------------ */
/* common_crc32                                                                         */
/* ------------------------------------------------------------------------------------ */

/* Reference: the usual table-driven reflected CRC-32 (a different algorithm from the
   model's bit-serial loop). */
static void crc_ref_table(uint32_t tab[256]) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    tab[n] = c;
  }
}

static uint32_t crc_ref(const uint32_t tab[256], const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) c = tab[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
  return ~c;
}

static common_crc32_out_t crc_cycle(const common_crc32_cfg_t *cfg, common_crc32_state_t *s, bool init,
                                    bool valid, uint32_t data, unsigned keep) {
  common_crc32_in_t in = {.init = init, .valid = valid, .data = data, .keep = keep};
  common_crc32_out_t out;
  common_crc32_next_t nx;
  common_crc32_eval(cfg, s, &in, &out, &nx);
  common_crc32_commit(cfg, s, &nx);
  return out;
}

static common_crc32_out_t crc_idle(const common_crc32_cfg_t *cfg, common_crc32_state_t *s) {
  return crc_cycle(cfg, s, false, false, 0, 0);
}

/* Spec example: "123456789" in three words gives the check value 0xCBF43926 in cycle 3. */
static uint32_t crc_spec_example(const common_crc32_cfg_t *cfg, common_crc32_state_t *s, bool *latency_ok) {
  common_crc32_out_t o0 = crc_cycle(cfg, s, true, true, 0x34333231u, 0xF);  /* "1234" */
  common_crc32_out_t o1 = crc_cycle(cfg, s, false, true, 0x38373635u, 0xF); /* "5678" */
  common_crc32_out_t o2 = crc_cycle(cfg, s, false, true, 0x00000039u, 0x1); /* "9" */
  (void)o0;
  (void)o1;
  common_crc32_out_t o3 = crc_idle(cfg, s);
  (void)o3;
  /* Latency 1: in cycle 2 crc_o is still the CRC of "12345678". */
  *latency_ok = o2.crc == 0x9AE0DAAFu;
  return o3.crc;
}

static void test_crc_rules(tctx_t *t) {
  uint32_t tab[256];
  crc_ref_table(tab);
  CHECK(t, crc_ref(tab, (const uint8_t *)"123456789", 9) == 0xCBF43926u,
        "crc reference itself gives the check value");
  CHECK(t, crc_ref(tab, (const uint8_t *)"12345678", 8) == 0x9AE0DAAFu,
        "crc reference: CRC(\"12345678\") = 0x9AE0DAAF");

  const common_crc32_cfg_t cfg = {.bug = 0};
  common_crc32_state_t s;
  if (!CHECK(t, common_crc32_init(&s, &cfg) == 0, "crc init")) return;
  common_crc32_out_t o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == 0 && !o.keep_err, "crc reset: c = 0xFFFFFFFF so crc_o = 0");

  bool lat_ok = false;
  uint32_t crc = crc_spec_example(&cfg, &s, &lat_ok);
  CHECK(t, crc == 0xCBF43926u, "crc spec example: crc_o=0x%08" PRIx32 " want 0xCBF43926", crc);
  CHECK(t, lat_ok, "crc latency: the last word shows on crc_o one cycle later");

  /* Idle cycles (valid = 0, any keep) hold the CRC and raise no error. */
  crc_cycle(&cfg, &s, false, false, 0xDEADBEEFu, 0x5);
  o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == 0xCBF43926u && !o.keep_err, "crc valid=0 with illegal keep: hold, no error");

  /* Init mid-message: "1234","5678" then a new message "123456789" from init. */
  crc_cycle(&cfg, &s, true, true, 0x34333231u, 0xF);
  crc_cycle(&cfg, &s, false, true, 0x38373635u, 0xF);
  crc = crc_spec_example(&cfg, &s, &lat_ok);
  CHECK(t, crc == 0xCBF43926u, "crc init mid-message restarts: 0x%08" PRIx32, crc);

  /* Init alone resets (crc_o = 0), then a word without init starts from there. */
  crc_cycle(&cfg, &s, true, false, 0x12345678u, 0xF);
  o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == 0 && !o.keep_err, "crc init alone resets: crc_o=0x%08" PRIx32, o.crc);
  crc_cycle(&cfg, &s, false, true, 0x34333231u, 0xF);
  crc_cycle(&cfg, &s, false, true, 0x38373635u, 0xF);
  crc_cycle(&cfg, &s, false, true, 0xFFFFFF39u, 0x1); /* bytes beyond keep are ignored */
  o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == 0xCBF43926u, "crc after init alone: check value, bytes beyond keep ignored");

  /* Illegal keep patterns: word ignored, keep_err one cycle later, for one cycle. */
  bool illegal_ok = true, legal_ok = true;
  for (unsigned keep = 0; keep < 16; keep++) {
    bool legal = keep == 0x1 || keep == 0x3 || keep == 0x7 || keep == 0xF;
    crc_cycle(&cfg, &s, true, true, 0x34333231u, 0xF); /* state: "1234" */
    common_crc32_out_t before = crc_idle(&cfg, &s);
    crc_cycle(&cfg, &s, false, true, 0x38373635u, keep);
    common_crc32_out_t after = crc_idle(&cfg, &s);
    common_crc32_out_t later = crc_idle(&cfg, &s);
    if (legal) {
      uint8_t msg[8] = {'1', '2', '3', '4', '5', '6', '7', '8'};
      unsigned n = keep == 0x1 ? 1 : keep == 0x3 ? 2 : keep == 0x7 ? 3 : 4;
      legal_ok = legal_ok && !after.keep_err && after.crc == crc_ref(tab, msg, 4 + n);
    } else {
      illegal_ok = illegal_ok && after.keep_err && !later.keep_err && after.crc == before.crc;
    }
  }
  CHECK(t, legal_ok, "crc legal keeps 0001/0011/0111/1111 feed 1..4 bytes");
  CHECK(t, illegal_ok, "crc each illegal keep: word ignored, keep_err_o one-cycle pulse");

  /* init + valid + illegal keep: the init still happens, the word is ignored. */
  crc_cycle(&cfg, &s, true, true, 0x34333231u, 0xF);
  crc_cycle(&cfg, &s, true, true, 0x38373635u, 0x2);
  o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == 0 && o.keep_err, "crc init with illegal keep: reset, word ignored, keep_err");

  /* keep_i is 4 bits: higher bits are not part of the port. */
  crc_cycle(&cfg, &s, true, true, 0x34333231u, 0xF1);
  o = crc_idle(&cfg, &s);
  CHECK(t, o.crc == crc_ref(tab, (const uint8_t *)"1", 1) && !o.keep_err,
        "crc keep bits above 3 ignored (keep=0xF1 acts as 0001)");
}

/* Random messages of random length, random idle gaps, compared with the table CRC. */
static void test_crc_random(tctx_t *t) {
  uint32_t tab[256];
  crc_ref_table(tab);
  const common_crc32_cfg_t cfg = {.bug = 0};
  common_crc32_state_t s;
  if (!CHECK(t, common_crc32_init(&s, &cfg) == 0, "crc init")) return;
  static const unsigned keep_for[5] = {0, 0x1, 0x3, 0x7, 0xF};
  bool ok = true;
  unsigned fail_msg = 0, fail_len = 0;
  uint32_t got = 0, want = 0;
  for (unsigned m = 0; m < 500 && ok; m++) {
    unsigned len = 1 + rnd_below(t, 200);
    uint8_t msg[200];
    for (unsigned i = 0; i < len; i++) msg[i] = (uint8_t)rnd32(t);
    /* Start either with init on the first word or with a separate init-only cycle. */
    bool separate_init = rnd_pct(t, 30);
    if (separate_init) crc_cycle(&cfg, &s, true, false, rnd32(t), rnd_below(t, 16));
    for (unsigned off = 0; off < len && ok; off += 4) {
      while (rnd_pct(t, 20)) /* idle gap: garbage data and keep, valid = 0 */
        crc_cycle(&cfg, &s, false, false, rnd32(t), rnd_below(t, 16));
      unsigned n = len - off < 4 ? len - off : 4;
      uint32_t word = rnd32(t); /* bytes beyond keep stay random */
      for (unsigned k = 0; k < n; k++) {
        word &= ~(0xFFu << (8 * k));
        word |= (uint32_t)msg[off + k] << (8 * k);
      }
      crc_cycle(&cfg, &s, off == 0 && !separate_init, true, word, keep_for[n]);
      common_crc32_out_t o = crc_idle(&cfg, &s);
      want = crc_ref(tab, msg, off + n);
      got = o.crc;
      if (got != want || o.keep_err) {
        ok = false;
        fail_msg = m;
        fail_len = off + n;
      }
    }
  }
  CHECK(t, ok, "crc random message %u: after %u bytes crc_o=0x%08" PRIx32 " want 0x%08" PRIx32, fail_msg,
        fail_len, got, want);
}

static void test_crc_pure(tctx_t *t) {
  const common_crc32_cfg_t cfg = {.bug = 0};
  common_crc32_state_t s;
  if (!CHECK(t, common_crc32_init(&s, &cfg) == 0, "crc init")) return;
  bool ok = true;
  for (int i = 0; i < 200; i++) {
    common_crc32_in_t in = {
        .init = rnd_pct(t, 10), .valid = rnd_pct(t, 70), .data = rnd32(t), .keep = rnd_below(t, 16)};
    common_crc32_state_t before = s;
    common_crc32_out_t out;
    common_crc32_next_t nx;
    common_crc32_eval(&cfg, &s, &in, &out, &nx);
    ok = ok && memcmp(&before, &s, sizeof(s)) == 0;
    common_crc32_commit(&cfg, &s, &nx);
  }
  CHECK(t, ok, "crc eval leaves the state untouched");
}

static void test_crc_bad_cfg(tctx_t *t) {
  common_crc32_state_t s;
  common_crc32_cfg_t cfg = {.bug = 2};
  EXPECT_BAD_CFG(t, common_crc32_init(&s, &cfg), "bug=2", "0..1");
  check_bug_names(t, common_crc32_bug_names, "crc_ignore_keep");
}

/* Planted bug crc_ignore_keep: the spec example no longer gives the check value. */
static void test_crc_bug(tctx_t *t) {
  uint32_t crc[2];
  for (unsigned bug = 0; bug < 2; bug++) {
    const common_crc32_cfg_t cfg = {.bug = bug};
    common_crc32_state_t s;
    if (!CHECK(t, common_crc32_init(&s, &cfg) == 0, "crc init bug=%u", bug)) return;
    bool lat_ok;
    crc[bug] = crc_spec_example(&cfg, &s, &lat_ok);
  }
  uint32_t tab[256];
  crc_ref_table(tab);
  const uint8_t nine_plus_zeros[12] = {'1', '2', '3', '4', '5', '6', '7', '8', '9', 0, 0, 0};
  CHECK(t, crc[0] == 0xCBF43926u, "crc bug=none: check value");
  CHECK(t, crc[1] != crc[0] && crc[1] == crc_ref(tab, nine_plus_zeros, 12),
        "crc bug=crc_ignore_keep: last word fed as 4 bytes (0x%08" PRIx32 ")", crc[1]);
}

/* ------------------------------------------------------------------------------------ */
/* common_lfsr32                                                                        */
/* ------------------------------------------------------------------------------------ */

static common_lfsr32_out_t lfsr_cycle(const common_lfsr32_cfg_t *cfg, common_lfsr32_state_t *s, bool en,
                                      bool load, uint32_t seed) {
  common_lfsr32_in_t in = {.en = en, .load = load, .seed = seed};
  common_lfsr32_out_t out;
  common_lfsr32_next_t nx;
  common_lfsr32_eval(cfg, s, &in, &out, &nx);
  common_lfsr32_commit(cfg, s, &nx);
  return out;
}

static void test_lfsr_rules(tctx_t *t) {
  const common_lfsr32_cfg_t cfg = {.seed = 1, .bug = 0};
  common_lfsr32_state_t s;
  if (!CHECK(t, common_lfsr32_init(&s, &cfg) == 0, "lfsr init seed=1")) return;

  /* "1 -> 0x80200003 -> 0xC0300002 -> 0x60180001 -> ..." */
  const uint32_t want[4] = {1u, 0x80200003u, 0xC0300002u, 0x60180001u};
  for (int i = 0; i < 4; i++) {
    common_lfsr32_out_t o = lfsr_cycle(&cfg, &s, true, false, 0);
    CHECK(t, o.state == want[i] && !o.seed_err,
          "lfsr seed 1 step %d: state_o=0x%08" PRIx32 " want 0x%08" PRIx32, i, o.state, want[i]);
  }
  common_lfsr32_out_t o = lfsr_cycle(&cfg, &s, false, false, 0);
  uint32_t held = o.state;
  o = lfsr_cycle(&cfg, &s, false, false, 0);
  CHECK(t, o.state == held, "lfsr en=0: state holds");

  /* Load has priority over en: the loaded value shows unstepped. */
  lfsr_cycle(&cfg, &s, true, true, 0x12345678u);
  o = lfsr_cycle(&cfg, &s, false, false, 0);
  CHECK(t, o.state == 0x12345678u && !o.seed_err, "lfsr load+en: loads seed_i, does not step");

  /* Zero load rejected: state unchanged, no step even with en, one-cycle seed_err. */
  lfsr_cycle(&cfg, &s, true, true, 0);
  o = lfsr_cycle(&cfg, &s, false, false, 0);
  CHECK(t, o.state == 0x12345678u && o.seed_err, "lfsr zero load with en: rejected, no step, seed_err_o=1");
  o = lfsr_cycle(&cfg, &s, false, false, 0);
  CHECK(t, !o.seed_err, "lfsr seed_err is a one-cycle pulse");

  /* A non-default Seed parameter is the reset state. */
  const common_lfsr32_cfg_t cfg2 = {.seed = 0xDEADBEEFu, .bug = 0};
  common_lfsr32_state_t s2;
  if (CHECK(t, common_lfsr32_init(&s2, &cfg2) == 0, "lfsr init seed=0xDEADBEEF")) {
    o = lfsr_cycle(&cfg2, &s2, true, false, 0);
    CHECK(t, o.state == 0xDEADBEEFu, "lfsr reset: s = Seed");
    o = lfsr_cycle(&cfg2, &s2, false, false, 0);
    CHECK(t, o.state == ((0xDEADBEEFu >> 1) ^ 0x80200003u), "lfsr step from odd seed");
    common_lfsr32_reset(&s2, &cfg2);
    CHECK(t, s2.lfsr == 0xDEADBEEFu && !s2.seed_err, "lfsr reset() returns to Seed");
  }

  /* Purity. */
  bool ok = true;
  for (int i = 0; i < 200; i++) {
    common_lfsr32_in_t in = {
        .en = rnd_pct(t, 60), .load = rnd_pct(t, 10), .seed = rnd_pct(t, 50) ? 0 : rnd32(t)};
    common_lfsr32_state_t before = s;
    common_lfsr32_out_t out;
    common_lfsr32_next_t nx;
    common_lfsr32_eval(&cfg, &s, &in, &out, &nx);
    ok = ok && memcmp(&before, &s, sizeof(s)) == 0 && s.lfsr != 0;
    common_lfsr32_commit(&cfg, &s, &nx);
  }
  CHECK(t, ok, "lfsr eval leaves the state untouched, state never 0");
}

/* --long: period 2^32 - 1 from the seed, never 0 or back at the seed earlier. */
static void test_lfsr_full_period(tctx_t *t) {
  const common_lfsr32_cfg_t cfg = {.seed = 1, .bug = 0};
  common_lfsr32_state_t s;
  if (!CHECK(t, common_lfsr32_init(&s, &cfg) == 0, "lfsr init seed=1")) return;
  const uint64_t period = (UINT64_C(1) << 32) - 1;
  const common_lfsr32_in_t in = {.en = true, .load = false, .seed = 0};
  uint64_t first_bad = 0;
  for (uint64_t step = 1; step < period; step++) {
    common_lfsr32_out_t out;
    common_lfsr32_next_t nx;
    common_lfsr32_eval(&cfg, &s, &in, &out, &nx);
    common_lfsr32_commit(&cfg, &s, &nx);
    if (s.lfsr == 0 || s.lfsr == cfg.seed) {
      first_bad = step;
      break;
    }
  }
  CHECK(t, first_bad == 0, "lfsr full period: state 0x%08" PRIx32 " after %" PRIu64 " steps", s.lfsr,
        first_bad);
  if (first_bad == 0) {
    common_lfsr32_out_t out;
    common_lfsr32_next_t nx;
    common_lfsr32_eval(&cfg, &s, &in, &out, &nx);
    common_lfsr32_commit(&cfg, &s, &nx);
    CHECK(t, s.lfsr == cfg.seed, "lfsr full period: back at the seed after 2^32-1 steps");
  }
}

static void test_lfsr_bad_cfg(tctx_t *t) {
  common_lfsr32_state_t s;
  common_lfsr32_cfg_t cfg = {.seed = 0, .bug = 0};
  EXPECT_BAD_CFG(t, common_lfsr32_init(&s, &cfg), "seed=0", "non-zero");
  cfg.seed = 1;
  cfg.bug = 2;
  EXPECT_BAD_CFG(t, common_lfsr32_init(&s, &cfg), "bug=2", "0..1");
  check_bug_names(t, common_lfsr32_bug_names, "lfsr_wrong_tap");
}

/* Planted bug lfsr_wrong_tap: the first step from 1 already differs. */
static void test_lfsr_bug(tctx_t *t) {
  uint32_t second[2];
  for (unsigned bug = 0; bug < 2; bug++) {
    const common_lfsr32_cfg_t cfg = {.seed = 1, .bug = bug};
    common_lfsr32_state_t s;
    if (!CHECK(t, common_lfsr32_init(&s, &cfg) == 0, "lfsr init bug=%u", bug)) return;
    lfsr_cycle(&cfg, &s, true, false, 0);
    second[bug] = lfsr_cycle(&cfg, &s, true, false, 0).state;
  }
  CHECK(t, second[0] == 0x80200003u, "lfsr bug=none: 1 -> 0x80200003");
  CHECK(t, second[1] == 0x80200001u, "lfsr bug=lfsr_wrong_tap: 1 -> 0x%08" PRIx32, second[1]);
}

/* ------------------------------------------------------------------------------------ */
/* common_counter                                                                       */
/* ------------------------------------------------------------------------------------ */

/* One cycle: the outputs before the edge, then the edge. */
static common_counter_out_t ctr_cycle(const common_counter_cfg_t *cfg, common_counter_state_t *s,
                                      uint32_t inc, bool clear) {
  common_counter_in_t in = {inc, clear};
  common_counter_out_t out;
  common_counter_next_t nx;
  common_counter_eval(cfg, s, &in, &out, &nx);
  common_counter_commit(cfg, s, &nx);
  return out;
}

/* Spec "Behaviour": the 1-cycle latency, wrap, clear priority, sat_o in both modes. */
static void test_ctr_rules(tctx_t *t) {
  const common_counter_cfg_t cfg = {.width = 8, .inc_w = 3, .saturate = 0, .bug = 0};
  common_counter_state_t s;
  if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init width=8 inc_w=3")) return;
  common_counter_out_t o = ctr_cycle(&cfg, &s, 5, false);
  CHECK(t, o.count == 0 && !o.sat, "counter: reset count 0, same cycle as inc still 0");
  o = ctr_cycle(&cfg, &s, 0, false);
  CHECK(t, o.count == 5, "counter: inc 5 visible one cycle later (count_o=%" PRIu64 ")", o.count);
  o = ctr_cycle(&cfg, &s, 7, true);
  CHECK(t, o.count == 5, "counter: clear+inc, same cycle still 5");
  o = ctr_cycle(&cfg, &s, 0, false);
  CHECK(t, o.count == 0, "counter: clear has priority over inc (count_o=%" PRIu64 ")", o.count);
  s.n = 250;
  ctr_cycle(&cfg, &s, 5, false);
  o = ctr_cycle(&cfg, &s, 0, false);
  CHECK(t, o.count == 255 && o.sat, "counter wrap mode: 250+5 = 255, sat_o=1 at all ones");
  ctr_cycle(&cfg, &s, 1, false);
  o = ctr_cycle(&cfg, &s, 7, false);
  CHECK(t, o.count == 0 && !o.sat, "counter wrap mode: 255+1 wraps to 0");
  o = ctr_cycle(&cfg, &s, 0xFFF8, false);
  CHECK(t, o.count == 7, "counter: 0+7 = 7");
  o = ctr_cycle(&cfg, &s, 0, false);
  CHECK(t, o.count == 7, "counter: inc bits above IncW are not port bits (count_o=%" PRIu64 ")", o.count);

  const common_counter_cfg_t sat = {.width = 8, .inc_w = 3, .saturate = 1, .bug = 0};
  if (!CHECK(t, common_counter_init(&s, &sat) == 0, "counter init saturating")) return;
  s.n = 250;
  ctr_cycle(&sat, &s, 7, false);
  o = ctr_cycle(&sat, &s, 7, false);
  CHECK(t, o.count == 255 && o.sat, "counter saturating: 250+7 stops at 255");
  o = ctr_cycle(&sat, &s, 1, false);
  CHECK(t, o.count == 255 && o.sat, "counter saturating: stays at 255 under inc");
  o = ctr_cycle(&sat, &s, 0, true);
  CHECK(t, o.count == 255, "counter saturating: clear, same cycle still 255");
  o = ctr_cycle(&sat, &s, 0, false);
  CHECK(t, o.count == 0 && !o.sat, "counter saturating: clear leaves saturation");
  s.n = 254;
  ctr_cycle(&sat, &s, 1, false);
  o = ctr_cycle(&sat, &s, 0, false);
  CHECK(t, o.count == 255 && o.sat, "counter saturating: 254+1 reaches 255 exactly");
}

/* Width = 1: the count is one bit; IncW = 1. */
static void test_ctr_width1(tctx_t *t) {
  for (unsigned satm = 0; satm < 2; satm++) {
    const common_counter_cfg_t cfg = {.width = 1, .inc_w = 1, .saturate = satm, .bug = 0};
    common_counter_state_t s;
    if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init width=1 saturate=%u", satm)) return;
    common_counter_out_t o0 = ctr_cycle(&cfg, &s, 1, false);
    common_counter_out_t o1 = ctr_cycle(&cfg, &s, 1, false);
    common_counter_out_t o2 = ctr_cycle(&cfg, &s, 0, false);
    CHECK(t, o0.count == 0 && !o0.sat && o1.count == 1 && o1.sat,
          "counter width=1 saturate=%u: 0 then 1 (sat)", satm);
    CHECK(t, o2.count == (satm ? 1u : 0u) && o2.sat == (satm != 0), "counter width=1 saturate=%u: 1+1 -> %u",
          satm, satm ? 1u : 0u);
  }
}

/* Width = 64: min(n + inc, 2^64 - 1) without the sum overflowing, and wrap modulo 2^64. */
static void test_ctr_width64(tctx_t *t) {
  const common_counter_cfg_t sat = {.width = 64, .inc_w = 16, .saturate = 1, .bug = 0};
  const common_counter_cfg_t wrap = {.width = 64, .inc_w = 16, .saturate = 0, .bug = 0};
  common_counter_state_t s;
  if (!CHECK(t, common_counter_init(&s, &sat) == 0, "counter init width=64 saturate=1")) return;
  static const struct {
    uint64_t n;
    uint32_t inc;
    uint64_t sat_want, wrap_want;
  } cases[] = {
      {UINT64_MAX - 0xFFFF, 0xFFFF, UINT64_MAX, UINT64_MAX}, /* lands exactly on all ones */
      {UINT64_MAX - 0xFFFE, 0xFFFF, UINT64_MAX, 0},          /* one past: the sum would wrap to 0 */
      {UINT64_MAX - 1, 0xFFFF, UINT64_MAX, 0xFFFD},          /* sum wraps to a small value */
      {UINT64_MAX, 0xFFFF, UINT64_MAX, 0xFFFE},
      {UINT64_MAX, 0, UINT64_MAX, UINT64_MAX},
      {UINT64_MAX - 0x10000, 0xFFFF, UINT64_MAX - 1, UINT64_MAX - 1},
      {0x8000000000000000ull, 0x8000, 0x8000000000008000ull, 0x8000000000008000ull},
  };
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    s.n = cases[k].n;
    ctr_cycle(&sat, &s, cases[k].inc, false);
    common_counter_out_t o = ctr_cycle(&sat, &s, 0, false);
    CHECK(t, o.count == cases[k].sat_want && o.sat == (cases[k].sat_want == UINT64_MAX),
          "counter width=64 saturating: 0x%016" PRIx64 " + 0x%x = 0x%016" PRIx64 ", want 0x%016" PRIx64,
          cases[k].n, cases[k].inc, o.count, cases[k].sat_want);
    s.n = cases[k].n;
    ctr_cycle(&wrap, &s, cases[k].inc, false);
    o = ctr_cycle(&wrap, &s, 0, false);
    CHECK(t, o.count == cases[k].wrap_want,
          "counter width=64 wrapping: 0x%016" PRIx64 " + 0x%x = 0x%016" PRIx64 ", want 0x%016" PRIx64,
          cases[k].n, cases[k].inc, o.count, cases[k].wrap_want);
  }
}

/* Random against 128-bit arithmetic, every legal Width with IncW = min(Width, 16). */
static void test_ctr_random(tctx_t *t) {
  unsigned fails = 0, sats = 0, wraps = 0;
  for (unsigned w = 1; w <= 64; w++) {
    for (unsigned satm = 0; satm < 2; satm++) {
      const common_counter_cfg_t cfg = {.width = w, .inc_w = w < 16 ? w : 16, .saturate = satm, .bug = 0};
      common_counter_state_t s;
      if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init width=%u", w)) return;
      const unsigned __int128 mod = (unsigned __int128)1 << w;
      for (unsigned c = 0; c < 200; c++) {
        /* start near the top half the time, so saturation and wrap both happen */
        if (rnd_pct(t, 10)) s.n = (rnd64(t) | (rnd_pct(t, 50) ? UINT64_MAX << 8 : 0)) & common_counter_max(w);
        uint32_t inc = rnd32(t);
        bool clear = rnd_pct(t, 3);
        uint64_t n = s.n;
        common_counter_out_t o = ctr_cycle(&cfg, &s, inc, clear);
        unsigned __int128 sum = (unsigned __int128)n + (inc & ((1u << cfg.inc_w) - 1u));
        unsigned __int128 want = clear ? 0 : satm ? (sum >= mod ? mod - 1 : sum) : sum % mod;
        sats += satm && !clear && sum >= mod;
        wraps += !satm && !clear && sum >= mod;
        fails += o.count != n || o.sat != (n == common_counter_max(w)) || s.n != (uint64_t)want;
      }
    }
  }
  CHECK(t, fails == 0 && sats > 100 && wraps > 100, "counter random: %u mismatches, %u saturations, %u wraps",
        fails, sats, wraps);
}

static void test_ctr_pure(tctx_t *t) {
  const common_counter_cfg_t cfg = {.width = 32, .inc_w = 4, .saturate = 0, .bug = 0};
  common_counter_state_t s;
  if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init")) return;
  s.n = 12345;
  common_counter_in_t in = {9, false};
  common_counter_out_t o;
  common_counter_next_t nx;
  common_counter_eval(&cfg, &s, &in, &o, &nx);
  common_counter_eval(&cfg, &s, &in, &o, &nx);
  CHECK(t, s.n == 12345 && nx.n == 12354 && o.count == 12345, "counter eval is pure; commit applies it");
  common_counter_commit(&cfg, &s, &nx);
  CHECK(t, s.n == 12354, "counter commit");
}

static void test_ctr_bad_cfg(tctx_t *t) {
  common_counter_state_t s;
  common_counter_cfg_t cfg = {.width = 0, .inc_w = 1, .saturate = 0, .bug = 0};
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "width=0", "1..64");
  cfg.width = 65;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "width=65", "1..64");
  cfg.width = 64;
  cfg.inc_w = 0;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "inc_w=0", "1..16");
  cfg.inc_w = 17;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "inc_w=17", "1..16");
  cfg.width = 3;
  cfg.inc_w = 4;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "inc_w=4", "<= width=3");
  cfg.inc_w = 3;
  cfg.saturate = 2;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "saturate=2", "0..1");
  cfg.saturate = 1;
  cfg.bug = 4;
  EXPECT_BAD_CFG(t, common_counter_init(&s, &cfg), "bug=4", "0..3");
  cfg.bug = 0;
  cfg.width = 64;
  cfg.inc_w = 16;
  CHECK(t, common_counter_init(&s, &cfg) == 0, "counter width=64 inc_w=16 is legal");
  cfg.width = 1;
  cfg.inc_w = 1;
  CHECK(t, common_counter_init(&s, &cfg) == 0, "counter width=1 inc_w=1 is legal");
  const char *const *names = common_counter_bug_names;
  CHECK(t,
        names[0] && !strcmp(names[0], "none") && names[1] &&
            !strcmp(names[1], "counter_wrap_when_saturating") && names[2] &&
            !strcmp(names[2], "counter_clear_ignored") && names[3] &&
            !strcmp(names[3], "counter_sat_only_saturating") && names[4] == NULL,
        "counter bug names: none, counter_wrap_when_saturating, counter_clear_ignored, "
        "counter_sat_only_saturating, NULL");
}

/* Planted bugs: saturating mode wraps; clear_i does nothing. */
static void test_ctr_bug(tctx_t *t) {
  common_counter_state_t s;
  common_counter_cfg_t cfg = {
      .width = 8, .inc_w = 3, .saturate = 1, .bug = COMMON_COUNTER_BUG_WRAP_WHEN_SATURATING};
  if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init bug=1")) return;
  s.n = 254;
  ctr_cycle(&cfg, &s, 3, false);
  CHECK(t, s.n == 1, "counter bug counter_wrap_when_saturating: 254+3 wraps to 1 (got %" PRIu64 ")", s.n);
  ctr_cycle(&cfg, &s, 0, true);
  CHECK(t, s.n == 0, "counter bug counter_wrap_when_saturating: clear still works");
  cfg.bug = COMMON_COUNTER_BUG_CLEAR_IGNORED;
  if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init bug=2")) return;
  s.n = 254;
  ctr_cycle(&cfg, &s, 3, false);
  CHECK(t, s.n == 255, "counter bug counter_clear_ignored: still saturates");
  s.n = 7;
  ctr_cycle(&cfg, &s, 2, true);
  CHECK(t, s.n == 9, "counter bug counter_clear_ignored: clear+inc just adds (got %" PRIu64 ")", s.n);
  cfg.bug = COMMON_COUNTER_BUG_SAT_ONLY_SATURATING;
  if (!CHECK(t, common_counter_init(&s, &cfg) == 0, "counter init bug=3")) return;
  s.n = 255;
  CHECK(t, ctr_cycle(&cfg, &s, 0, false).sat,
        "counter bug counter_sat_only_saturating: sat_o right when saturating");
  cfg.saturate = 0;
  s.n = 255;
  CHECK(t, !ctr_cycle(&cfg, &s, 0, false).sat && s.n == 255,
        "counter bug counter_sat_only_saturating: sat_o 0 at all ones when wrapping, count unchanged");
}

/* ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  bool long_tests = false;
  uint64_t seed = 0x6E6574636F73696DULL; /* "netcosim" */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--long") == 0) {
      long_tests = true;
    } else if (strncmp(argv[i], "--seed=", 7) == 0) {
      seed = strtoull(argv[i] + 7, NULL, 0);
    } else {
      fprintf(stderr, "usage: %s [--long] [--seed=N]\n", argv[0]);
      return 2;
    }
  }
  printf("test_common: seed=0x%016" PRIx64 "%s\n", seed, long_tests ? " --long" : "");

  tctx_t t = {.passed = 0, .failed = 0, .rng = seed};

  test_fifo_timing_table(&t);
  test_fifo_full_pop_push(&t);
  test_fifo_random_wrap(&t, 40, 5, 1000);
  test_fifo_random_wrap(&t, 256, 7, 5000);
  test_fifo_random_wrap(&t, 1, 2, 2000);
  test_fifo_width_mask(&t);
  test_fifo_max_depth(&t);
  test_fifo_pure(&t);
  test_fifo_bad_cfg(&t);
  test_fifo_bug(&t);

  test_cc_rules(&t);
  test_cc_vc_width(&t);
  test_cc_random(&t);
  test_cc_pure(&t);
  test_cc_bad_cfg(&t);
  test_cc_bug(&t);

  test_arb_rules(&t);
  test_arb_random(&t, 2);
  test_arb_random(&t, 4);
  test_arb_random(&t, 5);
  test_arb_random(&t, 7);
  test_arb_random(&t, 64);
  test_arb_pure(&t);
  test_arb_bad_cfg(&t);
  test_arb_bug(&t);

  test_crc_rules(&t);
  test_crc_random(&t);
  test_crc_pure(&t);
  test_crc_bad_cfg(&t);
  test_crc_bug(&t);

  test_lfsr_rules(&t);
  test_lfsr_bad_cfg(&t);
  test_lfsr_bug(&t);
  if (long_tests) test_lfsr_full_period(&t);

  test_ctr_rules(&t);
  test_ctr_width1(&t);
  test_ctr_width64(&t);
  test_ctr_random(&t);
  test_ctr_pure(&t);
  test_ctr_bad_cfg(&t);
  test_ctr_bug(&t);

  return unit_summary(&t);
}
