/*
 * elite4_counters -- the per-port 32-bit counters and the error registers.
 * Spec: docs/elite4.md sections 5.1, 5.5, 5.6, 5.7 and 6. Counters wrap at 2^32.
 * Two groups (5.7). The flit/packet counters show the events of a cycle in the next one:
 * arrivals at ARRIVE, flits and packets sent when ST fills the output register. The
 * error and wait group shows them two cycles later: this cycle's error events (where the
 * unit that detects them runs), CRC mismatches (ST) and XmitWait (SA) go into ev', and
 * cnt_errors, cnt_crc_errors, cnt_xmit_wait, err_o and err_code_o are computed from the
 * registered ev of last cycle.
 */
#include "elite4_internal.h"

void elite4_counters_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                          elite4_next_t *nx) {
  const elite4_out_t *c = &s->r;
  elite4_out_t *n = &nx->r; /* out_valid/kind' already hold the flit ST put in the register */
  for (unsigned p = 0; p < w->np; p++) {
    /* Every valid arrival, accepted or not, tokens too; a TAIL arrival is a packet. */
    const bool rcv = (w->in_valid >> p) & 1u;
    n->cnt_rcv_flits[p] = c->cnt_rcv_flits[p] + rcv;
    n->cnt_rcv_pkts[p] = c->cnt_rcv_pkts[p] + (rcv & (w->in_kind[p] == ELITE4_TAIL));
    /* Every flit sent, tokens too; every TAIL sent, synthetic ones too. */
    n->cnt_xmit_flits[p] = c->cnt_xmit_flits[p] + n->valid[p];
    n->cnt_xmit_pkts[p] = c->cnt_xmit_pkts[p] + (n->valid[p] & (n->kind[p] == ELITE4_TAIL));

    /* This cycle's events of the error and wait group, registered. XmitWait (SA): a BUSY
           VC of p has its owner ACTIVE with data, and SA sends no data flit on p (a token
           chosen instead counts as no data flit). */
    elite4_ev_t *e = &nx->ev[p];
    e->n_err = w->err[p].n;
    e->code = w->err[p].n != 0 ? w->err[p].code : 0;
    e->n_crc = w->crc_err[p];
    e->wait = ((w->waiting >> p) & 1u) & (w->data_ivc[p] < 0);

    /* The group is counted from last cycle's registered events (planted bug
           elite4_err_group_one_cycle_early: from this cycle's, i.e. shown at t+1). */
    const elite4_ev_t *g = cfg->bug == ELITE4_BUG_ERR_GROUP_EARLY ? e : &s->ev[p];
    n->cnt_xmit_wait[p] = c->cnt_xmit_wait[p] + g->wait;
    /* Several error events in one cycle count separately. */
    n->cnt_errors[p] = c->cnt_errors[p] + g->n_err;
    n->cnt_crc_errors[p] = c->cnt_crc_errors[p] + g->n_crc;
    /* err_o pulses for a cycle with any event; err_code_o holds the lowest code of that
           cycle until the port's next error. */
    n->err[p] = g->n_err != 0;
    n->err_code[p] = g->n_err != 0 ? g->code : c->err_code[p];
  }
}
