/* cp_hotspot -- the network model. Choices are listed in cphs_sim.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cphs_sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cp/cp_rp.h"
#include "cphs_cp.h"
#include "cphs_evq.h"
#include "cphs_traffic.h"

enum { EV_GEN, EV_TXFREE, EV_ARRIVE, EV_OUTDONE, EV_WAKE, EV_BCN, EV_PAUSE, EV_EGRESS, EV_XON, EV_OPAUSE };
enum { F_PROBE = 1, F_TAGGED = 2 };

typedef struct {
  cp_rp_t rp;
  uint16_t *voq;         /* frames waiting per destination */
  uint64_t *ready;       /* bitmap: non-empty and not waiting for its limiter */
  uint8_t *wake_pending; /* waiting for its limiter, a wake-up is scheduled */
  uint64_t *wake_t;      /* time of the latest wake-up scheduled (older ones are stale) */
  unsigned rr;           /* last VOQ served */
  bool busy, paused;
  unsigned full_voqs; /* VOQs at capacity (quench = node) */
  unsigned lim_now;   /* limiters active, counted from the reaction point's outcomes */
  /* egress buffer: bytes not yet drained at egress_t (drained as a fluid at
     * the node's service rate), XOFF in force, and the time of the XON check */
  double egress;
  uint64_t egress_t;
  bool xoff;
  uint64_t xon_t;
} node_t;

typedef struct {
  int32_t next;
  uint16_t src;
} frame_t;

typedef struct {
  int32_t head, tail;
  uint32_t bytes, count;
  bool busy;
  bool opaused; /* the adapter behind this output sent XOFF */
  cphs_cp_t *cp;
} port_t;

typedef struct {
  const cphs_params_t *p;
  cphs_result_t *r;
  cphs_evq_t q;
  cphs_traffic_t tr;
  node_t *node;
  port_t *port;
  uint32_t *part;      /* bytes held per input partition */
  uint8_t *pause_sent; /* XOFF in force per input */
  frame_t *pool;
  int32_t free_head;
  unsigned words;   /* bitmap words per node */
  uint32_t voq_cap; /* frames */
  uint64_t slot_ps, hot_ser_ps;
  uint64_t inflight, limiters;
  cp_rp_stats_t rps;
  uint64_t *q_off, *q_lost; /* per flow src*n+dst: frames offered, frames quenched */
  double ehi, elo;          /* adapter PAUSE watermarks, bytes */
  bool failed;
} sim_t;

static void fail(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(sim_t *s, const char *fmt, ...) {
  if (s->failed) return;
  s->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->r->err, sizeof s->r->err, fmt, ap);
  va_end(ap);
}

/* An RTL CP's assertion fails the run at the event it fired in (the
 * verdict names it as assert:<label>@<ms>). */
static void check_assert(sim_t *s, unsigned port, uint64_t now) {
  uint64_t cyc;
  const char *l = cphs_cp_assert(s->port[port].cp, &cyc);
  if (!*l || s->r->assert_label[0] || s->failed) return;
  snprintf(s->r->assert_label, sizeof s->r->assert_label, "%s", l);
  s->r->assert_ps = now;
  fail(s, "CP of port %u (RTL): assertion %s failed at %.12g ms (CP cycle %llu)", port, l,
       (double)now / CPHS_PS_PER_MS, (unsigned long long)cyc);
}

static void push(sim_t *s, uint64_t t, uint8_t type, uint16_t a, uint16_t b) {
  cphs_ev_t e = {.t = t, .type = type, .a = a, .b = b};
  if (cphs_evq_push(&s->q, e)) fail(s, "out of memory in the event queue");
}

/* --- adapters --------------------------------------------------------------- */

static inline void set_ready(node_t *nd, unsigned v) { nd->ready[v >> 6] |= 1ull << (v & 63); }
static inline void clr_ready(node_t *nd, unsigned v) { nd->ready[v >> 6] &= ~(1ull << (v & 63)); }

/* First ready VOQ after `after`, cyclically; -1 if none. */
static int next_ready(const sim_t *s, const node_t *nd, unsigned after) {
  const unsigned n = s->p->n, W = s->words;
  unsigned start = (after + 1) % n;
  unsigned w = start >> 6;
  uint64_t m = nd->ready[w] & (~0ull << (start & 63));
  for (unsigned k = 0; k <= W; k++) {
    if (m) return (int)((w << 6) + (unsigned)__builtin_ctzll(m));
    w = (w + 1) % W;
    m = nd->ready[w];
  }
  return -1;
}

static void schedule_wake(sim_t *s, unsigned i, unsigned v, uint64_t t) {
  node_t *nd = &s->node[i];
  nd->wake_pending[v] = 1;
  nd->wake_t[v] = t;
  push(s, t, EV_WAKE, (uint16_t)i, (uint16_t)v);
}

/* Start the next frame if the link is free, not paused, and a VOQ may go. */
static void try_send(sim_t *s, unsigned i, uint64_t now) {
  node_t *nd = &s->node[i];
  if (nd->busy || nd->paused) return;
  const uint32_t L = s->p->frame;
  for (;;) {
    int vi = next_ready(s, nd, nd->rr);
    if (vi < 0) return;
    unsigned v = (unsigned)vi;
    uint64_t when;
    if (!cp_rp_may_send(&nd->rp, v, now, L, &when)) {
      /* Out of the round until its limiter allows it. */
      clr_ready(nd, v);
      schedule_wake(s, i, v, when);
      continue;
    }
    if (nd->voq[v] == s->voq_cap) nd->full_voqs--;
    if (--nd->voq[v] == 0) clr_ready(nd, v);
    cp_rp_tx_t tx;
    cp_rp_sent(&nd->rp, v, now, L, &tx);
    nd->rr = v;
    nd->busy = true;
    push(s, now + s->slot_ps, EV_TXFREE, (uint16_t)i, 0);
    cphs_ev_t e = {.t = now + s->slot_ps + s->p->link_delay_ps,
                   .type = EV_ARRIVE,
                   .a = (uint16_t)i,
                   .b = (uint16_t)v,
                   .c = tx.cpid,
                   .f1 = (uint8_t)((tx.probe ? F_PROBE : 0) | (tx.tagged ? F_TAGGED : 0))};
    if (cphs_evq_push(&s->q, e)) fail(s, "out of memory in the event queue");
    s->inflight++;
    return;
  }
}

static void on_gen(sim_t *s, unsigned i, uint64_t now) {
  uint64_t next;
  unsigned v = cphs_traffic_frame(&s->tr, i, now, &next);
  if (next <= s->p->t_end_ps) push(s, next, EV_GEN, (uint16_t)i, 0);
  node_t *nd = &s->node[i];
  cphs_bin_t *b = cphs_stats_bin(&s->r->stats, now);
  const size_t fl = (size_t)i * s->p->n + v;
  s->q_off[fl]++;
  /* Seed: "per-flow selective source quench used when VOQ full": only the
     * flow whose VOQ is full loses the frame. quench = node (ours, contrast):
     * the whole source stops while any of its VOQs is full. */
  if (nd->voq[v] >= s->voq_cap || (s->p->quench == CPHS_QUENCH_NODE && nd->full_voqs)) {
    b->lost += s->p->frame; /* quenched: this frame is never offered */
    s->q_lost[fl]++;
    return;
  }
  b->accepted += s->p->frame;
  s->r->sum.frames_gen++;
  if (++nd->voq[v] == s->voq_cap) nd->full_voqs++;
  if (!nd->wake_pending[v]) set_ready(nd, v);
  try_send(s, i, now);
}

static void on_wake(sim_t *s, unsigned i, unsigned v, uint64_t now) {
  node_t *nd = &s->node[i];
  if (!nd->wake_pending[v] || nd->wake_t[v] != now) return; /* superseded */
  nd->wake_pending[v] = 0;
  if (nd->voq[v]) set_ready(nd, v);
  try_send(s, i, now);
}

static void on_bcn(sim_t *s, const cphs_ev_t *e) {
  const unsigned i = e->a, v = e->b;
  node_t *nd = &s->node[i];
  int r = cp_rp_feedback(&nd->rp, v, e->f1, e->f2, e->f3, e->c, e->t);
  if (r < 0) {
    fail(s, "reaction point of node %u rejected a BCN (flow %u type %u qntzfb %u)", i, v, e->f1, e->f2);
    return;
  }
  if (r == CP_RP_R_CREATED) {
    s->limiters++;
    if (++nd->lim_now > s->r->sum.lim_peak) s->r->sum.lim_peak = nd->lim_now;
  }
  if (r == CP_RP_R_RELEASED) {
    s->limiters--;
    nd->lim_now--;
  }
  if (r == CP_RP_R_REFUSED) s->r->sum.lim_refused++;
  if (r == CP_RP_R_CREATED || r == CP_RP_R_RELEASED)
    cphs_stats_limiters(&s->r->stats, e->t, (uint32_t)s->limiters);
  /* A waiting VOQ may now be allowed earlier than its scheduled wake-up. */
  if (nd->wake_pending[v]) {
    uint64_t when = e->t;
    if (cp_rp_may_send(&nd->rp, v, e->t, s->p->frame, &when)) when = e->t;
    if (when < nd->wake_t[v]) schedule_wake(s, i, v, when);
  }
}

/* --- switch ----------------------------------------------------------------- */

static void start_out(sim_t *s, unsigned o, uint64_t now) {
  port_t *pt = &s->port[o];
  pt->busy = true;
  /* Without an egress buffer the hot output itself is slow; with one, the
     * hot adapter drains slowly and PAUSEs the output (docs/cp.md §12). */
  const bool slow = !s->p->egress && o == s->p->hot && now >= s->p->hot_start_ps && now < s->p->hot_end_ps;
  push(s, now + (slow ? s->hot_ser_ps : s->slot_ps), EV_OUTDONE, (uint16_t)o, 0);
}

static void route_bcn(sim_t *s, const cphs_bcn_t *m, int level, unsigned port, unsigned src, uint64_t now) {
  if (!m->valid) return;
  /* The sampled frame is the one just enqueued (idle cycles follow every
     * enqueue), so the message must name its source; else the CP is wrong. */
  if (m->dst != src || m->flow != src || (level == CP_RP_QUEUE && m->cpid != port) || m->type > 2 ||
      m->qntzfb > 63) {
    fail(s, "CP of port %u: %s BCN dst=%u flow=%u cpid=%u type=%u for a frame of source %u", port,
         level == CP_RP_QUEUE ? "queue-level" : "per-flow", m->dst, m->flow, m->cpid, m->type, src);
    return;
  }
  cphs_bin_t *b = cphs_stats_bin(&s->r->stats, now);
  if (level == CP_RP_FLOW) {
    b->fbcn++;
    s->r->sum.fbcn++;
  } else if (m->type == 0) {
    b->bcn_neg++;
    s->r->sum.bcn_neg++;
  } else if (m->type == 1) {
    b->bcn_pos++;
    s->r->sum.bcn_pos++;
  } else {
    b->bcn_max++;
    s->r->sum.bcn_max++;
  }
  /* Per-flow messages have no CPID port; the network stamps the sender's. */
  const uint64_t cp_ps = s->p->cp_latency_ps + (level == CP_RP_FLOW ? s->p->cp_flow_extra_ps : 0);
  cphs_ev_t e = {.t = now + cp_ps + s->p->link_delay_ps,
                 .type = EV_BCN,
                 .a = m->dst,
                 .b = (uint16_t)port,
                 .c = (uint16_t)port,
                 .f1 = m->type,
                 .f2 = m->qntzfb,
                 .f3 = (uint8_t)level};
  if (cphs_evq_push(&s->q, e)) fail(s, "out of memory in the event queue");
}

static void on_arrive(sim_t *s, const cphs_ev_t *e) {
  const cphs_params_t *p = s->p;
  const unsigned src = e->a, o = e->b;
  const uint32_t L = p->frame;
  const uint64_t now = e->t;
  s->inflight--;
  if (s->part[src] + L > p->mem_per_input) {
    cphs_stats_bin(&s->r->stats, now)->drops++;
    return;
  }
  s->part[src] += L;
  int32_t f = s->free_head;
  if (f < 0) {
    fail(s, "frame pool exhausted (bug: partitions bound it)");
    return;
  }
  s->free_head = s->pool[f].next;
  s->pool[f].next = -1;
  s->pool[f].src = (uint16_t)src;
  port_t *pt = &s->port[o];
  if (pt->tail >= 0)
    s->pool[pt->tail].next = f;
  else
    pt->head = f;
  pt->tail = f;
  pt->bytes += L;
  pt->count++;
  if (o == p->hot) {
    cphs_stats_q(&s->r->stats, now, pt->bytes);
    cphs_stats_flow(&s->r->stats, now, src, s->r->stats.flow_q[src] + L);
  }
  if (pt->cp) {
    cphs_cp_fb_t fb;
    cphs_cp_enq(pt->cp, (uint16_t)L, (uint16_t)src, (uint16_t)src, e->f1 & F_PROBE, e->f1 & F_TAGGED, e->c,
                pt->bytes, &fb);
    check_assert(s, o, now);
    route_bcn(s, &fb.q, CP_RP_QUEUE, o, src, now);
    route_bcn(s, &fb.f, CP_RP_FLOW, o, src, now);
  }
  if (p->pause && !s->pause_sent[src] && s->part[src] > p->pause_hi) {
    s->pause_sent[src] = 1;
    cphs_stats_bin(&s->r->stats, now)->pauses++;
    cphs_ev_t x = {.t = now + p->link_delay_ps, .type = EV_PAUSE, .a = (uint16_t)src, .f1 = 1};
    if (cphs_evq_push(&s->q, x)) fail(s, "out of memory in the event queue");
  }
  if (!pt->busy && !pt->opaused) start_out(s, o, now);
}

static void on_outdone(sim_t *s, unsigned o, uint64_t now) {
  const cphs_params_t *p = s->p;
  const uint32_t L = p->frame;
  port_t *pt = &s->port[o];
  int32_t f = pt->head;
  const unsigned src = s->pool[f].src;
  pt->head = s->pool[f].next;
  if (pt->head < 0) pt->tail = -1;
  s->pool[f].next = s->free_head;
  s->free_head = f;
  pt->bytes -= L;
  pt->count--;
  s->part[src] -= L;
  s->r->sum.frames_out++;
  cphs_bin_t *b = cphs_stats_bin(&s->r->stats, now);
  b->tx_all += L;
  if (o == p->hot) {
    b->tx_hot += L;
    cphs_stats_q(&s->r->stats, now, pt->bytes);
    cphs_stats_flow(&s->r->stats, now, src, s->r->stats.flow_q[src] - L);
  }
  if (pt->cp) {
    cphs_cp_deq(pt->cp, (uint16_t)L, (uint16_t)src);
    check_assert(s, o, now);
  }
  if (p->egress) push(s, now + p->link_delay_ps, EV_EGRESS, (uint16_t)o, 0);
  if (p->pause && s->pause_sent[src] && s->part[src] < p->pause_lo) {
    s->pause_sent[src] = 0;
    cphs_ev_t x = {.t = now + p->link_delay_ps, .type = EV_PAUSE, .a = (uint16_t)src, .f1 = 0};
    if (cphs_evq_push(&s->q, x)) fail(s, "out of memory in the event queue");
  }
  if (pt->count && !pt->opaused)
    start_out(s, o, now);
  else
    pt->busy = false;
}

/* --- adapter egress buffer and its PAUSE (seed 001's adapter) ------------------- */

/* Service rate of node i's egress (b/s) on [t, next change), and that change. */
static double egress_rate(const sim_t *s, unsigned i, uint64_t t, uint64_t *until) {
  const cphs_params_t *p = s->p;
  *until = UINT64_MAX;
  if (i != p->hot) return p->rlink;
  if (t < p->hot_start_ps) {
    *until = p->hot_start_ps;
    return p->rlink;
  }
  if (t < p->hot_end_ps) {
    *until = p->hot_end_ps;
    return p->rlink * p->hot_frac;
  }
  return p->rlink;
}

/* Drain node i's egress (a fluid at its service rate) up to time t. */
static void egress_advance(sim_t *s, unsigned i, uint64_t t) {
  node_t *nd = &s->node[i];
  uint64_t a = nd->egress_t;
  while (a < t && nd->egress > 0) {
    uint64_t until;
    const double r = egress_rate(s, i, a, &until);
    const uint64_t e = until < t ? until : t;
    nd->egress -= r * (double)(e - a) / 8e12;
    a = e;
  }
  if (nd->egress < 0) nd->egress = 0;
  nd->egress_t = t;
}

/* When node i's egress, holding its bytes at time t, drains to `level`. */
static uint64_t egress_when(const sim_t *s, unsigned i, uint64_t t, double bytes, double level) {
  uint64_t a = t;
  while (bytes > level) {
    uint64_t until;
    const double r = egress_rate(s, i, a, &until);
    const double need = (bytes - level) * 8e12 / r;
    if (until == UINT64_MAX || (double)(until - a) >= need) return a + (uint64_t)ceil(need);
    bytes -= r * (double)(until - a) / 8e12;
    a = until;
  }
  return a;
}

static void send_opause(sim_t *s, unsigned i, uint64_t now, bool on) {
  cphs_ev_t x = {.t = now + s->p->link_delay_ps, .type = EV_OPAUSE, .a = (uint16_t)i, .f1 = on};
  if (cphs_evq_push(&s->q, x)) fail(s, "out of memory in the event queue");
}

static void note_occ(double v, double *mn, double *mx) {
  if (*mn < 0 || v < *mn) *mn = v;
  if (*mx < 0 || v > *mx) *mx = v;
}

/* A frame's last bit reached node i's egress buffer. */
static void on_egress(sim_t *s, unsigned i, uint64_t now) {
  const cphs_params_t *p = s->p;
  node_t *nd = &s->node[i];
  cphs_summary_t *m = &s->r->sum;
  egress_advance(s, i, now);
  if (nd->egress + p->frame > p->egress) {
    m->egress_drops++; /* no room: the frame is lost at the adapter */
    return;
  }
  nd->egress += p->frame;
  if (nd->egress > m->egress_peak) m->egress_peak = nd->egress;
  if (!p->adapter_pause) return;
  const double hi = s->ehi + (p->adapter_bug == CPHS_ABUG_XOFF_LATE ? 2.0 * p->frame : 0.0);
  if (!nd->xoff && nd->egress > hi) {
    nd->xoff = true;
    m->xoffs++;
    note_occ(nd->egress, &m->xoff_occ_min, &m->xoff_occ_max);
    send_opause(s, i, now, true);
  }
  if (nd->xoff) {
    /* (Re)schedule the XON for when the buffer drains to the low watermark. */
    const double lo = s->elo + (p->adapter_bug == CPHS_ABUG_XON_EARLY ? 0.5 * p->adapter_hyst : 0.0);
    nd->xon_t = egress_when(s, i, now, nd->egress, lo);
    push(s, nd->xon_t, EV_XON, (uint16_t)i, 0);
  }
}

static void on_xon(sim_t *s, unsigned i, uint64_t now) {
  node_t *nd = &s->node[i];
  if (!nd->xoff || nd->xon_t != now) return; /* superseded by a later arrival */
  egress_advance(s, i, now);
  nd->xoff = false;
  s->r->sum.xons++;
  note_occ(nd->egress, &s->r->sum.xon_occ_min, &s->r->sum.xon_occ_max);
  send_opause(s, i, now, false);
}

static void on_opause(sim_t *s, unsigned o, bool on, uint64_t now) {
  port_t *pt = &s->port[o];
  pt->opaused = on; /* XOFF: the frame being sent finishes, no new one starts */
  if (!on && !pt->busy && pt->count) start_out(s, o, now);
}

/* --- set-up, loop, tear-down ----------------------------------------------- */

static int setup(sim_t *s) {
  const cphs_params_t *p = s->p;
  const unsigned n = p->n;
  s->slot_ps = (uint64_t)llround((double)p->frame * 8e12 / p->rlink);
  s->hot_ser_ps = (uint64_t)llround((double)p->frame * 8e12 / (p->rlink * p->hot_frac));
  s->words = (n + 63) / 64;
  s->voq_cap = p->ingress / (n - 1) / p->frame;
  s->ehi = cphs_adapter_hi(p);
  s->elo = cphs_adapter_lo(p);
  s->r->sum.xoff_occ_min = s->r->sum.xoff_occ_max = -1;
  s->r->sum.xon_occ_min = s->r->sum.xon_occ_max = -1;
  s->q_off = calloc((size_t)n * n, sizeof *s->q_off);
  s->q_lost = calloc((size_t)n * n, sizeof *s->q_lost);
  if (!s->q_off || !s->q_lost) return -1;
  if (cphs_evq_init(&s->q, 8 * (size_t)n + 64)) return -1;
  if (cphs_traffic_init(&s->tr, p)) return -1;
  s->node = calloc(n, sizeof *s->node);
  s->port = calloc(n, sizeof *s->port);
  s->part = calloc(n, sizeof *s->part);
  s->pause_sent = calloc(n, sizeof *s->pause_sent);
  const size_t pool = (size_t)n * (p->mem_per_input / p->frame) + 1;
  s->pool = calloc(pool, sizeof *s->pool);
  if (!s->node || !s->port || !s->part || !s->pause_sent || !s->pool) return -1;
  for (size_t k = 0; k < pool; k++) s->pool[k].next = k + 1 < pool ? (int32_t)(k + 1) : -1;
  s->free_head = 0;
  cp_rp_cfg_t rc;
  cp_rp_cfg_default(&rc);
  rc.w = p->w;
  rc.qeq = p->qeq;
  rc.qeq_flow = p->qeq_flow;
  rc.rlink = p->rlink;
  rc.bucket_bytes = p->bucket_bytes;
  rc.probe_bytes = (p->cm == CPHS_CM_E2CM || p->cm == CPHS_CM_E2CM_CP) ? p->probe_bytes : 0;
  rc.probe_all = p->cm == CPHS_CM_E2CM_CP;
  rc.max_limiters = p->max_limiters;
  for (unsigned i = 0; i < n; i++) {
    node_t *nd = &s->node[i];
    if (cp_rp_init(&nd->rp, &rc, n, &s->rps)) return -1;
    nd->voq = calloc(n, sizeof *nd->voq);
    nd->ready = calloc(s->words, sizeof *nd->ready);
    nd->wake_pending = calloc(n, sizeof *nd->wake_pending);
    nd->wake_t = calloc(n, sizeof *nd->wake_t);
    if (!nd->voq || !nd->ready || !nd->wake_pending || !nd->wake_t) return -1;
    nd->rr = i; /* start the round just after self (its own VOQ stays empty) */
    port_t *pt = &s->port[i];
    pt->head = pt->tail = -1;
    if (p->cm != CPHS_CM_NONE && !(pt->cp = cphs_cp_create(p, i))) return -1;
    if (pt->cp) check_assert(s, i, 0); /* fired while it was being configured, before time 0 ends */
    push(s, cphs_traffic_first(&s->tr, i), EV_GEN, (uint16_t)i, 0);
  }
  return 0;
}

static void teardown(sim_t *s) {
  if (s->node)
    for (unsigned i = 0; i < s->p->n; i++) {
      cp_rp_free(&s->node[i].rp);
      free(s->node[i].voq);
      free(s->node[i].ready);
      free(s->node[i].wake_pending);
      free(s->node[i].wake_t);
    }
  if (s->port)
    for (unsigned i = 0; i < s->p->n; i++) cphs_cp_destroy(s->port[i].cp);
  free(s->node);
  free(s->port);
  free(s->part);
  free(s->pause_sent);
  free(s->pool);
  free(s->q_off);
  free(s->q_lost);
  cphs_traffic_free(&s->tr);
  cphs_evq_free(&s->q);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t fold(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
  return h;
}

/* End-of-run invariants: every accepted frame is delivered, dropped, or still
 * somewhere; partitions add up to the queues; the CPs saw no error. */
static void audit(sim_t *s) {
  const cphs_params_t *p = s->p;
  uint64_t in_voq = 0, in_sw = 0, part = 0, drops = 0;
  for (unsigned i = 0; i < p->n; i++) {
    for (unsigned v = 0; v < p->n; v++) in_voq += s->node[i].voq[v];
    in_sw += s->port[i].count;
    part += s->part[i];
  }
  for (uint64_t b = 0; b < s->r->stats.nbins; b++) drops += s->r->stats.bin[b].drops;
  cphs_summary_t *m = &s->r->sum;
  if (m->frames_gen != m->frames_out + drops + in_voq + in_sw + s->inflight)
    fail(s,
         "frame conservation: %llu accepted != %llu out + %llu dropped + %llu in VOQs + %llu in switch + "
         "%llu on links",
         (unsigned long long)m->frames_gen, (unsigned long long)m->frames_out, (unsigned long long)drops,
         (unsigned long long)in_voq, (unsigned long long)in_sw, (unsigned long long)s->inflight);
  if (part != in_sw * p->frame)
    fail(s, "partitions hold %llu bytes, queues %llu", (unsigned long long)part,
         (unsigned long long)(in_sw * p->frame));
  uint64_t dig = 0xcbf29ce484222325ull;
  for (unsigned i = 0; i < p->n; i++) {
    if (!s->port[i].cp) continue;
    const char *e = cphs_cp_error(s->port[i].cp);
    if (*e) fail(s, "CP of port %u: %s", i, e);
    cphs_cp_counts_t k;
    cphs_cp_counts(s->port[i].cp, &k);
    m->cp_cycles += k.cycles;
    dig = fold(dig, cphs_cp_digest(s->port[i].cp));
  }
  m->digest = p->digest ? dig : 0;
  /* Source quench per flow: hot flows (to the hot node) against cold ones. */
  uint64_t ho = 0, hl = 0, co = 0, cl = 0;
  for (unsigned i = 0; i < p->n; i++)
    for (unsigned v = 0; v < p->n; v++) {
      const size_t f = (size_t)i * p->n + v;
      if (i == v) continue;
      if (v == p->hot) {
        ho += s->q_off[f];
        hl += s->q_lost[f];
        m->quench_hot_flows += s->q_lost[f] > 0;
      } else {
        co += s->q_off[f];
        cl += s->q_lost[f];
      }
    }
  m->quench_hot_frac = ho ? (double)hl / (double)ho : 0;
  m->quench_cold_frac = co ? (double)cl / (double)co : 0;
  m->limiters_created = s->rps.created;
}

int cphs_sim_run(const cphs_params_t *p, cphs_result_t *r) {
  memset(r, 0, sizeof *r);
  sim_t s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.r = r;
  if (cphs_stats_init(&r->stats, p) || setup(&s)) {
    fprintf(stderr, "cp_hotspot: set-up failed for %s\n", p->name);
    teardown(&s);
    return -1;
  }
  cphs_stats_q(&r->stats, 0, 0);
  cphs_stats_limiters(&r->stats, 0, 0);
  const double t0 = now_s();
  cphs_ev_t e;
  uint64_t events = 0;
  while (!s.failed && cphs_evq_pop(&s.q, &e)) {
    if (e.t > p->t_end_ps) break;
    events++;
    switch (e.type) {
      case EV_GEN: on_gen(&s, e.a, e.t); break;
      case EV_TXFREE:
        s.node[e.a].busy = false;
        try_send(&s, e.a, e.t);
        break;
      case EV_ARRIVE: on_arrive(&s, &e); break;
      case EV_OUTDONE: on_outdone(&s, e.a, e.t); break;
      case EV_WAKE: on_wake(&s, e.a, e.b, e.t); break;
      case EV_BCN: on_bcn(&s, &e); break;
      case EV_PAUSE:
        s.node[e.a].paused = e.f1;
        if (!e.f1) try_send(&s, e.a, e.t);
        break;
      case EV_EGRESS: on_egress(&s, e.a, e.t); break;
      case EV_XON: on_xon(&s, e.a, e.t); break;
      case EV_OPAUSE: on_opause(&s, e.a, e.f1, e.t); break;
    }
  }
  const double wall = now_s() - t0;
  cphs_summary_t *m = &r->sum;
  snprintf(m->name, sizeof m->name, "%s", p->name);
  cphs_arr_name(p, m->arrivals, sizeof m->arrivals);
  m->n = p->n;
  m->cm = p->cm;
  m->pause = p->pause;
  m->rtl = p->rtl;
  m->seed = p->seed;
  m->events = events;
  m->wall_s = wall;
  m->events_per_s = wall > 0 ? (double)events / wall : 0;
  m->sim_per_wall = wall > 0 ? (double)p->t_end_ps / 1e12 / wall : 0;
  if (!s.failed) audit(&s);
  cphs_stats_finish(&r->stats, m);
  teardown(&s);
  return 0;
}

void cphs_result_free(cphs_result_t *r) { cphs_stats_free(&r->stats); }
