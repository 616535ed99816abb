/* Event counter random: phases of large, unit and mixed increments, 5 % idle
 * cycles and occasional clears (some over an increment), against the
 * scoreboard's own arithmetic, on every counter target. The clear rate is set
 * per target so that a run between clears can reach all ones (or, at Width 32,
 * carry out of bit 15). A sparse variant exists only to show the busy gate. */
#include "common_counter_scoreboard.h"

CTR_SCOREBOARD(common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT)
CTR_SCOREBOARD(common_counter_w4_i4, COMMON_COUNTER_W4_I4)
CTR_SCOREBOARD(common_counter_w1_i1_sat, COMMON_COUNTER_W1_I1_SAT)
CTR_SCOREBOARD(common_counter_w32_i4, COMMON_COUNTER_W32_I4)

typedef struct {
  ctr_sb_t sb;
  unsigned phase; /* 0 = large increments, 1 = unit increments, 2 = any */
} ctr_rand_t;

static unsigned ctr_rand_inc(ctr_rand_t *t, uint64_t c, cosim_rng_t *rng, unsigned incw, double p_idle) {
  const unsigned max = (1u << incw) - 1u;
  if (c % 64 == 0) t->phase = cosim_rng_below(rng, 3);
  if (cosim_rng_chance(rng, p_idle)) return 0;
  switch (t->phase) {
    case 0: return max - cosim_rng_below(rng, (max + 1) / 2); /* upper half */
    case 1: return 1;
    default: return 1 + cosim_rng_below(rng, max);
  }
}

#define CTR_RANDOM(NAME, T, U, P_CLEAR, P_IDLE, PURPOSE)                                               \
  static bool NAME##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {      \
    (void)prev;                                                                                        \
    T##_in_t *in = iv;                                                                                 \
    in->inc_i = ctr_rand_inc(ctx, c, rng, (unsigned)U##_PARAM_IncW, P_IDLE);                           \
    in->clear_i = cosim_rng_chance(rng, P_CLEAR);                                                      \
    return true;                                                                                       \
  }                                                                                                    \
  static bool NAME##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) { \
    (void)c;                                                                                           \
    return T##_sb_check(&((ctr_rand_t *)ctx)->sb, in, out, msg);                                       \
  }                                                                                                    \
  static bool NAME##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                            \
    (void)cycles;                                                                                      \
    return ctr_sb_finish(&((ctr_rand_t *)ctx)->sb, msg);                                               \
  }                                                                                                    \
  COSIM_TEST(NAME, .target = &T##_target, .purpose = PURPOSE, .ctx_size = sizeof(ctr_rand_t),          \
             .drive = NAME##_drive, .check = NAME##_check, .finish = NAME##_finish)

CTR_RANDOM(common_counter_random, common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT, 0.005, 0.05,
           "saturating 8-bit counter, IncW 3: random increments and clears vs its own arithmetic")
CTR_RANDOM(common_counter_wrap_random, common_counter_w4_i4, COMMON_COUNTER_W4_I4, 0.02, 0.05,
           "wrapping 4-bit counter, IncW = Width: random increments and clears")
CTR_RANDOM(common_counter_w1_random, common_counter_w1_i1_sat, COMMON_COUNTER_W1_I1_SAT, 0.05, 0.05,
           "Width = 1 saturating counter: random increments and clears")
CTR_RANDOM(common_counter_w32_random, common_counter_w32_i4, COMMON_COUNTER_W32_I4, 0.0001, 0.05,
           "wrapping 32-bit counter, IncW 4 (elite4/cp statistics): long runs between clears")
CTR_RANDOM(common_counter_sparse_random, common_counter_w8_i3_sat, COMMON_COUNTER_W8_I3_SAT, 0.005, 0.7,
           "negative only: a mostly idle counter, which the busy gate must reject")
