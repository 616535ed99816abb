/*
 * common_counter -- cycle-accurate C model of the event counter, wrapping or saturating.
 * Spec: docs/common.md, section "common_counter".
 */
#include "common_counter.h"

#include <errno.h>
#include <stdio.h>

const char *const common_counter_bug_names[] = {"none", "counter_wrap_when_saturating",
                                                "counter_clear_ignored", "counter_sat_only_saturating", NULL};

int common_counter_init(common_counter_state_t *s, const common_counter_cfg_t *cfg) {
  s->n = 0;
  if (cfg->width < COMMON_COUNTER_MIN_WIDTH || cfg->width > COMMON_COUNTER_MAX_WIDTH) {
    fprintf(stderr, "common_counter: width=%u is illegal (must be %u..%u)\n", cfg->width,
            (unsigned)COMMON_COUNTER_MIN_WIDTH, (unsigned)COMMON_COUNTER_MAX_WIDTH);
    return -EINVAL;
  }
  if (cfg->inc_w < COMMON_COUNTER_MIN_INCW || cfg->inc_w > COMMON_COUNTER_MAX_INCW) {
    fprintf(stderr, "common_counter: inc_w=%u is illegal (must be %u..%u)\n", cfg->inc_w,
            (unsigned)COMMON_COUNTER_MIN_INCW, (unsigned)COMMON_COUNTER_MAX_INCW);
    return -EINVAL;
  }
  if (cfg->inc_w > cfg->width) {
    fprintf(stderr, "common_counter: inc_w=%u is illegal (must be <= width=%u)\n", cfg->inc_w, cfg->width);
    return -EINVAL;
  }
  if (cfg->saturate > 1) {
    fprintf(stderr, "common_counter: saturate=%u is illegal (must be 0..1)\n", cfg->saturate);
    return -EINVAL;
  }
  if (cfg->bug >= COMMON_COUNTER_BUG_COUNT) {
    fprintf(stderr, "common_counter: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_COUNTER_BUG_COUNT - 1u);
    return -EINVAL;
  }
  common_counter_reset(s, cfg);
  return 0;
}

void common_counter_reset(common_counter_state_t *s, const common_counter_cfg_t *cfg) {
  (void)cfg;
  s->n = 0; /* "Reset: n = 0." */
}

void common_counter_eval(const common_counter_cfg_t *cfg, const common_counter_state_t *s,
                         const common_counter_in_t *in, common_counter_out_t *out,
                         common_counter_next_t *nx) {
  const uint64_t max = common_counter_max(cfg->width);
  /* inc_i is IncW bits wide: anything above is not a port bit. */
  const uint64_t inc = in->inc & (uint32_t)((1u << cfg->inc_w) - 1u);

  /* count_o = n; sat_o = (n == 2^Width - 1), in both modes. */
  out->count = s->n;
  out->sat = s->n == max;
  if (cfg->bug == COMMON_COUNTER_BUG_SAT_ONLY_SATURATING && !cfg->saturate) out->sat = false;

  const bool clear = in->clear && cfg->bug != COMMON_COUNTER_BUG_CLEAR_IGNORED;
  const bool saturate = cfg->saturate && cfg->bug != COMMON_COUNTER_BUG_WRAP_WHEN_SATURATING;
  if (clear) {
    nx->n = 0;
  } else if (saturate) {
    /* min(n + inc, max) exactly: compare against the headroom instead of forming
       n + inc, which at Width = 64 would overflow uint64_t. */
    nx->n = inc >= max - s->n ? max : s->n + inc;
  } else {
    nx->n = (s->n + inc) & max; /* mod 2^Width; at Width = 64 uint64_t wraps by itself */
  }
}

void common_counter_commit(const common_counter_cfg_t *cfg, common_counter_state_t *s,
                           const common_counter_next_t *nx) {
  (void)cfg;
  s->n = nx->n;
}

void common_counter_free(common_counter_state_t *s) { (void)s; }
