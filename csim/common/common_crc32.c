/*
 * common_crc32 -- cycle-accurate C model of the IEEE 802.3 CRC-32, 32 bits per cycle.
 * Spec: docs/common.md, section "common_crc32".
 */
#include "common_crc32.h"

#include <errno.h>
#include <stdio.h>

const char *const common_crc32_bug_names[] = {"none", "crc_ignore_keep", NULL};

/* "feed one byte b: c ^= b; repeat 8 times: c = (c & 1) ? (c >> 1) ^ 0xEDB88320 : c >> 1".
   Bit-serial on purpose: it is the spec's own definition. */
static uint32_t feed_byte(uint32_t c, uint8_t b) {
  c ^= b;
  for (int i = 0; i < 8; i++) c = (c & 1u) ? (c >> 1) ^ COMMON_CRC32_POLY_REFLECTED : c >> 1;
  return c;
}

/* Number of valid bytes for a legal keep_i (0001, 0011, 0111, 1111), or 0 if illegal. */
static unsigned legal_keep_bytes(unsigned keep) {
  switch (keep) {
    case 0x1: return 1;
    case 0x3: return 2;
    case 0x7: return 3;
    case 0xF: return 4;
    default: return 0;
  }
}

int common_crc32_init(common_crc32_state_t *s, const common_crc32_cfg_t *cfg) {
  s->c = COMMON_CRC32_INIT;
  s->keep_err = false;
  if (cfg->bug >= COMMON_CRC32_BUG_COUNT) {
    fprintf(stderr, "common_crc32: bug=%u is illegal (must be 0..%u)\n", cfg->bug,
            (unsigned)COMMON_CRC32_BUG_COUNT - 1u);
    return -EINVAL;
  }
  common_crc32_reset(s, cfg);
  return 0;
}

void common_crc32_reset(common_crc32_state_t *s, const common_crc32_cfg_t *cfg) {
  (void)cfg;
  s->c = COMMON_CRC32_INIT; /* "State c (32 bits), reset 0xFFFFFFFF" */
  s->keep_err = false;
}

void common_crc32_eval(const common_crc32_cfg_t *cfg, const common_crc32_state_t *s,
                       const common_crc32_in_t *in, common_crc32_out_t *out, common_crc32_next_t *nx) {
  out->crc = ~s->c;
  out->keep_err = s->keep_err;

  /* init_i starts a new message; this cycle's word, if any, is its first. */
  const uint32_t base = in->init ? COMMON_CRC32_INIT : s->c;
  unsigned n = legal_keep_bytes(in->keep & 0xFu); /* keep_i is a 4-bit port */
  const bool legal = n != 0;

  /* Planted bug crc_ignore_keep: a legal keep is ignored and all 4 bytes are fed. */
  if (legal && cfg->bug == COMMON_CRC32_BUG_IGNORE_KEEP) n = 4;

  uint32_t c = base; /* init alone resets, an illegal or absent word holds */
  if (in->valid && legal) {
    for (unsigned k = 0; k < n; k++) c = feed_byte(c, (uint8_t)(in->data >> (8u * k)));
  }
  nx->c = c;
  nx->keep_err = in->valid && !legal;
}

void common_crc32_commit(const common_crc32_cfg_t *cfg, common_crc32_state_t *s,
                         const common_crc32_next_t *nx) {
  (void)cfg;
  s->c = nx->c;
  s->keep_err = nx->keep_err;
}

void common_crc32_free(common_crc32_state_t *s) { (void)s; }
