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
  bool bug_route;            /* planted fabric bug fab_route_wrong_port */
  bool bug_no_token;         /* planted fabric bug fab_nic_no_token */
  uint64_t win_from, win_to; /* measurement window [from, to) */
  /* counters */
  uint64_t outstanding; /* packets created and not done */
  uint64_t refused;     /* packets refused by a full source queue */
  uint64_t refused_win;
  uint64_t win_flits; /* flits of packets delivered in the window */
  uint64_t retries, nacks_sent;
  uint64_t last_progress; /* last cycle a NIC received a flit or a token */
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
