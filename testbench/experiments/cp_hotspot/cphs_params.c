/*
 * cp_hotspot -- parameters: defaults (seed 001 where it says, ours where it
 * is silent, each marked), scenario files and flags.
 */
#include "cphs_params.h"

#include "bind/cp.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Time scales. "full": the seed's large-configuration deck has a 400 ms
 * hotspot and plots 0..1 s, so hotspot [100, 500) ms in a 1 s run.
 * "short": the same 400 ms hotspot, [10, 410) ms, with a short warm-up and
 * tail, 500 ms in all. The hotspot is not shorter: at N = 16 the first
 * overshoot of Q_hot (limiters start at line rate and need ~7 halvings each)
 * fills the input partitions, and ECM takes ~100 ms to drain it and another
 * ~100 ms of ringing to settle near Qeq; the steady-state window (the second
 * half, [210, 410) ms) must start after that. */
static void apply_scale(cphs_params_t *p, const char *scale)
{
    snprintf(p->scale, sizeof p->scale, "%s", scale);
    if (!strcmp(scale, "full")) {
        p->warmup_ps = 50 * CPHS_PS_PER_MS;
        p->hot_start_ps = 100 * CPHS_PS_PER_MS;
        p->hot_end_ps = 500 * CPHS_PS_PER_MS;
        p->t_end_ps = 1000 * CPHS_PS_PER_MS;
    } else { /* short */
        p->warmup_ps = 5 * CPHS_PS_PER_MS;
        p->hot_start_ps = 10 * CPHS_PS_PER_MS;
        p->hot_end_ps = 410 * CPHS_PS_PER_MS;
        p->t_end_ps = 500 * CPHS_PS_PER_MS;
    }
}

void cphs_params_default(cphs_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->n = 16;                            /* seed: N = 16 (bursty deck) */
    p->hot = 1;                           /* seed: node 1 */
    p->load = 0.85;                       /* seed: 85 % (8.5 Gb/s) */
    p->frame = 1500;                      /* seed: fixed 1500 B */
    p->rlink = 10e9;                      /* seed: 10 Gb/s */
    p->hot_frac = 0.10;                   /* seed: node 1 service rate = 10 % */
    p->arr = CPHS_ARR_BERNOULLI;
    p->burst_us = 12.0;
    apply_scale(p, "short");
    p->bin_ps = CPHS_PS_PER_MS;           /* brief: 1 ms bins */
    p->link_delay_ps = 1 * CPHS_PS_PER_US;/* ours: 1 us (~200 m of fibre); the seed gives none */
    p->cp_latency_ps = 5000;              /* docs/cp.md §10: 2 cycles at 400 MHz */
    p->mem_per_input = 300 * CPHS_KB;     /* seed: M = 300 KB per input */
    p->pause = false;
    p->pause_hi = 260 * CPHS_KB;          /* seed: watermarks 260 / 230 KB */
    p->pause_lo = 230 * CPHS_KB;
    p->ingress = 1500 * CPHS_KB;          /* seed: adapter ingress 1500 KB */
    p->cm = CPHS_CM_NONE;
    p->w = 2;                             /* seed: W = 2 */
    p->qeq = 75 * CPHS_KB;                /* seed: Qeq = 75 KB */
    p->psample = 85899346u;               /* seed: 2 % = round(0.02 * 2^32) */
    p->bcnmax = 260 * CPHS_KB;            /* seed: BCN_MAX threshold 260 KB */
    p->qeq_flow = 15 * CPHS_KB;           /* seed: Qeq,flow 15 KB */
    p->bcnmax_flow = 52 * CPHS_KB;        /* seed: per-flow BCN_MAX 52 KB */
    p->probe_bytes = 75 * CPHS_KB;        /* ours: one probe per 75 KB, the sampling interval */
    p->bucket_bytes = 1500;               /* ours: a limiter may bank one frame of credit */
    p->seed = 1;
    p->check = CPHS_CHECK_NONE;
    p->band_lo = 0.0;
    p->band_hi = 3.0;
    p->tp_tol = 0.01;
    p->flow_lo = 0.2;
    p->flow_hi = 1.0;
    p->flow_frac = 0.75;
    p->drop_fill = 0.9;
}

const char *cphs_cm_name(cphs_cm_t cm)
{
    static const char *const names[] = {"none", "ecm", "e2cm", "e2cm-cp"};
    return names[cm];
}

void cphs_arr_name(const cphs_params_t *p, char *buf, size_t len)
{
    if (p->arr == CPHS_ARR_BERNOULLI) snprintf(buf, len, "bern");
    else snprintf(buf, len, "b%g", p->burst_us);
}

void cphs_params_autoname(cphs_params_t *p)
{
    char a[32];
    cphs_arr_name(p, a, sizeof a);
    snprintf(p->name, sizeof p->name, "n%u_%s_pause%s_%s_%s", p->n, a, p->pause ? "on" : "off",
             cphs_cm_name(p->cm), p->scale);
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool num(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || end == s) return false;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return false;
    *v = x;
    return true;
}

/* Keys with a numeric value: name, field kind, scale to the stored unit. */
typedef enum { K_U32, K_UINT, K_U64, K_DBL, K_PS, K_BOOL } kind_t;
typedef struct {
    const char *key;
    kind_t kind;
    size_t off;
    double scale; /* stored = value * scale */
} key_t_;
#define F(field) offsetof(cphs_params_t, field)
static const key_t_ keys[] = {
    {"n", K_UINT, F(n), 1},
    {"hot_node", K_UINT, F(hot), 1},
    {"load", K_DBL, F(load), 1},
    {"frame_bytes", K_U32, F(frame), 1},
    {"rlink_gbps", K_DBL, F(rlink), 1e9},
    {"hot_frac", K_DBL, F(hot_frac), 1},
    {"burst_us", K_DBL, F(burst_us), 1},
    {"warmup_ms", K_PS, F(warmup_ps), 1e9},
    {"hot_start_ms", K_PS, F(hot_start_ps), 1e9},
    {"hot_end_ms", K_PS, F(hot_end_ps), 1e9},
    {"t_end_ms", K_PS, F(t_end_ps), 1e9},
    {"bin_ms", K_PS, F(bin_ps), 1e9},
    {"link_delay_us", K_PS, F(link_delay_ps), 1e6},
    {"cp_latency_ns", K_PS, F(cp_latency_ps), 1e3},
    {"mem_kb", K_U32, F(mem_per_input), CPHS_KB},
    {"pause_hi_kb", K_U32, F(pause_hi), CPHS_KB},
    {"pause_lo_kb", K_U32, F(pause_lo), CPHS_KB},
    {"ingress_kb", K_U32, F(ingress), CPHS_KB},
    {"w", K_UINT, F(w), 1},
    {"qeq_kb", K_U32, F(qeq), CPHS_KB},
    {"psample", K_U32, F(psample), 1},
    {"bcnmax_kb", K_U32, F(bcnmax), CPHS_KB},
    {"qeq_flow_kb", K_U32, F(qeq_flow), CPHS_KB},
    {"bcnmax_flow_kb", K_U32, F(bcnmax_flow), CPHS_KB},
    {"probe_kb", K_U32, F(probe_bytes), CPHS_KB},
    {"bucket_bytes", K_U32, F(bucket_bytes), 1},
    {"seed", K_U64, F(seed), 1},
    {"digest", K_BOOL, F(digest), 1},
    {"band_lo", K_DBL, F(band_lo), 1},
    {"band_hi", K_DBL, F(band_hi), 1},
    {"tp_tol", K_DBL, F(tp_tol), 1},
    {"flow_lo", K_DBL, F(flow_lo), 1},
    {"flow_hi", K_DBL, F(flow_hi), 1},
    {"flow_frac", K_DBL, F(flow_frac), 1},
    {"drop_fill", K_DBL, F(drop_fill), 1},
};
#undef F

int cphs_params_set(cphs_params_t *p, const char *key, const char *val, char *err, size_t errlen)
{
    if (!strcmp(key, "name")) {
        snprintf(p->name, sizeof p->name, "%s", val);
        return 0;
    }
    if (!strcmp(key, "scale")) {
        if (strcmp(val, "short") && strcmp(val, "full"))
            return fail(err, errlen, "scale '%s': expected short or full", val);
        apply_scale(p, val);
        return 0;
    }
    if (!strcmp(key, "cm")) {
        for (int c = CPHS_CM_NONE; c <= CPHS_CM_E2CM_CP; c++)
            if (!strcmp(val, cphs_cm_name((cphs_cm_t)c))) {
                p->cm = (cphs_cm_t)c;
                return 0;
            }
        return fail(err, errlen, "cm '%s': expected none, ecm, e2cm or e2cm-cp", val);
    }
    if (!strcmp(key, "pause")) {
        if (!strcmp(val, "on")) p->pause = true;
        else if (!strcmp(val, "off")) p->pause = false;
        else return fail(err, errlen, "pause '%s': expected on or off", val);
        return 0;
    }
    if (!strcmp(key, "arrivals")) {
        double b;
        if (!strcmp(val, "bernoulli")) p->arr = CPHS_ARR_BERNOULLI;
        else if (!strncmp(val, "bursty:", 7) && num(val + 7, &b) && b > 0) {
            p->arr = CPHS_ARR_BURSTY;
            p->burst_us = b;
        } else return fail(err, errlen, "arrivals '%s': expected bernoulli or bursty:<mean burst us>", val);
        return 0;
    }
    if (!strcmp(key, "mode")) {
        if (!strcmp(val, "model")) p->rtl = false;
        else if (!strcmp(val, "rtl")) p->rtl = true;
        else return fail(err, errlen, "mode '%s': expected model or rtl", val);
        return 0;
    }
    if (!strcmp(key, "check")) {
        static const char *const c[] = {"none", "drops", "band", "flows", "model_vs_rtl"};
        for (int k = 0; k < 5; k++)
            if (!strcmp(val, c[k])) {
                p->check = (cphs_check_t)k;
                return 0;
            }
        return fail(err, errlen, "check '%s': expected none, drops, band, flows or model_vs_rtl", val);
    }
    if (!strcmp(key, "inject_bug")) {
        snprintf(p->inject_bug_name, sizeof p->inject_bug_name, "%s", val);
        return 0;
    }
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (strcmp(key, keys[k].key)) continue;
        double v;
        if (!num(val, &v)) return fail(err, errlen, "%s '%s': expected a number", key, val);
        void *f = (char *)p + keys[k].off;
        double s = v * keys[k].scale;
        switch (keys[k].kind) {
        case K_DBL: *(double *)f = s; break;
        case K_BOOL: *(bool *)f = v != 0; break;
        case K_U32:
        case K_UINT:
            if (s < 0 || s > 4294967295.0) return fail(err, errlen, "%s %s out of range", key, val);
            if (keys[k].kind == K_U32) *(uint32_t *)f = (uint32_t)llround(s);
            else *(unsigned *)f = (unsigned)llround(s);
            break;
        case K_U64:
        case K_PS:
            if (s < 0 || s > 1.8e19) return fail(err, errlen, "%s %s out of range", key, val);
            *(uint64_t *)f = (uint64_t)llround(s);
            break;
        }
        return 0;
    }
    return fail(err, errlen, "unknown key '%s'", key);
}

int cphs_params_load(cphs_params_t *p, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, errlen, "cannot open scenario %s: %s", path, strerror(errno));
    char line[512], e2[256];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char *eq = strchr(line, '=');
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (!*s) continue;
        if (!eq) {
            fclose(f);
            return fail(err, errlen, "%s:%d: expected key = value", path, ln);
        }
        *eq = 0;
        char *k = s, *v = eq + 1;
        for (char *t = eq - 1; t >= k && isspace((unsigned char)*t); t--) *t = 0;
        while (isspace((unsigned char)*v)) v++;
        for (char *t = v + strlen(v) - 1; t >= v && isspace((unsigned char)*t); t--) *t = 0;
        if (cphs_params_set(p, k, v, e2, sizeof e2)) {
            fclose(f);
            return fail(err, errlen, "%s:%d: %s", path, ln, e2);
        }
    }
    fclose(f);
    return 0;
}

int cphs_params_check(const cphs_params_t *p, char *err, size_t errlen)
{
    if (p->n < 3 || p->n > CPHS_MAX_N) return fail(err, errlen, "n=%u must be 3..%u", p->n, CPHS_MAX_N);
    if (p->hot >= p->n) return fail(err, errlen, "hot_node=%u must be < n=%u", p->hot, p->n);
    if (!(p->load > 0 && p->load < 1)) return fail(err, errlen, "load=%g must be in (0, 1)", p->load);
    if (p->frame < 64 || p->frame > 9216) return fail(err, errlen, "frame_bytes=%u must be 64..9216", p->frame);
    if (!(p->hot_frac > 0 && p->hot_frac <= 1)) return fail(err, errlen, "hot_frac=%g must be in (0, 1]", p->hot_frac);
    if (p->arr == CPHS_ARR_BURSTY && !(p->burst_us > 0)) return fail(err, errlen, "burst_us must be > 0");
    if (!(p->warmup_ps <= p->hot_start_ps && p->hot_start_ps < p->hot_end_ps && p->hot_end_ps <= p->t_end_ps))
        return fail(err, errlen, "times must satisfy warmup <= hot_start < hot_end <= t_end");
    if (p->bin_ps == 0 || p->t_end_ps / p->bin_ps > 10000000)
        return fail(err, errlen, "bin_ms must be > 0 and give at most 1e7 bins");
    if (p->mem_per_input < p->frame) return fail(err, errlen, "mem_kb must hold a frame");
    if (p->pause && !(p->pause_lo < p->pause_hi && p->pause_hi <= p->mem_per_input))
        return fail(err, errlen, "pause watermarks must satisfy lo < hi <= mem");
    if (p->ingress / (p->n - 1) < p->frame)
        return fail(err, errlen, "ingress_kb=%u gives a VOQ smaller than a frame at n=%u",
                    p->ingress / CPHS_KB, p->n);
    if (p->cm != CPHS_CM_NONE) {
        if (p->w > 15) return fail(err, errlen, "w=%u must be 0..15", p->w);
        /* The CP's own validation (the checks its APPLY does), so a bad scenario gets
           the message naming the register, e.g. "cp: BCNMAX=... must be above QEQ=...". */
        cp_regs_t r;
        cp_regs_default(&r);
        r.mode = CP_MODE_ECM;
        r.qeq = p->qeq;
        r.w = p->w;
        r.bcnmax = p->bcnmax;
        r.qeq_flow = p->qeq_flow;
        r.bcnmax_flow = p->bcnmax_flow;
        char why[200];
        if (cp_regs_check(&r, (unsigned)CP_EXP_PARAM_QW, why, sizeof why))
            return fail(err, errlen, "%s", why);
        if ((p->cm == CPHS_CM_E2CM) && p->probe_bytes == 0)
            return fail(err, errlen, "e2cm needs probe_kb > 0");
    }
    return 0;
}

void cphs_params_dump(const cphs_params_t *p, FILE *f)
{
    char a[32];
    cphs_arr_name(p, a, sizeof a);
    fprintf(f, "name = %s\nscale = %s\n", p->name, p->scale);
    fprintf(f, "cm = %s\npause = %s\n", cphs_cm_name(p->cm), p->pause ? "on" : "off");
    if (p->arr == CPHS_ARR_BERNOULLI) fprintf(f, "arrivals = bernoulli\n");
    else fprintf(f, "arrivals = bursty:%g\n", p->burst_us);
    fprintf(f, "mode = %s\n", p->rtl ? "rtl" : "model");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const void *v = (const char *)p + keys[k].off;
        fprintf(f, "%s = ", keys[k].key);
        switch (keys[k].kind) {
        case K_DBL: fprintf(f, "%.17g\n", *(const double *)v / keys[k].scale); break;
        case K_BOOL: fprintf(f, "%d\n", *(const bool *)v); break;
        case K_U32: fprintf(f, "%.17g\n", *(const uint32_t *)v / keys[k].scale); break;
        case K_UINT: fprintf(f, "%.17g\n", *(const unsigned *)v / keys[k].scale); break;
        case K_U64: fprintf(f, "%" PRIu64 "\n", *(const uint64_t *)v); break;
        case K_PS: fprintf(f, "%.17g\n", (double)*(const uint64_t *)v / keys[k].scale); break;
        }
    }
}
