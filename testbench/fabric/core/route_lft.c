/* LFT routing plug-in: see route_lft.h. */
#include "route_lft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const route_lft_algo_names[3] = {"updn", "dor", "updn_mst"};

#define INF UINT32_MAX

static bool active(const route_lft_t *r, unsigned s, unsigned q) {
  const fabric_end_t *e = fabric_topo_peer(r->t, s, q);
  return e->kind == FABRIC_END_SWITCH && !r->off[(size_t)s * r->ports + q];
}
static uint64_t guid(unsigned s) { return ROUTE_LFT_GUID0 + s; }
/* a above b in tree tr: (rank, GUID) smaller */
static bool above(const route_lft_t *r, unsigned tr, unsigned a, unsigned b) {
  const uint32_t *rk = r->rank + (size_t)tr * r->nsw;
  return rk[a] != rk[b] ? rk[a] < rk[b] : guid(a) < guid(b);
}

void route_lft_free(route_lft_t *r) {
  free(r->off);
  free(r->rank);
  free(r->lft);
  memset(r, 0, sizeof *r);
}

/* BFS hops from `from` over the active links into dist[nsw] (INF: unreachable); the number reached. */
static unsigned bfs(const route_lft_t *r, unsigned from, uint32_t *dist, unsigned *q) {
  for (unsigned s = 0; s < r->nsw; s++) dist[s] = INF;
  unsigned h = 0, n = 0;
  dist[from] = 0;
  q[n++] = from;
  while (h < n) {
    unsigned s = q[h++];
    for (unsigned p = 0; p < r->ports; p++)
      if (active(r, s, p)) {
        unsigned b = fabric_topo_peer(r->t, s, p)->id;
        if (dist[b] == INF) {
          dist[b] = dist[s] + 1;
          q[n++] = b;
        }
      }
  }
  return n;
}

static int bfs_ranks(route_lft_t *r, unsigned tr, char *err, size_t errlen) {
  unsigned *q = malloc(r->nsw * sizeof *q);
  if (!q) {
    snprintf(err, errlen, "route %s: out of memory", route_lft_algo_names[r->algo]);
    return -1;
  }
  uint32_t *rk = r->rank + (size_t)tr * r->nsw;
  const unsigned n = bfs(r, r->roots[tr], rk, q);
  free(q);
  if (n != r->nsw) {
    unsigned s = 0;
    while (rk[s] != INF) s++;
    snprintf(err, errlen, "route %s: hole: switch %u is not reachable from root %u over the active links",
             route_lft_algo_names[r->algo], s, r->roots[tr]);
    return -1;
  }
  return 0;
}

/* Which of nc equal candidates destination d takes: a hash of d, not d mod nc, so that the
 * destinations of a permutation (bit reversal: the hosts of one switch send to LIDs equal in their
 * low bits) spread over parallel links (measured: d mod 4 put all 8 flows of a switch on one link). */
static unsigned spread(unsigned d, unsigned nc) {
  return (unsigned)(((uint64_t)(d + 1) * UINT64_C(2654435761) >> 16) % nc);
}

/* Candidate ports of s towards neighbours n with key(n) == want; pick by spread(). */
static unsigned pick(const route_lft_t *r, unsigned tr, unsigned s, unsigned d, const uint32_t *key,
                     uint32_t want, int dir) {
  unsigned cand[256], nc = 0;
  for (unsigned p = 0; p < r->ports && nc < 256; p++) {
    if (!active(r, s, p)) continue;
    unsigned b = fabric_topo_peer(r->t, s, p)->id;
    if (key[b] != want) continue;
    if (dir > 0 && !above(r, tr, b, s)) continue; /* up */
    if (dir < 0 && !above(r, tr, s, b)) continue; /* down */
    cand[nc++] = p;
  }
  return nc ? cand[spread(d, nc)] : ROUTE_LFT_NONE;
}

/* Tree tr's up* / down* table from its root r->roots[tr]. */
static int build_updn(route_lft_t *r, unsigned tr, char *err, size_t errlen) {
  if (bfs_ranks(r, tr, err, errlen)) return -1;
  uint8_t *lft = route_lft_table(r, tr);
  const unsigned N = r->nsw;
  uint32_t *dd = malloc(N * sizeof *dd), *dist = malloc(N * sizeof *dist);
  unsigned *q = malloc(N * sizeof *q), *order = malloc(N * sizeof *order);
  if (!dd || !dist || !q || !order) {
    free(dd), free(dist), free(q), free(order);
    snprintf(err, errlen, "route updn: out of memory");
    return -1;
  }
  /* switches from the top down: (rank, GUID) ascending */
  for (unsigned s = 0; s < N; s++) order[s] = s;
  for (unsigned i = 1; i < N; i++)
    for (unsigned j = i; j > 0 && above(r, tr, order[j], order[j - 1]); j--) {
      unsigned x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  int rc = 0;
  for (unsigned d = 0; d < r->nodes && !rc; d++) {
    const unsigned t = r->t->node[d].id;
    /* dd[s]: down hops alone from s to t (BFS from t against the down direction) */
    for (unsigned s = 0; s < N; s++) dd[s] = dist[s] = INF;
    unsigned h = 0, n = 0;
    dd[t] = 0;
    q[n++] = t;
    while (h < n) {
      unsigned b = q[h++];
      for (unsigned p = 0; p < r->ports; p++)
        if (active(r, b, p)) {
          unsigned s = fabric_topo_peer(r->t, b, p)->id;
          if (above(r, tr, s, b) && dd[s] == INF) { /* s -> b is a down hop */
            dd[s] = dd[b] + 1;
            q[n++] = s;
          }
        }
    }
    /* dist: dd where finite, else one up hop more than the best up neighbour (computed first) */
    for (unsigned i = 0; i < N; i++) {
      unsigned s = order[i];
      if (dd[s] != INF) {
        dist[s] = dd[s];
        continue;
      }
      for (unsigned p = 0; p < r->ports; p++)
        if (active(r, s, p)) {
          unsigned u = fabric_topo_peer(r->t, s, p)->id;
          if (above(r, tr, u, s) && dist[u] != INF && dist[u] + 1 < dist[s]) dist[s] = dist[u] + 1;
        }
    }
    for (unsigned s = 0; s < N; s++) {
      uint8_t *e = &lft[(size_t)s * r->nodes + d];
      if (s == t)
        *e = (uint8_t)r->t->node[d].port;
      else if (dd[s] != INF)
        *e = (uint8_t)pick(r, tr, s, d, dd, dd[s] - 1, -1);
      else if (dist[s] != INF)
        *e = (uint8_t)pick(r, tr, s, d, dist, dist[s] - 1, +1);
      if (*e == ROUTE_LFT_NONE) {
        snprintf(err, errlen, "route %s: hole: tree %u, switch %u has no legal next hop to LID %u",
                 route_lft_algo_names[r->algo], tr, s, route_lft_lid(r, d, tr));
        rc = -1;
        break;
      }
    }
  }
  free(dd), free(dist), free(q), free(order);
  return rc;
}

/* DOR: direction of the shorter way from a to b on a ring of n (0 none, +1, -1), a tie goes +. */
static int ring_dir(unsigned a, unsigned b, unsigned n) {
  if (a == b) return 0;
  unsigned fwd = (b + n - a) % n;
  return fwd <= n / 2 ? +1 : -1;
}

static int build_dor(route_lft_t *r, char *err, size_t errlen) {
  const fabric_topo_t *t = r->t;
  if (t->kind != FABRIC_TOPO_TORUS) {
    snprintf(err, errlen, "route dor: needs a 2-D torus");
    return -1;
  }
  if (bfs_ranks(r, 0, err, errlen)) return -1; /* ranks unused by DOR; connectivity checked */
  for (unsigned d = 0; d < r->nodes; d++) {
    const unsigned ts = t->node[d].id, tx = ts % t->x, ty = ts / t->x;
    for (unsigned s = 0; s < r->nsw; s++) {
      uint8_t *e = &r->lft[(size_t)s * r->nodes + d];
      const unsigned x = s % t->x, y = s / t->x;
      int dx = ring_dir(x, tx, t->x), dy = ring_dir(y, ty, t->y);
      if (!dx && !dy) {
        *e = (uint8_t)t->node[d].port;
        continue;
      }
      unsigned dir = dx > 0   ? FABRIC_TORUS_XP
                     : dx < 0 ? FABRIC_TORUS_XM
                     : dy > 0 ? FABRIC_TORUS_YP
                              : FABRIC_TORUS_YM;
      unsigned cand[16], nc = 0;
      for (unsigned j = 0; j < t->p; j++) {
        unsigned q = t->conc + dir * t->p + j;
        if (active(r, s, q)) cand[nc++] = q;
      }
      if (!nc) {
        static const char *const dn[4] = {"X+", "X-", "Y+", "Y-"};
        snprintf(err, errlen, "route dor: hole: switch %u has no active link %s (LID %u)", s, dn[dir], d + 1);
        return -1;
      }
      *e = (uint8_t)cand[spread(d, nc)];
    }
  }
  return 0;
}

/* Roots of the trees (ours, docs/ibsw.md §12): tree 0's is `root`; tree k's the switch with the
 * largest BFS distance (active links) to its nearest root chosen so far, ties to the smallest index. */
static int pick_roots(route_lft_t *r, char *err, size_t errlen) {
  uint32_t *near = malloc(r->nsw * sizeof *near), *dist = malloc(r->nsw * sizeof *dist);
  unsigned *q = malloc(r->nsw * sizeof *q);
  if (!near || !dist || !q) {
    free(near), free(dist), free(q);
    snprintf(err, errlen, "route %s: out of memory", route_lft_algo_names[r->algo]);
    return -1;
  }
  for (unsigned s = 0; s < r->nsw; s++) near[s] = INF;
  for (unsigned k = 0; k < r->trees; k++) {
    if (k) {
      unsigned best = r->nsw;
      for (unsigned s = 0; s < r->nsw; s++)
        if (near[s] != INF && near[s] > 0 && (best == r->nsw || near[s] > near[best])) best = s;
      r->roots[k] = best == r->nsw ? r->roots[k - 1] : best; /* fewer switches than trees: reuse */
    }
    bfs(r, r->roots[k], dist, q);
    for (unsigned s = 0; s < r->nsw; s++)
      if (dist[s] < near[s]) near[s] = dist[s];
  }
  free(near), free(dist), free(q);
  return 0;
}

static int build(route_lft_t *r, const fabric_topo_t *t, route_lft_algo_t algo, const uint8_t *off,
                 unsigned root, unsigned vls, unsigned trees, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  r->algo = algo;
  r->t = t;
  r->nsw = t->nsw;
  r->nodes = t->nodes;
  r->ports = t->sw_ports;
  r->root = root;
  r->vls = algo == ROUTE_LFT_DOR ? 1 : vls;
  r->trees = algo == ROUTE_LFT_UPDN_MST ? trees : 1;
  while ((1u << r->lmc) < r->trees) r->lmc++;
  if (algo != ROUTE_LFT_DOR && (vls < 1 || vls > 8)) { /* route_lft_check's channels have 8 VLs */
    snprintf(err, errlen, "route %s: %u data VLs, expected 1..8", route_lft_algo_names[algo], vls);
    return -1;
  }
  if (algo == ROUTE_LFT_UPDN_MST && (trees < 1 || trees > vls || trees > ROUTE_LFT_MAX_TREES)) {
    snprintf(err, errlen, "route updn_mst: %u trees, expected 1..%u (one VL at least per tree)", trees,
             vls < ROUTE_LFT_MAX_TREES ? vls : ROUTE_LFT_MAX_TREES);
    return -1;
  }
  if (root >= t->nsw) {
    snprintf(err, errlen, "route %s: root %u out of range 0..%u", route_lft_algo_names[algo], root,
             t->nsw - 1);
    return -1;
  }
  if (t->sw_ports > 254 || (((uint64_t)t->nodes + 1) << r->lmc) - 1 > 0xBFFF) {
    snprintf(err, errlen, "route %s: needs at most 254 ports and the LIDs (nodes + 1) << LMC below 0xC000",
             route_lft_algo_names[algo]);
    return -1;
  }
  r->roots[0] = root;
  r->off = calloc((size_t)r->nsw * r->ports, 1);
  r->rank = calloc((size_t)r->trees * r->nsw, sizeof *r->rank);
  r->lft = malloc((size_t)r->trees * r->nsw * r->nodes);
  if (!r->off || !r->rank || !r->lft) {
    route_lft_free(r);
    snprintf(err, errlen, "route: out of memory");
    return -1;
  }
  if (off) memcpy(r->off, off, (size_t)r->nsw * r->ports);
  for (size_t i = 0; i < (size_t)r->nsw * r->ports; i++)
    if (r->off[i]) { /* both ends */
      const fabric_end_t *e = fabric_topo_peer(t, (unsigned)(i / r->ports), (unsigned)(i % r->ports));
      if (e->kind != FABRIC_END_SWITCH || !r->off[(size_t)e->id * r->ports + e->port]) {
        snprintf(err, errlen, "route: switch %zu port %zu marked off, but not a switch link off at both ends",
                 i / r->ports, i % r->ports);
        route_lft_free(r);
        return -1;
      }
    }
  memset(r->lft, ROUTE_LFT_NONE, (size_t)r->trees * r->nsw * r->nodes);
  int rc = 0;
  if (algo == ROUTE_LFT_DOR)
    rc = build_dor(r, err, errlen);
  else {
    rc = pick_roots(r, err, errlen);
    for (unsigned k = 0; k < r->trees && !rc; k++) rc = build_updn(r, k, err, errlen);
  }
  if (rc) {
    route_lft_free(r);
    return -1;
  }
  return 0;
}

int route_lft_build(route_lft_t *r, const fabric_topo_t *t, route_lft_algo_t algo, const uint8_t *off,
                    unsigned root, unsigned vls, char *err, size_t errlen) {
  return build(r, t, algo, off, root, vls, vls < ROUTE_LFT_MAX_TREES ? vls : ROUTE_LFT_MAX_TREES, err,
               errlen);
}

int route_lft_build_mst(route_lft_t *r, const fabric_topo_t *t, const uint8_t *off, unsigned root,
                        unsigned vls, unsigned trees, char *err, size_t errlen) {
  return build(r, t, ROUTE_LFT_UPDN_MST, off, root, vls, trees, err, errlen);
}

/* A flow's hash (ours): tree = h mod T, the VL among the tree's by h / T. */
static uint32_t flow_hash(unsigned src, unsigned dst) {
  uint64_t x = (uint64_t)src << 32 | dst;
  x = (x ^ (x >> 33)) * UINT64_C(0xFF51AFD7ED558CCD);
  x = (x ^ (x >> 33)) * UINT64_C(0xC4CEB9FE1A85EC53);
  return (uint32_t)(x ^ (x >> 33));
}

unsigned route_lft_tree(const route_lft_t *r, unsigned src, unsigned dst) {
  return r->trees > 1 ? flow_hash(src, dst) % r->trees : 0;
}

unsigned route_lft_lid(const route_lft_t *r, unsigned d, unsigned t) { return ((d + 1) << r->lmc) + t; }
unsigned route_lft_top(const route_lft_t *r) { return ((r->nodes + 1) << r->lmc) - 1; }
unsigned route_lft_dlid(const route_lft_t *r, unsigned src, unsigned dst) {
  return route_lft_lid(r, dst, route_lft_tree(r, src, dst));
}

unsigned route_lft_vl(const route_lft_t *r, unsigned src, unsigned dst) {
  if (r->one_vl) return 0;
  if (r->algo == ROUTE_LFT_UPDN_MST) { /* tree t's VLs: t, t + T, ... below vls */
    const unsigned T = r->trees, h = flow_hash(src, dst), t = h % T, nv = (r->vls - t + T - 1) / T;
    const unsigned own = t == 1 && r->mst_bug == ROUTE_LFT_MST_BUG_SHARED_VL ? 0 : t; /* planted */
    return own + T * (h / T % nv);
  }
  if (r->algo != ROUTE_LFT_DOR) return r->vls > 1 ? (src + dst) % r->vls : 0;
  const fabric_topo_t *t = r->t;
  const unsigned a = t->node[src].id, b = t->node[dst].id;
  const unsigned ax = a % t->x, ay = a / t->x, bx = b % t->x, by = b / t->x;
  int dx = ring_dir(ax, bx, t->x), dy = ring_dir(ay, by, t->y);
  unsigned wx = (dx > 0 && bx < ax) || (dx < 0 && bx > ax);
  unsigned wy = (dy > 0 && by < ay) || (dy < 0 && by > ay);
  return wx | wy << 1;
}

/* ---- the check ------------------------------------------------------------------ */

typedef struct {
  uint32_t from, to;
} edge_t;

int route_lft_check(const route_lft_t *r, const char **what, char *err, size_t errlen) {
  const fabric_topo_t *t = r->t;
  const unsigned NV = 8;
  const size_t nch = (size_t)r->nsw * r->ports * NV;
  size_t ne = 0, cap = 1u << 16;
  edge_t *ed = malloc(cap * sizeof *ed);
  if (!ed) {
    *what = "hole";
    snprintf(err, errlen, "route check: out of memory");
    return -1;
  }
  int rc = 0;
  const bool mst = r->algo == ROUTE_LFT_UPDN_MST;
  unsigned *srcn = malloc(r->nodes * sizeof *srcn); /* the nodes of one source switch */
  if (!srcn) {
    free(ed);
    *what = "hole";
    snprintf(err, errlen, "route check: out of memory");
    return -1;
  }
  for (unsigned src = 0; src < r->nsw && !rc; src++) {
    /* the nodes injecting at this switch: their flows' VLs are the channels' (a path depends on the
       source switch, the tree and the destination only; DOR's class on the source switch) */
    unsigned sn = 0;
    while (sn < r->nodes && t->node[sn].id != src) sn++;
    if (sn == r->nodes) continue; /* no node injects here */
    unsigned nsn = 0;
    for (unsigned n = sn; n < r->nodes; n++)
      if (t->node[n].id == src) srcn[nsn++] = n;
    for (unsigned d = 0; d < r->nodes && !rc; d++) {
      /* vlm[tr]: the VLs tree tr's path from src to d is used on; UPDN_MST also its tree's own
         first VL, so every entry of every tree's table is in the graph. Single-tree up* / down*
         spreads flows over VLs by the source node: all its paths go into one graph (VL 0), a
         superset of every VL's: if it has no cycle, no VL has one. */
      unsigned vlm[ROUTE_LFT_MAX_TREES];
      for (unsigned tr = 0; tr < r->trees; tr++) vlm[tr] = mst ? 1u << tr : 0;
      if (r->algo == ROUTE_LFT_UPDN)
        vlm[0] = 1;
      else if (r->algo == ROUTE_LFT_DOR) /* the class depends on the source switch alone */
        vlm[0] = 1u << (route_lft_vl(r, srcn[0], d) & 7);
      else
        for (unsigned i = 0; i < nsn; i++)
          vlm[route_lft_tree(r, srcn[i], d)] |= 1u << (route_lft_vl(r, srcn[i], d) & 7);
      for (unsigned tr = 0; tr < r->trees && !rc; tr++) {
        const uint8_t *lft = route_lft_table(r, tr);
        const unsigned lid = route_lft_lid(r, d, tr);
        unsigned cur = src, hops = 0, phase = 0; /* updn: 0 up, 1 down; dor: 0 X, 1 Y */
        uint32_t prev = UINT32_MAX;
        for (;;) {
          const uint8_t e = lft[(size_t)cur * r->nodes + d];
          const fabric_end_t *pe = e < r->ports ? fabric_topo_peer(t, cur, e) : NULL;
          if (e == ROUTE_LFT_NONE || !pe || pe->kind == FABRIC_END_NONE ||
              (pe->kind == FABRIC_END_SWITCH && r->off[(size_t)cur * r->ports + e])) {
            *what = "hole";
            snprintf(err, errlen, "route %s: hole: tree %u, switch %u, LID %u: entry %u is %s",
                     route_lft_algo_names[r->algo], tr, cur, lid, e,
                     e == ROUTE_LFT_NONE                  ? "empty"
                     : !pe || pe->kind == FABRIC_END_NONE ? "an unwired port"
                                                          : "a deactivated link");
            rc = -1;
            break;
          }
          const uint32_t ch = (uint32_t)(((size_t)cur * r->ports + e) * NV);
          if (prev != UINT32_MAX)
            for (unsigned v = 0; v < NV && !rc; v++) {
              if (!(vlm[tr] >> v & 1u)) continue;
              if (ne == cap) {
                edge_t *n2 = realloc(ed, 2 * cap * sizeof *ed);
                if (!n2) {
                  *what = "hole";
                  snprintf(err, errlen, "route check: out of memory");
                  rc = -1;
                  break;
                }
                ed = n2;
                cap *= 2;
              }
              ed[ne++] = (edge_t){prev + v, ch + v};
            }
          if (rc) break;
          prev = ch;
          if (pe->kind == FABRIC_END_NODE) {
            if (pe->id != d) {
              *what = "misroute";
              snprintf(err, errlen,
                       "route %s: misroute: tree %u, LID %u from switch %u delivered to node %u at switch %u",
                       route_lft_algo_names[r->algo], tr, lid, src, pe->id, cur);
              rc = -1;
            }
            break;
          }
          const unsigned nxt = pe->id;
          if (r->no_turns) {
          } else if (r->algo != ROUTE_LFT_DOR) {
            const unsigned up = above(r, tr, nxt, cur);
            if (up && phase == 1) {
              *what = "illegal";
              snprintf(
                  err, errlen,
                  "route %s: illegal: tree %u (root %u), LID %u from switch %u turns down->up at switch %u",
                  route_lft_algo_names[r->algo], tr, r->roots[tr], lid, src, cur);
              rc = -1;
              break;
            }
            if (!up) phase = 1;
          } else {
            const unsigned dir = (e - t->conc) / t->p, isy = dir >= FABRIC_TORUS_YP;
            if (!isy && phase == 1) {
              *what = "illegal";
              snprintf(err, errlen,
                       "route dor: illegal: LID %u from switch %u moves in X after Y at switch %u", lid, src,
                       cur);
              rc = -1;
              break;
            }
            if (isy) phase = 1;
          }
          cur = nxt;
          if (++hops > r->nsw) {
            *what = "loop";
            snprintf(err, errlen, "route %s: loop: tree %u, LID %u from switch %u does not arrive in %u hops",
                     route_lft_algo_names[r->algo], tr, lid, src, r->nsw);
            rc = -1;
            break;
          }
        }
      }
    }
  }
  free(srcn);
  if (!rc) { /* Kahn: the dependency graph is acyclic iff every channel is removed */
    uint32_t *indeg = calloc(nch, sizeof *indeg), *start = calloc(nch + 1, sizeof *start);
    uint32_t *adj = malloc((ne ? ne : 1) * sizeof *adj), *q = malloc(nch * sizeof *q);
    if (!indeg || !start || !adj || !q) {
      *what = "hole";
      snprintf(err, errlen, "route check: out of memory");
      rc = -1;
    } else {
      for (size_t i = 0; i < ne; i++) start[ed[i].from + 1]++, indeg[ed[i].to]++;
      for (size_t c = 0; c < nch; c++) start[c + 1] += start[c];
      uint32_t *fill = calloc(nch, sizeof *fill);
      for (size_t i = 0; fill && i < ne; i++) adj[start[ed[i].from] + fill[ed[i].from]++] = ed[i].to;
      free(fill);
      size_t h = 0, n = 0;
      for (size_t c = 0; c < nch; c++)
        if (!indeg[c]) q[n++] = (uint32_t)c;
      while (h < n) {
        uint32_t c = q[h++];
        for (uint32_t k = start[c]; k < start[c + 1]; k++)
          if (--indeg[adj[k]] == 0) q[n++] = adj[k];
      }
      if (n != nch) {
        size_t c = 0;
        while (!indeg[c]) c++;
        *what = "cycle";
        snprintf(err, errlen,
                 "route %s: cycle: the channel dependency graph is not acyclic (first channel left unsorted: "
                 "switch %zu port %zu VL %zu)",
                 route_lft_algo_names[r->algo], c / NV / r->ports, c / NV % r->ports, c % NV);
        rc = -1;
      }
    }
    free(indeg), free(start), free(adj), free(q);
  }
  free(ed);
  return rc;
}

/* ---- link choice ---------------------------------------------------------------- */

static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

int route_lft_pick_off(const fabric_topo_t *t, unsigned k, uint64_t seed, uint8_t *off, char *err,
                       size_t errlen) {
  const unsigned P = t->sw_ports;
  /* neighbour pairs (a < b, or a == b never): their parallel links */
  typedef struct {
    unsigned a, b, dir, n;
    uint16_t pa[64];
  } pair_t;
  pair_t *pr = calloc((size_t)t->nsw * P, sizeof *pr);
  unsigned np = 0, maxoff = 0;
  if (!pr) {
    snprintf(err, errlen, "link choice: out of memory");
    return -1;
  }
  for (unsigned s = 0; s < t->nsw; s++)
    for (unsigned q = 0; q < P; q++) {
      const fabric_end_t *e = fabric_topo_peer(t, s, q);
      if (e->kind != FABRIC_END_SWITCH || e->id < s || (e->id == s && e->port < q)) continue;
      /* on a torus a pair is also a direction (a 2-wide ring joins the same two switches twice) */
      const unsigned dir = t->kind == FABRIC_TOPO_TORUS && q >= t->conc ? (q - t->conc) / t->p : 0;
      unsigned i = 0;
      while (i < np && !(pr[i].a == s && pr[i].b == e->id && pr[i].dir == dir)) i++;
      if (i == np) pr[np++] = (pair_t){s, e->id, dir, 0, {0}};
      if (pr[i].n < 64) pr[i].pa[pr[i].n++] = (uint16_t)q;
    }
  for (unsigned i = 0; i < np; i++) maxoff += pr[i].n - 1;
  if (k > maxoff) {
    snprintf(err, errlen,
             "link choice: %u links to deactivate, at most %u (keeping one link between neighbours)", k,
             maxoff);
    free(pr);
    return -1;
  }
  /* seeded order of the pairs (Fisher-Yates on a splitmix stream) */
  unsigned *ord = malloc((np ? np : 1) * sizeof *ord);
  if (!ord) {
    free(pr);
    snprintf(err, errlen, "link choice: out of memory");
    return -1;
  }
  for (unsigned i = 0; i < np; i++) ord[i] = i;
  uint64_t st = seed;
  for (unsigned i = np; i > 1; i--) {
    st = mix(st);
    unsigned j = (unsigned)(st % i), x = ord[i - 1];
    ord[i - 1] = ord[j];
    ord[j] = x;
  }
  for (unsigned round = 1; k; round++)
    for (unsigned i = 0; i < np && k; i++) {
      pair_t *p = &pr[ord[i]];
      if (p->n <= round) continue;
      unsigned q = p->pa[p->n - round]; /* highest parallel port first */
      const fabric_end_t *e = fabric_topo_peer(t, p->a, q);
      off[(size_t)p->a * P + q] = 1;
      off[(size_t)e->id * P + e->port] = 1;
      k--;
    }
  free(ord);
  free(pr);
  return 0;
}

/* ---- the plug-in -------------------------------------------------------------------- */

static int lft_route(const void *ctx, const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *word,
                     unsigned *hops, char *err, size_t errlen) {
  const route_lft_t *r = ctx;
  if (!r || r->t != t || src >= t->nodes || dst >= t->nodes) {
    snprintf(err, errlen, "lft route: no table for this topology, or node out of range");
    return -1;
  }
  const unsigned lid = route_lft_dlid(r, src, dst);
  const uint8_t *lft = route_lft_table(r, route_lft_tree(r, src, dst));
  unsigned cur = t->node[src].id, n = 1;
  for (;;) {
    uint8_t e = lft[(size_t)cur * r->nodes + dst];
    if (e >= r->ports) {
      snprintf(err, errlen, "lft route: hole at switch %u for LID %u", cur, lid);
      return -1;
    }
    const fabric_end_t *pe = fabric_topo_peer(t, cur, e);
    if (pe->kind != FABRIC_END_SWITCH) break;
    cur = pe->id;
    if (++n > r->nsw) {
      snprintf(err, errlen, "lft route: loop for LID %u", lid);
      return -1;
    }
  }
  *word = (uint64_t)lid << 48 | (uint64_t)route_lft_lid(r, src, 0) << 32;
  *hops = n;
  return 0;
}

const fabric_router_t route_lft_router = {"lft", lft_route, NULL};
void route_lft_router_init(fabric_router_t *rt, const route_lft_t *r) {
  *rt = route_lft_router;
  rt->ctx = r;
}
