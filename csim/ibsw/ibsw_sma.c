/* ibsw_sma: the Subnet Management Agent, docs/ibsw.md §7 (one MAD at a time: RECV ->
   EXEC -> SNAP -> RESP), the Sets of §6.3, §5.7, §8. */
#include <string.h>

#include "ibsw_internal.h"

enum { ST_OK = 0x0000, ST_BUSY = 0x0001, ST_UNSUP = 0x000C, ST_INVAL = 0x001C, ST_SAME = 0x011C };

/* Data words N of a known (class, AttrID), or -1. */
static int attr_words(unsigned cls, unsigned attr, bool *ro, unsigned *mod_max, const ibsw_ctx_t *x) {
  *ro = false;
  if (cls == 0x81) {
    if (attr == 0x0012) {
      *mod_max = 0;
      return 1;
    }
    if (attr == 0x0015) {
      *mod_max = x->P;
      return 1;
    }
    if (attr == 0x0019) {
      *mod_max = x->cfg->lft_blocks - 1u;
      return 8;
    }
  } else {
    if (attr == 0x0010) {
      *mod_max = x->P;
      return 2;
    }
    if (attr == 0x0011) {
      *mod_max = x->P;
      *ro = true;
      return 3;
    }
    if (attr == 0x0012 || attr == 0x001D) {
      *mod_max = x->P;
      return 4;
    }
    if (attr == 0xFF01) {
      *mod_max = 0;
      *ro = true;
      return 2;
    }
  }
  return -1;
}
static bool mod_ok(unsigned cls, unsigned attr, unsigned mod, unsigned mod_max) {
  const bool per_port = (cls == 0x81 && attr == 0x0015) || (cls == 0x04 && attr != 0xFF01);
  return per_port ? (mod >= 1 && mod <= mod_max) : mod <= mod_max;
}

/* §6.3 */
static unsigned set_port_info(ibsw_ctx_t *x, unsigned n, uint64_t w0) {
  const ibsw_port_t *p = &x->s->r.port[n];
  ibsw_port_t nw = *p;
  const unsigned ps = (unsigned)(w0 >> 60) & 15u, ph = (unsigned)(w0 >> 56) & 15u;
  const bool same_ok = ibsw_bug(x, IBSW_BUG_SAME_STATE_ACCEPTED);
  if (ps && ph) return ST_INVAL;
  if (!ps && !ph) return ST_OK;
  if (p->draining) return ST_BUSY;
  if (ph) {
    if (ph == p->phys && !same_ok) return ST_SAME;
    if (ph == p->phys) return ST_OK; /* planted: answered done, nothing to do */
    if (ph == IBSW_DISABLED || ph == IBSW_SLEEP) {
      if (p->phys == IBSW_LINKUP) {
        nw.draining = 1;
        nw.target = (uint8_t)ph;
      } else {
        nw.phys = (uint8_t)ph;
      }
    } else if (ph == IBSW_POLLING) {
      if (p->phys != IBSW_DISABLED && p->phys != IBSW_SLEEP) return ST_INVAL;
      nw.phys = IBSW_POLLING;
    } else {
      return ST_INVAL;
    }
  } else {
    if (ps == p->pstate && !same_ok) return ST_SAME;
    if (ps == p->pstate) return ST_OK;
    if (ps == IBSW_ARMED &&
        (p->pstate == IBSW_INIT || (ibsw_bug(x, IBSW_BUG_ARMED_FROM_DOWN) && p->pstate == IBSW_DOWN)))
      nw.pstate = IBSW_ARMED;
    else if (ps == IBSW_ACTIVE && p->pstate == IBSW_ARMED)
      nw.pstate = IBSW_ACTIVE;
    else
      return ST_INVAL;
  }
  if (x->fsm_changed[n]) return ST_BUSY; /* one writer per cycle */
  ibsw_port_t *q = &x->nx->r.port[n];
  q->phys = nw.phys;
  q->pstate = nw.pstate;
  q->draining = nw.draining;
  q->target = nw.target;
  return ST_OK;
}

static unsigned set_samples(ibsw_ctx_t *x, unsigned n, const uint64_t *w) {
  const ibsw_sampler_t *sm = &x->s->r.smp[n];
  if (sm->status != IBSW_SAMPLE_DONE && !ibsw_bug(x, IBSW_BUG_SAMPLE_SET_WHILE_RUNNING)) return ST_BUSY;
  const uint32_t start = (uint32_t)(w[0] >> 32), interval = (uint32_t)w[0];
  uint8_t sel[4];
  for (unsigned k = 0; k < 4; k++) {
    sel[k] = (uint8_t)(w[1] >> (56 - 8 * k));
    if (sel[k] > 5) return ST_INVAL;
  }
  if (interval == 0) return ST_INVAL;
  ibsw_sampler_t *q = &x->nx->r.smp[n];
  q->start = start;
  q->interval = interval;
  memcpy(q->sel, sel, 4);
  q->status = start == 0 ? IBSW_SAMPLE_RUNNING : IBSW_SAMPLE_STARTED;
  q->wait = start;
  q->run = 0;
  q->win = 0;
  memset(q->res, 0, sizeof q->res);
  q->qd = 0;
  x->smp_set[n] = true;
  return ST_OK;
}

static unsigned execute(ibsw_ctx_t *x, const ibsw_sma_t *m, unsigned cls, unsigned method, unsigned attr,
                        unsigned mod) {
  const uint64_t *w = &m->mad[3];
  if (method != 0x02) return ST_OK;
  if (cls == 0x81 && attr == 0x0012) {
    const unsigned top = (unsigned)(w[0] >> 32) & 0xFFFFu;
    if (top > ibsw_lft_entries(x->cfg) - 1u) return ST_INVAL;
    x->nx->r.lft_top = (uint16_t)top;
    return ST_OK;
  }
  if (cls == 0x81 && attr == 0x0015) return set_port_info(x, mod, w[0]);
  if (cls == 0x81 && attr == 0x0019) {
    x->nx->lft_blk_valid = 1;
    x->nx->lft_blk = (uint16_t)mod;
    for (unsigned k = 0; k < 8; k++)
      for (unsigned j = 0; j < 8; j++) x->nx->lft_blk_e[8 * k + j] = (uint8_t)(w[k] >> (8 * j));
    return ST_OK;
  }
  if (cls == 0x04 && attr == 0x0010) return set_samples(x, mod, w);
  if (cls == 0x04 && attr == 0x0012) {
    static const struct {
      uint8_t word, lo, bits, cnt;
    } f[] = {
        {0, 32, 32, IBSW_C_XMIT_DATA},     {0, 0, 32, IBSW_C_RCV_DATA},    {1, 32, 32, IBSW_C_XMIT_PKTS},
        {1, 0, 32, IBSW_C_RCV_PKTS},       {2, 32, 32, IBSW_C_XMIT_WAIT},  {2, 16, 16, IBSW_C_SYMBOL_ERR},
        {2, 8, 8, IBSW_C_LINK_DOWNED},     {3, 48, 16, IBSW_C_RCV_ERR},    {3, 32, 16, IBSW_C_RELAY_ERR},
        {3, 16, 16, IBSW_C_XMIT_DISCARDS}, {3, 0, 16, IBSW_C_VL15_DROPPED}};
    for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++)
      if ((w[f[k].word] >> f[k].lo) & ((UINT64_C(1) << f[k].bits) - 1u)) x->clear_cnt[mod][f[k].cnt] = true;
    return ST_OK;
  }
  if (cls == 0x04 && attr == 0x001D) {
    for (unsigned k = 0; k < 4; k++)
      if (w[k]) x->clear_cnt[mod][IBSW_C_EXT_XMIT_DATA + k] = true;
    return ST_OK;
  }
  return ST_UNSUP; /* not reached: read-only Sets are refused before */
}

/* The attribute's words as read from the state at the snapshot cycle (§7.4). */
static void snapshot(const ibsw_ctx_t *x, unsigned cls, unsigned attr, unsigned mod, uint64_t *w) {
  const ibsw_regs_t *r = &x->s->r;
  const ibsw_cfg_t *c = x->cfg;
  if (cls == 0x81 && attr == 0x0012) {
    w[0] = ((uint64_t)ibsw_lft_entries(c) << 48) | ((uint64_t)r->lft_top << 32) |
           ((uint64_t)c->num_ports << 24) | ((uint64_t)c->num_data_vls << 16) |
           ((uint64_t)c->route_cycles << 8);
  } else if (cls == 0x81 && attr == 0x0015) {
    static const uint8_t speed[4] = {1, 2, 1, 2}, width[4] = {1, 1, 2, 2};
    const ibsw_port_t *p = &r->port[mod];
    w[0] = ((uint64_t)p->pstate << 60) | ((uint64_t)p->phys << 56) | ((uint64_t)speed[c->link_speed] << 52) |
           ((uint64_t)width[c->link_speed] << 48) | ((uint64_t)(p->draining ? 1 : 0) << 47) |
           ((uint64_t)(p->draining ? p->target & 7u : 0) << 44) | ((uint64_t)mod << 32);
  } else if (cls == 0x81 && attr == 0x0019) {
    for (unsigned k = 0; k < 8; k++) {
      w[k] = 0;
      for (unsigned j = 0; j < 8; j++) w[k] |= (uint64_t)x->s->lft[64u * mod + 8 * k + j] << (8 * j);
    }
  } else if (cls == 0x04 && attr == 0x0010) {
    const ibsw_sampler_t *sm = &r->smp[mod];
    w[0] = ((uint64_t)sm->start << 32) | sm->interval;
    w[1] = ((uint64_t)sm->sel[0] << 56) | ((uint64_t)sm->sel[1] << 48) | ((uint64_t)sm->sel[2] << 40) |
           ((uint64_t)sm->sel[3] << 32) | sm->status;
  } else if (cls == 0x04 && attr == 0x0011) {
    const ibsw_sampler_t *sm = &r->smp[mod];
    w[0] = (sm->res[0] << 32) | (sm->res[1] & 0xFFFFFFFFu);
    w[1] = (sm->res[2] << 32) | (sm->res[3] & 0xFFFFFFFFu);
    w[2] = ((uint64_t)sm->qd << 32) | sm->status;
  } else if (cls == 0x04 && attr == 0x0012) {
    const uint64_t *k = r->cnt[mod];
    w[0] = (k[IBSW_C_XMIT_DATA] << 32) | k[IBSW_C_RCV_DATA];
    w[1] = (k[IBSW_C_XMIT_PKTS] << 32) | k[IBSW_C_RCV_PKTS];
    w[2] = (k[IBSW_C_XMIT_WAIT] << 32) | (k[IBSW_C_SYMBOL_ERR] << 16) | (k[IBSW_C_LINK_DOWNED] << 8);
    w[3] = (k[IBSW_C_RCV_ERR] << 48) | (k[IBSW_C_RELAY_ERR] << 32) | (k[IBSW_C_XMIT_DISCARDS] << 16) |
           k[IBSW_C_VL15_DROPPED];
  } else if (cls == 0x04 && attr == 0x001D) {
    for (unsigned k = 0; k < 4; k++) w[k] = r->cnt[mod][IBSW_C_EXT_XMIT_DATA + k];
  } else if (cls == 0x04 && attr == 0xFF01) {
    w[0] = r->pw;
    w[1] = r->energy;
  }
}

void ibsw_sma(ibsw_ctx_t *x) {
  const ibsw_sma_t *m = &x->s->r.sma;
  ibsw_sma_t *q = &x->nx->r.sma;
  switch (m->state) {
    case IBSW_SMA_RECV: {
      const ibsw_flit_t *f = &x->s->r.sma_in;
      if (!f->valid) break;
      if (m->nflit < IBSW_MAD_WORDS) q->mad[m->nflit] = f->data;
      if (m->nflit < 255) q->nflit = (uint8_t)(m->nflit + 1);
      if (f->kind == IBSW_TAIL) {
        q->synth = f->synth;
        q->state = IBSW_SMA_EXEC;
      }
      break;
    }
    case IBSW_SMA_EXEC: {
      const unsigned len = m->nflit;
      const uint64_t w2 = m->mad[2];
      const unsigned cls = (unsigned)(w2 >> 56), method = (unsigned)(w2 >> 48) & 0xFFu;
      const unsigned attr = (unsigned)(w2 >> 32) & 0xFFFFu, mod = (unsigned)(w2 >> 16) & 0xFFFFu;
      bool ro = false;
      unsigned mod_max = 0;
      const int N = len >= 3 ? attr_words(cls, attr, &ro, &mod_max, x) : -1;
      bool bad = len < 3 || len > IBSW_MAD_WORDS || m->synth || (cls != 0x81 && cls != 0x04) ||
                 (method != 0x01 && method != 0x02);
      if (!bad && N >= 0 && len != 3u + (unsigned)N) bad = true;
      if (bad) {
        ibsw_raise(x, m->ingress, 9);
        q->state = IBSW_SMA_IDLE;
        break;
      }
      q->cls = (uint8_t)cls;
      q->attr = (uint16_t)attr;
      q->mod = (uint16_t)mod;
      q->echo = 0;
      if (N < 0) {
        q->status = ST_UNSUP;
        q->echo = 1;
        q->resp_len = (uint8_t)len;
      } else if (!mod_ok(cls, attr, mod, mod_max)) {
        q->status = ST_INVAL;
        q->echo = 1;
        q->resp_len = (uint8_t)len;
      } else if (ro && method == 0x02) {
        q->status = ST_UNSUP;
        q->resp_len = (uint8_t)(3 + N);
      } else {
        q->status = (uint16_t)execute(x, m, cls, method, attr, mod);
        q->resp_len = (uint8_t)(3 + N);
      }
      q->state = IBSW_SMA_SNAP;
      break;
    }
    case IBSW_SMA_SNAP: {
      q->resp[0] = (UINT64_C(0xFFFF) << 48) | (m->mad[1] & UINT64_C(0xFFFFFFFFFFFF));
      q->resp[1] = m->mad[1] & UINT64_C(0xFFFF000000000000);
      q->resp[2] = ((uint64_t)m->cls << 56) | (UINT64_C(0x81) << 48) | ((uint64_t)m->attr << 32) |
                   ((uint64_t)m->mod << 16) | m->status;
      if (m->echo)
        for (unsigned k = 3; k < m->resp_len; k++) q->resp[k] = m->mad[k];
      else
        snapshot(x, m->cls, m->attr, m->mod, &q->resp[3]);
      q->idx = 0;
      q->dropped = 0;
      q->state = IBSW_SMA_RESP;
      break;
    }
    case IBSW_SMA_RESP: {
      const unsigned V = x->V;
      if (x->s->r.ln[0][V].cnt >= x->cfg->buf15_depth) break; /* full at the start of the cycle */
      const unsigned k = m->idx;
      ibsw_entry_t e = {m->resp[k],
                        (uint8_t)(k == 0                  ? IBSW_HEAD
                                  : k + 1u == m->resp_len ? IBSW_TAIL
                                                          : IBSW_BODY),
                        0, m->dropped};
      if (k == 0) { /* the HEAD's push is its arrival (§5.2), ingress 0 */
        unsigned egr = 0, code = 0;
        if (ibsw_route(x, 0, V, e.data, &egr, &code)) {
          e.drop = 0;
          e.egr = (uint8_t)egr;
          if (egr >= 1) x->nx->r.pend[egr]++;
        } else {
          e.drop = 1;
          q->dropped = 1;
          ibsw_sma_raise(x, code);
        }
      }
      ibsw_push(x, 0, V, &e);
      q->idx = (uint8_t)(k + 1);
      if (k + 1u == m->resp_len) q->state = IBSW_SMA_IDLE;
      break;
    }
    default: break;
  }
}
