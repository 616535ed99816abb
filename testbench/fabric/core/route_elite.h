/* The Elite source route as a routing plug-in (csim/fabric/fabric_route.h):
 * on a k-ary n-tree, one adaptive up tag (TagUp, 13) per up hop, then the
 * explicit down ports from the turning switch to the leaf, front tag in bits
 * [3:0], unused tags 0xF (docs/elite4.md §3, §11.2). src == dst: a U-turn at
 * the leaf. Tags are 4 bits, so k <= 13 and at most 8 tags (n <= 4); when a
 * path's up tags do not fit, they are one counted up tag (TagUpN, 12, and the
 * count; ours), legal on switches of at most 12 ports: k <= 6, n <= 6. */
#ifndef NETCOSIM_ROUTE_ELITE_H
#define NETCOSIM_ROUTE_ELITE_H

#include "fabric/fabric_route.h"

extern const fabric_router_t route_elite;

#endif
