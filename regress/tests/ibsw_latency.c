/* ibsw_latency (docs/ibsw.md §11, §7.3, §14): an uncontended HEAD leaves
 * exactly R cycles after it arrived, a BODY of an open circuit 3, the credit
 * loop with a neighbour of the same design and Lk = 1 is 5 + 2Lk (a lane with
 * BufDepth < 7 streams BufDepth flits, then waits), and a MAD's response HEAD
 * leaves 2R + N + 4 after the request's HEAD arrived. One probe at a time,
 * from every port to the next and on every data lane; check ibsw.latency.
 * DDR 4x targets only (every cycle a slot). */
#include "ibsw_harness.h"

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, probe, nprobes, ncfg;
  int id, mad;
  uint64_t t_start;
  uint64_t s_expect[IBH_MAXF]; /* SA cycle of each flit of the credit probe */
  cosim_rng_t rng;
} lat_ctx_t;

#define LAT_CREDIT_FLITS 14 /* long enough to wait twice on a 4-deep buffer */

static void lat_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  lat_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.fixed_loop = true;
  x->id = -1;
  x->mad = -1;
  x->nprobes = 3 * (x->h.P < 8 ? x->h.P : 8);
}

static bool lat_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  lat_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  cosim_msg_t m;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) { /* DLID n -> port n */
    if (ibh_cfg_write(h, in, &x->ncfg, h->P, x->ncfg)) x->phase = 2;
  } else if (x->phase == 2 && x->id < 0 && x->mad < 0) {
    if (x->probe == x->nprobes) return c < x->t_start + 100;
    unsigned kind = x->probe % 3, src = 1 + (x->probe / 3) % h->P, dst = src % h->P + 1;
    unsigned lane = (x->probe / 3) % h->V;
    x->t_start = c;
    if (kind == 0) { /* HEAD, then a BODY and a TAIL once the circuit is open */
      x->id = ibh_data(h, src, lane, dst, 3);
      h->gap[src][0] = h->R + 2;
      h->gap[src][1] = 3;
    } else if (kind == 1) { /* a stream longer than the credits */
      x->id = ibh_data(h, src, lane, dst, LAT_CREDIT_FLITS);
    } else { /* SubnGet(SwitchInfo), N = 1 */
      uint64_t w = 0;
      x->mad = ibh_mad(h, src, 0x81, 0x01, 0x12, 0, &w, 1);
    }
    x->probe++;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool lat_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  lat_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  /* the MAD's request HEAD arrival: the first VL15 flit of the probe's port */
  if (x->mad >= 0 && !h->mad[x->mad].t_head) {
    unsigned i = h->mad[x->mad].port - 1;
    if (IBH_GET(h, in.in_valid_i, in, i) && IBH_GET(h, in.in_kind_i, in, i) == IBH_HEAD &&
        IBH_GET(h, in.in_vl_i, in, i) == 15)
      h->mad[x->mad].t_head = c;
  }
  if (!ibh_check(h, c, in, out, msg)) return false;
  if (x->mad >= 0 && h->mad[x->mad].done) {
    ibh_mad_t *y = &h->mad[x->mad];
    uint64_t want = y->t_head + 2 * h->R + y->n + 4;
    if (y->t_resp != want || (y->resp[2] & 0xFFFF) != 0) {
      cosim_fail(msg, "ibsw.latency",
                 "MAD (N = %u) from port %u: request HEAD in %llu, response HEAD out in %llu "
                 "(status 0x%04x); expected %llu (2R + N + 4)",
                 y->n, y->port, (unsigned long long)y->t_head, (unsigned long long)y->t_resp,
                 (unsigned)(y->resp[2] & 0xFFFF), (unsigned long long)want);
      return false;
    }
    y->used = false;
    x->mad = -1;
  }
  if (x->id >= 0 && h->pkt[x->id].got == h->pkt[x->id].nflits && !h->pkt[x->id].used) {
    ibh_pkt_t *p = &h->pkt[x->id];
    if (p->nflits == 3) {
      /* HEAD: R; BODY and TAIL arrive after the circuit is open: 3 each */
      uint64_t tb = p->t_head + 1 + h->R + 2, tt = tb + 1 + 3; /* the gaps set in lat_drive */
      if (p->t_out[0] != p->t_head + h->R || p->t_out[1] != tb + 3 || p->t_out[2] != tt + 3) {
        cosim_fail(msg, "ibsw.latency",
                   "packet %d port %u -> %d lane %u: HEAD in %llu out %llu (R = %u), BODY in %llu "
                   "out %llu, TAIL in %llu out %llu (3 each)",
                   x->id, p->src, p->egress, p->lane, (unsigned long long)p->t_head,
                   (unsigned long long)p->t_out[0], h->R, (unsigned long long)tb,
                   (unsigned long long)p->t_out[1], (unsigned long long)tt, (unsigned long long)p->t_out[2]);
        return false;
      }
    } else {
      /* SA cycle s_k = max(s_(k-1) + 1, a_k + 1, s_(k-depth) + 5 + 2Lk), a_k the arrival:
       * back to back while the input has credit, else 2 after the pop that freed it */
      unsigned dep = h->depth[p->lane];
      uint64_t s[IBH_MAXF], a[IBH_MAXF];
      for (unsigned k = 0; k < p->nflits; k++) {
        a[k] = k == 0 ? p->t_head : a[k - 1] + 1;
        if (k >= dep && a[k] < s[k - dep] + 2) a[k] = s[k - dep] + 2;
        s[k] = k == 0 ? p->t_head + h->R - 2 : s[k - 1] + 1;
        if (k > 0 && s[k] < a[k] + 1) s[k] = a[k] + 1;
        if (k >= dep && s[k] < s[k - dep] + 7) s[k] = s[k - dep] + 7;
        if (p->t_out[k] != s[k] + 2) {
          cosim_fail(msg, "ibsw.latency",
                     "packet %d port %u -> %d lane %u (credit loop, depth %u, Lk 1): flit %u out "
                     "in %llu, expected %llu",
                     x->id, p->src, p->egress, p->lane, dep, k, (unsigned long long)p->t_out[k],
                     (unsigned long long)(s[k] + 2));
          return false;
        }
      }
    }
    x->id = -1;
  }
  return true;
}

static bool lat_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  lat_ctx_t *x = ctx;
  (void)cycles;
  if (x->probe < x->nprobes || x->id >= 0 || x->mad >= 0) {
    cosim_fail(msg, "ibsw.latency", "only %u of %u probes done: too few cycles", x->probe, x->nprobes);
    return false;
  }
  printf("ibsw_latency: %u probes, every latency exact\n", x->nprobes);
  return ibh_finish(&x->h, msg);
}

static void lat_init_p4(void *ctx, cosim_rng_t *rng) { lat_init_view(ctx, rng, &ibsw_p4_view); }

COSIM_TEST(ibsw_latency, .target = &ibsw_p4_target,
           .purpose = "HEAD R, BODY 3, credit loop 5+2Lk, MAD 2R+N+4", .ctx_size = sizeof(lat_ctx_t),
           .init = lat_init_p4, .drive = lat_drive, .check = lat_check, .finish = lat_finish)
