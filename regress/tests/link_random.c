/* link tests (docs/link.md §9): one stimulus and one scoreboard for every
 * target, through the target's view.
 *
 * Stimulus: per VC random packets (HEAD, 0-12 BODY, TAIL with the body's
 * CRC-32, 10 % of TAILs wrong), TOKENs, offers only where the previous
 * cycle's slot_o announced a slot (90 % of them in *_random, all of them in
 * *_rate), 2 % offers outside a slot (must be dropped and flagged), 3 % stray
 * HEAD/BODY/TAIL flits that break the packet structure (*_random), random
 * credit bits on the reverse sideband.
 *
 * Scoreboard, with its own arithmetic and its own CRC (testbench/ref/crc32_ref.h),
 * never the model's: link.up, link.slots (the count of slot_o is exactly
 * floor(n * RateNum / RateDen) every cycle), link.tx_err, link.delivery (every
 * accepted flit once, in order, unchanged; nothing else), link.latency (each at
 * exactly t + L), link.crc_err, link.credit, link.counters; at the end
 * link.min_latency (the minimum latency is L) and, for *_rate, link.rate
 * (delivered flits = the slots of the run) with the measured MB/s. */
#include <stdio.h>
#include <string.h>

#include "bind/link.h"
#include "ref/crc32_ref.h"

#define LQ 2048 /* flits in flight: at most L <= 1 + 256 + 16 */

typedef struct {
  /* parameters, as elaborated; W and L derived here from docs/link.md §2, §7 */
  const link_view_t *vw;
  unsigned V, num, den, train, core_ps, W, L;
  /* stimulus */
  bool rate_mode; /* offer in every slot, no offers outside slots */
  double skip;    /* share of slots left unused (the *_lazy negative) */
  bool in_pkt[4]; /* a packet is open on VC v */
  unsigned left[4];
  uint32_t scrc[4]; /* the sender's running CRC of the open packet's body */
  /* scoreboard */
  bool prev_slot, err_due;
  uint64_t slot_sum;
  uint64_t qc[LQ];
  uint64_t qf[LQ]; /* accept cycle, packed {valid,kind,vc,data} */
  unsigned qh, qn;
  uint8_t credit_hist[LQ];
  uint32_t rcrc[4];    /* the receiver side's CRC of the body so far, per VC */
  uint8_t want_err[8]; /* mismatch of the TAIL on rx_*_o in cycle c, at [c % 8]: flagged 4 cycles later */
  uint64_t n_acc, n_off, n_rx, n_crc; /* events so far */
  uint64_t w_acc, w_off, w_crc;       /* what the counters show now (docs/link.md §3: lagged) */
  uint64_t min_lat, delivered, first_acc, last_acc;
} lk_t;

static uint64_t pack(uint64_t v, uint64_t k, uint64_t vc, uint64_t d) {
  return v ? (1ull << 36) | (k & 3) << 34 | (vc & 3) << 32 | (d & 0xFFFFFFFFull) : 0;
}
static uint32_t feed(uint32_t c, uint32_t w) {
  for (unsigned b = 0; b < 4; b++) c = crc32_ref_byte(c, (uint8_t)(w >> (8 * b)));
  return c;
}
/* slots in cycles [0, x]: up from cycle T, Bresenham from 0 (docs/link.md §4) */
static uint64_t slots_upto(const lk_t *t, uint64_t x) {
  return x >= t->train ? (x - t->train + 1) * t->num / t->den : 0;
}

static void lk_setup(lk_t *t, const cosim_target_t *tg, const link_view_t *vw) {
  (void)tg;
  t->vw = vw;
  t->V = (unsigned)vw->param.NumVcs;
  t->num = (unsigned)vw->param.RateNum;
  t->den = (unsigned)vw->param.RateDen;
  t->train = (unsigned)vw->param.TrainCycles;
  t->core_ps = (unsigned)vw->param.CorePs;
  const unsigned m = (unsigned)vw->param.CableM;
  t->W = (m * 4000u + t->core_ps - 1) / t->core_ps; /* 4 ns per metre, rounded up */
  t->L = 1 + t->W + (unsigned)vw->param.AlignCycles;
  t->min_lat = UINT64_MAX;
  for (unsigned v = 0; v < 4; v++) t->rcrc[v] = 0xFFFFFFFFu;
}

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  lk_t *t = ctx;
  const link_view_t *w = t->vw;
  const bool slot_next = c > 0 && cosim_lane_get(&w->out.slot_o, prev, 0); /* this cycle is a slot */
  cosim_lane_set(&w->in.rx_credit_i, in, 0, cosim_rng_below(rng, 1u << t->V));
  if (!slot_next) {
    if (!t->rate_mode && cosim_rng_chance(rng, 0.02)) { /* a sender's protocol error: must be dropped */
      cosim_lane_set(&w->in.tx_valid_i, in, 0, 1);
      cosim_lane_set(&w->in.tx_kind_i, in, 0, cosim_rng_below(rng, 4));
      cosim_lane_set(&w->in.tx_vc_i, in, 0, cosim_rng_below(rng, t->V));
      cosim_lane_set(&w->in.tx_data_i, in, 0, (uint32_t)cosim_rng_u64(rng));
    }
    return true;
  }
  if (!t->rate_mode && !cosim_rng_chance(rng, 0.9)) return true;
  if (t->skip > 0 && cosim_rng_chance(rng, t->skip)) return true;
  const unsigned v = cosim_rng_below(rng, t->V);
  unsigned kind;
  uint32_t data;
  if (cosim_rng_chance(rng, 0.05)) { /* a token: no packet state */
    kind = 3;
    data = cosim_rng_below(rng, 2);
  } else if (!t->rate_mode && cosim_rng_chance(rng, 0.03)) {
    /* a stray flit of any kind: a HEAD inside a packet (truncation), a BODY or
       TAIL outside one; the receiver's CRC must follow the stream as it comes */
    kind = cosim_rng_below(rng, 3);
    data = (uint32_t)cosim_rng_u64(rng);
  } else if (!t->in_pkt[v]) {
    kind = 0;
    data = (uint32_t)cosim_rng_u64(rng);
    t->in_pkt[v] = true;
    t->left[v] = cosim_rng_below(rng, 13);
    t->scrc[v] = 0xFFFFFFFFu;
  } else if (t->left[v] > 0) {
    kind = 1;
    data = (uint32_t)cosim_rng_u64(rng);
    t->scrc[v] = feed(t->scrc[v], data);
    t->left[v]--;
  } else {
    kind = 2;
    data = ~t->scrc[v];
    if (!t->rate_mode && cosim_rng_chance(rng, 0.1)) data ^= 1u << cosim_rng_below(rng, 32);
    t->in_pkt[v] = false;
  }
  cosim_lane_set(&w->in.tx_valid_i, in, 0, 1);
  cosim_lane_set(&w->in.tx_kind_i, in, 0, kind);
  cosim_lane_set(&w->in.tx_vc_i, in, 0, v);
  cosim_lane_set(&w->in.tx_data_i, in, 0, data);
  return true;
}

#define G(port)  cosim_lane_get(&w->out.port, out, 0)
#define GI(port) cosim_lane_get(&w->in.port, in, 0)

static bool check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  lk_t *t = ctx;
  const link_view_t *w = t->vw;
  /* is this cycle a slot? announced by the previous cycle's slot_o; cycle 0's by the parameters */
  const bool slot = c == 0 ? (t->train == 0 && t->num == t->den) : t->prev_slot;

  if (G(up_o) != (c >= t->train)) {
    cosim_fail(msg, "link.up", "up_o = %u at cycle %llu, training is %u cycles", (unsigned)G(up_o),
               (unsigned long long)c, t->train);
    return false;
  }
  t->slot_sum += G(slot_o); /* slot_o(c) announces cycle c + 1 */
  const uint64_t want = slots_upto(t, c + 1) - slots_upto(t, 0);
  if (t->slot_sum != want) {
    cosim_fail(msg, "link.slots", "%llu slots announced by cycle %llu, want floor(n*%u/%u) = %llu",
               (unsigned long long)t->slot_sum, (unsigned long long)c, t->num, t->den,
               (unsigned long long)want);
    return false;
  }
  if (G(tx_err_o) != t->err_due) {
    cosim_fail(msg, "link.tx_err", "tx_err_o = %u, want %u (an offer outside a slot in cycle %llu: %s)",
               (unsigned)G(tx_err_o), (unsigned)t->err_due, (unsigned long long)c - 1,
               t->err_due ? "yes" : "no");
    return false;
  }

  /* the receiver's output */
  const uint64_t got = pack(G(rx_valid_o), G(rx_kind_o), G(rx_vc_o), G(rx_data_o));
  if (G(rx_valid_o)) {
    if (t->qn == 0 || t->qf[t->qh] != got) {
      cosim_fail(msg, "link.delivery", "rx flit kind %u vc %u data 0x%08x is not the next accepted flit%s",
                 (unsigned)G(rx_kind_o), (unsigned)G(rx_vc_o), (unsigned)G(rx_data_o),
                 t->qn ? "" : " (none in flight)");
      return false;
    }
    const uint64_t lat = c - t->qc[t->qh];
    if (lat != t->L) {
      cosim_fail(msg, "link.latency", "flit accepted at cycle %llu left after %llu cycles, want L = %u",
                 (unsigned long long)t->qc[t->qh], (unsigned long long)lat, t->L);
      return false;
    }
    if (lat < t->min_lat) t->min_lat = lat;
    t->delivered++;
    t->qh = (t->qh + 1) % LQ;
    t->qn--;
  } else if (t->qn && t->qc[t->qh] + t->L <= c) {
    cosim_fail(msg, "link.delivery", "flit accepted at cycle %llu (data 0x%08x) did not leave at cycle %llu",
               (unsigned long long)t->qc[t->qh], (unsigned)t->qf[t->qh],
               (unsigned long long)(t->qc[t->qh] + t->L));
    return false;
  }
  bool want_err = false;
  if (G(rx_valid_o)) {
    const unsigned v = (unsigned)G(rx_vc_o), k = (unsigned)G(rx_kind_o);
    const uint32_t d = (uint32_t)G(rx_data_o);
    if (k == 0) t->rcrc[v] = 0xFFFFFFFFu;
    if (k == 1) t->rcrc[v] = feed(t->rcrc[v], d);
    if (k == 2) want_err = d != ~t->rcrc[v];
  }
  t->want_err[c % 8] = want_err;
  const bool flag = c >= 4 && t->want_err[(c - 4) % 8]; /* docs/link.md §7: 4 cycles after the TAIL */
  if (G(crc_err_o) != flag) {
    cosim_fail(msg, "link.crc_err", "crc_err_o = %u, want %u (for the flit on rx_*_o in cycle %lld)",
               (unsigned)G(crc_err_o), (unsigned)flag, (long long)c - 4);
    return false;
  }
  /* the reverse sideband: what entered L cycles ago */
  const unsigned want_cr = c >= t->L ? t->credit_hist[(c - t->L) % LQ] : 0;
  if (G(tx_credit_o) != want_cr) {
    cosim_fail(msg, "link.credit", "tx_credit_o = 0x%x, want 0x%x (rx_credit_i of cycle %lld)",
               (unsigned)G(tx_credit_o), want_cr, (long long)c - (long long)t->L);
    return false;
  }
  t->n_rx += G(rx_valid_o); /* shown with the flit */
  if (G(cnt_tx_flits_o) != (uint32_t)t->w_acc || G(cnt_tx_err_o) != (uint32_t)t->w_off ||
      G(cnt_rx_flits_o) != (uint32_t)t->n_rx || G(cnt_crc_err_o) != (uint32_t)t->w_crc) {
    cosim_fail(msg, "link.counters", "counters tx %u/%llu err %u/%llu rx %u/%llu crc %u/%llu (got/want)",
               (unsigned)G(cnt_tx_flits_o), (unsigned long long)t->w_acc, (unsigned)G(cnt_tx_err_o),
               (unsigned long long)t->w_off, (unsigned)G(cnt_rx_flits_o), (unsigned long long)t->n_rx,
               (unsigned)G(cnt_crc_err_o), (unsigned long long)t->w_crc);
    return false;
  }

  /* next cycle's counters: accepts and off-slot offers up to the previous cycle, pulses up to this one */
  t->w_acc = t->n_acc;
  t->w_off = t->n_off;
  t->n_crc += G(crc_err_o);
  t->w_crc = t->n_crc;
  /* this cycle's offer */
  t->credit_hist[c % LQ] = (uint8_t)GI(rx_credit_i);
  t->err_due = false;
  if (GI(tx_valid_i)) {
    if (slot) {
      t->qf[(t->qh + t->qn) % LQ] = pack(1, GI(tx_kind_i), GI(tx_vc_i), GI(tx_data_i));
      t->qc[(t->qh + t->qn) % LQ] = c;
      t->qn++;
      t->n_acc++;
      if (!t->first_acc) t->first_acc = c;
      t->last_acc = c;
    } else {
      t->err_due = true;
      t->n_off++;
    }
  }
  t->prev_slot = G(slot_o);
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  lk_t *t = ctx;
  if (t->min_lat != t->L) {
    cosim_fail(msg, "link.min_latency", "minimum latency %lld cycles over %llu flits, want L = %u",
               t->min_lat == UINT64_MAX ? -1LL : (long long)t->min_lat, (unsigned long long)t->delivered,
               t->L);
    return false;
  }
  printf("latency: L = %u cycles = %.1f ns at this target's clock (%u ps), %.1f ns at the nominal 250 MHz\n",
         t->L, t->L * t->core_ps / 1000.0, t->core_ps, t->L * 4.0);
  if (!t->rate_mode && t->skip == 0) return true;
  /* flits accepted in cycles 1 .. cycles-1-L have all arrived; the sender used every slot there */
  const uint64_t last = cycles - 1 - t->L;
  const uint64_t want = slots_upto(t, last) - slots_upto(t, 0);
  const uint64_t got = t->delivered;
  const double mbs = (double)got * 4.0 * 1e6 / ((double)last * t->core_ps);
  printf("link rate: %llu flits in %llu cycles of %u ps = %.4f flits/cycle, %.1f MB/s (rate %u/%u; seed 004 "
         "Table 2: 1,333 unencoded / 1,066 4b5b peak, 1,160 / 928 sustainable)\n",
         (unsigned long long)got, (unsigned long long)last, t->core_ps, (double)got / (double)last, mbs,
         t->num, t->den);
  if (got != want) {
    cosim_fail(msg, "link.rate",
               "%llu flits delivered from the slots of cycles 1..%llu, want floor formula %llu",
               (unsigned long long)got, (unsigned long long)last, (unsigned long long)want);
    return false;
  }
  return true;
}

/* one init per target (the view), per mode */
#define LK_TESTS(T)                                                                                        \
  static void T##_init(void *ctx, cosim_rng_t *rng) {                                                      \
    (void)rng;                                                                                             \
    lk_setup(ctx, &T##_target, &T##_view);                                                                 \
  }                                                                                                        \
  static void T##_rate_init(void *ctx, cosim_rng_t *rng) {                                                 \
    T##_init(ctx, rng);                                                                                    \
    ((lk_t *)ctx)->rate_mode = true;                                                                       \
  }                                                                                                        \
  COSIM_TEST(T##_random, .target = &T##_target,                                                            \
             .purpose = "random packets, tokens, off-slot offers, credits vs the link scoreboard",         \
             .ctx_size = sizeof(lk_t), .init = T##_init, .drive = drive, .check = check, .finish = finish) \
  COSIM_TEST(T##_rate, .target = &T##_target,                                                              \
             .purpose = "every slot used: measured MB/s vs the floor formula", .ctx_size = sizeof(lk_t),   \
             .init = T##_rate_init, .drive = drive, .check = check, .finish = finish)

LK_TESTS(link_250)
LK_TESTS(link_4b5b_333)
LK_TESTS(link_400)
LK_TESTS(link_400_4b5b_w0)

/* The rate check's negative: a sender that leaves 1 % of the slots unused must fail link.rate. */
static void lazy_init(void *ctx, cosim_rng_t *rng) {
  link_4b5b_333_rate_init(ctx, rng);
  ((lk_t *)ctx)->skip = 0.01;
}
COSIM_TEST(link_4b5b_333_rate_lazy, .target = &link_4b5b_333_target,
           .purpose = "negative only: link_4b5b_333_rate with 1 % of the slots unused",
           .ctx_size = sizeof(lk_t), .init = lazy_init, .drive = drive, .check = check, .finish = finish)
