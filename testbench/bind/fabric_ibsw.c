/* The ibsw switch as an instance type of the fabric core: see fabric_ibsw.h. */
#include "bind/fabric_ibsw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- model ------------------------------------------------------------------ */

typedef struct {
  uint8_t sel;
  uint16_t addr, data;
} cfg_w_t;

typedef struct {
  ibsw_cfg_t cfg;
  ibsw_state_t s;
  ibsw_next_t *nx;
  ibsw_in_t in;
  ibsw_out_t out;     /* the outputs of the last evaluated cycle */
  uint64_t last_eval; /* that cycle, FABRIC_NEVER before the first */
  unsigned quiet_bug;
  int quiet_cache; /* -1 unknown */
  cfg_w_t *q;      /* configuration writes not yet driven */
  size_t qh, qn, qcap;
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
  free(m->q);
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
  mi->cfg_valid = m->qn > 0;
  if (m->qn) {
    const cfg_w_t *w = &m->q[m->qh];
    mi->cfg_sel = w->sel;
    mi->cfg_addr = w->addr;
    mi->cfg_data = w->data;
    m->qh = (m->qh + 1) % m->qcap;
    m->qn--;
  } else {
    mi->cfg_sel = 0;
    mi->cfg_addr = mi->cfg_data = 0;
  }
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
  if (m->qn) return false;
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
  const uint64_t entries = ibsw_lft_entries(&m->cfg);
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
  m->quiet_cache = -1;
  return 0;
}

static const fabric_impl_t fibsw_model = {m_create, m_destroy, m_eval,   m_commit, m_quiet,
                                          NULL,     m_counter, m_config, NULL,     NULL};

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
  s->t =
      (fabric_type_t){s->name, ports, s->port, ports + 1, s->side, FIBSW_NCNT, cnt_names, &fibsw_model, NULL};
  types[ports][vls] = s;
  return &s->t;
}
