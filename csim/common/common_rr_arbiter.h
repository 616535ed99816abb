/*
 * common_rr_arbiter -- cycle-accurate C model of the round-robin arbiter.
 * Spec: docs/common.md, section "common_rr_arbiter".
 */
#ifndef COMMON_RR_ARBITER_H
#define COMMON_RR_ARBITER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMMON_RR_ARBITER_MIN_REQ 2
#define COMMON_RR_ARBITER_MAX_REQ 64

/* Indices into common_rr_arbiter_bug_names. */
enum {
  COMMON_RR_ARBITER_BUG_NONE = 0,
  COMMON_RR_ARBITER_BUG_NO_ROTATE = 1, /* "arb_no_rotate": ptr never advances */
  COMMON_RR_ARBITER_BUG_COUNT
};

typedef struct {
  unsigned num_req; /* NumReq: 2..64 */
  unsigned bug;     /* 0 = none, else index into common_rr_arbiter_bug_names */
} common_rr_arbiter_cfg_t;

typedef struct {
  unsigned ptr; /* requester with the highest priority, 0..num_req-1 */
} common_rr_arbiter_state_t;

typedef struct {
  uint64_t req; /* req_i, bit i = requester i; bits >= num_req are ignored (port width) */
  bool ack;     /* ack_i */
} common_rr_arbiter_in_t;

typedef struct {
  uint64_t gnt;     /* gnt_o: one-hot, or 0 when no request */
  unsigned gnt_idx; /* gnt_idx_o: granted index, 0 when none */
  bool gnt_valid;   /* gnt_valid_o = |req_i */
} common_rr_arbiter_out_t;

typedef struct {
  unsigned ptr; /* ptr' */
} common_rr_arbiter_next_t;

/* Validate cfg and reset. 0 or -EINVAL (bad cfg, one line on stderr). */
int common_rr_arbiter_init(common_rr_arbiter_state_t *s, const common_rr_arbiter_cfg_t *cfg);
/* State after rst_ni: ptr = 0. */
void common_rr_arbiter_reset(common_rr_arbiter_state_t *s, const common_rr_arbiter_cfg_t *cfg);
/* Pure: the (combinational) grant for this cycle's req and the next ptr. Does not modify s. */
void common_rr_arbiter_eval(const common_rr_arbiter_cfg_t *cfg, const common_rr_arbiter_state_t *s,
                            const common_rr_arbiter_in_t *in, common_rr_arbiter_out_t *out,
                            common_rr_arbiter_next_t *nx);
/* The clock edge. */
void common_rr_arbiter_commit(const common_rr_arbiter_cfg_t *cfg, common_rr_arbiter_state_t *s,
                              const common_rr_arbiter_next_t *nx);
void common_rr_arbiter_free(common_rr_arbiter_state_t *s); /* no-op */

extern const char *const common_rr_arbiter_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_RR_ARBITER_H */
