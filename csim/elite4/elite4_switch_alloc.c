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

#include <string.h>

void elite4_switch_alloc(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w,
                         elite4_next_t *nx) {
  (void)cfg;
  const unsigned V = w->nv, vs = w->vs;
  const uint32_t vbits = (1u << V) - 1u;

  /* Input VCs that could send (registered state): ACTIVE, buffer not empty, cred[o'][v] > 0 for every o' of
       the circuit. */
  const uint64_t has_data = w->active & w->nonempty;
  uint64_t ready = 0;
  for (uint64_t m = has_data; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m), v = k & w->vm;
    bool ok = true;
    for (uint32_t mo = s->ivc[k].outs; mo != 0 && ok; mo &= mo - 1u)
      ok = elite4_cred(s, (unsigned)__builtin_ctz(mo), v) > 0;
    if (ok) ready |= UINT64_C(1) << k;
  }

  int8_t bchoice[ELITE4_MAX_PORTS]; /* broadcast VC output o chose, where bit o of chose */
  uint32_t chose = 0;
  w->send = 0;
  w->waiting = 0;
  w->tok_sent = 0;
  nx->rr_touched = 0;
  memset(w->tok_vc, -1, sizeof(w->tok_vc));
  memset(w->data_ivc, -1, sizeof(w->data_ivc));
  memset(nx->sel, 0, sizeof(nx->sel));

  /* Only outputs with a token owed or a BUSY VC can take anything. */
  uint32_t outs = 0;
  for (uint64_t m = w->tokp_v | w->obusy; m != 0; m &= m - 1u)
    outs |= 1u << ((unsigned)__builtin_ctzll(m) >> vs);

  for (uint32_t mo = outs; mo != 0; mo &= mo - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(mo);

    /* 1. A pending token owed upstream on port o: the lowest VC goes, no data flit. */
    const uint32_t tv = (uint32_t)(w->tokp_v >> (o << vs)) & vbits;
    if (tv != 0) {
      w->tok_vc[o] = (int8_t)__builtin_ctz(tv);
      w->tok_sent |= UINT64_C(1) << ((o << vs) | (unsigned)__builtin_ctz(tv));
    }

    /* 2. Candidates: (o, v) BUSY with owner i, (i, v) ready. */
    uint32_t cand = 0, bcand = 0;
    for (uint32_t bm = (uint32_t)(w->obusy >> (o << vs)) & vbits; bm != 0; bm &= bm - 1u) {
      const unsigned v = (unsigned)__builtin_ctz(bm);
      const unsigned k = ((unsigned)s->ovc[(o << vs) | v].owner << vs) | v;
      /* XmitWait (section 5.5): a BUSY VC whose owner is ACTIVE with data. */
      if ((has_data >> k) & 1u) w->waiting |= 1u << o;
      if ((ready >> k) & 1u) {
        cand |= 1u << v;
        if (s->ivc[k].bcast) bcand |= 1u << v;
      }
    }

    if (tv != 0) continue;
    if (bcand != 0) {
      bchoice[o] = (int8_t)__builtin_ctz(bcand); /* lowest broadcast VC */
      chose |= 1u << o;
    } else if (cand != 0) {
      /* Only unicast candidates: the round-robin arbiter chooses. A unicast choice
               always sends, so the grant is taken (ack) and rr moves past it. The arbiter
               is not consulted (and keeps its pointer) in any other case. */
      const common_rr_arbiter_in_t ai = {.req = cand, .ack = true};
      common_rr_arbiter_out_t ao;
      common_rr_arbiter_eval(&s->rr_cfg, &s->rr[o], &ai, &ao, &nx->rr[o]);
      nx->rr_touched |= 1u << o;
      const unsigned v = ao.gnt_idx;
      const unsigned k = ((unsigned)s->ovc[(o << vs) | v].owner << vs) | v;
      w->data_ivc[o] = (int8_t)k;
      w->send |= UINT64_C(1) << k;
    }
  }

  /* 3. A broadcast circuit sends only if every output of its outs chose it (an output
       sending a token chose nothing); outputs that chose it otherwise send nothing. */
  for (uint32_t mo = chose; mo != 0; mo &= mo - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(mo);
    const unsigned v = (unsigned)bchoice[o];
    const unsigned k = ((unsigned)s->ovc[(o << vs) | v].owner << vs) | v;
    bool all = true;
    for (uint32_t m = s->ivc[k].outs; m != 0 && all; m &= m - 1u) {
      const unsigned o2 = (unsigned)__builtin_ctz(m);
      all = ((chose >> o2) & 1u) && bchoice[o2] == (int8_t)v;
    }
    if (all) {
      w->data_ivc[o] = (int8_t)k;
      w->send |= UINT64_C(1) << k;
    }
  }

  /* sel[o] for ST: the token, or the staged flit of (i, v), or nothing (cleared above). */
  nx->act.sel = 0;
  for (uint32_t mo = outs; mo != 0; mo &= mo - 1u) {
    const unsigned o = (unsigned)__builtin_ctz(mo);
    elite4_sel_t *sl = &nx->sel[o];
    if (w->tok_vc[o] >= 0 || w->data_ivc[o] >= 0) nx->act.sel |= UINT64_C(1) << o;
    if (w->tok_vc[o] >= 0) {
      const unsigned v = (unsigned)w->tok_vc[o];
      *sl = (elite4_sel_t){true, true, s->tokp[(o << vs) | v].ack, 0, (uint8_t)v};
    } else if (w->data_ivc[o] >= 0) {
      const unsigned k = (unsigned)w->data_ivc[o];
      *sl = (elite4_sel_t){true, false, false, (uint8_t)(k >> vs), (uint8_t)(k & w->vm)};
    }
  }
}
