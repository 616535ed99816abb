/*
 * cp_hotspot -- a run in the results store (testbench/store/, docs/store.md;
 * `cp_hotspot_sim --db=PATH`). Through the store's API only:
 *  - runs: name, tool cp_hotspot_sim, seed, nodes = N, clock_mhz = the CP's
 *    nominal clock; times (window, cycles) are ps / the CP's cycle, rounded
 *    down: the steady state [mid, hot_end) and t_end;
 *  - params: every scenario key and its value as a scenario file writes it
 *    (cphs_params_each: seed, mode, check, inject_bug too), and
 *    result.digest (the CP outputs' 64-bit digest, hex: not a double);
 *  - results: label "summary": one row per figure of summary.csv (series =
 *    its column, x = 0); label "bin": the 1-ms time series, one row per
 *    (column of timeseries.csv, bin), x = the bin's end in ms; label "flow":
 *    flows.csv, x = the source node.
 * docs/cp.md §14 gives the queries (mk/cp-hotspot.sh csv ...).
 */
#ifndef CPHS_DB_H
#define CPHS_DB_H

#include <stddef.h>

#include "cphs_params.h"
#include "cphs_sim.h"
#include "store/store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Planted testbench bugs for the negatives of mk/cp-hotspot-store-smoke.sh
 * (--tb-bug=...). */
typedef enum {
  CPHS_DBBUG_NONE = 0,
  CPHS_DBBUG_SKIP_BIN, /* db_skip_bin: each series' last bin is not written (check hotspot.db_rows) */
  CPHS_DBBUG_BIN_START /* db_bin_start: a bin's x is its start, not its end (check hotspot.db_agree) */
} cphs_dbbug_t;

/* "db_skip_bin" etc.; CPHS_DBBUG_NONE (0) if not a bug's name. */
int cphs_db_bug(const char *name);

/* Write one run: its row, parameters and results, in one transaction
 * (status "ok" or its first failure). 0, or -1 with a message in err; then
 * the run may still be open: store_close(db) rolls it back. */
int cphs_db_write(store_t *db, const cphs_params_t *p, const cphs_result_t *r, const char *status, int bug,
                  int64_t *run_id, char *err, size_t len);

#ifdef __cplusplus
}
#endif
#endif
