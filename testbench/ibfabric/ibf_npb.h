/* NPB-like application traffic for the ibsw fabric (docs/ibsw.md "NPB-like traffic"):
 * the communication structure of NPB 3.3 MPI CG and BT, class W, synthesised (we have no
 * traces; seed 000 Fig. 4 used traces). Each rank gets a cyclic list of destination hosts:
 * its messages of one iteration in phase order, each message as ceil(bytes / (8 * len))
 * packets of len flits (8-byte flits). The host sends its k-th packet to list[k mod n].
 *
 * Placement (ours): rank r on switch r mod nsw, host slot r / nsw (node = switch * conc +
 * slot): 16 ranks on a 4x4 torus are one per switch, on slot 0 of each.
 * Messages to oneself (CG's diagonal ranks' transpose exchange) stay off the network. */
#ifndef NETCOSIM_IBF_NPB_H
#define NETCOSIM_IBF_NPB_H

#include <stddef.h>
#include <stdint.h>

/* Class W sizes (NPB 3.3 npbparams for CLASS=W): CG na = 7000, BT grid 24^3. */
#define IBF_NPB_CG_NA   7000u
#define IBF_NPB_BT_GRID 24u

/* The planted bug of the generator (negative of check ibfab.npb_pattern): rank 1's first
   message goes to rank ranks-1 instead of its partner. */
#define IBF_NPB_BUG_WRONG_PARTNER 1u

/* The node rank r runs on. */
unsigned ibf_npb_node(unsigned rank, unsigned nsw, unsigned conc);

/* Build the lists: list[node] (malloc'd, NULL and n[node] = 0 for a host that runs no rank).
 * kind: IBF_NPB_CG or IBF_NPB_BT (ibf_host.h). CG needs ranks = 4^k (a square process grid,
 * npcols = nprows), BT ranks = p^2 with p in 2, 3, 4, 6, 8; ranks <= nsw * conc.
 * Returns 0, or -1 with a message in err. */
int ibf_npb_build(unsigned kind, unsigned ranks, unsigned nsw, unsigned conc, unsigned len, unsigned bug,
                  uint32_t **list, unsigned *n, char *err, size_t errlen);

/* The check (ibf_npbcheck.c), written apart from the generator: from the formulas alone, the
 * destinations and packet counts of one iteration per rank; then, per source host, the
 * packets it sent to each destination (sent[src * nodes + dst]) must be q whole iterations
 * plus a part of one (for each destination between q * w and (q + 1) * w packets, w its
 * packets per iteration), and nothing to a host that is not a partner; a host without a rank
 * sends nothing. Returns 0, or -1 with the first difference in msg. */
int ibf_npb_check(unsigned kind, unsigned ranks, unsigned nsw, unsigned conc, unsigned len, unsigned nodes,
                  const uint32_t *sent, char *msg, size_t msglen);

#endif
