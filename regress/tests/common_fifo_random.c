/* FIFO random: phases that lean towards filling or draining (so full, empty
 * and both error pulses are all reached), each with a push or pop attempted
 * in over 90 % of its cycles (check fifo.busy), random data, on an 8-bit FIFO of
 * depth 5, a 72-bit one of depth 4 (wide ports travel as word arrays) and a
 * 1-bit one of depth 3. */
#include "common_fifo_scoreboard.h"

FIFO_SCOREBOARD(common_fifo_w8_d5, COMMON_FIFO_W8_D5)
FIFO_SCOREBOARD(common_fifo_w72_d4, COMMON_FIFO_W72_D4)
FIFO_SCOREBOARD(common_fifo_w1_d3, COMMON_FIFO_W1_D3)

typedef struct {
  fifo_sb_t sb;
  double p_push, p_pop;
  double idle; /* share of cycles forced idle (only the *_idle negatives) */
} fifo_rand_t;

static void pick_phase(fifo_rand_t *t, uint64_t c, cosim_rng_t *rng) {
  if (c % 64 == 0) { /* new phase: fill-heavy, drain-heavy or balanced */
    static const double mix[3][2] = {{0.95, 0.25}, {0.25, 0.95}, {0.7, 0.7}}; /* idle < 10 % */
    unsigned k = cosim_rng_below(rng, 3);
    t->p_push = mix[k][0];
    t->p_pop = mix[k][1];
  }
}

#define FIFO_RANDOM_TEST(T)                                                                       \
  static bool T##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {    \
    (void)prev;                                                                                   \
    fifo_rand_t *t = ctx;                                                                         \
    T##_in_t *in = iv;                                                                            \
    pick_phase(t, c, rng);                                                                        \
    if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true;                               \
    in->push_i = cosim_rng_chance(rng, t->p_push);                                                \
    in->pop_i = cosim_rng_chance(rng, t->p_pop);                                                  \
    uint64_t r[2] = {cosim_rng_u64(rng), cosim_rng_u64(rng)};                                     \
    memcpy(&in->push_data_i, r, sizeof in->push_data_i);                                          \
    return true;                                                                                  \
  }                                                                                               \
  static bool T##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *m) { \
    (void)c;                                                                                      \
    return T##_sb_check(&((fifo_rand_t *)ctx)->sb, in, out, m);                                   \
  }                                                                                               \
  static bool T##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                          \
    const fifo_sb_t *sb = &((fifo_rand_t *)ctx)->sb;                                              \
    return fifo_sb_coverage(sb, msg) && fifo_sb_busy(sb, cycles, msg);                            \
  }                                                                                               \
  static inline void T##_init_idle(void *ctx, cosim_rng_t *rng) {                                 \
    (void)rng;                                                                                    \
    ((fifo_rand_t *)ctx)->idle = COMMON_IDLE_SHARE;                                               \
  }

FIFO_RANDOM_TEST(common_fifo_w8_d5)
FIFO_RANDOM_TEST(common_fifo_w72_d4)
FIFO_RANDOM_TEST(common_fifo_w1_d3)

COSIM_TEST(common_fifo_random, .target = &common_fifo_w8_d5_target,
           .purpose = "FIFO 8x5 random push/pop in fill/drain phases, scoreboard + coverage",
           .ctx_size = sizeof(fifo_rand_t), .drive = common_fifo_w8_d5_drive,
           .check = common_fifo_w8_d5_check, .finish = common_fifo_w8_d5_finish)

COSIM_TEST(common_fifo_wide_random, .target = &common_fifo_w72_d4_target,
           .purpose = "FIFO 72x4 random (ports wider than 64 bits)", .ctx_size = sizeof(fifo_rand_t),
           .drive = common_fifo_w72_d4_drive, .check = common_fifo_w72_d4_check,
           .finish = common_fifo_w72_d4_finish)

COSIM_TEST(common_fifo_narrow_random, .target = &common_fifo_w1_d3_target,
           .purpose = "FIFO 1x3 random (narrowest entry; CountW exact at Depth = 2^k-1)",
           .ctx_size = sizeof(fifo_rand_t), .drive = common_fifo_w1_d3_drive,
           .check = common_fifo_w1_d3_check, .finish = common_fifo_w1_d3_finish)

/* The busy gate's negative: the 8x5 test with 80 % of its cycles forced idle
 * must fail check fifo.busy. */
COSIM_TEST(common_fifo_random_idle, .target = &common_fifo_w8_d5_target,
           .purpose = "negative only: common_fifo_random with 80 % of cycles forced idle",
           .ctx_size = sizeof(fifo_rand_t), .init = common_fifo_w8_d5_init_idle,
           .drive = common_fifo_w8_d5_drive, .check = common_fifo_w8_d5_check,
           .finish = common_fifo_w8_d5_finish)
