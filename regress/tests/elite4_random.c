/* elite4 random: every port sends on every VC, to random explicit ports,
 * adaptively up (TagUp, and TagUpN where tag 12 is not a port), and as
 * broadcasts to ranges of down ports; bodies of 1..16
 * words; some destinations nack a first copy (the source retries); the
 * neighbours hold credits back in random phases. Scoreboard: the harness
 * (exactly once, intact, route stripped, in order, no overrun, no error).
 * The minimum HEAD latency must be the contract's 4 cycles (§8), and traffic must
 * be in flight in at least 90 % of the cycles (check elite4.busy): packet ids
 * are recycled, so the load lasts the whole run, however long.
 * One test per co-simulation target (docs/elite4.md §9), all the same code. */
#include "elite4_harness.h"

typedef struct {
  e4h_t h;
  uint64_t head_seen[E4H_MAXP * E4H_MAXV];
  double load;
  uint64_t stop_at; /* no new packets from this cycle on (UINT64_MAX: never) */
} e4r_t;

static void traffic(e4r_t *t, cosim_rng_t *rng) {
  e4h_t *h = &t->h;
  if (h->now % 500 == 0) {
    t->load = 0.02 + 0.2 * (double)cosim_rng_below(rng, 100) / 100.0;
    h->backpressure = cosim_rng_chance(rng, 0.3) ? 0.6 : 0.05;
  }
  unsigned down = 0;
  for (unsigned q = 0; q < h->P; q++) down += !(h->up_mask >> q & 1);
  for (unsigned p = 0; p < h->P; p++)
    for (unsigned v = 0; v < h->V; v++) {
      if (h->qn[p][v] >= 3 || !cosim_rng_chance(rng, t->load)) continue;
      uint32_t route;
      unsigned k = cosim_rng_below(rng, 10);
      /* with 14 or more ports tag 13 (and with 15, 14) names a port (docs/elite4.md §3):
         no adaptive (broadcast) tag exists, so those packets go to random ports instead
         of piling onto port 13 (14) */
      /* with UpMask = 0 there is no up-link: an adaptive packet would never be granted
         (docs/elite4.md §5.4), so none is sent */
      if ((k >= 5 && k < 8 && (h->P > ELITE4_TAG_UP || !h->up_mask)) || (k >= 8 && h->P > ELITE4_TAG_BCAST))
        k = 0;
      if (k < 5) {
        route = 0xFFFFFFF0u | cosim_rng_below(rng, h->P); /* explicit */
      } else if (k == 7 && h->P <= ELITE4_TAG_UPN) {
        /* counted up (TagUpN, docs/elite4.md §3), count 1..15; switched exactly as TagUp,
           the count taken from the id, not the rng, so the stream (and every expected
           cycle of the lines that replay it) stays as it was */
        route = 0xFFFFFF0Cu | (1u + h->npkt % 15u) << 4;
      } else if (k < 8) {
        route = 0xFFFFFFF0u | ELITE4_TAG_UP; /* adaptive up */
      } else {
        unsigned lo = cosim_rng_below(rng, down), hi = lo + cosim_rng_below(rng, down - lo);
        route = 0xFFFFFF00u | (lo << 6) | (hi << 4) | ELITE4_TAG_BCAST;
      }
      int id = e4h_send(h, p, v, route, 1 + cosim_rng_below(rng, 16), h->now, rng);
      if (id >= 0 && k < 8 && cosim_rng_chance(rng, 0.05)) h->pkt[(unsigned)id % E4H_MAXPKT].nack_once = true;
    }
}

static void e4r_init(e4r_t *t, const elite4_view_t *vw, cosim_rng_t *rng, uint64_t stop_at) {
  e4h_init(&t->h, vw, rng);
  t->stop_at = stop_at;
}

static bool e4r_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  (void)prev;
  e4r_t *t = ctx;
  e4h_link_t l[E4H_MAXP];
  t->h.now = c;
  if (c < t->stop_at) traffic(t, rng);
  e4h_drive(&t->h, rng, l);
  e4h_to_in(&t->h, l, in);
  return true;
}

static bool e4r_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)in;
  e4r_t *t = ctx;
  return e4h_check_cycle(&t->h, c, out, t->head_seen, msg);
}

static bool e4r_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  e4r_t *t = ctx;
  printf("packets: %u sent, %llu deliveries, %llu retries; HEAD latency min %llu mean %.2f cycles\n",
         t->h.npkt, (unsigned long long)t->h.delivered, (unsigned long long)t->h.retries,
         (unsigned long long)t->h.lat_min, t->h.lat_n ? (double)t->h.lat_sum / (double)t->h.lat_n : 0.0);
  e4h_print_busy(&t->h);
  if (!e4h_finish(&t->h, cycles > 3000 ? cycles - 3000 : 0, msg)) return false;
  if (t->h.lat_n && t->h.lat_min != E4H_HEAD_LATENCY) {
    cosim_fail(msg, "elite4.min_latency", "minimum HEAD latency %llu cycles, the contract is %u",
               (unsigned long long)t->h.lat_min, E4H_HEAD_LATENCY);
    return false;
  }
  return e4h_busy_gate(&t->h, cycles, msg);
}

#define E4R_TEST(NAME, T, STOP, PURPOSE)                                                        \
  static void NAME##_init(void *ctx, cosim_rng_t *rng) { e4r_init(ctx, &T##_view, rng, STOP); } \
  COSIM_TEST(NAME, .target = &T##_target, .purpose = PURPOSE, .ctx_size = sizeof(e4r_t),        \
             .init = NAME##_init, .drive = e4r_drive, .check = e4r_check, .finish = e4r_finish)

E4R_TEST(elite4_random, elite4_p8, UINT64_MAX,
         "8-port random traffic: explicit/adaptive/broadcast, nacks, backpressure")
E4R_TEST(elite4_p4_random, elite4_p4, UINT64_MAX,
         "4-port variant, same traffic (the gate-level lockstep's target)")
E4R_TEST(elite4_p8_v4_random, elite4_p8_v4, UINT64_MAX, "8 ports with 4 VCs (VcW = 2), same traffic")
E4R_TEST(elite4_p2_random, elite4_p2, UINT64_MAX,
         "the smallest switch (2 ports) with the deepest buffers (64), same traffic")
E4R_TEST(elite4_p16_v4_random, elite4_p16_v4, UINT64_MAX,
         "the largest switch (16 ports, 4 VCs), the shallowest buffers (4), same traffic")
E4R_TEST(elite4_p4_u0_random, elite4_p4_u0, UINT64_MAX,
         "4 ports, UpMask = 0 (no up-links): explicit and broadcast traffic only")

/* The busy gate's negative: the 8-port test with injection stopped at cycle
 * 1000 (the nightly runs' old shape) must fail check elite4.busy. */
E4R_TEST(elite4_random_idle, elite4_p8, 1000,
         "negative only: elite4_random with injection stopped at cycle 1000 (mostly idle)")
