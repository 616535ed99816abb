/*
 * link_tx -- training, exact pacing (Bresenham accumulator) and the tx
 * register (docs/link.md §4).
 */
#include "link.h"

/* Does a cycle with this accumulator have a slot (given the link is up)? */
static bool has_slot(const link_cfg_t *cfg, unsigned acc) {
  if (cfg->bug == LINK_BUG_SLOT_LATE) return acc + cfg->rate_num > cfg->rate_den;
  return acc + cfg->rate_num >= cfg->rate_den;
}

void link_tx_eval(const link_cfg_t *cfg, const link_tx_state_t *s, const link_in_t *in, bool *slot_o,
                  bool *up_o, link_tx_state_t *nx, bool *accept, bool *offslot) {
  const bool up = s->tcnt == cfg->train_cycles;
  const bool slot = up && has_slot(cfg, s->acc);
  *offslot = in->tx_valid && !slot;
  *accept = in->tx_valid && (slot || cfg->bug == LINK_BUG_ERR_FORWARDS);

  nx->tcnt = up ? s->tcnt : s->tcnt + 1;
  if (!up)
    nx->acc = 0;
  else if (slot)
    nx->acc = s->acc + cfg->rate_num - cfg->rate_den;
  else
    nx->acc = s->acc + cfg->rate_num;
  link_flit_t f = {true, in->tx_kind & 3u, in->tx_vc & (cfg->num_vcs - 1u), in->tx_data};
  nx->txq = *accept ? link_flit_pack(&f) : 0;
  nx->err = *offslot && cfg->bug != LINK_BUG_ERR_SILENT;
  nx->accepted = in->tx_valid && slot; /* link_err_forwards leaks a flit, uncounted */

  *up_o = up;
  /* slot_o announces the next cycle's slot: from the next state only */
  *slot_o = nx->tcnt == cfg->train_cycles && has_slot(cfg, nx->acc);
}
