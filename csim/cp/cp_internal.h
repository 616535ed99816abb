/*
 * cp -- internal interfaces between the sub-blocks of the congestion point model.
 * Spec: docs/cp.md. Each sub-block is a small pure function of its part of the state;
 * cp.c (cp_eval) calls them in the spec's order and wires them together.
 */
#ifndef CP_INTERNAL_H
#define CP_INTERNAL_H

#include "cp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* QMax = 2^QW - 1 (section 3); also the mask of every QW-bit register. */
static inline uint64_t cp_qmax(const cp_cfg_t *cfg) { return (UINT64_C(1) << cfg->qw) - 1u; }

/* ---- cp_config.c (section 3) ------------------------------------------------------ */

/* The generator the sampler steps; its Seed is the SEED reset value. */
extern const common_lfsr32_cfg_t cp_lfsr_cfg;

/* Cut every field to its register width, as the register port stores it. */
void cp_regs_mask(cp_regs_t *r, unsigned qw);
/* D = (2W+1)*QEQ, DF = (2W+1)*QEQ_FLOW. */
uint64_t cp_derive_d(uint32_t w, uint32_t qeq);

typedef struct {
  cp_regs_t shadow; /* shadow' */
  bool apply_ok;    /* a legal APPLY: active' = shadow, plus the side effects of section 3 */
  bool err;         /* cfg_err_o' */
  unsigned code;    /* cfg_err_code_o' when err */
} cp_config_result_t;

void cp_config_eval(const cp_cfg_t *cfg, const cp_regs_t *shadow, const cp_in_t *in, cp_config_result_t *r);

/* ---- cp_queue_monitor.c (section 5) ----------------------------------------------- */

typedef struct {
  bool enq_ok;
  bool deq_ok;
  uint64_t q_next; /* Q' */
  bool err;        /* ev_err_o' */
  unsigned code;   /* ev_err_code_o' when err */
} cp_qmon_result_t;

void cp_queue_monitor_eval(const cp_cfg_t *cfg, uint64_t q, const cp_in_t *in, cp_qmon_result_t *r);

/* ---- cp_sampler.c (section 6) ----------------------------------------------------- */

typedef struct {
  bool sample;
  common_lfsr32_next_t lfsr; /* LFSR' */
  uint32_t cd;               /* cd' */
} cp_sampler_result_t;

/* act: active config; apply/next_act: a legal APPLY this cycle and the config it loads. */
void cp_sampler_eval(const cp_regs_t *act, const common_lfsr32_state_t *lfsr, uint32_t cd, bool enq_ok,
                     uint32_t enq_len, bool apply, const cp_regs_t *next_act, cp_sampler_result_t *r);

/* ---- cp_quantiser.c (section 7.1) ------------------------------------------------- */

/* min(63, floor(abs_fb*63 / d)), exactly. */
unsigned cp_quantise(uint64_t abs_fb, uint64_t d, unsigned bug);

/* ---- cp_feedback.c (section 7) ---------------------------------------------------- */

/* Queue-level decision for a sample. Fills m's type and Qoff/Qdelta/Fb/QntzFb (not dst,
   flow, valid); returns whether a message is sent. */
bool cp_feedback_queue(const cp_regs_t *act, uint64_t d, uint64_t q, uint64_t qold, bool tag_ok, unsigned bug,
                       cp_msg_t *m);
/* Per-flow decision for an answered probe; e is the flow's entry or NULL. Same contract. */
bool cp_feedback_flow(const cp_regs_t *act, uint64_t df, const cp_flow_entry_t *e, unsigned bug, cp_msg_t *m);

/* ---- cp_flow_table.c (section 8) -------------------------------------------------- */

/* Index of the valid entry holding flow, or -1. */
int cp_ft_find(const cp_cfg_t *cfg, const cp_flow_entry_t *ft, uint32_t flow);

typedef struct {
  unsigned n;                         /* entries written */
  cp_ft_write_t wr[CP_FT_MAX_WRITES]; /* distinct indices */
  bool full;                          /* the enqueue found the table full (ft_full_o 2 cycles later) */
} cp_ft_update_t;

/* The event updates of one cycle on the registered table. enq/deq are enq_ok/deq_ok
   already qualified by MODE != off. */
void cp_flow_table_eval(const cp_cfg_t *cfg, const cp_flow_entry_t *ft, bool enq, uint32_t enq_flow,
                        uint32_t enq_len, bool deq, uint32_t deq_flow, uint32_t deq_len, cp_ft_update_t *u);
/* The feedback unit's Qold_flow <- qold on entry idx, dropped if the cycle's updates in u
   freed that entry. */
void cp_flow_table_write_qold(const cp_flow_entry_t *ft, cp_ft_update_t *u, unsigned idx, uint64_t qold);

/* ---- cp_counters.c ---------------------------------------------------------------- */

typedef struct {
  bool frame;        /* an accepted enqueue (t-1) */
  bool sample;       /* a sample leaving the feedback pipeline */
  bool bcn;          /* a queue-level message leaving it ... */
  unsigned bcn_type; /* ... of this type */
  bool fbcn;         /* a per-flow message leaving it */
  bool ft_full;      /* an enqueue found the table full (t-1) */
  bool ev_err;       /* a cycle with rejected events (t-1) */
  bool cfg_err;      /* a configuration error (t-1) */
} cp_count_events_t;

void cp_counters_eval(const cp_counters_t *c, const cp_count_events_t *ev, cp_counters_t *n);

#ifdef __cplusplus
}
#endif

#endif /* CP_INTERNAL_H */
