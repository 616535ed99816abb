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
#ifndef E4F_RECORDS_H
#define E4F_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "e4f_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define E4F_NONE     UINT32_MAX /* a stage not (yet) reached */
#define E4F_MAX_BODY 64u        /* body words per packet */
#define E4F_NO_PORT  0xFFu      /* a hop's output port before its HEAD left */

typedef struct {
  uint16_t sw;
  uint8_t in, out;
  uint32_t arr, grant, dep;
} e4f_hop_t;

enum { E4F_PKT_QUEUED = 0, E4F_PKT_SENDING, E4F_PKT_DELIVERED, E4F_PKT_DONE };

typedef struct {
  uint16_t src, dst;
  uint8_t vc, nsw, nhops, tries, state; /* nsw: switches on the route; nhops: records filled */
  uint16_t nbody;
  uint32_t seq, route, crc;
  uint32_t t_create, t_inject, t_head_rx, t_tail_rx, t_done;
  e4f_hop_t hop[E4F_MAX_HOPS];
} e4f_pkt_t;

typedef struct {
  e4f_pkt_t *p;
  uint32_t n, cap;
  uint64_t body_seed;
} e4f_records_t;

int e4f_records_init(e4f_records_t *r, uint32_t cap, uint64_t body_seed);
void e4f_records_free(e4f_records_t *r);
/* A new packet; its id, or -1 (out of memory). The table grows by doubling,
 * so pointers into it are valid only until the next e4f_records_new(). */
int64_t e4f_records_new(e4f_records_t *r);
uint32_t e4f_body_word(const e4f_records_t *r, uint32_t id, unsigned i);
/* Packet id's record, or NULL (no such packet). */
static inline e4f_pkt_t *e4f_records_get(e4f_records_t *r, uint32_t id) { return id < r->n ? &r->p[id] : NULL; }
/* Packet id's hop record at switch sw, or NULL. */
e4f_hop_t *e4f_records_hop(e4f_records_t *r, uint32_t id, unsigned sw);

/* records.csv: packets created in [from, to) (all: 0, UINT32_MAX). */
void e4f_records_csv(const e4f_records_t *r, const e4f_topo_t *t, FILE *f, uint32_t from, uint32_t to);

#ifdef __cplusplus
}
#endif
#endif
