/*
 * common_counter -- cycle-accurate C model of the event counter, wrapping or saturating.
 * Spec: docs/common.md, section "common_counter".
 */
#ifndef COMMON_COUNTER_H
#define COMMON_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMMON_COUNTER_MIN_WIDTH 1
#define COMMON_COUNTER_MAX_WIDTH 64
#define COMMON_COUNTER_MIN_INCW  1
#define COMMON_COUNTER_MAX_INCW  16

/* Indices into common_counter_bug_names. */
enum {
  COMMON_COUNTER_BUG_NONE = 0,
  COMMON_COUNTER_BUG_WRAP_WHEN_SATURATING = 1, /* "counter_wrap_when_saturating": Saturate=1 wraps */
  COMMON_COUNTER_BUG_CLEAR_IGNORED = 2,        /* "counter_clear_ignored": clear_i has no effect */
  COMMON_COUNTER_BUG_SAT_ONLY_SATURATING = 3, /* "counter_sat_only_saturating": sat_o stuck 0 when wrapping */
  COMMON_COUNTER_BUG_COUNT
};

typedef struct {
  unsigned width;    /* Width: bits of the count, 1..64 */
  unsigned inc_w;    /* IncW: bits of inc_i, 1..16 and <= Width */
  unsigned saturate; /* Saturate: 0 = wrap modulo 2^Width, 1 = stop at 2^Width - 1 */
  unsigned bug;      /* 0 = none, else index into common_counter_bug_names */
} common_counter_cfg_t;

typedef struct {
  uint64_t n; /* the count, 0..2^Width-1 */
} common_counter_state_t;

typedef struct {
  uint32_t inc; /* inc_i: events this cycle; bits above IncW are ignored */
  bool clear;   /* clear_i: priority over inc_i */
} common_counter_in_t;

typedef struct {
  uint64_t count; /* count_o = n */
  bool sat;       /* sat_o = (n == 2^Width - 1) */
} common_counter_out_t;

typedef struct {
  uint64_t n; /* n' */
} common_counter_next_t;

/* All ones in the low Width bits: 2^Width - 1, without shifting a uint64_t by 64. */
static inline uint64_t common_counter_max(unsigned width) {
  return width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1u;
}

/* Validate cfg and reset. 0 or -EINVAL (bad cfg, one line on stderr naming the field). */
int common_counter_init(common_counter_state_t *s, const common_counter_cfg_t *cfg);
/* State after rst_ni: n = 0. */
void common_counter_reset(common_counter_state_t *s, const common_counter_cfg_t *cfg);
/* Pure: outputs of this cycle and the next state. Does not modify s. */
void common_counter_eval(const common_counter_cfg_t *cfg, const common_counter_state_t *s,
                         const common_counter_in_t *in, common_counter_out_t *out, common_counter_next_t *nx);
/* The clock edge. */
void common_counter_commit(const common_counter_cfg_t *cfg, common_counter_state_t *s,
                           const common_counter_next_t *nx);
void common_counter_free(common_counter_state_t *s); /* no-op */

extern const char *const common_counter_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_COUNTER_H */
