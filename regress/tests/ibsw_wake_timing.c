/* ibsw_wake_timing (docs/ibsw.md §6.5, §11, §14): the wake contract. Port B
 * (port P of the switch) is Disabled (drained off first); the harness plays
 * A, polling (TS1 every cycle), with Lk = 1: A sees B's first TS1 Lk cycles
 * after B's pins, trains from the next cycle, and its TS2 reaches B 2Lk + 3
 * cycles after B's first TS1 was on the pins. SubnSet PortInfo(B)
 * PhysState=Polling executes in e (B shows Polling in e+1): B's first TS1 on
 * the pins in e+3, TS2 from e+4, Training in e+2, LinkUp in
 * max(e+2+W, e+7+2Lk). Then B is put to Sleep (drained) and wakes on A's
 * TS1: Polling the cycle after the first TS1 arrives. Check ibsw.wake. */
#include "ibsw_harness.h"

#define WK_LK 1

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase;
  int mad;
  uint64_t e, t_ts1, t_first_ts2, t_train, t_up, t_wake;
  cosim_rng_t rng;
} wk_ctx_t;

static void wk_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  wk_ctx_t *x = ctx;
  (void)rng;
  ibh_init(&x->h, vw);
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.auto_drained = true;
  x->mad = -1;
}

static bool wk_set(wk_ctx_t *x, unsigned phys) {
  uint64_t w = (uint64_t)phys << 56;
  x->mad = ibh_mad(&x->h, 1, 0x81, 0x02, 0x15, x->h.P, &w, 1);
  return x->mad >= 0;
}

static bool wk_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  wk_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned B = h->P;
  cosim_msg_t m;
  unsigned ph = (unsigned)IBH_GET(h, out.phys_state_o, prev, B - 1);
  if (x->mad >= 0 && h->mad[x->mad].done) {
    h->mad[x->mad].used = false;
    x->mad = -1;
  }
  switch (x->phase) {
    case 0:
      if (ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
      break;
    case 1: /* B off */
      if (wk_set(x, IBH_PH_DISABLED)) x->phase = 2;
      break;
    case 2:
      if (ph == IBH_PH_DISABLED && x->mad < 0) {
        h->ts_every[B] = IBH_TS1; /* A polls */
        if (wk_set(x, IBH_PH_POLLING)) x->phase = 3;
      }
      break;
    case 3: /* A: TS2 from 2Lk + 3 after B's first TS1 on the pins, until B is LinkUp */
      if (x->t_ts1 && c >= x->t_ts1 + 2 * WK_LK + 3) h->ts_every[B] = IBH_TS2;
      if (x->t_up) {
        h->ts_every[B] = 0;
        x->phase = 4;
      }
      break;
    case 4: /* Sleep: B is LinkUp (Init), drains and sleeps */
      if (x->mad < 0 && wk_set(x, IBH_PH_SLEEP)) x->phase = 5;
      break;
    case 5:
      if (ph == IBH_PH_SLEEP && x->mad < 0) {
        h->ts_every[B] = IBH_TS1; /* A polls: B must wake */
        x->t_wake = c;
        x->phase = 6;
      }
      break;
    case 6:
      if (c > x->t_wake + 10) {
        h->ts_every[B] = 0;
        return false;
      }
      break;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool wk_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  wk_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned B = h->P, W = h->W;
  unsigned ph = (unsigned)IBH_GET(h, out.phys_state_o, out, B - 1);
  if (x->phase == 3) {
    if (!x->e && ph == IBH_PH_POLLING) x->e = c - 1;
    if (x->e) {
      bool v = IBH_GET(h, out.out_valid_o, out, B - 1) && IBH_GET(h, out.out_kind_o, out, B - 1) == IBH_SYM;
      uint64_t d = IBH_GET(h, out.out_data_o, out, B - 1);
      if (v && d == IBH_TS1 && !x->t_ts1) x->t_ts1 = c;
      if (v && d == IBH_TS2 && !x->t_first_ts2) x->t_first_ts2 = c;
      if (ph == IBH_PH_TRAINING && !x->t_train) x->t_train = c;
      if (ph == IBH_PH_LINKUP && !x->t_up) {
        x->t_up = c;
        uint64_t e = x->e, up = e + 2 + W > e + 7 + 2 * WK_LK ? e + 2 + W : e + 7 + 2 * WK_LK;
        if (x->t_ts1 != e + 3 || x->t_first_ts2 != e + 4 || x->t_train != e + 2 || x->t_up != up) {
          cosim_fail(msg, "ibsw.wake",
                     "Set Polling executed in %llu: first TS1 out %llu (e+3), TS2 %llu (e+4), "
                     "Training %llu (e+2), LinkUp %llu (expected %llu = max(e+2+W, e+7+2Lk), W = %u)",
                     (unsigned long long)e, (unsigned long long)x->t_ts1, (unsigned long long)x->t_first_ts2,
                     (unsigned long long)x->t_train, (unsigned long long)x->t_up, (unsigned long long)up, W);
          return false;
        }
      }
    }
  }
  if (x->phase == 6 && c == x->t_wake + 1 && ph != IBH_PH_POLLING) {
    cosim_fail(msg, "ibsw.wake",
               "a sleeping port did not wake on the peer's TS1: PhysState %u the cycle after", ph);
    return false;
  }
  return ibh_check(h, c, in, out, msg);
}

static bool wk_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  wk_ctx_t *x = ctx;
  (void)cycles;
  if (x->phase < 6) {
    cosim_fail(msg, "ibsw.wake", "the test did not reach its end (phase %u): too few cycles", x->phase);
    return false;
  }
  printf("ibsw_wake_timing: Set in %llu, LinkUp in %llu (W = %u, Lk = %u); Sleep woke on TS1\n",
         (unsigned long long)x->e, (unsigned long long)x->t_up, x->h.W, WK_LK);
  return ibh_finish(&x->h, msg);
}

static void wk_init_p4(void *ctx, cosim_rng_t *rng) { wk_init_view(ctx, rng, &ibsw_p4_view); }
static void wk_init_p24(void *ctx, cosim_rng_t *rng) { wk_init_view(ctx, rng, &ibsw_p24_view); }

COSIM_TEST(ibsw_wake_timing, .target = &ibsw_p4_target,
           .purpose = "the wake contract of §6.5; Sleep woken by the peer", .ctx_size = sizeof(wk_ctx_t),
           .init = wk_init_p4, .drive = wk_drive, .check = wk_check, .finish = wk_finish)
COSIM_TEST(ibsw_p24_wake_timing, .target = &ibsw_p24_target,
           .purpose = "ibsw_wake_timing on the 24-port switch", .ctx_size = sizeof(wk_ctx_t),
           .init = wk_init_p24, .drive = wk_drive, .check = wk_check, .finish = wk_finish)
