/*
 * cp_hotspot -- the named checks' verdicts on a run's summary. A check is a
 * scenario file (regress/scenarios/<name>.scn) that sets `check = <kind>`
 * and its thresholds; the predicates are here. Each predicate can fail: the
 * negative command lines are in regress/scenarios/cp_hotspot_*.scn.
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

/* Verdict of a single-run check (drops, band, flows, none). True = pass;
 * on failure why names the measured value and the threshold. A line per
 * criterion with its measured value goes to stdout either way. */
bool cphs_check_run(const cphs_params_t *p, const cphs_summary_t *s, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
