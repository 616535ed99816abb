/* FIFO directed: the timing table of docs/common.md (Depth=2 there; Depth=5
 * here), then every corner: fill to full, push into full (rejected), push+pop
 * while full (accepted), drain, pop while empty (rejected), push+pop while empty. */
#include "common_fifo_scoreboard.h"

FIFO_SCOREBOARD(common_fifo_w8_d5, COMMON_FIFO_W8_D5)

/* One row per cycle: push, data, pop. */
static const struct {
  uint8_t push, data, pop;
} script[] = {
    {1, 0xA0, 0}, {1, 0xA1, 0}, {1, 0xA2, 0}, {1, 0xA3, 0}, {1, 0xA4, 0}, /* 0-4: fill */
    {1, 0xEE, 0},                                                         /* 5: full: rejected */
    {0, 0, 0},                                                            /* 6: overflow_o pulse */
    {1, 0xB0, 1}, {1, 0xB1, 1},                                           /* 7-8: push+pop while full */
    {0, 0, 1},    {0, 0, 1},    {0, 0, 1},    {0, 0, 1},    {0, 0, 1},    /* 9-13: drain */
    {0, 0, 1},                                                            /* 14: empty: rejected */
    {1, 0xC0, 1},                                                         /* 15: push+pop empty: push only */
    {0, 0, 1},    {0, 0, 0},                                              /* 16-17 */
};

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  if (c >= sizeof script / sizeof script[0]) return false;
  common_fifo_w8_d5_in_t *in = iv;
  in->push_i = script[c].push;
  in->push_data_i = script[c].data;
  in->pop_i = script[c].pop;
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  return common_fifo_w8_d5_sb_check(ctx, in, out, msg);
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  return fifo_sb_coverage(ctx, msg);
}

COSIM_TEST(common_fifo_directed, .target = &common_fifo_w8_d5_target,
           .purpose = "FIFO corners: full, overflow, push+pop full, drain, underflow",
           .ctx_size = sizeof(fifo_sb_t), .drive = drive, .check = check, .finish = finish)
