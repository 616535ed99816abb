/* Arbiter scoreboard: the grant is one-hot and goes to a requester, and no
 * requester that keeps asking waits longer than NumReq-1 taken grants. */
#ifndef COMMON_ARB_SCOREBOARD_H
#define COMMON_ARB_SCOREBOARD_H

#include "bind/common.h"

#define ARB_N ((unsigned)COMMON_ARB_N5_PARAM_NumReq)

typedef struct {
  unsigned waited[ARB_N]; /* taken grants to others since requester i started waiting */
  unsigned worst;
  uint64_t grants;
} arb_sb_t;

static inline bool arb_sb_check(arb_sb_t *sb, const common_arb_n5_in_t *in, const common_arb_n5_out_t *out,
                                cosim_msg_t *msg) {
  unsigned req = in->req_i, gnt = out->gnt_o;
  if (out->gnt_valid_o != (req != 0)) {
    cosim_fail(msg, "gnt_valid_o=%u with req_i=0x%x", out->gnt_valid_o, req);
    return false;
  }
  if (!req) {
    if (gnt || out->gnt_idx_o) {
      cosim_fail(msg, "grant 0x%x idx %u without a request", gnt, out->gnt_idx_o);
      return false;
    }
  } else if (gnt != (1u << out->gnt_idx_o) || !(req & gnt)) {
    cosim_fail(msg, "grant 0x%x (idx %u) is not one-hot on a requester of 0x%x", gnt, out->gnt_idx_o, req);
    return false;
  }
  for (unsigned i = 0; i < ARB_N; i++) {
    if (!((req >> i) & 1)) {
      sb->waited[i] = 0; /* gave up: the bound applies to requests that stay up */
      continue;
    }
    if ((gnt >> i) & 1) {
      if (in->ack_i) sb->waited[i] = 0;
    } else if (gnt && in->ack_i && ++sb->waited[i] > ARB_N - 1) {
      cosim_fail(msg, "requester %u has waited %u grants (bound %u)", i, sb->waited[i], ARB_N - 1);
      return false;
    }
    if (sb->waited[i] > sb->worst) sb->worst = sb->waited[i];
  }
  sb->grants += gnt && in->ack_i;
  return true;
}

/* Coverage: the bound was actually approached. */
static inline bool arb_sb_coverage(const arb_sb_t *sb, cosim_msg_t *msg) {
  if (sb->worst != ARB_N - 1) {
    cosim_fail(msg, "coverage hole: the longest wait was %u grants, never the bound %u", sb->worst, ARB_N - 1);
    return false;
  }
  return true;
}

#endif
