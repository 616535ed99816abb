/*
 * link -- cycle-accurate C model of one direction of the seed-004 physical link:
 * serialiser with training and exact pacing (link_tx.c), cable delay line
 * (link_wire.c), receiver alignment and per-VC CRC check (link_rx.c), and the
 * reverse credit sideband (link.c). Spec: docs/link.md.
 *
 * One link_eval + link_commit pair is one clock cycle. link_eval is pure: it
 * returns this cycle's outputs (all from registers, docs/link.md §3) and the
 * pending next state; link_commit is the clock edge.
 */
#ifndef LINK_H
#define LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/common_crc32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter ranges (docs/link.md §2). */
#define LINK_MAX_VCS          4 /* NumVcs is 2 or 4 */
#define LINK_MAX_RATE_DEN     1024
#define LINK_MIN_CORE_PS      1000
#define LINK_MAX_CORE_PS      100000
#define LINK_MAX_CABLE_M      100
#define LINK_MAX_WIRE_CYCLES  256
#define LINK_MAX_ALIGN_CYCLES 16
#define LINK_MAX_TRAIN_CYCLES 4095
#define LINK_PS_PER_M         4000u /* Table 3: 4 ns per metre */
#define LINK_BIT_PS           750u  /* 1,333.3 Mbit/s per wire */
#define LINK_CRC_LAG          4     /* crc_err_o: cycles after its TAIL on rx_*_o */

/* Flit kinds: elite4's (docs/elite4.md §3). */
enum { LINK_HEAD = 0, LINK_BODY = 1, LINK_TAIL = 2, LINK_TOKEN = 3 };

/* Indices into link_bug_names (docs/link.md §9). */
enum {
  LINK_BUG_NONE = 0,
  LINK_BUG_SLOT_LATE = 1,       /* "link_slot_late": slot when acc + RateNum > RateDen */
  LINK_BUG_ERR_FORWARDS = 2,    /* "link_err_forwards": an off-slot flit is flagged and forwarded */
  LINK_BUG_ERR_SILENT = 3,      /* "link_err_silent": an off-slot flit is dropped unflagged */
  LINK_BUG_CRC_ONE_VC = 4,      /* "link_crc_one_vc": one CRC register shared by all VCs */
  LINK_BUG_CREDIT_SHORT = 5,    /* "link_credit_short": reverse path one cycle short */
  LINK_BUG_WIRE_SHORT = 6,      /* "link_wire_short": forward cable one stage short */
  LINK_BUG_RESET_KEEPS_CNT = 7, /* "link_reset_keeps_cnt": reset forgets cnt_crc_err */
  LINK_BUG_COUNT
};

typedef struct {
  unsigned num_vcs;      /* NumVcs: 2 or 4 */
  unsigned rate_num;     /* RateNum: 1..RateDen */
  unsigned rate_den;     /* RateDen: 1..1024 */
  unsigned core_ps;      /* CorePs: 1000..100000 */
  unsigned cable_m;      /* CableM: 0..100 */
  unsigned align_cycles; /* AlignCycles: 1..16 */
  unsigned train_cycles; /* TrainCycles: 0..4095 */
  unsigned bug;          /* 0 = none, else index into link_bug_names */
} link_cfg_t;

/* A flit (docs/link.md §3); an empty stage is all zeros. */
typedef struct {
  bool valid;
  unsigned kind; /* 2 bits */
  unsigned vc;   /* VcW bits */
  uint32_t data;
} link_flit_t;

/* A delay line of n stages of words (a packed flit, or credit bits); n = 0 passes through. */
typedef struct {
  unsigned n;
  unsigned head; /* the oldest stage: the line's output */
  uint64_t *w;   /* n words */
} link_wire_t;

typedef struct {
  unsigned tcnt; /* training counter, 0..TrainCycles */
  unsigned acc;  /* pacing accumulator, 0..RateDen-1 */
  uint64_t txq;  /* tx register (packed flit) */
  bool err;      /* tx_err_o */
  bool accepted; /* a flit was accepted last cycle (cnt_tx_flits' increment) */
} link_tx_state_t;

typedef struct {
  uint64_t rxq; /* output register (packed flit) */
  bool crcerr;  /* raw mismatch of the TAIL in rxq (crc_err_o 4 cycles later) */
  common_crc32_state_t crc[LINK_MAX_VCS];
} link_rx_state_t;

typedef struct {
  link_tx_state_t tx;
  link_wire_t fwd;   /* cable, forward: WireCycles stages */
  link_wire_t align; /* alignment line: AlignCycles - 1 stages */
  link_rx_state_t rx;
  uint64_t crq;        /* credit register at the rx end */
  link_wire_t rev;     /* cable, reverse: WireCycles stages */
  link_wire_t ralign;  /* reverse alignment: AlignCycles stages (its last is tx_credit_o) */
  link_wire_t errline; /* the CRC flag's lag: 4 stages after rx.crcerr (docs/link.md §6.1) */
  uint32_t cnt_tx_flits, cnt_tx_err, cnt_rx_flits, cnt_crc_err;
} link_state_t;

typedef struct {
  bool tx_valid;
  unsigned tx_kind, tx_vc;
  uint32_t tx_data;
  unsigned rx_credit; /* bit v: VC v */
} link_in_t;

typedef struct {
  bool slot, up, tx_err;
  unsigned tx_credit; /* bit v */
  link_flit_t rx;
  bool crc_err;
  uint32_t cnt_tx_flits, cnt_tx_err, cnt_rx_flits, cnt_crc_err;
} link_out_t;

typedef struct {
  link_tx_state_t tx;
  uint64_t fwd_in, align_in, rev_in, ralign_in, err_in; /* the word each line takes at the edge */
  link_rx_state_t rx;
  uint64_t crq;
  uint32_t cnt_tx_flits, cnt_tx_err, cnt_rx_flits, cnt_crc_err;
} link_next_t;

/* ceil(cable_m * 4000 / core_ps): the cable in core cycles (docs/link.md §2). */
unsigned link_wire_cycles(unsigned core_ps, unsigned cable_m);
/* L = 1 + WireCycles + AlignCycles (docs/link.md §7), with cfg's bug applied. */
unsigned link_latency(const link_cfg_t *cfg);

/* Validate cfg (one line on stderr naming the field, -EINVAL), allocate and reset. */
int link_init(link_state_t *s, const link_cfg_t *cfg);
void link_reset(link_state_t *s, const link_cfg_t *cfg);
void link_eval(const link_cfg_t *cfg, const link_state_t *s, const link_in_t *in, link_out_t *out,
               link_next_t *nx);
void link_commit(const link_cfg_t *cfg, link_state_t *s, const link_next_t *nx);
void link_free(link_state_t *s);

extern const char *const link_bug_names[]; /* NULL-terminated, [0] = "none" */

/* --- sub-blocks (docs/link.md §8), used by link.c --- */
uint64_t link_flit_pack(const link_flit_t *f);
link_flit_t link_flit_unpack(uint64_t w);
int link_wire_init(link_wire_t *w, unsigned n);
void link_wire_reset(link_wire_t *w);
uint64_t link_wire_out(const link_wire_t *w, uint64_t in);  /* this cycle's output */
uint64_t link_wire_next(const link_wire_t *w, uint64_t in); /* next cycle's output (n >= 1) */
void link_wire_commit(link_wire_t *w, uint64_t in);         /* the edge: in enters */
void link_wire_free(link_wire_t *w);
/* tx: outputs slot_o, up_o, tx_err_o and the tx register; next state; the accepted flag */
void link_tx_eval(const link_cfg_t *cfg, const link_tx_state_t *s, const link_in_t *in, bool *slot_o,
                  bool *up_o, link_tx_state_t *nx, bool *accept, bool *offslot);
/* rx: f = the word entering rxq; next state */
void link_rx_eval(const link_cfg_t *cfg, const link_rx_state_t *s, uint64_t f, link_rx_state_t *nx);

#ifdef __cplusplus
}
#endif

#endif /* LINK_H */
