/* Arbiter random: requesters that hold their request until granted (so the
 * fairness bound applies), new requests arriving at random, ack mostly on. */
#include "common_arb_scoreboard.h"

typedef struct {
  arb_sb_t sb;
  unsigned pending; /* requests being held */
  double load;
} arb_rand_t;

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)prev;
  arb_rand_t *t = ctx;
  common_arb_n5_in_t *in = iv;
  if (c % 100 == 0) t->load = 0.1 + 0.9 * (double)cosim_rng_below(rng, 100) / 100.0;
  for (unsigned i = 0; i < ARB_N; i++)
    if (cosim_rng_chance(rng, t->load)) t->pending |= 1u << i;
  in->req_i = (uint8_t)t->pending;
  in->ack_i = !cosim_rng_chance(rng, 0.1);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)c;
  arb_rand_t *t = ctx;
  const common_arb_n5_in_t *i = in;
  const common_arb_n5_out_t *o = out;
  bool ok = arb_sb_check(&t->sb, i, o, msg);
  if (i->ack_i) t->pending &= ~(unsigned)o->gnt_o; /* taken grants leave */
  return ok;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  return arb_sb_coverage(&((arb_rand_t *)ctx)->sb, msg);
}

COSIM_TEST(common_arb_random, .target = &common_arb_n5_target,
           .purpose = "arbiter random held requests, varying load, ack gaps; fairness bound",
           .ctx_size = sizeof(arb_rand_t), .drive = drive, .check = check, .finish = finish)
