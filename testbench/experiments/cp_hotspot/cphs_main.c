/*
 * build/bin/cp_hotspot_sim -- seed 001's single-hop output-generated hotspot
 * with no CM / ECM / E2CM / E2CM-CP, the CP being the block's C model or its
 * Verilated RTL. `cp_hotspot_sim --help` describes every option (help() below).
 *
 * Exit status: 0 passed, 1 the run or its check failed (last line
 * `TEST FAILED: <reason>`, after a rerun line), 2 bad input (a message naming
 * the file and line or the flag, and the key; no verdict line, no rerun line).
 * First line of a run: `seed: N`.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cphs_check.h"
#include "cphs_cp.h"
#include "cphs_db.h"
#include "cphs_params.h"
#include "cphs_sim.h"
#include "cphs_stats.h"

#ifndef NETCOSIM_SRCDIR
#define NETCOSIM_SRCDIR "."
#endif

static int mkdir_p(const char *path) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *q = buf + 1; *q; q++) {
    if (*q != '/') continue;
    *q = 0;
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    *q = '/';
  }
  if (mkdir(buf, 0777) && errno != EEXIST) return -1;
  return 0;
}

static const char *rerun_line;

static int verdict_fail(const char *fmt, const char *arg) {
  if (rerun_line) printf("rerun: %s\n", rerun_line);
  printf("TEST FAILED: ");
  printf(fmt, arg);
  printf("\n");
  return 1;
}

/* Bad input: say what and where, exit 2, no verdict or rerun line. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "cp_hotspot_sim: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(cp_hotspot_sim --help lists the options)\n");
  va_end(ap);
  return 2;
}

/* An assertion's time as a negative names it: the simulated time rounded up
 * to a whole ms (0 while the CPs are configured), as the regression's @ is an
 * integer; its message gives the exact time. */
static double assert_ms(uint64_t ps) { return (double)((ps + CPHS_PS_PER_MS - 1) / CPHS_PS_PER_MS); }

/* A failure's name: check:<id>, or an RTL assertion's assert:<label> as it is. */
static const char *kind(const char *id) { return strncmp(id, "assert:", 7) ? "check:" : ""; }

/* The verdict, with --expect-fail=check:<id>@<ms> (or assert:<label>@<ms>): a
 * negative passes only if the first failure is that one at that simulated time. */
static int verdict(const cphs_fail_t *f, const char *exp_id, double exp_ms) {
  if (!exp_id) {
    if (!f) {
      printf("TEST PASSED\n");
      return 0;
    }
    char msg[600];
    snprintf(msg, sizeof msg, "%s%s@%.12g: %s", kind(f->id), f->id, f->at_ms, f->text);
    return verdict_fail("%s", msg);
  }
  char msg[700];
  if (!f) {
    snprintf(msg, sizeof msg, "expected a failure of %s%s@%.12g but the run passed", kind(exp_id), exp_id,
             exp_ms);
    return verdict_fail("%s", msg);
  }
  if (strcmp(f->id, exp_id) || fabs(f->at_ms - exp_ms) > 1e-6) {
    snprintf(msg, sizeof msg, "expected a failure of %s%s@%.12g, got %s%s@%.12g: %s", kind(exp_id), exp_id,
             exp_ms, kind(f->id), f->id, f->at_ms, f->text);
    return verdict_fail("%s", msg);
  }
  printf("expected failure caught: %s%s@%.12g: %s\n", kind(f->id), f->id, f->at_ms, f->text);
  printf("TEST PASSED\n");
  return 0;
}

static void help(void) {
  printf("usage: cp_hotspot_sim [--test=NAME | --scenario=FILE] [options] [--<key>=<value> ...]\n"
         "       cp_hotspot_sim --list | --help\n"
         "\n"
         "Seed 001's single-hop output-generated hotspot (docs/cp.md section 12,\n"
         "testbench/experiments/cp_hotspot/README.md): N nodes, one N-port switch with a\n"
         "congestion point on every output, node 1's output slowed during the hotspot.\n"
         "\n"
         "  --test=NAME          run regress/scenarios/NAME.scn (a named check: --list)\n"
         "  --scenario=FILE      run a scenario file (key = value lines; every key with its\n"
         "                       default and range: regress/scenarios/cp_hotspot_base.scn)\n"
         "  --<key>=<value>      set a scenario key after the file, e.g. --cm=ecm --n=64\n"
         "                       (a '-' in the key reads as '_'); each key at most once\n"
         "  --seed=N             run seed (default: the scenario's seed key, else 1)\n"
         "  --mode=model|rtl     the CPs: C model (default) or Verilated RTL (target cp_exp)\n"
         "  --inject-bug=NAME    a planted bug in the C model CPs (needs a CM scheme and\n"
         "                       mode=model, or check=model_vs_rtl whose model run gets it)\n"
         "  --expect-fail=check:ID@MS   negative test: pass only if the first failing\n"
         "                       criterion is ID, at simulated time MS (ms); ids:\n"
         "                         drops: hotspot.drops.fill, hotspot.drops.dropped\n"
         "                         band:  hotspot.band.q_low, hotspot.band.q_high, hotspot.band.tp_hot\n"
         "                         flows: hotspot.flows.mean, hotspot.flows.fraction\n"
         "                         model_vs_rtl: " CPHS_ID_MODEL_VS_RTL "\n"
         "                         egress: hotspot.egress.pauses, hotspot.egress.xoff,\n"
         "                                 hotspot.egress.xon, hotspot.egress.overflow\n"
         "                         quench: hotspot.quench.hot, hotspot.quench.cold\n"
         "                         limiters: hotspot.limiters.refused, hotspot.limiters.peak\n"
         "                         any:   " CPHS_ID_INVARIANT " (a broken invariant of the run)\n"
         "  --expect-fail=assert:LABEL@MS   negative test on a planted RTL bug (mode=rtl):\n"
         "                       pass only if the RTL CPs' assertion LABEL fails first, in an\n"
         "                       event at simulated time MS (rounded up to a whole ms); a firing\n"
         "                       assertion always ends the run and fails it as assert:LABEL@MS\n"
         "  --out=DIR            output directory (default build/reports/cp_hotspot/<run name>)\n"
         "  --name=NAME          the regression's test name: the rerun line becomes\n"
         "                       `make sim T=NAME SEED=N`\n"
         "  --db=PATH            also write the run into the SQLite results store PATH\n"
         "                       (docs/store.md; created if new, its directory must exist):\n"
         "                       run row, every parameter, the summary, the 1-ms time series\n"
         "                       and the per-flow occupancies as results rows (docs/cp.md 14)\n"
         "  --tb-bug=NAME        a planted testbench bug in what --db writes, for the store\n"
         "                       smoke's negatives: db_skip_bin (each series' last bin left\n"
         "                       out), db_bin_start (bins written at their start time)\n"
         "  --cycles=N           accepted from the regression runner and ignored (a run's\n"
         "                       length is its t_end_ms); a note says so\n"
         "  --trace[=FILE]       refused (exit 2): this binary simulates frames, and its\n"
         "                       CPs are not traced; waves of the CP: make waves T=cp_random\n"
         "\n"
         "Exit status: 0 passed, 1 failed (TEST FAILED line), 2 bad input (no verdict line).\n");
}

/* Scenario path for a test name: the source tree's regress/scenarios. */
static void scenario_path(const char *test, char *buf, size_t len) {
  snprintf(buf, len, "regress/scenarios/%s.scn", test);
  if (access(buf, R_OK)) snprintf(buf, len, "%s/regress/scenarios/%s.scn", NETCOSIM_SRCDIR, test);
}

static void print_summary(const cphs_summary_t *s) {
  printf("run: %s (%s CP)\n", s->name, s->cm ? (s->rtl ? "RTL" : "model") : "no");
  printf("  TP_aggr pre-hotspot %.4f, steady state %.4f; TP_hot hotspot %.4f, steady state %.4f\n",
         s->tp_aggr_pre, s->tp_aggr_ss, s->tp_hot_hot, s->tp_hot_ss);
  printf("  Q_hot steady state: mean %.0f B, 1-ms means [%.0f, %.0f] B, instantaneous [%.0f, %.0f] B; peak "
         "%.0f B\n",
         s->q_ss_mean, s->q_ss_bin_min, s->q_ss_bin_max, s->q_ss_min, s->q_ss_max, s->q_peak);
  printf(
      "  hot flows' occupancy (steady state): mean %.0f B, range [%.0f, %.0f] B, %.0f %% in the flows band\n",
      s->flow_mean, s->flow_min, s->flow_max, 100 * s->flow_in_band);
  printf("  drops %" PRIu64 " (%" PRIu64 " during the hotspot), lost offered load %.4f, recovery %.1f ms\n",
         s->drops, s->drops_hot, s->lost_frac, s->recovery_ms);
  printf("  BCN neg %" PRIu64 " pos %" PRIu64 " max %" PRIu64 " per-flow %" PRIu64
         "; limiters created %" PRIu64 "; CP cycles %" PRIu64 "\n",
         s->bcn_neg, s->bcn_pos, s->bcn_max, s->fbcn, s->limiters_created, s->cp_cycles);
  printf("events: %" PRIu64 "\n", s->events);
  printf("wall_s: %.3f  events_per_s: %.0f  sim_s_per_wall_s: %.6f\n", s->wall_s, s->events_per_s,
         s->sim_per_wall);
}

/* Write timeseries.csv, summary.csv and params.scn of a run into dir. */
static int write_outputs(const char *dir, const cphs_params_t *p, const cphs_result_t *r) {
  if (mkdir_p(dir)) {
    fprintf(stderr, "cp_hotspot: cannot create %s: %s\n", dir, strerror(errno));
    return -1;
  }
  char path[1200];
  snprintf(path, sizeof path, "%s/timeseries.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  cphs_timeseries_csv(f, &r->stats);
  fclose(f);
  snprintf(path, sizeof path, "%s/summary.csv", dir);
  if (!(f = fopen(path, "w"))) return -1;
  cphs_summary_csv_header(f);
  cphs_summary_csv_row(f, &r->sum);
  fclose(f);
  snprintf(path, sizeof path, "%s/flows.csv", dir);
  if (!(f = fopen(path, "w"))) return -1;
  cphs_flows_csv(f, &r->stats);
  fclose(f);
  snprintf(path, sizeof path, "%s/params.scn", dir);
  if (!(f = fopen(path, "w"))) return -1;
  fprintf(f, "# parameters of this run, as a scenario file\n");
  cphs_params_dump(p, f);
  fclose(f);
  return 0;
}

/* Run once; 0 = ran (r->err may hold an invariant failure). */
static int run_once(const cphs_params_t *p, const char *dir, cphs_result_t *r) {
  if (cphs_sim_run(p, r)) return -1;
  print_summary(&r->sum);
  if (write_outputs(dir, p, r)) {
    fprintf(stderr, "cp_hotspot: cannot write outputs to %s\n", dir);
    return -1;
  }
  printf("out: %s\n", dir);
  return 0;
}

/* The flags this binary reads itself (everything else is --<scenario key>=<value>). */
static const char *const run_flags[] = {
    "--test=",   "--scenario=", "--out=",    "--name=", "--inject-bug=", "--expect-fail=", "--seed=",
    "--cycles=", "--db=",       "--tb-bug=", NULL};

/* --db: open before the run (a bad path is bad input), closed at exit (a run
 * not ended is rolled back). */
static store_t *db;
static const char *db_path;
static void close_db(void) {
  store_close(db);
  db = NULL;
}

/* Write a finished run into the store; a failure to write fails the run. */
static int db_write(const cphs_params_t *p, const char *suffix, const cphs_result_t *r, const cphs_fail_t *f,
                    int bug) {
  if (!db) return 0;
  cphs_params_t q = *p;
  if (suffix) snprintf(q.name, sizeof q.name, "%.80s/%s", p->name, suffix);
  char status[700] = "ok", err[2000];
  if (f)
    snprintf(status, sizeof status, "%s%s@%.12g: %s", strncmp(f->id, "assert:", 7) ? "check:" : "", f->id,
             f->at_ms, f->text);
  int64_t run;
  if (cphs_db_write(db, &q, r, status, bug, &run, err, sizeof err)) {
    fprintf(stderr, "cp_hotspot: %s\n", err);
    return -1;
  }
  printf("db: %s run %" PRId64 " (%s)\n", db_path, run, q.name);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  cphs_params_t p;
  cphs_params_default(&p);
  const char *val[10] = {0}; /* run_flags' values */
  enum { A_TEST, A_SCEN, A_OUT, A_NAME, A_BUG, A_EXPECT, A_SEED, A_CYCLES, A_DB, A_TBBUG };
  char err[700];

  /* First pass: help, the run-level flags, and the shape of everything else. */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      help();
      return 0;
    }
    if (!strcmp(a, "--list")) {
      printf("cp_hotspot_nocm_drops    no CM, PAUSE off: Q_hot fills the partitions, frames dropped\n"
             "cp_hotspot_ecm_band      ECM: Q_hot in a band around Qeq, TP_hot at the hot service rate\n"
             "cp_hotspot_e2cm_flows    E2CM: hot flows' occupancies near Qeq,flow\n"
             "cp_hotspot_model_vs_rtl  ECM N=16 short run: model and RTL CPs give identical results\n"
             "cp_hotspot_egress        ECM: adapter egress buffer <= 150 KB, PAUSE at its watermarks\n"
             "cp_hotspot_quench        ECM: per-flow selective source quench (hot flows only)\n"
             "cp_hotspot_limiters      ECM, 120-us bursts: several limiters at once per adapter\n"
             "(or any regress/scenarios/<name>.scn)\n");
      return 0;
    }
    if (!strcmp(a, "--trace") || !strncmp(a, "--trace=", 8))
      return usage_error("%s: no waveform from this binary: it simulates frames, and its CPs (C models, "
                         "or Verilated ones with --mode=rtl) run millions of cycles untraced. The CP's own "
                         "waves: make waves T=cp_random (or cp_fb_table)",
                         a);
    int f = -1;
    for (int k = 0; run_flags[k]; k++)
      if (!strncmp(a, run_flags[k], strlen(run_flags[k]))) f = k;
    if (f >= 0) {
      if (val[f])
        return usage_error("%s: given twice (also %.*s%s)", a, (int)strlen(run_flags[f]), a, val[f]);
      val[f] = a + strlen(run_flags[f]);
      if (!*val[f]) return usage_error("%s: empty value", a);
      continue;
    }
    if (strncmp(a, "--", 2) || !strchr(a, '=') || a[2] == '=')
      return usage_error("'%s': not an option (options are --<name>=<value>; --help lists them)", a);
  }
  if (val[A_TEST] && val[A_SCEN]) return usage_error("--test and --scenario: give one of them");

  uint64_t seed = 1;
  bool seed_given = false;
  if (val[A_SEED]) {
    char *end;
    errno = 0;
    seed = strtoull(val[A_SEED], &end, 0);
    if (errno || *end || val[A_SEED][0] == '-')
      return usage_error("--seed=%s: seed: not an unsigned 64-bit integer", val[A_SEED]);
    seed_given = true;
  }
  if (val[A_CYCLES]) {
    char *end;
    errno = 0;
    (void)strtoull(val[A_CYCLES], &end, 0);
    if (errno || *end || val[A_CYCLES][0] == '-')
      return usage_error("--cycles=%s: cycles: not an unsigned integer", val[A_CYCLES]);
  }

  char path[1100];
  const char *scen = val[A_SCEN];
  if (val[A_TEST]) {
    scenario_path(val[A_TEST], path, sizeof path);
    if (access(path, R_OK))
      return usage_error("--test=%s: no check or scenario of that name (--list)", val[A_TEST]);
    scen = path;
  }
  if (scen && cphs_params_load(&p, scen, err, sizeof err)) return usage_error("%s", err);

  /* Second pass: scenario keys from the command line, in order, each once. */
  bool flag_seen[CPHS_MAX_KEYS] = {false};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool run_flag = false;
    for (int k = 0; run_flags[k]; k++) run_flag |= !strncmp(a, run_flags[k], strlen(run_flags[k]));
    if (run_flag) continue;
    char key[64];
    const char *eq = strchr(a, '=');
    if ((size_t)(eq - a - 2) >= sizeof key) return usage_error("%s: key too long", a);
    snprintf(key, sizeof key, "%.*s", (int)(eq - a - 2), a + 2);
    for (char *c = key; *c; c++)
      if (*c == '-') *c = '_';
    const int ki = cphs_params_key_index(key);
    if (ki >= 0 && flag_seen[ki]) return usage_error("%s: %s given twice on the command line", a, key);
    if (!strcmp(key, "seed")) return usage_error("%s: use --seed=N (it is also the rerun line's seed)", a);
    char origin[96];
    snprintf(origin, sizeof origin, "--%.80s", key);
    if (cphs_params_set(&p, key, eq + 1, origin, err, sizeof err)) return usage_error("%s: %s", a, err);
    flag_seen[ki] = true;
  }
  if (seed_given) p.seed = seed;
  seed = p.seed;

  /* A planted bug (flag or scenario key): it must be able to act. */
  const char *bug = val[A_BUG] ? val[A_BUG] : p.inject_bug_name[0] ? p.inject_bug_name : NULL;
  if (bug) {
    const char *const *names = cphs_cp_bug_names();
    p.inject_bug = 0;
    for (unsigned b = 1; names && names[b]; b++)
      if (!strcmp(names[b], bug)) p.inject_bug = b;
    if (!p.inject_bug) {
      char list[400] = "";
      for (unsigned b = 1; names && names[b]; b++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %s", names[b]);
      return usage_error("inject_bug: the CP model has no planted bug '%s'; it has:%s", bug, list);
    }
    if (p.cm == CPHS_CM_NONE)
      return usage_error("inject_bug: '%s' cannot act: with cm = none there is no CP", bug);
    if (p.rtl && p.check != CPHS_CHECK_MODEL_VS_RTL)
      return usage_error("inject_bug: '%s' cannot act: planted bugs live in the C model and mode = rtl runs "
                         "the RTL CPs",
                         bug);
    snprintf(p.inject_bug_name, sizeof p.inject_bug_name, "%s", bug);
  }
  if (p.check == CPHS_CHECK_MODEL_VS_RTL && p.cm == CPHS_CM_NONE)
    return usage_error("%s: cm: model_vs_rtl needs a CM scheme (cm = none has no CP)",
                       p.origin[cphs_params_key_index("cm")][0] ? p.origin[cphs_params_key_index("cm")]
                                                                : "default");
  if ((p.rtl || p.check == CPHS_CHECK_MODEL_VS_RTL) && !cphs_cp_has_rtl())
    return usage_error(
        "%s: %s: this simulator was built without cp_exp's RTL (a heavy target, left out of the "
        "sanitizer build; docs/cosim.md): build/bin/cp_hotspot_sim has it",
        p.origin[cphs_params_key_index("mode")][0] ? p.origin[cphs_params_key_index("mode")]
                                                   : p.origin[cphs_params_key_index("check")],
        p.rtl ? "mode = rtl" : "check = model_vs_rtl");
  cphs_params_derive(&p);
  if (cphs_params_check(&p, err, sizeof err)) return usage_error("%s", err);

  /* --expect-fail=check:<id>@<ms>, the id one of this scenario's criteria. */
  char exp_id[160] = "";
  double exp_ms = 0;
  if (val[A_EXPECT]) {
    const char *e = val[A_EXPECT], *at = strrchr(e, '@');
    char *end = NULL;
    if (at) {
      errno = 0;
      exp_ms = strtod(at + 1, &end);
    }
    /* an RTL assertion (assert:<label>@<ms>) keeps its prefix, as the failure carries it */
    const bool is_assert = !strncmp(e, "assert:", 7);
    const int skip = is_assert ? 0 : 6, min = is_assert ? 7 : 0;
    if ((!is_assert && strncmp(e, "check:", 6)) || !at || at - e - skip - min <= 0 ||
        (size_t)(at - e - skip) >= sizeof exp_id || !end || *end || end == at + 1 || errno || !(exp_ms >= 0))
      return usage_error("--expect-fail=%s: expected check:<id>@<simulated ms> or assert:<label>@<ms>, e.g. "
                         "check:hotspot.band.q_high@211",
                         e);
    snprintf(exp_id, sizeof exp_id, "%.*s", (int)(at - e - skip), e + skip);
    if (p.check == CPHS_CHECK_NONE && !is_assert)
      return usage_error(
          "--expect-fail=%s: the scenario has no check (check = none): nothing can be expected "
          "to fail",
          e);
    bool known = is_assert || !strcmp(exp_id, CPHS_ID_INVARIANT);
    for (const char *const *id = cphs_check_ids(p.check); *id; id++) known |= !strcmp(exp_id, *id);
    if (!known) {
      char list[300] = "";
      for (const char *const *id = cphs_check_ids(p.check); *id; id++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %s", *id);
      return usage_error("--expect-fail=%s: '%s' is not a criterion of this check; it has:%s", e, exp_id,
                         list);
    }
  }

  int tb_bug = 0;
  if (val[A_TBBUG]) {
    tb_bug = cphs_db_bug(val[A_TBBUG]);
    if (!tb_bug)
      return usage_error("--tb-bug=%s: no such testbench bug (db_skip_bin, db_bin_start)", val[A_TBBUG]);
    if (!val[A_DB])
      return usage_error("--tb-bug=%s: cannot act without --db (it plants a bug in what --db writes)",
                         val[A_TBBUG]);
  }
  if (val[A_DB]) {
    char e[1900];
    if (store_open(&db, val[A_DB], e, sizeof e)) return usage_error("--db=%s: %s", val[A_DB], e);
    db_path = val[A_DB];
    atexit(close_db);
  }

  /* The run. From here on, failures are the design's (exit 1). */
  printf("seed: %" PRIu64 "\n", seed);
  if (val[A_CYCLES])
    printf("note: --cycles=%s has no effect: the run lasts t_end_ms = %g ms of simulated time\n",
           val[A_CYCLES], (double)p.t_end_ps / CPHS_PS_PER_MS);
  static char rerun[4096];
  if (val[A_NAME]) {
    snprintf(rerun, sizeof rerun, "make sim T=%s SEED=%" PRIu64, val[A_NAME], seed);
  } else {
    size_t k = (size_t)snprintf(rerun, sizeof rerun, "%s --seed=%" PRIu64, argv[0], seed);
    for (int i = 1; i < argc && k < sizeof rerun; i++)
      if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--out=", 6))
        k += (size_t)snprintf(rerun + k, sizeof rerun - k, " %s", argv[i]);
  }
  rerun_line = rerun;

  if (!p.name[0]) cphs_params_autoname(&p);
  char dir[1100];
  if (val[A_OUT])
    snprintf(dir, sizeof dir, "%s", val[A_OUT]);
  else
    snprintf(dir, sizeof dir, "build/reports/cp_hotspot/%s", p.name);
  const char *xid = val[A_EXPECT] ? exp_id : NULL;
  cphs_fail_t fl;
  memset(&fl, 0, sizeof fl);

  if (p.check == CPHS_CHECK_MODEL_VS_RTL) {
    /* The same run twice, every CP output of every cycle hashed. */
    const int mk = cphs_params_key_index("mode");
    if (p.origin[mk][0])
      printf("note: mode (%s) has no effect with check = model_vs_rtl: it runs the C model and the RTL\n",
             p.origin[mk]);
    cphs_params_t pm = p, pr = p;
    pm.rtl = false;
    pr.rtl = true;
    pm.digest = pr.digest = true;
    pr.inject_bug = 0; /* a planted bug goes into the model only */
    cphs_result_t rm, rr;
    char dm[1200], dr[1200], why[400] = "";
    snprintf(dm, sizeof dm, "%s/model", dir);
    snprintf(dr, sizeof dr, "%s/rtl", dir);
    if (run_once(&pm, dm, &rm))
      return verdict_fail("%s", "the model run could not be set up (message above)");
    if (run_once(&pr, dr, &rr)) {
      cphs_result_free(&rm);
      return verdict_fail("%s", "the RTL run could not be set up (message above)");
    }
    const double t_end = (double)p.t_end_ps / CPHS_PS_PER_MS;
    bool ok = true;
    if (rr.assert_label[0]) { /* the RTL's own assertion names the cause */
      snprintf(fl.id, sizeof fl.id, "assert:%s", rr.assert_label);
      snprintf(fl.text, sizeof fl.text, "RTL run: %.380s", rr.err);
      ok = false;
    } else if (rm.err[0] || rr.err[0]) {
      snprintf(fl.id, sizeof fl.id, "%s", CPHS_ID_INVARIANT);
      snprintf(fl.text, sizeof fl.text, "%s run: %.380s", rm.err[0] ? "model" : "RTL",
               rm.err[0] ? rm.err : rr.err);
      ok = false;
    } else if (!cphs_summary_same(&rm.sum, &rr.sum, why, sizeof why)) {
      snprintf(fl.id, sizeof fl.id, "%s", CPHS_ID_MODEL_VS_RTL);
      snprintf(fl.text, sizeof fl.text, "model vs RTL: %.380s", why);
      ok = false;
    }
    fl.at_ms = rr.assert_label[0] ? assert_ms(rr.assert_ps) : t_end;
    if (db_write(&pm, "model", &rm, ok ? NULL : &fl, tb_bug) ||
        db_write(&pr, "rtl", &rr, ok ? NULL : &fl, tb_bug)) {
      cphs_result_free(&rm);
      cphs_result_free(&rr);
      return verdict_fail("%s", "the runs could not be written to the results store (message above)");
    }
    printf("check: %-4s %-24s model and RTL summaries and CP output digests identical (%016" PRIx64
           " / %016" PRIx64 ")\n",
           ok ? "ok" : "FAIL", CPHS_ID_MODEL_VS_RTL, rm.sum.digest, rr.sum.digest);
    cphs_result_free(&rm);
    cphs_result_free(&rr);
    return verdict(ok ? NULL : &fl, xid, exp_ms);
  }

  cphs_result_t r;
  if (run_once(&p, dir, &r))
    return verdict_fail("%s", "the run could not be set up or written (message above)");
  bool ok = true;
  if (r.assert_label[0]) {
    snprintf(fl.id, sizeof fl.id, "assert:%s", r.assert_label);
    snprintf(fl.text, sizeof fl.text, "%.390s", r.err);
    fl.at_ms = assert_ms(r.assert_ps);
    ok = false;
  } else if (r.err[0]) {
    snprintf(fl.id, sizeof fl.id, "%s", CPHS_ID_INVARIANT);
    snprintf(fl.text, sizeof fl.text, "%.390s", r.err);
    fl.at_ms = (double)p.t_end_ps / CPHS_PS_PER_MS;
    ok = false;
  } else {
    ok = cphs_check_run(&p, &r.stats, &r.sum, &fl);
  }
  if (db_write(&p, NULL, &r, ok ? NULL : &fl, tb_bug)) {
    cphs_result_free(&r);
    return verdict_fail("%s", "the run could not be written to the results store (message above)");
  }
  cphs_result_free(&r);
  return verdict(ok ? NULL : &fl, xid, exp_ms);
}
