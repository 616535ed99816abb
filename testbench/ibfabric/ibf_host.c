/* The IB host endpoint: see ibf_host.h. */
#include "ibfabric/ibf_host.h"
#include "first_failure.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/fabric_ibsw.h"
#include "ibsw/ibsw.h"

enum { HP_POLL = 0, HP_TRAIN = 1, HP_UP = 2 };

typedef struct {
  uint32_t dst, seq;
  uint64_t born;
  uint16_t dlid; /* the flow's tree's LID of dst (route_lft_dlid; LMC 0: dst + 1) */
  uint8_t vl, measured;
} pkt_t;

typedef struct {
  bool open, dropping;
  uint32_t src, seq;
  unsigned k;
  uint64_t words[IBF_MAD_MAX];
} rx_lane_t;

typedef struct {
  ibf_host_params_t p;
  uint64_t rng;
  /* link */
  unsigned phys, seen2;
  uint32_t tcnt;
  uint16_t cred[IBSW_MAX_LANES];
  uint8_t crpend; /* credits to return next cycle */
  /* sending */
  bool sending;
  unsigned s_lane, s_k, s_n; /* lane, next flit, flits */
  uint64_t s_words[IBF_MAD_MAX];
  pkt_t s_pkt;
  bool s_mad;
  pkt_t *q; /* source queue */
  size_t qh, qn, qcap;
  uint64_t madq[4][IBF_MAD_MAX];
  unsigned madn[4], mh, mq;
  /* generation */
  bool started;
  uint64_t created, next_gen, start;
  /* receiving, per lane */
  rx_lane_t rx[IBSW_MAX_LANES];
  uint64_t resp[IBF_MAD_MAX];
  unsigned resp_n;
} host_t;

int ibf_world_init(ibf_world_t *w, unsigned nodes, uint64_t total) {
  memset(w, 0, sizeof *w);
  w->nodes = nodes;
  w->total = total;
  w->next_seq = calloc((size_t)nodes * nodes, sizeof *w->next_seq);
  w->sent_seq = calloc((size_t)nodes * nodes, sizeof *w->sent_seq);
  w->hold = calloc(nodes, 1);
  w->inflight = calloc(nodes, sizeof *w->inflight);
  w->half_cycle = w->last_cycle = w->first_done = FABRIC_NEVER;
  return w->next_seq && w->sent_seq && w->hold && w->inflight ? 0 : -1;
}
void ibf_world_free(ibf_world_t *w) {
  free(w->next_seq);
  free(w->sent_seq);
  free(w->hold);
  free(w->inflight);
  memset(w, 0, sizeof *w);
}
void ibf_fail(ibf_world_t *w, uint64_t cycle, const char *check, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  first_failure(&w->failed, &w->fail_cycle, w->fail_check, sizeof w->fail_check, w->fail_msg,
                sizeof w->fail_msg, cycle, check, fmt, ap);
  va_end(ap);
}

static uint64_t next_u64(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static double next_unit(uint64_t *s) { return (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0); }

uint64_t ibf_body_hash(unsigned src, unsigned dst, uint32_t seq, unsigned k) {
  uint64_t x = (uint64_t)src << 44 ^ (uint64_t)dst << 24 ^ (uint64_t)seq << 4 ^ k;
  return next_u64(&x);
}

unsigned ibf_dest(unsigned traffic, unsigned src, unsigned nodes, uint64_t *rng) {
  if (traffic == IBF_BITREV) { /* nodes a power of two (the driver checks) */
    unsigned b = 0, r = 0;
    while ((1u << b) < nodes) b++;
    for (unsigned i = 0; i < b; i++)
      if (src >> i & 1u) r |= 1u << (b - 1 - i);
    return r;
  }
  unsigned d = (unsigned)(next_u64(rng) % (nodes - 1)); /* uniform over the others */
  return d >= src ? d + 1 : d;
}

/* Draw ahead: the next cycle >= from with a Bernoulli success (p = load / len; with phases,
 * the load of the phase the cycle is in, none after the last). */
static uint64_t draw_next(host_t *h, uint64_t from) {
  if (!h->p.nph) {
    const double pr = h->p.load / h->p.len;
    if (pr <= 0) return FABRIC_NEVER;
    uint64_t c = from;
    while (next_unit(&h->rng) >= pr) c++;
    return c;
  }
  uint64_t c = from;
  unsigned k = 0;
  for (;;) {
    while (k < h->p.nph && c >= h->start + h->p.ph_end[k]) k++;
    if (k == h->p.nph) return FABRIC_NEVER;
    const double pr = h->p.ph_load[k] / h->p.len;
    if (pr <= 0) {
      c = h->start + h->p.ph_end[k];
      continue;
    }
    if (next_unit(&h->rng) < pr) return c;
    c++;
  }
}

static void *h_create(const void *params, unsigned index, char *err, size_t errlen) {
  const ibf_host_params_t *p = params;
  host_t *h = calloc(1, sizeof *h);
  if (!h || !p) {
    snprintf(err, errlen, "ibhost instance %u: %s", index, p ? "out of memory" : "no parameters");
    free(h);
    return NULL;
  }
  h->p = *p;
  h->rng = p->seed ^ (UINT64_C(0xA5A5A5A5) * (p->node + 1));
  h->phys = p->boot_active || p->bug == IBF_BUG_SKIP_TRAINING ? HP_UP : HP_POLL; /* planted: up at once */
  for (unsigned l = 0; l <= p->vls; l++) h->cred[l] = (uint16_t)(l < p->vls ? p->buf_depth : p->buf15_depth);
  h->next_gen = FABRIC_NEVER;
  return h;
}
static void h_destroy(void *p) {
  host_t *h = p;
  free(h->q);
  free(h);
}

void ibf_host_start(void *p, uint64_t cycle) {
  host_t *h = p;
  h->started = true;
  h->start = cycle;
  h->next_gen = h->p.quota ? draw_next(h, cycle) : FABRIC_NEVER;
}
bool ibf_host_link_up(const void *p) { return ((const host_t *)p)->phys == HP_UP; }

int ibf_host_send_mad(void *p, const uint64_t *words, unsigned n) {
  host_t *h = p;
  if (h->mq == 4 || n < 3 || n > IBF_MAD_MAX) return -1;
  unsigned i = (h->mh + h->mq) % 4;
  memcpy(h->madq[i], words, n * sizeof *words);
  h->madn[i] = n;
  h->mq++;
  return 0;
}
unsigned ibf_host_recv_mad(void *p, uint64_t *words) {
  host_t *h = p;
  unsigned n = h->resp_n;
  if (n) memcpy(words, h->resp, n * sizeof *words);
  h->resp_n = 0;
  return n;
}

static int q_push(host_t *h, const pkt_t *k) {
  if (h->qn == h->qcap) {
    size_t nc = h->qcap ? 2 * h->qcap : 64;
    pkt_t *q = malloc(nc * sizeof *q);
    if (!q) return -1;
    for (size_t i = 0; i < h->qn; i++) q[i] = h->q[(h->qh + i) % h->qcap];
    free(h->q);
    h->q = q;
    h->qh = 0;
    h->qcap = nc;
  }
  h->q[(h->qh + h->qn) % h->qcap] = *k;
  h->qn++;
  return 0;
}

static void receive(host_t *h, uint64_t c, const fabric_flit_t *f) {
  ibf_world_t *w = h->p.w;
  const unsigned V = h->p.vls;
  if (f->kind == IBSW_SYM) {
    if (f->data == IBSW_SYM_TS1 || f->data == IBSW_SYM_TS2) {
      if (h->phys == HP_POLL) {
        h->phys = HP_TRAIN;
        h->tcnt = 0;
        h->seen2 = f->data == IBSW_SYM_TS2;
      } else if (h->phys == HP_TRAIN) {
        h->seen2 |= f->data == IBSW_SYM_TS2;
      } else if (f->data == IBSW_SYM_TS1) {
        ibf_fail(w, c, "ibfab.link", "host %u: TS1 in LinkUp (the switch port lost the link)", h->p.node);
      }
    }
    return; /* DRAINED and others: hosts are never drained (the SM turns off switch links only) */
  }
  if (h->phys != HP_UP) {
    ibf_fail(w, c, "ibfab.link", "host %u: a packet flit before LinkUp", h->p.node);
    return;
  }
  const unsigned lane = f->vc == 15 ? V : f->vc;
  if (lane > V) {
    ibf_fail(w, c, "ibfab.integrity", "host %u: flit on VL %u", h->p.node, f->vc);
    return;
  }
  h->crpend |= (uint8_t)(1u << lane);
  rx_lane_t *rx = &h->rx[lane];
  if (lane == V) { /* a MAD response */
    if (f->kind == IBSW_HEAD) {
      rx->open = true;
      rx->k = 0;
    }
    if (!rx->open || rx->k >= IBF_MAD_MAX) {
      ibf_fail(w, c, "ibfab.mad", "host %u: malformed VL15 packet", h->p.node);
      return;
    }
    rx->words[rx->k++] = f->data;
    if (f->kind == IBSW_TAIL) {
      rx->open = false;
      memcpy(h->resp, rx->words, rx->k * sizeof *rx->words);
      h->resp_n = rx->k;
    }
    return;
  }
  w->flits_rx++;
  if (rx->dropping) { /* planted: the packet is thrown away silently */
    if (f->kind == IBSW_TAIL) rx->dropping = false;
    return;
  }
  if (f->kind == IBSW_HEAD && h->p.bug == IBF_BUG_DROP_LAST && w->delivered + 1 == w->total) {
    rx->dropping = true;
    return;
  }
  if (f->kind == IBSW_HEAD) {
    const unsigned dlid = (unsigned)(f->data >> 48), src = (unsigned)(f->data >> 20 & 0xFFF);
    const uint32_t seq = (uint32_t)(f->data & 0xFFFFF);
    if (rx->open) {
      ibf_fail(w, c, "ibfab.integrity", "host %u lane %u: HEAD inside an open packet", h->p.node, lane);
      return;
    }
    /* its own LIDs: (node + 1) << LMC plus the LMC bits, masked here as IBA's HCA does */
    const unsigned lmc = h->p.route->lmc;
    if (dlid >> lmc != h->p.node + 1) {
      ibf_fail(w, c, "ibfab.misroute", "host %u (LIDs %u..%u): packet for DLID %u from node %u", h->p.node,
               (h->p.node + 1) << lmc, ((h->p.node + 2) << lmc) - 1, dlid, src);
      return;
    }
    /* multiple trees: a packet stays on the VL it was sent on, which must be one of its DLID's
       tree's (VL mod T = tree); the tree from the LMC bits, as the sender chose it */
    const unsigned T = h->p.route->trees, tree = (dlid & ((1u << lmc) - 1u)) % T;
    if (T > 1 && lane % T != tree && !w->no_vl_check) {
      ibf_fail(w, c, "ibfab.vl", "host %u: DLID %u (tree %u) from node %u arrived on VL %u, tree %u's",
               h->p.node, dlid, tree, src, lane, lane % T);
      return;
    }
    if (src >= w->nodes || (unsigned)(f->data >> 32 & 0xFFFF) != (src + 1) << lmc) {
      ibf_fail(w, c, "ibfab.integrity", "host %u: HEAD with source %u / SLID %u", h->p.node, src,
               (unsigned)(f->data >> 32 & 0xFFFF));
      return;
    }
    uint32_t *exp = &w->next_seq[(size_t)src * w->nodes + h->p.node];
    if (seq != (*exp & 0xFFFFF)) {
      ibf_fail(w, c, "ibfab.order",
               "host %u: flow %u->%u packet %u arrived, expected %u (lost, duplicated or overtaken)",
               h->p.node, src, h->p.node, seq, *exp & 0xFFFFF);
      return;
    }
    ++*exp;
    rx->open = true;
    rx->src = src;
    rx->seq = seq;
    rx->k = 1;
    return;
  }
  if (!rx->open) {
    ibf_fail(w, c, "ibfab.integrity", "host %u lane %u: %s without a HEAD", h->p.node, lane,
             f->kind == IBSW_TAIL ? "TAIL" : "BODY");
    return;
  }
  if (f->kind == IBSW_BODY) {
    if (f->data != ibf_body_hash(rx->src, h->p.node, rx->seq, rx->k))
      ibf_fail(w, c, "ibfab.integrity", "host %u: flow %u->%u packet %u BODY %u corrupted", h->p.node,
               rx->src, h->p.node, rx->seq, rx->k);
    rx->k++;
    return;
  }
  /* TAIL */
  rx->open = false;
  if (rx->k + 1 != h->p.len) {
    ibf_fail(w, c, "ibfab.integrity", "host %u: flow %u->%u packet %u has %u flits, expected %u", h->p.node,
             rx->src, h->p.node, rx->seq, rx->k + 1, h->p.len);
    return;
  }
  const uint64_t born = f->data & ((UINT64_C(1) << 48) - 1);
  w->inflight[h->p.node]--;
  w->delivered++;
  w->last_delivery = c;
  if (f->data >> 63) {
    const uint64_t lat = c - born;
    w->lat_sum += lat;
    w->lat_n++;
    if (lat > w->lat_max) w->lat_max = lat;
  }
}

static uint64_t flit_word(host_t *h, uint8_t *kind) {
  const unsigned k = h->s_k, n = h->s_n;
  *kind = k == 0 ? IBSW_HEAD : k + 1 == n ? IBSW_TAIL : IBSW_BODY;
  if (h->s_mad) return h->s_words[k];
  const pkt_t *p = &h->s_pkt;
  if (k == 0)
    return (uint64_t)p->dlid << 48 | (uint64_t)((h->p.node + 1) << h->p.route->lmc) << 32 |
           (uint64_t)(h->p.node & 0xFFF) << 20 | (p->seq & 0xFFFFF);
  if (k + 1 == n) return (uint64_t)p->measured << 63 | (p->born & ((UINT64_C(1) << 48) - 1));
  uint64_t v = ibf_body_hash(h->p.node, p->dst, p->seq, k);
  if (h->p.bug == IBF_BUG_BODY_FLIP && h->p.node == 1 && p->seq == 0 && k == 1) v ^= 1; /* planted */
  return v;
}

static void h_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  host_t *h = p;
  ibf_world_t *w = h->p.w;
  const unsigned V = h->p.vls;
  (void)side;
  /* credits returned for what we sent */
  for (unsigned l = 0; l <= V; l++)
    if (in->credit >> l & 1u) h->cred[l]++;
  out->credit = h->crpend;
  h->crpend = 0;
  if (in->valid) receive(h, c, in);
  /* generation (drawn ahead: next_gen is the cycle of the next packet) */
  while (h->started && h->created < h->p.quota && h->next_gen <= c) {
    pkt_t k;
    k.dst = h->p.dlen ? h->p.dlist[h->created % h->p.dlen]
                      : ibf_dest(h->p.traffic, h->p.node, h->p.nodes, &h->rng);
    uint32_t *ss = &w->sent_seq[(size_t)h->p.node * w->nodes + k.dst];
    k.seq = (*ss)++;
    if (h->p.bug == IBF_BUG_SEQ_SKIP && h->p.node == 0 && h->created == 2) k.seq = (*ss)++; /* planted */
    k.born = c;
    k.vl = (uint8_t)route_lft_vl(h->p.route, h->p.node, k.dst);
    k.dlid = (uint16_t)route_lft_dlid(h->p.route, h->p.node, k.dst);
    if (h->p.bug == IBF_BUG_MST_WRONG_VL && h->p.node == 0) k.vl = (uint8_t)((k.vl + 1) % V); /* planted */
    k.measured = h->created >= h->p.quota / 2;
    if (q_push(h, &k)) ibf_fail(w, c, "ibfab.host", "host %u: out of memory", h->p.node);
    h->created++;
    w->created++;
    if (w->created == w->total / 2) w->half_cycle = c;
    if (w->created == w->total) w->last_cycle = c;
    h->next_gen = h->created < h->p.quota ? draw_next(h, c + 1) : FABRIC_NEVER;
    if (h->created == h->p.quota && w->first_done == FABRIC_NEVER) w->first_done = c;
  }
  /* the link */
  if (h->phys == HP_POLL) {
    *out = (fabric_flit_t){1, IBSW_SYM, 0, out->credit, IBSW_SYM_TS1};
  } else if (h->phys == HP_TRAIN) {
    *out = (fabric_flit_t){1, IBSW_SYM, 0, out->credit, IBSW_SYM_TS2};
    if (h->tcnt + 1 >= h->p.wake_cycles && h->seen2)
      h->phys = HP_UP;
    else if (h->tcnt < h->p.wake_cycles)
      h->tcnt++;
  } else {
    if (!h->sending && h->mq && h->cred[V]) { /* MADs first, between packets */
      h->sending = h->s_mad = true;
      h->s_lane = V;
      h->s_k = 0;
      h->s_n = h->madn[h->mh];
      memcpy(h->s_words, h->madq[h->mh], h->s_n * sizeof *h->s_words);
      h->mh = (h->mh + 1) % 4;
      h->mq--;
    } else if (!h->sending && h->qn) {
      /* the first packet whose destination is not held by the SM's fence (packets of one flow
         keep their order: a held flow's packets all wait) */
      size_t i = 0;
      if (w->nhold)
        while (i < h->qn && w->hold[h->q[(h->qh + i) % h->qcap].dst]) i++;
      if (i < h->qn && h->cred[h->q[(h->qh + i) % h->qcap].vl]) {
        h->sending = true;
        h->s_mad = false;
        h->s_pkt = h->q[(h->qh + i) % h->qcap];
        for (size_t j = i; j > 0; j--) h->q[(h->qh + j) % h->qcap] = h->q[(h->qh + j - 1) % h->qcap];
        h->qh = (h->qh + 1) % h->qcap;
        h->qn--;
        h->s_lane = h->s_pkt.vl;
        h->s_k = 0;
        h->s_n = h->p.len;
        w->inflight[h->s_pkt.dst]++;
      }
    }
    if (h->sending && h->cred[h->s_lane]) {
      uint8_t kind;
      out->data = flit_word(h, &kind);
      out->valid = 1;
      out->kind = kind;
      out->vc = (uint8_t)(h->s_lane == V ? 15 : h->s_lane);
      h->cred[h->s_lane]--;
      if (++h->s_k == h->s_n) h->sending = false;
    }
  }
}

static bool h_quiet(const void *p) {
  const host_t *h = p;
  const unsigned V = h->p.vls;
  if (h->phys != HP_UP || h->crpend) return false;
  if (h->sending) return !h->cred[h->s_lane];
  if (h->mq && h->cred[V]) return false;
  if (h->qn && h->p.w->nhold) return false; /* a held head may hide a sendable packet */
  if (h->qn && h->cred[h->q[h->qh].vl]) return false;
  return true;
}

static uint64_t h_wake(void *p, uint64_t now) {
  host_t *h = p;
  if (!h->started || h->created >= h->p.quota || h->next_gen == FABRIC_NEVER) return FABRIC_NEVER;
  return h->next_gen < now ? now : h->next_gen;
}

static const fabric_impl_t host_model = {h_create, h_destroy, h_eval, NULL, h_quiet,
                                         h_wake,   NULL,      NULL,   NULL, NULL};

static fabric_type_t host_types[8];
static const fabric_port_kind_t *host_ports[8][1];
const fabric_type_t *ibf_host_type(unsigned vls, char *err, size_t errlen) {
  const fabric_port_kind_t *k = fibsw_port_kind(vls);
  if (!k) {
    snprintf(err, errlen, "ibhost: NumDataVls = %u out of range 2..7", vls);
    return NULL;
  }
  if (!host_types[vls].name) {
    host_ports[vls][0] = k;
    host_types[vls] = (fabric_type_t){"ibhost", 1, host_ports[vls], 0, NULL, 0, NULL, &host_model, NULL};
  }
  return &host_types[vls];
}
