/* elan4 link receiver (docs/elan4.md §6.5 "Receiver"): a credit back for every
 * HEAD, BODY or TAIL, and one packet register per VC; FULL packets queue for
 * the input processor in TAIL order (elan4_input_proc.c frees the register). */
#include "elan4_internal.h"

void elan4_link_rx(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_in_t *in = y->in;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  n->r.out_credit = 0;
  if (!in->in_valid || in->in_kind == ELAN4_TOKEN || in->in_vc >= c->num_vcs) return;
  const unsigned v = in->in_vc;
  n->r.out_credit = (uint8_t)(1u << v);
  const elan4_rxp_t *o = &s->rx[v];
  elan4_rxp_t *p = &n->rx[v];
  if (o->dropping) { /* a neighbour's packet dropped up to its TAIL */
    if (in->in_kind == ELAN4_TAIL) p->dropping = false;
    return;
  }
  switch (in->in_kind) {
    case ELAN4_HEAD:
      if (o->st == RX_FREE || c->bug == ELAN4_BUG_RX_HEAD_ON_BUSY) { /* planted: restarts a busy register */
        p->st = RX_OPEN;
        p->route = in->in_data;
        p->nbody = 0;
        p->overlength = false;
        p->crc = 0xFFFFFFFFu;
      } else {
        cyc_count(y, ELAN4_CNT_PROTO_ERR);
        p->dropping = true;
      }
      break;
    case ELAN4_BODY:
      if (o->st != RX_OPEN) {
        cyc_count(y, ELAN4_CNT_PROTO_ERR);
        break;
      }
      if (o->nbody < ELAN4_MAX_BODY) {
        p->body[o->nbody] = in->in_data;
        p->nbody = (uint8_t)(o->nbody + 1);
      } else {
        p->overlength = true;
      }
      p->crc = common_crc32_feed_word(o->crc, in->in_data);
      break;
    default: /* TAIL */
      if (o->st != RX_OPEN) {
        cyc_count(y, ELAN4_CNT_PROTO_ERR);
        break;
      }
      p->st = RX_FULL;
      p->crc = (~o->crc == in->in_data) ? 1u : 0u; /* the verdict: 1 = CRC good */
      cyc_count(y, ELAN4_CNT_RX_PKTS);
      if (n->n_ipq < ELAN4_MAX_VCS)
        n->ipq[n->n_ipq++] = (uint8_t)v; /* NumVcs at most, but for the planted bug */
      break;
  }
}
