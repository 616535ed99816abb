/* LFSR directed: reset state = Seed, load seed 1 and check the spec's first
 * states 1 -> 0x80200003 -> 0xC0300002 -> 0x60180001, a rejected load of 0
 * (no step), load winning over en, en low holding the state. */
#include "common_lfsr_scoreboard.h"

static const struct {
  uint8_t en, load;
  uint32_t seed;
} script[] = {
    {0, 0, 0}, {1, 1, 1},                       /* 0: reset state; 1: load 1 (wins over en) */
    {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 0, 0}, /* 2-5: three steps, then hold */
    {1, 1, 0}, {0, 0, 0},                       /* 6: load 0 rejected, no step; 7: pulse */
    {1, 0, 0}, {1, 0, 0}, {0, 0, 0},            /* 8-10 */
};

static const struct {
  uint64_t cycle;
  uint32_t state;
} known[] = {
    {0, 44257u},      {2, 0x1u},        {3, 0x80200003u}, {4, 0xC0300002u},
    {5, 0x60180001u}, {6, 0x60180001u}, {7, 0x60180001u},
};

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  if (c >= sizeof script / sizeof script[0]) return false;
  common_lfsr32_s44257_in_t *in = iv;
  in->en_i = script[c].en;
  in->load_i = script[c].load;
  in->seed_i = script[c].seed;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  const common_lfsr32_s44257_out_t *o = out;
  for (unsigned k = 0; k < sizeof known / sizeof known[0]; k++)
    if (known[k].cycle == c && o->state_o != known[k].state) {
      cosim_fail(msg, "lfsr.known_values", "state_o=0x%08x, the spec says 0x%08x", o->state_o,
                 known[k].state);
      return false;
    }
  return lfsr_sb_check(ctx, in, out, msg);
}

COSIM_TEST(common_lfsr_directed, .target = &common_lfsr32_s44257_target,
           .purpose = "LFSR spec sequence from seed 1, rejected zero load, load over en",
           .ctx_size = sizeof(lfsr_sb_t), .drive = drive, .check = check)
