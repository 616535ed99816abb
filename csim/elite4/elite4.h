/*
 * elite4 -- cycle-accurate C model of the 8-port, 2-VC source-routed wormhole switch.
 * Spec: docs/elite4.md (section 5 is the per-cycle algorithm).
 *
 * One elite4_eval + elite4_commit pair is one clock cycle. elite4_eval is pure: it returns
 * this cycle's outputs (all outputs come from registers, section 4) and what the clock
 * edge will do; elite4_commit is the edge. The model is split like the RTL (section 7):
 * elite4_route_decode.c, elite4_input_unit.c, elite4_vc_alloc.c, elite4_up_select.c,
 * elite4_switch_alloc.c, elite4_output_unit.c, elite4_crossbar.c, elite4_counters.c and
 * elite4.c (top). The pipeline is ARRIVE -> VA -> SA -> ST (section 5): a HEAD arriving in
 * cycle t leaves on out_* in t+4 (section 8).
 *
 * It reuses the common models: common_fifo (input buffers), common_credit_counter
 * (per-output credits), common_rr_arbiter (SA's per-output VC round robin) and common_crc32
 * (the byte-feeding rule of the tail CRC).
 */
#ifndef ELITE4_H
#define ELITE4_H

#include <stdbool.h>
#include <stdint.h>

#include "common/common_credit_counter.h"
#include "common/common_fifo.h"
#include "common/common_rr_arbiter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter ranges (section 2). */
#define ELITE4_MIN_PORTS     2
#define ELITE4_MAX_PORTS     16
#define ELITE4_MAX_VCS       4 /* NumVcs is 2 or 4 */
#define ELITE4_MIN_BUF_DEPTH 4
#define ELITE4_MAX_BUF_DEPTH 64
#define ELITE4_TAG_W         4 /* TagW, fixed */
#define ELITE4_MAX_IVCS      (ELITE4_MAX_PORTS * ELITE4_MAX_VCS)

/* Flit kinds (section 3, the `kind` field). */
enum { ELITE4_HEAD = 0, ELITE4_BODY = 1, ELITE4_TAIL = 2, ELITE4_TOKEN = 3 };

/* Route tags (section 3). A tag below NumPorts names that port (tested first, so with 13..16
   ports 12 and up are ports); otherwise 12, 13 and 14 are special and the rest illegal. */
#define ELITE4_TAG_UPN   12 /* TagUpN (ours): up here and in the next k - 1 switches, k the next tag */
#define ELITE4_TAG_UP    13 /* TagUp: any up-link, adaptive (section 5.4) */
#define ELITE4_TAG_BCAST 14 /* TagBcast: the next tag is the range lo = [3:2], hi = [1:0] */
#define ELITE4_TAG_FILL  15 /* what route stripping shifts in at the top */

/* The data of the synthetic TAIL that closes a truncated packet (section 5.5). */
#define ELITE4_BAD_TAIL 0xBAD0BAD0u

/* err_code_o values (section 6). */
enum {
  ELITE4_ERR_NONE = 0,
  ELITE4_ERR_ROUTE = 1,       /* illegal route tag in a HEAD (input port) */
  ELITE4_ERR_NO_PACKET = 2,   /* BODY or TAIL with no open packet (input port) */
  ELITE4_ERR_OVERFLOW = 3,    /* flit arrives to a full buffer (input port) */
  ELITE4_ERR_TRUNCATED = 4,   /* HEAD where a BODY/TAIL was expected (input port) */
  ELITE4_ERR_STRAY_TOKEN = 5, /* token for an output VC not waiting for one (its port) */
  ELITE4_ERR_LOST = 6,        /* token while one is pending / credit return beyond BufDepth */
  ELITE4_ERR_CRC = 7          /* TAIL CRC mismatch (input port) */
};

/* Input VC states ist[i][v] and output VC states ost[o][v] (section 5, "State"). */
enum { ELITE4_IST_IDLE = 0, ELITE4_IST_ACTIVE, ELITE4_IST_DROP, ELITE4_IST_WAIT_TOKEN };
enum { ELITE4_OST_FREE = 0, ELITE4_OST_BUSY, ELITE4_OST_TOKWAIT };

/* Indices into elite4_bug_names. */
enum {
  ELITE4_BUG_NONE = 0,
  ELITE4_BUG_NO_ROUTE_STRIP = 1,       /* "elite4_no_route_strip": HEAD forwarded unstripped */
  ELITE4_BUG_VC_SWAP = 2,              /* "elite4_vc_swap": data flits leave on VC v ^ 1 */
  ELITE4_BUG_TOKEN_NO_RELEASE = 3,     /* "elite4_token_no_release": a token leaves the output
                                         VC in TOKWAIT (pend/ack still updated) */
  ELITE4_BUG_ADAPTIVE_FIRST = 4,       /* "elite4_adaptive_first": upsel names the lowest free
                                         up-link, ignoring credits and uptr */
  ELITE4_BUG_RESET_KEEPS_ERR_CODE = 5, /* "elite4_reset_keeps_err_code": reset forgets the
                                         err_code_o registers (visible only from a scrambled
                                         start: it proves the binding's scramble) */
  ELITE4_BUG_ERR_GROUP_EARLY = 6,      /* "elite4_err_group_one_cycle_early": the error and
                                         wait group (err_o, err_code_o, cnt_errors_o,
                                         cnt_crc_errors_o, cnt_xmit_wait_o) shows a cycle's
                                         events at t+1 instead of t+2 (section 5.7) */
  ELITE4_BUG_UPN_NO_DECREMENT = 7,     /* "elite4_upn_no_decrement": a TagUpN HEAD with count
                                         k > 1 leaves with its count unchanged (section 3) */
  ELITE4_BUG_ILLEGAL_ACKED = 8,        /* "elite4_illegal_acked": a HEAD with an illegal route
                                         is answered with an ack, not a nack (section 5.2) */
  ELITE4_BUG_COUNT
};

/* RTL parameters (section 2). TagW is fixed at 4 and is not a field. */
typedef struct {
  unsigned num_ports; /* NumPorts: 2..16 */
  unsigned num_vcs;   /* NumVcs: 2 or 4 */
  unsigned buf_depth; /* BufDepth: 4..64, flits per input VC buffer = credits per output VC */
  uint32_t up_mask;   /* UpMask: bit p = port p is an up-link; any value, bits >= num_ports
                           are outside the port (ignored) */
  unsigned bug;       /* 0 = none, else index into elite4_bug_names */
} elite4_cfg_t;

/* Input VC (i, v), section 5 "State". outs..crc are meaningful in ACTIVE and WAIT_TOKEN. */
typedef struct {
  uint8_t st;     /* ist: ELITE4_IST_* */
  bool bcast;     /* the circuit was opened by TagBcast */
  bool upn;       /* the circuit was opened by TagUpN (the HEAD's count is decremented) */
  bool head_sent; /* the HEAD has been popped by switch allocation */
  bool ack;       /* AND of the tokens received so far */
  uint32_t outs;  /* output ports of the circuit (bit o) */
  uint32_t pend;  /* outputs whose token is still owed */
  uint32_t crc;   /* CRC-32 register over the staged body so far (common_crc32's c) */
} elite4_ivc_t;

/* Output VC (o, v). */
typedef struct {
  uint8_t st;    /* ost: ELITE4_OST_* */
  uint8_t owner; /* input port that holds it (BUSY, TOKWAIT) */
  bool early;    /* its token came back while BUSY (a nack from further on), 5.3 */
} elite4_ovc_t;

/* A token owed upstream: tokp[i][v]. */
typedef struct {
  bool valid;
  bool ack;
} elite4_tok_t;

/* The staging register stg[i][v] (5.5): the flit switch allocation popped last cycle. */
typedef struct {
  bool valid;
  uint8_t kind; /* ELITE4_HEAD, _BODY or _TAIL */
  uint32_t data;
} elite4_stg_t;

/* sel[o] (5.5): what output o puts into its output register in ST (5.6). */
typedef struct {
  bool valid;
  bool token; /* a TOKEN on VC v with ack bit tok_ack; else stg[i][v] */
  bool tok_ack;
  uint8_t i, v;
} elite4_sel_t;

/* The token input register tin[p] (5.1): the TOKEN that arrived on port p last cycle. */
typedef struct {
  bool valid;
  uint8_t vc;
  bool ack;
} elite4_tin_t;

/* The adaptive choice upsel[v] (5.4), used by VA in the cycle after it is computed. */
typedef struct {
  bool valid;
  uint8_t port;
} elite4_upsel_t;

/* The error and wait group's events of one cycle at one port, registered at the end of
   that cycle and counted (and shown on err_o/err_code_o) in the next one, so they reach
   the outputs at t+2 (section 5.7). */
typedef struct {
  uint8_t n_err; /* error events (each counts in cnt_errors) */
  uint8_t code;  /* lowest code among them; meaningful when n_err != 0 */
  uint8_t n_crc; /* CRC mismatches (cnt_crc_errors) */
  bool wait;     /* XmitWait on this output */
} elite4_ev_t;

/* Input ports (section 4), per port. Values wider than their port are cut to the port
   width (kind 2 bits, vc VcW bits). */
typedef struct {
  bool valid[ELITE4_MAX_PORTS];                  /* in_valid_i */
  unsigned kind[ELITE4_MAX_PORTS];               /* in_kind_i */
  unsigned vc[ELITE4_MAX_PORTS];                 /* in_vc_i */
  uint32_t data[ELITE4_MAX_PORTS];               /* in_data_i */
  bool credit[ELITE4_MAX_PORTS][ELITE4_MAX_VCS]; /* in_credit_i[p*V+v] */
} elite4_in_t;

/* Output ports (section 4), per port. kind/vc/data are 0 while valid is 0. */
typedef struct {
  bool valid[ELITE4_MAX_PORTS];                  /* out_valid_o */
  unsigned kind[ELITE4_MAX_PORTS];               /* out_kind_o */
  unsigned vc[ELITE4_MAX_PORTS];                 /* out_vc_o */
  uint32_t data[ELITE4_MAX_PORTS];               /* out_data_o */
  bool credit[ELITE4_MAX_PORTS][ELITE4_MAX_VCS]; /* out_credit_o[p*V+v] */
  bool alloc[ELITE4_MAX_PORTS][ELITE4_MAX_VCS];  /* alloc_o[p*V+v] */
  bool err[ELITE4_MAX_PORTS];                    /* err_o */
  unsigned err_code[ELITE4_MAX_PORTS];           /* err_code_o */
  uint32_t cnt_xmit_flits[ELITE4_MAX_PORTS];     /* cnt_xmit_flits_o */
  uint32_t cnt_rcv_flits[ELITE4_MAX_PORTS];      /* cnt_rcv_flits_o */
  uint32_t cnt_xmit_pkts[ELITE4_MAX_PORTS];      /* cnt_xmit_pkts_o */
  uint32_t cnt_rcv_pkts[ELITE4_MAX_PORTS];       /* cnt_rcv_pkts_o */
  uint32_t cnt_xmit_wait[ELITE4_MAX_PORTS];      /* cnt_xmit_wait_o */
  uint32_t cnt_errors[ELITE4_MAX_PORTS];         /* cnt_errors_o */
  uint32_t cnt_crc_errors[ELITE4_MAX_PORTS];     /* cnt_crc_errors_o */
} elite4_out_t;

/* Which (port, VC) and output VCs have work, derived from the registers (bit k = i * V + v
   or o * V + v): the model visits only these (docs/elite4.md section 7.1). Not
   registers of the design: elite4_reset rebuilds them from the registers, elite4_eval
   computes the next ones beside the next registers, elite4_commit takes them. */
typedef struct {
  uint64_t nonempty; /* buf[k] is not empty */
  uint64_t active;   /* ist[k] is ACTIVE */
  uint64_t settle;   /* ist[k] is WAIT_TOKEN with pend 0 (goes IDLE; only from a raw start) */
  uint64_t stg;      /* stg[k] holds a flit */
  uint64_t flag;     /* buf[k] has a common_fifo overflow/underflow pulse */
  uint64_t tokp;     /* tokp[k] is valid */
  uint64_t obusy;    /* ost[k] is BUSY */
  uint64_t ofree;    /* ost[k] is FREE */
  uint64_t ev;       /* bit p: ev[p] (registered error/wait events, 5.7) is not all 0 */
  uint64_t sel;      /* bit o: sel[o] is valid (ST fills output register o) */
  uint64_t tin;      /* bit p: tin[p] is valid (a token for T1) */
  uint64_t cflag;    /* bit o: cred[o] has an underflow/overflow/bad_vc pulse to clear */
} elite4_act_t;

/* Every register of the switch (section 5, "State"). Per-(port, VC) arrays are indexed
   p * num_vcs + v (input VCs) or o * num_vcs + v (output VCs) and allocated by
   elite4_init. */
typedef struct {
  unsigned num_ports, num_vcs; /* the cfg the arrays were built for */
  /* Parameters of the common sub-instances, fixed at init (elaboration). */
  common_fifo_cfg_t buf_cfg;            /* Width 34 = {kind, data}, Depth BufDepth */
  common_credit_counter_cfg_t cred_cfg; /* NumVcs, MaxCredits = BufDepth */
  common_rr_arbiter_cfg_t rr_cfg;       /* NumReq = NumVcs (srr) */
  /* input side, [i * V + v] */
  common_fifo_state_t *buf;           /* buf[i][v]: entry word 0 = data, word 1 = kind */
  elite4_ivc_t *ivc;                  /* ist and the circuit registers */
  elite4_tok_t *tokp;                 /* tokens owed upstream on port i, VC v */
  elite4_stg_t *stg;                  /* staging registers */
  elite4_tin_t tin[ELITE4_MAX_PORTS]; /* token input registers */
  /* output side */
  elite4_ovc_t *ovc;                                    /* [o * V + v]: ost, owner, early */
  uint8_t *vrr;                                         /* [o * V + v]: VA round robin over inputs */
  common_credit_counter_state_t cred[ELITE4_MAX_PORTS]; /* cred[o][v] */
  common_rr_arbiter_state_t rr[ELITE4_MAX_PORTS];       /* srr[o]: SA round robin over VCs */
  elite4_sel_t sel[ELITE4_MAX_PORTS];                   /* SA -> ST */
  elite4_upsel_t upsel[ELITE4_MAX_VCS];                 /* adaptive choice per VC */
  unsigned uptr[ELITE4_MAX_VCS];                        /* its pointer, 0..P-1 */
  elite4_ev_t ev[ELITE4_MAX_PORTS];                     /* last cycle's error/wait events (5.7) */
  elite4_out_t r;   /* the output registers (section 4: all outputs come from registers),
                     counters included */
  elite4_act_t act; /* derived: where there is work (above) */
} elite4_state_t;

/* What the clock edge does. The input buffers are the large part of the state, so they
   change by deltas: only the buffers whose bit is set in buf_touched are committed (a
   push, a pop, or a common_fifo error pulse to clear); likewise the credit counters and
   the arbiters are committed only where they were evaluated, the input VCs (ivc, stg),
   output VCs and pending tokens only where ivc_touched, ovc_touched and tokp_touched say
   (elsewhere they hold). The rest are next register values for the num_ports x num_vcs
   entries in use. */
typedef struct {
  uint64_t buf_touched;                    /* bit i*V+v */
  common_fifo_next_t buf[ELITE4_MAX_IVCS]; /* valid where touched */
  uint64_t ivc_touched;                    /* bit i*V+v: ivc[k] and stg[k] committed */
  elite4_ivc_t ivc[ELITE4_MAX_IVCS];       /* valid where ivc_touched */
  uint64_t tokp_touched;                   /* bit i*V+v: tokp[k] committed */
  elite4_tok_t tokp[ELITE4_MAX_IVCS];      /* valid where tokp_touched */
  elite4_stg_t stg[ELITE4_MAX_IVCS];       /* valid where ivc_touched */
  elite4_tin_t tin[ELITE4_MAX_PORTS];
  uint64_t ovc_touched;              /* bit o*V+v: ovc[k] committed */
  elite4_ovc_t ovc[ELITE4_MAX_IVCS]; /* valid where ovc_touched */
  uint8_t vrr[ELITE4_MAX_IVCS];
  uint32_t cred_touched;                               /* bit o: cred[o] committed */
  common_credit_counter_next_t cred[ELITE4_MAX_PORTS]; /* valid where touched */
  uint32_t rr_touched;                                 /* bit o: rr[o] committed */
  common_rr_arbiter_next_t rr[ELITE4_MAX_PORTS];       /* valid where touched */
  elite4_sel_t sel[ELITE4_MAX_PORTS];
  elite4_upsel_t upsel[ELITE4_MAX_VCS];
  unsigned uptr[ELITE4_MAX_VCS];
  elite4_ev_t ev[ELITE4_MAX_PORTS];
  elite4_out_t r;   /* output registers' */
  elite4_act_t act; /* act' */
} elite4_next_t;

/* Validate cfg, allocate the per-(port, VC) state, reset. 0, -EINVAL (bad cfg, one line
   on stderr naming the field) or -ENOMEM. On failure the state is left zeroed, so
   elite4_free is still safe. */
int elite4_init(elite4_state_t *s, const elite4_cfg_t *cfg);
/* State after rst_ni: buffers empty, every VC IDLE/FREE, credits = BufDepth, no tokens,
   staging/selection/token-input registers empty, no adaptive choice, pointers 0,
   no registered error/wait events, outputs, error codes and counters 0. */
void elite4_reset(elite4_state_t *s, const elite4_cfg_t *cfg);
/* Pure: this cycle's outputs (from the registers only) and the next state. Does not
   modify s. No allocation. */
void elite4_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in, elite4_out_t *out,
                 elite4_next_t *nx);
/* The clock edge. */
void elite4_commit(const elite4_cfg_t *cfg, elite4_state_t *s, const elite4_next_t *nx);
void elite4_free(elite4_state_t *s);

extern const char *const elite4_bug_names[]; /* NULL-terminated, [0] = "none" */

/* Helpers for traffic endpoints. */

/* The route word for up to 8 tags, front tag first (bits [3:0]); unused tags are 0xF.
   Tags are cut to 4 bits; tags beyond the 8th are ignored. */
uint32_t elite4_route_word(const uint8_t *tags, unsigned n);
/* The data a TAIL must carry for these body words: ~(CRC-32 register fed with the body
   bytes, byte 0 = bits [7:0] of each word first), i.e. common_crc32's crc_o; 0 when there
   is no body. */
uint32_t elite4_body_crc(const uint32_t *words, unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* ELITE4_H */
