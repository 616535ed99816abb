/* ibsw test harness: plays the neighbour on every port of one switch
 * (docs/ibsw.md §12, §14) and keeps its own reference, never the model's.
 *
 * Each neighbour brings its link up (TS2 while the switch polls), sends
 * scripted packets into the switch flit by flit on slot cycles with the
 * switch's per-lane credits, and sinks what the switch sends (its own buffer
 * of the switch's depths, credits returned after a delay: random, or the
 * fixed loop of a neighbour of the same design, §11). A small subnet
 * manager on port 1 sends MADs (§7) to the SMA (route tag 0) and collects
 * the responses by TID.
 *
 * The scoreboard has a plain C LFT and LinearFDBTop, mirrored from the
 * configuration-port inputs of each cycle and from the LFT block Sets it
 * sends (applied in the execute cycle the MAD contract gives, §7.3); it
 * decides every HEAD's fate at its arrival cycle from that LFT and the port
 * states at that cycle (§5.2), and checks: every routed packet leaves at its
 * egress intact and in order per (ingress, lane, egress) (ibsw.route; a HEAD
 * that went by the LFT's other epoch, in the cycle of a write or the next:
 * ibsw.lft_epoch); every error event on err_o/err_code_o two cycles later
 * (ibsw.err); PortRcvSwitchRelayErrors by arithmetic (ibsw.counters); that
 * the switch never sends without a credit (ibsw.credit); at the end that
 * nothing routed is missing (ibsw.loss). Latencies are measured per packet
 * for ibsw_latency (ibsw.latency).
 */
#ifndef IBSW_HARNESS_H
#define IBSW_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bind/ibsw.h"

#define IBH_MAXP   31
#define IBH_MAXL   8
#define IBH_MAXF   20   /* flits per packet (17 for a too-long MAD) */
#define IBH_MAXPKT 4096 /* packet slots (ring, by id) */
#define IBH_MAXQ   64   /* packets queued per port */
#define IBH_LFT    49152
#define IBH_MAXMAD 256
#define IBH_MAXD   256 /* entries of the reference input buffer (BufDepth <= 256) */

/* kinds and symbols (§3.1, §3.5) */
enum { IBH_HEAD = 0, IBH_BODY = 1, IBH_TAIL = 2, IBH_SYM = 3 };
enum { IBH_TS1 = 1, IBH_TS2 = 2, IBH_DRAINED = 3 };
enum { IBH_PH_SLEEP = 1, IBH_PH_POLLING, IBH_PH_DISABLED, IBH_PH_TRAINING, IBH_PH_LINKUP, IBH_PH_LER };
enum { IBH_PS_DOWN = 1, IBH_PS_INIT, IBH_PS_ARMED, IBH_PS_ACTIVE };
#define IBH_SYN_TAIL 0xBAD0BAD0BAD0BAD0ull
#define IBH_RAW15    0x15151515ull /* word 1 of a raw VL15 packet: TID 0 */
#define IBH_MAGIC    0xA5u         /* opaque[31:24] of a harness data HEAD: [23:12] id, [11:0] sequence */

typedef struct {
  bool used;
  unsigned src, lane, nflits;
  uint64_t flit[IBH_MAXF];
  unsigned kind[IBH_MAXF];
  /* fate decided at the HEAD's arrival */
  bool decided;
  int egress;               /* 1..P, or -1 dropped */
  int alt_egress;           /* the LFT's other epoch around a write (-2: none) */
  unsigned err;             /* expected code when dropped */
  uint64_t t_head;          /* arrival cycle of the HEAD */
  uint64_t t_out[IBH_MAXF]; /* cycle each flit was on the egress pins */
  unsigned sent, got;
  unsigned nsend; /* flits the neighbour sends (0: all); fewer = truncated, flit[nsend] the synthetic TAIL */
  bool mad;       /* a MAD (VL15 to the SMA): tracked by TID */
} ibh_pkt_t;

typedef struct {
  bool used, done;
  uint16_t tid;
  unsigned port, n; /* request port; response words */
  uint64_t t_head, t_resp;
  uint64_t resp[IBH_MAXF];
  unsigned nresp;
  bool lft_set; /* an LFT block Set: the reference applies it with the response
                             (tests keep traffic off the block while one is out) */
  unsigned blk;
  uint8_t blkdata[64];
  uint64_t t_exec; /* execute cycle e (§7.3): the TAIL's pop to the SMA + 2, seen by its credit */
} ibh_mad_t;

/* One entry of the reference input buffer (n, l) (§5.1): what it is and where it goes */
typedef struct {
  uint64_t data; /* as it leaves (a VL15 HEAD with its front tag removed) */
  uint8_t kind;
  int8_t egr; /* -1 discarded at the front, 0 the SMA, 1..P an output */
  uint16_t tid;
  int16_t id; /* harness packet id, -1 none */
} ibh_ent_t;

/* A flit a test puts on a port's inputs this cycle instead of the neighbour's own */
typedef struct {
  bool on;
  unsigned kind, vl;
  uint64_t data;
  bool credit; /* it uses a credit of its lane (a well-behaved flit) */
  bool ovf;    /* sent with no credit: the buffer is full (error 6), not pushed */
} ibh_put_t;

typedef struct {
  const ibsw_view_t *vw;
  unsigned P, V, L, D, R, W, cntw, c16, boot, lft_entries;
  unsigned depth[IBH_MAXL];
  /* neighbour -> switch */
  unsigned cred_in[IBH_MAXP + 1][IBH_MAXL];
  unsigned q[IBH_MAXP + 1][IBH_MAXQ]; /* packet ids queued per port */
  unsigned qh[IBH_MAXP + 1], qn[IBH_MAXP + 1];
  int cur[IBH_MAXP + 1];             /* packet being sent, -1 none */
  uint64_t not_before[IBH_MAXP + 1]; /* scripted flit timing: the next flit no earlier */
  unsigned gap[IBH_MAXP + 1][IBH_MAXF];
  bool ts2[IBH_MAXP + 1];          /* sending TS2 (bring-up) */
  unsigned sym_out[IBH_MAXP + 1];  /* a symbol to send next (DRAINED, TS1), before any flit */
  unsigned ts_every[IBH_MAXP + 1]; /* a TS sent every cycle whatever the state (test-driven peer) */
  bool auto_drained;               /* answer the switch's DRAINED with ours */
  ibh_put_t put[IBH_MAXP + 1];     /* a raw flit this cycle (cleared by ibh_drive) */
  bool ovf_now[IBH_MAXP + 1];      /* this cycle's put overflows */
  uint64_t put_cred[IBH_MAXP + 1]; /* stray credit bits this cycle (cleared by ibh_drive) */
  bool hold_cred[IBH_MAXP + 1];    /* the neighbour keeps its credits (back-pressure) */
  bool vl15_first;                 /* MADs go beside the data queue, before its flits */
  unsigned mq[IBH_MAXP + 1][IBH_MAXQ], mq_h[IBH_MAXP + 1], mq_n[IBH_MAXP + 1];
  uint64_t drained_seen[IBH_MAXP + 1]; /* cycle + 1 of the switch's last DRAINED on a port */
  /* switch -> neighbour */
  unsigned occ[IBH_MAXP + 1][IBH_MAXL];
  int rx_open[IBH_MAXP + 1][IBH_MAXL]; /* packet id open on (egress, lane) */
  unsigned rx_idx[IBH_MAXP + 1][IBH_MAXL];
  bool fixed_loop; /* credit back exactly 2Lk+2 after the pins (Lk = 1) */
  uint64_t ret_at[IBH_MAXP + 1][IBH_MAXL][64];
  unsigned ret_n[IBH_MAXP + 1][IBH_MAXL];
  double ret_p; /* random returns: chance per cycle */
  /* reference */
  uint8_t lft[IBH_LFT];
  unsigned top;
  uint64_t lft_write_cycle[IBH_LFT];   /* first cycle an entry's last write applies to (0 never) */
  uint16_t exp_err[4][IBH_MAXP + 1];   /* events per cycle ring, bit k = code k; index 0 = the SMA */
  uint8_t exp_n[4][IBH_MAXP + 1][16];  /* how many of each (several of one code in a cycle add, §8.1) */
  uint8_t epoch_ring[4][IBH_MAXP + 1]; /* a HEAD of that cycle arrived in an LFT write's epoch */
  const char *err_id;                  /* check id of the err_o check ("ibsw.err") */
  bool err_classify; /* ibsw_errors: ibsw.err_timing near an expected event, else ibsw.isolation */
  bool err_counters; /* check every error counter and sma_err_* by arithmetic */
  uint64_t ecnt[IBH_MAXP + 1]
               [6];    /* error events counted (SymbolErr, LinkDowned, RcvErr, XmitDisc, VL15Drop, SMA) */
  uint16_t codes_seen; /* codes whose event was checked on err_o */
  /* reference input buffers, their framing, and the pops seen by the credits (ibsw.order, ibsw.loss) */
  ibh_ent_t fq[IBH_MAXP + 1][IBH_MAXL][IBH_MAXD];
  unsigned fq_h[IBH_MAXP + 1][IBH_MAXL], fq_n[IBH_MAXP + 1][IBH_MAXL];
  uint8_t rxs[IBH_MAXP + 1][IBH_MAXL]; /* 0 IDLE, 1 OPEN, 2 DROPPING */
  int8_t rx_egr[IBH_MAXP + 1][IBH_MAXL];
  int16_t rx_id[IBH_MAXP + 1][IBH_MAXL];
  uint16_t rx_tid[IBH_MAXP + 1][IBH_MAXL];
  unsigned rx_k[IBH_MAXP + 1][IBH_MAXL];
  bool exp_on[2][IBH_MAXP + 1]; /* a popped flit due on the pins of output o (ring by cycle) */
  ibh_ent_t exp_fl[2][IBH_MAXP + 1];
  uint8_t exp_lane[2][IBH_MAXP + 1], exp_src[2][IBH_MAXP + 1];
  uint8_t phys_prev[IBH_MAXP + 1];
  uint64_t last_exec[IBH_MAXP + 1]; /* execute cycle of the last request TAIL from port n to the SMA */
  uint64_t sunk;                    /* packets that ended in sink mode (error 15) */
  bool mad_bad[IBH_MAXP + 1];       /* every request from the port to the SMA is a bad MAD: error 9 at e */
  uint64_t clr_e[IBH_MAXP + 1];     /* a counter clear by a Set executing in clr_e (§8.1) */
  uint8_t clr_what[IBH_MAXP + 1];   /* 1 PortCounters, 2 PortCountersExtended */
  uint64_t xoff[IBH_MAXP + 1][4], eoff[IBH_MAXP + 1][4]; /* data counters at their last clear */
  bool blk_on;                                           /* an LFT block Set executing in blk_e */
  uint64_t blk_e;
  unsigned blk_no;
  uint8_t blk_data[64];
  uint8_t last_code[IBH_MAXP + 1];
  bool err_ignore[IBH_MAXP + 1]; /* a test checks this port's err_o itself (events the harness cannot time) */
  uint64_t relay[IBH_MAXP + 1];
  /* PortCounters by arithmetic from the pins (§8.1): transmissions count in the
   * cycle they are on the pins (SA + 2), arrivals two cycles after */
  uint64_t xflits[IBH_MAXP + 1], xpkts[IBH_MAXP + 1], rflits[IBH_MAXP + 1], rpkts[IBH_MAXP + 1];
  uint8_t rring[4][IBH_MAXP + 1]; /* arrivals of a cycle: bit 0 flit, bit 1 TAIL */
  bool no_counters;               /* a test that clears counters checks them itself */
  uint16_t last_seq[IBH_MAXP + 1][IBH_MAXL][IBH_MAXP + 1];
  uint64_t rxw[IBH_MAXP + 1][IBH_MAXF + 1];
  uint16_t rx_seq[IBH_MAXP + 1][IBH_MAXL][32]; /* last sequence received per (src, lane, dlid % 32) */
  uint8_t rx_seq_egr[IBH_MAXP + 1][IBH_MAXL][32];
  ibh_pkt_t pkt[IBH_MAXPKT];
  unsigned next_id;
  ibh_mad_t mad[IBH_MAXMAD];
  unsigned next_tid;
  unsigned mads_out;
  uint64_t cycle;
  uint64_t delivered, dropped, raw15_got;
  int64_t inflight; /* routed HEADs whose TAIL has not left (the busy gate) */
  uint64_t lat_head_max;
} ibh_t;

#define IBH_GET(h, port, buf, lane)    cosim_lane_get(&(h)->vw->port, (buf), (lane))
#define IBH_SET(h, port, buf, lane, v) cosim_lane_set(&(h)->vw->port, (buf), (lane), (v))

/* One configuration-port write per call: *k = 0 sets LinearFDBTop to top,
 * *k = 1..top sets LFT[*k] = entry. True once LFT[top] is written. */
static inline bool ibh_cfg_write(ibh_t *h, void *in, unsigned *k, unsigned top, unsigned entry) {
  IBH_SET(h, in.cfg_valid_i, in, 0, 1);
  if (*k == 0) {
    IBH_SET(h, in.cfg_sel_i, in, 0, 1);
    IBH_SET(h, in.cfg_data_i, in, 0, top);
  } else {
    IBH_SET(h, in.cfg_addr_i, in, 0, *k);
    IBH_SET(h, in.cfg_data_i, in, 0, entry);
  }
  return ++*k > top;
}

static inline void ibh_init(ibh_t *h, const ibsw_view_t *vw) {
  memset(h, 0, sizeof *h);
  h->vw = vw;
  h->P = (unsigned)vw->param.NumPorts;
  h->V = (unsigned)vw->param.NumDataVls;
  h->L = h->V + 1;
  h->D = 8u >> vw->param.LinkSpeed;
  h->R = (unsigned)vw->param.RouteCycles;
  h->W = (unsigned)vw->param.WakeCycles;
  h->cntw = (unsigned)vw->param.CntW;
  h->c16 = h->cntw < 16 ? h->cntw : 16;
  h->boot = (unsigned)vw->param.BootActive;
  h->lft_entries = 64u * (unsigned)vw->param.LftBlocks;
  for (unsigned l = 0; l < h->V; l++) h->depth[l] = (unsigned)vw->param.BufDepth;
  h->depth[h->V] = (unsigned)vw->param.Buf15Depth;
  for (unsigned n = 1; n <= h->P; n++) {
    h->cur[n] = -1;
    for (unsigned l = 0; l < h->L; l++) {
      h->cred_in[n][l] = h->depth[l];
      h->rx_open[n][l] = -1;
    }
  }
  memset(h->lft, 0xFF, sizeof h->lft);
  h->ret_p = 0.7;
  h->err_id = "ibsw.err";
  for (unsigned n = 0; n <= IBH_MAXP; n++)
    for (unsigned l = 0; l < IBH_MAXL; l++) h->rx_id[n][l] = -1;
}

/* The neighbour on port n lost its link (§6.6): what it held is gone, and the rest of a packet
 * it was receiving, if the switch sends it after the retrain (a circuit not sunk because no flit
 * was ready while the link was down), is discarded there. Call once PhysState is back in LinkUp
 * (every flit chosen before the loss is on the pins by then). */
static inline void ibh_link_lost(ibh_t *h, unsigned n) {
  for (unsigned l = 0; l < h->L; l++) {
    int id = h->rx_open[n][l];
    if (id >= 0 && l < h->V && h->pkt[id].used) {
      h->pkt[id].used = false; /* cut: the unplanned path */
      h->inflight--;
    }
    h->rx_open[n][l] = -2;
    h->occ[n][l] = 0;
  }
}

/* A counter clear by a Set executing in e (§8.1: 0 at e+1, the events from e on count): what = 1
 * PortCounters (every field, the test sends all ones), 2 PortCountersExtended. */
static inline void ibh_clear(ibh_t *h, unsigned n, unsigned what, uint64_t e) {
  h->clr_e[n] = e;
  h->clr_what[n] |= (uint8_t)what;
}

/* An error event of `code` at port n (0 = the SMA's responses) in cycle cyc (>= the current
 * cycle, at most one ahead): err_o two cycles later, and the counter of §8.1. */
static inline void ibh_expect(ibh_t *h, unsigned n, unsigned code, uint64_t cyc) {
  h->exp_err[cyc % 4][n] |= (uint16_t)(1u << code);
  h->exp_n[cyc % 4][n][code]++;
}

static inline unsigned ibh_lane_of_vl(const ibh_t *h, unsigned vl) { return vl == 15 ? h->V : vl; }
static inline unsigned ibh_vl_of_lane(const ibh_t *h, unsigned l) { return l == h->V ? 15 : l; }

/* ---- packets ------------------------------------------------------------ */

static inline int ibh_new_pkt(ibh_t *h) {
  for (unsigned k = 0; k < IBH_MAXPKT; k++) {
    unsigned id = (h->next_id + k) % IBH_MAXPKT;
    if (!h->pkt[id].used) {
      h->next_id = id + 1;
      memset(&h->pkt[id], 0, sizeof h->pkt[id]);
      h->pkt[id].used = true;
      h->pkt[id].alt_egress = -2;
      return (int)id;
    }
  }
  return -1;
}

static inline bool ibh_enqueue(ibh_t *h, unsigned port, unsigned id) {
  if (h->qn[port] >= IBH_MAXQ) return false;
  h->q[port][(h->qh[port] + h->qn[port]) % IBH_MAXQ] = id;
  h->qn[port]++;
  return true;
}

/* A data packet from `src` on `lane` to `dlid` of nflits (>= 2); payload from the id. */
static inline int ibh_data(ibh_t *h, unsigned src, unsigned lane, unsigned dlid, unsigned nflits) {
  int id = ibh_new_pkt(h);
  if (id < 0) return -1;
  ibh_pkt_t *p = &h->pkt[id];
  p->src = src;
  p->lane = lane;
  p->nflits = nflits;
  uint16_t seq = 0; /* filled at send time */
  p->flit[0] = ((uint64_t)dlid << 48) | ((uint64_t)src << 32) | ((uint64_t)IBH_MAGIC << 24) |
               ((uint64_t)(unsigned)id << 12) | seq;
  p->kind[0] = IBH_HEAD;
  for (unsigned k = 1; k < nflits; k++) {
    p->flit[k] = 0x1000000000000000ull * (k & 7) ^ ((uint64_t)(unsigned)id * 0x9E3779B97F4A7C15ull + k);
    p->kind[k] = k + 1 == nflits ? IBH_TAIL : IBH_BODY;
  }
  if (!ibh_enqueue(h, src, (unsigned)id)) {
    p->used = false;
    return -1;
  }
  return id;
}

/* A data packet sent outside the port's queue, flit by flit with ibh_put_pkt (e.g. on another
 * lane while the queue's packet waits for a credit). */
static inline int ibh_data_noq(ibh_t *h, unsigned src, unsigned lane, unsigned dlid, unsigned nflits) {
  int id = ibh_data(h, src, lane, dlid, nflits);
  if (id >= 0) h->qn[src]--; /* it was the queue's last */
  return id;
}

/* The next flit of packet id as this cycle's put on port n; false if its lane has no credit. */
static inline bool ibh_put_pkt(ibh_t *h, unsigned n, int id) {
  ibh_pkt_t *p = &h->pkt[id];
  if (h->cred_in[n][p->lane] == 0) return false;
  if (p->sent == 0 && !p->mad) {
    unsigned dlid = (unsigned)(p->flit[0] >> 48);
    uint16_t seq = ++h->last_seq[n][p->lane][dlid % (IBH_MAXP + 1)];
    p->flit[0] = (p->flit[0] & ~0xFFFull) | (seq & 0xFFFu);
  }
  h->put[n] = (ibh_put_t){true, p->kind[p->sent], ibh_vl_of_lane(h, p->lane), p->flit[p->sent], true, false};
  p->sent++;
  return true;
}

/* A VL15 packet that is not a MAD for this SMA (e.g. a bad DLID or tag): untracked. */
static inline int ibh_vl15_raw(ibh_t *h, unsigned src, uint64_t head, unsigned nflits) {
  int id = ibh_new_pkt(h);
  if (id < 0) return -1;
  ibh_pkt_t *p = &h->pkt[id];
  p->src = src;
  p->lane = h->V;
  p->mad = true;
  p->nflits = nflits;
  for (unsigned k = 0; k < nflits; k++) {
    p->flit[k] = k == 0 ? head : k == 1 ? IBH_RAW15 : 0x5151515151515151ull + k;
    p->kind[k] = k == 0 ? IBH_HEAD : k + 1 == nflits ? IBH_TAIL : IBH_BODY;
  }
  if (!ibh_enqueue(h, src, (unsigned)id)) {
    p->used = false;
    return -1;
  }
  return id;
}

/* A MAD (§7.1) from `port` to the SMA of this switch (route tag 0), the
 * response returned through `port`. Returns the MAD slot, -1 if full. */
static inline int ibh_mad(ibh_t *h, unsigned port, unsigned cls, unsigned method, unsigned attr, unsigned mod,
                          const uint64_t *words, unsigned n) {
  int id = ibh_new_pkt(h);
  unsigned m = h->next_tid % IBH_MAXMAD;
  if (id < 0 || h->mad[m].used) return -1;
  h->next_tid++;
  ibh_pkt_t *p = &h->pkt[id];
  p->src = port;
  p->lane = h->V;
  p->mad = true;
  p->nflits = 3 + n;
  p->flit[0] = 0xFFFFull << 48;                  /* route: tag 0 = this SMA */
  p->flit[1] = ((uint64_t)(m + 1) << 48) | port; /* return route: one tag, the port */
  p->flit[2] =
      ((uint64_t)cls << 56) | ((uint64_t)method << 48) | ((uint64_t)attr << 32) | ((uint64_t)mod << 16);
  for (unsigned k = 0; k < n; k++) p->flit[3 + k] = words[k];
  for (unsigned k = 0; k < p->nflits; k++)
    p->kind[k] = k == 0 ? IBH_HEAD : k + 1 == p->nflits ? IBH_TAIL : IBH_BODY;
  if (h->vl15_first && h->mq_n[port] < IBH_MAXQ) { /* sent beside the data queue, VL15 first */
    h->mq[port][(h->mq_h[port] + h->mq_n[port]++) % IBH_MAXQ] = (unsigned)id;
  } else if (!ibh_enqueue(h, port, (unsigned)id)) {
    p->used = false;
    return -1;
  }
  ibh_mad_t *x = &h->mad[m];
  memset(x, 0, sizeof *x);
  x->used = true;
  x->tid = (uint16_t)(m + 1);
  x->port = port;
  x->n = n;
  h->mads_out++;
  if (cls == 0x81 && attr == 0x19 && method == 2 && n == 8 && mod < (unsigned)h->vw->param.LftBlocks) {
    x->lft_set = true;
    x->blk = mod;
    for (unsigned k = 0; k < 64; k++) x->blkdata[k] = (uint8_t)(words[k / 8] >> (8 * (k % 8)));
  }
  return (int)m;
}

static inline ibh_mad_t *ibh_mad_slot(ibh_t *h, int m) { return m < 0 ? NULL : &h->mad[m]; }

/* ---- drive ---------------------------------------------------------------- */

/* Inputs of cycle c from the outputs of c-1: credits back, then one flit per
 * port on slot cycles (or TS2 during bring-up). */
static inline void ibh_drive(ibh_t *h, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  h->cycle = c;
  for (unsigned n = 1; n <= h->P; n++) {
    unsigned i = n - 1;
    if (c > 0) { /* a credit lane per port, bit l = lane l */
      uint64_t cr = IBH_GET(h, out.out_credit_o, prev, i);
      for (unsigned l = 0; l < h->L; l++)
        if ((cr >> l) & 1) h->cred_in[n][l]++;
    }
    uint64_t cret = 0;
    /* credits for what we hold */
    for (unsigned l = 0; l < h->L; l++) {
      bool give = false;
      if (h->fixed_loop) {
        if (h->ret_n[n][l] && h->ret_at[n][l][0] <= c) {
          give = true;
          memmove(&h->ret_at[n][l][0], &h->ret_at[n][l][1], (h->ret_n[n][l] - 1) * sizeof(uint64_t));
          h->ret_n[n][l]--;
        }
      } else if (h->occ[n][l] && !h->hold_cred[n] && cosim_rng_chance(rng, h->ret_p)) {
        give = true;
      }
      if (give) {
        h->occ[n][l]--;
        cret |= 1ull << l;
      }
    }
    cret |= h->put_cred[n]; /* stray credits a test asks for */
    h->put_cred[n] = 0;
    IBH_SET(h, in.in_credit_i, in, i, cret);
    unsigned phys = (unsigned)IBH_GET(h, out.phys_state_o, prev, i);
    if (c == 0) phys = h->boot ? IBH_PH_LINKUP : IBH_PH_POLLING;
    h->ovf_now[n] = false;
    if (h->put[n].on) { /* a test's raw flit instead of the neighbour's own */
      ibh_put_t *pt = &h->put[n];
      IBH_SET(h, in.in_valid_i, in, i, 1);
      IBH_SET(h, in.in_kind_i, in, i, pt->kind);
      IBH_SET(h, in.in_vl_i, in, i, pt->vl);
      IBH_SET(h, in.in_data_i, in, i, pt->data);
      unsigned pl = ibh_lane_of_vl(h, pt->vl);
      if (pt->credit && pl < h->L && h->cred_in[n][pl]) h->cred_in[n][pl]--;
      h->ovf_now[n] = pt->ovf;
      pt->on = false;
      continue;
    }
    if (h->ts_every[n]) {
      IBH_SET(h, in.in_valid_i, in, i, 1);
      IBH_SET(h, in.in_kind_i, in, i, IBH_SYM);
      IBH_SET(h, in.in_data_i, in, i, h->ts_every[n]);
      continue;
    }
    if (h->ts2[n]) {
      if (phys == IBH_PH_LINKUP)
        h->ts2[n] = false;
      else {
        IBH_SET(h, in.in_valid_i, in, i, 1);
        IBH_SET(h, in.in_kind_i, in, i, IBH_SYM);
        IBH_SET(h, in.in_data_i, in, i, IBH_TS2);
        continue;
      }
    }
    if (h->sym_out[n] == IBH_DRAINED && (h->cur[n] >= 0 || h->qn[n])) {
      /* the peer sends DRAINED only after its last TAIL (§6.4) */
    } else if (h->sym_out[n]) {
      IBH_SET(h, in.in_valid_i, in, i, 1);
      IBH_SET(h, in.in_kind_i, in, i, IBH_SYM);
      IBH_SET(h, in.in_data_i, in, i, h->sym_out[n]);
      h->sym_out[n] = 0;
      continue;
    }
    if (c % h->D == 0 && phys == IBH_PH_LINKUP && h->mq_n[n] && h->cred_in[n][h->V]) {
      ibh_pkt_t *p = &h->pkt[h->mq[n][h->mq_h[n]]]; /* a MAD goes before the data (VL15 first) */
      IBH_SET(h, in.in_valid_i, in, i, 1);
      IBH_SET(h, in.in_kind_i, in, i, p->kind[p->sent]);
      IBH_SET(h, in.in_vl_i, in, i, 15);
      IBH_SET(h, in.in_data_i, in, i, p->flit[p->sent]);
      h->cred_in[n][h->V]--;
      if (++p->sent == p->nflits) {
        p->used = false;
        h->mq_h[n] = (h->mq_h[n] + 1) % IBH_MAXQ;
        h->mq_n[n]--;
      }
      continue;
    }
    if (c % h->D != 0 || phys != IBH_PH_LINKUP || c < h->not_before[n]) continue;
    if (h->cur[n] < 0 && h->qn[n]) {
      h->cur[n] = (int)h->q[n][h->qh[n]];
      h->qh[n] = (h->qh[n] + 1) % IBH_MAXQ;
      h->qn[n]--;
    }
    if (h->cur[n] < 0) continue;
    ibh_pkt_t *p = &h->pkt[h->cur[n]];
    if (h->cred_in[n][p->lane] == 0) continue;
    if (p->sent == 0 && !p->mad) { /* the sequence number per (src, lane, dlid) is set here */
      unsigned dlid = (unsigned)(p->flit[0] >> 48);
      uint16_t seq = ++h->last_seq[n][p->lane][dlid % (IBH_MAXP + 1)];
      p->flit[0] = (p->flit[0] & ~0xFFFull) | (seq & 0xFFFu);
    }
    IBH_SET(h, in.in_valid_i, in, i, 1);
    IBH_SET(h, in.in_kind_i, in, i, p->kind[p->sent]);
    IBH_SET(h, in.in_vl_i, in, i, ibh_vl_of_lane(h, p->lane));
    IBH_SET(h, in.in_data_i, in, i, p->flit[p->sent]);
    h->cred_in[n][p->lane]--;
    h->not_before[n] = c + 1 + h->gap[n][p->sent];
    p->sent++;
    if (p->sent == (p->nsend ? p->nsend : p->nflits)) {
      if (p->mad || (p->decided && p->egress < 0)) p->used = false; /* MADs: by TID; drops: done */
      h->cur[n] = -1;
      memset(h->gap[n], 0, sizeof h->gap[n]);
    }
  }
}

/* ---- check ---------------------------------------------------------------- */

static inline bool ibh_usable(const ibh_t *h, const void *out, unsigned e, bool data) {
  unsigned i = e - 1;
  return IBH_GET(h, out.phys_state_o, out, i) == IBH_PH_LINKUP && !IBH_GET(h, out.draining_o, out, i) &&
         (!data || IBH_GET(h, out.port_state_o, out, i) == IBH_PS_ACTIVE);
}

/* §5.2 from the reference LFT: the egress (1..P, 0 = SMA) or -code. */
static inline int ibh_route(const ibh_t *h, const void *out, unsigned n, unsigned lane, uint64_t head,
                            const uint8_t *lft, unsigned top) {
  unsigned d = (unsigned)(head >> 48);
  if (lane < h->V) {
    if (d == 0 || d == 0xFFFF || d > top) return -2;
    unsigned e = lft[d];
    if (e == 0xFF) return -1;
    if (e == 0 || e > h->P || e == n) return -3;
    if (!ibh_usable(h, out, e, true)) return -4;
    return (int)e;
  }
  if (d != 0xFFFF) return -2;
  unsigned tag = (unsigned)(head & 31);
  if (tag > h->P || tag == n) return -3;
  if (tag >= 1 && !ibh_usable(h, out, tag, false)) return -4;
  return (int)tag;
}

static inline uint64_t ibh_cnt_max(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

static inline bool ibh_check(ibh_t *h, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  const unsigned P = h->P;
  /* 0. pops of cycle c-1, seen on out_credit_o in c (§5.6): the front of the reference buffer
   * leaves. A flit for an output that was LinkUp is due on its pins in c+1 (SA c-1, ST c, §5.5);
   * one for an output not LinkUp was sunk (§5.4; its TAIL is error 15 there in c-1); a request's
   * TAIL to the SMA is captured in c and executes in c+1 (§7.3). */
  for (unsigned n = 1; n <= P; n++) {
    uint64_t cr = IBH_GET(h, out.out_credit_o, out, n - 1);
    for (unsigned l = 0; l < h->L; l++) {
      if (!((cr >> l) & 1)) continue;
      if (h->fq_n[n][l] == 0) {
        cosim_fail(msg, "ibsw.order", "port %u lane %u: a credit returned for a buffer that holds nothing", n,
                   l);
        return false;
      }
      ibh_ent_t e = h->fq[n][l][h->fq_h[n][l]];
      h->fq_h[n][l] = (h->fq_h[n][l] + 1) % IBH_MAXD;
      h->fq_n[n][l]--;
      if (e.egr >= 1 && h->phys_prev[e.egr] == IBH_PH_LINKUP) {
        unsigned s = (unsigned)((c + 1) % 2);
        if (h->exp_on[s][e.egr]) {
          cosim_fail(msg, "ibsw.order", "port %u: two input lanes popped a flit for it in cycle %llu",
                     (unsigned)e.egr, (unsigned long long)(c - 1));
          return false;
        }
        h->exp_on[s][e.egr] = true;
        h->exp_fl[s][e.egr] = e;
        h->exp_lane[s][e.egr] = (uint8_t)l;
        h->exp_src[s][e.egr] = (uint8_t)n;
      } else if (e.egr >= 1 && c >= 1) { /* sunk: the link went away (§6.6) */
        if (e.kind == IBH_TAIL) {
          ibh_expect(h, (unsigned)e.egr, 15, c - 1);
          h->sunk++;
          if (e.id >= 0 && h->pkt[e.id].used && !h->pkt[e.id].mad) {
            h->pkt[e.id].used = false; /* not a loss: the unplanned path, counted in XmitDiscards */
            h->inflight--;
            if (h->rx_open[e.egr][l] == e.id) h->rx_open[e.egr][l] = -1;
          }
        }
      } else if (e.egr == 0 && e.kind == IBH_TAIL) {
        h->last_exec[n] = c + 1;
        if (h->mad_bad[n]) ibh_expect(h, n, 9, c + 1);
        if (e.tid >= 1 && e.tid <= IBH_MAXMAD && h->mad[e.tid - 1].used) {
          ibh_mad_t *x = &h->mad[e.tid - 1];
          x->t_exec = c + 1;
          if (x->lft_set) { /* the block applies to HEADs arriving from e+1 on (§5.7) */
            h->blk_on = true;
            h->blk_e = c + 1;
            h->blk_no = x->blk;
            memcpy(h->blk_data, x->blkdata, 64);
          }
        }
      }
    }
  }
  /* 1. arrivals of cycle c (§5.1): the reference buffer and framing, every arrival error, each
   * HEAD's fate from the state at c */
  for (unsigned n = 1; n <= P; n++) {
    unsigned i = n - 1;
    if (!IBH_GET(h, in.in_valid_i, in, i)) continue;
    unsigned kind = (unsigned)IBH_GET(h, in.in_kind_i, in, i);
    unsigned phys = (unsigned)IBH_GET(h, out.phys_state_o, out, i);
    uint64_t d = IBH_GET(h, in.in_data_i, in, i);
    if (kind == IBH_SYM) {
      if (phys == IBH_PH_LINKUP && d == IBH_TS1) ibh_expect(h, n, 13, c);
      if (d < IBH_TS1 || d > IBH_DRAINED)
        if (phys != IBH_PH_DISABLED && phys != IBH_PH_SLEEP) ibh_expect(h, n, 12, c);
      continue;
    }
    if (phys == IBH_PH_DISABLED || phys == IBH_PH_SLEEP) continue;
    if (phys != IBH_PH_LINKUP) {
      ibh_expect(h, n, 10, c);
      continue;
    }
    unsigned vl = (unsigned)IBH_GET(h, in.in_vl_i, in, i);
    if (vl >= h->V && vl != 15) {
      ibh_expect(h, n, 5, c);
      continue;
    }
    unsigned lane = ibh_lane_of_vl(h, vl);
    if (h->ovf_now[n]) {
      ibh_expect(h, n, 6, c);
      if (kind == IBH_HEAD) h->rxs[n][lane] = 2;
      if (kind == IBH_TAIL) h->rxs[n][lane] = 0;
      continue;
    }
    ibh_ent_t ent = {d, (uint8_t)kind, -1, 0, -1};
    int id = h->cur[n] >= 0 ? h->cur[n] : -1;
    if (lane < h->V && ((d >> 24) & 0xFF) == IBH_MAGIC) id = (int)((d >> 12) & 0xFFF);
    bool init = lane < h->V && IBH_GET(h, out.port_state_o, out, i) == IBH_PS_INIT;
    if (init) { /* no data before Armed: discarded, error 11 (§5.1) */
      ibh_expect(h, n, 11, c);
      if (kind == IBH_HEAD && id >= 0 && id < IBH_MAXPKT && h->pkt[id].used) {
        h->pkt[id].decided = true;
        h->pkt[id].egress = -1;
        h->pkt[id].err = 11;
        h->dropped++;
      }
    } else if (kind == IBH_HEAD) {
      if (h->rxs[n][lane] != 0) ibh_expect(h, n, 8, c); /* truncated (§5.1) */
      int e = ibh_route(h, out, n, lane, d, h->lft, h->top);
      unsigned dl = (unsigned)(d >> 48);
      bool blk_now = h->blk_on && h->blk_e == c && lane < h->V && dl / 64 == h->blk_no;
      if (blk_now) h->epoch_ring[c % 4][n] = 1;
      if (e < 0) ibh_expect(h, n, (unsigned)-e, c);
      if (e < 0) h->relay[n]++;
      h->rxs[n][lane] = e >= 0 ? 1 : 2;
      h->rx_egr[n][lane] = (int8_t)(e >= 0 ? e : -1);
      h->rx_id[n][lane] = (int16_t)(lane < h->V ? id : -1);
      h->rx_k[n][lane] = 0;
      h->rx_tid[n][lane] = 0;
      ent.egr = h->rx_egr[n][lane];
      ent.id = h->rx_id[n][lane];
      if (lane == h->V) ent.data = (d & 0xFFFF000000000000ull) | ((d & 0xFFFFFFFFFFFFull) >> 5);
      if (lane < h->V && id >= 0 && id < IBH_MAXPKT && h->pkt[id].used) {
        ibh_pkt_t *p = &h->pkt[id];
        p->decided = true;
        p->t_head = c;
        p->egress = e > 0 ? e : -1;
        p->err = e < 0 ? (unsigned)-e : 0;
        /* written in c-1 (this HEAD takes the new entry) or in c (it keeps the old) */
        bool cfg_now = IBH_GET(h, in.cfg_valid_i, in, 0) && IBH_GET(h, in.cfg_sel_i, in, 0) == 0 &&
                       IBH_GET(h, in.cfg_addr_i, in, 0) == dl;
        if (dl < IBH_LFT && (h->lft_write_cycle[dl] == c || cfg_now || blk_now)) {
          p->alt_egress = 1;
          h->epoch_ring[c % 4][n] = 1;
        }
        if (e < 0)
          h->dropped++;
        else
          h->inflight++;
      }
    } else if (h->rxs[n][lane] == 1) {
      ent.egr = h->rx_egr[n][lane];
      ent.id = h->rx_id[n][lane];
      if (kind == IBH_TAIL) h->rxs[n][lane] = 0;
    } else if (h->rxs[n][lane] == 2) {
      if (kind == IBH_TAIL) h->rxs[n][lane] = 0;
    } else {
      ibh_expect(h, n, 7, c); /* orphan */
    }
    if (!init) {
      if (++h->rx_k[n][lane] == 2) h->rx_tid[n][lane] = (uint16_t)(d >> 48); /* word 1: the TID */
      ent.tid = h->rx_tid[n][lane];
    }
    if (h->fq_n[n][lane] >= IBH_MAXD) {
      cosim_fail(msg, "ibsw.credit", "port %u lane %u: more flits than the buffer holds", n, lane);
      return false;
    }
    h->fq[n][lane][(h->fq_h[n][lane] + h->fq_n[n][lane]) % IBH_MAXD] = ent;
    h->fq_n[n][lane]++;
  }
  /* 2a. flits due on the pins in c, popped in c-2 (ibsw.order; none: ibsw.loss) */
  for (unsigned o = 1; o <= P; o++) {
    unsigned i = o - 1, s = (unsigned)(c % 2);
    bool v = IBH_GET(h, out.out_valid_o, out, i) != 0;
    unsigned kind = (unsigned)IBH_GET(h, out.out_kind_o, out, i);
    unsigned lane = ibh_lane_of_vl(h, (unsigned)IBH_GET(h, out.out_vl_o, out, i));
    uint64_t d = IBH_GET(h, out.out_data_o, out, i);
    bool synth = v && kind == IBH_TAIL && d == IBH_SYN_TAIL;
    if (h->exp_on[s][o]) {
      const ibh_ent_t *e = &h->exp_fl[s][o];
      h->exp_on[s][o] = false;
      if (!v || kind != e->kind || lane != h->exp_lane[s][o] || d != e->data) {
        bool synth_any = false; /* the lane's flit went out as another's synthetic close */
        for (unsigned k = 1; k <= P; k++)
          synth_any |= IBH_GET(h, out.out_valid_o, out, k - 1) &&
                       IBH_GET(h, out.out_kind_o, out, k - 1) == IBH_TAIL &&
                       IBH_GET(h, out.out_data_o, out, k - 1) == IBH_SYN_TAIL &&
                       ibh_lane_of_vl(h, (unsigned)IBH_GET(h, out.out_vl_o, out, k - 1)) == h->exp_lane[s][o];
        /* a packet whose HEAD came in an LFT write's epoch (cycle of the write or the next) */
        bool epoch = e->id >= 0 && h->pkt[e->id].alt_egress == 1;
        cosim_fail(
            msg,
            epoch            ? "ibsw.lft_epoch"
            : v || synth_any ? "ibsw.order"
                             : "ibsw.loss",
            "port %u: input (%u, lane %u) popped a flit in cycle %llu (kind %u, 0x%016llx) that is not on "
            "the pins in %llu (%s)",
            o, h->exp_src[s][o], h->exp_lane[s][o], (unsigned long long)(c - 2), e->kind,
            (unsigned long long)e->data, (unsigned long long)c,
            synth_any ? "a synthetic TAIL left on its lane instead: the lane skipped its front"
            : v       ? "another flit is there"
                      : "nothing is there");
        return false;
      }
    } else if (v && kind != IBH_SYM && lane < h->V && !synth) {
      bool epoch =
          kind == IBH_HEAD && ((d >> 24) & 0xFF) == IBH_MAGIC && h->pkt[(d >> 12) & 0xFFF].alt_egress == 1;
      cosim_fail(msg, epoch ? "ibsw.lft_epoch" : "ibsw.order",
                 "port %u lane %u: a flit (kind %u) left that no input lane popped in %llu", o, lane, kind,
                 (unsigned long long)(c - 2));
      return false;
    }
  }
  /* 2. the switch's outputs of cycle c */
  for (unsigned o = 1; o <= P; o++) {
    unsigned i = o - 1;
    if (!IBH_GET(h, out.out_valid_o, out, i)) continue;
    unsigned kind = (unsigned)IBH_GET(h, out.out_kind_o, out, i);
    if (kind == IBH_SYM) {
      if (IBH_GET(h, out.out_data_o, out, i) == IBH_DRAINED) {
        h->drained_seen[o] = c + 1;
        if (h->auto_drained) h->sym_out[o] = IBH_DRAINED;
      }
      continue;
    }
    unsigned lane = ibh_lane_of_vl(h, (unsigned)IBH_GET(h, out.out_vl_o, out, i));
    uint64_t d = IBH_GET(h, out.out_data_o, out, i);
    if (lane >= h->L) {
      cosim_fail(msg, "ibsw.route", "port %u sent a flit on vl %u", o,
                 (unsigned)IBH_GET(h, out.out_vl_o, out, i));
      return false;
    }
    if (h->occ[o][lane] >= h->depth[lane]) {
      cosim_fail(msg, "ibsw.credit", "port %u lane %u: a flit sent with no credit (our buffer of %u is full)",
                 o, lane, h->depth[lane]);
      return false;
    }
    h->occ[o][lane]++;
    if (h->fixed_loop) h->ret_at[o][lane][h->ret_n[o][lane]++] = c + 4; /* Lk = 1: 2Lk + 2 */
    if (kind != IBH_HEAD && h->rx_open[o][lane] == -2) continue; /* the rest of a packet cut by a lost link */
    if (lane == h->V) {                                          /* a MAD response to the SM on this port */
      if (kind == IBH_HEAD) {
        h->rx_open[o][lane] = 0;
        h->rx_idx[o][lane] = 0;
      }
      unsigned k = h->rx_idx[o][lane]++;
      uint64_t(*words)[IBH_MAXF + 1] = h->rxw;
      if (k <= IBH_MAXF) words[o][k] = d;
      if (kind == IBH_TAIL) {
        unsigned tid = (unsigned)(words[o][1] >> 48);
        if (tid == 0 && k >= 1 && (words[o][1] & 0xFFFFFFFFFFFFull) == IBH_RAW15) {
          h->raw15_got++; /* a forwarded VL15 packet (ibh_vl15_raw), not a response */
        } else if (tid == 0 || tid > IBH_MAXMAD || !h->mad[tid - 1].used || h->mad[tid - 1].done) {
          cosim_fail(msg, "ibsw.mad_status", "port %u: a MAD response with unknown TID %u", o, tid);
          return false;
        } else {
          ibh_mad_t *x = &h->mad[tid - 1];
          x->done = true;
          x->nresp = k + 1;
          for (unsigned j = 0; j <= k && j < IBH_MAXF; j++) x->resp[j] = words[o][j];
          h->mads_out--;
        }
      } else if (kind == IBH_HEAD) {
        for (unsigned m = 0; m < IBH_MAXMAD; m++)
          if (h->mad[m].used && !h->mad[m].done && h->mad[m].port == o && !h->mad[m].t_resp) {
            h->mad[m].t_resp = c;
            break;
          }
      }
      continue;
    }
    if (kind == IBH_HEAD) {
      if (((d >> 24) & 0xFF) != IBH_MAGIC) {
        cosim_fail(msg, "ibsw.route", "port %u lane %u: a HEAD the harness never sent (0x%016llx)", o, lane,
                   (unsigned long long)d);
        return false;
      }
      unsigned id = (unsigned)((d >> 12) & 0xFFF);
      ibh_pkt_t *p = &h->pkt[id];
      if (!p->used || !p->decided || p->got) {
        cosim_fail(msg, p->used && p->alt_egress == 1 ? "ibsw.lft_epoch" : "ibsw.route",
                   "port %u lane %u: packet %u left, but it was %s", o, lane, id,
                   !p->used ? "dropped (or never sent)"
                   : p->got ? "already delivered"
                            : "not yet arrived");
        return false;
      }
      if ((int)o != p->egress || lane != p->lane) {
        cosim_fail(
            msg, p->alt_egress == 1 ? "ibsw.lft_epoch" : "ibsw.route",
            "packet %u (HEAD arrived on port %u in cycle %llu, DLID 0x%04x) left on port %u lane %u; the "
            "LFT of that cycle says port %d lane %u",
            id, p->src, (unsigned long long)p->t_head, (unsigned)(d >> 48), o, lane, p->egress, p->lane);
        return false;
      }
      if (h->rx_open[o][lane] >= 0) {
        cosim_fail(msg, "ibsw.route", "port %u lane %u: HEAD of packet %u inside packet %d", o, lane, id,
                   h->rx_open[o][lane]);
        return false;
      }
      h->rx_open[o][lane] = (int)id;
      h->rx_idx[o][lane] = 0;
      /* order per (ingress, lane, egress): sequence numbers per (src, lane, DLID) only grow */
      unsigned dk = (unsigned)(d >> 48) % 32, sq = (unsigned)(d & 0xFFF);
      uint16_t *ls = &h->rx_seq[p->src][lane][dk];
      if (h->rx_seq_egr[p->src][lane][dk] == o && *ls && ((sq - *ls) & 0xFFF) >= 0x800) {
        cosim_fail(msg, "ibsw.order",
                   "port %u lane %u: packet %u (from port %u, DLID 0x%04x) sequence %u after %u", o, lane, id,
                   p->src, (unsigned)(d >> 48), sq, *ls);
        return false;
      }
      *ls = (uint16_t)sq;
      h->rx_seq_egr[p->src][lane][dk] = (uint8_t)o;
    }
    int id = h->rx_open[o][lane];
    if (id < 0) {
      cosim_fail(msg, "ibsw.route", "port %u lane %u: %s with no open packet", o, lane,
                 kind == IBH_BODY ? "BODY" : "TAIL");
      return false;
    }
    ibh_pkt_t *p = &h->pkt[id];
    unsigned k = h->rx_idx[o][lane]++;
    if (k >= p->nflits || d != p->flit[k] || kind != p->kind[k]) {
      cosim_fail(msg, "ibsw.route",
                 "packet %d flit %u on port %u: kind %u data 0x%016llx, sent kind %u 0x%016llx", id, k, o,
                 kind, (unsigned long long)d, k < p->nflits ? p->kind[k] : 9u,
                 (unsigned long long)(k < p->nflits ? p->flit[k] : 0));
      return false;
    }
    p->t_out[k] = c;
    p->got = k + 1;
    if (kind == IBH_TAIL) {
      h->rx_open[o][lane] = -1;
      h->delivered++;
      h->inflight--;
      p->used = false; /* the slot's data stays readable until reused */
      if (p->t_out[0] - p->t_head > h->lat_head_max) h->lat_head_max = p->t_out[0] - p->t_head;
    }
  }
  /* 3. errors of cycle c-2 on err_o / err_code_o (index 0: sma_err_*), and the relay counter */
  if (c >= 2) {
    for (unsigned n = h->err_counters ? 0 : 1; n <= P; n++) {
      unsigned i = n - 1;
      uint16_t ev = h->exp_err[(c - 2) % 4][n];
      unsigned code = 0;
      for (unsigned k = 1; k < 16 && ev; k++)
        if (ev & (1u << k)) {
          code = k;
          break;
        }
      if (code) h->last_code[n] = (uint8_t)code;
      unsigned got =
          n ? (unsigned)IBH_GET(h, out.err_o, out, i) : (unsigned)IBH_GET(h, out.sma_err_o, out, 0);
      unsigned gcode =
          n ? (unsigned)IBH_GET(h, out.err_code_o, out, i) : (unsigned)IBH_GET(h, out.sma_err_code_o, out, 0);
      if (h->err_ignore[n]) {
        h->last_code[n] = (uint8_t)gcode;
        continue;
      }
      if (got != (code != 0) || gcode != h->last_code[n]) {
        const char *id = h->epoch_ring[(c - 2) % 4][n] ? "ibsw.lft_epoch" : h->err_id;
        /* a routing code (1-4) where the reference routed the HEAD, or none where it dropped one, with
         * no event of the port a cycle either side: the switch's routing decision differs (ibsw.route) */
        bool near = ((h->exp_err[(c - 1) % 4][n] | h->exp_err[c % 4][n]) & 0xFFFE) != 0;
        if (!h->epoch_ring[(c - 2) % 4][n] && !near && n &&
            ((got && gcode >= 1 && gcode <= 4 && !(ev & 0x1E)) || (!got && (ev & 0x1E))))
          id = "ibsw.route";
        if (h->err_classify) /* an expected event of this port nearby: its timing; none: another's damage */
          id = (h->exp_err[(c - 2) % 4][n] | h->exp_err[(c - 1) % 4][n] | h->exp_err[c % 4][n])
                   ? "ibsw.err_timing"
                   : "ibsw.isolation";
        cosim_fail(msg, id, "%s%u: err %u code %u in cycle %llu; expected %u code %u (events of cycle %llu)",
                   n ? "port " : "the SMA ", n, got, gcode, (unsigned long long)c, code != 0, h->last_code[n],
                   (unsigned long long)(c - 2));
        return false;
      }
      if (code) h->codes_seen |= ev;
    }
  }
  /* 3a. every error counter by arithmetic (§8.1): the events of cycles <= c-2, saturating */
  for (unsigned n = 0; n <= P && h->err_counters && c >= 2; n++) {
    static const uint16_t cat_codes[6] = {(1u << 10) | (1u << 12) | (1u << 14),
                                          1u << 13,
                                          (1u << 5) | (1u << 6) | (1u << 7) | (1u << 8) | (1u << 11),
                                          1u << 15,
                                          1u << 9,
                                          0x1E};
    static const char *const cat_name[6] = {"SymbolErrorCounter", "LinkDownedCounter",
                                            "PortRcvErrors",      "PortXmitDiscards",
                                            "VL15Dropped",        "SMA responses dropped"};
    for (unsigned k = 0; k < 6; k++)
      for (unsigned code = 1; code < 16; code++)
        if (((cat_codes[k] >> code) & 1) && (n == 0) == (k == 5))
          h->ecnt[n][k] += h->exp_n[(c - 2) % 4][n][code];
    if (n && (h->clr_what[n] & 1) && c == h->clr_e[n] + 1) memset(h->ecnt[n], 0, sizeof h->ecnt[n]);
    for (unsigned k = 0; k < 6; k++) {
      if ((n == 0) != (k == 5)) continue;
      unsigned w = k == 1 ? (h->cntw < 8 ? h->cntw : 8) : h->c16;
      uint64_t want = h->ecnt[n][k] > ibh_cnt_max(w) ? ibh_cnt_max(w) : h->ecnt[n][k];
      uint64_t got = k == 0   ? IBH_GET(h, out.cnt_symbol_err_o, out, n - 1)
                     : k == 1 ? IBH_GET(h, out.cnt_link_downed_o, out, n - 1)
                     : k == 2 ? IBH_GET(h, out.cnt_rcv_err_o, out, n - 1)
                     : k == 3 ? IBH_GET(h, out.cnt_xmit_discards_o, out, n - 1)
                     : k == 4 ? IBH_GET(h, out.cnt_vl15_dropped_o, out, n - 1)
                              : IBH_GET(h, out.cnt_sma_dropped_o, out, 0);
      if (got != want) {
        cosim_fail(msg, "ibsw.counters", "%s%u: %s %llu, expected %llu (events up to cycle %llu)",
                   n ? "port " : "the SMA ", n, cat_name[k], (unsigned long long)got,
                   (unsigned long long)want, (unsigned long long)(c - 2));
        return false;
      }
    }
  }
  for (unsigned n = 1; n <= P; n++) {
    unsigned i = n - 1;
    /* relay events of cycles <= c-2: those of c-1 and c are still pending */
    uint64_t pend = 0;
    for (unsigned k = 0; k < 2 && k < c + 1; k++) {
      uint16_t ev = h->exp_err[(c - k) % 4][n];
      pend += (unsigned)__builtin_popcount(ev & 0x1E);
    }
    if ((h->clr_what[n] & 1) && c == h->clr_e[n] + 1) h->relay[n] = pend; /* cleared (§8.1) */
    uint64_t want = h->relay[n] - pend;
    if (want > ibh_cnt_max(h->c16)) want = ibh_cnt_max(h->c16);
    uint64_t got = IBH_GET(h, out.cnt_relay_err_o, out, i);
    if (got != want) {
      cosim_fail(msg, "ibsw.counters", "port %u: PortRcvSwitchRelayErrors %llu, expected %llu", n,
                 (unsigned long long)got, (unsigned long long)want);
      return false;
    }
  }
  /* 3b. PortCounters / PortCountersExtended by arithmetic (ibsw.counters) */
  for (unsigned n = 1; n <= P && !h->no_counters; n++) {
    unsigned i = n - 1;
    if (IBH_GET(h, out.out_valid_o, out, i) && IBH_GET(h, out.out_kind_o, out, i) != IBH_SYM) {
      h->xflits[n]++;
      h->xpkts[n] += IBH_GET(h, out.out_kind_o, out, i) == IBH_TAIL;
    }
    bool arr = IBH_GET(h, in.in_valid_i, in, i) && IBH_GET(h, in.in_kind_i, in, i) != IBH_SYM &&
               IBH_GET(h, out.phys_state_o, out, i) == IBH_PH_LINKUP;
    h->rring[c % 4][n] = (uint8_t)(arr | ((arr && IBH_GET(h, in.in_kind_i, in, i) == IBH_TAIL) << 1));
    if (c >= 2) {
      h->rflits[n] += h->rring[(c - 2) % 4][n] & 1;
      h->rpkts[n] += (h->rring[(c - 2) % 4][n] >> 1) & 1;
    }
    const uint64_t acc[4] = {2 * h->xflits[n], 2 * h->rflits[n], h->xpkts[n], h->rpkts[n]};
    for (unsigned k = 0; k < 4 && c == h->clr_e[n] + 1; k++) { /* a clear in e: 0 at e+1, events from e on */
      if (h->clr_what[n] & 1) h->xoff[n][k] = acc[k];
      if (h->clr_what[n] & 2) h->eoff[n][k] = acc[k];
    }
    if (c == h->clr_e[n] + 1) h->clr_what[n] = 0;
    const uint64_t want[4] = {acc[0] - h->xoff[n][0], acc[1] - h->xoff[n][1], acc[2] - h->xoff[n][2],
                              acc[3] - h->xoff[n][3]};
    const uint64_t wext[4] = {acc[0] - h->eoff[n][0], acc[1] - h->eoff[n][1], acc[2] - h->eoff[n][2],
                              acc[3] - h->eoff[n][3]};
    static const char *const name[4] = {"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts"};
    const uint64_t got[4] = {IBH_GET(h, out.cnt_xmit_data_o, out, i), IBH_GET(h, out.cnt_rcv_data_o, out, i),
                             IBH_GET(h, out.cnt_xmit_pkts_o, out, i), IBH_GET(h, out.cnt_rcv_pkts_o, out, i)};
    const uint64_t ext[4] = {IBH_GET(h, out.ext_xmit_data_o, out, i), IBH_GET(h, out.ext_rcv_data_o, out, i),
                             IBH_GET(h, out.ext_xmit_pkts_o, out, i), IBH_GET(h, out.ext_rcv_pkts_o, out, i)};
    const uint64_t cmax = ibh_cnt_max(h->cntw), xmax = ibh_cnt_max((unsigned)h->vw->param.ExtW);
    for (unsigned k = 0; k < 4; k++) {
      uint64_t w = want[k] > cmax ? cmax : want[k], x = wext[k] > xmax ? xmax : wext[k];
      if (got[k] != w || ext[k] != x) {
        cosim_fail(msg, "ibsw.counters",
                   "port %u: %s %llu (extended %llu), expected %llu (%llu) from the pins", n, name[k],
                   (unsigned long long)got[k], (unsigned long long)ext[k], (unsigned long long)w,
                   (unsigned long long)x);
        return false;
      }
    }
  }
  for (unsigned n = 0; n <= P; n++) {
    h->exp_err[(c + 2) % 4][n] = 0;
    h->epoch_ring[(c + 2) % 4][n] = 0;
    memset(h->exp_n[(c + 2) % 4][n], 0, sizeof h->exp_n[0][0]);
    if (n) h->phys_prev[n] = (uint8_t)IBH_GET(h, out.phys_state_o, out, n - 1);
  }
  /* 4a. an LFT block Set executing in c: its entries apply from c+1 (§5.7) */
  if (h->blk_on && h->blk_e == c) {
    for (unsigned j = 0; j < 64; j++) {
      h->lft[h->blk_no * 64 + j] = h->blk_data[j];
      h->lft_write_cycle[h->blk_no * 64 + j] = c + 1;
    }
    h->blk_on = false;
  }
  /* 4. the reference LFT takes this cycle's writes (they apply from c+1) */
  if (IBH_GET(h, in.cfg_valid_i, in, 0)) {
    unsigned sel = (unsigned)IBH_GET(h, in.cfg_sel_i, in, 0);
    unsigned a = (unsigned)IBH_GET(h, in.cfg_addr_i, in, 0), v = (unsigned)IBH_GET(h, in.cfg_data_i, in, 0);
    if (sel == 0 && a < h->lft_entries) {
      h->lft[a] = (uint8_t)v;
      h->lft_write_cycle[a] = c + 1;
    }
    if (sel == 1 && v < h->lft_entries) h->top = v;
  }
  return true;
}

/* at the end: every packet routed has left whole */
static inline bool ibh_finish(ibh_t *h, cosim_msg_t *msg) {
  for (unsigned id = 0; id < IBH_MAXPKT; id++) {
    ibh_pkt_t *p = &h->pkt[id];
    if (p->used && !p->mad && p->decided && p->egress > 0 && p->got != p->nflits) {
      cosim_fail(msg, "ibsw.loss",
                 "packet %u (port %u lane %u, HEAD in cycle %llu) for port %d: %u of %u flits left", id,
                 p->src, p->lane, (unsigned long long)p->t_head, p->egress, p->got, p->nflits);
      return false;
    }
  }
  return true;
}

/* ---- bring-up: TS2 on every port, then the SM arms and activates ---------- */

typedef struct {
  unsigned step, port;
  int m;
  uint32_t active_mask; /* ports to make Active (others stay Init) */
  uint32_t armed_mask;  /* ports left Armed */
} ibh_up_t;

/* Returns true once every port is LinkUp and the requested PortStates are set. */
static inline bool ibh_bringup(ibh_t *h, ibh_up_t *u, const void *prev, cosim_msg_t *err) {
  (void)err;
  if (u->step == 0) {
    if (!h->boot)
      for (unsigned n = 1; n <= h->P; n++) h->ts2[n] = true;
    u->step = 1;
    u->port = 1;
    u->m = -1;
  }
  if (u->step == 1) {
    for (unsigned n = 1; n <= h->P; n++)
      if (IBH_GET(h, out.phys_state_o, prev, n - 1) != IBH_PH_LINKUP) return false;
    if (h->boot) return true;
    u->step = 2;
  }
  /* one MAD at a time: Armed then (if asked) Active for each port */
  while (u->port <= h->P) {
    unsigned n = u->port;
    bool act = (u->active_mask >> n) & 1, arm = act || ((u->armed_mask >> n) & 1);
    unsigned want = u->step == 2 ? (arm ? IBH_PS_ARMED : 0) : (act ? IBH_PS_ACTIVE : 0);
    if (!want) {
      if (u->step == 2)
        u->step = 3;
      else {
        u->step = 2;
        u->port++;
      }
      continue;
    }
    if (u->m < 0) {
      uint64_t w = (uint64_t)want << 60;
      u->m = ibh_mad(h, 1, 0x81, 0x02, 0x15, n, &w, 1);
      return false;
    }
    if (!h->mad[u->m].done) return false;
    h->mad[u->m].used = false;
    u->m = -1;
    if (u->step == 2)
      u->step = 3;
    else {
      u->step = 2;
      u->port++;
    }
  }
  return true;
}

#endif
