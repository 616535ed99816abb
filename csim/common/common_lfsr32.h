/*
 * common_lfsr32 -- cycle-accurate C model of the 32-bit maximal-length Galois LFSR.
 * Spec: docs/common.md, section "common_lfsr32".
 */
#ifndef COMMON_LFSR32_H
#define COMMON_LFSR32_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x^32 + x^22 + x^2 + x + 1, Galois form shifting right. */
#define COMMON_LFSR32_MASK 0x80200003u

/* Indices into common_lfsr32_bug_names. */
enum {
  COMMON_LFSR32_BUG_NONE = 0,
  COMMON_LFSR32_BUG_WRONG_TAP = 1, /* "lfsr_wrong_tap": mask 0x80200001 instead */
  COMMON_LFSR32_BUG_COUNT
};

typedef struct {
  uint32_t seed; /* Seed: reset state, non-zero (default 1) */
  unsigned bug;  /* 0 = none, else index into common_lfsr32_bug_names */
} common_lfsr32_cfg_t;

typedef struct {
  uint32_t lfsr; /* the LFSR state s, never 0 */
  bool seed_err; /* registered pulse */
} common_lfsr32_state_t;

typedef struct {
  bool en;       /* en_i */
  bool load;     /* load_i, priority over en_i */
  uint32_t seed; /* seed_i */
} common_lfsr32_in_t;

typedef struct {
  uint32_t state; /* state_o = s */
  bool seed_err;  /* seed_err_o */
} common_lfsr32_out_t;

typedef struct {
  uint32_t lfsr; /* s' */
  bool seed_err; /* seed_err_o' */
} common_lfsr32_next_t;

/* Validate cfg and reset. 0 or -EINVAL (bad cfg, one line on stderr). */
int common_lfsr32_init(common_lfsr32_state_t *s, const common_lfsr32_cfg_t *cfg);
/* State after rst_ni: s = Seed, pulse 0. */
void common_lfsr32_reset(common_lfsr32_state_t *s, const common_lfsr32_cfg_t *cfg);
/* Pure: outputs of this cycle and the next state. Does not modify s. */
void common_lfsr32_eval(const common_lfsr32_cfg_t *cfg, const common_lfsr32_state_t *s,
                        const common_lfsr32_in_t *in, common_lfsr32_out_t *out, common_lfsr32_next_t *nx);
/* The clock edge. */
void common_lfsr32_commit(const common_lfsr32_cfg_t *cfg, common_lfsr32_state_t *s,
                          const common_lfsr32_next_t *nx);
void common_lfsr32_free(common_lfsr32_state_t *s); /* no-op */

extern const char *const common_lfsr32_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_LFSR32_H */
