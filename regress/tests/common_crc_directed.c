/* CRC-32 directed: the standard check value CRC-32("123456789") = 0xCBF43926
 * fed as "1234","5678","9"; then "a" (0xE8B7BE43) and the empty message
 * (0x00000000); an illegal keep in the middle of a message is ignored. */
#include "common_crc_scoreboard.h"

static const struct {
  uint8_t init, valid;
  uint32_t data;
  uint8_t keep;
} script[] = {
    {1, 1, 0x34333231, 0xf},
    {0, 1, 0x38373635, 0xf},
    {0, 1, 0x00000039, 0x1}, /* 0-2: "123456789" */
    {0, 0, 0, 0},            /* 3: check value */
    {1, 1, 0x00000061, 0x1},
    {0, 0, 0, 0}, /* 4-5: "a" */
    {1, 0, 0, 0},
    {0, 0, 0, 0}, /* 6-7: "" */
    {1, 1, 0x34333231, 0xf},
    {0, 1, 0xdeadbeef, 0x5},
    {0, 1, 0x38373635, 0xf}, /* 8-10: bad keep ignored */
    {0, 1, 0x00000039, 0x1},
    {0, 0, 0, 0},
    {0, 0, 0, 0}, /* 11-13 */
};

/* The spec's worked examples, asserted on top of the software CRC. */
static const struct {
  uint64_t cycle;
  uint32_t crc;
} known[] = {
    {3, 0xCBF43926u},
    {5, 0xE8B7BE43u},
    {7, 0x00000000u},
    {12, 0xCBF43926u},
};

static void init(void *ctx, cosim_rng_t *rng) {
  (void)rng;
  crc_sb_init(ctx);
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  if (c >= sizeof script / sizeof script[0]) return false;
  common_crc32_b4_in_t *in = iv;
  in->init_i = script[c].init;
  in->valid_i = script[c].valid;
  in->data_i = script[c].data;
  in->keep_i = script[c].keep;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  const common_crc32_b4_out_t *o = out;
  for (unsigned k = 0; k < sizeof known / sizeof known[0]; k++)
    if (known[k].cycle == c && o->crc_o != known[k].crc) {
      cosim_fail(msg, "crc.known_values", "crc_o=0x%08x, the standard value is 0x%08x", o->crc_o,
                 known[k].crc);
      return false;
    }
  return crc_sb_check(ctx, in, out, msg);
}

COSIM_TEST(common_crc_directed, .target = &common_crc32_b4_target,
           .purpose = "CRC-32 check value 0xCBF43926, \"a\", empty message, illegal keep",
           .ctx_size = sizeof(crc_sb_t), .init = init, .drive = drive, .check = check)
