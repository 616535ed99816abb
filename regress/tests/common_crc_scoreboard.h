/* CRC-32 scoreboard: an independent, table-driven software CRC (the classic
 * byte-at-a-time zlib form) over the bytes fed since the last init; crc_o must
 * match it every cycle, and keep_err_o must follow illegal keep patterns. */
#ifndef COMMON_CRC_SCOREBOARD_H
#define COMMON_CRC_SCOREBOARD_H

#include "bind/common.h"
#include "common_busy.h"

typedef struct {
  uint32_t table[256];
  uint32_t crc; /* running register, pre-inversion */
  bool want_err;
  unsigned messages, bytes, errs;
  uint64_t busy; /* cycles with a valid byte */
} crc_sb_t;

static inline void crc_sb_init(crc_sb_t *sb) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    sb->table[n] = c;
  }
  sb->crc = 0xFFFFFFFFu;
}

static inline bool crc_sb_check(crc_sb_t *sb, const common_crc32_b4_in_t *in,
                                const common_crc32_b4_out_t *out, cosim_msg_t *msg) {
  if (out->crc_o != (uint32_t)~sb->crc) {
    cosim_fail(msg, "crc.software_crc", "crc_o=0x%08x, software CRC of the %u bytes so far is 0x%08x",
               out->crc_o, sb->bytes, (uint32_t)~sb->crc);
    return false;
  }
  if (out->keep_err_o != sb->want_err) {
    cosim_fail(msg, "crc.keep_err", "keep_err_o=%u, expected %u", out->keep_err_o, sb->want_err);
    return false;
  }
  static const unsigned legal_len[16] = {[1] = 1, [3] = 2, [7] = 3, [15] = 4};
  unsigned len = legal_len[in->keep_i & 15];
  if (in->init_i) {
    sb->crc = 0xFFFFFFFFu;
    sb->bytes = 0;
    sb->messages++;
  }
  sb->want_err = in->valid_i && !len;
  sb->errs += sb->want_err;
  if (in->valid_i && len) {
    for (unsigned k = 0; k < len; k++)
      sb->crc = sb->table[(sb->crc ^ (in->data_i >> (8 * k))) & 0xff] ^ (sb->crc >> 8);
    sb->bytes += len;
    sb->busy++;
  }
  return true;
}

/* Busy: a cycle that feeds at least one byte (valid_i with a legal keep). */
static inline bool crc_sb_busy(const crc_sb_t *sb, uint64_t cycles, cosim_msg_t *msg) {
  return common_busy_gate("crc.busy", "a valid byte", sb->busy, cycles, msg);
}

#endif
