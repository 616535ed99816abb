/* elite4 TagUpN: the counted up tag of docs/elite4.md §3 (ours) on the 8-port
 * switch (up-links 4..7), one case after another, then a mix.
 *
 *   cycle   0  k = 1 from port 0: up, both tags removed (uncontended: its HEAD
 *              must take the 4 cycles of §8, as a TagUp HEAD does)
 *   cycle  50  k = 2 from port 1 (VC 1): up, the count decremented in place
 *   cycle 100  k = 15 from port 2: up, 15 -> 14
 *   cycle 150  k = 0 from port 3 (VC 1): illegal, error 1 on port 3, dropped and
 *              nacked (check elite4.illegal_acked); then a TagUp from the same
 *              VC, which must go on normally
 *   cycle 300  every down port sends TagUpN with k = 1..15 and plain TagUp on
 *              both VCs at once, from an up-link too (port 5): they share the
 *              four up-links
 * The harness's reference (e4h_route_ports, from the spec) gives each packet's
 * up-links and its stripped HEAD (check elite4.route_strip).
 */
#include "elite4_harness.h"

typedef struct {
  e4h_t h;
  uint64_t head_seen[E4H_MAXP * E4H_MAXV];
  uint64_t first_lat;
} e4u_t;

/* TagUpN, count k, then two down tags (2, 3) the next switches would use. */
#define UPN(k) (0xFFFF3200u | ((uint32_t)(k) << 4) | ELITE4_TAG_UPN)

static void script(e4u_t *t, cosim_rng_t *rng, uint64_t c) {
  e4h_t *h = &t->h;
  switch (c) {
    case 0: e4h_send(h, 0, 0, UPN(1), 3, 0, rng); break;
    case 50: e4h_send(h, 1, 1, UPN(2), 3, 50, rng); break;
    case 100: e4h_send(h, 2, 0, UPN(15), 3, 100, rng); break;
    case 150:
      e4h_send(h, 3, 1, UPN(0), 3, 150, rng); /* count 0: illegal */
      e4h_inject(h, 150, INJ_NONE, 3, 1, 1);
      e4h_send(h, 3, 1, 0xFFFFFFF0u | ELITE4_TAG_UP, 3, 150, rng);
      break;
    case 300:
      for (unsigned p = 0; p < 4; p++)
        for (unsigned v = 0; v < 2; v++)
          for (unsigned n = 0; n < 3; n++) {
            const unsigned k = 1 + (p * 6 + v * 3 + n) % 15;
            e4h_send(h, p, v, n == 2 ? 0xFFFFFFF0u | ELITE4_TAG_UP : UPN(k), 2 + n, 300, rng);
          }
      e4h_send(h, 5, 0, UPN(7), 4, 300, rng);
      e4h_send(h, 5, 1, UPN(1), 4, 300, rng);
      break;
    default: break;
  }
}

static void init(void *ctx, cosim_rng_t *rng) {
  e4u_t *t = ctx;
  e4h_init(&t->h, &elite4_p8_view, rng);
  t->h.stuck = 1000;
  t->first_lat = UINT64_MAX;
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)prev;
  e4u_t *t = ctx;
  e4h_link_t l[E4H_MAXP];
  if (c >= 1000) return false;
  t->h.now = c;
  script(t, rng, c);
  e4h_drive(&t->h, rng, l);
  e4h_to_in(&t->h, l, iv);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)in;
  e4u_t *t = ctx;
  uint64_t n_before = t->h.lat_n;
  bool ok = e4h_check_cycle(&t->h, c, out, t->head_seen, msg);
  if (n_before == 0 && t->h.lat_n >= 1) t->first_lat = t->h.lat_min;
  return ok;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  e4u_t *t = ctx;
  printf("packets: %u sent, %llu deliveries, %llu retries; first HEAD latency %llu cycles\n", t->h.npkt,
         (unsigned long long)t->h.delivered, (unsigned long long)t->h.retries,
         (unsigned long long)t->first_lat);
  if (!e4h_finish(&t->h, cycles, msg)) return false;
  if (t->first_lat != E4H_HEAD_LATENCY) {
    cosim_fail(msg, "elite4.min_latency", "uncontended TagUpN HEAD latency %llu cycles, the contract is %u",
               (unsigned long long)t->first_lat, E4H_HEAD_LATENCY);
    return false;
  }
  return true;
}

COSIM_TEST(elite4_upn, .target = &elite4_p8_target,
           .purpose = "TagUpN (counted up, ours): k = 1, 2, 15, the illegal k = 0, a mix on the up-links",
           .ctx_size = sizeof(e4u_t), .init = init, .drive = drive, .check = check, .finish = finish)
