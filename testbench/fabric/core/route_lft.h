/* Linear-forwarding-table routing as a block-neutral plug-in (beside
 * route_elite; docs/ibsw.md §12 "Routing"): for every switch and every
 * destination node, the switch port (0-based topology port) a packet for
 * that node leaves by, as an LFT-routed block needs, computed over the
 * links left active. Node d owns LID d + 1.
 *
 * up* / down* (ROUTE_LFT_UPDN, any topology): ranks by BFS from a root switch
 * over the active links; a link's "up" end is the one with the smaller
 * (rank, GUID) — equal ranks broken by GUID, seed 000's ref. 3 and IBA's
 * OpenSM updn; switch s has GUID ROUTE_LFT_GUID0 + s (ours). A legal path is
 * zero or more up hops then zero or more down hops. The table is
 * destination-based, so a switch that reaches the destination by down hops
 * alone always routes down (a packet that arrived by a down hop can then
 * never be sent up); the others route up along a shortest legal path. The
 * root reaches everything by down hops, every other switch has an up link
 * (its BFS parent): no hole, no loop, no down->up turn, hence no cycle of
 * channel dependencies (the classic up* / down* argument: every cycle needs a
 * down->up turn somewhere). One spanning tree; with `vls` > 1 a flow
 * (src, dst) uses VL (src + dst) mod vls, the same tree on every VL (each VL a
 * copy of a deadlock-free network, the VL fixed at the source: ours, to give
 * a switch's per-lane routing time of docs/ibsw.md §5.3 more lanes to
 * overlap; seed 000 puts one spanning tree per VL: ROUTE_LFT_UPDN_MST below).
 *
 * up* / down* with multiple spanning trees (ROUTE_LFT_UPDN_MST, seed 000 §3.3
 * after its ref. 3; docs/ibsw.md §12): T trees, each an up* / down* table as
 * above from its own root. Roots (ours; the seed does not fix them): tree 0's
 * is `root`, tree k's the switch farthest (BFS hops over the active links)
 * from the roots chosen so far (the largest minimum distance), ties to the
 * smallest switch index. A switch has one LFT keyed by DLID, so the trees
 * need their own LIDs: LMC = ceil(log2 T), node d owns LIDs
 * ((d + 1) << LMC) .. ((d + 1) << LMC) + 2^LMC - 1 (LMC = 0: LID d + 1 as
 * before), LID base + t on tree t's table (t >= T: tree t mod T). The source
 * picks the tree per flow, a hash of (src, dst) mod T (ours), and the VL:
 * tree t owns the VLs v with v mod T == t, a second part of the hash picks
 * among them (ours: with T < V every lane still carries traffic). No VL
 * changes on the way, so each VL carries one tree's up* / down* paths only:
 * no cycle.
 *
 * Dimension order (ROUTE_LFT_DOR, 2-D torus only): X first, then Y, the
 * shorter way round (a tie, distance X/2, goes +); among the active parallel
 * links of a direction, destination d takes one by a hash of d (spread()). The VL is
 * fixed at the source (docs/ibsw.md §3.1: no VL change on the way): bit 0 =
 * the path wraps round in X, bit 1 = it wraps in Y (a dateline class per
 * dimension, 4 VLs). Inside one VL a ring's channels carry either only
 * packets that never use its wrap link (a line: acyclic) or only packets
 * that all use it and are at most half a ring long (no dependency spans the
 * ring), and X channels feed Y channels only: no cycle. A direction with no
 * active link between two neighbours is a hole (the seed keeps at least one
 * link between adjacent switches).
 *
 * route_lft_check() walks every (source switch, destination, tree) through
 * that tree's table and fails, naming the switch and LID, on a hole (no
 * entry, or a deactivated or unwired port), a loop (more hops than
 * switches), a misdelivery, an illegal turn (down->up by the tree's own
 * ranks; Y before X), or a cycle in the channel dependency graph (channel =
 * switch, port, VL; each path's channels on the VLs its flows are sent on,
 * route_lft_vl(), and UPDN_MST's tables also on their own tree's first VL). */
#ifndef NETCOSIM_ROUTE_LFT_H
#define NETCOSIM_ROUTE_LFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_route.h"

#define ROUTE_LFT_NONE  0xFFu
#define ROUTE_LFT_GUID0 UINT64_C(0x0002C90200000000) /* ours: an OUI-like prefix + switch index */

#define ROUTE_LFT_MAX_TREES 8

typedef enum { ROUTE_LFT_UPDN = 0, ROUTE_LFT_DOR = 1, ROUTE_LFT_UPDN_MST = 2 } route_lft_algo_t;
extern const char *const route_lft_algo_names[3];

/* Planted bugs of the multiple-tree VL choice (negatives of route_lft_check's cycle check). */
enum {
  ROUTE_LFT_MST_BUG_NONE = 0,
  ROUTE_LFT_MST_BUG_SHARED_VL = 1 /* tree 1's flows on tree 0's VLs: two trees share a VL */
};

typedef struct {
  route_lft_algo_t algo;
  const fabric_topo_t *t;
  unsigned nsw, nodes, ports, root;
  uint8_t *off;   /* [nsw * ports]: 1 = the link on this switch port is deactivated */
  uint32_t *rank; /* [trees * nsw]: BFS rank from each tree's root over active links */
  uint8_t *lft;   /* [trees * nsw * nodes]: egress topology port, ROUTE_LFT_NONE = none; tree t's
                     table at t * nsw * nodes (tree 0's first: single-tree users index it as before) */
  unsigned vls;   /* up* / down*: data VLs flows are spread over (the build's argument; DOR: 1) */
  unsigned trees; /* spanning trees (UPDN_MST: T; else 1) */
  unsigned lmc;   /* LID mask control: node d owns 2^lmc LIDs from (d + 1) << lmc */
  unsigned roots[ROUTE_LFT_MAX_TREES];
  unsigned mst_bug; /* ROUTE_LFT_MST_BUG_*: a planted bug's hook */
  bool one_vl;      /* a planted bug's hook (negative of the cycle check): DOR on VL 0 alone */
  bool no_turns;    /* route_lft_check skips the turn rule (an imported table that follows no rule of
                     ours, e.g. OpenSM's minhop): hole, loop, misroute and cycle only */
} route_lft_t;

/* off: [nsw * sw_ports] (1 = deactivated; both ends must be marked), NULL = all
 * active. vls: up* / down*'s data VLs, 1..8 (flow (src, dst) on VL (src + dst)
 * mod vls); DOR ignores it (its dateline classes need 4). 0, or -1 with err (a
 * hole: the active links do not connect the switches, or DOR finds a
 * direction without an active link; vls out of range). */
int route_lft_build(route_lft_t *r, const fabric_topo_t *t, route_lft_algo_t algo, const uint8_t *off,
                    unsigned root, unsigned vls, char *err, size_t errlen);
/* up* / down* with `trees` spanning trees (1..vls, at most ROUTE_LFT_MAX_TREES), on `vls` data VLs. */
int route_lft_build_mst(route_lft_t *r, const fabric_topo_t *t, const uint8_t *off, unsigned root,
                        unsigned vls, unsigned trees, char *err, size_t errlen);
void route_lft_free(route_lft_t *r);
/* The VL a packet src -> dst (nodes) uses: DOR's dateline class; up* / down*: (src + dst) mod vls;
 * UPDN_MST: one of its tree's VLs. */
unsigned route_lft_vl(const route_lft_t *r, unsigned src, unsigned dst);
/* The tree a flow src -> dst uses (0 unless UPDN_MST), and the DLID it is sent to. */
unsigned route_lft_tree(const route_lft_t *r, unsigned src, unsigned dst);
unsigned route_lft_dlid(const route_lft_t *r, unsigned src, unsigned dst);
/* Node d's LID on tree t: ((d + 1) << lmc) + t; the highest LID in use. */
unsigned route_lft_lid(const route_lft_t *r, unsigned d, unsigned t);
unsigned route_lft_top(const route_lft_t *r);
/* Tree t's table (t < trees). */
static inline uint8_t *route_lft_table(const route_lft_t *r, unsigned t) {
  return r->lft + (size_t)t * r->nsw * r->nodes;
}
/* 0, or -1 with err and *what = "hole", "loop", "misroute", "illegal" or "cycle". */
int route_lft_check(const route_lft_t *r, const char **what, char *err, size_t errlen);
/* Pick k inter-switch links to deactivate, seed 000's ref. 2 rule: only the
 * number of parallel links between neighbour switches is regulated, never the
 * last one; pairs in a seeded order, one link from each pair per round,
 * highest parallel port first. Marks both ends in off[nsw * sw_ports]. 0, or
 * -1 with err when k exceeds what the rule allows (the maximum is named). */
int route_lft_pick_off(const fabric_topo_t *t, unsigned k, uint64_t seed, uint8_t *off, char *err,
                       size_t errlen);

/* The plug-in: ctx = a built route_lft_t; word = DLID << 48 | SLID << 32 (the
 * data HEAD of docs/ibsw.md §3.2), hops = switches crossed. */
extern const fabric_router_t route_lft_router;
void route_lft_router_init(fabric_router_t *rt, const route_lft_t *r);

#endif
