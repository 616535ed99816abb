/* The elite4 switch as an instance type of the fabric core: see fabric_elite4.h. */
#include "bind/fabric_elite4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/elite4.h"
#include "elite4/elite4_internal.h" /* elite4_up_select, for quiet()'s upsel test */

const fabric_port_kind_t fe4_link_kind = {"elite4_link", 32, 2, FE4_VCS};

/* ---- model ------------------------------------------------------------------ */

typedef struct {
  void *h; /* elite4_p8_target.model handle (scramble and reset as the lockstep does) */
  const elite4_cfg_t *cfg;
  elite4_state_t *s;
  elite4_next_t *nx;
  unsigned quiet_bug;
  elite4_in_t in;         /* ports >= 8 stay 0 */
  elite4_out_t out;       /* the outputs of the last evaluated cycle (the counters' source) */
  uint64_t last_eval;     /* that cycle */
  int quiet_cache;        /* -1 unknown, else quiet() of the current state */
  elite4_next_t *scratch; /* quiet()'s upsel computation */
} fe4_model_t;

static void *m_create(const void *params, unsigned index, char *err, size_t errlen) {
  const fe4_params_t *pr = params;
  fe4_model_t *m = calloc(1, sizeof *m);
  if (m) m->scratch = malloc(sizeof *m->scratch);
  if (m && m->scratch) m->h = elite4_p8_target.model.create(pr ? pr->model_bug : 0);
  if (!m || !m->scratch || !m->h) {
    snprintf(err, errlen, "elite4_p8 instance %u: model not created", index);
    if (m) free(m->scratch);
    free(m);
    return NULL;
  }
  /* from garbage, as the RTL's registers: the reset must bring every register back */
  elite4_p8_target.model.scramble(m->h, pr ? pr->seed : index);
  elite4_p8_target.model.reset(m->h);
  elite4_bind_parts(m->h, &m->cfg, &m->s, &m->nx);
  m->quiet_bug = pr ? pr->quiet_bug : 0;
  m->last_eval = FABRIC_NEVER;
  m->quiet_cache = -1;
  return m;
}

static void m_destroy(void *p) {
  fe4_model_t *m = p;
  elite4_p8_target.model.destroy(m->h);
  free(m->scratch);
  free(m);
}

static void m_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  fe4_model_t *m = p;
  elite4_in_t *mi = &m->in;
  for (unsigned o = 0; o < FE4_PORTS; o++) {
    const fabric_flit_t *f = &in[o];
    mi->valid[o] = f->valid;
    mi->kind[o] = f->kind;
    mi->vc[o] = f->vc;
    mi->data[o] = (uint32_t)f->data;
    mi->credit[o][0] = f->credit & 1u;
    mi->credit[o][1] = (f->credit >> 1) & 1u;
  }
  if (m->quiet_bug == FE4_BUG_DROP_CREDIT) mi->credit[0][1] = false; /* planted */
  elite4_eval(m->cfg, m->s, mi, &m->out, m->nx);
  const elite4_out_t *mo = &m->out;
  uint64_t alloc = 0, err = 0, code = 0;
  for (unsigned o = 0; o < FE4_PORTS; o++) {
    fabric_flit_t *f = &out[o];
    if (mo->valid[o]) {
      f->valid = 1;
      f->kind = (uint8_t)mo->kind[o];
      f->vc = (uint8_t)mo->vc[o];
      f->data = mo->data[o];
    }
    f->credit = (uint8_t)(mo->credit[o][0] | mo->credit[o][1] << 1);
    alloc |= (uint64_t)(mo->alloc[o][0] | mo->alloc[o][1] << 1) << (2 * o);
    if (mo->err[o]) {
      err |= 1ull << o;
      code |= (uint64_t)(mo->err_code[o] & 0xFu) << (4 * o);
    }
  }
  side[FE4_SIDE_ALLOC] = alloc;
  side[FE4_SIDE_ERR] = err;
  side[FE4_SIDE_ERR_CODE] = code;
  m->last_eval = c;
}

static void m_commit(void *p) {
  fe4_model_t *m = p;
  elite4_commit(m->cfg, m->s, m->nx);
  m->quiet_cache = -1;
}

static bool out_idle(const elite4_out_t *r) {
  for (unsigned o = 0; o < FE4_PORTS; o++)
    if (r->valid[o] || r->err[o] || r->credit[o][0] || r->credit[o][1] || r->alloc[o][0] || r->alloc[o][1])
      return false;
  return true;
}

static bool m_quiet_now(fe4_model_t *m) {
  const elite4_state_t *s = m->s;
  const unsigned N = FE4_PORTS * FE4_VCS;
  for (unsigned k = 0; k < N; k++) {
    const common_fifo_state_t *b = &s->buf[k];
    if (b->count || s->ivc[k].st != ELITE4_IST_IDLE || s->ovc[k].st != ELITE4_OST_FREE) return false;
    if (m->quiet_bug == FE4_BUG_QUIET_LIES) continue; /* planted: the rest is not looked at */
    if (b->overflow || b->underflow || s->ovc[k].early || s->tokp[k].valid || s->stg[k].valid) return false;
  }
  if (m->quiet_bug == FE4_BUG_QUIET_LIES) return true;
  for (unsigned o = 0; o < FE4_PORTS; o++) {
    const elite4_ev_t *e = &s->ev[o];
    if (s->tin[o].valid || s->sel[o].valid || e->n_err || e->n_crc || e->wait) return false;
    if (s->cred[o].underflow || s->cred[o].overflow || s->cred[o].bad_vc) return false;
  }
  if (!out_idle(&s->r)) return false;
  /* upsel settled: what the adaptive choice would register now equals what it holds */
  elite4_work_t w;
  memset(&w, 0, sizeof w);
  w.np = FE4_PORTS;
  w.nv = FE4_VCS;
  w.nivc = N;
  w.vs = 1;
  w.vm = 1;
  elite4_up_select(m->cfg, s, &w, m->scratch);
  for (unsigned v = 0; v < FE4_VCS; v++)
    if (m->scratch->upsel[v].valid != s->upsel[v].valid ||
        (s->upsel[v].valid && m->scratch->upsel[v].port != s->upsel[v].port))
      return false;
  return true;
}

/* The state does not change while the instance is skipped, so the answer is
 * kept until the next commit. */
static bool m_quiet(const void *p) {
  fe4_model_t *m = (fe4_model_t *)(uintptr_t)p; /* the cache only */
  if (m->quiet_cache < 0) m->quiet_cache = m_quiet_now(m);
  return m->quiet_cache != 0;
}

static uint32_t cnt_of(const elite4_out_t *r, unsigned p, unsigned id) {
  switch (id) {
    case FE4_CNT_XMIT_FLITS: return r->cnt_xmit_flits[p];
    case FE4_CNT_RCV_FLITS: return r->cnt_rcv_flits[p];
    case FE4_CNT_XMIT_PKTS: return r->cnt_xmit_pkts[p];
    case FE4_CNT_RCV_PKTS: return r->cnt_rcv_pkts[p];
    case FE4_CNT_XMIT_WAIT: return r->cnt_xmit_wait[p];
    case FE4_CNT_ERRORS: return r->cnt_errors[p];
    default: return r->cnt_crc_errors[p];
  }
}

static int m_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  const fe4_model_t *m = p;
  if (port >= FE4_PORTS || id >= FE4_NCNT) return -1;
  /* evaluated in `last`: what its outputs showed; skipped since: its registers */
  *val = cnt_of(m->last_eval == last ? &m->out : &m->s->r, port, id);
  if ((m->quiet_bug & FE4_BUG_COUNTER_OFF) && port == 0 && id == FE4_CNT_XMIT_FLITS) ++*val;
  return 0;
}

/* ---- RTL ---------------------------------------------------------------------- */

typedef struct {
  void *h;
  const cosim_rtl_ops_t *ops;
  elite4_p8_in_t in;
  elite4_p8_out_t out; /* the outputs of the last step */
  const char *label;
} fe4_rtl_t;

static void *r_create(const void *params, unsigned index, char *err, size_t errlen) {
  const fe4_params_t *pr = params;
  fe4_rtl_t *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "elite4_p8 instance %u: out of memory", index);
    return NULL;
  }
  r->ops = &elite4_p8_target.glue->rtl;
  r->h = r->ops->create(pr ? pr->trace : NULL, pr ? pr->seed : index); /* registers' start */
  if (!r->h) {
    snprintf(err, errlen, "elite4_p8 instance %u: RTL not created", index);
    free(r);
    return NULL;
  }
  r->ops->reset(r->h);
  return r;
}

static void r_destroy(void *p) {
  fe4_rtl_t *r = p;
  r->ops->destroy(r->h);
  free(r);
}

static void r_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  fe4_rtl_t *r = p;
  (void)c;
  elite4_p8_in_t *bi = &r->in;
  for (unsigned o = 0; o < FE4_PORTS; o++) {
    const fabric_flit_t *f = &in[o];
    elite4_p8_in_valid_i_set(bi, o, f->valid);
    elite4_p8_in_kind_i_set(bi, o, f->kind);
    elite4_p8_in_vc_i_set(bi, o, f->vc);
    elite4_p8_in_data_i_set(bi, o, (uint32_t)f->data);
    for (unsigned v = 0; v < FE4_VCS; v++)
      elite4_p8_in_credit_i_set(bi, o * FE4_VCS + v, (f->credit >> v) & 1u);
  }
  r->ops->step(r->h, bi, &r->out);
  r->label = r->ops->assert_failed ? r->ops->assert_failed(r->h) : NULL;
  const elite4_p8_out_t *bo = &r->out;
  uint64_t err = 0, code = 0;
  for (unsigned o = 0; o < FE4_PORTS; o++) {
    fabric_flit_t *f = &out[o];
    if (elite4_p8_out_valid_o_get(bo, o)) {
      f->valid = 1;
      f->kind = (uint8_t)elite4_p8_out_kind_o_get(bo, o);
      f->vc = (uint8_t)elite4_p8_out_vc_o_get(bo, o);
      f->data = elite4_p8_out_data_o_get(bo, o);
    }
    for (unsigned v = 0; v < FE4_VCS; v++)
      f->credit |= (uint8_t)(elite4_p8_out_credit_o_get(bo, o * FE4_VCS + v) << v);
    if (elite4_p8_err_o_get(bo, o)) {
      err |= 1ull << o;
      code |= (uint64_t)(elite4_p8_err_code_o_get(bo, o) & 0xFu) << (4 * o);
    }
  }
  side[FE4_SIDE_ALLOC] = bo->alloc_o;
  side[FE4_SIDE_ERR] = err;
  side[FE4_SIDE_ERR_CODE] = code;
}

static int r_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  const fe4_rtl_t *r = p;
  (void)last; /* never skipped: the last step is the last cycle run */
  if (port >= FE4_PORTS || id >= FE4_NCNT) return -1;
  const uint32_t *a[FE4_NCNT] = {r->out.cnt_xmit_flits_o, r->out.cnt_rcv_flits_o, r->out.cnt_xmit_pkts_o,
                                 r->out.cnt_rcv_pkts_o,   r->out.cnt_xmit_wait_o, r->out.cnt_errors_o,
                                 r->out.cnt_crc_errors_o};
  *val = a[id][port];
  return 0;
}

static int r_trace(void *p, const char *path, char *err, size_t errlen) {
  fe4_rtl_t *r = p;
  if (!r->ops->trace_open) {
    snprintf(err, errlen, "elite4_p8: this RTL build cannot trace");
    return -1;
  }
  r->ops->trace_open(r->h, path);
  return 0;
}

static const char *r_failed(const void *p) { return ((const fe4_rtl_t *)p)->label; }

/* ---- the type ------------------------------------------------------------------ */

static const fabric_port_kind_t *const fe4_ports[FE4_PORTS] = {&fe4_link_kind, &fe4_link_kind, &fe4_link_kind,
                                                               &fe4_link_kind, &fe4_link_kind, &fe4_link_kind,
                                                               &fe4_link_kind, &fe4_link_kind};
static const char *const fe4_side[FE4_NSIDE] = {"alloc_o", "err_o", "err_code_o"};
static const char *const fe4_cnt[FE4_NCNT] = {"xmit_flits", "rcv_flits", "xmit_pkts", "rcv_pkts",
                                              "xmit_wait",  "errors",    "crc_errors"};
static const fabric_impl_t fe4_model = {m_create, m_destroy, m_eval, m_commit, m_quiet,
                                        NULL,     m_counter, NULL,   NULL,     NULL};
static const fabric_impl_t fe4_rtl = {r_create, r_destroy, r_eval, NULL,    NULL,
                                      NULL,     r_counter, NULL,   r_trace, r_failed};
const fabric_type_t fe4_type = {"elite4_p8", FE4_PORTS, fe4_ports,  FE4_NSIDE, fe4_side,
                                FE4_NCNT,    fe4_cnt,   &fe4_model, &fe4_rtl};
