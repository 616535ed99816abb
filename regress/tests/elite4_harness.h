/* elite4 test harness: plays the neighbours on every link of one switch.
 *
 * Each neighbour sends packets into the switch (respecting the switch's
 * credits, one packet per VC in flight until its token comes back, a retry
 * on a nack), and receives what the switch sends out (returning credits
 * after a delay, acking each complete packet). The scoreboard checks that
 * every packet arrives exactly once at each port it was routed to, intact
 * (CRC-32 in the TAIL), with the used route tag removed, in order per
 * (source, VC); that the switch never overruns a neighbour's buffer; that no
 * error is raised unless the test planted one; and measures each HEAD's
 * latency through the switch (docs/elite4.md §8: 3 cycles uncontended).
 *
 * Tests describe traffic with e4h_send() (a scripted packet) or a random
 * generator, and may plant protocol violations with e4h_inject().
 */
#ifndef ELITE4_HARNESS_H
#define ELITE4_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/elite4.h"

#define E4H_MAXP 16
#define E4H_MAXV 4
#define E4H_MAXQ 64      /* packets queued per (port, VC) */
#define E4H_MAXBODY 17   /* body words: the id plus up to 16 bytes x4 of payload */
#define E4H_MAXPKT 8192  /* packets per run (ids) */
#define E4H_MAXINJ 64

typedef struct { bool valid; unsigned kind, vc; uint32_t data; bool credit[E4H_MAXV]; } e4h_link_t;

typedef struct {
  uint32_t route;       /* route word as sent */
  uint32_t stripped;    /* what the HEAD must carry when it leaves */
  uint32_t ports;       /* where it may arrive (adaptive: any of these, once) */
  bool any_of;          /* adaptive: exactly one of `ports` */
  unsigned nbody, src, vc;
  uint32_t body[E4H_MAXBODY];
  uint32_t delivered;   /* ports that received it (acked) */
  uint64_t t_head_in;   /* cycle the HEAD entered the switch (last try) */
  uint64_t t_created;
  bool nack_once;       /* destination nacks its first copy (tests retries) */
  bool bad_crc_once;    /* the first try carries a wrong CRC (the switch counts it) */
  bool done;            /* source got its token */
} e4h_pkt_t;

/* A planted protocol violation driven by the harness (INJ_*), or just an
 * error the switch must raise (INJ_NONE: caused by a scripted packet). */
typedef enum { INJ_NONE, INJ_BODY_NO_PACKET, INJ_CREDIT_OVERFLOW, INJ_STRAY_TOKEN,
               INJ_CREDIT_RETURN } e4h_inj_kind_t;
typedef struct { uint64_t cycle; e4h_inj_kind_t kind; unsigned port, vc; unsigned expect_code; bool seen; } e4h_inj_t;
#define E4H_ERR_WINDOW 60 /* cycles after the planting in which the error must show */

typedef struct {
  unsigned P, V, depth;
  uint32_t up_mask;
  double backpressure;        /* chance a credit return is delayed this cycle */
  double bp_port[E4H_MAXP];   /* per port, added to it (1 = no credits at all) */
  double bp_vc[E4H_MAXP][E4H_MAXV]; /* per (port, VC), added too */
  /* packets */
  e4h_pkt_t pkt[E4H_MAXPKT];
  unsigned npkt;
  /* sender side, per (port, VC) of the neighbour */
  unsigned q[E4H_MAXP][E4H_MAXV][E4H_MAXQ], qh[E4H_MAXP][E4H_MAXV], qn[E4H_MAXP][E4H_MAXV];
  uint64_t q_not_before[E4H_MAXP][E4H_MAXV];
  int cur[E4H_MAXP][E4H_MAXV];       /* packet being sent, -1 none */
  unsigned flit_i[E4H_MAXP][E4H_MAXV];
  bool await_tok[E4H_MAXP][E4H_MAXV];
  int early_tok[E4H_MAXP][E4H_MAXV];      /* token back before our TAIL left: -1 none, else ack */
  unsigned credits[E4H_MAXP][E4H_MAXV];   /* the switch's free buffer slots as we know them */
  unsigned rr[E4H_MAXP];
  /* receiver side, per (port, VC) */
  int rx_pkt[E4H_MAXP][E4H_MAXV];          /* reassembling packet id, -1 none */
  unsigned rx_n[E4H_MAXP][E4H_MAXV];
  uint32_t rx_body[E4H_MAXP][E4H_MAXV][E4H_MAXBODY + 1];
  uint32_t rx_head[E4H_MAXP][E4H_MAXV];
  unsigned rx_occ[E4H_MAXP][E4H_MAXV];     /* our buffer: flits held, credit not yet returned */
  unsigned owe[E4H_MAXP][E4H_MAXV];        /* credits to return */
  int tok_due[E4H_MAXP][E4H_MAXV];          /* token to send: -1 none, else ack bit */
  uint64_t tok_at[E4H_MAXP][E4H_MAXV];
  int last_seq[E4H_MAXP][E4H_MAXV][E4H_MAXP]; /* order per (src, vc, dest) */
  /* planted violations */
  e4h_inj_t inj[E4H_MAXINJ];
  unsigned ninj;
  bool expect_errors;
  /* statistics */
  uint64_t lat_min, lat_sum, lat_n, delivered, retries, cycles;
  uint64_t now;
  cosim_rng_t rng;            /* the receiving side's randomness (check() has no rng) */
  char fail[512];
  char fail_id[48];           /* the check that failed first (see cosim_fail) */
} e4h_t;

static inline void e4h_init(e4h_t *h, unsigned P, unsigned V, unsigned depth, uint32_t up_mask, cosim_rng_t *rng) {
  memset(h, 0, sizeof *h);
  cosim_rng_seed(&h->rng, cosim_rng_u64(rng));
  h->P = P;
  h->V = V;
  h->depth = depth;
  h->up_mask = up_mask;
  h->lat_min = UINT64_MAX;
  for (unsigned p = 0; p < P; p++)
    for (unsigned v = 0; v < V; v++) {
      h->cur[p][v] = -1;
      h->rx_pkt[p][v] = -1;
      h->tok_due[p][v] = -1;
      h->early_tok[p][v] = -1;
      h->credits[p][v] = depth;
      for (unsigned d = 0; d < P; d++) h->last_seq[p][v][d] = -1;
    }
}

static inline void e4h_failf(e4h_t *h, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void e4h_failf(e4h_t *h, const char *id, const char *fmt, ...) {
  if (h->fail[0]) return;
  snprintf(h->fail_id, sizeof h->fail_id, "%s", id);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->fail, sizeof h->fail, fmt, ap);
  va_end(ap);
}

/* What the route word's front tag means for one switch (docs/elite4.md §3). */
static inline bool e4h_route_ports(const e4h_t *h, uint32_t route, uint32_t *ports, bool *any_of, uint32_t *stripped) {
  unsigned tag = route & 15, r = (route >> 4) & 15, lo = r >> 2, hi = r & 3;
  *any_of = false;
  *stripped = 0xF0000000u | (route >> 4);
  if (tag < h->P) {
    *ports = 1u << tag;
    return true;
  }
  if (tag == ELITE4_TAG_UP) {
    *ports = h->up_mask & ((1u << h->P) - 1);
    *any_of = true;
    return *ports != 0;
  }
  if (tag == ELITE4_TAG_BCAST && lo <= hi && hi < h->P) {
    *ports = ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
    *stripped = 0xFF000000u | (route >> 8);
    return true;
  }
  return false;
}

/* Queue a packet from the neighbour on port `src`, VC `vc`, not before `at`.
 * Returns its id. nbody >= 1: body word 0 identifies the packet. */
static inline int e4h_send(e4h_t *h, unsigned src, unsigned vc, uint32_t route, unsigned nbody, uint64_t at,
                           cosim_rng_t *rng) {
  if (h->npkt == E4H_MAXPKT || h->qn[src][vc] == E4H_MAXQ) return -1;
  unsigned id = h->npkt++;
  e4h_pkt_t *k = &h->pkt[id];
  memset(k, 0, sizeof *k);
  k->route = route;
  k->src = src;
  k->vc = vc;
  k->nbody = nbody < 1 ? 1 : nbody > E4H_MAXBODY ? E4H_MAXBODY : nbody;
  if (!e4h_route_ports(h, route, &k->ports, &k->any_of, &k->stripped)) k->ports = 0; /* illegal: dropped */
  k->body[0] = id;
  k->t_created = h->now;
  for (unsigned i = 1; i < k->nbody; i++) k->body[i] = rng ? (uint32_t)cosim_rng_u64(rng) : 0x01010101u * i;
  unsigned slot = (h->qh[src][vc] + h->qn[src][vc]++) % E4H_MAXQ;
  h->q[src][vc][slot] = id;
  if (h->qn[src][vc] == 1 && h->q_not_before[src][vc] < at) h->q_not_before[src][vc] = at;
  return (int)id;
}

/* Plant a protocol violation on port `port` at cycle `at`; the switch must
 * flag it with error `code` on port `eport` (checked), and keep serving. */
static inline void e4h_inject(e4h_t *h, uint64_t at, e4h_inj_kind_t kind, unsigned port, unsigned vc, unsigned code) {
  if (h->ninj < E4H_MAXINJ) h->inj[h->ninj++] = (e4h_inj_t){at, kind, port, vc, code, false};
  h->expect_errors = true;
}

/* The token for the packet last taken from queue (p, v): done, or (nacked)
 * back to the front of the queue for a retry. Illegal routes are not retried. */
static inline void e4h_settle(e4h_t *h, unsigned p, unsigned v, bool ack) {
  unsigned id = h->q[p][v][(h->qh[p][v] + E4H_MAXQ - 1) % E4H_MAXQ];
  e4h_pkt_t *k = &h->pkt[id];
  if (ack || !k->ports) {
    k->done = true;
  } else {
    h->retries++;
    h->qh[p][v] = (h->qh[p][v] + E4H_MAXQ - 1) % E4H_MAXQ;
    h->qn[p][v]++;
  }
}

/* ---- one cycle: what the neighbours put on the switch's inputs -------------- */
static inline void e4h_drive(e4h_t *h, cosim_rng_t *rng, e4h_link_t *in) {
  const uint64_t c = h->now;
  memset(in, 0, sizeof(e4h_link_t) * h->P);
  for (unsigned p = 0; p < h->P; p++) {
    /* credits for the flits the switch sent us, possibly held back */
    for (unsigned v = 0; v < h->V; v++)
      if (h->owe[p][v] && !cosim_rng_chance(rng, h->backpressure + h->bp_port[p] + h->bp_vc[p][v])) {
        in[p].credit[v] = true;
        h->owe[p][v]--;
        h->rx_occ[p][v]--;
      }
    /* planted violations take the link this cycle */
    bool busy = false;
    for (unsigned k = 0; k < h->ninj; k++) {
      e4h_inj_t *j = &h->inj[k];
      if (j->cycle != c || j->port != p || j->kind == INJ_NONE) continue;
      busy = true;
      in[p].valid = true;
      in[p].vc = j->vc;
      switch (j->kind) {
      case INJ_BODY_NO_PACKET: /* the switch pops it and returns the credit */
        in[p].kind = ELITE4_BODY; in[p].data = 0xB0D1B0D1u; h->credits[p][j->vc]--; break;
      case INJ_CREDIT_OVERFLOW: /* sent with no credit: dropped, no credit comes back */
        in[p].kind = ELITE4_BODY; in[p].data = 0xC0C0C0C0u; break;
      case INJ_STRAY_TOKEN:
        in[p].kind = ELITE4_TOKEN; in[p].data = 1; break;
      case INJ_CREDIT_RETURN: /* a credit the switch never gave */
        in[p].valid = false; busy = false; in[p].credit[j->vc] = true; break;
      default: break;
      }
    }
    if (busy) continue;
    /* a token owed for a packet we received goes first */
    for (unsigned v = 0; v < h->V && !in[p].valid; v++)
      if (h->tok_due[p][v] >= 0 && c >= h->tok_at[p][v]) {
        in[p].valid = true;
        in[p].kind = ELITE4_TOKEN;
        in[p].vc = v;
        in[p].data = (uint32_t)h->tok_due[p][v];
        h->tok_due[p][v] = -1;
      }
    if (in[p].valid) continue;
    /* one data flit, round-robin over VCs that can send */
    for (unsigned k = 0; k < h->V; k++) {
      unsigned v = (h->rr[p] + k) % h->V;
      if (h->cur[p][v] < 0) {
        if (h->await_tok[p][v] || h->qn[p][v] == 0 || c < h->q_not_before[p][v]) continue;
        h->cur[p][v] = (int)h->q[p][v][h->qh[p][v]];
        h->qh[p][v] = (h->qh[p][v] + 1) % E4H_MAXQ;
        h->qn[p][v]--;
        h->flit_i[p][v] = 0;
      }
      if (h->credits[p][v] == 0) continue;
      e4h_pkt_t *k2 = &h->pkt[h->cur[p][v]];
      unsigned i = h->flit_i[p][v]++;
      in[p].valid = true;
      in[p].vc = v;
      if (i == 0) {
        in[p].kind = ELITE4_HEAD;
        in[p].data = k2->route;
        k2->t_head_in = c;
      } else if (i <= k2->nbody) {
        in[p].kind = ELITE4_BODY;
        in[p].data = k2->body[i - 1];
      } else {
        in[p].kind = ELITE4_TAIL;
        in[p].data = elite4_body_crc(k2->body, k2->nbody) ^ (k2->bad_crc_once ? 1u : 0u);
        k2->bad_crc_once = false;
        h->cur[p][v] = -1;
        if (h->early_tok[p][v] >= 0) { /* a switch already nacked it at its HEAD */
          e4h_settle(h, p, v, h->early_tok[p][v] != 0);
          h->early_tok[p][v] = -1;
        } else {
          h->await_tok[p][v] = true;
        }
      }
      h->credits[p][v]--;
      h->rr[p] = (v + 1) % h->V;
      break;
    }
  }
}

/* ---- one cycle: what the switch shows on its outputs ------------------------ */
static inline void e4h_observe(e4h_t *h, const e4h_link_t *out, const bool *err, const unsigned *err_code) {
  cosim_rng_t *rng = &h->rng;
  const uint64_t c = h->now;
  for (unsigned p = 0; p < h->P; p++) {
    for (unsigned v = 0; v < h->V; v++)
      if (out[p].credit[v]) {
        h->credits[p][v]++;
        if (h->credits[p][v] > h->depth)
          e4h_failf(h, "elite4.credit_overflow", "switch returned more credits than buffer slots on port %u VC %u", p, v);
      }
    if (err[p]) {
      bool planted = false;
      for (unsigned k = 0; k < h->ninj; k++) {
        e4h_inj_t *j = &h->inj[k];
        if (!j->seen && c > j->cycle && c <= j->cycle + E4H_ERR_WINDOW && err_code[p] == j->expect_code &&
            p == j->port) {
          j->seen = true;
          planted = true;
          break;
        }
      }
      if (!planted)
        e4h_failf(h, "elite4.unexpected_error", "unexpected error code %u on port %u at cycle %llu", err_code[p], p, (unsigned long long)c);
    }
    if (!out[p].valid) continue;
    unsigned v = out[p].vc;
    if (out[p].kind == ELITE4_TOKEN) { /* for the packet we sent on (p, v) */
      if (h->await_tok[p][v]) {
        h->await_tok[p][v] = false;
        e4h_settle(h, p, v, out[p].data & 1);
      } else if (h->cur[p][v] >= 0 && h->early_tok[p][v] < 0) {
        h->early_tok[p][v] = (int)(out[p].data & 1); /* settled when our TAIL has gone */
      } else {
        e4h_failf(h, "elite4.token_unexpected", "token on port %u VC %u with no packet waiting for one", p, v);
      }
      continue;
    }
    /* a data flit into our buffer (p, v) */
    if (++h->rx_occ[p][v] > h->depth) e4h_failf(h, "elite4.rx_overrun", "switch overran our buffer on port %u VC %u", p, v);
    h->owe[p][v]++;
    if (out[p].kind == ELITE4_HEAD) {
      if (h->rx_pkt[p][v] >= 0) e4h_failf(h, "elite4.head_in_packet", "HEAD on port %u VC %u inside a packet", p, v);
      h->rx_pkt[p][v] = 0;
      h->rx_n[p][v] = 0;
      h->rx_head[p][v] = out[p].data;
    } else if (h->rx_pkt[p][v] < 0) {
      e4h_failf(h, "elite4.body_without_head", "%s with no packet on port %u VC %u at cycle %llu", out[p].kind == ELITE4_BODY ? "BODY" : "TAIL",
                p, v, (unsigned long long)c);
    } else if (out[p].kind == ELITE4_BODY) {
      if (h->rx_n[p][v] < E4H_MAXBODY) h->rx_body[p][v][h->rx_n[p][v]++] = out[p].data;
    } else { /* TAIL: the packet is complete */
      h->rx_pkt[p][v] = -1;
      unsigned n = h->rx_n[p][v];
      uint32_t id = n ? h->rx_body[p][v][0] : 0;
      bool crc_ok = n && out[p].data == elite4_body_crc(h->rx_body[p][v], n);
      e4h_pkt_t *k = id < h->npkt ? &h->pkt[id] : NULL;
      int ack = 1;
      if (!crc_ok || !k) { /* the destination refuses it; the source retries */
        if (!h->expect_errors) e4h_failf(h, "elite4.corrupt", "corrupt packet on port %u VC %u (CRC or id)", p, v);
        ack = 0;
      } else {
        if (!(k->ports >> p & 1)) e4h_failf(h, "elite4.wrong_port", "packet %u arrived on port %u, routed to 0x%x", id, p, k->ports);
        if (h->rx_head[p][v] != k->stripped)
          e4h_failf(h, "elite4.route_strip", "packet %u left with route 0x%08x, expected 0x%08x", id, h->rx_head[p][v], k->stripped);
        if (k->vc != v) e4h_failf(h, "elite4.vc", "packet %u sent on VC %u arrived on VC %u", id, k->vc, v);
        if (n != k->nbody || memcmp(h->rx_body[p][v], k->body, n * 4))
          e4h_failf(h, "elite4.body", "packet %u arrived with a different body", id);
        if (k->nack_once) {
          k->nack_once = false;
          ack = 0;
        } else {
          if (k->delivered >> p & 1) e4h_failf(h, "elite4.duplicate", "packet %u delivered twice on port %u", id, p);
          if (k->any_of && k->delivered) e4h_failf(h, "elite4.adaptive_twice", "adaptive packet %u delivered on two up-links", id);
          k->delivered |= 1u << p;
          h->delivered++;
          if ((int)id < h->last_seq[k->src][v][p])
            e4h_failf(h, "elite4.order", "packet %u overtook a later one from port %u VC %u", id, k->src, v);
          h->last_seq[k->src][v][p] = (int)id;
        }
      }
      h->tok_due[p][v] = ack;
      h->tok_at[p][v] = c + cosim_rng_below(rng, 4);
    }
  }
}

/* The latency of a HEAD is measured when its id is known (first BODY); the
 * cycle the HEAD appeared is kept per receiving (port, VC). */
static inline void e4h_note_head(e4h_t *h, const e4h_link_t *out, uint64_t *head_seen) {
  for (unsigned p = 0; p < h->P; p++) {
    if (!out[p].valid) continue;
    unsigned v = out[p].vc, pv = p * E4H_MAXV + v;
    if (out[p].kind == ELITE4_HEAD) head_seen[pv] = h->now;
    if (out[p].kind == ELITE4_BODY && h->rx_n[p][v] == 1) {
      uint32_t id = out[p].data;
      if (id < h->npkt) {
        uint64_t lat = head_seen[pv] - h->pkt[id].t_head_in;
        if (lat < h->lat_min) h->lat_min = lat;
        h->lat_sum += lat;
        h->lat_n++;
      }
    }
  }
}

/* End of run: every planted violation flagged, and every packet created
 * before `settled` delivered where it was routed and acknowledged. */
static inline bool e4h_finish(e4h_t *h, uint64_t settled, cosim_msg_t *msg) {
  if (h->fail[0]) {
    cosim_fail(msg, h->fail_id, "%s", h->fail);
    return false;
  }
  for (unsigned k = 0; k < h->ninj; k++)
    if (!h->inj[k].seen) {
      cosim_fail(msg, "elite4.violation_not_flagged", "planted violation %u on port %u at cycle %llu was not flagged with error %u", h->inj[k].kind,
                 h->inj[k].port, (unsigned long long)h->inj[k].cycle, h->inj[k].expect_code);
      return false;
    }
  for (unsigned id = 0; id < h->npkt; id++) {
      const e4h_pkt_t *k = &h->pkt[id];
      if (k->t_created >= settled) continue;
      bool ok = k->ports == 0 || (k->any_of ? k->delivered != 0 : k->delivered == k->ports);
      if (!ok || !k->done) {
        cosim_fail(msg, "elite4.delivery", "packet %u (port %u VC %u, route 0x%08x) not %s: delivered to 0x%x of 0x%x", id, k->src,
                   k->vc, k->route, k->done ? "delivered" : "finished", k->delivered, k->ports);
        return false;
      }
    }
  return true;
}

/* Per-target glue between the harness's links and the generated structs. */
#define E4H_PORTS(T, U)                                                                 \
  static void T##_to_in(const e4h_t *h, const e4h_link_t *l, T##_in_t *in) {            \
    const unsigned VW = h->V == 2 ? 1 : 2;                                              \
    for (unsigned p = 0; p < h->P; p++) {                                               \
      E4_SET(in, in_valid_i, p, 1, l[p].valid);                                         \
      E4_SET(in, in_kind_i, 2 * p, 2, l[p].kind);                                       \
      E4_SET(in, in_vc_i, VW * p, VW, l[p].vc);                                         \
      E4_SET(in, in_data_i, 32 * p, 32, l[p].data);                                     \
      for (unsigned v = 0; v < h->V; v++) E4_SET(in, in_credit_i, p * h->V + v, 1, l[p].credit[v]); \
    }                                                                                   \
  }                                                                                     \
  static void T##_from_out(const e4h_t *h, const T##_out_t *o, e4h_link_t *l, bool *err, unsigned *code) { \
    const unsigned VW = h->V == 2 ? 1 : 2;                                              \
    for (unsigned p = 0; p < h->P; p++) {                                               \
      l[p].valid = E4_GET(o, out_valid_o, p, 1);                                        \
      l[p].kind = E4_GET(o, out_kind_o, 2 * p, 2);                                      \
      l[p].vc = E4_GET(o, out_vc_o, VW * p, VW);                                        \
      l[p].data = E4_GET(o, out_data_o, 32 * p, 32);                                    \
      for (unsigned v = 0; v < h->V; v++) l[p].credit[v] = E4_GET(o, out_credit_o, p * h->V + v, 1); \
      err[p] = E4_GET(o, err_o, p, 1);                                                  \
      code[p] = E4_GET(o, err_code_o, 3 * p, 3);                                        \
    }                                                                                   \
  }

#endif
