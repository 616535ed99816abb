/*
 * cp_counters -- the 32-bit event counters (docs/cp.md sections 4, 5 and 7).
 * Each counter wraps at 2^32 (unsigned arithmetic).
 */
#include "cp_internal.h"

void cp_counters_eval(const cp_counters_t *c, const cp_count_events_t *ev, cp_counters_t *n) {
  *n = *c;
  n->frames += ev->frame;
  n->samples += ev->sample;
  if (ev->bcn) {
    if (ev->bcn_type == CP_BCN_NEG)
      n->bcn_neg++;
    else if (ev->bcn_type == CP_BCN_POS)
      n->bcn_pos++;
    else
      n->bcn_max++;
  }
  n->fbcn += ev->fbcn;
  n->ft_full += ev->ft_full;
  /* "rejected events and configuration errors": +1 for a cycle with rejected events
       (however many), +1 for a configuration error; both can happen in one cycle. */
  n->errors += (uint32_t)ev->ev_err + (uint32_t)ev->cfg_err;
}
