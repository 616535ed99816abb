/* Co-simulation targets of block link: the link model bound to generated glue.
 * Tests reach a target's ports through its view (link_view_t), so one test
 * serves every parameter set (rtl/link/link.cosim). */
#ifndef NETCOSIM_BIND_LINK_H
#define NETCOSIM_BIND_LINK_H

#include "cosim.h"
#include "link/link.h"
#include "link_250_ports.h"
#include "link_400_4b5b_w0_ports.h"
#include "link_400_ports.h"
#include "link_4b5b_333_ports.h"

extern const cosim_target_t link_250_target;
extern const cosim_target_t link_4b5b_333_target;
extern const cosim_target_t link_400_target;
extern const cosim_target_t link_400_4b5b_w0_target;

#endif
