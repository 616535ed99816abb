/* Credit counter random: per-VC phases of sending faster or slower than
 * credits come back, occasional bad VC numbers and link re-inits. */
#include "common_credit_scoreboard.h"

typedef struct {
  cc_sb_t sb;
  double p_consume, p_return;
} cc_rand_t;

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)prev;
  cc_rand_t *t = ctx;
  common_credit_v3_c5_in_t *in = iv;
  if (c % 50 == 0) {
    t->p_consume = cosim_rng_chance(rng, 0.5) ? 0.9 : 0.3;
    t->p_return = cosim_rng_chance(rng, 0.5) ? 0.9 : 0.2;
  }
  in->init_i = cosim_rng_chance(rng, 0.002);
  in->consume_i = cosim_rng_chance(rng, t->p_consume);
  in->consume_vc_i = cosim_rng_chance(rng, 0.02) ? 3 : (uint8_t)cosim_rng_below(rng, CC_VCS);
  for (unsigned v = 0; v < CC_VCS; v++)
    if (cosim_rng_chance(rng, t->p_return / CC_VCS * 1.5)) in->return_i |= (uint8_t)(1u << v);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return cc_sb_check(&((cc_rand_t *)ctx)->sb, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  return cc_sb_coverage(&((cc_rand_t *)ctx)->sb, msg);
}

COSIM_TEST(common_credit_random, .target = &common_credit_v3_c5_target,
           .purpose = "credit counter random consume/return phases, bad VCs, re-init",
           .ctx_size = sizeof(cc_rand_t), .drive = drive, .check = check, .finish = finish)
