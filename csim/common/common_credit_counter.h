/*
 * common_credit_counter -- cycle-accurate C model of the per-VC credit counter.
 * Spec: docs/common.md, section "common_credit_counter".
 */
#ifndef COMMON_CREDIT_COUNTER_H
#define COMMON_CREDIT_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMMON_CC_MAX_VCS     16
#define COMMON_CC_MAX_CREDITS 65535

/* Indices into common_credit_counter_bug_names. */
enum {
  COMMON_CC_BUG_NONE = 0,
  COMMON_CC_BUG_RETURN_LOST = 1, /* "credit_return_lost": consume + return on one VC decrements */
  COMMON_CC_BUG_COUNT
};

typedef struct {
  unsigned num_vcs;     /* NumVcs: 1..16 */
  unsigned max_credits; /* MaxCredits: 1..65535, initial credits per VC */
  unsigned bug;         /* 0 = none, else index into common_credit_counter_bug_names */
} common_credit_counter_cfg_t;

typedef struct {
  unsigned cnt[COMMON_CC_MAX_VCS]; /* credits per VC; entries >= num_vcs stay 0 */
  uint32_t underflow;              /* registered pulses, bit v = VC v */
  uint32_t overflow;
  bool bad_vc;
} common_credit_counter_state_t;

typedef struct {
  bool init;            /* init_i */
  bool consume;         /* consume_i */
  unsigned consume_vc;  /* consume_vc_i; only the low VcW bits are used (port width) */
  uint32_t return_mask; /* return_i, bit v = VC v; bits >= num_vcs are ignored (port width) */
} common_credit_counter_in_t;

typedef struct {
  unsigned credits[COMMON_CC_MAX_VCS]; /* credits_o, one entry per VC; entries >= num_vcs are 0 */
  uint32_t avail;                      /* avail_o, bit v = VC v */
  uint32_t underflow;                  /* underflow_o */
  uint32_t overflow;                   /* overflow_o */
  bool bad_vc;                         /* bad_vc_o */
} common_credit_counter_out_t;

typedef struct {
  unsigned cnt[COMMON_CC_MAX_VCS]; /* next register values */
  uint32_t underflow;
  uint32_t overflow;
  bool bad_vc;
} common_credit_counter_next_t;

/* Validate cfg and reset. 0 or -EINVAL (bad cfg, one line on stderr). */
int common_credit_counter_init(common_credit_counter_state_t *s, const common_credit_counter_cfg_t *cfg);
/* State after rst_ni: every count = MaxCredits, pulses 0. */
void common_credit_counter_reset(common_credit_counter_state_t *s, const common_credit_counter_cfg_t *cfg);
/* Pure: outputs of this cycle and the next state. Does not modify s. */
void common_credit_counter_eval(const common_credit_counter_cfg_t *cfg,
                                const common_credit_counter_state_t *s, const common_credit_counter_in_t *in,
                                common_credit_counter_out_t *out, common_credit_counter_next_t *nx);
/* The clock edge. */
void common_credit_counter_commit(const common_credit_counter_cfg_t *cfg, common_credit_counter_state_t *s,
                                  const common_credit_counter_next_t *nx);
void common_credit_counter_free(common_credit_counter_state_t *s); /* no-op */

extern const char *const common_credit_counter_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_CREDIT_COUNTER_H */
