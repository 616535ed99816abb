/* ibsw_vl15_saturated (docs/ibsw.md §5.4, §11, §14): output P is saturated
 * with data on every data lane (every other port sends to it, its
 * neighbour returns credits at random), and VL15 packets directed to it
 * (route tag P) cross with latency exactly R: VL15 goes first, data never
 * blocks it. Check ibsw.vl15_latency; the load is checked too (ibsw.vl15_latency
 * also fails a run whose output P was not busy with data >= 80 % of the time). */
#include "ibsw_harness.h"

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg, probes, src;
  uint64_t t_phase, t_in, busy, cycles;
  bool waiting;
  cosim_rng_t rng;
} vs_ctx_t;

#define VS_PROBES 12

static void vs_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  vs_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.ret_p = 0.95;
}

static bool vs_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  vs_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  cosim_msg_t m;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) {
    if (ibh_cfg_write(h, in, &x->ncfg, P, x->ncfg)) {
      x->phase = 2;
      x->t_phase = c;
    }
  }
  if (x->phase == 2) {
    for (unsigned n = 1; n < P; n++) /* everyone to P, every data lane */
      while (h->qn[n] < 3 &&
             ibh_data(h, n, cosim_rng_below(&x->rng, h->V), P, 2 + cosim_rng_below(&x->rng, 8)) >= 0) {}
    if (!x->waiting && c > x->t_phase + 100 + 40ull * x->probes) {
      x->src = 1 + x->probes % (P - 1);
      ibh_vl15_raw(h, x->src, (0xFFFFull << 48) | P, 3);
      x->waiting = true;
      x->t_in = 0;
    }
    if (x->probes == VS_PROBES) return false;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool vs_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  vs_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  if (x->waiting && !x->t_in && IBH_GET(h, in.in_valid_i, in, x->src - 1) &&
      IBH_GET(h, in.in_kind_i, in, x->src - 1) == IBH_HEAD && IBH_GET(h, in.in_vl_i, in, x->src - 1) == 15)
    x->t_in = c;
  if (x->phase == 2 && c > x->t_phase + 60) {
    x->cycles++;
    x->busy += IBH_GET(h, out.out_valid_o, out, P - 1) && IBH_GET(h, out.out_vl_o, out, P - 1) != 15;
  }
  if (x->waiting && x->t_in && IBH_GET(h, out.out_valid_o, out, P - 1) &&
      IBH_GET(h, out.out_vl_o, out, P - 1) == 15 && IBH_GET(h, out.out_kind_o, out, P - 1) == IBH_HEAD) {
    if (c != x->t_in + h->R || IBH_GET(h, out.out_data_o, out, P - 1) != (0xFFFFull << 48)) {
      cosim_fail(msg, "ibsw.vl15_latency",
                 "VL15 HEAD from port %u in %llu left port %u in %llu (data 0x%016llx); "
                 "expected %llu (R = %u) with the tag removed",
                 x->src, (unsigned long long)x->t_in, P, (unsigned long long)c,
                 (unsigned long long)IBH_GET(h, out.out_data_o, out, P - 1),
                 (unsigned long long)(x->t_in + h->R), h->R);
      return false;
    }
    x->waiting = false;
    x->probes++;
  }
  return ibh_check(h, c, in, out, msg);
}

static bool vs_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  vs_ctx_t *x = ctx;
  (void)cycles;
  if (x->probes < VS_PROBES || x->busy * 100 < 80 * x->cycles) {
    cosim_fail(msg, "ibsw.vl15_latency",
               "%u of %u VL15 probes through; output busy with data in %llu of %llu cycles "
               "(80 %% needed)",
               x->probes, VS_PROBES, (unsigned long long)x->busy, (unsigned long long)x->cycles);
    return false;
  }
  printf(
      "ibsw_vl15_saturated: %u VL15 packets each R = %u through an output busy with data %llu %% of cycles\n",
      x->probes, x->h.R, (unsigned long long)(100 * x->busy / x->cycles));
  return true; /* data is still queued at the end: a saturation run, not a drain */
}

static void vs_init_p4(void *ctx, cosim_rng_t *rng) { vs_init_view(ctx, rng, &ibsw_p4_view); }
static void vs_init_p24(void *ctx, cosim_rng_t *rng) { vs_init_view(ctx, rng, &ibsw_p24_view); }

COSIM_TEST(ibsw_vl15_saturated, .target = &ibsw_p4_target,
           .purpose = "VL15 through a data-saturated output in R", .ctx_size = sizeof(vs_ctx_t),
           .init = vs_init_p4, .drive = vs_drive, .check = vs_check, .finish = vs_finish)
COSIM_TEST(ibsw_p24_vl15_saturated, .target = &ibsw_p24_target,
           .purpose = "ibsw_vl15_saturated on the 24-port switch", .ctx_size = sizeof(vs_ctx_t),
           .init = vs_init_p24, .drive = vs_drive, .check = vs_check, .finish = vs_finish)
