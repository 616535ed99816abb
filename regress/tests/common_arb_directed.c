/* Arbiter directed: everyone requests with ack (pure rotation 0,1,2,3,4,0,...),
 * ack held low (the pointer must not move), a lone requester, requests from
 * behind the pointer (wrap-around), and no request at all. */
#include "common_arb_scoreboard.h"

ARB_SCOREBOARD(common_arb_n5, COMMON_ARB_N5)
#define ARB_N ((unsigned)COMMON_ARB_N5_PARAM_NumReq)

static const struct {
  uint8_t req, ack;
} script[] = {
    {0x1f, 1}, {0x1f, 1}, {0x1f, 1}, {0x1f, 1}, {0x1f, 1}, {0x1f, 1}, /* 0-5: rotation */
    {0x1f, 0}, {0x1f, 0},                                             /* 6-7: no ack: grant holds */
    {0x1f, 1},                                                        /* 8 */
    {0x01, 1}, {0x01, 1},                                             /* 9-10: lone requester */
    {0x18, 1}, {0x03, 1}, {0x11, 1},                                  /* 11-13: wrap-around */
    {0x00, 1}, {0x00, 0},                                             /* 14-15: idle */
    {0x1f, 1}, {0x1f, 1}, {0x1f, 1}, {0x1f, 1},                       /* 16-19 */
};

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  if (c >= sizeof script / sizeof script[0]) return false;
  common_arb_n5_in_t *in = iv;
  in->req_i = script[c].req;
  in->ack_i = script[c].ack;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  /* the rotation of cycles 0-5 is the spec's, granted index = cycle mod 5 */
  const common_arb_n5_out_t *o = out;
  if (c <= 5 && o->gnt_idx_o != c % ARB_N) {
    cosim_fail(msg, "arb.rotation", "with all requesting, grant %u went to %u, expected %u", (unsigned)c,
               o->gnt_idx_o, (unsigned)(c % ARB_N));
    return false;
  }
  return common_arb_n5_sb_check(ctx, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  return arb_sb_coverage(ctx, msg);
}

COSIM_TEST(common_arb_directed, .target = &common_arb_n5_target,
           .purpose = "arbiter rotation, held grant without ack, wrap-around, idle",
           .ctx_size = sizeof(arb_sb_t), .drive = drive, .check = check, .finish = finish)
