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

/* The first port of m in the order start, start+1, ..., P-1, 0, ...: the lowest at or
   after start, else the lowest (m != 0). */
static inline unsigned first_from(uint32_t m, uint32_t below) {
  const uint32_t hi = m & ~below;
  return (unsigned)__builtin_ctz(hi != 0 ? hi : m);
}

void elite4_up_select(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                      elite4_next_t *nx) {
  const unsigned P = w->np, V = w->nv;
  const uint32_t up_links = cfg->up_mask & elite4_port_mask(P); /* UpMask within the ports */
  const unsigned full = s->cred_cfg.max_credits;

  /* One pass over the up-links builds, per VC, the FREE ones (s->act: the registered
     ost), those among them whose downstream buffer is empty (cred == BufDepth) and
     those with a credit (cred > 0); the search in the order uptr[v], ..., P-1, 0, ...
     is then "the first of a mask from uptr[v] on" (docs/elite4.md section 7.1). */
  uint32_t cand[ELITE4_MAX_VCS] = {0}, empty[ELITE4_MAX_VCS] = {0}, some[ELITE4_MAX_VCS] = {0};
  for (uint32_t m = up_links; m != 0; m &= m - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(m);
    const uint32_t free_v = (uint32_t)(s->act.ofree >> (o * V)) & ((1u << V) - 1u);
    for (uint32_t fv = free_v; fv != 0; fv &= fv - 1u) {
      const unsigned v = (unsigned)__builtin_ctz(fv), c = elite4_cred(s, o, v);
      cand[v] |= 1u << o;
      if (c == full) empty[v] |= 1u << o;
      if (c > 0) some[v] |= 1u << o;
    }
  }

  for (unsigned v = 0; v < ELITE4_MAX_VCS; v++) {
    nx->upsel[v] = (elite4_upsel_t){false, 0};
    if (v >= V || cand[v] == 0) continue; /* no up-link FREE: not valid */

    /* Planted bug elite4_adaptive_first: the lowest-numbered free up-link. */
    if (cfg->bug == ELITE4_BUG_ADAPTIVE_FIRST) {
      nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)__builtin_ctz(cand[v])};
      continue;
    }

    /* The first empty one, else the first with a credit, else the first. */
    const unsigned start = s->uptr[v] < P ? s->uptr[v] : 0u;
    const uint32_t below = (1u << start) - 1u; /* start <= P - 1 < 32 */
    const uint32_t pool = empty[v] != 0 ? empty[v] : some[v] != 0 ? some[v] : cand[v];
    nx->upsel[v] = (elite4_upsel_t){true, (uint8_t)first_from(pool, below)};
  }
}
