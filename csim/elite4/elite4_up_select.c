/*
 * elite4_up_select -- the adaptive choice upsel[v] (section 5.4).
 * Spec: docs/elite4.md section 5.4, "Adaptive choice" (our design choice; the seed says
 * only that the switch picks an up-link).
 *
 * Computed every cycle from the registered state (ost, cred, uptr) and used by VA in the
 * next cycle, so it can be one cycle stale. Among the FREE up-links of VC v, in the order
 * uptr[v], uptr[v]+1, ..., P-1, 0, ...: the first whose downstream buffer is empty
 * (cred == BufDepth), else the first with a credit, else the first; none FREE: not valid.
 * uptr' is VA's (it moves only when an adaptive requester is granted).
 */
#include "elite4_internal.h"

void elite4_up_select(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                      elite4_next_t *nx) {
  const unsigned P = w->np, V = w->nv;
  const uint32_t up_links = cfg->up_mask & elite4_port_mask(P); /* UpMask within the ports */

  for (unsigned v = 0; v < ELITE4_MAX_VCS; v++) {
    nx->upsel[v] = (elite4_upsel_t){false, 0};
    if (v >= V) continue;
    uint32_t cand = 0;
    for (unsigned o = 0; o < P; o++)
      if (((up_links >> o) & 1u) && s->ovc[o * V + v].st == ELITE4_OST_FREE) cand |= 1u << o;
    if (cand == 0) continue;

    /* Planted bug elite4_adaptive_first: the lowest-numbered free up-link. */
    if (cfg->bug == ELITE4_BUG_ADAPTIVE_FIRST) {
      nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)__builtin_ctz(cand)};
      continue;
    }

    int empty = -1, some = -1, first = -1;
    unsigned o = s->uptr[v] < P ? s->uptr[v] : 0u;
    for (unsigned n = 0; n < P; n++, o = (o + 1u == P) ? 0u : o + 1u) {
      if (!((cand >> o) & 1u)) continue;
      const unsigned c = elite4_cred(s, o, v);
      if (first < 0) first = (int)o;
      if (some < 0 && c > 0) some = (int)o;
      if (empty < 0 && c == s->cred_cfg.max_credits) empty = (int)o;
    }
    const int pick = empty >= 0 ? empty : some >= 0 ? some : first;
    nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)pick};
  }
}
