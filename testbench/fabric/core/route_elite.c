/* The Elite source route plug-in: see route_elite.h. */
#include "route_elite.h"

#include <stdio.h>

#define TAG_UP 13u /* ELITE4_TAG_UP */

static int elite_route(const void *ctx, const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *word,
                       unsigned *hops, char *err, size_t errlen) {
  (void)ctx;
  if (t->kind != FABRIC_TOPO_TREE || t->k > TAG_UP || 2 * t->n - 1 > 8) {
    snprintf(err, errlen, "elite route: needs a k-ary n-tree with k <= 13 and n <= 4");
    return -1;
  }
  if (src >= t->nodes || dst >= t->nodes) {
    snprintf(err, errlen, "elite route: node %u out of range (%u nodes)", src >= t->nodes ? src : dst,
             t->nodes);
    return -1;
  }
  uint8_t down[16];
  const unsigned u = fabric_tree_route(t, src, dst, down);
  uint32_t w = 0xFFFFFFFFu;
  unsigned n = 0;
  for (unsigned i = 0; i < u; i++, n++) w = (w & ~(0xFu << (4 * n))) | (TAG_UP << (4 * n));
  for (unsigned i = 0; i <= u; i++, n++) w = (w & ~(0xFu << (4 * n))) | ((uint32_t)down[i] << (4 * n));
  *word = w;
  *hops = n;
  return 0;
}

const fabric_router_t route_elite = {"elite", elite_route, NULL};
