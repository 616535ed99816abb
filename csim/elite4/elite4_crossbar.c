/*
 * elite4_crossbar -- ST: the output registers (section 5.6).
 * Spec: docs/elite4.md section 5.6.
 *
 * For each output o, sel[o] (SA's choice of last cycle) names a token, or an input VC whose
 * staging register holds the flit; the output register takes it and drives out_* in the
 * next cycle. An idle output register is all 0 (no stale data on an idle link). The body
 * CRC of the staged flits is the input unit's (elite4_input_eval).
 */
#include "elite4_internal.h"

uint32_t elite4_crossbar(const elite4_cfg_t *cfg, const elite4_state_t *s, elite4_next_t *nx) {
  const unsigned V = cfg->num_vcs;
  elite4_out_t *r = &nx->r;                            /* flit fields cleared by the top */
  uint32_t filled = 0;                                 /* for the counters (5.7): the flits sent */
  for (uint64_t m = s->act.sel; m != 0; m &= m - 1u) { /* the valid sel[o] */
    const unsigned o = (unsigned)__builtin_ctzll(m);
    const elite4_sel_t *sl = &s->sel[o];
    filled |= 1u << o;
    if (sl->token) {
      r->valid[o] = true;
      r->kind[o] = ELITE4_TOKEN;
      r->vc[o] = sl->v;
      r->data[o] = sl->tok_ack ? 1u : 0u; /* {31'b0, ack} */
      continue;
    }
    const elite4_stg_t *st = &s->stg[sl->i * V + sl->v];
    r->valid[o] = true;
    r->kind[o] = st->kind;
    r->vc[o] = sl->v;
    r->data[o] = st->data;
    if (cfg->bug == ELITE4_BUG_VC_SWAP) r->vc[o] ^= 1u; /* planted bug: the packet leaves on the other VC */
  }
  return filled;
}
