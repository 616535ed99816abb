/* elite4 fabric results and report files: a run's summary (throughput,
 * latency, minimum latency per path length), link utilisation from the
 * switches' port counters, the per-hop latency breakdown (Table 3 of seed
 * 004 as a query over the per-packet records), and the CSV writers. */
#ifndef E4T_REPORT_H
#define E4T_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "e4t_fabric.h"
#include "e4t_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Link classes: NIC -> leaf, leaf -> NIC, level l -> l+1 (up), l+1 -> l (down). */
#define E4T_LINK_CLASSES (2 + 2 * (E4T_MAX_LEVELS - 1))

typedef struct {
  uint64_t links;
  double util_mean, util_max, wait_mean, wait_max; /* per cycle of the window */
  char name[32];
} e4t_link_class_t;

typedef struct {
  uint64_t cycles_run, window;
  unsigned rtl_switches;
  double offered, accepted; /* flits / node / cycle in the window */
  uint64_t created, created_win, delivered, retries, refused, refused_win;
  e4t_summary_t lat, net, head; /* window packets: created->TAIL rx, injected->TAIL rx, injected->HEAD rx */
  /* by switches on the path (1, 3, 5, 7): all delivered packets' minima */
  uint64_t n_by_len[E4T_MAX_HOPS + 1];
  uint32_t min_head[E4T_MAX_HOPS + 1], min_pkt[E4T_MAX_HOPS + 1];
  /* per-hop records: minimum HEAD arrival -> departure, and link cycles */
  uint32_t min_hop, min_link, max_link;
  uint64_t hops_seen;
  e4t_link_class_t cls[E4T_LINK_CLASSES];
  unsigned ncls;
  double wall_s, cycles_per_s, node_cycles_per_s;
  uint64_t digest, records_digest;
} e4t_result_t;

void e4t_acc_init(e4t_acc_t *a);
void e4t_acc_free(e4t_acc_t *a);
/* Fold one packet's record into a (cfg: the statistics window). */
void e4t_acc_fold(e4t_acc_t *a, const e4t_cfg_t *cfg, const e4t_pkt_t *k);
/* The run's results: f->acc plus every record still held (f is not changed). */
void e4t_result_compute(e4t_fabric_t *f, e4t_result_t *r);
void e4t_result_print(const e4t_fabric_t *f, const e4t_result_t *r, const char *name, FILE *out);

/* summary.csv: a header and one row. */
void e4t_summary_csv_header(FILE *out);
void e4t_summary_csv_row(const e4t_fabric_t *f, const e4t_result_t *r, const char *name, FILE *out);
/* links.csv: one row per link direction. */
void e4t_links_csv(const e4t_fabric_t *f, FILE *out);
/* The per-hop breakdown of window packets, per path length: markdown and CSV. */
void e4t_breakdown(e4t_fabric_t *f, FILE *md, FILE *csv);
/* mkdir -p; 0 or -1 (errno set). */
int e4t_mkdir_p(const char *path);
/* All report files of a run into dir; 0 or -1. */
int e4t_write_reports(e4t_fabric_t *f, const e4t_result_t *r, const char *name, const char *dir);

#ifdef __cplusplus
}
#endif
#endif
