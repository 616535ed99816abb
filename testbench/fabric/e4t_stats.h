/* elite4 fabric statistics: sample sets summarised as count, min,
 * mean ± stddev, p50, p99, max (docs/conventions.md "Latency and statistics"), in cycles and ns. */
#ifndef E4T_STATS_H
#define E4T_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "clock.h"
#define E4T_NS_PER_CYCLE NETCOSIM_CYCLE_NS

/* A sample set as a histogram of its values (cycles are small integers):
 * cnt[x] samples of value x, so memory follows the largest value, not the
 * number of samples (records off keeps no per-packet storage). */
typedef struct {
  uint64_t *cnt; /* [cap] */
  size_t n, cap;
} e4t_samples_t;

typedef struct {
  uint64_t count;
  double min, mean, sd, p50, p99, max; /* cycles; all 0 when count == 0 */
} e4t_summary_t;

void e4t_samples_init(e4t_samples_t *s);
int e4t_samples_add(e4t_samples_t *s, uint32_t x); /* grows to the largest value; 0 or -ENOMEM */
/* Adds every sample of b to a; 0 or -ENOMEM. */
int e4t_samples_merge(e4t_samples_t *a, const e4t_samples_t *b);
void e4t_samples_free(e4t_samples_t *s);
/* Summary. Percentiles by nearest rank: the smallest sample with at least
 * p % of the samples at or below it. Sums run over the samples in ascending
 * order, one addition per sample, as a sorted list would (the same doubles). */
e4t_summary_t e4t_samples_summary(e4t_samples_t *s);

/* "min / mean ± sd / p50 / p99 / max" cells of a markdown row, cycles then ns. */
void e4t_summary_md(FILE *f, const e4t_summary_t *s);
/* The same as CSV fields: count,min,mean,sd,p50,p99,max (cycles). */
void e4t_summary_csv(FILE *f, const e4t_summary_t *s);

#ifdef __cplusplus
}
#endif
#endif
