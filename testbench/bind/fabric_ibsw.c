/* The ibsw switch as an instance type of the fabric core: see fabric_ibsw.h. */
#include "bind/fabric_ibsw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsw_p4_ports.h" /* the RTL side: generated glue of target ibsw_p4 */

static const char *const cnt_names[FIBSW_NCNT] = {
    "xmit_data",   "rcv_data",      "xmit_pkts",    "rcv_pkts",      "xmit_wait",
    "symbol_err",  "rcv_err",       "relay_err",    "xmit_discards", "vl15_dropped",
    "link_downed", "ext_xmit_data", "ext_rcv_data", "ext_xmit_pkts", "ext_rcv_pkts",
    "power_mw",    "energy",        "phys_state",   "port_state"};

int fibsw_counter_id(const char *name) {
  for (int i = 0; i < FIBSW_NCNT; i++)
    if (!strcmp(cnt_names[i], name)) return i;
  return -1;
}

/* ---- the configuration channel (both sides) ------------------------------------ */

typedef struct {
  uint8_t sel;
  uint16_t addr, data;
} cfg_w_t;

/* The queue of writes not yet driven, one per cycle. */
typedef struct {
  cfg_w_t *q;
  size_t qh, qn, qcap;
} cfg_q_t;

/* A write of key to the channel of §5.7 (both implementations queue the same writes). */
static int cfg_encode(uint64_t entries, const char *key, uint64_t index, uint64_t value, cfg_w_t *out,
                      char *err, size_t errlen) {
  cfg_w_t w;
  if (!strcmp(key, "lft")) {
    if (index >= entries || value > 0xFF) {
      snprintf(err, errlen, "ibsw config lft: %s %llu out of range 0..%llu",
               index >= entries ? "LID" : "entry", (unsigned long long)(index >= entries ? index : value),
               (unsigned long long)(index >= entries ? entries - 1 : 0xFF));
      return -1;
    }
    w.sel = 0;
    w.addr = (uint16_t)index;
    w.data = (uint16_t)value;
  } else if (!strcmp(key, "lft_top")) {
    if (value > entries - 1) {
      snprintf(err, errlen, "ibsw config lft_top: %llu out of range 0..%llu", (unsigned long long)value,
               (unsigned long long)(entries - 1));
      return -1;
    }
    w.sel = 1;
    w.addr = 0;
    w.data = (uint16_t)value;
  } else {
    snprintf(err, errlen, "ibsw config: no key '%s' (keys: lft, lft_top)", key);
    return -1;
  }
  *out = w;
  return 0;
}

static int cfg_push(cfg_q_t *m, cfg_w_t w, char *err, size_t errlen) {
  if (m->qn == m->qcap) {
    size_t nc = m->qcap ? 2 * m->qcap : 256;
    cfg_w_t *q = malloc(nc * sizeof *q);
    if (!q) {
      snprintf(err, errlen, "ibsw config: out of memory");
      return -1;
    }
    for (size_t i = 0; i < m->qn; i++) q[i] = m->q[(m->qh + i) % m->qcap];
    free(m->q);
    m->q = q;
    m->qh = 0;
    m->qcap = nc;
  }
  m->q[(m->qh + m->qn) % m->qcap] = w;
  m->qn++;
  return 0;
}

/* The write to drive this cycle: true and *w, else false (nothing queued). */
static bool cfg_pop(cfg_q_t *m, cfg_w_t *w) {
  if (!m->qn) return false;
  *w = m->q[m->qh];
  m->qh = (m->qh + 1) % m->qcap;
  m->qn--;
  return true;
}

/* ---- model ------------------------------------------------------------------ */

typedef struct {
  ibsw_cfg_t cfg;
  ibsw_state_t s;
  ibsw_next_t *nx;
  ibsw_in_t in;
  ibsw_out_t out;     /* the outputs of the last evaluated cycle */
  uint64_t last_eval; /* that cycle, FABRIC_NEVER before the first */
  unsigned quiet_bug;
  int quiet_cache; /* -1 unknown */
  cfg_q_t cq;      /* configuration writes not yet driven */
} fibsw_model_t;

static void *m_create(const void *params, unsigned index, char *err, size_t errlen) {
  const fibsw_params_t *pr = params;
  if (!pr) {
    snprintf(err, errlen, "ibsw instance %u: no parameters", index);
    return NULL;
  }
  fibsw_model_t *m = calloc(1, sizeof *m);
  if (m) m->nx = malloc(sizeof *m->nx);
  if (!m || !m->nx) {
    snprintf(err, errlen, "ibsw instance %u: out of memory", index);
    if (m) free(m->nx);
    free(m);
    return NULL;
  }
  m->cfg = pr->cfg;
  if (ibsw_init(&m->s, &m->cfg)) { /* prints the field */
    snprintf(err, errlen, "ibsw instance %u: bad parameters (above)", index);
    free(m->nx);
    free(m);
    return NULL;
  }
  memset(m->nx, 0, sizeof *m->nx);
  m->last_eval = FABRIC_NEVER;
  m->quiet_bug = pr->quiet_bug;
  m->quiet_cache = -1;
  return m;
}

static void m_destroy(void *p) {
  fibsw_model_t *m = p;
  ibsw_free(&m->s);
  free(m->cq.q);
  free(m->nx);
  free(m);
}

/* Cycles skipped since the last evaluation: the model brings its cycle count and energy
 * register up to date (docs/ibsw.md §12). */
static void catch_up(fibsw_model_t *m, uint64_t c) {
  if (m->s.r.cycle < c) ibsw_skip_quiet(&m->s, c - m->s.r.cycle);
}

static void m_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  fibsw_model_t *m = p;
  const unsigned P = m->cfg.num_ports;
  catch_up(m, c);
  ibsw_in_t *mi = &m->in;
  for (unsigned q = 0; q < P; q++) {
    const fabric_flit_t *f = &in[q];
    mi->valid[q + 1] = f->valid;
    mi->kind[q + 1] = f->kind;
    mi->vl[q + 1] = f->vc;
    mi->data[q + 1] = f->valid ? f->data : 0;
    mi->credit[q + 1] = f->credit;
  }
  cfg_w_t w = {0, 0, 0};
  mi->cfg_valid = cfg_pop(&m->cq, &w);
  mi->cfg_sel = w.sel;
  mi->cfg_addr = w.addr;
  mi->cfg_data = w.data;
  ibsw_eval(&m->cfg, &m->s, mi, &m->out, m->nx);
  const ibsw_out_t *mo = &m->out;
  for (unsigned q = 0; q < P; q++) {
    fabric_flit_t *f = &out[q];
    if (mo->valid[q + 1]) {
      f->valid = 1;
      f->kind = mo->kind[q + 1];
      f->vc = mo->vl[q + 1];
      f->data = mo->data[q + 1];
    }
    f->credit = mo->credit[q + 1];
    side[q] = mo->err[q + 1] ? mo->err_code[q + 1] : 0;
  }
  side[P] = mo->sma_err ? mo->sma_err_code : 0;
  m->last_eval = c;
}

static void m_commit(void *p) {
  fibsw_model_t *m = p;
  ibsw_commit(&m->cfg, &m->s, m->nx);
  m->quiet_cache = -1;
}

static bool m_quiet_now(const fibsw_model_t *m) {
  const ibsw_regs_t *r = &m->s.r;
  const unsigned P = m->cfg.num_ports, NL = m->cfg.num_data_vls + 1;
  if (m->cq.qn) return false;
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++) {
      const ibsw_lane_t *ln = &r->ln[n][l];
      if (ln->cnt) return false;
      if (m->quiet_bug == FIBSW_BUG_QUIET_LIES) continue; /* planted: buffers only */
      if (ln->ist != IBSW_IST_IDLE || ln->rxs != IBSW_RX_IDLE || r->ost[n][l] != IBSW_OST_FREE) return false;
    }
  if (m->quiet_bug == FIBSW_BUG_QUIET_LIES) return true;
  if (r->sma.state != IBSW_SMA_IDLE || r->sma_in.valid || r->sma_ev_err || r->sma_ev_n || r->sma_err_r)
    return false;
  for (unsigned n = 0; n <= P; n++) {
    if (r->pend[n] || r->stg[n].valid || r->oreg[n].valid || r->crout[n] || r->ev_err[n] || r->err_r[n])
      return false;
    for (unsigned k = 0; k < IBSW_NEV; k++)
      if (r->ev[n][k]) return false;
    if (r->smp[n].status != IBSW_SAMPLE_DONE) return false;
    if (n == 0) continue;
    const ibsw_port_t *pt = &r->port[n];
    if (pt->phys == IBSW_POLLING || pt->phys == IBSW_TRAINING || pt->phys == IBSW_LER || pt->draining)
      return false;
  }
  return true;
}

static bool m_quiet(const void *p) {
  fibsw_model_t *m = (fibsw_model_t *)(uintptr_t)p; /* the cache only */
  if (m->quiet_cache < 0) m->quiet_cache = m_quiet_now(m);
  return m->quiet_cache != 0;
}

static int m_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  const fibsw_model_t *m = p;
  if (port >= m->cfg.num_ports || id >= FIBSW_NCNT) return -1;
  const unsigned n = port + 1;
  const ibsw_regs_t *r = &m->s.r;
  const bool shown = m->last_eval == last; /* else skipped since: its registers */
  switch (id) {
    case FIBSW_CNT_POWER_MW: *val = shown ? m->out.power_mw : r->pw; return 0;
    case FIBSW_CNT_ENERGY:
      *val = shown ? m->out.energy : ibsw_energy_after(&m->s, last >= r->cycle ? last - r->cycle : 0);
      return 0;
    case FIBSW_CNT_PHYS_STATE: *val = shown ? m->out.phys_state[n] : r->port[n].phys; return 0;
    case FIBSW_CNT_PORT_STATE: *val = shown ? m->out.port_state[n] : r->port[n].pstate; return 0;
    default: *val = shown ? m->out.cnt[n][id] : r->cnt[n][id]; return 0;
  }
}

static int m_config(void *p, const char *key, uint64_t index, uint64_t value, char *err, size_t errlen) {
  fibsw_model_t *m = p;
  cfg_w_t w;
  if (cfg_encode(ibsw_lft_entries(&m->cfg), key, index, value, &w, err, errlen) ||
      cfg_push(&m->cq, w, err, errlen))
    return -1;
  m->quiet_cache = -1;
  return 0;
}

static const fabric_impl_t fibsw_model = {m_create, m_destroy, m_eval,   m_commit, m_quiet,
                                          NULL,     m_counter, m_config, NULL,     NULL};

/* ---- RTL (target ibsw_p4) ---------------------------------------------------- */

/* The Verilated ibsw_p4 through its generated glue: the same ports as the model's (port n = lane
 * n - 1 of every per-port bus, as testbench/bind/ibsw.c), the same configuration writes on
 * cfg_*_i. Only the parameters the target was elaborated with (ibsw_p4_view.param). */
typedef struct {
  void *h;
  const cosim_rtl_ops_t *ops;
  ibsw_p4_in_t in;
  ibsw_p4_out_t out; /* the outputs of the last step */
  const char *label;
  cfg_q_t cq;
} fibsw_rtl_t;

static int p4_mismatch(const ibsw_cfg_t *c, char *what, size_t len) {
  const ibsw_view_t *v = &ibsw_p4_view;
#define P4(field, pname)                                                                                 \
  if ((unsigned long long)c->field != v->param.pname) {                                                  \
    snprintf(what, len, #pname " = %llu, the RTL target ibsw_p4 has %llu", (unsigned long long)c->field, \
             v->param.pname);                                                                            \
    return -1;                                                                                           \
  }
  P4(num_ports, NumPorts)
  P4(num_data_vls, NumDataVls)
  P4(buf_depth, BufDepth)
  P4(buf15_depth, Buf15Depth)
  P4(route_cycles, RouteCycles)
  P4(wake_cycles, WakeCycles)
  P4(lft_blocks, LftBlocks)
  P4(link_speed, LinkSpeed)
  P4(cnt_w, CntW)
  P4(ext_w, ExtW)
  P4(boot_active, BootActive)
#undef P4
  return 0;
}

int fibsw_rtl_check(const ibsw_cfg_t *cfg, char *err, size_t errlen) { return p4_mismatch(cfg, err, errlen); }

static void *r_create(const void *params, unsigned index, char *err, size_t errlen) {
  const fibsw_params_t *pr = params;
  char what[160];
  if (!pr) {
    snprintf(err, errlen, "ibsw instance %u: no parameters", index);
    return NULL;
  }
  if (p4_mismatch(&pr->cfg, what, sizeof what)) {
    snprintf(err, errlen, "ibsw instance %u (RTL): %s", index, what);
    return NULL;
  }
  fibsw_rtl_t *r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, errlen, "ibsw instance %u: out of memory", index);
    return NULL;
  }
  r->ops = &ibsw_p4_glue.rtl;
  if (!r->ops->create) {
    snprintf(err, errlen, "ibsw instance %u: this build has no RTL of ibsw_p4", index);
    free(r);
    return NULL;
  }
  r->h = r->ops->create(NULL, pr->seed + index); /* the registers' start */
  if (!r->h) {
    snprintf(err, errlen, "ibsw instance %u: RTL not created", index);
    free(r);
    return NULL;
  }
  r->ops->reset(r->h);
  return r;
}

static void r_destroy(void *p) {
  fibsw_rtl_t *r = p;
  r->ops->destroy(r->h);
  free(r->cq.q);
  free(r);
}

static void r_eval(void *p, uint64_t c, const fabric_flit_t *in, fabric_flit_t *out, uint64_t *side) {
  fibsw_rtl_t *r = p;
  (void)c;
  const unsigned P = (unsigned)ibsw_p4_view.param.NumPorts;
  ibsw_p4_in_t *bi = &r->in;
  for (unsigned k = 0; k < P; k++) {
    const fabric_flit_t *f = &in[k];
    ibsw_p4_in_valid_i_set(bi, k, f->valid);
    ibsw_p4_in_kind_i_set(bi, k, f->kind);
    ibsw_p4_in_vl_i_set(bi, k, f->vc);
    ibsw_p4_in_data_i_set(bi, k, f->valid ? f->data : 0);
    ibsw_p4_in_credit_i_set(bi, k, f->credit);
  }
  cfg_w_t w = {0, 0, 0};
  bi->cfg_valid_i = cfg_pop(&r->cq, &w);
  bi->cfg_sel_i = w.sel;
  bi->cfg_addr_i = w.addr;
  bi->cfg_data_i = w.data;
  r->ops->step(r->h, bi, &r->out);
  r->label = r->ops->assert_failed ? r->ops->assert_failed(r->h) : NULL;
  const ibsw_p4_out_t *bo = &r->out;
  for (unsigned k = 0; k < P; k++) {
    fabric_flit_t *f = &out[k];
    if (ibsw_p4_out_valid_o_get(bo, k)) {
      f->valid = 1;
      f->kind = (uint8_t)ibsw_p4_out_kind_o_get(bo, k);
      f->vc = (uint8_t)ibsw_p4_out_vl_o_get(bo, k);
      f->data = ibsw_p4_out_data_o_get(bo, k);
    }
    f->credit = (uint8_t)ibsw_p4_out_credit_o_get(bo, k);
    side[k] = ibsw_p4_err_o_get(bo, k) ? ibsw_p4_err_code_o_get(bo, k) : 0;
  }
  side[P] = bo->sma_err_o ? bo->sma_err_code_o : 0;
}

static int r_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  const fibsw_rtl_t *r = p;
  (void)last; /* never skipped: the last step is the last cycle run */
  if (port >= ibsw_p4_view.param.NumPorts || id >= FIBSW_NCNT) return -1;
  const ibsw_view_t *v = &ibsw_p4_view;
  const cosim_lane_t *const lane[IBSW_NCNT] = {
      &v->out.cnt_xmit_data_o,    &v->out.cnt_rcv_data_o,    &v->out.cnt_xmit_pkts_o,
      &v->out.cnt_rcv_pkts_o,     &v->out.cnt_xmit_wait_o,   &v->out.cnt_symbol_err_o,
      &v->out.cnt_rcv_err_o,      &v->out.cnt_relay_err_o,   &v->out.cnt_xmit_discards_o,
      &v->out.cnt_vl15_dropped_o, &v->out.cnt_link_downed_o, &v->out.ext_xmit_data_o,
      &v->out.ext_rcv_data_o,     &v->out.ext_xmit_pkts_o,   &v->out.ext_rcv_pkts_o};
  switch (id) {
    case FIBSW_CNT_POWER_MW: *val = r->out.power_mw_o; return 0;
    case FIBSW_CNT_ENERGY: *val = r->out.energy_o; return 0;
    case FIBSW_CNT_PHYS_STATE: *val = ibsw_p4_phys_state_o_get(&r->out, port); return 0;
    case FIBSW_CNT_PORT_STATE: *val = ibsw_p4_port_state_o_get(&r->out, port); return 0;
    default: *val = cosim_lane_get(lane[id], &r->out, port); return 0;
  }
}

static int r_config(void *p, const char *key, uint64_t index, uint64_t value, char *err, size_t errlen) {
  fibsw_rtl_t *r = p;
  const uint64_t entries = 64u * ibsw_p4_view.param.LftBlocks; /* 64 LIDs a block (§5.7) */
  cfg_w_t w;
  return cfg_encode(entries, key, index, value, &w, err, errlen) || cfg_push(&r->cq, w, err, errlen) ? -1 : 0;
}

static int r_trace(void *p, const char *path, char *err, size_t errlen) {
  fibsw_rtl_t *r = p;
  if (!r->ops->trace_open) {
    snprintf(err, errlen, "ibsw_p4: this RTL build cannot trace");
    return -1;
  }
  r->ops->trace_open(r->h, path);
  return 0;
}

static const char *r_failed(const void *p) { return ((const fibsw_rtl_t *)p)->label; }

static const fabric_impl_t fibsw_rtl = {r_create, r_destroy, r_eval,   NULL,    NULL,
                                        NULL,     r_counter, r_config, r_trace, r_failed};

/* ---- the types, one per (P, V) -------------------------------------------------- */

#define NAME_LEN 16
typedef struct {
  fabric_type_t t;
  const fabric_port_kind_t *port[IBSW_MAX_PORTS];
  const char *side[IBSW_MAX_PORTS + 1];
  char side_store[IBSW_MAX_PORTS + 1][NAME_LEN];
  char name[NAME_LEN];
} fibsw_type_slot_t;

static fabric_port_kind_t kinds[IBSW_MAX_LANES];
static char kind_names[IBSW_MAX_LANES][NAME_LEN];
static fibsw_type_slot_t *types[IBSW_MAX_PORTS + 1][IBSW_MAX_LANES];

const fabric_port_kind_t *fibsw_port_kind(unsigned vls) {
  if (vls < 2 || vls > 7) return NULL;
  fabric_port_kind_t *k = &kinds[vls];
  if (!k->name) {
    snprintf(kind_names[vls], NAME_LEN, "ibsw64_v%u", vls);
    *k = (fabric_port_kind_t){kind_names[vls], 64, 2, vls + 1};
  }
  return k;
}

const fabric_type_t *fibsw_type(unsigned ports, unsigned vls, char *err, size_t errlen) {
  if (ports < 2 || ports > IBSW_MAX_PORTS || vls < 2 || vls > 7) {
    snprintf(err, errlen, "ibsw type: %s = %u out of range %s",
             ports < 2 || ports > IBSW_MAX_PORTS ? "NumPorts" : "NumDataVls",
             ports < 2 || ports > IBSW_MAX_PORTS ? ports : vls,
             ports < 2 || ports > IBSW_MAX_PORTS ? "2..31" : "2..7");
    return NULL;
  }
  fibsw_type_slot_t *s = types[ports][vls];
  if (s) return &s->t;
  s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, errlen, "ibsw type: out of memory");
    return NULL;
  }
  const fabric_port_kind_t *k = fibsw_port_kind(vls);
  for (unsigned q = 0; q < ports; q++) {
    s->port[q] = k;
    snprintf(s->side_store[q], NAME_LEN, "err_%u", q + 1);
    s->side[q] = s->side_store[q];
  }
  snprintf(s->side_store[ports], NAME_LEN, "sma_err");
  s->side[ports] = s->side_store[ports];
  snprintf(s->name, NAME_LEN, "ibsw_p%u_v%u", ports, vls);
  /* the RTL side exists for the target's (P, V) only (its other parameters: r_create) */
  const bool rtl = ports == ibsw_p4_view.param.NumPorts && vls == ibsw_p4_view.param.NumDataVls;
  s->t = (fabric_type_t){s->name,   ports,        s->port,
                         ports + 1, s->side,      FIBSW_NCNT,
                         cnt_names, &fibsw_model, rtl ? &fibsw_rtl : NULL};
  types[ports][vls] = s;
  return &s->t;
}
