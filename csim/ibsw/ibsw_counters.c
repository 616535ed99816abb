/* ibsw_counters, ibsw_sampler, ibsw_power: docs/ibsw.md §8.1 and §10 (events of c shown
   in c+2, saturating, cleared by a Set), §8.2 (PortSamplesControl/Result), §9 (power
   meter, seed 000 Table 1). */
#include "ibsw_internal.h"

static uint64_t sat_add(uint64_t a, uint64_t k, unsigned w) {
  const uint64_t max = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1u;
  if (a > max - k || a + k > max) return max;
  return a + k;
}

void ibsw_counters(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  ibsw_regs_t *q = &x->nx->r;
  const bool wraps = ibsw_bug(x, IBSW_BUG_COUNTER_WRAPS);
  const bool early = ibsw_bug(x, IBSW_BUG_ERR_ONE_CYCLE_EARLY);
  for (unsigned n = 1; n <= x->P; n++) {
    for (unsigned c = 0; c < IBSW_NCNT; c++) {
      const unsigned ev = c >= IBSW_C_EXT_XMIT_DATA ? c - IBSW_C_EXT_XMIT_DATA : c;
      const unsigned w = ibsw_counter_width(x->cfg, c);
      if (x->clear_cnt[n][c])
        q->cnt[n][c] = 0; /* the clear has priority over the events of c-1 */
      else if (wraps)     /* planted: modulo 2^W */
        q->cnt[n][c] = (r->cnt[n][c] + r->ev[n][ev]) & (w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1u);
      else
        q->cnt[n][c] = sat_add(r->cnt[n][c], r->ev[n][ev], w);
    }
    /* the error flag and the held lowest code (§10) */
    const uint16_t m = early ? q->ev_err[n] : r->ev_err[n];
    q->err_r[n] = m != 0;
    if (m) q->err_code_r[n] = (uint8_t)__builtin_ctz(m);
  }
  q->sma_err_r = r->sma_ev_err != 0;
  if (r->sma_ev_err) q->sma_err_code_r = (uint8_t)__builtin_ctz(r->sma_ev_err);
  q->sma_dropped = sat_add(r->sma_dropped, r->sma_ev_n, x->cfg->cnt_w < 16 ? x->cfg->cnt_w : 16);
}

/* §8.2: STARTED e+1..S-1, RUNNING S..S+I, DONE from S+I+1; results count the events of
   S..S+I-1 with the counters' own two-cycle lag (win marks that c-1 was in the window). */
void ibsw_sampler(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  ibsw_regs_t *q = &x->nx->r;
  const uint64_t max = x->cfg->cnt_w >= 32 ? 0xFFFFFFFFu : (UINT64_C(1) << x->cfg->cnt_w) - 1u;
  for (unsigned n = 1; n <= x->P; n++) {
    const ibsw_sampler_t *sm = &r->smp[n];
    ibsw_sampler_t *qs = &q->smp[n];
    if (x->smp_set[n]) continue; /* a Set accepted in c: it wrote the next state */
    if (sm->win)
      for (unsigned k = 0; k < 4; k++) {
        const unsigned sel = sm->sel[k];
        if (sel == 0) continue;
        const uint64_t v = sm->res[k] + r->ev[n][sel - 1];
        qs->res[k] = v > max ? max : v;
      }
    qs->win = 0;
    if (sm->status == IBSW_SAMPLE_STARTED) {
      qs->wait = sm->wait - 1;
      if (sm->wait == 1) qs->status = IBSW_SAMPLE_RUNNING;
    } else if (sm->status == IBSW_SAMPLE_RUNNING) {
      if (sm->run == 0) { /* cycle S: the transmit queue depth (§8.2, ours) */
        uint32_t d = 0;
        for (unsigned l = 0; l < x->V; l++) d += x->cfg->buf_depth - r->cred[n][l];
        qs->qd = d;
      }
      qs->win = sm->run < sm->interval;
      if (sm->run >= sm->interval)
        qs->status = IBSW_SAMPLE_DONE;
      else
        qs->run = sm->run + 1;
    }
  }
}

uint32_t ibsw_power_of(const ibsw_cfg_t *cfg, const ibsw_regs_t *r) {
  uint32_t p = 43400; /* seed 000 Table 1: all except ports */
  for (unsigned n = 1; n <= cfg->num_ports; n++) {
    const unsigned ph = r->port[n].phys;
    const bool on = ph == IBSW_POLLING || ph == IBSW_TRAINING || ph == IBSW_LINKUP || ph == IBSW_LER;
    if (on || (cfg->bug == IBSW_BUG_POWER_COUNTS_DISABLED && ph == IBSW_DISABLED))
      p += ibsw_port_power_mw(cfg);
  }
  return p;
}

/* §12: the energy register after k more cycles of a quiet switch (PW cannot change while
   quiet), as k evaluations would leave it, saturating. */
uint64_t ibsw_energy_after(const ibsw_state_t *s, uint64_t k) {
  const uint64_t pw = s->r.pw;
  if (k && pw > UINT64_MAX / k) return UINT64_MAX;
  return sat_add(s->r.energy, pw * k, 64);
}
void ibsw_skip_quiet(ibsw_state_t *s, uint64_t k) {
  s->r.energy = ibsw_energy_after(s, k);
  s->r.cycle += k;
}

void ibsw_power(ibsw_ctx_t *x) {
  const ibsw_regs_t *r = &x->s->r;
  x->nx->r.pw = ibsw_power_of(x->cfg, r);
  x->nx->r.energy = sat_add(r->energy, r->pw, 64);
}
