/* ibsw_errors (docs/ibsw.md §10, §14): every error code 1..15 produced in turn on ibsw_p4,
 * each on err_o/err_code_o of its port two cycles after its event and in its counter of §8.1
 * (the harness's reference: every event's cycle from its own model of the buffers, framing,
 * port states and the SMA's execute cycle; all error counters and sma_err_* by arithmetic),
 * while ports 1 and 3 exchange packets on lane 1 that must all arrive intact.
 *
 *  1-4  data and VL15 HEADs from port 2: no path, bad DLID, bad egress (0, > P, the ingress, a VL15
 *       tag > P or = the ingress), egress down (port P in Init);
 *  11   a packet from port P while it is Init;
 *  5    a BODY and a HEAD on a VL that is neither data nor 15;   7  a TAIL with no packet open;
 *  12   an unknown symbol;   14  stray credits on two lanes at once (two events, one err_o);
 *  6    a flit sent with no credit into a full lane (port 2's neighbour keeps its credits), after a
 *       packet on the port's other lane went through that lane's full neighbour untouched;
 *  8    a HEAD while a packet is open: the open one leaves closed by a synthetic TAIL, the new one
 *       routed (lane 0) or dropped (lane 1, code 1 shown: the lower);
 *  9    bad MADs: bad class, 2 flits, 17 flits, a known attribute at the wrong length, one cut by
 *       the next MAD's HEAD (closed by a synthetic TAIL: 8 at the HEAD, 9 at its execute cycle; the
 *       next is answered); and a response whose return route is bad (the SMA's own error, code 3);
 *  13, 15, 10  port P loses its link with circuits open to it (sunk, one discard per packet), a
 *       flit arrives while it trains, it comes back.
 * Check ids: ibsw.err_timing (an event at the wrong cycle or code), ibsw.isolation (an event on a
 * port where none was due), ibsw.counters, and the harness's (ibsw.route, ibsw.order, ibsw.loss). */
#include "ibsw_harness.h"

#define ER_SM 1

typedef struct {
  ibh_t h;
  ibh_up_t up, up2;
  unsigned phase, step, ncfg, nbad;
  uint64_t t_phase, t_loss, exp_sma_at, last_exec_seen;
  int mad, iso_id, ovf_done;
  int m1, mad2;        /* the MAD cut by the next one's HEAD, and that one */
  uint64_t t1, t2, k3; /* their HEADs' arrivals; the credit of the cut MAD's third flit */
  unsigned ncr;        /* VL15 credits back on port 1 since the cut MAD's HEAD */
  uint64_t exp9_at;    /* its error 9: e = the synthetic close + 2 (§7.3) */
  bool cut_done;
  int trunc_id[2];
  cosim_rng_t rng;
} er_ctx_t;

static void er_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  er_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n < x->h.P; n++) x->up.active_mask |= 1u << n; /* port P stays Init */
  x->h.err_classify = true;
  x->h.err_counters = true;
  x->h.ret_p = 0.8;
  x->mad = -1;
  x->iso_id = -1;
  x->m1 = x->mad2 = -1;
}

static bool er_quiet(const ibh_t *h) {
  for (unsigned n = 1; n <= h->P; n++)
    if (h->qn[n] || h->cur[n] >= 0) return false;
  return h->mads_out == 0 && h->inflight == 0;
}

/* an episode is over: ports 2 and P have sent everything, port 3 nothing on lane 0 is left
   (the background, lane 1 between ports 1 and 3, goes on) */
static bool er_episode_done(const ibh_t *h) {
  if (h->mads_out || h->qn[2] || h->cur[2] >= 0 || h->qn[h->P] || h->cur[h->P] >= 0) return false;
  if (h->cur[3] >= 0 && h->pkt[h->cur[3]].lane == 0) return false;
  for (unsigned k = 0; k < h->qn[3]; k++)
    if (h->pkt[h->q[3][(h->qh[3] + k) % IBH_MAXQ]].lane == 0) return false;
  return true;
}

/* the configuration: LinearFDBTop 20, LFT[n] = n, LFT[11] = 0, LFT[12] > P; LFT[10] stays 0xFF */
static bool er_cfg(er_ctx_t *x, void *in) {
  ibh_t *h = &x->h;
  unsigned k = x->ncfg++;
  IBH_SET(h, in.cfg_valid_i, in, 0, 1);
  if (k == 0) {
    IBH_SET(h, in.cfg_sel_i, in, 0, 1);
    IBH_SET(h, in.cfg_data_i, in, 0, 20);
    return false;
  }
  unsigned addr = k <= h->P ? k : k == h->P + 1 ? 11 : 12;
  unsigned val = k <= h->P ? k : k == h->P + 1 ? 0 : h->P + 3;
  IBH_SET(h, in.cfg_addr_i, in, 0, addr);
  IBH_SET(h, in.cfg_data_i, in, 0, val);
  return k == h->P + 2;
}

static void er_next(er_ctx_t *x, uint64_t c) {
  x->phase++;
  x->step = 0;
  x->t_phase = c;
}

static bool er_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  er_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P, V = h->V;
  cosim_msg_t m;
  /* background: ports 1 and 3 exchange lane-1 packets (isolation: they must all arrive intact) */
  if (x->phase >= 2 && x->phase < 14) {
    if (h->qn[1] == 0) ibh_data(h, 1, 1, 3, 2 + cosim_rng_below(&x->rng, 3));
    if (h->qn[3] == 0 && x->phase != 8) ibh_data(h, 3, 1, 1, 2 + cosim_rng_below(&x->rng, 3));
  }
  switch (x->phase) {
    case 0:
      if (ibh_bringup(h, &x->up, prev, &m)) er_next(x, c);
      break;
    case 1:
      if (er_cfg(x, in)) er_next(x, c);
      break;
    case 2: { /* codes 1-4 from port 2 */
      static const unsigned dl[] = {10, 0, 25, 11, 12, 2, 0xFFFF};
      for (unsigned k = 0; k < sizeof dl / sizeof dl[0]; k++)
        ibh_data(h, 2, k % V, dl[k] == 0xFFFF ? P : dl[k], 2);
      ibh_vl15_raw(h, 2, 0x1234ull << 48, 3);                         /* VL15 with a LID: 2 */
      ibh_vl15_raw(h, 2, (0xFFFFull << 48) | 2, 3);                   /* tag = the ingress: 3 */
      if (P < 31) ibh_vl15_raw(h, 2, (0xFFFFull << 48) | (P + 1), 3); /* tag > P: 3 */
      er_next(x, c);
      break;
    }
    case 4: /* 11: a packet from port P, Init */
      ibh_data(h, P, 0, 1, 2);
      er_next(x, c);
      break;
    case 6: /* 5, 7, 12, 14 */
      if (x->step == 0) h->put[2] = (ibh_put_t){true, IBH_BODY, 9, 0x5555, false, false};
      if (x->step == 1) h->put[2] = (ibh_put_t){true, IBH_HEAD, 9, 1ull << 48, false, false};
      if (x->step == 2 && h->cred_in[2][1] && h->rxs[2][1] == 0)
        h->put[2] = (ibh_put_t){true, IBH_TAIL, 1, 0x7777, true, false};
      else if (x->step == 2)
        break;
      if (x->step == 3) h->put[3] = (ibh_put_t){true, IBH_SYM, 0, 7, false, false};
      if (x->step == 4) { /* nothing has been sent out of port 3 on lanes 0 and V: full credits there */
        h->put_cred[3] = 1u | (1u << V);
        ibh_expect(h, 3, 14, c);
        ibh_expect(h, 3, 14, c);
      }
      if (++x->step == 5) er_next(x, c);
      break;
    case 8: /* 6: lane 0 of port 3 filled behind port 2's neighbour, who keeps its credits */
      if (x->step == 0) {
        h->hold_cred[2] = true;
        for (unsigned k = 0; k < 3; k++) ibh_data(h, 3, 0, 2, 4);
        x->step = 1;
      } else if (x->step < 12) { /* the buffer is full once no credit has come back for a while */
        x->step = h->cred_in[3][0] == 0 ? x->step + 1 : 1;
      } else if (x->step == 12) { /* a packet on lane 1 of the same port goes by */
        if (x->iso_id < 0) x->iso_id = ibh_data_noq(h, 3, 1, 1, 3);
        if (ibh_put_pkt(h, 3, x->iso_id) && h->pkt[x->iso_id].sent == 3) x->step = 13;
      } else if (x->step == 13) {
        h->put[3] = (ibh_put_t){true, IBH_BODY, 0, 0x6666, false, true};
        x->step = 14;
      } else if (++x->step > 20) {
        h->hold_cred[2] = false;
        er_next(x, c);
      }
      break;
    case 10: { /* 8: truncated packets from port 2 */
      for (unsigned k = 0; k < 2; k++) {
        int a = ibh_data(h, 2, k, 3, 3);
        h->pkt[a].flit[2] = IBH_SYN_TAIL;
        h->pkt[a].nsend = 2;
        ibh_data(h, 2, k, k == 0 ? 1 : 10, 3);
      }
      er_next(x, c);
      break;
    }
    case 12: /* 9: bad MADs, one at a time; then a response with a bad return route */
      if (x->step == 0) {
        uint64_t w[2] = {0, 0};
        x->last_exec_seen = h->last_exec[ER_SM];
        switch (x->nbad) {
          case 0: x->mad = ibh_mad(h, ER_SM, 0x07, 0x01, 0x12, 0, w, 1); break;
          case 1: ibh_vl15_raw(h, ER_SM, 0xFFFFull << 48, 2); break;
          case 2: ibh_vl15_raw(h, ER_SM, 0xFFFFull << 48, 17); break;
          case 3: x->mad = ibh_mad(h, ER_SM, 0x81, 0x01, 0x12, 0, w, 2); break;
          case 5: { /* a MAD whose TAIL never comes: the next MAD's HEAD closes it (8), a synthetic TAIL (9) */
            x->mad = ibh_mad(h, ER_SM, 0x81, 0x01, 0x12, 0, w, 1);
            x->m1 = (int)h->q[ER_SM][(h->qh[ER_SM] + h->qn[ER_SM] - 1) % IBH_MAXQ];
            h->pkt[x->m1].nsend = 3;
            x->mad2 = ibh_mad(h, ER_SM, 0x81, 0x01, 0x12, 0, w, 1);
            x->t1 = x->t2 = x->k3 = 0;
            x->ncr = 0;
            break;
          }
          default: { /* SwitchInfo Get whose response goes to tag P+1 (or the SMA, 0, if P = 31) */
            x->mad = ibh_mad(h, ER_SM, 0x81, 0x01, 0x12, 0, w, 1);
            unsigned id = h->q[ER_SM][(h->qh[ER_SM] + h->qn[ER_SM] - 1) % IBH_MAXQ];
            h->pkt[id].flit[1] = (h->pkt[id].flit[1] & ~0xFFFFFFFFFFFFull) | (P < 31 ? P + 1 : 0);
          }
        }
        x->step = 1;
      } else if (x->step == 1 && h->last_exec[ER_SM] != x->last_exec_seen) {
        if (x->nbad == 4) x->exp_sma_at = h->last_exec[ER_SM] + 2; /* the response HEAD's push */
        x->step = 2;
        x->t_phase = c;
      } else if (x->step == 2 && c > x->t_phase + 12 && (x->nbad != 5 || h->mad[x->mad2].done)) {
        if (x->nbad == 5) { /* the second MAD is answered; the first never is */
          h->mad[x->mad2].used = false;
          x->mad2 = -1;
        }
        if (x->mad >= 0) { /* no response comes */
          h->mad[x->mad].used = false;
          h->mads_out--;
          x->mad = -1;
        }
        x->step = 0;
        if (++x->nbad == 6) er_next(x, c);
      }
      if (x->exp_sma_at == c) ibh_expect(h, 0, P < 31 ? 3 : 3, c);
      break;
    case 14: /* 13, 15, 10: port P armed and activated, circuits to it, then its link is lost */
      if (x->step == 0) {
        x->up2 = (ibh_up_t){2, P, -1, 1u << P, 0};
        x->step = 1;
      }
      if (x->step == 1 && ibh_bringup(h, &x->up2, prev, &m)) {
        h->hold_cred[P] = true;
        for (unsigned n = 2; n <= 3; n++)
          for (unsigned k = 0; k < 2; k++) ibh_data(h, n, k, P, 4);
        x->step = 2;
        x->t_phase = c;
      } else if (x->step == 2 && c > x->t_phase + 30) {
        h->ts_every[P] = IBH_TS1;
        x->t_loss = c;
        x->step = 3;
      } else if (x->step == 3 && c == x->t_loss + 8) {
        h->put[P] = (ibh_put_t){true, IBH_BODY, 0, 0x1010, false, false}; /* 10: it is training */
      } else if (x->step == 3 && c > x->t_loss + 20) {
        h->ts_every[P] = IBH_TS2;
        x->step = 4;
      } else if (x->step == 4 && IBH_GET(h, out.phys_state_o, prev, P - 1) == IBH_PH_LINKUP) {
        ibh_link_lost(h, P); /* the neighbour's buffer went with the link */
        h->hold_cred[P] = false;
        h->ts_every[P] = 0;
        x->up2 = (ibh_up_t){2, P, -1, 1u << P, 0};
        x->step = 5;
      } else if (x->step == 5 && ibh_bringup(h, &x->up2, prev, &m)) {
        ibh_data(h, 2, 0, P, 3); /* port P delivers again */
        er_next(x, c);
      }
      break;
    case 3:
    case 5:
    case 7:
    case 9:
    case 11:
    case 13: /* let the episode finish */
      if (er_episode_done(h) && c > x->t_phase + 40) er_next(x, c);
      break;
    case 15:
      if (er_quiet(h) && c > x->t_phase + 10) er_next(x, c);
      break;
    default:
      if (c > x->t_phase + 20) return false;
      break;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool er_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  er_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  if (!ibh_check(h, c, in, out, msg)) return false;
  /* a request TAIL to the SMA executes in e = last_exec: the bad ones raise 9 there */
  if (x->phase == 12 && x->step == 1 && h->last_exec[ER_SM] != x->last_exec_seen && x->nbad < 4 &&
      h->last_exec[ER_SM] == c + 1)
    ibh_expect(h, ER_SM, 9, c + 1);
  /* the cut MAD: closed at the front by a synthetic TAIL in s = max(t2 + 1, the pop of its third
   * flit + 1), captured in s + 1, executed (error 9) in s + 2 */
  if (x->phase == 12 && x->nbad == 5) {
    const unsigned i = ER_SM - 1;
    if (IBH_GET(h, in.in_valid_i, in, i) && IBH_GET(h, in.in_kind_i, in, i) == IBH_HEAD &&
        IBH_GET(h, in.in_vl_i, in, i) == 15) {
      if (!x->t1)
        x->t1 = c;
      else if (!x->t2)
        x->t2 = c;
    }
    if (x->t1 && c > x->t1 && ((IBH_GET(h, out.out_credit_o, out, i) >> h->V) & 1) && ++x->ncr == 3)
      x->k3 = c;
    if (x->t2 && x->k3 && !x->cut_done) {
      x->cut_done = true;
      x->exp9_at = (x->t2 + 1 > x->k3 ? x->t2 + 1 : x->k3) + 2;
    }
  }
  if (x->exp9_at && c + 2 >= x->exp9_at) { /* into the ring no earlier than two cycles before */
    ibh_expect(h, ER_SM, 9, x->exp9_at);
    x->exp9_at = 0;
  }
  return true;
}

static bool er_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  er_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  (void)cycles;
  if (x->phase < 16) {
    cosim_fail(msg, "ibsw.err_timing", "the test did not reach its end (phase %u): too few cycles", x->phase);
    return false;
  }
  for (unsigned k = 1; k <= 15; k++)
    if (!((h->codes_seen >> k) & 1)) {
      cosim_fail(msg, "ibsw.err_timing", "error code %u was never produced", k);
      return false;
    }
  if (!h->sunk || h->ecnt[0][5] != 1) {
    cosim_fail(msg, "ibsw.err_timing",
               "%llu packets sunk at the lost link, %llu SMA responses dropped (>0, 1)",
               (unsigned long long)h->sunk, (unsigned long long)h->ecnt[0][5]);
    return false;
  }
  printf("ibsw_errors: codes 1-15 each on its port at its cycle, counters by arithmetic; %llu packets "
         "delivered, %llu dropped, %llu sunk at the lost link\n",
         (unsigned long long)h->delivered, (unsigned long long)h->dropped, (unsigned long long)h->sunk);
  return ibh_finish(h, msg);
}

static void er_init_p4(void *ctx, cosim_rng_t *rng) { er_init_view(ctx, rng, &ibsw_p4_view); }

COSIM_TEST(ibsw_errors, .target = &ibsw_p4_target,
           .purpose = "every error code 1-15 on its port at its cycle, counters by arithmetic",
           .ctx_size = sizeof(er_ctx_t), .init = er_init_p4, .drive = er_drive, .check = er_check,
           .finish = er_finish)
