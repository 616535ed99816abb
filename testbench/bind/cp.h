/* Co-simulation targets of block cp: the CP model bound to generated glue. */
#ifndef NETCOSIM_BIND_CP_H
#define NETCOSIM_BIND_CP_H

#include "cosim.h"
#include "cp/cp.h"
#include "cp_exp_ports.h"
#include "cp_q20_f8_ports.h"

extern const cosim_target_t cp_q20_f8_target;
extern const cosim_target_t cp_exp_target;

#endif
