/*
 * cp_hotspot -- event queue: a binary min-heap of fixed-size events ordered
 * by (time, insertion sequence), so equal-time events pop in the order they
 * were scheduled and a run is deterministic. Storage grows by doubling and is
 * never freed during a run: no allocation per event.
 */
#ifndef CPHS_EVQ_H
#define CPHS_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t t;   /* picoseconds */
  uint32_t seq; /* insertion order; compared modulo 2^32 (pending events are young) */
  uint8_t type;
  uint8_t f1, f2, f3;
  uint16_t a, b, c;
} cphs_ev_t;

typedef struct {
  cphs_ev_t *h;
  size_t n, cap;
  uint32_t seq;
  uint64_t pushed;
} cphs_evq_t;

int cphs_evq_init(cphs_evq_t *q, size_t cap);
void cphs_evq_free(cphs_evq_t *q);
/* 0, or -1 if storage could not grow. */
int cphs_evq_push(cphs_evq_t *q, cphs_ev_t e);
/* Pops the earliest event into *e; false when empty. */
bool cphs_evq_pop(cphs_evq_t *q, cphs_ev_t *e);

#ifdef __cplusplus
}
#endif
#endif
