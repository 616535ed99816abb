/* elite4 fabric topology and routes: see e4t_topo.h. */
#include "e4t_topo.h"

#include <errno.h>
#include <string.h>

#include "elite4/elite4.h" /* tag constants only */

static unsigned digit(unsigned x, unsigned i) { return (x >> (2 * i)) & 3u; }
static unsigned set_digit(unsigned x, unsigned i, unsigned d) {
  return (x & ~(3u << (2 * i))) | (d << (2 * i));
}

int e4t_topo_build(e4t_topo_t *t, unsigned nodes) {
  memset(t, 0, sizeof *t);
  unsigned levels = 0;
  for (unsigned n = nodes; n > 1 && n % 4 == 0; n /= 4) levels++;
  if (nodes < 4 || nodes != 1u << (2 * levels) || levels > E4T_MAX_LEVELS) return -EINVAL;
  t->nodes = nodes;
  t->levels = levels;
  t->per_level = nodes / 4;
  t->nsw = levels * t->per_level;
  for (unsigned d = 0; d < nodes; d++) {
    unsigned s = d / 4;
    t->leaf_sw[d] = (uint16_t)s;
    t->peer[s][d % 4] = (e4t_peer_t){E4T_PEER_NIC, 0, (uint16_t)d};
  }
  /* (l, w) up port 4 + j <-> (l + 1, w with digit l := j) down port w_l */
  for (unsigned l = 0; l + 1 < levels; l++)
    for (unsigned w = 0; w < t->per_level; w++)
      for (unsigned j = 0; j < 4; j++) {
        unsigned s = l * t->per_level + w, u = (l + 1) * t->per_level + set_digit(w, l, j), q = digit(w, l);
        t->peer[s][4 + j] = (e4t_peer_t){E4T_PEER_SW, (uint8_t)q, (uint16_t)u};
        t->peer[u][q] = (e4t_peer_t){E4T_PEER_SW, (uint8_t)(4 + j), (uint16_t)s};
      }
  return 0;
}

unsigned e4t_route(const e4t_topo_t *t, unsigned src, unsigned dst, uint32_t *word, uint8_t *tags) {
  unsigned nsw;
  e4t_route_tags(t, src, dst, word, tags, &nsw);
  return nsw;
}

unsigned e4t_route_tags(const e4t_topo_t *t, unsigned src, unsigned dst, uint32_t *word, uint8_t *tags,
                        unsigned *nsw) {
  unsigned top = 0;
  while (top + 1 < t->levels && (src >> (2 * (top + 1))) != (dst >> (2 * (top + 1)))) top++;
  unsigned n = 0;
  if (2 * top + 1 > E4T_MAX_TAGS) { /* docs/elite4.md §3: TagUpN, count top */
    tags[n++] = ELITE4_TAG_UPN;
    tags[n++] = (uint8_t)top;
  } else {
    for (unsigned l = 0; l < top; l++) tags[n++] = ELITE4_TAG_UP;
  }
  for (unsigned l = top + 1; l-- > 0;) tags[n++] = (uint8_t)digit(dst, l);
  /* the route word (docs/elite4.md §3), built here rather than with the
     model's helper: front tag in bits [3:0], unused tags 0xF */
  uint32_t w = 0xFFFFFFFFu;
  for (unsigned i = 0; i < n && i < E4T_MAX_TAGS; i++)
    w = (w & ~(0xFu << (4 * i))) | ((uint32_t)(tags[i] & 0xFu) << (4 * i));
  *word = w;
  *nsw = 2 * top + 1;
  return n;
}

void e4t_topo_csv(const e4t_topo_t *t, FILE *f) {
  static const char *const kind[] = {"none", "nic", "switch"};
  fprintf(f, "switch,level,index,port,dir,peer_kind,peer,peer_port\n");
  for (unsigned s = 0; s < t->nsw; s++)
    for (unsigned p = 0; p < E4T_TOPO_PORTS; p++) {
      const e4t_peer_t *e = &t->peer[s][p];
      fprintf(f, "%u,%u,%u,%u,%s,%s,", s, e4t_sw_level(t, s), e4t_sw_index(t, s), p, p < 4 ? "down" : "up",
              kind[e->kind]);
      if (e->kind == E4T_PEER_NONE)
        fprintf(f, ",\n");
      else if (e->kind == E4T_PEER_NIC)
        fprintf(f, "%u,\n", e->id);
      else
        fprintf(f, "%u,%u\n", e->id, e->port);
    }
}
