/* Co-simulation targets of block common: models bound to generated glue. */
#ifndef NETCOSIM_BIND_COMMON_H
#define NETCOSIM_BIND_COMMON_H

#include "cosim.h"
#include "common/common_counter.h"
#include "common/common_crc32.h"
#include "common/common_credit_counter.h"
#include "common/common_fifo.h"
#include "common/common_lfsr32.h"
#include "common/common_rr_arbiter.h"
#include "common_arb_n4_ports.h"
#include "common_arb_n5_ports.h"
#include "common_counter_w1_i1_sat_ports.h"
#include "common_counter_w32_i4_ports.h"
#include "common_counter_w4_i4_ports.h"
#include "common_counter_w8_i3_sat_ports.h"
#include "common_crc32_b4_ports.h"
#include "common_credit_v1_c1_ports.h"
#include "common_credit_v3_c5_ports.h"
#include "common_fifo_w1_d3_ports.h"
#include "common_fifo_w72_d4_ports.h"
#include "common_fifo_w8_d5_ports.h"
#include "common_lfsr32_s44257_ports.h"

extern const cosim_target_t common_fifo_w8_d5_target;
extern const cosim_target_t common_fifo_w72_d4_target;
extern const cosim_target_t common_fifo_w1_d3_target;
extern const cosim_target_t common_credit_v3_c5_target;
extern const cosim_target_t common_credit_v1_c1_target;
extern const cosim_target_t common_arb_n5_target;
extern const cosim_target_t common_arb_n4_target;
extern const cosim_target_t common_crc32_b4_target;
extern const cosim_target_t common_lfsr32_s44257_target;
extern const cosim_target_t common_counter_w32_i4_target;
extern const cosim_target_t common_counter_w8_i3_sat_target;
extern const cosim_target_t common_counter_w1_i1_sat_target;
extern const cosim_target_t common_counter_w4_i4_target;

#endif
