/*
 * elite4 -- internal interfaces between the units of the switch model (section 7).
 * Spec: docs/elite4.md.
 *
 * elite4_eval (elite4.c) calls the units; they communicate through elite4_work_t, the
 * combinational signals of one cycle, on elite4_eval's stack. Every unit reads the
 * registered state only (plus this cycle's inputs and the signals of units called
 * before it, where section 5 says "in this same cycle").
 */
#ifndef ELITE4_INTERNAL_H
#define ELITE4_INTERNAL_H

#include "elite4.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The head entry of an input buffer (common_fifo's pop_data_o / empty_o). kind and data
   are meaningful only when valid. */
typedef struct {
  bool valid;   /* the buffer is not empty */
  uint8_t kind; /* ELITE4_HEAD, _BODY or _TAIL (tokens are never buffered) */
  uint32_t data;
} elite4_front_t;

/* What a HEAD's front tag asks for (section 3). */
enum { ELITE4_REQ_NONE = 0, ELITE4_REQ_PORTS, ELITE4_REQ_UP, ELITE4_REQ_ILLEGAL };

typedef struct {
  uint8_t kind;   /* ELITE4_REQ_* */
  bool bcast;     /* the tag is TagBcast (legal range) */
  bool upn;       /* the tag is TagUpN (legal count) */
  uint32_t ports; /* REQ_PORTS: the requested output ports */
} elite4_route_t;

/* Error events of one port in one cycle (section 6). */
typedef struct {
  uint8_t n;    /* events (each counts in cnt_errors) */
  uint8_t code; /* lowest code among them */
} elite4_errs_t;

/* The combinational signals of one cycle. Index k = i * V + v for input VCs, o * V + v
   for output VCs; bit masks over k fit 64 bits (P * V <= 64). */
typedef struct {
  unsigned np, nv, nivc; /* P, V, P*V */
  unsigned vs, vm;       /* log2(V), V - 1: k = i << vs | v (V is 2 or 4) */

  /* this cycle's inputs, cut to their port widths (top) */
  uint32_t in_valid; /* bit p */
  uint8_t in_kind[ELITE4_MAX_PORTS];
  uint8_t in_vc[ELITE4_MAX_PORTS];

  /* Where there is work (docs/elite4.md section 7.1): s->act, copied by
     elite4_input_front, and this cycle's arrivals; the units visit only the (port, VC)
     and outputs these name and leave the rest at their hold values. */
  uint64_t push;     /* bit k: a HEAD/BODY/TAIL arrives on port i for VC v (top) */
  uint64_t nonempty; /* bit k: buf[k] is not empty (front[k] is valid) */
  uint64_t active;   /* bit k: ist[k] is ACTIVE */
  uint64_t settle;   /* bit k: ist[k] is WAIT_TOKEN with pend 0 (goes IDLE, 5.3) */
  uint64_t stg_v;    /* bit k: stg[k] holds a flit */
  uint64_t buf_flag; /* bit k: buf[k] has an overflow/underflow pulse to clear */
  uint64_t tokp_v;   /* bit k: a token is owed upstream on port i, VC v */
  uint64_t obusy;    /* bit o*V+v: ost is BUSY */
  uint64_t ofree;    /* bit o*V+v: ost is FREE */

  /* input unit, front of each buffer (5.2) */
  elite4_front_t front[ELITE4_MAX_IVCS]; /* written where nonempty */
  elite4_route_t req[ELITE4_MAX_IVCS];   /* decoded HEAD of an IDLE VC (written where decoded) */
  uint64_t req_mask;                     /* bit k: req[k] is a legal request (PORTS, UP): a VA requester */

  /* output unit, T1: the tokens of tin (5.3) */
  uint32_t tok_clear[ELITE4_MAX_IVCS]; /* outputs whose token reached input VC k */
  uint64_t tok_hit;                    /* bit k: tok_clear[k] != 0 */
  uint64_t tok_nack;                   /* bit k: one of those tokens was a nack */
  uint64_t tok_freed;                  /* bit o*V+v: a token for TOKWAIT (o, v) */
  uint64_t tok_early;                  /* bit o*V+v: an early token for BUSY (o, v) */

  /* VA (5.4) */
  uint32_t grant[ELITE4_MAX_IVCS];    /* outputs granted to requester k (where granted) */
  uint64_t granted;                   /* bit k: grant[k] != 0 */
  uint64_t new_busy;                  /* bit o*V+v: output VC granted this cycle ... */
  uint8_t new_owner[ELITE4_MAX_IVCS]; /* ... to this input port (where new_busy) */

  /* SA (5.5) */
  int8_t tok_vc[ELITE4_MAX_PORTS];   /* VC of the token chosen for o, -1 = none */
  int8_t data_ivc[ELITE4_MAX_PORTS]; /* input VC k whose flit o takes, -1 = none */
  uint64_t tok_sent;                 /* bit o*V+v: the token o sends (tok_vc[o] = v) */
  uint64_t send;                     /* bit k: input VC k sends (is staged) this cycle */
  uint32_t waiting;                  /* bit o: a BUSY VC of o has data (XmitWait) */

  /* input unit, next state */
  uint64_t closes;      /* bit k: it sends a TAIL (real or synthetic) this cycle */
  uint64_t tok_new;     /* bit k: a token becomes owed upstream ... */
  uint64_t tok_new_ack; /* ... with this ack bit */

  /* ST: the output registers the crossbar fills (bit o) */
  uint32_t xmit;

  /* error events and CRC mismatches per port, meaningful where err_ports (the ports with
     an error event this cycle; written on a port's first event, elite4_error) */
  uint32_t err_ports;
  elite4_errs_t err[ELITE4_MAX_PORTS];
  uint8_t crc_err[ELITE4_MAX_PORTS];
} elite4_work_t;

/* Record one error event with this code at port p (section 6). */
static inline void elite4_error(elite4_work_t *w, unsigned p, unsigned code) {
  elite4_errs_t *e = &w->err[p];
  if (!((w->err_ports >> p) & 1u)) { /* the port's first event this cycle */
    w->err_ports |= 1u << p;
    *e = (elite4_errs_t){0, 0};
    w->crc_err[p] = 0;
  }
  if (e->n == 0 || code < e->code) e->code = (uint8_t)code;
  e->n++;
}

/* cred[o][v]: common_credit_counter's credits_o, which is its registered count. */
static inline unsigned elite4_cred(const elite4_state_t *s, unsigned o, unsigned v) {
  return s->cred[o].cnt[v];
}

static inline uint32_t elite4_port_mask(unsigned np) { return np >= 32u ? 0xFFFFFFFFu : (1u << np) - 1u; }

/* ---- elite4_route_decode.c (section 3) -------------------------------------------- */

/* Decode the front tag of a HEAD's route word. */
void elite4_route_decode(const elite4_cfg_t *cfg, uint32_t route, elite4_route_t *r);
/* The HEAD as forwarded: the used tag(s) removed (planted bug elite4_no_route_strip:
   unchanged). */
uint32_t elite4_route_strip(const elite4_cfg_t *cfg, uint32_t route, bool bcast, bool upn);

/* ---- elite4_input_unit.c (5.1 ARRIVE, 5.2 fronts, ist, staging, 5.6 CRC) ---------- */

/* The activity masks of any register state, by a scan (elite4_reset; test_elite4 checks
   that the incrementally kept s->act always equals it). */
void elite4_act_scan(const elite4_state_t *s, unsigned nivc, elite4_act_t *a);
/* Buffer fronts of every input VC, and the route decode of IDLE VCs with a HEAD. */
void elite4_input_front(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w);
/* Input VC next states, pops and pushes (buffer deltas), tin', stg', the CRC of the staged
   flits, the tokens that become owed upstream, out_credit_o', alloc_o', errors 1, 2, 3, 4,
   7. Needs T1, VA and SA. */
void elite4_input_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in,
                       elite4_work_t *w, elite4_next_t *nx);

/* ---- elite4_vc_alloc.c (5.4 VA) --------------------------------------------------- */

/* Per VC: the broadcast leader, then per output VC a round robin over the inputs; vrr',
   uptr'. */
void elite4_vc_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w, elite4_next_t *nx);

/* ---- elite4_up_select.c (5.4 adaptive choice) -------------------------------------- */

/* upsel' from the registered state. */
void elite4_up_select(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                      elite4_next_t *nx);

/* ---- elite4_switch_alloc.c (5.5 SA) ----------------------------------------------- */

/* Per output: a pending token, else one VC (broadcast agreement); srr'. */
void elite4_switch_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w,
                         elite4_next_t *nx);

/* ---- elite4_output_unit.c (5.3 T1, ost, tokp, credits, sel') ----------------------- */

/* T1: the tokens in tin -- which input VCs they reach, which output VCs they free;
   error 5. */
void elite4_output_tokens(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w);
/* Output VC next states, credits (error 6), pending tokens (error 6), sel'. */
void elite4_output_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in,
                        elite4_work_t *w, elite4_next_t *nx);

/* ---- elite4_crossbar.c (5.6 ST) --------------------------------------------------- */

/* The output registers' flits from sel and stg. Returns the outputs it fills (bit o). */
uint32_t elite4_crossbar(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_next_t *nx);

/* ---- elite4_counters.c (5.7) ------------------------------------------------------ */

/* cnt_*', err_o', err_code_o' (the error and wait group from last cycle's registered events,
   5.7) and ev' (this cycle's events). Needs everything above. */
void elite4_counters_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                          elite4_next_t *nx);

#ifdef __cplusplus
}
#endif

#endif /* ELITE4_INTERNAL_H */
