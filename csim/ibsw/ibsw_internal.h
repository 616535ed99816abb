/* ibsw model internals: the per-cycle context the units share (docs/ibsw.md). */
#ifndef IBSW_INTERNAL_H
#define IBSW_INTERNAL_H

#include "ibsw.h"

/* One cycle's evaluation: reads s (the state at c) and in, writes nx (the state at c+1).
   The scratch fields carry what one unit decides for another in the same cycle. */
typedef struct {
  const ibsw_cfg_t *cfg;
  const ibsw_state_t *s;
  const ibsw_in_t *in;
  ibsw_next_t *nx;
  unsigned P, V, NL; /* ports, data VLs, lanes (V+1) */
  bool slot;
  uint8_t pop[IBSW_MAXP1][IBSW_MAX_LANES];     /* lane popped in c */
  uint8_t consume[IBSW_MAXP1][IBSW_MAX_LANES]; /* a credit used by SA in c */
  bool fsm_changed[IBSW_MAXP1];                /* section 6.2 changed phys/pstate/draining */
  bool clear_cnt[IBSW_MAXP1][IBSW_NCNT];       /* a Set clears the counter in c */
  bool smp_set[IBSW_MAXP1];                    /* a PortSamplesControl Set accepted in c */
} ibsw_ctx_t;

static inline bool ibsw_bug(const ibsw_ctx_t *x, unsigned b) { return x->cfg->bug == b; }

/* An event of cycle c at port n (1..P): counted and flagged two cycles later (8.1, 10). */
static inline void ibsw_count(ibsw_ctx_t *x, unsigned n, unsigned ev, unsigned k) {
  x->nx->r.ev[n][ev] = (uint16_t)(x->nx->r.ev[n][ev] + k);
}
void ibsw_raise(ibsw_ctx_t *x, unsigned n, unsigned code);
void ibsw_sma_raise(ibsw_ctx_t *x, unsigned code);

static inline bool ibsw_port_data_ok(const ibsw_port_t *p) {
  return p->phys == IBSW_LINKUP && p->pstate == IBSW_ACTIVE && !p->draining;
}
static inline const ibsw_entry_t *ibsw_front(const ibsw_ctx_t *x, unsigned n, unsigned l) {
  const ibsw_lane_t *ln = &x->s->r.ln[n][l];
  return &x->s->mem[n][l][ln->rd];
}
/* Push into buf[n][l] at the end of c (the slot after the state-at-c occupancy). */
void ibsw_push(ibsw_ctx_t *x, unsigned n, unsigned l, const ibsw_entry_t *e);

/* Units (section 15). */
void ibsw_port_fsm(ibsw_ctx_t *x);     /* 6.2 */
void ibsw_front_unit(ibsw_ctx_t *x);   /* 5.3 */
void ibsw_vl_alloc(ibsw_ctx_t *x);     /* 5.4 VA */
void ibsw_switch_alloc(ibsw_ctx_t *x); /* 5.4 SA */
void ibsw_crossbar(ibsw_ctx_t *x);     /* 5.5 ST */
void ibsw_input_unit(ibsw_ctx_t *x);   /* 5.1 ARRIVE */
bool ibsw_route(const ibsw_ctx_t *x, unsigned n, unsigned l, uint64_t head, unsigned *egr,
                unsigned *code);   /* 5.2 */
void ibsw_credits(ibsw_ctx_t *x);  /* 5.6 */
void ibsw_sma(ibsw_ctx_t *x);      /* 7 */
void ibsw_lft(ibsw_ctx_t *x);      /* 5.7 configuration port */
void ibsw_counters(ibsw_ctx_t *x); /* 8.1, 10 */
void ibsw_sampler(ibsw_ctx_t *x);  /* 8.2 */
void ibsw_power(ibsw_ctx_t *x);    /* 9 */
uint32_t ibsw_power_of(const ibsw_cfg_t *cfg, const ibsw_regs_t *r);
bool ibsw_cred_full(const ibsw_ctx_t *x, const ibsw_regs_t *r, unsigned o);

#endif
