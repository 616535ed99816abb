/* Credit counter directed: drain VC 1 to zero, underflow, return past
 * MaxCredits (overflow), consume+return in one cycle at 0 and at Max, a
 * consume on VC 3 (does not exist: bad_vc_o), init winning over everything. */
#include "common_credit_scoreboard.h"

CC_SCOREBOARD(common_credit_v3_c5, COMMON_CREDIT_V3_C5)

static const struct {
  uint8_t init, consume, vc, ret;
} script[] = {
    {0, 1, 1, 0}, {0, 1, 1, 0}, {0, 1, 1, 0}, {0, 1, 1, 0}, {0, 1, 1, 0}, /* 0-4: VC1 5 -> 0 */
    {0, 1, 1, 0},                                                         /* 5: underflow */
    {0, 1, 1, 2},                                                         /* 6: cons+ret at 0 */
    {0, 0, 0, 1},                                                         /* 7: VC0 at Max: overflow */
    {0, 1, 0, 1},                                                         /* 8: cons+ret at Max */
    {0, 1, 3, 4},               /* 9: bad VC; VC2 return overflows */
    {0, 1, 2, 2},               /* 10 */
    {1, 1, 0, 7},               /* 11: init wins */
    {0, 0, 0, 0}, {0, 0, 0, 0}, /* 12-13 */
};

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  if (c >= sizeof script / sizeof script[0]) return false;
  common_credit_v3_c5_in_t *in = iv;
  in->init_i = script[c].init;
  in->consume_i = script[c].consume;
  in->consume_vc_i = script[c].vc;
  in->return_i = script[c].ret;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return common_credit_v3_c5_sb_check(ctx, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  return cc_sb_coverage(ctx, msg);
}

COSIM_TEST(common_credit_directed, .target = &common_credit_v3_c5_target,
           .purpose = "credit counter corners: drain, underflow, overflow, cons+ret, bad VC, init",
           .ctx_size = sizeof(cc_sb_t), .drive = drive, .check = check, .finish = finish)
