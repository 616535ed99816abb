/* elite4 random: every port sends on both VCs, to random explicit ports,
 * adaptively up, and as broadcasts to ranges of down ports; bodies of 1..16
 * words; some destinations nack a first copy (the source retries); the
 * neighbours hold credits back in random phases. Scoreboard: the harness
 * (exactly once, intact, route stripped, in order, no overrun, no error).
 * The minimum HEAD latency must be the contract's 3 cycles. */
#include "elite4_harness.h"

E4H_PORTS(elite4_p8, ELITE4_P8)
E4H_PORTS(elite4_p4, ELITE4_P4)

typedef struct {
  e4h_t h;
  uint64_t head_seen[E4H_MAXP * E4H_MAXV];
  double load;
} e4r_t;

static void traffic(e4r_t *t, cosim_rng_t *rng) {
  e4h_t *h = &t->h;
  if (h->now % 500 == 0) {
    t->load = 0.02 + 0.2 * (double)cosim_rng_below(rng, 100) / 100.0;
    h->backpressure = cosim_rng_chance(rng, 0.3) ? 0.6 : 0.05;
  }
  for (unsigned p = 0; p < h->P; p++)
    for (unsigned v = 0; v < h->V; v++) {
      if (h->qn[p][v] >= 3 || !cosim_rng_chance(rng, t->load) || h->npkt >= E4H_MAXPKT - 1) continue;
      uint32_t route;
      unsigned k = cosim_rng_below(rng, 10), down = 0;
      for (unsigned q = 0; q < h->P; q++) down += !(h->up_mask >> q & 1);
      if (k < 5) {
        route = 0xFFFFFFF0u | cosim_rng_below(rng, h->P);            /* explicit */
      } else if (k < 8) {
        route = 0xFFFFFFF0u | ELITE4_TAG_UP;                          /* adaptive up */
      } else {
        unsigned lo = cosim_rng_below(rng, down), hi = lo + cosim_rng_below(rng, down - lo);
        route = 0xFFFFFF00u | (lo << 6) | (hi << 4) | ELITE4_TAG_BCAST;
      }
      int id = e4h_send(h, p, v, route, 1 + cosim_rng_below(rng, 16), h->now, rng);
      if (id >= 0 && k < 8 && cosim_rng_chance(rng, 0.05)) h->pkt[id].nack_once = true;
    }
}

#define E4R_TEST(T, U)                                                                  \
  static void T##_init(void *ctx, cosim_rng_t *rng) {                                   \
    e4r_t *t = ctx;                                                                     \
    e4h_init(&t->h, (unsigned)U##_PARAM_NumPorts, (unsigned)U##_PARAM_NumVcs,           \
             (unsigned)U##_PARAM_BufDepth, (uint32_t)U##_PARAM_UpMask, rng);            \
  }                                                                                     \
  static bool T##_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) { \
    (void)prev;                                                                         \
    e4r_t *t = ctx;                                                                     \
    e4h_link_t l[E4H_MAXP];                                                             \
    t->h.now = c;                                                                       \
    if (t->h.npkt < E4H_MAXPKT - 64) traffic(t, rng);                                   \
    e4h_drive(&t->h, rng, l);                                                           \
    T##_to_in(&t->h, l, iv);                                                            \
    return true;                                                                        \
  }                                                                                     \
  static bool T##_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) { \
    (void)in;                                                                           \
    e4r_t *t = ctx;                                                                     \
    e4h_link_t l[E4H_MAXP];                                                             \
    bool err[E4H_MAXP];                                                                 \
    unsigned code[E4H_MAXP];                                                            \
    t->h.now = c;                                                                       \
    T##_from_out(&t->h, out, l, err, code);                                             \
    e4h_observe(&t->h, l, err, code);                                             \
    e4h_note_head(&t->h, l, t->head_seen);                                              \
    if (t->h.fail[0]) {                                                                 \
      cosim_fail(msg, t->h.fail_id, "%s", t->h.fail);                                                 \
      return false;                                                                     \
    }                                                                                   \
    return true;                                                                        \
  }                                                                                     \
  static bool T##_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {                \
    e4r_t *t = ctx;                                                                     \
    printf("packets: %u sent, %llu deliveries, %llu retries; HEAD latency min %llu mean %.2f cycles\n", \
           t->h.npkt, (unsigned long long)t->h.delivered, (unsigned long long)t->h.retries,   \
           (unsigned long long)t->h.lat_min, t->h.lat_n ? (double)t->h.lat_sum / (double)t->h.lat_n : 0.0); \
    if (!e4h_finish(&t->h, cycles > 3000 ? cycles - 3000 : 0, msg)) return false;       \
    if (t->h.lat_n && t->h.lat_min != 3) {                                              \
      cosim_fail(msg, "elite4.min_latency", "minimum HEAD latency %llu cycles, the contract is 3",            \
                 (unsigned long long)t->h.lat_min);                                     \
      return false;                                                                     \
    }                                                                                   \
    if (t->h.delivered < 100 && cycles > 20000) {                                       \
      cosim_fail(msg, "elite4.coverage", "coverage hole: only %llu packets delivered", (unsigned long long)t->h.delivered); \
      return false;                                                                     \
    }                                                                                   \
    return true;                                                                        \
  }

E4R_TEST(elite4_p8, ELITE4_P8)
E4R_TEST(elite4_p4, ELITE4_P4)

COSIM_TEST(elite4_random, .target = &elite4_p8_target,
           .purpose = "8-port random traffic: explicit/adaptive/broadcast, nacks, backpressure",
           .ctx_size = sizeof(e4r_t), .init = elite4_p8_init, .drive = elite4_p8_drive,
           .check = elite4_p8_check, .finish = elite4_p8_finish)
COSIM_TEST(elite4_p4_random, .target = &elite4_p4_target,
           .purpose = "4-port variant, same traffic (the gate-level lockstep's target)",
           .ctx_size = sizeof(e4r_t), .init = elite4_p4_init, .drive = elite4_p4_drive,
           .check = elite4_p4_check, .finish = elite4_p4_finish)
