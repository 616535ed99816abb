/* Co-simulation targets of block elite4: the switch model bound to generated glue. */
#ifndef NETCOSIM_BIND_ELITE4_H
#define NETCOSIM_BIND_ELITE4_H

#include <string.h>

#include "cosim.h"
#include "elite4/elite4.h"
#include "elite4_p4_ports.h"
#include "elite4_p8_ports.h"

extern const cosim_target_t elite4_p8_target;
extern const cosim_target_t elite4_p4_target;

/* Bits [lsb, lsb+w) of a port field (w <= 32). Port storage is little-endian
 * whatever its C type (uint8..64_t, or uint32_t words), so one accessor serves all. */
static inline uint32_t e4_bits(const void *field, size_t bytes, unsigned lsb, unsigned w) {
  uint64_t v = 0;
  size_t b = lsb / 8, n = bytes - b < 8 ? bytes - b : 8;
  memcpy(&v, (const uint8_t *)field + b, n);
  return (uint32_t)((v >> (lsb % 8)) & ((1ULL << w) - 1));
}
static inline void e4_set_bits(void *field, size_t bytes, unsigned lsb, unsigned w, uint32_t val) {
  uint64_t v = 0, m = ((1ULL << w) - 1) << (lsb % 8);
  size_t b = lsb / 8, n = bytes - b < 8 ? bytes - b : 8;
  memcpy(&v, (uint8_t *)field + b, n);
  v = (v & ~m) | (((uint64_t)val << (lsb % 8)) & m);
  memcpy((uint8_t *)field + b, &v, n);
}
#define E4_GET(s, f, lsb, w) e4_bits(&(s)->f, sizeof((s)->f), (lsb), (w))
#define E4_SET(s, f, lsb, w, v) e4_set_bits(&(s)->f, sizeof((s)->f), (lsb), (w), (v))

#endif
