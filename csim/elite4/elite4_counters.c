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

#include <string.h>

void elite4_counters_eval(const elite4_cfg_t *cfg, const elite4_state_t *s, const elite4_work_t *w,
                          elite4_next_t *nx) {
  const elite4_out_t *c = &s->r;
  elite4_out_t *n = &nx->r; /* out_valid/kind' already hold the flit ST put in the register; err' is 0 */
  /* Every counter and err_code holds unless an event of its port adds to it: the holds are
     copied, the increments visit only the ports with an event (docs/elite4.md section 7.1). */
  const unsigned H = ELITE4_MAX_PORTS / 2u;
  if (w->np <= H) {
    /* ports 0..7 as fixed-size moves (no library call), then ports np..7 back to 0 (the
       top cleared them and nothing else writes them) */
#define ELITE4_HOLD(f) memcpy(n->f, c->f, H * sizeof(n->f[0]))
    ELITE4_HOLD(cnt_rcv_flits);
    ELITE4_HOLD(cnt_rcv_pkts);
    ELITE4_HOLD(cnt_xmit_flits);
    ELITE4_HOLD(cnt_xmit_pkts);
    ELITE4_HOLD(cnt_xmit_wait);
    ELITE4_HOLD(cnt_errors);
    ELITE4_HOLD(cnt_crc_errors);
    ELITE4_HOLD(err_code);
#undef ELITE4_HOLD
    for (unsigned p = w->np; p < H; p++) {
      n->cnt_rcv_flits[p] = n->cnt_rcv_pkts[p] = n->cnt_xmit_flits[p] = n->cnt_xmit_pkts[p] = 0;
      n->cnt_xmit_wait[p] = n->cnt_errors[p] = n->cnt_crc_errors[p] = n->err_code[p] = 0;
    }
  } else {
    for (unsigned p = 0; p < w->np; p++) {
      n->cnt_rcv_flits[p] = c->cnt_rcv_flits[p];
      n->cnt_rcv_pkts[p] = c->cnt_rcv_pkts[p];
      n->cnt_xmit_flits[p] = c->cnt_xmit_flits[p];
      n->cnt_xmit_pkts[p] = c->cnt_xmit_pkts[p];
      n->cnt_xmit_wait[p] = c->cnt_xmit_wait[p];
      n->cnt_errors[p] = c->cnt_errors[p];
      n->cnt_crc_errors[p] = c->cnt_crc_errors[p];
      n->err_code[p] = c->err_code[p];
    }
  }
  /* Every valid arrival, accepted or not, tokens too; a TAIL arrival is a packet. */
  for (uint32_t m = w->in_valid; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(m);
    n->cnt_rcv_flits[p]++;
    if (w->in_kind[p] == ELITE4_TAIL) n->cnt_rcv_pkts[p]++;
  }
  /* Every flit sent (the output registers ST filled), tokens too; every TAIL sent,
     synthetic ones too. */
  for (uint32_t m = w->xmit; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(m);
    n->cnt_xmit_flits[p]++;
    if (n->kind[p] == ELITE4_TAIL) n->cnt_xmit_pkts[p]++;
  }

  /* This cycle's events of the error and wait group, registered: 0 except at the ports
     with an error event or XmitWait. XmitWait (SA): a BUSY VC of p has its owner ACTIVE
     with data, and SA sends no data flit on p (a token chosen instead counts as no data
     flit). */
  memset(nx->ev, 0, w->np * sizeof(nx->ev[0]));
  uint32_t wait = 0;
  for (uint32_t m = w->waiting; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(m);
    if (w->data_ivc[p] < 0) wait |= 1u << p;
  }
  const uint32_t evs = w->err_ports | wait;
  for (uint32_t m = evs; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(m);
    elite4_ev_t *e = &nx->ev[p];
    if ((w->err_ports >> p) & 1u) {
      e->n_err = w->err[p].n;
      e->code = w->err[p].n != 0 ? w->err[p].code : 0;
      e->n_crc = w->crc_err[p];
    }
    e->wait = (wait >> p) & 1u;
  }
  nx->act.ev = evs; /* every port in err_ports has n_err >= 1 */

  /* The group is counted from last cycle's registered events (planted bug
     elite4_err_group_one_cycle_early: from this cycle's, i.e. shown at t+1); only the
     ports whose events are not all 0 (act.ev) count anything, err' stays 0 elsewhere. */
  const bool early = cfg->bug == ELITE4_BUG_ERR_GROUP_EARLY;
  for (uint64_t m = early ? evs : s->act.ev; m != 0; m &= m - 1u) {
    const unsigned p = (unsigned)__builtin_ctzll(m);
    const elite4_ev_t *g = early ? &nx->ev[p] : &s->ev[p];
    n->cnt_xmit_wait[p] += g->wait;
    /* Several error events in one cycle count separately. */
    n->cnt_errors[p] += g->n_err;
    n->cnt_crc_errors[p] += g->n_crc;
    /* err_o pulses for a cycle with any event; err_code_o holds the lowest code of that
       cycle until the port's next error. */
    if (g->n_err != 0) {
      n->err[p] = true;
      n->err_code[p] = g->code;
    }
  }
}
