/* Results store: a fabric run's parameters, per-packet records, per-hop
 * stages and per-link counters in one SQLite database (docs/store.md is the
 * schema). Generic: instances are names ("sw12", "nic3"), parameters are
 * key/value text, so any fabric writes through the same calls.
 *
 *   store_open(&s, "build/demo/runs.db", err, len);   creates the schema if new
 *   store_run_begin(s, &run, err, len);               one transaction per run
 *   store_param(s, "load", "0.3"); store_packet(s, &p); store_hop(s, &h); store_link(s, &l);
 *   store_stage(s, &g); store_result(s, &r);          a packet's named stages; a sweep's results
 *   store_run_end(s, err, len);                       checks the row counts, commits
 *   store_close(s);                                   rolls back a run not ended
 *
 * Times are cycles of the fabric clock (runs.clock_mhz gives ns). Errors:
 * -1 and a message naming the file and what failed; nothing half-written
 * survives a failed run (its transaction is rolled back). */
#ifndef NETCOSIM_STORE_H
#define NETCOSIM_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STORE_NONE           UINT64_MAX /* a stage not reached: NULL in the database */
#define STORE_NO_PORT        (-1)       /* a port not known: NULL */
#define STORE_SCHEMA_VERSION 2          /* PRAGMA user_version (1 is upgraded when opened) */

typedef struct store store_t;

/* One run's identity (the runs table). */
typedef struct {
  const char *name, *tool; /* tool: the program that made the run */
  uint64_t seed;
  unsigned nodes;
  double clock_mhz;                  /* nominal clock: ns = cycles * 1000 / clock_mhz */
  uint64_t window_start, window_end; /* statistics window: packets created in [start, end) */
} store_run_t;

typedef struct {
  uint64_t id; /* unique within the run */
  unsigned src, dst, vc, flits, hops, tries;
  uint64_t created, injected, head_rx, tail_rx, acked; /* STORE_NONE: not reached */
} store_packet_t;

/* One packet's passage through one instance (a switch), idx 0 the first. */
typedef struct {
  uint64_t packet;
  unsigned idx;
  const char *instance;
  int in_port, out_port;              /* STORE_NO_PORT: not known */
  uint64_t arrival, grant, departure; /* STORE_NONE: not reached */
} store_hop_t;

/* One link direction's counters over [cycle_from, cycle_to). */
typedef struct {
  const char *src, *dst, *cls;
  int src_port, dst_port; /* STORE_NO_PORT: an endpoint without ports */
  uint64_t cycle_from, cycle_to;
  uint64_t flits;
  uint64_t wait, packets; /* STORE_NONE: the link has no such counter */
} store_link_t;

/* One named stage of a packet, in order (idx 0 first): any point of its
 * life a fabric observes (a command accepted, a switch's input, memory
 * written, an event fired, ...), at an instance ("nic0", "sw12"). */
typedef struct {
  uint64_t packet; /* a packet row of the same run */
  unsigned idx;
  const char *stage, *instance;
  int port;       /* STORE_NO_PORT: none */
  uint64_t cycle; /* STORE_NONE: not reached */
} store_stage_t;

/* One measured result of a sweep: series (what was measured), label (how,
 * e.g. a mechanism), x (the swept parameter, in x_unit), value (in unit). */
typedef struct {
  const char *series, *label;
  double x;
  const char *x_unit;
  double value;
  const char *unit;
} store_result_t;

/* Planted bugs for the negative tests (store_set_bug). */
enum {
  STORE_BUG_NONE = 0,
  STORE_BUG_DROP_ROW = 1,   /* the 2nd packet row is not inserted */
  STORE_BUG_DROP_RESULT = 2 /* the 2nd result row is not inserted */
};

int store_open(store_t **s, const char *path, char *err, size_t len);
void store_close(store_t *s);
int store_run_begin(store_t *s, const store_run_t *r, int64_t *run_id, char *err, size_t len);
int store_param(store_t *s, const char *key, const char *value);
int store_paramf(store_t *s, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int store_packet(store_t *s, const store_packet_t *p);
int store_hop(store_t *s, const store_hop_t *h);
int store_link(store_t *s, const store_link_t *l);
int store_stage(store_t *s, const store_stage_t *g);
int store_result(store_t *s, const store_result_t *r); /* idx: the run's results in order, from 0 */
/* Records the cycles run, wall time and status ("ok" or a failure), checks
 * that every row given is in the database (check store.count), commits. */
int store_run_end(store_t *s, uint64_t cycles, double wall_s, const char *status, char *err, size_t len);
/* The last failure of store_param/packet/hop/link (they return -1). */
const char *store_error(const store_t *s);
void store_set_bug(store_t *s, int bug);

/* CSV export of one table (runs, params, packets, hops, links, stages, results) of run
 * run_id (0: every run); header row first. 0, or -1 with a message. */
int store_export_csv(store_t *s, const char *table, int64_t run_id, FILE *out, char *err, size_t len);

/* The database handle, for reports (testbench/store/store_report.c). */
struct sqlite3 *store_db(store_t *s);

#ifdef __cplusplus
}
#endif
#endif
