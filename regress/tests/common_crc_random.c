/* CRC-32 random: messages of random length (1..300 bytes) in words of 1..4
 * bytes, idle gaps (4 %), illegal keep patterns (2 %), back-to-back inits; a
 * byte is fed in over 90 % of the cycles (check crc.busy). */
#include "common_crc_scoreboard.h"

typedef struct {
  crc_sb_t sb;
  unsigned left; /* bytes left in the current message */
  double idle;   /* share of cycles forced idle (only the *_idle negative) */
} crc_rand_t;

static void init(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  crc_sb_init(&((crc_rand_t *)ctx)->sb);
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)c;
  (void)prev;
  crc_rand_t *t = ctx;
  common_crc32_b4_in_t *in = iv;
  if (t->left == 0) {
    t->left = 1 + cosim_rng_below(rng, 300);
    in->init_i = 1;
  }
  in->data_i = (uint32_t)cosim_rng_u64(rng);
  if (cosim_rng_chance(rng, 0.04)) return true; /* idle */
  if (t->idle > 0 && cosim_rng_chance(rng, t->idle)) return true;
  in->valid_i = 1;
  if (cosim_rng_chance(rng, 0.02)) { /* illegal keep: ignored */
    static const uint8_t bad[] = {0x0, 0x2, 0x4, 0x5, 0x6, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe};
    in->keep_i = bad[cosim_rng_below(rng, sizeof bad)];
    return true;
  }
  unsigned n = 1 + cosim_rng_below(rng, 4);
  if (n > t->left) n = t->left;
  in->keep_i = (uint8_t)((1u << n) - 1);
  t->left -= n;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return crc_sb_check(&((crc_rand_t *)ctx)->sb, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  return crc_sb_busy(&((crc_rand_t *)ctx)->sb, cycles, msg);
}

static void init_idle(void *ctx, cosim_rng_t *rng) {
  init(ctx, rng);
  ((crc_rand_t *)ctx)->idle = COMMON_IDLE_SHARE;
}

COSIM_TEST(common_crc_random, .target = &common_crc32_b4_target,
           .purpose = "CRC-32 random messages vs a table-driven software CRC", .ctx_size = sizeof(crc_rand_t),
           .init = init, .drive = drive, .check = check, .finish = finish)

/* The busy gate's negative: 80 % of the cycles forced idle must fail check crc.busy. */
COSIM_TEST(common_crc_random_idle, .target = &common_crc32_b4_target,
           .purpose = "negative only: common_crc_random with 80 % of cycles forced idle",
           .ctx_size = sizeof(crc_rand_t), .init = init_idle, .drive = drive, .check = check,
           .finish = finish)
