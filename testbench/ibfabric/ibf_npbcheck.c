/* Check ibfab.npb_pattern (ibf_npb.h): the packets each host sent, against the partner sets
 * and packet counts of one NPB iteration computed here from the formulas in docs/ibsw.md
 * "NPB-like traffic" in another form (coordinates, XOR partners, sizes in 8-byte flits), never
 * by calling the generator (ibf_npb.c). */
#include <stdio.h>
#include <stdlib.h>

#include "ibfabric/ibf_host.h"
#include "ibfabric/ibf_npb.h"

static unsigned div_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* The rank on host `node`, or ~0u (placement: slot-major over switches). */
static unsigned rank_of(unsigned node, unsigned nsw, unsigned conc, unsigned ranks) {
  const unsigned r = (node % conc) * nsw + node / conc;
  return r < ranks ? r : ~0u;
}

/* Packets per iteration from rank r to each rank (w[ranks]). */
static void expect_cg(unsigned r, unsigned ranks, unsigned len, unsigned *w) {
  unsigned q = 1, lg = 0;
  while (q * q < ranks) q *= 2, lg++;
  const unsigned row = r / q, col = r % q;
  const unsigned vec = div_up(IBF_NPB_CG_NA, q * len); /* na / q doubles, len per packet */
  for (unsigned k = 0; k < lg; k++) {
    const unsigned peer = row * q + (col ^ (1u << k));
    w[peer] += vec + 2; /* the segment, and one double per dot product (2) */
  }
  const unsigned tr = col * q + row;
  if (tr != r) w[tr] += vec;
}

static void expect_bt(unsigned r, unsigned ranks, unsigned len, unsigned *w) {
  unsigned p = 2;
  while (p * p < ranks) p++;
  const unsigned x = r % p, y = r / p, c = IBF_NPB_BT_GRID / p;
  const unsigned face = div_up((p - 1) * 10 * c * c, len);
  const unsigned fwd = (p - 1) * div_up((c + 1) * (c + 1) * 30, len);
  const unsigned bwd = (p - 1) * div_up((c + 1) * (c + 1) * 5, len);
  /* (dx, dy) of the three "successor" directions: x, y, and z's skew (-1, +1) */
  static const int dx[3] = {1, 0, -1}, dy[3] = {0, 1, 1};
  for (unsigned d = 0; d < 3; d++) {
    const unsigned xs = (x + p + dx[d]) % p, ys = (y + p + dy[d]) % p;
    const unsigned xp = (x + p - dx[d]) % p, yp = (y + p - dy[d]) % p;
    w[ys * p + xs] += face + fwd;
    w[yp * p + xp] += face + bwd;
  }
}

int ibf_npb_check(unsigned kind, unsigned ranks, unsigned nsw, unsigned conc, unsigned len, unsigned nodes,
                  const uint32_t *sent, char *msg, size_t msglen) {
  unsigned *w = calloc(ranks, sizeof *w);
  if (!w) {
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  int bad = 0;
  for (unsigned s = 0; s < nodes && !bad; s++) {
    const unsigned r = rank_of(s, nsw, conc, ranks);
    uint64_t n = 0;
    for (unsigned d = 0; d < nodes; d++) n += sent[(size_t)s * nodes + d];
    if (r == ~0u) {
      if (n) {
        snprintf(msg, msglen, "host %u runs no rank and sent %llu packets", s, (unsigned long long)n);
        bad = 1;
      }
      continue;
    }
    for (unsigned k = 0; k < ranks; k++) w[k] = 0;
    if (kind == IBF_NPB_CG)
      expect_cg(r, ranks, len, w);
    else
      expect_bt(r, ranks, len, w);
    uint64_t per = 0;
    for (unsigned k = 0; k < ranks; k++) per += w[k];
    const uint64_t q = n / per;
    for (unsigned d = 0; d < nodes && !bad; d++) {
      const unsigned rd = rank_of(d, nsw, conc, ranks);
      const uint64_t got = sent[(size_t)s * nodes + d], wd = rd == ~0u ? 0 : w[rd];
      if (got < q * wd || got > (q + 1) * wd) {
        snprintf(msg, msglen,
                 "%s rank %u (host %u) sent %llu packets to host %u (rank %d); %llu sent in all = %llu "
                 "iterations of %llu, so %llu..%llu expected",
                 kind == IBF_NPB_CG ? "CG" : "BT", r, s, (unsigned long long)got, d, rd == ~0u ? -1 : (int)rd,
                 (unsigned long long)n, (unsigned long long)q, (unsigned long long)per,
                 (unsigned long long)(q * wd), (unsigned long long)((q + 1) * wd));
        bad = 1;
      }
    }
  }
  free(w);
  return bad ? -1 : 0;
}
