/* Arbiter scoreboard: the grant is one-hot and goes to a requester, and no
 * requester that keeps asking waits longer than NumReq-1 taken grants.
 * Instantiated per target type, like the FIFO's. */
#ifndef COMMON_ARB_SCOREBOARD_H
#define COMMON_ARB_SCOREBOARD_H

#include "bind/common.h"
#include "common_busy.h"

#define ARB_MAX 64 /* NumReq legal range 2..64 */

typedef struct {
  unsigned n;               /* NumReq */
  unsigned waited[ARB_MAX]; /* taken grants to others since requester i started waiting */
  unsigned worst;
  uint64_t grants;
  uint64_t busy; /* cycles with any request */
} arb_sb_t;

#define ARB_SCOREBOARD(T, U)                                                                                \
  static bool T##_sb_check(arb_sb_t *sb, const T##_in_t *in, const T##_out_t *out, cosim_msg_t *msg) {      \
    const unsigned n = (unsigned)U##_PARAM_NumReq;                                                          \
    uint64_t req = in->req_i, gnt = out->gnt_o;                                                             \
    sb->n = n;                                                                                              \
    sb->busy += req != 0;                                                                                   \
    if (out->gnt_valid_o != (req != 0)) {                                                                   \
      cosim_fail(msg, "arb.valid", "gnt_valid_o=%u with req_i=0x%llx", out->gnt_valid_o,                    \
                 (unsigned long long)req);                                                                  \
      return false;                                                                                         \
    }                                                                                                       \
    if (!req) {                                                                                             \
      if (gnt || out->gnt_idx_o) {                                                                          \
        cosim_fail(msg, "arb.no_request", "grant 0x%llx idx %u without a request", (unsigned long long)gnt, \
                   out->gnt_idx_o);                                                                         \
        return false;                                                                                       \
      }                                                                                                     \
    } else if (gnt != (UINT64_C(1) << out->gnt_idx_o) || !(req & gnt)) {                                    \
      cosim_fail(msg, "arb.one_hot", "grant 0x%llx (idx %u) is not one-hot on a requester of 0x%llx",       \
                 (unsigned long long)gnt, out->gnt_idx_o, (unsigned long long)req);                         \
      return false;                                                                                         \
    }                                                                                                       \
    for (unsigned i = 0; i < n; i++) {                                                                      \
      if (!((req >> i) & 1)) {                                                                              \
        sb->waited[i] = 0; /* gave up: the bound applies to requests that stay up */                        \
        continue;                                                                                           \
      }                                                                                                     \
      if ((gnt >> i) & 1) {                                                                                 \
        if (in->ack_i) sb->waited[i] = 0;                                                                   \
      } else if (gnt && in->ack_i && ++sb->waited[i] > n - 1) {                                             \
        cosim_fail(msg, "arb.fairness", "requester %u has waited %u grants (bound %u)", i, sb->waited[i],   \
                   n - 1);                                                                                  \
        return false;                                                                                       \
      }                                                                                                     \
      if (sb->waited[i] > sb->worst) sb->worst = sb->waited[i];                                             \
    }                                                                                                       \
    sb->grants += gnt && in->ack_i;                                                                         \
    return true;                                                                                            \
  }

/* Coverage: the bound was actually approached. */
static inline bool arb_sb_coverage(const arb_sb_t *sb, cosim_msg_t *msg) {
  if (sb->worst + 1 != sb->n) {
    cosim_fail(msg, "arb.coverage", "coverage hole: the longest wait was %u grants, never the bound %u",
               sb->worst, sb->n - 1);
    return false;
  }
  return true;
}

/* Busy: a cycle with any request up. */
static inline bool arb_sb_busy(const arb_sb_t *sb, uint64_t cycles, cosim_msg_t *msg) {
  return common_busy_gate("arb.busy", "a request", sb->busy, cycles, msg);
}

#endif
