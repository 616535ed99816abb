/* ibsw_same_state (docs/ibsw.md §6.3, §14): every row of the PortInfo Set
 * table on one port, including each same-state case (0x011C, nothing
 * changed), with the harness's own port FSM: the response's status
 * (ibsw.mad_status) and the PortInfo word it carries and the port's pins
 * afterwards (ibsw.port_fsm). The Disabled Set drains the idle link (the
 * harness answers DRAINED), Sleep, Polling and a retrain bring it back. */
#include "ibsw_harness.h"

typedef struct {
  unsigned pstate, phys; /* fields of the Set */
  unsigned status;       /* expected */
  unsigned ps_after, ph_after;
  bool draining_after;
} ss_step_t;

/* port 2 starts LinkUp / Init after the bring-up */
static const ss_step_t ss_steps[] = {
    {2, 5, 0x001C, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* both fields */
    {0, 0, 0x0000, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* no change */
    {0, 5, 0x011C, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* PhysState LinkUp: same state */
    {2, 0, 0x011C, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* PortState Init: same state */
    {4, 0, 0x001C, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* Active from Init */
    {1, 0, 0x001C, IBH_PS_INIT, IBH_PH_LINKUP, false},   /* Down */
    {3, 0, 0x0000, IBH_PS_ARMED, IBH_PH_LINKUP, false},  /* Armed */
    {3, 0, 0x011C, IBH_PS_ARMED, IBH_PH_LINKUP, false},  /* Armed again */
    {2, 0, 0x001C, IBH_PS_ARMED, IBH_PH_LINKUP, false},  /* back to Init */
    {4, 0, 0x0000, IBH_PS_ACTIVE, IBH_PH_LINKUP, false}, /* Active */
    {4, 0, 0x011C, IBH_PS_ACTIVE, IBH_PH_LINKUP, false}, /* Active again */
    {0, 2, 0x001C, IBH_PS_ACTIVE, IBH_PH_LINKUP, false}, /* Polling on a live link */
    {0, 4, 0x001C, IBH_PS_ACTIVE, IBH_PH_LINKUP, false}, /* PhysState 4 */
    {0, 9, 0x001C, IBH_PS_ACTIVE, IBH_PH_LINKUP, false}, /* PhysState 9 */
    {0, 3, 0x0000, IBH_PS_ACTIVE, IBH_PH_LINKUP, true},  /* Disabled: drain */
    {0, 0, 0x0000, 0, 0, false},                         /* (wait for the power-off) */
    {0, 3, 0x011C, IBH_PS_DOWN, IBH_PH_DISABLED, false}, /* Disabled again */
    {3, 0, 0x001C, IBH_PS_DOWN, IBH_PH_DISABLED, false}, /* Armed from Down */
    {1, 0, 0x011C, IBH_PS_DOWN, IBH_PH_DISABLED, false}, /* PortState Down: same state */
    {0, 1, 0x0000, IBH_PS_DOWN, IBH_PH_SLEEP, false},    /* Sleep from Disabled */
    {0, 1, 0x011C, IBH_PS_DOWN, IBH_PH_SLEEP, false},    /* Sleep again */
    {0, 3, 0x0000, IBH_PS_DOWN, IBH_PH_DISABLED, false}, /* Disabled from Sleep */
    {0, 2, 0x0000, IBH_PS_DOWN, IBH_PH_POLLING, false},  /* Polling: wakes */
    {0, 2, 0x011C, IBH_PS_DOWN, IBH_PH_POLLING, false},  /* Polling again */
    {0, 1, 0x0000, IBH_PS_DOWN, IBH_PH_SLEEP, false},    /* Sleep from Polling at once */
};
#define SS_NSTEPS (sizeof ss_steps / sizeof ss_steps[0])
#define SS_PORT   2
#define SS_WAIT   15 /* the step that waits for the drain */

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, step;
  int mad;
  uint64_t t_wait;
  unsigned ref_ps, ref_ph; /* the port's state by the table, applied at e+1 */
  bool ref_drain;          /* draining: PhysState LinkUp until the power-off */
} ss_ctx_t;

static void ss_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  ss_ctx_t *x = ctx;
  (void)rng;
  ibh_init(&x->h, vw);
  x->h.auto_drained = true;
  x->mad = -1;
}

static bool ss_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  ss_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  cosim_msg_t m;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1 && x->mad < 0) {
    if (x->step == SS_NSTEPS) return false;
    const ss_step_t *s = &ss_steps[x->step];
    if (x->step == SS_WAIT) {
      if (!x->t_wait) x->t_wait = c;
      if (IBH_GET(h, out.phys_state_o, prev, SS_PORT - 1) == IBH_PH_DISABLED)
        x->step++;
      else if (c > x->t_wait + 200)
        return true; /* check() fails it */
    } else {
      uint64_t w = ((uint64_t)s->pstate << 60) | ((uint64_t)s->phys << 56);
      x->mad = ibh_mad(h, 1, 0x81, 0x02, 0x15, SS_PORT, &w, 1);
    }
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool ss_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  ss_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  if (!ibh_check(h, c, in, out, msg)) return false;
  /* every cycle: the port's pins against the table, a Set applied at e+1 (§6.3, §7.3) */
  if (x->phase == 1) {
    const unsigned i = SS_PORT - 1;
    unsigned pps = (unsigned)IBH_GET(h, out.port_state_o, out, i),
             pph = (unsigned)IBH_GET(h, out.phys_state_o, out, i);
    unsigned pdr = (unsigned)IBH_GET(h, out.draining_o, out, i);
    if (!x->ref_ps) {
      x->ref_ps = IBH_PS_INIT;
      x->ref_ph = IBH_PH_LINKUP;
    }
    if (x->mad >= 0 && x->step < SS_NSTEPS && h->mad[x->mad].t_exec && c == h->mad[x->mad].t_exec + 1 &&
        ss_steps[x->step].status == 0 && ss_steps[x->step].ps_after) {
      x->ref_ps = ss_steps[x->step].ps_after;
      x->ref_ph = ss_steps[x->step].ph_after;
      x->ref_drain = ss_steps[x->step].draining_after;
    }
    if (x->ref_drain && pph == IBH_PH_DISABLED) { /* the drain finished (§6.4) */
      x->ref_ps = IBH_PS_DOWN;
      x->ref_ph = IBH_PH_DISABLED;
      x->ref_drain = false;
    }
    if (pps != x->ref_ps || pph != x->ref_ph || pdr != x->ref_drain) {
      cosim_fail(msg, "ibsw.port_fsm",
                 "cycle %llu, step %u: port %u shows PortState %u PhysState %u draining %u; the Sets so far "
                 "give %u %u %u",
                 (unsigned long long)c, x->step, SS_PORT, pps, pph, pdr, x->ref_ps, x->ref_ph, x->ref_drain);
      return false;
    }
  }
  if (x->step == SS_WAIT && x->t_wait && c > x->t_wait + 200) {
    cosim_fail(msg, "ibsw.port_fsm",
               "port %u: still not Disabled 200 cycles after the drain started (phys %u)", SS_PORT,
               (unsigned)IBH_GET(h, out.phys_state_o, out, SS_PORT - 1));
    return false;
  }
  if (x->mad >= 0 && h->mad[x->mad].done) {
    const ss_step_t *s = &ss_steps[x->step];
    ibh_mad_t *y = &h->mad[x->mad];
    unsigned st = (unsigned)(y->resp[2] & 0xFFFF);
    if (st != s->status) {
      cosim_fail(msg, "ibsw.mad_status",
                 "step %u: Set PortInfo(%u) PortState %u PhysState %u answered 0x%04x, "
                 "expected 0x%04x",
                 x->step, SS_PORT, s->pstate, s->phys, st, s->status);
      return false;
    }
    uint64_t w = y->resp[3];
    unsigned ps = (unsigned)(w >> 60), ph = (unsigned)((w >> 56) & 15), dr = (unsigned)((w >> 47) & 1);
    unsigned tg = (unsigned)((w >> 44) & 7), lp = (unsigned)((w >> 32) & 0xFF);
    unsigned pps = (unsigned)IBH_GET(h, out.port_state_o, out, SS_PORT - 1);
    unsigned pph = (unsigned)IBH_GET(h, out.phys_state_o, out, SS_PORT - 1);
    unsigned pdr = (unsigned)IBH_GET(h, out.draining_o, out, SS_PORT - 1);
    if (ps != s->ps_after || ph != s->ph_after || dr != s->draining_after ||
        tg != (s->draining_after ? 3u : 0u) || lp != SS_PORT ||
        /* the pins when the response is out: a drain may have finished by then */
        (!s->draining_after && (pps != s->ps_after || pph != s->ph_after || pdr))) {
      cosim_fail(msg, "ibsw.port_fsm",
                 "step %u: after Set PortState %u PhysState %u port %u shows PortState %u "
                 "PhysState %u draining %u target %u port %u (pins %u %u %u); expected %u %u %u",
                 x->step, s->pstate, s->phys, SS_PORT, ps, ph, dr, tg, lp, pps, pph, pdr, s->ps_after,
                 s->ph_after, s->draining_after);
      return false;
    }
    y->used = false;
    x->mad = -1;
    x->step++;
  }
  return true;
}

static bool ss_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  ss_ctx_t *x = ctx;
  (void)cycles;
  if (x->step < SS_NSTEPS) {
    cosim_fail(msg, "ibsw.port_fsm", "only %u of %zu Set steps done: too few cycles", x->step, SS_NSTEPS);
    return false;
  }
  printf("ibsw_same_state: %zu PortInfo Sets, each status and state as §6.3\n", SS_NSTEPS);
  return ibh_finish(&x->h, msg);
}

static void ss_init_p4(void *ctx, cosim_rng_t *rng) { ss_init_view(ctx, rng, &ibsw_p4_view); }

COSIM_TEST(ibsw_same_state, .target = &ibsw_p4_target,
           .purpose = "every PortInfo Set of §6.3, same state 0x011C", .ctx_size = sizeof(ss_ctx_t),
           .init = ss_init_p4, .drive = ss_drive, .check = ss_check, .finish = ss_finish)
