/*
 * common_rr_arbiter -- cycle-accurate C model of the round-robin arbiter.
 * Spec: docs/common.md, section "common_rr_arbiter".
 */
#include "common_rr_arbiter.h"

#include <errno.h>
#include <stdio.h>

const char *const common_rr_arbiter_bug_names[] = {"none", "arb_no_rotate", NULL};

/* One bit per requester: the width of the req_i port (1 << 64 would be undefined). */
static uint64_t req_mask(unsigned num_req) {
  return num_req >= 64u ? UINT64_MAX : ((UINT64_C(1) << num_req) - 1u);
}

int common_rr_arbiter_init(common_rr_arbiter_state_t *s, const common_rr_arbiter_cfg_t *cfg) {
  s->ptr = 0;
  if (cfg->num_req < COMMON_RR_ARBITER_MIN_REQ || cfg->num_req > COMMON_RR_ARBITER_MAX_REQ) {
    fprintf(stderr, "common_rr_arbiter: num_req=%u is illegal (must be %u..%u)\n", cfg->num_req,
            (unsigned)COMMON_RR_ARBITER_MIN_REQ, (unsigned)COMMON_RR_ARBITER_MAX_REQ);
    return -EINVAL;
  }
  if (cfg->bug >= COMMON_RR_ARBITER_BUG_COUNT) {
    fprintf(stderr, "common_rr_arbiter: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_RR_ARBITER_BUG_COUNT - 1u);
    return -EINVAL;
  }
  common_rr_arbiter_reset(s, cfg);
  return 0;
}

void common_rr_arbiter_reset(common_rr_arbiter_state_t *s, const common_rr_arbiter_cfg_t *cfg) {
  (void)cfg;
  s->ptr = 0; /* "State: ptr ... reset 0." */
}

void common_rr_arbiter_eval(const common_rr_arbiter_cfg_t *cfg, const common_rr_arbiter_state_t *s,
                            const common_rr_arbiter_in_t *in, common_rr_arbiter_out_t *out,
                            common_rr_arbiter_next_t *nx) {
  const uint64_t req = in->req & req_mask(cfg->num_req);

  /* grant = the first index in the order ptr, ptr+1, ..., NumReq-1, 0, ..., ptr-1
       whose req_i bit is 1. Combinational: depends on this cycle's req_i. */
  const unsigned n = cfg->num_req;
  /* The order starts at ptr mod NumReq (a ptr beyond NumReq - 1, from a raw start, wraps
     as the index does); the first in it is the lowest request at or after the start, else
     the lowest request: a mask and a count of trailing zeros, no division per index. */
  const unsigned start = s->ptr < n ? s->ptr : s->ptr % n;
  const uint64_t at_or_after = req & ~((UINT64_C(1) << start) - 1u); /* start <= 63 */
  const unsigned grant = req == 0 ? 0u : (unsigned)__builtin_ctzll(at_or_after != 0 ? at_or_after : req);

  out->gnt_valid = req != 0;
  out->gnt = out->gnt_valid ? UINT64_C(1) << grant : 0;
  out->gnt_idx = out->gnt_valid ? grant : 0;

  /* ptr' = (grant + 1) mod NumReq when the grant is taken, else hold. Planted bug
       arb_no_rotate: never advance. */
  nx->ptr = s->ptr;
  if (out->gnt_valid && in->ack && cfg->bug != COMMON_RR_ARBITER_BUG_NO_ROTATE)
    nx->ptr = grant + 1u == n ? 0u : grant + 1u; /* grant < NumReq */
}

void common_rr_arbiter_commit(const common_rr_arbiter_cfg_t *cfg, common_rr_arbiter_state_t *s,
                              const common_rr_arbiter_next_t *nx) {
  (void)cfg;
  s->ptr = nx->ptr;
}

void common_rr_arbiter_free(common_rr_arbiter_state_t *s) { (void)s; }
