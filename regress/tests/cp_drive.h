/* Driving cp_q20_f8's configuration port from a test (docs/cp.md §6): one
 * register write per cycle, the same three pins in every cp test. */
#ifndef CP_DRIVE_H
#define CP_DRIVE_H

#include <stdint.h>

#include "bind/cp.h"

typedef struct {
  uint8_t addr;
  uint32_t data;
} cp_cfg_write_t;

static inline void cp_drive_cfg(cp_q20_f8_in_t *in, uint8_t addr, uint32_t data) {
  in->cfg_we_i = 1;
  in->cfg_addr_i = addr;
  in->cfg_wdata_i = data;
}

#endif
