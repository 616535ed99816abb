/* Co-simulation targets of block ibsw: the switch model (csim/ibsw/) bound to generated
 * glue. Tests reach a target's ports through its view (ibsw_view_t, generated from the
 * `lanes` lines of rtl/ibsw/ibsw.cosim), so one piece of code serves every parameter set. */
#ifndef NETCOSIM_BIND_IBSW_H
#define NETCOSIM_BIND_IBSW_H

#include "cosim.h"
#include "ibsw/ibsw.h"
#include "ibsw_p24_ports.h"
#include "ibsw_p2_max_ports.h"
#include "ibsw_p31_ports.h"
#include "ibsw_p4_ports.h"
#include "ibsw_p8_w24_ports.h"

extern const cosim_target_t ibsw_p24_target;
extern const cosim_target_t ibsw_p4_target;
extern const cosim_target_t ibsw_p2_max_target;
extern const cosim_target_t ibsw_p31_target;
extern const cosim_target_t ibsw_p8_w24_target;

/* The model behind a handle of <target>.model.create (for a fabric instance type). */
void ibsw_bind_parts(void *m, const ibsw_cfg_t **cfg, ibsw_state_t **s, ibsw_next_t **nx);

#endif
