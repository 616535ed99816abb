/* LFSR random: mostly stepping (as ECM sampling does; 96 % of the cycles, so
 * check lfsr.busy's 90 % holds), random holds, loads of random seeds and,
 * rarely, of 0. */
#include "common_lfsr_scoreboard.h"

typedef struct {
  lfsr_sb_t sb;
  double idle; /* share of cycles forced idle (only the *_idle negative) */
} lfsr_rand_t;

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)c;
  (void)prev;
  lfsr_rand_t *t = ctx;
  common_lfsr32_s44257_in_t *in = iv;
  if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true;
  in->en_i = cosim_rng_chance(rng, 0.96);
  in->load_i = cosim_rng_chance(rng, 0.001);
  in->seed_i = cosim_rng_chance(rng, 0.2) ? 0 : (uint32_t)cosim_rng_u64(rng);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return lfsr_sb_check(&((lfsr_rand_t *)ctx)->sb, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  return lfsr_sb_busy(&((lfsr_rand_t *)ctx)->sb, cycles, msg);
}

static void init_idle(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  ((lfsr_rand_t *)ctx)->idle = COMMON_IDLE_SHARE;
}

COSIM_TEST(common_lfsr_random, .target = &common_lfsr32_s44257_target,
           .purpose = "LFSR random steps, holds and loads vs a tap-by-tap reference",
           .ctx_size = sizeof(lfsr_rand_t), .drive = drive, .check = check, .finish = finish)

/* The busy gate's negative: 80 % of the cycles forced idle must fail check lfsr.busy. */
COSIM_TEST(common_lfsr_random_idle, .target = &common_lfsr32_s44257_target,
           .purpose = "negative only: common_lfsr_random with 80 % of cycles forced idle",
           .ctx_size = sizeof(lfsr_rand_t), .init = init_idle, .drive = drive, .check = check,
           .finish = finish)
