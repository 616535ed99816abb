/*
 * elite4_vc_alloc -- output allocation (section 5.4).
 * Spec: docs/elite4.md section 5.4.
 *
 * Requesters are the input VCs (i, v) whose route decode gave a legal request this cycle
 * (IDLE with a HEAD at the front). They are taken one at a time in the order
 * r = aptr, aptr+1, ... (mod P*V), r = i*V + v. A requester is granted when every output
 * VC (o, v) it needs is FREE in the registered state and not granted to an earlier
 * requester in this cycle; a token that frees an output this cycle does not count.
 */
#include "elite4_internal.h"

/* TagUp: among the free up-links, the one with the most credits; ties go to the first in
   the order uptr, uptr+1, ..., P-1, 0, ... (the registered uptr, for every requester of
   the cycle). Planted bug elite4_adaptive_first: the lowest-numbered free up-link. */
static unsigned pick_up_link(const elite4_cfg_t *cfg, const elite4_state_t *s, uint32_t cand, unsigned v,
                             unsigned np) {
  if (cfg->bug == ELITE4_BUG_ADAPTIVE_FIRST) return (unsigned)__builtin_ctz(cand);

  unsigned best = np;
  unsigned best_cred = 0;
  unsigned o = s->uptr;
  for (unsigned n = 0; n < np; n++, o = (o + 1u == np) ? 0u : o + 1u) {
    if (!((cand >> o) & 1u)) continue;
    const unsigned c = elite4_cred(s, o, v);
    if (best == np || c > best_cred) { /* strictly more: the earlier one keeps ties */
      best = o;
      best_cred = c;
    }
  }
  return best;
}

void elite4_vc_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w, elite4_next_t *nx) {
  const unsigned P = w->np, V = w->nv, N = w->nivc;
  const uint32_t up_links = cfg->up_mask & elite4_port_mask(P); /* UpMask within the ports */

  /* free[v]: output ports whose VC v is FREE and not yet granted in this cycle. */
  uint32_t free_ports[ELITE4_MAX_VCS];
  for (unsigned v = 0; v < V; v++) {
    free_ports[v] = 0;
    for (unsigned o = 0; o < P; o++)
      if (s->ovc[o * V + v].st == ELITE4_OST_FREE) free_ports[v] |= 1u << o;
  }

  w->granted = 0;
  w->new_busy = 0;
  bool any_up = false;
  unsigned last_up = 0;

  /* The requesters in the order aptr, aptr+1, ..., N-1, then 0, ..., aptr-1. */
  const uint64_t below = (UINT64_C(1) << s->aptr) - 1u; /* aptr <= 63 */
  const uint64_t order[2] = {w->req_mask & ~below, w->req_mask & below};
  for (unsigned half = 0; half < 2; half++) {
    for (uint64_t m = order[half]; m != 0; m &= m - 1u) {
      const unsigned r = (unsigned)__builtin_ctzll(m);
      const elite4_route_t *q = &w->req[r];
      const unsigned i = r >> w->vs, v = r & w->vm;

      uint32_t g = 0;
      if (q->kind == ELITE4_REQ_PORTS) {
        /* Port or broadcast: all requested (o, v) at once, or nothing. */
        if ((q->ports & ~free_ports[v]) == 0) g = q->ports;
      } else {
        const uint32_t cand = up_links & free_ports[v];
        if (cand != 0) { /* no free up-link: not granted this cycle */
          const unsigned o = pick_up_link(cfg, s, cand, v, P);
          g = 1u << o;
          any_up = true;
          last_up = o; /* the last up-link granted in this cycle's order */
        }
      }
      if (g == 0) continue;

      free_ports[v] &= ~g;
      w->grant[r] = g;
      w->granted |= UINT64_C(1) << r;
      for (uint32_t mo = g; mo != 0; mo &= mo - 1u) {
        const unsigned o = (unsigned)__builtin_ctz(mo);
        w->new_owner[o * V + v] = (uint8_t)i;
        w->new_busy |= UINT64_C(1) << (o * V + v);
      }
    }
  }

  /* Rotating priority; uptr moves past the last up-link granted. */
  nx->aptr = (s->aptr + 1u) % N;
  nx->uptr = any_up ? (last_up + 1u) % P : s->uptr;
}
