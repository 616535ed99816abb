/* ibsw_link_loss (docs/ibsw.md §6.2, §6.6, §5.4, §14): under traffic to port
 * 2 (its neighbour slow to return credits, so circuits to it are open), the
 * neighbour loses the link and polls: TS1 in LinkUp. The port goes to
 * LinkErrorRecovery and Down the next cycle, err_o shows code 13 two cycles
 * after the TS1 and LinkDownedCounter counts it; the circuits to it are sunk:
 * every packet routed to it before the loss that had not left by then ends
 * in sink mode and counts once in PortXmitDiscards (error 15); new HEADs for
 * it are dropped with error 4 (the harness's reference). The neighbour then
 * trains (TS2), the SM arms and activates the port again and traffic to it
 * is delivered. Check ibsw.link_loss. */
#include "ibsw_harness.h"

#define LL_PORT 2

typedef struct {
  ibh_t h;
  ibh_up_t up, up2;
  unsigned phase, ncfg;
  uint64_t t_phase, t_ts1, t_lost;
  unsigned lost_expected;
  cosim_rng_t rng;
} ll_ctx_t;

static void ll_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  ll_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
}

static bool ll_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  ll_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  cosim_msg_t m;
  unsigned ph = (unsigned)IBH_GET(h, out.phys_state_o, prev, LL_PORT - 1);
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) {
    if (ibh_cfg_write(h, in, &x->ncfg, P, x->ncfg)) {
      x->phase = 2;
      x->t_phase = c;
    }
  }
  if (x->phase >= 2 && x->phase <= 5) /* everyone but port 2 sends to port 2 */
    for (unsigned n = 1; n <= P; n++)
      if (n != LL_PORT)
        while (h->qn[n] < 2 && ibh_data(h, n, cosim_rng_below(&x->rng, h->V), LL_PORT,
                                        2 + cosim_rng_below(&x->rng, 6)) >= 0) {}
  h->ret_p = x->phase == 2 ? 0.1 : 0.9;
  if (x->phase == 2 && c > x->t_phase + 200) { /* the neighbour loses the link: TS1 */
    h->ts_every[LL_PORT] = IBH_TS1;
    h->err_ignore[LL_PORT] = true;
    x->t_ts1 = c;
    x->phase = 3;
  } else if (x->phase == 3 && c > x->t_ts1 + 100) { /* it trains again */
    h->ts_every[LL_PORT] = IBH_TS2;
    x->phase = 4;
  } else if (x->phase == 4 && ph == IBH_PH_LINKUP) {
    h->ts_every[LL_PORT] = 0;
    x->up2.active_mask = 1u << LL_PORT;
    x->up2.step = 2; /* straight to the SM's Sets */
    x->up2.port = LL_PORT;
    x->up2.m = -1;
    x->phase = 5;
  } else if (x->phase == 5 && ibh_bringup(h, &x->up2, prev, &m)) {
    x->phase = 6;
    x->t_phase = c;
  } else if (x->phase == 6 && c > x->t_phase + 300) {
    return false;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool ll_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  ll_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned i = LL_PORT - 1;
  if (x->phase >= 3 && !x->t_lost && x->t_ts1 && c == x->t_ts1 + 1) {
    unsigned ph = (unsigned)IBH_GET(h, out.phys_state_o, out, i),
             ps = (unsigned)IBH_GET(h, out.port_state_o, out, i);
    if (ph != IBH_PH_LER || ps != IBH_PS_DOWN) {
      cosim_fail(msg, "ibsw.link_loss",
                 "port %u: TS1 in LinkUp in %llu, PhysState %u PortState %u the cycle after "
                 "(expected LinkErrorRecovery, Down)",
                 LL_PORT, (unsigned long long)x->t_ts1, ph, ps);
      return false;
    }
    x->t_lost = c;
  }
  if (x->t_lost && c == x->t_ts1 + 3) {
    /* what was routed to the port and had not left by the last LinkUp choice (its flits on the
     * pins by t+2) is lost: sunk, one discard per packet (those whose TAIL was already sunk the
     * harness has counted and let go) */
    x->lost_expected = (unsigned)h->sunk;
    for (unsigned id = 0; id < IBH_MAXPKT; id++) {
      ibh_pkt_t *p = &h->pkt[id];
      if (p->used && !p->mad && p->decided && p->egress == LL_PORT && p->got < p->nflits) {
        x->lost_expected++;
        p->used = false; /* not a loss for ibh_finish: the unplanned path */
      }
    }
    for (unsigned l = 0; l < h->L; l++) h->rx_open[LL_PORT][l] = -1;
  }
  if (x->t_ts1 && c == x->t_ts1 + 2) {
    if (!IBH_GET(h, out.err_o, out, i) || IBH_GET(h, out.err_code_o, out, i) != 13 ||
        IBH_GET(h, out.cnt_link_downed_o, out, i) != 1) {
      cosim_fail(msg, "ibsw.link_loss",
                 "port %u, 2 cycles after the TS1: err_o %u code %u LinkDowned %u (1, 13, 1)", LL_PORT,
                 (unsigned)IBH_GET(h, out.err_o, out, i), (unsigned)IBH_GET(h, out.err_code_o, out, i),
                 (unsigned)IBH_GET(h, out.cnt_link_downed_o, out, i));
      return false;
    }
  }
  if (x->phase == 6 && c == x->t_phase + 299) {
    unsigned disc = (unsigned)IBH_GET(h, out.cnt_xmit_discards_o, out, i);
    uint64_t mx = (1ull << h->c16) - 1;
    if (disc != (x->lost_expected > mx ? mx : x->lost_expected) || !x->lost_expected) {
      cosim_fail(msg, "ibsw.link_loss",
                 "port %u: PortXmitDiscards %u; %u packets were routed to it and had not left "
                 "when the link was lost",
                 LL_PORT, disc, x->lost_expected);
      return false;
    }
  }
  /* once the port is back (phase 6) its err_o is the harness's again */
  if (x->phase == 6 && c > x->t_phase + 4) h->err_ignore[LL_PORT] = false;
  return ibh_check(h, c, in, out, msg);
}

static bool ll_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  ll_ctx_t *x = ctx;
  (void)cycles;
  if (x->phase < 6) {
    cosim_fail(msg, "ibsw.link_loss", "the test did not reach its end (phase %u): too few cycles", x->phase);
    return false;
  }
  printf("ibsw_link_loss: link lost in %llu, %u packets sunk and counted, port back and delivering (%llu "
         "packets)\n",
         (unsigned long long)x->t_lost, x->lost_expected, (unsigned long long)x->h.delivered);
  return true; /* traffic to the port is still queued at the end */
}

static void ll_init_p4(void *ctx, cosim_rng_t *rng) { ll_init_view(ctx, rng, &ibsw_p4_view); }
static void ll_init_p24(void *ctx, cosim_rng_t *rng) { ll_init_view(ctx, rng, &ibsw_p24_view); }

COSIM_TEST(ibsw_link_loss, .target = &ibsw_p4_target,
           .purpose = "TS1 in LinkUp: sink mode, XmitDiscards, LinkDowned, retrain",
           .ctx_size = sizeof(ll_ctx_t), .init = ll_init_p4, .drive = ll_drive, .check = ll_check,
           .finish = ll_finish)
COSIM_TEST(ibsw_p24_link_loss, .target = &ibsw_p24_target, .purpose = "ibsw_link_loss on the 24-port switch",
           .ctx_size = sizeof(ll_ctx_t), .init = ll_init_p24, .drive = ll_drive, .check = ll_check,
           .finish = ll_finish)
