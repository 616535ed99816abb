/* elite4 fabric: per-packet records, one per packet, one column per stage
 * (docs/conventions.md "Latency and statistics"), and the packets' contents.
 *
 * Cycles are fabric cycles. A packet's stages:
 *   created   the traffic generator queued it at the source NIC
 *   injected  its HEAD was on the source NIC's output (last try)
 *   per switch k (in path order): arr = HEAD on the switch's in_* port,
 *             grant = the cycle its input VC was allocated its output (the
 *             switch's alloc_o pulse shows in grant + 1), dep = HEAD on out_*
 *   head_rx   its HEAD on the destination NIC's input
 *   tail_rx   its TAIL on the destination NIC's input (the delivery)
 *   acked     the token on the source NIC's input (done)
 * The body: word 0 is the packet id, words 1.. a hash of (seed, id, word),
 * so a retry resends the same words and nothing is stored per packet. */
#ifndef E4T_RECORDS_H
#define E4T_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "e4t_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define E4T_NONE     UINT32_MAX /* a stage not (yet) reached */
#define E4T_MAX_BODY 64u        /* body words per packet */
#define E4T_NO_PORT  0xFFu      /* a hop's output port before its HEAD left */

typedef struct {
  uint16_t sw;
  uint8_t in, out;
  uint32_t arr, grant, dep;
} e4t_hop_t;

enum { E4T_PKT_QUEUED = 0, E4T_PKT_SENDING, E4T_PKT_DELIVERED, E4T_PKT_DONE };

typedef struct {
  uint16_t src, dst;
  uint8_t vc, nsw, nhops, tries, state; /* nsw: switches on the route; nhops: records filled */
  uint16_t nbody;
  uint32_t seq, route, crc;
  uint32_t t_create, t_inject, t_head_rx, t_tail_rx, t_done;
  e4t_hop_t hop[E4T_MAX_HOPS];
} e4t_pkt_t;

/* With records on (keep) every packet stays, p[id]. With records off only
 * the packets not yet done stay: a ring p[id & (cap - 1)] of the ids from
 * `oldest` (the oldest not retired) to n - 1, grown by doubling when that
 * span fills it; a packet retires when its token is back (e4t_records_retire),
 * after the `retire` callback has folded it into the run's streamed
 * statistics. So memory follows the packets in flight, not the run length. */
typedef struct e4t_records e4t_records_t;
typedef void (*e4t_retire_fn)(void *ctx, uint32_t id, const e4t_pkt_t *k);
struct e4t_records {
  e4t_pkt_t *p;
  uint32_t n, cap; /* n: packets created (ids 0..n-1) */
  uint64_t body_seed;
  bool keep;
  uint8_t *live;   /* records off: slot holds a packet not retired */
  uint32_t oldest; /* records off: every id below it is retired */
  e4t_retire_fn retire;
  void *retire_ctx;
};

/* keep: records on (every packet stays); off: the ring of packets in flight. */
int e4t_records_init(e4t_records_t *r, uint32_t cap, uint64_t body_seed, bool keep);
void e4t_records_free(e4t_records_t *r);
/* A new packet; its id, or -1 (out of memory). The table grows by doubling,
 * so pointers into it are valid only until the next e4t_records_new(). */
int64_t e4t_records_new(e4t_records_t *r);
/* Packet id's record, or NULL (no such packet, or retired with records off). */
static inline e4t_pkt_t *e4t_records_get(e4t_records_t *r, uint32_t id) {
  if (id >= r->n) return NULL;
  if (r->keep) return &r->p[id];
  const uint32_t i = id & (r->cap - 1);
  return id >= r->oldest && r->live[i] ? &r->p[i] : NULL;
}
/* True if id was created and has retired (records off). */
static inline bool e4t_records_retired(const e4t_records_t *r, uint32_t id) {
  return !r->keep && id < r->n && (id < r->oldest || !r->live[id & (r->cap - 1)]);
}
/* Packet id is done: with records off, fold it (retire callback) and free its slot. */
void e4t_records_retire(e4t_records_t *r, uint32_t id);
/* Every packet still held, in id order: f(ctx, id, record). */
void e4t_records_each(const e4t_records_t *r, void (*f)(void *ctx, uint32_t id, const e4t_pkt_t *k),
                      void *ctx);
uint32_t e4t_body_word(const e4t_records_t *r, uint32_t id, unsigned i);
/* Packet id's hop record at switch sw, or NULL. */
e4t_hop_t *e4t_records_hop(e4t_records_t *r, uint32_t id, unsigned sw);

/* records.csv: packets created in [from, to) (all: 0, UINT32_MAX); records on. */
void e4t_records_csv(const e4t_records_t *r, const e4t_topo_t *t, FILE *f, uint32_t from, uint32_t to);

#ifdef __cplusplus
}
#endif
#endif
