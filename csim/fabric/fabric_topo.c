/* Topology builders: see fabric_topo.h. */
#include "fabric_topo.h"

#include <stdlib.h>
#include <string.h>

static int alloc_tables(fabric_topo_t *t, char *err, size_t errlen) {
  t->peer = calloc((size_t)t->nsw * t->sw_ports, sizeof *t->peer);
  t->node = calloc(t->nodes, sizeof *t->node);
  if (!t->peer || !t->node) {
    fabric_topo_free(t);
    snprintf(err, errlen, "topology: out of memory");
    return -1;
  }
  return 0;
}

static void join(fabric_topo_t *t, unsigned a, unsigned pa, unsigned b, unsigned pb) {
  t->peer[(size_t)a * t->sw_ports + pa] = (fabric_end_t){FABRIC_END_SWITCH, (uint16_t)pb, b};
  t->peer[(size_t)b * t->sw_ports + pb] = (fabric_end_t){FABRIC_END_SWITCH, (uint16_t)pa, a};
}
static void attach(fabric_topo_t *t, unsigned d, unsigned s, unsigned q) {
  t->node[d] = (fabric_end_t){FABRIC_END_SWITCH, (uint16_t)q, s};
  t->peer[(size_t)s * t->sw_ports + q] = (fabric_end_t){FABRIC_END_NODE, 0, d};
}

unsigned fabric_tree_digit(const fabric_topo_t *t, unsigned x, unsigned i) {
  while (i--) x /= t->k;
  return x % t->k;
}
static unsigned set_digit(const fabric_topo_t *t, unsigned x, unsigned i, unsigned d) {
  unsigned w = 1;
  for (unsigned j = 0; j < i; j++) w *= t->k;
  return x - fabric_tree_digit(t, x, i) * w + d * w;
}

int fabric_topo_kary_ntree(fabric_topo_t *t, unsigned k, unsigned n, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  if (k < 2 || k > 64) {
    snprintf(err, errlen, "k-ary n-tree: k = %u out of range 2..64", k);
    return -1;
  }
  uint64_t nodes = 1;
  for (unsigned i = 0; i < n && nodes <= FABRIC_TOPO_MAX_NODES; i++) nodes *= k;
  if (n < 1 || nodes > FABRIC_TOPO_MAX_NODES) {
    snprintf(err, errlen, "k-ary n-tree: n = %u out of range 1..(k^n <= %u)", n, FABRIC_TOPO_MAX_NODES);
    return -1;
  }
  t->kind = FABRIC_TOPO_TREE;
  t->k = k;
  t->n = n;
  t->nodes = (unsigned)nodes;
  t->per_level = t->nodes / k;
  t->nsw = n * t->per_level;
  t->sw_ports = 2 * k;
  if (alloc_tables(t, err, errlen)) return -1;
  for (unsigned d = 0; d < t->nodes; d++) attach(t, d, d / k, d % k);
  for (unsigned l = 0; l + 1 < n; l++)
    for (unsigned w = 0; w < t->per_level; w++)
      for (unsigned j = 0; j < k; j++)
        join(t, l * t->per_level + w, k + j, (l + 1) * t->per_level + set_digit(t, w, l, j),
             fabric_tree_digit(t, w, l));
  return 0;
}

unsigned fabric_tree_route(const fabric_topo_t *t, unsigned src, unsigned dst, uint8_t *down) {
  /* the turning level: the lowest u whose subtree (k^(u+1) nodes) holds both */
  unsigned u = 0, span = t->k;
  while (u + 1 < t->n && src / span != dst / span) {
    u++;
    span *= t->k;
  }
  /* going down from level u: at level l the down port is digit l of dst */
  for (unsigned i = 0; i <= u; i++) down[i] = (uint8_t)fabric_tree_digit(t, dst, u - i);
  return u;
}

int fabric_topo_single(fabric_topo_t *t, unsigned nodes, unsigned ports, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  if (ports < 1 || ports > 1024) {
    snprintf(err, errlen, "single switch: ports = %u out of range 1..1024", ports);
    return -1;
  }
  if (nodes < 1 || nodes > ports) {
    snprintf(err, errlen, "single switch: nodes = %u out of range 1..%u (ports)", nodes, ports);
    return -1;
  }
  t->kind = FABRIC_TOPO_SINGLE;
  t->nodes = nodes;
  t->nsw = 1;
  t->sw_ports = ports;
  if (alloc_tables(t, err, errlen)) return -1;
  for (unsigned d = 0; d < nodes; d++) attach(t, d, 0, d);
  return 0;
}

int fabric_topo_torus2d(fabric_topo_t *t, unsigned x, unsigned y, unsigned p, unsigned conc, char *err,
                        size_t errlen) {
  memset(t, 0, sizeof *t);
  if (x < 2 || x > 1024 || y < 2 || y > 1024) {
    snprintf(err, errlen, "2-D torus: %s = %u out of range 2..1024", x < 2 || x > 1024 ? "x" : "y",
             x < 2 || x > 1024 ? x : y);
    return -1;
  }
  if (p < 1 || p > 16) {
    snprintf(err, errlen, "2-D torus: parallel links p = %u out of range 1..16", p);
    return -1;
  }
  if (conc < 1 || conc > 64 || (uint64_t)x * y * conc > FABRIC_TOPO_MAX_NODES) {
    snprintf(err, errlen, "2-D torus: nodes per router = %u out of range 1..64 (x*y*c <= %u)", conc,
             FABRIC_TOPO_MAX_NODES);
    return -1;
  }
  t->kind = FABRIC_TOPO_TORUS;
  t->x = x;
  t->y = y;
  t->p = p;
  t->conc = conc;
  t->nsw = x * y;
  t->nodes = t->nsw * conc;
  t->sw_ports = conc + 4 * p;
  if (alloc_tables(t, err, errlen)) return -1;
  for (unsigned d = 0; d < t->nodes; d++) attach(t, d, d / conc, d % conc);
  for (unsigned j = 0; j < y; j++)
    for (unsigned i = 0; i < x; i++)
      for (unsigned q = 0; q < p; q++) {
        unsigned r = j * x + i;
        join(t, r, conc + FABRIC_TORUS_XP * p + q, j * x + (i + 1) % x, conc + FABRIC_TORUS_XM * p + q);
        join(t, r, conc + FABRIC_TORUS_YP * p + q, ((j + 1) % y) * x + i, conc + FABRIC_TORUS_YM * p + q);
      }
  return 0;
}

int fabric_topo_fat2(fabric_topo_t *t, unsigned radix, unsigned leaves, unsigned spines, char *err,
                     size_t errlen) {
  memset(t, 0, sizeof *t);
  if (radix < 4 || radix > 254 || radix % 2) {
    snprintf(err, errlen, "two-level fat tree: radix R = %u out of range 4..254 (even)", radix);
    return -1;
  }
  const unsigned half = radix / 2;
  if (spines == 0) spines = half;
  if (spines > half || half % spines) {
    snprintf(err, errlen, "two-level fat tree: spines S = %u must divide R/2 = %u", spines, half);
    return -1;
  }
  const unsigned m = half / spines; /* parallel links per (leaf, spine) */
  if (leaves < 2 || leaves > 2 * spines) {
    snprintf(err, errlen,
             "two-level fat tree: leaves L = %u out of range 2..%u (2S: a spine has R = %u down ports, %u "
             "per leaf)",
             leaves, 2 * spines, radix, m);
    return -1;
  }
  t->kind = FABRIC_TOPO_FAT2;
  t->radix = radix;
  t->leaves = leaves;
  t->spines = spines;
  t->mult = m;
  t->nsw = leaves + spines;
  t->nodes = leaves * half;
  t->sw_ports = radix;
  if (alloc_tables(t, err, errlen)) return -1;
  for (unsigned d = 0; d < t->nodes; d++) attach(t, d, d / half, d % half);
  for (unsigned l = 0; l < leaves; l++)
    for (unsigned s = 0; s < spines; s++)
      for (unsigned i = 0; i < m; i++) join(t, l, half + s * m + i, leaves + s, l * m + i);
  return 0;
}

void fabric_topo_free(fabric_topo_t *t) {
  free(t->peer);
  free(t->node);
  free(t->nports);
  free(t->sw_line);
  free(t->line);
  t->peer = t->node = NULL;
  t->nports = NULL;
  t->sw_line = t->line = NULL;
}

static void end_str(const fabric_end_t *e, char *buf, size_t len) {
  if (e->kind == FABRIC_END_NODE)
    snprintf(buf, len, "node %u", e->id);
  else if (e->kind == FABRIC_END_SWITCH)
    snprintf(buf, len, "switch %u port %u", e->id, e->port);
  else
    snprintf(buf, len, "nothing");
}
static void where(const fabric_topo_t *t, unsigned s, unsigned q, char *buf, size_t len) {
  buf[0] = 0;
  if (!t->line || !t->src[0]) return;
  if (t->line[(size_t)s * t->sw_ports + q])
    snprintf(buf, len, " (%s:%u)", t->src, t->line[(size_t)s * t->sw_ports + q]);
  else
    snprintf(buf, len, " (%s:%u, no link listed)", t->src, t->sw_line[s]);
}

int fabric_topo_diff(const fabric_topo_t *a, const fabric_topo_t *b, char *why, size_t len) {
  if (a->nsw != b->nsw || a->nodes != b->nodes) {
    snprintf(why, len, "%u switches and %u nodes vs %u and %u", a->nsw, a->nodes, b->nsw, b->nodes);
    return 1;
  }
  for (unsigned s = 0; s < a->nsw; s++) {
    const unsigned pa = fabric_topo_nports(a, s), pb = fabric_topo_nports(b, s);
    if (pa != pb) {
      snprintf(why, len, "switch %u has %u ports vs %u", s, pa, pb);
      return 1;
    }
    for (unsigned q = 0; q < pa; q++) {
      const fabric_end_t *x = fabric_topo_peer(a, s, q), *y = fabric_topo_peer(b, s, q);
      if (x->kind == y->kind && x->id == y->id && (x->kind != FABRIC_END_SWITCH || x->port == y->port))
        continue;
      char ex[48], ey[48], wa[300], wb[300];
      end_str(x, ex, sizeof ex);
      end_str(y, ey, sizeof ey);
      where(a, s, q, wa, sizeof wa);
      where(b, s, q, wb, sizeof wb);
      snprintf(why, len, "switch %u port %u joins %s%s vs %s%s", s, q, ex, wa, ey, wb);
      return 1;
    }
  }
  for (unsigned d = 0; d < a->nodes; d++)
    if (a->node[d].id != b->node[d].id || a->node[d].port != b->node[d].port) {
      snprintf(why, len, "node %u on switch %u port %u vs switch %u port %u", d, a->node[d].id,
               a->node[d].port, b->node[d].id, b->node[d].port);
      return 1;
    }
  return 0;
}

int fabric_topo_wire(fabric_t *f, const fabric_topo_t *t, uint32_t sw0, uint32_t node0, unsigned node_port,
                     unsigned latency, char *err, size_t errlen) {
  for (unsigned d = 0; d < t->nodes; d++) {
    const fabric_end_t *e = &t->node[d];
    if (fabric_connect(f, node0 + d, node_port, sw0 + e->id, e->port, latency, err, errlen)) return -1;
  }
  for (unsigned s = 0; s < t->nsw; s++)
    for (unsigned q = 0; q < t->sw_ports; q++) {
      const fabric_end_t *e = fabric_topo_peer(t, s, q);
      /* each switch-switch link once, from its lower (switch, port) end */
      if (e->kind != FABRIC_END_SWITCH || (e->id < s || (e->id == s && e->port < q))) continue;
      if (fabric_connect(f, sw0 + s, q, sw0 + e->id, e->port, latency, err, errlen)) return -1;
    }
  return 0;
}

void fabric_topo_csv(const fabric_topo_t *t, FILE *out) {
  static const char *const kind[] = {"none", "node", "switch"};
  fprintf(out, "switch,port,peer_kind,peer,peer_port\n");
  for (unsigned s = 0; s < t->nsw; s++)
    for (unsigned q = 0; q < t->sw_ports; q++) {
      const fabric_end_t *e = fabric_topo_peer(t, s, q);
      if (e->kind == FABRIC_END_NONE)
        fprintf(out, "%u,%u,none,,\n", s, q);
      else if (e->kind == FABRIC_END_NODE)
        fprintf(out, "%u,%u,node,%u,\n", s, q, e->id);
      else
        fprintf(out, "%u,%u,%s,%u,%u\n", s, q, kind[e->kind], e->id, e->port);
    }
}
