/*
 * elite4_up_select -- the adaptive choice upsel[v] (section 5.4).
 * Spec: docs/elite4.md section 5.4, "Adaptive choice" (our design choice; the seed says
 * only that the switch picks an up-link).
 *
 * Computed every cycle from the registered state (ost, cred, uptr) and used by VA in the
 * next cycle, so it can be one cycle stale. Among the FREE up-links of VC v, in the order
 * uptr[v], uptr[v]+1, ..., P-1, 0, ...: the first whose downstream buffer is empty
 * (cred == BufDepth), else the first with a credit, else the first; none FREE: not valid.
 * uptr' is VA's (it moves only when an adaptive requester is granted). It reads the
 * registered state only (the fabric's quiet() calls it too), FREE through s->act.
 */
#include "elite4_internal.h"

void elite4_up_select(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                      elite4_next_t *nx) {
  const unsigned P = w->np, V = w->nv;
  const uint32_t up_links = cfg->up_mask & elite4_port_mask(P); /* UpMask within the ports */

  for (unsigned v = 0; v < ELITE4_MAX_VCS; v++) {
    nx->upsel[v] = (elite4_upsel_t){false, 0};
    if (v >= V) continue;
    uint32_t cand = 0; /* FREE up-links of VC v (s->act: the registered ost) */
    for (uint32_t m = up_links; m != 0; m &= m - 1u) {
      const unsigned o = (unsigned)__builtin_ctz(m);
      if ((s->act.ofree >> (o * V + v)) & 1u) cand |= 1u << o;
    }
    if (cand == 0) continue;

    /* Planted bug elite4_adaptive_first: the lowest-numbered free up-link. */
    if (cfg->bug == ELITE4_BUG_ADAPTIVE_FIRST) {
      nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)__builtin_ctz(cand)};
      continue;
    }

    /* The candidates in the order uptr[v], ..., P-1, 0, ...: those at or after the
       pointer, then those before it; the first empty one ends the search. */
    const unsigned start = s->uptr[v] < P ? s->uptr[v] : 0u;
    const uint32_t below = (1u << start) - 1u; /* start <= P - 1 < 32 */
    const uint32_t order[2] = {cand & ~below, cand & below};
    int empty = -1, some = -1, first = -1;
    for (unsigned h = 0; h < 2 && empty < 0; h++) {
      for (uint32_t m = order[h]; m != 0 && empty < 0; m &= m - 1u) {
        const unsigned o = (unsigned)__builtin_ctz(m);
        const unsigned c = elite4_cred(s, o, v);
        if (first < 0) first = (int)o;
        if (some < 0 && c > 0) some = (int)o;
        if (c == s->cred_cfg.max_credits) empty = (int)o;
      }
    }
    const int pick = empty >= 0 ? empty : some >= 0 ? some : first;
    nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)pick};
  }
}
