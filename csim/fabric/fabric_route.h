/* Routing plug-ins of the generic fabric (docs/fabric.md "Routing"): what an
 * endpoint puts in a packet's header to reach dst from src over topology t.
 * A source-routed block (elite4) builds a route word here; a block with
 * forwarding tables fills them through the configuration channel
 * (fabric_config) from the same plug-in. No block names in the core: the
 * plug-ins themselves live in testbench/. */
#ifndef NETCOSIM_FABRIC_ROUTE_H
#define NETCOSIM_FABRIC_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric_topo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name;
  /* The header route src -> dst: *word, and *hops the switches it crosses;
   * 0, or -1 with err (no route on this topology). */
  int (*route)(const void *ctx, const fabric_topo_t *t, unsigned src, unsigned dst, uint64_t *word,
               unsigned *hops, char *err, size_t errlen);
  const void *ctx;
} fabric_router_t;

#ifdef __cplusplus
}
#endif
#endif
