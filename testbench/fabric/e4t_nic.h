/* elite4 fabric endpoint: the NIC at a node (an Elan4 reduced to what the
 * switches see of it).
 *
 * Sending: packets queue at the source (bounded; a packet that finds the
 * queue full is refused and counted). A packet takes a VC (policy below) and
 * is sent HEAD (its source route), BODY words (word 0 = id), TAIL (CRC-32 of
 * the body), one flit per cycle, only with a credit for that VC; the VC then
 * waits for the packet's token (QsNet: one packet per VC in flight). An ack
 * frees the VC; a nack resends the same packet on the same VC at once.
 * A token that comes back before our TAIL has gone (a switch dropped the
 * packet at its HEAD) is kept until the TAIL has gone, as the switch does.
 * Receiving: every data flit is consumed on arrival and its credit returned
 * in the same cycle; a complete packet is checked by the scoreboard and
 * answered with a token (ack if intact and expected, else nack). Tokens go
 * before data on the NIC's output.
 * VC policies: free (a packet takes the lowest free VC: up to 2 in flight),
 * rr (packet k of a node is bound to VC k mod 2 when created), vc0 (VC 0
 * only: one packet in flight). */
#ifndef E4T_NIC_H
#define E4T_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "cosim.h"
#include "e4t_link.h"
#include "e4t_records.h"
#include "e4t_score.h"
#include "e4t_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Planted testbench bugs (negative tests, --inject-bug=NAME; names in
 * e4t_fab_bug_names, e4t_fabric.c; the check each one fires: docs/fabric.md
 * "Checks and their negatives"). Each breaks one property of the NIC, the
 * driver's records or its tables, so that exactly one check fires first. */
enum {
  E4T_BUG_ROUTE_WRONG_PORT = 1u << 0,  /* the last down tag points at the neighbour's port */
  E4T_BUG_NIC_NO_TOKEN = 1u << 1,      /* a destination never answers with a token */
  E4T_BUG_FOLD_DROP = 1u << 2,         /* records off: some packets retire unfolded */
  E4T_BUG_TRAFFIC_SKEW = 1u << 3,      /* the generator draws destinations off pattern */
  E4T_BUG_NACK_AS_ACK = 1u << 4,       /* a destination acks a packet it refused */
  E4T_BUG_BODY_FLIP = 1u << 5,         /* body word 1 sent wrong (CRC over what is sent) */
  E4T_BUG_BODY_EXTRA = 1u << 6,        /* one body word too many (CRC over what is sent) */
  E4T_BUG_RX_DROP_HEAD = 1u << 7,      /* a NIC's receive path loses its first HEAD */
  E4T_BUG_RX_TAIL_OPEN = 1u << 8,      /* a NIC's receive path leaves its first packet open after its TAIL */
  E4T_BUG_RX_TAIL_FLIP = 1u << 9,      /* a NIC's receive path flips bit 0 of its first TAIL */
  E4T_BUG_CREDIT_SKIP = 1u << 10,      /* a NIC's first flit takes no credit */
  E4T_BUG_RECORD_LEAK = 1u << 11,      /* a NIC makes a record for a packet it never sends */
  E4T_BUG_NACK_FOREVER = 1u << 12,     /* the destination of packet 0 refuses it every time */
  E4T_BUG_ACK_RESEND = 1u << 13,       /* the first ack of the run is taken as a nack */
  E4T_BUG_HOP_DEP_LATE = 1u << 14,     /* hop records: departure stamped a cycle late */
  E4T_BUG_SEQ_SKIP = 1u << 15,         /* a source numbers its packets per VC 0, 2, 4, ... */
  E4T_BUG_TAIL_TIME_LATE = 1u << 16,   /* a packet's TAIL arrival stamped a cycle late */
  E4T_BUG_MODEL_GRANT_LATE = 1u << 17, /* hop records: a C-model switch's grant a cycle late */
  E4T_BUG_RETRY_UNCOUNTED = 1u << 18,  /* a nacked packet's retry is not counted */
  E4T_BUG_ROUTE_PAD = 1u << 19,        /* unused route tags 0 instead of 0xF */
  E4T_BUG_RECORDS_CAP = 1u << 20,      /* the record table refuses a 101st packet */
  E4T_BUG_TABLE_SWAP = 1u << 21,       /* the driver's wiring table swaps two up ports of switch 0 */
  E4T_BUG_ROUTE_TOP_UP = 1u << 22,     /* the top switch's tag names up port 4 (tied off) */
  E4T_BUG_AWAIT_LOST = 1u << 23,       /* a source forgets it waits for its first packet's token */
  E4T_BUG_ID_WRONG = 1u << 24,         /* body word 0 (the id) sent with bit 30 set */
  E4T_BUG_VC_RECORD = 1u << 25,        /* a packet's record names the other VC than it is sent on */
  E4T_BUG_HEAD_TIME_FAR = 1u << 26     /* statistics: HEAD latency of 3+-switch packets folded 1 late */
};
#define E4T_BUG_N 27 /* bits above; e4t_fabric.c checks the name table against it */

typedef enum { E4T_VC_FREE = 0, E4T_VC_RR, E4T_VC_ZERO } e4t_vc_policy_t;
const char *e4t_vc_policy_name(e4t_vc_policy_t p);
int e4t_vc_policy_parse(const char *s, e4t_vc_policy_t *p);

/* What all NICs share: the fabric's tables, parameters and counters. */
typedef struct {
  const e4t_topo_t *topo;
  e4t_records_t *rec;
  e4t_score_t *sb;
  e4t_vc_policy_t policy;
  unsigned nbody;            /* body words per packet (>= 1: the id) */
  double nack_rate;          /* a destination refuses an intact packet with this chance */
  unsigned bugs;             /* planted testbench bugs, E4T_BUG_* */
  uint64_t win_from, win_to; /* measurement window [from, to) */
  /* counters */
  uint64_t outstanding; /* packets created and not done */
  uint64_t refused;     /* packets refused by a full source queue */
  uint64_t refused_win;
  uint64_t win_flits; /* flits of packets delivered in the window */
  uint64_t retries, nacks_sent;
  uint64_t last_progress; /* last cycle a NIC received a flit or a token */
  bool bug_fired;         /* a planted once-per-run bug has acted */
} e4t_nic_env_t;

typedef struct {
  uint16_t node;
  unsigned qcap;
  uint32_t *q[E4T_VCS];
  unsigned qh[E4T_VCS], qn[E4T_VCS];
  unsigned rr_bind; /* rr policy: the VC of the next packet created */
  /* sending, per VC */
  int64_t cur[E4T_VCS]; /* packet on the VC, -1 none */
  unsigned flit_i[E4T_VCS];
  bool sending[E4T_VCS], await_tok[E4T_VCS];
  int8_t early_tok[E4T_VCS];
  unsigned credits[E4T_VCS];
  unsigned tx_rr;
  /* receiving, per VC */
  bool rx_open[E4T_VCS];
  unsigned rx_n[E4T_VCS];
  uint32_t rx_head[E4T_VCS], rx_head_cycle[E4T_VCS];
  uint32_t rx_words[E4T_VCS][E4T_MAX_BODY];
  int8_t tok_due[E4T_VCS];
  cosim_rng_t rng_rx; /* the destination's refusals (nack_rate) */
  uint64_t tx_flits, rx_flits;
  bool bug_fired; /* a planted one-shot bug has acted at this NIC */
} e4t_nic_t;

int e4t_nic_init(e4t_nic_t *n, unsigned node, unsigned qcap, uint64_t seed);
void e4t_nic_free(e4t_nic_t *n);
/* The traffic generator's packet to dst, created in cycle c: queued, or refused. */
void e4t_nic_enqueue(e4t_nic_t *n, e4t_nic_env_t *env, unsigned dst, uint64_t c);
/* One cycle: rx = what the leaf switch sent D cycles ago; fills tx. */
void e4t_nic_step(e4t_nic_t *n, e4t_nic_env_t *env, uint64_t c, const e4t_flit_t *rx, e4t_flit_t *tx);
/* Nothing queued, in flight or owed. */
bool e4t_nic_idle(const e4t_nic_t *n);

#ifdef __cplusplus
}
#endif
#endif
