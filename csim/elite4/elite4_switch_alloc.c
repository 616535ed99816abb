/*
 * elite4_switch_alloc -- SA: what each output port takes this cycle (section 5.5).
 * Spec: docs/elite4.md section 5.5.
 *
 * Per output o: a pending upstream token first (lowest VC); otherwise one VC among the
 * candidates -- a broadcast circuit if there is one (lowest VC, the same priority on every
 * output), else the first at or after srr[o] (common_rr_arbiter). A broadcast circuit
 * sends only when every one of its outputs chose it. What o takes goes to sel[o]; the
 * sending input VCs are popped into their staging registers by the input unit; ST puts
 * both into the output register next cycle.
 */
#include "elite4_internal.h"

void elite4_switch_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w,
                         elite4_next_t *nx) {
  (void)cfg;
  const unsigned P = w->np, V = w->nv;

  /* Input VCs that could send (registered state): ACTIVE, buffer not empty, cred[o'][v] > 0 for every o' of
       the circuit. */
  uint64_t ready = 0;
  for (unsigned k = 0; k < w->nivc; k++) {
    const elite4_ivc_t *c = &s->ivc[k];
    if (c->st != ELITE4_IST_ACTIVE || !w->front[k].valid) continue;
    const unsigned v = k & w->vm;
    bool ok = true;
    for (uint32_t m = c->outs; m != 0 && ok; m &= m - 1u)
      ok = elite4_cred(s, (unsigned)__builtin_ctz(m), v) > 0;
    if (ok) ready |= UINT64_C(1) << k;
  }

  int8_t bchoice[ELITE4_MAX_PORTS]; /* broadcast VC output o chose, -1 = none */
  w->send = 0;
  w->waiting = 0;
  nx->rr_touched = 0;

  for (unsigned o = 0; o < P; o++) {
    w->tok_vc[o] = -1;
    w->data_ivc[o] = -1;
    bchoice[o] = -1;

    /* 1. A pending token owed upstream on port o: the lowest VC goes, no data flit. */
    for (unsigned v = 0; v < V; v++) {
      if (s->tokp[o * V + v].valid) {
        w->tok_vc[o] = (int8_t)v;
        break;
      }
    }

    /* 2. Candidates: (o, v) BUSY with owner i, (i, v) ready. */
    uint32_t cand = 0, bcand = 0;
    for (unsigned v = 0; v < V; v++) {
      const elite4_ovc_t *ov = &s->ovc[o * V + v];
      if (ov->st != ELITE4_OST_BUSY) continue;
      const unsigned k = (ov->owner << w->vs) | v;
      /* XmitWait (section 5.5): a BUSY VC whose owner is ACTIVE with data. */
      if (s->ivc[k].st == ELITE4_IST_ACTIVE && w->front[k].valid) w->waiting |= 1u << o;
      if ((ready >> k) & 1u) {
        cand |= 1u << v;
        if (s->ivc[k].bcast) bcand |= 1u << v;
      }
    }

    if (w->tok_vc[o] >= 0) continue;
    if (bcand != 0) {
      bchoice[o] = (int8_t)__builtin_ctz(bcand); /* lowest broadcast VC */
    } else if (cand != 0) {
      /* Only unicast candidates: the round-robin arbiter chooses. A unicast choice
               always sends, so the grant is taken (ack) and rr moves past it. The arbiter
               is not consulted (and keeps its pointer) in any other case. */
      const common_rr_arbiter_in_t ai = {.req = cand, .ack = true};
      common_rr_arbiter_out_t ao;
      common_rr_arbiter_eval(&s->rr_cfg, &s->rr[o], &ai, &ao, &nx->rr[o]);
      nx->rr_touched |= 1u << o;
      const unsigned v = ao.gnt_idx;
      const unsigned k = (s->ovc[o * V + v].owner << w->vs) | v;
      w->data_ivc[o] = (int8_t)k;
      w->send |= UINT64_C(1) << k;
    }
  }

  /* 3. A broadcast circuit sends only if every output of its outs chose it (an output
       sending a token chose nothing); outputs that chose it otherwise send nothing. */
  for (unsigned o = 0; o < P; o++) {
    if (bchoice[o] < 0) continue;
    const unsigned v = (unsigned)bchoice[o];
    const unsigned k = (s->ovc[o * V + v].owner << w->vs) | v;
    bool all = true;
    for (uint32_t m = s->ivc[k].outs; m != 0 && all; m &= m - 1u)
      all = bchoice[__builtin_ctz(m)] == (int8_t)v;
    if (all) {
      w->data_ivc[o] = (int8_t)k;
      w->send |= UINT64_C(1) << k;
    }
  }

  /* sel[o] for ST: the token, or the staged flit of (i, v), or nothing. */
  for (unsigned o = 0; o < ELITE4_MAX_PORTS; o++) {
    elite4_sel_t *sl = &nx->sel[o];
    *sl = (elite4_sel_t){false, false, false, 0, 0};
    if (o >= P) continue;
    if (w->tok_vc[o] >= 0) {
      const unsigned v = (unsigned)w->tok_vc[o];
      *sl = (elite4_sel_t){true, true, s->tokp[o * V + v].ack, 0, (uint8_t)v};
    } else if (w->data_ivc[o] >= 0) {
      const unsigned k = (unsigned)w->data_ivc[o];
      *sl = (elite4_sel_t){true, false, false, (uint8_t)(k >> w->vs), (uint8_t)(k & w->vm)};
    }
  }
}
