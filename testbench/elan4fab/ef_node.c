/* An elan4 node on the fabric core: see ef_node.h. */
#define _POSIX_C_SOURCE 200809L
#include "ef_node.h"

#include "bind/fabric_elite4.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const ef_nic_mode_names[3] = {"model", "rtl", "lockstep"};

const elan4_view_t *ef_view(void) { return &elan4_default_view; }

static void node_destroy(void *p) {
  ef_node_t *n = p;
  if (!n) return;
  const cosim_target_t *t = &elan4_default_target;
  if (n->m) t->model.destroy(n->m);
  if (n->r) t->glue->rtl.destroy(n->r);
  ef_mem_free(&n->lm);
  ef_host_free(&n->host);
  free(n);
}

static void *node_create(const void *params, unsigned index, char *err, size_t errlen) {
  const ef_node_params_t *pr = params;
  const cosim_target_t *t = &elan4_default_target;
  ef_node_t *n = calloc(1, sizeof *n);
  if (!n) {
    snprintf(err, errlen, "node %u: out of memory", pr->node);
    return NULL;
  }
  n->node = pr->node;
  n->idx = index;
  n->mode = pr->mode;
  n->log = pr->log;
  ef_host_init(&n->host, pr->node, pr->host_lat);
  const bool big = pr->num_nodes > elan4_default_view.param.NumNodes;
  if (big && pr->mode != EF_NIC_MODEL) {
    snprintf(err, errlen, "node %u: %u nodes: the elan4 RTL (elan4_default) has NumNodes %llu; model only",
             pr->node, pr->num_nodes, elan4_default_view.param.NumNodes);
    node_destroy(n);
    return NULL;
  }
  if (pr->mode != EF_NIC_RTL) {
    if (!(n->m = big ? elan4_default_model_nodes(pr->num_nodes, pr->bug) : t->model.create(pr->bug))) {
      snprintf(err, errlen, "node %u: the elan4 model refused its parameters", pr->node);
      node_destroy(n);
      return NULL;
    }
    t->model.scramble(n->m, pr->seed);
    t->model.reset(n->m);
  }
  if (pr->mode != EF_NIC_MODEL) {
    if (!(n->r = t->glue->rtl.create(pr->trace, pr->seed))) {
      snprintf(err, errlen, "node %u: no Verilated elan4_default in this binary", pr->node);
      node_destroy(n);
      return NULL;
    }
    t->glue->rtl.reset(n->r);
  }
  return n;
}

/* the first output port whose value differs, else NULL */
static const cosim_port_t *out_diff(const elan4_default_out_t *a, const elan4_default_out_t *b) {
  const cosim_glue_t *g = elan4_default_target.glue;
  for (unsigned k = 0; k < g->n_out; k++) {
    const cosim_port_t *p = &g->out_ports[k];
    if (memcmp((const char *)a + p->offset, (const char *)b + p->offset, p->bytes)) return p;
  }
  return NULL;
}

/* a port's value (ports up to 64 bits; the low 64 bits of a wider one) */
static uint64_t port_value(const cosim_port_t *p, const elan4_default_out_t *o) {
  uint64_t v = 0;
  memcpy(&v, (const char *)o + p->offset, p->bytes < 8 ? p->bytes : 8);
  return v;
}

static void node_eval(void *p, uint64_t c, const fabric_flit_t *lin, fabric_flit_t *lout, uint64_t *side) {
  (void)side;
  ef_node_t *n = p;
  const cosim_target_t *t = &elan4_default_target;
  const unsigned L = (unsigned)elan4_default_view.param.LmLatency;
  elan4_default_in_t *i = &n->in;
  memset(i, 0, sizeof *i);
  i->node_i = (uint16_t)n->node;
  ef_ht_req_t rq;
  ef_host_drive(&n->host, &rq);
  i->ht_valid_i = rq.valid;
  i->ht_write_i = rq.write;
  i->ht_addr_i = rq.addr;
  i->ht_data_i = rq.data;
  i->ht_be_i = rq.valid ? rq.be : 0;
  i->ht_tag_i = rq.tag;
  i->hm_ready_i = 1;
  uint8_t tag;
  uint64_t d;
  if (ef_host_hm_answer(&n->host, c, &tag, &d)) {
    i->hm_rvalid_i = 1;
    i->hm_rtag_i = tag;
    i->hm_rdata_i = d;
  }
  if (n->lm_due[c % 16u]) {
    n->lm_due[c % 16u] = false;
    i->lm_rvalid_i = 1;
    i->lm_rdata_i = ef_mem_get(&n->lm, n->lm_addr[c % 16u]);
  }
  i->in_valid_i = lin[0].valid;
  i->in_kind_i = lin[0].kind;
  i->in_vc_i = lin[0].vc;
  i->in_data_i = (uint32_t)lin[0].data;
  i->in_credit_i = lin[0].credit;

  if (n->m) t->model.eval(n->m, i, &n->out_m);
  if (n->r) t->glue->rtl.step(n->r, i, &n->out_r);
  const elan4_default_out_t *o = n->m ? &n->out_m : &n->out_r;
  if (n->r && !n->failed) {
    const char *a = t->glue->rtl.assert_failed ? t->glue->rtl.assert_failed(n->r) : NULL;
    const cosim_port_t *dp = n->m ? out_diff(&n->out_m, &n->out_r) : NULL;
    if (a || dp) {
      n->failed = true;
      n->fail_cycle = c;
      if (a)
        snprintf(n->fail, sizeof n->fail,
                 "assert:%s|node %u (elan4 RTL): assertion %s failed at cycle %" PRIu64, a, n->node, a, c);
      else
        snprintf(n->fail, sizeof n->fail,
                 "fabric.lockstep|node %u (elan4 model vs RTL): port %s differs at cycle %" PRIu64
                 ": model 0x%" PRIx64 ", RTL 0x%" PRIx64,
                 n->node, dp->name, c, port_value(dp, &n->out_m), port_value(dp, &n->out_r));
    }
  }
  n->last = *o;
  /* the host and the memories answer what the NIC shows */
  ef_host_ht_result(&n->host, c, o->ht_ready_o && rq.valid, o->ht_rvalid_o, o->ht_rtag_o, o->ht_rdata_o);
  if (o->irq_valid_o) {
    ef_host_irq(&n->host, c, o->irq_cause_o, o->irq_info_o, o->irq_data_o);
    ef_log(n->log, c, n->idx, EF_EV_IRQ, 0,
           (uint64_t)o->irq_cause_o << 56 | (o->irq_data_o & 0xFFFFFFFFFFFFFFull));
  }
  if (o->hm_valid_o) {
    ef_host_hm_take(&n->host, c, o->hm_write_o, o->hm_addr_o, o->hm_data_o, o->hm_len_o, o->hm_tag_o);
    if (o->hm_write_o) ef_log(n->log, c, n->idx, EF_EV_HM_WRITE, 0, o->hm_addr_o);
  }
  if (o->lm_valid_o) {
    if (o->lm_write_o) {
      if (ef_mem_set(&n->lm, o->lm_addr_o, o->lm_wdata_o)) n->host.oom--;
      ef_log(n->log, c, n->idx, EF_EV_LM_WRITE, 0, o->lm_addr_o);
    } else {
      n->lm_due[(c + L) % 16u] = true;
      n->lm_addr[(c + L) % 16u] = o->lm_addr_o;
    }
  }
  lout[0].valid = o->out_valid_o;
  lout[0].kind = o->out_kind_o;
  lout[0].vc = o->out_vc_o;
  lout[0].data = o->out_data_o;
  lout[0].credit = o->out_credit_o;
  if (n->log) {
    if (o->tr_cmd_o) ef_log(n->log, c - 1, n->idx, EF_EV_CMD, 0, o->tr_cmd_q_o);
    if (o->tr_form_o) ef_log(n->log, c - 1, n->idx, EF_EV_FORM, 0, o->tr_form_q_o);
    if (o->tr_fire_o) ef_log(n->log, c - 1, n->idx, EF_EV_FIRE, 0, o->tr_fire_addr_o);
    static const uint8_t tx_ev[4] = {EF_EV_TX_HEAD, EF_EV_N, EF_EV_TX_TAIL, EF_EV_TX_TOKEN};
    static const uint8_t rx_ev[4] = {EF_EV_RX_HEAD, EF_EV_N, EF_EV_RX_TAIL, EF_EV_RX_TOKEN};
    if (o->out_valid_o && tx_ev[o->out_kind_o & 3] != EF_EV_N)
      ef_log(n->log, c, n->idx, tx_ev[o->out_kind_o & 3], o->out_vc_o, o->out_data_o);
    if (lin[0].valid && rx_ev[lin[0].kind & 3] != EF_EV_N)
      ef_log(n->log, c, n->idx, rx_ev[lin[0].kind & 3], lin[0].vc, lin[0].data);
  }
}

static void node_commit(void *p) {
  ef_node_t *n = p;
  if (n->m) elan4_default_target.model.commit(n->m);
}

static int node_counter(const void *p, uint64_t last, unsigned port, unsigned id, uint64_t *val) {
  (void)last;
  const ef_node_t *n = p;
  if (port || id >= ELAN4_NCNT) return -1;
  *val = elan4_default_cnt_o_get(&n->last, id);
  return 0;
}

static int node_trace(void *p, const char *path, char *err, size_t errlen) {
  ef_node_t *n = p;
  if (!n->r) {
    snprintf(err, errlen, "node %u: a model NIC has no waveform (run it as rtl or lockstep)", n->node);
    return -1;
  }
  elan4_default_target.glue->rtl.trace_open(n->r, path);
  return 0;
}

/* §6.10's counters, in cnt_o's lane order */
static const char *const cnt_names[ELAN4_NCNT] = {
    "pio_wr",      "pio_rd",     "pio_bad",   "cq_discard", "cq_error",     "cq_load",  "cq_spill",
    "cmds",        "tx_pkts",    "tx_tokens", "rx_pkts",    "rx_tokens",    "acks_rx",  "nacks_rx",
    "resends",     "timeouts",   "nacks_tx",  "crc_err",    "bad_pkts",     "tlb_hit",  "tlb_miss",
    "xlate_fault", "prot_fault", "nack_busy", "events_set", "events_fired", "irq_lost", "proto_err"};

static const fabric_port_kind_t *const node_ports[1] = {&fe4_link_kind};
static const fabric_impl_t node_impl = {node_create, node_destroy, node_eval, node_commit, NULL,
                                        NULL,        node_counter, NULL,      node_trace,  NULL};
const fabric_type_t ef_node_type = {"elan4_node", 1,         node_ports, 0,   NULL,
                                    ELAN4_NCNT,   cnt_names, &node_impl, NULL};
