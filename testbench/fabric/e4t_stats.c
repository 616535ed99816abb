/* elite4 fabric statistics: see e4t_stats.h. */
#include "e4t_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void e4t_samples_init(e4t_samples_t *s) { memset(s, 0, sizeof *s); }

int e4t_samples_add(e4t_samples_t *s, uint32_t x) {
  if (x >= s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap <= x) cap *= 2;
    uint64_t *c = realloc(s->cnt, cap * sizeof *c);
    if (!c) return -ENOMEM;
    memset(c + s->cap, 0, (cap - s->cap) * sizeof *c);
    s->cnt = c;
    s->cap = cap;
  }
  s->cnt[x]++;
  s->n++;
  return 0;
}

int e4t_samples_merge(e4t_samples_t *a, const e4t_samples_t *b) {
  for (size_t x = b->cap; x-- > 0;)
    if (b->cnt[x]) {
      if (e4t_samples_add(a, (uint32_t)x)) return -ENOMEM; /* grows once, to b's largest value */
      a->cnt[x] += b->cnt[x] - 1;
      a->n += b->cnt[x] - 1;
    }
  return 0;
}

void e4t_samples_free(e4t_samples_t *s) {
  free(s->cnt);
  memset(s, 0, sizeof *s);
}

/* the value of the k-th smallest sample (k from 1) */
static double kth(const e4t_samples_t *s, size_t k) {
  size_t seen = 0;
  for (size_t x = 0; x < s->cap; x++)
    if ((seen += s->cnt[x]) >= k) return (double)x;
  return 0;
}

static double rank(const e4t_samples_t *s, double p) {
  size_t k = (size_t)ceil(p / 100.0 * (double)s->n);
  return kth(s, k ? k : 1);
}

e4t_summary_t e4t_samples_summary(e4t_samples_t *s) {
  e4t_summary_t r;
  memset(&r, 0, sizeof r);
  if (!s->n) return r;
  double sum = 0, sq = 0;
  for (size_t x = 0; x < s->cap; x++)
    for (uint64_t i = 0; i < s->cnt[x]; i++) sum += (double)x;
  r.count = s->n;
  r.mean = sum / (double)s->n;
  for (size_t x = 0; x < s->cap; x++)
    for (uint64_t i = 0; i < s->cnt[x]; i++) sq += ((double)x - r.mean) * ((double)x - r.mean);
  r.sd = s->n > 1 ? sqrt(sq / (double)(s->n - 1)) : 0;
  r.min = kth(s, 1);
  r.max = kth(s, s->n);
  r.p50 = rank(s, 50);
  r.p99 = rank(s, 99);
  return r;
}

void e4t_summary_md(FILE *f, const e4t_summary_t *s) {
  const double k = E4T_NS_PER_CYCLE;
  fprintf(f, "| %llu | %.0f | %.2f ± %.2f | %.0f | %.0f | %.0f | %.1f | %.1f ± %.1f | %.1f | %.1f | %.1f |",
          (unsigned long long)s->count, s->min, s->mean, s->sd, s->p50, s->p99, s->max, k * s->min,
          k * s->mean, k * s->sd, k * s->p50, k * s->p99, k * s->max);
}

void e4t_summary_csv(FILE *f, const e4t_summary_t *s) {
  fprintf(f, "%llu,%.0f,%.3f,%.3f,%.0f,%.0f,%.0f", (unsigned long long)s->count, s->min, s->mean, s->sd,
          s->p50, s->p99, s->max);
}
