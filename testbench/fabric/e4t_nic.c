/* elite4 fabric endpoint NIC: see e4t_nic.h. */
#include "e4t_nic.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "elite4/elite4.h" /* flit kinds only */
#include "ref/crc32_ref.h"

static const char *const policy_names[] = {"free", "rr", "vc0"};

const char *e4t_vc_policy_name(e4t_vc_policy_t p) { return policy_names[p]; }

int e4t_vc_policy_parse(const char *s, e4t_vc_policy_t *p) {
  for (unsigned i = 0; i < sizeof policy_names / sizeof policy_names[0]; i++)
    if (!strcmp(s, policy_names[i])) {
      *p = (e4t_vc_policy_t)i;
      return 0;
    }
  return -EINVAL;
}

int e4t_nic_init(e4t_nic_t *n, unsigned node, unsigned qcap, uint64_t seed) {
  memset(n, 0, sizeof *n);
  n->node = (uint16_t)node;
  n->qcap = qcap;
  for (unsigned v = 0; v < E4T_VCS; v++) {
    n->q[v] = malloc((size_t)qcap * sizeof *n->q[v]);
    if (!n->q[v]) return -ENOMEM;
    n->cur[v] = -1;
    n->early_tok[v] = -1;
    n->tok_due[v] = -1;
    n->credits[v] = E4T_DEPTH;
  }
  cosim_rng_seed(&n->rng_rx, seed);
  return 0;
}

void e4t_nic_free(e4t_nic_t *n) {
  for (unsigned v = 0; v < E4T_VCS; v++) {
    free(n->q[v]);
    n->q[v] = NULL;
  }
}

/* Body word i as the NIC sends it (planted bugs alter it; the CRC covers what is sent). */
static uint32_t tx_word(const e4t_nic_env_t *env, uint32_t id, unsigned i) {
  uint32_t w = e4t_body_word(env->rec, id, i);
  if (i == 0 && (env->bugs & E4T_BUG_ID_WRONG)) w ^= 1u << 30;
  if (i == 1 && (env->bugs & E4T_BUG_BODY_FLIP)) w ^= 1u;
  return w;
}
/* Body words the NIC sends per packet. */
static unsigned tx_nbody(const e4t_nic_env_t *env) {
  return env->nbody + ((env->bugs & E4T_BUG_BODY_EXTRA) != 0);
}

bool e4t_nic_idle(const e4t_nic_t *n) {
  for (unsigned v = 0; v < E4T_VCS; v++)
    if (n->qn[v] || n->cur[v] >= 0 || n->rx_open[v] || n->tok_due[v] >= 0) return false;
  return true;
}

void e4t_nic_enqueue(e4t_nic_t *n, e4t_nic_env_t *env, unsigned dst, uint64_t c) {
  unsigned qi = env->policy == E4T_VC_RR ? n->rr_bind : 0;
  if (n->qn[qi] == n->qcap) {
    env->refused++;
    if (c >= env->win_from && c < env->win_to) env->refused_win++;
    return;
  }
  int64_t id = e4t_records_new(env->rec);
  if ((env->bugs & E4T_BUG_RECORDS_CAP) && id >= 100) id = -1; /* planted: the table stops at 100 */
  if ((env->bugs & E4T_BUG_RECORD_LEAK) && id == 10)
    id = e4t_records_new(env->rec); /* planted: 10 never sent */
  if (id < 0) {
    e4t_failf(env->sb, c, "fabric.setup", "out of memory for packet records");
    return;
  }
  if (env->policy == E4T_VC_RR) n->rr_bind = (n->rr_bind + 1) % E4T_VCS;
  e4t_pkt_t *k = e4t_records_get(env->rec, (uint32_t)id);
  uint8_t tags[E4T_MAX_TAGS];
  unsigned nsw;
  k->src = n->node;
  k->dst = (uint16_t)dst;
  k->nbody = (uint16_t)env->nbody;
  /* nt tags: 2t + 1 (as many as switches), or t + 3 with a counted up tag (t >= 4) */
  const unsigned nt = e4t_route_tags(env->topo, n->node, dst, &k->route, tags, &nsw);
  k->nsw = (uint8_t)nsw;
  if (env->bugs & E4T_BUG_ROUTE_WRONG_PORT) /* planted: the last down tag points at the neighbour's port */
    k->route = (k->route & ~(0xFu << (4 * (nt - 1)))) | ((uint32_t)(tags[nt - 1] ^ 1u) << (4 * (nt - 1)));
  if ((env->bugs & E4T_BUG_ROUTE_PAD) && nt < 8) k->route &= (1u << (4 * nt)) - 1; /* planted */
  if ((env->bugs & E4T_BUG_ROUTE_TOP_UP) &&
      k->nsw == 2 * env->topo->levels - 1) { /* planted: the top's tag */
    const unsigned top = nt - (nsw / 2 + 1); /* the first down tag */
    k->route = (k->route & ~(0xFu << (4 * top))) | (4u << (4 * top));
  }
  k->t_create = (uint32_t)c;
  uint32_t words[E4T_MAX_BODY + 1];
  for (unsigned i = 0; i < tx_nbody(env); i++) words[i] = tx_word(env, (uint32_t)id, i);
  k->crc = crc32_ref_words(words, tx_nbody(env));
  n->q[qi][(n->qh[qi] + n->qn[qi]++) % n->qcap] = (uint32_t)id;
  env->outstanding++;
}

/* The token for the packet on VC v: done, or resent at once (nack). */
static void settle(e4t_nic_t *n, e4t_nic_env_t *env, unsigned v, bool ack, uint64_t c) {
  e4t_pkt_t *k = e4t_records_get(env->rec, (uint32_t)n->cur[v]);
  if (ack && (env->bugs & E4T_BUG_ACK_RESEND) && !env->bug_fired) { /* planted: the run's first ack resends */
    env->bug_fired = true;
    n->sending[v] = true;
    n->flit_i[v] = 0;
    return;
  }
  if (ack) {
    if (k->state != E4T_PKT_DELIVERED)
      e4t_failf(env->sb, c, "fabric.ack_unaccepted",
                "node %u VC %u: ack for packet %" PRId64 " that no destination accepted", n->node, v,
                n->cur[v]);
    k->state = E4T_PKT_DONE;
    k->t_done = (uint32_t)c;
    e4t_records_retire(env->rec, (uint32_t)n->cur[v]); /* records off: folded, slot freed */
    n->cur[v] = -1;
    env->outstanding--;
  } else {
    n->sending[v] = true;
    n->flit_i[v] = 0;
    if (!(env->bugs & E4T_BUG_RETRY_UNCOUNTED)) env->retries++; /* planted: uncounted */
  }
}

static void receive_token(e4t_nic_t *n, e4t_nic_env_t *env, unsigned v, bool ack, uint64_t c) {
  if (n->await_tok[v]) {
    n->await_tok[v] = false;
    settle(n, env, v, ack, c);
  } else if (n->sending[v] && n->early_tok[v] < 0) {
    n->early_tok[v] = ack; /* settled when our TAIL has gone */
  } else {
    e4t_failf(env->sb, c, "fabric.token_unexpected",
              "node %u: token on VC %u with no packet waiting for one, cycle %" PRIu64, n->node, v, c);
  }
}

static void receive_data(e4t_nic_t *n, e4t_nic_env_t *env, const e4t_flit_t *f, uint64_t c) {
  const unsigned v = f->vc;
  n->rx_flits++;
  if ((env->bugs & E4T_BUG_RX_DROP_HEAD) && f->kind == ELITE4_HEAD && !n->bug_fired) { /* planted: lost */
    n->bug_fired = true;
    return;
  }
  if (f->kind == ELITE4_HEAD) {
    if (n->rx_open[v])
      e4t_failf(env->sb, c, "fabric.head_in_packet", "node %u VC %u: HEAD inside a packet, cycle %" PRIu64,
                n->node, v, c);
    n->rx_open[v] = true;
    n->rx_n[v] = 0;
    n->rx_head[v] = f->data;
    n->rx_head_cycle[v] = (uint32_t)c;
    return;
  }
  if (!n->rx_open[v]) {
    e4t_failf(env->sb, c, "fabric.body_without_head", "node %u VC %u: %s with no packet, cycle %" PRIu64,
              n->node, v, f->kind == ELITE4_BODY ? "BODY" : "TAIL", c);
    return;
  }
  if (f->kind == ELITE4_BODY) {
    e4t_pkt_t *h = n->rx_n[v] == 0 ? e4t_records_get(env->rec, f->data) : NULL;
    if (h) h->t_head_rx = n->rx_head_cycle[v];
    if (n->rx_n[v] < E4T_MAX_BODY) n->rx_words[v][n->rx_n[v]] = f->data;
    n->rx_n[v]++;
    return;
  }
  /* TAIL: the packet is complete */
  if ((env->bugs & E4T_BUG_RX_TAIL_OPEN) && !n->bug_fired) /* planted: the first packet is never closed */
    n->bug_fired = true;
  else
    n->rx_open[v] = false;
  uint32_t tail = f->data;
  if ((env->bugs & E4T_BUG_RX_TAIL_FLIP) && !n->bug_fired) { /* planted: bit 0 of the first TAIL */
    n->bug_fired = true;
    tail ^= 1u;
  }
  uint32_t id = UINT32_MAX;
  bool ok = false;
  if (n->rx_n[v] > E4T_MAX_BODY)
    e4t_failf(env->sb, c, "fabric.body_length",
              "node %u VC %u: a packet of %u body words (at most %u are sent), cycle %" PRIu64, n->node, v,
              n->rx_n[v], E4T_MAX_BODY, c);
  else
    ok = e4t_score_check(env->sb, env->rec, n->node, v, n->rx_head[v], n->rx_words[v], n->rx_n[v], tail, c,
                         &id);
  /* draw always: the stream must not depend on the verdict */
  bool refuse = cosim_rng_chance(&n->rng_rx, env->nack_rate);
  if ((env->bugs & E4T_BUG_NACK_FOREVER) && id == 0) refuse = true; /* planted: packet 0 never accepted */
  const bool refused_intact = ok && refuse;
  if (ok && !refuse) {
    e4t_score_deliver(env->sb, env->rec, id, c);
    if (env->bugs & E4T_BUG_TAIL_TIME_LATE) e4t_records_get(env->rec, id)->t_tail_rx++; /* planted */
    if (c >= env->win_from && c < env->win_to) env->win_flits += e4t_records_get(env->rec, id)->nbody + 2u;
  } else {
    ok = false;
    env->nacks_sent++;
  }
  if (!(env->bugs & E4T_BUG_NIC_NO_TOKEN))
    n->tok_due[v] = ok || ((env->bugs & E4T_BUG_NACK_AS_ACK) && refused_intact);
}

void e4t_nic_step(e4t_nic_t *n, e4t_nic_env_t *env, uint64_t c, const e4t_flit_t *rx, e4t_flit_t *tx) {
  memset(tx, 0, sizeof *tx);
  for (unsigned v = 0; v < E4T_VCS; v++)
    if (rx->credit[v] && ++n->credits[v] > E4T_DEPTH)
      e4t_failf(env->sb, c, "fabric.credit_overflow",
                "node %u: the switch returned more credits than buffer slots on VC %u", n->node, v);
  if (rx->valid) {
    env->last_progress = c;
    if (rx->kind == ELITE4_TOKEN) {
      receive_token(n, env, rx->vc, rx->data & 1, c);
    } else {
      receive_data(n, env, rx, c);
      tx->credit[rx->vc] = true; /* consumed on arrival */
    }
  }
  /* a token we owe goes first */
  for (unsigned v = 0; v < E4T_VCS; v++)
    if (n->tok_due[v] >= 0) {
      tx->valid = true;
      tx->kind = ELITE4_TOKEN;
      tx->vc = (uint8_t)v;
      tx->data = (uint32_t)n->tok_due[v];
      n->tok_due[v] = -1;
      n->tx_flits++;
      return;
    }
  /* free VCs take packets from their queue */
  for (unsigned v = 0; v < E4T_VCS; v++) {
    if (n->cur[v] >= 0 || (env->policy == E4T_VC_ZERO && v > 0)) continue;
    unsigned qi = env->policy == E4T_VC_RR ? v : 0;
    if (!n->qn[qi]) continue;
    uint32_t id = n->q[qi][n->qh[qi]];
    n->qh[qi] = (n->qh[qi] + 1) % n->qcap;
    n->qn[qi]--;
    e4t_pkt_t *k = e4t_records_get(env->rec, id);
    k->vc = (uint8_t)(v ^ ((env->bugs & E4T_BUG_VC_RECORD) != 0)); /* planted: the other VC */
    k->seq = env->sb->next_seq[n->node * E4T_VCS + v]++;
    if (env->bugs & E4T_BUG_SEQ_SKIP) env->sb->next_seq[n->node * E4T_VCS + v]++; /* planted */
    k->state = E4T_PKT_SENDING;
    n->cur[v] = id;
    n->sending[v] = true;
    n->flit_i[v] = 0;
  }
  /* one data flit, round robin over the VCs that can send */
  for (unsigned i = 0; i < E4T_VCS; i++) {
    unsigned v = (n->tx_rr + i) % E4T_VCS;
    if (!n->sending[v] || !n->credits[v]) continue;
    uint32_t id = (uint32_t)n->cur[v];
    e4t_pkt_t *k = e4t_records_get(env->rec, id);
    unsigned fi = n->flit_i[v]++;
    tx->valid = true;
    tx->vc = (uint8_t)v;
    if (fi == 0) {
      tx->kind = ELITE4_HEAD;
      tx->data = k->route;
      k->t_inject = (uint32_t)c;
      k->nhops = 0; /* a retry's hops replace the last try's */
      k->tries++;
    } else if (fi <= tx_nbody(env)) {
      tx->kind = ELITE4_BODY;
      tx->data = tx_word(env, id, fi - 1);
    } else {
      tx->kind = ELITE4_TAIL;
      tx->data = k->crc;
      n->sending[v] = false;
      if (n->early_tok[v] >= 0) {
        bool ack = n->early_tok[v] != 0;
        n->early_tok[v] = -1;
        settle(n, env, v, ack, c);
      } else if ((env->bugs & E4T_BUG_AWAIT_LOST) && !n->bug_fired) { /* planted: forgets it waits */
        n->bug_fired = true;
      } else {
        n->await_tok[v] = true;
      }
    }
    if (!((env->bugs & E4T_BUG_CREDIT_SKIP) && n->tx_flits == 0))
      n->credits[v]--; /* planted: free first flit */
    n->tx_flits++;
    n->tx_rr = (v + 1) % E4T_VCS;
    break;
  }
}
