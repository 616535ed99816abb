/* elite4 directed: one scenario after another on the 8-port switch, each
 * with background traffic on other ports that must keep flowing.
 *
 *   cycle    0  every tag kind from port 0: ports 1..7, adaptive up, a broadcast
 *               to 0..3 (a U-turn included); a packet nacked once (retried)
 *   cycle  300  two inputs contend for output 5 on VC 0 in the same cycle
 *   cycle  600  VC independence: port 6 holds VC 0's credits back; VC 1 to
 *               port 6 keeps flowing, and VC 0 completes when they are returned
 *   cycle 1200  errors, each flagged on its port with its code (docs/elite4.md §6):
 *               1 illegal route (the packet is dropped and nacked), 2 BODY with no
 *               packet, 3 credit overflow, 5 stray token, 6 a credit never given,
 *               7 a TAIL with a bad CRC on VC 0 and one on VC 1 (counted,
 *               forwarded, nacked, retried),
 *               4 a truncated packet (HEAD, BODY, HEAD: the switch closes the
 *               circuit with a 0xBAD0BAD0 TAIL, the destination nacks it)
 *   cycle 2000  4 inside a dropped packet: an illegal HEAD (1), BODY, then a HEAD
 *               that ends the drop and goes on as a packet of its own
 * The harness checks deliveries, order, route stripping and that each planted
 * error shows on its port with its code; latency: the first packet is
 * uncontended, its HEAD must take exactly E4H_HEAD_LATENCY = 4 cycles (§8).
 */
#include "elite4_harness.h"

typedef struct {
  e4h_t h;
  uint64_t head_seen[E4H_MAXP * E4H_MAXV];
  uint64_t first_lat;
} e4d_t;

#define RW(tag)       (0xFFFFFFF0u | (tag))
#define BCAST(lo, hi) (0xFFFFFF00u | ((lo) << 6) | ((hi) << 4) | ELITE4_TAG_BCAST)

static void background(e4h_t *h, cosim_rng_t *rng, uint64_t c) {
  /* a steady trickle between ports 2 and 3 on VC 1 */
  if (c % 40 == 0 && c < 2200) e4h_send(h, 2, 1, RW(3), 4, c, rng);
  if (c % 40 == 20 && c < 2200) e4h_send(h, 3, 1, RW(2), 4, c, rng);
}

static void script(e4d_t *t, cosim_rng_t *rng, uint64_t c) {
  e4h_t *h = &t->h;
  switch (c) {
    case 0:
      e4h_send(h, 0, 0, RW(1), 3, 0, rng); /* uncontended: the latency reference */
      for (unsigned p = 2; p < 8; p++) e4h_send(h, 0, 0, RW(p), 2, 10, rng);
      e4h_send(h, 0, 1, RW(ELITE4_TAG_UP), 5, 10, rng);
      e4h_send(h, 0, 1, RW(ELITE4_TAG_UP), 5, 10, rng);
      e4h_send(h, 0, 1, BCAST(0, 3), 6, 10, rng);
      h->pkt[(unsigned)e4h_send(h, 0, 0, RW(7), 3, 10, rng) % E4H_MAXPKT].nack_once = true;
      break;
    case 300:
      e4h_send(h, 1, 0, RW(5), 8, 300, rng);
      e4h_send(h, 4, 0, RW(5), 8, 300, rng);
      break;
    case 600:
      h->bp_vc[6][0] = 1.0;                   /* VC 0 of port 6: no credits */
      e4h_send(h, 1, 0, RW(6), 16, 600, rng); /* fills VC 0's buffers, then waits */
      for (unsigned k = 0; k < 4; k++) e4h_send(h, 5, 1, RW(6), 4, 610, rng); /* VC 1 flows */
      break;
    case 900:
      h->bp_vc[6][0] = 0.0; /* VC 0 resumes */
      break;
    case 1200:
      e4h_send(h, 4, 0, RW(9), 3, 1200, rng); /* tag 9: illegal on 8 ports */
      e4h_inject(h, 1200, INJ_NONE, 4, 0, 1);
      e4h_inject(h, 1300, INJ_BODY_NO_PACKET, 5, 0, 2);
      e4h_inject(h, 1400, INJ_STRAY_TOKEN, 7, 1, 5);
      e4h_inject(h, 1500, INJ_CREDIT_RETURN, 6, 1, 6);
      h->pkt[(unsigned)e4h_send(h, 7, 0, RW(4), 5, 1600, rng) % E4H_MAXPKT].bad_crc_once = true;
      e4h_inject(h, 1600, INJ_NONE, 7, 0, 7);
      /* and one on VC 1 (port 5 to 6): every VC's CRC errors are counted (mutant
       * #314 of docs/mutation.md counted VC 0's only, and no test had another) */
      h->pkt[(unsigned)e4h_send(h, 5, 1, RW(6), 5, 1650, rng) % E4H_MAXPKT].bad_crc_once = true;
      e4h_inject(h, 1650, INJ_NONE, 5, 1, 7);
      /* credit overflow: port 4's neighbour stops returning credits, port 1 sends
       to it until its buffer at the switch is full, then one flit too many */
      h->bp_port[4] = 1.0;
      e4h_send(h, 1, 1, RW(4), 16, 1700, rng);
      e4h_inject(h, 1760, INJ_CREDIT_OVERFLOW, 1, 1, 3);
      /* truncation on port 6 VC 1 (idle then): error 4, then error 1 for the second HEAD */
      e4h_inject(h, 1800, INJ_TRUNCATE, 6, 1, 4);
      e4h_inject(h, 1800, INJ_NONE, 6, 1, 1);
      break;
    case 1900: h->bp_port[4] = 0.0; break;
    case 2000:
      /* truncation inside a dropped packet (port 3 VC 0): error 1 for its illegal HEAD,
       * then 4 when the next HEAD ends the drop (mutant #1021 of docs/mutation.md kept
       * the port in DROP there, and no test had the case) */
      e4h_inject(h, 2000, INJ_TRUNCATE_DROP, 3, 0, 1);
      e4h_inject(h, 2000, INJ_NONE, 3, 0, 4);
      break;
    default: break;
  }
}

static void init(void *ctx, cosim_rng_t *rng) {
  e4d_t *t = ctx;
  e4h_init(&t->h, &elite4_p8_view, rng);
  t->h.stuck = 1000; /* the longest legitimate wait here is port 4's 700-cycle credit stop */
  t->first_lat = UINT64_MAX;
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)prev;
  e4d_t *t = ctx;
  e4h_link_t l[E4H_MAXP];
  if (c >= 2600) return false;
  t->h.now = c;
  script(t, rng, c);
  background(&t->h, rng, c);
  e4h_drive(&t->h, rng, l);
  e4h_to_in(&t->h, l, iv);
  return true;
}

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  (void)in;
  e4d_t *t = ctx;
  uint64_t n_before = t->h.lat_n;
  bool ok = e4h_check_cycle(&t->h, c, out, t->head_seen, msg);
  if (n_before == 0 && t->h.lat_n >= 1) t->first_lat = t->h.lat_min; /* the first HEADs out */
  return ok;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  e4d_t *t = ctx;
  printf("packets: %u sent, %llu deliveries, %llu retries; first HEAD latency %llu cycles\n", t->h.npkt,
         (unsigned long long)t->h.delivered, (unsigned long long)t->h.retries,
         (unsigned long long)t->first_lat);
  if (!e4h_finish(&t->h, cycles, msg)) return false;
  if (t->first_lat != E4H_HEAD_LATENCY) {
    cosim_fail(msg, "elite4.min_latency", "uncontended HEAD latency %llu cycles, the contract is %u",
               (unsigned long long)t->first_lat, E4H_HEAD_LATENCY);
    return false;
  }
  return true;
}

COSIM_TEST(elite4_directed, .target = &elite4_p8_target,
           .purpose = "every tag kind, contention, VC independence, errors 1-7 on a busy switch",
           .ctx_size = sizeof(e4d_t), .init = init, .drive = drive, .check = check, .finish = finish)
