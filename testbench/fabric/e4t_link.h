/* elite4 fabric: one direction of a link in one cycle, as the NIC sees it
 * (the core's links carry fabric_flit_t, csim/fabric/fabric.h).
 *
 * Link-latency convention (docs/elite4.md "Fabrics"): what an instance puts
 * on its outputs in fabric cycle c is on its neighbour's inputs in cycle
 * c + D (D = --link-delay, default 1). A switch's outputs are registers, so
 * with D = 1 a link is exactly the one register stage between blocks of docs/architecture.md ("Clocks and time"). */
#ifndef E4T_LINK_H
#define E4T_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "bind/elite4.h"

#ifdef __cplusplus
extern "C" {
#endif

#define E4T_PORTS          ((unsigned)ELITE4_P8_PARAM_NumPorts) /* 8: ports 0..3 down, 4..7 up */
#define E4T_VCS            ((unsigned)ELITE4_P8_PARAM_NumVcs)   /* 2 */
#define E4T_DEPTH          ((unsigned)ELITE4_P8_PARAM_BufDepth) /* 8 flits = credits per VC */
#define E4T_DOWN           4u                                   /* radix: ports 0..3 down */
#define E4T_MAX_LINK_DELAY 64u

/* One direction of a link in one cycle: at most one flit, plus one credit
 * return per VC for flits that travelled the other way. */
typedef struct {
  bool valid;
  uint8_t kind, vc;
  uint32_t data;
  bool credit[E4T_VCS];
} e4t_flit_t;

#ifdef __cplusplus
}
#endif
#endif
