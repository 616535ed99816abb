/* ibsw_drain_full_load (docs/ibsw.md §6.4, §9, §13, §14): every port sends to
 * every other at full load on every data lane; the routes to port P are moved
 * to port 1 through the configuration port, then SubnSet PortInfo(P)
 * PhysState Disabled (the SM's stages 4-5). The switch's port P drains while
 * the load goes on, the harness's end answers DRAINED after its own last
 * TAIL, the port powers off. Checks: nothing lost, duplicated or reordered
 * (ibsw.loss, ibsw.route, ibsw.order); DRAINED only after the last packet
 * flit on P and with every credit back (ibsw.drain); the power meter by
 * arithmetic every cycle, Wp less once P is off (ibsw.power).
 * ibsw_drain_slow_credits: the same, but P's neighbour keeps its credits from the route move until
 * 20 cycles after the Set executes, then returns them slowly: packets routed to P before the move
 * are still pending when the drain starts (they must be sent, not dropped: ibsw.loss), and the last
 * credits come back after the last TAIL (DRAINED must wait for them: ibsw.drain). */
#include "ibsw_harness.h"

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg;
  int mad;
  uint64_t t_phase, t_drained, t_off;
  uint64_t e_ref;   /* reference energy, mW·cycles */
  unsigned pw_prev; /* power(c-1) */
  bool have_prev;
  bool slow;   /* ibsw_drain_slow_credits: P's neighbour keeps its credits across the Set */
  int mad_pkt; /* the Set's packet when sent beside the queue (slow), -1 once sent */
  cosim_rng_t rng;
} dr_ctx_t;

static const unsigned dr_wp[4] = {210, 770, 260, 950};

static void dr_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  dr_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.auto_drained = true;
  x->h.ret_p = 0.9;
  x->mad = -1;
  x->mad_pkt = -1;
}

static bool dr_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  dr_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  cosim_msg_t m;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) { /* DLID n -> port n; top P */
    if (ibh_cfg_write(h, in, &x->ncfg, P, x->ncfg)) {
      x->phase = 2;
      x->t_phase = c;
    }
  }
  /* full load: keep every port's queue full (port P stops once the routes have moved) */
  if (x->phase >= 2 && x->phase <= 4) {
    for (unsigned n = 1; n <= P; n++) {
      if (n == P && x->phase >= 3) continue;
      while (h->qn[n] < 4) {
        unsigned d = 1 + cosim_rng_below(&x->rng, P - 1);
        if (d >= n) d++;
        if (x->phase >= 3 && d == P)
          d = 1 == n ? 2 : 1; /* the sources avoid P too, as the SM's routes would */
        if (ibh_data(h, n, cosim_rng_below(&x->rng, h->V), d, 2 + cosim_rng_below(&x->rng, 6)) < 0) break;
      }
    }
  }
  if (x->phase == 2 && c > x->t_phase + 300) { /* stage 4: the routes to P move to port 1 */
    IBH_SET(h, in.cfg_valid_i, in, 0, 1);
    IBH_SET(h, in.cfg_sel_i, in, 0, 0);
    IBH_SET(h, in.cfg_addr_i, in, 0, P);
    IBH_SET(h, in.cfg_data_i, in, 0, 1);
    x->phase = 3;
    x->t_phase = c;
    if (x->slow) h->hold_cred[P] = true;            /* what is routed to P stays pending past the Set */
  } else if (x->phase == 3 && c > x->t_phase + 2) { /* stage 5: Disabled on P */
    uint64_t w = (uint64_t)IBH_PH_DISABLED << 56;
    x->mad = ibh_mad(h, 1, 0x81, 0x02, 0x15, P, &w, 1);
    if (x->mad >= 0) x->phase = 4;
    if (x->mad >= 0 && x->slow) { /* sent beside port 1's queue, which the held credits may block */
      x->mad_pkt = (int)h->q[1][(h->qh[1] + h->qn[1] - 1) % IBH_MAXQ];
      h->qn[1]--;
    }
  }
  if (x->phase == 4 && x->mad_pkt >= 0 && ibh_put_pkt(h, 1, x->mad_pkt) &&
      h->pkt[x->mad_pkt].sent == h->pkt[x->mad_pkt].nflits)
    x->mad_pkt = -1;
  if (x->phase == 4 && h->hold_cred[P] && h->mad[x->mad].t_exec && c > h->mad[x->mad].t_exec + 20) {
    h->hold_cred[P] = false; /* the credits come back, slowly: the last ones after the last TAIL */
    h->ret_p = 0.3;
  } else if (x->phase == 4 && x->t_off && c > x->t_off + 300) {
    x->phase = 5;
    x->t_phase = c;
  } else if (x->phase == 5 && c > x->t_phase + 300 + 10 * h->R) {
    return false;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool dr_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  dr_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  /* DRAINED on P's pins: after the last packet flit, every credit back */
  if (IBH_GET(h, out.out_valid_o, out, P - 1)) {
    unsigned k = (unsigned)IBH_GET(h, out.out_kind_o, out, P - 1);
    if (k == IBH_SYM && IBH_GET(h, out.out_data_o, out, P - 1) == IBH_DRAINED) {
      unsigned held = 0;
      for (unsigned l = 0; l < h->L; l++) held += h->occ[P][l]; /* our slots not yet freed */
      bool open = false;
      for (unsigned l = 0; l < h->L; l++) open |= h->rx_open[P][l] >= 0;
      if (x->phase < 4 || x->t_drained || held || open) {
        cosim_fail(msg, "ibsw.drain", "port %u: DRAINED in cycle %llu (%s)", P, (unsigned long long)c,
                   x->t_drained   ? "a second time"
                   : x->phase < 4 ? "before the Set"
                   : open         ? "inside a packet"
                                  : "credits still out");
        return false;
      }
      x->t_drained = c;
    } else if (k != IBH_SYM && x->t_drained) {
      cosim_fail(msg, "ibsw.drain", "port %u: a packet flit in cycle %llu after DRAINED in %llu", P,
                 (unsigned long long)c, (unsigned long long)x->t_drained);
      return false;
    }
  }
  if (!x->t_off && IBH_GET(h, out.phys_state_o, out, P - 1) == IBH_PH_DISABLED) x->t_off = c;
  /* power (§9): PW(c) = power(c-1) from the states on the pins in c-1; E(c) = E(c-1) + PW(c-1) */
  unsigned pw = (unsigned)IBH_GET(h, out.power_mw_o, out, 0);
  uint64_t e = IBH_GET(h, out.energy_o, out, 0);
  unsigned on = 0;
  for (unsigned n = 1; n <= P; n++) {
    unsigned ph = (unsigned)IBH_GET(h, out.phys_state_o, out, n - 1);
    on += ph == IBH_PH_POLLING || ph == IBH_PH_TRAINING || ph == IBH_PH_LINKUP || ph == IBH_PH_LER;
  }
  unsigned now = 43400 + on * dr_wp[h->vw->param.LinkSpeed];
  if (x->have_prev && (pw != x->pw_prev || e != x->e_ref)) {
    cosim_fail(msg, "ibsw.power", "cycle %llu: power %u mW energy %llu; expected %u mW (%s) and %llu",
               (unsigned long long)c, pw, (unsigned long long)e, x->pw_prev, "ports on in the cycle before",
               (unsigned long long)x->e_ref);
    return false;
  }
  x->e_ref = e + pw;
  x->pw_prev = now;
  x->have_prev = true;
  return ibh_check(h, c, in, out, msg);
}

static bool dr_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  dr_ctx_t *x = ctx;
  (void)cycles;
  if (!x->t_drained || !x->t_off || x->phase < 5) {
    cosim_fail(msg, "ibsw.drain", "port %u never %s (phase %u)", x->h.P,
               !x->t_drained ? "sent DRAINED" : "powered off", x->phase);
    return false;
  }
  printf(
      "ibsw_drain_full_load: %llu packets delivered; DRAINED in cycle %llu, port off in %llu, nothing lost\n",
      (unsigned long long)x->h.delivered, (unsigned long long)x->t_drained, (unsigned long long)x->t_off);
  return ibh_finish(&x->h, msg);
}

static void dr_init_p4(void *ctx, cosim_rng_t *rng) { dr_init_view(ctx, rng, &ibsw_p4_view); }
static void dr_init_slow_p4(void *ctx, cosim_rng_t *rng) {
  dr_init_view(ctx, rng, &ibsw_p4_view);
  ((dr_ctx_t *)ctx)->slow = true;
}
static void dr_init_p24(void *ctx, cosim_rng_t *rng) { dr_init_view(ctx, rng, &ibsw_p24_view); }

COSIM_TEST(ibsw_drain_full_load, .target = &ibsw_p4_target,
           .purpose = "a port turned off under full load loses nothing", .ctx_size = sizeof(dr_ctx_t),
           .init = dr_init_p4, .drive = dr_drive, .check = dr_check, .finish = dr_finish)
COSIM_TEST(ibsw_drain_slow_credits, .target = &ibsw_p4_target,
           .purpose = "the drain with packets pending and credits out at the Set",
           .ctx_size = sizeof(dr_ctx_t), .init = dr_init_slow_p4, .drive = dr_drive, .check = dr_check,
           .finish = dr_finish)
COSIM_TEST(ibsw_p24_drain_full_load, .target = &ibsw_p24_target,
           .purpose = "ibsw_drain_full_load on the 24-port switch", .ctx_size = sizeof(dr_ctx_t),
           .init = dr_init_p24, .drive = dr_drive, .check = dr_check, .finish = dr_finish)
