/*
 * build/bin/cp_hotspot_sim -- seed 001's single-hop output-generated hotspot
 * with no CM / ECM / E2CM / E2CM-CP, the CP being the block's C model or its
 * Verilated RTL.
 *
 *   cp_hotspot_sim [--test=NAME | --scenario=FILE] [--seed=N] [--out=DIR]
 *                  [--mode=model|rtl] [--n=N] [--cm=none|ecm|e2cm|e2cm-cp]
 *                  [--pause=on|off] [--arrivals=bernoulli|bursty:B] [--scale=short|full]
 *                  [--inject-bug=NAME] [--<key>=<value> ...]
 *   cp_hotspot_sim --list
 *
 * --test=NAME runs regress/scenarios/NAME.scn: a named check (its `check`
 * key says what it asserts) or a plain scenario. Flags are applied after the
 * scenario file, in order, so they override it; any scenario key may be
 * given as --key=value (see regress/scenarios/cp_hotspot_base.scn).
 * --cycles=N is accepted (the regression passes it) and ignored: a run's
 * length is its scenario's simulated time (t_end_ms).
 * --name=NAME only names the run in the rerun line.
 * --expect-fail=check[@N] (negative tests, regress/testlist): the run passes
 * only if the scenario's check fails (N is ignored: a check has no cycle);
 * set-up errors and broken invariants still fail.
 *
 * Output (default build/reports/cp_hotspot/<run>/): timeseries.csv,
 * summary.csv, params.scn. First line `seed: N`, last line `TEST PASSED` or
 * `TEST FAILED: <reason>`.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cphs_check.h"
#include "cphs_cp.h"
#include "cphs_params.h"
#include "cphs_sim.h"
#include "cphs_stats.h"

#ifndef NETCOSIM_SRCDIR
#define NETCOSIM_SRCDIR "."
#endif

static int mkdir_p(const char *path)
{
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

static int verdict_fail(const char *fmt, const char *arg)
{
    if (rerun_line) printf("rerun: %s\n", rerun_line);
    printf("TEST FAILED: ");
    printf(fmt, arg);
    printf("\n");
    return 1;
}

/* The verdict of a check, inverted for --expect-fail=check. */
static int check_verdict(bool ok, const char *expect, const char *prefix, const char *why)
{
    char msg[700];
    if (!expect) {
        if (ok) {
            printf("TEST PASSED\n");
            return 0;
        }
        snprintf(msg, sizeof msg, "%s%s", prefix, why);
        return verdict_fail("%s", msg);
    }
    if (ok) return verdict_fail("%s", "expected the check to fail, and it passed");
    printf("expected failure seen: %s%s\n", prefix, why);
    printf("TEST PASSED\n");
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cp_hotspot_sim [--test=NAME | --scenario=FILE] [--seed=N] [--out=DIR] [--mode=model|rtl]\n"
               "         [--n=N] [--cm=none|ecm|e2cm|e2cm-cp] [--pause=on|off] [--arrivals=bernoulli|bursty:B]\n"
               "         [--scale=short|full] [--inject-bug=NAME] [--<scenario key>=<value> ...]\n"
               "       cp_hotspot_sim --list\n");
}

/* Scenario path for a test name: the source tree's regress/scenarios. */
static void scenario_path(const char *test, char *buf, size_t len)
{
    snprintf(buf, len, "regress/scenarios/%s.scn", test);
    if (access(buf, R_OK)) snprintf(buf, len, "%s/regress/scenarios/%s.scn", NETCOSIM_SRCDIR, test);
}

static void print_summary(const cphs_summary_t *s)
{
    printf("run: %s (%s CP)\n", s->name, s->cm ? (s->rtl ? "RTL" : "model") : "no");
    printf("  TP_aggr pre-hotspot %.4f, steady state %.4f; TP_hot hotspot %.4f, steady state %.4f\n",
           s->tp_aggr_pre, s->tp_aggr_ss, s->tp_hot_hot, s->tp_hot_ss);
    printf("  Q_hot steady state: mean %.0f B, 1-ms means [%.0f, %.0f] B, instantaneous [%.0f, %.0f] B; peak %.0f B\n",
           s->q_ss_mean, s->q_ss_bin_min, s->q_ss_bin_max, s->q_ss_min, s->q_ss_max, s->q_peak);
    printf("  hot flows' occupancy (steady state): mean %.0f B, range [%.0f, %.0f] B, %.0f %% in the flows band\n",
           s->flow_mean, s->flow_min, s->flow_max, 100 * s->flow_in_band);
    printf("  drops %" PRIu64 " (%" PRIu64 " during the hotspot), lost offered load %.4f, recovery %.1f ms\n",
           s->drops, s->drops_hot, s->lost_frac, s->recovery_ms);
    printf("  BCN neg %" PRIu64 " pos %" PRIu64 " max %" PRIu64 " per-flow %" PRIu64 "; limiters created %" PRIu64
           "; CP cycles %" PRIu64 "\n",
           s->bcn_neg, s->bcn_pos, s->bcn_max, s->fbcn, s->limiters_created, s->cp_cycles);
    printf("events: %" PRIu64 "\n", s->events);
    printf("wall_s: %.3f  events_per_s: %.0f  sim_s_per_wall_s: %.6f\n", s->wall_s, s->events_per_s,
           s->sim_per_wall);
}

/* Write timeseries.csv, summary.csv and params.scn of a run into dir. */
static int write_outputs(const char *dir, const cphs_params_t *p, const cphs_result_t *r)
{
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
static int run_once(const cphs_params_t *p, const char *dir, cphs_result_t *r)
{
    if (cphs_sim_run(p, r)) return -1;
    print_summary(&r->sum);
    if (write_outputs(dir, p, r)) {
        fprintf(stderr, "cp_hotspot: cannot write outputs to %s\n", dir);
        return -1;
    }
    printf("out: %s\n", dir);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    cphs_params_t p;
    cphs_params_default(&p);
    const char *test = NULL, *scen = NULL, *out = NULL, *name = NULL, *bug = NULL, *expect = NULL;
    char err[512];
    /* First pass: what to load, and the run-level flags. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--list")) {
            printf("cp_hotspot_nocm_drops    no CM, PAUSE off: Q_hot fills the partitions, frames dropped\n"
                   "cp_hotspot_ecm_band      ECM: Q_hot in a band around Qeq, TP_hot at the hot service rate\n"
                   "cp_hotspot_e2cm_flows    E2CM: hot flows' occupancies near Qeq,flow\n"
                   "cp_hotspot_model_vs_rtl  ECM N=16 short run: model and RTL CPs give identical results\n"
                   "(or any regress/scenarios/<name>.scn)\n");
            return 0;
        }
        if (!strncmp(a, "--test=", 7)) test = a + 7;
        else if (!strncmp(a, "--scenario=", 11)) scen = a + 11;
        else if (!strncmp(a, "--out=", 6)) out = a + 6;
        else if (!strncmp(a, "--name=", 7)) name = a + 7;
        else if (!strncmp(a, "--inject-bug=", 13)) bug = a + 13;
        else if (!strncmp(a, "--expect-fail=", 14)) expect = a + 14;
    }
    /* The seed is printed first, whatever happens next. */
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--seed=", 7)) {
            char *end;
            errno = 0;
            seed = strtoull(argv[i] + 7, &end, 0);
            if (errno || *end || argv[i][7] == '-') {
                printf("seed: %s\n", argv[i] + 7);
                return verdict_fail("bad --seed '%s'", argv[i] + 7);
            }
        }
    printf("seed: %" PRIu64 "\n", seed);
    static char rerun[4096];
    size_t k = (size_t)snprintf(rerun, sizeof rerun, "%s --seed=%" PRIu64, argv[0], seed);
    for (int i = 1; i < argc && k < sizeof rerun; i++)
        if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--name=", 7) && strncmp(argv[i], "--out=", 6))
            k += (size_t)snprintf(rerun + k, sizeof rerun - k, " %s", argv[i]);
    rerun_line = rerun;
    (void)name;

    char path[1100];
    if (test) {
        scenario_path(test, path, sizeof path);
        if (access(path, R_OK)) return verdict_fail("no check or scenario '%s' (see --list)", test);
        scen = path;
    }
    if (scen && cphs_params_load(&p, scen, err, sizeof err)) return verdict_fail("%s", err);
    /* Second pass: overrides, in order. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--test=", 7) || !strncmp(a, "--scenario=", 11) || !strncmp(a, "--out=", 6) ||
            !strncmp(a, "--name=", 7) || !strncmp(a, "--inject-bug=", 13) || !strncmp(a, "--cycles=", 9) ||
            !strncmp(a, "--expect-fail=", 14))
            continue;
        if (strncmp(a, "--", 2) || !strchr(a, '=')) return verdict_fail("unknown argument '%s'", a);
        char key[64];
        const char *eq = strchr(a, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - a - 2), a + 2);
        for (char *c = key; *c; c++)
            if (*c == '-') *c = '_';
        if (cphs_params_set(&p, key, eq + 1, err, sizeof err)) return verdict_fail("%s", err);
    }
    p.seed = seed;
    if (expect && strcmp(expect, "check") && strncmp(expect, "check@", 6))
        return verdict_fail("--expect-fail=%s: only 'check' (a named check's verdict) can be expected to fail", expect);
    if (bug) {
        const char *const *names = cphs_cp_bug_names();
        p.inject_bug = 0;
        for (unsigned b = 1; names && names[b]; b++)
            if (!strcmp(names[b], bug)) p.inject_bug = b;
        if (!p.inject_bug) {
            printf("the CP model's planted bugs:");
            for (unsigned b = 1; names && names[b]; b++) printf(" %s", names[b]);
            printf("\n");
            return verdict_fail("the CP model has no planted bug '%s'", bug);
        }
        snprintf(p.inject_bug_name, sizeof p.inject_bug_name, "%s", bug);
    }
    if (!p.name[0]) cphs_params_autoname(&p);
    if (cphs_params_check(&p, err, sizeof err)) return verdict_fail("%s", err);
    char dir[1100];
    if (out) snprintf(dir, sizeof dir, "%s", out);
    else snprintf(dir, sizeof dir, "build/reports/cp_hotspot/%s", p.name);

    char why[512] = "";
    if (p.check == CPHS_CHECK_MODEL_VS_RTL) {
        /* The same run twice, every CP output of every cycle hashed. */
        if (p.cm == CPHS_CM_NONE) return verdict_fail("%s", "model_vs_rtl needs a CM scheme (no CP with cm=none)");
        cphs_params_t pm = p, pr = p;
        pm.rtl = false;
        pr.rtl = true;
        pm.digest = pr.digest = true;
        pr.inject_bug = 0; /* a planted bug goes into the model only */
        cphs_result_t rm, rr;
        char dm[1200], dr[1200];
        snprintf(dm, sizeof dm, "%s/model", dir);
        snprintf(dr, sizeof dr, "%s/rtl", dir);
        if (run_once(&pm, dm, &rm)) return verdict_fail("%s", "model run could not be set up");
        if (run_once(&pr, dr, &rr)) {
            cphs_result_free(&rm);
            return verdict_fail("%s", "RTL run could not be set up");
        }
        int ok = 1;
        if (rm.err[0]) snprintf(why, sizeof why, "model run: %s", rm.err), ok = 0;
        else if (rr.err[0]) snprintf(why, sizeof why, "RTL run: %s", rr.err), ok = 0;
        else if (!cphs_summary_same(&rm.sum, &rr.sum, why, sizeof why)) ok = 0;
        printf("check: %-4s model and RTL summaries and CP output digests identical (%016" PRIx64 " / %016" PRIx64 ")\n",
               ok ? "ok" : "FAIL", rm.sum.digest, rr.sum.digest);
        cphs_result_free(&rm);
        cphs_result_free(&rr);
        return check_verdict(ok, expect, "model vs RTL: ", why);
    }

    cphs_result_t r;
    if (run_once(&p, dir, &r)) return verdict_fail("%s", "run could not be set up or written");
    if (r.err[0]) {
        snprintf(why, sizeof why, "%s", r.err);
        cphs_result_free(&r);
        return verdict_fail("invariant: %s", why);
    }
    bool ok = cphs_check_run(&p, &r.sum, why, sizeof why);
    cphs_result_free(&r);
    if (expect && p.check == CPHS_CHECK_NONE) return verdict_fail("%s", "--expect-fail=check on a scenario without a check");
    return check_verdict(ok, expect, "", why);
}
