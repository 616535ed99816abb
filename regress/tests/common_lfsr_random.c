/* LFSR random: mostly stepping (as ECM sampling does), random holds, loads
 * of random seeds and, rarely, of 0. */
#include "common_lfsr_scoreboard.h"

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)c;
  (void)prev;
  common_lfsr32_s44257_in_t *in = iv;
  in->en_i = cosim_rng_chance(rng, 0.9);
  in->load_i = cosim_rng_chance(rng, 0.001);
  in->seed_i = cosim_rng_chance(rng, 0.2) ? 0 : (uint32_t)cosim_rng_u64(rng);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return lfsr_sb_check(ctx, in, out, msg);
}

COSIM_TEST(common_lfsr_random, .target = &common_lfsr32_s44257_target,
           .purpose = "LFSR random steps, holds and loads vs a tap-by-tap reference",
           .ctx_size = sizeof(lfsr_sb_t), .drive = drive, .check = check)
