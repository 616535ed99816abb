/* Scoreboard-side CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320,
 * start 0xFFFFFFFF, result inverted), table-driven: the checkers' own
 * reference, written apart from the models' bitwise common_crc32 so a
 * scoreboard never judges a model with the model's code (make lint greps
 * that no scoreboard calls a csim/ function). */
#ifndef NETCOSIM_REF_CRC32_REF_H
#define NETCOSIM_REF_CRC32_REF_H

#include <stdint.h>

static inline uint32_t crc32_ref_byte(uint32_t c, uint8_t b) {
  static uint32_t table[256];
  static int ready;
  if (!ready) {
    for (uint32_t n = 0; n < 256; n++) {
      uint32_t x = n;
      for (int k = 0; k < 8; k++) x = (x & 1u) ? 0xEDB88320u ^ (x >> 1) : x >> 1;
      table[n] = x;
    }
    ready = 1;
  }
  return table[(c ^ b) & 0xFFu] ^ (c >> 8);
}

/* A packet body's CRC as elite4's TAIL carries it (docs/elite4.md §3, §5.5):
 * every word's bytes, byte 0 = bits [7:0] first; 0 for an empty body. */
static inline uint32_t crc32_ref_words(const uint32_t *w, unsigned n) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned i = 0; i < n; i++)
    for (unsigned b = 0; b < 4; b++) c = crc32_ref_byte(c, (uint8_t)(w[i] >> (8 * b)));
  return ~c;
}

#endif
