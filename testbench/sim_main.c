/* The simulation binary of a block: build/bin/<block>_sim.
 *
 *   <block>_sim --test=NAME [--seed=N] [--cycles=N] [--trace[=FILE]]
 *               [--mode=lockstep|netlist|model|rtl] [--inject-bug=NAME]
 *               [--expect-fail=PORT@CYCLE|check:ID@CYCLE|assert:LABEL@CYCLE] [--out=DIR] [--name=NAME] [--no-check]
 *   <block>_sim --list | --help
 *
 * Last line of every run: TEST PASSED, or TEST FAILED: <reason> (exit 1).
 * Bad input prints "error: ..." and exits 2 without running: a usage error
 * is never a test verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

#define MAX_TESTS 256
static const cosim_test_t *tests[MAX_TESTS];
static unsigned n_tests;

void cosim_register_test(const cosim_test_t *t) {
  if (n_tests == MAX_TESTS) {
    fprintf(stderr, "too many tests (raise MAX_TESTS in %s)\n", __FILE__);
    exit(2);
  }
  tests[n_tests++] = t;
}

static const cosim_test_t *find_test(const char *name) {
  for (unsigned i = 0; i < n_tests; i++)
    if (!strcmp(tests[i]->name, name)) return tests[i];
  return NULL;
}

static const char *prog = "sim";

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: %s --test=NAME [--seed=N] [--cycles=N] [--trace[=FILE]]\n"
      "           [--mode=lockstep|netlist|model|rtl] [--inject-bug=NAME]\n"
      "           [--expect-fail=PORT@CYCLE|check:ID@CYCLE|assert:LABEL@CYCLE] [--out=DIR] [--name=NAME] "
      "[--no-check]\n"
      "       %s --list       the tests in this binary\n"
      "  --test         the stimulus (and scoreboard) to run; --name: its testlist name, for the rerun line\n"
      "  --mode         lockstep (model and RTL compared every cycle, default), netlist (the yosys\n"
      "                 netlist instead of the RTL), model or rtl (one side alone, with the scoreboard)\n"
      "  --inject-bug   plant one of the model's bugs (? lists them)\n"
      "  --expect-fail  a negative test: passes only if exactly this fails at exactly this cycle\n"
      "  --trace        FST of the whole run (default OUT/waves.fst); a failure traces its last cycles "
      "anyway\n"
      "environment: NETCOSIM_RERUN_VARS, make variables a failure's rerun line repeats (set by make sim)\n"
      "exit status: 0 TEST PASSED, 1 TEST FAILED, 2 bad input (nothing run)\n",
      prog, prog);
}

static int fail_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  usage(stderr);
  return 2;
}

static bool parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || end == s || *end || *s == '-') return false;
  *v = x;
  return true;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  sim_opts_t o = {.seed = 1, .cycles = 10000, .mode = MODE_LOCKSTEP, .history = 8, .wave_window = 2000};
  const char *test = NULL, *bug = NULL, *expect = NULL;
  prog = argv[0];
  char out_dir[1024] = "";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strncmp(a, "--test=", 7))
      test = a + 7;
    else if (!strncmp(a, "--name=", 7))
      o.name = a + 7;
    else if (!strncmp(a, "--seed=", 7)) {
      if (!parse_u64(a + 7, &o.seed))
        return fail_usage("bad --seed '%s' (expected an unsigned integer)", a + 7);
    } else if (!strncmp(a, "--cycles=", 9)) {
      if (!parse_u64(a + 9, &o.cycles) || !o.cycles)
        return fail_usage("bad --cycles '%s' (expected > 0)", a + 9);
    } else if (!strcmp(a, "--trace"))
      o.trace_path = "";
    else if (!strncmp(a, "--trace=", 8))
      o.trace_path = a + 8;
    else if (!strncmp(a, "--mode=", 7)) {
      const char *m = a + 7;
      if (!strcmp(m, "lockstep"))
        o.mode = MODE_LOCKSTEP;
      else if (!strcmp(m, "netlist"))
        o.mode = MODE_NETLIST;
      else if (!strcmp(m, "model"))
        o.mode = MODE_MODEL;
      else if (!strcmp(m, "rtl"))
        o.mode = MODE_RTL;
      else if (!strcmp(m, "stimulus"))
        o.mode = MODE_STIMULUS;
      else
        return fail_usage("unknown --mode '%s' (lockstep, netlist, model or rtl)", m);
    } else if (!strncmp(a, "--inject-bug=", 13))
      bug = a + 13;
    else if (!strncmp(a, "--expect-fail=", 14))
      expect = a + 14;
    else if (!strcmp(a, "--no-check"))
      o.no_check = true;
    else if (!strncmp(a, "--out=", 6))
      snprintf(out_dir, sizeof out_dir, "%s", a + 6);
    else if (!strcmp(a, "--list")) {
      for (unsigned k = 0; k < n_tests; k++)
        printf("%-32s %-24s %s\n", tests[k]->name, tests[k]->target->glue->name, tests[k]->purpose);
      return 0;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else
      return fail_usage("unknown argument '%s'", a);
  }
  if (!test) return fail_usage("%s", "no --test given (--list shows them)");
  if (!(o.test = find_test(test))) return fail_usage("no test '%s' in this binary (--list shows them)", test);

  if (bug) {
    const char *const *names = o.test->target->model.bug_names;
    if (!strcmp(bug, "?")) { /* make sim T=<test> BUG=? */
      printf("planted bugs of the model of %s:", o.test->target->glue->name);
      for (unsigned k = 1; names && names[k]; k++) printf(" %s", names[k]);
      printf("\n");
      return 0;
    }
    for (unsigned k = 1; names && names[k]; k++)
      if (!strcmp(names[k], bug)) o.bug = k;
    if (!o.bug) {
      fprintf(stderr,
              "error: --inject-bug (BUG=) '%s': the model of %s has no such planted bug; it has:", bug,
              o.test->target->glue->name);
      for (unsigned k = 1; names && names[k]; k++) fprintf(stderr, " %s", names[k]);
      fprintf(stderr, "\n");
      return 2;
    }
    o.bug_name = bug;
  }
  static char what[128];
  if (expect) {
    const char *at = strrchr(expect, '@');
    if (!at || at == expect || (size_t)(at - expect) >= sizeof what || !parse_u64(at + 1, &o.expect_cycle))
      return fail_usage("bad --expect-fail '%s' (expected PORT@CYCLE, check:ID@CYCLE or assert:LABEL@CYCLE)",
                        expect);
    snprintf(what, sizeof what, "%.*s", (int)(at - expect), expect);
    /* A negative names exactly what must fire: an output of the target, a
     * scoreboard check by id, or an RTL assertion by label. */
    bool ok = (!strncmp(what, "check:", 6) && what[6]) || (!strncmp(what, "assert:", 7) && what[7]);
    const cosim_glue_t *g = o.test->target->glue;
    for (unsigned k = 0; !ok && k < g->n_out; k++) ok = !strcmp(g->out_ports[k].name, what);
    if (!ok)
      return fail_usage("bad --expect-fail '%s': not an output of the target, check:ID or assert:LABEL",
                        expect);
    o.expect_what = what;
  }
  /* Outside the testlist (no --name), the rerun line repeats this command
   * line exactly, with the seed made explicit. */
  static char rerun[2048];
  if (!o.name) {
    size_t k = (size_t)snprintf(rerun, sizeof rerun, "%s --seed=%" PRIu64, argv[0], o.seed);
    for (int i = 1; i < argc && k < sizeof rerun; i++)
      if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--trace", 7))
        k += (size_t)snprintf(rerun + k, sizeof rerun - k, " %s", argv[i]);
    o.rerun = rerun;
  }
  if (o.name) o.rerun_vars = getenv("NETCOSIM_RERUN_VARS");
  const char *name = o.name ? o.name : test;
  if (!*out_dir) snprintf(out_dir, sizeof out_dir, "build/sim/%s.%" PRIu64, name, o.seed);
  o.out_dir = out_dir;
  /* Run outside make sim: the directory's stamp (regress --run) no longer
   * describes what is in it, so make waves must not reuse this run's view. */
  if (!getenv("NETCOSIM_RERUN_VARS")) {
    char stamp[1100];
    snprintf(stamp, sizeof stamp, "%s/options", out_dir);
    unlink(stamp);
  }
  static char trace[1100];
  if (o.trace_path && !*o.trace_path) {
    snprintf(trace, sizeof trace, "%s/waves.fst", out_dir);
    o.trace_path = trace;
  }
  return sim_run(&o) ? 1 : 0;
}
