/* Lanes of a port: a bus that is an array of n equal fields (e.g. one per
 * switch port), declared in the block's .cosim file with
 *   lanes TOP.PORT COUNT
 * (docs/cosim.md "Lanes"). gluegen describes each port of a target as a
 * cosim_lane_t (a port without a lanes line is one lane, if at most 64 bits
 * wide) and writes typed per-lane accessors; code written against the
 * descriptors serves every parameter set of the block. */
#ifndef NETCOSIM_COSIM_LANES_H
#define NETCOSIM_COSIM_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct cosim_lane {
  size_t offset;  /* of the port in its in/out struct */
  unsigned bytes; /* the port's storage */
  unsigned width; /* bits per lane (<= 64); 0: the port is wider than 64 bits and has no lanes */
  unsigned n;     /* lanes; lane k is bits [k*width +: width] */
} cosim_lane_t;

/* Port storage is little-endian whatever its C type (uint8..64_t, or uint32_t
 * words for wide ports), so one bit accessor serves every port. */
static inline uint64_t cosim_bits_get(const void *field, unsigned bytes, unsigned lsb, unsigned w) {
  uint8_t b[16] = {0};
  size_t at = lsb / 8, n = (w + lsb % 8 + 7) / 8;
  if (at + n > bytes) n = bytes - at;
  memcpy(b, (const uint8_t *)field + at, n);
  uint64_t lo, hi;
  memcpy(&lo, b, 8);
  memcpy(&hi, b + 8, 8);
  const unsigned s = lsb % 8;
  uint64_t v = s ? (lo >> s) | (hi << (64 - s)) : lo;
  return w >= 64 ? v : v & ((1ULL << w) - 1);
}
static inline void cosim_bits_set(void *field, unsigned bytes, unsigned lsb, unsigned w, uint64_t val) {
  uint8_t b[16] = {0};
  size_t at = lsb / 8, n = (w + lsb % 8 + 7) / 8;
  if (at + n > bytes) n = bytes - at;
  memcpy(b, (uint8_t *)field + at, n);
  uint64_t lo, hi;
  memcpy(&lo, b, 8);
  memcpy(&hi, b + 8, 8);
  const unsigned s = lsb % 8;
  const uint64_t m = w >= 64 ? ~0ULL : (1ULL << w) - 1;
  val &= m;
  lo = (lo & ~(m << s)) | (val << s);
  if (s) hi = (hi & ~(m >> (64 - s))) | (val >> (64 - s));
  memcpy(b, &lo, 8);
  memcpy(b + 8, &hi, 8);
  memcpy((uint8_t *)field + at, b, n);
}
static inline uint64_t cosim_lane_get(const cosim_lane_t *l, const void *s, unsigned lane) {
  return cosim_bits_get((const uint8_t *)s + l->offset, l->bytes, lane * l->width, l->width);
}
static inline void cosim_lane_set(const cosim_lane_t *l, void *s, unsigned lane, uint64_t v) {
  cosim_bits_set((uint8_t *)s + l->offset, l->bytes, lane * l->width, l->width, v);
}

#endif
