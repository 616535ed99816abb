/* ibsw_lft (docs/ibsw.md §14): forwarding by the LFT, every drop of §5.2 with
 * its code on err_o/err_code_o two cycles later (ibsw.err) and in
 * PortRcvSwitchRelayErrors (ibsw.counters), DLID > LinearFDBTop, 0xFF, entry
 * 0 / > P / = ingress, an egress not Active (port P is left Armed); LFT
 * entries rewritten through the configuration port during traffic, HEADs of
 * the same DLID arriving in the write's cycle (old entry) and the next (new
 * entry): ibsw.lft_epoch. An LFT block Set by MAD (SubnSet) while the traffic
 * pauses, then traffic on the new block. */
#include "ibsw_harness.h"

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg, npkts, want_pkts;
  uint64_t t_phase;
  int mad;
  unsigned top;
  unsigned pending_cfg_lid; /* the DLID of the last rewrite */
  cosim_rng_t rng;
} lft_ctx_t;

static void lft_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  lft_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  x->up.active_mask = 0;
  for (unsigned n = 1; n < x->h.P; n++) x->up.active_mask |= 1u << n;
  x->up.armed_mask = 1u << x->h.P; /* port P: LinkUp, Armed, never Active: error 4 */
  x->mad = -1;
  x->want_pkts = 40 * x->h.P;
  unsigned ent = x->h.lft_entries;
  x->top = ent > 48 ? 48 : ent - 1;
}

/* an LFT entry for the tests: mostly a port, else one of the drop cases */
static unsigned lft_entry(lft_ctx_t *x) {
  unsigned r = cosim_rng_below(&x->rng, 16), P = x->h.P;
  if (r < 10) return 1 + cosim_rng_below(&x->rng, P);
  if (r < 12) return 0xFF;
  if (r < 13) return 0;
  if (r < 14) return P + 1 + cosim_rng_below(&x->rng, 0xFE - P);
  return 1 + cosim_rng_below(&x->rng, P);
}

static unsigned lft_dlid(lft_ctx_t *x) {
  unsigned r = cosim_rng_below(&x->rng, 32);
  if (r == 0) return 0;
  if (r == 1) return 0xFFFF;
  if (r < 4) return x->top + 1 + cosim_rng_below(&x->rng, 8); /* above LinearFDBTop */
  return 1 + cosim_rng_below(&x->rng, x->top);
}

static bool lft_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  lft_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  cosim_msg_t m;
  switch (x->phase) {
    case 0: /* bring-up */
      if (ibh_bringup(h, &x->up, prev, &m)) {
        x->phase = 1;
        x->ncfg = 0;
      }
      break;
    case 1: /* the table through the configuration port, one write a cycle */
      IBH_SET(h, in.cfg_valid_i, in, 0, 1);
      if (x->ncfg == 0) {
        IBH_SET(h, in.cfg_sel_i, in, 0, 1);
        IBH_SET(h, in.cfg_data_i, in, 0, x->top);
      } else {
        IBH_SET(h, in.cfg_sel_i, in, 0, 0);
        IBH_SET(h, in.cfg_addr_i, in, 0, x->ncfg);
        IBH_SET(h, in.cfg_data_i, in, 0, lft_entry(x));
      }
      if (++x->ncfg > x->top + 8 && x->ncfg < h->lft_entries)
        x->ncfg = h->lft_entries; /* a few above top too */
      if (x->ncfg >= h->lft_entries || x->ncfg > x->top + 8) {
        x->phase = 2;
        x->t_phase = c;
      }
      break;
    case 2: /* traffic with rewrites; probes of the write epoch */
    case 4: {
      for (unsigned n = 1; n <= h->P; n++) {
        if (h->qn[n] < 2 && x->npkts < x->want_pkts && cosim_rng_chance(&x->rng, 0.3)) {
          unsigned r = cosim_rng_below(&x->rng, 40);
          if (r == 0) /* VL15, DLID not permissive: error 2 */
            ibh_vl15_raw(h, n, 0x1234ull << 48, 3);
          else if (r == 1) /* VL15, tag beyond P or the ingress: error 3 */
            ibh_vl15_raw(
                h, n, (0xFFFFull << 48) | (cosim_rng_chance(&x->rng, 0.5) || h->P >= 31 ? n : h->P + 1), 3);
          else
            ibh_data(h, n, cosim_rng_below(&x->rng, h->V), lft_dlid(x), 2 + cosim_rng_below(&x->rng, 5));
          x->npkts++;
        }
      }
      if (c % 23 == 0) { /* rewrite an entry; the same DLID from two ports, in c and c+1 */
        unsigned lid = 1 + cosim_rng_below(&x->rng, x->top);
        IBH_SET(h, in.cfg_valid_i, in, 0, 1);
        IBH_SET(h, in.cfg_sel_i, in, 0, 0);
        IBH_SET(h, in.cfg_addr_i, in, 0, lid);
        IBH_SET(h, in.cfg_data_i, in, 0, lft_entry(x));
        x->pending_cfg_lid = lid;
        /* the probe: a HEAD for that DLID in the write's cycle (old entry) and one the cycle after (new) */
        unsigned k = 0;
        for (unsigned n = 1; n <= h->P && k < 2; n++) {
          if (h->cur[n] >= 0 || h->qn[n] || h->cred_in[n][0] == 0) continue;
          if (ibh_data(h, n, 0, lid, 2) < 0) continue;
          if (k == 1) h->not_before[n] = c + 1;
          k++;
        }
      }
      if (x->phase == 2 && x->npkts >= x->want_pkts / 2 && h->mads_out == 0) {
        x->phase = 3; /* pause, then a block Set by MAD */
        x->t_phase = c;
      }
      if (x->phase == 4 && x->npkts >= x->want_pkts) {
        x->phase = 5;
        x->t_phase = c;
      }
      break;
    }
    case 3: {
      bool idle = true;
      for (unsigned n = 1; n <= h->P; n++)
        if (h->qn[n] || h->cur[n] >= 0) idle = false;
      if (x->mad < 0 && idle && c > x->t_phase + 4 * h->R + 40) {
        uint64_t w[8];
        for (unsigned k = 0; k < 8; k++) {
          w[k] = 0;
          for (unsigned j = 0; j < 8; j++) w[k] |= (uint64_t)(lft_entry(x) & 0xFF) << (8 * j);
        }
        x->mad = ibh_mad(h, 1, 0x81, 0x02, 0x19, 0, w, 8);
      } else if (x->mad >= 0 && h->mad[x->mad].done) {
        h->mad[x->mad].used = false;
        x->mad = -1;
        x->phase = 4;
      }
      break;
    }
    default: /* drain */
      if (c > x->t_phase + 400 + 20 * h->R) return false;
      break;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool lft_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  lft_ctx_t *x = ctx;
  return ibh_check(&x->h, c, in, out, msg);
}

static bool lft_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  lft_ctx_t *x = ctx;
  (void)cycles;
  if (x->phase < 5) {
    cosim_fail(msg, "ibsw.loss",
               "the test did not reach its end (phase %u, %llu packets sent): too few cycles", x->phase,
               (unsigned long long)x->npkts);
    return false;
  }
  if (x->h.delivered < x->want_pkts / 4 || x->h.dropped < 8) {
    cosim_fail(msg, "ibsw.route", "too little coverage: %llu packets delivered, %llu dropped",
               (unsigned long long)x->h.delivered, (unsigned long long)x->h.dropped);
    return false;
  }
  printf("ibsw_lft: %llu packets delivered, %llu dropped with their codes\n",
         (unsigned long long)x->h.delivered, (unsigned long long)x->h.dropped);
  return ibh_finish(&x->h, msg);
}

static void lft_init_p4(void *ctx, cosim_rng_t *rng) { lft_init_view(ctx, rng, &ibsw_p4_view); }

COSIM_TEST(ibsw_lft, .target = &ibsw_p4_target,
           .purpose = "LFT forwarding, every drop of §5.2 with its code, write epochs",
           .ctx_size = sizeof(lft_ctx_t), .init = lft_init_p4, .drive = lft_drive, .check = lft_check,
           .finish = lft_finish)
