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
  double idle; /* share of cycles forced idle (only the *_idle negative) */
} arb_rand_t;

#define ARB_RANDOM_TEST(T, U)                                                                      \
  static bool T##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {     \
    (void)prev;                                                                                    \
    arb_rand_t *t = ctx;                                                                           \
    T##_in_t *in = iv;                                                                             \
    if (c % 100 == 0) t->load = 0.1 + 0.9 * (double)cosim_rng_below(rng, 100) / 100.0;             \
    if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true; /* requests held, not shown */ \
    for (unsigned i = 0; i < (unsigned)U##_PARAM_NumReq; i++)                                      \
      if (cosim_rng_chance(rng, t->load)) t->pending |= UINT64_C(1) << i;                          \
    in->req_i = t->pending;                                                                        \
    in->ack_i = !cosim_rng_chance(rng, 0.1);                                                       \
    return true;                                                                                   \
  }                                                                                                \
  static bool T##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *m) {  \
    (void)c;                                                                                       \
    arb_rand_t *t = ctx;                                                                           \
    const T##_in_t *i = in;                                                                        \
    const T##_out_t *o = out;                                                                      \
    bool ok = T##_sb_check(&t->sb, i, o, m);                                                       \
    if (i->ack_i) t->pending &= ~(uint64_t)o->gnt_o; /* taken grants leave */                      \
    return ok;                                                                                     \
  }                                                                                                \
  static bool T##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                           \
    const arb_sb_t *sb = &((arb_rand_t *)ctx)->sb;                                                 \
    return arb_sb_coverage(sb, msg) && arb_sb_busy(sb, cycles, msg);                               \
  }                                                                                                \
  static inline void T##_init_idle(void *ctx, cosim_rng_t *rng) {                                  \
    (void)rng;                                                                                     \
    ((arb_rand_t *)ctx)->idle = COMMON_IDLE_SHARE;                                                 \
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

/* The busy gate's negative: the 5-requester test with 80 % of its cycles
 * forced idle (no request shown) must fail check arb.busy. */
COSIM_TEST(common_arb_random_idle, .target = &common_arb_n5_target,
           .purpose = "negative only: common_arb_random with 80 % of cycles forced idle",
           .ctx_size = sizeof(arb_rand_t), .init = common_arb_n5_init_idle, .drive = common_arb_n5_drive,
           .check = common_arb_n5_check, .finish = common_arb_n5_finish)
