/*
 * cp_hotspot -- parameters of one run of the seed-001 hotspot experiment,
 * and their parsing from scenario files (regress/scenarios/cp_hotspot_*.scn)
 * and command-line flags. Every key is listed, with its default and its
 * source (seed or our choice), in cphs_params.c and
 * regress/scenarios/cp_hotspot_base.scn.
 */
#ifndef CPHS_PARAMS_H
#define CPHS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CPHS_KB        1024u /* the seed's KB: Qeq = 75 KB = M/4 with M = 300 KB (docs/cp.md §3) */
#define CPHS_PS_PER_MS 1000000000ull
#define CPHS_PS_PER_US 1000000ull
#define CPHS_MAX_N     256 /* NodeW = FlowW = 8 bits at the CP */
#define CPHS_MAX_KEYS  64

typedef enum { CPHS_CM_NONE = 0, CPHS_CM_ECM, CPHS_CM_E2CM, CPHS_CM_E2CM_CP } cphs_cm_t;
typedef enum { CPHS_ARR_BERNOULLI = 0, CPHS_ARR_BURSTY } cphs_arr_t;
/* What a named check asserts on the summary (key `check`). */
typedef enum {
  CPHS_CHECK_NONE = 0,     /* run completes with its invariants intact */
  CPHS_CHECK_DROPS,        /* no CM, PAUSE off: Q_hot reaches the partition limit, frames dropped */
  CPHS_CHECK_BAND,         /* Q_hot in a band around Qeq, TP_hot near the hot service rate */
  CPHS_CHECK_FLOWS,        /* hot flows' per-flow occupancies near Qeq,flow */
  CPHS_CHECK_MODEL_VS_RTL, /* the same run with model and RTL CPs: identical */
  CPHS_CHECK_EGRESS,       /* adapter egress buffer within its size, PAUSE at its watermarks */
  CPHS_CHECK_QUENCH,       /* selective source quench: hot flows quenched, cold flows not */
  CPHS_CHECK_LIMITERS      /* more than one limiter at once in an adapter, none refused */
} cphs_check_t;
/* Source quench when a VOQ is full (key `quench`). */
typedef enum {
  CPHS_QUENCH_FLOW = 0, /* seed 001: "per-flow selective source quench used when VOQ full" */
  CPHS_QUENCH_NODE      /* ours, for contrast: a node generates nothing while any VOQ is full */
} cphs_quench_t;
/* Planted bugs of the adapter's PAUSE (key `adapter_bug`), for the egress check's negatives. */
typedef enum { CPHS_ABUG_NONE = 0, CPHS_ABUG_XOFF_LATE, CPHS_ABUG_XON_EARLY } cphs_abug_t;

typedef struct {
  char name[96]; /* run name (output sub-directory) */
  /* topology and traffic */
  unsigned n;      /* nodes = switch ports */
  unsigned hot;    /* the node whose output slows down (seed: node 1) */
  double load;     /* offered load per node, fraction of rlink */
  uint32_t frame;  /* bytes per frame (fixed) */
  double rlink;    /* b/s */
  double hot_frac; /* hot output's service rate during the hotspot, fraction of rlink */
  cphs_arr_t arr;
  double burst_us; /* bursty: mean burst length in us (of frames at line rate) */
  /* time, ps */
  uint64_t warmup_ps, hot_start_ps, hot_end_ps, t_end_ps, bin_ps;
  uint64_t link_delay_ps;    /* one way, adapter <-> switch, data and control */
  uint64_t cp_latency_ps;    /* CP pipeline, enqueue to BCN on its outputs (11 cycles of the nominal clock) */
  uint64_t cp_flow_extra_ps; /* a per-flow BCN's one more cycle (docs/cp.md §10: t+12), not a key */
  /* switch */
  uint32_t mem_per_input; /* bytes of the input's partition */
  bool pause;
  uint32_t pause_hi, pause_lo;
  /* adapter */
  uint32_t ingress; /* bytes, split evenly across the N-1 VOQs */
  cphs_quench_t quench;
  unsigned max_limiters;   /* rate limiters per adapter, 0 = no limit (seed) */
  uint32_t egress;         /* egress buffer bytes (seed: 150 KB); 0 = ideal sink, hot output slowed */
  bool adapter_pause;      /* the egress buffer PAUSEs its switch output (seed: enabled) */
  uint64_t adapter_rtt_ps; /* rtt of the seed's high watermark = egress - rtt x bw */
  uint32_t adapter_hyst;   /* high - low watermark bytes (seed: 10 KB) */
  cphs_abug_t adapter_bug;
  /* congestion management */
  cphs_cm_t cm;
  unsigned w;
  uint32_t qeq, psample, bcnmax, qeq_flow, bcnmax_flow;
  uint32_t probe_bytes;  /* E2CM probing interval per flow */
  uint32_t bucket_bytes; /* rate limiter token-bucket depth */
  /* run */
  uint64_t seed;
  bool rtl;            /* CP implementation: false = C model, true = Verilated RTL */
  unsigned inject_bug; /* planted bug index passed to the CP model (0 = none) */
  char inject_bug_name[64];
  bool digest; /* hash every CP output of every cycle */
  /* check */
  cphs_check_t check;
  double band_lo, band_hi; /* band check: 1-ms means of Q_hot within [lo, hi] x Qeq */
  double tp_tol;           /* band check: |TP_hot - hot_frac| <= tp_tol (fraction of rlink) */
  double flow_lo, flow_hi; /* flows check: per-flow means within [lo, hi] x Qeq,flow ... */
  double flow_frac;        /* ... for at least this fraction of the hot flows */
  double drop_fill;        /* drops check: max Q_hot >= drop_fill x (N-1) x M */
  double quench_cold_max;  /* quench check: cold flows' quenched fraction of their offered frames */
  unsigned limiters_min;   /* limiters check: peak limiters at once in one adapter */
  char scale[16];
  /* where each key was last set ("file:line", "--key"; "" = default), for messages */
  char origin[CPHS_MAX_KEYS][96];
} cphs_params_t;

/* Seed defaults, N = 16, Bernoulli, PAUSE off, no CM, scale "short". */
void cphs_params_default(cphs_params_t *p);
/* Set one key, checking its value's syntax and range; origin says where it came from
   (kept for later messages). 0, or -1 with "<key>: <reason>" in err. */
int cphs_params_set(cphs_params_t *p, const char *key, const char *val, const char *origin, char *err,
                    size_t errlen);
/* Index of a key (0..CPHS_MAX_KEYS-1), -1 if there is no such key. */
int cphs_params_key_index(const char *key);
/* Fill keys whose default follows other keys (adapter_rtt_us, unless set:
   2 x link delay + 2 frame times, docs/cp.md §12). Call after all sets. */
void cphs_params_derive(cphs_params_t *p);
/* Adapter PAUSE watermarks in bytes: high = egress - rtt x bw, low = high - hyst. */
double cphs_adapter_hi(const cphs_params_t *p);
double cphs_adapter_lo(const cphs_params_t *p);
/* Read a scenario file (ASCII 'key = value' lines, '#' comments, each key at most
   once). 0, or -1 with "<file>:<line>: <key>: <reason>" in err. */
int cphs_params_load(cphs_params_t *p, const char *path, char *err, size_t errlen);
/* The rules between keys (after all sets). 0 or -1 with "<where>: <key>: <reason>" in
   err, where = the file:line or flag that set the key, or "default". */
int cphs_params_check(const cphs_params_t *p, char *err, size_t errlen);
/* Default run name from the parameters, e.g. "n16_bern_pauseoff_ecm_short". */
void cphs_params_autoname(cphs_params_t *p);
const char *cphs_cm_name(cphs_cm_t cm);
/* "bern" or "b12" (burst mean in us). */
void cphs_arr_name(const cphs_params_t *p, char *buf, size_t len);
/* One "key = value" line per parameter, as a scenario file would hold them. */
void cphs_params_dump(const cphs_params_t *p, FILE *f);
/* Every key with its value as text (what a scenario file would hold; check and
   inject_bug too, "none" when unset), in the keys' order. */
void cphs_params_each(const cphs_params_t *p, void (*fn)(void *ctx, const char *key, const char *value),
                      void *ctx);

#ifdef __cplusplus
}
#endif
#endif
