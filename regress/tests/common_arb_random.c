/* Arbiter random: requesters that hold their request until granted (so the
 * fairness bound applies), new requests arriving at random, ack mostly on; on
 * 5 requesters and on 4, a power of two: there IdxW'(NumReq) is 0, and the
 * pointer past the last requester wraps by overflow. */
#include "common_arb_scoreboard.h"

ARB_SCOREBOARD(common_arb_n5, COMMON_ARB_N5)
ARB_SCOREBOARD(common_arb_n4, COMMON_ARB_N4)

typedef struct {
  arb_sb_t sb;
  uint64_t pending; /* requests being held */
  double load;
} arb_rand_t;

#define ARB_RANDOM_TEST(T, U)                                                                     \
  static bool T##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {    \
    (void)prev;                                                                                   \
    arb_rand_t *t = ctx;                                                                          \
    T##_in_t *in = iv;                                                                            \
    if (c % 100 == 0) t->load = 0.1 + 0.9 * (double)cosim_rng_below(rng, 100) / 100.0;            \
    for (unsigned i = 0; i < (unsigned)U##_PARAM_NumReq; i++)                                     \
      if (cosim_rng_chance(rng, t->load)) t->pending |= UINT64_C(1) << i;                         \
    in->req_i = t->pending;                                                                       \
    in->ack_i = !cosim_rng_chance(rng, 0.1);                                                      \
    return true;                                                                                  \
  }                                                                                               \
  static bool T##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *m) { \
    (void)c;                                                                                      \
    arb_rand_t *t = ctx;                                                                          \
    const T##_in_t *i = in;                                                                       \
    const T##_out_t *o = out;                                                                     \
    bool ok = T##_sb_check(&t->sb, i, o, m);                                                      \
    if (i->ack_i) t->pending &= ~(uint64_t)o->gnt_o; /* taken grants leave */                     \
    return ok;                                                                                    \
  }                                                                                               \
  static bool T##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                          \
    (void)cycles;                                                                                 \
    return arb_sb_coverage(&((arb_rand_t *)ctx)->sb, msg);                                        \
  }

ARB_RANDOM_TEST(common_arb_n5, COMMON_ARB_N5)
ARB_RANDOM_TEST(common_arb_n4, COMMON_ARB_N4)

COSIM_TEST(common_arb_random, .target = &common_arb_n5_target,
           .purpose = "arbiter random held requests, varying load, ack gaps; fairness bound",
           .ctx_size = sizeof(arb_rand_t), .drive = common_arb_n5_drive, .check = common_arb_n5_check,
           .finish = common_arb_n5_finish)

COSIM_TEST(common_arb_pow2_random, .target = &common_arb_n4_target,
           .purpose = "arbiter random on 4 requesters (NumReq a power of two)",
           .ctx_size = sizeof(arb_rand_t), .drive = common_arb_n4_drive, .check = common_arb_n4_check,
           .finish = common_arb_n4_finish)
