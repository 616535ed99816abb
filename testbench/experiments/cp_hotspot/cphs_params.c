/*
 * cp_hotspot -- parameters: defaults (seed 001 where it says, ours where it
 * is silent, each marked), scenario files and flags.
 */
#include "cphs_params.h"

#include "bind/cp.h"
#include "clock.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Time scales. "full": the seed's large-configuration deck has a 400 ms
 * hotspot and plots 0..1 s, so hotspot [100, 500) ms in a 1 s run.
 * "short": the same 400 ms hotspot, [10, 410) ms, with a short warm-up and
 * tail, 500 ms in all. The hotspot is not shorter: at N = 16 the first
 * overshoot of Q_hot (limiters start at line rate and need ~7 halvings each)
 * fills the input partitions, and ECM takes ~100 ms to drain it and another
 * ~100 ms of ringing to settle near Qeq; the steady-state window (the second
 * half, [210, 410) ms) must start after that. */
static void apply_scale(cphs_params_t *p, const char *scale) {
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

void cphs_params_default(cphs_params_t *p) {
  memset(p, 0, sizeof *p);
  p->n = 16;          /* seed: N = 16 (bursty deck) */
  p->hot = 1;         /* seed: node 1 */
  p->load = 0.85;     /* seed: 85 % (8.5 Gb/s) */
  p->frame = 1500;    /* seed: fixed 1500 B */
  p->rlink = 10e9;    /* seed: 10 Gb/s */
  p->hot_frac = 0.10; /* seed: node 1 service rate = 10 % */
  p->arr = CPHS_ARR_BERNOULLI;
  p->burst_us = 12.0;
  apply_scale(p, "short");
  p->bin_ps = CPHS_PS_PER_MS;            /* brief: 1 ms bins */
  p->link_delay_ps = 1 * CPHS_PS_PER_US; /* ours: 1 us (~200 m of fibre); the seed gives none */
  p->cp_latency_ps = CP_BCN_LATENCY * NETCOSIM_CYCLE_PS; /* docs/cp.md §10: 11 cycles of the nominal clock */
  p->cp_flow_extra_ps = (CP_FBCN_LATENCY - CP_BCN_LATENCY) * NETCOSIM_CYCLE_PS; /* per-flow: t+12 */
  p->mem_per_input = 300 * CPHS_KB; /* seed: M = 300 KB per input */
  p->pause = false;
  p->pause_hi = 260 * CPHS_KB; /* seed: watermarks 260 / 230 KB */
  p->pause_lo = 230 * CPHS_KB;
  p->ingress = 1500 * CPHS_KB;    /* seed: adapter ingress 1500 KB */
  p->quench = CPHS_QUENCH_FLOW;   /* seed: per-flow selective source quench when a VOQ is full */
  p->max_limiters = 0;            /* seed: no limit on the number of rate limiters */
  p->egress = 150 * CPHS_KB;      /* seed: adapter egress buffer 150 KB */
  p->adapter_pause = true;        /* seed: adapter PAUSE enabled */
  p->adapter_hyst = 10 * CPHS_KB; /* seed: low = high - 10 KB */
  p->adapter_bug = CPHS_ABUG_NONE;
  cphs_params_derive(p);
  p->cm = CPHS_CM_NONE;
  p->w = 2;                      /* seed: W = 2 */
  p->qeq = 75 * CPHS_KB;         /* seed: Qeq = 75 KB */
  p->psample = 85899346u;        /* seed: 2 % = round(0.02 * 2^32) */
  p->bcnmax = 260 * CPHS_KB;     /* seed: BCN_MAX threshold 260 KB */
  p->qeq_flow = 15 * CPHS_KB;    /* seed: Qeq,flow 15 KB */
  p->bcnmax_flow = 52 * CPHS_KB; /* seed: per-flow BCN_MAX 52 KB */
  p->probe_bytes = 75 * CPHS_KB; /* ours: one probe per 75 KB, the sampling interval */
  p->bucket_bytes = 1500;        /* ours: a limiter may bank one frame of credit */
  p->seed = 1;
  p->check = CPHS_CHECK_NONE;
  p->band_lo = 0.0;
  p->band_hi = 3.0;
  p->tp_tol = 0.01;
  p->flow_lo = 0.2;
  p->flow_hi = 1.0;
  p->flow_frac = 0.75;
  p->drop_fill = 0.9;
  p->quench_cold_max = 0.001;
  p->limiters_min = 2;
}

/* The seed's high watermark is 150 KB - rtt*bw. Ours: rtt = the PAUSE's
 * round trip (2 link delays) plus two frame times: the frame the switch
 * output is sending when the XOFF arrives cannot be stopped, and the frame
 * whose arrival crosses the watermark may cross it by up to a frame (store
 * and forward). Then the buffer never exceeds its size (docs/cp.md §12). */
void cphs_params_derive(cphs_params_t *p) {
  const int k = cphs_params_key_index("adapter_rtt_us");
  if (k >= 0 && p->origin[k][0]) return;
  p->adapter_rtt_ps = 2 * p->link_delay_ps + 2 * (uint64_t)llround((double)p->frame * 8e12 / p->rlink);
}

double cphs_adapter_hi(const cphs_params_t *p) {
  return (double)p->egress - (double)p->adapter_rtt_ps * p->rlink / 8e12;
}
double cphs_adapter_lo(const cphs_params_t *p) { return cphs_adapter_hi(p) - (double)p->adapter_hyst; }

const char *cphs_cm_name(cphs_cm_t cm) {
  static const char *const names[] = {"none", "ecm", "e2cm", "e2cm-cp"};
  return names[cm];
}

void cphs_arr_name(const cphs_params_t *p, char *buf, size_t len) {
  if (p->arr == CPHS_ARR_BERNOULLI)
    snprintf(buf, len, "bern");
  else
    snprintf(buf, len, "b%g", p->burst_us);
}

void cphs_params_autoname(cphs_params_t *p) {
  char a[32];
  cphs_arr_name(p, a, sizeof a);
  snprintf(p->name, sizeof p->name, "n%u_%s_pause%s_%s_%s", p->n, a, p->pause ? "on" : "off",
           cphs_cm_name(p->cm), p->scale);
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* A finite number and nothing else (surrounding blanks allowed). */
static bool num(const char *s, double *v) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno || end == s || !isfinite(x)) return false;
  while (isspace((unsigned char)*end)) end++;
  if (*end) return false;
  *v = x;
  return true;
}

/* Every key. Numeric ones carry their range in the units the user writes
 * (min/max, each inclusive unless the _open flag says otherwise); the
 * stored value is value * scale. Cross-key rules are in cphs_params_check. */
typedef enum { K_U32, K_UINT, K_U64, K_DBL, K_PS, K_BOOL, K_STR } kind_t;
typedef struct {
  const char *key;
  kind_t kind;
  size_t off;
  double scale;  /* stored = value * scale */
  double lo, hi; /* legal range of the value as written */
  bool lo_open;  /* value must be > lo (else >= lo) */
} key_t_;
#define F(field) offsetof(cphs_params_t, field)
#define QMAX_KB  ((double)((1u << CP_EXP_PARAM_QW) - 1u) / CPHS_KB) /* the CP's QW-bit registers */
#define U32_KB   (4294967295.0 / CPHS_KB)
static const key_t_ keys[] = {
    {"name", K_STR, 0, 0, 0, 0, false},
    {"scale", K_STR, 0, 0, 0, 0, false},
    {"cm", K_STR, 0, 0, 0, 0, false},
    {"pause", K_STR, 0, 0, 0, 0, false},
    {"arrivals", K_STR, 0, 0, 0, 0, false},
    {"mode", K_STR, 0, 0, 0, 0, false},
    {"check", K_STR, 0, 0, 0, 0, false},
    {"inject_bug", K_STR, 0, 0, 0, 0, false},
    {"adapter_pause", K_STR, 0, 0, 0, 0, false},
    {"quench", K_STR, 0, 0, 0, 0, false},
    {"adapter_bug", K_STR, 0, 0, 0, 0, false},
    {"n", K_UINT, F(n), 1, 3, CPHS_MAX_N, false},
    {"hot_node", K_UINT, F(hot), 1, 0, CPHS_MAX_N - 1, false},
    {"load", K_DBL, F(load), 1, 0, 0.999999, true},
    {"frame_bytes", K_U32, F(frame), 1, 64, 9216, false},
    /* the reaction point's Rmin is 1 Mb/s and must not exceed Rlink */
    {"rlink_gbps", K_DBL, F(rlink), 1e9, 0.001, 1000, false},
    {"hot_frac", K_DBL, F(hot_frac), 1, 0, 1, true},
    {"burst_us", K_DBL, F(burst_us), 1, 0, 1e6, true},
    {"warmup_ms", K_PS, F(warmup_ps), 1e9, 0, 1e7, false},
    {"hot_start_ms", K_PS, F(hot_start_ps), 1e9, 0, 1e7, false},
    {"hot_end_ms", K_PS, F(hot_end_ps), 1e9, 0, 1e7, true},
    {"t_end_ms", K_PS, F(t_end_ps), 1e9, 0, 1e7, true},
    {"bin_ms", K_PS, F(bin_ps), 1e9, 0, 1e7, true},
    {"link_delay_us", K_PS, F(link_delay_ps), 1e6, 0, 1e6, false},
    {"cp_latency_ns", K_PS, F(cp_latency_ps), 1e3, 0, 1e9, false},
    {"mem_kb", K_U32, F(mem_per_input), CPHS_KB, 0, U32_KB, true},
    {"pause_hi_kb", K_U32, F(pause_hi), CPHS_KB, 0, U32_KB, false},
    {"pause_lo_kb", K_U32, F(pause_lo), CPHS_KB, 0, U32_KB, false},
    {"ingress_kb", K_U32, F(ingress), CPHS_KB, 0, U32_KB, true},
    {"max_limiters", K_UINT, F(max_limiters), 1, 0, CPHS_MAX_N, false},
    {"egress_kb", K_U32, F(egress), CPHS_KB, 0, U32_KB, false},
    {"adapter_rtt_us", K_PS, F(adapter_rtt_ps), 1e6, 0, 1e6, false},
    {"adapter_hyst_kb", K_U32, F(adapter_hyst), CPHS_KB, 0, U32_KB, true},
    {"w", K_UINT, F(w), 1, 0, 15, false},
    {"qeq_kb", K_U32, F(qeq), CPHS_KB, 0, QMAX_KB, true},
    {"psample", K_U32, F(psample), 1, 0, 4294967295.0, false},
    {"bcnmax_kb", K_U32, F(bcnmax), CPHS_KB, 0, QMAX_KB, true},
    {"qeq_flow_kb", K_U32, F(qeq_flow), CPHS_KB, 0, QMAX_KB, true},
    {"bcnmax_flow_kb", K_U32, F(bcnmax_flow), CPHS_KB, 0, QMAX_KB, true},
    {"probe_kb", K_U32, F(probe_bytes), CPHS_KB, 0, U32_KB, false},
    {"bucket_bytes", K_U32, F(bucket_bytes), 1, 0, 4294967295.0, false},
    {"seed", K_U64, F(seed), 1, 0, 0, false},
    {"digest", K_BOOL, F(digest), 1, 0, 1, false},
    {"band_lo", K_DBL, F(band_lo), 1, 0, 1e6, false},
    {"band_hi", K_DBL, F(band_hi), 1, 0, 1e6, false},
    {"tp_tol", K_DBL, F(tp_tol), 1, 0, 1, false},
    {"flow_lo", K_DBL, F(flow_lo), 1, 0, 1e6, false},
    {"flow_hi", K_DBL, F(flow_hi), 1, 0, 1e6, false},
    {"flow_frac", K_DBL, F(flow_frac), 1, 0, 1, false},
    {"drop_fill", K_DBL, F(drop_fill), 1, 0, 1, false},
    {"quench_cold_max", K_DBL, F(quench_cold_max), 1, 0, 1, false},
    {"limiters_min", K_UINT, F(limiters_min), 1, 0, CPHS_MAX_N, false},
};
#undef F
#define NKEYS (sizeof keys / sizeof keys[0])
_Static_assert(NKEYS <= CPHS_MAX_KEYS, "raise CPHS_MAX_KEYS");

int cphs_params_key_index(const char *key) {
  for (size_t k = 0; k < NKEYS; k++)
    if (!strcmp(key, keys[k].key)) return (int)k;
  return -1;
}

const char *cphs_params_key_name(int k) { return k >= 0 && (size_t)k < NKEYS ? keys[k].key : "?"; }

/* Where a key was set, for messages. */
static const char *where(const cphs_params_t *p, const char *key) {
  const int k = cphs_params_key_index(key);
  return k >= 0 && p->origin[k][0] ? p->origin[k] : "default";
}

static bool is_time_key(int k) {
  const char *n = cphs_params_key_name(k);
  return !strcmp(n, "warmup_ms") || !strcmp(n, "hot_start_ms") || !strcmp(n, "hot_end_ms") ||
         !strcmp(n, "t_end_ms");
}

/* The value of one key; err gets "<key>: <reason>". */
static int set_value(cphs_params_t *p, int k, const char *val, char *err, size_t errlen) {
  const char *key = keys[k].key;
  if (!*val) return fail(err, errlen, "%s: empty value", key);
  if (!strcmp(key, "name")) {
    for (const char *c = val; *c; c++)
      if (!isalnum((unsigned char)*c) && !strchr("_-.", *c))
        return fail(err, errlen,
                    "name: '%s' may only hold letters, digits, '_', '-' and '.' (it names a directory)", val);
    if (strlen(val) >= sizeof p->name)
      return fail(err, errlen, "name: longer than %zu characters", sizeof p->name - 1);
    snprintf(p->name, sizeof p->name, "%s", val);
    return 0;
  }
  if (!strcmp(key, "scale")) {
    if (strcmp(val, "short") && strcmp(val, "full"))
      return fail(err, errlen, "scale: '%s' is not short or full", val);
    /* scale sets the four times: a time given before it would be lost silently */
    for (int t = 0; t < (int)NKEYS; t++)
      if (is_time_key(t) && p->origin[t][0])
        return fail(err, errlen, "scale: resets %s, which %s already set; give scale first", keys[t].key,
                    p->origin[t]);
    apply_scale(p, val);
    return 0;
  }
  if (!strcmp(key, "cm")) {
    for (int c = CPHS_CM_NONE; c <= CPHS_CM_E2CM_CP; c++)
      if (!strcmp(val, cphs_cm_name((cphs_cm_t)c))) {
        p->cm = (cphs_cm_t)c;
        return 0;
      }
    return fail(err, errlen, "cm: '%s' is not none, ecm, e2cm or e2cm-cp", val);
  }
  if (!strcmp(key, "pause")) {
    if (!strcmp(val, "on"))
      p->pause = true;
    else if (!strcmp(val, "off"))
      p->pause = false;
    else
      return fail(err, errlen, "pause: '%s' is not on or off", val);
    return 0;
  }
  if (!strcmp(key, "arrivals")) {
    double b;
    if (!strcmp(val, "bernoulli"))
      p->arr = CPHS_ARR_BERNOULLI;
    else if (!strncmp(val, "bursty:", 7) && num(val + 7, &b) && b > 0 && b <= 1e6) {
      p->arr = CPHS_ARR_BURSTY;
      p->burst_us = b;
    } else
      return fail(err, errlen, "arrivals: '%s' is not bernoulli or bursty:<mean burst in us, (0, 1e6]>", val);
    return 0;
  }
  if (!strcmp(key, "adapter_pause")) {
    if (!strcmp(val, "on"))
      p->adapter_pause = true;
    else if (!strcmp(val, "off"))
      p->adapter_pause = false;
    else
      return fail(err, errlen, "adapter_pause: '%s' is not on or off", val);
    return 0;
  }
  if (!strcmp(key, "quench")) {
    if (!strcmp(val, "flow"))
      p->quench = CPHS_QUENCH_FLOW;
    else if (!strcmp(val, "node"))
      p->quench = CPHS_QUENCH_NODE;
    else
      return fail(err, errlen, "quench: '%s' is not flow or node", val);
    return 0;
  }
  if (!strcmp(key, "adapter_bug")) {
    static const char *const b[] = {"none", "xoff_late", "xon_early"};
    for (int i = 0; i < 3; i++)
      if (!strcmp(val, b[i])) {
        p->adapter_bug = (cphs_abug_t)i;
        return 0;
      }
    return fail(err, errlen, "adapter_bug: '%s' is not none, xoff_late or xon_early", val);
  }
  if (!strcmp(key, "mode")) {
    if (!strcmp(val, "model"))
      p->rtl = false;
    else if (!strcmp(val, "rtl"))
      p->rtl = true;
    else
      return fail(err, errlen, "mode: '%s' is not model or rtl", val);
    return 0;
  }
  if (!strcmp(key, "check")) {
    static const char *const c[] = {"none",         "drops",  "band",   "flows",
                                    "model_vs_rtl", "egress", "quench", "limiters"};
    for (int i = 0; i < 8; i++)
      if (!strcmp(val, c[i])) {
        p->check = (cphs_check_t)i;
        return 0;
      }
    return fail(err, errlen,
                "check: '%s' is not none, drops, band, flows, model_vs_rtl, egress, quench or limiters", val);
  }
  if (!strcmp(key, "inject_bug")) {
    if (strlen(val) >= sizeof p->inject_bug_name) return fail(err, errlen, "inject_bug: name too long");
    snprintf(p->inject_bug_name, sizeof p->inject_bug_name, "%s", val);
    return 0;
  }
  void *f = (char *)p + keys[k].off;
  if (keys[k].kind == K_U64) { /* the seed: all 64 bits, so not through a double */
    char *end;
    errno = 0;
    unsigned long long x = strtoull(val, &end, 0);
    if (errno || end == val || *end || val[0] == '-')
      return fail(err, errlen, "%s: '%s' is not an unsigned 64-bit integer", key, val);
    *(uint64_t *)f = x;
    return 0;
  }
  double v;
  if (!num(val, &v)) return fail(err, errlen, "%s: '%s' is not a number", key, val);
  if (keys[k].kind == K_BOOL) {
    if (v != 0 && v != 1) return fail(err, errlen, "%s: '%s' is not 0 or 1", key, val);
    *(bool *)f = v != 0;
    return 0;
  }
  const double lo = keys[k].lo, hi = keys[k].hi;
  if ((keys[k].lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
    return fail(err, errlen, "%s: %s is out of range (must be %s %g and <= %g)", key, val,
                keys[k].lo_open ? ">" : ">=", lo, hi);
  const double sv = v * keys[k].scale;
  switch (keys[k].kind) {
    case K_DBL: *(double *)f = sv; break;
    case K_U32:
    case K_UINT:
      /* counts and byte values written in their own unit must be whole */
      if (keys[k].scale == 1 && v != floor(v))
        return fail(err, errlen, "%s: %s is not a whole number", key, val);
      if (keys[k].kind == K_U32)
        *(uint32_t *)f = (uint32_t)llround(sv);
      else
        *(unsigned *)f = (unsigned)llround(sv);
      break;
    case K_PS: *(uint64_t *)f = (uint64_t)llround(sv); break;
    default: break;
  }
  return 0;
}

int cphs_params_set(cphs_params_t *p, const char *key, const char *val, const char *origin, char *err,
                    size_t errlen) {
  const int k = cphs_params_key_index(key);
  if (k < 0)
    return fail(err, errlen, "%s: unknown key (regress/scenarios/cp_hotspot_base.scn lists them all)", key);
  if (set_value(p, k, val, err, errlen)) return -1;
  snprintf(p->origin[k], sizeof p->origin[k], "%s", origin ? origin : "");
  return 0;
}

int cphs_params_load(cphs_params_t *p, const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st)) return fail(err, errlen, "%s: cannot read scenario: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode))
    return fail(err, errlen, "%s: not a scenario file (%s)", path,
                S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, errlen, "%s: cannot read scenario: %s", path, strerror(errno));
  unsigned first_line[CPHS_MAX_KEYS] = {0}; /* duplicates within the file */
  char line[512], e2[300], org[sizeof p->origin[0]];
  int ln = 0, rc = 0;
  while (!rc) {
    /* Read a line byte by byte: a NUL must not end it silently. */
    size_t len = 0;
    int c;
    bool bad = false, any = false;
    unsigned badc = 0;
    while ((c = fgetc(f)) != EOF) {
      any = true;
      if (c == '\n') break;
      if (c == '\r') continue;
      if (!bad && c != '\t' && (c < 0x20 || c > 0x7e)) {
        bad = true;
        badc = (unsigned)c;
      }
      if (len + 1 < sizeof line) line[len] = (char)c;
      len++;
    }
    if (!any) break;
    ln++;
    if (bad) {
      rc = fail(err, errlen, "%s:%d: byte 0x%02x is not text (a scenario is ASCII 'key = value' lines)", path,
                ln, badc);
      break;
    }
    if (len + 1 > sizeof line) {
      rc = fail(err, errlen, "%s:%d: line longer than %zu characters", path, ln, sizeof line - 1);
      break;
    }
    line[len] = 0;
    char *h = strchr(line, '#');
    if (h) *h = 0;
    char *s = line;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      rc = fail(err, errlen, "%s:%d: expected 'key = value', got '%.60s'", path, ln, s);
      break;
    }
    *eq = 0;
    char *k = s, *v = eq + 1;
    for (char *t = eq - 1; t >= k && isspace((unsigned char)*t); t--) *t = 0;
    while (isspace((unsigned char)*v)) v++;
    for (char *t = v + strlen(v) - 1; t >= v && isspace((unsigned char)*t); t--) *t = 0;
    if (!*k) {
      rc = fail(err, errlen, "%s:%d: no key before '='", path, ln);
      break;
    }
    const int ki = cphs_params_key_index(k);
    if (ki >= 0 && first_line[ki]) {
      rc = fail(err, errlen, "%s:%d: %s: given twice (first at line %u)", path, ln, k, first_line[ki]);
      break;
    }
    snprintf(org, sizeof org, "%.*s:%d", (int)(sizeof org - 12), path, ln);
    if (cphs_params_set(p, k, v, org, e2, sizeof e2)) {
      rc = fail(err, errlen, "%s:%d: %s", path, ln, e2);
      break;
    }
    first_line[ki] = (unsigned)ln;
  }
  if (!rc && ferror(f)) rc = fail(err, errlen, "%s: read error: %s", path, strerror(errno));
  fclose(f);
  return rc;
}

#define BAD(key, ...)                                               \
  do {                                                              \
    char m_[300];                                                   \
    snprintf(m_, sizeof m_, __VA_ARGS__);                           \
    return fail(err, errlen, "%s: %s: %s", where(p, key), key, m_); \
  } while (0)

int cphs_params_check(const cphs_params_t *p, char *err, size_t errlen) {
  /* Each key's own range was checked when it was set; here the rules between keys,
       each message naming the key (and where it was set) that breaks it. */
  if (p->hot >= p->n) BAD("hot_node", "%u must be below n = %u (%s)", p->hot, p->n, where(p, "n"));
  if (p->warmup_ps > p->hot_start_ps)
    BAD("warmup_ms", "%g must not be after hot_start_ms = %g (%s)", p->warmup_ps / 1e9, p->hot_start_ps / 1e9,
        where(p, "hot_start_ms"));
  if (p->hot_start_ps >= p->hot_end_ps)
    BAD("hot_end_ms", "%g must be after hot_start_ms = %g (%s)", p->hot_end_ps / 1e9, p->hot_start_ps / 1e9,
        where(p, "hot_start_ms"));
  if (p->hot_end_ps > p->t_end_ps)
    BAD("t_end_ms", "%g must not be before hot_end_ms = %g (%s)", p->t_end_ps / 1e9, p->hot_end_ps / 1e9,
        where(p, "hot_end_ms"));
  if (p->bin_ps == 0 || p->t_end_ps / p->bin_ps > 10000000)
    BAD("bin_ms", "%g gives more than 1e7 bins in t_end_ms = %g", p->bin_ps / 1e9, p->t_end_ps / 1e9);
  if (p->mem_per_input < p->frame)
    BAD("mem_kb", "%g KB does not hold one frame of frame_bytes = %u", (double)p->mem_per_input / CPHS_KB,
        p->frame);
  if (p->pause && !(p->pause_lo < p->pause_hi))
    BAD("pause_lo_kb", "%g must be below pause_hi_kb = %g", (double)p->pause_lo / CPHS_KB,
        (double)p->pause_hi / CPHS_KB);
  if (p->pause && p->pause_hi > p->mem_per_input)
    BAD("pause_hi_kb", "%g must not exceed mem_kb = %g", (double)p->pause_hi / CPHS_KB,
        (double)p->mem_per_input / CPHS_KB);
  if (p->ingress / (p->n - 1) < p->frame)
    BAD("ingress_kb", "%g KB over n-1 = %u VOQs leaves less than a frame (%u B) per VOQ",
        (double)p->ingress / CPHS_KB, p->n - 1, p->frame);
  if (p->egress && p->egress < p->frame)
    BAD("egress_kb", "%g KB does not hold one frame of frame_bytes = %u (0 = no egress buffer)",
        (double)p->egress / CPHS_KB, p->frame);
  if (p->egress && p->adapter_pause && !(cphs_adapter_lo(p) > 0))
    BAD("adapter_rtt_us",
        "%g us leaves no room for the watermarks: high = egress_kb - rtt x bw = %.0f B, low = high - "
        "adapter_hyst_kb = %.0f B must be above 0",
        (double)p->adapter_rtt_ps / CPHS_PS_PER_US, cphs_adapter_hi(p), cphs_adapter_lo(p));
  if (p->check == CPHS_CHECK_EGRESS && !p->egress)
    BAD("egress_kb", "check = egress needs an egress buffer (egress_kb > 0)");
  if (p->check == CPHS_CHECK_BAND && !(p->band_lo < p->band_hi))
    BAD("band_hi", "%g must be above band_lo = %g", p->band_hi, p->band_lo);
  if (p->check == CPHS_CHECK_FLOWS && !(p->flow_lo < p->flow_hi))
    BAD("flow_hi", "%g must be above flow_lo = %g", p->flow_hi, p->flow_lo);
  if (p->cm != CPHS_CM_NONE) {
    /* The CP's APPLY checks (docs/cp.md §3), in this experiment's keys. */
    if (p->bcnmax <= p->qeq)
      BAD("bcnmax_kb", "%g must be above qeq_kb = %g (%s)", (double)p->bcnmax / CPHS_KB,
          (double)p->qeq / CPHS_KB, where(p, "qeq_kb"));
    if (p->bcnmax_flow <= p->qeq_flow)
      BAD("bcnmax_flow_kb", "%g must be above qeq_flow_kb = %g (%s)", (double)p->bcnmax_flow / CPHS_KB,
          (double)p->qeq_flow / CPHS_KB, where(p, "qeq_flow_kb"));
    if ((p->cm == CPHS_CM_E2CM || p->cm == CPHS_CM_E2CM_CP) && p->probe_bytes == 0)
      BAD("probe_kb", "must be > 0 with cm = %s (probes carry the per-flow feedback)", cphs_cm_name(p->cm));
    /* Backstop: the CP's own validation must agree that the set is legal. */
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
      return fail(err, errlen, "CP configuration from qeq_kb, w, bcnmax_kb, qeq_flow_kb, bcnmax_flow_kb: %s",
                  why);
  }
  return 0;
}
#undef BAD

/* The text of every key's value, in keys[] order: one formatter for the
 * scenario file (dump) and the results store's params (cphs_db.c). */
void cphs_params_each(const cphs_params_t *p, void (*fn)(void *ctx, const char *key, const char *value),
                      void *ctx) {
  static const char *const abug[] = {"none", "xoff_late", "xon_early"};
  static const char *const chk[] = {"none",         "drops",  "band",   "flows",
                                    "model_vs_rtl", "egress", "quench", "limiters"};
  char v[128]; /* the longest: name (96) */
  for (size_t k = 0; k < NKEYS; k++) {
    const char *key = keys[k].key;
    const void *f = (const char *)p + keys[k].off;
    switch (keys[k].kind) {
      case K_STR:
        if (!strcmp(key, "name"))
          snprintf(v, sizeof v, "%s", p->name);
        else if (!strcmp(key, "scale"))
          snprintf(v, sizeof v, "%s", p->scale);
        else if (!strcmp(key, "cm"))
          snprintf(v, sizeof v, "%s", cphs_cm_name(p->cm));
        else if (!strcmp(key, "pause"))
          snprintf(v, sizeof v, "%s", p->pause ? "on" : "off");
        else if (!strcmp(key, "arrivals")) {
          if (p->arr == CPHS_ARR_BERNOULLI)
            snprintf(v, sizeof v, "bernoulli");
          else
            snprintf(v, sizeof v, "bursty:%g", p->burst_us);
        } else if (!strcmp(key, "mode"))
          snprintf(v, sizeof v, "%s", p->rtl ? "rtl" : "model");
        else if (!strcmp(key, "check"))
          snprintf(v, sizeof v, "%s", chk[p->check]);
        else if (!strcmp(key, "inject_bug"))
          snprintf(v, sizeof v, "%s", p->inject_bug && p->inject_bug_name[0] ? p->inject_bug_name : "none");
        else if (!strcmp(key, "adapter_pause"))
          snprintf(v, sizeof v, "%s", p->adapter_pause ? "on" : "off");
        else if (!strcmp(key, "quench"))
          snprintf(v, sizeof v, "%s", p->quench == CPHS_QUENCH_FLOW ? "flow" : "node");
        else if (!strcmp(key, "adapter_bug"))
          snprintf(v, sizeof v, "%s", abug[p->adapter_bug]);
        else
          snprintf(v, sizeof v, "?");
        break;
      case K_DBL: snprintf(v, sizeof v, "%.17g", *(const double *)f / keys[k].scale); break;
      case K_BOOL: snprintf(v, sizeof v, "%d", *(const bool *)f); break;
      case K_U32: snprintf(v, sizeof v, "%.17g", *(const uint32_t *)f / keys[k].scale); break;
      case K_UINT: snprintf(v, sizeof v, "%.17g", *(const unsigned *)f / keys[k].scale); break;
      case K_U64: snprintf(v, sizeof v, "%" PRIu64, *(const uint64_t *)f); break;
      case K_PS: snprintf(v, sizeof v, "%.17g", (double)*(const uint64_t *)f / keys[k].scale); break;
    }
    fn(ctx, key, v);
  }
}

static void dump_line(void *ctx, const char *key, const char *value) {
  /* check and inject_bug stay out of params.scn: a re-run of the file is a plain run (as before) */
  if (strcmp(key, "check") && strcmp(key, "inject_bug")) fprintf((FILE *)ctx, "%s = %s\n", key, value);
}

void cphs_params_dump(const cphs_params_t *p, FILE *f) { cphs_params_each(p, dump_line, f); }
