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
 * latency through the switch (docs/elite4.md §8: 4 cycles uncontended).
 *
 * Tests describe traffic with e4h_send() (a scripted packet) or a random
 * generator, and may plant protocol violations with e4h_inject().
 *
 * Packet ids are recycled: a packet lives in slot id % E4H_MAXPKT from its
 * creation until its token is back, so a run can inject for its whole
 * length. The harness counts the cycles with traffic in flight (a HEAD sent
 * and its token not yet back) for the random tests' coverage gate. It reaches
 * the switch's ports through the target's generated view (per-lane
 * accessors), so it serves every parameter set, and checks TAIL CRCs with its
 * own table-driven CRC-32 (testbench/ref/crc32_ref.h), never the model's.
 */
#ifndef ELITE4_HARNESS_H
#define ELITE4_HARNESS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/elite4.h"
#include "ref/crc32_ref.h"

#define E4H_MAXP    16
#define E4H_MAXV    4
#define E4H_MAXQ    64    /* packets queued per (port, VC) */
#define E4H_MAXBODY 17    /* body words: the id plus up to 16 bytes x4 of payload */
#define E4H_MAXPKT  8192  /* packets alive at once (id slots, recycled) */
#define E4H_STUCK   50000 /* cycles a sent packet may wait for its token before the run fails */
#define E4H_MAXINJ  64

/* docs/elite4.md §8: an uncontended HEAD, in_* to out_* (ARRIVE, VA, SA, ST) */
#define E4H_HEAD_LATENCY 4

typedef struct {
  bool valid;
  unsigned kind, vc;
  uint32_t data;
  bool credit[E4H_MAXV];
} e4h_link_t;

typedef struct {
  uint32_t id;       /* body word 0; the slot is id % E4H_MAXPKT */
  bool live;         /* created, token not yet back */
  uint32_t route;    /* route word as sent */
  uint32_t stripped; /* what the HEAD must carry when it leaves */
  uint32_t ports;    /* where it may arrive (adaptive: any of these, once) */
  bool any_of;       /* adaptive: exactly one of `ports` */
  unsigned nbody, src, vc;
  uint32_t body[E4H_MAXBODY];
  uint32_t delivered; /* ports that received it (acked) */
  uint64_t t_head_in; /* cycle the HEAD entered the switch (last try) */
  uint64_t t_created;
  bool nack_once;    /* destination nacks its first copy (tests retries) */
  bool bad_crc_once; /* the first try carries a wrong CRC (the switch counts it) */
  bool done;         /* source got its token */
  bool sent;         /* a HEAD of it has gone into the switch */
} e4h_pkt_t;

/* A planted protocol violation driven by the harness (INJ_*), or just an
 * error the switch must raise (INJ_NONE: caused by a scripted packet). */
typedef enum {
  INJ_NONE,
  INJ_BODY_NO_PACKET,
  INJ_CREDIT_OVERFLOW,
  INJ_STRAY_TOKEN,
  INJ_CREDIT_RETURN,
  INJ_TRUNCATE,
  INJ_TRUNCATE_DROP
} e4h_inj_kind_t;
typedef struct {
  uint64_t cycle;
  e4h_inj_kind_t kind;
  unsigned port, vc;
  unsigned expect_code;
  unsigned delay; /* err_o must pulse exactly this many cycles after the planting; 0: in the window */
  bool seen;
} e4h_inj_t;
#define E4H_ERR_WINDOW 60 /* cycles after the planting in which the error must show */

typedef struct {
  const elite4_view_t *vw; /* the target's ports */
  unsigned P, V, depth;
  uint32_t up_mask;
  double backpressure;              /* chance a credit return is delayed this cycle */
  double bp_port[E4H_MAXP];         /* per port, added to it (1 = no credits at all) */
  double bp_vc[E4H_MAXP][E4H_MAXV]; /* per (port, VC), added too */
  /* packets */
  e4h_pkt_t pkt[E4H_MAXPKT];
  unsigned npkt; /* ids handed out so far */
  unsigned live; /* packets created and not finished */
  /* sender side, per (port, VC) of the neighbour */
  unsigned q[E4H_MAXP][E4H_MAXV][E4H_MAXQ], qh[E4H_MAXP][E4H_MAXV], qn[E4H_MAXP][E4H_MAXV];
  uint64_t q_not_before[E4H_MAXP][E4H_MAXV];
  int cur[E4H_MAXP][E4H_MAXV]; /* packet being sent, -1 none */
  unsigned flit_i[E4H_MAXP][E4H_MAXV];
  bool await_tok[E4H_MAXP][E4H_MAXV];
  int early_tok[E4H_MAXP][E4H_MAXV];    /* token back before our TAIL left: -1 none, else ack */
  unsigned credits[E4H_MAXP][E4H_MAXV]; /* the switch's free buffer slots as we know them */
  unsigned rr[E4H_MAXP];
  /* receiver side, per (port, VC) */
  int rx_pkt[E4H_MAXP][E4H_MAXV]; /* reassembling packet id, -1 none */
  unsigned rx_n[E4H_MAXP][E4H_MAXV];
  uint32_t rx_body[E4H_MAXP][E4H_MAXV][E4H_MAXBODY + 1];
  uint32_t rx_head[E4H_MAXP][E4H_MAXV];
  unsigned rx_occ[E4H_MAXP][E4H_MAXV];  /* our buffer: flits held, credit not yet returned */
  unsigned owe[E4H_MAXP][E4H_MAXV];     /* credits to return */
  int tok_due[E4H_MAXP][E4H_MAXV];      /* token to send: -1 none, else ack bit */
  unsigned inj_tok[E4H_MAXP][E4H_MAXV]; /* nacks owed to planted (truncated) packets */
  uint64_t tok_at[E4H_MAXP][E4H_MAXV];
  long long last_seq[E4H_MAXP][E4H_MAXV][E4H_MAXP]; /* order per (src, vc, dest) */
  /* planted violations */
  e4h_inj_t inj[E4H_MAXINJ];
  unsigned ninj;
  bool expect_errors;
  /* statistics */
  uint64_t lat_min, lat_sum, lat_n, delivered, retries, cycles;
  unsigned in_flight; /* tries whose HEAD was sent and whose token is not back */
  unsigned stuck;     /* cycles a sent packet may wait for its token (E4H_STUCK) */
  uint64_t busy_cycles, driven_cycles, wait_max;
  uint64_t now;
  cosim_rng_t rng; /* the receiving side's randomness (check() has no rng) */
  char fail[512];
  char fail_id[48]; /* the check that failed first (see cosim_fail) */
} e4h_t;

static inline void e4h_init(e4h_t *h, const elite4_view_t *vw, cosim_rng_t *rng) {
  memset(h, 0, sizeof *h);
  cosim_rng_seed(&h->rng, cosim_rng_u64(rng));
  const unsigned P = (unsigned)vw->param.NumPorts, V = (unsigned)vw->param.NumVcs;
  h->vw = vw;
  h->P = P;
  h->V = V;
  h->depth = (unsigned)vw->param.BufDepth;
  h->up_mask = (uint32_t)vw->param.UpMask;
  h->lat_min = UINT64_MAX;
  h->stuck = E4H_STUCK;
  for (unsigned p = 0; p < P; p++)
    for (unsigned v = 0; v < V; v++) {
      h->cur[p][v] = -1;
      h->rx_pkt[p][v] = -1;
      h->tok_due[p][v] = -1;
      h->early_tok[p][v] = -1;
      h->credits[p][v] = h->depth;
      for (unsigned d = 0; d < P; d++) h->last_seq[p][v][d] = -1;
    }
}

static inline void e4h_failf(e4h_t *h, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void e4h_failf(e4h_t *h, const char *id, const char *fmt, ...) {
  if (h->fail[0]) return;
  snprintf(h->fail_id, sizeof h->fail_id, "%s", id);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->fail, sizeof h->fail, fmt, ap);
  va_end(ap);
}

/* What the route word's front tag means for one switch (docs/elite4.md §3). */
static inline bool e4h_route_ports(const e4h_t *h, uint32_t route, uint32_t *ports, bool *any_of,
                                   uint32_t *stripped) {
  unsigned tag = route & 15, r = (route >> 4) & 15, lo = r >> 2, hi = r & 3;
  *any_of = false;
  *stripped = 0xF0000000u | (route >> 4);
  if (tag < h->P) {
    *ports = 1u << tag;
    return true;
  }
  if (tag == ELITE4_TAG_UP || (tag == ELITE4_TAG_UPN && r != 0)) {
    /* TagUpN, count r: up as TagUp; the count goes down by one in place, or at 1
       both tags go */
    if (tag == ELITE4_TAG_UPN)
      *stripped =
          r > 1 ? (route & 0xFFFFFF00u) | ((r - 1) << 4) | ELITE4_TAG_UPN : 0xFF000000u | (route >> 8);
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
  if (h->qn[src][vc] == E4H_MAXQ || h->pkt[h->npkt % E4H_MAXPKT].live) return -1;
  unsigned id = h->npkt++;
  e4h_pkt_t *k = &h->pkt[id % E4H_MAXPKT];
  memset(k, 0, sizeof *k);
  k->id = id;
  k->live = true;
  h->live++;
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

/* The live packet with this id (a body word 0 seen on a link), or NULL. */
static inline e4h_pkt_t *e4h_pkt(e4h_t *h, uint32_t id) {
  e4h_pkt_t *k = &h->pkt[id % E4H_MAXPKT];
  return k->live && k->id == id ? k : NULL;
}

/* Plant a protocol violation on port `port` at cycle `at`; the switch must
 * flag it with error `code` on port `eport` (checked), and keep serving. */
static inline void e4h_inject(e4h_t *h, uint64_t at, e4h_inj_kind_t kind, unsigned port, unsigned vc,
                              unsigned code) {
  /* The cycle the event happens is fixed by the spec for these three, whatever
   * the switch is doing: a credit return (error 6) and a flit with no credit
   * (error 3, ARRIVE) in the planting cycle t, a stray token (error 5) in T1,
   * t+1; the error group shows a cycle's events two cycles later (§5.7). */
  unsigned delay = kind == INJ_CREDIT_RETURN || kind == INJ_CREDIT_OVERFLOW ? 2
                   : kind == INJ_STRAY_TOKEN                                ? 3
                                                                            : 0;
  if (h->ninj < E4H_MAXINJ) h->inj[h->ninj++] = (e4h_inj_t){at, kind, port, vc, code, delay, false};
  h->expect_errors = true;
}

/* The token for the packet last taken from queue (p, v): done, or (nacked)
 * back to the front of the queue for a retry. Illegal routes are not retried. */
static inline void e4h_settle(e4h_t *h, unsigned p, unsigned v, bool ack) {
  unsigned id = h->q[p][v][(h->qh[p][v] + E4H_MAXQ - 1) % E4H_MAXQ];
  e4h_pkt_t *k = &h->pkt[id % E4H_MAXPKT];
  h->in_flight--;
  if (!k->ports && ack) /* §5.2: an illegal route is dropped and nacked */
    e4h_failf(h, "elite4.illegal_acked", "packet %u (port %u VC %u, illegal route 0x%08x) was acked", id,
              k->src, k->vc, k->route);
  if (ack || !k->ports) {
    /* finished: it must have arrived everywhere it was routed (its slot is reused) */
    bool ok = k->ports == 0 || (k->any_of ? k->delivered != 0 : k->delivered == k->ports);
    if (!ok)
      e4h_failf(h, "elite4.delivery",
                "packet %u (port %u VC %u, route 0x%08x) acked but delivered to 0x%x of 0x%x", id, k->src,
                k->vc, k->route, k->delivered, k->ports);
    k->done = true;
    k->live = false;
    h->live--;
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
      const uint64_t len = j->kind == INJ_TRUNCATE || j->kind == INJ_TRUNCATE_DROP ? 4 : 1;
      if (c < j->cycle || c >= j->cycle + len || j->port != p || j->kind == INJ_NONE) continue;
      busy = true;
      in[p].valid = true;
      in[p].vc = j->vc;
      switch (j->kind) {
        case INJ_TRUNCATE:        /* HEAD to port 0, BODY, then a HEAD (illegal tag 15) with the first
                            packet's TAIL missing: the switch closes the circuit with a
                            0xBAD0BAD0 TAIL (error 4), the destination nacks it; the second
                            HEAD is dropped (error 1, a nack); a TAIL ends the DROP. */
        case INJ_TRUNCATE_DROP: { /* the same inside a dropped packet: the two HEADs swapped. The
                                   illegal one (error 1, dropped, a nack) comes first; the HEAD
                                   to port 0 ends the drop (error 4) and is a packet of its own,
                                   which the TAIL ends with no body: the destination nacks it. */
          const uint32_t legal = 0xFFFFFFF0u, illegal = 0xFFFFFFFFu;
          const bool drop_first = j->kind == INJ_TRUNCATE_DROP;
          h->credits[p][j->vc]--;
          switch (c - j->cycle) {
            case 0:
              in[p].kind = ELITE4_HEAD;
              in[p].data = drop_first ? illegal : legal;
              h->inj_tok[p][j->vc] += 2;
              h->in_flight += 2;
              break;
            case 1:
              in[p].kind = ELITE4_BODY;
              in[p].data = 0xFFFFFFFFu;
              break; /* no packet's id */
            case 2:
              in[p].kind = ELITE4_HEAD;
              in[p].data = drop_first ? legal : illegal;
              break;
            default:
              in[p].kind = ELITE4_TAIL;
              in[p].data = 0;
              break;
          }
          break;
        }
        case INJ_BODY_NO_PACKET: /* the switch pops it and returns the credit */
          in[p].kind = ELITE4_BODY;
          in[p].data = 0xB0D1B0D1u;
          h->credits[p][j->vc]--;
          break;
        case INJ_CREDIT_OVERFLOW: /* sent with no credit: dropped, no credit comes back */
          in[p].kind = ELITE4_BODY;
          in[p].data = 0xC0C0C0C0u;
          break;
        case INJ_STRAY_TOKEN:
          in[p].kind = ELITE4_TOKEN;
          in[p].data = 1;
          break;
        case INJ_CREDIT_RETURN: /* a credit the switch never gave */
          in[p].valid = false;
          busy = false;
          in[p].credit[j->vc] = true;
          break;
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
      e4h_pkt_t *k2 = &h->pkt[(unsigned)h->cur[p][v] % E4H_MAXPKT];
      unsigned i = h->flit_i[p][v]++;
      in[p].valid = true;
      in[p].vc = v;
      if (i == 0) {
        in[p].kind = ELITE4_HEAD;
        in[p].data = k2->route;
        k2->t_head_in = c;
        k2->sent = true;
        h->in_flight++;
      } else if (i <= k2->nbody) {
        in[p].kind = ELITE4_BODY;
        in[p].data = k2->body[i - 1];
      } else {
        in[p].kind = ELITE4_TAIL;
        in[p].data = crc32_ref_words(k2->body, k2->nbody) ^ (k2->bad_crc_once ? 1u : 0u);
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
  h->driven_cycles++;
  if (h->in_flight) h->busy_cycles++;
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
          e4h_failf(h, "elite4.credit_overflow",
                    "switch returned more credits than buffer slots on port %u VC %u", p, v);
      }
    if (err[p]) {
      bool planted = false;
      for (unsigned k = 0; k < h->ninj; k++) {
        e4h_inj_t *j = &h->inj[k];
        if (!j->seen && c > j->cycle && c <= j->cycle + E4H_ERR_WINDOW && err_code[p] == j->expect_code &&
            p == j->port) {
          j->seen = true;
          planted = true;
          if (j->delay && c != j->cycle + j->delay)
            e4h_failf(h, "elite4.err_timing",
                      "error %u planted on port %u at cycle %llu shown at cycle %llu, expected %llu (§5.7)",
                      j->expect_code, p, (unsigned long long)j->cycle, (unsigned long long)c,
                      (unsigned long long)(j->cycle + j->delay));
          break;
        }
      }
      if (!planted)
        e4h_failf(h, "elite4.unexpected_error", "unexpected error code %u on port %u at cycle %llu",
                  err_code[p], p, (unsigned long long)c);
    }
    if (!out[p].valid) continue;
    unsigned v = out[p].vc;
    if (out[p].kind == ELITE4_TOKEN) { /* for the packet we sent on (p, v) */
      if (h->inj_tok[p][v]) {          /* for a planted truncated packet: a nack */
        h->inj_tok[p][v]--;
        h->in_flight--;
        if (out[p].data & 1)
          e4h_failf(h, "elite4.truncated_acked", "a truncated packet on port %u VC %u was acked", p, v);
      } else if (h->await_tok[p][v]) {
        h->await_tok[p][v] = false;
        e4h_settle(h, p, v, out[p].data & 1);
      } else if (h->cur[p][v] >= 0 && h->early_tok[p][v] < 0) {
        h->early_tok[p][v] = (int)(out[p].data & 1); /* settled when our TAIL has gone */
      } else {
        e4h_failf(h, "elite4.token_unexpected", "token on port %u VC %u with no packet waiting for one", p,
                  v);
      }
      continue;
    }
    /* a data flit into our buffer (p, v) */
    if (++h->rx_occ[p][v] > h->depth)
      e4h_failf(h, "elite4.rx_overrun", "switch overran our buffer on port %u VC %u", p, v);
    h->owe[p][v]++;
    if (out[p].kind == ELITE4_HEAD) {
      if (h->rx_pkt[p][v] >= 0)
        e4h_failf(h, "elite4.head_in_packet", "HEAD on port %u VC %u inside a packet", p, v);
      h->rx_pkt[p][v] = 0;
      h->rx_n[p][v] = 0;
      h->rx_head[p][v] = out[p].data;
    } else if (h->rx_pkt[p][v] < 0) {
      e4h_failf(h, "elite4.body_without_head", "%s with no packet on port %u VC %u at cycle %llu",
                out[p].kind == ELITE4_BODY ? "BODY" : "TAIL", p, v, (unsigned long long)c);
    } else if (out[p].kind == ELITE4_BODY) {
      if (h->rx_n[p][v] == 0) { /* the id: the packet's VC is known from its first BODY on */
        const e4h_pkt_t *k = e4h_pkt(h, out[p].data);
        if (k && k->vc != v)
          e4h_failf(h, "elite4.vc", "packet %u sent on VC %u arrives on VC %u (port %u, cycle %llu)", k->id,
                    k->vc, v, p, (unsigned long long)c);
      }
      if (h->rx_n[p][v] < E4H_MAXBODY) h->rx_body[p][v][h->rx_n[p][v]++] = out[p].data;
    } else { /* TAIL: the packet is complete */
      h->rx_pkt[p][v] = -1;
      unsigned n = h->rx_n[p][v];
      uint32_t id = n ? h->rx_body[p][v][0] : 0;
      bool crc_ok = n && out[p].data == crc32_ref_words(h->rx_body[p][v], n);
      e4h_pkt_t *k = n ? e4h_pkt(h, id) : NULL;
      int ack = 1;
      if (!crc_ok || !k) { /* the destination refuses it; the source retries */
        if (!h->expect_errors)
          e4h_failf(h, "elite4.corrupt", "corrupt packet on port %u VC %u (CRC or id)", p, v);
        ack = 0;
      } else {
        if (!(k->ports >> p & 1))
          e4h_failf(h, "elite4.wrong_port", "packet %u arrived on port %u, routed to 0x%x", id, p, k->ports);
        if (h->rx_head[p][v] != k->stripped)
          e4h_failf(h, "elite4.route_strip", "packet %u left with route 0x%08x, expected 0x%08x", id,
                    h->rx_head[p][v], k->stripped);
        if (n != k->nbody || memcmp(h->rx_body[p][v], k->body, n * 4))
          e4h_failf(h, "elite4.body", "packet %u arrived with a different body", id);
        if (k->nack_once) {
          k->nack_once = false;
          ack = 0;
        } else {
          if (k->delivered >> p & 1)
            e4h_failf(h, "elite4.duplicate", "packet %u delivered twice on port %u", id, p);
          if (k->any_of && k->delivered)
            e4h_failf(h, "elite4.adaptive_twice", "adaptive packet %u delivered on two up-links", id);
          k->delivered |= 1u << p;
          h->delivered++;
          if ((long long)id < h->last_seq[k->src][v][p])
            e4h_failf(h, "elite4.order", "packet %u overtook a later one from port %u VC %u", id, k->src, v);
          h->last_seq[k->src][v][p] = (long long)id;
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
      const e4h_pkt_t *k = e4h_pkt(h, out[p].data);
      if (k) {
        uint64_t lat = head_seen[pv] - k->t_head_in;
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
      cosim_fail(msg, "elite4.violation_not_flagged",
                 "planted violation %u on port %u at cycle %llu was not flagged with error %u",
                 h->inj[k].kind, h->inj[k].port, (unsigned long long)h->inj[k].cycle, h->inj[k].expect_code);
      return false;
    }
  for (unsigned s = 0; s < E4H_MAXPKT; s++) { /* finished packets were checked when their token came */
    const e4h_pkt_t *k = &h->pkt[s];
    if (!k->live || k->t_created >= settled) continue;
    cosim_fail(msg, "elite4.delivery",
               "packet %u (port %u VC %u, route 0x%08x) not finished: delivered to 0x%x of 0x%x", k->id,
               k->src, k->vc, k->route, k->delivered, k->ports);
    return false;
  }
  return true;
}

/* Every cycle: a packet whose HEAD went in more than E4H_STUCK cycles ago and
 * whose token is not back means the switch stopped serving it. */
static inline void e4h_progress(e4h_t *h) {
  if (h->now % 256 != 0) return; /* a sweep over the slots every 256 cycles */
  for (unsigned s = 0; s < E4H_MAXPKT; s++) {
    const e4h_pkt_t *k = &h->pkt[s];
    if (!k->live || !k->sent) continue;
    uint64_t wait = h->now - k->t_head_in;
    if (wait > h->wait_max) h->wait_max = wait;
    if (wait > h->stuck) {
      e4h_failf(h, "elite4.stuck",
                "packet %u (port %u VC %u, route 0x%08x) sent at cycle %llu has no token after %u cycles",
                k->id, k->src, k->vc, k->route, (unsigned long long)k->t_head_in, h->stuck);
      return;
    }
  }
}

/* The random tests' coverage gate: at least 90 % of the cycles had traffic in flight. */
static inline void e4h_print_busy(const e4h_t *h) {
  printf("busy: %llu of %llu cycles with traffic in flight (%.1f %%); longest wait for a token %llu cycles\n",
         (unsigned long long)h->busy_cycles, (unsigned long long)h->driven_cycles,
         h->driven_cycles ? 100.0 * (double)h->busy_cycles / (double)h->driven_cycles : 0.0,
         (unsigned long long)h->wait_max);
}
static inline bool e4h_busy_gate(const e4h_t *h, uint64_t cycles, cosim_msg_t *msg) {
  if ((double)h->busy_cycles < 0.9 * (double)cycles) {
    cosim_fail(msg, "elite4.busy", "coverage hole: traffic in flight in only %llu of %llu cycles (< 90 %%)",
               (unsigned long long)h->busy_cycles, (unsigned long long)cycles);
    return false;
  }
  return true;
}

/* Between the harness's links and a target's ports, through its view. */
static inline void e4h_to_in(const e4h_t *h, const e4h_link_t *l, void *in) {
  const elite4_view_t *w = h->vw;
  for (unsigned p = 0; p < h->P; p++) {
    cosim_lane_set(&w->in.in_valid_i, in, p, l[p].valid);
    cosim_lane_set(&w->in.in_kind_i, in, p, l[p].kind);
    cosim_lane_set(&w->in.in_vc_i, in, p, l[p].vc);
    cosim_lane_set(&w->in.in_data_i, in, p, l[p].data);
    for (unsigned v = 0; v < h->V; v++) cosim_lane_set(&w->in.in_credit_i, in, p * h->V + v, l[p].credit[v]);
  }
}
static inline void e4h_from_out(const e4h_t *h, const void *o, e4h_link_t *l, bool *err, unsigned *code) {
  const elite4_view_t *w = h->vw;
  for (unsigned p = 0; p < h->P; p++) {
    l[p].valid = cosim_lane_get(&w->out.out_valid_o, o, p);
    l[p].kind = (unsigned)cosim_lane_get(&w->out.out_kind_o, o, p);
    l[p].vc = (unsigned)cosim_lane_get(&w->out.out_vc_o, o, p);
    l[p].data = (uint32_t)cosim_lane_get(&w->out.out_data_o, o, p);
    for (unsigned v = 0; v < h->V; v++)
      l[p].credit[v] = cosim_lane_get(&w->out.out_credit_o, o, p * h->V + v);
    err[p] = cosim_lane_get(&w->out.err_o, o, p);
    code[p] = (unsigned)cosim_lane_get(&w->out.err_code_o, o, p);
  }
}

/* One cycle of a test's scoreboard: read the switch's outputs, judge them,
 * note HEAD latencies and progress; false (msg filled) on the first failure. */
static inline bool e4h_check_cycle(e4h_t *h, uint64_t c, const void *out, uint64_t *head_seen,
                                   cosim_msg_t *msg) {
  e4h_link_t l[E4H_MAXP];
  bool err[E4H_MAXP];
  unsigned code[E4H_MAXP];
  h->now = c;
  e4h_from_out(h, out, l, err, code);
  e4h_observe(h, l, err, code);
  e4h_note_head(h, l, head_seen);
  e4h_progress(h);
  if (h->fail[0]) {
    cosim_fail(msg, h->fail_id, "%s", h->fail);
    return false;
  }
  return true;
}

#endif
