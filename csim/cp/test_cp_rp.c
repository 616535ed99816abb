/*
 * Unit tests of the reaction point (csim/cp/cp_rp.c) against hand-computed
 * numbers from docs/cp.md §9 and seed 001's gains.
 *
 *   test_cp_rp
 *
 * One line per failed check; the last line is exactly "N passed, N failed".
 * Exit status is nonzero if any check failed.
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to silence expected stderr */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "cp_rp.h"

static unsigned long n_pass, n_fail;

static void check(int ok, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(int ok, int line, const char *fmt, ...) {
  if (ok) {
    n_pass++;
    return;
  }
  n_fail++;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL test_cp_rp.c:%d: ", line);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}
#define CHECK(ok, ...) check((ok), __LINE__, __VA_ARGS__)
/* Relative tolerance for rates: the laws are evaluated in double. */
#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-6)

/* Run f with stderr silenced (configuration errors print a line by design). */
static int quiet_init(cp_rp_t *rp, const cp_rp_cfg_t *c, unsigned n) {
  fflush(stderr);
  int saved = dup(fileno(stderr));
  FILE *devnull = fopen("/dev/null", "w");
  if (devnull) dup2(fileno(devnull), fileno(stderr));
  int r = cp_rp_init(rp, c, n, NULL);
  fflush(stderr);
  if (saved >= 0) {
    dup2(saved, fileno(stderr));
    close(saved);
  }
  if (devnull) fclose(devnull);
  return r;
}

static void test_gains(void) {
  cp_rp_cfg_t c;
  cp_rp_cfg_default(&c);
  cp_rp_gains_t g;
  cp_rp_gains(&c, &g);
  /* (2W+1)Qeq = 5 * 76800 = 384000 bytes; (2W+1)Qeq,flow = 5 * 15360 = 76800. */
  CHECK(NEAR(g.gd, 0.5 / 384000.0), "Gd = %g, want 0.5/384000", g.gd);
  CHECK(NEAR(g.gi, 0.1 * 1e4 / 384000.0), "Gi = %g, want 0.1*1e4/384000", g.gi);
  CHECK(NEAR(g.gd_flow, 0.5 / 76800.0), "Gd,flow = %g, want 0.5/76800", g.gd_flow);
  CHECK(NEAR(g.gi_flow, 0.005 * 1e4 / 76800.0), "Gi,flow = %g, want 0.005*1e4/76800", g.gi_flow);

  cp_rp_t rp;
  CHECK(cp_rp_init(&rp, &c, 4, NULL) == 0, "init with seed values");
  /* |Fb| at QntzFb 63 is the full scale (2W+1)Qeq; at 0 it is 0. */
  CHECK(NEAR(cp_rp_fb_abs(&rp, CP_RP_QUEUE, 63), 384000.0), "|Fb|(63) queue");
  CHECK(NEAR(cp_rp_fb_abs(&rp, CP_RP_FLOW, 63), 76800.0), "|Fb|(63) flow");
  CHECK(cp_rp_fb_abs(&rp, CP_RP_QUEUE, 0) == 0.0, "|Fb|(0)");
  CHECK(NEAR(cp_rp_fb_abs(&rp, CP_RP_QUEUE, 21), 128000.0), "|Fb|(21) = 21*384000/63");
  cp_rp_free(&rp);
}

static void test_ecm_laws(void) {
  cp_rp_cfg_t c;
  cp_rp_cfg_default(&c);
  cp_rp_stats_t st = {0};
  cp_rp_t rp;
  CHECK(cp_rp_init(&rp, &c, 8, &st) == 0, "init");

  /* No limiter yet: POS is ignored, rate is Rlink, frames go freely. */
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_POS, 63, CP_RP_QUEUE, 7, 0) == CP_RP_R_IGNORED, "POS w/o limiter");
  CHECK(!cp_rp_limited(&rp, 3) && cp_rp_rate(&rp, 3) == 10e9, "still unlimited at Rlink");
  CHECK(st.ignored_pos == 1, "ignored_pos counted");

  /* First NEG with QntzFb 63 creates the limiter at Rlink and halves it. */
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_NEG, 63, CP_RP_QUEUE, 7, 1000) == CP_RP_R_CREATED, "NEG creates");
  CHECK(cp_rp_limited(&rp, 3), "limited after NEG");
  CHECK(NEAR(cp_rp_rate(&rp, 3), 5e9), "NEG 63 halves: %g", cp_rp_rate(&rp, 3));
  CHECK(rp.n_active == 1 && st.created == 1, "one active limiter");
  /* Second NEG 63: 2.5 Gb/s; NEG 21: factor 1 - 0.5*21/63 = 5/6. */
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_NEG, 63, CP_RP_QUEUE, 7, 0) == CP_RP_R_DECREASED, "NEG decreases");
  CHECK(NEAR(cp_rp_rate(&rp, 3), 2.5e9), "2nd NEG 63: %g", cp_rp_rate(&rp, 3));
  cp_rp_feedback(&rp, 3, CP_RP_NEG, 21, CP_RP_QUEUE, 7, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 3), 2.5e9 * 5.0 / 6.0), "NEG 21: %g", cp_rp_rate(&rp, 3));
  /* MAX is negative feedback with its QntzFb (63): halves. */
  double r0 = cp_rp_rate(&rp, 3);
  cp_rp_feedback(&rp, 3, CP_RP_MAX, 63, CP_RP_QUEUE, 9, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 3), r0 / 2), "MAX halves: %g", cp_rp_rate(&rp, 3));
  CHECK(rp.lim[3].cpid == 9, "tag follows the latest negative CP");
  /* NEG with QntzFb 0 changes nothing. */
  r0 = cp_rp_rate(&rp, 3);
  cp_rp_feedback(&rp, 3, CP_RP_NEG, 0, CP_RP_QUEUE, 9, 0);
  CHECK(cp_rp_rate(&rp, 3) == r0, "NEG 0 is a no-op");

  /* POS 63 adds 0.1*Rlink = 1 Gb/s; POS 12 adds 1e9*12/63. */
  r0 = cp_rp_rate(&rp, 3);
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_POS, 63, CP_RP_QUEUE, 9, 0) == CP_RP_R_INCREASED, "POS increases");
  CHECK(NEAR(cp_rp_rate(&rp, 3), r0 + 1e9), "POS 63 adds 1 Gb/s: %g", cp_rp_rate(&rp, 3));
  r0 = cp_rp_rate(&rp, 3);
  cp_rp_feedback(&rp, 3, CP_RP_POS, 12, CP_RP_QUEUE, 9, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 3), r0 + 1e9 * 12.0 / 63.0), "POS 12: %g", cp_rp_rate(&rp, 3));

  /* Increase to Rlink: clamps and releases the limiter. From 2.0417e9 it
     * takes 8 POS 63 (+1 Gb/s each) to pass 10 Gb/s. */
  int r = 0, n = 0;
  while ((r = cp_rp_feedback(&rp, 3, CP_RP_POS, 63, CP_RP_QUEUE, 9, 0)) == CP_RP_R_INCREASED) n++;
  CHECK(r == CP_RP_R_RELEASED, "reaching Rlink releases (got %d)", r);
  CHECK(n == 7, "7 increases before the releasing one (got %d)", n);
  CHECK(!cp_rp_limited(&rp, 3) && cp_rp_rate(&rp, 3) == 10e9, "released at Rlink");
  CHECK(rp.n_active == 0 && st.released == 1, "released counted");
  /* After release POS is ignored again (no self-increase) and a NEG re-creates. */
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_POS, 63, CP_RP_QUEUE, 9, 0) == CP_RP_R_IGNORED, "POS after release");
  CHECK(cp_rp_feedback(&rp, 3, CP_RP_NEG, 63, CP_RP_QUEUE, 9, 0) == CP_RP_R_CREATED, "re-created");
  CHECK(NEAR(cp_rp_rate(&rp, 3), 5e9), "re-created at Rlink then halved");

  /* Clamp at Rmin: 20 halvings of 10 Gb/s would be 9.5 kb/s; floor 1 Mb/s. */
  for (int k = 0; k < 20; k++) cp_rp_feedback(&rp, 5, CP_RP_MAX, 63, CP_RP_QUEUE, 1, 0);
  CHECK(cp_rp_rate(&rp, 5) == 1e6, "clamped at Rmin: %g", cp_rp_rate(&rp, 5));
  CHECK(st.at_rmin > 0, "at_rmin counted");
  /* From Rmin, POS 63 gives 1e6 + 1e9. */
  cp_rp_feedback(&rp, 5, CP_RP_POS, 63, CP_RP_QUEUE, 1, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 5), 1.001e9), "Rmin + 1 Gb/s: %g", cp_rp_rate(&rp, 5));
  /* Other flows untouched. */
  CHECK(!cp_rp_limited(&rp, 0) && !cp_rp_limited(&rp, 7), "flows independent");

  /* Bad arguments. */
  CHECK(cp_rp_feedback(&rp, 8, CP_RP_NEG, 63, CP_RP_QUEUE, 0, 0) == -EINVAL, "flow out of range");
  CHECK(cp_rp_feedback(&rp, 0, 3, 63, CP_RP_QUEUE, 0, 0) == -EINVAL, "bad type");
  CHECK(cp_rp_feedback(&rp, 0, CP_RP_NEG, 64, CP_RP_QUEUE, 0, 0) == -EINVAL, "qntzfb 64");
  CHECK(cp_rp_feedback(&rp, 0, CP_RP_NEG, 1, 2, 0, 0) == -EINVAL, "bad level");
  cp_rp_free(&rp);
}

static void test_e2cm_laws(void) {
  cp_rp_cfg_t c;
  cp_rp_cfg_default(&c);
  cp_rp_t rp;
  CHECK(cp_rp_init(&rp, &c, 2, NULL) == 0, "init");
  /* Per-flow NEG 63: Gd,flow*|Fb| = 0.5/76800 * 76800 = 0.5: halves too. */
  CHECK(cp_rp_feedback(&rp, 1, CP_RP_NEG, 63, CP_RP_FLOW, 2, 0) == CP_RP_R_CREATED, "per-flow NEG creates");
  CHECK(NEAR(cp_rp_rate(&rp, 1), 5e9), "per-flow NEG 63 halves: %g", cp_rp_rate(&rp, 1));
  /* Per-flow NEG 42: factor 1 - 0.5*42/63 = 2/3. */
  cp_rp_feedback(&rp, 1, CP_RP_NEG, 42, CP_RP_FLOW, 2, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 1), 5e9 * 2.0 / 3.0), "per-flow NEG 42: %g", cp_rp_rate(&rp, 1));
  /* Per-flow POS 63: + 0.005 * Rlink = 50 Mb/s (20x gentler than ECM's 1 Gb/s). */
  double r0 = cp_rp_rate(&rp, 1);
  cp_rp_feedback(&rp, 1, CP_RP_POS, 63, CP_RP_FLOW, 2, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 1), r0 + 50e6), "per-flow POS 63 adds 50 Mb/s: %g", cp_rp_rate(&rp, 1));
  r0 = cp_rp_rate(&rp, 1);
  cp_rp_feedback(&rp, 1, CP_RP_POS, 9, CP_RP_FLOW, 2, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 1), r0 + 50e6 * 9.0 / 63.0), "per-flow POS 9: %g", cp_rp_rate(&rp, 1));
  /* Mixed loops act on the same limiter: queue POS 63 adds 1 Gb/s. */
  r0 = cp_rp_rate(&rp, 1);
  cp_rp_feedback(&rp, 1, CP_RP_POS, 63, CP_RP_QUEUE, 2, 0);
  CHECK(NEAR(cp_rp_rate(&rp, 1), r0 + 1e9), "queue POS on an E2CM limiter: %g", cp_rp_rate(&rp, 1));
  cp_rp_free(&rp);
}

static void test_gate(void) {
  cp_rp_cfg_t c;
  cp_rp_cfg_default(&c);
  c.bucket_bytes = 0; /* strict spacing: easiest to hand-compute */
  c.probe_bytes = 3000;
  cp_rp_t rp;
  CHECK(cp_rp_init(&rp, &c, 2, NULL) == 0, "init");
  uint64_t when = 0;
  cp_rp_tx_t tx;
  /* Unlimited: always may, untagged, no probes (probe only when limited). */
  CHECK(cp_rp_may_send(&rp, 0, 0, 1500, &when), "unlimited may send");
  cp_rp_sent(&rp, 0, 0, 1500, &tx);
  cp_rp_sent(&rp, 0, 0, 1500, &tx);
  CHECK(!tx.tagged && !tx.probe, "unlimited frames are untagged, unprobed");

  /* Limit flow 0 to 10e9 * 0.5^4 = 625 Mb/s: 1500 B take 12000 b / 625e6 = 19.2 us. */
  for (int k = 0; k < 4; k++) cp_rp_feedback(&rp, 0, CP_RP_NEG, 63, CP_RP_QUEUE, 4, 1000000);
  CHECK(NEAR(cp_rp_rate(&rp, 0), 625e6), "rate 625 Mb/s");
  CHECK(cp_rp_ser_ps(1500, 625e6) == 19200000, "ser 1500 B at 625 Mb/s = 19.2 us");
  CHECK(cp_rp_may_send(&rp, 0, 1000000, 1500, &when), "first frame after creation goes at once");
  cp_rp_sent(&rp, 0, 1000000, 1500, &tx);
  CHECK(tx.tagged && tx.cpid == 4 && !tx.probe, "tagged with CPID 4");
  CHECK(!cp_rp_may_send(&rp, 0, 1000001, 1500, &when) && when == 20200000, "next at 20.2 us (got %llu)",
        (unsigned long long)when);
  CHECK(cp_rp_may_send(&rp, 0, 20200000, 1500, &when), "may at 20.2 us");
  cp_rp_sent(&rp, 0, 20200000, 1500, &tx);
  CHECK(tx.probe, "second limited frame (3000 B) carries the probe");
  /* Late start (link was busy): next is charged from the actual start. */
  cp_rp_sent(&rp, 0, 50000000, 1500, &tx);
  CHECK(!tx.probe, "probe counter restarted");
  CHECK(!cp_rp_may_send(&rp, 0, 69199999, 1500, &when) && when == 69200000, "spacing from late start");
  /* A POS 63 at 59.2 us (10 us of spacing left at 625 Mb/s) raises R to
     * 1.625 Gb/s: the rest shrinks to 10 us * 625/1625 = 3.846154 us. */
  cp_rp_feedback(&rp, 0, CP_RP_POS, 63, CP_RP_QUEUE, 4, 59200000);
  CHECK(!cp_rp_may_send(&rp, 0, 59200000, 1500, &when) && when == 59200000 + 3846154,
        "increase shortens the wait (next at %llu)", (unsigned long long)when);
  /* NEG 63 at the same time halves R: the rest doubles to 7.692308 us. */
  cp_rp_feedback(&rp, 0, CP_RP_NEG, 63, CP_RP_QUEUE, 4, 59200000);
  CHECK(!cp_rp_may_send(&rp, 0, 59200000, 1500, &when) && when == 59200000 + 7692308,
        "decrease stretches the wait (next at %llu)", (unsigned long long)when);
  cp_rp_free(&rp);

  /* Bucket of one frame: after an idle period two frames may go back to back. */
  cp_rp_cfg_default(&c);
  CHECK(cp_rp_init(&rp, &c, 1, NULL) == 0, "init");
  for (int k = 0; k < 4; k++) cp_rp_feedback(&rp, 0, CP_RP_NEG, 63, CP_RP_QUEUE, 4, 0);
  cp_rp_sent(&rp, 0, 0, 1500, &tx); /* tat = 19.2 us */
  CHECK(cp_rp_may_send(&rp, 0, 0, 1500, &when), "bucket: second frame at once");
  cp_rp_sent(&rp, 0, 0, 1500, &tx); /* tat = 38.4 us */
  CHECK(!cp_rp_may_send(&rp, 0, 0, 1500, &when) && when == 19200000, "bucket: third at 19.2 us");
  /* Released limiter: no gate, no tag. */
  for (int k = 0; k < 10; k++) cp_rp_feedback(&rp, 0, CP_RP_POS, 63, CP_RP_QUEUE, 4, 0);
  CHECK(!cp_rp_limited(&rp, 0) && cp_rp_may_send(&rp, 0, 0, 1500, &when), "released: no gate");
  cp_rp_sent(&rp, 0, 0, 1500, &tx);
  CHECK(!tx.tagged, "released: untagged");
  cp_rp_free(&rp);

  /* E2CM-CP: probe_all probes unlimited flows too. */
  cp_rp_cfg_default(&c);
  c.probe_bytes = 1500;
  c.probe_all = true;
  CHECK(cp_rp_init(&rp, &c, 1, NULL) == 0, "init");
  cp_rp_sent(&rp, 0, 0, 1500, &tx);
  CHECK(tx.probe && !tx.tagged, "probe_all: unlimited frame probes");
  cp_rp_free(&rp);
}

static void test_cfg(void) {
  cp_rp_cfg_t c;
  cp_rp_t rp;
  cp_rp_cfg_default(&c);
  c.w = 16;
  CHECK(quiet_init(&rp, &c, 1) == -EINVAL, "w=16 rejected");
  cp_rp_cfg_default(&c);
  c.qeq = 0;
  CHECK(quiet_init(&rp, &c, 1) == -EINVAL, "qeq=0 rejected");
  cp_rp_cfg_default(&c);
  c.rmin = 20e9;
  CHECK(quiet_init(&rp, &c, 1) == -EINVAL, "rmin > rlink rejected");
  cp_rp_cfg_default(&c);
  c.gd_k = 1.0;
  CHECK(quiet_init(&rp, &c, 1) == -EINVAL, "gd_k=1 rejected");
  cp_rp_cfg_default(&c);
  CHECK(quiet_init(&rp, &c, 0) == -EINVAL, "0 flows rejected");
  CHECK(quiet_init(&rp, &c, 3) == 0, "defaults accepted");
  cp_rp_free(&rp);
}

/* Seed 001: "No limit on number of rate limiters" (the default), and the
 * optional pool (max_limiters): at the limit a new flow's NEG is refused. */
static void test_limiter_pool(void) {
  cp_rp_cfg_t c;
  cp_rp_cfg_default(&c);
  CHECK(c.max_limiters == 0, "default: no limit on the number of limiters");
  cp_rp_t rp;
  cp_rp_stats_t st;
  memset(&st, 0, sizeof st);
  CHECK(cp_rp_init(&rp, &c, 256, &st) == 0, "init 256 flows");
  unsigned created = 0;
  for (unsigned f = 0; f < 256; f++)
    created += cp_rp_feedback(&rp, f, CP_RP_NEG, 10, CP_RP_QUEUE, 1, 0) == CP_RP_R_CREATED;
  CHECK(created == 256 && rp.n_active == 256 && st.refused == 0, "no limit: 256 limiters at once (%u)",
        created);
  cp_rp_free(&rp);
  c.max_limiters = 2;
  memset(&st, 0, sizeof st);
  CHECK(cp_rp_init(&rp, &c, 8, &st) == 0, "init pool of 2");
  CHECK(cp_rp_feedback(&rp, 0, CP_RP_NEG, 10, CP_RP_QUEUE, 1, 0) == CP_RP_R_CREATED, "1st limiter");
  CHECK(cp_rp_feedback(&rp, 5, CP_RP_MAX, 63, CP_RP_QUEUE, 1, 0) == CP_RP_R_CREATED, "2nd limiter");
  CHECK(cp_rp_feedback(&rp, 6, CP_RP_NEG, 10, CP_RP_QUEUE, 1, 0) == CP_RP_R_REFUSED, "3rd refused");
  CHECK(!cp_rp_limited(&rp, 6) && cp_rp_rate(&rp, 6) == c.rlink && st.refused == 1 && rp.n_active == 2,
        "refused flow stays at Rlink, unlimited");
  CHECK(cp_rp_feedback(&rp, 0, CP_RP_NEG, 10, CP_RP_QUEUE, 1, 0) == CP_RP_R_DECREASED,
        "a flow that has a limiter still decreases at the limit");
  /* free one (increase back to Rlink), then the refused flow gets it */
  int r = 0;
  for (int k = 0; k < 1000 && r != CP_RP_R_RELEASED; k++)
    r = cp_rp_feedback(&rp, 5, CP_RP_POS, 63, CP_RP_QUEUE, 1, 0);
  CHECK(r == CP_RP_R_RELEASED && rp.n_active == 1, "released one");
  CHECK(cp_rp_feedback(&rp, 6, CP_RP_NEG, 10, CP_RP_QUEUE, 1, 0) == CP_RP_R_CREATED, "freed limiter reused");
  cp_rp_free(&rp);
}

int main(void) {
  test_gains();
  test_ecm_laws();
  test_e2cm_laws();
  test_gate();
  test_cfg();
  test_limiter_pool();
  printf("%lu passed, %lu failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
