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
/* Fast paths (the bindings call these for every port every cycle): a lane of
 * 8, 16, 32 or 64 bits on a byte boundary is its bytes; a port of one lane in
 * a uint8..64_t is that integer's low bits. Both give exactly what the bit
 * accessors give (the bits around the lane untouched). Loads and stores have
 * constant sizes and the bit accessors are out of line; the fast paths are
 * always inlined (a call and a variable-size memcpy per port were 40 %
 * of the elan4 model's fabric runs by callgrind). */
__attribute__((always_inline)) static inline int cosim_lane_bytes(const cosim_lane_t *l) {
  return (l->width == 8 || l->width == 16 || l->width == 32 || l->width == 64) ? (int)(l->width / 8) : 0;
}
/* nb bytes (1, 2, 4 or 8; little-endian hosts only, as the glue) */
__attribute__((always_inline)) static inline uint64_t cosim_load_le(const uint8_t *f, unsigned nb) {
  uint8_t a;
  uint16_t b;
  uint32_t c;
  uint64_t d;
  switch (nb) {
    case 1: memcpy(&a, f, 1); return a;
    case 2: memcpy(&b, f, 2); return b;
    case 4: memcpy(&c, f, 4); return c;
    default: memcpy(&d, f, 8); return d;
  }
}
__attribute__((always_inline)) static inline void cosim_store_le(uint8_t *f, unsigned nb, uint64_t v) {
  const uint8_t a = (uint8_t)v;
  const uint16_t b = (uint16_t)v;
  const uint32_t c = (uint32_t)v;
  switch (nb) {
    case 1: memcpy(f, &a, 1); break;
    case 2: memcpy(f, &b, 2); break;
    case 4: memcpy(f, &c, 4); break;
    default: memcpy(f, &v, 8); break;
  }
}
__attribute__((always_inline)) static inline int cosim_pow2_le8(unsigned bytes) {
  return bytes <= 8 && bytes && (bytes & (bytes - 1)) == 0;
}
__attribute__((noinline, unused)) static uint64_t cosim_lane_get_slow(const cosim_lane_t *l, const uint8_t *f,
                                                                      unsigned lane) {
  return cosim_bits_get(f, l->bytes, lane * l->width, l->width);
}
__attribute__((noinline, unused)) static void cosim_lane_set_slow(const cosim_lane_t *l, uint8_t *f,
                                                                  unsigned lane, uint64_t v) {
  cosim_bits_set(f, l->bytes, lane * l->width, l->width, v);
}
__attribute__((always_inline)) static inline uint64_t cosim_lane_get(const cosim_lane_t *l, const void *s,
                                                                     unsigned lane) {
  const uint8_t *f = (const uint8_t *)s + l->offset;
  const int nb = cosim_lane_bytes(l);
  if (nb && (lane + 1) * (unsigned)nb <= l->bytes)
    return cosim_load_le(f + lane * (unsigned)nb, (unsigned)nb);
  if (l->n == 1 && lane == 0 && l->width && cosim_pow2_le8(l->bytes)) {
    const uint64_t x = cosim_load_le(f, l->bytes);
    return l->width >= 64 ? x : x & ((1ULL << l->width) - 1);
  }
  return cosim_lane_get_slow(l, f, lane);
}
__attribute__((always_inline)) static inline void cosim_lane_set(const cosim_lane_t *l, void *s,
                                                                 unsigned lane, uint64_t v) {
  uint8_t *f = (uint8_t *)s + l->offset;
  const int nb = cosim_lane_bytes(l);
  if (nb && (lane + 1) * (unsigned)nb <= l->bytes) {
    cosim_store_le(f + lane * (unsigned)nb, (unsigned)nb, v);
    return;
  }
  if (l->n == 1 && lane == 0 && l->width && l->width < 64 && cosim_pow2_le8(l->bytes)) {
    const uint64_t m = (1ULL << l->width) - 1;
    cosim_store_le(f, l->bytes, (cosim_load_le(f, l->bytes) & ~m) | (v & m));
    return;
  }
  cosim_lane_set_slow(l, f, lane, v);
}

#endif
