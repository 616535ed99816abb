/* The lockstep engine. See docs/cosim.md for the cycle contract.
 *
 * Per cycle: the test drives the inputs; the C model evaluates (pure) and the
 * Verilated RTL settles with the same inputs; every output is compared; the
 * test's scoreboard sees the reference outputs; then both take the clock edge.
 * On the first difference the run stops, is repeated deterministically with
 * an FST trace over the cycles before it, and a GTKWave view with a marker on
 * the failing cycle is written.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "waves.h"

#include "clock.h"
#define CYCLE_NS NETCOSIM_CYCLE_NS

typedef enum { FAIL_NONE, FAIL_MISMATCH, FAIL_CHECK, FAIL_FINISH, FAIL_ASSERT, FAIL_SETUP } fail_kind_t;

typedef struct {
  fail_kind_t kind;
  uint64_t cycle; /* failing cycle */
  int port;       /* first mismatching output */
  char what[128]; /* what failed: output port, check:<id> or assert:<label> */
  char msg[1024];
  uint64_t cycles_run;
  double wall_s;
} run_result_t;

const char *sim_mode_name(sim_mode_t m) {
  static const char *const names[] = {"lockstep", "netlist", "model", "rtl", "stimulus"};
  return names[m];
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- port values ---------------------------------------------------------- */

uint64_t cosim_port_get(const cosim_port_t *p, const void *s) {
  uint64_t v = 0;
  memcpy(&v, (const char *)s + p->offset, p->bytes < 8 ? p->bytes : 8); /* little-endian host */
  return p->width >= 64 ? v : v & ((1ULL << p->width) - 1);
}

void cosim_port_set(const cosim_port_t *p, void *s, uint64_t v) {
  if (p->width < 64) v &= (1ULL << p->width) - 1;
  memcpy((char *)s + p->offset, &v, p->bytes < 8 ? p->bytes : 8);
}

unsigned cosim_port_width(const cosim_glue_t *g, const char *name) {
  for (unsigned i = 0; i < g->n_in; i++)
    if (!strcmp(g->in_ports[i].name, name)) return g->in_ports[i].width;
  for (unsigned i = 0; i < g->n_out; i++)
    if (!strcmp(g->out_ports[i].name, name)) return g->out_ports[i].width;
  return 0;
}

/* Clear the bits above a port's width, so that both sides see the same value
 * whatever the stimulus wrote (Verilated code assumes clean upper bits). */
static void mask_ports(const cosim_port_t *ps, unsigned n, void *s) {
  for (unsigned i = 0; i < n; i++) {
    const cosim_port_t *p = &ps[i];
    if (p->width <= 64) {
      cosim_port_set(p, s, cosim_port_get(p, s));
    } else {
      uint32_t *w = (uint32_t *)((char *)s + p->offset);
      unsigned nw = (p->width + 31) / 32, top = p->width % 32;
      if (top) w[nw - 1] &= (1u << top) - 1;
    }
  }
}

static bool port_equal(const cosim_port_t *p, const void *a, const void *b) {
  if (p->width <= 64) return cosim_port_get(p, a) == cosim_port_get(p, b);
  const uint32_t *x = (const uint32_t *)((const char *)a + p->offset);
  const uint32_t *y = (const uint32_t *)((const char *)b + p->offset);
  unsigned nw = (p->width + 31) / 32, top = p->width % 32;
  for (unsigned i = 0; i < nw; i++) {
    uint32_t m = (i == nw - 1 && top) ? (1u << top) - 1 : 0xffffffffu;
    if ((x[i] & m) != (y[i] & m)) return false;
  }
  return true;
}

/* Hex, most significant word first, '_' between 32-bit words of wide ports. */
static void port_fmt(const cosim_port_t *p, const void *s, char *buf, size_t n) {
  if (p->width <= 64) {
    snprintf(buf, n, "0x%" PRIx64, cosim_port_get(p, s));
    return;
  }
  const uint32_t *w = (const uint32_t *)((const char *)s + p->offset);
  unsigned nw = (p->width + 31) / 32;
  size_t k = (size_t)snprintf(buf, n, "0x");
  for (unsigned i = nw; i-- > 0 && k < n;)
    k += (size_t)snprintf(buf + k, n - k, i == nw - 1 ? "%x" : "_%08x", w[i]);
}

static void print_vector(const cosim_port_t *ps, unsigned n, const void *s, const char *indent) {
  char v[160];
  printf("%s", indent);
  for (unsigned i = 0; i < n; i++) {
    port_fmt(&ps[i], s, v, sizeof v);
    printf("%s%s=%s", i ? " " : "", ps[i].name, v);
  }
  printf("\n");
}

/* --- one run --------------------------------------------------------------- */

static bool uses_model(sim_mode_t m) { return m == MODE_LOCKSTEP || m == MODE_NETLIST || m == MODE_MODEL; }
static bool uses_rtl(sim_mode_t m) { return m == MODE_LOCKSTEP || m == MODE_NETLIST || m == MODE_RTL; }

/* The model's outputs of the last `ring` traced cycles, for the merged dump. */
typedef struct {
  char *outs;
  uint64_t ring, first, n;
} model_rec_t;

/* Runs cycles [0, stop_after]; traces the RTL from trace_from when trace_path
 * is set (and records the model's outputs from there in rec, if not NULL).
 * quiet: no per-failure printing (used for the waveform rerun). */
static void run_once(const sim_opts_t *o, const char *trace_path, uint64_t trace_from, uint64_t stop_after,
                     bool quiet, model_rec_t *rec, run_result_t *res) {
  const cosim_test_t *t = o->test;
  const cosim_glue_t *g = t->target->glue;
  const cosim_model_ops_t *mo = &t->target->model;
  memset(res, 0, sizeof *res);
  res->port = -1;

  const cosim_rtl_ops_t *ro = NULL;
  if (uses_rtl(o->mode)) {
    ro = o->mode == MODE_NETLIST ? g->netlist : &g->rtl;
    if (!ro) {
      res->kind = FAIL_SETUP;
      /* not a gate target, or a `gate T nightly` one in the sanitizer build (docs/cosim.md) */
      snprintf(res->msg, sizeof res->msg,
               "target %s has no netlist in this binary (a `gate %s nightly` target is only in "
               "build/bin/%s_netlist_sim, make build-netlist; other targets have none)",
               g->name, g->name, g->block);
      return;
    }
    if (!ro->create) { /* a heavy target in the sanitizer build (docs/cosim.md) */
      res->kind = FAIL_SETUP;
      snprintf(res->msg, sizeof res->msg,
               "target %s's RTL is not in this binary (a heavy target: only build/bin/%s_sim has it; "
               "model mode runs here)",
               g->name, g->block);
      return;
    }
  }

  void *model = NULL, *rtl = NULL;
  if (uses_model(o->mode) && !(model = mo->create(o->bug))) {
    res->kind = FAIL_SETUP;
    snprintf(res->msg, sizeof res->msg, "model of %s rejected its configuration (see above)", g->name);
    return;
  }
  if (ro) rtl = ro->create(trace_path && trace_from == 0 ? trace_path : NULL, o->seed);

  unsigned hist_n = o->history ? o->history : 1;
  char *in = calloc(1, g->in_size), *out_m = calloc(1, g->out_size);
  char *out_r = calloc(1, g->out_size), *prev = calloc(1, g->out_size);
  char *hist = calloc(hist_n, g->in_size);
  void *ctx = calloc(1, t->ctx_size ? t->ctx_size : 1);
  if (!in || !out_m || !out_r || !prev || !hist || !ctx) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }

  cosim_rng_t rng;
  cosim_rng_seed(&rng, o->seed);
  if (t->init) t->init(ctx, &rng);
  if (model && mo->scramble) mo->scramble(model, o->seed);
  if (model) mo->reset(model);
  if (rtl) ro->reset(rtl);

  cosim_msg_t cm;
  memset(&cm, 0, sizeof cm);
  double t0 = now_s();
  uint64_t c = 0;
  bool ended_early = false;
  for (; c < o->cycles; c++) {
    if (rtl && trace_path && trace_from > 0 && c == trace_from) ro->trace_open(rtl, trace_path);
    memset(in, 0, g->in_size);
    if (!t->drive(ctx, c, &rng, prev, in)) {
      ended_early = true;
      break;
    }
    mask_ports(g->in_ports, g->n_in, in);
    memcpy(hist + (c % hist_n) * g->in_size, in, g->in_size);

    if (model) mo->eval(model, in, out_m);
    if (rtl) ro->step(rtl, in, out_r);
    if (rec && model && c >= trace_from) {
      memcpy(rec->outs + (c % rec->ring) * g->out_size, out_m, g->out_size);
      if (!rec->n++) rec->first = c;
      if (rec->n > rec->ring) rec->n = rec->ring, rec->first++;
    }
    const char *ref = model ? out_m : out_r;

    /* An RTL assertion that fired this cycle fails the run before any compare. */
    const char *label = rtl && ro->assert_failed ? ro->assert_failed(rtl) : NULL;
    if (label) {
      res->kind = FAIL_ASSERT;
      res->cycle = c;
      snprintf(res->what, sizeof res->what, "assert:%s", label);
      snprintf(res->msg, sizeof res->msg, "assertion %s failed at cycle %" PRIu64 " (%s)", label, c,
               o->mode == MODE_NETLIST ? "netlist" : "rtl");
      if (!quiet)
        printf("ASSERTION FAILED at cycle %" PRIu64 " (%.1f ns): %s\n", c, (double)c * CYCLE_NS, label);
      c++;
      break;
    }

    /* Fast path: identical output structs (padding is zero on both sides). */
    if (model && rtl && memcmp(out_m, out_r, g->out_size) != 0) {
      for (unsigned i = 0; i < g->n_out; i++) {
        const cosim_port_t *p = &g->out_ports[i];
        if (p->cond >= 0 && cosim_port_get(&g->out_ports[p->cond], out_m) != (uint64_t)p->cond_value)
          continue; /* annotated don't-care this cycle */
        if (port_equal(p, out_m, out_r)) continue;
        if (res->kind == FAIL_NONE) {
          char e[160], a[160];
          port_fmt(p, out_m, e, sizeof e);
          port_fmt(p, out_r, a, sizeof a);
          res->kind = FAIL_MISMATCH;
          res->cycle = c;
          res->port = (int)i;
          snprintf(res->what, sizeof res->what, "%s", p->name);
          snprintf(res->msg, sizeof res->msg, "output %s differs at cycle %" PRIu64 " (model %s, %s %s)",
                   p->name, c, e, o->mode == MODE_NETLIST ? "netlist" : "rtl", a);
        }
      }
      if (res->kind == FAIL_MISMATCH) {
        if (!quiet) {
          printf("MISMATCH at cycle %" PRIu64 " (%.1f ns)\n", c, (double)c * CYCLE_NS);
          for (unsigned i = 0; i < g->n_out; i++) {
            const cosim_port_t *p = &g->out_ports[i];
            char e[160], a[160];
            port_fmt(p, out_m, e, sizeof e);
            port_fmt(p, out_r, a, sizeof a);
            bool skip =
                p->cond >= 0 && cosim_port_get(&g->out_ports[p->cond], out_m) != (uint64_t)p->cond_value;
            printf("  %-16s expected (model) %-20s actual (%s) %-20s%s\n", p->name, e,
                   o->mode == MODE_NETLIST ? "netlist" : "rtl", a,
                   skip                          ? "  (not compared this cycle)"
                   : port_equal(p, out_m, out_r) ? ""
                                                 : "  <-- differs");
          }
          uint64_t first = c + 1 >= hist_n ? c + 1 - hist_n : 0;
          printf("  inputs of the last %" PRIu64 " cycles:\n", c - first + 1);
          for (uint64_t k = first; k <= c; k++) {
            char pre[48];
            snprintf(pre, sizeof pre, "    cycle %" PRIu64 ": ", k);
            print_vector(g->in_ports, g->n_in, hist + (k % hist_n) * g->in_size, pre);
          }
        }
        c++;
        break;
      }
    }

    if (t->check && !o->no_check && (model || rtl) && !t->check(ctx, c, in, ref, &cm)) {
      res->kind = FAIL_CHECK;
      res->cycle = c;
      snprintf(res->what, sizeof res->what, "check:%s", cm.id[0] ? cm.id : "unnamed");
      snprintf(res->msg, sizeof res->msg, "check failed at cycle %" PRIu64 ": %s", c, cm.text);
      if (!quiet)
        printf("CHECK FAILED at cycle %" PRIu64 " (%.1f ns): %s\n", c, (double)c * CYCLE_NS, cm.text);
      c++;
      break;
    }
    if (model) mo->commit(model);
    memcpy(prev, ref, g->out_size);
    if (c >= stop_after) {
      c++;
      break;
    }
  }
  res->cycles_run = c;
  if (ended_early && !quiet && res->kind == FAIL_NONE)
    printf("note: the test's stimulus ended after %" PRIu64 " of the %" PRIu64 " cycles asked for\n", c,
           o->cycles);
  if (res->kind == FAIL_NONE && c < stop_after && t->finish && !o->no_check && (model || rtl) &&
      !t->finish(ctx, c, &cm)) {
    res->kind = FAIL_FINISH;
    res->cycle = c;
    snprintf(res->what, sizeof res->what, "check:%s", cm.id[0] ? cm.id : "unnamed");
    snprintf(res->msg, sizeof res->msg, "final check failed after %" PRIu64 " cycles: %s", c, cm.text);
    if (!quiet) printf("CHECK FAILED at end: %s\n", cm.text);
  }
  res->wall_s = now_s() - t0;

  if (rtl) ro->destroy(rtl); /* closes the trace */
  if (model) mo->destroy(model);
  free(in);
  free(out_m);
  free(out_r);
  free(prev);
  free(hist);
  free(ctx);
}

/* --- the whole test: run, waveform on failure, expectation, verdict ------- */

static int mkdir_p(const char *path) {
  char tmp[1024];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}

/* The rerun line repeats every option that made this run (make variables
 * from make sim, or the whole command line). */
static void print_rerun(const sim_opts_t *o, const char *name, bool waves) {
  waves = waves && uses_rtl(o->mode); /* mode model has nothing to trace */
  const char *v = o->rerun_vars && *o->rerun_vars ? o->rerun_vars : NULL;
  if (o->rerun)
    printf("rerun: %s%s\n", o->rerun, waves ? " --trace" : "");
  else
    printf("rerun: make sim T=%s SEED=%" PRIu64 "%s%s%s\n", name, o->seed, v ? " " : "", v ? v : "",
           waves ? " WAVES=1" : "");
}

/* MODE=model / MODE=rtl run one side against the test's scoreboard: say what
 * the outcome means for a lockstep failure (README, "Debugging a failure"). */
static void print_verdict(const sim_opts_t *o, bool failed, fail_kind_t kind) {
  if (o->mode != MODE_MODEL && o->mode != MODE_RTL) return;
  bool model = o->mode == MODE_MODEL;
  const char *side = model ? "the C model" : "the RTL", *other = model ? "RTL" : "model";
  if (!o->test->check && !o->test->finish) {
    printf("verdict: %s has no scoreboard, so mode %s checks nothing; only the lockstep judges it\n",
           o->test->name, sim_mode_name(o->mode));
  } else if (o->no_check) {
    printf("verdict: --no-check: mode %s checked nothing\n", sim_mode_name(o->mode));
  } else if (failed && (kind == FAIL_CHECK || kind == FAIL_FINISH)) {
    printf("verdict: %s alone fails the test's scoreboard: %s (or the scoreboard) is wrong%s%s\n", side, side,
           o->bug ? "; planted bug: " : "", o->bug ? o->bug_name : "");
  } else if (!failed) {
    printf("verdict: %s alone passes the test's scoreboard: if the lockstep fails, suspect the %s "
           "(MODE=%s runs it against the same scoreboard)\n",
           side, other, model ? "rtl" : "model");
  }
}

/* After a traced run in lockstep: the RTL dumped to tmp; merge the model's
 * outputs in to give fst (or keep the RTL's alone). True if merged. */
static bool finish_trace(const cosim_glue_t *g, const char *tmp, const char *fst, const model_rec_t *rec) {
  if (rec->n && waves_merge_model(tmp, fst, g, rec->first, rec->n, rec->outs, rec->ring) == 0) {
    unlink(tmp);
    return true;
  }
  if (rename(tmp, fst)) printf("warning: cannot rename %s to %s: %s\n", tmp, fst, strerror(errno));
  return false;
}

int sim_run(const sim_opts_t *o) {
  const cosim_glue_t *g = o->test->target->glue;
  const char *name = o->name ? o->name : o->test->name;
  printf("seed: %" PRIu64 "\n", o->seed);
  printf("test: %s  target: %s (module %s)  mode: %s  cycles: %" PRIu64 "%s%s\n", name, g->name, g->top,
         sim_mode_name(o->mode), o->cycles, o->bug ? "  planted bug: " : "", o->bug ? o->bug_name : "");
  fflush(stdout);

  char fst[1100], view[1100];
  bool can_trace = uses_rtl(o->mode);
  if (o->trace_path && !can_trace)
    printf("note: --trace needs the RTL; mode 'model' runs without a waveform\n");
  if (mkdir_p(o->out_dir)) {
    printf("TEST FAILED: cannot create output directory %s: %s\n", o->out_dir, strerror(errno));
    return 1;
  }
  snprintf(fst, sizeof fst, "%s", o->trace_path ? o->trace_path : "");
  if (!o->trace_path) snprintf(fst, sizeof fst, "%s/waves.fst", o->out_dir);
  snprintf(view, sizeof view, "%s/view.gtkw", o->out_dir);

  /* In lockstep the RTL dumps to a scratch file, merged with the model's
   * outputs into fst afterwards. */
  bool merge = can_trace && uses_model(o->mode);
  char tmp[1200];
  snprintf(tmp, sizeof tmp, "%s.rtl.tmp", fst);
  model_rec_t rec = {.ring = 4096};
  if (merge && !(rec.outs = calloc(rec.ring, g->out_size))) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  bool has_model = false;

  run_result_t r;
  run_once(o, can_trace && o->trace_path ? (merge ? tmp : fst) : NULL, 0, UINT64_MAX, false,
           merge ? &rec : NULL, &r);
  double rate = r.wall_s > 0 ? (double)r.cycles_run / r.wall_s : 0;
  printf("cycles: %" PRIu64 "  wall: %.3f s  rate: %.0f cycles/s\n", r.cycles_run, r.wall_s, rate);

  bool expected = o->expect_what != NULL;
  bool failed = r.kind != FAIL_NONE;
  bool traced = can_trace && o->trace_path;
  if (traced && merge) has_model = finish_trace(g, tmp, fst, &rec);

  /* A waveform of the divergence: repeat the deterministic run with the trace
   * switched on for the window before the failing cycle. */
  if (failed && r.kind != FAIL_SETUP && can_trace && !traced && !expected) {
    uint64_t from = r.cycle > o->wave_window ? r.cycle - o->wave_window : 0;
    run_result_t r2;
    rec.n = 0;
    /* a final-check failure needs the whole run again, to reach the check */
    run_once(o, merge ? tmp : fst, from, r.kind == FAIL_FINISH ? UINT64_MAX : r.cycle, true,
             merge ? &rec : NULL, &r2);
    traced = true;
    if (merge) has_model = finish_trace(g, tmp, fst, &rec);
    if (r2.kind != r.kind || r2.cycle != r.cycle)
      printf("warning: the traced rerun did not fail the same way (%s): the test is not deterministic\n",
             r2.kind == FAIL_NONE ? "it passed" : r2.msg);
  }
  free(rec.outs);
  const char *v = o->rerun_vars && *o->rerun_vars ? o->rerun_vars : NULL;
  if (traced) {
    if (waves_write_view(view, fst, g, name, o->seed, failed ? &r.cycle : NULL, failed ? r.port : -1,
                         has_model, failed ? r.msg : NULL) == 0) {
      printf("waves: %s%s\n", fst, has_model ? "  (model's expected outputs under model.*)" : "");
      printf("view:  gtkwave %s   (or: make waves T=%s SEED=%" PRIu64 "%s%s; make wave-png ... for a PNG)\n",
             view, name, o->seed, v ? " " : "", v ? v : "");
    }
  } else if (failed && !expected && !can_trace) {
    printf("no waveform: mode '%s' has no RTL to trace; rerun without MODE (lockstep) for one\n",
           sim_mode_name(o->mode));
  }
  if (!expected) print_verdict(o, failed, r.kind);

  if (expected) {
    if (!failed) {
      printf("TEST FAILED: expected a failure of %s at cycle %" PRIu64 " but the run passed\n",
             o->expect_what, o->expect_cycle);
      print_rerun(o, name, false);
      return 1;
    }
    const char *what = r.kind == FAIL_SETUP ? "setup" : r.what;
    if (strcmp(what, o->expect_what) != 0 || r.cycle != o->expect_cycle) {
      printf("TEST FAILED: expected a failure of %s at cycle %" PRIu64 ", got %s at cycle %" PRIu64 ": %s\n",
             o->expect_what, o->expect_cycle, what, r.cycle, r.msg);
      print_rerun(o, name, true);
      return 1;
    }
    printf("expected failure caught: %s@%" PRIu64 ": %s\n", what, r.cycle, r.msg);
    printf("TEST PASSED\n");
    return 0;
  }
  if (failed) {
    print_rerun(o, name, true);
    printf("TEST FAILED: %s\n", r.msg);
    return 1;
  }
  if (o->mode == MODE_STIMULUS)
    printf("note: stimulus only (a benchmark baseline): nothing was simulated or checked\n");
  printf("TEST PASSED\n");
  return 0;
}
