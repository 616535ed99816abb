/* The Elite source route plug-in: see route_elite.h. */
#include "route_elite.h"

#include <stdio.h>

#define TAG_UPN 12u /* ELITE4_TAG_UPN: counted up, the next tag the count (ours) */
#define TAG_UP  13u /* ELITE4_TAG_UP */

static int elite_route(const void *ctx, const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *word,
                       unsigned *hops, char *err, size_t errlen) {
  (void)ctx;
  /* n <= 4: plain up tags, 2n - 1 <= 8 of them; n = 5, 6: the longest paths need TagUpN,
     which exists only on switches of at most 12 ports (2k <= 12), and u + 3 <= 8 tags */
  if (t->kind != FABRIC_TOPO_TREE || t->k > TAG_UP || t->n > 6 || (t->n > 4 && 2 * t->k > TAG_UPN)) {
    snprintf(err, errlen, "elite route: needs a k-ary n-tree with k <= 13 and n <= 4, or k <= 6 and n <= 6");
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
  if (2 * u + 1 > 8) { /* the up tags do not fit: one TagUpN, count u (docs/elite4.md §3) */
    w = (w & ~0xFFu) | (u << 4) | TAG_UPN;
    n = 2;
  } else {
    for (unsigned i = 0; i < u; i++, n++) w = (w & ~(0xFu << (4 * n))) | (TAG_UP << (4 * n));
  }
  for (unsigned i = 0; i <= u; i++, n++) w = (w & ~(0xFu << (4 * n))) | ((uint32_t)down[i] << (4 * n));
  *word = w;
  *hops = 2 * u + 1;
  return 0;
}

const fabric_router_t route_elite = {"elite", elite_route, NULL};
