/*
 * elite4_output_unit -- output VC states, T1 token processing, credits, pending tokens.
 * Spec: docs/elite4.md sections 5.3 (T1: the tokens of tin), 5.4/5.5 (output VC states),
 * 5.7 (credits), 6 (errors 5 and 6).
 *
 * Per output port o: ost[o][v] / owner[o][v] / early[o][v], a common_credit_counter over
 * its VCs (MaxCredits = BufDepth) and, for the reverse direction of port o, the tokens
 * tokp[o][v] owed upstream to the neighbour on port o.
 */
#include "elite4_internal.h"

#include <string.h>

void elite4_output_tokens(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_work_t *w) {
  (void)cfg;
  const unsigned V = w->nv;

  w->tok_hit = 0;
  w->tok_nack = 0;
  w->tok_freed = 0;
  w->tok_early = 0;

  for (uint64_t m = s->act.tin; m != 0; m &= m - 1u) { /* the valid tin[o] */
    const unsigned o = (unsigned)__builtin_ctzll(m);
    /* T1: the token that arrived on port o last cycle (tin); it belongs to the packet
           that left through o. */
    const unsigned v = s->tin[o].vc & w->vm;
    const bool ack = s->tin[o].ack;
    const elite4_ovc_t *ov = &s->ovc[o * V + v];
    /* Accepted while TOKWAIT, or once while BUSY: an early token, a nack from a
           switch further on that dropped the packet at its HEAD while this one is
           still sending the rest (5.3). Anything else is a stray. */
    const bool early = ov->st == ELITE4_OST_BUSY && !ov->early;
    if (ov->st != ELITE4_OST_TOKWAIT && !early) {
      elite4_error(w, o, ELITE4_ERR_STRAY_TOKEN); /* error 5; the token is dropped */
      continue;
    }
    /* pend[i][v] loses bit o, ack[i][v] &= a (applied by the input unit, together
           with any other token for (i, v) this cycle); (o, v) becomes FREE. */
    const unsigned k = ov->owner * V + v;
    const uint64_t bit = UINT64_C(1) << k;
    if (!(w->tok_hit & bit)) w->tok_clear[k] = 0;
    w->tok_clear[k] |= 1u << o;
    w->tok_hit |= bit;
    if (!ack) w->tok_nack |= bit;
    if (early)
      w->tok_early |= UINT64_C(1) << (o * V + v);
    else
      w->tok_freed |= UINT64_C(1) << (o * V + v);
  }
}

void elite4_output_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_in_t *in,
                        elite4_work_t *w, elite4_next_t *nx) {
  const unsigned P = w->np, V = w->nv;

  /* Output VC states (one transition at most, each from one registered state):
       FREE -> BUSY on a grant (5.4), BUSY -> TOKWAIT for every output of a circuit that
       sends its TAIL (5.5), TOKWAIT -> FREE on a token (5.3). */
  uint64_t closed = 0; /* the output VCs of the circuits sending their TAIL */
  for (uint64_t m = w->closes; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m), v = k & w->vm;
    for (uint32_t mo = s->ivc[k].outs; mo != 0; mo &= mo - 1u)
      closed |= UINT64_C(1) << ((unsigned)__builtin_ctz(mo) * V + v);
  }
  const uint64_t moved = w->new_busy | w->tok_freed | closed; /* ost may change: act' */
  nx->ovc_touched = moved | w->tok_early;                     /* the others hold */
  for (uint64_t m = nx->ovc_touched; m != 0; m &= m - 1u) {
    const unsigned kk = (unsigned)__builtin_ctzll(m);
    nx->ovc[kk] = s->ovc[kk];
  }
  for (uint64_t m = w->new_busy; m != 0; m &= m - 1u) {
    const unsigned kk = (unsigned)__builtin_ctzll(m);
    nx->ovc[kk].st = ELITE4_OST_BUSY;
    nx->ovc[kk].owner = w->new_owner[kk];
    nx->ovc[kk].early = false;
  }
  for (uint64_t m = w->tok_early; m != 0; m &= m - 1u) nx->ovc[__builtin_ctzll(m)].early = true;
  /* A closing TAIL: TOKWAIT, or straight to FREE when the token is already back
       (including an early token arriving in this same cycle). */
  for (uint64_t m = w->closes; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m), v = k & w->vm;
    for (uint32_t mo = s->ivc[k].outs; mo != 0; mo &= mo - 1u) {
      const unsigned kk = (unsigned)__builtin_ctz(mo) * V + v;
      elite4_ovc_t *ov = &nx->ovc[kk];
      ov->st = ov->early ? ELITE4_OST_FREE : ELITE4_OST_TOKWAIT;
      ov->early = false;
    }
  }
  /* Planted bug elite4_token_no_release: the output VC stays TOKWAIT. */
  if (cfg->bug != ELITE4_BUG_TOKEN_NO_RELEASE)
    for (uint64_t m = w->tok_freed; m != 0; m &= m - 1u) nx->ovc[__builtin_ctzll(m)].st = ELITE4_OST_FREE;
  nx->act.obusy = w->obusy & ~moved;
  nx->act.ofree = w->ofree & ~moved;
  for (uint64_t m = moved; m != 0; m &= m - 1u) {
    const unsigned kk = (unsigned)__builtin_ctzll(m);
    if (nx->ovc[kk].st == ELITE4_OST_BUSY) nx->act.obusy |= UINT64_C(1) << kk;
    if (nx->ovc[kk].st == ELITE4_OST_FREE) nx->act.ofree |= UINT64_C(1) << kk;
  }

  /* Tokens owed upstream (5.2, 5.3, 5.5): the one sent this cycle is cleared; a new one
       (combined token or illegal-route nack) is lost with error 6 at port i if one is
       still pending and not sent in this cycle. */
  const uint64_t sent = w->tok_sent;    /* the tokens SA sends this cycle */
  nx->tokp_touched = sent | w->tok_new; /* the others hold */
  for (uint64_t m = nx->tokp_touched; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    nx->tokp[k] = s->tokp[k];
  }
  uint64_t tokp = w->tokp_v & ~sent;
  for (uint64_t m = sent; m != 0; m &= m - 1u) nx->tokp[__builtin_ctzll(m)] = (elite4_tok_t){false, false};
  for (uint64_t m = w->tok_new; m != 0; m &= m - 1u) {
    const unsigned k = (unsigned)__builtin_ctzll(m);
    elite4_tok_t *t = &nx->tokp[k];
    if (t->valid) {
      elite4_error(w, k >> w->vs, ELITE4_ERR_LOST);
    } else {
      t->valid = true;
      t->ack = (w->tok_new_ack >> k) & 1u;
      tokp |= UINT64_C(1) << k;
    }
  }
  nx->act.tokp = tokp;

  /* Per output port: the credit counter (5.7). */
  nx->cred_touched = 0;
  nx->act.cflag = 0; /* a counter that is not evaluated has no pulse (it would be) */
  for (unsigned o = 0; o < P; o++) {
    const int k = w->data_ivc[o];
    /* Each sending VC consumes one credit of (o, v); in_credit_i returns them.
           Evaluated only when something happens (or an error pulse must clear). */
    const bool *cr = in->credit[o]; /* V is 2 or 4: unrolled, no branch per bit */
    uint32_t ret = (uint32_t)cr[0] | (uint32_t)cr[1] << 1;
    if (V == 4u) ret |= (uint32_t)cr[2] << 2 | (uint32_t)cr[3] << 3;
    const common_credit_counter_state_t *cs = &s->cred[o];
    if ((k >= 0) | (ret != 0) | ((s->act.cflag >> o) & 1u)) {
      const common_credit_counter_in_t ci = {.init = false,
                                             .consume = k >= 0,
                                             .consume_vc = k >= 0 ? (unsigned)k & w->vm : 0u,
                                             .return_mask = ret};
      common_credit_counter_out_t co;
      common_credit_counter_eval(&s->cred_cfg, cs, &ci, &co, &nx->cred[o]);
      nx->cred_touched |= 1u << o;
      const common_credit_counter_next_t *cn = &nx->cred[o];
      if (cn->underflow | cn->overflow | cn->bad_vc) nx->act.cflag |= UINT64_C(1) << o;
      /* A return that finds BufDepth with no consume is ignored: error 6 at port o
               in this cycle, one event per VC. */
      for (uint32_t m = nx->cred[o].overflow; m != 0; m &= m - 1u) elite4_error(w, o, ELITE4_ERR_LOST);
    }
  }
}
