/* elite4 fabric -> results store: see e4t_store.h. Only a mapping: what the
 * rows mean is docs/store.md, what the fields mean e4t_records.h. */
#include "e4t_store.h"
#include "clock.h"

#include <stdio.h>
#include <string.h>

static uint64_t cyc(uint32_t v) { return v == E4T_NONE ? STORE_NONE : v; }

/* The link class names of links.csv (e4t_report.c): NIC->L0, L0->NIC, Ll->Ll+1, Ll+1->Ll. */
static void link_class(const e4t_topo_t *t, unsigned s, unsigned p, char *buf, size_t len) {
  unsigned l = e4t_sw_level(t, s);
  if (t->peer[s][p].kind == E4T_PEER_NIC)
    snprintf(buf, len, "L0->NIC");
  else if (p >= E4T_DOWN)
    snprintf(buf, len, "L%u->L%u", l, l + 1);
  else
    snprintf(buf, len, "L%u->L%u", l, l - 1);
}

static int params(store_t *s, const e4t_fabric_t *f, const e4t_result_t *r) {
  const e4t_cfg_t *c = &f->cfg;
  char rtl[E4T_MAX_SW * 6] = "";
  size_t k = 0;
  for (unsigned i = 0; i < f->topo.nsw && k < sizeof rtl; i++)
    if (c->rtl[i]) k += (size_t)snprintf(rtl + k, sizeof rtl - k, "%ssw%u", k ? "," : "", i);
  int e = 0;
  e |= store_paramf(s, "topology", "%u-ary %u-tree", 4u, f->topo.levels);
  e |= store_paramf(s, "switch", "elite4_p8");
  e |= store_paramf(s, "switches", "%u", f->topo.nsw);
  e |= store_paramf(s, "levels", "%u", f->topo.levels);
  e |= store_paramf(s, "rtl_instances", "%s", rtl);
  e |= store_paramf(s, "traffic", "%s", e4t_pattern_name(c->pattern));
  e |= store_paramf(s, "load", "%.4f", c->load);
  e |= store_paramf(s, "flits", "%u", c->nbody + 2);
  e |= store_paramf(s, "vcs", "%s", e4t_vc_policy_name(c->policy));
  e |= store_paramf(s, "hot_frac", "%.3f", c->hot_frac);
  e |= store_paramf(s, "hot_node", "%u", c->hot_node);
  e |= store_paramf(s, "link_delay", "%u", c->link_delay);
  e |= store_paramf(s, "injection_cycles", "%llu", (unsigned long long)c->cycles);
  e |= store_paramf(s, "src_queue", "%u", c->src_queue);
  e |= store_paramf(s, "nack_rate", "%.4f", c->nack_rate);
  e |= store_paramf(s, "records", "%s", c->records ? "on" : "off");
  e |= store_paramf(s, "model_bug", "%s", elite4_bug_names[c->model_bug]);
  /* measured by the fabric, not derivable from the rows (docs/store.md) */
  e |= store_paramf(s, "result.offered", "%.5f", r->offered);
  e |= store_paramf(s, "result.accepted", "%.5f", r->accepted);
  e |= store_paramf(s, "result.refused", "%llu", (unsigned long long)r->refused);
  e |= store_paramf(s, "result.retries", "%llu", (unsigned long long)r->retries);
  /* streamed (records off keeps no packet rows): the window packets' latency created -> TAIL */
  e |= store_paramf(s, "result.created", "%llu", (unsigned long long)r->created);
  e |= store_paramf(s, "result.delivered", "%llu", (unsigned long long)r->delivered);
  e |= store_paramf(s, "result.lat_mean", "%.3f", r->lat.mean);
  e |= store_paramf(s, "result.lat_p50", "%.0f", r->lat.p50);
  e |= store_paramf(s, "result.lat_p99", "%.0f", r->lat.p99);
  return e ? -1 : 0;
}

int e4t_store_write(store_t *s, const e4t_fabric_t *f, const e4t_result_t *r, const char *name, char *err,
                    size_t len) {
  const e4t_cfg_t *c = &f->cfg;
  store_run_t run = {.name = name,
                     .tool = "elite4_fabric_core_sim",
                     .seed = c->seed,
                     .nodes = c->nodes,
                     .clock_mhz = NETCOSIM_CLOCK_MHZ,
                     .window_start = c->warmup,
                     .window_end = c->cycles};
  if (store_run_begin(s, &run, NULL, err, len)) return -1;
  int e = params(s, f, r);
  char inst[24], peer[24], cls[32];
  /* packet rows with records on; records off keeps no per-packet storage
   * (its figures are the result.* parameters and the summary) */
  for (uint32_t id = 0; id < f->rec.n && c->records && !e; id++) {
    const e4t_pkt_t *k = &f->rec.p[id];
    bool delivered = k->state >= E4T_PKT_DELIVERED && k->t_tail_rx != E4T_NONE;
    store_packet_t p = {.id = id,
                        .src = k->src,
                        .dst = k->dst,
                        .vc = k->vc,
                        .flits = k->nbody + 2u,
                        .hops = k->nsw,
                        .tries = k->tries,
                        .created = cyc(k->t_create),
                        .injected = cyc(k->t_inject),
                        .head_rx = cyc(k->t_head_rx),
                        .tail_rx = delivered ? cyc(k->t_tail_rx) : STORE_NONE,
                        .acked = cyc(k->t_done)};
    e |= store_packet(s, &p);
    for (unsigned h = 0; h < k->nhops && c->records && !e; h++) {
      const e4t_hop_t *x = &k->hop[h];
      snprintf(inst, sizeof inst, "sw%u", x->sw);
      store_hop_t hop = {.packet = id,
                         .idx = h,
                         .instance = inst,
                         .in_port = x->in,
                         .out_port = x->out == E4T_NO_PORT ? STORE_NO_PORT : x->out,
                         .arrival = cyc(x->arr),
                         .grant = cyc(x->grant),
                         .departure = cyc(x->dep)};
      e |= store_hop(s, &hop);
    }
  }
  /* per link direction, the port counters over the statistics window (links.csv) */
  const e4t_counters_t *a = &f->cnt[0], *b = &f->cnt[1];
  for (unsigned sw = 0; sw < f->topo.nsw && !e; sw++)
    for (unsigned p = 0; p < E4T_PORTS && !e; p++) {
      const e4t_peer_t *q = &f->topo.peer[sw][p];
      if (q->kind == E4T_PEER_NONE) continue;
      unsigned i = sw * E4T_PORTS + p;
      snprintf(inst, sizeof inst, "sw%u", sw);
      snprintf(peer, sizeof peer, "%s%u", q->kind == E4T_PEER_NIC ? "nic" : "sw", q->id);
      link_class(&f->topo, sw, p, cls, sizeof cls);
      store_link_t l = {.src = inst,
                        .src_port = (int)p,
                        .dst = peer,
                        .dst_port = q->kind == E4T_PEER_NIC ? STORE_NO_PORT : q->port,
                        .cls = cls,
                        .cycle_from = a->cycle,
                        .cycle_to = b->cycle,
                        .flits = (uint32_t)(b->xmit_flits[i] - a->xmit_flits[i]),
                        .wait = (uint32_t)(b->xmit_wait[i] - a->xmit_wait[i]),
                        .packets = (uint32_t)(b->xmit_pkts[i] - a->xmit_pkts[i])};
      e |= store_link(s, &l);
      if (q->kind == E4T_PEER_NIC && !e) { /* the NIC's direction: the switch's receive counter */
        store_link_t n = {.src = peer,
                          .src_port = STORE_NO_PORT,
                          .dst = inst,
                          .dst_port = (int)p,
                          .cls = "NIC->L0",
                          .cycle_from = a->cycle,
                          .cycle_to = b->cycle,
                          .flits = (uint32_t)(b->rcv_flits[i] - a->rcv_flits[i]),
                          .wait = STORE_NONE,
                          .packets = STORE_NONE};
        e |= store_link(s, &n);
      }
    }
  if (e) {
    snprintf(err, len, "%s", store_error(s));
    return -1;
  }
  char status[600];
  snprintf(status, sizeof status, "%s", f->sb.failed ? f->sb.fail : "ok");
  return store_run_end(s, f->cycle, r->wall_s, status, err, len);
}
