/*
 * cp -- cycle-accurate C model of the ECM/E2CM congestion point (CP).
 * Spec: docs/cp.md, sections 1-8 and 10.
 *
 * One cp_eval + cp_commit pair is one clock cycle. cp_eval is pure: it returns this
 * cycle's outputs (functions of the registered state only, section 4 "All outputs come
 * from registers") and what the clock edge will do; cp_commit is the edge.
 */
#ifndef CP_H
#define CP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/common_lfsr32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter ranges (section 3). */
#define CP_QW_MIN        16
#define CP_QW_MAX        30
#define CP_NUM_FLOWS_MIN 2
#define CP_NUM_FLOWS_MAX 256
#define CP_ID_W_MIN      1 /* FlowW and NodeW */
#define CP_ID_W_MAX      16
#define CP_MAX_FRAME_MIN 64
#define CP_MAX_FRAME_MAX 65535
#define CP_MIN_FRAME     64 /* legal frame lengths are CP_MIN_FRAME..MaxFrame */
#define CP_QNTZ_MAX      63 /* QntzFb is a 6-bit magnitude */

/* Register reset values (section 3 table; byte registers are then cut to QW bits). */
#define CP_RESET_MODE         0u
#define CP_RESET_QEQ          76800u
#define CP_RESET_W            2u
#define CP_RESET_PSAMPLE      85899346u
#define CP_RESET_SAMPLE_BYTES 0u
#define CP_RESET_BCNMAX       266240u
#define CP_RESET_QEQ_FLOW     15360u
#define CP_RESET_BCNMAX_FLOW  53248u
#define CP_RESET_CPID         0u
#define CP_RESET_SEED         1u

enum { CP_MODE_OFF = 0, CP_MODE_ECM = 1, CP_MODE_E2CM = 2, CP_MODE_E2CM_CP = 3 };

/* Register addresses (cfg_addr_i). 10..14 are unknown (error 7). */
enum {
  CP_ADDR_MODE = 0,
  CP_ADDR_QEQ = 1,
  CP_ADDR_W = 2,
  CP_ADDR_PSAMPLE = 3,
  CP_ADDR_SAMPLE_BYTES = 4,
  CP_ADDR_BCNMAX = 5,
  CP_ADDR_QEQ_FLOW = 6,
  CP_ADDR_BCNMAX_FLOW = 7,
  CP_ADDR_CPID = 8,
  CP_ADDR_SEED = 9,
  CP_ADDR_APPLY = 15
};

/* bcn_type_o / fbcn_type_o */
enum { CP_BCN_NEG = 0, CP_BCN_POS = 1, CP_BCN_MAX = 2 };

/* cfg_err_code_o, and the return value of cp_regs_check (section 3, first failure wins). */
enum {
  CP_CFG_OK = 0,
  CP_CFG_ERR_QEQ = 1,          /* QEQ == 0 */
  CP_CFG_ERR_BCNMAX = 2,       /* BCNMAX <= QEQ */
  CP_CFG_ERR_QEQ_FLOW = 3,     /* QEQ_FLOW == 0 */
  CP_CFG_ERR_BCNMAX_FLOW = 4,  /* BCNMAX_FLOW <= QEQ_FLOW */
  CP_CFG_ERR_SEED = 5,         /* SEED == 0 */
  CP_CFG_ERR_SAMPLE_BYTES = 6, /* SAMPLE_BYTES != 0 && SAMPLE_BYTES < 64 */
  CP_CFG_ERR_ADDR = 7          /* write to an unknown address (10..14) */
};

/* ev_err_code_o (section 5). */
enum { CP_EV_ERR_ENQ_LEN = 1, CP_EV_ERR_DEQ_LEN = 2, CP_EV_ERR_OVERFLOW = 3, CP_EV_ERR_UNDERFLOW = 4 };

/* Indices into cp_bug_names. */
enum {
  CP_BUG_NONE = 0,
  CP_BUG_QOLD_NOT_UPDATED = 1,    /* "cp_qold_not_updated": Qold kept at samples without a message */
  CP_BUG_QUANT_OFF_BY_ONE = 2,    /* "cp_quant_off_by_one": QntzFb clamps at 62 (non-MAX messages) */
  CP_BUG_TABLE_NO_FREE = 3,       /* "cp_table_no_free": flow entries are never freed at q == 0 */
  CP_BUG_RESET_KEEPS_EV_CODE = 4, /* "cp_reset_keeps_ev_code": cp_reset forgets the held
                                       ev_err_code_o register (it keeps its value) */
  CP_BUG_FBCN_EARLY = 5,          /* "cp_fbcn_early": the per-flow BCN and cnt_fbcn_o at t+11, the
                                       contract before the flow table ran a cycle behind */
  CP_BUG_COUNT
};

/* RTL parameters (section 3). */
typedef struct {
  unsigned qw;        /* QW: bits of an occupancy, 16..30; QMax = 2^QW - 1 */
  unsigned num_flows; /* NumFlows: entries of the per-flow table, 2..256 */
  unsigned flow_w;    /* FlowW: bits of a flow id, 1..16 */
  unsigned node_w;    /* NodeW: bits of a node id, 1..16 */
  unsigned max_frame; /* MaxFrame: largest legal frame in bytes, 64..65535 */
  unsigned bug;       /* 0 = none, else index into cp_bug_names */
} cp_cfg_t;

/* The configuration register set (section 3), one field per address 0..9. */
typedef struct {
  uint32_t mode;         /* 0: MODE, 2 bits (CP_MODE_*) */
  uint32_t qeq;          /* 1: QEQ bytes, QW bits */
  uint32_t w;            /* 2: W, 4 bits */
  uint32_t psample;      /* 3: PSAMPLE, sample when lfsr < PSAMPLE */
  uint32_t sample_bytes; /* 4: SAMPLE_BYTES, 0 = random sampling, else byte countdown */
  uint32_t bcnmax;       /* 5: BCNMAX bytes, QW bits */
  uint32_t qeq_flow;     /* 6: QEQ_FLOW bytes, QW bits */
  uint32_t bcnmax_flow;  /* 7: BCNMAX_FLOW bytes, QW bits */
  uint32_t cpid;         /* 8: CPID, 16 bits */
  uint32_t seed;         /* 9: SEED of the sampling LFSR, 32 bits */
} cp_regs_t;

/* One entry of the E2CM per-flow table (section 8). */
typedef struct {
  bool valid;    /* entry in use */
  uint32_t flow; /* flow id it holds, FlowW bits */
  uint64_t q;    /* Q_flow: bytes of the flow counted in the queue, QW bits */
  uint64_t qold; /* Qold_flow: Q_flow at the flow's last answered probe, QW bits */
} cp_flow_entry_t;

/* The sample register: what cycle t's enqueue left for the feedback unit (section 7). */
typedef struct {
  bool sample;       /* t's enqueue was sampled */
  bool answer_probe; /* enq_ok && (E2CM && probe || E2CM-CP && sample) */
  uint32_t src;      /* enq_src_i, NodeW bits */
  uint32_t flow;     /* enq_flow_i, FlowW bits */
  bool tag_ok;       /* enq_tagged_i && enq_tag_cpid_i == CPID */
} cp_sample_reg_t;

/* One set of (f)bcn_* output registers, also the feedback unit's result. */
typedef struct {
  bool valid;      /* (f)bcn_valid_o */
  unsigned type;   /* (f)bcn_type_o, CP_BCN_* */
  uint32_t dst;    /* (f)bcn_dst_o, NodeW bits */
  uint32_t flow;   /* (f)bcn_flow_o, FlowW bits */
  int64_t qoff;    /* (f)bcn_qoff_o, in [-QMax, QMax] (QW+1 bits signed) */
  int64_t qdelta;  /* (f)bcn_qdelta_o, in [-QMax, QMax] (QW+1 bits signed) */
  int64_t fb;      /* (f)bcn_fb_o, |fb| <= 16*QMax (QW+5 bits signed) */
  unsigned qntzfb; /* (f)bcn_qntzfb_o, 0..63 */
} cp_msg_t;

/* The 32-bit event counters (section 4); all wrap at 2^32. */
typedef struct {
  uint32_t frames;  /* cnt_frames_o */
  uint32_t samples; /* cnt_samples_o */
  uint32_t bcn_neg; /* cnt_bcn_neg_o */
  uint32_t bcn_pos; /* cnt_bcn_pos_o */
  uint32_t bcn_max; /* cnt_bcn_max_o */
  uint32_t fbcn;    /* cnt_fbcn_o */
  uint32_t ft_full; /* cnt_ft_full_o */
  uint32_t errors;  /* cnt_errors_o */
} cp_counters_t;

/* Latency contract (section 10): a sampled enqueue in cycle t has its BCN on the outputs
   in cycle t + CP_BCN_LATENCY, with the counters that count it; q_o shows t's events at
   t + CP_Q_LATENCY. The feedback is decided in t+1 (section 7) and then waits
   CP_FB_STAGES cycles (the RTL's pipeline, docs/cp.md section 13) before the output
   registers load it. */
#define CP_BCN_LATENCY 11u
#define CP_Q_LATENCY   1u
#define CP_FB_STAGES   (CP_BCN_LATENCY - 2u)
/* The flow table applies t's events in t+1 (section 8): the per-flow message (with
   cnt_fbcn_o) shows at t + CP_FBCN_LATENCY, one cycle after the queue-level one, and
   ft_full_o for t's enqueue at t + CP_FT_FULL_LATENCY. The model keeps the table's values
   per event cycle (section 8: "exactly what the rules give when each cycle's events are
   applied in that cycle") and only delays what shows them (section 7: "the model computes
   both messages in t+1 and delays them by 10 and 11 cycles"). */
#define CP_FBCN_LATENCY    (CP_BCN_LATENCY + 1u)
#define CP_FT_FULL_LATENCY 2u

/* One stage of the feedback pipeline: a decision of section 7 on its way out. */
typedef struct {
  bool sample;   /* a sample was decided (cnt_samples_o) */
  cp_msg_t bcn;  /* the queue-level message; bcn.valid says whether there is one */
  uint32_t cpid; /* CPID as active in the decision cycle */
  cp_msg_t fbcn; /* the per-flow message */
} cp_fb_stage_t;

/* Cycle t's event pulses, counted at the end of t+1 (visible at t+2, section 10). */
typedef struct {
  bool frame;   /* an accepted enqueue */
  bool ft_full; /* an enqueue found the table full */
  bool ev_err;  /* a cycle with rejected events */
  bool cfg_err; /* a configuration error */
} cp_count_pend_t;

/* Every register of the CP. */
typedef struct {
  /* configuration (section 3) */
  cp_regs_t shadow; /* written by the register port */
  cp_regs_t active; /* what the datapath uses; replaced by a legal APPLY */
  /* queue monitor (section 5) */
  uint64_t q; /* Q, QW bits */
  /* sampler (section 6) */
  common_lfsr32_state_t lfsr; /* random sampling LFSR (common_lfsr32) */
  uint32_t cd;                /* byte countdown */
  /* feedback (section 7) */
  cp_sample_reg_t smp;             /* sample register */
  uint64_t qold;                   /* Qold: Q at the previous sample, QW bits */
  cp_fb_stage_t fbp[CP_FB_STAGES]; /* decided in t+1: [0] in t+2 ... [last] in t+10 */
  cp_msg_t fbcn_late;              /* the per-flow message of fbp[last], in t+11 (section 10) */
  /* per-flow table (section 8) */
  cp_flow_entry_t *ft; /* num_flows entries, allocated by cp_init */
  /* output registers (section 4) */
  cp_msg_t bcn;          /* bcn_valid_o .. bcn_qntzfb_o except bcn_cpid_o */
  uint32_t bcn_cpid;     /* bcn_cpid_o */
  cp_msg_t fbcn;         /* fbcn_*_o */
  bool cfg_err;          /* cfg_err_o */
  unsigned cfg_err_code; /* cfg_err_code_o */
  bool ev_err;           /* ev_err_o */
  unsigned ev_err_code;  /* ev_err_code_o */
  bool ft_full;          /* ft_full_o */
  bool ft_full_pend;     /* t's enqueue found the table full; ft_full_o in t+2 (section 8) */
  cp_counters_t cnt;     /* cnt_*_o */
  cp_count_pend_t pend;  /* event pulses on their way to the counters */
} cp_state_t;

/* Input ports (section 4). Values wider than their port are cut to the port width. */
typedef struct {
  bool cfg_we;           /* cfg_we_i */
  uint32_t cfg_addr;     /* cfg_addr_i, 4 bits */
  uint32_t cfg_wdata;    /* cfg_wdata_i */
  bool enq_valid;        /* enq_valid_i */
  uint32_t enq_len;      /* enq_len_i, 16 bits */
  uint32_t enq_flow;     /* enq_flow_i, FlowW bits */
  uint32_t enq_src;      /* enq_src_i, NodeW bits */
  bool enq_probe;        /* enq_probe_i */
  bool enq_tagged;       /* enq_tagged_i */
  uint32_t enq_tag_cpid; /* enq_tag_cpid_i, 16 bits */
  bool deq_valid;        /* deq_valid_i */
  uint32_t deq_len;      /* deq_len_i, 16 bits */
  uint32_t deq_flow;     /* deq_flow_i, FlowW bits */
} cp_in_t;

/* Output ports (section 4). Signed fields are values; the binding makes them two's
   complement port bits. */
typedef struct {
  uint32_t q;            /* q_o, QW bits */
  bool bcn_valid;        /* bcn_valid_o */
  unsigned bcn_type;     /* bcn_type_o */
  uint32_t bcn_dst;      /* bcn_dst_o */
  uint32_t bcn_flow;     /* bcn_flow_o */
  uint32_t bcn_cpid;     /* bcn_cpid_o */
  int64_t bcn_qoff;      /* bcn_qoff_o, QW+1 bits signed */
  int64_t bcn_qdelta;    /* bcn_qdelta_o, QW+1 bits signed */
  int64_t bcn_fb;        /* bcn_fb_o, QW+5 bits signed */
  unsigned bcn_qntzfb;   /* bcn_qntzfb_o */
  bool fbcn_valid;       /* fbcn_valid_o */
  unsigned fbcn_type;    /* fbcn_type_o */
  uint32_t fbcn_dst;     /* fbcn_dst_o */
  uint32_t fbcn_flow;    /* fbcn_flow_o */
  int64_t fbcn_qoff;     /* fbcn_qoff_o */
  int64_t fbcn_qdelta;   /* fbcn_qdelta_o */
  int64_t fbcn_fb;       /* fbcn_fb_o */
  unsigned fbcn_qntzfb;  /* fbcn_qntzfb_o */
  bool cfg_err;          /* cfg_err_o */
  unsigned cfg_err_code; /* cfg_err_code_o */
  bool ev_err;           /* ev_err_o */
  unsigned ev_err_code;  /* ev_err_code_o */
  bool ft_full;          /* ft_full_o */
  uint32_t cnt_frames;   /* cnt_frames_o */
  uint32_t cnt_samples;  /* cnt_samples_o */
  uint32_t cnt_bcn_neg;  /* cnt_bcn_neg_o */
  uint32_t cnt_bcn_pos;  /* cnt_bcn_pos_o */
  uint32_t cnt_bcn_max;  /* cnt_bcn_max_o */
  uint32_t cnt_fbcn;     /* cnt_fbcn_o */
  uint32_t cnt_ft_full;  /* cnt_ft_full_o */
  uint32_t cnt_errors;   /* cnt_errors_o */
} cp_out_t;

/* At most this many table entries change in one cycle: the enqueue's, the dequeue's and
   the feedback unit's Qold_flow write. */
#define CP_FT_MAX_WRITES 3

typedef struct {
  unsigned idx;      /* entry index */
  cp_flow_entry_t e; /* its new value */
} cp_ft_write_t;

/* What the clock edge does: the next value of every register. */
typedef struct {
  cp_regs_t shadow, active;
  uint64_t q;
  common_lfsr32_next_t lfsr;
  uint32_t cd;
  cp_sample_reg_t smp;
  uint64_t qold;
  cp_fb_stage_t fbp[CP_FB_STAGES];
  cp_msg_t fbcn_late;
  unsigned ft_nwr; /* entries written, distinct indices */
  cp_ft_write_t ft_wr[CP_FT_MAX_WRITES];
  bool ft_clear_qold; /* legal APPLY: every Qold_flow <- 0, after ft_wr */
  bool ft_invalidate; /* MODE off this cycle: the table empties (section 8) */
  cp_msg_t bcn;
  uint32_t bcn_cpid;
  cp_msg_t fbcn;
  bool cfg_err;
  unsigned cfg_err_code;
  bool ev_err;
  unsigned ev_err_code;
  bool ft_full;
  bool ft_full_pend;
  cp_counters_t cnt;
  cp_count_pend_t pend;
  /* Decoded for testbenches and scoreboards; cp_commit ignores them. */
  bool apply_ok; /* a legal APPLY this cycle */
  bool enq_ok;   /* the enqueue is accepted (section 5) */
  bool deq_ok;   /* the dequeue is accepted */
  bool sample;   /* the enqueue is sampled (section 6) */
} cp_next_t;

/* Validate cfg, allocate the flow table, reset. 0, -EINVAL (bad cfg, one line on stderr
   naming the field) or -ENOMEM. On failure the state is zeroed, so cp_free is safe. */
int cp_init(cp_state_t *s, const cp_cfg_t *cfg);
/* State after rst_ni: every register at its reset value, the table empty. */
void cp_reset(cp_state_t *s, const cp_cfg_t *cfg);
/* Pure: this cycle's outputs (from the state only) and the next state. Does not modify s. */
void cp_eval(const cp_cfg_t *cfg, const cp_state_t *s, const cp_in_t *in, cp_out_t *out, cp_next_t *nx);
/* The clock edge. */
void cp_commit(const cp_cfg_t *cfg, cp_state_t *s, const cp_next_t *nx);
void cp_free(cp_state_t *s);

extern const char *const cp_bug_names[]; /* NULL-terminated, [0] = "none" */

/* The section 3 reset values (byte registers not yet cut to QW bits). */
void cp_regs_default(cp_regs_t *r);
/* The APPLY checks of section 3 on r as the register port would store it (each field cut
   to its register width). Returns 0 or the first failed code 1..6; on failure writes a
   one-line message naming the field to msg (if msg != NULL), e.g.
   "cp: BCNMAX=70000 must be above QEQ=76800". */
int cp_regs_check(const cp_regs_t *r, unsigned qw, char *msg, size_t n);
/* The form section 3 gives the C model's check: every failed APPLY check, and every field
   that does not fit its register, gets one line on stderr. 0 or -EINVAL. */
int cp_regs_validate(const cp_regs_t *r, unsigned qw);
/* PSAMPLE for a sampling probability p: round(p * 2^32), clamped to 0..0xFFFFFFFF. */
uint32_t cp_psample_from_probability(double p);

#ifdef __cplusplus
}
#endif

#endif /* CP_H */
