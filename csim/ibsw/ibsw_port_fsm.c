/* ibsw_port_fsm: the port state machine of docs/ibsw.md §6.2 (symbols, training, link
   loss, the drain's power-off of §6.4). SubnSet(PortInfo) is applied by the SMA (§6.3). */
#include "ibsw_internal.h"

bool ibsw_cred_full(const ibsw_ctx_t *x, const ibsw_regs_t *r, unsigned o) {
  for (unsigned l = 0; l < x->NL; l++)
    if (r->cred[o][l] != ibsw_lane_depth(x->cfg, l)) return false;
  return true;
}

/* §6.4 step 4: everything sent, taken by the peer, and nothing left to receive. */
static bool power_off_ready(const ibsw_ctx_t *x, unsigned n) {
  const ibsw_regs_t *r = &x->s->r;
  const ibsw_port_t *p = &r->port[n];
  if (!p->draining || !p->sent_drained || !p->peer_drained || r->pend[n] != 0) return false;
  if (!ibsw_cred_full(x, r, n)) return false;
  for (unsigned l = 0; l < x->NL; l++)
    if (r->ost[n][l] != IBSW_OST_FREE || r->ln[n][l].ist != IBSW_IST_IDLE || r->ln[n][l].cnt != 0)
      return false;
  return true;
}

static void leave_linkup(ibsw_port_t *q) {
  q->pstate = IBSW_DOWN;
  q->draining = q->sent_drained = q->peer_drained = 0;
}

void ibsw_port_fsm(ibsw_ctx_t *x) {
  for (unsigned n = 1; n <= x->P; n++) {
    const ibsw_port_t *p = &x->s->r.port[n];
    ibsw_port_t *q = &x->nx->r.port[n];
    const bool sym = x->in->valid[n] && x->in->kind[n] == IBSW_SYM;
    const uint64_t code = x->in->data[n];
    const bool ts1 = sym && code == IBSW_SYM_TS1, ts2 = sym && code == IBSW_SYM_TS2;
    const bool drained = sym && code == IBSW_SYM_DRAINED;
    if (sym && code != IBSW_SYM_TS1 && code != IBSW_SYM_TS2 && code != IBSW_SYM_DRAINED &&
        p->phys != IBSW_DISABLED && p->phys != IBSW_SLEEP)
      ibsw_raise(x, n, 12);
    switch (p->phys) {
      case IBSW_SLEEP:
        if (ts1) q->phys = IBSW_POLLING; /* woken by the peer's polling (§6.5) */
        break;
      case IBSW_POLLING:
      case IBSW_LER:
        if (ts1 || ts2) {
          q->phys = IBSW_TRAINING;
          q->tcnt = 0;
          q->seen2 = ts2;
          for (unsigned l = 0; l < x->NL; l++) x->nx->r.cred[n][l] = (uint16_t)ibsw_lane_depth(x->cfg, l);
        }
        break;
      case IBSW_TRAINING: {
        const uint32_t W = x->cfg->wake_cycles;
        q->tcnt = p->tcnt + 1 < W ? p->tcnt + 1 : W;
        q->seen2 = p->seen2 || ts2 || ibsw_bug(x, IBSW_BUG_TRAINING_IGNORES_TS2);
        if ((uint64_t)p->tcnt + 1 >= W && q->seen2) {
          q->phys = IBSW_LINKUP;
          q->pstate = IBSW_INIT;
        }
        break;
      }
      case IBSW_LINKUP:
        if (ts1) { /* the peer lost the link and polls (§6.6) */
          q->phys = IBSW_LER;
          leave_linkup(q);
          ibsw_raise(x, n, 13);
        } else if (power_off_ready(x, n)) {
          q->phys = p->target;
          leave_linkup(q);
        } else if (drained) {
          q->peer_drained = 1;
        }
        break;
      default: /* Disabled: leaves only by a Set */ break;
    }
    x->fsm_changed[n] = q->phys != p->phys || q->pstate != p->pstate || q->draining != p->draining;
  }
}
