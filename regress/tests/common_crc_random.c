/* CRC-32 random: messages of random length (1..300 bytes) in words of 1..4
 * bytes, idle gaps, illegal keep patterns, back-to-back inits. */
#include "common_crc_scoreboard.h"

typedef struct {
  crc_sb_t sb;
  unsigned left; /* bytes left in the current message */
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
  if (cosim_rng_chance(rng, 0.1)) return true; /* idle */
  in->valid_i = 1;
  if (cosim_rng_chance(rng, 0.03)) { /* illegal keep: ignored */
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

COSIM_TEST(common_crc_random, .target = &common_crc32_b4_target,
           .purpose = "CRC-32 random messages vs a table-driven software CRC", .ctx_size = sizeof(crc_rand_t),
           .init = init, .drive = drive, .check = check)
