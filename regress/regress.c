/* regress: run a tagged regression from regress/testlist, or one test.
 *
 *   regress --tag TAG [--jobs N] [--shard K/N] [--bin-dir D] [--out D] [--testlist F]
 *   regress --run NAME --seed N [--waves] [--mode M] [--bin-dir D] [--out D]
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 512
#define MAX_ARGS 32
#define MAX_JOBS 8192

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
  double start, wall;
  int status;        /* 0 pass, 1 fail */
  char reason[512];
  unsigned long long cycles;
  char dir[512];
} job_t;

static test_t tests[MAX_TESTS];
static int n_tests;
static job_t jobs[MAX_JOBS];
static int n_jobs;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
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

static void read_testlist(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open %s: %s", path, strerror(errno));
  char line[2048];
  int ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[6 + MAX_ARGS];
    int nt = 0;
    for (char *t = strtok(line, " \t\r\n"); t && nt < 6 + MAX_ARGS; t = strtok(NULL, " \t\r\n")) tok[nt++] = t;
    if (nt == 0) continue;
    if (nt < 5) die("%s:%d: expected 'name block seeds cycles tags [extra args]'", path, ln);
    if (n_tests == MAX_TESTS) die("%s: more than %d tests", path, MAX_TESTS);
    test_t *t = &tests[n_tests];
    snprintf(t->name, sizeof t->name, "%s", tok[0]);
    snprintf(t->block, sizeof t->block, "%s", tok[1]);
    char *end;
    t->seeds = (unsigned)strtoul(tok[2], &end, 10);
    if (*end || t->seeds == 0) die("%s:%d: seeds '%s' must be a positive count", path, ln, tok[2]);
    t->cycles = strtoull(tok[3], &end, 10);
    if (*end || t->cycles == 0) die("%s:%d: cycles '%s' must be a positive integer", path, ln, tok[3]);
    snprintf(t->tags, sizeof t->tags, ",%s,", tok[4]);
    for (int i = 5; i < nt; i++) t->extra[t->n_extra++] = strdup(tok[i]);
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

/* argv for one run of test t with seed s; out_dir is the run's directory. */
static void build_argv(const test_t *t, unsigned seed, const char *bin_dir, const char *out_dir,
                       const char *mode, bool waves, char **argv, char store[][1100]) {
  int a = 0, k = 0;
  const char *m = mode ? mode : extra_value(t, "--mode=");
  bool netlist = m && !strcmp(m, "netlist");
  if (!strcmp(t->block, "script")) { /* a check that is no simulation: the extra args are the command */
    for (int i = 0; i < t->n_extra; i++) argv[a++] = t->extra[i];
    snprintf(store[k], 1100, "--name=%s", t->name);
    argv[a++] = store[k++];
    snprintf(store[k], 1100, "--seed=%u", seed);
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
  snprintf(store[k], 1100, "--seed=%u", seed);
  argv[a++] = store[k++];
  snprintf(store[k], 1100, "--cycles=%llu", t->cycles);
  argv[a++] = store[k++];
  snprintf(store[k], 1100, "--out=%s", out_dir);
  argv[a++] = store[k++];
  for (int i = 0; i < t->n_extra; i++)
    if (!mode || strncmp(t->extra[i], "--mode=", 7)) argv[a++] = t->extra[i];
  if (mode) {
    snprintf(store[k], 1100, "--mode=%s", mode);
    argv[a++] = store[k++];
  }
  if (waves) argv[a++] = "--trace";
  argv[a] = NULL;
}

static int find_test(const char *name) {
  for (int i = 0; i < n_tests; i++)
    if (!strcmp(tests[i].name, name)) return i;
  return -1;
}

/* --run: one test, output to the terminal, exit status of the simulator. */
static int run_one(const char *name, unsigned seed, const char *bin_dir, const char *out, const char *mode,
                   bool waves) {
  int i = find_test(name);
  if (i < 0) {
    fprintf(stderr, "regress: no test '%s' in the testlist; the tests are:\n", name);
    for (int k = 0; k < n_tests; k++) fprintf(stderr, "  %s\n", tests[k].name);
    return 2;
  }
  char dir[600], *argv[MAX_ARGS + 12], store[8][1100];
  snprintf(dir, sizeof dir, "%s/%s.%u", out, name, seed);
  mkdir_p(dir);
  build_argv(&tests[i], seed, bin_dir, dir, mode, waves, argv, store);
  fflush(stdout);
  execv(argv[0], argv);
  fprintf(stderr, "regress: cannot run %s: %s (build it with make)\n", argv[0], strerror(errno));
  return 2;
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
    } else if (strstr(line, "ERROR: AddressSanitizer") || strstr(line, "runtime error:")) {
      snprintf(j->reason, sizeof j->reason, "sanitizer: %.480s", line);
    }
  }
  fclose(f);
  if (passed && j->status == 0) return;
  if (j->status == 0) j->status = 1; /* exit 0 without TEST PASSED */
  else if (passed) snprintf(j->reason, sizeof j->reason, "TEST PASSED but exit status nonzero");
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
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
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
  fprintf(f, "<testsuite name=\"netcosim.%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"%.3f\">\n", tag,
          n_jobs, failed, wall);
  for (int i = 0; i < n_jobs; i++) {
    const job_t *j = &jobs[i];
    const test_t *t = &tests[j->test];
    fprintf(f, "  <testcase classname=\"netcosim.%s\" name=\"%s.%u\" time=\"%.3f\">", t->block, t->name, j->seed,
            j->wall);
    if (j->status) {
      fprintf(f, "\n    <failure message=\"");
      xml_escape(f, j->reason);
      fprintf(f, "\">rerun: make sim T=%s SEED=%u WAVES=1&#10;log: %s/log</failure>\n  ", t->name, j->seed, j->dir);
    }
    fprintf(f, "</testcase>\n");
  }
  fprintf(f, "</testsuite>\n</testsuites>\n");
  fclose(f);

  snprintf(path, sizeof path, "%s/summary.json", out);
  f = fopen(path, "w");
  if (!f) die("cannot write %s", path);
  fprintf(f, "{\n  \"tag\": \"%s\", \"shard\": \"%s\", \"passed\": %d, \"failed\": %d, \"wall_s\": %.3f,\n  \"runs\": [\n",
          tag, shard, n_jobs - failed, failed, wall);
  for (int i = 0; i < n_jobs; i++) {
    const job_t *j = &jobs[i];
    const test_t *t = &tests[j->test];
    fprintf(f, "    {\"test\": \"%s\", \"block\": \"%s\", \"seed\": %u, \"status\": \"%s\", \"cycles\": %llu, "
            "\"wall_s\": %.3f, \"log\": \"%s/log\", \"reason\": \"", t->name, t->block, j->seed,
            j->status ? "failed" : "passed", j->cycles, j->wall, j->dir);
    json_escape(f, j->reason);
    fprintf(f, "\", \"rerun\": \"make sim T=%s SEED=%u WAVES=1\"}%s\n", t->name, j->seed, i + 1 < n_jobs ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  fclose(f);
}

static void print_summary(void) {
  printf("\n%-40s %8s %6s %12s %9s\n", "test", "passing", "total", "max cycles", "wall s");
  for (int t = 0; t < n_tests; t++) {
    int total = 0, pass = 0;
    unsigned long long maxc = 0;
    double wall = 0;
    for (int i = 0; i < n_jobs; i++) {
      if (jobs[i].test != t) continue;
      total++;
      pass += jobs[i].status == 0;
      if (jobs[i].cycles > maxc) maxc = jobs[i].cycles;
      wall += jobs[i].wall;
    }
    if (total) printf("%-40s %8d %6d %12llu %9.2f%s\n", tests[t].name, pass, total, maxc, wall, pass == total ? "" : "  FAIL");
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
      printf("  %s.%u: %s\n    rerun: make sim T=%s SEED=%u WAVES=1    log: %s/log\n", tests[jobs[j].test].name,
             jobs[j].seed, jobs[j].reason, tests[jobs[j].test].name, jobs[j].seed, jobs[j].dir);
    }
  }
  free(done);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *tag = NULL, *run = NULL, *bin_dir = "build/bin", *out = "build/regress", *mode = NULL;
  const char *testlist = "regress/testlist", *shard = "1/1";
  unsigned seed = 1, jobs_max = 2, timeout = 3600;
  bool waves = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--waves")) { waves = true; continue; }
    if (!v) die("%s needs a value", a);
    i++;
    if (!strcmp(a, "--tag")) tag = v;
    else if (!strcmp(a, "--run")) run = v;
    else if (!strcmp(a, "--seed")) seed = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--jobs")) jobs_max = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--shard")) shard = v;
    else if (!strcmp(a, "--bin-dir")) bin_dir = v;
    else if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "--mode")) mode = v;
    else if (!strcmp(a, "--testlist")) testlist = v;
    else if (!strcmp(a, "--timeout")) timeout = (unsigned)strtoul(v, NULL, 10);
    else die("unknown argument '%s'", a);
  }
  if (!jobs_max) jobs_max = 1;
  read_testlist(testlist);
  if (run) return run_one(run, seed, bin_dir, out, mode, waves);
  if (!tag) die("give --tag TAG or --run NAME");

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
      snprintf(j->dir, sizeof j->dir, "%s/%s.%u", out, tests[t].name, s);
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
      char log[600], *av[MAX_ARGS + 12], store[8][1100];
      snprintf(log, sizeof log, "%s/log", j->dir);
      build_argv(&tests[j->test], j->seed, bin_dir, j->dir, NULL, false, av, store);
      j->start = now_s();
      pid_t pid = fork();
      if (pid < 0) die("fork: %s", strerror(errno));
      if (pid == 0) {
        FILE *lf = freopen(log, "w", stdout);
        if (!lf) _exit(127);
        dup2(fileno(stdout), 2);
        setpgid(0, 0);
        execv(av[0], av);
        printf("TEST FAILED: cannot run %s: %s (build it with make)\n", av[0], strerror(errno));
        _exit(127);
      }
      j->pid = pid;
      running++;
    }
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
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
    if (pid < 0) die("waitpid: %s", strerror(errno));
    for (int i = 0; i < next; i++) {
      job_t *j = &jobs[i];
      if (j->pid != pid) continue;
      j->pid = 0;
      j->wall = now_s() - j->start;
      j->status = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
      read_log(j);
      if (WIFSIGNALED(st))
        snprintf(j->reason, sizeof j->reason, "killed by signal %d%s", WTERMSIG(st),
                 j->wall >= timeout ? " (timeout)" : "");
      running--;
      finished++;
      printf("[%*d/%d] %s %s.%u  %.2fs%s%s\n", n_jobs >= 100 ? 3 : 2, finished, n_jobs, j->status ? "FAIL" : "pass",
             tests[j->test].name, j->seed, j->wall, j->status ? "  " : "", j->status ? j->reason : "");
    }
  }
  double wall = now_s() - t0;
  print_summary();
  write_reports(out, tag, shard, wall);
  int failed = 0;
  for (int i = 0; i < n_jobs; i++) failed += jobs[i].status != 0;
  printf("\nwall %.1f s; JUnit: %s/junit.xml; summary: %s/summary.json\n", wall, out, out);
  printf("%d passed, %d failed\n", n_jobs - failed, failed);
  return failed ? 1 : 0;
}
