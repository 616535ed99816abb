/*
 * common_lfsr32 -- cycle-accurate C model of the 32-bit maximal-length Galois LFSR.
 * Spec: docs/common.md, section "common_lfsr32".
 */
#include "common_lfsr32.h"

#include <errno.h>
#include <stdio.h>

const char *const common_lfsr32_bug_names[] = {"none", "lfsr_wrong_tap", NULL};

int common_lfsr32_init(common_lfsr32_state_t *s, const common_lfsr32_cfg_t *cfg) {
  s->lfsr = 0;
  s->seed_err = false;
  /* Zero is the one state the LFSR never leaves, so Seed must be non-zero. */
  if (cfg->seed == 0) {
    fprintf(stderr, "common_lfsr32: seed=0 is illegal (must be non-zero, 0x1..0xffffffff)\n");
    return -EINVAL;
  }
  if (cfg->bug >= COMMON_LFSR32_BUG_COUNT) {
    fprintf(stderr, "common_lfsr32: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_LFSR32_BUG_COUNT - 1u);
    return -EINVAL;
  }
  common_lfsr32_reset(s, cfg);
  return 0;
}

void common_lfsr32_reset(common_lfsr32_state_t *s, const common_lfsr32_cfg_t *cfg) {
  s->lfsr = cfg->seed; /* "Reset: s = Seed." */
  s->seed_err = false;
}

void common_lfsr32_eval(const common_lfsr32_cfg_t *cfg, const common_lfsr32_state_t *s,
                        const common_lfsr32_in_t *in, common_lfsr32_out_t *out, common_lfsr32_next_t *nx) {
  out->state = s->lfsr;
  out->seed_err = s->seed_err;

  /* Planted bug lfsr_wrong_tap: the x^1 tap is missing. */
  const uint32_t mask = cfg->bug == COMMON_LFSR32_BUG_WRONG_TAP ? 0x80200001u : COMMON_LFSR32_MASK;

  nx->lfsr = s->lfsr;
  nx->seed_err = false;
  if (in->load) {
    /* load_i has priority over en_i; a rejected (zero) load does not step. */
    if (in->seed != 0)
      nx->lfsr = in->seed;
    else
      nx->seed_err = true;
  } else if (in->en) {
    /* step(s) = (s >> 1) ^ ((s & 1) ? mask : 0) */
    nx->lfsr = (s->lfsr >> 1) ^ ((s->lfsr & 1u) ? mask : 0u);
  }
}

void common_lfsr32_commit(const common_lfsr32_cfg_t *cfg, common_lfsr32_state_t *s,
                          const common_lfsr32_next_t *nx) {
  (void)cfg;
  s->lfsr = nx->lfsr;
  s->seed_err = nx->seed_err;
}

void common_lfsr32_free(common_lfsr32_state_t *s) { (void)s; }
