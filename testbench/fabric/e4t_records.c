/* elite4 fabric per-packet records: see e4t_records.h. */
#include "e4t_records.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int e4t_records_init(e4t_records_t *r, uint32_t cap, uint64_t body_seed, bool keep) {
  memset(r, 0, sizeof *r);
  r->keep = keep;
  r->cap = keep ? (cap ? cap : 1024) : 1024; /* off: a power of two, grown with the packets in flight */
  r->body_seed = body_seed;
  r->p = malloc((size_t)r->cap * sizeof *r->p);
  if (!keep) r->live = calloc(r->cap, 1);
  return r->p && (keep || r->live) ? 0 : -ENOMEM;
}

void e4t_records_free(e4t_records_t *r) {
  free(r->p);
  free(r->live);
  r->p = NULL;
  r->live = NULL;
  r->n = r->cap = 0;
}

/* records off: twice the ring, every held packet moved to its new slot */
static int ring_grow(e4t_records_t *r) {
  if (r->cap > UINT32_MAX / 2) return -1;
  const uint32_t nc = r->cap * 2;
  e4t_pkt_t *q = malloc((size_t)nc * sizeof *q);
  uint8_t *l = calloc(nc, 1);
  if (!q || !l) {
    free(q);
    free(l);
    return -1;
  }
  for (uint32_t id = r->oldest; id < r->n; id++) {
    const uint32_t i = id & (r->cap - 1);
    if (!r->live[i]) continue;
    q[id & (nc - 1)] = r->p[i];
    l[id & (nc - 1)] = 1;
  }
  free(r->p);
  free(r->live);
  r->p = q;
  r->live = l;
  r->cap = nc;
  return 0;
}

int64_t e4t_records_new(e4t_records_t *r) {
  if (r->n == UINT32_MAX) return -1;
  e4t_pkt_t *k;
  if (r->keep) {
    if (r->n == r->cap) {
      if (r->cap > UINT32_MAX / 2) return -1;
      e4t_pkt_t *q = realloc(r->p, (size_t)r->cap * 2 * sizeof *q);
      if (!q) return -1;
      r->p = q;
      r->cap *= 2;
    }
    k = &r->p[r->n];
  } else {
    if (r->n - r->oldest >= r->cap && ring_grow(r)) return -1;
    const uint32_t i = r->n & (r->cap - 1);
    r->live[i] = 1;
    k = &r->p[i];
  }
  memset(k, 0, sizeof *k);
  k->t_create = k->t_inject = k->t_head_rx = k->t_tail_rx = k->t_done = E4T_NONE;
  return r->n++;
}

void e4t_records_retire(e4t_records_t *r, uint32_t id) {
  if (r->keep) return;
  e4t_pkt_t *k = e4t_records_get(r, id);
  if (!k) return;
  if (r->retire) r->retire(r->retire_ctx, id, k);
  r->live[id & (r->cap - 1)] = 0;
  while (r->oldest < r->n && !r->live[r->oldest & (r->cap - 1)]) r->oldest++;
}

void e4t_records_each(const e4t_records_t *r, void (*f)(void *ctx, uint32_t id, const e4t_pkt_t *k),
                      void *ctx) {
  for (uint32_t id = r->keep ? 0 : r->oldest; id < r->n; id++) {
    const uint32_t i = r->keep ? id : id & (r->cap - 1);
    if (r->keep || r->live[i]) f(ctx, id, &r->p[i]);
  }
}

/* splitmix64's finaliser: a cheap, well-mixed function of (seed, id, word) */
uint32_t e4t_body_word(const e4t_records_t *r, uint32_t id, unsigned i) {
  if (i == 0) return id;
  uint64_t z = r->body_seed + 0x9e3779b97f4a7c15ULL * (((uint64_t)id << 8) + i);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (uint32_t)(z ^ (z >> 31));
}

e4t_hop_t *e4t_records_hop(e4t_records_t *r, uint32_t id, unsigned sw) {
  e4t_pkt_t *k = e4t_records_get(r, id);
  if (!k) return NULL;
  for (unsigned h = k->nhops; h-- > 0;)
    if (k->hop[h].sw == sw) return &k->hop[h];
  return NULL;
}

static void cyc(FILE *f, uint32_t v) {
  if (v == E4T_NONE)
    fputs(",", f);
  else
    fprintf(f, ",%u", v);
}

void e4t_records_csv(const e4t_records_t *r, const e4t_topo_t *t, FILE *f, uint32_t from, uint32_t to) {
  unsigned maxh = 2 * t->levels - 1;
  fprintf(
      f, "id,src,dst,vc,seq,flits,switches,tries,created,injected,head_rx,tail_rx,acked,latency,net_latency");
  for (unsigned h = 1; h <= maxh; h++)
    fprintf(f, ",h%u_sw,h%u_level,h%u_in,h%u_out,h%u_arr,h%u_grant,h%u_dep", h, h, h, h, h, h, h);
  fputc('\n', f);
  for (uint32_t id = 0; id < r->n && r->keep; id++) {
    const e4t_pkt_t *k = &r->p[id];
    if (k->t_create < from || k->t_create >= to) continue;
    fprintf(f, "%u,%u,%u,%u,%u,%u,%u,%u", id, k->src, k->dst, k->vc, k->seq, k->nbody + 2u, k->nsw, k->tries);
    cyc(f, k->t_create);
    cyc(f, k->t_inject);
    cyc(f, k->t_head_rx);
    cyc(f, k->t_tail_rx);
    cyc(f, k->t_done);
    cyc(f, k->t_tail_rx == E4T_NONE ? E4T_NONE : k->t_tail_rx - k->t_create);
    cyc(f, k->t_tail_rx == E4T_NONE || k->t_inject == E4T_NONE ? E4T_NONE : k->t_tail_rx - k->t_inject);
    for (unsigned h = 0; h < maxh; h++) {
      if (h < k->nhops) {
        const e4t_hop_t *e = &k->hop[h];
        fprintf(f, ",%u,%u,%u,", e->sw, e4t_sw_level(t, e->sw), e->in);
        if (e->out != E4T_NO_PORT) fprintf(f, "%u", e->out);
        cyc(f, e->arr);
        cyc(f, e->grant);
        cyc(f, e->dep);
      } else {
        fputs(",,,,,,,", f);
      }
    }
    fputc('\n', f);
  }
}
