/*
 * elite4_vc_alloc -- VA: output allocation (section 5.4).
 * Spec: docs/elite4.md section 5.4.
 *
 * Requesters are the input VCs (i, v) that are IDLE with a HEAD of legal route at the
 * front (section 5.2). Each VC v is allocated on its own:
 *   1. the broadcast leader of v (lowest input among v's broadcast requesters) is granted
 *      when every (o, v) of its range is FREE; its range is reserved either way;
 *   2. every other FREE, unreserved output VC (o, v) grants the first of its unicast or
 *      adaptive requesters at or after vrr[o][v], and vrr[o][v] moves past it.
 * An adaptive requester asks for (upsel[v].port, v), the choice registered last cycle
 * (nothing while upsel[v] is not valid). Only FREE in the registered state counts.
 */
#include "elite4_internal.h"

#include <string.h>

void elite4_vc_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w, elite4_next_t *nx) {
  (void)cfg;
  const unsigned P = w->np, V = w->nv;

  w->granted = 0;
  w->new_busy = 0;
  memcpy(nx->vrr, s->vrr, w->nivc * sizeof(*nx->vrr));
  memcpy(nx->uptr, s->uptr, sizeof(nx->uptr));

  /* Only the VCs with a requester allocate anything. */
  uint32_t vcs = 0;
  for (uint64_t m = w->req_mask; m != 0; m &= m - 1u) vcs |= 1u << ((unsigned)__builtin_ctzll(m) & w->vm);

  for (; vcs != 0; vcs &= vcs - 1u) {
    const unsigned v = (unsigned)__builtin_ctz(vcs);
    /* (o, v) FREE in the registered state, looked up only for the outputs asked for */
#define ELITE4_FREE(o) ((w->ofree >> ((o)*V + v)) & 1u)

    /* Requests of VC v: req_of[o] = inputs asking for (o, v) (unicast and adaptive). */
    uint32_t req_of[ELITE4_MAX_PORTS] = {0};
    uint32_t adaptive = 0; /* inputs whose request is the adaptive choice */
    uint32_t asked = 0;    /* outputs with a request (bit o: req_of[o] != 0) */
    int leader = -1;
    for (uint64_t m = w->req_mask; m != 0; m &= m - 1u) {
      const unsigned k = (unsigned)__builtin_ctzll(m), i = k >> w->vs;
      if ((k & w->vm) != v) continue;
      const elite4_route_t *q = &w->req[k];
      if (q->kind == ELITE4_REQ_PORTS && q->bcast) {
        if (leader < 0) leader = (int)i;
      } else if (q->kind == ELITE4_REQ_PORTS) {
        req_of[__builtin_ctz(q->ports)] |= 1u << i;
        asked |= 1u << __builtin_ctz(q->ports);
      } else if (s->upsel[v].valid && s->upsel[v].port < P) { /* ELITE4_REQ_UP */
        req_of[s->upsel[v].port] |= 1u << i;
        asked |= 1u << s->upsel[v].port;
        adaptive |= 1u << i;
      }
    }

    /* 1. Broadcasts first: the leader; its range is reserved this cycle. */
    uint32_t reserved = 0;
    if (leader >= 0) {
      const unsigned k = ((unsigned)leader << w->vs) | v;
      const uint32_t range = w->req[k].ports;
      reserved = range;
      bool all_free = true;
      for (uint32_t m = range; m != 0 && all_free; m &= m - 1u) all_free = ELITE4_FREE(__builtin_ctz(m));
      if (all_free) {
        w->grant[k] = range;
        w->granted |= UINT64_C(1) << k;
        for (uint32_t m = range; m != 0; m &= m - 1u) {
          const unsigned o = (unsigned)__builtin_ctz(m);
          w->new_owner[o * V + v] = (uint8_t)leader;
          w->new_busy |= UINT64_C(1) << (o * V + v);
        }
      }
    }

    /* 2. Unicast and adaptive: a round robin per FREE, unreserved output VC. */
    for (uint32_t mo = asked & ~reserved; mo != 0; mo &= mo - 1u) {
      const unsigned o = (unsigned)__builtin_ctz(mo);
      if (!ELITE4_FREE(o)) continue;
      const uint32_t rq = req_of[o];
      const unsigned ptr = s->vrr[o * V + v];
      const uint32_t at_or_after = rq & ~((1u << ptr) - 1u); /* ptr <= P - 1 < 32 */
      const unsigned i = (unsigned)__builtin_ctz(at_or_after != 0 ? at_or_after : rq);
      const unsigned k = (i << w->vs) | v;
      w->grant[k] = 1u << o;
      w->granted |= UINT64_C(1) << k;
      w->new_owner[o * V + v] = (uint8_t)i;
      w->new_busy |= UINT64_C(1) << (o * V + v);
      nx->vrr[o * V + v] = (uint8_t)((i + 1u) % P);
      /* An adaptive requester granted: uptr[v] moves past the port it got. */
      if ((adaptive >> i) & 1u) nx->uptr[v] = (o + 1u) % P;
    }
  }
}
#undef ELITE4_FREE
