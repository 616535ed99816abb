/* elite4 fabric statistics: see e4f_stats.h. */
#include "e4f_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void e4f_samples_init(e4f_samples_t *s) { memset(s, 0, sizeof *s); }

int e4f_samples_add(e4f_samples_t *s, uint32_t x) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 1024;
    uint32_t *v = realloc(s->v, cap * sizeof *v);
    if (!v) return -ENOMEM;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = x;
  return 0;
}

void e4f_samples_free(e4f_samples_t *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static double rank(const e4f_samples_t *s, double p) {
  size_t k = (size_t)ceil(p / 100.0 * (double)s->n);
  return s->v[k ? k - 1 : 0];
}

e4f_summary_t e4f_samples_summary(e4f_samples_t *s) {
  e4f_summary_t r;
  memset(&r, 0, sizeof r);
  if (!s->n) return r;
  qsort(s->v, s->n, sizeof *s->v, cmp_u32);
  double sum = 0, sq = 0;
  for (size_t i = 0; i < s->n; i++) sum += s->v[i];
  r.count = s->n;
  r.mean = sum / (double)s->n;
  for (size_t i = 0; i < s->n; i++) sq += (s->v[i] - r.mean) * (s->v[i] - r.mean);
  r.sd = s->n > 1 ? sqrt(sq / (double)(s->n - 1)) : 0;
  r.min = s->v[0];
  r.max = s->v[s->n - 1];
  r.p50 = rank(s, 50);
  r.p99 = rank(s, 99);
  return r;
}

void e4f_summary_md(FILE *f, const e4f_summary_t *s) {
  const double k = E4F_NS_PER_CYCLE;
  fprintf(f, "| %llu | %.0f | %.2f ± %.2f | %.0f | %.0f | %.0f | %.1f | %.1f ± %.1f | %.1f | %.1f | %.1f |",
          (unsigned long long)s->count, s->min, s->mean, s->sd, s->p50, s->p99, s->max, k * s->min,
          k * s->mean, k * s->sd, k * s->p50, k * s->p99, k * s->max);
}

void e4f_summary_csv(FILE *f, const e4f_summary_t *s) {
  fprintf(f, "%llu,%.0f,%.3f,%.3f,%.0f,%.0f,%.0f", (unsigned long long)s->count, s->min, s->mean, s->sd,
          s->p50, s->p99, s->max);
}
