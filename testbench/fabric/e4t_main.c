/*
 * build/bin/elite4_fabric_core_sim -- elite4 switches in radix-4 fat-trees
 * with traffic endpoints, on the generic fabric core (csim/fabric/,
 * docs/fabric.md); every switch the C model, the Verilated RTL, or both in
 * lockstep.
 *
 *   elite4_fabric_core_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR]
 *       [--mode=model|rtl] [--rtl=all|none|LIST] [--lockstep=all|none|LIST] [--no-skip]
 *       [--nodes=4|16|64|256|1024|4096]
 *       [--traffic=uniform|complement|hotspot|bitrev|transpose|bursty|replay] [--burst=B] [--replay=TRACE]
 *       [--load=X] [--body=N]
 *       [--vcs=free|rr|vc0] [--hot-frac=X] [--hot-node=N] [--link-delay=N]
 *       [--warmup=N] [--drain=N] [--watchdog=N] [--src-queue=N] [--nack-rate=X]
 *       [--records=on|off] [--inject-bug=NAME] [--expect-fail=check:ID@N|assert:LABEL@N] [--trace[=DIR]]
 *       [--db=PATH] [--bench-paths=skip,noskip,rtl,threads] [--topo-file=F] [--topo-dump=F]
 *       [--threads=T]
 *   elite4_fabric_core_sim --list | --help
 *
 * Without --test (or --test=run) one run: the scoreboard, switch errors
 * and deadlock detection are always on; reports go to --out (default
 * build/reports/elite4/runs/<name>). --test=NAME runs a named check (its
 * scenario first, then the flags, in order, override it) or `bench`.
 * --cycles is the injection window; --warmup (default cycles / 5) starts the
 * statistics window. --rtl=LIST: switch ids and ranges, e.g. 0,3,8-11;
 * --lockstep=LIST: those switches run as C model and RTL on the same inputs
 * every cycle (the model drives the links), the first output that differs
 * fails the run as check fabric.lockstep naming switch, port and cycle.
 * --inject-bug: an elite4 model bug (model instances only) or a fabric bug
 * (fab_*: the NIC's, the driver's records or tables; docs/fabric.md "Checks and
 * their negatives"; --inject-bug=? lists every bug) or a skip-path bug of the switch's
 * instance type (fe4_quiet_lies, fe4_drop_credit, fe4_counter_off). --expect-fail=check:ID@CYCLE:
 * passes only if check ID (fabric.<what>, printed with every failure) fails
 * at that cycle; any other failure, or a pass, fails the negative.
 * An RTL switch's assertion (Verilated with --assert) fails the run as
 * assert:<label>@<cycle> (negative: --expect-fail=assert:LABEL@CYCLE).
 * First line `seed: N`; last line `TEST PASSED` or `TEST FAILED: <reason>`.
 * Bad flags are usage errors: a message on stderr, exit status 2, no verdict.
 * --topo-file=F: wire the fabric from F (ibnetdiscover format, docs/fabric.md
 * "Topology files"); F must be the built-in 4-ary n-tree's wiring (else exit
 * 2, saying why). --topo-dump=F: write the fabric's topology to F and exit.
 * --threads=T: the core runs on T parts, one thread each (docs/fabric.md
 * "Parallel"); --test=threads compares it with one thread (fabric.threads).
 * build/bin/elite4_fabric_mpi (the same driver built with mpicc, model
 * only): under mpirun -np N the core runs on N parts, one per process;
 * --mpi makes a run (--test=run) distributed, --test=mpi compares the
 * distributed run with the one-process run (fabric.mpi).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bind/fabric_elite4.h"
#include "core/route_elite.h"
#include "e4t_fabric.h"
#include "fabric/fabric_topo.h"
#include "e4t_report.h"
#include "e4t_store.h"
#include "waves.h"
#ifdef FABRIC_MPI
#include "fabric/fabric_mpi.h"
#endif
#include "clock.h"

typedef enum {
  K_RUN,
  K_UNIFORM16,
  K_TREE,
  K_MODEL_VS_RTL,
  K_COMPLEMENT64,
  K_SKIP,
  K_RECOFF,
  K_BENCH,
  K_TOPOFILE,
  K_THREADS,
  K_MPI
} e4t_kind_t;

typedef struct {
  const char *name;
  e4t_kind_t kind;
  const char *purpose;
} e4t_check_t;

static const e4t_check_t checks[] = {
    {"fabric16_uniform", K_UNIFORM16,
     "16 nodes, uniform 0.3, nacks: scoreboard, no errors, drains; min HEAD latency 6 (1 switch) and 16 (3) "
     "cycles"},
    {"fabric_tree_uniform", K_TREE,
     "1,024 nodes (--nodes=4096: the seed's machine), uniform 0.05: scoreboard, no errors, drains; the "
     "longest path (2n - 1 switches, its up hops one TagUpN tag) at its zero-load latency 5h + 1 cycles"},
    {"fabric16_model_vs_rtl", K_MODEL_VS_RTL,
     "16 nodes: all-model, all-RTL and mixed fabrics give identical outputs every cycle and identical "
     "records"},
    {"fabric_model_vs_rtl", K_MODEL_VS_RTL, "the same comparison on any fabric (--nodes, --traffic, ...)"},
    {"fabric64_complement", K_COMPLEMENT64,
     "64 nodes, complement (node i -> 63 - i) at full load: every packet delivered; bisection throughput"},
    {"skip_vs_noskip", K_SKIP,
     "the core with skipping (idle switches, NICs, idle time) and without: identical per-cycle output "
     "digests and records, then the run's own verdict"},
    {"records_off", K_RECOFF,
     "the same run with records on and off: the streamed statistics (records off keeps no per-packet "
     "storage) equal the ones computed from every record"},
    {"topo_file", K_TOPOFILE,
     "the fabric wired from --topo-file (ibnetdiscover format) and the built-in 4-ary n-tree on the same "
     "seed: identical output digests and per-packet records"},
    {"threads", K_THREADS,
     "the core on --threads=T parts (default 2) and on one thread: identical per-cycle output digests and "
     "per-packet records, then the run's own verdict"},
    {"mpi", K_MPI,
     "elite4_fabric_mpi under mpirun -np N: the core on N processes (a part each) and in one process: "
     "identical per-cycle output digests, per-packet records and port counters, then the run's own verdict"},
    {"bench", K_BENCH,
     "64 nodes, uniform 0.3: node-cycles/s, model with and without skipping, all-RTL (not a check)"},
    {"run", K_RUN, "one run with the flags given (the default)"},
};

static const char *rerun_line;
static bool parse_u64(const char *s, uint64_t *v);

/* A usage error (bad flag, unknown name): exit status 2, no verdict, no rerun line. */
static int usage_fail(const char *fmt, const char *arg) {
  fprintf(stderr, "elite4_fabric_core_sim: error: ");
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
} e4t_expect_t;

static bool parse_expect(const char *s, e4t_expect_t *e) {
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
static int check_verdict(bool ok, const e4t_expect_t *expect, const char *id, const char *why,
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
      "usage: elite4_fabric_core_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR] [--mode=model|rtl]\n"
      "         [--rtl=all|none|LIST] [--lockstep=all|none|LIST] [--no-skip] "
      "[--nodes=4|16|64|256|1024|4096]\n"
      "         [--traffic=uniform|complement|hotspot|bitrev|transpose|bursty] [--burst=B] [--replay=TRACE]\n"
      "         [--bench-paths=skip,noskip,rtl,threads]\n"
      "         [--load=X] [--body=N] [--vcs=free|rr|vc0] [--hot-frac=X] [--hot-node=N] [--link-delay=N]\n"
      "         [--warmup=N] [--drain=N] [--watchdog=N] [--src-queue=N] [--nack-rate=X] [--records=on|off]\n"
      "         [--inject-bug=NAME] [--expect-fail=check:ID@N|assert:LABEL@N] [--trace[=DIR]] [--db=PATH]\n"
      "         [--topo-file=F] [--topo-dump=F] [--threads=T] [--observer=on|off] [--mpi]\n"
      "--threads=T: the fabric core on T parts, a thread each (docs/fabric.md \"Parallel\"); the\n"
      "results are those of one thread (--test=threads checks it, check fabric.threads).\n"
      "--mpi (build/bin/elite4_fabric_mpi under mpirun -np N): the core on N processes, a part each;\n"
      "--test=mpi compares that with one process (check fabric.mpi). --observer=off: no per-cycle\n"
      "observer (no hop records, switch-error or busy checks), so parallel windows span the lookahead.\n"
      "       elite4_fabric_core_sim --list | --help\n"
      "--db=PATH: also write the run into SQLite database PATH (docs/store.md).\n"
      "--topo-file=F: wire the fabric from topology file F (ibnetdiscover format; it must be the\n"
      "4-ary n-tree elite4 source routes need, docs/fabric.md \"Topology files\"); --topo-dump=F:\n"
      "write the fabric's topology (--nodes, or --topo-file's) to F in that format and exit.\n"
      "elite4 switches (model, Verilated RTL, or both in lockstep) in radix-4 fat-trees with\n"
      "traffic endpoints on the generic fabric core; docs/elite4.md section 11, docs/fabric.md. --list names "
      "the checks (--test=NAME). --cycles is the\n"
      "injection window, then the run drains. --trace writes one FST per RTL or lockstep switch\n"
      "(the C model instances have no waveform). --lockstep=LIST: those switches run as model\n"
      "and RTL compared every cycle (check fabric.lockstep). --no-skip: evaluate every instance\n"
      "every cycle (the straightforward path). --expect-fail=check:ID@N: a negative test, passes\n"
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
static bool parse_rtl(const char *flag, const char *s, uint8_t *rtl, unsigned nsw, char *err, size_t len) {
  memset(rtl, 0, E4T_MAX_SW);
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
      snprintf(err, len, "%s=%s: switch ids are 0..%u", flag, s, nsw - 1);
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
    snprintf(err, len, "%s=%s: expected all, none, or ids and ranges such as 0,3,8-11", flag, s);
    return false;
  }
  return true;
}

/* The named checks' scenarios (flags applied afterwards override them). */
static void scenario(e4t_kind_t k, e4t_cfg_t *c) {
  switch (k) {
    case K_UNIFORM16:
      c->nodes = 16, c->pattern = E4T_UNIFORM, c->load = 0.3, c->cycles = 20000, c->warmup = 4000,
      c->nack_rate = 0.01;
      break;
    case K_TREE:
      c->nodes = 1024, c->pattern = E4T_UNIFORM, c->load = 0.05, c->cycles = 300, c->warmup = 100;
      break;
    case K_MODEL_VS_RTL:
      c->nodes = 16, c->pattern = E4T_UNIFORM, c->load = 0.5, c->cycles = 8000, c->warmup = 1600,
      c->nack_rate = 0.01;
      break;
    case K_COMPLEMENT64:
      c->nodes = 64, c->pattern = E4T_COMPLEMENT, c->load = 1.0, c->cycles = 5000, c->warmup = 1000;
      break;
    case K_BENCH:
      c->nodes = 64, c->pattern = E4T_UNIFORM, c->load = 0.3, c->cycles = 10000, c->warmup = 2000,
      c->records = false;
      break;
    default: break;
  }
}

typedef struct {
  const char *test, *out, *name, *bug, *expect, *rtl, *mode, *db, *lockstep, *paths;
  const char *topo_file, *topo_dump; /* ibnetdiscover topology files (docs/fabric.md) */
  bool warmup_set, nodes_set, threads_set;
} e4t_args_t;

/* Apply one --key=value; 0, or -1 with a message. */
static int apply_flag(e4t_cfg_t *c, e4t_args_t *a, const char *arg, char *err, size_t len) {
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
  else if (!strcmp(key, "--lockstep"))
    a->lockstep = v;
  else if (!strcmp(key, "--bench-paths"))
    a->paths = v;
  else if (!strcmp(key, "--no-skip") && !eq)
    c->no_skip = true;
  else if (!strcmp(key, "--observer")) /* off: test the core's windows of the lookahead (threads, MPI) */
    ok = !strcmp(v, "on") || (!strcmp(v, "off") && (c->no_observer = true));
  else if (!strcmp(key, "--mpi") && !eq)
    c->mpi = true;
  else if (!strcmp(key, "--threads"))
    ok = parse_uint(v, &c->threads) && c->threads >= 1 && c->threads <= 64, a->threads_set = true;
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
    ok = parse_uint(v, &c->nodes), a->nodes_set = true;
  else if (!strcmp(key, "--topo-file"))
    ok = *(a->topo_file = v) != 0;
  else if (!strcmp(key, "--topo-dump"))
    ok = *(a->topo_dump = v) != 0;
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
  else if (!strcmp(key, "--burst"))
    ok = parse_double(v, &c->burst);
  else if (!strcmp(key, "--hot-frac"))
    ok = parse_double(v, &c->hot_frac);
  else if (!strcmp(key, "--nack-rate"))
    ok = parse_double(v, &c->nack_rate);
  else if (!strcmp(key, "--traffic"))
    ok = !e4t_pattern_parse(v, &c->pattern);
  else if (!strcmp(key, "--replay")) { /* a trace file: traffic replay */
    ok = *v != 0;
    c->replay = v;
    c->pattern = E4T_REPLAY;
  } else if (!strcmp(key, "--vcs"))
    ok = !e4t_vc_policy_parse(v, &c->policy);
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
static void run_name(const e4t_cfg_t *c, const e4t_args_t *a, char *buf, size_t len) {
  if (a->name && *a->name)
    snprintf(buf, len, "%s", a->name);
  else if (a->test && strcmp(a->test, "run"))
    snprintf(buf, len, "%s", a->test);
  else
    snprintf(buf, len, "n%u_%s_l%.3f", c->nodes, e4t_pattern_name(c->pattern), c->load);
}

/* One fabric run with its result; 0, or -1 if it could not be set up. */
static int run_fabric(const e4t_cfg_t *c, e4t_fabric_t *f, e4t_result_t *r, char *err, size_t len) {
  if (e4t_fabric_init(f, c, err, len)) return -1;
  e4t_fabric_run(f);
  e4t_result_compute(f, r);
  return 0;
}

/* The share of cycles with traffic in flight; the named checks' coverage
 * gate (check fabric.busy) wants at least 90 %. */
static double busy_share(const e4t_fabric_t *f) {
  return f->cycle ? (double)f->busy_cycles / (double)f->cycle : 0;
}

static void print_status(const e4t_fabric_t *f) {
  printf("busy: %" PRIu64 " of %" PRIu64 " cycles with traffic in flight (%.1f %%)\n", f->busy_cycles,
         f->cycle, 100.0 * busy_share(f));
  if (f->sb.failed)
    printf("status: FAILED at cycle %" PRIu64 ": %s\n", f->sb.fail_cycle, f->sb.fail);
  else
    printf("status: drained at cycle %" PRIu64 ", scoreboard clean, no switch error\n", f->cycle);
}

static bool write_out(e4t_fabric_t *f, const e4t_result_t *r, const char *name, const char *dir) {
  if (e4t_write_reports(f, r, name, dir)) {
    fprintf(stderr, "elite4_fabric_core_sim: cannot write reports to %s: %s\n", dir, strerror(errno));
    return false;
  }
  printf("out: %s\n", dir);
  return true;
}

/* With --trace: a GTKWave view (waves/elite4.gtkw's layout) of the first
 * traced RTL switch, DIR/view.gtkw, which `make waves T=<fabric test>` opens;
 * a failure's cycle gets the marker. */
static void write_view(const e4t_cfg_t *c, const char *fst_dir, const char *view_dir, const char *name,
                       const uint64_t *fail_at, const char *why) {
  unsigned s = 0;
  while (s < E4T_MAX_SW && !c->rtl[s]) s++;
  if (!fst_dir || s == E4T_MAX_SW) return;
  char fst[1400], view[1400];
  snprintf(fst, sizeof fst, "%s/sw%u.fst", fst_dir, s);
  snprintf(view, sizeof view, "%s/view.gtkw", view_dir);
  if (waves_write_view(view, fst, elite4_p8_target.glue, name, c->seed, fail_at, -1, false, why) == 0)
    printf("view:  gtkwave %s   (switch %u, the first RTL switch; the others: %s/sw<id>.fst)\n", view, s,
           fst_dir);
}

/* A lockstep divergence without --trace: the same run again with an FST of
 * the diverging switch only (DIR/lockstep/sw<s>.fst, its view marked at the
 * failing cycle); the run is deterministic, so it diverges in the same cycle. */
static void lockstep_fst(const e4t_cfg_t *c0, unsigned s, const char *dir, const char *name, uint64_t at,
                         const char *why) {
  static e4t_fabric_t f;
  static char tdir[1300];
  char err[512];
  e4t_cfg_t c = *c0;
  snprintf(tdir, sizeof tdir, "%s/lockstep", dir);
  if (s >= E4T_MAX_SW || e4t_mkdir_p(tdir)) return;
  c.trace_dir = tdir;
  c.trace_only = s + 1;
  if (e4t_fabric_init(&f, &c, err, sizeof err)) {
    e4t_fabric_free(&f);
    return;
  }
  do e4t_fabric_step(&f);
  while (!e4t_fabric_done(&f) && f.cycle <= at);
  const bool same = f.sb.failed && !strcmp(f.sb.fail_id, "fabric.lockstep") && f.sb.fail_cycle == at;
  e4t_fabric_free(&f); /* closes the FST */
  printf("lockstep: FST of the diverging switch sw%u: %s/sw%u.fst%s\n", s, tdir, s,
         same ? "" : " (the rerun did not diverge in the same cycle)");
  memset(c.rtl, 0, sizeof c.rtl);
  c.rtl[s] = E4T_SW_LOCKSTEP; /* write_view shows the first traced switch */
  write_view(&c, tdir, tdir, name, &at, why);
}

/* fabric.traffic: the packets created are the pattern's. bitrev and
 * transpose: every packet's destination is the source's partner, computed
 * here by arithmetic of our own (the generator walks the bits), and no
 * packet leaves a node that is its own partner. replay: each node created
 * exactly its trace messages, at their cycles, in order. Records on. */
static unsigned partner(e4t_pattern_t p, unsigned nodes, unsigned src) {
  unsigned b = 0, r = 1;
  while ((1u << b) < nodes) b++;
  while (r * r < nodes) r++;
  if (p == E4T_TRANSPOSE) return (src % r) * r + src / r;
  unsigned d = 0;
  for (unsigned i = 0, x = src; i < b; i++, x >>= 1) d = d << 1 | (x & 1u);
  return d;
}

static bool traffic_check(e4t_fabric_t *f, char *why, size_t len, uint64_t *at) {
  const e4t_cfg_t *c = &f->cfg;
  why[0] = 0;
  if (c->pattern == E4T_BURSTY) {
    /* a burst: consecutive packets of a node to one destination, L cycles apart */
    const unsigned L = c->nbody + 2;
    uint32_t *last_t = calloc(c->nodes, sizeof *last_t), *last_d = calloc(c->nodes, sizeof *last_d);
    uint64_t bursts = 0, pkts = 0, win = 0;
    for (uint32_t id = 0; last_t && last_d && id < f->rec.n; id++) {
      const e4t_pkt_t *k = &f->rec.p[id];
      const bool cont =
          last_t[k->src] && last_d[k->src] == k->dst + 1u && k->t_create == last_t[k->src] - 1 + L;
      bursts += !cont;
      pkts++;
      win += k->t_create >= c->warmup && k->t_create < c->cycles;
      last_t[k->src] = k->t_create + 1; /* 0: none yet */
      last_d[k->src] = k->dst + 1u;
    }
    free(last_t);
    free(last_d);
    const double mean = bursts ? (double)pkts / (double)bursts : 0,
                 offered = (double)(win + f->env.refused_win) * L /
                           ((double)c->nodes * (double)(c->cycles - c->warmup));
    printf("bursty: %" PRIu64 " packets in %" PRIu64
           " bursts: mean %.2f packets (asked %.2f), offered %.4f (asked %.4f)\n",
           pkts, bursts, mean, c->burst, offered, c->load);
    /* bands: at the named test's length (16 nodes, 20,000 cycles) the mean of ~600 geometric bursts has a
     * relative sd of ~4 % and the offered load ~3 %; a burst length twice the asked one is far outside */
    if (bursts < 400)
      printf("check: skip the bursty bands need at least 400 bursts (this run: %" PRIu64 ")\n", bursts);
    else if (!(fabs(mean - c->burst) <= 0.25 * c->burst) || !(fabs(offered - c->load) <= 0.15 * c->load))
      snprintf(why, len, "bursts of %.2f packets at offered %.4f, asked %.2f at %.4f (bands 25 %%, 15 %%)",
               mean, offered, c->burst, c->load);
    *at = f->cycle - 1;
  } else if (c->pattern != E4T_REPLAY) {
    for (uint32_t id = 0; id < f->rec.n && !why[0]; id++) {
      const e4t_pkt_t *k = &f->rec.p[id];
      const unsigned d = partner(c->pattern, c->nodes, k->src);
      if (k->dst != d || d == k->src) {
        snprintf(why, len, "packet %u: node %u sent to node %u, its %s partner is node %u", id, k->src,
                 k->dst, e4t_pattern_name(c->pattern), d);
        *at = k->t_create;
      }
    }
  } else {
    e4t_trace_t t;
    char err[400];
    if (e4t_trace_load(&t, c->replay, c->nodes, c->cycles, err, sizeof err)) {
      snprintf(why, len, "%s", err);
      *at = 0;
      return false;
    }
    uint32_t *seen = calloc(c->nodes, sizeof *seen);
    for (uint32_t id = 0; seen && id < f->rec.n && !why[0]; id++) {
      const e4t_pkt_t *k = &f->rec.p[id];
      const e4t_trace_node_t *q = &t.node[k->src];
      const uint32_t i = seen[k->src]++;
      if (i >= q->n || q->cycle[i] != k->t_create || q->dst[i] != k->dst) {
        snprintf(why, len, "packet %u: node %u -> %u at cycle %u, the trace's message %u of node %u is %s",
                 id, k->src, k->dst, k->t_create, i + 1, k->src, i < q->n ? "another" : "not there");
        *at = k->t_create;
      }
    }
    for (unsigned n = 0; seen && n < c->nodes && !why[0]; n++)
      if (seen[n] != t.node[n].n) {
        snprintf(why, len,
                 "node %u created %u of its %u trace messages (the first missing: cycle %u -> node %u)", n,
                 seen[n], t.node[n].n, t.node[n].cycle[seen[n]], t.node[n].dst[seen[n]]);
        *at = t.node[n].cycle[seen[n]];
      }
    if (!seen) snprintf(why, len, "out of memory");
    free(seen);
    e4t_trace_free(&t);
  }
  printf("check: %-4s packets follow the %s pattern%s%s\n", why[0] ? "FAIL" : "ok",
         e4t_pattern_name(c->pattern), why[0] ? ": " : "", why);
  return !why[0];
}

/* ---- the named checks ------------------------------------------------------------- */

/* fabric16_uniform: exact minimum latencies. With D = 1 a HEAD injected in
 * cycle t reaches switch 1 in t + 1, leaves each switch 4 cycles after it
 * arrived (docs/elite4.md §8: ARRIVE, VA, SA, ST) and reaches the next hop 1
 * cycle later: h switches take 4h + (h + 1) = 5h + 1 cycles to the
 * destination NIC. */
#define E4T_MIN_HEAD_1SW 6u  /* 5 * 1 + 1 */
#define E4T_MIN_HEAD_3SW 16u /* 5 * 3 + 1 */
#define E4T_SWITCH_HEAD  4u  /* the switch's contract */

static bool check_uniform16(const e4t_fabric_t *f, const e4t_result_t *r, char *why, size_t len, char *id,
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
  CHK("fabric.latency_1sw", r->n_by_len[1] && r->min_head[1] == E4T_MIN_HEAD_1SW,
      "min HEAD latency over 1 switch (same leaf) = %u cycles: measured %u over %" PRIu64 " packets",
      E4T_MIN_HEAD_1SW, r->min_head[1], r->n_by_len[1]);
  CHK("fabric.latency_3sw", r->n_by_len[3] && r->min_head[3] == E4T_MIN_HEAD_3SW,
      "min HEAD latency over 3 switches = %u cycles: measured %u over %" PRIu64 " packets", E4T_MIN_HEAD_3SW,
      r->min_head[3], r->n_by_len[3]);
  CHK("fabric.packet_latency",
      r->min_pkt[1] == E4T_MIN_HEAD_1SW + L - 1 && r->min_pkt[3] == E4T_MIN_HEAD_3SW + L - 1,
      "min packet latency (HEAD injected -> TAIL at NIC) = HEAD + %u flits: %u and %u cycles, measured %u "
      "and %u",
      L - 1, E4T_MIN_HEAD_1SW + L - 1, E4T_MIN_HEAD_3SW + L - 1, r->min_pkt[1], r->min_pkt[3]);
  if (f->cfg.records)
    CHK("fabric.hop_latency",
        r->hops_seen && r->min_hop == E4T_SWITCH_HEAD && r->min_link == 1 && r->max_link == 1,
        "per-hop records: min arrival->departure %u cycles (contract %u), every link %u..%u cycles (expected "
        "1)",
        r->min_hop, E4T_SWITCH_HEAD, r->min_link, r->max_link);
  CHK("fabric.busy", busy_share(f) >= 0.9, "traffic in flight in %.1f %% of the cycles (at least 90 %%)",
      100.0 * busy_share(f));
  if (f->cfg.nack_rate > 0)
    CHK("fabric.retries", r->retries > 0, "nacked packets retried: %" PRIu64, r->retries);
#undef CHK
  return ok;
}

/* The scoreboard's verdict, then every packet delivered: the first failure's
 * id and message (fabric_tree_uniform, fabric64_complement). */
static bool delivered_all(const e4t_fabric_t *f, const e4t_result_t *r, char *why, size_t len, char *id,
                          size_t idlen) {
  const bool ok = !f->sb.failed && r->delivered == r->created;
  snprintf(id, idlen, "%s", f->sb.failed ? f->sb.fail_id : "fabric.delivered_all");
  if (f->sb.failed)
    snprintf(why, len, "%s", f->sb.fail);
  else if (!ok)
    snprintf(why, len, "%" PRIu64 " of %" PRIu64 " packets delivered", r->delivered, r->created);
  return ok;
}

/* fabric_tree_uniform: the large trees (1,024 and 4,096 nodes), whose longest
 * paths need the counted up tag (docs/elite4.md §3, §11.2). A switch routes
 * TagUpN as TagUp, so the longest path's HEAD takes 5h + 1 cycles as any
 * other (see E4T_MIN_HEAD_1SW), and its TAIL L - 1 more. */
static bool check_tree(const e4t_fabric_t *f, const e4t_result_t *r, char *why, size_t len, char *id,
                       size_t idlen) {
  const unsigned L = f->cfg.nbody + 2, H = 2 * f->topo.levels - 1, head = 5 * H + 1;
  bool ok = delivered_all(f, r, why, len, id, idlen);
  printf("check: %-4s scoreboard, switch errors and drain; every packet delivered exactly once (%" PRIu64
         " of %" PRIu64 ")\n",
         ok ? "ok" : "FAIL", r->delivered, r->created);
  if (!ok) return false;
  ok = r->n_by_len[H] && r->min_head[H] == head && r->min_pkt[H] == head + L - 1;
  printf(
      "check: %-4s longest path, %u switches: min HEAD latency %u cycles (expected %u), min packet latency "
      "%u (expected %u), over %" PRIu64 " packets\n",
      ok ? "ok" : "FAIL", H, r->min_head[H], head, r->min_pkt[H], head + L - 1, r->n_by_len[H]);
  if (!ok) {
    snprintf(id, idlen, "fabric.latency_longest");
    snprintf(why, len,
             "longest path (%u switches): min HEAD latency %u, packet %u cycles over %" PRIu64
             " packets; expected %u and %u",
             H, r->min_head[H], r->min_pkt[H], r->n_by_len[H], head, head + L - 1);
  }
  return ok;
}

static bool check_complement64(const e4t_fabric_t *f, const e4t_result_t *r, char *why, size_t len, char *id,
                               size_t idlen) {
  bool ok = delivered_all(f, r, why, len, id, idlen);
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

/* The port counters of two fabrics: at the window's first and last cycles
 * and at the end of the run; the first difference into d (empty: none). */
static void counters_differ(const e4t_fabric_t *a, const e4t_fabric_t *b, char *d, size_t len) {
  d[0] = 0;
  for (unsigned w = 0; w < 2 && !d[0]; w++)
    for (unsigned i = 0; i < a->topo.nsw * E4T_PORTS && !d[0]; i++) {
      const e4t_counters_t *x = &a->cnt[w], *y = &b->cnt[w];
      if (x->xmit_flits[i] != y->xmit_flits[i] || x->rcv_flits[i] != y->rcv_flits[i] ||
          x->xmit_wait[i] != y->xmit_wait[i] || x->xmit_pkts[i] != y->xmit_pkts[i])
        snprintf(d, len, "switch %u port %u: counters differ at cycle %" PRIu64, i / E4T_PORTS, i % E4T_PORTS,
                 x->cycle);
    }
  for (unsigned s = 0; s < a->topo.nsw && !d[0]; s++)
    for (unsigned p = 0; p < E4T_PORTS && !d[0]; p++)
      for (unsigned k = 0; k < FE4_NCNT && !d[0]; k++) {
        uint64_t u = 0, v = 0;
        fabric_counter(&a->core, s, p, k, &u);
        fabric_counter(&b->core, s, p, k, &v);
        if (u != v)
          snprintf(d, len, "switch %u port %u counter %s: %" PRIu64 " vs %" PRIu64 " at the end", s, p,
                   fe4_type.counter_name[k], u, v);
      }
}

/* fabric_model_vs_rtl: the same fabric three times (all model, all RTL,
 * mixed), stepped together; the cycle digests of every switch output must
 * agree in every cycle, and the per-packet records at the end. */
static int model_vs_rtl(e4t_cfg_t *base, const char *mixed, const char *name, const char *dir,
                        const e4t_expect_t *expect) {
  static const char *const label[] = {"model", "rtl", "mixed"};
  static e4t_fabric_t fab[3];
  e4t_result_t res[3];
  char err[512], why[700] = "", id[160] = "";
  uint64_t fail_at = 0;
  static char tdir[3][1300];
  for (unsigned k = 0; k < 3; k++) {
    e4t_cfg_t c = *base;
    c.digest = true;
    memset(c.rtl, k == 1, sizeof c.rtl);
    if (k == 2) {
      e4t_topo_t t;
      if (e4t_topo_build(&t, c.nodes)) return verdict_fail("bad --nodes=%s", "");
      if (mixed) {
        if (!parse_rtl("--rtl", mixed, c.rtl, t.nsw, err, sizeof err)) return usage_fail("%s", err);
      } else {
        for (unsigned s = 0; s < t.nsw; s++) c.rtl[s] = s % 2 == 0; /* even switches RTL */
      }
    }
    if (k == 1) c.model_bug = 0; /* no model instance */
    if (c.trace_dir) {           /* one FST directory per fabric: their switches share ids */
      snprintf(tdir[k], sizeof tdir[k], "%s/%s", c.trace_dir, label[k]);
      if (e4t_mkdir_p(tdir[k])) return verdict_fail("cannot create %s", tdir[k]);
      c.trace_dir = tdir[k];
    }
    if (e4t_fabric_init(&fab[k], &c, err, sizeof err)) {
      for (unsigned j = 0; j <= k; j++) e4t_fabric_free(&fab[j]);
      return verdict_fail("%s", err);
    }
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  bool done[3] = {false, false, false}, same = true;
  uint64_t c = 0;
  while (!(done[0] && done[1] && done[2])) {
    for (unsigned k = 0; k < 3; k++)
      if (!done[k]) e4t_fabric_step(&fab[k]);
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
      if (done[k] != done[1] || fab[k].digest != fab[1].digest) {
        char d[300] = "the runs ended at different cycles";
        if (!done[k] && !done[1]) e4t_fabric_diff(&fab[k], &fab[1], d, sizeof d);
        snprintf(why, sizeof why, "%s vs rtl: switch outputs differ at cycle %" PRIu64 ": %s", label[k], c,
                 d);
        snprintf(id, sizeof id, "fabric.model_vs_rtl");
        same = false;
        fail_at = c;
      }
    if (!same) break;
    for (unsigned k = 0; k < 3; k++)
      if (!done[k]) done[k] = e4t_fabric_done(&fab[k]);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  for (unsigned k = 0; k < 3; k++) {
    fab[k].wall_s = wall / 3;
    e4t_result_compute(&fab[k], &res[k]);
    char sub[1200], nm[260];
    snprintf(sub, sizeof sub, "%s/%s", dir, label[k]);
    snprintf(nm, sizeof nm, "%s_%s", name, label[k]);
    e4t_result_print(&fab[k], &res[k], nm, stdout);
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
  /* the counters are read on demand, not compared per cycle: their values at
   * the window's edges and at the end, every switch, port and counter */
  for (unsigned k = 0; k < 3 && ok; k += 2) {
    char d[300] = "";
    counters_differ(&fab[k], &fab[1], d, sizeof d);
    if (d[0]) {
      snprintf(why, sizeof why, "%s vs rtl: %s", label[k], d);
      snprintf(id, sizeof id, "fabric.model_vs_rtl");
      ok = false;
      fail_at = c;
    }
  }
  if (ok)
    printf("check: ok   switch outputs identical in all %" PRIu64
           " cycles, counters and per-packet records identical "
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
  e4t_cfg_t rc = fab[1].cfg;                                 /* the all-RTL fabric */
  for (unsigned k = 0; k < 3; k++) e4t_fabric_free(&fab[k]); /* closes the FSTs */
  if (base->trace_dir) write_view(&rc, tdir[1], base->trace_dir, name, ok ? NULL : &fail_at, ok ? NULL : why);
  return check_verdict(ok, expect, id, why, fail_at);
}

/* ---- the core's own checks ----------------------------------------------------------- */

static bool hop_eq(const e4t_hop_t *a, const e4t_hop_t *b) {
  return a->sw == b->sw && a->in == b->in && a->out == b->out && a->arr == b->arr && a->grant == b->grant &&
         a->dep == b->dep;
}
static bool pkt_eq(const e4t_pkt_t *a, const e4t_pkt_t *b) {
  if (a->src != b->src || a->dst != b->dst || a->vc != b->vc || a->nsw != b->nsw || a->nhops != b->nhops ||
      a->tries != b->tries || a->state != b->state || a->nbody != b->nbody || a->seq != b->seq ||
      a->route != b->route || a->crc != b->crc || a->t_create != b->t_create || a->t_inject != b->t_inject ||
      a->t_head_rx != b->t_head_rx || a->t_tail_rx != b->t_tail_rx || a->t_done != b->t_done)
    return false;
  for (unsigned h = 0; h < a->nhops && h < E4T_MAX_HOPS; h++)
    if (!hop_eq(&a->hop[h], &b->hop[h])) return false;
  return true;
}

/* Two runs' results: why they differ (empty: identical); *cycle: where. */
static void compare_runs(const e4t_fabric_t *A, const e4t_fabric_t *B, char *why, size_t len,
                         uint64_t *cycle) {
  why[0] = 0;
  *cycle = A->cycle - 1;
  if (A->cycle != B->cycle)
    snprintf(why, len, "end cycle %" PRIu64 " vs %" PRIu64, A->cycle - 1, B->cycle - 1);
  else if (A->sb.failed != B->sb.failed ||
           (A->sb.failed && (strcmp(A->sb.fail_id, B->sb.fail_id) || A->sb.fail_cycle != B->sb.fail_cycle)))
    snprintf(why, len, "verdict differs: %s@%" PRIu64 " vs %s@%" PRIu64,
             A->sb.failed ? A->sb.fail_id : "pass", A->sb.failed ? A->sb.fail_cycle : 0,
             B->sb.failed ? B->sb.fail_id : "pass", B->sb.failed ? B->sb.fail_cycle : 0);
  else if (A->rec.n != B->rec.n)
    snprintf(why, len, "%u vs %u packets", A->rec.n, B->rec.n);
  else if (A->env.outstanding != B->env.outstanding || A->env.win_flits != B->env.win_flits ||
           A->env.refused != B->env.refused || A->env.retries != B->env.retries ||
           A->busy_cycles != B->busy_cycles)
    snprintf(why, len, "NIC counters or busy cycles differ");
  /* records off: the retired packets' records were folded into a hash */
  if (!why[0] && A->acc.rec_hash != B->acc.rec_hash)
    snprintf(why, len, "the records of the packets done (folded, records off) differ");
  e4t_records_t *ra = (e4t_records_t *)(uintptr_t)&A->rec, *rb = (e4t_records_t *)(uintptr_t)&B->rec;
  for (uint32_t k = 0; !why[0] && k < A->rec.n; k++) {
    const e4t_pkt_t *a = e4t_records_get(ra, k), *b = e4t_records_get(rb, k);
    if (!a && !b) continue;
    if (!a || !b) {
      snprintf(why, len, "packet %u is held by one run only", k);
    } else if (!pkt_eq(a, b)) {
      snprintf(why, len, "packet %u's record differs (created %u/%u, tail_rx %u/%u, hops %u/%u)", k,
               a->t_create, b->t_create, a->t_tail_rx, b->t_tail_rx, a->nhops, b->nhops);
      *cycle = a->t_create < b->t_create ? a->t_create : b->t_create;
    }
  }
}

/* The generic builder's 4-ary n-tree and the Elite route plug-in
 * (core/route_elite.c) against e4t_topo's wiring table and routes, every
 * switch port and every (src, dst): check fabric.tables. */
static bool tables_agree(unsigned nodes, bool bug, char *why, size_t len) {
  static e4t_topo_t E;
  fabric_topo_t T;
  char err[200];
  why[0] = 0;
  if (e4t_topo_build(&E, nodes) || fabric_topo_kary_ntree(&T, 4, E.levels, err, sizeof err)) {
    snprintf(why, len, "topology not built");
    return false;
  }
  if (bug) { /* planted (fab_table_swap): the driver's table swaps switch 0's up ports 4 and 5 */
    const e4t_peer_t t = E.peer[0][4];
    E.peer[0][4] = E.peer[0][5];
    E.peer[0][5] = t;
  }
  for (unsigned s = 0; !why[0] && s < E.nsw; s++)
    for (unsigned q = 0; !why[0] && q < E4T_PORTS; q++) {
      const e4t_peer_t *a = &E.peer[s][q];
      const fabric_end_t *b = fabric_topo_peer(&T, s, q);
      const bool same =
          (a->kind == E4T_PEER_NONE && b->kind == FABRIC_END_NONE) ||
          (a->kind == E4T_PEER_NIC && b->kind == FABRIC_END_NODE && a->id == b->id) ||
          (a->kind == E4T_PEER_SW && b->kind == FABRIC_END_SWITCH && a->id == b->id && a->port == b->port);
      if (!same) snprintf(why, len, "switch %u port %u: e4t_topo and fabric_topo_kary_ntree differ", s, q);
    }
  for (unsigned a = 0; !why[0] && a < nodes; a++)
    for (unsigned b = 0; !why[0] && b < nodes; b++) {
      uint32_t w0;
      uint8_t tags[E4T_MAX_TAGS];
      unsigned n0 = e4t_route(&E, a, b, &w0, tags), n1 = 0;
      uint64_t w1 = 0;
      if (route_elite.route(route_elite.ctx, &T, a, b, &w1, &n1, err, sizeof err) || w1 != w0 || n1 != n0)
        snprintf(why, len, "route %u -> %u: e4t_route 0x%08x (%u switches), plug-in 0x%08" PRIx64 " (%u)", a,
                 b, w0, n0, w1, n1);
    }
  fabric_topo_free(&T);
  return !why[0];
}

static long rss_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* CPU seconds of the process (every thread), user + system */
static double cpu_s(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
         1e-6 * (double)u.ru_stime.tv_usec;
}

/* CPU seconds of the calling thread */
static double main_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_path(const char *label, const e4t_fabric_t *f) {
  printf("%-14s %" PRIu64 " cycles, %u packets, %.3f M node-cycles/s, %" PRIu64 " evaluations, %" PRIu64
         " cycles jumped, RSS %ld kB",
         label, f->cycle, f->rec.n, (double)f->cfg.nodes * (double)f->cycle / f->wall_s / 1e6, f->core.evals,
         f->core.cycles_jumped, rss_kb());
  if (f->core.parts > 1)
    printf(", %u %s, %" PRIu32 " cut links, lookahead %" PRIu64 ", %" PRIu64 " synchronisations",
           f->core.parts, f->core.dist ? "processes" : "threads", f->core.cut_links, f->core.lookahead,
           f->core.syncs);
  if (f->core.dist && f->core.syncs) /* rank 0's wall time in the broadcast and the exchange, per window */
    printf(", %.1f us per synchronisation (%.3f s; less waiting for a slower part: %.1f us)",
           1e6 * f->core.sync_s / (double)f->core.syncs, f->core.sync_s,
           1e6 * f->core.sync_msg_s / (double)f->core.syncs);
  printf("\n");
}

/* Two runs of one fabric that must agree exactly: every non-idle output in
 * every cycle (the core's per-cycle digest) and every per-packet record,
 * then the verdict of the run under test (`main`), whose reports and FSTs
 * are written. Used by skip_vs_noskip and topo_file below. */
typedef struct {
  const char *id;                         /* the check, e.g. fabric.skip_vs_noskip */
  const char *label[2];                   /* each run's line of print_path */
  unsigned main;                          /* the run under test (reported, traced, its verdict) */
  const char *what;                       /* "skip vs no skip" */
  const char *digest;                     /* the digest's name in a failure, "the output digests" */
  const char *same;                       /* what agreeing means, for the ok line */
  void (*vary)(e4t_cfg_t *c, unsigned k); /* run k's configuration from the base */
  bool counters;                          /* also the port counters (window edges, end) */
} e4t_pair_t;

static int same_two_runs(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect,
                         const e4t_pair_t *p) {
  static e4t_fabric_t fab[2];
  e4t_result_t res[2];
  char err[512], why[700] = "", id[160];
  snprintf(id, sizeof id, "%s", p->id);
  const unsigned m = p->main, o = 1u - m;
  for (unsigned k = 0; k < 2; k++) {
    e4t_cfg_t c = *base;
    c.digest = true;
    p->vary(&c, k);
    if (k != m) c.trace_dir = NULL; /* FSTs of the run under test only */
    if (e4t_fabric_init(&fab[k], &c, err, sizeof err)) {
      for (unsigned j = 0; j <= k; j++) e4t_fabric_free(&fab[j]);
      return verdict_fail("%s", err);
    }
    e4t_fabric_run(&fab[k]);
    e4t_result_compute(&fab[k], &res[k]);
    print_path(p->label[k], &fab[k]);
  }
  e4t_result_print(&fab[m], &res[m], name, stdout);
  print_status(&fab[m]);
  bool wrote = write_out(&fab[m], &res[m], name, dir);
  uint64_t at = 0;
  if (fabric_digest_diff(&fab[0].core, &fab[1].core, &at))
    snprintf(why, sizeof why, "%s differ first in cycle %" PRIu64, p->digest, at);
  else
    compare_runs(&fab[o], &fab[m], why, sizeof why, &at);
  if (!why[0] && p->counters) counters_differ(&fab[o], &fab[m], why, sizeof why);
  printf("check: %-4s %s: %s\n", why[0] ? "FAIL" : "ok", p->what, why[0] ? why : p->same);
  if (!why[0] && fab[m].sb.failed) { /* the two runs agree; the run itself failed */
    snprintf(id, sizeof id, "%s", fab[m].sb.fail_id);
    snprintf(why, sizeof why, "%s", fab[m].sb.fail);
    at = fab[m].sb.fail_cycle;
  }
  const bool ok = !why[0];
  e4t_cfg_t rc = fab[m].cfg;
  for (unsigned k = 0; k < 2; k++) e4t_fabric_free(&fab[k]); /* closes the FSTs */
  if (base->trace_dir) write_view(&rc, rc.trace_dir, rc.trace_dir, name, ok ? NULL : &at, ok ? NULL : why);
  if (!wrote) return verdict_fail("cannot write the reports to %s", dir);
  return check_verdict(ok, expect, id, why, at);
}

/* skip_vs_noskip: the same fabric with skipping (idle switches, idle NICs,
 * whole-fabric idle time) and without; the per-cycle output digests (every
 * non-idle flit and side output) and every record must be identical
 * (check fabric.skip_vs_noskip at the first differing cycle), then the
 * run's own verdict. */
static void vary_skip(e4t_cfg_t *c, unsigned k) { c->no_skip = k == 1; }
static int skip_vs_noskip(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect) {
  static const e4t_pair_t p = {"fabric.skip_vs_noskip",
                               {"core, skip:", "core, no skip:"},
                               0,
                               "skip vs no skip",
                               "the output digests",
                               "identical output digests in every cycle, identical records",
                               vary_skip,
                               false};
  return same_two_runs(base, name, dir, expect, &p);
}

/* threads: the same fabric on --threads=T parts (one thread each) and on
 * one thread; the per-cycle output digests and every record must be
 * identical (check fabric.threads at the first differing cycle), then the
 * threaded run's own verdict. */
static unsigned threads_T;
static void vary_threads(e4t_cfg_t *c, unsigned k) { c->threads = k == 1 ? threads_T : 1; }
static int threads_vs_one(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect) {
  static char lab[32];
  snprintf(lab, sizeof lab, "core, %u threads:", threads_T);
  const e4t_pair_t p = {"fabric.threads",
                        {"core, 1 thread:", lab},
                        1,
                        "threads vs one thread",
                        "the output digests",
                        "identical output digests in every cycle, identical records",
                        vary_threads,
                        false};
  return same_two_runs(base, name, dir, expect, &p);
}

/* mpi (elite4_fabric_mpi under mpirun -np N): the same fabric on N
 * processes, a part each, and in this one; the per-cycle output digests,
 * every record and the port counters must be identical (check fabric.mpi
 * at the first differing cycle), then the distributed run's own verdict.
 * Ranks >= 1 take part in the distributed run only (mpi_follow). */
static void vary_mpi(e4t_cfg_t *c, unsigned k) { c->mpi = k == 1; }
static int mpi_vs_one(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect) {
  const e4t_pair_t p = {"fabric.mpi",
                        {"core, 1 process:", "core, MPI:"},
                        1,
                        "MPI processes vs one process",
                        "the output digests",
                        "identical output digests in every cycle, identical records and port counters",
                        vary_mpi,
                        true};
  return same_two_runs(base, name, dir, expect, &p);
}

#ifdef FABRIC_MPI
/* Rank >= 1: build the distributed run's fabric, evaluate this rank's part
 * of every window until rank 0 is done; rank 0 prints everything. */
static int mpi_follow(e4t_cfg_t *c) {
  static e4t_fabric_t f;
  char err[512];
  c->mpi = true;
  c->digest = true;
  if (e4t_fabric_init(&f, c, err, sizeof err)) {
    fprintf(stderr, "elite4_fabric_mpi (rank >= 1): %s\n", err);
    e4t_fabric_free(&f);
    return 1;
  }
  fabric_mpi_serve(&f.core);
  e4t_fabric_free(&f);
  return 0;
}
#endif

/* records_off: the run with records on and with records off (packets
 * folded into the statistics when done, their storage freed): the same
 * end, verdict, counts, latency summaries (created -> TAIL, injected ->
 * TAIL, injected -> HEAD), minima per path length, offered and accepted
 * load (check fabric.records_off). The per-hop figures exist with records
 * on only. */
static int records_off(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect) {
  static e4t_fabric_t fab[2];
  e4t_result_t res[2];
  static const char *const label[2] = {"records on:", "records off:"};
  char err[512], why[700] = "", id[160] = "fabric.records_off";
  for (unsigned k = 0; k < 2; k++) {
    e4t_cfg_t c = *base;
    c.records = k == 0;
    if (e4t_fabric_init(&fab[k], &c, err, sizeof err)) {
      for (unsigned j = 0; j <= k; j++) e4t_fabric_free(&fab[j]);
      return verdict_fail("%s", err);
    }
    e4t_fabric_run(&fab[k]);
    e4t_result_compute(&fab[k], &res[k]);
    print_path(label[k], &fab[k]);
  }
  e4t_result_print(&fab[1], &res[1], name, stdout);
  print_status(&fab[1]);
  bool wrote = write_out(&fab[1], &res[1], name, dir);
  const e4t_result_t *a = &res[0], *b = &res[1];
  const e4t_summary_t *sa[3] = {&a->lat, &a->net, &a->head}, *sb[3] = {&b->lat, &b->net, &b->head};
  static const char *const sn[3] = {"created->TAIL", "injected->TAIL", "injected->HEAD"};
  uint64_t at = fab[0].cycle - 1;
  if (fab[0].cycle != fab[1].cycle || fab[0].sb.failed != fab[1].sb.failed)
    snprintf(why, sizeof why, "the runs end differently (cycle %" PRIu64 " vs %" PRIu64 ")", fab[0].cycle - 1,
             fab[1].cycle - 1);
  else if (a->created != b->created || a->created_win != b->created_win || a->delivered != b->delivered)
    snprintf(why, sizeof why,
             "packets created/in window/delivered %" PRIu64 "/%" PRIu64 "/%" PRIu64 " with records, %" PRIu64
             "/%" PRIu64 "/%" PRIu64 " streamed",
             a->created, a->created_win, a->delivered, b->created, b->created_win, b->delivered);
  for (unsigned k = 0; k < 3 && !why[0]; k++)
    if (memcmp(sa[k], sb[k], sizeof *sa[k]))
      snprintf(why, sizeof why,
               "latency %s: mean %.3f p99 %.0f (n %" PRIu64 ") with records, %.3f %.0f (n %" PRIu64
               ") streamed",
               sn[k], sa[k]->mean, sa[k]->p99, sa[k]->count, sb[k]->mean, sb[k]->p99, sb[k]->count);
  if (!why[0] && (memcmp(a->n_by_len, b->n_by_len, sizeof a->n_by_len) ||
                  memcmp(a->min_head, b->min_head, sizeof a->min_head) ||
                  memcmp(a->min_pkt, b->min_pkt, sizeof a->min_pkt) || a->offered != b->offered ||
                  a->accepted != b->accepted))
    snprintf(why, sizeof why, "minima per path length or offered/accepted load differ");
  printf("check: %-4s records off vs on: %s\n", why[0] ? "FAIL" : "ok",
         why[0] ? why : "the streamed statistics equal the ones from every record");
  if (!why[0] && fab[1].sb.failed) {
    snprintf(id, sizeof id, "%s", fab[1].sb.fail_id);
    snprintf(why, sizeof why, "%s", fab[1].sb.fail);
    at = fab[1].sb.fail_cycle;
  }
  const bool ok = !why[0];
  for (unsigned k = 0; k < 2; k++) e4t_fabric_free(&fab[k]);
  if (!wrote) return verdict_fail("cannot write the reports to %s", dir);
  return check_verdict(ok, expect, id, why, at);
}

/* topo_file: the fabric wired from the topology file (cfg.wiring) and the
 * built-in 4-ary n-tree on the same seed; every switch output in every cycle
 * (the core's digest trace) and every per-packet record must be identical
 * (check fabric.topo_file at the first differing cycle), then the file run's
 * own verdict. The file was checked against the builder before (exit 2 if it
 * differs): this catches what goes wrong between that check and the links. */
static void vary_wiring(e4t_cfg_t *c, unsigned k) {
  if (!k) c->wiring = NULL; /* run 0 the built-in tree, run 1 the file's */
}
static int topo_file(e4t_cfg_t *base, const char *name, const char *dir, const e4t_expect_t *expect) {
  static const e4t_pair_t p = {"fabric.topo_file",
                               {"built-in:", "topology file:"},
                               1,
                               "topology file vs built-in",
                               "the switch outputs (digest)",
                               "identical switch outputs in every cycle, identical per-packet records",
                               vary_wiring,
                               false};
  return same_two_runs(base, name, dir, expect, &p);
}

/* --topo-file: is the file's graph the 4-ary n-tree the Elite source routes
 * need? 0 and *nodes, or -1 and why (a usage error: the file is bad input
 * for this binary, not a design failure). */
static int topo_file_is_tree(const fabric_topo_t *T, unsigned *nodes, char *why, size_t len) {
  static const char need[] =
      "elite4 source routes need the 4-ary n-tree of 8-port switches (4 .. 4096 nodes) wired as "
      "the built-in one (docs/elite4.md section 11.1): a route names each down port by a base-4 digit of the "
      "destination and each up hop by an adaptive tag over ports 5..8 (IBA numbering), so node d must be on "
      "leaf d/4 port d%4+1 and switch s of level l where the builder puts it";
  unsigned n = 0;
  for (unsigned x = T->nodes; x > 1 && x % 4 == 0; x /= 4) n++;
  if (T->nodes < 4 || T->nodes != 1u << (2 * n) || n > E4T_MAX_LEVELS) {
    snprintf(why, len, "%s has %u nodes and %u switches; %s", T->src, T->nodes, T->nsw, need);
    return -1;
  }
  fabric_topo_t B;
  char err[200], d[600];
  if (fabric_topo_kary_ntree(&B, 4, n, err, sizeof err)) {
    snprintf(why, len, "%s", err);
    return -1;
  }
  const int differ = fabric_topo_diff(&B, T, d, sizeof d);
  fabric_topo_free(&B);
  if (differ) {
    snprintf(why, len, "%s is not the 4-ary %u-tree: %s (built-in vs file); %s", T->src, n, d, need);
    return -1;
  }
  *nodes = T->nodes;
  return 0;
}

/* fab_topo_swap: leaf 0's up links on ports 4 and 5 trade places in the
 * table the fabric is wired from, after the file was checked (a wiring-path
 * bug the file check cannot see; the topo_file comparison must). */
static void topo_swap(fabric_topo_t *T) {
  fabric_end_t *a = &T->peer[4], *b = &T->peer[5];
  if (a->kind != FABRIC_END_SWITCH || b->kind != FABRIC_END_SWITCH) return;
  const fabric_end_t x = *a;
  *a = *b;
  *b = x;
  T->peer[(size_t)a->id * T->sw_ports + a->port].port = 4;
  T->peer[(size_t)b->id * T->sw_ports + b->port].port = 5;
}

/* bench: the same run with skipping, without, and all-RTL (--bench-paths
 * picks them); node-cycles/s, evaluations, cycles jumped, peak RSS. */
static int bench(e4t_cfg_t *base, const char *paths, const char *dir) {
  static const char *const label[4] = {"core, skip:", "core, no skip:", "core, rtl:", "core, threads:"};
  static const char *const key[4] = {"skip", "noskip", "rtl", "threads"};
  bool on[4] = {true, true, true, false};
  if (paths) {
    for (unsigned k = 0; k < 4; k++) on[k] = false;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", paths);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
      unsigned k = 0;
      while (k < 4 && strcmp(t, key[k])) k++;
      if (k == 4) return usage_fail("--bench-paths: '%s' is not skip, noskip, rtl or threads", t);
      on[k] = true;
    }
  }
  char err[512], path[1200];
  if (e4t_mkdir_p(dir)) return verdict_fail("cannot create %s", dir);
  snprintf(path, sizeof path, "%s/bench.csv", dir);
  FILE *csv = fopen(path, "w");
  if (!csv) return verdict_fail("cannot write %s", path);
  fprintf(csv,
          "switches,nodes,cycles,records,wall_s,fabric_cycles_per_s,node_cycles_per_s,switch_cycles_per_s,"
          "path,evaluations,cycles_jumped,threads,cpu_s\n");
  double ncs[4] = {0, 0, 0, 0}, cpu[4] = {0, 0, 0, 0}, crit = 0;
  for (unsigned k = 0; k < 4; k++) {
    if (!on[k]) continue;
    e4t_cfg_t c = *base;
    memset(c.rtl, k == 2, sizeof c.rtl);
    c.no_skip = k == 1;
    c.threads = k == 3 ? threads_T : 1; /* the other paths: one thread, whatever --threads says */
    if (k == 2) c.model_bug = 0;
    static e4t_fabric_t f;
    e4t_result_t r;
    if (e4t_fabric_init(&f, &c, err, sizeof err)) {
      e4t_fabric_free(&f);
      fclose(csv);
      return verdict_fail("%s", err);
    }
    f.core.par_timing = k == 3;
    const double u0 = cpu_s(), m0 = main_cpu_s();
    e4t_fabric_run(&f);
    cpu[k] = cpu_s() - u0;
    const double mcpu = main_cpu_s() - m0;
    e4t_result_compute(&f, &r);
    print_path(label[k], &f);
    printf("%-14s cpu %.3f s, wall %.3f s\n", label[k], cpu[k], f.wall_s);
    if (k == 3) { /* the critical path: what idle cores would take (CPU time, immune to the neighbours) */
      const double serial = mcpu - f.core.par_caller_s - f.core.par_wait_s;
      crit = f.core.par_crit_s + serial;
      printf(
          "%-14s critical path %.3f s: slowest part per window %.3f s + the caller's serial work %.3f s "
          "(driver, observer, merge); every part's work %.3f s, the caller ran parts for %.3f s and waited "
          "%.3f s\n",
          label[k], crit, f.core.par_crit_s, serial, f.core.par_work_s, f.core.par_caller_s,
          f.core.par_wait_s);
    }
    ncs[k] = r.node_cycles_per_s;
    fprintf(csv, "%s,%u,%" PRIu64 ",%s,%.3f,%.0f,%.0f,%.0f,%s,%" PRIu64 ",%" PRIu64 ",%u,%.3f\n",
            k == 2 ? "rtl" : "model", c.nodes, r.cycles_run, c.records ? "on" : "off", r.wall_s,
            r.cycles_per_s, r.node_cycles_per_s, r.cycles_per_s * f.topo.nsw, key[k], f.core.evals,
            f.core.cycles_jumped, c.threads, cpu[k]);
    char failed[900] = "";
    if (f.sb.failed)
      snprintf(failed, sizeof failed, "%s run: %s%s@%" PRIu64 ": %s", key[k], what_kind(f.sb.fail_id),
               f.sb.fail_id, f.sb.fail_cycle, f.sb.fail);
    e4t_fabric_free(&f);
    if (failed[0]) {
      fclose(csv);
      return verdict_fail("%s", failed);
    }
  }
  fclose(csv);
  if (ncs[0] > 0 && ncs[2] > 0)
    printf("bench: model (skipping) / RTL speed ratio %.2f (reported, not asserted)\n", ncs[0] / ncs[2]);
  if (ncs[0] > 0 && ncs[3] > 0)
    printf("bench: %u threads / 1 thread speed ratio %.2f, CPU time ratio %.2f (reported, not asserted; a "
           "shared machine: see the load average)\n",
           threads_T, ncs[3] / ncs[0], cpu[3] / cpu[0]);
  if (cpu[0] > 0 && crit > 0)
    printf("bench: %u threads on idle cores: one thread's CPU time / the critical path = %.2f (an estimate "
           "from CPU times; not asserted)\n",
           threads_T, cpu[0] / crit);
  printf("out: %s\nTEST PASSED\n", path);
  return 0;
}

/* Planted bugs outside the NIC's table (e4t_fab_bug_names): the binding's
 * (FE4_BUG_*), the core's parallel path and the topology file's; one list
 * serves the option and the names --inject-bug=? prints. */
static const struct {
  const char *name;
  unsigned fe4, par;
  bool topo_swap;
} other_bugs[] = {
    {"fe4_quiet_lies", FE4_BUG_QUIET_LIES, 0, false},
    {"fe4_drop_credit", FE4_BUG_DROP_CREDIT, 0, false},
    {"fe4_counter_off", FE4_BUG_COUNTER_OFF, 0, false},
    {"fab_topo_swap", 0, 0, true},
    {"fab_par_cut_late", 0, FABRIC_PBUG_CUT_LATE, false},
    {"fab_mpi_drop_flit", 0, FABRIC_PBUG_MPI_DROP, false},
};

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef FABRIC_MPI
  unsigned mpi_rank = 0, mpi_ranks = 1;
  if (fabric_mpi_init(&argc, &argv, &mpi_rank, &mpi_ranks)) {
    fprintf(stderr, "elite4_fabric_mpi: MPI_Init failed\n");
    return 2;
  }
  atexit(fabric_mpi_finalize);
  if (mpi_rank != 0 && !freopen("/dev/null", "w", stdout)) return 2; /* rank 0 reports */
#endif
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

  e4t_args_t a;
  memset(&a, 0, sizeof a);
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--test=", 7)) a.test = argv[i] + 7;
  e4t_kind_t kind = K_RUN;
  if (a.test) {
    size_t j = 0;
    while (j < sizeof checks / sizeof checks[0] && strcmp(checks[j].name, a.test)) j++;
    if (j == sizeof checks / sizeof checks[0]) return usage_fail("no check '%s' (see --list)", a.test);
    kind = checks[j].kind;
  }
  e4t_cfg_t c;
  e4t_cfg_default(&c);
  scenario(kind, &c);
  char err[512];
  for (int i = 1; i < argc; i++)
    if (apply_flag(&c, &a, argv[i], err, sizeof err)) return usage_fail("%s", err);
  if (!a.warmup_set && kind == K_RUN)
    c.warmup = c.cycles / 5;
  else if (!a.warmup_set && c.warmup >= c.cycles)
    c.warmup = c.cycles / 5;
  c.seed = seed;
  /* the threaded run of --test=threads and the bench's threads path: --threads, else 2 */
  threads_T = a.threads_set ? c.threads : 2;
  if (kind == K_THREADS || kind == K_BENCH) c.threads = 1;
  if (kind == K_THREADS && threads_T < 2)
    return usage_fail("--test=threads compares T >= 2 threads with one: --threads=%s", "1");
  static fabric_topo_t ftopo; /* --topo-file's wiring (c.wiring), alive for the whole run */
  if (a.topo_file) {          /* bad input: file, line and field named, exit 2 */
    unsigned fnodes = 0;
    static char terr[2048];
    if (fabric_topo_read_ibnd(&ftopo, a.topo_file, terr, sizeof terr))
      return usage_fail("--topo-file: %s", terr);
    if (topo_file_is_tree(&ftopo, &fnodes, terr, sizeof terr)) return usage_fail("--topo-file: %s", terr);
    if (a.nodes_set && c.nodes != fnodes) {
      snprintf(err, sizeof err, "--nodes=%u, but %s has %u nodes", c.nodes, a.topo_file, fnodes);
      return usage_fail("%s", err);
    }
    c.nodes = fnodes;
    c.wiring = &ftopo;
  } else if (kind == K_TOPOFILE) {
    return usage_fail("%s", "--test=topo_file needs --topo-file=FILE");
  }
  e4t_topo_t topo;
  if (e4t_topo_build(&topo, c.nodes)) return usage_fail("bad --nodes: %s", "4, 16, 64, 256, 1024 or 4096");
  if (a.topo_dump) { /* write the topology and stop: no run */
    fabric_topo_t B;
    const fabric_topo_t *T = &ftopo;
    if (!a.topo_file && fabric_topo_kary_ntree(&B, 4, topo.levels, err, sizeof err))
      return usage_fail("%s", err);
    if (!a.topo_file) T = &B;
    FILE *out = fopen(a.topo_dump, "w");
    int rc = out ? fabric_topo_write_ibnd(T, out, err, sizeof err) : -1;
    if (!out) snprintf(err, sizeof err, "cannot write %s: %s", a.topo_dump, strerror(errno));
    if (out && fclose(out) && !rc) rc = -1, snprintf(err, sizeof err, "cannot write %s", a.topo_dump);
    if (!a.topo_file) fabric_topo_free(&B);
    fabric_topo_free(&ftopo);
    if (rc) return usage_fail("--topo-dump: %s", err);
    printf("topo: wrote %s (%u nodes, %u switches, ibnetdiscover format)\n", a.topo_dump, topo.nodes,
           topo.nsw);
    return 0;
  }
  if (e4t_cfg_check(&c, err, sizeof err)) return usage_fail("%s", err); /* out of range: bad input */
  if (c.pattern == E4T_REPLAY) { /* a bad trace is bad input: named file, line and field, exit 2 */
    if (!c.replay) return usage_fail("%s", "--traffic=replay needs --replay=TRACE (the trace file)");
    e4t_trace_t t;
    if (e4t_trace_load(&t, c.replay, c.nodes, c.cycles, err, sizeof err)) return usage_fail("%s", err);
    e4t_trace_free(&t);
  }
  if (a.mode && strcmp(a.mode, "model") && strcmp(a.mode, "rtl"))
    return usage_fail("--mode=%s: model or rtl (the model-vs-RTL comparison is --test=fabric_model_vs_rtl)",
                      a.mode);
  memset(c.rtl, a.mode && !strcmp(a.mode, "rtl"), sizeof c.rtl);
  if (a.rtl && kind != K_MODEL_VS_RTL && !parse_rtl("--rtl", a.rtl, c.rtl, topo.nsw, err, sizeof err))
    return usage_fail("%s", err);
  if (a.lockstep) { /* lockstep switches: model and RTL compared inside the run */
    uint8_t ls[E4T_MAX_SW];
    if (!parse_rtl("--lockstep", a.lockstep, ls, topo.nsw, err, sizeof err)) return usage_fail("%s", err);
    if (kind == K_MODEL_VS_RTL)
      return usage_fail("%s", "--lockstep: not with the model-vs-RTL check (it runs its own fabrics)");
    for (unsigned s2 = 0; s2 < topo.nsw; s2++)
      if (ls[s2]) c.rtl[s2] = E4T_SW_LOCKSTEP;
  }
  if (a.bug && strcmp(a.bug, "none")) {
    for (unsigned b = 1; elite4_bug_names[b]; b++)
      if (!strcmp(elite4_bug_names[b], a.bug)) c.model_bug = b;
    for (unsigned b = 1; e4t_fab_bug_names[b]; b++)
      if (!strcmp(e4t_fab_bug_names[b], a.bug)) c.fab_bug |= 1u << (b - 1);
    bool swap = false;
    for (size_t b = 0; b < sizeof other_bugs / sizeof other_bugs[0]; b++)
      if (!strcmp(other_bugs[b].name, a.bug)) {
        c.fe4_bug = other_bugs[b].fe4;
        c.par_bug = other_bugs[b].par;
        swap = other_bugs[b].topo_swap;
      }
    if (swap && !a.topo_file) return usage_fail("%s", "--inject-bug=fab_topo_swap needs --topo-file");
    if (swap) topo_swap(&ftopo);
    if (!c.model_bug && !c.fab_bug && !c.fe4_bug && !c.par_bug && !swap) {
      fprintf(stderr, "planted bugs:");
      for (unsigned b = 1; elite4_bug_names[b]; b++) fprintf(stderr, " %s", elite4_bug_names[b]);
      for (unsigned b = 1; e4t_fab_bug_names[b]; b++) fprintf(stderr, " %s", e4t_fab_bug_names[b]);
      for (size_t b = 0; b < sizeof other_bugs / sizeof other_bugs[0]; b++)
        fprintf(stderr, " %s", other_bugs[b].name);
      fprintf(stderr, "\n");
      return usage_fail("no planted bug '%s'", a.bug);
    }
  }
  e4t_expect_t expect, *exp = NULL;
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
      fprintf(stderr, "elite4_fabric_core_sim: note: --trace writes nothing with all-model switches "
                      "(use --mode=rtl or --rtl=LIST)\n");
      c.trace_dir = NULL;
    } else {
      printf("trace: %u RTL switch%s -> %s/sw<id>.fst\n", nrtl, nrtl == 1 ? "" : "es", tdir);
    }
    if (c.trace_dir && e4t_mkdir_p(tdir)) return verdict_fail("cannot create %s", tdir);
  }

  {
    char why[400];
    if (!tables_agree(c.nodes, (c.fab_bug & E4T_BUG_TABLE_SWAP) != 0, why, sizeof why))
      return check_verdict(false, exp, "fabric.tables", why, 0);
  }
  store_t *db = NULL; /* opened before the run: a bad path is a usage error */
  if (a.paths && kind != K_BENCH) return usage_fail("%s", "--bench-paths: only with --test=bench");
  if (a.db && kind != K_RUN && kind != K_UNIFORM16 && kind != K_COMPLEMENT64)
    return usage_fail("--db needs one fabric run (not --test=%s)", a.test);
  if (a.db && store_open(&db, a.db, err, sizeof err)) return usage_fail("--db: %s", err);
  if ((kind == K_MPI || c.mpi) && kind != K_MPI && kind != K_RUN && kind != K_UNIFORM16 &&
      kind != K_COMPLEMENT64)
    return usage_fail("--mpi: one fabric run (not --test=%s)", a.test);
#ifdef FABRIC_MPI
  if (mpi_rank != 0) return kind == K_MPI || c.mpi ? mpi_follow(&c) : 0;
#else
  if (kind == K_MPI)
    return usage_fail("--test=%s needs build/bin/elite4_fabric_mpi under mpirun -np N", "mpi");
#endif
  if (kind == K_MODEL_VS_RTL) return model_vs_rtl(&c, a.rtl, name, dir, exp);
  if (kind == K_MPI) return mpi_vs_one(&c, name, dir, exp);
  if (kind == K_BENCH) return bench(&c, a.paths, dir);
  if (kind == K_SKIP) return skip_vs_noskip(&c, name, dir, exp);
  if (kind == K_RECOFF) return records_off(&c, name, dir, exp);
  if (kind == K_TOPOFILE) return topo_file(&c, name, dir, exp);
  if (kind == K_THREADS) return threads_vs_one(&c, name, dir, exp);

  e4t_fabric_t f;
  e4t_result_t r;
  if (run_fabric(&c, &f, &r, err, sizeof err)) {
    e4t_fabric_free(&f);
    store_close(db);
    return verdict_fail("%s", err);
  }
  e4t_result_print(&f, &r, name, stdout);
  print_status(&f);
  bool wrote = write_out(&f, &r, name, dir);
  if (db && wrote && e4t_store_write(db, &f, &r, name, err, sizeof err)) {
    fprintf(stderr, "elite4_fabric_core_sim: %s\n", err);
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
  else if (kind == K_TREE)
    ok = check_tree(&f, &r, why, sizeof why, id, sizeof id);
  else {
    ok = !f.sb.failed;
    if (!ok) snprintf(why, sizeof why, "%s", f.sb.fail);
    snprintf(id, sizeof id, "%s", f.sb.fail_id);
  }
  uint64_t fail_at = f.sb.failed ? f.sb.fail_cycle : f.cycle - 1;
  if (ok && (c.pattern == E4T_BITREV || c.pattern == E4T_TRANSPOSE || c.pattern == E4T_REPLAY ||
             c.pattern == E4T_BURSTY)) {
    if (!c.records) {
      printf("check: skip the traffic pattern check (fabric.traffic) needs --records=on\n");
    } else if (!traffic_check(&f, why, sizeof why, &fail_at)) {
      ok = false;
      snprintf(id, sizeof id, "fabric.traffic");
    }
  }
  unsigned ls_sw = 0;
  const bool ls_fail =
      !ok && !strcmp(id, "fabric.lockstep") && sscanf(f.sb.fail, "instance sw%u", &ls_sw) == 1;
  e4t_fabric_free(&f); /* closes the FSTs */
  if (c.trace_dir) write_view(&c, c.trace_dir, c.trace_dir, name, ok ? NULL : &fail_at, ok ? NULL : why);
  if (ls_fail && !c.trace_dir) lockstep_fst(&c, ls_sw, dir, name, fail_at, why);
  if (!wrote) return verdict_fail("cannot write the reports to %s", dir);
  return check_verdict(ok, exp, id, why, fail_at);
}
