/* An InfiniBand host (HCA) endpoint for the ibsw fabric (docs/ibsw.md §12),
 * an instance type of the fabric core with one port of the switch's kind.
 *
 * Link: per-lane credits with the switch's depths (BufDepth per data VL,
 * Buf15Depth for VL15), one flit per cycle (DDR 4x), whole packets (a packet's
 * flits leave back to back on its VL, waiting only for credits; VL15 MADs go
 * between packets, before data). Without BootActive the port trains as the
 * switch's does (§6.2, §6.5): TS1 while polling, TS2 for WakeCycles once a
 * TS1/TS2 is seen, LinkUp when a TS2 was seen; data waits for LinkUp.
 * Every flit received is accepted at once (its credit goes back the next
 * cycle).
 *
 * Packets: Bernoulli arrivals of `len`-flit packets at `load` flits/cycle
 * (or each phase's load, until the last phase ends), `quota` of them, from
 * the start cycle on (drawn ahead, so wake() names the
 * next one and the host can be skipped exactly); destination by the traffic
 * pattern (NPB-like: the next entry of the host's cyclic list, ibf_npb.h); the VL the routing gives (DOR's dateline class). Data HEAD (§3.2):
 * DLID (the flow's tree's LID of the destination, route_lft_dlid), SLID (the
 * source's base LID), then [31:20] source node, [19:0] the flow's sequence number;
 * BODY k: a hash of (source, destination, sequence, k); TAIL: bit 63 "in the
 * statistics half", [47:0] the creation cycle.
 *
 * The dynamic SM's fence: a packet whose destination is held waits in the
 * source queue; the first packet not held goes (a flow's packets keep their
 * order); inflight[d] counts packets sent for d until their TAIL arrives.
 *
 * The receiving side is the host's own scoreboard (ibf_world_t): per flow
 * (source, destination) the next sequence number — a HEAD with another is
 * check ibfab.order (lost, duplicated or overtaken); a DLID that is not one
 * of its own 2^LMC is ibfab.misroute; with multiple spanning trees a packet on
 * a VL its DLID's tree does not own (VL mod T != the tree of the LMC bits) is
 * ibfab.vl; a BODY whose hash differs, or a TAIL that does not
 * close a HEAD, ibfab.integrity. Loss at the end (created but never
 * delivered) is the driver's check ibfab.loss. */
#ifndef NETCOSIM_IBF_HOST_H
#define NETCOSIM_IBF_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/core/route_lft.h"

enum { IBF_UNIFORM = 0, IBF_BITREV = 1, IBF_NPB_CG = 2, IBF_NPB_BT = 3 };
/* Planted bugs of the host (negatives of its checks). */
enum {
  IBF_BUG_NONE = 0,
  IBF_BUG_SEQ_SKIP = 1,
  IBF_BUG_BODY_FLIP = 2,
  IBF_BUG_DROP_LAST = 3,
  IBF_BUG_SKIP_TRAINING = 4,
  IBF_BUG_MST_WRONG_VL = 5 /* host 0 sends on the next VL (updn_mst: another tree's) */
};

#define IBF_MAD_MAX 16

/* What every host shares: the scoreboard, statistics and the first failure. */
typedef struct {
  unsigned nodes;
  uint32_t *next_seq;                 /* [src * nodes + dst]: expected at dst */
  uint32_t *sent_seq;                 /* [src * nodes + dst]: next to send */
  uint64_t created, delivered, total; /* packets */
  uint64_t half_cycle, last_cycle;    /* cycles the total/2-th and the last packet were created */
  uint64_t first_done;                /* cycle the first host created its last packet */
  uint64_t flits_rx;                  /* data flits received, all hosts (the driver samples it) */
  uint64_t lat_sum, lat_n, lat_max;   /* measured packets: creation -> TAIL delivered */
  uint64_t last_delivery;             /* cycle of the last TAIL */
  /* the dynamic SM's migration fence (docs/ibsw.md "The dynamic subnet manager"): a source
     starts no packet for a held destination; inflight[d] counts packets for d whose HEAD a
     host has sent and whose TAIL has not been delivered (what a host's RC ACKs tell it) */
  uint8_t *hold;      /* [nodes] */
  uint32_t *inflight; /* [nodes] */
  unsigned nhold;     /* destinations held */
  bool no_vl_check;   /* ibfab.vl off (a planted bug's negative that must reach the deadlock) */
  /* first failure */
  bool failed;
  uint64_t fail_cycle;
  char fail_check[48], fail_msg[300];
} ibf_world_t;

typedef struct {
  unsigned node, nodes, vls, buf_depth, buf15_depth, len;
  unsigned boot_active;
  uint32_t wake_cycles;
  double load;
  unsigned traffic;
  uint64_t quota, seed;
  const route_lft_t *route;
  ibf_world_t *w;
  unsigned bug;
  /* load phases (--phases): phase k has load ph_load[k] until start + ph_end[k]; none
     (nph = 0): `load` throughout; with phases generation stops at the end of the last */
  unsigned nph;
  const double *ph_load;
  const uint64_t *ph_end;
  /* NPB-like traffic (ibf_npb.h): the k-th packet goes to dlist[k mod dlen] (dlen 0: ibf_dest) */
  const uint32_t *dlist;
  unsigned dlen;
} ibf_host_params_t;

extern const fabric_type_t *ibf_host_type(unsigned vls, char *err, size_t errlen);

int ibf_world_init(ibf_world_t *w, unsigned nodes, uint64_t total);
void ibf_world_free(ibf_world_t *w);
void ibf_fail(ibf_world_t *w, uint64_t cycle, const char *check, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Host control from the driver (the instance's model pointer). */
void ibf_host_start(void *host, uint64_t cycle);
/* Queue a MAD (n words: HEAD, TID/return route, header, data); 0 or -1 if full. */
int ibf_host_send_mad(void *host, const uint64_t *words, unsigned n);
/* A MAD response received (VL15 packet), copied out: its length, 0 if none. */
unsigned ibf_host_recv_mad(void *host, uint64_t *words);
bool ibf_host_link_up(const void *host);
unsigned ibf_dest(unsigned traffic, unsigned src, unsigned nodes, uint64_t *rng);
uint64_t ibf_body_hash(unsigned src, unsigned dst, uint32_t seq, unsigned k);

#endif
