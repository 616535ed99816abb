/* Co-simulation targets of block elite4: the switch model bound to generated
 * glue. Tests and the fabric reach a target's ports through its view
 * (elite4_view_t, generated from the `lanes` lines of rtl/elite4/elite4.cosim),
 * so one piece of code serves every parameter set. */
#ifndef NETCOSIM_BIND_ELITE4_H
#define NETCOSIM_BIND_ELITE4_H

#include "cosim.h"
#include "elite4/elite4.h"
#include "elite4_p16_v4_ports.h"
#include "elite4_p2_ports.h"
#include "elite4_p4_ports.h"
#include "elite4_p4_u0_ports.h"
#include "elite4_p8_ports.h"
#include "elite4_p8_v4_ports.h"

extern const cosim_target_t elite4_p8_target;
extern const cosim_target_t elite4_p4_target;
extern const cosim_target_t elite4_p8_v4_target;
extern const cosim_target_t elite4_p2_target;
extern const cosim_target_t elite4_p16_v4_target;
extern const cosim_target_t elite4_p4_u0_target;

/* The model behind a handle of <target>.model.create (bind/fabric_elite4.c). */
void elite4_bind_parts(void *m, const elite4_cfg_t **cfg, elite4_state_t **s, elite4_next_t **nx);

#endif
