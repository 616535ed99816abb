/* Credit counter random: phases of sending faster than credits come back
 * (drain), slower (fill) or at about the same rate, each busy in over 90 % of
 * its cycles (check credit.busy); occasional bad VC numbers and link
 * re-inits; on 3 VCs of 5 credits, and on the smallest counter, 1 VC of 1
 * credit (VcW is 1 there, not $clog2(1) = 0, and CntW is $clog2(2) = 1). */
#include "common_credit_scoreboard.h"

CC_SCOREBOARD(common_credit_v3_c5, COMMON_CREDIT_V3_C5)
CC_SCOREBOARD(common_credit_v1_c1, COMMON_CREDIT_V1_C1)

typedef struct {
  cc_sb_t sb;
  double p_consume, p_return; /* p_return: returns per cycle over all VCs */
  double idle;                /* share of cycles forced idle (only the *_idle negative) */
} cc_rand_t;

#define CC_RANDOM_TEST(T, U)                                                                      \
  static bool T##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {    \
    (void)prev;                                                                                   \
    cc_rand_t *t = ctx;                                                                           \
    T##_in_t *in = iv;                                                                            \
    const unsigned vcs = (unsigned)U##_PARAM_NumVcs;                                              \
    if (c % 50 == 0) { /* drain, fill or balanced (consume, return) */                            \
      static const double mix[3][2] = {{0.95, 0.3}, {0.5, 1.35}, {0.8, 0.9}};                     \
      unsigned k = cosim_rng_below(rng, 3);                                                       \
      t->p_consume = mix[k][0];                                                                   \
      t->p_return = mix[k][1];                                                                    \
    }                                                                                             \
    if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true;                               \
    in->init_i = cosim_rng_chance(rng, 0.002);                                                    \
    in->consume_i = cosim_rng_chance(rng, t->p_consume);                                          \
    in->consume_vc_i = cosim_rng_chance(rng, 0.02) ? 3 : (uint8_t)cosim_rng_below(rng, vcs);      \
    for (unsigned v = 0; v < vcs; v++)                                                            \
      if (cosim_rng_chance(rng, t->p_return / vcs)) in->return_i |= (uint8_t)(1u << v);           \
    return true;                                                                                  \
  }                                                                                               \
  static bool T##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *m) { \
    (void)c;                                                                                      \
    return T##_sb_check(&((cc_rand_t *)ctx)->sb, in, out, m);                                     \
  }                                                                                               \
  static bool T##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                          \
    const cc_sb_t *sb = &((cc_rand_t *)ctx)->sb;                                                  \
    return cc_sb_coverage(sb, msg) && cc_sb_busy(sb, cycles, msg);                                \
  }                                                                                               \
  static inline void T##_init_idle(void *ctx, cosim_rng_t *rng) {                                 \
    (void)rng;                                                                                    \
    ((cc_rand_t *)ctx)->idle = COMMON_IDLE_SHARE;                                                 \
  }

CC_RANDOM_TEST(common_credit_v3_c5, COMMON_CREDIT_V3_C5)
CC_RANDOM_TEST(common_credit_v1_c1, COMMON_CREDIT_V1_C1)

COSIM_TEST(common_credit_random, .target = &common_credit_v3_c5_target,
           .purpose = "credit counter random consume/return phases, bad VCs, re-init",
           .ctx_size = sizeof(cc_rand_t), .drive = common_credit_v3_c5_drive,
           .check = common_credit_v3_c5_check, .finish = common_credit_v3_c5_finish)

COSIM_TEST(common_credit_single_random, .target = &common_credit_v1_c1_target,
           .purpose = "credit counter random on the smallest one: 1 VC, 1 credit",
           .ctx_size = sizeof(cc_rand_t), .drive = common_credit_v1_c1_drive,
           .check = common_credit_v1_c1_check, .finish = common_credit_v1_c1_finish)

/* The busy gate's negative: the 3-VC test with 80 % of its cycles forced
 * idle must fail check credit.busy. */
COSIM_TEST(common_credit_random_idle, .target = &common_credit_v3_c5_target,
           .purpose = "negative only: common_credit_random with 80 % of cycles forced idle",
           .ctx_size = sizeof(cc_rand_t), .init = common_credit_v3_c5_init_idle,
           .drive = common_credit_v3_c5_drive, .check = common_credit_v3_c5_check,
           .finish = common_credit_v3_c5_finish)
