/* NPB-like traffic: see ibf_npb.h. The partner formulas are NPB 3.3 MPI's own (CG:
 * setup_proc_info's exch_proc and reduce_exch_proc, conj_grad's exchanges; BT: make_set's
 * predecessor/successor, copy_faces, x/y/z_solve's solve and back-substitution messages). */
#include "ibfabric/ibf_npb.h"

#include <stdio.h>
#include <stdlib.h>

#include "ibfabric/ibf_host.h"

unsigned ibf_npb_node(unsigned rank, unsigned nsw, unsigned conc) { return (rank % nsw) * conc + rank / nsw; }

typedef struct {
  uint32_t *v;
  unsigned n, cap;
  unsigned me, nsw, conc, len, msgs, bug_to; /* bug_to: where message 0 goes instead (~0u: none) */
  int oom;
} list_t;

/* One message of `bytes` to rank `to`: ceil(bytes / (8 * len)) packets (ours: a packet's
   whole len flits count as payload). */
static void msg(list_t *L, unsigned to, unsigned bytes) {
  if (L->msgs++ == 0 && L->bug_to != ~0u) to = L->bug_to; /* planted */
  if (to == L->me) return;                                /* MPI to oneself: no network traffic */
  const unsigned pk = (bytes + 8 * L->len - 1) / (8 * L->len);
  const uint32_t node = ibf_npb_node(to, L->nsw, L->conc);
  for (unsigned k = 0; k < pk; k++) {
    if (L->n == L->cap) {
      unsigned nc = L->cap ? 2 * L->cap : 256;
      uint32_t *nv = realloc(L->v, nc * sizeof *nv);
      if (!nv) {
        L->oom = 1;
        return;
      }
      L->v = nv;
      L->cap = nc;
    }
    L->v[L->n++] = node;
  }
}

/* One CG iteration of conj_grad (cgitmax inner iterations are alike): q = A.p summed across
   the row (do i = l2npcols, 1, -1: w segment to reduce_exch_proc(i)), the transpose exchange
   (to exch_proc), then the two dot products (p.q and r.r), each a row sum of one double
   (i = 1..l2npcols). npcols = nprows. */
static void cg_rank(list_t *L, unsigned ranks) {
  unsigned nprows = 1;
  while (nprows * nprows < ranks) nprows *= 2;
  const unsigned npcols = nprows, me = L->me;
  const unsigned proc_row = me / npcols, proc_col = me % npcols;
  const unsigned exch_proc = (me % nprows) * nprows + me / nprows;
  unsigned l2npcols = 0;
  for (unsigned i = npcols / 2; i > 0; i /= 2) l2npcols++;
  unsigned reduce_exch_proc[16];
  unsigned div_factor = npcols;
  for (unsigned i = 1; i <= l2npcols; i++) {
    const unsigned j = (proc_col + div_factor / 2) % div_factor + proc_col / div_factor * div_factor;
    reduce_exch_proc[i] = proc_row * npcols + j;
    div_factor /= 2;
  }
  const unsigned seg = 8 * ((IBF_NPB_CG_NA + nprows - 1) / nprows); /* lastrow - firstrow + 1 doubles */
  for (unsigned i = l2npcols; i >= 1; i--) msg(L, reduce_exch_proc[i], seg);
  msg(L, exch_proc, seg);
  for (unsigned d = 0; d < 2; d++)
    for (unsigned i = 1; i <= l2npcols; i++) msg(L, reduce_exch_proc[i], 8);
}

/* One BT time step (adi): copy_faces to the 6 face neighbours (2 ghost layers of 5 doubles over
   each of the p - 1 cells that have a neighbour that way), then x, y and z solves: p - 1
   forward-elimination messages of MAX_CELL_DIM^2 * (25 + 5) doubles to successor(dir), p - 1
   back-substitution messages of MAX_CELL_DIM^2 * 5 doubles to predecessor(dir). */
static void bt_rank(list_t *L, unsigned ranks) {
  unsigned p = 1;
  while (p * p < ranks) p++;
  const unsigned node = L->me;
  const unsigned i = node % p, j = node / p; /* cell_coord(1,1) - 1, cell_coord(2,1) - 1 */
  unsigned predecessor[4], successor[4];
  predecessor[1] = (i - 1 + p) % p + p * j;
  predecessor[2] = i + p * ((j - 1 + p) % p);
  predecessor[3] = (i + 1) % p + p * ((j - 1 + p) % p);
  successor[1] = (i + 1) % p + p * j;
  successor[2] = i + p * ((j + 1) % p);
  successor[3] = (i - 1 + p) % p + p * ((j + 1) % p);
  const unsigned cell = IBF_NPB_BT_GRID / p, mcd = IBF_NPB_BT_GRID / p + 1;
  const unsigned face = 8 * (p - 1) * 2 * 5 * cell * cell;
  for (unsigned dir = 1; dir <= 3; dir++) {
    msg(L, successor[dir], face);
    msg(L, predecessor[dir], face);
  }
  for (unsigned dir = 1; dir <= 3; dir++) {
    for (unsigned s = 1; s < p; s++) msg(L, successor[dir], 8 * mcd * mcd * 30);
    for (unsigned s = 1; s < p; s++) msg(L, predecessor[dir], 8 * mcd * mcd * 5);
  }
}

int ibf_npb_build(unsigned kind, unsigned ranks, unsigned nsw, unsigned conc, unsigned len, unsigned bug,
                  uint32_t **list, unsigned *n, char *err, size_t errlen) {
  if (ranks > nsw * conc) {
    snprintf(err, errlen, "NPB traffic: %u ranks on %u hosts", ranks, nsw * conc);
    return -1;
  }
  if (kind == IBF_NPB_CG) {
    unsigned q = 1;
    while (q * q < ranks) q *= 2;
    if (q * q != ranks || ranks < 4 || q > 4096) {
      snprintf(err, errlen, "--traffic=npb_cg needs ranks = 4^k >= 4 (a square process grid; %u)", ranks);
      return -1;
    }
  } else {
    unsigned p = 1;
    while (p * p < ranks) p++;
    if (p * p != ranks || p < 2 || p > 8 || IBF_NPB_BT_GRID % p) {
      snprintf(err, errlen, "--traffic=npb_bt needs ranks = p^2, p in 2, 3, 4, 6, 8 (cells of 24 / p; %u)",
               ranks);
      return -1;
    }
  }
  for (unsigned r = 0; r < ranks; r++) {
    list_t L = {
        NULL, 0, 0, r, nsw, conc, len, 0, bug == IBF_NPB_BUG_WRONG_PARTNER && r == 1 ? ranks - 1 : ~0u, 0};
    if (kind == IBF_NPB_CG)
      cg_rank(&L, ranks);
    else
      bt_rank(&L, ranks);
    if (L.oom || !L.n) {
      free(L.v);
      snprintf(err, errlen, "NPB traffic: rank %u: %s", r, L.oom ? "out of memory" : "no messages");
      return -1;
    }
    const unsigned nd = ibf_npb_node(r, nsw, conc);
    list[nd] = L.v;
    n[nd] = L.n;
  }
  return 0;
}
