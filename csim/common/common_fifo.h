/*
 * common_fifo -- cycle-accurate C model of the synchronous show-ahead FIFO.
 * Spec: docs/common.md, section "common_fifo".
 */
#ifndef COMMON_FIFO_H
#define COMMON_FIFO_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Entries are stored as 32-bit words, word 0 = bits 31:0. */
#define COMMON_FIFO_WORDS(w)  (((w) + 31) / 32)
#define COMMON_FIFO_MIN_WIDTH 1
#define COMMON_FIFO_MAX_WIDTH 256
#define COMMON_FIFO_MAX_WORDS COMMON_FIFO_WORDS(COMMON_FIFO_MAX_WIDTH)
#define COMMON_FIFO_MIN_DEPTH 2
#define COMMON_FIFO_MAX_DEPTH 65535

/* Indices into common_fifo_bug_names. */
enum {
  COMMON_FIFO_BUG_NONE = 0,
  COMMON_FIFO_BUG_FULL_EARLY = 1, /* "fifo_full_early": count == Depth-1 is treated as full */
  COMMON_FIFO_BUG_COUNT
};

typedef struct {
  unsigned width; /* Width: bits per entry, 1..256 */
  unsigned depth; /* Depth: entries, 2..65535, need not be a power of two */
  unsigned bug;   /* 0 = none, else index into common_fifo_bug_names */
} common_fifo_cfg_t;

typedef struct {
  uint32_t *mem;  /* depth x COMMON_FIFO_WORDS(width) words, allocated by init */
  unsigned rd;    /* slot of the head (oldest) entry */
  unsigned wr;    /* slot the next accepted push writes */
  unsigned count; /* entries held, 0..depth */
  bool overflow;  /* registered pulse: a push was rejected last cycle */
  bool underflow; /* registered pulse: a pop was rejected last cycle */
} common_fifo_state_t;

typedef struct {
  bool push;                 /* push_i */
  const uint32_t *push_data; /* push_data_i: COMMON_FIFO_WORDS(width) words, owned by the
                                  caller; read during eval only, and only if push is accepted */
  bool pop;                  /* pop_i */
} common_fifo_in_t;

typedef struct {
  const uint32_t *pop_data; /* pop_data_o: the head entry; points into the state's storage,
                                 valid until the next commit; don't care while empty */
  bool full;                /* full_o */
  bool empty;               /* empty_o */
  unsigned count;           /* count_o */
  bool overflow;            /* overflow_o */
  bool underflow;           /* underflow_o */
} common_fifo_out_t;

typedef struct {
  bool push_ok;                              /* the push is accepted */
  bool pop_ok;                               /* the pop is accepted */
  uint32_t push_data[COMMON_FIFO_MAX_WORDS]; /* copy of the accepted data, high bits masked */
  bool overflow;                             /* overflow_o' */
  bool underflow;                            /* underflow_o' */
} common_fifo_next_t;

/* Validate cfg, allocate storage, reset. 0, -EINVAL (bad cfg, one line on stderr) or
   -ENOMEM. On failure the state is left zeroed, so common_fifo_free is still safe. */
int common_fifo_init(common_fifo_state_t *s, const common_fifo_cfg_t *cfg);
/* State after rst_ni: empty, both pulses 0. Memory contents are kept (as in the RTL). */
void common_fifo_reset(common_fifo_state_t *s, const common_fifo_cfg_t *cfg);
/* Pure: outputs of this cycle and what the clock edge will do. Does not modify s. */
void common_fifo_eval(const common_fifo_cfg_t *cfg, const common_fifo_state_t *s, const common_fifo_in_t *in,
                      common_fifo_out_t *out, common_fifo_next_t *nx);
/* The clock edge. */
void common_fifo_commit(const common_fifo_cfg_t *cfg, common_fifo_state_t *s, const common_fifo_next_t *nx);
void common_fifo_free(common_fifo_state_t *s);

extern const char *const common_fifo_bug_names[]; /* NULL-terminated, [0] = "none" */

#ifdef __cplusplus
}
#endif

#endif /* COMMON_FIFO_H */
