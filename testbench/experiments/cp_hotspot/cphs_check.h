/*
 * cp_hotspot -- the named checks' verdicts on a run. A check is a scenario
 * file (regress/scenarios/<name>.scn) that sets `check = <kind>` and its
 * thresholds; the predicates are here.
 *
 * Every criterion has a stable id (hotspot.<kind>.<what>, listed by
 * cphs_check_ids) and fires at a simulated time in ms: the end of the first
 * 1-ms bin that breaks it for per-bin criteria, else the end of the window it
 * is measured over. Runs are deterministic for a seed, so a negative test
 * names both: --expect-fail=check:hotspot.band.q_high@211.
 */
#ifndef CPHS_CHECK_H
#define CPHS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cphs_params.h"
#include "cphs_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first failure of a run. */
typedef struct {
  char id[160];   /* e.g. "hotspot.band.q_high", or "assert:<label>" (an RTL CP's assertion) */
  double at_ms;   /* simulated time at which it is known */
  char text[400]; /* measured value against the threshold */
} cphs_fail_t;

/* Criteria ids of a check kind, NULL-terminated (empty for none). Also
 * "hotspot.invariant" (any kind): a broken invariant of the run itself. */
const char *const *cphs_check_ids(cphs_check_t kind);
#define CPHS_ID_INVARIANT    "hotspot.invariant"
#define CPHS_ID_MODEL_VS_RTL "hotspot.model_vs_rtl.identical"

/* Verdict of a single-run check (drops, band, flows, none). True = pass; else
 * *first is the first criterion that failed, in the kind's order. A line per
 * criterion, with its id and measured value, goes to stdout either way. */
bool cphs_check_run(const cphs_params_t *p, const cphs_stats_t *st, const cphs_summary_t *s,
                    cphs_fail_t *first);

#ifdef __cplusplus
}
#endif
#endif
