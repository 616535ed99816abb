/* regress: run a tagged regression from regress/testlist, or one test.
 *
 *   regress --tag TAG [--jobs N] [--shard K/N] [--bin-dir D] [--out D] [--testlist F] [--timeout S]
 *   regress --run NAME [--seed N] [--cycles N] [--mode M] [--bug B] [--args "A..."] [--waves]
 *           [--view gtkwave|png] [--make] [--bin-dir D] [--out D] [--testlist F]
 *   regress --help
 *
 * --run is what `make sim`, `make waves` and `make wave-png` call: every make
 * variable is validated here, in one place (--make: errors name the make
 * variable, SEED=, rather than the option). Bad input exits 2, never 1.
 *
 * Testlist lines: name block seeds cycles tags [extra args...]
 *   seeds  how many seeds: the test runs with seeds 1..seeds
 *   tags   comma-separated (smoke, nightly, negative, ...)
 *   extra  passed to the simulator; --test=X reuses test X's stimulus under this name
 *   block "script": not a simulation; extra is a command (e.g. mk/timing-check.sh ...) run with
 *          --name= --seed= --out= appended, which prints TEST PASSED / TEST FAILED like a simulator
 *
 * Each run gets build/regress/<name>.<seed>/ with its log. The summary ends
 * with "N passed, N failed"; JUnit XML and JSON go next to it.
 *
 * CPU: each run's user + system time (wait4: the simulator and all it
 * waited for). A line whose simulator is its own (a planted-bug simulator,
 * mk/planted_bugs.mk) costs mostly that simulator's build, done by make
 * before the runner starts: its recorded CPU (<binary>.build-cpu) is counted
 * as the line's "build" CPU, once per binary and run.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 2048 /* the testlist had 549 lines on 2026-11-28 */
#define MAX_ARGS  32
#define MAX_JOBS  8192

typedef struct {
  char name[96], block[48], tags[128];
  unsigned seeds;
  unsigned long long cycles;
  char *extra[MAX_ARGS];
  int n_extra;
  int line;
} test_t;

typedef struct {
  int test;
  unsigned seed;
  pid_t pid;
  double start, wall, cpu; /* cpu: user + system seconds of the run and what it waited for */
  double build;            /* CPU of building the line's own simulator (<binary>.build-cpu), 0 if none */
  char bin[1100];          /* the simulator run */
  bool ended;
  int status; /* 0 pass, 1 fail */
  char reason[512];
  unsigned long long cycles;
  char dir[512];
} job_t;

static test_t tests[MAX_TESTS];
static int n_tests;
static job_t jobs[MAX_JOBS];
static int n_jobs;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static double build_cpu_of(const char *bin);
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("regress: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec; }

static void mkdir_p(const char *path) {
  char tmp[1024];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0777);
      *p = '/';
    }
  if (mkdir(tmp, 0777) && errno != EEXIST) die("cannot create %s: %s", path, strerror(errno));
}

static bool parse_ull(const char *s, unsigned long long *v) {
  if (!*s) return false;
  for (const char *p = s; *p; p++)
    if (!isdigit((unsigned char)*p)) return false; /* no sign, no space, no hex: "-1" must not wrap */
  errno = 0;
  char *end;
  *v = strtoull(s, &end, 10);
  return !errno && !*end;
}

/* A negative names what must fire and when (WHAT@CYCLE, WHAT = an output
 * port, check:<id> or assert:<label>); NULL if v says so, else why not.
 * A "script" test is no simulation and has no cycles: it names its check
 * (KIND:ID, e.g. timing:common_arb_n5) and nothing else. */
static const char *bad_expect(const char *v, bool script) {
  if (script) {
    const char *colon = strchr(v, ':');
    if (!colon || colon == v || !colon[1] || strchr(v, '@'))
      return "a script test names its check as KIND:ID (no @CYCLE: it simulates no cycles)";
    return NULL;
  }
  const char *at = strrchr(v, '@');
  unsigned long long c;
  if (!at) return "no @CYCLE: a negative names the cycle its failure must happen at";
  if (!parse_ull(at + 1, &c)) return "the cycle after '@' is not an unsigned integer";
  size_t n = (size_t)(at - v);
  if (!n) return "nothing before '@': name the port, check:<id> or assert:<label>";
  if ((n == 5 && !strncmp(v, "check", 5)) || (n == 6 && !strncmp(v, "check:", 6)))
    return "bare 'check' accepts any scoreboard failure: name it, check:<id>";
  if ((n == 6 && !strncmp(v, "assert", 6)) || (n == 7 && !strncmp(v, "assert:", 7)))
    return "bare 'assert' accepts any assertion: name it, assert:<label>";
  return NULL;
}

#ifndef NETCOSIM_SRCDIR
#define NETCOSIM_SRCDIR "."
#endif
static void read_testlist(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open %s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) die("%s: not a regular file", path);
  char line[2048];
  int ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f))
      die("%s:%d: line longer than %zu characters", path, ln, sizeof line - 2);
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[6 + MAX_ARGS];
    int nt = 0;
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
      if (nt == 5 + MAX_ARGS) die("%s:%d: field 'extra args': more than %d", path, ln, MAX_ARGS);
      tok[nt++] = t;
    }
    if (nt == 0) continue;
    if (nt < 5) die("%s:%d: expected 'name block seeds cycles tags [extra args]'", path, ln);
    if (n_tests == MAX_TESTS) die("%s: more than %d tests", path, MAX_TESTS);
    test_t *t = &tests[n_tests];
    memset(t, 0, sizeof *t);
    if (strlen(tok[0]) >= sizeof t->name) die("%s:%d: field 'name': '%s' is too long", path, ln, tok[0]);
    snprintf(t->name, sizeof t->name, "%s", tok[0]);
    snprintf(t->block, sizeof t->block, "%s", tok[1]);
    unsigned long long v;
    if (!parse_ull(tok[2], &v) || v == 0 || v > 100000)
      die("%s:%d: field 'seeds': '%s' must be a count from 1 to 100000", path, ln, tok[2]);
    t->seeds = (unsigned)v;
    if (!parse_ull(tok[3], &t->cycles) || t->cycles == 0)
      die("%s:%d: field 'cycles': '%s' must be a positive integer", path, ln, tok[3]);
    snprintf(t->tags, sizeof t->tags, ",%s,", tok[4]);
    bool expects = false;
    for (int i = 5; i < nt; i++) {
      if (!strncmp(tok[i], "--expect-fail=", 14)) {
        const char *why = bad_expect(tok[i] + 14, !strcmp(tok[1], "script"));
        expects = true;
        if (why) die("%s:%d: field 'extra args' (%s): %s", path, ln, tok[i], why);
      }
      t->extra[t->n_extra++] = strdup(tok[i]);
    }
    if (strstr(t->tags, ",negative,") && !expects)
      die("%s:%d: field 'tags': a negative test needs --expect-fail=WHAT@CYCLE", path, ln);
    t->line = ln;
    for (int i = 0; i < n_tests; i++)
      if (!strcmp(tests[i].name, t->name))
        die("%s:%d: test '%s' already defined on line %d", path, ln, t->name, tests[i].line);
    n_tests++;
  }
  fclose(f);
}

static bool has_tag(const test_t *t, const char *tag) {
  char k[140];
  snprintf(k, sizeof k, ",%s,", tag);
  return strstr(t->tags, k) != NULL;
}

static const char *extra_value(const test_t *t, const char *key) {
  size_t n = strlen(key);
  for (int i = 0; i < t->n_extra; i++)
    if (!strncmp(t->extra[i], key, n)) return t->extra[i] + n;
  return NULL;
}

/* What `make sim/waves/wave-png` asked for (--run); NULL fields = the testlist's. */
typedef struct {
  unsigned long long seed;
  const char *cycles, *mode, *bug;
  char *args[MAX_ARGS];
  int n_args;
  bool waves;
  char vars[1024]; /* the make variables that made this run, for its rerun line */
} run_req_t;

#define MAX_ARGV (2 * MAX_ARGS + 16)
typedef char argstore_t[12][1100];

/* argv for one run of test t; out_dir is the run's directory. r: the --run
 * overrides (NULL in a tagged regression). */
static void build_argv(const test_t *t, unsigned long long seed, const char *bin_dir, const char *out_dir,
                       const run_req_t *r, char **argv, argstore_t store) {
  int a = 0, k = 0;
  const char *mode = r && r->mode ? r->mode : NULL;
  const char *m = mode ? mode : extra_value(t, "--mode=");
  bool netlist = m && !strcmp(m, "netlist");
  if (!strcmp(t->block, "script")) { /* a check that is no simulation: the extra args are the command */
    for (int i = 0; i < t->n_extra; i++) argv[a++] = t->extra[i];
    snprintf(store[k], 1100, "--name=%s", t->name);
    argv[a++] = store[k++];
    snprintf(store[k], 1100, "--seed=%llu", seed);
    argv[a++] = store[k++];
    snprintf(store[k], 1100, "--out=%s", out_dir);
    argv[a++] = store[k++];
    argv[a] = NULL;
    return;
  }
  snprintf(store[k], 1100, "%s/%s_%ssim", bin_dir, t->block, netlist ? "netlist_" : "");
  argv[a++] = store[k++];
  if (!extra_value(t, "--test=")) {
    snprintf(store[k], 1100, "--test=%s", t->name);
    argv[a++] = store[k++];
  }
  snprintf(store[k], 1100, "--name=%s", t->name);
  argv[a++] = store[k++];
  snprintf(store[k], 1100, "--seed=%llu", seed);
  argv[a++] = store[k++];
  snprintf(store[k], 1100, "--cycles=%s", r && r->cycles ? r->cycles : "");
  if (!(r && r->cycles)) snprintf(store[k], 1100, "--cycles=%llu", t->cycles);
  argv[a++] = store[k++];
  snprintf(store[k], 1100, "--out=%s", out_dir);
  argv[a++] = store[k++];
  for (int i = 0; i < t->n_extra; i++) {
    if (mode && !strncmp(t->extra[i], "--mode=", 7)) continue;
    if (r && r->bug && !strncmp(t->extra[i], "--inject-bug=", 13)) continue;
    argv[a++] = t->extra[i];
  }
  if (mode) {
    snprintf(store[k], 1100, "--mode=%s", mode);
    argv[a++] = store[k++];
  }
  if (r && r->bug) {
    snprintf(store[k], 1100, "--inject-bug=%s", r->bug);
    argv[a++] = store[k++];
  }
  for (int i = 0; r && i < r->n_args; i++) argv[a++] = r->args[i];
  if (r && r->waves) argv[a++] = "--trace";
  argv[a] = NULL;
}

static int find_test(const char *name) {
  for (int i = 0; i < n_tests; i++)
    if (!strcmp(tests[i].name, name)) return i;
  return -1;
}

static bool from_make; /* --make: errors name the make variable (SEED=), not the option */
static const char *opt_name(const char *opt, const char *var) { return from_make ? var : opt; }

/* The run's options as one line, without --trace (a traced and an untraced
 * run of the same options fail the same way): the stamp of its directory. */
static void argv_line(char **argv, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; argv[i] && k < n; i++)
    if (strcmp(argv[i], "--trace")) k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " " : "", argv[i]);
}

static bool file_equals(const char *path, const char *text) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  if (n && buf[n - 1] == '\n') buf[n - 1] = 0;
  return !strcmp(buf, text);
}

/* A fresh directory for a run: nothing of an earlier run with other options
 * (a view, a trace, a picture) can be mistaken for this one's. */
static void fresh_run_dir(const char *dir, const char *stamp) {
  static const char *const stale[] = {"view.gtkw",         "waves.fst", "waves.png",
                                      "waves.gtkwave.log", "log",       "options"};
  char p[1200];
  mkdir_p(dir);
  for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, stale[i]);
    unlink(p);
  }
  snprintf(p, sizeof p, "%s/options", dir);
  FILE *f = fopen(p, "w");
  if (!f) die("cannot write %s: %s", p, strerror(errno));
  fprintf(f, "%s\n", stamp);
  fclose(f);
}

static void list_similar(const char *name) {
  char pre[64];
  snprintf(pre, sizeof pre, "%s", name);
  pre[strcspn(pre, "_")] = 0;
  int shown = 0;
  for (int k = 0; k < n_tests && shown < 40; k++)
    if (!strncmp(tests[k].name, pre, strlen(pre)) || strstr(tests[k].name, name)) {
      fprintf(stderr, "%s  %s", shown ? "" : "regress: tests starting with the same word:\n", tests[k].name);
      fprintf(stderr, "\n");
      shown++;
    }
  if (!shown) fprintf(stderr, "regress: the names are the first column of the testlist\n");
}

/* --run: one test, output to the terminal, exit status of the simulator.
 * view: NULL = run it; "gtkwave"/"png" = make sure the run's view exists and
 * is this option set's (rerun with a trace otherwise), then open or render it. */
static int run_one(const char *name, const run_req_t *r, const char *bin_dir, const char *out,
                   const char *view, const char *testlist, bool check_only) {
  int i = find_test(name);
  if (i < 0) {
    fprintf(stderr, "regress: %s%s: no test of that name in %s\n", opt_name("--run ", "T="), name, testlist);
    list_similar(name);
    return 2;
  }
  const test_t *t = &tests[i];
  const char *m = r->mode ? r->mode : extra_value(t, "--mode=");
  if (!m) m = "lockstep";
  if (r->bug && !strcmp(m, "rtl"))
    die("%s%s with %s%s: the planted bug is in the C model, which mode rtl does not run",
        opt_name("--bug ", "BUG="), r->bug, opt_name("--mode ", "MODE="), m);
  const char *ef = extra_value(t, "--expect-fail=");
  for (int k = 0; k < r->n_args; k++)
    if (!strncmp(r->args[k], "--expect-fail=", 14)) ef = r->args[k] + 14;
  if (ef && strncmp(ef, "check:", 6) && strncmp(ef, "assert:", 7) &&
      (!strcmp(m, "model") || !strcmp(m, "rtl")))
    die("%s expects the lockstep mismatch --expect-fail=%s, which mode %s cannot produce (it compares "
        "nothing): run it without %s",
        name, ef, m, opt_name("--mode", "MODE="));
  if (view && !strcmp(m, "model"))
    die("mode model runs no RTL, so there is no waveform: use %slockstep (or rtl, netlist)",
        opt_name("--mode ", "MODE="));
  if (view && !strcmp(view, "gtkwave") && !getenv("DISPLAY"))
    die("GTKWave needs a display and DISPLAY is not set: 'make wave-png' renders the same view to a PNG");
  char dir[600], *argv[MAX_ARGV], stamp[4096], path[1200];
  static argstore_t store;
  snprintf(dir, sizeof dir, "%s/%s.%llu", out, name, r->seed);
  run_req_t rq = *r;
  rq.waves = r->waves || view;
  build_argv(t, r->seed, bin_dir, dir, &rq, argv, store);
  if (check_only) { /* valid: say which simulator the run needs, for make to build just that */
    printf("%s\n", argv[0]);
    return 0;
  }
  argv_line(argv, stamp, sizeof stamp);
  /* the engine's rerun line repeats these; an environment variable, so the
   * simulators not built on the engine (fabric, cp_hotspot) are not confused */
  setenv("NETCOSIM_RERUN_VARS", r->vars, 1);
  setenv("NETCOSIM_BIN_DIR", bin_dir, 1);
  fflush(stdout);
  if (!view) {
    fresh_run_dir(dir, stamp);
    execv(argv[0], argv);
    fprintf(stderr, "regress: cannot run %s: %s (build it with make)\n", argv[0], strerror(errno));
    return 2;
  }

  /* The view of exactly this option set, newer than the simulator, or a new run. */
  char vpath[1200], opath[1200];
  snprintf(vpath, sizeof vpath, "%s/view.gtkw", dir);
  snprintf(opath, sizeof opath, "%s/options", dir);
  struct stat sv, sb;
  bool fresh = file_equals(opath, stamp) && stat(vpath, &sv) == 0 && stat(argv[0], &sb) == 0 &&
               sv.st_mtime >= sb.st_mtime;
  if (fresh) {
    printf("waves: reusing the view of the run with these options (%s)\n", opath);
  } else {
    printf("waves: running %s with a trace (%s)\n", name, r->vars[0] ? r->vars : "the testlist's options");
    fresh_run_dir(dir, stamp);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) die("fork: %s", strerror(errno));
    if (pid == 0) {
      execv(argv[0], argv);
      fprintf(stderr, "regress: cannot run %s: %s (build it with make)\n", argv[0], strerror(errno));
      _exit(2);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0) die("waitpid: %s", strerror(errno));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2) return 2; /* usage: the simulator said why */
  }
  if (stat(vpath, &sv) != 0) {
    fprintf(stderr, "regress: the run wrote no view %s (see its output above)\n", vpath);
    return 1;
  }
  fflush(stdout);
  if (!strcmp(view, "gtkwave")) {
    execlp("gtkwave", "gtkwave", vpath, (char *)NULL);
    die("cannot run gtkwave: %s (make deps installs it)", strerror(errno));
  }
  snprintf(path, sizeof path, "%s/waves.png", dir);
  execl(NETCOSIM_SRCDIR "/mk/wave-png.sh", "wave-png.sh", vpath, path, (char *)NULL);
  die("cannot run mk/wave-png.sh: %s", strerror(errno));
}

/* The last "TEST ..." line and the "cycles:" count of a log. */
static void read_log(job_t *j) {
  char path[600], line[1024];
  snprintf(path, sizeof path, "%s/log", j->dir);
  FILE *f = fopen(path, "r");
  bool passed = false;
  snprintf(j->reason, sizeof j->reason, "no verdict line in the log (crashed?)");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!strncmp(line, "cycles: ", 8)) j->cycles = strtoull(line + 8, NULL, 10);
    if (!strcmp(line, "TEST PASSED")) {
      passed = true;
      j->reason[0] = 0;
    } else if (!strncmp(line, "TEST FAILED: ", 13)) {
      passed = false;
      snprintf(j->reason, sizeof j->reason, "%.500s", line + 13);
    } else if (!strncmp(line, "error: ", 7)) {
      snprintf(j->reason, sizeof j->reason, "usage: %.500s", line + 7);
    } else if (strstr(line, "ERROR: AddressSanitizer") || strstr(line, "runtime error:")) {
      snprintf(j->reason, sizeof j->reason, "sanitizer: %.480s", line);
    }
  }
  fclose(f);
  if (passed && j->status == 0) return;
  if (j->status == 0)
    j->status = 1; /* exit 0 without TEST PASSED */
  else if (passed)
    snprintf(j->reason, sizeof j->reason, "TEST PASSED but exit status nonzero");
}

/* Failure buckets group reasons that differ only in numbers. */
static void bucket_key(const char *r, char *k, size_t n) {
  size_t o = 0;
  for (; *r && o + 1 < n; r++) {
    if (isdigit((unsigned char)*r) || (*r == 'x' && o && k[o - 1] == 'N')) {
      if (!o || k[o - 1] != 'N') k[o++] = 'N';
      while (isxdigit((unsigned char)r[1]) && (isdigit((unsigned char)*r) || *r == 'x')) r++;
    } else {
      k[o++] = *r;
    }
  }
  k[o] = 0;
}

static void xml_escape(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '&': fputs("&amp;", f); break;
      case '"': fputs("&quot;", f); break;
      default:
        if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') fputc(*s, f);
    }
  }
}

static void json_escape(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", *s);
    else
      fputc(*s, f);
  }
}

static void write_reports(const char *out, const char *tag, const char *shard, double wall) {
  char path[600];
  int failed = 0;
  for (int i = 0; i < n_jobs; i++) failed += jobs[i].status != 0;

  snprintf(path, sizeof path, "%s/junit.xml", out);
  FILE *f = fopen(path, "w");
  if (!f) die("cannot write %s", path);
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
  fprintf(f, "<testsuite name=\"netcosim.%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"%.3f\">\n",
          tag, n_jobs, failed, wall);
  for (int i = 0; i < n_jobs; i++) {
    const job_t *j = &jobs[i];
    const test_t *t = &tests[j->test];
    fprintf(f, "  <testcase classname=\"netcosim.%s\" name=\"%s.%u\" time=\"%.3f\">", t->block, t->name,
            j->seed, j->wall);
    if (j->status) {
      fprintf(f, "\n    <failure message=\"");
      xml_escape(f, j->reason);
      fprintf(f, "\">rerun: make sim T=%s SEED=%u WAVES=1&#10;log: %s/log</failure>\n  ", t->name, j->seed,
              j->dir);
    }
    fprintf(f, "</testcase>\n");
  }
  fprintf(f, "</testsuite>\n</testsuites>\n");
  fclose(f);

  snprintf(path, sizeof path, "%s/summary.json", out);
  f = fopen(path, "w");
  if (!f) die("cannot write %s", path);
  fprintf(f,
          "{\n  \"tag\": \"%s\", \"shard\": \"%s\", \"passed\": %d, \"failed\": %d, \"wall_s\": %.3f,\n  "
          "\"runs\": [\n",
          tag, shard, n_jobs - failed, failed, wall);
  for (int i = 0; i < n_jobs; i++) {
    const job_t *j = &jobs[i];
    const test_t *t = &tests[j->test];
    fprintf(f,
            "    {\"test\": \"%s\", \"block\": \"%s\", \"seed\": %u, \"status\": \"%s\", \"cycles\": %llu, "
            "\"wall_s\": %.3f, \"cpu_s\": %.3f, \"build_cpu_s\": %.3f, \"log\": \"%s/log\", \"reason\": \"",
            t->name, t->block, j->seed, j->status ? "failed" : "passed", j->cycles, j->wall, j->cpu, j->build,
            j->dir);
    json_escape(f, j->reason);
    fprintf(f, "\", \"rerun\": \"make sim T=%s SEED=%u WAVES=1\"}%s\n", t->name, j->seed,
            i + 1 < n_jobs ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  fclose(f);
}

/* Where the run's CPU time went (user + system, load-independent unlike
 * wall): per block, and the ten costliest tests. make test's budget is
 * kept with this table (docs/cosim.md "make test's budget"). */
static int cmp_cpu_desc(const void *a, const void *b) {
  double x = ((const double *)a)[0], y = ((const double *)b)[0];
  return (x < y) - (x > y);
}

/* The CPU a binary's own build took, recorded by mk/planted_bugs.mk next to
 * it; 0 for the shared simulators (their build is make's, not a line's). */
static double build_cpu_of(const char *bin) {
  char path[1200];
  snprintf(path, sizeof path, "%s.build-cpu", bin);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  double v = 0;
  if (fscanf(f, "%lf", &v) != 1 || v < 0) v = 0;
  fclose(f);
  return v;
}

static void print_cpu(void) {
  double total = 0, build = 0;
  for (int i = 0; i < n_jobs; i++) total += jobs[i].cpu + jobs[i].build, build += jobs[i].build;
  printf("\ncpu %.1f s in all (%.1f s of it building the lines' own simulators); by block:", total, build);
  bool *seen = calloc((size_t)n_tests, 1);
  for (int t = 0; t < n_tests; t++) {
    if (seen[t]) continue;
    double cpu = 0;
    bool any = false;
    for (int u = t; u < n_tests; u++) {
      if (strcmp(tests[u].block, tests[t].block)) continue;
      seen[u] = true;
      for (int i = 0; i < n_jobs; i++)
        if (jobs[i].test == u) cpu += jobs[i].cpu + jobs[i].build, any = true;
    }
    if (any) printf(" %s %.1f", tests[t].block, cpu);
  }
  free(seen);
  double(*per)[2] = calloc((size_t)n_tests, sizeof *per);
  for (int t = 0; t < n_tests; t++) per[t][1] = t;
  for (int i = 0; i < n_jobs; i++) per[jobs[i].test][0] += jobs[i].cpu + jobs[i].build;
  qsort(per, (size_t)n_tests, sizeof *per, cmp_cpu_desc);
  printf("\ncostliest tests (cpu s):");
  for (int k = 0; k < 10 && k < n_tests && per[k][0] > 0; k++)
    printf(" %s %.1f", tests[(int)per[k][1]].name, per[k][0]);
  printf("\n");
  free(per);
}

static void print_summary(void) {
  printf("\n%-40s %8s %6s %12s %9s %9s %9s\n", "test", "passing", "total", "max cycles", "wall s", "cpu s",
         "build s");
  for (int t = 0; t < n_tests; t++) {
    int total = 0, pass = 0;
    unsigned long long maxc = 0;
    double wall = 0, cpu = 0, build = 0;
    for (int i = 0; i < n_jobs; i++) {
      if (jobs[i].test != t) continue;
      total++;
      pass += jobs[i].status == 0;
      if (jobs[i].cycles > maxc) maxc = jobs[i].cycles;
      wall += jobs[i].wall;
      cpu += jobs[i].cpu;
      build += jobs[i].build;
    }
    if (total)
      printf("%-40s %8d %6d %12llu %9.2f %9.2f %9.2f%s\n", tests[t].name, pass, total, maxc, wall, cpu, build,
             pass == total ? "" : "  FAIL");
  }
  /* failure buckets */
  bool *done = calloc((size_t)n_jobs, 1);
  int nb = 0;
  for (int i = 0; i < n_jobs; i++) {
    if (!jobs[i].status || done[i]) continue;
    char ki[512], kj[512];
    bucket_key(jobs[i].reason, ki, sizeof ki);
    int count = 0;
    for (int j = i; j < n_jobs; j++) {
      if (!jobs[j].status || done[j]) continue;
      bucket_key(jobs[j].reason, kj, sizeof kj);
      if (!strcmp(ki, kj)) count++;
    }
    printf("\nfailure bucket %d (%d run%s): %s\n", ++nb, count, count == 1 ? "" : "s", ki);
    for (int j = i; j < n_jobs; j++) {
      if (!jobs[j].status || done[j]) continue;
      bucket_key(jobs[j].reason, kj, sizeof kj);
      if (strcmp(ki, kj)) continue;
      done[j] = true;
      printf("  %s.%u: %s\n    rerun: make sim T=%s SEED=%u WAVES=1    log: %s/log\n",
             tests[jobs[j].test].name, jobs[j].seed, jobs[j].reason, tests[jobs[j].test].name, jobs[j].seed,
             jobs[j].dir);
    }
  }
  free(done);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: regress --tag TAG [--jobs N] [--shard K/N] [--timeout S] [--bin-dir D] [--out D] "
          "[--testlist F]\n"
          "         a tagged regression from the testlist (smoke, nightly, negative, netlist): table,\n"
          "         failure buckets, OUT/junit.xml, OUT/summary.json; exit 0 all passed, 1 a run failed\n"
          "       regress --run NAME [--seed N] [--cycles N] [--mode lockstep|netlist|model|rtl] [--bug B]\n"
          "               [--args \"SIM ARGS\"] [--waves] [--view gtkwave|png] [--check] [--make] [...]\n"
          "         one test, as 'make sim' runs it (OUT/NAME.SEED/); --view opens or renders the view\n"
          "         of exactly this option set (running it with a trace when there is none);\n"
          "         --check validates, prints the simulator the run needs and exits; --make names make\n"
          "         variables (SEED=) in errors\n"
          "       regress --help\n"
          "exit status: 0 passed, 1 a test failed, 2 bad input (nothing was run)\n");
}

/* ARGS is passed to the simulator, except what a make variable says: one
 * way to set each, so the rerun line is unambiguous. */
static void check_sim_arg(const char *a) {
  static const char *const owned[][2] = {
      {"--seed", "SEED="},    {"--cycles", "CYCLES="}, {"--mode", "MODE="}, {"--inject-bug", "BUG="},
      {"--trace", "WAVES=1"}, {"--name", "T="},        {"--test", "T="},    {"--out", "(fixed)"},
  };
  for (size_t i = 0; i < sizeof owned / sizeof *owned; i++)
    if (!strncmp(a, owned[i][0], strlen(owned[i][0])))
      die("ARGS: '%s' is set with %s, not ARGS", a, owned[i][1]);
  if (!strncmp(a, "--expect-fail=", 14)) {
    const char *why = bad_expect(a + 14, false);
    if (why) die("ARGS: '%s': %s", a, why);
  } else if (strcmp(a, "--no-check")) {
    die("ARGS: '%s' is not a simulator option make sim passes (--expect-fail=WHAT@CYCLE, --no-check)", a);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *tag = NULL, *run = NULL, *bin_dir = "build/bin", *out = "build/regress", *view = NULL;
  const char *testlist = "regress/testlist", *shard = "1/1";
  const char *seed_s = NULL, *args_s = NULL;
  unsigned jobs_max = 2, timeout = 3600;
  bool check_only = false;
  static run_req_t rq;
  unsigned long long x;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--waves")) {
      rq.waves = true;
      continue;
    }
    if (!strcmp(a, "--make")) {
      from_make = true;
      continue;
    }
    if (!strcmp(a, "--check")) {
      check_only = true;
      continue;
    }
    if (strncmp(a, "--", 2)) {
      usage(stderr);
      die("unexpected argument '%s'", a);
    }
    if (!v) {
      usage(stderr);
      die("%s needs a value", a);
    }
    i++;
    if (!strcmp(a, "--tag"))
      tag = v;
    else if (!strcmp(a, "--run"))
      run = v;
    else if (!strcmp(a, "--seed"))
      seed_s = v;
    else if (!strcmp(a, "--cycles"))
      rq.cycles = *v ? v : NULL;
    else if (!strcmp(a, "--mode"))
      rq.mode = *v ? v : NULL;
    else if (!strcmp(a, "--bug"))
      rq.bug = *v ? v : NULL;
    else if (!strcmp(a, "--args"))
      args_s = v;
    else if (!strcmp(a, "--view"))
      view = v;
    else if (!strcmp(a, "--jobs")) {
      if (!parse_ull(v, &x) || !x || x > 1024) die("--jobs '%s': expected a count from 1 to 1024", v);
      jobs_max = (unsigned)x;
    } else if (!strcmp(a, "--timeout")) {
      if (!parse_ull(v, &x) || !x || x > 1000000) die("--timeout '%s': expected seconds, 1 to 1000000", v);
      timeout = (unsigned)x;
    } else if (!strcmp(a, "--shard"))
      shard = v;
    else if (!strcmp(a, "--bin-dir"))
      bin_dir = v;
    else if (!strcmp(a, "--out"))
      out = v;
    else if (!strcmp(a, "--testlist"))
      testlist = v;
    else {
      usage(stderr);
      die("unknown argument '%s'", a);
    }
  }
  if (tag && run) die("give --tag or --run, not both");
  if (!tag && !run) {
    usage(stderr);
    die("give --tag TAG or --run NAME");
  }

  /* make variables (and their options), validated before anything runs */
  rq.seed = 1;
  if (seed_s && *seed_s && !parse_ull(seed_s, &rq.seed))
    die("%s'%s': expected an unsigned decimal integer (0 to 18446744073709551615)",
        opt_name("--seed ", "SEED="), seed_s);
  if (rq.cycles && (!parse_ull(rq.cycles, &x) || !x))
    die("%s'%s': expected a positive decimal integer", opt_name("--cycles ", "CYCLES="), rq.cycles);
  if (rq.mode && strcmp(rq.mode, "lockstep") && strcmp(rq.mode, "netlist") && strcmp(rq.mode, "model") &&
      strcmp(rq.mode, "rtl"))
    die("%s'%s': expected lockstep, netlist, model or rtl", opt_name("--mode ", "MODE="), rq.mode);
  if (rq.bug && strcmp(rq.bug, "?")) /* BUG=? lists them */
    for (const char *p = rq.bug; *p; p++)
      if (!isalnum((unsigned char)*p) && *p != '_')
        die("%s'%s': a planted bug's name (letters, digits, _)", opt_name("--bug ", "BUG="), rq.bug);
  if (view && strcmp(view, "gtkwave") && strcmp(view, "png"))
    die("--view '%s': expected gtkwave or png", view);
  if (args_s) {
    static char args_buf[2048];
    if (strlen(args_s) >= sizeof args_buf) die("ARGS: too long");
    snprintf(args_buf, sizeof args_buf, "%s", args_s);
    for (char *t = strtok(args_buf, " \t"); t; t = strtok(NULL, " \t")) {
      if (rq.n_args == MAX_ARGS) die("ARGS: more than %d arguments", MAX_ARGS);
      check_sim_arg(t);
      rq.args[rq.n_args++] = t;
    }
  }
  if (!run && (seed_s || rq.cycles || rq.mode || rq.bug || args_s || rq.waves || view))
    die("--seed, --cycles, --mode, --bug, --args, --waves and --view go with --run");
  /* the rerun line repeats every make variable that changed the run */
  size_t k = 0;
  if (rq.mode) k += (size_t)snprintf(rq.vars + k, sizeof rq.vars - k, "%sMODE=%s", k ? " " : "", rq.mode);
  if (rq.bug) k += (size_t)snprintf(rq.vars + k, sizeof rq.vars - k, "%sBUG=%s", k ? " " : "", rq.bug);
  if (rq.cycles)
    k += (size_t)snprintf(rq.vars + k, sizeof rq.vars - k, "%sCYCLES=%s", k ? " " : "", rq.cycles);
  if (rq.n_args) {
    k += (size_t)snprintf(rq.vars + k, sizeof rq.vars - k, "%sARGS='", k ? " " : "");
    for (int i = 0; i < rq.n_args; i++)
      k += (size_t)snprintf(rq.vars + k, sizeof rq.vars - k, "%s%s", i ? " " : "", rq.args[i]);
    snprintf(rq.vars + k, sizeof rq.vars - k, "'");
  }

  read_testlist(testlist);
  if (run) return run_one(run, &rq, bin_dir, out, view, testlist, check_only);
  if (check_only) return 0;

  unsigned shard_k, shard_n;
  if (sscanf(shard, "%u/%u", &shard_k, &shard_n) != 2 || !shard_n || !shard_k || shard_k > shard_n)
    die("bad --shard '%s' (expected K/N with 1 <= K <= N)", shard);

  /* Expand (test, seed) runs; a shard takes every N-th, so shards stay balanced. */
  int index = 0;
  for (int t = 0; t < n_tests; t++) {
    if (!has_tag(&tests[t], tag)) continue;
    for (unsigned s = 1; s <= tests[t].seeds; s++, index++) {
      if ((unsigned)index % shard_n != shard_k - 1) continue;
      if (n_jobs == MAX_JOBS) die("more than %d runs", MAX_JOBS);
      job_t *j = &jobs[n_jobs++];
      j->test = t;
      j->seed = s;
      snprintf(j->dir, sizeof j->dir, "%.300s/%.95s.%u", out, tests[t].name, s);
    }
  }
  if (index == 0) die("no test in %s has tag '%s'", testlist, tag);
  printf("regress: tag %s, shard %s: %d run%s on %u job slot%s\n", tag, shard, n_jobs, n_jobs == 1 ? "" : "s",
         jobs_max, jobs_max == 1 ? "" : "s");
  mkdir_p(out);

  double t0 = now_s();
  int next = 0, running = 0, finished = 0;
  while (finished < n_jobs) {
    while (running < (int)jobs_max && next < n_jobs) {
      job_t *j = &jobs[next++];
      mkdir_p(j->dir);
      char log[600], *av[MAX_ARGV];
      static argstore_t store;
      snprintf(log, sizeof log, "%s/log", j->dir);
      build_argv(&tests[j->test], j->seed, bin_dir, j->dir, NULL, av, store);
      snprintf(j->bin, sizeof j->bin, "%s", av[0]);
      j->start = now_s();
      pid_t pid = fork();
      if (pid < 0) die("fork: %s", strerror(errno));
      if (pid == 0) {
        FILE *lf = freopen(log, "w", stdout);
        if (!lf) _exit(127);
        dup2(fileno(stdout), 2);
        setpgid(0, 0);
        /* scripts that run simulators use the same ones (mk/wave-smoke.sh) */
        setenv("NETCOSIM_BIN_DIR", bin_dir, 1);
        execv(av[0], av);
        printf("TEST FAILED: cannot run %s: %s (build it with make)\n", av[0], strerror(errno));
        _exit(127);
      }
      j->pid = pid;
      running++;
    }
    int st;
    struct rusage ru;
    pid_t pid = wait4(-1, &st, WNOHANG, &ru);
    if (pid == 0) {
      double now = now_s();
      for (int i = 0; i < next; i++)
        if (jobs[i].pid > 0 && now - jobs[i].start > timeout) {
          kill(-jobs[i].pid, SIGKILL);
          kill(jobs[i].pid, SIGKILL);
        }
      usleep(2000);
      continue;
    }
    if (pid < 0) die("wait4: %s", strerror(errno));
    for (int i = 0; i < next; i++) {
      job_t *j = &jobs[i];
      if (j->pid != pid) continue;
      j->pid = 0;
      j->wall = now_s() - j->start;
      j->cpu = tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
      bool first = true; /* a binary's build counts once: with the first of its runs to end */
      for (int o = 0; o < next; o++)
        if (o != i && jobs[o].ended && !strcmp(jobs[o].bin, j->bin)) first = false;
      j->build = first ? build_cpu_of(j->bin) : 0;
      j->ended = true;
      j->status = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
      read_log(j);
      if (WIFSIGNALED(st))
        snprintf(j->reason, sizeof j->reason, "killed by signal %d%s", WTERMSIG(st),
                 j->wall >= timeout ? " (timeout)" : "");
      running--;
      finished++;
      printf("[%*d/%d] %s %s.%u  %.2fs%s%s\n", n_jobs >= 100 ? 3 : 2, finished, n_jobs,
             j->status ? "FAIL" : "pass", tests[j->test].name, j->seed, j->wall, j->status ? "  " : "",
             j->status ? j->reason : "");
    }
  }
  double wall = now_s() - t0;
  print_summary();
  print_cpu();
  write_reports(out, tag, shard, wall);
  int failed = 0;
  for (int i = 0; i < n_jobs; i++) failed += jobs[i].status != 0;
  printf("\nwall %.1f s; JUnit: %s/junit.xml; summary: %s/summary.json\n", wall, out, out);
  printf("%d passed, %d failed\n", n_jobs - failed, failed);
  return failed ? 1 : 0;
}
