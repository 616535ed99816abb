/* cp_hotspot -- event queue (binary heap). See cphs_evq.h. */
#include "cphs_evq.h"

#include <stdlib.h>

int cphs_evq_init(cphs_evq_t *q, size_t cap) {
  q->n = 0;
  q->seq = 0;
  q->pushed = 0;
  q->cap = cap ? cap : 64;
  q->h = malloc(q->cap * sizeof *q->h);
  return q->h ? 0 : -1;
}

void cphs_evq_free(cphs_evq_t *q) {
  free(q->h);
  q->h = NULL;
  q->n = q->cap = 0;
}

static inline bool before(const cphs_ev_t *x, const cphs_ev_t *y) {
  if (x->t != y->t) return x->t < y->t;
  return (int32_t)(x->seq - y->seq) < 0;
}

int cphs_evq_push(cphs_evq_t *q, cphs_ev_t e) {
  if (q->n == q->cap) {
    cphs_ev_t *h = realloc(q->h, 2 * q->cap * sizeof *h);
    if (!h) return -1;
    q->h = h;
    q->cap *= 2;
  }
  e.seq = q->seq++;
  q->pushed++;
  size_t i = q->n++;
  /* sift up: move parents down into the hole */
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!before(&e, &q->h[p])) break;
    q->h[i] = q->h[p];
    i = p;
  }
  q->h[i] = e;
  return 0;
}

bool cphs_evq_pop(cphs_evq_t *q, cphs_ev_t *e) {
  if (!q->n) return false;
  *e = q->h[0];
  cphs_ev_t last = q->h[--q->n];
  size_t i = 0, n = q->n;
  /* sift down the last element from the root */
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(&q->h[c + 1], &q->h[c])) c++;
    if (!before(&q->h[c], &last)) break;
    q->h[i] = q->h[c];
    i = c;
  }
  if (n) q->h[i] = last;
  return true;
}
