/*
 * ibsw -- cycle-accurate C model of the InfiniBand 24-port switch with per-port power
 * gating. Spec: docs/ibsw.md (written from it alone; section numbers below are its).
 *
 * One ibsw_eval + ibsw_commit pair is one clock cycle. ibsw_eval is pure: it returns this
 * cycle's outputs (every output comes from a register, section 4) and the next state;
 * ibsw_commit is the clock edge. The units of section 15 are C functions:
 * ibsw_input_unit.c (ARRIVE 5.1, front 5.3), ibsw_route.c (5.2 and the LFT 5.7),
 * ibsw_alloc.c (VA, SA, crossbar 5.4-5.6), ibsw_port_fsm.c (6), ibsw_sma.c (7),
 * ibsw_counters.c (counters, sampler, power meter: 8, 9) and ibsw.c (top).
 */
#ifndef IBSW_H
#define IBSW_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IBSW_MAX_PORTS 31
#define IBSW_MAXP1     32 /* ports 0 (the SMA) .. 31 */
#define IBSW_MAX_LANES 8  /* V+1 <= 8 */
#define IBSW_MAD_WORDS 16
#define IBSW_BAD_TAIL  UINT64_C(0xBAD0BAD0BAD0BAD0)

enum { IBSW_HEAD = 0, IBSW_BODY = 1, IBSW_TAIL = 2, IBSW_SYM = 3 };
enum { IBSW_SYM_TS1 = 1, IBSW_SYM_TS2 = 2, IBSW_SYM_DRAINED = 3 };
/* PortPhysicalState and PortState codes (section 4) */
enum {
  IBSW_SLEEP = 1,
  IBSW_POLLING = 2,
  IBSW_DISABLED = 3,
  IBSW_TRAINING = 4,
  IBSW_LINKUP = 5,
  IBSW_LER = 6
};
enum { IBSW_DOWN = 1, IBSW_INIT = 2, IBSW_ARMED = 3, IBSW_ACTIVE = 4 };
/* counters (section 8.1), the order of ibsw_out_t.cnt */
enum {
  IBSW_C_XMIT_DATA,
  IBSW_C_RCV_DATA,
  IBSW_C_XMIT_PKTS,
  IBSW_C_RCV_PKTS,
  IBSW_C_XMIT_WAIT,
  IBSW_C_SYMBOL_ERR,
  IBSW_C_RCV_ERR,
  IBSW_C_RELAY_ERR,
  IBSW_C_XMIT_DISCARDS,
  IBSW_C_VL15_DROPPED,
  IBSW_C_LINK_DOWNED,
  IBSW_C_EXT_XMIT_DATA,
  IBSW_C_EXT_RCV_DATA,
  IBSW_C_EXT_XMIT_PKTS,
  IBSW_C_EXT_RCV_PKTS,
  IBSW_NCNT
};
#define IBSW_NEV 11 /* event kinds: the first 11 counters (the extended ones reuse 0..3) */

/* Planted bugs (docs/ibsw.md section 14's negatives table), one list for the
 * enum, the model's names and the binding's (which adds its own after them). */
#define IBSW_BUGS(X)                                              \
  X(NONE, "none")                                                 \
  X(LFT_ENTRY_OFF_BY_ONE, "lft_entry_off_by_one")                 \
  X(LFT_BLOCK_APPLIES_SAME_CYCLE, "lft_block_applies_same_cycle") \
  X(NO_PATH_CODED_BAD_EGRESS, "no_path_coded_bad_egress")         \
  X(ROUTE_CYCLES_SHORT, "route_cycles_short")                     \
  X(VL15_IN_ROUND_ROBIN, "vl15_in_round_robin")                   \
  X(DRAIN_SINKS_PEND, "drain_sinks_pend")                         \
  X(LANE_POP_WRONG_ORDER, "lane_pop_wrong_order")                 \
  X(DRAINED_BEFORE_CREDITS, "drained_before_credits")             \
  X(POWER_COUNTS_DISABLED, "power_counts_disabled")               \
  X(SAME_STATE_ACCEPTED, "same_state_accepted")                   \
  X(ARMED_FROM_DOWN, "armed_from_down")                           \
  X(TRAINING_IGNORES_TS2, "training_ignores_ts2")                 \
  X(COUNTER_WRAPS, "counter_wraps")                               \
  X(SAMPLE_SET_WHILE_RUNNING, "sample_set_while_running")         \
  X(ERR_ONE_CYCLE_EARLY, "err_one_cycle_early")                   \
  X(OVERFLOW_DROPS_ALL_LANES, "overflow_drops_all_lanes")         \
  X(LINK_LOSS_NOT_COUNTED, "link_loss_not_counted")
#define IBSW_BUG_ENUM(id, name) IBSW_BUG_##id,
#define IBSW_BUG_NAME(id, name) name,
enum { IBSW_BUGS(IBSW_BUG_ENUM) IBSW_BUG_COUNT };
extern const char *const ibsw_bug_names[]; /* NULL-terminated, [0] = "none" */

typedef struct {
  unsigned num_ports, num_data_vls, buf_depth, buf15_depth, route_cycles;
  uint32_t wake_cycles;
  unsigned lft_blocks, link_speed, cnt_w, ext_w, boot_active;
  unsigned bug;
} ibsw_cfg_t;

/* Inputs of one cycle; per-port arrays are indexed by the IBA port number n = 1..P. */
typedef struct {
  bool valid[IBSW_MAXP1];
  uint8_t kind[IBSW_MAXP1], vl[IBSW_MAXP1];
  uint64_t data[IBSW_MAXP1];
  uint8_t credit[IBSW_MAXP1]; /* bit l: lane l (bit V = VL15) */
  bool cfg_valid;
  uint8_t cfg_sel;
  uint16_t cfg_addr, cfg_data;
} ibsw_in_t;

typedef struct {
  bool valid[IBSW_MAXP1];
  uint8_t kind[IBSW_MAXP1], vl[IBSW_MAXP1];
  uint64_t data[IBSW_MAXP1];
  uint8_t credit[IBSW_MAXP1];
  uint8_t port_state[IBSW_MAXP1], phys_state[IBSW_MAXP1];
  bool draining[IBSW_MAXP1], power_on[IBSW_MAXP1];
  uint32_t power_mw;
  uint64_t energy;
  bool err[IBSW_MAXP1];
  uint8_t err_code[IBSW_MAXP1];
  bool sma_err;
  uint8_t sma_err_code;
  uint8_t sample_status[IBSW_MAXP1];
  uint64_t cnt[IBSW_MAXP1][IBSW_NCNT];
  uint64_t cnt_sma_dropped;
} ibsw_out_t;

/* A buffer entry (section 5.0). */
typedef struct {
  uint64_t data;
  uint8_t kind, egr, drop;
} ibsw_entry_t;

/* Registered flit: staging (SA choice), output register, the SMA's capture register. */
typedef struct {
  uint8_t valid, kind, vl, synth;
  uint64_t data;
} ibsw_flit_t;

enum { IBSW_RX_IDLE, IBSW_RX_OPEN, IBSW_RX_DROPPING };
enum { IBSW_IST_IDLE, IBSW_IST_ROUTE, IBSW_IST_WAIT, IBSW_IST_ACTIVE };
enum { IBSW_OST_FREE, IBSW_OST_BUSY };
enum { IBSW_SMA_IDLE, IBSW_SMA_RECV, IBSW_SMA_EXEC, IBSW_SMA_SNAP, IBSW_SMA_RESP };
enum { IBSW_SAMPLE_DONE, IBSW_SAMPLE_STARTED, IBSW_SAMPLE_RUNNING };

typedef struct {
  uint16_t rd, cnt; /* FIFO read pointer and occupancy */
  uint8_t rxs, ist, rc, hsent;
} ibsw_lane_t;

typedef struct {
  uint8_t phys, pstate, draining, target, sent_drained, peer_drained, seen2;
  uint32_t tcnt;
} ibsw_port_t;

typedef struct {
  uint8_t status, win, sel[4];
  uint32_t start, interval;
  uint64_t wait, run;
  uint64_t res[4];
  uint32_t qd;
} ibsw_sampler_t;

typedef struct {
  uint8_t state, ingress, nflit, synth;
  uint64_t mad[IBSW_MAD_WORDS];
  /* decided at execute, used by the snapshot */
  uint8_t echo, resp_len, idx, cls, dropped;
  uint16_t attr, mod, status;
  uint64_t resp[IBSW_MAD_WORDS];
} ibsw_sma_t;

/* Every register but the buffers' memory and the LFT (eval copies it into next). */
typedef struct {
  uint64_t cycle; /* cycles since reset: slot(c), section 3.4 */
  ibsw_lane_t ln[IBSW_MAXP1][IBSW_MAX_LANES];
  uint8_t ost[IBSW_MAXP1][IBSW_MAX_LANES], owner[IBSW_MAXP1][IBSW_MAX_LANES];
  uint8_t vrr[IBSW_MAXP1][IBSW_MAX_LANES];
  uint16_t cred[IBSW_MAXP1][IBSW_MAX_LANES];
  uint32_t pend[IBSW_MAXP1];
  uint8_t srr[IBSW_MAXP1];
  ibsw_flit_t stg[IBSW_MAXP1], oreg[IBSW_MAXP1], sma_in;
  uint8_t crout[IBSW_MAXP1];
  ibsw_port_t port[IBSW_MAXP1];
  uint16_t lft_top;
  /* events of the previous cycle (section 8.1's two-cycle lag) and what they became */
  uint16_t ev[IBSW_MAXP1][IBSW_NEV];
  uint16_t ev_err[IBSW_MAXP1]; /* bit k: error code k */
  uint8_t err_r[IBSW_MAXP1], err_code_r[IBSW_MAXP1];
  uint64_t cnt[IBSW_MAXP1][IBSW_NCNT];
  uint16_t sma_ev_err;
  uint8_t sma_ev_n, sma_err_r, sma_err_code_r;
  uint64_t sma_dropped;
  ibsw_sampler_t smp[IBSW_MAXP1];
  ibsw_sma_t sma;
  uint32_t pw;
  uint64_t energy;
} ibsw_regs_t;

typedef struct {
  ibsw_regs_t r;
  ibsw_entry_t *mem[IBSW_MAXP1][IBSW_MAX_LANES]; /* FIFO memories */
  uint8_t *lft;                                  /* LftEntries one-byte entries */
  ibsw_entry_t *pool;
} ibsw_state_t;

/* Next state: the registers, plus the memory writes the edge makes. */
typedef struct {
  ibsw_regs_t r;
  uint8_t push[IBSW_MAXP1][IBSW_MAX_LANES];
  uint16_t push_pos[IBSW_MAXP1][IBSW_MAX_LANES];
  ibsw_entry_t push_e[IBSW_MAXP1][IBSW_MAX_LANES];
  uint8_t lft_blk_valid;
  uint16_t lft_blk;
  uint8_t lft_blk_e[64];
  uint8_t lft_cfg_valid;
  uint16_t lft_cfg_addr;
  uint8_t lft_cfg_val;
} ibsw_next_t;

/* Checks every parameter's legal range (section 2); on failure prints a message naming
   the field to stderr and returns nonzero. Allocates the memories. */
int ibsw_init(ibsw_state_t *s, const ibsw_cfg_t *cfg);
void ibsw_free(ibsw_state_t *s);
void ibsw_reset(ibsw_state_t *s, const ibsw_cfg_t *cfg);
void ibsw_eval(const ibsw_cfg_t *cfg, const ibsw_state_t *s, const ibsw_in_t *in, ibsw_out_t *out,
               ibsw_next_t *nx);
void ibsw_commit(const ibsw_cfg_t *cfg, ibsw_state_t *s, const ibsw_next_t *nx);
/* A quiet switch (docs/ibsw.md §12) skipped for k cycles: only the cycle count (the slot
   divider) and the energy register move; ibsw_skip_quiet applies that, ibsw_energy_after
   reads the energy k cycles on without changing the state. */
void ibsw_skip_quiet(ibsw_state_t *s, uint64_t k);
uint64_t ibsw_energy_after(const ibsw_state_t *s, uint64_t k);
/* Every register, buffer entry, LFT entry and pending next-state field gets a legal value
   that is not its reset value; only ibsw_reset brings them back. */
void ibsw_scramble(ibsw_state_t *s, ibsw_next_t *nx, const ibsw_cfg_t *cfg, uint64_t seed);

/* Derived values (section 2). */
unsigned ibsw_lane_depth(const ibsw_cfg_t *cfg, unsigned lane);
unsigned ibsw_lft_entries(const ibsw_cfg_t *cfg);
unsigned ibsw_counter_width(const ibsw_cfg_t *cfg, unsigned counter);
uint32_t ibsw_port_power_mw(const ibsw_cfg_t *cfg); /* Wp of section 9 */

#ifdef __cplusplus
}
#endif
#endif
