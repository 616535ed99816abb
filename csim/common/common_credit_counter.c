/*
 * common_credit_counter -- cycle-accurate C model of the per-VC credit counter.
 * Spec: docs/common.md, section "common_credit_counter".
 */
#include "common_credit_counter.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *const common_credit_counter_bug_names[] = {"none", "credit_return_lost", NULL};

/* VcW = max(1, $clog2(NumVcs)): the width of the consume_vc_i port. */
static unsigned vc_width(unsigned num_vcs) {
  return num_vcs <= 2u ? 1u : 32u - (unsigned)__builtin_clz(num_vcs - 1u); /* ceil(log2) */
}

/* One bit per VC: the width of the return_i port. */
static uint32_t vc_mask(unsigned num_vcs) { return num_vcs >= 32u ? 0xFFFFFFFFu : ((1u << num_vcs) - 1u); }

int common_credit_counter_init(common_credit_counter_state_t *s, const common_credit_counter_cfg_t *cfg) {
  memset(s, 0, sizeof(*s));
  if (cfg->num_vcs < 1u || cfg->num_vcs > COMMON_CC_MAX_VCS) {
    fprintf(stderr, "common_credit_counter: num_vcs=%u is illegal (must be 1..%u)\n", cfg->num_vcs,
            (unsigned)COMMON_CC_MAX_VCS);
    return -EINVAL;
  }
  if (cfg->max_credits < 1u || cfg->max_credits > COMMON_CC_MAX_CREDITS) {
    fprintf(stderr, "common_credit_counter: max_credits=%u is illegal (must be 1..%u)\n", cfg->max_credits,
            (unsigned)COMMON_CC_MAX_CREDITS);
    return -EINVAL;
  }
  if (cfg->bug >= COMMON_CC_BUG_COUNT) {
    fprintf(stderr, "common_credit_counter: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_CC_BUG_COUNT - 1u);
    return -EINVAL;
  }
  common_credit_counter_reset(s, cfg);
  return 0;
}

void common_credit_counter_reset(common_credit_counter_state_t *s, const common_credit_counter_cfg_t *cfg) {
  /* "Reset: every count = MaxCredits, pulses 0." */
  memset(s, 0, sizeof(*s));
  for (unsigned v = 0; v < cfg->num_vcs; v++) s->cnt[v] = cfg->max_credits;
}

void common_credit_counter_eval(const common_credit_counter_cfg_t *cfg,
                                const common_credit_counter_state_t *s, const common_credit_counter_in_t *in,
                                common_credit_counter_out_t *out, common_credit_counter_next_t *nx) {
  /* credits_o and avail_o are functions of registered state only. */
  memset(out, 0, sizeof(*out));
  for (unsigned v = 0; v < cfg->num_vcs; v++) {
    out->credits[v] = s->cnt[v];
    if (s->cnt[v] > 0) out->avail |= 1u << v;
  }
  out->underflow = s->underflow;
  out->overflow = s->overflow;
  out->bad_vc = s->bad_vc;

  /* Default: hold every count, no pulses. */
  memcpy(nx->cnt, s->cnt, sizeof(nx->cnt));
  nx->underflow = 0;
  nx->overflow = 0;
  nx->bad_vc = false;

  /* init_i: reload every VC to MaxCredits; consume/return ignored, no error pulses. */
  if (in->init) {
    for (unsigned v = 0; v < cfg->num_vcs; v++) nx->cnt[v] = cfg->max_credits;
    return;
  }

  /* Inputs are cut to their port widths, as the RTL sees them. */
  const unsigned vc = in->consume_vc & ((1u << vc_width(cfg->num_vcs)) - 1u);
  const uint32_t returns = in->return_mask & vc_mask(cfg->num_vcs);

  /* consume_vc_i >= NumVcs: no VC consumes, bad_vc_o' = 1. */
  nx->bad_vc = in->consume && vc >= cfg->num_vcs;

  /* Only the consumed VC and the returned ones can change; the others hold (above). */
  const uint32_t cons_bit = in->consume && vc < cfg->num_vcs ? 1u << vc : 0u;
  for (uint32_t m = returns | cons_bit; m != 0; m &= m - 1u) {
    const unsigned v = (unsigned)__builtin_ctz(m);
    const bool cons = (cons_bit >> v) & 1u;
    bool ret = (returns >> v) & 1u;
    /* Planted bug credit_return_lost: the return is dropped when a consume hits the
           same VC, so the pair decrements instead of holding. */
    if (cfg->bug == COMMON_CC_BUG_RETURN_LOST && cons && ret) ret = false;

    if (cons && ret) {
      /* The returned credit is reused at once, at any count. */
      nx->cnt[v] = s->cnt[v];
    } else if (cons) {
      if (s->cnt[v] == 0)
        nx->underflow |= 1u << v; /* rejected, count stays 0 */
      else
        nx->cnt[v] = s->cnt[v] - 1u;
    } else if (ret) {
      if (s->cnt[v] == cfg->max_credits)
        nx->overflow |= 1u << v; /* rejected, count stays MaxCredits */
      else
        nx->cnt[v] = s->cnt[v] + 1u;
    }
  }
}

void common_credit_counter_commit(const common_credit_counter_cfg_t *cfg, common_credit_counter_state_t *s,
                                  const common_credit_counter_next_t *nx) {
  (void)cfg;
  memcpy(s->cnt, nx->cnt, sizeof(s->cnt));
  s->underflow = nx->underflow;
  s->overflow = nx->overflow;
  s->bad_vc = nx->bad_vc;
}

void common_credit_counter_free(common_credit_counter_state_t *s) { (void)s; }
