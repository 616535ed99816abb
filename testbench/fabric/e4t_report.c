/* elite4 fabric results and report files: see e4t_report.h. */
#define _POSIX_C_SOURCE 200809L
#include "e4t_report.h"
#include "clock.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool in_window(const e4t_fabric_t *f, const e4t_pkt_t *k) {
  return k->t_create >= f->cfg.warmup && k->t_create < f->cfg.cycles;
}
static bool delivered(const e4t_pkt_t *k) {
  return k->state >= E4T_PKT_DELIVERED && k->t_tail_rx != E4T_NONE;
}
/* every stage of every hop recorded (records on, last try complete) */
static bool complete(const e4t_pkt_t *k) {
  if (!delivered(k) || k->nhops != k->nsw || k->t_head_rx == E4T_NONE) return false;
  for (unsigned h = 0; h < k->nhops; h++)
    if (k->hop[h].grant == E4T_NONE || k->hop[h].dep == E4T_NONE) return false;
  return true;
}

static unsigned link_class(const e4t_topo_t *t, unsigned s, unsigned p, bool to_nic_side_rx) {
  unsigned l = e4t_sw_level(t, s);
  if (t->peer[s][p].kind == E4T_PEER_NIC) return to_nic_side_rx ? 0 : 1;
  return p >= E4T_DOWN ? 2 + 2 * l : 3 + 2 * (l - 1);
}

static void class_names(const e4t_topo_t *t, e4t_link_class_t *c, unsigned *n) {
  snprintf(c[0].name, sizeof c[0].name, "NIC->L0");
  snprintf(c[1].name, sizeof c[1].name, "L0->NIC");
  for (unsigned l = 0; l + 1 < t->levels; l++) {
    snprintf(c[2 + 2 * l].name, sizeof c[0].name, "L%u->L%u", l, l + 1);
    snprintf(c[3 + 2 * l].name, sizeof c[0].name, "L%u->L%u", l + 1, l);
  }
  *n = 2 * t->levels;
}

static uint64_t fnv(const void *p, size_t n, uint64_t h) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

void e4t_acc_init(e4t_acc_t *a) {
  memset(a, 0, sizeof *a);
  a->min_hop = a->min_link = UINT32_MAX;
  for (unsigned h = 0; h <= E4T_MAX_HOPS; h++) a->min_head[h] = a->min_pkt[h] = UINT32_MAX;
  a->rec_hash = 0xcbf29ce484222325ULL;
}

void e4t_acc_free(e4t_acc_t *a) {
  e4t_samples_free(&a->lat);
  e4t_samples_free(&a->net);
  e4t_samples_free(&a->head);
}

void e4t_acc_fold(e4t_acc_t *a, const e4t_cfg_t *cfg, const e4t_pkt_t *k) {
  a->rec_hash = fnv(k, sizeof *k, a->rec_hash);
  const bool w = k->t_create >= cfg->warmup && k->t_create < cfg->cycles;
  a->created_win += w;
  if (!delivered(k)) return;
  a->delivered++;
  if (w) {
    e4t_samples_add(&a->lat, k->t_tail_rx - k->t_create);
    e4t_samples_add(&a->net, k->t_tail_rx - k->t_inject);
    if (k->t_head_rx != E4T_NONE) e4t_samples_add(&a->head, k->t_head_rx - k->t_inject);
  }
  a->n_by_len[k->nsw]++;
  /* planted (fab_head_time_far): packets over 3+ switches folded a cycle late */
  const uint32_t far = (cfg->fab_bug & E4T_BUG_HEAD_TIME_FAR) && k->nsw >= 3;
  if (k->t_head_rx != E4T_NONE && k->t_head_rx - k->t_inject + far < a->min_head[k->nsw])
    a->min_head[k->nsw] = k->t_head_rx - k->t_inject + far;
  if (k->t_tail_rx - k->t_inject < a->min_pkt[k->nsw]) a->min_pkt[k->nsw] = k->t_tail_rx - k->t_inject;
  if (!complete(k)) return;
  for (unsigned h = 0; h < k->nhops; h++) {
    const e4t_hop_t *e = &k->hop[h];
    uint32_t before = h ? k->hop[h - 1].dep : k->t_inject, link = e->arr - before;
    a->hops_seen++;
    if (e->dep - e->arr < a->min_hop) a->min_hop = e->dep - e->arr;
    if (link < a->min_link) a->min_link = link;
    if (link > a->max_link) a->max_link = link;
  }
  uint32_t last = k->t_head_rx - k->hop[k->nhops - 1].dep;
  if (last < a->min_link) a->min_link = last;
  if (last > a->max_link) a->max_link = last;
}

typedef struct {
  e4t_acc_t *a;
  const e4t_cfg_t *cfg;
} fold_ctx_t;
static void fold_held(void *ctx, uint32_t id, const e4t_pkt_t *k) {
  (void)id;
  fold_ctx_t *x = ctx;
  e4t_acc_fold(x->a, x->cfg, k);
}

void e4t_result_compute(e4t_fabric_t *f, e4t_result_t *r) {
  memset(r, 0, sizeof *r);
  const unsigned N = f->cfg.nodes, L = f->cfg.nbody + 2;
  r->cycles_run = f->cycle;
  r->window = f->cfg.cycles - f->cfg.warmup;
  for (unsigned s = 0; s < f->topo.nsw; s++) r->rtl_switches += f->cfg.rtl[s] != 0;
  r->refused = f->env.refused;
  r->refused_win = f->env.refused_win;
  r->retries = f->env.retries;
  /* what retired (f->acc), then every record still held, in id order */
  e4t_acc_t t = f->acc; /* the scalars; the sample sets are merged into new ones */
  t.lat = t.net = t.head = (e4t_samples_t){0};
  e4t_samples_merge(&t.lat, &f->acc.lat);
  e4t_samples_merge(&t.net, &f->acc.net);
  e4t_samples_merge(&t.head, &f->acc.head);
  fold_ctx_t ctx = {&t, &f->cfg};
  e4t_records_each(&f->rec, fold_held, &ctx);
  r->created = f->rec.n;
  r->created_win = t.created_win;
  r->delivered = t.delivered;
  memcpy(r->n_by_len, t.n_by_len, sizeof r->n_by_len);
  memcpy(r->min_head, t.min_head, sizeof r->min_head);
  memcpy(r->min_pkt, t.min_pkt, sizeof r->min_pkt);
  r->min_hop = t.min_hop;
  r->min_link = t.min_link;
  r->max_link = t.max_link;
  r->hops_seen = t.hops_seen;
  r->lat = e4t_samples_summary(&t.lat);
  r->net = e4t_samples_summary(&t.net);
  r->head = e4t_samples_summary(&t.head);
  r->records_digest = t.rec_hash;
  e4t_acc_free(&t);
  const double nm = (double)N * (double)r->window;
  r->offered = (double)(r->created_win + r->refused_win) * L / nm;
  r->accepted = (double)f->env.win_flits / nm;
  /* link utilisation per class, from the port counters at the window's ends */
  class_names(&f->topo, r->cls, &r->ncls);
  const e4t_counters_t *a = &f->cnt[0], *b = &f->cnt[1];
  const double win = (double)(b->cycle - a->cycle);
  if (b->cycle > a->cycle)
    for (unsigned s = 0; s < f->topo.nsw; s++)
      for (unsigned p = 0; p < E4T_PORTS; p++) {
        if (f->topo.peer[s][p].kind == E4T_PEER_NONE) continue;
        unsigned i = s * E4T_PORTS + p;
        for (unsigned dir = 0; dir < 1u + (f->topo.peer[s][p].kind == E4T_PEER_NIC); dir++) {
          /* dir 0: what switch s sends on p; dir 1: what the NIC sends to s (its rcv counter) */
          e4t_link_class_t *c = &r->cls[link_class(&f->topo, s, p, dir == 1)];
          double u = dir ? (uint32_t)(b->rcv_flits[i] - a->rcv_flits[i]) / win
                         : (uint32_t)(b->xmit_flits[i] - a->xmit_flits[i]) / win;
          double wt = dir ? 0 : (uint32_t)(b->xmit_wait[i] - a->xmit_wait[i]) / win;
          c->links++;
          c->util_mean += u;
          c->wait_mean += wt;
          if (u > c->util_max) c->util_max = u;
          if (wt > c->wait_max) c->wait_max = wt;
        }
      }
  for (unsigned k = 0; k < r->ncls; k++)
    if (r->cls[k].links) {
      r->cls[k].util_mean /= (double)r->cls[k].links;
      r->cls[k].wait_mean /= (double)r->cls[k].links;
    }
  r->wall_s = f->wall_s;
  r->cycles_per_s = f->wall_s > 0 ? (double)f->cycle / f->wall_s : 0;
  r->node_cycles_per_s = r->cycles_per_s * N;
  r->digest = f->digest;
}

void e4t_result_print(const e4t_fabric_t *f, const e4t_result_t *r, const char *name, FILE *out) {
  const e4t_cfg_t *c = &f->cfg;
  const double ns = E4T_NS_PER_CYCLE;
  fprintf(out, "run: %s  nodes %u (%u levels, %u switches: %u model, %u RTL)  traffic %s", name, c->nodes,
          f->topo.levels, f->topo.nsw, f->topo.nsw - r->rtl_switches, r->rtl_switches,
          e4t_pattern_name(c->pattern));
  if (c->pattern == E4T_HOTSPOT) fprintf(out, " (%.2f to node %u)", c->hot_frac, c->hot_node);
  fprintf(out, "  load %.3f  packet %u flits  vcs %s  link %u cycle%s\n", c->load, c->nbody + 2,
          e4t_vc_policy_name(c->policy), c->link_delay, c->link_delay == 1 ? "" : "s");
  fprintf(out,
          "cycles: %" PRIu64 "  (injection %" PRIu64 ", window %" PRIu64 "..%" PRIu64
          ")  wall %.2f s  %.0f cycles/s  %.0f node-cycles/s\n",
          r->cycles_run, c->cycles, c->warmup, c->cycles, r->wall_s, r->cycles_per_s, r->node_cycles_per_s);
  fprintf(out,
          "throughput: offered %.4f  accepted %.4f flits/node/cycle  (packets: %" PRIu64 " created, %" PRIu64
          " delivered, %" PRIu64 " retries, %" PRIu64 " refused by full source queues)\n",
          r->offered, r->accepted, r->created, r->delivered, r->retries, r->refused);
  const e4t_summary_t *s = &r->lat;
  fprintf(out,
          "latency created->TAIL: n %" PRIu64
          "  min %.0f  mean %.2f ± %.2f  p50 %.0f  p99 %.0f  max %.0f cycles"
          "  (mean %.1f ns)\n",
          s->count, s->min, s->mean, s->sd, s->p50, s->p99, s->max, ns * s->mean);
  s = &r->net;
  fprintf(out,
          "latency injected->TAIL: mean %.2f  p99 %.0f cycles;  injected->HEAD: min %.0f mean %.2f cycles\n",
          s->mean, s->p99, r->head.min, r->head.mean);
  fprintf(out, "min latency by path (injected->HEAD at NIC / ->TAIL at NIC):");
  for (unsigned h = 1; h <= E4T_MAX_HOPS; h++)
    if (r->n_by_len[h])
      fprintf(out, "  %u switch%s: %u / %u cycles (%.1f / %.1f ns, n %" PRIu64 ")", h, h == 1 ? "" : "es",
              r->min_head[h], r->min_pkt[h], ns * r->min_head[h], ns * r->min_pkt[h], r->n_by_len[h]);
  fputc('\n', out);
  if (r->hops_seen)
    fprintf(out, "hops: %" PRIu64 " recorded, min HEAD arrival->departure %u cycles, links %u..%u cycles\n",
            r->hops_seen, r->min_hop, r->min_link, r->max_link);
  fprintf(out, "links (utilisation mean/max, XmitWait mean/max per cycle):");
  for (unsigned k = 0; k < r->ncls; k++)
    fprintf(out, "  %s %.3f/%.3f %.3f/%.3f", r->cls[k].name, r->cls[k].util_mean, r->cls[k].util_max,
            r->cls[k].wait_mean, r->cls[k].wait_max);
  fputc('\n', out);
  if (c->digest)
    fprintf(out, "digest: outputs %016" PRIx64 "  records %016" PRIx64 "\n", r->digest, r->records_digest);
}

void e4t_summary_csv_header(FILE *out) {
  fprintf(
      out,
      "name,nodes,traffic,hot_frac,load,flits,vcs,link_delay,seed,rtl_switches,cycles,warmup,cycles_run,"
      "offered,accepted,created,delivered,retries,refused,lat_count,lat_min,lat_mean,lat_sd,lat_p50,lat_p99,"
      "lat_max,lat_mean_ns,net_mean,net_p99,head_min,head_mean,min_head_1,min_head_3,min_head_5,min_head_7,"
      "wall_s,node_cycles_per_s\n");
}

static void opt_u32(FILE *out, uint32_t v) {
  if (v == UINT32_MAX)
    fputs(",", out);
  else
    fprintf(out, ",%u", v);
}

void e4t_summary_csv_row(const e4t_fabric_t *f, const e4t_result_t *r, const char *name, FILE *out) {
  const e4t_cfg_t *c = &f->cfg;
  fprintf(out,
          "%s,%u,%s,%.3f,%.4f,%u,%s,%u,%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.5f,%.5f,%" PRIu64
          ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
          name, c->nodes, e4t_pattern_name(c->pattern), c->pattern == E4T_HOTSPOT ? c->hot_frac : 0.0,
          c->load, c->nbody + 2, e4t_vc_policy_name(c->policy), c->link_delay, c->seed, r->rtl_switches,
          c->cycles, c->warmup, r->cycles_run, r->offered, r->accepted, r->created, r->delivered, r->retries,
          r->refused);
  e4t_summary_csv(out, &r->lat);
  fprintf(out, ",%.2f,%.3f,%.0f,%.0f,%.3f", E4T_NS_PER_CYCLE * r->lat.mean, r->net.mean, r->net.p99,
          r->head.min, r->head.mean);
  for (unsigned h = 1; h <= 7; h += 2) opt_u32(out, r->min_head[h]);
  fprintf(out, ",%.3f,%.0f\n", r->wall_s, r->node_cycles_per_s);
}

void e4t_links_csv(const e4t_fabric_t *f, FILE *out) {
  const e4t_counters_t *a = &f->cnt[0], *b = &f->cnt[1];
  const double win = b->cycle > a->cycle ? (double)(b->cycle - a->cycle) : 1;
  e4t_link_class_t cls[E4T_LINK_CLASSES];
  unsigned ncls;
  class_names(&f->topo, cls, &ncls);
  fprintf(out, "from,from_port,to,to_port,class,flits,utilisation,xmit_wait,xmit_wait_per_cycle,tails\n");
  for (unsigned s = 0; s < f->topo.nsw; s++)
    for (unsigned p = 0; p < E4T_PORTS; p++) {
      const e4t_peer_t *e = &f->topo.peer[s][p];
      if (e->kind == E4T_PEER_NONE) continue;
      unsigned i = s * E4T_PORTS + p;
      uint32_t fl = b->xmit_flits[i] - a->xmit_flits[i], wt = b->xmit_wait[i] - a->xmit_wait[i],
               pk = b->xmit_pkts[i] - a->xmit_pkts[i];
      char to[24];
      if (e->kind == E4T_PEER_NIC)
        snprintf(to, sizeof to, "nic%u,", e->id);
      else
        snprintf(to, sizeof to, "sw%u,%u", e->id, e->port);
      fprintf(out, "sw%u,%u,%s,%s,%u,%.4f,%u,%.4f,%u\n", s, p, to,
              cls[link_class(&f->topo, s, p, false)].name, fl, fl / win, wt, wt / win, pk);
      if (e->kind == E4T_PEER_NIC) {
        uint32_t rf = b->rcv_flits[i] - a->rcv_flits[i];
        fprintf(out, "nic%u,,sw%u,%u,%s,%u,%.4f,,,\n", e->id, s, p, cls[0].name, rf, rf / win);
      }
    }
}

/* ---- the per-hop breakdown ------------------------------------------------------- */

#define E4T_MAX_STAGES (5 + 4 * E4T_MAX_HOPS) /* source queue, first link, 4 per switch, 3 end-to-end */

static void hop_name(unsigned h, unsigned nsw, char *buf, size_t len) {
  unsigned t = nsw / 2; /* the top level of the path */
  if (h < t)
    snprintf(buf, len, "switch %u (L%u up)", h + 1, h);
  else if (h == t)
    snprintf(buf, len, "switch %u (L%u top)", h + 1, t);
  else
    snprintf(buf, len, "switch %u (L%u down)", h + 1, nsw - 1 - h);
}

void e4t_breakdown(e4t_fabric_t *f, FILE *md, FILE *csv) {
  fprintf(csv, "switches,stage,count,min,mean,sd,p50,p99,max\n");
  fprintf(md,
          "Per-hop latency breakdown: packets created in the window [%" PRIu64 ", %" PRIu64
          "), %u-flit packets, "
          "load %.3f flits/node/cycle, %s traffic, %u nodes; cycles and ns at %u MHz.\n",
          f->cfg.warmup, f->cfg.cycles, f->cfg.nbody + 2, f->cfg.load, e4t_pattern_name(f->cfg.pattern),
          f->cfg.nodes, NETCOSIM_CLOCK_MHZ);
  for (unsigned nsw = 1; nsw <= E4T_MAX_HOPS; nsw += 2) {
    char names[E4T_MAX_STAGES][80];
    e4t_samples_t st[E4T_MAX_STAGES];
    unsigned ns = 0;
    char hn[40];
    snprintf(names[ns++], 80, "NIC: source queue (created -> HEAD injected)");
    snprintf(names[ns++], 80, "link: NIC -> switch 1");
    for (unsigned h = 0; h < nsw; h++) {
      hop_name(h, nsw, hn, sizeof hn);
      snprintf(names[ns++], 80, "%s: queueing (arrival -> grant)", hn);
      snprintf(names[ns++], 80, "%s: traversal (grant -> departure)", hn);
      snprintf(names[ns++], 80, "%s: total (arrival -> departure)", hn);
      if (h + 1 < nsw)
        snprintf(names[ns++], 80, "link: switch %u -> switch %u", h + 1, h + 2);
      else
        snprintf(names[ns++], 80, "link: switch %u -> NIC (HEAD)", h + 1);
    }
    snprintf(names[ns++], 80, "NIC: ejection (HEAD -> TAIL at the destination)");
    snprintf(names[ns++], 80, "network: HEAD injected -> HEAD at the destination");
    snprintf(names[ns++], 80, "total: created -> TAIL at the destination");
    for (unsigned i = 0; i < ns; i++) e4t_samples_init(&st[i]);
    uint64_t n = 0;
    for (uint32_t id = 0; id < f->rec.n; id++) {
      const e4t_pkt_t *k = &f->rec.p[id];
      if (k->nsw != nsw || !in_window(f, k) || !complete(k)) continue;
      n++;
      unsigned i = 0;
      e4t_samples_add(&st[i++], k->t_inject - k->t_create);
      e4t_samples_add(&st[i++], k->hop[0].arr - k->t_inject);
      for (unsigned h = 0; h < nsw; h++) {
        const e4t_hop_t *e = &k->hop[h];
        e4t_samples_add(&st[i++], e->grant - e->arr);
        e4t_samples_add(&st[i++], e->dep - e->grant);
        e4t_samples_add(&st[i++], e->dep - e->arr);
        e4t_samples_add(&st[i++], (h + 1 < nsw ? k->hop[h + 1].arr : k->t_head_rx) - e->dep);
      }
      e4t_samples_add(&st[i++], k->t_tail_rx - k->t_head_rx);
      e4t_samples_add(&st[i++], k->t_head_rx - k->t_inject);
      e4t_samples_add(&st[i++], k->t_tail_rx - k->t_create);
    }
    if (n) {
      fprintf(md, "\n### Paths of %u switch%s (%" PRIu64 " packets)\n\n", nsw, nsw == 1 ? "" : "es", n);
      fprintf(md, "| stage | count | min | mean ± sd | p50 | p99 | max | min ns | mean ± sd ns | p50 ns | "
                  "p99 ns | max ns |\n");
      fprintf(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (unsigned i = 0; i < ns; i++) {
        e4t_summary_t s = e4t_samples_summary(&st[i]);
        fprintf(md, "| %s ", names[i]);
        e4t_summary_md(md, &s);
        fputc('\n', md);
        fprintf(csv, "%u,\"%s\",", nsw, names[i]);
        e4t_summary_csv(csv, &s);
        fputc('\n', csv);
      }
    }
    for (unsigned i = 0; i < ns; i++) e4t_samples_free(&st[i]);
  }
}

int e4t_mkdir_p(const char *path) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *q = buf + 1; *q; q++) {
    if (*q != '/') continue;
    *q = 0;
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    *q = '/';
  }
  return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static FILE *open_in(const char *dir, const char *file) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  return fopen(path, "w");
}

int e4t_write_reports(e4t_fabric_t *f, const e4t_result_t *r, const char *name, const char *dir) {
  if (e4t_mkdir_p(dir)) return -1;
  FILE *a = open_in(dir, "summary.csv"), *b = open_in(dir, "links.csv"), *c = open_in(dir, "wiring.csv");
  int rc = a && b && c ? 0 : -1;
  if (!rc) {
    e4t_summary_csv_header(a);
    e4t_summary_csv_row(f, r, name, a);
    e4t_links_csv(f, b);
    e4t_topo_csv(&f->topo, c);
  }
  if (a) fclose(a);
  if (b) fclose(b);
  if (c) fclose(c);
  if (rc || !f->cfg.records) return rc;
  FILE *d = open_in(dir, "records.csv"), *m = open_in(dir, "breakdown.md"),
       *v = open_in(dir, "breakdown.csv");
  rc = d && m && v ? 0 : -1;
  if (!rc) {
    e4t_records_csv(&f->rec, &f->topo, d, 0, UINT32_MAX);
    e4t_breakdown(f, m, v);
  }
  if (d) fclose(d);
  if (m) fclose(m);
  if (v) fclose(v);
  return rc;
}
