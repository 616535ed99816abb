/* elite4 fabric: instances, links and the fabric cycle. See e4f_fabric.h. */
#define _POSIX_C_SOURCE 200809L
#include "e4f_fabric.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "elite4/elite4.h"

const char *const e4f_fab_bug_names[] = {"none", "fab_route_wrong_port", "fab_nic_no_token", NULL};

void e4f_cfg_default(e4f_cfg_t *c) {
  memset(c, 0, sizeof *c);
  c->nodes = 16;
  c->pattern = E4F_UNIFORM;
  c->load = 0.3;
  c->nbody = 16;
  c->policy = E4F_VC_FREE;
  c->hot_frac = 0.1;
  c->link_delay = 1;
  c->seed = 1;
  c->cycles = 10000;
  c->warmup = 2000;
  c->drain_max = 50000;
  c->watchdog = 5000;
  c->src_queue = 256;
  c->records = true;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int counters_alloc(e4f_counters_t *k, unsigned nports, unsigned nodes) {
  k->xmit_flits = calloc(nports, sizeof *k->xmit_flits);
  k->rcv_flits = calloc(nports, sizeof *k->rcv_flits);
  k->xmit_wait = calloc(nports, sizeof *k->xmit_wait);
  k->xmit_pkts = calloc(nports, sizeof *k->xmit_pkts);
  k->nic_tx = calloc(nodes, sizeof *k->nic_tx);
  return k->xmit_flits && k->rcv_flits && k->xmit_wait && k->xmit_pkts && k->nic_tx ? 0 : -ENOMEM;
}

static void counters_free(e4f_counters_t *k) {
  free(k->xmit_flits);
  free(k->rcv_flits);
  free(k->xmit_wait);
  free(k->xmit_pkts);
  free(k->nic_tx);
}

int e4f_fabric_init(e4f_fabric_t *f, const e4f_cfg_t *cfg, char *err, size_t errlen) {
  memset(f, 0, sizeof *f);
  f->cfg = *cfg;
  f->tgt = &elite4_p8_target;
  err[0] = 0;
  if (e4f_topo_build(&f->topo, cfg->nodes)) {
    snprintf(err, errlen, "nodes = %u: a radix-4 fat-tree has 4, 16, 64 or 256 nodes", cfg->nodes);
    return -1;
  }
  const unsigned nsw = f->topo.nsw, N = cfg->nodes, L = cfg->nbody + 2;
  if (cfg->nbody < 1 || cfg->nbody > E4F_MAX_BODY)
    snprintf(err, errlen, "body = %u: 1..%u words (word 0 is the packet id)", cfg->nbody, E4F_MAX_BODY);
  else if (!(cfg->load >= 0 && cfg->load <= 1))
    snprintf(err, errlen, "load = %g: offered flits per node per cycle, 0..1", cfg->load);
  else if (cfg->link_delay < 1 || cfg->link_delay > E4F_MAX_LINK_DELAY)
    snprintf(err, errlen, "link-delay = %u: 1..%u cycles", cfg->link_delay, E4F_MAX_LINK_DELAY);
  else if (cfg->hot_node >= N)
    snprintf(err, errlen, "hot-node = %u: there are %u nodes", cfg->hot_node, N);
  else if (!(cfg->hot_frac >= 0 && cfg->hot_frac <= 1))
    snprintf(err, errlen, "hot-frac = %g: 0..1", cfg->hot_frac);
  else if (!(cfg->nack_rate >= 0 && cfg->nack_rate < 1))
    snprintf(err, errlen, "nack-rate = %g: 0..1 (exclusive)", cfg->nack_rate);
  else if (cfg->warmup >= cfg->cycles)
    snprintf(err, errlen, "warmup = %" PRIu64 " must be below cycles = %" PRIu64, cfg->warmup, cfg->cycles);
  else if (cfg->src_queue < 1)
    snprintf(err, errlen, "src-queue must be at least 1");
  else if (cfg->cycles > UINT32_MAX / 2)
    snprintf(err, errlen, "cycles = %" PRIu64 ": at most %u (records hold 32-bit cycles)", cfg->cycles,
             UINT32_MAX / 2);
  if (err[0]) return -1;

  cosim_rng_t master;
  cosim_rng_seed(&master, cfg->seed);
  f->traffic = (e4f_traffic_t){cfg->pattern, N, cfg->load / L, cfg->hot_frac, cfg->hot_node};
  int rc = 0;
  f->in = calloc(nsw, sizeof *f->in);
  f->out = calloc(nsw, sizeof *f->out);
  f->nic = calloc(N, sizeof *f->nic);
  f->gen = calloc(N, sizeof *f->gen);
  f->islot = calloc((size_t)nsw * E4F_PORTS * E4F_VCS, sizeof *f->islot);
  f->oslot = calloc((size_t)nsw * E4F_PORTS * E4F_VCS, sizeof *f->oslot);
  if (!f->in || !f->out || !f->nic || !f->gen || !f->islot || !f->oslot) rc = -ENOMEM;
  if (!rc) rc = e4f_lines_init(&f->to_sw, nsw * E4F_PORTS, cfg->link_delay);
  if (!rc) rc = e4f_lines_init(&f->to_nic, N, cfg->link_delay);
  /* the packets the run is expected to create (at most 2^18 up front), so the table rarely grows */
  double expect = 1024 + (double)N * (double)cfg->cycles * f->traffic.p_pkt * 1.1;
  if (!rc)
    rc = e4f_records_init(&f->rec, expect < (1 << 18) ? (uint32_t)expect : 1u << 18, cosim_rng_u64(&master));
  if (!rc) rc = e4f_score_init(&f->sb, N, E4F_VCS);
  for (unsigned k = 0; k < 2 && !rc; k++) rc = counters_alloc(&f->cnt[k], nsw * E4F_PORTS, N);
  for (unsigned n = 0; n < N && !rc; n++) {
    cosim_rng_seed(&f->gen[n], cosim_rng_u64(&master));
    rc = e4f_nic_init(&f->nic[n], n, cfg->src_queue, cosim_rng_u64(&master));
  }
  if (rc) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < (size_t)nsw * E4F_PORTS * E4F_VCS; i++) f->islot[i].id = -1;
  f->env = (e4f_nic_env_t){.topo = &f->topo,
                           .rec = &f->rec,
                           .sb = &f->sb,
                           .policy = cfg->policy,
                           .nbody = cfg->nbody,
                           .nack_rate = cfg->nack_rate,
                           .bug_route = (cfg->fab_bug & E4F_BUG_ROUTE_WRONG_PORT) != 0,
                           .bug_no_token = (cfg->fab_bug & E4F_BUG_NIC_NO_TOKEN) != 0,
                           .win_from = cfg->warmup,
                           .win_to = cfg->cycles};
  for (unsigned s = 0; s < nsw; s++) {
    if (cfg->rtl[s]) {
      char path[1200];
      if (cfg->trace_dir) snprintf(path, sizeof path, "%s/sw%u.fst", cfg->trace_dir, s);
      f->inst[s] =
          f->tgt->glue->rtl.create(cfg->trace_dir ? path : NULL, cfg->seed + s); /* registers' start */
      if (f->inst[s]) f->tgt->glue->rtl.reset(f->inst[s]);
    } else {
      f->inst[s] = f->tgt->model.create(cfg->model_bug);
      /* from garbage, as the RTL's registers: the reset must bring every register back */
      if (f->inst[s] && f->tgt->model.scramble) f->tgt->model.scramble(f->inst[s], cfg->seed + s);
      if (f->inst[s]) f->tgt->model.reset(f->inst[s]);
    }
    if (!f->inst[s]) {
      snprintf(err, errlen, "switch %u (%s) could not be created", s, cfg->rtl[s] ? "RTL" : "model");
      return -1;
    }
  }
  f->digest = 0xcbf29ce484222325ULL;
  return 0;
}

void e4f_fabric_free(e4f_fabric_t *f) {
  for (unsigned s = 0; s < f->topo.nsw; s++)
    if (f->inst[s]) {
      if (f->cfg.rtl[s])
        f->tgt->glue->rtl.destroy(f->inst[s]);
      else
        f->tgt->model.destroy(f->inst[s]);
    }
  if (f->nic)
    for (unsigned n = 0; n < f->cfg.nodes; n++) e4f_nic_free(&f->nic[n]);
  free(f->nic);
  free(f->gen);
  free(f->in);
  free(f->out);
  free(f->islot);
  free(f->oslot);
  e4f_lines_free(&f->to_sw);
  e4f_lines_free(&f->to_nic);
  e4f_records_free(&f->rec);
  e4f_score_free(&f->sb);
  for (unsigned k = 0; k < 2; k++) counters_free(&f->cnt[k]);
  memset(f, 0, sizeof *f);
}

/* ---- observers --------------------------------------------------------------- */

/* A flit arriving at input (s, p): the HEAD's cycle, and on its first BODY
 * (the id) the packet's hop record. */
static void observe_arrival(e4f_fabric_t *f, unsigned s, unsigned p, const e4f_flit_t *fl, uint64_t c) {
  if (!fl->valid || fl->kind == ELITE4_TOKEN) return;
  e4f_islot_t *sl = &f->islot[(s * E4F_PORTS + p) * E4F_VCS + fl->vc];
  if (fl->kind == ELITE4_HEAD) {
    sl->arr = (uint32_t)c;
    sl->grant = E4F_NONE;
    sl->id = -2; /* waiting for the id */
  } else if (fl->kind == ELITE4_BODY && sl->id == -2) {
    sl->id = -1;
    if (fl->data >= f->rec.n) return;
    e4f_pkt_t *k = &f->rec.p[fl->data];
    if (k->nhops >= E4F_MAX_HOPS) return;
    sl->id = fl->data;
    sl->hop = k->nhops++;
    k->hop[sl->hop] = (e4f_hop_t){(uint16_t)s, (uint8_t)p, E4F_NO_PORT, sl->arr, sl->grant, E4F_NONE};
  }
}

static void observe_outputs(e4f_fabric_t *f, unsigned s, uint64_t c) {
  const elite4_p8_out_t *o = &f->out[s];
  if (o->alloc_o)
    for (unsigned p = 0; p < E4F_PORTS; p++)
      for (unsigned v = 0; v < E4F_VCS; v++) {
        if (!elite4_p8_alloc_o_get(o, p * E4F_VCS + v)) continue;
        e4f_islot_t *sl = &f->islot[(s * E4F_PORTS + p) * E4F_VCS + v];
        sl->grant = (uint32_t)(c - 1); /* the pulse shows the cycle after the grant */
        if (sl->id >= 0) {
          e4f_pkt_t *k = &f->rec.p[sl->id];
          if (sl->hop < k->nhops && k->hop[sl->hop].sw == s && k->hop[sl->hop].in == p)
            k->hop[sl->hop].grant = sl->grant;
        }
      }
  if (!o->out_valid_o) return;
  for (unsigned p = 0; p < E4F_PORTS; p++) {
    if (!elite4_p8_out_valid_o_get(o, p)) continue;
    e4f_flit_t fl;
    e4f_link_from_out(o, p, &fl);
    e4f_oslot_t *sl = &f->oslot[(s * E4F_PORTS + p) * E4F_VCS + fl.vc];
    if (fl.kind == ELITE4_HEAD) {
      sl->dep = (uint32_t)c;
      sl->pending = true;
    } else if (fl.kind == ELITE4_BODY && sl->pending) {
      sl->pending = false;
      e4f_hop_t *h = e4f_records_hop(&f->rec, fl.data, s);
      if (h) {
        h->out = (uint8_t)p;
        h->dep = sl->dep;
      }
    }
  }
}

static void check_outputs(e4f_fabric_t *f, unsigned s, uint64_t c) {
  const elite4_p8_out_t *o = &f->out[s];
  if (o->err_o)
    for (unsigned p = 0; p < E4F_PORTS; p++)
      if (elite4_p8_err_o_get(o, p))
        e4f_failf(&f->sb, c, "fabric.switch_error",
                  "switch %u (level %u) raised error %u on port %u at cycle %" PRIu64, s,
                  e4f_sw_level(&f->topo, s), elite4_p8_err_code_o_get(o, p), p, c);
  if (o->out_valid_o)
    for (unsigned p = 0; p < E4F_PORTS; p++)
      if (f->topo.peer[s][p].kind == E4F_PEER_NONE && elite4_p8_out_valid_o_get(o, p))
        e4f_failf(&f->sb, c, "fabric.tied_off", "switch %u sent a flit on tied-off port %u at cycle %" PRIu64,
                  s, p, c);
}

/* FNV-1a over every output field, bits above a field's width masked. */
static uint64_t out_digest(const cosim_glue_t *g, const void *out, uint64_t h) {
  const uint8_t *b = out;
  for (unsigned i = 0; i < g->n_out; i++) {
    const cosim_port_t *p = &g->out_ports[i];
    unsigned nb = (p->width + 7) / 8;
    for (unsigned k = 0; k < nb; k++) {
      uint8_t x = b[p->offset + k];
      if (k == nb - 1 && p->width % 8) x &= (uint8_t)((1u << (p->width % 8)) - 1);
      h = (h ^ x) * 0x100000001b3ULL;
    }
  }
  return h;
}

static void snapshot(e4f_fabric_t *f, e4f_counters_t *k, uint64_t c) {
  k->cycle = c;
  for (unsigned s = 0; s < f->topo.nsw; s++)
    for (unsigned p = 0; p < E4F_PORTS; p++) {
      unsigned i = s * E4F_PORTS + p;
      k->xmit_flits[i] = f->out[s].cnt_xmit_flits_o[p];
      k->rcv_flits[i] = f->out[s].cnt_rcv_flits_o[p];
      k->xmit_wait[i] = f->out[s].cnt_xmit_wait_o[p];
      k->xmit_pkts[i] = f->out[s].cnt_xmit_pkts_o[p];
    }
  for (unsigned n = 0; n < f->cfg.nodes; n++) k->nic_tx[n] = f->nic[n].tx_flits;
}

/* ---- the fabric cycle ----------------------------------------------------------- */

void e4f_fabric_step(e4f_fabric_t *f) {
  const uint64_t c = f->cycle;
  const unsigned nsw = f->topo.nsw, N = f->cfg.nodes;
  const bool rec = f->cfg.records;
  /* 1. traffic */
  if (c < f->cfg.cycles)
    for (unsigned n = 0; n < N; n++) {
      int d = e4f_traffic_next(&f->traffic, n, &f->gen[n]);
      if (d >= 0) e4f_nic_enqueue(&f->nic[n], &f->env, (unsigned)d, c);
    }
  /* 2. switch inputs: what the neighbours sent D cycles ago */
  for (unsigned s = 0; s < nsw; s++)
    for (unsigned p = 0; p < E4F_PORTS; p++) {
      const e4f_flit_t *fl = e4f_line_rx(&f->to_sw, c, s * E4F_PORTS + p);
      e4f_link_to_in(&f->in[s], p, fl);
      if (rec) observe_arrival(f, s, p, fl, c);
    }
  /* 3. NICs */
  for (unsigned n = 0; n < N; n++) {
    e4f_flit_t rx = *e4f_line_rx(&f->to_nic, c, n);
    e4f_nic_step(&f->nic[n], &f->env, c, &rx,
                 e4f_line_tx(&f->to_sw, c, f->topo.leaf_sw[n] * E4F_PORTS + n % 4));
  }
  /* 4. switches */
  for (unsigned s = 0; s < nsw; s++) {
    if (f->cfg.rtl[s]) {
      f->tgt->glue->rtl.step(f->inst[s], &f->in[s], &f->out[s]);
      /* an RTL assertion fails the run (check assert:<label>), before any
       * other failure seen in the same cycle: the first cause is the switch's */
      const char *label =
          f->tgt->glue->rtl.assert_failed ? f->tgt->glue->rtl.assert_failed(f->inst[s]) : NULL;
      if (label && (!f->sb.failed || (f->sb.fail_cycle == c && strncmp(f->sb.fail_id, "assert:", 7)))) {
        char id[sizeof f->sb.fail_id];
        snprintf(id, sizeof id, "assert:%s", label);
        f->sb.failed = false;
        e4f_failf(&f->sb, c, id, "switch %u (RTL): assertion %s failed at cycle %" PRIu64, s, label, c);
      }
    } else
      f->tgt->model.eval(f->inst[s], &f->in[s], &f->out[s]);
    for (unsigned p = 0; p < E4F_PORTS; p++) {
      const e4f_peer_t *e = &f->topo.peer[s][p];
      if (e->kind == E4F_PEER_SW)
        e4f_link_from_out(&f->out[s], p, e4f_line_tx(&f->to_sw, c, e->id * E4F_PORTS + e->port));
      else if (e->kind == E4F_PEER_NIC)
        e4f_link_from_out(&f->out[s], p, e4f_line_tx(&f->to_nic, c, e->id));
    }
  }
  /* 5. the models' clock edge */
  for (unsigned s = 0; s < nsw; s++)
    if (!f->cfg.rtl[s]) f->tgt->model.commit(f->inst[s]);
  /* 6. observers */
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned s = 0; s < nsw; s++) {
    check_outputs(f, s, c);
    if (rec) observe_outputs(f, s, c);
    if (f->cfg.digest) h = out_digest(f->tgt->glue, &f->out[s], h);
  }
  if (f->cfg.digest) {
    f->cycle_digest = h;
    f->digest = (f->digest ^ h) * 0x100000001b3ULL;
  }
  if (c == f->cfg.warmup) snapshot(f, &f->cnt[0], c);
  if (c == f->cfg.cycles) snapshot(f, &f->cnt[1], c);
  if (f->env.outstanding) f->busy_cycles++; /* packets created, tokens not all back */
  f->cycle = c + 1;
}

/* The oldest unfinished packet, for a deadlock report. */
static void describe_stuck(e4f_fabric_t *f, char *buf, size_t len) {
  static const char *const st[] = {"queued", "in flight", "delivered, token not back", "done"};
  uint64_t left = 0;
  int64_t first = -1;
  for (uint32_t id = 0; id < f->rec.n; id++)
    if (f->rec.p[id].state != E4F_PKT_DONE) {
      left++;
      if (first < 0) first = id;
    }
  if (first < 0) {
    snprintf(buf, len, "no packet left, but a NIC is not idle");
    return;
  }
  const e4f_pkt_t *k = &f->rec.p[first];
  char where[64] = "";
  if (k->nhops) snprintf(where, sizeof where, ", last seen at switch %u", k->hop[k->nhops - 1].sw);
  snprintf(buf, len, "%" PRIu64 " packets unfinished; oldest: packet %" PRId64 " node %u -> %u VC %u, %s%s",
           left, first, k->src, k->dst, k->vc, st[k->state], where);
}

bool e4f_fabric_done(e4f_fabric_t *f) {
  if (f->finished) return true;
  const uint64_t c = f->cycle - 1; /* the cycle just run */
  if (f->sb.failed) return f->finished = true;
  if (c >= f->cfg.cycles && f->env.outstanding == 0) {
    bool idle = true;
    for (unsigned n = 0; n < f->cfg.nodes && idle; n++) idle = e4f_nic_idle(&f->nic[n]);
    if (idle) return f->finished = true;
  }
  char why[400];
  if (c >= f->cfg.cycles + f->cfg.drain_max) {
    describe_stuck(f, why, sizeof why);
    e4f_failf(&f->sb, c, "fabric.drain",
              "deadlock: not drained %" PRIu64 " cycles after injection stopped: %s", f->cfg.drain_max, why);
    return f->finished = true;
  }
  if (f->env.outstanding && c > f->env.last_progress + f->cfg.watchdog) {
    describe_stuck(f, why, sizeof why);
    e4f_failf(&f->sb, c, "fabric.deadlock",
              "deadlock: nothing reached any NIC for %" PRIu64 " cycles (cycle %" PRIu64 "): %s",
              f->cfg.watchdog, c, why);
    return f->finished = true;
  }
  return false;
}

void e4f_fabric_run(e4f_fabric_t *f) {
  double t0 = now_s();
  do e4f_fabric_step(f);
  while (!e4f_fabric_done(f));
  f->wall_s = now_s() - t0;
}

bool e4f_fabric_diff(const e4f_fabric_t *a, const e4f_fabric_t *b, char *buf, size_t len) {
  const cosim_glue_t *g = a->tgt->glue;
  for (unsigned s = 0; s < a->topo.nsw; s++)
    for (unsigned i = 0; i < g->n_out; i++) {
      const cosim_port_t *p = &g->out_ports[i];
      const uint8_t *x = (const uint8_t *)&a->out[s] + p->offset,
                    *y = (const uint8_t *)&b->out[s] + p->offset;
      if (!memcmp(x, y, (p->width + 7) / 8)) continue;
      /* the first differing 32-bit word, as the field's slice of that port */
      unsigned w = 0;
      while (w * 4 < p->bytes && !memcmp(x + 4 * w, y + 4 * w, p->bytes - 4 * w < 4 ? p->bytes - 4 * w : 4))
        w++;
      uint32_t vx = 0, vy = 0;
      size_t nb = p->bytes - 4 * w < 4 ? p->bytes - 4 * w : 4;
      memcpy(&vx, x + 4 * w, nb);
      memcpy(&vy, y + 4 * w, nb);
      snprintf(buf, len, "switch %u (%s vs %s) output %s word %u: 0x%08x vs 0x%08x", s,
               a->cfg.rtl[s] ? "RTL" : "model", b->cfg.rtl[s] ? "RTL" : "model", p->name, w, vx, vy);
      return true;
    }
  return false;
}
