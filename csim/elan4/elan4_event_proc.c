/* elan4 event processor (docs/elan4.md §4.4, §6.7): the event FIFO and one
 * request at a time: translate, set (read e0, write e0', fire: read e1..e3,
 * then INTERRUPT, WRITE or COPY), prime (four writes). Each step's request is
 * presented from the cycle after the previous step ends. */
#include "elan4_internal.h"

enum {
  EP_LOOK = 1, /* the request's VA */
  EP_RD_E0,
  EP_WR_E0,
  EP_RD_E1,
  EP_RD_E2,
  EP_RD_E3,
  EP_WLOOK,  /* WRITE: param0 */
  EP_WWRITE, /* WRITE: param1 stored */
  EP_CLOOK_S,
  EP_CLOOK_D,
  EP_CRD,
  EP_CWR,
  EP_PRIME
};
enum { SP_HOST = 0, SP_LOCAL = 1, SP_QUEUE = 2 };

static unsigned space_of(const elan4_xlate_t *x) { return (unsigned)((x->p0 >> 3) & 3u); }
static uint64_t pa_of(const elan4_xlate_t *x, uint64_t va) {
  return (x->p1 & ((1ull << 50) - 1) & ~0x1FFFull) | (va & 0x1FFFu);
}
static bool in_page(uint64_t va, uint64_t bytes) { return (va & 0x1FFFu) + bytes <= 0x2000u; }

/* the job of this cycle: the busy one, or the FIFO's oldest taken now */
static bool job_of(const elan4_state_t *s, elan4_ep_t *j) {
  if (s->ep.busy) {
    *j = s->ep;
    return true;
  }
  if (!s->n_epf) return false;
  memset(j, 0, sizeof *j);
  j->busy = true;
  j->r = s->epf[0];
  j->ev = j->r.addr;
  j->step = j->r.va_given ? EP_LOOK : j->r.prime ? EP_PRIME : EP_RD_E0;
  return true;
}

static unsigned copy_index(const elan4_cfg_t *c, const elan4_ep_t *j) {
  unsigned len = (unsigned)((j->e0 >> 32) & 0x1FFu);
  return c->bug == ELAN4_BUG_COPY_REVERSED ? len - 1u - j->i : j->i;
}

/* the destination write of the current step (WRITE or COPY), if any */
static bool dst_write(const elan4_cfg_t *c, const elan4_ep_t *j, uint64_t *va, uint64_t *data) {
  if (j->step == EP_WWRITE) {
    *va = j->e1;
    *data = j->e2;
    return true;
  }
  if (j->step == EP_CWR) {
    *va = j->e2 + 8ull * copy_index(c, j);
    *data = j->data;
    return true;
  }
  return false;
}

bool elan4_ep_iqw(const elan4_cfg_t *c, const elan4_state_t *s, uint16_t *q, uint16_t *k, uint64_t *data) {
  elan4_ep_t j;
  uint64_t va;
  if (!s->ep.busy || !job_of(s, &j) || !dst_write(c, &j, &va, data) || space_of(&j.xd) != SP_QUEUE)
    return false;
  *q = (uint16_t)((pa_of(&j.xd, va) >> 13) & 0x1FFFu);
  *k = (uint16_t)((va >> 3) & 511u);
  return true;
}

void elan4_ep_present(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_ep_t j;
  if (!job_of(s, &j) || j.wait) return;
  const uint32_t ev = (uint32_t)(j.ev / 8u);
  elan4_lmreq_t *r = &y->req[RQ_EP];
  uint64_t va, data;
  switch (j.step) {
    case EP_LOOK:
    case EP_WLOOK:
    case EP_CLOOK_S:
    case EP_CLOOK_D:
      y->look_req[1] = true;
      y->look_ctx[1] = j.step == EP_LOOK ? j.r.ctx : (uint16_t)(j.e3 & 0x3FFFu);
      y->look_va[1] = j.step == EP_LOOK ? j.r.addr : j.step == EP_CLOOK_D ? j.e2 : j.e1;
      break;
    case EP_RD_E0: *r = (elan4_lmreq_t){true, false, ev, 0}; break;
    case EP_RD_E1:
    case EP_RD_E2:
    case EP_RD_E3: *r = (elan4_lmreq_t){true, false, ev + 1u + (j.step - EP_RD_E1), 0}; break;
    case EP_WR_E0: {
      uint32_t cnt = (uint32_t)j.e0 + j.r.inc;
      *r = (elan4_lmreq_t){true, true, ev, (j.e0 & ~0xFFFFFFFFull) | cnt};
      break;
    }
    case EP_CRD:
      *r = (elan4_lmreq_t){true, false, (uint32_t)(pa_of(&j.xs, j.e1 + 8ull * copy_index(c, &j)) / 8u), 0};
      break;
    case EP_PRIME: {
      const uint64_t v[4] = {j.r.e0, j.r.p0, j.r.p1, j.r.ctx};
      *r = (elan4_lmreq_t){true, true, ev + j.i, v[j.i & 3u]};
      break;
    }
    default: break;
  }
  if (dst_write(c, &j, &va, &data)) {
    const unsigned sp = space_of(&j.xd);
    const uint64_t pa = pa_of(&j.xd, va);
    if (sp == SP_LOCAL) *r = (elan4_lmreq_t){true, true, (uint32_t)(pa / 8u), data};
    if (sp == SP_HOST) {
      y->hm_req[2] = true;
      y->hm_wr[2] = true;
      y->hm_addr[2] = pa;
      y->hm_data[2] = data;
    }
    if (sp == SP_QUEUE && !y->iqw && elan4_intake_ok(c, s)) {
      y->iqw = y->iqw_ep = true;
      elan4_ep_iqw(c, s, &y->iqw_q, &y->iqw_k, &y->iqw_data);
    }
  }
}

static void done(elan4_ep_t *j) { j->busy = false; }
static void irq7(elan4_cyc_t *y, elan4_ep_t *j, uint16_t info, uint64_t data) {
  cyc_irq(y, IS_EP, 7, info, data);
  done(j);
}
static bool legal_e0(uint64_t e0) {
  return ((e0 >> 32) & 0x1FFu) <= 256 && ((e0 >> 41) & 3u) != 3 && !(e0 >> 43);
}

void elan4_ep_cycle(elan4_cyc_t *y) {
  const elan4_cfg_t *c = y->c;
  const elan4_state_t *s = y->s;
  elan4_state_t *n = y->nx;
  elan4_ep_t j;
  if (!job_of(s, &j)) return;
  if (!s->ep.busy) { /* taken from the FIFO in this cycle */
    for (unsigned i = 0; i + 1 < s->n_epf; i++) n->epf[i] = s->epf[i + 1];
    n->n_epf = (uint8_t)(s->n_epf - 1);
  }
  const bool lm_g = y->granted == RQ_EP, hm_g = y->hm_granted == 2;
  const bool rd_data = y->rd_due && y->rd.owner == LMR_EP;
  const uint16_t ectx = (uint16_t)(j.e3 & 0x3FFFu);
  const unsigned len = (unsigned)((j.e0 >> 32) & 0x1FFu);
  switch (j.step) {
    case EP_LOOK:
    case EP_WLOOK:
    case EP_CLOOK_S:
    case EP_CLOOK_D: {
      if (!y->look_done[1]) {
        /* a miss of our own lookup: the fill runs (a fill started this cycle for the IP, granted
           before us, is not ours: present again) */
        if (y->look_req[1] && !s->fill.active && n->fill.active && n->fill.who == 1) j.wait = true;
        break;
      }
      j.wait = false;
      const elan4_xlate_t *x = &y->look_res[1];
      if (j.step == EP_LOOK) {
        if (!x->ok || space_of(x) != SP_LOCAL) {
          irq7(y, &j, j.r.ctx, j.r.addr);
          break;
        }
        j.ev = pa_of(x, j.r.addr) & 0x7FFFFFFFu;
        j.step = j.r.prime ? EP_PRIME : EP_RD_E0;
      } else if (j.step == EP_WLOOK) {
        if (!x->ok || (j.e1 & 7u)) {
          irq7(y, &j, ectx, j.e1);
          break;
        }
        j.xd = *x;
        j.step = EP_WWRITE;
      } else if (j.step == EP_CLOOK_S) {
        if (!x->ok || space_of(x) != SP_LOCAL || (j.e1 & 7u) || !in_page(j.e1, 8ull * len)) {
          irq7(y, &j, ectx, j.e1);
          break;
        }
        j.xs = *x;
        j.step = EP_CLOOK_D;
      } else {
        bool bad = !x->ok || (j.e2 & 7u) || !in_page(j.e2, 8ull * len) ||
                   (x->ok && space_of(x) == SP_QUEUE && ((j.e2 >> 3) & 511u) + len > 512);
        if (bad) {
          irq7(y, &j, ectx, j.e2);
          break;
        }
        j.xd = *x;
        j.i = 0;
        j.step = EP_CRD;
      }
      break;
    }
    case EP_RD_E0:
    case EP_RD_E1:
    case EP_RD_E2:
    case EP_RD_E3:
    case EP_CRD:
      if (lm_g) {
        lmr_tag(y, LMR_EP, 0, 0, 0);
        j.wait = true;
      }
      if (!rd_data) break;
      j.wait = false;
      if (j.step == EP_RD_E0) {
        j.e0 = y->rd_data;
        if (!legal_e0(j.e0)) {
          irq7(y, &j, 0, j.ev);
          break;
        }
        j.step = EP_WR_E0;
      } else if (j.step == EP_RD_E1) {
        j.e1 = y->rd_data;
        j.step = EP_RD_E2;
      } else if (j.step == EP_RD_E2) {
        j.e2 = y->rd_data;
        j.step = EP_RD_E3;
      } else if (j.step == EP_RD_E3) {
        j.e3 = y->rd_data;
        const unsigned type = (unsigned)((j.e0 >> 41) & 3u);
        if (type == 2) {
          cyc_irq(y, IS_EP, 2, (uint16_t)(j.e3 & 0x3FFFu), j.e1);
          done(&j);
        } else if (type == 1) {
          j.step = EP_WLOOK;
        } else if (len == 0) {
          done(&j);
        } else {
          j.step = EP_CLOOK_S;
        }
      } else { /* CRD */
        j.data = y->rd_data;
        j.step = EP_CWR;
      }
      break;
    case EP_WR_E0:
      if (lm_g) {
        const int32_t was = (int32_t)(uint32_t)j.e0, now = (int32_t)((uint32_t)j.e0 + j.r.inc);
        const bool fire = (c->bug == ELAN4_BUG_FIRE_ON_EQUAL ? was <= 0 : was < 0) && now >= 0;
        cyc_count(y, ELAN4_CNT_EVENTS_SET);
        if (fire) {
          cyc_count(y, ELAN4_CNT_EVENTS_FIRED);
          n->r.tr_fire = true;
          n->r.tr_fire_addr = (uint32_t)(j.ev & 0x7FFFFFFFu);
          j.step = EP_RD_E1;
        } else {
          done(&j);
        }
      }
      break;
    case EP_WWRITE:
    case EP_CWR: {
      const unsigned sp = space_of(&j.xd);
      const bool g = sp == SP_LOCAL ? lm_g : sp == SP_HOST ? hm_g : y->iqw_ep;
      if (!g) break;
      if (j.step == EP_WWRITE || ++j.i == len)
        done(&j);
      else
        j.step = EP_CRD;
      break;
    }
    case EP_PRIME:
      if (lm_g && ++j.i == 4) done(&j);
      break;
    default: done(&j); break;
  }
  n->ep = j;
}
