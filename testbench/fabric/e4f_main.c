/*
 * build/bin/elite4_fabric_sim -- elite4 switches in radix-4 fat-trees with
 * traffic endpoints; every switch the C model or the Verilated RTL.
 *
 *   elite4_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR]
 *       [--mode=model|rtl] [--rtl=all|none|LIST] [--nodes=4|16|64|256]
 *       [--traffic=uniform|complement|hotspot] [--load=X] [--body=N]
 *       [--vcs=free|rr|vc0] [--hot-frac=X] [--hot-node=N] [--link-delay=N]
 *       [--warmup=N] [--drain=N] [--watchdog=N] [--src-queue=N] [--nack-rate=X]
 *       [--records=on|off] [--inject-bug=NAME] [--expect-fail=check:ID@N|assert:LABEL@N] [--trace[=DIR]]
 *   elite4_fabric_sim --list | --help
 *
 * Without --test (or --test=run) one run: the scoreboard, switch errors
 * and deadlock detection are always on; reports go to --out (default
 * build/reports/elite4/runs/<name>). --test=NAME runs a named check (its
 * scenario first, then the flags, in order, override it) or `bench`.
 * --cycles is the injection window; --warmup (default cycles / 5) starts the
 * statistics window. --rtl=LIST: switch ids and ranges, e.g. 0,3,8-11.
 * --inject-bug: an elite4 model bug (model instances only) or a fabric bug
 * (fab_route_wrong_port, fab_nic_no_token). --expect-fail=check:ID@CYCLE:
 * passes only if check ID (fabric.<what>, printed with every failure) fails
 * at that cycle; any other failure, or a pass, fails the negative.
 * An RTL switch's assertion (Verilated with --assert) fails the run as
 * assert:<label>@<cycle> (negative: --expect-fail=assert:LABEL@CYCLE).
 * First line `seed: N`; last line `TEST PASSED` or `TEST FAILED: <reason>`.
 * Bad flags are usage errors: a message on stderr, exit status 2, no verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e4f_fabric.h"
#include "e4f_report.h"
#include "e4f_store.h"
#include "waves.h"
#include "clock.h"

typedef enum { K_RUN, K_UNIFORM16, K_MODEL_VS_RTL, K_COMPLEMENT64, K_BENCH } e4f_kind_t;

typedef struct {
  const char *name;
  e4f_kind_t kind;
  const char *purpose;
} e4f_check_t;

static const e4f_check_t checks[] = {
    {"fabric16_uniform", K_UNIFORM16,
     "16 nodes, uniform 0.3, nacks: scoreboard, no errors, drains; min HEAD latency 6 (1 switch) and 16 (3) "
     "cycles"},
    {"fabric16_model_vs_rtl", K_MODEL_VS_RTL,
     "16 nodes: all-model, all-RTL and mixed fabrics give identical outputs every cycle and identical "
     "records"},
    {"fabric_model_vs_rtl", K_MODEL_VS_RTL, "the same comparison on any fabric (--nodes, --traffic, ...)"},
    {"fabric64_complement", K_COMPLEMENT64,
     "64 nodes, complement (node i -> 63 - i) at full load: every packet delivered; bisection throughput"},
    {"bench", K_BENCH, "64 nodes, uniform 0.3: node-cycles/s, all-model vs all-RTL (not a check)"},
    {"run", K_RUN, "one run with the flags given (the default)"},
};

static const char *rerun_line;
static bool parse_u64(const char *s, uint64_t *v);

/* A usage error (bad flag, unknown name): exit status 2, no verdict, no rerun line. */
static int usage_fail(const char *fmt, const char *arg) {
  fprintf(stderr, "elite4_fabric_sim: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see --help)\n");
  return 2;
}

static int verdict_fail(const char *fmt, const char *arg) {
  if (rerun_line) printf("rerun: %s\n", rerun_line);
  printf("TEST FAILED: ");
  printf(fmt, arg);
  printf("\n");
  return 1;
}

/* The expected failure, from --expect-fail=check:ID@CYCLE or
 * assert:LABEL@CYCLE (the kit's rule: a negative names the check or the RTL
 * assertion that must fire, and the cycle). */
typedef struct {
  char id[160]; /* fabric.<what> for a check, assert:<label> for an RTL assertion */
  uint64_t cycle;
} e4f_expect_t;

static bool parse_expect(const char *s, e4f_expect_t *e) {
  const char *at = strrchr(s, '@');
  /* a check's id is kept without its "check:", an assertion's with "assert:" (as failures carry them) */
  const char *id = !strncmp(s, "check:", 6) ? s + 6 : !strncmp(s, "assert:", 7) ? s : NULL;
  const size_t skip = !strncmp(s, "assert:", 7) ? 7 : 0;
  if (!id || !at || at - (id + skip) < 1 || (size_t)(at - id) >= sizeof e->id ||
      !parse_u64(at + 1, &e->cycle))
    return false;
  snprintf(e->id, sizeof e->id, "%.*s", (int)(at - id), id);
  return true;
}

/* How a failure is named: check:<id>, or assert:<label> as it is. */
static const char *what_kind(const char *id) { return strncmp(id, "assert:", 7) ? "check:" : ""; }

/* A check's verdict, inverted by --expect-fail=check:ID@CYCLE: a failure
 * carries its check id and the cycle it was seen in (the scoreboard's, the
 * deadlock detector's, the first differing cycle, or the last cycle for
 * checks made at the end of a run); the negative passes only if exactly that
 * check fails exactly there. */
static int check_verdict(bool ok, const e4f_expect_t *expect, const char *id, const char *why,
                         uint64_t cycle) {
  char msg[900];
  snprintf(msg, sizeof msg, "%s%s@%" PRIu64 ": %s", what_kind(id), id, cycle, why);
  if (!expect) {
    if (ok) {
      printf("TEST PASSED\n");
      return 0;
    }
    return verdict_fail("%s", msg);
  }
  char m2[1100];
  if (ok) {
    snprintf(m2, sizeof m2, "expected %s%s@%" PRIu64 " to fail, and the run passed", what_kind(expect->id),
             expect->id, expect->cycle);
    return verdict_fail("%s", m2);
  }
  if (strcmp(expect->id, id) || expect->cycle != cycle) {
    snprintf(m2, sizeof m2, "expected %s%s@%" PRIu64 ", got %s", what_kind(expect->id), expect->id,
             expect->cycle, msg);
    return verdict_fail("%s", m2);
  }
  printf("expected failure caught: %s\n", msg);
  printf("TEST PASSED\n");
  return 0;
}

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: elite4_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR] [--mode=model|rtl]\n"
      "         [--rtl=all|none|LIST] [--nodes=4|16|64|256] [--traffic=uniform|complement|hotspot]\n"
      "         [--load=X] [--body=N] [--vcs=free|rr|vc0] [--hot-frac=X] [--hot-node=N] [--link-delay=N]\n"
      "         [--warmup=N] [--drain=N] [--watchdog=N] [--src-queue=N] [--nack-rate=X] [--records=on|off]\n"
      "         [--inject-bug=NAME] [--expect-fail=check:ID@N|assert:LABEL@N] [--trace[=DIR]] [--db=PATH]\n"
      "       elite4_fabric_sim --list | --help\n"
      "--db=PATH: also write the run into SQLite database PATH (docs/store.md).\n"
      "elite4 switches (model or Verilated RTL) in radix-4 fat-trees with traffic endpoints;\n"
      "docs/elite4.md section 11. --list names the checks (--test=NAME). --cycles is the\n"
      "injection window, then the run drains. --trace writes one FST per RTL switch (the C\n"
      "model instances have no waveform). --expect-fail=check:ID@N: a negative test, passes\n"
      "only if check ID (fabric.<what>, printed with each failure) fails at cycle N;\n"
      "assert:LABEL@N: only if an RTL switch's assertion LABEL fails at cycle N (an assertion\n"
      "that fires always fails a run).\n"
      "Exit status: 0 pass, 1 a check failed, 2 usage error.\n");
}

static bool parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || end == s || *end || *s == '-') return false;
  *v = x;
  return true;
}
static bool parse_uint(const char *s, unsigned *v) {
  uint64_t x;
  if (!parse_u64(s, &x) || x > 1000000000u) return false;
  *v = (unsigned)x;
  return true;
}
static bool parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return !errno && end != s && !*end;
}

/* "all", "none", or ids and ranges "0,3,8-11" -> rtl[]; false on a bad list. */
static bool parse_rtl(const char *s, uint8_t *rtl, unsigned nsw, char *err, size_t len) {
  memset(rtl, 0, E4F_MAX_SW);
  if (!strcmp(s, "none")) return true;
  if (!strcmp(s, "all")) {
    memset(rtl, 1, nsw);
    return true;
  }
  const char *p = s;
  while (*p) {
    char *end;
    unsigned long a = strtoul(p, &end, 10), b = a;
    if (end == p) break;
    if (*end == '-') {
      const char *q = end + 1;
      b = strtoul(q, &end, 10);
      if (end == q) break;
    }
    if (a > b || b >= nsw) {
      snprintf(err, len, "--rtl=%s: switch ids are 0..%u", s, nsw - 1);
      return false;
    }
    for (unsigned long k = a; k <= b; k++) rtl[k] = 1;
    p = end;
    if (*p == ',')
      p++;
    else if (*p)
      break;
  }
  if (*p) {
    snprintf(err, len, "--rtl=%s: expected all, none, or ids and ranges such as 0,3,8-11", s);
    return false;
  }
  return true;
}

/* The named checks' scenarios (flags applied afterwards override them). */
static void scenario(e4f_kind_t k, e4f_cfg_t *c) {
  switch (k) {
    case K_UNIFORM16:
      c->nodes = 16, c->pattern = E4F_UNIFORM, c->load = 0.3, c->cycles = 20000, c->warmup = 4000,
      c->nack_rate = 0.01;
      break;
    case K_MODEL_VS_RTL:
      c->nodes = 16, c->pattern = E4F_UNIFORM, c->load = 0.5, c->cycles = 8000, c->warmup = 1600,
      c->nack_rate = 0.01;
      break;
    case K_COMPLEMENT64:
      c->nodes = 64, c->pattern = E4F_COMPLEMENT, c->load = 1.0, c->cycles = 5000, c->warmup = 1000;
      break;
    case K_BENCH:
      c->nodes = 64, c->pattern = E4F_UNIFORM, c->load = 0.3, c->cycles = 10000, c->warmup = 2000,
      c->records = false;
      break;
    default: break;
  }
}

typedef struct {
  const char *test, *out, *name, *bug, *expect, *rtl, *mode, *db;
  bool warmup_set;
} e4f_args_t;

/* Apply one --key=value; 0, or -1 with a message. */
static int apply_flag(e4f_cfg_t *c, e4f_args_t *a, const char *arg, char *err, size_t len) {
  const char *eq = strchr(arg, '=');
  const char *v = eq ? eq + 1 : "";
  char key[40];
  snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
  bool ok = true;
  if (!strcmp(key, "--test"))
    a->test = v;
  else if (!strcmp(key, "--out"))
    a->out = v;
  else if (!strcmp(key, "--name"))
    a->name = v;
  else if (!strcmp(key, "--seed"))
    ok = parse_u64(v, &c->seed);
  else if (!strcmp(key, "--inject-bug"))
    a->bug = v;
  else if (!strcmp(key, "--expect-fail"))
    a->expect = v;
  else if (!strcmp(key, "--rtl"))
    a->rtl = v;
  else if (!strcmp(key, "--mode"))
    a->mode = v;
  else if (!strcmp(key, "--db")) /* the run into this SQLite database (docs/store.md) */
    ok = *(a->db = v) != 0;
  else if (!strcmp(key, "--cycles"))
    ok = parse_u64(v, &c->cycles) && c->cycles > 0;
  else if (!strcmp(key, "--warmup"))
    ok = parse_u64(v, &c->warmup), a->warmup_set = true;
  else if (!strcmp(key, "--drain"))
    ok = parse_u64(v, &c->drain_max);
  else if (!strcmp(key, "--watchdog"))
    ok = parse_u64(v, &c->watchdog) && c->watchdog > 0;
  else if (!strcmp(key, "--nodes"))
    ok = parse_uint(v, &c->nodes);
  else if (!strcmp(key, "--body"))
    ok = parse_uint(v, &c->nbody);
  else if (!strcmp(key, "--hot-node"))
    ok = parse_uint(v, &c->hot_node);
  else if (!strcmp(key, "--link-delay"))
    ok = parse_uint(v, &c->link_delay);
  else if (!strcmp(key, "--src-queue"))
    ok = parse_uint(v, &c->src_queue);
  else if (!strcmp(key, "--load"))
    ok = parse_double(v, &c->load);
  else if (!strcmp(key, "--hot-frac"))
    ok = parse_double(v, &c->hot_frac);
  else if (!strcmp(key, "--nack-rate"))
    ok = parse_double(v, &c->nack_rate);
  else if (!strcmp(key, "--traffic"))
    ok = !e4f_pattern_parse(v, &c->pattern);
  else if (!strcmp(key, "--vcs"))
    ok = !e4f_vc_policy_parse(v, &c->policy);
  else if (!strcmp(key, "--records")) {
    ok = !strcmp(v, "on") || !strcmp(v, "off");
    c->records = !strcmp(v, "on");
  } else if (!strcmp(key, "--trace"))
    c->trace_dir = eq ? v : "";
  else if (!strcmp(key, "--no-check")) {
    /* accepted for the kit's common flags; a fabric run always checks */
  } else {
    snprintf(err, len, "unknown argument '%s' (see --help)", arg);
    return -1;
  }
  if (!ok) snprintf(err, len, "bad value in '%s' (see --help)", arg);
  return ok ? 0 : -1;
}

/* The run's name: --name, the check's name, or one made of the parameters. */
static void run_name(const e4f_cfg_t *c, const e4f_args_t *a, char *buf, size_t len) {
  if (a->name && *a->name)
    snprintf(buf, len, "%s", a->name);
  else if (a->test && strcmp(a->test, "run"))
    snprintf(buf, len, "%s", a->test);
  else
    snprintf(buf, len, "n%u_%s_l%.3f", c->nodes, e4f_pattern_name(c->pattern), c->load);
}

/* One fabric run with its result; 0, or -1 if it could not be set up. */
static int run_fabric(const e4f_cfg_t *c, e4f_fabric_t *f, e4f_result_t *r, char *err, size_t len) {
  if (e4f_fabric_init(f, c, err, len)) return -1;
  e4f_fabric_run(f);
  e4f_result_compute(f, r);
  return 0;
}

/* The share of cycles with traffic in flight; the named checks' coverage
 * gate (check fabric.busy) wants at least 90 %. */
static double busy_share(const e4f_fabric_t *f) {
  return f->cycle ? (double)f->busy_cycles / (double)f->cycle : 0;
}

static void print_status(const e4f_fabric_t *f) {
  printf("busy: %" PRIu64 " of %" PRIu64 " cycles with traffic in flight (%.1f %%)\n", f->busy_cycles,
         f->cycle, 100.0 * busy_share(f));
  if (f->sb.failed)
    printf("status: FAILED at cycle %" PRIu64 ": %s\n", f->sb.fail_cycle, f->sb.fail);
  else
    printf("status: drained at cycle %" PRIu64 ", scoreboard clean, no switch error\n", f->cycle);
}

static bool write_out(e4f_fabric_t *f, const e4f_result_t *r, const char *name, const char *dir) {
  if (e4f_write_reports(f, r, name, dir)) {
    fprintf(stderr, "elite4_fabric_sim: cannot write reports to %s: %s\n", dir, strerror(errno));
    return false;
  }
  printf("out: %s\n", dir);
  return true;
}

/* With --trace: a GTKWave view (waves/elite4.gtkw's layout) of the first
 * traced RTL switch, DIR/view.gtkw, which `make waves T=<fabric test>` opens;
 * a failure's cycle gets the marker. */
static void write_view(const e4f_cfg_t *c, const char *fst_dir, const char *view_dir, const char *name,
                       const uint64_t *fail_at, const char *why) {
  unsigned s = 0;
  while (s < E4F_MAX_SW && !c->rtl[s]) s++;
  if (!fst_dir || s == E4F_MAX_SW) return;
  char fst[1400], view[1400];
  snprintf(fst, sizeof fst, "%s/sw%u.fst", fst_dir, s);
  snprintf(view, sizeof view, "%s/view.gtkw", view_dir);
  if (waves_write_view(view, fst, elite4_p8_target.glue, name, c->seed, fail_at, -1, false, why) == 0)
    printf("view:  gtkwave %s   (switch %u, the first RTL switch; the others: %s/sw<id>.fst)\n", view, s,
           fst_dir);
}

/* ---- the named checks ------------------------------------------------------------- */

/* fabric16_uniform: exact minimum latencies. With D = 1 a HEAD injected in
 * cycle t reaches switch 1 in t + 1, leaves each switch 4 cycles after it
 * arrived (docs/elite4.md §8: ARRIVE, VA, SA, ST) and reaches the next hop 1
 * cycle later: h switches take 4h + (h + 1) = 5h + 1 cycles to the
 * destination NIC. */
#define E4F_MIN_HEAD_1SW 6u  /* 5 * 1 + 1 */
#define E4F_MIN_HEAD_3SW 16u /* 5 * 3 + 1 */
#define E4F_SWITCH_HEAD  4u  /* the switch's contract */

static bool check_uniform16(const e4f_fabric_t *f, const e4f_result_t *r, char *why, size_t len, char *id,
                            size_t idlen) {
  const unsigned L = f->cfg.nbody + 2;
  bool ok = true;
  char line[700];
/* after a failed run only its failure is reported: the rest would measure nothing */
#define CHK(ID, cond, ...)                                \
  do {                                                    \
    if (!ok) break;                                       \
    bool c_ = (cond);                                     \
    snprintf(line, sizeof line, __VA_ARGS__);             \
    printf("check: %-4s %s\n", c_ ? "ok" : "FAIL", line); \
    if (!c_) {                                            \
      ok = false;                                         \
      snprintf(why, len, "%s", line);                     \
      snprintf(id, idlen, "%s", ID);                      \
    }                                                     \
  } while (0)
  CHK(f->sb.fail_id, !f->sb.failed, "scoreboard, switch errors and drain: %s",
      f->sb.failed ? f->sb.fail : "clean");
  CHK("fabric.delivered_all", r->delivered == r->created,
      "every packet delivered exactly once (%" PRIu64 " of %" PRIu64 ")", r->delivered, r->created);
  CHK("fabric.latency_1sw", r->n_by_len[1] && r->min_head[1] == E4F_MIN_HEAD_1SW,
      "min HEAD latency over 1 switch (same leaf) = %u cycles: measured %u over %" PRIu64 " packets",
      E4F_MIN_HEAD_1SW, r->min_head[1], r->n_by_len[1]);
  CHK("fabric.latency_3sw", r->n_by_len[3] && r->min_head[3] == E4F_MIN_HEAD_3SW,
      "min HEAD latency over 3 switches = %u cycles: measured %u over %" PRIu64 " packets", E4F_MIN_HEAD_3SW,
      r->min_head[3], r->n_by_len[3]);
  CHK("fabric.packet_latency",
      r->min_pkt[1] == E4F_MIN_HEAD_1SW + L - 1 && r->min_pkt[3] == E4F_MIN_HEAD_3SW + L - 1,
      "min packet latency (HEAD injected -> TAIL at NIC) = HEAD + %u flits: %u and %u cycles, measured %u "
      "and %u",
      L - 1, E4F_MIN_HEAD_1SW + L - 1, E4F_MIN_HEAD_3SW + L - 1, r->min_pkt[1], r->min_pkt[3]);
  if (f->cfg.records)
    CHK("fabric.hop_latency",
        r->hops_seen && r->min_hop == E4F_SWITCH_HEAD && r->min_link == 1 && r->max_link == 1,
        "per-hop records: min arrival->departure %u cycles (contract %u), every link %u..%u cycles (expected "
        "1)",
        r->min_hop, E4F_SWITCH_HEAD, r->min_link, r->max_link);
  CHK("fabric.busy", busy_share(f) >= 0.9, "traffic in flight in %.1f %% of the cycles (at least 90 %%)",
      100.0 * busy_share(f));
  if (f->cfg.nack_rate > 0)
    CHK("fabric.retries", r->retries > 0, "nacked packets retried: %" PRIu64, r->retries);
#undef CHK
  return ok;
}

static bool check_complement64(const e4f_fabric_t *f, const e4f_result_t *r, char *why, size_t len, char *id,
                               size_t idlen) {
  bool ok = !f->sb.failed && r->delivered == r->created;
  snprintf(id, idlen, "%s", f->sb.failed ? f->sb.fail_id : "fabric.delivered_all");
  if (f->sb.failed)
    snprintf(why, len, "%s", f->sb.fail);
  else if (!ok)
    snprintf(why, len, "%" PRIu64 " of %" PRIu64 " packets delivered", r->delivered, r->created);
  if (ok && busy_share(f) < 0.9) {
    ok = false;
    snprintf(id, idlen, "fabric.busy");
    snprintf(why, len, "traffic in flight in only %.1f %% of the cycles (at least 90 %%)",
             100.0 * busy_share(f));
  }
  printf("check: %-4s every packet delivered exactly once, intact, in order (%" PRIu64 " of %" PRIu64 ")\n",
         ok ? "ok" : "FAIL", r->delivered, r->created);
  printf("result: complement bisection throughput %.4f flits/node/cycle accepted at offered %.4f "
         "(%.1f MB/s per node at 4 B/flit, %u MHz)\n",
         r->accepted, r->offered, r->accepted * 4 * NETCOSIM_CLOCK_MHZ, NETCOSIM_CLOCK_MHZ);
  return ok;
}

/* fabric_model_vs_rtl: the same fabric three times (all model, all RTL,
 * mixed), stepped together; the cycle digests of every switch output must
 * agree in every cycle, and the per-packet records at the end. */
static int model_vs_rtl(e4f_cfg_t *base, const char *mixed, const char *name, const char *dir,
                        const e4f_expect_t *expect) {
  static const char *const label[] = {"model", "rtl", "mixed"};
  e4f_fabric_t fab[3];
  e4f_result_t res[3];
  char err[512], why[700] = "", id[160] = "";
  uint64_t fail_at = 0;
  static char tdir[3][1300];
  for (unsigned k = 0; k < 3; k++) {
    e4f_cfg_t c = *base;
    c.digest = true;
    memset(c.rtl, k == 1, sizeof c.rtl);
    if (k == 2) {
      e4f_topo_t t;
      if (e4f_topo_build(&t, c.nodes)) return verdict_fail("bad --nodes=%s", "");
      if (mixed) {
        if (!parse_rtl(mixed, c.rtl, t.nsw, err, sizeof err)) return usage_fail("%s", err);
      } else {
        for (unsigned s = 0; s < t.nsw; s++) c.rtl[s] = s % 2 == 0; /* even switches RTL */
      }
    }
    if (k == 1) c.model_bug = 0; /* no model instance */
    if (c.trace_dir) {           /* one FST directory per fabric: their switches share ids */
      snprintf(tdir[k], sizeof tdir[k], "%s/%s", c.trace_dir, label[k]);
      if (e4f_mkdir_p(tdir[k])) return verdict_fail("cannot create %s", tdir[k]);
      c.trace_dir = tdir[k];
    }
    if (e4f_fabric_init(&fab[k], &c, err, sizeof err)) {
      for (unsigned j = 0; j <= k; j++) e4f_fabric_free(&fab[j]);
      return verdict_fail("%s", err);
    }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  bool done[3] = {false, false, false}, same = true;
  uint64_t c = 0;
  while (!(done[0] && done[1] && done[2])) {
    for (unsigned k = 0; k < 3; k++)
      if (!done[k]) e4f_fabric_step(&fab[k]);
    c = fab[1].cycle - 1;
    /* an RTL assertion stops the comparison first: it names the cause */
    for (unsigned k = 1; k < 3 && same; k++)
      if (fab[k].sb.failed && !strncmp(fab[k].sb.fail_id, "assert:", 7)) {
        snprintf(why, sizeof why, "%s run: %s", label[k], fab[k].sb.fail);
        snprintf(id, sizeof id, "%s", fab[k].sb.fail_id);
        same = false;
        fail_at = fab[k].sb.fail_cycle;
      }
    if (!same) break;
    for (unsigned k = 0; k < 3 && same; k += 2)
      if (done[k] != done[1] || fab[k].cycle_digest != fab[1].cycle_digest) {
        char d[300] = "the runs ended at different cycles";
        if (!done[k] && !done[1]) e4f_fabric_diff(&fab[k], &fab[1], d, sizeof d);
        snprintf(why, sizeof why, "%s vs rtl: switch outputs differ at cycle %" PRIu64 ": %s", label[k], c,
                 d);
        snprintf(id, sizeof id, "fabric.model_vs_rtl");
        same = false;
        fail_at = c;
      }
    if (!same) break;
    for (unsigned k = 0; k < 3; k++)
      if (!done[k]) done[k] = e4f_fabric_done(&fab[k]);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  for (unsigned k = 0; k < 3; k++) {
    fab[k].wall_s = wall / 3;
    e4f_result_compute(&fab[k], &res[k]);
    char sub[1200], nm[260];
    snprintf(sub, sizeof sub, "%s/%s", dir, label[k]);
    snprintf(nm, sizeof nm, "%s_%s", name, label[k]);
    e4f_result_print(&fab[k], &res[k], nm, stdout);
    print_status(&fab[k]);
    if (same) write_out(&fab[k], &res[k], nm, sub);
  }
  bool ok = same;
  if (ok)
    for (unsigned k = 0; k < 3 && ok; k += 2)
      if (res[k].records_digest != res[1].records_digest || res[k].digest != res[1].digest ||
          res[k].delivered != res[1].delivered) {
        snprintf(why, sizeof why, "%s vs rtl: per-packet records differ (%016" PRIx64 " vs %016" PRIx64 ")",
                 label[k], res[k].records_digest, res[1].records_digest);
        snprintf(id, sizeof id, "fabric.records_differ");
        ok = false;
        fail_at = c;
      }
  if (ok)
    printf("check: ok   switch outputs identical in all %" PRIu64 " cycles, per-packet records identical "
           "(outputs %016" PRIx64 ", records %016" PRIx64 ")\n",
           c + 1, res[1].digest, res[1].records_digest);
  else
    printf("check: FAIL %s\n", why);
  for (unsigned k = 0; k < 3 && ok; k++)
    if (fab[k].sb.failed) {
      snprintf(why, sizeof why, "%s run: %s", label[k], fab[k].sb.fail);
      snprintf(id, sizeof id, "%s", fab[k].sb.fail_id);
      ok = false;
      fail_at = fab[k].sb.fail_cycle;
    }
  if (same) printf("check: %-4s every run clean (scoreboard, switch errors, drained)\n", ok ? "ok" : "FAIL");
  if (ok && busy_share(&fab[1]) < 0.9) {
    snprintf(why, sizeof why, "traffic in flight in only %.1f %% of the cycles (at least 90 %%)",
             100.0 * busy_share(&fab[1]));
    snprintf(id, sizeof id, "fabric.busy");
    ok = false;
    fail_at = c;
  }
  e4f_cfg_t rc = fab[1].cfg;                                 /* the all-RTL fabric */
  for (unsigned k = 0; k < 3; k++) e4f_fabric_free(&fab[k]); /* closes the FSTs */
  if (base->trace_dir) write_view(&rc, tdir[1], base->trace_dir, name, ok ? NULL : &fail_at, ok ? NULL : why);
  return check_verdict(ok, expect, id, why, fail_at);
}

/* bench: the same 64-node run all-model then all-RTL; node-cycles/s. */
static int bench(e4f_cfg_t *base, const char *dir) {
  static const char *const label[] = {"model", "rtl"};
  double ncs[2] = {0, 0};
  char err[512], path[1200];
  if (e4f_mkdir_p(dir)) return verdict_fail("cannot create %s", dir);
  snprintf(path, sizeof path, "%s/bench.csv", dir);
  FILE *csv = fopen(path, "w");
  if (!csv) return verdict_fail("cannot write %s", path);
  fprintf(csv,
          "switches,nodes,cycles,records,wall_s,fabric_cycles_per_s,node_cycles_per_s,switch_cycles_per_s\n");
  for (unsigned k = 0; k < 2; k++) {
    e4f_cfg_t c = *base;
    memset(c.rtl, k, sizeof c.rtl);
    if (k) c.model_bug = 0;
    e4f_fabric_t f;
    e4f_result_t r;
    if (run_fabric(&c, &f, &r, err, sizeof err)) {
      fclose(csv);
      return verdict_fail("%s", err);
    }
    bool bad = f.sb.failed;
    ncs[k] = r.node_cycles_per_s;
    printf("bench: %-5s %u nodes, %u switches: %" PRIu64
           " cycles in %.2f s = %.0f fabric cycles/s, %.0f node-cycles/s, "
           "%.0f switch-cycles/s\n",
           label[k], c.nodes, f.topo.nsw, r.cycles_run, r.wall_s, r.cycles_per_s, r.node_cycles_per_s,
           r.cycles_per_s * f.topo.nsw);
    fprintf(csv, "%s,%u,%" PRIu64 ",%s,%.3f,%.0f,%.0f,%.0f\n", label[k], c.nodes, r.cycles_run,
            c.records ? "on" : "off", r.wall_s, r.cycles_per_s, r.node_cycles_per_s,
            r.cycles_per_s * f.topo.nsw);
    if (bad) printf("status: FAILED: %s\n", f.sb.fail);
    char failed[900] = "";
    if (bad)
      snprintf(failed, sizeof failed, "%s run: %s%s@%" PRIu64 ": %s", label[k], what_kind(f.sb.fail_id),
               f.sb.fail_id, f.sb.fail_cycle, f.sb.fail);
    e4f_fabric_free(&f);
    if (bad) {
      fclose(csv);
      return verdict_fail("%s", failed);
    }
  }
  fclose(csv);
  printf("bench: model / RTL speed ratio %.2f (reported, not asserted)\nout: %s\n", ncs[0] / ncs[1], path);
  printf("TEST PASSED\n");
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--list")) {
      for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++)
        printf("%-24s %s\n", checks[k].name, checks[k].purpose);
      return 0;
    }
  }
  /* the seed is printed first, whatever happens next */
  uint64_t seed = 1;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--seed=", 7) && !parse_u64(argv[i] + 7, &seed))
      return usage_fail("bad --seed '%s' (expected an unsigned integer)", argv[i] + 7);
  printf("seed: %" PRIu64 "\n", seed);
  static char rerun[4096];
  size_t k = (size_t)snprintf(rerun, sizeof rerun, "%s --seed=%" PRIu64, argv[0], seed);
  for (int i = 1; i < argc && k < sizeof rerun; i++)
    if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--name=", 7) && strncmp(argv[i], "--out=", 6))
      k += (size_t)snprintf(rerun + k, sizeof rerun - k, " %s", argv[i]);
  rerun_line = rerun;

  e4f_args_t a;
  memset(&a, 0, sizeof a);
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--test=", 7)) a.test = argv[i] + 7;
  e4f_kind_t kind = K_RUN;
  if (a.test) {
    size_t j = 0;
    while (j < sizeof checks / sizeof checks[0] && strcmp(checks[j].name, a.test)) j++;
    if (j == sizeof checks / sizeof checks[0]) return usage_fail("no check '%s' (see --list)", a.test);
    kind = checks[j].kind;
  }
  e4f_cfg_t c;
  e4f_cfg_default(&c);
  scenario(kind, &c);
  char err[512];
  for (int i = 1; i < argc; i++)
    if (apply_flag(&c, &a, argv[i], err, sizeof err)) return usage_fail("%s", err);
  if (!a.warmup_set && kind == K_RUN)
    c.warmup = c.cycles / 5;
  else if (!a.warmup_set && c.warmup >= c.cycles)
    c.warmup = c.cycles / 5;
  c.seed = seed;
  e4f_topo_t topo;
  if (e4f_topo_build(&topo, c.nodes)) return usage_fail("bad --nodes: %s", "4, 16, 64 or 256");
  if (a.mode && strcmp(a.mode, "model") && strcmp(a.mode, "rtl"))
    return usage_fail("--mode=%s: model or rtl (the model-vs-RTL comparison is --test=fabric_model_vs_rtl)",
                      a.mode);
  memset(c.rtl, a.mode && !strcmp(a.mode, "rtl"), sizeof c.rtl);
  if (a.rtl && kind != K_MODEL_VS_RTL && !parse_rtl(a.rtl, c.rtl, topo.nsw, err, sizeof err))
    return usage_fail("%s", err);
  if (a.bug && strcmp(a.bug, "none")) {
    for (unsigned b = 1; elite4_bug_names[b]; b++)
      if (!strcmp(elite4_bug_names[b], a.bug)) c.model_bug = b;
    for (unsigned b = 1; e4f_fab_bug_names[b]; b++)
      if (!strcmp(e4f_fab_bug_names[b], a.bug)) c.fab_bug |= 1u << (b - 1);
    if (!c.model_bug && !c.fab_bug) {
      fprintf(stderr, "planted bugs:");
      for (unsigned b = 1; elite4_bug_names[b]; b++) fprintf(stderr, " %s", elite4_bug_names[b]);
      for (unsigned b = 1; e4f_fab_bug_names[b]; b++) fprintf(stderr, " %s", e4f_fab_bug_names[b]);
      fprintf(stderr, "\n");
      return usage_fail("no planted bug '%s'", a.bug);
    }
  }
  e4f_expect_t expect, *exp = NULL;
  if (a.expect) {
    if (!parse_expect(a.expect, &expect))
      return usage_fail("bad --expect-fail '%s' (expected check:ID@CYCLE or assert:LABEL@CYCLE, e.g. "
                        "check:fabric.deadlock@5142)",
                        a.expect);
    if (kind == K_BENCH)
      return usage_fail("%s", "--expect-fail needs a check (--test=NAME or a run), not the bench");
    exp = &expect;
  }
  char name[200], dir[1100];
  run_name(&c, &a, name, sizeof name);
  if (a.out && *a.out)
    snprintf(dir, sizeof dir, "%s", a.out);
  else if (kind == K_BENCH)
    snprintf(dir, sizeof dir, "build/reports/elite4/bench");
  else
    snprintf(dir, sizeof dir, "build/reports/elite4/runs/%s", name);
  char tdir[1200];
  if (c.trace_dir) { /* FSTs of the RTL instances next to the reports */
    snprintf(tdir, sizeof tdir, "%s", *c.trace_dir ? c.trace_dir : dir);
    c.trace_dir = tdir;
    unsigned nrtl = 0;
    for (unsigned s2 = 0; s2 < topo.nsw; s2++) nrtl += c.rtl[s2] != 0;
    if (kind == K_MODEL_VS_RTL) {
      printf("trace: FSTs of the RTL switches of each fabric under %s/{rtl,mixed}/ (C model instances have "
             "none)\n",
             tdir);
    } else if (nrtl == 0) {
      /* nothing to trace: say so rather than write nothing silently */
      printf("trace: nothing to write: every switch is the C model, which has no waveform; "
             "use --mode=rtl or --rtl=LIST to trace RTL switches\n");
      fprintf(stderr, "elite4_fabric_sim: note: --trace writes nothing with all-model switches "
                      "(use --mode=rtl or --rtl=LIST)\n");
      c.trace_dir = NULL;
    } else {
      printf("trace: %u RTL switch%s -> %s/sw<id>.fst\n", nrtl, nrtl == 1 ? "" : "es", tdir);
    }
    if (c.trace_dir && e4f_mkdir_p(tdir)) return verdict_fail("cannot create %s", tdir);
  }

  store_t *db = NULL; /* opened before the run: a bad path is a usage error */
  if (a.db && kind != K_RUN && kind != K_UNIFORM16 && kind != K_COMPLEMENT64)
    return usage_fail("--db needs one fabric run (not --test=%s)", a.test);
  if (a.db && store_open(&db, a.db, err, sizeof err)) return usage_fail("--db: %s", err);
  if (kind == K_MODEL_VS_RTL) return model_vs_rtl(&c, a.rtl, name, dir, exp);
  if (kind == K_BENCH) return bench(&c, dir);

  e4f_fabric_t f;
  e4f_result_t r;
  if (run_fabric(&c, &f, &r, err, sizeof err)) {
    e4f_fabric_free(&f);
    store_close(db);
    return verdict_fail("%s", err);
  }
  e4f_result_print(&f, &r, name, stdout);
  print_status(&f);
  bool wrote = write_out(&f, &r, name, dir);
  if (db && wrote && e4f_store_write(db, &f, &r, name, err, sizeof err)) {
    fprintf(stderr, "elite4_fabric_sim: %s\n", err);
    wrote = false;
  } else if (db && wrote) {
    printf("db: %s\n", a.db);
  }
  store_close(db);
  char why[700] = "", id[160] = "";
  bool ok;
  if (kind == K_UNIFORM16)
    ok = check_uniform16(&f, &r, why, sizeof why, id, sizeof id);
  else if (kind == K_COMPLEMENT64)
    ok = check_complement64(&f, &r, why, sizeof why, id, sizeof id);
  else {
    ok = !f.sb.failed;
    if (!ok) snprintf(why, sizeof why, "%s", f.sb.fail);
    snprintf(id, sizeof id, "%s", f.sb.fail_id);
  }
  uint64_t fail_at = f.sb.failed ? f.sb.fail_cycle : f.cycle - 1;
  e4f_fabric_free(&f); /* closes the FSTs */
  if (c.trace_dir) write_view(&c, c.trace_dir, c.trace_dir, name, ok ? NULL : &fail_at, ok ? NULL : why);
  if (!wrote) return verdict_fail("cannot write the reports to %s", dir);
  return check_verdict(ok, exp, id, why, fail_at);
}
