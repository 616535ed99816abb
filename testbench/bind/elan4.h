/* Co-simulation targets of block elan4 (rtl/elan4/elan4.cosim): the NIC model
 * (csim/elan4/) bound to generated glue; tests reach the ports through the
 * target's view (elan4_view_t), one piece of code for every parameter set. */
#ifndef NETCOSIM_BIND_ELAN4_H
#define NETCOSIM_BIND_ELAN4_H

#include "cosim.h"
#include "elan4/elan4.h"
#include "elan4_default_ports.h"
#include "elan4_max_ports.h"
#include "elan4_min_ports.h"
#include "elan4_onetag_ports.h"
#include "elan4_onevc_ports.h"

extern const cosim_target_t elan4_default_target;
/* elan4_default's model with NumNodes = num_nodes (2..4096), driven by elan4_default_target's
   model ops; NULL if refused (testbench/bind/elan4.c). */
void *elan4_default_model_nodes(unsigned num_nodes, unsigned bug);
extern const cosim_target_t elan4_min_target;
extern const cosim_target_t elan4_max_target;
extern const cosim_target_t elan4_onevc_target;
extern const cosim_target_t elan4_onetag_target;

#endif
