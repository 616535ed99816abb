/*
 * Unit tests for the link C model, written from docs/link.md.
 *
 *   test_link [--seed=N]
 *
 * Prints the seed, one line per failed check, and ends with "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L /* fileno, dup: capture the model's stderr */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "link.h"
#include "link_model.h"

/* §2's table: RateNum/RateDen per core clock and encoding. */
static void test_rate_table(tctx_t *t) {
  static const struct {
    unsigned ps;
    bool enc;
    unsigned num, den;
  } want[] = {{4000, false, 1, 1}, {4000, true, 1, 1},  {3000, false, 1, 1},
              {3000, true, 4, 5},  {2500, false, 5, 6}, {2500, true, 2, 3}};
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
    unsigned n, d;
    link_rate(want[k].ps, want[k].enc, &n, &d);
    CHECK(t, n == want[k].num && d == want[k].den, "rate %u ps enc=%d: %u/%u, want %u/%u", want[k].ps,
          want[k].enc, n, d, want[k].num, want[k].den);
  }
  CHECK(t, link_wire_cycles(3000, 10) == 14, "10 m at 3 ns = 14 cycles (ceil)");
  CHECK(t, link_wire_cycles(4000, 5) == 5, "5 m at 4 ns = 5 cycles");
  CHECK(t, link_wire_cycles(2500, 0) == 0, "0 m = 0 cycles");
}

/* §4: slots in the first n up cycles = floor(n * num / den); §7: latency; §6: CRC. */
static void test_pacing_latency(tctx_t *t, unsigned ps, bool enc, unsigned train) {
  link_model_t m;
  const link_model_cfg_t c = {2, ps, 7, enc, 3, train};
  if (!CHECK(t, link_model_init(&m, &c) == 0, "init %u ps", ps)) return;
  const unsigned L = 1 + link_wire_cycles(ps, 7) + 3;
  uint64_t slots = 0, sent_at[64], nsent = 0, nrecv = 0, bad = 0;
  bool prev_slot = false;
  for (unsigned cyc = 0; cyc < 4000; cyc++) {
    link_in_t in = {0};
    if (prev_slot && nsent < 64) { /* offer in every announced slot */
      in.tx_valid = true;
      in.tx_kind = LINK_BODY;
      in.tx_data = (uint32_t)nsent;
      sent_at[nsent++] = cyc;
    }
    link_out_t o;
    link_model_step(&m, &in, &o);
    if (o.rx.valid) {
      if (nrecv >= nsent || o.rx.data != nrecv || cyc != sent_at[nrecv] + L) bad++;
      nrecv++;
    }
    CHECK(t, o.up == (cyc >= train), "up_o at cycle %u", cyc);
    if (o.tx_err) bad++;
    slots += o.slot; /* slot_o(cyc) = slot(cyc + 1) */
    const uint64_t n = cyc + 2 > train ? cyc + 2 - train : 0;
    if (slots != n * m.cfg.rate_num / m.cfg.rate_den) {
      CHECK(t, false, "%u ps: %" PRIu64 " slots by cycle %u, want floor(%" PRIu64 "*%u/%u)", ps, slots, cyc,
            n, m.cfg.rate_num, m.cfg.rate_den);
      break;
    }
    prev_slot = o.slot;
  }
  CHECK(t, nrecv == 64 && bad == 0,
        "%u ps: 64 flits at latency %u each (%" PRIu64 " received, %" PRIu64 " bad)", ps, L, nrecv, bad);
  link_model_free(&m);
}

static void test_crc_and_errors(tctx_t *t) {
  link_model_t m;
  const link_model_cfg_t c = {4, 4000, 0, false, 1, 0};
  if (!CHECK(t, link_model_init(&m, &c) == 0, "init")) return;
  /* HEAD, BODY 0x61 ("a" with 3 zero bytes), TAIL good; then TAIL bad; a TOKEN; all on VC 3 */
  uint32_t body = 0x00000061u;
  /* CRC-32 of bytes 61 00 00 00 (independent value: zlib.crc32(b"a\0\0\0")) */
  const uint32_t good = 0xA2DE4F7Au;
  link_in_t seq[] = {{true, LINK_HEAD, 3, 0x5, 0},  {true, LINK_BODY, 3, body, 0},
                     {true, LINK_TAIL, 3, good, 0}, {true, LINK_HEAD, 3, 0x5, 0},
                     {true, LINK_TAIL, 3, 1, 0},    {true, LINK_TOKEN, 3, 1, 0}};
  unsigned crc_errs = 0, got = 0, at[6] = {0}, err_at = 0;
  for (unsigned cyc = 0; cyc < 20; cyc++) {
    link_in_t in = {0};
    if (cyc < 6) in = seq[cyc];
    link_out_t o;
    link_model_step(&m, &in, &o);
    if (o.rx.valid && got < 6) at[got++] = cyc;
    if (o.crc_err) err_at = cyc;
    crc_errs += o.crc_err;
    CHECK(t, !o.tx_err, "rate 1, train 0: every cycle is a slot (cycle %u)", cyc);
  }
  CHECK(t, got == 6 && crc_errs == 1 && err_at == at[4] + LINK_CRC_LAG,
        "good TAIL passes, empty-body TAIL 1 fails: one flag, %u cycles after it (flag at %u, TAIL at %u)",
        LINK_CRC_LAG, err_at, at[4]);
  link_model_free(&m);
}

static void test_bad_cfg(tctx_t *t) {
  link_state_t s;
  link_cfg_t c = {3, 1, 1, 4000, 5, 2, 8, 0};
  capture_t cap;
  char buf[256];
  capture_begin(&cap);
  int r = link_init(&s, &c);
  capture_end(&cap, buf, sizeof buf);
  CHECK(t, r != 0 && strstr(buf, "num_vcs"), "num_vcs=3 refused, naming the field: %s", buf);
  c = (link_cfg_t){2, 1, 1, 1000, 100, 2, 8, 0}; /* 400 cycles of cable */
  capture_begin(&cap);
  r = link_init(&s, &c);
  capture_end(&cap, buf, sizeof buf);
  CHECK(t, r != 0 && strstr(buf, "cable_m"), "257+ wire cycles refused: %s", buf);
}

int main(int argc, char **argv) {
  uint64_t seed = 0x6E6574636F73696DULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--seed=", 7) == 0) {
      seed = strtoull(argv[i] + 7, NULL, 0);
    } else {
      fprintf(stderr, "usage: %s [--seed=N]\n", argv[0]);
      return 2;
    }
  }
  printf("test_link: seed=0x%016" PRIx64 "\n", seed);
  tctx_t t = {.passed = 0, .failed = 0, .rng = seed};
  test_rate_table(&t);
  test_pacing_latency(&t, 4000, false, 8);
  test_pacing_latency(&t, 3000, true, 0);
  test_pacing_latency(&t, 2500, false, 5);
  test_pacing_latency(&t, 2500, true, 1);
  test_crc_and_errors(&t);
  test_bad_cfg(&t);
  return unit_summary(&t);
}
