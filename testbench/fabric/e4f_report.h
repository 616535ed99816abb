/* elite4 fabric results and report files: a run's summary (throughput,
 * latency, minimum latency per path length), link utilisation from the
 * switches' port counters, the per-hop latency breakdown (Table 3 of seed
 * 004 as a query over the per-packet records), and the CSV writers. */
#ifndef E4F_REPORT_H
#define E4F_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "e4f_fabric.h"
#include "e4f_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Link classes: NIC -> leaf, leaf -> NIC, level l -> l+1 (up), l+1 -> l (down). */
#define E4F_LINK_CLASSES (2 + 2 * (E4F_MAX_LEVELS - 1))

typedef struct {
  uint64_t links;
  double util_mean, util_max, wait_mean, wait_max; /* per cycle of the window */
  char name[32];
} e4f_link_class_t;

typedef struct {
  uint64_t cycles_run, window;
  unsigned rtl_switches;
  double offered, accepted; /* flits / node / cycle in the window */
  uint64_t created, created_win, delivered, retries, refused, refused_win;
  e4f_summary_t lat, net, head; /* window packets: created->TAIL rx, injected->TAIL rx, injected->HEAD rx */
  /* by switches on the path (1, 3, 5, 7): all delivered packets' minima */
  uint64_t n_by_len[E4F_MAX_HOPS + 1];
  uint32_t min_head[E4F_MAX_HOPS + 1], min_pkt[E4F_MAX_HOPS + 1];
  /* per-hop records: minimum HEAD arrival -> departure, and link cycles */
  uint32_t min_hop, min_link, max_link;
  uint64_t hops_seen;
  e4f_link_class_t cls[E4F_LINK_CLASSES];
  unsigned ncls;
  double wall_s, cycles_per_s, node_cycles_per_s;
  uint64_t digest, records_digest;
} e4f_result_t;

void e4f_acc_init(e4f_acc_t *a);
void e4f_acc_free(e4f_acc_t *a);
/* Fold one packet's record into a (cfg: the statistics window). */
void e4f_acc_fold(e4f_acc_t *a, const e4f_cfg_t *cfg, const e4f_pkt_t *k);
/* The run's results: f->acc plus every record still held (f is not changed). */
void e4f_result_compute(e4f_fabric_t *f, e4f_result_t *r);
void e4f_result_print(const e4f_fabric_t *f, const e4f_result_t *r, const char *name, FILE *out);

/* summary.csv: a header and one row. */
void e4f_summary_csv_header(FILE *out);
void e4f_summary_csv_row(const e4f_fabric_t *f, const e4f_result_t *r, const char *name, FILE *out);
/* links.csv: one row per link direction. */
void e4f_links_csv(const e4f_fabric_t *f, FILE *out);
/* The per-hop breakdown of window packets, per path length: markdown and CSV. */
void e4f_breakdown(e4f_fabric_t *f, FILE *md, FILE *csv);
/* mkdir -p; 0 or -1 (errno set). */
int e4f_mkdir_p(const char *path);
/* All report files of a run into dir; 0 or -1. */
int e4f_write_reports(e4f_fabric_t *f, const e4f_result_t *r, const char *name, const char *dir);

#ifdef __cplusplus
}
#endif
#endif
